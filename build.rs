//! Build script: records the commit the binary is built from (`BRUDNO_COMMIT`, `unknown`
//! outside a git checkout), for the data manifest that says which binary played each game,
//! and chooses the network compiled in (`BRUDNO_NET`): `nets/default.nnue`, or the file named
//! by the environment variable `BRUDNO_EVALFILE` (`make EVALFILE=...`, as OpenBench builds).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .filter(|text| !text.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BRUDNO_COMMIT={commit}");
    // Built again when HEAD moves (a commit, a checkout), in a worktree too.
    for path in [
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--git-path", "refs/heads"]),
        git(&["rev-parse", "--git-path", "packed-refs"]),
    ]
    .into_iter()
    .flatten()
    .filter(|path| std::path::Path::new(path).exists())
    {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    embed_network();
}

/// The network file to compile in, checked for the magic and the version the engine reads.
fn embed_network() {
    println!("cargo:rerun-if-env-changed=BRUDNO_EVALFILE");
    let chosen = std::env::var("BRUDNO_EVALFILE")
        .ok()
        .filter(|path| !path.trim().is_empty());
    let path = match &chosen {
        Some(path) => std::path::PathBuf::from(path),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue"),
    };
    let path = std::fs::canonicalize(&path)
        .unwrap_or_else(|error| panic!("EVALFILE {}: {error}", path.display()));
    let bytes =
        std::fs::read(&path).unwrap_or_else(|error| panic!("EVALFILE {}: {error}", path.display()));
    let version = bytes
        .get(8..12)
        .map(|v| u32::from_le_bytes([v[0], v[1], v[2], v[3]]));
    if !bytes.starts_with(b"BRUDNNUE") || version != Some(2) {
        panic!(
            "EVALFILE {}: not a Brudno network file of version 2 (brudno nnue-info FILE says more)",
            path.display()
        );
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=BRUDNO_NET={}", path.display());
}
