//! The layout rule, checked on the source: no module imports from a layer above its own, no
//! modules import each other in a circle of any length, and no file grows past the size a
//! reader takes in at once.
//!
//! The layers, bottom to top (docs/ARCHITECTURE.md): `rng`, `position`, `book`, `eval`, `search`,
//! `tools`, `uci`, `fuzzing` (the bodies of the fuzz targets), then `main.rs`. A module may
//! use its own layer and those below. Within the library, a module and one of its descendants
//! may use each other (a parent declares its children, a child uses its parent's types); no
//! other modules may use each other, directly or around a circle (a uses b, b uses c, c uses
//! a). References are read from the text: every `crate::...` and `super::...` path, `use`
//! groups included, outside comments, resolved to the deepest module that has a file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, bottom layer first.
const LAYERS: &[&str] = &[
    "rng", "position", "book", "eval", "search", "tools", "uci", "fuzzing",
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

/// The module a file under `src/` defines (`src/search/mod.rs` and `src/search.rs` are
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

/// For every library module (main.rs excluded): the modules it refers to, each with the
/// first place it does.
fn dependency_graph() -> BTreeMap<Module, BTreeMap<Module, String>> {
    let src = root().join("src");
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
fn no_module_imports_from_a_layer_above_it() {
    let graph = dependency_graph();
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

/// The import circles of `graph`, of any length: each strongly connected group of modules
/// (Tarjan's algorithm), named by one circle through it with the place of each import. A
/// module and its own descendant may use each other, so those edges are left out.
fn circles(graph: &BTreeMap<Module, BTreeMap<Module, String>>) -> Vec<String> {
    let edges = |a: &Module| -> Vec<Module> {
        graph
            .get(a)
            .map(|targets| {
                targets
                    .keys()
                    .filter(|b| !is_ancestor(a, b) && !is_ancestor(b, a))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    // Tarjan's strongly connected components, iteratively over a module list.
    let modules: Vec<Module> = graph.keys().cloned().collect();
    let index_of: BTreeMap<&Module, usize> =
        modules.iter().enumerate().map(|(i, m)| (m, i)).collect();
    let successors: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| {
            edges(m)
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = modules.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut work = vec![(start, 0usize)];
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if let Some(&w) = successors[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    groups.push(group);
                }
            }
        }
    }
    // Name each group by a circle through it: from its first module, follow edges inside
    // the group (breadth first) back to the start.
    groups
        .into_iter()
        .map(|group| {
            let start = *group.iter().min().unwrap();
            let inside = |i: &usize| group.contains(i);
            let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut last = start;
            'search: while let Some(v) = queue.pop_front() {
                for &w in successors[v].iter().filter(|w| inside(w)) {
                    if w == start {
                        last = v;
                        break 'search;
                    }
                    if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(w) {
                        e.insert(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = vec![last];
            while let Some(&before) = came_from.get(path.last().unwrap()) {
                path.push(before);
            }
            path.reverse();
            if path[0] != start {
                path.insert(0, start);
            }
            path.push(start);
            let steps: Vec<String> = path
                .windows(2)
                .map(|pair| {
                    let (a, b) = (&modules[pair[0]], &modules[pair[1]]);
                    format!("{} -> {} ({})", name(a), name(b), graph[a][b])
                })
                .collect();
            format!(
                "a circle of {} modules: {}",
                path.len() - 1,
                steps.join(", ")
            )
        })
        .collect()
}

#[test]
fn no_import_circles_of_any_length() {
    let found = circles(&dependency_graph());
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The circle finder itself, on a fixture: three modules that use each other in a ring are
/// found (with each import's place), a parent and child that use each other are not, and a
/// chain without a way back is not.
#[test]
fn the_circle_finder_sees_a_circle_of_three() {
    let fixture = [
        ("search/a.rs", "use crate::search::b::B;\nfn f() {}\n"),
        ("search/b.rs", "fn g() { crate::search::c::h(); }\n"),
        ("search/c.rs", "use super::a;\nuse crate::eval::E;\n"),
        (
            "search/mod.rs",
            "use self::a::A;\nuse crate::search::d::D;\n",
        ),
        ("search/d.rs", "use super::Limits;\nuse crate::eval::E;\n"),
        ("eval/mod.rs", "use crate::rng::R;\n"),
        ("rng.rs", ""),
    ];
    let modules: BTreeSet<Module> = fixture
        .iter()
        .map(|(file, _)| module_of(Path::new(file)))
        .collect();
    let mut graph: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for (file, text) in fixture {
        let module = module_of(Path::new(file));
        let edges = graph.entry(module.clone()).or_default();
        for reference in references(&code_only(text), &module) {
            let target = resolve(&reference.path, &modules);
            if target != module {
                edges
                    .entry(target)
                    .or_insert_with(|| format!("{file}:{}", reference.line));
            }
        }
    }
    let found = circles(&graph);
    assert_eq!(
        found,
        [
            "a circle of 3 modules: search::a -> search::b (search/a.rs:1), \
          search::b -> search::c (search/b.rs:1), search::c -> search::a (search/c.rs:1)"
        ]
    );
    // Breaking one link breaks the circle.
    graph
        .get_mut(&module_of(Path::new("search/b.rs")))
        .unwrap()
        .clear();
    assert!(circles(&graph).is_empty());
}

#[test]
fn every_top_level_module_has_a_layer() {
    let graph = dependency_graph();
    let tops: BTreeSet<&String> = graph.keys().filter_map(|m| m.first()).collect();
    for top in tops {
        assert!(
            LAYERS.contains(&top.as_str()),
            "src/{top} has no layer: add it to LAYERS here and to docs/ARCHITECTURE.md"
        );
    }
}

#[test]
fn source_files_stay_readable_in_length() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
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
