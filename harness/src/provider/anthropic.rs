//! The Anthropic Messages provider: `system` top-level, strict user/assistant alternation
//! (consecutive same-role turns merged), `tool_use` / `tool_result` blocks, `max_tokens` always.

use super::http::HttpCaller;
use super::lenient;
use super::{BoxFuture, FinishReason, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::suite::manifest::{AuthStyle, Decoding, ModelEntry, ANTHROPIC_DEFAULT_VERSION};
use crate::suite::tools::ToolSpec;
use checkers::transcript::{Message, Role, ToolCall};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

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
    /// Thinking blocks go back (the API requires them in a tool-use conversation) unless the
    /// manifest says `reasoning_replay = "never"`.
    replay_thinking: bool,
}

impl AnthropicProvider {
    /// `max_reply_bytes` bounds what an answer's body may hold ([`super::http::body_cap`]).
    pub fn new(
        entry: &ModelEntry,
        key: String,
        max_reply_bytes: u64,
    ) -> crate::error::Result<AnthropicProvider> {
        let base = entry
            .base_url
            .as_deref()
            .unwrap_or(DEFAULT_BASE_URL)
            .trim_end_matches('/');
        Ok(AnthropicProvider {
            http: HttpCaller::new(entry, key, max_reply_bytes)?,
            url: format!("{base}/v1/messages"),
            model: entry.model.clone(),
            version: entry
                .api_version
                .clone()
                .unwrap_or_else(|| ANTHROPIC_DEFAULT_VERSION.to_string()),
            auth: entry.auth.unwrap_or(AuthStyle::XApiKey),
            temperature_supported: entry.temperature_supported,
            prompt_cache: entry.prompt_cache,
            replay_thinking: entry.reasoning_replay
                != crate::suite::manifest::ReasoningReplay::Never,
        })
    }

    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        // Prompt caching: the charter (the same in every request of the run), the tool
        // definitions, and the latest turn of a long episode, so the next turn reads the whole
        // conversation so far from the cache. Three breakpoints; the API allows four.
        let cache = self.prompt_cache.then_some(CacheControl::EPHEMERAL);
        let system = (!req.system.is_empty()).then(|| match cache {
            Some(_) => System::Blocks([Block::text(req.system).cached(cache)]),
            None => System::Text(req.system),
        });
        let mut messages = wire_messages(req.messages, self.replay_thinking);
        if messages.len() >= LONG_EPISODE_TURNS {
            if let Some(WireBlock::Built(block)) =
                messages.last_mut().and_then(|m| m.content.last_mut())
            {
                block.cache_control = cache;
            }
        }
        let mut tools: Vec<Tool<'_>> = req.tools.iter().map(Tool::of).collect();
        if let Some(last) = tools.last_mut() {
            last.cache_control = cache;
        }
        let request = MessagesRequest {
            model: &self.model,
            system,
            messages,
            tools,
            decoding: self.decoding(req.decoding),
        };
        // Through a Value, whose keys are sorted: the bytes requests have always had.
        serde_json::to_value(request).unwrap_or_default()
    }

    fn decoding(&self, d: &Decoding) -> MessagesDecoding {
        MessagesDecoding {
            max_tokens: d.max_tokens.unwrap_or(FALLBACK_MAX_TOKENS),
            temperature: d.temperature.filter(|_| self.temperature_supported),
        }
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        let auth = match self.auth {
            AuthStyle::XApiKey => ("x-api-key", self.http.key().to_string()),
            AuthStyle::Bearer => ("authorization", format!("Bearer {}", self.http.key())),
        };
        vec![auth, ("anthropic-version", self.version.clone())]
    }
}

/// From this many Messages API turns on, the latest one carries a cache breakpoint (E5, E8 and
/// E12 seed 26–96 messages; a short episode gains nothing from it).
const LONG_EPISODE_TURNS: usize = 8;

#[derive(Serialize)]
struct MessagesRequest<'a> {
    model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<System<'a>>,
    messages: Vec<Turn<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(flatten)]
    decoding: MessagesDecoding,
}

/// `max_tokens` always (the API requires it); `temperature` only where the model takes it.
#[derive(Serialize)]
struct MessagesDecoding {
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
}

