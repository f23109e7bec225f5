//! Diagnostic logs (issue 42, item 1): `RUST_LOG` and `--log-level`, to stderr, every line
//! through the key-masking printer, with reqwest's connection records bridged in.

use crate::common::loopback_run::{run_argv, two_api_manifest, KEY};
use crate::common::model_server::{generic_turn, serve};
use crate::common::{example_charter, files_under, harness, repo_root, stderr, stdout};

const PINNED: &str = "test-model-2026-01-01";

/// `harness run` of E1 on `oa`, one trial, against a loopback server, with `env` and the key.
async fn logged_run(
    env: &[(&str, &str)],
    extra: &[&str],
) -> (std::process::Output, tempfile::TempDir) {
    let server = serve(generic_turn, PINNED).await;
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    let manifest = two_api_manifest(&example_charter(), &server.url(), PINNED, "", "", "");
    std::fs::write(&m, manifest).unwrap();
    let out = dir.path().join("out");
    let mut argv = run_argv(&m, &["--case", "E1", "--model", "oa", "--trials", "1"]);
    argv.extend(["--out".into(), out.display().to_string()]);
    argv.extend(extra.iter().map(|s| s.to_string()));
    let mut env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    env.push(("CH_TEST_KEY".into(), KEY.into()));
    let o = tokio::task::spawn_blocking(move || {
        let a: Vec<&str> = argv.iter().map(String::as_str).collect();
        let e: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        harness(std::path::Path::new("/"), &a, &e)
    })
    .await
    .unwrap();
    drop(server);
    (o, dir)
}

fn assert_no_key_anywhere(o: &std::process::Output, dir: &std::path::Path) {
    assert!(!stdout(o).contains(KEY), "the key on stdout");
    assert!(
        !stderr(o).contains(KEY),
        "the key in the log:\n{}",
        stderr(o)
    );
    for f in files_under(dir) {
        let bytes = std::fs::read(&f).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(KEY), "the key in {}", f.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_log_debug_logs_connections_and_files_read_and_never_the_key() {
    let (o, dir) = logged_run(&[("RUST_LOG", "debug")], &[]).await;
    let err = stderr(&o);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "a gate decided:\n{err}"
    );
    // reqwest's `log` records, bridged: the connection to the loopback server.
    assert!(
        err.contains("reqwest::connect") && err.contains("starting new connection"),
        "{err}"
    );
    // The harness's own events: the manifest and charter it read.
    assert!(
        err.contains("harness::files::read") && err.contains("kind=\"manifest\""),
        "{err}"
    );
    assert!(err.contains("kind=\"charter\""), "{err}");
    // Every line is a log line or the run's own output; none prints the key.
    assert_no_key_anywhere(&o, dir.path());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_level_wins_over_rust_log_and_without_either_no_debug_line_is_printed() {
    let (quiet, _d) = logged_run(&[], &[]).await;
    assert!(!stderr(&quiet).contains("DEBUG"), "{}", stderr(&quiet));
    let (o, dir) = logged_run(&[("RUST_LOG", "error")], &["--log-level", "debug"]).await;
    assert!(stderr(&o).contains("DEBUG"), "{}", stderr(&o));
    assert_no_key_anywhere(&o, dir.path());
    // A filter that does not parse is bad input naming the flag.
    let bad = harness(&repo_root(), &["--log-level", "debug=[", "cases"], &[]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("--log-level"), "{}", stderr(&bad));
}

#[test]
fn a_misspelt_log_level_is_refused_and_a_rust_log_the_harness_cannot_use_is_a_warning() {
    // `debgu` is valid filter syntax (a target named debgu, which logs nothing): refused.
    let bad = harness(&repo_root(), &["--log-level", "debgu", "cases"], &[]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("--log-level"), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("did you mean \"debug\"?"),
        "{}",
        stderr(&bad)
    );
    assert!(bad.stdout.is_empty(), "nothing ran");
    // A known target alone, and a path under one, are filters the harness can use.
    for ok in ["harness", "reqwest", "harness::files", "hyper_util=debug"] {
        let o = harness(&repo_root(), &["--log-level", ok, "cases"], &[]);
        assert_eq!(o.status.code(), Some(0), "{ok}: {}", stderr(&o));
    }
    // RUST_LOG may be set for other programs: the command runs, and says it was not used.
    let o = harness(&repo_root(), &["cases"], &[("RUST_LOG", "debgu")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("warning: RUST_LOG"), "{err}");
    assert!(err.contains("the default (warn)"), "{err}");
    assert!(!o.stdout.is_empty(), "the command still ran");
    let o = harness(&repo_root(), &["cases"], &[("RUST_LOG", "debug=[")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: RUST_LOG"), "{}", stderr(&o));
}
