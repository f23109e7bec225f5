//! Error answers that waiting cannot clear, told by the error's code and type in the body: an
//! exhausted quota (OpenAI's 429 `insufficient_quota`), no credit (Anthropic's 402
//! `billing_error`, and its 400s about the credit balance or a spend limit). A rate limit's
//! 429 is none of these: it keeps waiting.

use serde_json::Value;

/// Why an account cannot be served: the provider's code, its message, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    pub code: String,
    pub message: String,
    pub advice: &'static str,
}

const QUOTA: &str = "the account's quota is used up: add credit or raise the quota in the provider's billing settings, then re-run (waiting will not clear it)";
const BILLING: &str = "the account has no credit: add credit in the provider's billing settings, then re-run (waiting will not clear it)";
const SPEND_LIMIT: &str = "the account reached its spend limit: raise the limit in the provider's console, or re-run after the date it names";

/// The most of a provider's error message kept (a body may hold megabytes).
const MESSAGE_CHARS: usize = 500;

/// The error object of either API's error body: OpenAI `{"error": {"message", "type",
/// "code"}}`, Anthropic `{"type": "error", "error": {"type", "message"}}`.
fn error_fields(body: &str) -> Option<(String, String, String)> {
    let v: Value = serde_json::from_str(body).ok()?;
    let e = v.get("error")?;
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Some((text("code"), text("type"), text("message")))
}

/// The stop an error answer of `status` with `body` means, if waiting cannot clear it.
pub fn classify(status: u16, body: &str) -> Option<Stop> {
    let (code, kind, message) = error_fields(body).unwrap_or_default();
    // The provider's message is a stranger's text, printed in every trial's error: bounded.
    let message = match message.char_indices().nth(MESSAGE_CHARS) {
        Some((i, _)) => format!("{}…", &message[..i]),
        None => message,
    };
    let named = |name: &str| code == name || kind == name;
    let stop = |code: &str, advice| {
        Some(Stop {
            code: code.to_string(),
            message: message.clone(),
            advice,
        })
    };
    let lower = message.to_ascii_lowercase();
    match status {
        429 if named("insufficient_quota") => stop("insufficient_quota", QUOTA),
        402 => stop(
            if kind.is_empty() {
                "billing_error"
            } else {
                &kind
            },
            BILLING,
        ),
        _ if named("billing_error") => stop("billing_error", BILLING),
        400 if lower.contains("credit balance") => stop(&kind, BILLING),
        400 if lower.contains("usage limit") || lower.contains("spend limit") => {
            stop(&kind, SPEND_LIMIT)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_providers_message_of_a_megabyte_is_kept_to_its_first_500_characters() {
        let body = format!(
            r#"{{"error":{{"type":"insufficient_quota","message":"{}"}}}}"#,
            "x".repeat(1 << 20)
        );
        let stop = classify(429, &body).unwrap();
        assert_eq!(stop.message.chars().count(), 501);
        assert!(stop.message.ends_with('…'));
    }

    #[test]
    fn a_used_up_quota_and_no_credit_stop_while_a_rate_limit_waits() {
        let quota = r#"{"error": {"message": "You exceeded your current quota, please check your plan and billing details.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}"#;
        assert_eq!(classify(429, quota).unwrap().code, "insufficient_quota");
        let limit = r#"{"error": {"message": "Rate limit reached for requests", "type": "requests", "param": null, "code": "rate_limit_exceeded"}}"#;
        assert_eq!(classify(429, limit), None);
        let billing = r#"{"type": "error", "error": {"type": "billing_error", "message": "Your account has an outstanding balance."}}"#;
        assert_eq!(classify(402, billing).unwrap().advice, BILLING);
        let credit = r#"{"type": "error", "error": {"type": "invalid_request_error", "message": "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}"#;
        assert_eq!(classify(400, credit).unwrap().advice, BILLING);
        let spend = r#"{"type": "error", "error": {"type": "invalid_request_error", "message": "You have reached your specified API usage limits. You will regain access on 2027-01-01 at 00:00 UTC."}}"#;
        assert_eq!(classify(400, spend).unwrap().advice, SPEND_LIMIT);
        let bad = r#"{"type": "error", "error": {"type": "invalid_request_error", "message": "messages: field required"}}"#;
        assert_eq!(classify(400, bad), None);
        assert_eq!(classify(429, "not json"), None);
    }
}
