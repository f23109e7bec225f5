//! What the rate-limited stand-in puts on the wire: each API's rate-limit headers, 429 and
//! overloaded bodies, completion bodies, and the Go-duration and RFC 3339 formats the headers
//! use.

use super::{Api, Kind, Refusal, Standing};
use crate::Reply;
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Numbers the completions' ids, so no two answers share one.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A duration the way Go prints one, as OpenAI's reset headers and messages do (`0s`, `250ms`,
/// `1s`, `1m30.5s`, `6m0s`, `1h0m0s`), rounded up to the millisecond so a client waiting that
/// long is never early.
pub fn go_duration(d: Duration) -> String {
    let ms = d.as_nanos().div_ceil(1_000_000) as u64;
    if ms == 0 {
        return "0s".into();
    }
    if ms < 1_000 {
        return format!("{ms}ms");
    }
    let (h, m, s, frac) = (
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1_000 % 60,
        ms % 1_000,
    );
    let secs = if frac == 0 {
        format!("{s}s")
    } else {
        format!("{s}.{}s", format!("{frac:03}").trim_end_matches('0'))
    };
    match (h, m) {
        (0, 0) => secs,
        (0, m) => format!("{m}m{secs}"),
        (h, m) => format!("{h}h{m}m{secs}"),
    }
}

/// An RFC 3339 UTC timestamp to the second (`2026-12-01T15:30:12Z`), as Anthropic's reset
/// headers give; rounded up to the next whole second so the bucket is full by then.
pub fn rfc3339(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_nanos().div_ceil(1_000_000_000) as i64;
    jiff::Timestamp::from_second(secs)
        .unwrap_or(jiff::Timestamp::MAX)
        .to_string()
}

/// The API's rate-limit headers for buckets standing so.
pub(crate) fn limit_headers(api: Api, s: &Standing) -> Vec<(String, String)> {
    let mut h = Vec::new();
    let mut put = |k: String, v: String| h.push((k, v));
    match api {
        Api::OpenAi => {
            for (kind, l) in [("requests", s.requests), ("tokens", s.tokens)] {
                put(format!("x-ratelimit-limit-{kind}"), l.limit.to_string());
                put(
                    format!("x-ratelimit-remaining-{kind}"),
                    l.remaining.to_string(),
                );
                put(format!("x-ratelimit-reset-{kind}"), go_duration(l.reset));
            }
        }
        Api::Anthropic => {
            // One token bucket stands for Anthropic's three (tokens, input, output): the
            // input and output families repeat it.
            let now = SystemTime::now();
            let families = [
                ("requests", s.requests),
                ("tokens", s.tokens),
                ("input-tokens", s.tokens),
                ("output-tokens", s.tokens),
            ];
            for (kind, l) in families {
                put(
                    format!("anthropic-ratelimit-{kind}-limit"),
                    l.limit.to_string(),
                );
                put(
                    format!("anthropic-ratelimit-{kind}-remaining"),
                    l.remaining.to_string(),
                );
                put(
                    format!("anthropic-ratelimit-{kind}-reset"),
                    rfc3339(now + l.reset),
                );
            }
        }
    }
    h
}

pub(crate) fn with_headers(reply: Reply, headers: Vec<(String, String)>) -> Reply {
    headers
        .into_iter()
        .fold(reply, |r, (k, v)| r.with_header(&k, &v))
}

/// A 429 for a refused request, with the rate-limit headers and `retry-after` (and OpenAI's
/// `retry-after-ms`) when `headed`; a request that can never be admitted gets no retry hint.
pub(crate) fn refused(
    api: Api,
    model: &str,
    standing: &Standing,
    why: &Refusal,
    headed: bool,
) -> Reply {
    let body = match api {
        Api::OpenAi => json!({"error": {
            "message": openai_message(model, why),
            "type": match why.kind { Kind::Requests => "requests", Kind::Tokens => "tokens" },
            "param": null,
            "code": "rate_limit_exceeded",
        }}),
        Api::Anthropic => json!({"type": "error", "error": {
            "type": "rate_limit_error",
            "message": anthropic_message(why),
        }}),
    };
    let reply = Reply::json(429, body);
    if !headed {
        return reply;
    }
    let mut headers = limit_headers(api, standing);
    if let Some(wait) = why.wait {
        // Whole seconds rounded up, at least one, so a client honouring it is never early.
        let secs = wait.as_nanos().div_ceil(1_000_000_000).max(1);
        headers.push(("retry-after".into(), secs.to_string()));
        if api == Api::OpenAi {
            let ms = wait.as_nanos().div_ceil(1_000_000).max(1);
            headers.push(("retry-after-ms".into(), ms.to_string()));
        }
    }
    with_headers(reply, headers)
}

fn openai_message(model: &str, why: &Refusal) -> String {
    let per = match why.kind {
        Kind::Requests => "requests per min (RPM)",
        Kind::Tokens => "tokens per min (TPM)",
    };
    let org = "in organization org-loopback";
    match why.wait {
        Some(wait) => format!(
            "Rate limit reached for {model} {org} on {per}: Limit {}, Used {}, Requested {}. \
             Please try again in {}.",
            why.limit,
            why.used,
            why.requested,
            go_duration(wait)
        ),
        None => format!(
            "Request too large for {model} {org} on {per}: Limit {}, Requested {}. \
             The input or output tokens must be reduced in order to run successfully.",
            why.limit, why.requested
        ),
    }
}

fn anthropic_message(why: &Refusal) -> String {
    let per = match why.kind {
        Kind::Requests => "requests",
        Kind::Tokens => "tokens",
    };
    let head = format!(
        "This request would exceed the rate limit for your organization (loopback) of {} {per} \
         per minute",
        why.limit
    );
    match why.wait {
        Some(wait) => format!("{head}. Please try again in {}.", go_duration(wait)),
        None => format!(
            "{head}: it asks for {}, more than the limit, and will never be admitted.",
            why.requested
        ),
    }
}

/// Why the Messages API would refuse this request with thinking on: its last assistant turn,
/// answered by tool results, does not start with a thinking block whose signature matches its
/// text (the turn's blocks not sent back, or changed). None when it would take it.
pub(crate) fn missing_thinking(body: &serde_json::Value) -> Option<String> {
    let messages = body["messages"].as_array()?;
    let i = messages.iter().rposition(|m| m["role"] == "assistant")?;
    let answered_by_tools = messages[i + 1..].iter().any(|m| {
        m["content"]
            .as_array()
            .is_some_and(|c| c.iter().any(|b| b["type"] == "tool_result"))
    });
    if !answered_by_tools {
        return None;
    }
    let first = &messages[i]["content"][0];
    let text = first["thinking"].as_str().unwrap_or_default();
    if first["type"] == "thinking" && first["signature"] == signature(text).as_str() {
        return None;
    }
    Some(format!(
        "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{}`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns.",
        first["type"].as_str().unwrap_or("none")
    ))
}

/// "Overloaded": Anthropic's 529 `overloaded_error`; OpenAI's 503.
pub(crate) fn overloaded(api: Api) -> Reply {
    match api {
        Api::Anthropic => Reply::json(
            529,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
        Api::OpenAi => Reply::json(
            503,
            json!({"error": {
                "message": "The server is overloaded or not ready yet.",
                "type": "server_error", "param": null, "code": null,
            }}),
        ),
    }
}

/// The thinking text of answer number `n` in thinking mode.
fn thought(n: u64) -> String {
    format!("Thinking {n}: look around before answering.")
}

/// The signature of a thinking block's text: what the stand-in checks comes back unchanged.
pub(crate) fn signature(thinking: &str) -> String {
    // FNV-1a, 64 bits.
    let h = thinking.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("sig-{h:016x}")
}

/// A finished completion of `text`: usage reports `prompt` tokens in and the text's bytes / 4
/// (rounded up) out.
pub(crate) fn completion(api: Api, model: &str, text: &str, prompt: u64, thinking: bool) -> Reply {
    let out = (text.len() as u64).div_ceil(4);
    answer(api, model, prompt, out, thinking, |_| Answer {
        openai: json!({"role": "assistant", "content": text}),
        openai_finish: "stop",
        anthropic: json!([{"type": "text", "text": text}]),
        anthropic_stop: "end_turn",
    })
}

/// An admitted request answered with one call of tool `name` with `args`, as each API writes
/// one (OpenAI: `tool_calls` with the arguments as a JSON string; Anthropic: a `tool_use`
/// block).
pub(crate) fn tool_call(
    api: Api,
    model: &str,
    name: &str,
    args: &serde_json::Value,
    prompt: u64,
    thinking: bool,
) -> Reply {
    answer(api, model, prompt, 20, thinking, |n| Answer {
        openai: json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": format!("call_loopback{n}"),
            "type": "function",
            "function": {"name": name, "arguments": args.to_string()},
        }]}),
        openai_finish: "tool_calls",
        anthropic: json!([{"type": "tool_use", "id": format!("toolu_loopback{n}"), "name": name, "input": args}]),
        anthropic_stop: "tool_use",
    })
}

