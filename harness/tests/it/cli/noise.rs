//! Errors and noise (issue 42, item 5): what a message names, and what it leaves out.

use crate::common::{harness, repo_root, stderr};

#[test]
fn a_manifest_value_of_the_wrong_type_names_its_key_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo_root().join("manifests/offline.toml")).unwrap();
    let bad = text.replacen("trials = 3", "trials = \"three\"", 1);
    assert_ne!(bad, text, "the offline manifest sets trials = 3");
    let m = dir.path().join("m.toml");
    std::fs::write(&m, &bad).unwrap();
    let o = harness(&repo_root(), &["key", "--matrix", m.to_str().unwrap()], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("expected u32"), "{err}");
    assert!(err.contains("(key `run.trials`)"), "names the key:\n{err}");
    assert!(err.contains(&format!("{}, line ", m.display())), "{err}");
    // In an array of tables: the table's name and the key.
    let bad = text.replacen("max_concurrency = 8", "max_concurrency = -2", 1);
    assert_ne!(bad, text);
    std::fs::write(&m, &bad).unwrap();
    let err = stderr(&harness(
        &repo_root(),
        &["key", "--matrix", m.to_str().unwrap()],
        &[],
    ));
    assert!(err.contains("(key `models.max_concurrency`)"), "{err}");
}

#[test]
fn matrix_ofline_is_asked_whether_it_meant_the_built_in_offline() {
    let dir = tempfile::tempdir().unwrap();
    let o = harness(dir.path(), &["run", "--matrix", "ofline"], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did you mean \"offline\"?"), "{err}");
    // A name far from every built-in one keeps the plain file error.
    let o = harness(dir.path(), &["run", "--matrix", "zzzzzzzz"], &[]);
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(stderr(&o).contains("zzzzzzzz"), "{}", stderr(&o));
}

#[test]
fn a_missing_key_two_models_share_is_named_once_with_both_models() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    let manifest = crate::common::loopback_run::two_api_manifest(
        &crate::common::example_charter(),
        "http://127.0.0.1:9",
        "pinned-1",
        "",
        "",
        "",
    );
    std::fs::write(&m, manifest).unwrap();
    let o = harness(dir.path(), &["run", "--matrix", m.to_str().unwrap()], &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("$CH_TEST_KEY").count(), 1, "named once:\n{err}");
    assert!(err.contains("$CH_TEST_KEY (models oa, an)"), "{err}");
    assert!(err.contains("this API key variable is not set"), "{err}");
}

