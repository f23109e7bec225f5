//! The OpenAI-compatible Chat Completions provider: OpenAI itself and, through `base_url`,
//! vLLM, llama.cpp's server, Ollama, OpenRouter, LiteLLM and other gateways.

use super::http::HttpCaller;
use super::{lenient, list_or_empty};
use super::{BoxFuture, FinishReason, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::suite::manifest::{Decoding, ModelEntry, ReasoningReplay, TokenLimitField};
use crate::suite::tools::ToolSpec;
use checkers::transcript::{Message, Role, ToolCall};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub struct OpenAiProvider {
    http: HttpCaller,
    url: String,
    model: String,
    temperature_supported: bool,
    token_limit_field: TokenLimitField,
    replay: ReplayRule,
}

/// The reasoning fields an OpenAI-compatible server reads back on an assistant turn: none, or
/// these (every recorded one when `fields` is empty), on every turn or only on turns that
/// called tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayRule {
    pub fields: Option<&'static [&'static str]>,
    pub tool_turns_only: bool,
}

/// The reasoning fields a message may carry, as servers name them.
pub const REASONING_FIELDS: [&str; 3] = ["reasoning_content", "reasoning", "reasoning_details"];

impl ReplayRule {
    const NONE: ReplayRule = ReplayRule {
        fields: None,
        tool_turns_only: false,
    };

    /// The rule for `base_url`'s host under the manifest's `reasoning_replay`. `auto` knows:
    /// DeepSeek (`api.deepseek.com`) and Kimi (`api.moonshot.ai`, `api.moonshot.cn`), which
    /// require `reasoning_content` back on an assistant turn that called tools, and OpenRouter
    /// (`openrouter.ai`), which takes `reasoning_details` back unchanged; any other host gets
    /// nothing extra (many servers reject unknown fields).
    pub fn of(replay: ReasoningReplay, base_url: Option<&str>) -> ReplayRule {
        match replay {
            ReasoningReplay::Never => ReplayRule::NONE,
            ReasoningReplay::Always => ReplayRule {
                fields: Some(&REASONING_FIELDS),
                tool_turns_only: false,
            },
            ReasoningReplay::Auto => {
                let host = base_url
                    .and_then(|u| reqwest::Url::parse(u).ok())
                    .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
                    .unwrap_or_else(|| "api.openai.com".into());
                let on = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
                if on("api.deepseek.com") || on("api.moonshot.ai") || on("api.moonshot.cn") {
                    ReplayRule {
                        fields: Some(&["reasoning_content"]),
                        tool_turns_only: true,
                    }
                } else if on("openrouter.ai") {
                    ReplayRule {
                        fields: Some(&["reasoning_details"]),
                        tool_turns_only: false,
                    }
                } else {
                    ReplayRule::NONE
                }
            }
        }
    }

