//! What the prompt cache saves on a whole gate run: the full matrix (every case, variant and
//! trial) with the real Reasoning Charter, the pinned models' providers and prices, against a
//! loopback server that reports cache reads and writes the way each API does.
//!
//! `cargo build --release && cargo run --release -p harness --example cache_bench`
//!
//! The server counts a token per four bytes of each prompt block (a tool definition, the system
//! text, a message or content block) and keeps, per model, the prefixes it has seen:
//! - Anthropic Messages: a prefix is cached only at a `cache_control` breakpoint and from 1,024
//!   tokens; a request reads the longest cached prefix found at or up to 20 blocks before one
//!   of its breakpoints (`cache_read_input_tokens`), writes the rest up to its last breakpoint
//!   (`cache_creation_input_tokens`) and pays `input_tokens` for what follows.
//! - OpenAI Chat Completions: every prompt of 1,024 tokens or more is cached by itself; a request
//!   reads its longest seen prefix, rounded down to 128 tokens, in
//!   `usage.prompt_tokens_details.cached_tokens`, and `prompt_tokens` counts them too.
//!
//! It prints, per model, the run's cost as the harness accounted it from the reported usage,
//! the same tokens priced with no cache, and the floor: every input token that repeats a prefix
//! some earlier request of the model already sent, priced as a cache read.

use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the model takes to answer.
const LATENCY: Duration = Duration::from_millis(50);

const MIN_CACHED: u64 = 1024;
const LOOKBACK_BLOCKS: usize = 20;

/// One model's view of the cache, and what the floor would pay.
#[derive(Default)]
struct ModelCache {
    /// Prefix hashes the API holds in its cache, from the moment the reply that wrote each one
    /// is sent (a request arriving while the writing one is still in flight misses, as with the
    /// real APIs).
    cached: HashMap<u64, Instant>,
    /// Every prefix hash the model was ever sent (for the floor).
    sent: HashSet<u64>,
    /// Input tokens that repeat an earlier prefix, and all input tokens.
    repeated: u64,
    total: u64,
}

/// A prompt as blocks in the order the API reads them, each with the hash of the prefix it ends,
/// the tokens up to and including it, and whether it carries a breakpoint.
struct Prefixes {
    ends: Vec<(u64, u64, bool)>,
}

fn blocks(body: &Value, anthropic: bool) -> Prefixes {
    let mut parts: Vec<(Value, bool)> = Vec::new();
    let mut strip = |v: &Value| {
        let mut v = v.clone();
        let marked = v.get("cache_control").is_some();
        if let Some(o) = v.as_object_mut() {
            o.remove("cache_control");
        }
        (v, marked)
    };
    for t in body["tools"].as_array().into_iter().flatten() {
        parts.push(strip(t));
    }
    if anthropic {
        match &body["system"] {
            Value::String(s) => parts.push((json!(s), false)),
            Value::Array(a) => parts.extend(a.iter().map(&mut strip)),
            _ => {}
        }
        for m in body["messages"].as_array().into_iter().flatten() {
            match &m["content"] {
                Value::Array(c) => {
                    for b in c {
                        let (b, marked) = strip(b);
                        parts.push((json!({"role": m["role"], "block": b}), marked));
                    }
                }
                other => parts.push((json!({"role": m["role"], "text": other}), false)),
            }
        }
    } else {
        for m in body["messages"].as_array().into_iter().flatten() {
            parts.push((m.clone(), false));
        }
    }
    let (mut hash, mut tokens) = (0u64, 0u64);
    let ends = parts
        .iter()
        .map(|(v, marked)| {
            let text = v.to_string();
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (hash, &text).hash(&mut h);
            hash = h.finish();
            tokens += (text.len() as u64 / 4).max(1);
            (hash, tokens, *marked)
        })
        .collect();
    Prefixes { ends }
}

