//! Defaults that work in a charter repository (issue 34, problem 2): `run` without --matrix
//! takes manifests/pinned.toml and says so (else names --matrix offline), the docs' debugging
//! command works there as written, and unknown models and branches get a "did you mean" without
//! the suite cache's path or a shuffled list.

use crate::common::{harness, repo_root, stderr, stdout};
use std::path::Path;
use std::process::Command;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";

fn charter_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    dir
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}

#[test]
fn run_without_matrix_takes_the_pinned_manifest_and_says_so_else_names_matrix_offline() {
    let repo = charter_repo();
    let o = harness(repo.path(), &["run"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no --matrix, and no manifests/pinned.toml here (`harness init` writes one): give --matrix offline"),
        "{err}"
    );
    assert!(!err.contains("Usage:"), "not a bare clap error: {err}");
    let o = harness(repo.path(), &["init", "--branch", "main"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The pinned manifest's real models need keys: the run stops before any call, having said
    // which manifest it took.
    let o = harness(repo.path(), &["run"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("matrix: manifests/pinned.toml (no --matrix given; --matrix offline runs the built-in scripted models, no key)\n"),
        "{err}"
    );
    assert!(err.contains("_API_KEY"), "{err}");
}

#[test]
fn the_docs_debugging_command_runs_as_written_in_a_charter_repository() {
    let readme = std::fs::read_to_string(repo_root().join("docs/commands.md")).unwrap();
    let section = &readme[readme.find("## Debugging one case").unwrap()..];
    let command = section
        .split('`')
        .find(|s| s.starts_with("harness run "))
        .expect("a harness run command in the debugging section");
    let repo = charter_repo();
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let o = harness(repo.path(), &args, &[("NO_COLOR", "1")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{command}: {out}{}", stderr(&o));
    assert!(
        out.contains("── E8/A · scripted-naive · trial 1 ── FAIL"),
        "{command}: {out}"
    );
}

#[test]
fn an_unknown_model_gets_a_suggestion_and_the_built_in_manifest_by_name_not_its_cache_path() {
    let repo = charter_repo();
    let o = harness(
        repo.path(),
        &["run", "--matrix", "offline", "--model", "scripted-reeder"],
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--model scripted-reeder: matches no model name or role in offline.toml (built in); did you mean \"scripted-reader\"?"),
        "{err}"
    );
    // The suite cache is never named as if the user had written its path.
    assert!(
        !err.contains("charter-harness-cache") && !err.contains(".cache/"),
        "{err}"
    );
    let o = harness(
        repo.path(),
        &["run", "--matrix", "offline", "--model", "weakst"],
        &[],
    );
    assert!(
        stderr(&o).contains("did you mean \"weakest\"?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_mistyped_base_branch_gets_a_suggestion_and_the_branches_in_one_order() {
    let repo = charter_repo();
    git(repo.path(), &["init", "-q", "-b", "main"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-qm", "charter"]);
    for b in ["zeta", "alpha", "feature/x", "release"] {
        git(repo.path(), &["branch", b]);
    }
    let o = harness(
        repo.path(),
        &["run", "--matrix", "offline", "--trials", "1"],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let first = stderr(&harness(
        repo.path(),
        &["gate", "--charter-base", "mian"],
        &[],
    ));
    assert!(
        first.contains("--charter-base mian: no such revision in ")
            && first.contains("; did you mean \"main\"? (branches and tags there: alpha, feature/x, main, release, zeta)"),
        "{first}"
    );
    for _ in 0..3 {
        let again = stderr(&harness(
            repo.path(),
            &["gate", "--charter-base", "mian"],
            &[],
        ));
        let list = |s: &str| s[s.find("branches and tags there").unwrap()..].to_string();
        assert_eq!(list(&again), list(&first), "a stable order");
    }
}
