//! The harness at a provider's rate limit, on the loopback stand-in.
//!
//! `cargo build --release -p harness && cargo run --release -p harness --example rate_limit_bench`
//!
//! Stand-ins that count differently from the harness's estimate (bytes / 4 + max tokens): each
//! a bucket of 150 k tokens under an advertised limit of 1.2 M a minute (a minute's limit
//! enforced over shorter periods; the bucket refills at 20 k a second and starts full),
//! answering after 300 ms, charging a request its estimate times 0.5, 1 or 3, a flat 5,300
//! tokens, or its characters after JSON escaping. Two model entries on one key and one model id
//! (one bucket), 48 single-turn E1 trials each, `max_concurrency = 8`; once with OpenAI's
//! headers, once with Anthropic's; `--rounds N` times (default 3), medians printed. Per
//! stand-in and shape: the trials that ended inconclusive (must be 0), the attempts answered
//! 429 (must be ≤ 2 %), and wall / (bound + one round trip), where bound = (tokens admitted −
//! burst) / rate (must be ≤ 1.05), with the harness's closing line on what the provider charged.
//! For the middle run, where the wall went: the harness's start before its first request, its
//! exit after the last answer, the tokens the bucket still held after the last admission
//! (refilled for nothing: the limiter's caution, in time), and the account's start (the first
//! admission to the third).
//! `--only NAME` runs one stand-in (flat, x0.5, x1, x3, escaped); `--no-critical-path` skips
//! the second part. With `RATE_LIMIT_BENCH_REFUSALS` set, every round prints each token
//! refusal: when, after which admission, what the bucket held and what the request cost.
//!
//! Then the critical path (item 3): the whole suite (16 units × 3 trials × 2 models), the
//! stand-in answering as a model that looks around with tools before it answers (units
//! offering `list_files` take two or three turns), 300 ms a turn. At 600 k TPM with each
//! header family, then with no limit near. The bound is the longest of: the longest episode's turns × the
//! latency (its chain), the tokens admitted beyond the burst at the refill rate, and the
//! requests × the latency over the account's concurrency (16). Prints wall / bound, and wall /
//! (bound + one round trip), since an account's first request goes alone by design (its
//! answer says the limits and that the key works); the latter must be ≤ 1.15, with no 429.

use loopback::ratelimit::{looks_around, Charge, RateLimiter, RateLimits, Shape};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TPM: u64 = 1_200_000;
const BURST: u64 = 150_000;
const CHARGE: u64 = 5_300;

const TRIALS: u32 = 48;
const LATENCY: Duration = Duration::from_millis(300);
const CONCURRENCY: f64 = 16.0;
const PATH_TPM: u64 = 600_000;
const PATH_BURST: u64 = 50_000;

