//! `--matrix pinned` in a charter repository (issue 42, item 3): the built-in manifest tests the
//! built-in example charter, so stderr points at the repository's own manifest.

use crate::common::{harness, repo_root, stderr};

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";
const BUILT_IN: &str = "matrix: `pinned` is the manifest built into harness, which tests the built-in example charter, not this repository's";

fn charter_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git2::Repository::init(dir.path()).unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    dir
}

#[test]
fn matrix_pinned_in_a_charter_repository_points_at_its_own_pinned_manifest() {
    let repo = charter_repo();
    // Only CHARTER.md: the note names `harness init`. No key: the run stops before any call.
    let o = harness(repo.path(), &["run", "--matrix", "pinned"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{BUILT_IN} (CHARTER.md); `harness init` writes manifests/pinned.toml"
        )),
        "{err}"
    );
    let o = harness(repo.path(), &["init", "--branch", "main"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = harness(repo.path(), &["run", "--matrix", "pinned"], &[]);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{BUILT_IN}; this repository has manifests/pinned.toml: give --matrix manifests/pinned.toml to test your charter")),
        "{err}"
    );
    // From a subfolder, the root's manifest is named by a path that works from there.
    std::fs::create_dir(repo.path().join("docs")).unwrap();
    let o = harness(
        &repo.path().join("docs"),
        &["run", "--matrix", "pinned"],
        &[],
    );
    let own = std::fs::canonicalize(repo.path())
        .unwrap()
        .join("manifests/pinned.toml");
    let want = format!("give --matrix {} to test", own.display());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

#[test]
fn matrix_pinned_outside_a_charter_repository_and_matrix_offline_say_nothing_of_it() {
    let plain = tempfile::tempdir().unwrap();
    let o = harness(plain.path(), &["run", "--matrix", "pinned"], &[]);
    assert!(
        !stderr(&o).contains("manifest built into harness"),
        "{}",
        stderr(&o)
    );
    let repo = charter_repo();
    let o = harness(
        repo.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
        ],
        &[],
    );
    assert!(
        !stderr(&o).contains("manifest built into harness"),
        "{}",
        stderr(&o)
    );
}
