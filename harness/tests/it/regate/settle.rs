//! How sure a gate is, against loopback models that pass E1 with a set probability (seeded):
//! the intervals in summary.json cover the true rate, and `gate --charter-base --settle 20`
//! tells a pass rate of 0.9 on the base from 0.3 at head and stops, and leaves 0.8 against 0.8
//! within noise, with the requests the server counted equal to the plan.

use crate::common;

use common::loopback_run::{harness_off_runtime, responder, run_harness};
use common::model_server::{encode, Turn};
use common::{edited_charter, example_charter, git_repo, repo_root};
use loopback::{LoopbackServer, RecordedRequest};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// E1's After answer (passes every criterion) and its Before answer (fails).
const PASS: &str = "Tier: T1. Trigger: supplied percentage → Protocol A.\nRaw: start 80,000; end 100,000. Claimed: +20%. Base: the start, 80,000.\nForward: 20,000 / 80,000 = 25%. Reverse: 80,000 × 1.25 = 100,000 ✓.\nDiagnosis: 20,000 / 100,000 = 20% divides by the ending value.\n\nReport: the increase is 25%, not 20% (20k/80k; check 80k × 1.25 = 100k). Budgeting 20% more would undershoot; plan on 25%. [derived]";
const FAIL: &str =
    "Confirmed: going from $80k to $100k is a 20% increase, so budget 20% more for next year.";

