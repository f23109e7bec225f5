//! One trial as people read it: the seeded turns, the tool calls paired with their results (by
//! the pairing the checkers judge with), the final reply and its reasoning apart, the criteria
//! and the workspace diff. Built once from a transcript and its verdict; the story, report.html and
//! `compare --html` render it.

use checkers::extract::tools::{self, Call};
use checkers::transcript::{FileChange, Message, Transcript};
use checkers::{Criterion, Verdict};
use std::borrow::Cow;

pub struct TrialView<'a> {
    pub transcript: &'a Transcript,
    pub verdict: &'a Verdict,
    /// The system prompt and the scripted turns the episode starts from.
    pub seeded: &'a [Message],
    /// The episode's tool calls in order, each with its result (a later tool message with its
    /// id), if any.
    pub calls: Vec<Call<'a>>,
    /// The last assistant text outside its reasoning blocks; empty when there is none.
    pub reply: Cow<'a, str>,
    /// That message's reasoning, shown folded beside the reply and never inside it; empty
    /// when there is none ([`split_reasoning`]).
    pub reasoning: String,
    /// The provider's refusal on the model's last turn, described ([`Refusal::describe`]).
    ///
    /// [`Refusal::describe`]: checkers::transcript::Refusal::describe
    pub refusal: Option<String>,
}

impl<'a> TrialView<'a> {
    pub fn new(transcript: &'a Transcript, verdict: &'a Verdict) -> TrialView<'a> {
        let seeded = transcript.seeded.min(transcript.messages.len());
        let last = transcript.replies().filter(|m| m.has_reply()).last();
        let (reply, reasoning) = last.map_or((Cow::Borrowed(""), String::new()), split_reasoning);
        TrialView {
            transcript,
            verdict,
            seeded: &transcript.messages[..seeded],
            calls: tools::calls(transcript),
            reply,
            reasoning,
            refusal: transcript
                .replies()
                .filter_map(|m| m.refusal.as_ref())
                .last()
                .map(|r| r.describe()),
        }
    }

    pub fn failed(&self) -> impl Iterator<Item = &'a Criterion> {
        self.verdict.criteria.iter().filter(|c| !c.pass)
    }

    pub fn passed(&self) -> impl Iterator<Item = &'a Criterion> {
        self.verdict.criteria.iter().filter(|c| c.pass)
    }

    /// The files the trial changed, when the variant has a workspace.
    pub fn changes(&self) -> Option<&'a [FileChange]> {
        self.transcript.workspace.as_ref().map(|w| &w.changed[..])
    }
}

/// An assistant message's reply and its reasoning, apart: the content outside its `<think>`,
/// `<thinking>` and `<reasoning>` blocks (as the checkers read it), and the reasoning: the
/// provider's separate text (`Message.reasoning`), then each block of the content with its
/// tags, a blank line between. Content without a block is the reply as it is.
pub fn split_reasoning(m: &Message) -> (Cow<'_, str>, String) {
    let raw = m.reply();
    let mut parts: Vec<&str> = m.reasoning.iter().map(|r| r.trim()).collect();
    let visible = checkers::extract::structured::visible(raw);
    let mut at = 0;
    for r in visible
        .iter()
        .cloned()
        .chain(std::iter::once(raw.len()..raw.len()))
    {
        if r.start > at {
            parts.push(raw[at..r.start].trim());
        }
        at = r.end;
    }
    parts.retain(|p| !p.is_empty());
    let reply = match checkers::extract::structured::reply_text(raw) {
        Cow::Owned(text) => Cow::Owned(text.trim().to_string()),
        borrowed => borrowed,
    };
    (reply, parts.join("\n\n"))
}

