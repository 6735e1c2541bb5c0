//! Build script of the engine core: chooses the network compiled in (`BRUDNO_NET`):
//! `nets/default.nnue` at the workspace's root, or the file named by the environment variable
//! `BRUDNO_EVALFILE` (`make EVALFILE=...`, as OpenBench builds).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    embed_network();
}

/// The network file to compile in, checked for the magic and the version the engine reads.
fn embed_network() {
    println!("cargo:rerun-if-env-changed=BRUDNO_EVALFILE");
    let chosen = std::env::var("BRUDNO_EVALFILE")
        .ok()
        .filter(|path| !path.trim().is_empty());
    // A relative path is read from the workspace's root, where `make` and cargo are run.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = match &chosen {
        Some(path) => root.join(path),
        None => root.join("nets/default.nnue"),
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
