//! Why a provider call failed, by kind. The text (Display) is what transcripts' `error` and the
//! progress display show; the kind travels with the transcript (`request.provider_error`) so reports
//! match on it instead of searching the text. Every server-sent text here is already redacted.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProviderError {
    /// 401 or 403: the key was refused, and every later request of the model fails at once.
    #[error(
        "authentication failed for model {model} (key from ${key_env}): HTTP {status}: {body}"
    )]
    Authentication {
        model: String,
        key_env: String,
        status: u16,
        body: String,
    },
    /// An answer that waiting cannot clear: an exhausted quota (OpenAI 429 `insufficient_quota`),
    /// no credit (Anthropic 402 `billing_error`, a 400 about the credit balance or a spend
    /// limit). Latched like a refused key: every later request of the model fails at once.
    #[error("model {model} cannot be served: HTTP {status} {code}: {message}; {advice}")]
    AccountStopped {
        model: String,
        status: u16,
        /// The error's code or type as the provider named it.
        code: String,
        message: String,
        advice: String,
    },
    /// The provider's content filter withheld part of the reply (`finish_reason:
    /// "content_filter"`): the trial is inconclusive, and running it again meets the same filter.
    #[error("filtered by the provider (finish_reason {finish_reason} on turn {turn}): content was withheld; the same prompt will be filtered again (the charter's text or the case may trip the filter), so running again will not help")]
    Filtered { finish_reason: String, turn: usize },
    /// A successful answer whose body is not UTF-8: refused, never decoded lossily.
    #[error("the answer to model {model} is not UTF-8 (invalid bytes from byte {at}); refused")]
    NotUtf8 { model: String, at: u64 },
    /// 3xx: redirects are not followed, so the key never goes where a server points.
    #[error(
        "HTTP {status}: the server redirects{}; redirects are not followed, so the key is sent nowhere else (set base_url to the API's own address)",
        .location.as_ref().map_or(String::new(), |l| format!(" to {l}"))
    )]
    Redirect {
        status: u16,
        location: Option<String>,
    },
    /// Another 4xx: the request itself is wrong; sending it again cannot help.
    #[error("HTTP {status}: {body} (not retried)")]
    Rejected { status: u16, body: String },
    /// Every attempt failed in a way worth retrying; the last one's failure.
    #[error("gave up after {attempts} attempts; last: {last}")]
    GaveUp { attempts: u32, last: Transient },
    /// The next retry's wait would pass the request's deadline: the request ends now.
    #[error("gave up after {attempts} attempts: the next retry's wait of {wait_ms} ms would pass request_deadline_secs = {deadline_secs}; last: {last}")]
    RetryDeadline {
        attempts: u32,
        wait_ms: u64,
        deadline_secs: u64,
        last: Transient,
    },
    /// The request waited on rate limits (429, 529, the account's limiter) until its deadline.
    #[error(
        "rate limited: waited {waited_secs}s on the limits of {account} (request_deadline_secs = {deadline_secs}){}",
        .last.as_ref().map_or(String::new(), |l| format!("; last: {l}"))
    )]
    RateLimitDeadline {
        account: String,
        waited_secs: u64,
        deadline_secs: u64,
        last: Option<String>,
    },
    /// One request costs more than the account's token bucket ever holds.
    #[error("a request of about {cost} tokens can never fit the token limit of {account}: the provider allows a burst of {limit} tokens; lower max_tokens or the prompt, or raise the limit")]
    RequestTooLarge {
        account: String,
        limit: u64,
        cost: u64,
    },
    /// The host could not be reached (DNS, refused connection, TLS) before any answer: every
    /// later request of the model fails at once.
    #[error("cannot reach {host} — are you offline? check the network or base_url ({detail})")]
    Unreachable { host: String, detail: String },
    /// A successful status with a body that is not JSON.
    #[error("malformed response body ({error}): {body}")]
    MalformedBody { error: String, body: String },
    /// JSON, but not the API's reply.
    #[error("unexpected response: {error}; body: {body}")]
    UnexpectedReply { error: String, body: String },
    /// The scripted model has no script for a case and variant.
    #[error("scripted model has no script for {unit}")]
    NoScript { unit: String },
    /// The scripted model's script ran out of replies (`turn` counts from 1).
    #[error("scripted model has no reply {turn} for {unit} (script has {replies})")]
    NoScriptedReply {
        unit: String,
        turn: usize,
        replies: usize,
    },
}

/// A failed attempt that is retried: rate limits, server errors, the network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Transient {
    /// 429.
    #[error("HTTP 429: {body}")]
    RateLimited { body: String },
    /// 5xx (Anthropic's 529 "overloaded" included).
    #[error("HTTP {status}: {body}")]
    ServerError { status: u16, body: String },
    #[error("timed out: {detail}")]
    Timeout { detail: String },
    #[error("could not connect: {detail}")]
    Connect { detail: String },
    #[error("connection failed: {detail}")]
    Connection { detail: String },
    #[error("reading the response body failed: {detail}")]
    ReadBody { detail: String },
    /// The answer's body passed the cap (eight times `max_reply_bytes` plus 1 MiB for the
    /// envelope) and was not read further.
    #[error("the answer's body passed its cap of {cap} bytes (8 × max_reply_bytes + 1 MiB for the envelope); not read further")]
    BodyTooLarge { cap: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One error of each kind, with the text it has always read as.
    fn each_kind() -> Vec<(ProviderError, &'static str)> {
        let auth = ProviderError::Authentication {
            model: "oa".into(),
            key_env: "OPENAI_API_KEY".into(),
            status: 401,
            body: "bad key".into(),
        };
        vec![
        (
            auth,
            "authentication failed for model oa (key from $OPENAI_API_KEY): HTTP 401: bad key",
        ),
        (
            ProviderError::Redirect {
                status: 302,
                location: Some("https://elsewhere/".into()),
            },
            "HTTP 302: the server redirects to https://elsewhere/; redirects are not followed, so the key is sent nowhere else (set base_url to the API's own address)",
        ),
        (
            ProviderError::Redirect {
                status: 301,
                location: None,
            },
            "HTTP 301: the server redirects; redirects are not followed, so the key is sent nowhere else (set base_url to the API's own address)",
        ),
        (
            ProviderError::Rejected {
                status: 400,
                body: "no".into(),
            },
            "HTTP 400: no (not retried)",
        ),
        (
            ProviderError::GaveUp {
                attempts: 3,
                last: Transient::RateLimited { body: "slow".into() },
            },
            "gave up after 3 attempts; last: HTTP 429: slow",
        ),
        (
            ProviderError::GaveUp {
                attempts: 2,
                last: Transient::Timeout {
                    detail: "operation timed out".into(),
                },
            },
            "gave up after 2 attempts; last: timed out: operation timed out",
        ),
        (
            ProviderError::NoScriptedReply {
                unit: "E1/default".into(),
                turn: 3,
                replies: 2,
            },
            "scripted model has no reply 3 for E1/default (script has 2)",
        ),
    ]
    }

    #[test]
    fn each_kind_reads_as_it_always_has_and_survives_the_transcript() {
        for (e, text) in each_kind() {
            assert_eq!(e.to_string(), text);
            let stored = serde_json::to_value(&e).unwrap();
            assert_eq!(serde_json::from_value::<ProviderError>(stored).unwrap(), e);
        }
    }
}
