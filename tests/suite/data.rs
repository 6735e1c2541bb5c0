//! The self-play data kept in the repository (`data/`): every file is named by
//! `data/MANIFEST`, every named file is there with the checksum of its bytes, its game and
//! move counts, and the folder takes no more than 3.5 bytes per recorded move (`tools::datastore::check`, what
//! `brudno data check` prints). A clone without data/'s files (README.md's sparse clone)
//! skips the files it lacks and still refuses a file the manifest does not name or whose
//! bytes differ.

use std::path::{Path, PathBuf};

use brudno::tools::datastore;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Whether this checkout leaves files out on purpose (`git sparse-checkout`).
fn sparse_checkout() -> bool {
    std::process::Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "config",
            "--get",
            "core.sparseCheckout",
        ])
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "true")
}

#[test]
fn every_data_file_matches_its_manifest_line() {
    let dir = data_dir();
    match datastore::check(&dir) {
        Ok(checked) => {
            for entry in &checked.entries {
                assert!(entry.setting("seed").is_some(), "{}", entry.line());
                assert!(
                    entry.setting("commit").is_some_and(|c| c.len() == 40),
                    "{}",
                    entry.line()
                );
                assert!(entry.setting("network").is_some(), "{}", entry.line());
                assert!(entry.setting("nodes").is_some(), "{}", entry.line());
            }
            // A whole checkout has every file; only a sparse one may lack some.
            assert!(
                checked.skipped.is_empty() || sparse_checkout(),
                "files named by data/MANIFEST are missing: {:?}",
                checked.skipped
            );
        }
        Err(problems) => panic!(
            "data/ does not match its MANIFEST:\n{}",
            problems.join("\n")
        ),
    }
}

/// A folder with the manifest and only its smallest file: the rest is skipped and said so;
/// a file the manifest does not name, or a named file whose bytes differ, still fails.
#[test]
fn a_clone_without_the_data_skips_what_it_lacks_and_nothing_else() {
    let source = data_dir();
    let entries = datastore::read_manifest(&source).expect("data/MANIFEST reads");
    let Some(smallest) = entries
        .iter()
        .filter(|e| source.join(&e.file).exists())
        .min_by_key(|e| e.raw_bytes)
    else {
        return; // No data file in this checkout at all: nothing to copy.
    };
    let dir = std::env::temp_dir().join(format!("brudno-data-skip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(source.join("MANIFEST"), dir.join("MANIFEST")).unwrap();
    std::fs::copy(source.join(&smallest.file), dir.join(&smallest.file)).unwrap();

    let checked = datastore::check(&dir).expect("a partial folder checks");
    assert_eq!(checked.entries.len(), entries.len());
    assert_eq!(checked.skipped.len(), entries.len() - 1);
    assert!(!checked.skipped.contains(&smallest.file));

    std::fs::write(dir.join("stray.vf.zst"), b"not named").unwrap();
    let problems = datastore::check(&dir).expect_err("a file the manifest does not name");
    assert!(
        problems.iter().any(|p| p.contains("stray.vf.zst")),
        "{problems:?}"
    );
    std::fs::remove_file(dir.join("stray.vf.zst")).unwrap();

    let mut bytes = std::fs::read(dir.join(&smallest.file)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(dir.join(&smallest.file), &bytes).unwrap();
    let problems = datastore::check(&dir).expect_err("a named file whose bytes differ");
    assert!(
        problems.iter().any(|p| p.contains("checksum")),
        "{problems:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
