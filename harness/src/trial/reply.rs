//! A model's reply as the conversation keeps it: the masked copy every written record holds,
//! the live copy resent to the provider, and the bound on the reasoning it carries.

use checkers::transcript::{Message, Role, ToolCall};

/// Bytes a message adds to the transcript (its text, its calls' arguments and its reasoning).
pub fn message_bytes(m: &Message) -> u64 {
    let args: usize = m
        .tool_calls
        .iter()
        .map(|c| c.arguments.to_string().len())
        .sum();
    let reasoning = m.reasoning.as_ref().map_or(0, String::len);
    let blocks: usize = m.reasoning_blocks.iter().map(|b| b.to_string().len()).sum();
    (m.content.len() + args + reasoning + blocks) as u64
}

/// A reply's reasoning held to `room`, the bytes of `max_transcript_bytes` (`max`) the
/// transcript has left after its text and calls: a model controls how much it thinks, and the
/// reasoning is written with the transcript. The text is cut (with a line saying so) and the
/// signed blocks dropped (a cut block no longer matches its signature; the trial ends anyway).
/// What was cut comes back, for `caps_hit`.
pub fn bound_reasoning(m: &mut Message, room: u64, max: u64) -> Option<String> {
    let total = message_bytes(m);
    if total <= room {
        return None;
    }
    let (reasoning, blocks) = (m.reasoning.take(), std::mem::take(&mut m.reasoning_blocks));
    let rest = message_bytes(m);
    if rest == total {
        // No reasoning: the text and calls alone pass the bound, which stops the trial.
        return None;
    }
    let (cut, _) = crate::trial::tools::cap_text(
        reasoning.unwrap_or_default(),
        room.saturating_sub(rest),
        "reasoning",
    );
    m.reasoning = Some(cut);
    Some(format!(
        "reasoning cut: {} bytes of reasoning ({} signed blocks dropped) would pass max_transcript_bytes ({max})",
        total - rest,
        blocks.len()
    ))
}

/// A reply as the conversation keeps it. What a model says is untrusted: keys masked, size
/// capped (`true` when cut), tool paths normalised once, before tools, checkers or files see
/// any of it.
pub fn assistant_message(reply: crate::provider::ModelReply, max_bytes: u64) -> (Message, bool) {
    shaped(reply, max_bytes, true)
}

/// The reply as it goes back to the provider on the next turn: shaped as the conversation keeps
/// it (size capped, tool paths normalised), but with nothing masked, so the model's own text,
/// arguments and signed thinking blocks return as the provider sent them (it already holds the
/// key: it is the request's credential). Never written: every written copy is
/// [`assistant_message`]'s.
pub fn live_message(reply: crate::provider::ModelReply, max_bytes: u64) -> Message {
    shaped(reply, max_bytes, false).0
}

/// The calls' arguments shaped for the conversation (keys masked with `mask`, paths
/// normalised), held inside the same cap as the text, the calls first (they are what the reply
/// does): a call past it keeps its name and loses its arguments (it then fails as unparsable,
/// and the cut is named). The bytes left for the text, and whether a call was cut.
fn shape_calls(tool_calls: &mut [ToolCall], max_bytes: u64, mask: bool) -> (u64, bool) {
    for c in tool_calls.iter_mut() {
        if mask {
            crate::output::secrets::redact_json(&mut c.arguments);
        }
        if let Some(serde_json::Value::String(p)) = c.arguments.get_mut("path") {
            *p = checkers::extract::paths::normalize_path(p);
        }
    }
    let mut left = max_bytes;
    let mut cut = false;
    for c in tool_calls.iter_mut() {
        let size = c.arguments.to_string().len() as u64;
        if size > left {
            c.arguments = serde_json::Value::String(format!(
                "[arguments cut: {size} bytes would pass max_reply_bytes ({max_bytes})]"
            ));
            cut = true;
        }
        left = left.saturating_sub(c.arguments.to_string().len() as u64);
    }
    (left, cut)
}

/// The reply shaped for the conversation; `mask` masks every key first (before any cut, so a
/// cut never halves one).
fn shaped(reply: crate::provider::ModelReply, max_bytes: u64, mask: bool) -> (Message, bool) {
    let redact = |t: &str| match mask {
        true => crate::output::secrets::redact(t),
        false => t.to_string(),
    };
    let redact_json = |v: &mut serde_json::Value| {
        if mask {
            crate::output::secrets::redact_json(v)
        }
    };
    let mut tool_calls = reply.tool_calls;
    let (left, cut) = shape_calls(&mut tool_calls, max_bytes, mask);
    let (content, text_cut) = crate::trial::tools::cap_text(redact(&reply.content), left, "reply");
    let cut = cut || text_cut;
    // Reasoning is as untrusted as the reply: keys masked in what is written (the live copy
    // keeps a thinking block whole, so its signature still matches). Its bytes count against
    // max_transcript_bytes with the rest.
    let reasoning = reply.reasoning.map(|r| redact(&r));
    let mut reasoning_blocks = reply.reasoning_blocks;
    reasoning_blocks.iter_mut().for_each(redact_json);
    let refusal = reply.refusal.map(|mut r| {
        r.text = redact(&r.text);
        if let Some(d) = r.details.as_mut() {
            redact_json(d);
        }
        r
    });
    let message = Message {
        role: Role::Assistant,
        content,
        tool_calls,
        tool_call_id: None,
        name: None,
        reasoning,
        reasoning_blocks,
        status: None,
        refusal,
    };
    (message, cut)
}