/// The usage block the API would report, updating the model's cache.
fn usage(cache: &mut ModelCache, body: &Value, anthropic: bool, output: u64) -> Value {
    let p = blocks(body, anthropic);
    let now = Instant::now();
    let ready = now + LATENCY;
    let is_cached = |h: &u64| cache.cached.get(h).is_some_and(|at| *at <= now);
    let total = p.ends.last().map_or(0, |e| e.1);
    let repeated = p
        .ends
        .iter()
        .filter(|(h, _, _)| cache.sent.contains(h))
        .map(|e| e.1)
        .max()
        .unwrap_or(0);
    cache.repeated += repeated;
    cache.total += total;
    cache.sent.extend(p.ends.iter().map(|e| e.0));
    if anthropic {
        let marks: Vec<usize> = (0..p.ends.len()).filter(|&i| p.ends[i].2).collect();
        let read = marks
            .iter()
            .flat_map(|&i| (i.saturating_sub(LOOKBACK_BLOCKS)..=i).rev())
            .filter(|&j| is_cached(&p.ends[j].0))
            .map(|j| p.ends[j].1)
            .max()
            .unwrap_or(0);
        let mut written_to = read;
        for &i in &marks {
            let (h, t, _) = p.ends[i];
            if t >= MIN_CACHED && t > read {
                cache.cached.entry(h).or_insert(ready);
                written_to = written_to.max(t);
            }
        }
        json!({"input_tokens": total - written_to, "cache_read_input_tokens": read,
               "cache_creation_input_tokens": written_to - read, "output_tokens": output})
    } else {
        let hit = p
            .ends
            .iter()
            .filter(|(h, _, _)| is_cached(h))
            .map(|e| e.1)
            .max()
            .unwrap_or(0);
        let read = if hit >= MIN_CACHED {
            hit / 128 * 128
        } else {
            0
        };
        if total >= MIN_CACHED {
            for e in &p.ends {
                cache.cached.entry(e.0).or_insert(ready);
            }
        }
        json!({"prompt_tokens": total, "completion_tokens": output,
               "prompt_tokens_details": {"cached_tokens": read}})
    }
}

/// A model that looks around once when it has tools, then answers.
fn reply(req: &RecordedRequest, caches: &Mutex<HashMap<String, ModelCache>>) -> Reply {
    let body = req.json();
    let anthropic = req.path.ends_with("/v1/messages");
    let model = body["model"].as_str().unwrap_or_default().to_string();
    let turn = body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
    let offers = |name: &str| {
        body["tools"].as_array().is_some_and(|t| {
            t.iter()
                .any(|t| t["name"] == name || t["function"]["name"] == name)
        })
    };
    let call = (turn == 0 && offers("list_files")).then_some("list_files");
    let text = "Checked. 0.7 × 1.3 = 0.91, net −9%.";
    let output = 60;
    let usage = usage(
        caches.lock().unwrap().entry(model.clone()).or_default(),
        &body,
        anthropic,
        output,
    );
    let r = if anthropic {
        let mut content =
            vec![json!({"type": "text", "text": if call.is_some() { "" } else { text }})];
        if let Some(name) = call {
            content.push(json!({"type": "tool_use", "id": format!("toolu_{turn}"), "name": name, "input": {}}));
        }
        json!({"id": "msg", "type": "message", "role": "assistant", "model": model, "content": content,
               "stop_reason": if call.is_some() { "tool_use" } else { "end_turn" }, "usage": usage})
    } else {
        let message = match call {
            Some(name) => {
                json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("c{turn}"), "type": "function", "function": {"name": name, "arguments": "{}"}}]})
            }
            None => json!({"role": "assistant", "content": text}),
        };
        json!({"id": "x", "model": model, "choices": [{"index": 0, "message": message, "finish_reason": "stop"}], "usage": usage})
    };
    Reply::Delay(LATENCY, Box::new(Reply::json(200, r)))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let harness = root.join("target/release/harness");
    assert!(harness.exists(), "build it first: cargo build --release");
    println!("| model | provider | C | input tokens | without cache | with cache | floor | with ÷ without | with ÷ floor |");
    println!("|---|---|---|---|---|---|---|---|---|");
    // The pinned concurrency, and more episodes at once (more of them could miss together).
    for concurrency in [None, Some(16)] {
        run_matrix(&root, &harness, concurrency);
    }
}

