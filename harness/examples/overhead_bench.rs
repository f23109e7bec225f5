//! Benchmark of the harness's own overhead against a loopback OpenAI-compatible server.
//!
//! `cargo run --release -p harness --example overhead_bench -- [ROUNDS]`
//!
//! Runs the full offline-size matrix (16 units × 3 trials × 2 models = 96 episodes, multi-step
//! tool loops included) through the `openai` provider with the release `harness` binary, against
//! a server in another process that answers at once (D = 0) or after D = 100 ms, with total
//! concurrency C = 16 (8 per model). Reports medians of ROUNDS runs: wall time, requests per
//! second, harness CPU time per request, peak RSS, and the ratio of wall time to the lower bound
//! ceil(requests / C) × D.

use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

const PER_MODEL_CONCURRENCY: usize = 8;

/// A model that looks around once or twice when it has tools, then answers.
fn reply(req: &RecordedRequest, delay: Duration) -> Reply {
    let body = req.json();
    let turn = body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["function"]["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    let call = match (
        turn,
        tools.contains(&"list_files"),
        tools.contains(&"search"),
    ) {
        (0, true, _) => Some(("list_files", json!({}))),
        (1, _, true) => Some(("search", json!({"pattern": "TODO|db_timeout|cache_ttl"}))),
        _ => None,
    };
    let message = match call {
        Some((name, args)) => {
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("c{turn}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}]})
        }
        None => json!({"role": "assistant", "content": "Checked. 0.7 × 1.3 = 0.91, net −9%."}),
    };
    let r = Reply::json(
        200,
        json!({"id": "x", "model": "bench-model-2026-01-01", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1000, "completion_tokens": 50}}),
    );
    if delay.is_zero() {
        r
    } else {
        Reply::Delay(delay, Box::new(r))
    }
}

fn serve(delay_ms: u64) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let delay = Duration::from_millis(delay_ms);
        let server = LoopbackServer::start(Arc::new(move |r, _| reply(r, delay))).await;
        println!("{}", server.url());
        tokio::time::sleep(Duration::from_secs(3600)).await;
    });
}

#[derive(Clone)]
struct Sample {
    wall: Duration,
    cpu: f64,
    /// User CPU alone (issue 33's "user CPU per trial").
    user: f64,
    requests: usize,
    maxrss_kib: i64,
}

/// What one run asks of the harness.
#[derive(Clone, Copy)]
enum Workload {
    /// The full offline-size matrix: 16 units × 3 trials × 2 models, tool loops included.
    Matrix,
    /// N single-turn E1 trials on one model at concurrency 16.
    SingleTurn(u32),
}

impl Workload {
    fn transcripts(self) -> usize {
        match self {
            Workload::Matrix => 96,
            Workload::SingleTurn(n) => n as usize,
        }
    }
    fn concurrency(self) -> usize {
        match self {
            Workload::Matrix => 2 * PER_MODEL_CONCURRENCY,
            Workload::SingleTurn(_) => 16,
        }
    }
}

