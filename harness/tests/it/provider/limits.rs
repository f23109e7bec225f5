//! Runs at a provider's rate limit, against the loopback stand-in that enforces one the way
//! the APIs do: two entries on one key share its bucket, a request that can never fit is a clear
//! error, a server that never recovers ends at the request's deadline, Ctrl-C while waiting stops
//! at once, a 429 without headers backs off with jitter, a host that cannot be reached stops
//! the account at once, and the longest episodes start first.

use crate::common;

use common::example_charter;
use common::loopback_run::{run_argv, run_harness, KEY};
use loopback::ratelimit::{Charge, Mode, RateLimiter, RateLimits, Shape};
use serde_json::Value;
use std::time::{Duration, Instant};

const PINNED: &str = "test-model-2026-01-01";

/// Entries `a` (frontier) and `b` (weakest), both `provider` on `url` with one key and one
/// model id, each with `extra`.
fn one_key(url: &str, provider: &str, extra: &str) -> String {
    let base = match provider {
        "openai" => format!("{url}/v1"),
        _ => url.to_string(),
    };
    let entry = |name: &str, role: &str| {
        format!(
            "[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"{provider}\"\nmodel = \"{PINNED}\"\nbase_url = \"{base}\"\napi_key_env = \"CH_TEST_KEY\"\ntemperature_supported = false\nretry_base_ms = 50\ntimeout_secs = 5\n{extra}\n"
        )
    };
    format!(
        "[charter]\nsource = {:?}\n\n[decoding]\nmax_tokens = 100\n\n{}\n{}",
        example_charter(),
        entry("a", "frontier"),
        entry("b", "weakest")
    )
}

fn outcomes(run: &common::loopback_run::Run) -> Vec<Value> {
    common::files_under(&run.out().join("transcripts"))
        .iter()
        .map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

/// The run ended inconclusive (exit 3) within `secs`, with `trials` transcripts whose errors
/// each say every one of `says`.
fn all_inconclusive(
    run: &common::loopback_run::Run,
    started: Instant,
    secs: u64,
    trials: usize,
    says: &[&str],
) {
    assert_eq!(run.code, 3, "{}", run.stderr);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(secs), "{took:?}");
    let all = outcomes(run);
    assert_eq!(all.len(), trials);
    for t in all {
        let e = t["error"].as_str().unwrap();
        assert!(says.iter().all(|s| e.contains(s)), "{e}");
    }
}

