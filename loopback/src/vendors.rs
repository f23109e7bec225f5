//! Stand-ins for answers the vendors document and plain stand-ins never send: reasoning that
//! must come back (DeepSeek and Kimi `reasoning_content` on a tool-call turn, OpenRouter
//! `reasoning_details`, Anthropic thinking blocks checked against their signatures), refusals
//! (OpenAI `message.refusal`, Anthropic `stop_reason: "refusal"` with `stop_details`), a
//! content filter, stops waiting cannot clear (OpenAI 429 `insufficient_quota`, Anthropic 402
//! `billing_error` and its 400 about the credit balance), `pause_turn` with server-tool blocks,
//! tool arguments sent as an object, and a body that is not UTF-8. Each answers as the vendor's
//! documentation and SDK types describe, and refuses (400, in the vendor's error shape) a
//! request the real API would refuse.

use crate::{LoopbackServer, RecordedRequest, Reply};
use serde_json::{json, Value};
use std::sync::Arc;

/// Which documented answer the stand-in gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vendor {
    /// DeepSeek's thinking mode (Kimi's is the same): every answer carries `reasoning_content`;
    /// it calls `list_files`, then `search`, then answers (three turns). A request whose
    /// assistant turn with tool calls lacks the `reasoning_content` that turn was sent with
    /// is refused with 400.
    DeepSeekThinking,
    /// OpenRouter: `reasoning_details` (encrypted, signed) beside the answer, over the same
    /// three turns; a later request must carry each turn's `reasoning_details` unchanged.
    OpenRouterDetails,
    /// Anthropic extended thinking whose text holds the request's own key (`x-api-key` or
    /// bearer); the block is signed, and a later turn whose thinking block does not match its
    /// signature is refused with 400, as the Messages API refuses it. Three turns.
    AnthropicThinkingWithKey,
    /// OpenAI's refusal: `content` null and the text in `message.refusal`.
    OpenAiRefusal,
    /// Anthropic's refusal: a fragment of text, `stop_reason: "refusal"`, `stop_details`.
    AnthropicRefusal,
    /// OpenAI `finish_reason: "content_filter"` with the fragment that was not withheld.
    ContentFilter,
    /// OpenAI's 429 `insufficient_quota`: the account's quota is used up.
    InsufficientQuota,
    /// Anthropic's 402 `billing_error`.
    BillingError,
    /// Anthropic's 400 about a credit balance too low.
    CreditBalance,
    /// Anthropic `pause_turn` after a server tool's blocks; the next request must send the
    /// paused turn back whole, every block unchanged, or it is refused with 400; then it
    /// answers.
    PauseTurn,
    /// An OpenAI-compatible server that sends a tool call's `arguments` as an object, not a
    /// JSON string: `search` with `{"pattern": "TODO"}`, then an answer.
    ObjectArguments,
    /// A 200 whose body is not UTF-8.
    NotUtf8,
}

/// The text of every final answer: long enough to be work, never a refusal.
pub const ANSWER: &str = "Here is the summary you asked for: the configuration lives in config/, the timeout is set in config/prod.toml, and the tests cover both paths.";

/// Serve `vendor` on a loopback port.
pub async fn serve(vendor: Vendor) -> LoopbackServer {
    LoopbackServer::start(Arc::new(move |req, _| answer(vendor, req))).await
}

