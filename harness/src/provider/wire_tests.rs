//! The providers' request bodies and reply readings against bodies and readings recorded from
//! the code before the wire structs: the same bytes out, the same reply in.

use super::anthropic::{self, AnthropicProvider};
use super::openai::{self, OpenAiProvider};
use super::ModelRequest;
use crate::suite::manifest::{Decoding, ModelEntry};
use checkers::transcript::{Message, Role, ToolCall};
use serde_json::{json, Value};

fn entry(extra: &str) -> ModelEntry {
    toml::from_str(&format!(
        "name = \"m\"\nrole = \"frontier\"\nmodel = \"pinned-1\"\napi_key_env = \"K\"\n{extra}"
    ))
    .unwrap()
}

/// A conversation with every turn shape: text, tool calls with object, raw and odd arguments,
/// an assistant that only calls tools, tool results (one an error), consecutive user turns.
fn conversation(turns: usize) -> Vec<Message> {
    let call = |id: &str, arguments: Value| ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments,
    };
    let mut m = vec![
        Message::new(Role::User, "Fix the \"timeout\" — ünïcode too"),
        Message::new(Role::System, "a mid-conversation system note"),
    ];
    let mut a = Message::new(Role::Assistant, "Looking.");
    a.tool_calls = vec![
        call("c1", json!({"path": "a.toml"})),
        call("c2", Value::String("{not json".into())),
    ];
    m.push(a);
    for (id, text) in [
        ("c1", "db_timeout = 5"),
        ("c2", "error: arguments are not a JSON object"),
    ] {
        let mut t = Message::new(Role::Tool, text);
        t.tool_call_id = Some(id.into());
        t.name = Some("read_file".into());
        m.push(t);
    }
    let mut only_calls = Message::new(Role::Assistant, "");
    only_calls.tool_calls = vec![call("c3", json!([1, 2]))];
    m.push(only_calls);
    m.push(Message::new(Role::Tool, "no id"));
    while m.len() < turns {
        m.push(Message::new(Role::Assistant, "more"));
        m.push(Message::new(Role::User, "go on"));
    }
    m.push(Message::new(Role::Assistant, "Done: 25%."));
    m
}

fn bodies() -> Vec<String> {
    let tools: Vec<_> = ["read_file", "edit_file", "run_tests"]
        .iter()
        .filter_map(|t| crate::suite::tools::spec(t))
        .collect();
    let decoding = Decoding {
        temperature: Some(0.0),
        max_tokens: Some(1000),
        seed: Some(7),
    };
    let bare = Decoding::default();
    let on_retry = |_| {};
    let mut out = Vec::new();
    for (turns, system, tools, decoding) in [
        (0, "charter", &tools[..], &decoding),
        (12, "charter", &tools[..], &decoding),
        (0, "", &[][..], &bare),
    ] {
        let messages = conversation(turns);
        let req = || ModelRequest {
            case: "E1",
            variant: "default",
            turn: 0,
            system,
            messages: &messages,
            tools,
            decoding,
            on_retry: &on_retry,
        };
        for extra in [
            "",
            "temperature_supported = false\ntoken_limit_field = \"max_completion_tokens\"",
        ] {
            let p = OpenAiProvider::new(
                &entry(&format!("provider = \"openai\"\n{extra}")),
                "k".into(),
                1 << 20,
            )
            .unwrap();
            out.push(p.body(&req()).to_string());
        }
        for extra in ["", "prompt_cache = false\ntemperature_supported = false"] {
            let p = AnthropicProvider::new(
                &entry(&format!("provider = \"anthropic\"\n{extra}")),
                "k".into(),
                1 << 20,
            )
            .unwrap();
            out.push(p.body(&req()).to_string());
        }
    }
    out
}

/// A reading of a reply: every field the harness keeps, the finish reason as recorded.
fn reading(r: Result<super::ModelReply, String>) -> String {
    match r {
        Err(e) => format!("error: {e}"),
        Ok(r) => json!({
            "content": r.content,
            "tool_calls": r.tool_calls.iter().map(|c| json!([c.id, c.name, c.arguments])).collect::<Vec<_>>(),
            "finish_reason": serde_json::to_value(&r.finish_reason).unwrap(),
            "usage": [r.usage.input_tokens, r.usage.output_tokens, r.usage.cache_read_tokens, r.usage.cache_write_tokens],
            "model": r.model_reported, "fingerprint": r.system_fingerprint, "id": r.request_id,
        })
        .to_string(),
    }
}

