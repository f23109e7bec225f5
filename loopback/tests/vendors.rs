//! Each documented answer the vendor stand-ins give, shape by shape, and the requests they
//! refuse as the real APIs do.

use loopback::vendors::{self, answer, Vendor};
use loopback::{RecordedRequest, Reply};
use serde_json::{json, Value};

fn request(path: &str, body: Value, headers: &[(&str, &str)]) -> RecordedRequest {
    RecordedRequest {
        method: "POST".into(),
        path: path.into(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: body.to_string().into_bytes(),
    }
}

fn chat(messages: Value) -> RecordedRequest {
    request(
        "/v1/chat/completions",
        json!({"model": "m", "messages": messages}),
        &[],
    )
}

fn messages(messages: Value) -> RecordedRequest {
    request(
        "/v1/messages",
        json!({"model": "m", "max_tokens": 10, "messages": messages}),
        &[("x-api-key", "sk-test-key")],
    )
}

/// Status and JSON body of a reply.
fn said(r: Reply) -> (u16, Value) {
    match r {
        Reply::Respond { status, body, .. } => (status, serde_json::from_str(&body).unwrap()),
        other => panic!("not a plain answer: {other:?}"),
    }
}

#[test]
fn deepseek_sends_reasoning_content_and_refuses_a_tool_turn_without_it() {
    let (status, first) = said(answer(
        Vendor::DeepSeekThinking,
        &chat(json!([{"role": "user", "content": "go"}])),
    ));
    assert_eq!(status, 200);
    let m = &first["choices"][0]["message"];
    assert_eq!(
        m["reasoning_content"],
        json!(vendors::deepseek_reasoning(0))
    );
    assert_eq!(m["tool_calls"][0]["function"]["name"], "list_files");
    let mut back = m.clone();
    let with = chat(
        json!([{"role": "user", "content": "go"}, back.clone(), {"role": "tool", "tool_call_id": "call_0", "content": "a"}]),
    );
    assert_eq!(said(answer(Vendor::DeepSeekThinking, &with)).0, 200);
    back.as_object_mut().unwrap().remove("reasoning_content");
    let without = chat(
        json!([{"role": "user", "content": "go"}, back, {"role": "tool", "tool_call_id": "call_0", "content": "a"}]),
    );
    let (status, err) = said(answer(Vendor::DeepSeekThinking, &without));
    assert_eq!(status, 400);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("reasoning_content"));
}

#[test]
fn openrouter_sends_reasoning_details_and_refuses_them_changed() {
    let (_, first) = said(answer(
        Vendor::OpenRouterDetails,
        &chat(json!([{"role": "user", "content": "go"}])),
    ));
    let m = first["choices"][0]["message"].clone();
    assert_eq!(m["reasoning_details"], vendors::openrouter_details(0));
    let mut changed = m.clone();
    changed["reasoning_details"][1]["data"] = json!("other");
    let req = chat(
        json!([{"role": "user", "content": "go"}, changed, {"role": "tool", "tool_call_id": "call_0", "content": "a"}]),
    );
    assert_eq!(said(answer(Vendor::OpenRouterDetails, &req)).0, 400);
}

#[test]
fn an_anthropic_thinking_block_holds_the_key_and_a_changed_one_breaks_its_signature() {
    let (_, first) = said(answer(
        Vendor::AnthropicThinkingWithKey,
        &messages(json!([{"role": "user", "content": "go"}])),
    ));
    let block = first["content"][0].clone();
    let text = block["thinking"].as_str().unwrap().to_string();
    assert!(text.contains("sk-test-key"));
    assert_eq!(block["signature"], json!(vendors::signature(&text)));
    let turn = |b: Value| {
        messages(
            json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [b, first["content"][1].clone()]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_0", "content": "a"}]}]),
        )
    };
    assert_eq!(
        said(answer(
            Vendor::AnthropicThinkingWithKey,
            &turn(block.clone())
        ))
        .0,
        200
    );
    let mut masked = block;
    masked["thinking"] = json!(text.replace("sk-test-key", "***"));
    let (status, err) = said(answer(Vendor::AnthropicThinkingWithKey, &turn(masked)));
    assert_eq!(
        (status, err["error"]["type"].as_str()),
        (400, Some("invalid_request_error"))
    );
}

#[test]
fn refusals_come_as_each_api_documents_them() {
    let (_, o) = said(answer(Vendor::OpenAiRefusal, &chat(json!([]))));
    assert_eq!(o["choices"][0]["message"]["content"], Value::Null);
    assert!(o["choices"][0]["message"]["refusal"].is_string());
    let (_, a) = said(answer(Vendor::AnthropicRefusal, &messages(json!([]))));
    assert_eq!(a["stop_reason"], "refusal");
    assert_eq!(a["stop_details"]["type"], "refusal");
}

#[test]
fn a_filter_a_used_up_quota_and_no_credit_answer_as_documented() {
    let (_, f) = said(answer(Vendor::ContentFilter, &chat(json!([]))));
    assert_eq!(f["choices"][0]["finish_reason"], "content_filter");
    let (s, q) = said(answer(Vendor::InsufficientQuota, &chat(json!([]))));
    assert_eq!(
        (s, q["error"]["code"].as_str()),
        (429, Some("insufficient_quota"))
    );
    let (s, b) = said(answer(Vendor::BillingError, &messages(json!([]))));
    assert_eq!(
        (s, b["error"]["type"].as_str()),
        (402, Some("billing_error"))
    );
    let (s, c) = said(answer(Vendor::CreditBalance, &messages(json!([]))));
    assert_eq!(s, 400);
    assert!(c["error"]["message"]
        .as_str()
        .unwrap()
        .contains("credit balance"));
}

#[test]
fn pause_turn_wants_the_whole_turn_back() {
    let (_, first) = said(answer(
        Vendor::PauseTurn,
        &messages(json!([{"role": "user", "content": "go"}])),
    ));
    assert_eq!(first["stop_reason"], "pause_turn");
    let whole = messages(
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": vendors::paused_blocks()}]),
    );
    assert_eq!(
        said(answer(Vendor::PauseTurn, &whole)).1["stop_reason"],
        "end_turn"
    );
    let part = messages(
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [vendors::paused_blocks()[0].clone()]}]),
    );
    assert_eq!(said(answer(Vendor::PauseTurn, &part)).0, 400);
}

#[test]
fn object_arguments_and_a_body_that_is_not_utf8() {
    let (_, o) = said(answer(Vendor::ObjectArguments, &chat(json!([]))));
    assert!(o["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"].is_object());
    match answer(Vendor::NotUtf8, &chat(json!([]))) {
        Reply::Stream { status, chunk, .. } => {
            assert_eq!(status, 200);
            assert!(String::from_utf8(chunk).is_err());
        }
        other => panic!("{other:?}"),
    }
}
