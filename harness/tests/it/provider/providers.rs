//! The real providers against loopback servers: exact request shapes for both APIs, a full
//! multi-step tool episode through each, faults ending as a retry that succeeds or an
//! inconclusive trial, and the API key never written anywhere.

use crate::common;

use common::loopback_run::{
    harness_off_runtime, responder, run_argv, run_harness, two_api_manifest, KEY,
};
use common::model_server::{e9_turn, encode, generic_turn, is_anthropic, serve, E9_PATHS};
use common::{example_charter, files_under};
use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::Value;
use std::time::Duration;

const PINNED: &str = "test-model-2026-01-01";

/// `oa` and `an` on `server` with a seeded decoding, quick retries and a 2 s timeout, then each
/// model's extra lines.
fn manifest(server: &LoopbackServer, extra_openai: &str, extra_anthropic: &str) -> String {
    let limits = "retry_base_ms = 10\ntimeout_secs = 2";
    two_api_manifest(
        &example_charter(),
        &server.url(),
        PINNED,
        "[decoding]\ntemperature = 0\nmax_tokens = 1000\nseed = 7",
        &format!("{limits}\n{extra_openai}"),
        &format!("{limits}\n{extra_anthropic}"),
    )
}

fn model_requests(server: &LoopbackServer, anthropic: bool) -> Vec<RecordedRequest> {
    server
        .requests()
        .into_iter()
        .filter(|r| is_anthropic(r) == anthropic)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_request_shape_carries_system_tools_tool_results_and_decoding() {
    let server = serve(e9_turn, PINNED).await;
    let run = run_harness(
        manifest(&server, "", ""),
        &["--case", "E9", "--model", "oa", "--trials", "1"],
    )
    .await;
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let reqs = model_requests(&server, false);
    assert_eq!(reqs.len(), 4, "search, edits, search, final");
    let first = &reqs[0];
    assert_eq!(
        (first.method.as_str(), first.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        first.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let b = first.json();
    assert_eq!(b["model"], PINNED);
    assert_eq!(b["messages"][0]["role"], "system");
    assert!(b["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Core Invariants"));
    assert_eq!(b["messages"][1]["role"], "user");
    assert_eq!(
        (
            b["temperature"].as_f64(),
            b["seed"].as_u64(),
            b["max_tokens"].as_u64()
        ),
        (Some(0.0), Some(7), Some(1000))
    );
    let tools: Vec<&str> = b["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "list_files",
            "read_file",
            "search",
            "write_file",
            "edit_file"
        ]
    );
    assert_eq!(b["tools"][0]["type"], "function");
    assert_eq!(
        b["tools"][2]["function"]["parameters"]["required"][0],
        "pattern"
    );
    // The second request carries the assistant tool call (content null, arguments a JSON string)
    // and the tool message answering it.
    let second = reqs[1].json();
    let msgs = second["messages"].as_array().unwrap();
    let call_turn = &msgs[2];
    assert_eq!(call_turn["content"], Value::Null);
    assert!(call_turn["tool_calls"][0]["function"]["arguments"].is_string());
    assert_eq!(msgs[3]["role"], "tool");
    assert_eq!(msgs[3]["tool_call_id"], call_turn["tool_calls"][0]["id"]);
    assert!(msgs[3]["content"]
        .as_str()
        .unwrap()
        .contains("config/prod.toml:3:db_timeout"));

    let t = run.transcript("oa", "E9-default", 1);
    assert_eq!(t["outcome"], "completed");
    assert_eq!(
        t["checker"]["pass"], true,
        "E9's After shape passes through real HTTP: {}",
        t["checker"]
    );
    assert_eq!(
        t["request"]["decoding_sent"],
        serde_json::json!({"temperature": 0.0, "seed": 7, "max_tokens": 1000})
    );
    assert_eq!(t["request_ids"][0]["system_fingerprint"], "fp_test");
    assert_eq!(t["request"]["alias_drift"], false);
    let changed: Vec<&str> = t["workspace"]["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(changed, E9_PATHS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_omits_temperature_when_unsupported_and_can_send_max_completion_tokens() {
    let server = serve(generic_turn, PINNED).await;
    let m = manifest(
        &server,
        "temperature_supported = false\ntoken_limit_field = \"max_completion_tokens\"",
        "",
    );
    let run = run_harness(m, &["--case", "E2", "--model", "oa", "--trials", "1"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let b = model_requests(&server, false)[0].json();
    assert!(
        b.get("temperature").is_none() && b.get("max_tokens").is_none(),
        "{b}"
    );
    assert_eq!(b["max_completion_tokens"], 1000);
    let t = run.transcript("oa", "E2-default", 1);
    assert_eq!(
        t["request"]["decoding_sent"],
        serde_json::json!({"seed": 7, "max_completion_tokens": 1000})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_request_shape_has_top_level_system_alternating_turns_and_tool_result_blocks() {
    let server = serve(e9_turn, PINNED).await;
    let run = run_harness(
        manifest(&server, "", ""),
        &["--case", "E9", "--model", "an", "--trials", "1"],
    )
    .await;
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let reqs = model_requests(&server, true);
    assert_eq!(reqs.len(), 4);
    let first = &reqs[0];
    assert_eq!(first.path, "/v1/messages");
    assert_eq!(first.header("x-api-key"), Some(KEY));
    assert_eq!(
        first.header("authorization"),
        None,
        "one auth header, not both"
    );
    assert_eq!(first.header("anthropic-version"), Some("2026-10-21"));
    let b = first.json();
    // The charter as one cached system block (prompt caching is on by default).
    assert!(b["system"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Core Invariants"));
    assert_eq!(b["system"][0]["cache_control"]["type"], "ephemeral");
    assert_eq!(b["max_tokens"], 1000);
    assert!(
        b.get("temperature").is_none(),
        "this API version takes no temperature"
    );
    assert_eq!(b["tools"][2]["name"], "search");
    assert!(b["tools"][2]["input_schema"].is_object());
    let third = reqs[2].json();
    let msgs = third["messages"].as_array().unwrap();
    let roles: Vec<&str> = msgs.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant", "user"],
        "alternation kept"
    );
    // Five tool results answer five tool_use blocks, merged into one user turn, results first.
    let uses: Vec<&Value> = msgs[3]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "tool_use")
        .collect();
    let results = msgs[4]["content"].as_array().unwrap();
    assert_eq!((uses.len(), results.len()), (5, 5));
    for (u, r) in uses.iter().zip(results) {
        assert_eq!(
            (r["type"].as_str(), &r["tool_use_id"]),
            (Some("tool_result"), &u["id"])
        );
    }
    let t = run.transcript("an", "E9-default", 1);
    assert_eq!(t["checker"]["pass"], true, "{}", t["checker"]);
    assert_eq!(
        t["request"]["decoding_sent"],
        serde_json::json!({"max_tokens": 1000})
    );
    assert_eq!(t["request_ids"][3]["finish_reason"], "end_turn");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_apis_complete_the_whole_matrix_with_every_transcript_complete() {
    let server = serve(generic_turn, PINNED).await;
    let run = run_harness(manifest(&server, "", ""), &[]).await;
    assert!(run.code == 1 || run.code == 0, "{}", run.stderr);
    let files = files_under(&run.out().join("transcripts"));
    // Every unit on both models, 3 trials each.
    assert_eq!(
        files.len(),
        crate::common::counts::Counts::get().units * 2 * 3
    );
    for f in files {
        let t: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert_eq!(t["outcome"], "completed", "{}", f.display());
        assert!(t["messages"].as_array().unwrap().last().unwrap()["role"] == "assistant");
    }
    let run_json: Value =
        serde_json::from_str(&std::fs::read_to_string(run.out().join("run.json")).unwrap())
            .unwrap();
    assert!(run_json["usage"][0]["input_tokens"].as_u64().unwrap() > 0);
}

/// A reply for each fault, then a good answer: (fault, wants a retry to succeed).
fn fault(kind: &str) -> Reply {
    match kind {
        "429" => Reply::raw(429, r#"{"error":"rate limited"}"#).with_header("retry-after", "1"),
        "500" => Reply::raw(500, r#"{"error":"boom"}"#),
        // With a wait to name, as the 429: without one the account's pause (the retry base)
        // could pass on a loaded machine before the next request asks, and no wait is shown.
        "529" => Reply::raw(
            529,
            r#"{"type":"error","error":{"type":"overloaded_error"}}"#,
        )
        .with_header("retry-after", "1"),
        "timeout" => Reply::Delay(Duration::from_secs(4), Box::new(Reply::raw(500, "late"))),
        "drop" => Reply::Drop,
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_faults_are_retried_until_the_trial_completes() {
    for kind in ["429", "500", "529", "timeout", "drop"] {
        let server = LoopbackServer::start(responder(move |r, i| {
            if i == 0 {
                fault(kind)
            } else {
                encode(r, &generic_turn(r), PINNED)
            }
        }))
        .await;
        let run = run_harness(
            manifest(&server, "", ""),
            &["--case", "E2", "--model", "oa", "--trials", "1"],
        )
        .await;
        assert_eq!(run.code, 0, "{kind}: {}", run.stderr);
        let t = run.transcript("oa", "E2-default", 1);
        assert_eq!(t["outcome"], "completed", "{kind}");
        assert_eq!(t["request_ids"][0]["attempts"], 2, "{kind}");
        // A rate limit is a wait, shown as one; other faults are retried attempts.
        let shown = match kind {
            "429" | "529" => "WAITING",
            _ => "RETRY",
        };
        assert!(
            run.stderr.contains(shown),
            "{kind}: retries are visible: {}",
            run.stderr
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persistent_failures_and_malformed_bodies_make_the_trial_inconclusive_and_the_run_goes_on()
{
    // The first trial to ask gets three 503s and gives up; the other two succeed.
    // Gate: inconclusive, nothing failed (exit 3).
    let failing = LoopbackServer::start(responder(|r, i| {
        if i < 3 {
            Reply::raw(503, "unavailable")
        } else {
            encode(r, &generic_turn(r), PINNED)
        }
    }))
    .await;
    let m = manifest(&failing, "max_attempts = 3\nmax_concurrency = 1", "");
    let run = run_harness(m, &["--case", "E2", "--model", "oa"]).await;
    assert_eq!(
        run.code, 3,
        "inconclusive, nothing failed: {}\n{}",
        run.stdout, run.stderr
    );
    let trials: Vec<Value> = (1..=3)
        .map(|n| run.transcript("oa", "E2-default", n))
        .collect();
    let errors: Vec<&Value> = trials.iter().filter(|t| t["outcome"] == "error").collect();
    assert_eq!(errors.len(), 1, "exactly one trial gave up");
    assert!(
        errors[0]["error"]
            .as_str()
            .unwrap()
            .contains("gave up after 3 attempts"),
        "{}",
        errors[0]["error"]
    );
    assert_eq!(
        trials
            .iter()
            .filter(|t| t["outcome"] == "completed" && t["checker"]["pass"] == true)
            .count(),
        2
    );
    assert!(run.stdout.contains("1 inconclusive"), "{}", run.stdout);

    let malformed =
        LoopbackServer::start(responder(|_, _| Reply::raw(200, "{\"choices\": [oops"))).await;
    let again = run_harness(
        manifest(&malformed, "", ""),
        &["--case", "E2", "--model", "oa", "--trials", "1"],
    )
    .await;
    assert_eq!(again.code, 3);
    let t = again.transcript("oa", "E2-default", 1);
    assert_eq!(t["outcome"], "error");
    assert!(
        t["error"]
            .as_str()
            .unwrap()
            .contains("malformed response body")
            && t["error"].as_str().unwrap().contains("oops"),
        "{}",
        t["error"]
    );
    assert_eq!(
        malformed.requests().len(),
        1,
        "a malformed body is not retried"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_with_30_percent_faults_ends_with_every_trial_completed_or_inconclusive() {
    let server = LoopbackServer::start(responder(|r, i| match i % 10 {
        0 => Reply::raw(429, "{}").with_header("retry-after", "0"),
        3 => Reply::raw(500, "{}"),
        6 => Reply::raw(529, "{}"),
        _ => encode(r, &generic_turn(r), PINNED),
    }))
    .await;
    let run = run_harness(
        manifest(&server, "max_attempts = 2", "max_attempts = 2"),
        &[],
    )
    .await;
    assert!([1, 3].contains(&run.code), "{}", run.stderr);
    let files = files_under(&run.out().join("transcripts"));
    assert_eq!(
        files.len(),
        crate::common::counts::Counts::get().units * 2 * 3,
        "no trial lost"
    );
    for f in files {
        let t: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let outcome = t["outcome"].as_str().unwrap();
        assert!(
            outcome == "completed" || (outcome == "error" && t["checker"]["inconclusive"] == true),
            "{}",
            f.display()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_appears_in_no_file_the_run_writes_nor_in_its_output() {
    // The server echoes the Authorization header back in an error body, the worst case.
    let server = LoopbackServer::start(responder(|r, i| {
        if i % 4 == 0 {
            let echoed = r
                .header("authorization")
                .or(r.header("x-api-key"))
                .unwrap_or("")
                .to_string();
            Reply::raw(401, &format!("{{\"error\": \"bad key {echoed}\"}}"))
        } else {
            encode(r, &generic_turn(r), PINNED)
        }
    }))
    .await;
    let run = run_harness(manifest(&server, "", ""), &["--case", "E9", "--case", "E2"]).await;
    assert!(
        !run.stdout.contains(KEY) && !run.stderr.contains(KEY),
        "key in output"
    );
    let files = files_under(&run.out());
    assert!(files.len() > 10);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(!text.contains(KEY), "{} holds the API key", f.display());
    }
    let redacted = files_under(&run.out())
        .iter()
        .any(|f| std::fs::read_to_string(f).unwrap().contains("[redacted]"));
    assert!(
        redacted,
        "the echoed key was redacted, not dropped silently"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reported_model_other_than_the_pinned_one_is_flagged_as_alias_drift() {
    let server = LoopbackServer::start(responder(|r, _| {
        encode(r, &generic_turn(r), "test-model-2026-06-30")
    }))
    .await;
    let run = run_harness(
        manifest(&server, "", ""),
        &["--case", "E2", "--model", "oa", "--trials", "1"],
    )
    .await;
    let t = run.transcript("oa", "E2-default", 1);
    assert_eq!(t["request"]["alias_drift"], true);
    assert!(
        run.stdout.contains("alias drift") && run.stdout.contains("test-model-2026-06-30"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_with_sigkill_midway_resumes_with_nothing_lost_or_repeated() {
    let server = LoopbackServer::start(responder(|r, _| {
        Reply::Delay(
            Duration::from_millis(200),
            Box::new(encode(r, &generic_turn(r), PINNED)),
        )
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mpath = dir.path().join("m.toml");
    std::fs::write(&mpath, manifest(&server, "max_concurrency = 2", "")).unwrap();
    let out = dir.path().join("out");
    let args = run_argv(&mpath, &["--case", "E2", "--model", "oa", "--trials", "24"]);
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_harness"));
    first
        .args(&args)
        .args(["--out", out.to_str().unwrap()])
        .env("CH_TEST_KEY", KEY)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = first.spawn().unwrap();
    let unit = out.join("transcripts/oa/E2-default");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    // Finished transcripts only: a transcript being written is a temporary file until renamed.
    let finished = |dir: &std::path::Path| {
        files_under(dir)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .count()
    };
    while finished(&unit) < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run wrote too little"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before: Vec<(std::path::PathBuf, Vec<u8>)> = files_under(&unit)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect();
    assert!(
        before.len() >= 4 && before.len() < 24,
        "killed midway: {} transcripts",
        before.len()
    );
    for (p, bytes) in &before {
        serde_json::from_slice::<Value>(bytes)
            .unwrap_or_else(|e| panic!("{} is torn: {e}", p.display()));
    }

    let mut resume_args = args;
    resume_args.extend(["--resume".into(), out.display().to_string()]);
    let o = harness_off_runtime(resume_args).await;
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let after: Vec<_> = files_under(&unit);
    assert_eq!(
        after.len(),
        24,
        "complete, no duplicate, no temp file left: {after:?}"
    );
    for (p, bytes) in &before {
        assert_eq!(
            &std::fs::read(p).unwrap(),
            bytes,
            "{} was redone",
            p.display()
        );
    }
    for p in &after {
        let t: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        assert_eq!(t["outcome"], "completed");
    }
    // Each finished trial was asked for once; only those in flight at the kill were asked twice.
    assert!(
        server.requests().len() <= 24 + 2,
        "{} requests",
        server.requests().len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_resends_the_stored_first_request_identically_and_writes_beside_it() {
    for model in ["oa", "an"] {
        let server = serve(e9_turn, PINNED).await;
        let run = run_harness(
            manifest(&server, "", ""),
            &["--case", "E9", "--model", model, "--trials", "1"],
        )
        .await;
        assert_eq!(run.code, 0, "{}", run.stderr);
        let original = server.requests()[0].json();
        let file = run
            .out()
            .join(format!("transcripts/{model}/E9-default/trial-1.json"));
        let o = run.replay(&file).await;
        assert_eq!(o.status.code(), Some(0), "{model}: {}", common::stderr(&o));
        let reqs = server.requests();
        let replayed = reqs.last().unwrap();
        assert_eq!(
            replayed.json(),
            original,
            "{model}: the replayed body differs from the original"
        );
        assert_eq!(replayed.path, server.requests()[0].path);
        let written = run.out().join(format!(
            "transcripts/{model}/E9-default/trial-1.replay-1.json"
        ));
        let t: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
        assert_eq!(t["request"]["replay_of"], "trial-1.json");
        assert_eq!(
            t["messages"].as_array().unwrap().last().unwrap()["tool_calls"][0]["name"],
            "search"
        );
        assert!(!std::fs::read_to_string(&written).unwrap().contains(KEY));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_per_minute_spaces_out_the_requests() {
    let server = serve(generic_turn, PINNED).await;
    // 300 per minute: one request each 200 ms, even with four episodes allowed at once.
    let started = std::time::Instant::now();
    let run = run_harness(
        manifest(
            &server,
            "requests_per_minute = 300\nmax_concurrency = 4",
            "",
        ),
        &["--case", "E2", "--model", "oa", "--trials", "4"],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.requests().len(), 4);
    assert!(
        started.elapsed() >= Duration::from_millis(600),
        "4 requests at 200 ms spacing take 600 ms: {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_stops_requests_before_it_is_exceeded_and_the_run_can_be_resumed() {
    // Each answer reports 5,000 input tokens: $0.025 at $5 per million.
    let server = LoopbackServer::start(responder(|r, _| {
        match encode(r, &generic_turn(r), PINNED) {
            Reply::Respond {
                status,
                headers,
                body,
            } => {
                let mut v: Value = serde_json::from_str(&body).unwrap();
                v["usage"]["prompt_tokens"] = serde_json::json!(5000);
                Reply::Respond {
                    status,
                    headers,
                    body: v.to_string(),
                }
            }
            other => other,
        }
    }))
    .await;
    // A request is sent only while spent + its worst case (~$0.02) stays within $0.05: two are.
    let prices = "price_input_per_mtok = 5.0\nprice_output_per_mtok = 10.0\nmax_concurrency = 1";
    let m = manifest(&server, prices, prices)
        .replace("[decoding]", "[run]\nbudget_usd = 0.05\n\n[decoding]");
    let run = run_harness(m, &["--case", "E2", "--model", "oa", "--trials", "6"]).await;
    assert_eq!(
        run.code, 3,
        "stopped by the budget: inconclusive, nothing failed\n{}\n{}",
        run.stdout, run.stderr
    );
    let outcomes: Vec<String> = (1..=6)
        .map(|n| {
            run.transcript("oa", "E2-default", n)["outcome"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let stopped = outcomes.iter().filter(|o| *o == "error").count();
    assert_eq!(stopped, 4, "{outcomes:?}");
    let t = (1..=6)
        .map(|n| run.transcript("oa", "E2-default", n))
        .find(|t| t["outcome"] == "error")
        .unwrap();
    assert!(
        t["error"].as_str().unwrap().contains("budget")
            && t["error"].as_str().unwrap().contains("--resume"),
        "{}",
        t["error"]
    );
    assert_eq!(
        server.requests().len(),
        6 - stopped,
        "no request was sent past the budget"
    );

    // Each invocation has its own budget: resuming completes two more and repeats none.
    let again = run
        .resume(&["--case", "E2", "--model", "oa", "--trials", "6"])
        .await;
    assert_eq!(again.status.code(), Some(3), "{}", common::stderr(&again));
    let completed = (1..=6)
        .filter(|&n| run.transcript("oa", "E2-default", n)["outcome"] == "completed")
        .count();
    assert_eq!((completed, server.requests().len()), (4, 4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_costs_one_request_per_model_and_the_run_says_why() {
    let server = LoopbackServer::start(responder(|_, _| {
        Reply::raw(401, "{\"error\": {\"message\": \"invalid x-api-key\"}}")
    }))
    .await;
    let run = run_harness(manifest(&server, "", ""), &[]).await;
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    for anthropic in [false, true] {
        assert_eq!(
            model_requests(&server, anthropic).len(),
            1,
            "one request per model"
        );
    }
    for name in ["oa", "an"] {
        let line = format!("authentication failed for model {name} (key from $CH_TEST_KEY)");
        assert!(run.stdout.contains(&line), "{}", run.stdout);
        let md = std::fs::read_to_string(run.out().join("report.md")).unwrap();
        assert!(md.contains(&line), "{md}");
        // The kind travels with the transcript, for reports made from the run folder later.
        let t = run.transcript(name, "E1-default", 1);
        let kind = &t["request"]["provider_error"];
        assert_eq!(kind["kind"], "authentication", "{t}");
        assert_eq!(kind["key_env"], "CH_TEST_KEY", "{t}");
    }
}

#[test]
fn two_runs_in_the_same_second_get_their_own_folders() {
    let cwd = tempfile::tempdir().unwrap();
    let a = common::harness(
        cwd.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
        ],
        &[],
    );
    let b = common::harness(
        cwd.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
        ],
        &[],
    );
    assert!(
        matches!(a.status.code(), Some(0 | 1)),
        "{}",
        common::stderr(&a)
    );
    assert!(
        matches!(b.status.code(), Some(0 | 1)),
        "{}",
        common::stderr(&b)
    );
    let runs = std::fs::read_dir(cwd.path().join("results"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != "latest")
        .count();
    assert_eq!(runs, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_requests_mark_the_charter_tools_and_latest_turn_for_the_prompt_cache() {
    // A server that reports cache reads and writes the way the Messages API does.
    let server = LoopbackServer::start(responder(|r, _| {
        let Reply::Respond { body, .. } = encode(r, &generic_turn(r), PINNED) else {
            unreachable!()
        };
        let mut body: Value = serde_json::from_str(&body).unwrap();
        body["usage"] = if is_anthropic(r) {
            serde_json::json!({"input_tokens": 50, "output_tokens": 20, "cache_read_input_tokens": 3000, "cache_creation_input_tokens": 400})
        } else {
            serde_json::json!({"prompt_tokens": 3050, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 3000}})
        };
        Reply::json(200, body)
    }))
    .await;
    let prices = "price_input_per_mtok = 10.0\nprice_output_per_mtok = 20.0\n";
    let run = run_harness(
        manifest(&server, prices, prices),
        &["--case", "E5", "--case", "E1", "--trials", "1"],
    )
    .await;
    assert!(matches!(run.code, 0 | 1 | 3), "{}", run.stderr);
    let anthropic = model_requests(&server, true);
    assert!(!anthropic.is_empty());
    for r in &anthropic {
        let body = r.json();
        let text = body.to_string();
        let marks = text.matches("\"cache_control\"").count();
        assert!(marks <= 4, "{marks} breakpoints");
        assert_eq!(
            body["system"][0]["cache_control"]["type"], "ephemeral",
            "{}",
            body["system"]
        );
        if let Some(tools) = body["tools"].as_array() {
            assert_eq!(tools.last().unwrap()["cache_control"]["type"], "ephemeral");
            assert!(tools[..tools.len() - 1]
                .iter()
                .all(|t| t.get("cache_control").is_none()));
        }
        // A long episode (E5's 96 seeded messages) marks its latest turn too.
        let msgs = body["messages"].as_array().unwrap();
        if msgs.len() >= 8 {
            let last = msgs.last().unwrap()["content"]
                .as_array()
                .unwrap()
                .last()
                .unwrap();
            assert_eq!(last["cache_control"]["type"], "ephemeral");
        }
    }
    // The figures land in the transcript and run.json; the cost uses the cache prices.
    let t = run.transcript("an", "E1-default", 1);
    assert_eq!(t["usage"]["cache_read_input_tokens"], 3000);
    assert_eq!(t["usage"]["cache_write_input_tokens"], 400);
    assert_eq!(t["request_ids"][0]["usage"]["cache_read_tokens"], 3000);
    let runj: Value =
        serde_json::from_str(&std::fs::read_to_string(run.out().join("run.json")).unwrap())
            .unwrap();
    let an = runj["usage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == "an")
        .unwrap();
    let n = an["cache_read_input_tokens"].as_u64().unwrap();
    assert!(n >= 3000 && n % 3000 == 0, "{an}");
    // Per request: 50 × $10 + 3000 × $1 (read) + 400 × $12.5 (write) + 20 × $20, per million.
    let requests = n / 3000;
    let want = requests as f64 * (50.0 * 10.0 + 3000.0 * 1.0 + 400.0 * 12.5 + 20.0 * 20.0) / 1e6;
    assert!(
        (an["cost_usd"].as_f64().unwrap() - want).abs() < 1e-9,
        "{an}"
    );
    assert!(an["cost_without_cache_usd"].as_f64().unwrap() > want);
    // OpenAI: the cached part of prompt_tokens is billed at the read price.
    let oa = runj["usage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == "oa")
        .unwrap();
    assert_eq!(oa["input_tokens"].as_u64().unwrap() % 50, 0, "{oa}");
    assert!(
        run.stdout.contains("read from the prompt cache"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("without the prompt cache"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_cache_false_marks_nothing() {
    let server = serve(generic_turn, PINNED).await;
    let run = run_harness(
        manifest(&server, "", "prompt_cache = false"),
        &["--case", "E5", "--model", "an", "--trials", "1"],
    )
    .await;
    assert!(matches!(run.code, 0 | 1), "{}", run.stderr);
    for r in model_requests(&server, true) {
        let text = r.json().to_string();
        assert!(
            !text.contains("cache_control"),
            "prompt_cache = false still marked a breakpoint"
        );
        assert!(r.json()["system"].is_string());
    }
}

/// When each request arrived, and its body.
type Arrivals = std::sync::Arc<std::sync::Mutex<Vec<(std::time::Instant, String)>>>;

/// Arrival times of each distinct request body, for a model that answers after `delay`.
fn timed_server(delay: Duration) -> (loopback::Responder, Arrivals) {
    let seen: Arrivals = Default::default();
    let log = seen.clone();
    let respond = responder(move |r, _| {
        log.lock().unwrap().push((
            std::time::Instant::now(),
            String::from_utf8_lossy(&r.body).into(),
        ));
        Reply::Delay(delay, Box::new(encode(r, &generic_turn(r), PINNED)))
    });
    (respond, seen)
}

/// For each distinct request body sent more than once (one unit's first request, repeated by
/// each trial), how long after the first one the next one arrived.
fn sibling_gaps(seen: &[(std::time::Instant, String)]) -> Vec<Duration> {
    let mut by_body: std::collections::BTreeMap<&str, Vec<std::time::Instant>> = Default::default();
    for (at, body) in seen {
        by_body.entry(body).or_default().push(*at);
    }
    by_body
        .values()
        .filter(|t| t.len() > 1)
        .map(|t| {
            let mut t = t.clone();
            t.sort();
            t[1] - t[0]
        })
        .collect()
}

/// E1 and E2, three trials each, on the Anthropic model answering after `delay`: for each
/// unit, how long after its first trial's first request the next trial's arrived.
async fn first_request_gaps(prompt_cache: bool, delay: Duration) -> Vec<Duration> {
    let (respond, seen) = timed_server(delay);
    let server = LoopbackServer::start(respond).await;
    let many = format!("max_concurrency = 16\nprompt_cache = {prompt_cache}");
    // Bounded: a sibling left waiting on a warm-up that never opens fails here, not hangs CI.
    let run = tokio::time::timeout(
        Duration::from_secs(120),
        run_harness(
            manifest(&server, &many, &many),
            &[
                "--case", "E1", "--case", "E2", "--model", "an", "--trials", "3",
            ],
        ),
    )
    .await
    .expect("the run did not finish within 120 s: a sibling waits on a warm-up that never opened");
    assert!(matches!(run.code, 0 | 1), "{}", run.stderr);
    let gaps = sibling_gaps(&seen.lock().unwrap());
    assert!(gaps.len() >= 2, "{gaps:?}");
    gaps
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_units_siblings_send_their_first_request_only_after_the_warm_up_episode_got_its_reply() {
    let delay = Duration::from_millis(300);
    let gaps = first_request_gaps(true, delay).await;
    // Every sibling waited for the warm-up's reply (the cache write) before its first request.
    assert!(gaps.iter().all(|g| *g >= delay), "{gaps:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_prompt_cache_a_units_trials_start_together() {
    let delay = Duration::from_millis(300);
    let gaps = first_request_gaps(false, delay).await;
    // Nothing to warm: once the model's first request confirmed the key (the one request a
    // wrong key may cost), the other units' trials share the slots from the start.
    assert!(gaps.iter().any(|g| *g < delay), "{gaps:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_reply_is_capped_and_its_tool_paths_normalised_like_a_runs() {
    use common::model_server::Turn;
    // First the run's own reply; the replay then gets a runaway one (Anthropic: text and a
    // tool call in one reply).
    let server = LoopbackServer::start(responder(|r, n| {
        let turn = if n == 0 {
            generic_turn(r)
        } else {
            Turn {
                text: "x".repeat(5000),
                calls: vec![(
                    "read_file".into(),
                    serde_json::json!({"path": "./docs//a.txt"}),
                )],
            }
        };
        encode(r, &turn, PINNED)
    }))
    .await;
    let m = format!(
        "{}\n[run]\nmax_reply_bytes = 1024\n",
        manifest(&server, "", "")
    );
    let run = run_harness(m, &["--case", "E1", "--model", "an", "--trials", "1"]).await;
    assert!(matches!(run.code, 0 | 1), "{}", run.stderr);
    let file = run.out().join("transcripts/an/E1-default/trial-1.json");
    let o = run.replay(&file).await;
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let written = run
        .out()
        .join("transcripts/an/E1-default/trial-1.replay-1.json");
    let t: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let last = t["messages"].as_array().unwrap().last().unwrap().clone();
    assert!(last["content"].as_str().unwrap().len() < 1200, "{last}");
    assert_eq!(last["tool_calls"][0]["arguments"]["path"], "docs/a.txt");
    assert_eq!(t["caps_hit"][0], "turn 1: reply cut at 1024 bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_is_told_by_its_kind_never_by_words_a_server_sends() {
    // A 400 whose body says what a refused key's error says: a rejected request, not a key to fix.
    let server = LoopbackServer::start(responder(|_, _| {
        Reply::raw(
            400,
            "{\"error\": \"authentication failed for model oa (key from $CH_TEST_KEY)\"}",
        )
    }))
    .await;
    let run = run_harness(
        manifest(&server, "", ""),
        &["--case", "E1", "--model", "oa", "--trials", "1"],
    )
    .await;
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    let md = std::fs::read_to_string(run.out().join("report.md")).unwrap();
    for text in [&run.stdout, &md] {
        assert!(!text.contains("fix the key, then re-run"), "{text}");
    }
    let t = run.transcript("oa", "E1-default", 1);
    assert_eq!(t["request"]["provider_error"]["kind"], "rejected", "{t}");
    assert_eq!(t["request"]["provider_error"]["status"], 400, "{t}");
}
