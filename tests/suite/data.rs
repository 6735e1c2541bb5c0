//! The self-play data kept in the repository (`data/`): every file is named by
//! `data/MANIFEST`, every named file is there with the checksum of its bytes, its game and
//! move counts, and the folder takes no more than 3.5 bytes per recorded move (`tools::datastore::check`, what
//! `brudno data check` prints).

use std::path::Path;

use brudno::tools::datastore;

#[test]
fn every_data_file_matches_its_manifest_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    match datastore::check(&dir) {
        Ok(entries) => {
            for entry in &entries {
                assert!(entry.setting("seed").is_some(), "{}", entry.line());
                assert!(
                    entry.setting("commit").is_some_and(|c| c.len() == 40),
                    "{}",
                    entry.line()
                );
                assert!(entry.setting("network").is_some(), "{}", entry.line());
                assert!(entry.setting("nodes").is_some(), "{}", entry.line());
            }
        }
        Err(problems) => panic!(
            "data/ does not match its MANIFEST:\n{}",
            problems.join("\n")
        ),
    }
}