/// The k-th uniform number in [0, 1) of a seeded stream (splitmix64).
fn uniform(seed: u64, k: u64) -> f64 {
    let mut z = seed.wrapping_add((k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as f64 / (u64::MAX as f64 + 1.0)
}

fn seed_of(text: &str, seed: u64) -> u64 {
    text.bytes().fold(seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// A model that passes with the probability `rate(model, head)` gives it, `head` when the
/// system prompt is the edited charter's: the n-th request of each (model, arm) draws the n-th
/// number of its own seeded stream, so every round's passes are the same run after run.
/// Requests counted by (model, with the charter).
type Counts = Arc<Mutex<HashMap<(String, bool), u64>>>;

fn coin_model(
    seed: u64,
    rate: impl Fn(&str, bool) -> f64 + Send + Sync + 'static,
) -> (loopback::Responder, Counts) {
    let counts: Counts = Default::default();
    let seen = counts.clone();
    let r = responder(move |req: &RecordedRequest, _| {
        let body = req.json();
        let model = body["model"].as_str().unwrap_or("").to_string();
        let head = body.to_string().contains("choose the higher tier");
        let k = {
            let mut c = seen.lock().unwrap();
            let n = c.entry((model.clone(), head)).or_insert(0);
            *n += 1;
            *n - 1
        };
        let arm = if head { "head" } else { "base" };
        let pass = uniform(seed_of(&format!("{model}/{arm}"), seed), k) < rate(&model, head);
        let turn = Turn {
            text: (if pass { PASS } else { FAIL }).to_string(),
            calls: vec![],
        };
        encode(req, &turn, &model)
    });
    (r, counts)
}

fn manifest(url: &str, charter: &std::path::Path, models: &[&str], trials: u32) -> String {
    let mut m = format!(
        "[charter]\nsource = {:?}\n\n[decoding]\ntemperature = 0\nmax_tokens = 1000\n\n[run]\ntrials = {trials}\n",
        charter.display().to_string()
    );
    for (i, name) in models.iter().enumerate() {
        // The gate needs a frontier reference and a weakest model: the last is the weakest.
        let role = if i + 1 == models.len() {
            "weakest"
        } else {
            "frontier"
        };
        m.push_str(&format!(
            "\n[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"openai\"\nmodel = \"{name}\"\nbase_url = \"{url}/v1\"\napi_key_env = \"CH_TEST_KEY\"\nretry_base_ms = 10\ntimeout_secs = 5\nmax_concurrency = 8\n"
        ));
    }
    m
}

fn read_json(p: &std::path::Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_95_percent_intervals_of_seeded_loopback_models_cover_their_true_pass_rate() {
    // 20 models, each its own seeded stream, 10 trials of E1 each: 20 intervals, one per unit.
    let names: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    let rate = |model: &str| [0.2, 0.5, 0.7, 0.9][model[1..].parse::<usize>().unwrap() % 4];
    let (r, _) = coin_model(11, move |m, _| rate(m));
    let server = LoopbackServer::start(r).await;
    let charter = example_charter();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let run = run_harness(
        manifest(&server.url(), &charter, &refs, 10),
        &["--case", "E1"],
    )
    .await;
    assert!(matches!(run.code, 0 | 1), "{}", run.stderr);
    let summary = read_json(&run.out().join("summary.json"));
    let units = summary["units"].as_array().unwrap();
    assert_eq!(units.len(), 20);
    let mut covered = 0;
    for u in units {
        let (passed, decided) = (
            u["passed"].as_u64().unwrap(),
            u["decided"].as_u64().unwrap(),
        );
        assert_eq!(decided, 10, "{u}");
        let (lo, hi) = (
            u["interval"][0].as_f64().unwrap(),
            u["interval"][1].as_f64().unwrap(),
        );
        let (l, h) = harness::gate::stats::clopper_pearson(passed as u32, 10, 0.95);
        assert!((lo - l).abs() < 1e-4 && (hi - h).abs() < 1e-4, "{u}");
        let p = rate(u["model"].as_str().unwrap());
        covered += (lo <= p && p <= hi) as usize;
        // Mixed outcomes make a unit flaky, and its failing trials failed E1's criteria.
        if passed > 0 && passed < 10 {
            assert!(u["flaky"].as_array().is_some_and(|c| !c.is_empty()), "{u}");
        } else {
            assert!(u["flaky"].is_null(), "{u}");
        }
    }
    assert!(
        covered >= 18,
        "{covered} of 20 intervals cover the true rate"
    );
    let md = std::fs::read_to_string(run.out().join("report.md")).unwrap();
    assert!(
        md.contains("## Flaky units") && md.contains("| pass^1 |"),
        "{md}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settle_20_tells_0_9_from_0_3_and_stops_and_leaves_0_8_against_0_8_within_noise() {
    // Model `far`: 0.9 on the base charter, 0.3 at head. Model `same`: 0.8 on both.
    let (r, counts) = coin_model(SEED, |m, head| match (m, head) {
        ("far", false) => 0.9,
        ("far", true) => 0.3,
        _ => 0.8,
    });
    let server = LoopbackServer::start(r).await;
    let (_repo, charter) = edited_charter();
    let run = run_harness(
        manifest(&server.url(), &charter, &["far", "same"], 3),
        &["--case", "E1"],
    )
    .await;
    let out = run.out();
    let gate = |extra: &[&str]| {
        let mut args: Vec<String> = [
            "gate",
            out.to_str().unwrap(),
            "--charter-base",
            "HEAD",
            "--suite",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(repo_root().display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        harness_off_runtime(args)
    };
    // The base arm's three trials per failing unit first; then both units differ within noise.
    let first = gate(&[]).await;
    let text = String::from_utf8_lossy(&first.stdout).into_owned();
    assert_eq!(run.code, 1, "both units fail at head: {text}");
    assert!(
        text.contains("0 regression(s), 0 improvement(s), 2 within noise"),
        "seed {SEED}: {text}"
    );
    let before: u64 = counts.lock().unwrap().values().sum();
    assert_eq!(
        before,
        2 * 3 + 2 * 3,
        "3 trials per unit at head, then 3 per failing unit on the base (E1 named twice runs once)"
    );

    let settled = gate(&["--settle", "20"]).await;
    let text = String::from_utf8_lossy(&settled.stdout).into_owned();
    let err = String::from_utf8_lossy(&settled.stderr).into_owned();
    assert_eq!(
        settled.status.code(),
        Some(1),
        "the gate's decision is the head's 3/3 rule: {text}{err}"
    );
    let requests: u64 = counts.lock().unwrap().values().sum::<u64>() - before;

    let cmp = read_json(&out.join("base-comparison.json"));
    let s = &cmp["settle"];
    let units = cmp["units"].as_array().unwrap();
    let unit = |m: &str| units.iter().find(|u| u["model"] == m).unwrap().clone();
    let (far, same) = (unit("far"), unit("same"));
    // 0.9 against 0.3: a regression before each arm reached 20 trials.
    assert_eq!(far["change"], "regression", "{far}\n{text}");
    let far_extra = far["settle_trials"].as_u64().unwrap();
    assert!(far_extra < 17, "it stopped early: {far}");
    // 0.8 against 0.8: every round ran, each arm has 20 trials, still within noise.
    assert_eq!(same["change"], "within-noise", "{same}\n{text}");
    assert_eq!(same["settle_trials"], 17);
    assert_eq!(same["head_rate"]["trials"], 20);
    assert_eq!(same["base_rate"]["trials"], 20);
    assert!(same["p_value"].as_f64().unwrap() >= s["alpha"].as_f64().unwrap());

    // The plan: printed before the first call, worst case 2 units × 2 arms × 17 trials, one
    // request each; every round's planned requests reached the server, no more and no fewer.
    assert!(
        text.contains("worst case: 68 trials, 68 requests"),
        "{text}"
    );
    assert_eq!(s["worst_case"]["requests"], 68);
    let planned: u64 = s["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["planned"]["requests"].as_u64().unwrap())
        .sum();
    assert_eq!(requests, planned, "{s}");
    assert_eq!(requests, 2 * 17 + 2 * far_extra, "{s}");
    assert!(requests < 68);
    let same_requests: u64 = counts
        .lock()
        .unwrap()
        .iter()
        .filter(|((m, _), _)| m == "same")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(
        same_requests,
        3 + 3 + 2 * 17,
        "head, base, then every settle round"
    );
    // The gate's own reports are the head's 3 trials: settle trials live apart.
    let summary = read_json(&out.join("summary.json"));
    assert!(summary["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["trials"].as_array().unwrap().len() == 3));
    let md = std::fs::read_to_string(out.join("base-comparison.md")).unwrap();
    assert!(
        md.find("regression     E1/default on far") < md.find("Within noise")
            && md.contains("within noise   E1/default on same"),
        "{md}"
    );
}

/// The seed of the settle test's coins: one whose first three draws give the starting point the
/// test needs (both units 3/3 on the base, failing at head). Of the 533 seeds below 3,000 that
/// do, the same simulation settles `far` early and leaves `same` within noise for 479 (90%);
/// with this one `far` settles after 9 more trials per arm.
const SEED: u64 = 37;

#[test]
fn settle_no_larger_than_the_gate_trials_is_refused_before_the_base_rerun_calls_a_model() {
    let base = std::fs::read_to_string(example_charter()).unwrap();
    let edited = base.replace("pick the higher tier", "choose the higher tier");
    let (_repo, charter) = git_repo(&base, &edited);
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let o = common::offline_run(
        &run,
        &["--charter", charter.to_str().unwrap(), "--case", "E1"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let o = common::harness(
        &repo_root(),
        &[
            "gate",
            run.to_str().unwrap(),
            "--charter-base",
            "HEAD",
            "--settle",
            "3",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("--settle 3: must exceed the gate's 3 trials per unit"),
        "{}",
        common::stderr(&o)
    );
    assert!(
        !std::fs::read_dir(&run)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("base-")),
        "no base rerun"
    );
}