/// What an answer says, in each API's words.
struct Answer {
    openai: serde_json::Value,
    openai_finish: &'static str,
    anthropic: serde_json::Value,
    anthropic_stop: &'static str,
}

/// A 200 in `api`'s envelope (a fresh id, the model, usage of `prompt` in and `out` out)
/// around what `say` builds from the answer's number; `thinking`: with reasoning first (an
/// Anthropic `thinking` block with its signature, OpenAI-compatible `reasoning_content`).
fn answer(
    api: Api,
    model: &str,
    prompt: u64,
    out: u64,
    thinking: bool,
    say: impl FnOnce(u64) -> Answer,
) -> Reply {
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut a = say(n);
    if thinking {
        let t = thought(n);
        a.openai["reasoning_content"] = json!(t);
        let block = json!({"type": "thinking", "thinking": t, "signature": signature(&t)});
        if let Some(blocks) = a.anthropic.as_array_mut() {
            blocks.insert(0, block);
        }
    }
    let body = match api {
        Api::OpenAi => json!({
            "id": format!("chatcmpl-loopback{n}"),
            "object": "chat.completion",
            "created": SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs(),
            "model": model,
            "choices": [{"index": 0, "message": a.openai, "finish_reason": a.openai_finish}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out},
        }),
        Api::Anthropic => json!({
            "id": format!("msg_loopback{n}"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": a.anthropic,
            "stop_reason": a.anthropic_stop,
            "stop_sequence": null,
            "usage": {"input_tokens": prompt, "output_tokens": out},
        }),
    };
    Reply::json(200, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_as_go_prints_them() {
        let ms = Duration::from_millis;
        assert_eq!(go_duration(Duration::ZERO), "0s");
        assert_eq!(go_duration(Duration::from_micros(1)), "1ms");
        assert_eq!(go_duration(ms(250)), "250ms");
        assert_eq!(go_duration(ms(1_000)), "1s");
        assert_eq!(go_duration(ms(17_142)), "17.142s");
        assert_eq!(go_duration(ms(90_500)), "1m30.5s");
        assert_eq!(go_duration(ms(360_000)), "6m0s");
        assert_eq!(go_duration(ms(3_600_000)), "1h0m0s");
        assert_eq!(go_duration(ms(3_723_040)), "1h2m3.04s");
    }

    #[test]
    fn timestamps_are_rfc3339_utc_rounded_up_to_the_second() {
        let at = |s: u64, nanos: u32| UNIX_EPOCH + Duration::new(s, nanos);
        assert_eq!(rfc3339(at(0, 0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(at(951_782_400, 0)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(at(1_796_139_011, 1)), "2026-12-01T15:30:12Z");
        assert_eq!(rfc3339(at(4_102_444_799, 0)), "2099-12-31T23:59:59Z");
    }
}

#[cfg(test)]
mod thinking_tests {
    use super::*;

    fn turn_with(first: serde_json::Value) -> serde_json::Value {
        json!({"messages": [
            {"role": "user", "content": [{"type": "text", "text": "go"}]},
            {"role": "assistant", "content": [first, {"type": "tool_use", "id": "t1", "name": "list_files", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.rs"}]},
        ]})
    }

    #[test]
    fn with_thinking_on_a_tool_use_turn_without_its_thinking_block_unchanged_is_refused() {
        let t = thought(7);
        let kept = json!({"type": "thinking", "thinking": t, "signature": signature(&t)});
        assert_eq!(missing_thinking(&turn_with(kept)), None);
        let omitted = json!({"type": "text", "text": "looking"});
        let why = missing_thinking(&turn_with(omitted)).unwrap();
        assert!(why.contains("messages.1.content.0.type"), "{why}");
        let changed = json!({"type": "thinking", "thinking": "edited", "signature": signature(&t)});
        assert!(missing_thinking(&turn_with(changed)).is_some());
        // A first turn, or one not answered by a tool result, needs none.
        let first = json!({"messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(missing_thinking(&first), None);
    }
}
