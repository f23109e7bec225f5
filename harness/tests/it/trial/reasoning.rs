//! A provider's reasoning (OpenAI-compatible `reasoning_content` or `reasoning`, Anthropic
//! `thinking` blocks) is recorded on the assistant message and counts against
//! `max_transcript_bytes` like the reply itself: a model that thinks without end ends the trial
//! as the transcript's bound says, never in a transcript without one.

use super::hostile::PINNED;
use crate::common;
use common::loopback_run::{responder, run_harness};
use loopback::{LoopbackServer, Reply};
use serde_json::json;

const BOUND: u64 = 256 << 10;
/// Four times the bound, well inside the answer's body cap (8 × max_reply_bytes + 1 MiB).
const THOUGHT: usize = 1 << 20;

/// One model entry of `provider` at `server`, the transcript bound at [`BOUND`].
fn manifest(server: &LoopbackServer, provider: &str) -> String {
    let charter = common::example_charter();
    let base = match provider {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    let entry = |name: &str, role: &str| {
        format!(
            "[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"{provider}\"\nmodel = \"{PINNED}\"\nbase_url = \"{base}\"\napi_key_env = \"CH_TEST_KEY\"\nretry_base_ms = 10\nmax_attempts = 2\ntimeout_secs = 20\ntemperature_supported = false\n"
        )
    };
    format!(
        "[charter]\nsource = {charter:?}\n\n[run]\ntrials = 1\nmax_transcript_bytes = {BOUND}\n\n{}\n{}",
        entry("thinker", "frontier"),
        entry("weak", "weakest")
    )
}

/// A stand-in whose every answer is a short final reply carrying `THOUGHT` bytes of reasoning,
/// in the field `field` (OpenAI's shape) or as a `thinking` block (Anthropic's, `field` unused).
async fn thinker(field: &'static str) -> LoopbackServer {
    LoopbackServer::start(responder(move |r, _| {
        let thought = "t".repeat(THOUGHT);
        if common::model_server::is_anthropic(r) {
            return Reply::json(
                200,
                json!({"id": "msg_1", "type": "message", "role": "assistant", "model": PINNED,
                       "content": [{"type": "thinking", "thinking": thought, "signature": "sig"},
                                   {"type": "text", "text": "Finished."}],
                       "stop_reason": "end_turn", "usage": {"input_tokens": 100, "output_tokens": 20}}),
            );
        }
        let mut message = json!({"role": "assistant", "content": "Finished."});
        message[field] = json!(thought);
        Reply::json(
            200,
            json!({"id": "chatcmpl-1", "object": "chat.completion", "model": PINNED,
                   "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 100, "completion_tokens": 20}}),
        )
    }))
    .await
}

/// The run's one trial: an error naming `max_transcript_bytes` in its error and its caps, and
/// a transcript file inside the bound (with room for the request record and indentation).
async fn ends_at_the_transcript_bound(provider: &str, field: &'static str) {
    let server = thinker(field).await;
    let run = run_harness(
        manifest(&server, provider),
        &["--case", "E1", "--model", "thinker"],
    )
    .await;
    assert!(matches!(run.code, 0..=3), "{}", run.stderr);
    assert!(!server.requests().is_empty(), "{}", run.stderr);
    let dir = run.out().join("transcripts/thinker");
    let unit = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", dir.display(), run.stderr))
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let unit = unit.to_str().unwrap();
    let t = run.transcript("thinker", unit, 1);
    let size = std::fs::metadata(dir.join(unit).join("trial-1.json"))
        .unwrap()
        .len();
    assert!(
        size <= BOUND + (64 << 10),
        "{provider} {field}: transcript {size} bytes"
    );
    assert_eq!(t["outcome"], "error", "{provider} {field}: {}", t["error"]);
    let error = t["error"].as_str().unwrap_or("");
    assert!(error.contains("max_transcript_bytes"), "{error}");
    let hit = t["caps_hit"].to_string();
    assert!(
        hit.contains("reasoning") && hit.contains("max_transcript_bytes"),
        "{hit}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_reasoning_content_past_the_transcript_bound_ends_the_trial_as_the_bound_says() {
    ends_at_the_transcript_bound("openai", "reasoning_content").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_compatible_reasoning_past_the_transcript_bound_ends_the_trial_as_the_bound_says() {
    ends_at_the_transcript_bound("openai", "reasoning").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_thinking_past_the_transcript_bound_ends_the_trial_as_the_bound_says() {
    ends_at_the_transcript_bound("anthropic", "thinking").await;
}