    /// The fields of `m`'s recorded reasoning that go back with it, as they were sent.
    fn fields_for(&self, m: &Message) -> serde_json::Map<String, Value> {
        let Some(fields) = self.fields else {
            return Default::default();
        };
        if self.tool_turns_only && m.tool_calls.is_empty() {
            return Default::default();
        }
        m.reasoning_blocks
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|o| o.iter())
            .filter(|(k, _)| fields.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

impl OpenAiProvider {
    /// `max_reply_bytes` bounds what an answer's body may hold ([`super::http::body_cap`]).
    pub fn new(
        entry: &ModelEntry,
        key: String,
        max_reply_bytes: u64,
    ) -> crate::error::Result<OpenAiProvider> {
        let base = entry
            .base_url
            .as_deref()
            .unwrap_or(DEFAULT_BASE_URL)
            .trim_end_matches('/');
        Ok(OpenAiProvider {
            http: HttpCaller::new(entry, key, max_reply_bytes)?,
            url: format!("{base}/chat/completions"),
            model: entry.model.clone(),
            temperature_supported: entry.temperature_supported,
            token_limit_field: entry
                .token_limit_field
                .unwrap_or(TokenLimitField::MaxTokens),
            replay: ReplayRule::of(entry.reasoning_replay, entry.base_url.as_deref()),
        })
    }

    /// The request body for one turn.
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        // The control arm runs without a charter: then no system message at all.
        let system = (!req.system.is_empty()).then_some(ChatMessage::System {
            content: req.system,
        });
        let request = ChatRequest {
            model: &self.model,
            messages: system
                .into_iter()
                .chain(
                    req.messages
                        .iter()
                        .map(|m| ChatMessage::of(m, &self.replay)),
                )
                .collect(),
            tools: req.tools.iter().map(ChatTool::of).collect(),
            decoding: self.decoding(req.decoding),
        };
        // Through a Value, whose keys are sorted: the bytes requests have always had.
        serde_json::to_value(request).unwrap_or_default()
    }

    fn decoding(&self, d: &Decoding) -> ChatDecoding {
        let limit = d.max_tokens;
        let (max_tokens, max_completion_tokens) = match self.token_limit_field {
            TokenLimitField::MaxTokens => (limit, None),
            TokenLimitField::MaxCompletionTokens => (None, limit),
        };
        ChatDecoding {
            temperature: d.temperature.filter(|_| self.temperature_supported),
            seed: d.seed,
            max_tokens,
            max_completion_tokens,
        }
    }
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: Vec<ChatMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<ChatTool<'a>>,
    #[serde(flatten)]
    decoding: ChatDecoding,
}

/// The decoding fields sent: only those the model takes.
#[derive(Serialize)]
struct ChatDecoding {
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_completion_tokens: Option<u32>,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum ChatMessage<'a> {
    System {
        content: &'a str,
    },
    User {
        content: &'a str,
    },
    /// `content` is null beside tool calls when the model said nothing; a refusal goes back
    /// as `refusal`, and the reasoning fields the rule names as they came.
    Assistant {
        content: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        refusal: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_calls: Option<Vec<ChatCall<'a>>>,
        #[serde(flatten)]
        reasoning: serde_json::Map<String, Value>,
    },
    Tool {
        tool_call_id: Option<&'a str>,
        content: &'a str,
    },
}

impl<'a> ChatMessage<'a> {
    fn of(m: &'a Message, replay: &ReplayRule) -> ChatMessage<'a> {
        let content = m.content.as_str();
        let refusal = m.refusal.as_ref().map(|r| r.text.as_str());
        match m.role {
            Role::Assistant if !m.tool_calls.is_empty() => ChatMessage::Assistant {
                content: (!content.is_empty()).then_some(content),
                refusal,
                tool_calls: Some(m.tool_calls.iter().map(ChatCall::of).collect()),
                reasoning: replay.fields_for(m),
            },
            Role::Assistant => ChatMessage::Assistant {
                content: (refusal.is_none() || !content.is_empty()).then_some(content),
                refusal,
                tool_calls: None,
                reasoning: replay.fields_for(m),
            },
            Role::Tool => ChatMessage::Tool {
                tool_call_id: m.tool_call_id.as_deref(),
                content,
            },
            Role::System => ChatMessage::System { content },
            Role::User => ChatMessage::User { content },
        }
    }
}

#[derive(Serialize)]
struct ChatCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: ChatFunctionCall<'a>,
}

#[derive(Serialize)]
struct ChatFunctionCall<'a> {
    name: &'a str,
    /// A JSON string, as the API takes it.
    arguments: String,
}

impl<'a> ChatCall<'a> {
    fn of(c: &'a ToolCall) -> ChatCall<'a> {
        // Arguments that did not parse are kept as the model sent them.
        let arguments = match &c.arguments {
            Value::String(raw) => raw.clone(),
            other => other.to_string(),
        };
        ChatCall {
            id: &c.id,
            kind: "function",
            function: ChatFunctionCall {
                name: &c.name,
                arguments,
            },
        }
    }
}

#[derive(Serialize)]
struct ChatTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: ChatFunction<'a>,
}

#[derive(Serialize)]
struct ChatFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Value,
}

impl<'a> ChatTool<'a> {
    fn of(t: &'a ToolSpec) -> ChatTool<'a> {
        ChatTool {
            kind: "function",
            function: ChatFunction {
                name: t.name,
                description: t.description,
                parameters: &t.parameters,
            },
        }
    }
}

/// A Chat Completions response: what the harness reads of it; other fields are ignored, and
/// what the reply says about itself is read leniently.
#[derive(Deserialize)]
struct ChatResponse {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default, deserialize_with = "lenient")]
    usage: ChatUsage,
    #[serde(default, deserialize_with = "lenient")]
    model: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    system_fingerprint: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    id: Option<String>,
}

#[derive(Deserialize)]
struct Choice {
    message: Option<ReplyMessage>,
    #[serde(default, deserialize_with = "lenient")]
    finish_reason: Option<FinishReason>,
}