/// One run into `dir`, a folder the caller keeps until all rounds are done: deleting a run's
/// hundred files right before the next would time ext4's inode reuse, not the harness.
fn run_once(harness: &Path, root: &Path, url: &str, dir: &Path, work: Workload) -> Sample {
    let charter = root.join("fixtures/charters/example-charter.md");
    let model = |name: &str, role: &str, c: usize| {
        format!("[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"openai\"\nmodel = \"bench-model-2026-01-01\"\nbase_url = \"{url}/v1\"\napi_key_env = \"BENCH_KEY\"\nmax_concurrency = {c}\n")
    };
    let manifest = format!(
        "[charter]\nsource = {charter:?}\n\n[decoding]\ntemperature = 0\n\n{}\n{}",
        model("a", "frontier", work.concurrency() / 2),
        model("b", "weakest", work.concurrency() / 2)
    );
    let mpath = dir.join("m.toml");
    std::fs::write(&mpath, manifest).unwrap();
    let out = dir.join("out");
    let mut args: Vec<String> = vec![
        "run".into(),
        "--matrix".into(),
        mpath.display().to_string(),
        "--suite".into(),
        root.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ];
    if let Workload::SingleTurn(n) = work {
        // One model at the whole concurrency: its manifest entry is overridden below.
        std::fs::write(
            &mpath,
            format!(
                "[charter]\nsource = {charter:?}\n\n[decoding]\ntemperature = 0\n\n{}\n{}",
                model("a", "frontier", work.concurrency()),
                model("b", "weakest", 1)
            ),
        )
        .unwrap();
        args.extend(["--case", "E1", "--model", "a", "--trials"].map(String::from));
        args.push(n.to_string());
    }
    let t0 = Instant::now();
    // Reaped by wait4 below (for its rusage), not by Child::wait.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(harness)
        .args(&args)
        .env("BENCH_KEY", "bench")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // wait4 gives this run's own CPU and peak RSS (its reaped helpers included).
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut ru) };
    let wall = t0.elapsed();
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = libc::WEXITSTATUS(status);
    assert!(matches!(code, 0 | 1), "harness exited {code}");
    let files = harness::store::transcript_files(&[out.join("transcripts")]).unwrap();
    assert_eq!(files.len(), work.transcripts());
    // Single-turn trials make one request each; the matrix's episodes are counted.
    let requests = match work {
        Workload::SingleTurn(n) => n as usize,
        Workload::Matrix => files
            .iter()
            .map(|f| {
                serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap()).unwrap()
                    ["request_ids"]
                    .as_array()
                    .map_or(0, Vec::len)
            })
            .sum(),
    };
    Sample {
        wall,
        cpu: secs(ru.ru_utime) + secs(ru.ru_stime),
        user: secs(ru.ru_utime),
        requests,
        maxrss_kib: ru.ru_maxrss,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("serve") {
        return serve(args[2].parse().unwrap());
    }
    // `scale ROUNDS N,N,… D,D,… [tmpfs|disk|disk,tmpfs]`: single-turn E1 at N trials
    // (default 9,600, 24,000 and 48,000 at D = 0, results on tmpfs), then whether user CPU per
    // trial stays flat: the largest N against the smallest, which must be within 1.2×. Else
    // the matrix at D = 0 and 100, results on disk and on tmpfs.
    let scale = args.get(1).map(String::as_str) == Some("scale");
    let args: Vec<String> = if scale { args[1..].to_vec() } else { args };
    let rounds: usize = args.get(1).map_or(5, |r| r.parse().unwrap());
    let list = |i: usize, default: &str| -> Vec<u64> {
        args.get(i)
            .map_or(default, String::as_str)
            .split(',')
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let (workloads, delays): (Vec<Workload>, Vec<u64>) = if scale {
        (
            list(2, "9600,24000,48000")
                .into_iter()
                .map(|n| Workload::SingleTurn(n as u32))
                .collect(),
            list(3, "0"),
        )
    } else {
        (vec![Workload::Matrix], vec![0, 100])
    };
    let places: Vec<&str> = match (scale, args.get(4)) {
        (true, Some(p)) => p.split(',').collect(),
        (true, None) => vec!["tmpfs"],
        (false, _) => vec!["disk", "tmpfs"],
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    // BENCH_BINARIES=label=BINARY@SUITE,… compares builds side by side in one invocation
    // (rounds interleaved, so both see the same machine), each with the case suite of its own
    // checkout; default: this checkout's release build.
    let binaries: Vec<(String, PathBuf, PathBuf)> = match std::env::var("BENCH_BINARIES") {
        Ok(list) => list
            .split(',')
            .map(|e| {
                let (l, rest) = e.split_once('=').expect("label=BINARY@SUITE");
                let (bin, suite) = rest.split_once('@').expect("label=BINARY@SUITE");
                // Absolute: the manifest names the charter relative to its own folder.
                let suite = std::fs::canonicalize(suite).expect("the suite folder exists");
                (l.to_string(), PathBuf::from(bin), suite)
            })
            .collect(),
        Err(_) => vec![(
            "this".into(),
            root.join("target/release/harness"),
            root.clone(),
        )],
    };
    for (_, b, _) in &binaries {
        assert!(
            b.exists(),
            "build it first: cargo build --release ({})",
            b.display()
        );
    }
    println!("| binary | D | C | results on | requests | wall (median) | lower bound | ratio | requests/s | CPU per request | user CPU per request | peak RSS |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    // (binary, D, requests, median user CPU per request, each round's) for the scale verdict.
    let mut flat: Vec<Row> = Vec::new();
    let shm = Path::new("/dev/shm");
    for delay_ms in delays {
        let mut server = Command::new(std::env::current_exe().unwrap())
            .args(["serve", &delay_ms.to_string()])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut url = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(server.stdout.take().unwrap()),
            &mut url,
        )
        .unwrap();
        let url = url.trim().to_string();
        // Results on the disk (as users run it) and, for the matrix, on tmpfs (the harness
        // without the disk).
        // Scale on tmpfs unless told, so the figure is the harness's own work, not the disk's.
        let places: Vec<(&str, PathBuf)> = places
            .iter()
            .map(|p| match *p {
                "tmpfs" if shm.is_dir() => ("tmpfs", shm.to_path_buf()),
                _ => ("disk", std::env::temp_dir()),
            })
            .collect();
        for (label, parent) in &places {
            if !parent.is_dir() {
                continue;
            }
            // Rounds outermost, every workload and binary inside each: all cells of a round
            // see the same machine, so their ratios are side by side.
            let mut cells: Vec<Vec<Vec<Sample>>> =
                vec![vec![Vec::new(); binaries.len()]; workloads.len()];
            let mut keep = Vec::new();
            for _ in 0..rounds {
                for (w, &work) in workloads.iter().enumerate() {
                    for (i, (_, bin, suite)) in binaries.iter().enumerate() {
                        let d = tempfile::tempdir_in(parent).unwrap();
                        cells[w][i].push(run_once(bin, suite, &url, d.path(), work));
                        // Large runs are removed at once (their files would fill the disk);
                        // small ones are kept until the row is done (see run_once).
                        if work.transcripts() < 5000 {
                            keep.push(d);
                        }
                    }
                }
            }
            drop(keep);
            for (w, &work) in workloads.iter().enumerate() {
                let c = work.concurrency();
                for ((name, _, _), samples) in binaries.iter().zip(&cells[w]) {
                    let requests = samples[0].requests;
                    let wall = median(samples.iter().map(|s| s.wall.as_secs_f64()).collect());
                    let cpu_per_req =
                        median(samples.iter().map(|s| s.cpu / s.requests as f64).collect());
                    let bound = (requests as f64 / c as f64).ceil() * delay_ms as f64 / 1000.0;
                    let ratio = if bound > 0.0 {
                        format!("{:.3}", wall / bound)
                    } else {
                        "n/a".into()
                    };
                    let user_per_req =
                        median(samples.iter().map(|s| s.user / s.requests as f64).collect());
                    let per_round: Vec<f64> =
                        samples.iter().map(|s| s.user / s.requests as f64).collect();
                    flat.push((name.clone(), delay_ms, requests, user_per_req, per_round));
                    let rss = median(samples.iter().map(|s| s.maxrss_kib as f64).collect());
                    println!(
                        "| {name} | {delay_ms} ms | {c} | {label} | {requests} | {:.3} s | {bound:.2} s | {ratio} | {:.0} | {:.3} ms | {:.3} ms | {:.1} MiB |",
                        wall,
                        requests as f64 / wall,
                        cpu_per_req * 1000.0,
                        user_per_req * 1000.0,
                        rss / 1024.0
                    );
                }
            }
        }
        let _ = server.kill();
        let _ = server.wait();
    }
    if scale {
        scale_verdict(&flat);
    }
}

/// One table row for the scale verdict: binary, D, requests, median user CPU per request, and
/// each round's user CPU per request (in round order).
type Row = (String, u64, usize, f64, Vec<f64>);

/// Per binary and D: user CPU per trial at the largest N over the smallest (≤ 1.2: the run's
/// own work per trial does not grow with the run). The ratio is taken round by round (both
/// sizes ran in the same round, side by side) and its median printed, with the ratio of the
/// medians beside it.
fn scale_verdict(rows: &[Row]) {
    let mut keys: Vec<(&str, u64)> = rows.iter().map(|r| (r.0.as_str(), r.1)).collect();
    keys.sort();
    keys.dedup();
    for (name, d) in keys {
        let of: Vec<&Row> = rows.iter().filter(|r| r.0 == name && r.1 == d).collect();
        let (Some(small), Some(large)) =
            (of.iter().min_by_key(|r| r.2), of.iter().max_by_key(|r| r.2))
        else {
            continue;
        };
        let paired: Vec<f64> = small.4.iter().zip(&large.4).map(|(s, l)| l / s).collect();
        let ratio = median(paired.clone());
        let shown: Vec<String> = paired.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "{name}, D = {d} ms: user CPU per trial {:.3} ms at N = {} and {:.3} ms at N = {} (ratio of medians {:.2}×); per round {}: median {ratio:.2}× ({})",
            small.3 * 1000.0,
            small.2,
            large.3 * 1000.0,
            large.2,
            large.3 / small.3,
            shown.join(", "),
            if ratio <= 1.2 { "within 1.2×" } else { "OVER 1.2×" }
        );
    }
}