fn readings() -> Vec<String> {
    let chat = [
        json!({"id": "x", "model": "pinned-1", "system_fingerprint": "fp", "choices": [{"message": {"content": "hi", "tool_calls": [{"id": "t1", "function": {"name": "search", "arguments": "{\"pattern\": \"a\"}"}}, {"function": {"name": "read_file"}}, {"id": 5, "function": {"name": "x", "arguments": "not json"}}]}, "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 2000, "completion_tokens": 10, "prompt_tokens_details": {"cached_tokens": 1500, "cache_write_tokens": 3}}, "extra": {"a": 1}}),
        json!({"choices": [{"message": {"content": null}, "finish_reason": "length"}], "usage": {"prompt_tokens": "many"}, "model": 7}),
        json!({"choices": [{"message": {"content": "x", "tool_calls": "none"}, "finish_reason": "eos"}], "usage": null}),
        json!({"choices": [{"message": {"content": "x"}, "finish_reason": 3}]}),
        json!({"choices": []}),
        json!({"choices": [{"finish_reason": "stop"}]}),
        json!({"choices": [{"message": {"tool_calls": [{"id": "a"}]}}]}),
        json!({"choices": [{"message": {"tool_calls": [{"function": {"arguments": "{}"}}]}}]}),
    ];
    let messages = [
        json!({"id": "msg_1", "model": "claude-x", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "a"}, {"type": "tool_use", "id": "tu1", "name": "search", "input": {"pattern": "b"}}, {"type": "text", "text": 5}, {"type": "tool_use", "id": "tu2", "name": "run_tests"}, {"text": "no type"}, 3], "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 4, "cache_read_input_tokens": 900, "cache_creation_input_tokens": 50, "cache_creation": {"ephemeral_5m_input_tokens": 50}}}),
        json!({"content": [{"type": "tool_use", "id": "tu3", "name": "x", "input": null}], "stop_reason": "max_tokens"}),
        json!({"content": [], "stop_reason": "refusal", "usage": {"input_tokens": -1}}),
        json!({"content": "text"}),
        json!({"content": [{"type": "tool_use", "name": "x"}]}),
        json!({"content": [{"type": "tool_use", "id": "y"}]}),
    ];
    let mut out: Vec<String> = chat
        .iter()
        .map(|b| reading(openai::parse_reply(b)))
        .collect();
    out.extend(messages.iter().map(|b| reading(anthropic::parse_reply(b))));
    out
}

/// Recorded from the providers as they were before the wire structs (`BODY` lines: request
/// bodies as sent; `READ` lines: replies as read), kept as insta's
/// `harness/tests/snapshots/provider_wire.snap`.
#[test]
fn request_bodies_and_reply_readings_are_the_ones_recorded_before_the_wire_structs() {
    let got: Vec<String> = bodies()
        .into_iter()
        .map(|b| format!("BODY {b}"))
        .chain(readings().into_iter().map(|r| format!("READ {r}")))
        .collect();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../tests/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("provider_wire", got.join("\n") + "\n"));
}

/// An assistant turn that called a tool and one that answered, each with the reasoning an
/// OpenAI-compatible server sent (every field a server may name) recorded as sent.
fn reasoned() -> Vec<Message> {
    let sent = |i: usize| {
        json!({"reasoning_content": format!("think {i}"), "reasoning": format!("think {i}"),
               "reasoning_details": [{"type": "reasoning.encrypted", "data": format!("enc{i}")}]})
    };
    let mut called = Message::new(Role::Assistant, "");
    called.tool_calls = vec![ToolCall {
        id: "c1".into(),
        name: "list_files".into(),
        arguments: json!({}),
    }];
    called.reasoning_blocks = vec![sent(0)];
    let mut result = Message::new(Role::Tool, "a.toml");
    result.tool_call_id = Some("c1".into());
    let mut answered = Message::new(Role::Assistant, "Done.");
    answered.reasoning_blocks = vec![sent(1)];
    vec![Message::new(Role::User, "go"), called, result, answered]
}

/// The reasoning fields each assistant turn of the OpenAI body carries, for `extra`.
fn replayed(extra: &str) -> Vec<Vec<String>> {
    let messages = reasoned();
    let on_retry = |_| {};
    let decoding = Decoding::default();
    let req = ModelRequest {
        case: "E1",
        variant: "default",
        turn: 0,
        system: "",
        messages: &messages,
        tools: &[],
        decoding: &decoding,
        on_retry: &on_retry,
    };
    let p = OpenAiProvider::new(
        &entry(&format!("provider = \"openai\"\n{extra}")),
        "k".into(),
        1 << 20,
    )
    .unwrap();
    let body = p.body(&req);
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| {
            openai::REASONING_FIELDS
                .iter()
                .filter(|f| m.get(**f).is_some())
                .map(|f| f.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn auto_sends_reasoning_back_as_each_known_host_documents_and_nothing_elsewhere() {
    let none: Vec<Vec<String>> = vec![vec![], vec![]];
    let content = vec![vec!["reasoning_content".to_string()], vec![]];
    for host in [
        "https://api.deepseek.com",
        "https://api.moonshot.ai/v1",
        "https://api.moonshot.cn/v1",
    ] {
        assert_eq!(
            replayed(&format!("base_url = \"{host}\"")),
            content,
            "{host}"
        );
    }
    let details = vec![vec!["reasoning_details".to_string()]; 2];
    assert_eq!(
        replayed("base_url = \"https://openrouter.ai/api/v1\""),
        details
    );
    for elsewhere in [
        "",
        "base_url = \"http://127.0.0.1:8080/v1\"",
        "base_url = \"https://api.deepseek.com.evil.example\"",
    ] {
        assert_eq!(replayed(elsewhere), none, "{elsewhere}");
    }
    assert_eq!(
        replayed("base_url = \"https://api.deepseek.com\"\nreasoning_replay = \"never\""),
        none
    );
    let all: Vec<String> = openai::REASONING_FIELDS
        .iter()
        .map(|f| f.to_string())
        .collect();
    assert_eq!(
        replayed("reasoning_replay = \"always\""),
        vec![all.clone(), all]
    );
}

#[test]
fn the_reasoning_goes_back_byte_for_byte() {
    let messages = reasoned();
    let on_retry = |_| {};
    let decoding = Decoding::default();
    let req = ModelRequest {
        case: "E1",
        variant: "default",
        turn: 0,
        system: "",
        messages: &messages,
        tools: &[],
        decoding: &decoding,
        on_retry: &on_retry,
    };
    let p = OpenAiProvider::new(
        &entry("provider = \"openai\"\nbase_url = \"https://openrouter.ai/api/v1\""),
        "k".into(),
        1 << 20,
    )
    .unwrap();
    let body = p.body(&req);
    assert_eq!(
        body["messages"][1]["reasoning_details"],
        messages[1].reasoning_blocks[0]["reasoning_details"]
    );
}

#[test]
fn refusals_and_object_arguments_are_read_as_the_vendors_send_them() {
    let refused = json!({"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]});
    let r = openai::parse_reply(&refused).unwrap();
    assert_eq!(r.refusal.unwrap().text, "I can't help with that.");
    let object = json!({"choices": [{"message": {"tool_calls": [{"id": "a", "function": {"name": "search", "arguments": {"pattern": "x"}}}]}}]});
    assert_eq!(
        openai::parse_reply(&object).unwrap().tool_calls[0].arguments,
        json!({"pattern": "x"})
    );
    let anthropic = json!({"content": [{"type": "text", "text": "I"}], "stop_reason": "refusal",
        "stop_details": {"type": "refusal", "category": "bio", "explanation": "no"}});
    let r = anthropic::parse_reply(&anthropic).unwrap().refusal.unwrap();
    assert_eq!(
        (r.text.as_str(), r.details.unwrap()["category"].as_str()),
        ("I", Some("bio"))
    );
}