#[derive(Deserialize)]
struct ReplyMessage {
    /// Text or null; anything else is an error.
    #[serde(default)]
    content: Option<String>,
    #[serde(default, deserialize_with = "list_or_empty")]
    tool_calls: Vec<ReplyCall>,
    /// OpenAI's refusal: the model declined, and says so here instead of in `content`.
    #[serde(default, deserialize_with = "lenient")]
    refusal: Option<String>,
    /// The reasoning some OpenAI-compatible servers return beside the answer (DeepSeek, Kimi,
    /// vLLM: `reasoning_content`; OpenRouter, Ollama: `reasoning`; OpenRouter also
    /// `reasoning_details`, a list of blocks with signatures), kept as sent.
    #[serde(flatten)]
    other: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
struct ReplyCall {
    #[serde(default, deserialize_with = "lenient")]
    id: Option<String>,
    function: Option<ReplyFunction>,
}

#[derive(Deserialize)]
struct ReplyFunction {
    #[serde(default, deserialize_with = "lenient")]
    name: Option<String>,
    /// A JSON string as the API documents it; some compatible servers send the object itself.
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Deserialize, Default)]
struct ChatUsage {
    /// Includes the cached prefix.
    #[serde(default, deserialize_with = "lenient")]
    prompt_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    completion_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    prompt_tokens_details: PromptDetails,
}

#[derive(Deserialize, Default)]
struct PromptDetails {
    #[serde(default, deserialize_with = "lenient")]
    cached_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    cache_write_tokens: u64,
}

impl From<ChatUsage> for Usage {
    fn from(u: ChatUsage) -> Usage {
        // prompt_tokens includes the cached prefix; the uncached rest is billed in full.
        let cached = u.prompt_tokens_details.cached_tokens;
        Usage {
            input_tokens: u.prompt_tokens.saturating_sub(cached),
            output_tokens: u.completion_tokens,
            cache_read_tokens: cached,
            cache_write_tokens: u.prompt_tokens_details.cache_write_tokens,
        }
    }
}

impl ReplyCall {
    /// The call as the conversation keeps it: arguments parsed when they are JSON, else kept
    /// as the model sent them; `call_N` when the server gave no id.
    fn into_call(self, i: usize) -> Result<ToolCall, String> {
        let f = self.function.ok_or("tool_calls[] without function")?;
        let name = f.name.ok_or("tool call without a name")?;
        let arguments = match f.arguments {
            None | Some(Value::Null) => Value::Object(Default::default()),
            Some(Value::String(raw)) => {
                serde_json::from_str::<Value>(&raw).unwrap_or(Value::String(raw))
            }
            // An object (or another JSON value) sent as itself is taken as it is.
            Some(other) => other,
        };
        Ok(ToolCall {
            id: self.id.unwrap_or_else(|| format!("call_{i}")),
            name,
            arguments,
        })
    }
}

/// Parse a Chat Completions response; anything unexpected is an error with an excerpt.
pub fn parse_reply(body: &Value) -> Result<ModelReply, String> {
    let mut r = ChatResponse::deserialize(body).map_err(|e| e.to_string())?;
    if r.choices.is_empty() {
        return Err("no choices[0] in the response".into());
    }
    let choice = r.choices.swap_remove(0);
    let msg = choice
        .message
        .ok_or("no choices[0].message in the response")?;
    let tool_calls = msg
        .tool_calls
        .into_iter()
        .enumerate()
        .map(|(i, c)| c.into_call(i))
        .collect::<Result<_, _>>()?;
    let text = |k: &str| {
        msg.other
            .get(k)
            .and_then(Value::as_str)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
    };
    let reasoning = text("reasoning_content").or_else(|| text("reasoning"));
    let sent: serde_json::Map<String, Value> = msg
        .other
        .into_iter()
        .filter(|(k, v)| REASONING_FIELDS.contains(&k.as_str()) && !v.is_null())
        .collect();
    let refusal = msg
        .refusal
        .filter(|r| !r.is_empty())
        .map(|text| checkers::transcript::Refusal {
            text,
            reason: Some("refusal".into()),
            details: None,
        });
    Ok(ModelReply {
        content: msg.content.unwrap_or_default(),
        tool_calls,
        reasoning,
        reasoning_blocks: match sent.is_empty() {
            true => Vec::new(),
            false => vec![Value::Object(sent)],
        },
        refusal,
        finish_reason: choice.finish_reason,
        usage: r.usage.into(),
        model_reported: r.model,
        system_fingerprint: r.system_fingerprint,
        attempts: 1,
        request_id: r.id,
    })
}

impl Provider for OpenAiProvider {
    fn limiter(&self) -> Option<std::sync::Arc<super::limiter::Limiter>> {
        Some(self.http.limiter().clone())
    }
    fn decoding_sent(&self, d: &Decoding) -> Value {
        serde_json::to_value(self.decoding(d)).unwrap_or_default()
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
