//! The layout rules the compiler cannot see, checked on the source and the manifests.
//!
//! The workspace's crates point one way (docs/ARCHITECTURE.md): `engine` (the core) <- `tools`
//! <- `lab`, `engine` and `tools` <- `uci`, and all of them <- the `brudno` crate at the root
//! (the binary, `fuzzing`). Cargo refuses an import from a crate that is not a dependency and
//! any circle of crates; this file checks that each crate's manifest names only the crates
//! and libraries its place allows (the core: shakmaty, shakmaty-syzygy, arrayvec and libc; no
//! clap, serde, serde_json, tiny_http, indicatif or zstd).
//!
//! Inside the engine core the modules are in layers, bottom to top: `rng`, `position`,
//! `book`, `eval`, `search`; a module may use its own layer and those below. Inside every
//! crate, a module and one of its descendants may use each other (a parent declares its
//! children, a child uses its parent's types); no other modules may use each other, directly
//! or around a circle (a uses b, b uses c, c uses a). References are read from the text:
//! every `crate::...` and `super::...` path, `use` groups included, outside comments,
//! resolved to the deepest module that has a file. And no source file grows past the size a
//! reader takes in at once.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

mod circles;
use circles::circles;

/// The engine core's top-level modules, bottom layer first.
const LAYERS: &[&str] = &["rng", "position", "book", "eval", "search"];

/// The workspace's crates: the folder of the sources, and the dependencies the manifest may
/// name (workspace crates and outside libraries alike).
const CRATES: &[(&str, &[&str])] = &[
    (
        "engine",
        &["shakmaty", "shakmaty-syzygy", "arrayvec", "libc"],
    ),
    (
        "tools",
        &[
            "brudno-engine",
            "shakmaty",
            "arrayvec",
            "clap",
            "indicatif",
            "serde",
            "serde_json",
            "zstd",
        ],
    ),
    ("uci", &["brudno-engine", "brudno-tools", "shakmaty"]),
    (
        "lab",
        &[
            "brudno-engine",
            "brudno-tools",
            "shakmaty",
            "clap",
            "serde",
            "serde_json",
            "tiny_http",
        ],
    ),
    (
        ".",
        &[
            "brudno-engine",
            "brudno-uci",
            "brudno-tools",
            "brudno-lab",
            "clap",
            "serde_json",
            "shakmaty",
        ],
    ),
];

/// Longest a source file may be, in lines.
const MAX_LINES: usize = 700;

/// Files allowed past `MAX_LINES` for now, with the reason (none today).
const LONG_FILES: &[(&str, &str)] = &[];

/// A module path such as `["search", "worker"]`; empty for the crate root.
type Module = Vec<String>;