/// The whole suite against the stand-in answering as [`looks_around`]: wall time against the
/// longest of the episode chain, the limit's bound and the concurrency's bound.
fn critical_path(harness: &Path, root: &Path, limited: bool, shape: Shape) -> bool {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let limits = if limited {
        // Charged as the APIs charge: the prompt's tokens plus max_tokens. The suite's
        // prompts are smaller than the E1 figure above, so a smaller limit makes it bind.
        RateLimits {
            token_burst: PATH_BURST,
            charge: Charge::Estimate,
            ..RateLimits::new(PATH_TPM, 1_000_000)
        }
    } else {
        RateLimits::new(u64::MAX / 4, u64::MAX / 4)
    };
    let limiter = RateLimiter::new(RateLimits {
        latency: LATENCY,
        shape,
        calls: Some(looks_around()),
        ..limits
    });
    let server = rt.block_on(limiter.serve());
    let (provider, dir, o, wall, _) = run_harness(harness, root, &server.url(), shape, &[]);
    let out = dir.path().join("out");
    let code = o.status.code().unwrap_or(-1);
    assert!(
        matches!(code, 0..=3),
        "harness exited {code}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    for l in String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains("DBG"))
    {
        eprintln!("{l}");
    }
    let files = harness::store::transcript_files(&[out.join("transcripts")]).unwrap();
    let turns: Vec<usize> = files
        .iter()
        .map(|f| {
            let t: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            t["request_ids"].as_array().map_or(0, Vec::len)
        })
        .collect();
    let requests: usize = turns.iter().sum();
    let chain = LATENCY.as_secs_f64() * *turns.iter().max().unwrap_or(&0) as f64;
    let tally = limiter.tally();
    let by_limit = if limited {
        tally.tokens_admitted.saturating_sub(PATH_BURST) as f64 / (PATH_TPM as f64 / 60.0)
    } else {
        0.0
    };
    let by_concurrency = (requests as f64 / CONCURRENCY).ceil() * LATENCY.as_secs_f64();
    let bound = chain.max(by_limit).max(by_concurrency);
    let ratio = wall.as_secs_f64() / bound;
    // An account's first request goes alone (its answer says the limits and that the key
    // works), so the harness's own least time is one round trip more.
    let own = wall.as_secs_f64() / (bound + LATENCY.as_secs_f64());
    println!(
        "critical path, {provider} headers, {}: {} episodes, {requests} requests, {} answered 429",
        if limited {
            "at 600 k TPM, 50 k burst"
        } else {
            "no limit near"
        },
        files.len(),
        tally.throttled.len()
    );
    println!(
        "  bound = max(longest chain {chain:.2}s, limit {by_limit:.2}s, concurrency {by_concurrency:.2}s) = {bound:.2}s; wall {:.2}s / bound = {ratio:.3}; / (bound + the first request's round trip) = {own:.3} ({})",
        wall.as_secs_f64(),
        if own <= 1.15 { "within 1.15" } else { "OVER 1.15" }
    );
    own <= 1.15 && tally.throttled.is_empty()
}

struct Figures {
    inconclusive: usize,
    attempts: u64,
    throttled: usize,
    throttled_before_headers: usize,
    wall: Duration,
    bound: Duration,
    /// Where the wall went beyond the bound: from the harness's start to its first request
    /// reaching the stand-in, and from the last answer to the harness's exit.
    startup: Duration,
    tail: Duration,
    /// Tokens the bucket held after the last admission (refilled for nothing), and the median
    /// it held after each admission of the run's second half.
    unspent: (f64, f64),
    /// From the first admission to the third: the account's start before requests overlap.
    start: Duration,
    /// The harness's closing lines about limits and charges.
    closing: Vec<String>,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn manifest(root: &Path, url: &str, provider: &str) -> String {
    let charter = root.join("fixtures/charters/example-charter.md");
    let base = match provider {
        "openai" => format!("{url}/v1"),
        _ => url.to_string(),
    };
    let model = |name: &str, role: &str| {
        format!(
            "[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"{provider}\"\nmodel = \"bench-model-2026-01-01\"\nbase_url = \"{base}\"\napi_key_env = \"BENCH_KEY\"\nmax_concurrency = 8\ntemperature_supported = false\n"
        )
    };
    format!(
        "[charter]\nsource = {charter:?}\n\n[decoding]\nmax_tokens = 256\n\n{}\n{}",
        model("a", "frontier"),
        model("b", "weakest")
    )
}

/// `harness run` on the two-entry manifest for `url` in `shape`, results under the returned
/// folder's `out`: (provider, folder, output, wall time, start).
fn run_harness(
    harness: &Path,
    root: &Path,
    url: &str,
    shape: Shape,
    extra: &[&str],
) -> (
    &'static str,
    tempfile::TempDir,
    std::process::Output,
    Duration,
    Instant,
) {
    let provider = match shape {
        Shape::Anthropic => "anthropic",
        _ => "openai",
    };
    let dir = tempfile::tempdir().unwrap();
    let mpath = dir.path().join("m.toml");
    std::fs::write(&mpath, manifest(root, url, provider)).unwrap();
    let t0 = Instant::now();
    let o = Command::new(harness)
        .args(["run", "--matrix"])
        .arg(&mpath)
        .arg("--suite")
        .arg(root)
        .arg("--out")
        .arg(dir.path().join("out"))
        .args(extra)
        .env("BENCH_KEY", "bench")
        .output()
        .unwrap();
    (provider, dir, o, t0.elapsed(), t0)
}

/// A stand-in's count: its name and charge.
fn stand_ins() -> Vec<(&'static str, Charge)> {
    vec![
        ("flat", Charge::Fixed(CHARGE)),
        ("x0.5", Charge::Factor(0.5)),
        ("x1", Charge::Factor(1.0)),
        ("x3", Charge::Factor(3.0)),
        ("escaped", Charge::Escaped),
    ]
}

/// What `charge` takes for one E1 request: one trial against a stand-in with no limit near.
fn probe_cost(harness: &Path, root: &Path, shape: Shape, charge: &Charge) -> u64 {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let limiter = RateLimiter::new(RateLimits {
        charge: charge.clone(),
        shape,
        ..RateLimits::new(u64::MAX / 4, u64::MAX / 4)
    });
    let server = rt.block_on(limiter.serve());
    let _ = run_harness(
        harness,
        root,
        &server.url(),
        shape,
        &["--case", "E1", "--trials", "1", "--model", "a"],
    );
    let t = limiter.tally();
    t.tokens_admitted / t.admitted.max(1)
}

/// 2 × TRIALS single-turn E1 trials against a bucket `burst` deep under an advertised limit
/// `tpm`, the bucket charging `charge`.
fn run(harness: &Path, root: &Path, shape: Shape, charge: &Charge, scale: f64) -> Figures {
    let (tpm, burst) = ((TPM as f64 * scale) as u64, (BURST as f64 * scale) as u64);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let limiter = RateLimiter::new(RateLimits {
        token_burst: burst,
        advertised_tpm: Some(tpm),
        charge: charge.clone(),
        latency: LATENCY,
        shape,
        ..RateLimits::new(tpm, 1_000_000)
    });
    let server = rt.block_on(limiter.serve());
    let trials = TRIALS.to_string();
    let (_, dir, o, wall, t0) = run_harness(
        harness,
        root,
        &server.url(),
        shape,
        &["--case", "E1", "--trials", &trials],
    );
    let out = dir.path().join("out");
    let code = o.status.code().unwrap_or(-1);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let closing: Vec<String> = stderr
        .lines()
        .filter(|l| !l.contains("WAITING") && (l.contains("charged") || l.contains("limit")))
        .map(|l| l.trim().to_string())
        .collect();
    let tally = limiter.tally();
    let files = harness::store::transcript_files(&[out.join("transcripts")]).unwrap();
    let inconclusive = files
        .iter()
        .filter(|f| {
            let t: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            t["outcome"] != "completed"
        })
        .count()
        + (2 * TRIALS as usize).saturating_sub(files.len());
    assert!(matches!(code, 0..=3), "harness exited {code}: {stderr}");
    let headers_at = tally.first_answer.unwrap_or_else(Instant::now);
    if std::env::var_os("RATE_LIMIT_BENCH_REFUSALS").is_some() {
        print_refusals(&tally, headers_at);
    }
    // The first request reached the stand-in a round trip before its answer was written.
    let startup = headers_at
        .checked_sub(LATENCY)
        .map_or(Duration::ZERO, |t| t.saturating_duration_since(t0));
    let tail = tally.log.last().map_or(Duration::ZERO, |(at, _)| {
        (t0 + wall).saturating_duration_since(*at)
    });
    let rate = tpm as f64 / 60.0;
    Figures {
        inconclusive,
        attempts: tally.log.len() as u64,
        throttled: tally.throttled.len(),
        throttled_before_headers: tally.throttled.iter().filter(|t| **t <= headers_at).count(),
        wall,
        bound: Duration::from_secs_f64((tally.tokens_admitted.saturating_sub(burst)) as f64 / rate),
        startup,
        tail,
        unspent: (
            tally.admissions.last().map_or(0.0, |a| a.1),
            match &tally.admissions[tally.admissions.len() / 2..] {
                [] => 0.0,
                half => median(half.iter().map(|a| a.1).collect()),
            },
        ),
        start: match (tally.admissions.first(), tally.admissions.get(2)) {
            (Some(a), Some(c)) => c.0.saturating_duration_since(a.0),
            _ => Duration::ZERO,
        },
        closing,
    }
}

/// Each token refusal: when (after the first answer), the admissions before it, what the
/// bucket held against what the request cost (the over-commit).
fn print_refusals(tally: &loopback::ratelimit::Tally, headers_at: Instant) {
    for (at, level, cost) in &tally.refusals {
        let before = tally.admissions.iter().filter(|a| a.0 <= *at).count();
        eprintln!(
            "  refused at {:+} ms (after admission {before} of {}): held {level:.0}, cost {cost}, short {:.0}",
            at.saturating_duration_since(headers_at).as_millis() as i64
                - headers_at.saturating_duration_since(*at).as_millis() as i64,
            tally.admissions.len(),
            *cost as f64 - level
        );
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let root = repo_root();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let rounds: usize = flag("--rounds").map_or(3, |r| r.parse().unwrap());
    let only = flag("--only").cloned();
    let harness = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/harness"));
    assert!(
        harness.exists(),
        "build it first: cargo build --release ({})",
        harness.display()
    );
    println!(
        "stand-ins: a {BURST} token bucket under an advertised {TPM} TPM (limits scaled with the stand-in's cost per request, so every one binds), 300 ms latency; 2 models × {TRIALS} single-turn E1 trials on one key, max_concurrency = 8; medians of {rounds}"
    );
    println!(
        "| stand-in | API | inconclusive | attempts answered 429 | wall / (bound + 1 round trip) |"
    );
    println!("|---|---|---|---|---|");
    let mut ok = true;
    for (name, charge) in stand_ins() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        for (api, shape) in [("openai", Shape::OpenAi), ("anthropic", Shape::Anthropic)] {
            let cost = probe_cost(&harness, &root, shape, &charge);
            let scale = cost as f64 / CHARGE as f64;
            let runs: Vec<Figures> = (0..rounds)
                .map(|_| run(&harness, &root, shape, &charge, scale))
                .collect();
            let inconclusive = runs.iter().map(|f| f.inconclusive).max().unwrap_or(0);
            let share = median(
                runs.iter()
                    .map(|f| f.throttled as f64 / f.attempts.max(1) as f64)
                    .collect(),
            );
            let ratio = median(
                runs.iter()
                    .map(|f| f.wall.as_secs_f64() / (f.bound + LATENCY).as_secs_f64().max(1e-9))
                    .collect(),
            );
            let r = &runs[runs.len() / 2];
            println!(
                "| {name} ({cost} tokens a request) | {api} | {inconclusive} of {} | {:.1} % ({} of {} in the middle run, {} before the first answer) | {ratio:.3} (wall {:.2}s, bound {:.2}s) |",
                2 * TRIALS,
                share * 100.0,
                r.throttled,
                r.attempts,
                r.throttled_before_headers,
                r.wall.as_secs_f64(),
                r.bound.as_secs_f64()
            );
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "    | middle run: {:.0} ms from the harness's start to its first request, {:.0} ms from the last answer to its exit, {:.0} ms between (bound + 1 round trip {:.0} ms)",
                ms(r.startup),
                ms(r.tail),
                ms(r.wall.saturating_sub(r.startup + r.tail)),
                ms(r.bound + LATENCY)
            );
            println!(
                "    | the bucket held {:.0} tokens after the last admission ({:.0} ms of refill), {:.0} (median) after those of the second half; first to third admission {:.0} ms",
                r.unspent.0,
                r.unspent.0 / (TPM as f64 * scale / 60.0) * 1000.0,
                r.unspent.1,
                ms(r.start)
            );
            for l in &r.closing {
                println!("    | {l}");
            }
            ok &= inconclusive == 0 && share <= 0.02 && ratio <= 1.05;
        }
    }
    if !args.iter().any(|a| a == "--no-critical-path") {
        ok &= critical_path(&harness, &root, true, Shape::OpenAi);
        ok &= critical_path(&harness, &root, true, Shape::Anthropic);
        ok &= critical_path(&harness, &root, false, Shape::OpenAi);
    }
    println!("{}", if ok { "PASS" } else { "FAIL" });
}