/// One gate run of the pinned matrix against a fresh cache; prints a row per model.
fn run_matrix(root: &std::path::Path, harness: &std::path::Path, concurrency: Option<i64>) {
    let caches: Arc<Mutex<HashMap<String, ModelCache>>> = Default::default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = {
        let caches = caches.clone();
        rt.block_on(LoopbackServer::start(Arc::new(move |r, _| {
            reply(r, &caches)
        })))
    };
    // The pinned matrix's models, providers, concurrency and prices, pointed at the server.
    let pinned: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("manifests/pinned.toml")).unwrap())
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut manifest = format!(
        "[charter]\nsource = {:?}\n\n[decoding]\ntemperature = 0\nmax_tokens = 4096\n\n[run]\ntrials = 3\n",
        root.join("fixtures/charters/reasoning-charter-0.1.0.md")
    );
    let mut prices = HashMap::new();
    for m in pinned["models"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let provider = m["provider"].as_str().unwrap();
        let url = if provider == "openai" {
            format!("{}/v1", server.url())
        } else {
            server.url()
        };
        let price = |k: &str| m.get(k).and_then(|v| v.as_float());
        let input = price("price_input_per_mtok").unwrap();
        prices.insert(
            m["model"].as_str().unwrap().to_string(),
            (
                input,
                price("price_cache_read_per_mtok").unwrap_or(input * 0.1),
            ),
        );
        manifest.push_str(&format!(
            "\n[[models]]\nname = \"{name}\"\nrole = \"{}\"\nprovider = \"{provider}\"\nmodel = \"{}\"\nbase_url = \"{url}\"\napi_key_env = \"BENCH_KEY\"\nmax_concurrency = {}\ntemperature_supported = {}\nprice_input_per_mtok = {input}\nprice_output_per_mtok = {}\n",
            m["role"].as_str().unwrap(),
            m["model"].as_str().unwrap(),
            concurrency.unwrap_or(m["max_concurrency"].as_integer().unwrap()),
            m.get("temperature_supported").and_then(|v| v.as_bool()).unwrap_or(true),
            price("price_output_per_mtok").unwrap(),
        ));
        for k in ["price_cache_read_per_mtok", "price_cache_write_per_mtok"] {
            if let Some(p) = price(k) {
                manifest.push_str(&format!("{k} = {p}\n"));
            }
        }
    }
    let mpath = dir.path().join("m.toml");
    std::fs::write(&mpath, &manifest).unwrap();
    let out = dir.path().join("out");
    let done = Command::new(harness)
        .args(["run", "--matrix", mpath.to_str().unwrap(), "--suite"])
        .arg(root)
        .arg("--out")
        .arg(&out)
        .env("BENCH_KEY", "bench")
        .output()
        .unwrap();
    assert!(
        matches!(done.status.code(), Some(0 | 1)),
        "harness: {}\n{}",
        done.status,
        String::from_utf8_lossy(&done.stderr)
    );
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let caches = caches.lock().unwrap();
    for m in run["usage"].as_array().unwrap() {
        let pinned_model = m["pinned"].as_str().unwrap();
        let c = &caches[pinned_model];
        let (input, read) = prices[pinned_model];
        let output_cost = m["cost_without_cache_usd"].as_f64().unwrap()
            - input
                * (m["input_tokens"].as_u64().unwrap()
                    + m["cache_read_input_tokens"].as_u64().unwrap()
                    + m["cache_write_input_tokens"].as_u64().unwrap()) as f64
                / 1e6;
        let floor =
            ((c.total - c.repeated) as f64 * input + c.repeated as f64 * read) / 1e6 + output_cost;
        let with = m["cost_usd"].as_f64().unwrap();
        let without = m["cost_without_cache_usd"].as_f64().unwrap();
        let provider = pinned["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["model"].as_str() == Some(pinned_model))
            .unwrap()["provider"]
            .as_str()
            .unwrap();
        let c = m_concurrency(&run, m["model"].as_str().unwrap());
        println!(
            "| {} | {provider} | {c} | {} | ${without:.4} | ${with:.4} | ${floor:.4} | {:.3} | {:.3} |",
            m["model"].as_str().unwrap(),
            caches[pinned_model].total,
            with / without,
            with / floor
        );
    }
}

/// The concurrency the run gave a model, as its run.json recorded the manifest.
fn m_concurrency(run: &Value, name: &str) -> i64 {
    run["manifest"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap()["max_concurrency"]
        .as_i64()
        .unwrap()
}
