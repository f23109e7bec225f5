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

/// `harness run --matrix offline --trials 1` in `dir` with `extra`; the run folder it wrote
/// (as `results/<id>`), read from its stderr.
fn offline_once(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["run", "--matrix", "offline", "--trials", "1"];
    args.extend_from_slice(extra);
    let o = harness(dir, &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let after = stdout(&o);
    let at = after.find("reports: ").expect("reports line") + "reports: ".len();
    let dir_shown = &after[at..after[at..].find("/{").unwrap() + at];
    let id = Path::new(dir_shown).file_name().unwrap().to_str().unwrap();
    format!("results/{id}")
}

#[test]
fn with_no_path_show_and_check_name_the_run_they_read_and_a_newer_narrowed_one() {
    let repo = charter_repo();
    // No full run yet: the newest narrowed run is read, and said so (before: nothing found).
    let first = offline_once(repo.path(), &["--case", "E1,E2"]);
    for cmd in [&["check"][..], &["show", "--json"]] {
        let o = harness(repo.path(), cmd, &[]);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(&format!(
                "no full run yet: reading {first}, the newest narrowed run (--case E1,E2); a run of every unit becomes results/latest\n"
            )),
            "{cmd:?}: {}",
            stderr(&o)
        );
    }
    let o = harness(repo.path(), &["check"], &[]);
    assert!(
        stdout(&o).ends_with("6 transcripts: 4 pass, 2 fail, 0 inconclusive; 0 verdicts changed\n"),
        "{}",
        stdout(&o)
    );
    // The gate still reads results/latest only.
    assert_eq!(harness(repo.path(), &["gate"], &[]).status.code(), Some(2));

    // A full run: it is named, as results/latest.
    let full = offline_once(repo.path(), &[]);
    let o = harness(repo.path(), &["check"], &[]);
    assert_eq!(
        stderr(&o),
        format!("reading {full} (results/latest: the newest full run)\n")
    );
    let transcripts = format!(
        "{} transcripts: ",
        crate::common::counts::Counts::get().offline_units()
    );
    assert!(stdout(&o).contains(&transcripts), "{}", stdout(&o));
    // `gate` keeps each run's own id: read through results/latest, or an older run by path.
    for (args, run) in [
        (vec!["gate"], &full),
        (vec!["gate", first.as_str()], &first),
    ] {
        assert_eq!(harness(repo.path(), &args, &[]).status.code(), Some(1));
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(repo.path().join(run).join("summary.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            format!("results/{}", summary["run"]["id"].as_str().unwrap()),
            *run
        );
        let md = std::fs::read_to_string(repo.path().join(run).join("report.md")).unwrap();
        assert!(!md.contains("latest"), "{md}");
    }

    // A narrowed run after it: still the full run, and the newer one named with its folder.
    let newer = offline_once(repo.path(), &["--case", "E8", "--model", "weakest"]);
    for cmd in [&["check"][..], &["show", "E8", "--json"]] {
        let o = harness(repo.path(), cmd, &[]);
        assert_eq!(
            stderr(&o),
            format!(
                "reading {full} (results/latest: the newest full run)\n\
                 a newer narrowed run (--case E8 --model scripted-naive) is in {newer}: give its folder to read it\n"
            ),
            "{cmd:?}"
        );
    }

    // `compare` against the narrowed run: the units it compared come first, then those on
    // one side only.
    let o = harness(repo.path(), &["compare", &full, &newer], &[]);
    let out = stdout(&o);
    let changes: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| E"))
        .map(|l| l.rsplit(" | ").next().unwrap().trim_end_matches(" |"))
        .collect();
    let compared = changes
        .iter()
        .take_while(|c| !c.starts_with("only-in"))
        .count();
    assert_eq!(compared, 2, "E8/A and E8/B on scripted-naive first:\n{out}");
    assert!(
        changes[compared..].iter().all(|c| c.starts_with("only-in")),
        "{out}"
    );
}