/// `sh -c "harness ARGS 2>&1"` in `cwd`: stdout and stderr in one pipe, in the order written.
fn combined(cwd: &std::path::Path, args: &str) -> (Option<i32>, String) {
    let bin = env!("CARGO_BIN_EXE_harness");
    let o = std::process::Command::new("sh")
        .args(["-c", &format!("'{bin}' {args} 2>&1")])
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn the_verdict_is_the_last_line_of_run_and_gate_with_stdout_and_stderr_together() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let (code, text) = combined(
        &repo_root(),
        &format!(
            "run --matrix offline --case E1 --trials 1 --out '{}'",
            out.display()
        ),
    );
    assert_eq!(code, Some(1), "{text}");
    let last = |t: &str| {
        t.lines()
            .rfind(|l| !l.trim().is_empty())
            .unwrap()
            .to_string()
    };
    assert!(last(&text).starts_with("Gate: "), "{text}");
    // What each model was sent is still said, before the gate.
    let sent = text.find("scripted-naive: sent ").expect("the sent lines");
    assert!(sent < text.rfind("Gate: ").unwrap(), "{text}");
    let (code, text) = combined(&repo_root(), &format!("gate '{}'", out.display()));
    assert_eq!(code, Some(1), "{text}");
    assert!(last(&text).starts_with("Gate: "), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_no_limits_shows_no_waiting_state() {
    use crate::common::loopback_run::{run_harness, two_api_manifest};
    use crate::common::model_server::{generic_turn, serve};
    // No limit in the manifest and none in the answers' headers: until an account's first
    // answer its requests go one at a time, which is no wait on a limit.
    let server = serve(generic_turn, "pinned-1").await;
    let manifest = two_api_manifest(
        &crate::common::example_charter(),
        &server.url(),
        "pinned-1",
        "[decoding]\nmax_tokens = 100",
        "max_concurrency = 4",
        "max_concurrency = 4",
    );
    let run = run_harness(manifest, &["--case", "E1,E2", "--trials", "3"]).await;
    assert!([0, 1].contains(&run.code), "{}", run.stderr);
    assert!(server.requests().len() >= 12, "{}", run.stderr);
    assert!(!run.stderr.contains("WAITING"), "{}", run.stderr);
    assert!(!run.stderr.contains("(~0.0s)"), "{}", run.stderr);
    assert!(!run.stderr.contains("on rate limits"), "{}", run.stderr);
}

#[test]
fn a_finished_run_folder_holds_no_lock_file_and_resumes_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = crate::common::offline_run(&out, &["--case", "E1", "--trials", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(out.join("run.json").is_file());
    assert!(
        !out.join(".lock").exists(),
        "a .lock left in the run folder"
    );
    // Its run.json, not a lock file, marks it now: a resume (nothing left) and a gate still work.
    let o = harness(
        &repo_root(),
        &["run", "--resume", out.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = harness(&repo_root(), &["gate", out.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!out.join(".lock").exists());
}

/// A run folder's trial transcripts (not the temp files a write goes through).
fn trial_files(run_dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    crate::common::files_under(&run_dir.join("transcripts"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("trial-") && n.ends_with(".json"))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_run_folder_holds_no_lock_file_keeps_its_transcripts_and_resumes() {
    use crate::common::loopback_run::{harness_off_runtime, responder, run_argv, KEY};
    use crate::common::model_server::{encode, generic_turn};
    use loopback::{LoopbackServer, Reply};
    use std::time::{Duration, Instant};
    // A slow model: the run is still sending when the signal lands.
    let server = LoopbackServer::start(responder(|r, _| {
        Reply::Delay(
            Duration::from_millis(150),
            Box::new(encode(r, &generic_turn(r), "pinned-1")),
        )
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    std::fs::write(
        &m,
        crate::common::loopback_run::two_api_manifest(
            &crate::common::example_charter(),
            &server.url(),
            "pinned-1",
            "",
            "",
            "",
        ),
    )
    .unwrap();
    let completed = regex::Regex::new(r"resume: (\d+) of 16 trials already completed").unwrap();
    // Ctrl-C, and SIGTERM (a CI job's timeout), which ends a run the same way.
    for (name, signal) in [("SIGINT", libc::SIGINT), ("SIGTERM", libc::SIGTERM)] {
        let out = dir.path().join(format!("out-{name}"));
        let out_s = out.display().to_string();
        let argv = run_argv(
            &m,
            &[
                "--case", "E2", "--model", "oa", "--trials", "16", "--out", &out_s,
            ],
        );
        let mut child = crate::common::spawn_quiet(&argv, &[("CH_TEST_KEY", KEY)]);
        let until = Instant::now() + Duration::from_secs(60);
        while trial_files(&out).len() < 2 {
            assert!(Instant::now() < until, "{name}: the run wrote too little");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let seen: Vec<(std::path::PathBuf, Vec<u8>)> = trial_files(&out)
            .into_iter()
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert!(
            out.join(".lock").is_file(),
            "{name}: the running run's lock"
        );
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
            .await
            .unwrap();
        assert_eq!(status.code(), Some(130), "{name}");
        let left: Vec<_> = crate::common::files_under(&out)
            .into_iter()
            .filter(|p| !trial_files(&out).contains(p))
            .collect();
        assert!(
            !out.join(".lock").exists(),
            "{name}: a .lock left in the interrupted run folder; besides transcripts: {left:?}"
        );
        // Every transcript written before the signal is kept, byte for byte.
        for (p, bytes) in &seen {
            assert_eq!(&std::fs::read(p).unwrap(), bytes, "{name}: {}", p.display());
        }
        let kept = trial_files(&out).len();
        assert!(kept < 16, "{name}: interrupted midway, {kept} written");

        // The resume finishes the run from what was kept, and leaves no lock either.
        let o = harness_off_runtime(run_argv(&m, &["--resume", &out_s])).await;
        let err = stderr(&o);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{name}: {err}");
        let resumed: usize = completed
            .captures(&err)
            .unwrap_or_else(|| panic!("{name}: {err}"))[1]
            .parse()
            .unwrap();
        assert!(resumed >= seen.len(), "{name}: {resumed} of {}", seen.len());
        assert_eq!(trial_files(&out).len(), 16, "{name}: {err}");
        assert!(!out.join(".lock").exists(), "{name}: after the resume");
    }
}

#[test]
fn a_results_latest_that_is_a_folder_is_left_as_it_is_with_no_temp_link_beside_it() {
    // A run folder copied to results/latest stands for itself; a whole run cannot point the
    // name at itself, and must not leave the link it tried to rename there.
    let cwd = tempfile::tempdir().unwrap();
    let latest = cwd.path().join("results/latest");
    std::fs::create_dir_all(&latest).unwrap();
    std::fs::write(latest.join("run.json"), "{}").unwrap();
    let o = harness(
        cwd.path(),
        &["run", "--matrix", "offline", "--trials", "1"],
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(latest.is_dir() && !latest.is_symlink(), "left as it is");
    assert_eq!(std::fs::read(latest.join("run.json")).unwrap(), b"{}");
    let left: Vec<_> = std::fs::read_dir(cwd.path().join("results"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temp files left in results/: {left:?}");
    assert!(
        err.contains("results/latest: a folder, not the link a run moves: left as it is"),
        "{err}"
    );
}