/// The stand-in's answer to one request.
pub fn answer(vendor: Vendor, req: &RecordedRequest) -> Reply {
    let body = req.json();
    let turn = assistant_turns(&body).len();
    match vendor {
        Vendor::DeepSeekThinking => deepseek(&body, turn),
        Vendor::OpenRouterDetails => openrouter(&body, turn),
        Vendor::AnthropicThinkingWithKey => anthropic_thinking(req, &body, turn),
        Vendor::OpenAiRefusal => chat(
            json!({"role": "assistant", "content": null, "refusal": "I'm sorry, but I can't help with that request."}),
            "stop",
        ),
        Vendor::AnthropicRefusal => {
            let mut m = message(vec![json!({"type": "text", "text": "I"})], "refusal");
            m["stop_details"] = json!({"type": "refusal", "category": "cyber", "explanation": "The request could enable cyber harm."});
            Reply::json(200, m)
        }
        Vendor::ContentFilter => chat(
            json!({"role": "assistant", "content": "Here is the summary you asked for: the configuration"}),
            "content_filter",
        ),
        Vendor::InsufficientQuota => Reply::json(
            429,
            json!({"error": {"message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}),
        ),
        Vendor::BillingError => anthropic_error(
            402,
            "billing_error",
            "Your account has an outstanding balance. Please visit Plans & Billing to settle it.",
        ),
        Vendor::CreditBalance => anthropic_error(
            400,
            "invalid_request_error",
            "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
        ),
        Vendor::PauseTurn => pause_turn(&body, turn),
        Vendor::ObjectArguments => match turn {
            0 => chat(
                json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "search", "arguments": {"pattern": "TODO"}}}]}),
                "tool_calls",
            ),
            _ => chat(json!({"role": "assistant", "content": ANSWER}), "stop"),
        },
        Vendor::NotUtf8 => Reply::Stream {
            status: 200,
            chunk: b"{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"caf\xe9\"}}]}"
                .to_vec(),
            times: Some(1),
        },
    }
}

/// The assistant messages a request carries, in order.
fn assistant_turns(body: &Value) -> Vec<&Value> {
    body["messages"]
        .as_array()
        .map(|m| m.iter().filter(|m| m["role"] == "assistant").collect())
        .unwrap_or_default()
}

/// The tool call of turn `turn` in the three-turn episodes (`list_files`, then `search`), or
/// none on the last.
fn call_of(turn: usize) -> Option<(&'static str, Value)> {
    match turn {
        0 => Some(("list_files", json!({}))),
        1 => Some(("search", json!({"pattern": "TODO"}))),
        _ => None,
    }
}

/// A Chat Completions answer with `message` and `finish`.
pub fn chat(message: Value, finish: &str) -> Reply {
    Reply::json(
        200,
        json!({"id": "chatcmpl-x", "object": "chat.completion", "created": 0, "model": "stand-in", "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": null}], "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}),
    )
}

/// An OpenAI-shaped 400.
fn openai_400(message: String) -> Reply {
    Reply::json(
        400,
        json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": "invalid_request_error"}}),
    )
}

/// A Messages answer with `content` and `stop`.
pub fn message(content: Vec<Value>, stop: &str) -> Value {
    json!({"id": "msg_x", "type": "message", "role": "assistant", "model": "stand-in", "content": content, "stop_reason": stop, "stop_sequence": null, "usage": {"input_tokens": 100, "output_tokens": 20}})
}

/// A Messages error body.
fn anthropic_error(status: u16, kind: &str, text: &str) -> Reply {
    Reply::json(
        status,
        json!({"type": "error", "error": {"type": kind, "message": text}, "request_id": "req_stand_in"}),
    )
}

