//! A command started in a subfolder of a charter repository (issue 42, item 3) reads the
//! repository's files at its root, as git finds it: the folder holding `.git`.

use crate::common::{harness, repo_root, stderr, stdout};
use std::path::Path;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";

/// A git repository holding CHARTER.md and an empty subfolder `docs/`.
fn charter_repo_with_subfolder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git2::Repository::init(dir.path()).unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    dir
}

fn root_of(dir: &Path) -> String {
    std::fs::canonicalize(dir).unwrap().display().to_string()
}

#[test]
fn run_from_a_subfolder_tests_the_repository_s_charter_and_writes_results_at_its_root() {
    let repo = charter_repo_with_subfolder();
    let sub = std::fs::canonicalize(repo.path().join("docs")).unwrap();
    let o = harness(&sub, &["run", "--matrix", "offline", "--trials", "1"], &[]);
    let err = stderr(&o);
    assert!(matches!(o.status.code(), Some(0 | 1 | 3)), "{err}");
    let said = format!("repository root: {} (", root_of(repo.path()));
    assert_eq!(err.matches(&said).count(), 1, "said once: {err}");
    assert!(
        err.contains("charter: CHARTER.md (this repository's)"),
        "not the built-in example: {err}"
    );
    assert!(repo.path().join("results/latest/summary.json").is_file());
    assert!(
        !sub.join("results").exists(),
        "nothing written in the subfolder"
    );
    // The readers of results/latest find it from the subfolder too.
    for cmd in [&["check"][..], &["show", "--json"], &["gate"], &["runs"]] {
        let o = harness(&sub, cmd, &[]);
        assert_ne!(o.status.code(), Some(2), "{cmd:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&said), "{cmd:?}: {}", stderr(&o));
    }
    assert!(stdout(&harness(&sub, &["runs"], &[])).contains("0.1.0"));
}

#[test]
fn a_command_at_the_root_or_outside_a_repository_says_no_root() {
    let repo = charter_repo_with_subfolder();
    let o = harness(repo.path(), &["runs"], &[]);
    assert!(!stderr(&o).contains("repository root"), "{}", stderr(&o));
    let plain = tempfile::tempdir().unwrap();
    std::fs::create_dir(plain.path().join("sub")).unwrap();
    let o = harness(&plain.path().join("sub"), &["runs"], &[]);
    assert!(!stderr(&o).contains("repository root"), "{}", stderr(&o));
}
