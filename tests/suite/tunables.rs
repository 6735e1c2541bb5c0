//! `brudno tunables` as a tuner reads it: every number of `search/params.rs` in OpenBench's
//! SPSA format. The tuning build itself (each number a UCI option that acts) is tested by
//! `tests/tunables.rs` under `--features tune`.

use crate::common::run_brudno;

/// One line per tunable, `name, int, value, min, max, c_end, r_end`, the value within its
/// range, every name once, and the same table the library declares.
#[test]
fn tunables_print_the_openbench_spsa_input() {
    let (status, out, _) = run_brudno(&["tunables"]);
    assert!(status.success());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), brudno::search::params::TUNABLES.len());
    let mut names = std::collections::BTreeSet::new();
    for (line, tunable) in lines.iter().zip(brudno::search::params::TUNABLES) {
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[0], tunable.name);
        assert_eq!(fields[1], "int");
        let number = |i: usize| fields[i].parse::<f64>().unwrap();
        assert!(number(3) <= number(2) && number(2) <= number(4), "{line}");
        assert!(number(5) > 0.0 && number(6) > 0.0, "{line}");
        assert!(names.insert(fields[0]), "{} twice", fields[0]);
    }
    assert!(names.contains("lmr_base") && names.contains("tm_hard_factor"));
}
