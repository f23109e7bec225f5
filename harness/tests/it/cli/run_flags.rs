//! `harness run`'s scripting flags (issue 42, item 3): `--max-concurrency` as an upper bound,
//! a closed stdout, `--dry-run` (checked and planned, nothing sent).

use crate::common::example_charter;
use crate::common::loopback_run::{run_harness, two_api_manifest};
use crate::common::model_server::{encode, generic_turn};
use loopback::{LoopbackServer, OnSent, Reply};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const PINNED: &str = "test-model-2026-01-01";

/// A server that answers after 150 ms and records the most requests it held at once.
async fn counting_server() -> (LoopbackServer, Arc<AtomicUsize>) {
    let now = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (n, m) = (now.clone(), most.clone());
    let server = LoopbackServer::start(Arc::new(move |r, _| {
        let inflight = n.fetch_add(1, Ordering::SeqCst) + 1;
        m.fetch_max(inflight, Ordering::SeqCst);
        let n = n.clone();
        let done = OnSent(Arc::new(move |_| {
            n.fetch_sub(1, Ordering::SeqCst);
        }));
        let reply = encode(r, &generic_turn(r), PINNED);
        Reply::Delay(
            Duration::from_millis(150),
            Box::new(Reply::Notify(Box::new(reply), done)),
        )
    }))
    .await;
    (server, most)
}