/// One `crate::`/`super::` reference: where it is and what it names.
struct Reference {
    line: usize,
    path: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src/` defines (`engine/src/search/mod.rs` and `engine/src/search.rs` are
/// `search`; `lib.rs` and `main.rs` are the root).
fn module_of(relative: &Path) -> Module {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The text without comments and without the contents of string and character literals, so
/// that a path in a doc comment or a message is not read as a reference. Line breaks stay.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut block_depth = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if block_depth > 0 {
            if c == b'*' && next == Some(b'/') {
                block_depth -= 1;
                i += 2;
            } else if c == b'/' && next == Some(b'*') {
                block_depth += 1;
                i += 2;
            } else {
                if c == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            continue;
        }
        match (c, next) {
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                block_depth = 1;
                i += 2;
            }
            (b'r', Some(b'"' | b'#')) if !is_ident_byte(bytes.get(i.wrapping_sub(1))) => {
                // A raw string: r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while bytes.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if bytes.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                let closing: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                while j < bytes.len() && !bytes[j..].starts_with(&closing) {
                    if bytes[j] == b'\n' {
                        out.push('\n');
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j + closing.len();
            }
            (b'"', _) => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                out.push_str("\"\"");
                i += 1;
            }
            (b'\'', _) => {
                // A character literal ('a', '\n', '\'') or a lifetime ('a without a close).
                let end = if next == Some(b'\\') {
                    bytes[i + 2..]
                        .iter()
                        .position(|&b| b == b'\'')
                        .map(|p| i + 3 + p)
                } else if bytes.get(i + 2) == Some(&b'\'') {
                    Some(i + 3)
                } else {
                    None
                };
                match end {
                    Some(end) => {
                        out.push_str("' '");
                        i = end;
                    }
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            _ => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

fn is_ident_byte(byte: Option<&u8>) -> bool {
    byte.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// Reads an identifier at `at`; returns it and the position after it.
fn ident(code: &[u8], at: usize) -> Option<(String, usize)> {
    let end = (at..code.len())
        .find(|&i| !is_ident_byte(Some(&code[i])))
        .unwrap_or(code.len());
    (end > at).then(|| (String::from_utf8_lossy(&code[at..end]).into_owned(), end))
}

fn skip_space(code: &[u8], mut at: usize) -> usize {
    while at < code.len() && code[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// Reads `seg::seg::...` (and `::{a, b::c, ...}` groups) from `at`, pushing every full path
/// onto `out`. Returns the position after it.
fn read_path(code: &[u8], mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        at = skip_space(code, at);
        if code.get(at) == Some(&b'{') {
            at += 1;
            loop {
                at = skip_space(code, at);
                match code.get(at) {
                    Some(b'}') => return at + 1,
                    Some(b',') => at += 1,
                    Some(b'*') => {
                        out.push(path.clone());
                        at += 1;
                    }
                    Some(_) => {
                        let before = at;
                        at = read_path(code, at, &path, out);
                        if at == before {
                            at += 1;
                        }
                    }
                    None => return at,
                }
            }
        }
        let Some((name, end)) = ident(code, at) else {
            break;
        };
        path.push(name);
        at = end;
        if code[at..].starts_with(b"::") {
            at += 2;
        } else {
            break;
        }
    }
    if path.len() > prefix.len() {
        out.push(path);
    }
    at
}

/// Every `crate::` and `super::` reference in `code`, in a file of module `module`, as an
/// absolute path (inline `mod x { ... }` blocks are followed, so `super` inside a test
/// module is the file's own module).
fn references(code: &str, module: &Module) -> Vec<Reference> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    // Inline modules open: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
        } else if c == b'{' {
            depth += 1;
        } else if c == b'}' {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
        }
        if is_ident_byte(Some(&c)) && !is_ident_byte(bytes.get(i.wrapping_sub(1))) {
            let (word, end) = ident(bytes, i).unwrap();
            if word == "mod" {
                let at = skip_space(bytes, end);
                if let Some((name, after)) = ident(bytes, at)
                    && bytes.get(skip_space(bytes, after)) == Some(&b'{')
                {
                    inline.push((name, depth + 1));
                }
            }
            if (word == "crate" || word == "super") && bytes[end..].starts_with(b"::") {
                let mut here: Module = module.clone();
                here.extend(inline.iter().map(|(name, _)| name.clone()));
                let mut paths = Vec::new();
                read_path(bytes, i, &[], &mut paths);
                for raw in paths {
                    let mut segments = raw.into_iter().peekable();
                    let mut base = if segments.peek().is_some_and(|s| s == "crate") {
                        segments.next();
                        Vec::new()
                    } else {
                        here.clone()
                    };
                    while segments.peek().is_some_and(|s| s == "super") {
                        segments.next();
                        base.pop();
                    }
                    base.extend(segments.filter(|s| s != "self"));
                    found.push(Reference { line, path: base });
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// The deepest module with a file that `path` lies in.
fn resolve(path: &[String], modules: &BTreeSet<Module>) -> Module {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.contains(m))
        .unwrap_or_default()
}

fn layer(module: &Module) -> Option<usize> {
    let top = module.first()?;
    LAYERS.iter().position(|l| l == top)
}

fn is_ancestor(a: &Module, b: &Module) -> bool {
    a.len() < b.len() && b[..a.len()] == a[..]
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

/// For every module of the crate whose sources are in `src` (main.rs excluded): the modules
/// it refers to, each with the first place it does.
fn dependency_graph(src: &str) -> BTreeMap<Module, BTreeMap<Module, String>> {
    let src = root().join(src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let files: Vec<(PathBuf, Module)> = files
        .into_iter()
        .filter(|f| !f.ends_with("main.rs"))
        .map(|f| {
            let module = module_of(f.strip_prefix(&src).unwrap());
            (f, module)
        })
        .collect();
    let modules: BTreeSet<Module> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut graph = BTreeMap::new();
    for (file, module) in &files {
        let text = fs::read_to_string(file).unwrap();
        let code = code_only(&text);
        let edges: &mut BTreeMap<Module, String> = graph.entry(module.clone()).or_default();
        for reference in references(&code, module) {
            let target = resolve(&reference.path, &modules);
            if &target != module {
                let relative = file.strip_prefix(root()).unwrap().display().to_string();
                edges
                    .entry(target)
                    .or_insert_with(|| format!("{relative}:{}", reference.line));
            }
        }
    }
    graph
}

#[test]
fn no_module_of_the_core_imports_from_a_layer_above_it() {
    let graph = dependency_graph("engine/src");
    let mut wrong = Vec::new();
    for (module, edges) in &graph {
        let Some(own) = layer(module) else {
            continue;
        };
        for (target, at) in edges {
            if let Some(theirs) = layer(target)
                && theirs > own
            {
                wrong.push(format!(
                    "{at}: {} ({}) uses {} ({}), a layer above it",
                    name(module),
                    LAYERS[own],
                    name(target),
                    LAYERS[theirs]
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "upward imports:\n{}", wrong.join("\n"));
}

#[test]
fn no_import_circles_of_any_length() {
    let mut found = Vec::new();
    for (dir, _) in CRATES {
        let src = Path::new(dir).join("src");
        for circle in circles(&dependency_graph(src.to_str().unwrap())) {
            found.push(format!("{dir}: {circle}"));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The names under `[dependencies]` of a manifest.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut inside = false;
    let mut names = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['.', '=', ' ']).next().unwrap_or("");
            names.push(name.trim().to_string());
        }
    }
    names
}

#[test]
fn each_crate_depends_only_on_what_its_place_allows() {
    let mut wrong = Vec::new();
    for (dir, allowed) in CRATES {
        let path = root().join(dir).join("Cargo.toml");
        let manifest = fs::read_to_string(&path).unwrap();
        let names = dependencies(&manifest);
        assert!(
            !names.is_empty(),
            "{}: no [dependencies] read",
            path.display()
        );
        for name in names {
            if !allowed.contains(&name.as_str()) {
                wrong.push(format!("{dir}/Cargo.toml depends on {name}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies outside the layout (docs/ARCHITECTURE.md says where code goes):\n{}",
        wrong.join("\n")
    );
    // The reader itself: a section after [dependencies] is not read as one.
    assert_eq!(
        dependencies("[dependencies]\na.workspace = true\nb = \"1\"\n[features]\nc = []\n"),
        ["a", "b"]
    );
}

#[test]
fn every_top_level_module_of_the_core_has_a_layer() {
    let graph = dependency_graph("engine/src");
    let tops: BTreeSet<&String> = graph.keys().filter_map(|m| m.first()).collect();
    assert!(tops.len() >= LAYERS.len(), "{tops:?}");
    for top in tops {
        assert!(
            LAYERS.contains(&top.as_str()),
            "engine/src/{top} has no layer: add it to LAYERS here and to docs/ARCHITECTURE.md"
        );
    }
}

#[test]
fn source_files_stay_readable_in_length() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "engine/src",
        "uci/src",
        "tools/src",
        "lab/src",
        "tests",
        "benches",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut long = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root()).unwrap().display().to_string();
        let lines = fs::read_to_string(&file).unwrap().lines().count();
        if lines > MAX_LINES && !LONG_FILES.iter().any(|(path, _)| *path == relative) {
            long.push(format!("{relative}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them by concern):\n{}",
        long.join("\n")
    );
}

/// The checker itself: it sees the references it must and ignores comments and strings.
#[test]
fn the_reader_finds_paths_and_ignores_comments() {
    let code = code_only(
        "use crate::search::{tt::Bound, Limits};\n\
         // use crate::uci::bestmove_line;\n\
         let s = \"crate::tools::bench\";\n\
         mod tests { use super::params::X; }\n\
         fn f() { crate::eval::nnue::load(); }\n",
    );
    let module = vec!["eval".to_string(), "positional".to_string()];
    let found: Vec<String> = references(&code, &module)
        .iter()
        .map(|r| format!("{}:{}", r.line, r.path.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            "1:search::tt::Bound",
            "1:search::Limits",
            "4:eval::positional::params::X",
            "5:eval::nnue::load",
        ]
    );
}
