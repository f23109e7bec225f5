//! The first hour in a charter repository, as a new user meets it: what a run tests is said
//! before it starts, Ctrl-C says how to finish, file errors name the operation and the way
//! out, `check` ends with one line of counts, `compare` pairs and orders as people read, and
//! the README's walkthrough from `init` to the first gate runs as written.

use crate::common;

use common::{
    example_charter, harness, repo_root, stderr, stdout, unreachable_models, write_offline_manifest,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";

/// A charter repository: a folder holding the Reasoning Charter as CHARTER.md.
fn charter_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    dir
}

/// The newest run folder under `dir/results`.
fn latest(dir: &Path) -> PathBuf {
    dir.join("results")
        .join(std::fs::read_link(dir.join("results/latest")).unwrap())
}

/// `harness run --matrix offline --trials 1` (every unit, so it becomes `results/latest`) and
/// `extra` in `cwd`.
fn run_e1_once(cwd: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["run", "--matrix", "offline", "--trials", "1"];
    args.extend_from_slice(extra);
    harness(cwd, &args, &[])
}

#[test]
fn a_run_names_the_charter_matrix_and_suite_and_offline_tests_the_repositorys_charter() {
    let repo = charter_repo();
    let o = run_e1_once(repo.path(), &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("charter: CHARTER.md (this repository's), not the offline matrix's built-in example; --charter FILE tests another"),
        "{err}"
    );
    let banner = "testing: charter CHARTER.md — \"Reasoning Charter\", version 0.1.0, runtime sha256 ba4cade0bfb1\n         matrix offline (built in)\n         suite built into harness ";
    assert!(err.contains(banner), "{err}");
    // Named before anything is planned or run.
    assert!(err.find("testing: charter").unwrap() < err.find("plan:").unwrap());
    let run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(latest(repo.path()).join("run.json")).unwrap(),
    )
    .unwrap();
    assert!(run["charter"]["source"]
        .as_str()
        .unwrap()
        .ends_with("CHARTER.md"));

    // `runs` tells two charters of the same version apart by their path.
    let o = run_e1_once(
        repo.path(),
        &["--charter", example_charter().to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("this repository's"),
        "--charter wins over CHARTER.md"
    );
    let listed = stdout(&harness(repo.path(), &["runs"], &[]));
    // Under the header row, one line a run.
    let lines: Vec<&str> = listed.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(
        lines.iter().all(|l| l.contains("charter 0.1.0")),
        "{listed}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("/fixtures/charters/example-charter.md)")),
        "{listed}"
    );
    assert!(
        lines.iter().any(|l| l.ends_with("  (CHARTER.md)")),
        "{listed}"
    );

    // `gate` (on results/latest by default) names what the run tested, and the suite now.
    let o = harness(repo.path(), &["gate"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("testing: charter ") && err.contains("\"Example Reasoning Charter\", version 0.1.0, runtime sha256 e9f7bc287423\n         matrix offline (built in)"),
        "{err}"
    );
}

#[test]
fn a_narrowed_run_is_listed_as_narrowed_with_the_models_it_ran_and_never_becomes_latest() {
    let repo = charter_repo();
    let o = run_e1_once(repo.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let whole = std::fs::read_link(repo.path().join("results/latest")).unwrap();
    let o = harness(
        repo.path(),
        &[
            "run", "--matrix", "offline", "--case", "E8", "--model", "weakest", "--trials", "1",
        ],
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "is not results/latest (which still points at {}, for gate, check and show)",
            whole.display()
        )),
        "{err}"
    );
    assert_eq!(
        std::fs::read_link(repo.path().join("results/latest")).unwrap(),
        whole,
        "gate, check, show and --charter-base keep reading the whole run"
    );
    let listed = stdout(&harness(repo.path(), &["runs"], &[]));
    let narrowed: Vec<&str> = listed.lines().filter(|l| l.contains("narrowed")).collect();
    assert_eq!(narrowed.len(), 1, "{listed}");
    assert!(
        narrowed[0].ends_with("narrowed: --case E8 --model scripted-naive")
            && narrowed[0].contains(" scripted-naive  (")
            && !narrowed[0].contains("scripted-compliant"),
        "only the model it ran: {listed}"
    );
    let other = listed
        .lines()
        .skip(1)
        .find(|l| !l.contains("narrowed"))
        .unwrap();
    assert!(
        other.contains("scripted-compliant, scripted-naive, scripted-reader"),
        "{listed}"
    );
}