/// One of the three OpenAI-compatible turns, with `extra` fields on the message.
fn three_turns(turn: usize, extra: Value) -> Reply {
    let mut m = match call_of(turn) {
        Some((name, args)) => {
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("call_{turn}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}]})
        }
        None => json!({"role": "assistant", "content": ANSWER}),
    };
    for (k, v) in extra.as_object().into_iter().flatten() {
        m[k] = v.clone();
    }
    let finish = if turn < 2 { "tool_calls" } else { "stop" };
    chat(m, finish)
}

/// The reasoning DeepSeek sent with turn `i`.
pub fn deepseek_reasoning(i: usize) -> String {
    format!(
        "Thinking {i}: the user wants a summary, so I look around first.\nLine two of turn {i}."
    )
}

fn deepseek(body: &Value, turn: usize) -> Reply {
    for (i, m) in assistant_turns(body).iter().enumerate() {
        let has_calls = m["tool_calls"].as_array().is_some_and(|c| !c.is_empty());
        if has_calls && m["reasoning_content"] != json!(deepseek_reasoning(i)) {
            return openai_400(format!("Missing `reasoning_content` field in the assistant message at message index {i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"));
        }
    }
    three_turns(turn, json!({"reasoning_content": deepseek_reasoning(turn)}))
}

/// The `reasoning_details` OpenRouter sent with turn `i`.
pub fn openrouter_details(i: usize) -> Value {
    json!([
        {"type": "reasoning.summary", "summary": format!("Turn {i}: looking around."), "id": null, "format": "anthropic-claude-v1", "index": 0},
        {"type": "reasoning.encrypted", "data": format!("ZW5jcnlwdGVk-{i}/+=="), "id": format!("rs_{i}"), "format": "anthropic-claude-v1", "index": 1}
    ])
}

fn openrouter(body: &Value, turn: usize) -> Reply {
    for (i, m) in assistant_turns(body).iter().enumerate() {
        if m["reasoning_details"] != openrouter_details(i) {
            return openai_400(format!(
                "assistant message {i}: reasoning_details must be passed back unchanged"
            ));
        }
    }
    three_turns(
        turn,
        json!({"reasoning": format!("Turn {turn}: looking around."), "reasoning_details": openrouter_details(turn)}),
    )
}

/// The signature of a thinking block's text: a stand-in for Anthropic's, which breaks when
/// one byte of the text changes.
pub fn signature(thinking: &str) -> String {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in thinking.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("sig-{h:016x}")
}

/// The request's key, as either header carries it.
fn request_key(req: &RecordedRequest) -> String {
    req.header("x-api-key")
        .or_else(|| {
            req.header("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
        })
        .unwrap_or("")
        .to_string()
}

fn anthropic_thinking(req: &RecordedRequest, body: &Value, turn: usize) -> Reply {
    for (i, m) in assistant_turns(body).iter().enumerate() {
        let first = &m["content"][0];
        let text = first["thinking"].as_str().unwrap_or("");
        if first["type"] != "thinking" || first["signature"] != json!(signature(text)) {
            return anthropic_error(
                400,
                "invalid_request_error",
                &format!(
                    "messages.{}.content.0: Invalid `signature` in `thinking` block",
                    2 * i + 1
                ),
            );
        }
    }
    let thinking = format!(
        "Turn {turn}: the request came with the key {} and I should not repeat it.",
        request_key(req)
    );
    let mut content =
        vec![json!({"type": "thinking", "thinking": thinking, "signature": signature(&thinking)})];
    let stop = match call_of(turn) {
        Some((name, input)) => {
            content.push(json!({"type": "tool_use", "id": format!("toolu_{turn}"), "name": name, "input": input}));
            "tool_use"
        }
        None => {
            content.push(json!({"type": "text", "text": ANSWER}));
            "end_turn"
        }
    };
    Reply::json(200, message(content, stop))
}

/// The blocks of the paused turn: a server tool's call and result, as the API sends them.
pub fn paused_blocks() -> Vec<Value> {
    vec![
        json!({"type": "text", "text": "Let me look that up."}),
        json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "charter harness"}}),
        json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [{"type": "web_search_result", "url": "https://example.com/", "title": "Example", "encrypted_content": "EqgfCioIARgBIiQ3", "page_age": null}]}),
    ]
}

fn pause_turn(body: &Value, turn: usize) -> Reply {
    if turn == 0 {
        return Reply::json(200, message(paused_blocks(), "pause_turn"));
    }
    let last = body["messages"].as_array().and_then(|m| m.last());
    let whole =
        last.is_some_and(|m| m["role"] == "assistant" && m["content"] == json!(paused_blocks()));
    if !whole {
        return anthropic_error(
            400,
            "invalid_request_error",
            "messages: a paused turn must be sent back as the last assistant turn, every block unchanged",
        );
    }
    Reply::json(
        200,
        message(vec![json!({"type": "text", "text": ANSWER})], "end_turn"),
    )
}
