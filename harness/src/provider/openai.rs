//! The OpenAI-compatible Chat Completions provider: OpenAI itself and, through `base_url`,
//! vLLM, llama.cpp's server, Ollama, OpenRouter, LiteLLM and other gateways.

use super::http::HttpCaller;
use super::{BoxFuture, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::manifest::{Decoding, ModelEntry, TokenLimitField};
use checkers::transcript::{Message, Role, ToolCall};
use serde_json::{json, Map, Value};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub struct OpenAiProvider {
    http: HttpCaller,
    url: String,
    model: String,
    temperature_supported: bool,
    token_limit_field: TokenLimitField,
}

impl OpenAiProvider {
    pub fn new(entry: &ModelEntry, key: String) -> crate::error::Result<OpenAiProvider> {
        let base = entry
            .base_url
            .as_deref()
            .unwrap_or(DEFAULT_BASE_URL)
            .trim_end_matches('/');
        Ok(OpenAiProvider {
            http: HttpCaller::new(entry, key)?,
            url: format!("{base}/chat/completions"),
            model: entry.model.clone(),
            temperature_supported: entry.temperature_supported,
            token_limit_field: entry
                .token_limit_field
                .unwrap_or(TokenLimitField::MaxTokens),
        })
    }

    /// The request body for one turn.
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        // The control arm runs without a charter: then no system message at all.
        let mut messages = if req.system.is_empty() {
            Vec::new()
        } else {
            vec![json!({"role": "system", "content": req.system})]
        };
        messages.extend(req.messages.iter().map(wire_message));
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert("messages".into(), Value::Array(messages));
        if !req.tools.is_empty() {
            let tools: Vec<Value> = req
                .tools
                .iter()
                .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
                .collect();
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Value::Object(d) = self.decoding_sent(req.decoding) {
            body.extend(d);
        }
        Value::Object(body)
    }
}

fn wire_message(m: &Message) -> Value {
    match m.role {
        Role::Assistant if !m.tool_calls.is_empty() => {
            let calls: Vec<Value> = m
                .tool_calls
                .iter()
                .map(|c| {
                    // Arguments that did not parse are kept as the model sent them.
                    let args = match &c.arguments {
                        Value::String(raw) => raw.clone(),
                        other => other.to_string(),
                    };
                    json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": args}})
                })
                .collect();
            let content = if m.content.is_empty() {
                Value::Null
            } else {
                json!(m.content)
            };
            json!({"role": "assistant", "content": content, "tool_calls": calls})
        }
        Role::Tool => json!({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content}),
        Role::System => json!({"role": "system", "content": m.content}),
        Role::User => json!({"role": "user", "content": m.content}),
        Role::Assistant => json!({"role": "assistant", "content": m.content}),
    }
}

/// Parse a Chat Completions response; anything unexpected is an error with an excerpt.
pub fn parse_reply(body: &Value) -> Result<ModelReply, String> {
    let choice = body
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or("no choices[0] in the response")?;
    let msg = choice
        .get("message")
        .ok_or("no choices[0].message in the response")?;
    let content = match msg.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => return Err(format!("message.content is neither text nor null: {other}")),
    };
    let mut tool_calls = Vec::new();
    for (i, c) in msg
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let f = c.get("function").ok_or("tool_calls[] without function")?;
        let name = f
            .get("name")
            .and_then(Value::as_str)
            .ok_or("tool call without a name")?;
        let raw = f.get("arguments").and_then(Value::as_str).unwrap_or("{}");
        let arguments =
            serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
        let id = c
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("call_{i}"), str::to_string);
        tool_calls.push(ToolCall {
            id,
            name: name.to_string(),
            arguments,
        });
    }
    let usage = body.get("usage");
    let tokens = |k: &str| {
        usage
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(ModelReply {
        content,
        tool_calls,
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        usage: {
            // prompt_tokens includes the cached prefix; the uncached rest is billed in full.
            let details = |k: &str| {
                usage
                    .and_then(|u| u.get("prompt_tokens_details"))
                    .and_then(|d| d.get(k))
                    .and_then(Value::as_u64)
                    .unwrap_or(0)
            };
            let cached = details("cached_tokens");
            Usage {
                input_tokens: tokens("prompt_tokens").saturating_sub(cached),
                output_tokens: tokens("completion_tokens"),
                cache_read_tokens: cached,
                cache_write_tokens: details("cache_write_tokens"),
            }
        },
        model_reported: body
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
        system_fingerprint: body
            .get("system_fingerprint")
            .and_then(Value::as_str)
            .map(str::to_string),
        attempts: 1,
        request_id: body.get("id").and_then(Value::as_str).map(str::to_string),
    })
}

impl Provider for OpenAiProvider {
    fn decoding_sent(&self, d: &Decoding) -> Value {
        let mut out = Map::new();
        if let (true, Some(t)) = (self.temperature_supported, d.temperature) {
            out.insert("temperature".into(), json!(t));
        }
        if let Some(seed) = d.seed {
            out.insert("seed".into(), json!(seed));
        }
        if let Some(n) = d.max_tokens {
            let field = match self.token_limit_field {
                TokenLimitField::MaxTokens => "max_tokens",
                TokenLimitField::MaxCompletionTokens => "max_completion_tokens",
            };
            out.insert(field.into(), json!(n));
        }
        Value::Object(out)
    }

    fn complete<'a>(
        &'a self,
        req: ModelRequest<'a>,
    ) -> BoxFuture<'a, Result<ModelReply, ProviderError>> {
        Box::pin(async move {
            let body = self.body(&req);
            let headers = [("authorization", format!("Bearer {}", self.http.key()))];
            super::http::call(
                &self.http,
                &self.url,
                &headers,
                &body,
                req.on_retry,
                parse_reply,
            )
            .await
        })
    }
}