fn run_json(run: &common::loopback_run::Run) -> Value {
    serde_json::from_str(&std::fs::read_to_string(run.out().join("run.json")).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_models_on_one_key_share_the_bucket_and_are_paced_without_429s() {
    // 20 k tokens a second, a 20 k burst, every request 5,000: 16 requests need ≥ 3 s.
    let limiter = RateLimiter::new(RateLimits {
        token_burst: 20_000,
        charge: Charge::Fixed(5_000),
        latency: Duration::from_millis(50),
        shape: Shape::OpenAi,
        ..RateLimits::new(1_200_000, 1_000_000)
    });
    let server = limiter.serve().await;
    let started = Instant::now();
    let run = run_harness(
        one_key(
            &server.url(),
            "openai",
            "max_concurrency = 4\ntpm = 1200000",
        ),
        &["--case", "E1", "--trials", "8"],
    )
    .await;
    let wall = started.elapsed();
    assert!([0, 1].contains(&run.code), "{}", run.stderr);
    let all = outcomes(&run);
    assert_eq!(all.len(), 16);
    assert!(all.iter().all(|t| t["outcome"] == "completed"));
    let tally = limiter.tally();
    assert_eq!(tally.admitted, 16);
    // Both entries draw on one limiter: once the first answer's headers came, nothing more is
    // sent to be refused.
    let headers_at = tally.first_answer.unwrap();
    assert!(
        tally.throttled.iter().all(|t| *t <= headers_at),
        "429s after the limit was known: {:?}",
        tally.log
    );
    // (16 × 5,000 − 20,000) / 20,000 a second = 3 s.
    assert!(wall >= Duration::from_millis(2_900), "{wall:?}");
    // Item 4: the plan names the account's limits and the least time they imply; the progress
    // shows the wait as its own state; the closing lines and run.json keep the figures.
    assert!(
        run.stderr.contains(&format!("limits of {PINNED} at 127.0.0.1 ($CH_TEST_KEY) (a, b): 1.2 M TPM; at 1.2 M TPM the first turns alone")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("waiting on limit"), "{}", run.stderr);
    assert!(
        run.stderr.contains("s on rate limits; 0 answers 429"),
        "{}",
        run.stderr
    );
    let limits = &run_json(&run)["limits"];
    assert_eq!(limits.as_array().unwrap().len(), 1, "one account: {limits}");
    assert_eq!(limits[0]["models"], serde_json::json!(["a", "b"]));
    assert_eq!(limits[0]["token_burst"], 20_000);
    assert!(limits[0]["waited_ms"].as_u64().unwrap() > 1000, "{limits}");
    assert_eq!(limits[0]["throttled"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_smaller_than_one_request_is_a_clear_error_not_a_hang() {
    let limiter = RateLimiter::new(RateLimits {
        token_burst: 300,
        shape: Shape::Anthropic,
        ..RateLimits::new(60_000, 1_000)
    });
    let server = limiter.serve().await;
    let started = Instant::now();
    let run = run_harness(
        one_key(&server.url(), "anthropic", ""),
        &["--case", "E1", "--model", "a", "--trials", "2"],
    )
    .await;
    all_inconclusive(
        &run,
        started,
        20,
        2,
        &[
            "can never fit the token limit",
            "a burst of 300 tokens",
            "a request of about",
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_recovers_ends_the_trial_inconclusive_at_the_deadline() {
    let limiter = RateLimiter::new(RateLimits {
        mode: Mode::NeverRecover,
        shape: Shape::OpenAi,
        ..RateLimits::new(600_000, 1_000)
    });
    let server = limiter.serve().await;
    let started = Instant::now();
    let run = run_harness(
        one_key(
            &server.url(),
            "openai",
            "request_deadline_secs = 2\nmax_attempts = 2",
        ),
        &["--case", "E1", "--model", "a", "--trials", "2"],
    )
    .await;
    all_inconclusive(
        &run,
        started,
        15,
        2,
        &[
            "rate limited: waited",
            "(request_deadline_secs = 2)",
            "last: HTTP 429",
        ],
    );
    // More than max_attempts 429s: rate limits are not counted as failed attempts.
    assert!(limiter.tally().throttled.len() > 2);
    assert!(run_json(&run)["limits"][0]["throttled"].as_u64().unwrap() > 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_while_waiting_on_a_limit_stops_at_once() {
    let limiter = RateLimiter::new(RateLimits {
        mode: Mode::NeverRecover,
        shape: Shape::OpenAi,
        ..RateLimits::new(600_000, 1_000)
    });
    let server = limiter.serve().await;
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    std::fs::write(&m, one_key(&server.url(), "openai", "")).unwrap();
    let out = dir.path().join("out");
    let argv = run_argv(
        &m,
        &[
            "--case",
            "E1",
            "--model",
            "a",
            "--trials",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(&argv)
        .env("CH_TEST_KEY", KEY)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while limiter.tally().throttled.len() < 3 {
        assert!(Instant::now() < until, "never throttled");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let sent = Instant::now();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    // Generous for a loaded machine; the throttled run would otherwise wait minutes.
    assert!(
        sent.elapsed() < Duration::from_secs(30),
        "Ctrl-C took {:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(130));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_without_headers_backs_off_with_jitter_and_the_trial_completes() {
    // 10 k tokens a second, 6 k burst, 5 k a request: the second request waits ~0.4 s, and the
    // server never says so.
    let limiter = RateLimiter::new(RateLimits {
        token_burst: 6_000,
        charge: Charge::Fixed(5_000),
        mode: Mode::Headerless,
        shape: Shape::OpenAi,
        ..RateLimits::new(600_000, 1_000)
    });
    let server = limiter.serve().await;
    let run = run_harness(
        one_key(
            &server.url(),
            "openai",
            "max_concurrency = 1\nmax_attempts = 1",
        ),
        &["--case", "E1", "--model", "a", "--trials", "3"],
    )
    .await;
    // The stand-in answers "ok", which E1's checkers may fail: decided either way.
    assert!([0, 1].contains(&run.code), "{}", run.stderr);
    let tally = limiter.tally();
    assert!(!tally.throttled.is_empty(), "{:?}", tally.log);
    assert_eq!(tally.admitted, 3);
    // Each attempt after a 429 came at least half the base backoff (50 ms) later: no hammering.
    for w in tally.log.windows(2) {
        if w[0].1 == 429 {
            let gap = w[1].0 - w[0].0;
            assert!(
                gap >= Duration::from_millis(24),
                "{gap:?} in {:?}",
                tally.log
            );
        }
    }
    assert!(outcomes(&run).iter().all(|t| t["outcome"] == "completed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_cannot_be_reached_stops_the_account_at_once_naming_it() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let started = Instant::now();
    let run = run_harness(
        one_key(&format!("http://127.0.0.1:{port}"), "openai", ""),
        &["--case", "E1", "--model", "a", "--trials", "4"],
    )
    .await;
    // Without the latch every trial gives up after 5 attempts with backoff (`gave_up`, not
    // this message); the time bound is only a hang guard.
    all_inconclusive(
        &run,
        started,
        60,
        4,
        &["cannot reach 127.0.0.1 — are you offline? check the network or base_url"],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_keys_out_of_bounds_are_refused_naming_file_line_and_key_before_any_call() {
    let url = "http://127.0.0.1:9";
    for (extra, says) in [
        ("tpm = 0", "models[0] (a).tpm = 0 is outside 1–"),
        (
            "request_deadline_secs = 0",
            "models[0] (a).request_deadline_secs = 0 is outside 1–86400",
        ),
        (
            "rpm = 10\nrequests_per_minute = 20",
            "models[0] (a).rpm = 10 and requests_per_minute = 20 disagree",
        ),
    ] {
        let run = run_harness(one_key(url, "openai", extra), &["--case", "E1"]).await;
        assert_eq!(run.code, 2, "{extra}: {}", run.stderr);
        assert!(
            run.stderr.contains("m.toml, line ") && run.stderr.contains(says),
            "{extra}: {}",
            run.stderr
        );
    }
    // One bound on trials: the manifest's, --trials and run.json's (100,000).
    let run = run_harness(
        one_key(url, "openai", ""),
        &["--case", "E1", "--trials", "100001"],
    )
    .await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--trials 100001 is more than 100000 trials a unit"),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_longest_episodes_start_first_so_a_limited_gate_ends_with_its_limit() {
    // Item 3: at a limit, the episodes of several turns (the units offering tools) are started
    // before the single-turn ones, so the last requests to fit under the limit are not the
    // first turns of three-turn chains. Every first turn of a tool-offering episode reaches
    // the server before the first single-turn episode's request, and the tool episodes really
    // ran several turns (so the order matters).
    let limiter = RateLimiter::new(RateLimits {
        token_burst: 8_000,
        latency: Duration::from_millis(20),
        shape: Shape::OpenAi,
        calls: Some(loopback::ratelimit::looks_around()),
        ..RateLimits::new(600_000, 1_000_000)
    });
    let server = limiter.serve().await;
    let run = run_harness(
        one_key(&server.url(), "openai", "max_concurrency = 2"),
        &["--model", "a", "--trials", "1"],
    )
    .await;
    assert!([0, 1].contains(&run.code), "{}", run.stderr);
    let first_turns: Vec<bool> = server
        .requests()
        .iter()
        .map(|r| r.json())
        .filter(|b| {
            b["messages"]
                .as_array()
                .is_some_and(|m| !m.iter().any(|m| m["role"] == "assistant"))
        })
        .map(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty()))
        .collect();
    let tool_episodes = first_turns.iter().filter(|t| **t).count();
    assert!(
        tool_episodes >= 3 && tool_episodes < first_turns.len(),
        "{first_turns:?}"
    );
    assert!(
        first_turns[..tool_episodes].iter().all(|t| *t),
        "a single-turn episode started before a longer one: {first_turns:?}"
    );
    let longest = outcomes(&run)
        .iter()
        .map(|t| t["request_ids"].as_array().map_or(0, Vec::len))
        .max();
    assert!(longest >= Some(3), "{longest:?}");
    assert!(
        limiter.tally().throttled.is_empty(),
        "{:?}",
        limiter.tally().log
    );
}
