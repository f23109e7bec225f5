//! Model providers: one request in, one reply (text and tool calls) out. A provider failure is
//! an error the episode records as an inconclusive trial, never a pass or a fail.

pub mod anthropic;
mod error;
mod finish;
pub mod http;
pub mod limiter;
pub mod openai;
pub mod prices;
pub mod proxy;
mod resolve;
pub mod scripted;
mod stops;

pub use error::{ProviderError, Transient};
pub use finish::FinishReason;

use crate::suite::manifest::{Decoding, ModelEntry, ProviderKind};
use crate::suite::tools::ToolSpec;
use checkers::transcript::{Message, ToolCall};
use serde::Deserialize;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What one model turn is asked with.
pub struct ModelRequest<'a> {
    pub case: &'a str,
    pub variant: &'a str,
    /// The model's turn number within the episode, from 0.
    pub turn: usize,
    pub system: &'a str,
    /// The conversation after the system prompt.
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    pub decoding: &'a Decoding,
    /// Told about every retry before it waits, so a rate-limited run never looks stuck.
    pub on_retry: &'a (dyn Fn(http::RetryNotice) + Send + Sync),
}

/// Tokens used: one request's, a trial's or a model's (the one shape in memory; the transcript
/// and run.json spell it their own way on disk).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// Input tokens at the full price (for OpenAI: the prompt less its cached part).
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Input tokens read from the API's prompt cache.
    pub cache_read_tokens: u64,
    /// Input tokens written to the prompt cache (Anthropic's cache_creation_input_tokens).
    pub cache_write_tokens: u64,
}

impl From<Usage> for checkers::transcript::RequestUsage {
    fn from(u: Usage) -> Self {
        checkers::transcript::RequestUsage {
            cache_read_tokens: u.cache_read_tokens,
            cache_write_tokens: u.cache_write_tokens,
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
        }
    }
}

/// A trial's token totals as its transcript records them.
impl From<Usage> for checkers::transcript::TrialUsage {
    fn from(u: Usage) -> Self {
        checkers::transcript::TrialUsage {
            cache_read_input_tokens: u.cache_read_tokens,
            cache_write_input_tokens: u.cache_write_tokens,
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
        }
    }
}

/// A trial's token totals read back from its transcript.
impl From<checkers::transcript::TrialUsage> for Usage {
    fn from(u: checkers::transcript::TrialUsage) -> Self {
        Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            cache_read_tokens: u.cache_read_input_tokens,
            cache_write_tokens: u.cache_write_input_tokens,
        }
    }
}

impl Usage {
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_read_tokens += other.cache_read_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
    }
}

impl<'a> std::iter::Sum<&'a Usage> for Usage {
    fn sum<I: Iterator<Item = &'a Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), |mut all, u| {
            all.add(u);
            all
        })
    }
}

#[derive(Debug, Clone, Default)]
pub struct ModelReply {
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    /// The provider's separate reasoning text (OpenAI-compatible `reasoning_content` or
    /// `reasoning`, Anthropic `thinking` blocks' text), apart from `content`.
    pub reasoning: Option<String>,
    /// Reasoning as the API sent it, to send back unchanged where the provider requires it:
    /// Anthropic `thinking` and `redacted_thinking` blocks (signatures included), or the whole
    /// turn's blocks of a `pause_turn`; for an OpenAI-compatible server one object holding the
    /// message's `reasoning_content`, `reasoning` and `reasoning_details` fields as sent.
    pub reasoning_blocks: Vec<serde_json::Value>,
    /// The provider said the model refused (OpenAI `message.refusal`, Anthropic
    /// `stop_reason: "refusal"` with its `stop_details`).
    pub refusal: Option<checkers::transcript::Refusal>,
    pub finish_reason: Option<FinishReason>,
    pub usage: Usage,
    /// The model id the API says answered.
    pub model_reported: Option<String>,
    pub system_fingerprint: Option<String>,
    /// HTTP attempts this reply took (1 without retries).
    pub attempts: u32,
    pub request_id: Option<String>,
}

impl ModelReply {
    /// This reply as the transcript records its request (`turn` counts from 1).
    pub fn record(&self, turn: usize) -> checkers::transcript::RequestRecord {
        checkers::transcript::RequestRecord {
            turn,
            request_id: self.request_id.clone(),
            attempts: self.attempts,
            finish_reason: self.finish_reason.as_ref().map(|f| f.as_str().to_string()),
            model: self.model_reported.clone(),
            system_fingerprint: self.system_fingerprint.clone(),
            usage: Some(self.usage.clone().into()),
        }
    }
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub trait Provider: Send + Sync {
    fn complete<'a>(
        &'a self,
        req: ModelRequest<'a>,
    ) -> BoxFuture<'a, Result<ModelReply, ProviderError>>;

    /// The decoding fields this provider actually puts in a request, as sent.
    fn decoding_sent(&self, d: &Decoding) -> serde_json::Value {
        serde_json::to_value(d).unwrap_or_default()
    }

    /// Whether the provider can answer this unit at all (a scripted model needs a script);
    /// checked before the run starts.
    fn covers(&self, _case: &str, _variant: &str) -> bool {
        true
    }

    /// The rate limiter of the account this provider calls (none for a scripted model).
    fn limiter(&self) -> Option<Arc<limiter::Limiter>> {
        None
    }
}

/// Build the provider for a model entry. Scripts and keys are read here, so a missing one
/// stops the run before any model is called. `max_reply_bytes` (`[run]`) bounds the bodies
/// read from an API.
pub fn build(
    model: &ModelEntry,
    suite: &crate::suite::Suite,
    max_reply_bytes: u64,
) -> crate::error::Result<Arc<dyn Provider>> {
    let key = || -> crate::error::Result<String> {
        let var = model.api_key_env.as_deref().unwrap_or_default();
        let key = std::env::var(var).map_err(|_| {
            crate::error::Error::input(format!("model {}: ${var} is not set", model.name()))
        })?;
        crate::output::secrets::register(&key);
        Ok(key)
    };
    match model.provider {
        ProviderKind::Scripted => Ok(Arc::new(scripted::ScriptedProvider::load(model, suite)?)),
        ProviderKind::Openai => Ok(Arc::new(openai::OpenAiProvider::new(
            model,
            key()?,
            max_reply_bytes,
        )?)),
        ProviderKind::Anthropic => Ok(Arc::new(anthropic::AnthropicProvider::new(
            model,
            key()?,
            max_reply_bytes,
        )?)),
    }
}

/// A reply's field read as the API documents it, or as absent (its default) when a server sends
/// another shape: what a reply says about itself (ids, token counts) never fails a trial.
fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned + Default,
{
    let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
    Ok(T::deserialize(v).unwrap_or_default())
}

/// A list that may be missing or not a list (read as empty); its items are read strictly.
fn list_or_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        v @ serde_json::Value::Array(_) => Vec::<T>::deserialize(v).map_err(D::Error::custom),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod wire_tests;