async fn most_in_flight(extra: &[&str]) -> usize {
    let (server, most) = counting_server().await;
    let m = two_api_manifest(&example_charter(), &server.url(), PINNED, "", "", "");
    let mut args = vec!["--case", "E2", "--model", "oa", "--trials", "4"];
    args.extend(extra);
    let run = run_harness(m, &args).await;
    assert!(matches!(run.code, 0 | 1), "{}\n{}", run.stdout, run.stderr);
    most.load(Ordering::SeqCst)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_concurrency_bounds_the_requests_in_flight_below_the_manifest_s() {
    let unbounded = most_in_flight(&[]).await;
    assert!(
        unbounded > 1,
        "the manifest's 4 lets trials overlap: {unbounded}"
    );
    assert_eq!(most_in_flight(&["--max-concurrency", "1"]).await, 1);
    // Never a raise: 64 over the manifest's 4 still holds 4.
    assert!(most_in_flight(&["--max-concurrency", "64"]).await <= 4);
}

#[test]
fn a_stdout_closed_early_does_not_stop_the_run_nor_lose_its_gate_or_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let (open, closed) = (dir.path().join("open"), dir.path().join("closed"));
    let argv = |out: &std::path::Path| {
        format!(
            "{} run --matrix offline --case E1 --trials 1 --out {}",
            env!("CARGO_BIN_EXE_harness"),
            out.display()
        )
    };
    let sh = |script: String| {
        std::process::Command::new("sh")
            .args(["-c", &script])
            .current_dir(crate::common::repo_root())
            .output()
            .unwrap()
    };
    let want = sh(format!("{} >/dev/null; echo $?", argv(&open)));
    // `exec 1>&-` is not enough (the shell reopens nothing): a reader that exits at once.
    let got = sh(format!(
        "{{ {} ; echo $? >&2; }} | head -c 1 >/dev/null",
        argv(&closed)
    ));
    let code = |o: &std::process::Output, from_stderr: bool| {
        let text = String::from_utf8_lossy(if from_stderr { &o.stderr } else { &o.stdout });
        text.lines().last().unwrap_or("").trim().to_string()
    };
    assert_eq!(
        code(&got, true),
        code(&want, false),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    assert_ne!(code(&got, true), "141", "killed by SIGPIPE");
    assert!(
        closed.join("summary.json").is_file(),
        "the gate was written"
    );
    assert!(
        closed.join("report.md").is_file(),
        "the reports were written"
    );
}

/// A server that counts every request it is sent.
async fn tallying_server() -> (LoopbackServer, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let s = seen.clone();
    let server = LoopbackServer::start(Arc::new(move |r, _| {
        s.fetch_add(1, Ordering::SeqCst);
        encode(r, &generic_turn(r), PINNED)
    }))
    .await;
    (server, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_checks_and_prints_the_priced_plan_sends_nothing_and_writes_nothing() {
    let (server, seen) = tallying_server().await;
    let m = two_api_manifest(&example_charter(), &server.url(), PINNED, "", "", "");
    let run = run_harness(m.clone(), &["--case", "E2", "--trials", "2", "--dry-run"]).await;
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "nothing sent: {}",
        run.stderr
    );
    assert!(!run.dir.path().join("out").exists(), "no run folder");
    assert!(
        run.stderr
            .contains("dry run: everything checked, nothing sent, nothing written"),
        "{}",
        run.stderr
    );
    // The plan a real run prints before its first call, word for word.
    let real = run_harness(m, &["--case", "E2", "--trials", "2"]).await;
    assert!(seen.load(Ordering::SeqCst) > 0, "the real run sends");
    let plan = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("plan") || l.contains("episodes"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert!(!plan(&real.stderr).is_empty(), "{}", real.stderr);
    assert_eq!(plan(&run.stderr), plan(&real.stderr), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_on_bad_input_exits_2_like_a_run_and_needs_no_key() {
    let (server, seen) = tallying_server().await;
    let m = two_api_manifest(&example_charter(), &server.url(), PINNED, "", "", "");
    let run = run_harness(m.clone(), &["--case", "E99", "--dry-run"]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("E99"), "{}", run.stderr);
    // A key that is not set is no bad input for a dry run: it is named, and the plan priced.
    let m = m.replace("CH_TEST_KEY", "CH_TEST_KEY_THAT_IS_NOT_SET");
    let run = run_harness(m.clone(), &["--case", "E2", "--dry-run"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("note: ") && run.stderr.contains("CH_TEST_KEY_THAT_IS_NOT_SET"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("plan:"), "{}", run.stderr);
    assert_eq!(seen.load(Ordering::SeqCst), 0);
    // A run still stops on it.
    let run = run_harness(m, &["--case", "E2"]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(seen.load(Ordering::SeqCst), 0);
}

#[test]
fn dry_run_prices_the_pinned_matrix_without_keys_labelling_expected_and_worst_case_apart() {
    let dir = tempfile::tempdir().unwrap();
    let o = crate::common::harness(dir.path(), &["run", "--matrix", "pinned", "--dry-run"], &[]);
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("$ANTHROPIC_API_KEY") && err.contains("$OPENAI_API_KEY"),
        "{err}"
    );
    let frontier = err
        .lines()
        .find(|l| l.trim_start().starts_with("frontier ("))
        .unwrap_or_else(|| panic!("{err}"));
    // The provider by its name, as a manifest spells it, not its Rust name.
    assert!(frontier.contains("(anthropic claude-"), "{frontier}");
    assert!(
        !err.contains("Openai") && !err.contains("(Anthropic"),
        "{err}"
    );
    let expected = frontier.find("expected: at least $").expect(frontier);
    let worst = frontier
        .find("worst-case bound on output: $")
        .expect(frontier);
    assert!(expected < worst, "{frontier}");
    assert!(frontier.contains("answering max_tokens 4096"), "{frontier}");
}

#[test]
fn the_environments_proxy_is_named_in_the_plan_with_its_credentials_masked() {
    let m = crate::common::unreachable_models(&example_charter(), ["CH_A", "CH_B"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.toml");
    std::fs::write(&path, m).unwrap();
    let argv = crate::common::loopback_run::run_argv(&path, &["--case", "E2", "--dry-run"]);
    let a: Vec<&str> = argv.iter().map(String::as_str).collect();
    let keys = [("CH_A", "sk-proxy-test-a-4242"), ("CH_B", "k-b")];
    let proxy = "http://user:sk-proxy-test-a-4242@127.0.0.1:9";
    let with = [keys.as_slice(), &[("HTTP_PROXY", proxy)]].concat();
    let o = crate::common::harness(dir.path(), &a, &with);
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let line = "proxy: f, w through http://***@127.0.0.1:9 (HTTP_PROXY)";
    assert!(
        err.find(line).unwrap_or_else(|| panic!("{err}")) < err.find("plan:").unwrap(),
        "before the plan: {err}"
    );
    assert!(!err.contains("sk-proxy-test"), "{err}");
    // The models speak http://: HTTPS_PROXY is not theirs, and nothing is said.
    let https_only = [keys.as_slice(), &[("HTTPS_PROXY", proxy)]].concat();
    for env in [&keys[..], &https_only[..]] {
        let o = crate::common::harness(dir.path(), &a, env);
        let err = crate::common::stderr(&o);
        assert!(!err.lines().any(|l| l.starts_with("proxy: ")), "{err}");
    }
}
