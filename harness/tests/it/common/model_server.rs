//! Loopback "models" speaking the OpenAI Chat Completions and Anthropic Messages APIs, for
//! provider tests: a generic one that finishes any case, and one that plays E9's After shape.

use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::{json, Value};
use std::sync::Arc;

/// One abstract model turn: text and tool calls (name, arguments).
pub struct Turn {
    pub text: String,
    pub calls: Vec<(String, Value)>,
}

pub fn is_anthropic(req: &RecordedRequest) -> bool {
    req.path.ends_with("/v1/messages")
}

/// How many assistant turns the request already holds.
pub fn turn_index(req: &RecordedRequest) -> usize {
    let body = req.json();
    body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count())
}

fn offered(req: &RecordedRequest) -> Vec<String> {
    let body = req.json();
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| {
                    t["function"]["name"]
                        .as_str()
                        .or(t["name"].as_str())
                        .unwrap_or("")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Encode a turn in the API the request spoke, reporting `model`.
pub fn encode(req: &RecordedRequest, turn: &Turn, model: &str) -> Reply {
    let n = turn_index(req);
    if is_anthropic(req) {
        let mut content = vec![json!({"type": "text", "text": turn.text})];
        for (i, (name, args)) in turn.calls.iter().enumerate() {
            content.push(json!({"type": "tool_use", "id": format!("toolu_{n}_{i}"), "name": name, "input": args}));
        }
        let stop = if turn.calls.is_empty() {
            "end_turn"
        } else {
            "tool_use"
        };
        Reply::json(
            200,
            json!({"id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": model, "content": content, "stop_reason": stop, "usage": {"input_tokens": 100, "output_tokens": 20}}),
        )
    } else {
        let calls: Vec<Value> = turn
            .calls
            .iter()
            .enumerate()
            .map(|(i, (name, args))| json!({"id": format!("call_{n}_{i}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
            .collect();
        let message = if calls.is_empty() {
            json!({"role": "assistant", "content": turn.text})
        } else {
            json!({"role": "assistant", "content": null, "tool_calls": calls})
        };
        let finish = if turn.calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        };
        Reply::json(
            200,
            json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion", "model": model, "system_fingerprint": "fp_test", "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": {"prompt_tokens": 100, "completion_tokens": 20}}),
        )
    }
}

/// A loopback server answering every request with `turn`'s turn, encoded in the API the request
/// spoke, reporting `model`.
pub async fn serve(turn: fn(&RecordedRequest) -> Turn, model: &'static str) -> LoopbackServer {
    LoopbackServer::start(Arc::new(move |r: &RecordedRequest, _| {
        encode(r, &turn(r), model)
    }))
    .await
}

/// Finishes any case: one look at the workspace or page when tools are offered, then an answer.
pub fn generic_turn(req: &RecordedRequest) -> Turn {
    let tools = offered(req);
    let final_text = "Net: 0.7 × 1.3 = 0.91, so we're not even: the net change is −9%.".to_string();
    if turn_index(req) == 0 {
        if tools.iter().any(|t| t == "list_files") {
            return Turn {
                text: String::new(),
                calls: vec![("list_files".into(), json!({}))],
            };
        }
        if tools.iter().any(|t| t == "fetch") {
            return Turn {
                text: String::new(),
                calls: vec![(
                    "fetch".into(),
                    json!({"url": "https://releases.example.com/2.4.0"}),
                )],
            };
        }
    }
    Turn {
        text: final_text,
        calls: vec![],
    }
}

pub const E9_PATHS: [&str; 5] = [
    "config/app.toml",
    "config/prod.toml",
    "deploy/helm/values.yaml",
    "src/db/pool.py",
    "src/settings.py",
];

/// E9's After shape: search, edit all five, search again, close.
pub fn e9_turn(req: &RecordedRequest) -> Turn {
    match turn_index(req) {
        0 => Turn {
            text: "Searching first.".into(),
            calls: vec![("search".into(), json!({"pattern": "db_timeout"}))],
        },
        1 => Turn {
            text: String::new(),
            calls: E9_PATHS
                .iter()
                .map(|p| {
                    (
                        "edit_file".to_string(),
                        json!({"path": p, "old": "db_timeout", "new": "database_timeout"}),
                    )
                })
                .collect(),
        },
        2 => Turn {
            text: String::new(),
            calls: vec![("search".into(), json!({"pattern": "\\bdb_timeout\\b"}))],
        },
        _ => Turn {
            text: "Done: renamed in all 5 files; the last search returned (no matches).".into(),
            calls: vec![],
        },
    }
}
