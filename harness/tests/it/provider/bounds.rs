//! The provider bounded against a hostile or broken server: every header value is data (absurd,
//! negative, NaN, infinite waits and dates, bad reset times, on 200 and 429 answers: no panic,
//! the run completes), a provider that always answers 429 with no wait ends the request at its
//! deadline after a handful of requests, and a body that never ends or is far too large ends the
//! trial inconclusive naming the cap, with the run's memory flat.

use crate::common;

use common::example_charter;
use common::loopback_run::{responder, run_argv, run_harness, two_api_manifest, KEY};
use common::model_server::{encode, generic_turn};
use loopback::{LoopbackServer, Reply};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PINNED: &str = "test-model-2026-01-01";

fn manifest(server: &LoopbackServer, extra: &str) -> String {
    let limits = format!("retry_base_ms = 10\ntimeout_secs = 5\n{extra}");
    two_api_manifest(
        &example_charter(),
        &server.url(),
        PINNED,
        "[decoding]\nmax_tokens = 100",
        &limits,
        &limits,
    )
}

fn errors(run: &common::loopback_run::Run) -> Vec<String> {
    common::files_under(&run.out().join("transcripts"))
        .iter()
        .map(|f| {
            let t: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            t["error"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// Every value the attack and fuzzing rounds found, for `retry-after`, `retry-after-ms` and the
/// reset headers of both families.
const HOSTILE: [&str; 8] = [
    "1e30",
    "1e300",
    "-5",
    "NaN",
    "inf",
    "Thu, 01 Jan 1970 00:00:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 GMT",
    "not a date",
];

/// `reply` with every rate-limit and retry header set to `v`.
fn hostile(reply: Reply, v: &str) -> Reply {
    let mut r = reply;
    for h in [
        "retry-after",
        "retry-after-ms",
        "x-ratelimit-limit-tokens",
        "x-ratelimit-remaining-tokens",
        "x-ratelimit-reset-tokens",
        "x-ratelimit-reset-requests",
        "anthropic-ratelimit-tokens-limit",
        "anthropic-ratelimit-tokens-remaining",
        "anthropic-ratelimit-tokens-reset",
        "anthropic-ratelimit-requests-reset",
    ] {
        r = r.with_header(h, v);
    }
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_1e30_1e300_negative_nan_inf_and_dates_in_1970_and_9999_never_panic_on_200s() {
    // Every answer a 200 whose every header holds one of the values, in turn: all complete.
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    let server = LoopbackServer::start(responder(move |req, _| {
        let v = HOSTILE[seen.fetch_add(1, Ordering::SeqCst) % HOSTILE.len()];
        hostile(encode(req, &generic_turn(req), PINNED), v)
    }))
    .await;
    let run = run_harness(
        manifest(&server, "request_deadline_secs = 4"),
        &["--case", "E1", "--trials", "4"],
    )
    .await;
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(matches!(run.code, 0..=2), "{}\n{}", run.code, run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 8, "{}", run.stderr);
    assert!(errors.iter().all(String::is_empty), "{errors:?}");
    assert!(n.load(Ordering::SeqCst) >= 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_1e30_1e300_negative_nan_inf_and_dates_in_1970_and_9999_never_panic_on_429s() {
    // The first answer a 429 whose every header holds the value, then 200s: a wait ignored
    // or passed completes; one capped at 120 s (1e30, 1e300, a date in 9999) is past the 4 s
    // deadline, so the trial ends inconclusive at once, saying so. Never a panic.
    for v in HOSTILE {
        let server = LoopbackServer::start(responder(move |req, i| {
            if i == 0 {
                let body = r#"{"error":{"message":"slow down","type":"rate_limit_error"}}"#;
                return hostile(Reply::raw(429, body), v);
            }
            hostile(encode(req, &generic_turn(req), PINNED), v)
        }))
        .await;
        let started = Instant::now();
        let run = run_harness(
            manifest(&server, "request_deadline_secs = 4"),
            &["--case", "E1", "--model", "oa", "--trials", "1"],
        )
        .await;
        assert!(!run.stderr.contains("panicked"), "{v}: {}", run.stderr);
        assert!(
            matches!(run.code, 0..=3),
            "{v}: {}\n{}",
            run.code,
            run.stderr
        );
        let e = errors(&run).join("");
        let capped = matches!(v, "1e30" | "1e300") || v.contains("9999");
        if capped {
            assert!(e.contains("request_deadline_secs = 4"), "{v}: {e}");
        } else {
            assert_eq!(e, "", "{v}");
        }
        // Generous for a loaded machine: what it rules out is a wait of 1e30 s or to 9999.
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{v}: {:?}",
            started.elapsed()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_reset_of_nan_or_a_bad_date_is_ignored_on_200_and_429() {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    let server = LoopbackServer::start(responder(move |req, _| {
        let i = seen.fetch_add(1, Ordering::SeqCst);
        let reset = ["NaN", "2026-13-45T99:99:99Z", "9999-12-31T23:59:59Z", "-5"][(i / 2) % 4];
        let reply = if i.is_multiple_of(2) {
            Reply::raw(
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error"}}"#,
            )
        } else {
            encode(req, &generic_turn(req), PINNED)
        };
        reply
            .with_header("anthropic-ratelimit-tokens-limit", "10000")
            .with_header("anthropic-ratelimit-tokens-remaining", "NaN")
            .with_header("anthropic-ratelimit-tokens-reset", reset)
            .with_header("anthropic-ratelimit-requests-reset", reset)
            .with_header("retry-after", "0")
    }))
    .await;
    let run = run_harness(
        manifest(&server, "request_deadline_secs = 600"),
        &["--case", "E1", "--model", "an", "--trials", "4"],
    )
    .await;
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(matches!(run.code, 0..=2), "{}\n{}", run.code, run.stderr);
    assert!(
        errors(&run).iter().all(String::is_empty),
        "{:?}",
        errors(&run)
    );
    assert!(n.load(Ordering::SeqCst) >= 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_always_answering_429_with_retry_after_0_ends_inconclusive_at_the_deadline_within_20_requests(
) {
    for (header, value) in [
        ("retry-after", "0"),
        ("retry-after-ms", "0"),
        ("retry-after", "Thu, 01 Jan 1970 00:00:00 GMT"),
    ] {
        let server = LoopbackServer::start(responder(move |_, _| {
            Reply::raw(429, r#"{"error":{"message":"no"}}"#).with_header(header, value)
        }))
        .await;
        let started = Instant::now();
        let run = run_harness(
            manifest(&server, "request_deadline_secs = 3"),
            &["--case", "E1", "--model", "oa", "--trials", "1"],
        )
        .await;
        let took = started.elapsed();
        assert_eq!(run.code, 3, "{header}: {value}: {}", run.stderr);
        let sent = server.requests().len();
        eprintln!("{header}: {value}: {sent} requests, ended after {took:?}");
        assert!(
            sent <= 20,
            "{header}: {value}: {sent} requests in a 3 s deadline"
        );
        // The run's own start-up is in `took`, seconds on a loaded machine; what this rules
        // out is retrying zero-second waits until the default 600 s deadline.
        assert!(
            took < Duration::from_secs(60),
            "{header}: {value}: {took:?}"
        );
        let e = errors(&run).join("\n");
        assert!(
            e.contains("request_deadline_secs = 3") && e.contains("HTTP 429"),
            "{header}: {value}: {e}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_asking_a_wait_past_the_deadline_ends_the_request_now() {
    let server = LoopbackServer::start(responder(|_, _| {
        Reply::raw(503, r#"{"error":{"message":"later"}}"#).with_header("retry-after", "60")
    }))
    .await;
    let started = Instant::now();
    let run = run_harness(
        manifest(&server, "request_deadline_secs = 2\nmax_attempts = 5"),
        &["--case", "E1", "--model", "oa", "--trials", "1"],
    )
    .await;
    assert_eq!(run.code, 3, "{}", run.stderr);
    // Rules out waiting the 60 s the server asks for (one request, below, says the rest).
    assert!(
        started.elapsed() < Duration::from_secs(45),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.requests().len(), 1);
    let e = errors(&run).join("\n");
    assert!(
        e.contains("would pass request_deadline_secs = 2") && e.contains("HTTP 503"),
        "{e}"
    );
}

/// `harness run` with its peak RSS in KiB, off the async runtime: the child's own VmHWM (its
/// memory's high-water mark since exec), read until it exits. wait4's ru_maxrss would not do:
/// it carries the test process's size at the spawn.
async fn run_measured(manifest: String, args: &[&str]) -> (i32, u64, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.toml");
    std::fs::write(&path, manifest).unwrap();
    let mut argv = run_argv(&path, &["--out", dir.path().join("out").to_str().unwrap()]);
    argv.extend(args.iter().map(|s| s.to_string()));
    let (code, kib) = tokio::task::spawn_blocking(move || {
        let mut child = crate::common::spawn_quiet(&argv, &[("CH_TEST_KEY", KEY)]);
        let status = format!("/proc/{}/status", child.id());
        let mut peak = 0u64;
        loop {
            if let Some(s) = child.try_wait().unwrap() {
                return (s.code().unwrap_or(-1), peak);
            }
            let hwm = std::fs::read_to_string(&status).unwrap_or_default();
            let kib = hwm
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak = peak.max(kib.unwrap_or(0));
            std::thread::sleep(Duration::from_millis(10));
        }
    })
    .await
    .unwrap();
    (code, kib, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_chunked_body_and_a_100_mb_body_end_inconclusive_naming_the_cap_in_flat_memory()
{
    for (what, times) in [("endless", None), ("100 MB", Some(100))] {
        let server = LoopbackServer::start(responder(move |_, _| Reply::Stream {
            status: 200,
            chunk: vec![b' '; 1 << 20],
            times,
        }))
        .await;
        let started = Instant::now();
        let (code, kib, dir) = run_measured(
            manifest(&server, "max_attempts = 2"),
            &["--case", "E1", "--model", "oa", "--trials", "1"],
        )
        .await;
        assert_eq!(code, 3, "{what}");
        eprintln!("{what}: peak RSS {} KiB", kib);
        assert!(kib > 0 && kib < 200 * 1024, "{what}: peak RSS {kib} KiB");
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        let run = common::loopback_run::Run {
            code,
            stdout: String::new(),
            stderr: String::new(),
            dir,
        };
        let e = errors(&run).join("\n");
        // The default max_reply_bytes (256 KiB): 8 × 256 KiB + 1 MiB.
        assert!(
            e.contains("passed its cap of 3145728 bytes") && e.contains("max_reply_bytes"),
            "{what}: {e}"
        );
    }
}
