//! Reasoning from providers: OpenAI-compatible `reasoning_content` and Anthropic `thinking`
//! blocks are recorded apart from the reply, and Anthropic's thinking blocks go back unchanged,
//! first in the assistant turn, on the next turn of a tool-use conversation: the stand-in
//! refuses (400) a turn without them, as the Messages API does.

use crate::common;

use common::example_charter;
use common::loopback_run::{run_harness, two_api_manifest};
use loopback::ratelimit::{looks_around, RateLimiter, RateLimits};
use serde_json::Value;

const PINNED: &str = "test-model-2026-01-01";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_blocks_go_back_unchanged_on_tool_use_turns_and_reasoning_is_recorded_apart() {
    let limiter = RateLimiter::new(RateLimits {
        thinking: true,
        calls: Some(looks_around()),
        ..RateLimits::new(u64::MAX / 4, u64::MAX / 4)
    });
    let server = limiter.serve().await;
    let run = run_harness(
        two_api_manifest(
            &example_charter(),
            &server.url(),
            PINNED,
            "[decoding]\nmax_tokens = 100",
            "retry_base_ms = 10",
            "retry_base_ms = 10",
        ),
        &["--case", "E9", "--trials", "1"],
    )
    .await;
    assert!(matches!(run.code, 0..=2), "{}\n{}", run.code, run.stderr);
    // Not one 400: every Anthropic tool-use turn carried the previous turn's thinking block.
    let statuses: Vec<u16> = limiter.tally().log.iter().map(|(_, s)| *s).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    for model in ["oa", "an"] {
        let t = run.transcript(model, "E9-default", 1);
        assert!(t["error"].is_null(), "{model}: {}", t["error"]);
        let said: Vec<&Value> = t["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "assistant" && !m["reasoning"].is_null())
            .collect();
        assert!(said.len() >= 3, "{model}: {said:?}");
        for m in &said {
            let r = m["reasoning"].as_str().unwrap();
            assert!(r.starts_with("Thinking "), "{model}: {r}");
            // Apart from the reply: the reply's text never holds it.
            assert!(!m["content"].as_str().unwrap_or("").contains("Thinking "));
            // As the API sent it: Anthropic's thinking block, or the OpenAI-compatible
            // message's reasoning field under its own name.
            let blocks = m["reasoning_blocks"].as_array().map_or(0, Vec::len);
            assert_eq!(blocks, 1, "{model}: {m}");
            if model == "oa" {
                assert_eq!(m["reasoning_blocks"][0]["reasoning_content"], r, "{m}");
            }
        }
    }
    // The Anthropic requests after a tool call start the assistant turn with its thinking
    // block, signature and all, as it came.
    let later: Vec<Value> = server
        .requests()
        .iter()
        .filter(|r| r.path == "/v1/messages")
        .map(|r| r.json())
        .filter(|b| b["messages"].as_array().unwrap().len() > 1)
        .collect();
    assert!(!later.is_empty());
    for b in later {
        let turns = b["messages"].as_array().unwrap();
        let assistant = turns.iter().rfind(|m| m["role"] == "assistant").unwrap();
        let first = &assistant["content"][0];
        assert_eq!(first["type"], "thinking", "{assistant}");
        assert!(first["signature"].as_str().unwrap().starts_with("sig-"));
    }
}