#[test]
fn the_offline_matrix_tests_the_charter_an_init_manifest_names() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join("docs")).unwrap();
    std::fs::copy(repo_root().join(SEED), repo.path().join("docs/charter.md")).unwrap();
    let o = harness(repo.path(), &["init"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pinned = repo.path().join("manifests/pinned.toml");
    let text = std::fs::read_to_string(&pinned).unwrap();
    std::fs::write(&pinned, text.replace("../CHARTER.md", "../docs/charter.md")).unwrap();
    let o = run_e1_once(repo.path(), &[]);
    let err = stderr(&o);
    assert!(
        err.contains("charter: docs/charter.md (named by manifests/pinned.toml), not the offline matrix's built-in example")
            && err.contains("testing: charter docs/charter.md — \"Reasoning Charter\""),
        "{err}"
    );
}

/// `harness run` on the offline matrix into `run_dir` with `extra` arguments and its trial
/// folders under `scratch`, in the background with its output captured.
fn spawn_offline_run(run_dir: &Path, scratch: &Path, extra: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["run", "--matrix", "manifests/offline.toml"])
        .args(extra)
        .args(["--out", run_dir.to_str().unwrap()])
        .current_dir(repo_root())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("CHARTER_HARNESS_TMPDIR", scratch)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Ctrl-C to `child` (SIGINT), then all it wrote.
fn interrupt(child: std::process::Child) -> std::process::Output {
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_says_what_was_written_and_how_to_resume_removes_trial_folders_and_exits_130() {
    let scratch = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let run_dir = out.path().join("run");
    let child = spawn_offline_run(&run_dir, scratch.path(), &[]);
    // Interrupt once the first transcript is written.
    let started = Instant::now();
    let transcripts = run_dir.join("transcripts");
    while common::files_under(&transcripts).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(60), "no transcript");
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = interrupt(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let said = regex::Regex::new(r"\ninterrupted: (\d+) trials? finished by this run \((\d+) in (.*)\), kept; (\d+) trial folders? removed from (.*)\.\n")
        .unwrap();
    let c = said.captures(&err).unwrap_or_else(|| panic!("{err}"));
    let written: usize = c[1].parse().unwrap();
    let episodes = crate::common::counts::Counts::get().offline_episodes();
    assert!(written > 0 && written < episodes, "{err}");
    assert_eq!(c[1], c[2], "a new run: all it holds is its own");
    assert_eq!(&c[3], run_dir.display().to_string(), "{err}");
    assert_eq!(&c[5], scratch.path().display().to_string(), "{err}");
    resumable_and_clean(&err, &run_dir, scratch.path());

    // The command it printed finishes the run.
    let command = err.lines().last().unwrap().trim().to_string();
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let o = harness(&repo_root(), &args, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // A trial may finish between the count and the exit; none it counted is lost.
    let kept: usize = regex::Regex::new(&format!(
        r"resume: (\d+) of {episodes} trials already completed"
    ))
    .unwrap()
    .captures(&err)
    .unwrap_or_else(|| panic!("{err}"))[1]
        .parse()
        .unwrap();
    assert!(kept >= written && kept < episodes, "{kept} vs {written}");
    assert_eq!(common::files_under(&transcripts).len(), episodes);
}

#[test]
fn sigterm_ends_a_run_as_ctrl_c_does_removing_its_trial_folders_and_printing_the_resume_command() {
    // A CI job's timeout sends SIGTERM: the run must clean up as it does for Ctrl-C.
    let scratch = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let run_dir = out.path().join("run");
    let child = spawn_offline_run(&run_dir, scratch.path(), &[]);
    let started = Instant::now();
    while common::files_under(&run_dir.join("transcripts")).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(60), "no transcript");
        std::thread::sleep(Duration::from_millis(10));
    }
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("\nterminated (SIGTERM): "), "{err}");
    resumable_and_clean(&err, &run_dir, scratch.path());
}

