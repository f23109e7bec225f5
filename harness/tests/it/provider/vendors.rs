//! Providers as they really answer: each documented answer the plain stand-ins never send,
//! served by `loopback::vendors` over real HTTP, and what the harness makes of it.

use crate::common;

use common::example_charter;
use common::loopback_run::{run_harness, Run, KEY};
use loopback::vendors::{self, Vendor};
use loopback::LoopbackServer;
use serde_json::{json, Value};

/// Model `m` of `provider` on `server`, quick retries, then `extra` lines in its table (and the
/// weakest model the gate needs, `w`, which these runs leave out).
fn manifest(server: &LoopbackServer, provider: &str, extra: &str) -> String {
    let url = match provider {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    format!(
        r#"
[charter]
source = {:?}

[decoding]
max_tokens = 200

[[models]]
name = "m"
role = "frontier"
provider = "{provider}"
model = "stand-in-2026-01-01"
base_url = "{url}"
api_key_env = "CH_TEST_KEY"
temperature_supported = false
retry_base_ms = 10
request_deadline_secs = 60
{extra}

[[models]]
name = "w"
role = "weakest"
provider = "{provider}"
model = "stand-in-2026-01-01"
base_url = "{url}"
api_key_env = "CH_TEST_KEY"
temperature_supported = false
"#,
        example_charter()
    )
}

async fn run_on(
    vendor: Vendor,
    provider: &str,
    extra: &str,
    args: &[&str],
) -> (LoopbackServer, Run) {
    let server = vendors::serve(vendor).await;
    let mut args = args.to_vec();
    args.extend(["--model", "m"]);
    let run = run_harness(manifest(&server, provider, extra), &args).await;
    (server, run)
}

fn statuses_of(server: &LoopbackServer) -> usize {
    server.requests().len()
}

fn deliverable(t: &Value) -> &Value {
    t["checker"]["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "deliverable")
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deepseek_reasoning_goes_back_on_tool_call_turns_over_three_turns() {
    let (server, run) = run_on(
        Vendor::DeepSeekThinking,
        "openai",
        "reasoning_replay = \"always\"",
        &["--case", "E9", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E9-default", 1);
    assert!(t["error"].is_null(), "{}\n{}", t["error"], run.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "three turns");
    // The third request carries both tool-call turns with their reasoning, byte for byte.
    let third = reqs[2].json();
    let assistants: Vec<&Value> = third["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .collect();
    for (i, m) in assistants.iter().enumerate() {
        assert_eq!(
            m["reasoning_content"],
            json!(vendors::deepseek_reasoning(i))
        );
    }
    // Recorded on the assistant message in the transcript, apart from the reply.
    let said: Vec<&Value> = t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .collect();
    assert_eq!(said.len(), 3);
    assert_eq!(
        said[0]["reasoning_blocks"][0]["reasoning_content"],
        json!(vendors::deepseek_reasoning(0))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deepseek_answers_400_when_an_unknown_host_gets_nothing_extra() {
    // `auto` on a host it does not know (this loopback address) sends no reasoning back: the
    // stand-in refuses the second turn, and the trial is inconclusive, not graded.
    let (server, run) = run_on(
        Vendor::DeepSeekThinking,
        "openai",
        "",
        &["--case", "E9", "--trials", "1"],
    )
    .await;
    assert_eq!(server.requests().len(), 2);
    let t = run.transcript("m", "E9-default", 1);
    assert_eq!(t["outcome"], "error");
    assert!(
        t["error"].as_str().unwrap().contains("reasoning_content"),
        "{}",
        t["error"]
    );
    assert!(server.requests()[1].json()["messages"][2]
        .get("reasoning_content")
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openrouter_reasoning_details_go_back_unchanged() {
    let (server, run) = run_on(
        Vendor::OpenRouterDetails,
        "openai",
        "reasoning_replay = \"always\"",
        &["--case", "E9", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E9-default", 1);
    assert!(t["error"].is_null(), "{}\n{}", t["error"], run.stderr);
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_block_holding_the_key_goes_back_unchanged_and_is_written_masked() {
    let (server, run) = run_on(
        Vendor::AnthropicThinkingWithKey,
        "anthropic",
        "",
        &["--case", "E9", "--trials", "1", "--log-level", "trace"],
    )
    .await;
    let t = run.transcript("m", "E9-default", 1);
    assert!(t["error"].is_null(), "{}\n{}", t["error"], run.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "three turns, not one refused");
    // Resent as the API sent it: the key inside, the signature matching.
    let third = String::from_utf8(reqs[2].body.clone()).unwrap();
    assert!(third.contains(&format!("the key {KEY} and")), "{third}");
    // Every written copy holds it masked: the transcript, the trace log of the request bodies
    // and everything else on stderr, every file of the run folder.
    let trace = &run.stderr;
    assert!(trace.contains("request body"), "no trace of the bodies");
    assert!(!trace.contains(KEY));
    for f in common::files_under(&run.out()) {
        let bytes = std::fs::read(&f).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(KEY),
            "{} holds the key",
            f.display()
        );
    }
    let block = &t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "assistant")
        .unwrap()["reasoning_blocks"][0];
    let written = block["thinking"].as_str().unwrap();
    assert!(
        written.contains("the key ") && !written.contains(KEY),
        "{written}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_openai_refusal_fails_deliverable_naming_it() {
    let (_server, run) = run_on(
        Vendor::OpenAiRefusal,
        "openai",
        "",
        &["--case", "E1", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E1-default", 1);
    let reply = t["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        reply["refusal"]["text"],
        "I'm sorry, but I can't help with that request."
    );
    let d = deliverable(&t);
    assert_eq!(d["pass"], false);
    let why = d["detail"].as_str().unwrap();
    assert!(
        why.contains("refused") && why.contains("can't help"),
        "{why}"
    );
    // The story shows it.
    let shown = run.read_back("show").await;
    let story = String::from_utf8_lossy(&shown.stdout);
    assert!(story.contains("the provider reports a refusal"), "{story}");
    // And so does the report page.
    let page = std::fs::read_to_string(run.out().join("report.html")).unwrap();
    assert!(page.contains("the provider reports a refusal"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_refusal_fails_deliverable_naming_it_with_its_details() {
    let (_server, run) = run_on(
        Vendor::AnthropicRefusal,
        "anthropic",
        "",
        &["--case", "E1", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E1-default", 1);
    let reply = t["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(reply["refusal"]["details"]["category"], "cyber");
    let d = deliverable(&t);
    assert_eq!(d["pass"], false);
    let why = d["detail"].as_str().unwrap();
    assert!(
        why.contains("refused") && why.contains("category cyber"),
        "{why}"
    );
    assert_eq!(t["checker"]["pass"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_content_filter_makes_the_trial_inconclusive_with_its_own_reason() {
    let (_server, run) = run_on(
        Vendor::ContentFilter,
        "openai",
        "",
        &["--case", "E1", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E1-default", 1);
    assert_eq!(t["outcome"], "error");
    assert!(t["error"]
        .as_str()
        .unwrap()
        .contains("filtered by the provider"));
    assert_eq!(t["request"]["provider_error"]["kind"], "filtered");
    assert_eq!(t["checker"]["inconclusive"], true);
    // Counted apart, with advice that it will recur.
    let md = std::fs::read_to_string(run.out().join("report.md")).unwrap();
    assert!(
        md.contains("filtered by the provider") && md.contains("will recur for the same prompt"),
        "{md}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insufficient_quota_sends_one_request_per_model_and_names_the_cause() {
    let (server, run) = run_on(
        Vendor::InsufficientQuota,
        "openai",
        "",
        &["--case", "E1", "--trials", "3"],
    )
    .await;
    assert_eq!(statuses_of(&server), 1, "{}", run.stderr);
    let t = run.transcript("m", "E1-default", 3);
    assert!(t["error"].as_str().unwrap().contains("insufficient_quota"));
    assert!(
        run.stdout.contains("quota is used up"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_402_billing_error_sends_one_request_per_model() {
    let (server, run) = run_on(
        Vendor::BillingError,
        "anthropic",
        "",
        &["--case", "E1", "--trials", "3"],
    )
    .await;
    assert_eq!(statuses_of(&server), 1, "{}", run.stderr);
    let t = run.transcript("m", "E1-default", 2);
    assert_eq!(t["request"]["provider_error"]["kind"], "account_stopped");
    assert!(run.stdout.contains("billing_error"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_credit_balance_400_is_latched_too() {
    let (server, run) = run_on(
        Vendor::CreditBalance,
        "anthropic",
        "",
        &["--case", "E1", "--trials", "3"],
    )
    .await;
    assert_eq!(statuses_of(&server), 1, "{}", run.stderr);
    assert!(run.stdout.contains("no credit"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_turn_sends_the_whole_turn_back_and_continues() {
    let (server, run) = run_on(
        Vendor::PauseTurn,
        "anthropic",
        "",
        &["--case", "E1", "--trials", "1"],
    )
    .await;
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "{}", run.stderr);
    let t = run.transcript("m", "E1-default", 1);
    assert!(t["error"].is_null(), "{}", t["error"]);
    let last = t["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["content"], vendors::ANSWER);
    assert_eq!(t["request_ids"].as_array().unwrap().len(), 2, "two steps");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_arguments_sent_as_an_object_are_taken_as_the_object() {
    let (_server, run) = run_on(
        Vendor::ObjectArguments,
        "openai",
        "",
        &["--case", "E9", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E9-default", 1);
    let call = t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "assistant")
        .unwrap()["tool_calls"][0]
        .clone();
    assert_eq!(call["arguments"], json!({"pattern": "TODO"}));
    let result = t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap()
        .clone();
    assert_ne!(result["status"], "error", "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_utf8_is_refused_naming_the_model() {
    let (_server, run) = run_on(
        Vendor::NotUtf8,
        "openai",
        "",
        &["--case", "E1", "--trials", "1"],
    )
    .await;
    let t = run.transcript("m", "E1-default", 1);
    assert_eq!(t["outcome"], "error");
    let why = t["error"].as_str().unwrap();
    assert!(
        why.contains("model m") && why.contains("not UTF-8"),
        "{why}"
    );
}