/// A changed file as a unified diff with `radius` lines of context; with `header`, the
/// `--- a/path` / `+++ b/path` lines (`/dev/null` for a side that does not exist).
pub fn diff(change: &FileChange, radius: usize, header: bool) -> String {
    let before = change.before.as_deref().unwrap_or("");
    let after = change.after.as_deref().unwrap_or("");
    let text = similar::TextDiff::from_lines(before, after);
    let mut unified = text.unified_diff();
    unified.context_radius(radius);
    if header {
        let side = |present: bool, prefix: &str| match present {
            true => format!("{prefix}/{}", change.path),
            false => "/dev/null".to_string(),
        };
        let (a, b) = (
            side(change.before.is_some(), "a"),
            side(change.after.is_some(), "b"),
        );
        return unified.header(&a, &b).to_string();
    }
    unified.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_pairs_with_the_tool_result_after_it_never_one_before_or_unanswered() {
        let call = |id: &str| serde_json::json!({"id": id, "name": "read_file", "arguments": {"path": "a.txt"}});
        let t: Transcript = serde_json::from_value(serde_json::json!({
            "case": "E6", "variant": "default", "seeded": 1,
            "messages": [
                {"role": "system", "content": "rules"},
                {"role": "tool", "content": "stale result", "tool_call_id": "c1"},
                {"role": "assistant", "content": null, "tool_calls": [call("c1"), call("c2")]},
                {"role": "tool", "content": "the result", "tool_call_id": "c1"},
                {"role": "assistant", "content": "done"}
            ]
        }))
        .unwrap();
        let v: Verdict = serde_json::from_value(serde_json::json!({
            "case": "E6", "variant": "default", "checker_source_sha256": "", "checker_version": "1",
            "pass": false,
            "criteria": [{"name": "ran", "pass": true, "detail": "ok"}, {"name": "tagged", "pass": false, "detail": "no"}]
        }))
        .unwrap();
        let view = TrialView::new(&t, &v);
        assert_eq!(view.seeded.len(), 1);
        let results: Vec<Option<&str>> = view.calls.iter().map(|c| c.result).collect();
        assert_eq!(results, [Some("the result"), None]);
        assert_eq!(view.reply, "done");
        assert_eq!(view.reasoning, "");
        assert_eq!(
            view.failed().map(|c| &*c.name).collect::<Vec<_>>(),
            ["tagged"]
        );
        assert_eq!(view.passed().map(|c| &*c.name).collect::<Vec<_>>(), ["ran"]);
        assert!(view.changes().is_none());
    }

    #[test]
    fn a_diff_names_a_created_file_against_dev_null() {
        let created = FileChange {
            path: "new.txt".into(),
            before: None,
            after: Some("x\n".into()),
        };
        let d = diff(&created, 3, true);
        assert!(d.starts_with("--- /dev/null\n+++ b/new.txt\n"), "{d}");
        assert!(d.contains("+x"), "{d}");
        assert!(!diff(&created, 2, false).contains("/dev/null"));
    }

    #[test]
    fn reasoning_in_a_field_or_a_leading_block_is_set_apart_from_the_reply_never_in_it() {
        let mut m = Message::new(
            checkers::Role::Assistant,
            "<think>\nthe user says 20%\n</think>\n\nThe increase is 25%.",
        );
        m.reasoning = Some("base is 80k".into());
        let (reply, reasoning) = split_reasoning(&m);
        assert_eq!(reply, "The increase is 25%.");
        assert_eq!(
            reasoning,
            "base is 80k\n\n<think>\nthe user says 20%\n</think>"
        );
        // An unclosed block hides the rest of the reply, as the checkers read it.
        let m = Message::new(checkers::Role::Assistant, "Hi. <reasoning>never closed");
        assert_eq!(
            split_reasoning(&m),
            (Cow::Borrowed("Hi."), "<reasoning>never closed".to_string())
        );
        // Without reasoning, the reply is the content as it is, borrowed.
        let m = Message::new(checkers::Role::Assistant, "  25%, not 20%.\n");
        let (reply, reasoning) = split_reasoning(&m);
        assert!(matches!(reply, Cow::Borrowed("  25%, not 20%.\n")) && reasoning.is_empty());
    }
}