/// An ended run printed the exact command that finishes it, and its trial folders are gone,
/// not left in memory until the next run.
fn resumable_and_clean(err: &str, run_dir: &Path, scratch: &Path) {
    let resume = format!(
        "Finish the run (finished trials are kept, never repeated):\n  {} run --matrix manifests/offline.toml --resume {}",
        env!("CARGO_BIN_EXE_harness"),
        run_dir.display()
    );
    assert!(err.contains(&resume), "{err}");
    let left: Vec<_> = std::fs::read_dir(scratch)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn ctrl_c_as_the_last_trials_finish_still_ends_with_130_never_a_gate_exit() {
    // The trials end on their own just as the Ctrl-C lands: the run must not reach its own end
    // and exit with the gate's code before the interrupt has said what was kept. Tried a few
    // times, at the moment the last transcript appears.
    for attempt in 0..5 {
        let scratch = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let run_dir = out.path().join("run");
        let child = spawn_offline_run(&run_dir, scratch.path(), &["--case", "E1", "--trials", "1"]);
        let started = Instant::now();
        let transcripts = run_dir.join("transcripts");
        while common::files_under(&transcripts).len() < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no transcripts"
            );
            std::thread::yield_now();
        }
        let o = interrupt(child);
        let err = stderr(&o);
        use std::os::unix::process::ExitStatusExt;
        // 130 with the message, or (a signal after the run let go of Ctrl-C) the default death
        // by SIGINT; never 0 or 1, which would read as a finished gate.
        match (o.status.code(), o.status.signal()) {
            (Some(130), _) => assert!(err.contains("\ninterrupted: "), "{err}"),
            (None, Some(libc::SIGINT)) => {}
            other => panic!("attempt {attempt}: {other:?}\n{err}"),
        }
    }
}

