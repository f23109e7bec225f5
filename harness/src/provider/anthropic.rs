//! The Anthropic Messages provider: `system` top-level, strict user/assistant alternation
//! (consecutive same-role turns merged), `tool_use` / `tool_result` blocks, `max_tokens` always.

use super::http::HttpCaller;
use super::{BoxFuture, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::manifest::{AuthStyle, Decoding, ModelEntry, ANTHROPIC_DEFAULT_VERSION};
use checkers::transcript::{Message, Role, ToolCall};
use serde_json::{json, Map, Value};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// Sent when the manifest gives no max_tokens: the API requires one.
const FALLBACK_MAX_TOKENS: u32 = 4096;

pub struct AnthropicProvider {
    http: HttpCaller,
    url: String,
    model: String,
    version: String,
    auth: AuthStyle,
    temperature_supported: bool,
    prompt_cache: bool,
}

impl AnthropicProvider {
    pub fn new(entry: &ModelEntry, key: String) -> crate::error::Result<AnthropicProvider> {
        let base = entry
            .base_url
            .as_deref()
            .unwrap_or(DEFAULT_BASE_URL)
            .trim_end_matches('/');
        Ok(AnthropicProvider {
            http: HttpCaller::new(entry, key)?,
            url: format!("{base}/v1/messages"),
            model: entry.model.clone(),
            version: entry
                .api_version
                .clone()
                .unwrap_or_else(|| ANTHROPIC_DEFAULT_VERSION.to_string()),
            auth: entry.auth.unwrap_or(AuthStyle::XApiKey),
            temperature_supported: entry.temperature_supported,
            prompt_cache: entry.prompt_cache,
        })
    }

    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        // Prompt caching: the charter (the same in every request of the run), the tool
        // definitions, and the latest turn of a long episode, so the next turn reads the whole
        // conversation so far from the cache. Three breakpoints; the API allows four.
        let cache = json!({"type": "ephemeral"});
        if !req.system.is_empty() {
            if self.prompt_cache {
                body.insert(
                    "system".into(),
                    json!([{"type": "text", "text": req.system, "cache_control": cache}]),
                );
            } else {
                body.insert("system".into(), json!(req.system));
            }
        }
        let mut messages = wire_messages(req.messages);
        if self.prompt_cache && messages.len() >= LONG_EPISODE_TURNS {
            if let Some(block) = messages
                .last_mut()
                .and_then(|m| m["content"].as_array_mut())
                .and_then(|c| c.last_mut())
            {
                block["cache_control"] = cache.clone();
            }
        }
        body.insert("messages".into(), Value::Array(messages));
        if !req.tools.is_empty() {
            let mut tools: Vec<Value> = req.tools.iter().map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters})).collect();
            if self.prompt_cache {
                if let Some(last) = tools.last_mut() {
                    last["cache_control"] = cache.clone();
                }
            }
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Value::Object(d) = self.decoding_sent(req.decoding) {
            body.extend(d);
        }
        Value::Object(body)
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        let auth = match self.auth {
            AuthStyle::XApiKey => ("x-api-key", self.http.key().to_string()),
            AuthStyle::Bearer => ("authorization", format!("Bearer {}", self.http.key())),
        };
        vec![auth, ("anthropic-version", self.version.clone())]
    }
}

/// Conversation turns as Messages API turns: tool results become `tool_result` blocks of a user
/// turn, and consecutive turns of one role are merged so roles alternate.
/// From this many Messages API turns on, the latest one carries a cache breakpoint (E5, E8 and
/// E12 seed 26–96 messages; a short episode gains nothing from it).
pub const LONG_EPISODE_TURNS: usize = 8;

pub fn wire_messages(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for m in messages {
        let (role, blocks) = match m.role {
            Role::Tool => (
                "user",
                vec![
                    json!({"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content, "is_error": m.content.starts_with("error:")}),
                ],
            ),
            Role::User | Role::System => ("user", vec![json!({"type": "text", "text": m.content})]),
            Role::Assistant => {
                let mut b = Vec::new();
                if !m.content.is_empty() {
                    b.push(json!({"type": "text", "text": m.content}));
                }
                for c in &m.tool_calls {
                    let input = if c.arguments.is_object() {
                        c.arguments.clone()
                    } else {
                        json!({})
                    };
                    b.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}));
                }
                ("assistant", b)
            }
        };
        match out.last_mut() {
            Some((r, existing)) if r == role => existing.extend(blocks),
            _ => out.push((role.to_string(), blocks)),
        }
    }
    out.into_iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect()
}

pub fn parse_reply(body: &Value) -> Result<ModelReply, String> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or("no content array in the response")?;
    let mut text = Vec::new();
    let mut tool_calls = Vec::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push(
                b.get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: b
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or("tool_use without an id")?
                    .to_string(),
                name: b
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("tool_use without a name")?
                    .to_string(),
                arguments: b.get("input").cloned().unwrap_or(json!({})),
            }),
            _ => {} // thinking and other blocks carry nothing the checkers read
        }
    }
    let usage = body.get("usage");
    let tokens = |k: &str| {
        usage
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(ModelReply {
        content: text.join("\n"),
        tool_calls,
        finish_reason: body
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        usage: Usage {
            input_tokens: tokens("input_tokens"),
            output_tokens: tokens("output_tokens"),
            cache_read_tokens: tokens("cache_read_input_tokens"),
            cache_write_tokens: tokens("cache_creation_input_tokens"),
        },
        model_reported: body
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
        system_fingerprint: None,
        attempts: 1,
        request_id: body.get("id").and_then(Value::as_str).map(str::to_string),
    })
}

impl Provider for AnthropicProvider {
    fn decoding_sent(&self, d: &Decoding) -> Value {
        let mut out = Map::new();
        out.insert(
            "max_tokens".into(),
            json!(d.max_tokens.unwrap_or(FALLBACK_MAX_TOKENS)),
        );
        if let (true, Some(t)) = (self.temperature_supported, d.temperature) {
            out.insert("temperature".into(), json!(t));
        }
        Value::Object(out)
    }

    fn complete<'a>(
        &'a self,
        req: ModelRequest<'a>,
    ) -> BoxFuture<'a, Result<ModelReply, ProviderError>> {
        Box::pin(async move {
            let body = self.body(&req);
            super::http::call(
                &self.http,
                &self.url,
                &self.headers(),
                &body,
                req.on_retry,
                parse_reply,
            )
            .await
        })
    }
}
