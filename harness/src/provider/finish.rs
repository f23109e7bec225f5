//! Why a model stopped: each vendor's finish and stop values, named, and any other value kept as
//! the server sent it. Transcripts record the value as sent.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum FinishReason {
    /// Chat Completions `stop`: the answer ended (or hit a stop sequence).
    Stop,
    /// Chat Completions `length`: the token limit cut the reply.
    Length,
    /// Chat Completions `tool_calls`.
    ToolCalls,
    /// Chat Completions `content_filter`.
    ContentFilter,
    /// Chat Completions `function_call` (the deprecated single-function form).
    FunctionCall,
    /// Messages `end_turn`: the answer ended.
    EndTurn,
    /// Messages `max_tokens`: the token limit cut the reply.
    MaxTokens,
    /// Messages `stop_sequence`.
    StopSequence,
    /// Messages `tool_use`.
    ToolUse,
    /// Messages `pause_turn`: a long server-side turn paused.
    PauseTurn,
    /// Messages `refusal`.
    Refusal,
    /// Messages `model_context_window_exceeded`.
    ContextWindowExceeded,
    /// A value neither API documents (a gateway's own), as sent.
    Other(String),
}

impl FinishReason {
    /// The value as the API spelled it.
    pub fn as_str(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::ContentFilter => "content_filter",
            FinishReason::FunctionCall => "function_call",
            FinishReason::EndTurn => "end_turn",
            FinishReason::MaxTokens => "max_tokens",
            FinishReason::StopSequence => "stop_sequence",
            FinishReason::ToolUse => "tool_use",
            FinishReason::PauseTurn => "pause_turn",
            FinishReason::Refusal => "refusal",
            FinishReason::ContextWindowExceeded => "model_context_window_exceeded",
            FinishReason::Other(s) => s,
        }
    }

    /// The token limit cut the reply short (the transcript's `truncated`).
    pub fn truncated(&self) -> bool {
        matches!(self, FinishReason::Length | FinishReason::MaxTokens)
    }
}

/// Values are read the same whichever API sent them: gateways in front of one vendor's models
/// sometimes answer with the other's words.
impl From<String> for FinishReason {
    fn from(s: String) -> Self {
        match s.as_str() {
            "stop" => FinishReason::Stop,
            "length" => FinishReason::Length,
            "tool_calls" => FinishReason::ToolCalls,
            "content_filter" => FinishReason::ContentFilter,
            "function_call" => FinishReason::FunctionCall,
            "end_turn" => FinishReason::EndTurn,
            "max_tokens" => FinishReason::MaxTokens,
            "stop_sequence" => FinishReason::StopSequence,
            "tool_use" => FinishReason::ToolUse,
            "pause_turn" => FinishReason::PauseTurn,
            "refusal" => FinishReason::Refusal,
            "model_context_window_exceeded" => FinishReason::ContextWindowExceeded,
            _ => FinishReason::Other(s),
        }
    }
}

impl From<FinishReason> for String {
    fn from(f: FinishReason) -> Self {
        match f {
            FinishReason::Other(s) => s,
            known => known.as_str().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FinishReason;

    #[test]
    fn every_value_reads_back_as_it_was_sent_and_only_the_limits_count_as_truncation() {
        let sent = [
            "stop",
            "length",
            "tool_calls",
            "content_filter",
            "function_call",
            "end_turn",
            "max_tokens",
            "stop_sequence",
            "tool_use",
            "pause_turn",
            "refusal",
            "model_context_window_exceeded",
            "eos",
        ];
        for s in sent {
            let f = FinishReason::from(s.to_string());
            assert_eq!(f.as_str(), s);
            assert_eq!(matches!(f, FinishReason::Other(_)), s == "eos", "{s}");
            assert_eq!(f.truncated(), s == "length" || s == "max_tokens", "{s}");
            assert_eq!(serde_json::to_value(&f).unwrap(), serde_json::json!(s));
        }
    }
}