#[test]
fn a_results_folder_that_cannot_be_written_names_the_operation_the_path_and_out() {
    // /sys refuses new folders to everyone (root included): "Operation not permitted".
    if !Path::new("/sys/fs").is_dir() {
        common::skipped("no /sys/fs");
        return;
    }
    let cwd = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/sys/fs", cwd.path().join("results")).unwrap();
    let o = run_e1_once(cwd.path(), &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{err}");
    let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
    assert!(
        line.starts_with("error: could not create run folder results/")
            && line.ends_with(": permission denied — choose another with --out DIR"),
        "{err}"
    );
    let o = harness(
        cwd.path(),
        &[
            "run",
            "--matrix",
            "offline",
            "--case",
            "E1",
            "--trials",
            "1",
            "--out",
            "/sys/fs/charter-harness-run",
        ],
        &[],
    );
    assert!(
        stderr(&o).contains("error: could not create run folder /sys/fs/charter-harness-run: permission denied — choose another with --out DIR"),
        "{}",
        stderr(&o)
    );
    // A file where a folder should be: the same operation, path and way out.
    let cwd = tempfile::tempdir().unwrap();
    std::fs::write(cwd.path().join("results"), "").unwrap();
    let o = run_e1_once(cwd.path(), &[]);
    let err = stderr(&o);
    assert!(
        err.contains("error: could not create run folder results/")
            && err.contains("— choose another with --out DIR"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn check_ends_with_one_line_of_counts_and_show_check_and_gate_default_to_results_latest() {
    let cwd = tempfile::tempdir().unwrap();
    // Nothing run yet: the default is named, with what to give instead.
    for cmd in ["check", "show", "gate"] {
        let o = harness(cwd.path(), &[cmd], &[]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(
            stderr(&o).contains("results/latest: no run here (it points at the newest run `harness run` wrote in this folder) — give a run folder or transcript files"),
            "{cmd}: {}",
            stderr(&o)
        );
    }
    // A narrowed run is not results/latest: gate still has nothing to read (check and show
    // read it, saying so: cli::defaults).
    let o = harness(
        cwd.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1,E2", "--trials", "1",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("narrowed run: results/")
            && stderr(&o)
                .contains("is not results/latest (which is not set, for gate, check and show)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(harness(cwd.path(), &["gate"], &[]).status.code(), Some(2));
    let o = harness(
        cwd.path(),
        &["run", "--matrix", "offline", "--trials", "1"],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = harness(cwd.path(), &["check"], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // One trial a unit on the offline models: scripted-naive fails every unit, the others pass.
    let c = crate::common::counts::Counts::get();
    let (all, fail) = (c.offline_units(), c.units);
    let counts = format!(
        "{all} transcripts: {} pass, {fail} fail, 0 inconclusive",
        all - fail
    );
    assert_eq!(
        out.lines().last().unwrap(),
        format!("{counts}; 0 verdicts changed"),
        "{out}"
    );
    assert!(
        !out.contains("PASS "),
        "unchanged verdicts are not listed: {out}"
    );
    let verbose = stdout(&harness(cwd.path(), &["check", "--verbose"], &[]));
    assert_eq!(verbose.matches("PASS ").count(), all - fail, "{verbose}");
    assert!(verbose.ends_with(&format!("{counts}; 0 verdicts changed\n")));

    // A changed verdict is listed above the line, with its failed criteria.
    let run = latest(cwd.path());
    let file = run.join("transcripts/scripted-naive/E2-default/trial-1.json");
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    t["checker"]["pass"] = serde_json::Value::Bool(true);
    std::fs::write(&file, t.to_string()).unwrap();
    let out = stdout(&harness(cwd.path(), &["check"], &[]));
    let at = out
        .find("Verdicts that changed against the stored ones (1):\n")
        .unwrap();
    assert!(
        out[at..].contains("E2-default/trial-1.json: PASS → FAIL\n      ✗ "),
        "{out}"
    );
    assert!(
        out.ends_with(&format!("{counts}; 1 verdict changed\n")),
        "{out}"
    );
    let o = harness(cwd.path(), &["show", "--json"], &[]);
    assert_eq!(stdout(&o).lines().count(), all, "{}", stderr(&o));
}

/// A copy of the offline manifest with its models renamed, for a run under other names.
fn renamed_manifest(dir: &Path) -> PathBuf {
    let path = dir.join("renamed.toml");
    write_offline_manifest(
        &path,
        &[
            ("name = \"scripted-compliant\"", "name = \"front\""),
            ("name = \"scripted-naive\"", "name = \"weak\""),
        ],
    );
    path
}

#[test]
fn compare_orders_cases_naturally_pairs_models_by_role_and_exits_2_when_nothing_pairs() {
    let cwd = tempfile::tempdir().unwrap();
    let suite = repo_root();
    let manifest = renamed_manifest(cwd.path());
    let run = |name: &str, matrix: &str, cases: &str| {
        let out = cwd.path().join(name);
        let o = harness(
            cwd.path(),
            &[
                "run",
                "--matrix",
                matrix,
                "--suite",
                suite.to_str().unwrap(),
                "--case",
                cases,
                "--trials",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
            &[],
        );
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        out.display().to_string()
    };
    let offline = repo_root().join("manifests/offline.toml");
    let a = run("a", offline.to_str().unwrap(), "E10,E2,E1");
    let b = run("b", manifest.to_str().unwrap(), "E10,E2,E1");
    let o = harness(cwd.path(), &["compare", &a, &b], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(
        out.contains(
            "- paired by role (the model names differ): frontier: scripted-compliant → front\n"
        ) && out.contains(
            "- paired by role (the model names differ): weakest: scripted-naive → weak\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "0 regression(s), 0 improvement(s), 0 within noise, 9 unchanged, 0 undecided or on one side only"
        ),
        "{out}"
    );
    let units: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| E"))
        .map(|l| l.split(" | ").next().unwrap())
        .collect();
    assert_eq!(
        units,
        [
            "| E1/default",
            "| E1/default",
            "| E1/default",
            "| E2/default",
            "| E2/default",
            "| E2/default",
            "| E10/default",
            "| E10/default",
            "| E10/default"
        ],
        "{out}"
    );
    assert!(
        out.contains("| E1/default | scripted-compliant → front | pass 1/1 (0.03–1) | pass 1/1 (0.03–1) | same |"),
        "{out}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&harness(
        cwd.path(),
        &["compare", &a, &b, "--json"],
        &[],
    )))
    .unwrap();
    assert_eq!(json["paired_by_role"].as_array().unwrap().len(), 2);

    // Two runs with no unit in common: nothing to compare, exit 2.
    let c = run("c", offline.to_str().unwrap(), "E3");
    let o = harness(cwd.path(), &["compare", &a, &c], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains(": nothing to compare — no unit has a result on both sides"),
        "{}",
        stderr(&o)
    );
}

/// The README's walkthrough: its commands, in order, with the exit status each one's comment
/// promises, in a folder holding the Reasoning Charter as CHARTER.md; and the output it quotes.
#[test]
fn the_readme_walkthrough_from_init_to_the_first_gate_runs_as_written() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- walkthrough: commands -->")
        .expect("README walkthrough");
    let block = &readme[start..];
    let block = &block[block.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let repo = tempfile::tempdir().unwrap();
    let mut ran = 0;
    let mut outputs = String::new();
    for line in block.lines() {
        let (cmd, comment) = line.split_once('#').unwrap_or((line, ""));
        let cmd = cmd.trim();
        if let Some(src) = cmd.strip_prefix("cp ") {
            // The user's copy of their charter; here the Reasoning Charter fixture.
            assert!(src.ends_with(" CHARTER.md"), "{line}");
            std::fs::copy(repo_root().join(SEED), repo.path().join("CHARTER.md")).unwrap();
            continue;
        }
        let Some(args) = cmd.strip_prefix("harness ") else {
            // Making the repository is the reader's own business.
            assert!(
                cmd.is_empty() || cmd.starts_with("git ") || cmd.starts_with("cd "),
                "unexpected: {line}"
            );
            continue;
        };
        let want: i32 = comment
            .trim()
            .strip_prefix("exit ")
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no `# exit N` comment: {line}"));
        let args: Vec<&str> = args.split_whitespace().collect();
        let o = harness(repo.path(), &args, &[]);
        assert_eq!(
            o.status.code(),
            Some(want),
            "{line}\n{}{}",
            stdout(&o),
            stderr(&o)
        );
        outputs.push_str(&stdout(&o));
        outputs.push_str(&stderr(&o));
        ran += 1;
    }
    assert!(ran >= 6, "{ran} commands");
    assert!(repo.path().join("results/latest/report.md").is_file());
    // Every output line the README quotes is what the commands printed.
    let start = readme.find("<!-- walkthrough: output -->").unwrap();
    let quoted = &readme[start..];
    let quoted = &quoted[quoted.find("```\n").unwrap() + 4..];
    let quoted = &quoted[..quoted.find("```").unwrap()];
    for l in quoted
        .lines()
        .filter(|l| !l.trim().is_empty() && l.trim() != "…")
    {
        assert!(
            outputs.contains(l),
            "README quotes {l:?}; the commands printed:\n{outputs}"
        );
    }
}

#[test]
fn the_missing_key_message_says_where_env_is_looked_up_and_a_parents_env_is_read() {
    let repo = tempfile::tempdir().unwrap();
    let sub = repo.path().join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let m = sub.join("m.toml");
    std::fs::write(
        &m,
        unreachable_models(&example_charter(), ["CH_KEY_ONE", "CH_KEY_ONE"]),
    )
    .unwrap();
    let root = repo_root();
    let args = [
        "run",
        "--matrix",
        "m.toml",
        "--suite",
        root.to_str().unwrap(),
        "--case",
        "E1",
    ];
    let o = harness(&sub, &args, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("this API key variable is not set: $CH_KEY_ONE (models f, w) — set it in the environment, or in a .env file (this folder's, else the nearest parent folder's; keep it out of git — see the README's \"API keys and .env\")"),
        "{}",
        stderr(&o)
    );
    // The repository root's .env serves a run started in a folder below it.
    std::fs::write(
        repo.path().join(".env"),
        "CH_KEY_ONE=sk-dotenv-cccccccccccc\n",
    )
    .unwrap();
    let o = harness(&sub, &args, &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    assert!(readme.contains("### API keys and .env"));
}

#[test]
fn a_merge_names_what_its_shards_tested_before_the_gate() {
    let cwd = tempfile::tempdir().unwrap();
    let shards: Vec<String> = ["1/2", "2/2"]
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let out = cwd.path().join(format!("shard-{i}"));
            let o = harness(
                &repo_root(),
                &[
                    "run", "--matrix", "manifests/offline.toml", "--case", "E1", "--trials", "1",
                    "--shard", k, "--out", out.to_str().unwrap(),
                ],
                &[],
            );
            assert!(stderr(&o).contains("testing: charter fixtures/charters/example-charter.md — \"Example Reasoning Charter\", version 0.1.0, runtime sha256 e9f7bc287423\n         matrix manifests/offline.toml\n"), "{}", stderr(&o));
            out.display().to_string()
        })
        .collect();
    let merged = cwd.path().join("merged");
    let o = harness(
        &repo_root(),
        &[
            "merge",
            &shards[0],
            &shards[1],
            "--out",
            merged.to_str().unwrap(),
            "--quiet-summary",
        ],
        &[],
    );
    let err = stderr(&o);
    assert!(
        err.starts_with("testing: charter fixtures/charters/example-charter.md — \"Example Reasoning Charter\", version 0.1.0, runtime sha256 e9f7bc287423\n         matrix manifests/offline.toml\n         suite built into harness "),
        "{err}"
    );
}