/// The system prompt: plain text, or one text block when it carries a cache breakpoint.
#[derive(Serialize)]
#[serde(untagged)]
enum System<'a> {
    Text(&'a str),
    Blocks([Block<'a>; 1]),
}

#[derive(Clone, Copy, Serialize)]
struct CacheControl {
    #[serde(rename = "type")]
    kind: &'static str,
}

impl CacheControl {
    const EPHEMERAL: CacheControl = CacheControl { kind: "ephemeral" };
}

#[derive(Serialize)]
struct Turn<'a> {
    role: &'static str,
    content: Vec<WireBlock<'a>>,
}

/// A block as sent: one the harness builds, or one the API gave that goes back unchanged
/// (`thinking` and `redacted_thinking`, signatures included).
#[derive(Serialize)]
#[serde(untagged)]
enum WireBlock<'a> {
    Built(Block<'a>),
    AsSent(&'a Value),
}

#[derive(Serialize)]
struct Block<'a> {
    #[serde(flatten)]
    kind: BlockKind<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockKind<'a> {
    Text {
        text: &'a str,
    },
    ToolUse {
        id: &'a str,
        name: &'a str,
        input: Cow<'a, Value>,
    },
    ToolResult {
        tool_use_id: Option<&'a str>,
        content: &'a str,
        is_error: bool,
    },
}

impl<'a> Block<'a> {
    fn text(text: &'a str) -> Block<'a> {
        BlockKind::Text { text }.into()
    }

    fn cached(mut self, cache: Option<CacheControl>) -> Block<'a> {
        self.cache_control = cache;
        self
    }
}

impl<'a> From<BlockKind<'a>> for Block<'a> {
    fn from(kind: BlockKind<'a>) -> Block<'a> {
        Block {
            kind,
            cache_control: None,
        }
    }
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

impl<'a> Tool<'a> {
    fn of(t: &'a ToolSpec) -> Tool<'a> {
        Tool {
            name: t.name,
            description: t.description,
            input_schema: &t.parameters,
            cache_control: None,
        }
    }
}

/// Whether a message's blocks as sent are its whole turn (a `pause_turn`'s: text and
/// server-tool blocks besides thinking), which goes back alone, exactly as it came.
fn whole_turn(m: &Message) -> bool {
    m.reasoning_blocks.iter().any(|b| {
        !matches!(
            b.get("type").and_then(Value::as_str),
            Some("thinking" | "redacted_thinking")
        )
    })
}

/// One conversation message as Messages API blocks, with the role it goes under. An assistant
/// turn starts with its thinking blocks as the API sent them (unless `thinking` is off): in a
/// tool-use conversation the API refuses a turn whose previous assistant turn lacks them. A
/// paused turn goes back whole, every block as sent.
fn blocks(m: &Message, thinking: bool) -> (&'static str, Vec<WireBlock<'_>>) {
    match m.role {
        Role::Tool => {
            let result = BlockKind::ToolResult {
                tool_use_id: m.tool_call_id.as_deref(),
                content: &m.content,
                is_error: m.content.starts_with("error:"),
            };
            ("user", vec![WireBlock::Built(result.into())])
        }
        Role::User | Role::System => ("user", vec![WireBlock::Built(Block::text(&m.content))]),
        Role::Assistant if whole_turn(m) => (
            "assistant",
            m.reasoning_blocks.iter().map(WireBlock::AsSent).collect(),
        ),
        Role::Assistant => {
            let text = (!m.content.is_empty()).then(|| Block::text(&m.content));
            let calls = m.tool_calls.iter().map(|c| {
                let input = if c.arguments.is_object() {
                    Cow::Borrowed(&c.arguments)
                } else {
                    Cow::Owned(Value::Object(Default::default()))
                };
                let (id, name) = (c.id.as_str(), c.name.as_str());
                Block::from(BlockKind::ToolUse { id, name, input })
            });
            let thinking = m
                .reasoning_blocks
                .iter()
                .filter(|_| thinking)
                .map(WireBlock::AsSent);
            let rest = text.into_iter().chain(calls).map(WireBlock::Built);
            ("assistant", thinking.chain(rest).collect())
        }
    }
}

/// Conversation turns as Messages API turns: tool results become `tool_result` blocks of a user
/// turn, and consecutive turns of one role are merged so roles alternate.
fn wire_messages(messages: &[Message], thinking: bool) -> Vec<Turn<'_>> {
    let mut out: Vec<Turn<'_>> = Vec::new();
    for m in messages {
        let (role, content) = blocks(m, thinking);
        match out.last_mut() {
            Some(turn) if turn.role == role => turn.content.extend(content),
            _ => out.push(Turn { role, content }),
        }
    }
    out.retain(|t| !t.content.is_empty());
    out
}

/// A Messages response: what the harness reads of it; other fields and block types are
/// ignored, and what the reply says about itself is read leniently.
#[derive(Deserialize)]
struct MessagesResponse {
    #[serde(default, deserialize_with = "lenient")]
    content: Option<Vec<Value>>,
    #[serde(default, deserialize_with = "lenient")]
    stop_reason: Option<FinishReason>,
    /// Beside `stop_reason: "refusal"`: the refusal's category and explanation, as sent.
    #[serde(default)]
    stop_details: Option<Value>,
    #[serde(default, deserialize_with = "lenient")]
    usage: MessagesUsage,
    #[serde(default, deserialize_with = "lenient")]
    model: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    id: Option<String>,
}

/// A content block; one of no type this reads (a malformed one) carries nothing the checkers
/// read. Thinking blocks are kept whole besides ([`ThinkingTag`]).
#[derive(Deserialize)]
#[serde(untagged)]
enum AnyBlock {
    Known(ReplyBlock),
    Unknown(serde::de::IgnoredAny),
}

/// What tells a thinking block: its type, and the text of a `thinking` one.
#[derive(Deserialize, Default)]
struct ThinkingTag {
    #[serde(default, rename = "type", deserialize_with = "lenient")]
    kind: String,
    #[serde(default, deserialize_with = "lenient")]
    thinking: Option<String>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ReplyBlock {
    Text {
        #[serde(default, deserialize_with = "lenient")]
        text: String,
    },
    ToolUse {
        #[serde(default, deserialize_with = "lenient")]
        id: Option<String>,
        #[serde(default, deserialize_with = "lenient")]
        name: Option<String>,
        #[serde(default = "empty_input")]
        input: Value,
    },
    #[serde(other)]
    Other,
}

fn empty_input() -> Value {
    Value::Object(Default::default())
}

#[derive(Deserialize, Default)]
struct MessagesUsage {
    /// Uncached input only.
    #[serde(default, deserialize_with = "lenient")]
    input_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    output_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    cache_read_input_tokens: u64,
    #[serde(default, deserialize_with = "lenient")]
    cache_creation_input_tokens: u64,
}

impl From<MessagesUsage> for Usage {
    fn from(u: MessagesUsage) -> Usage {
        Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            cache_read_tokens: u.cache_read_input_tokens,
            cache_write_tokens: u.cache_creation_input_tokens,
        }
    }
}

pub fn parse_reply(body: &Value) -> Result<ModelReply, String> {
    let r = MessagesResponse::deserialize(body).map_err(|e| e.to_string())?;
    let blocks = r.content.ok_or("no content array in the response")?;
    // A paused turn goes back whole on the next request: every block, as sent.
    let whole = (r.stop_reason == Some(FinishReason::PauseTurn)).then(|| blocks.clone());
    let mut text = Vec::new();
    let mut tool_calls = Vec::new();
    let (mut reasoning, mut reasoning_blocks) = (Vec::new(), Vec::new());
    for b in blocks {
        let tag = ThinkingTag::deserialize(&b).unwrap_or_default();
        if matches!(tag.kind.as_str(), "thinking" | "redacted_thinking") {
            reasoning.extend(tag.thinking);
            reasoning_blocks.push(b);
            continue;
        }
        match AnyBlock::deserialize(&b).map_err(|e| e.to_string())? {
            AnyBlock::Known(ReplyBlock::Text { text: t }) => text.push(t),
            AnyBlock::Known(ReplyBlock::ToolUse { id, name, input }) => tool_calls.push(ToolCall {
                id: id.ok_or("tool_use without an id")?,
                name: name.ok_or("tool_use without a name")?,
                arguments: input,
            }),
            AnyBlock::Known(ReplyBlock::Other) | AnyBlock::Unknown(_) => {}
        }
    }
    let content = text.join("\n");
    let refusal =
        (r.stop_reason == Some(FinishReason::Refusal)).then(|| checkers::transcript::Refusal {
            text: content.clone(),
            reason: Some("refusal".into()),
            details: r.stop_details.filter(|d| !d.is_null()),
        });
    Ok(ModelReply {
        content,
        tool_calls,
        reasoning: (!reasoning.is_empty()).then(|| reasoning.join("\n")),
        reasoning_blocks: whole.unwrap_or(reasoning_blocks),
        refusal,
        finish_reason: r.stop_reason,
        usage: r.usage.into(),
        model_reported: r.model,
        system_fingerprint: None,
        attempts: 1,
        request_id: r.id,
    })
}

impl Provider for AnthropicProvider {
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
