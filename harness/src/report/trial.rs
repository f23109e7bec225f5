//! One trial as people read it: the seeded turns, the tool calls paired with their results (by
//! the pairing the checkers judge with), the final reply, the criteria and the workspace
//! diff. Built once from a transcript and its verdict; the story, report.html and
//! `compare --html` render it.

use checkers::extract::tools::{self, Call};
use checkers::transcript::{FileChange, Message, Transcript};
use checkers::{Criterion, Verdict};

pub struct TrialView<'a> {
    pub transcript: &'a Transcript,
    pub verdict: &'a Verdict,
    /// The system prompt and the scripted turns the episode starts from.
    pub seeded: &'a [Message],
    /// The episode's tool calls in order, each with its result (a later tool message with its
    /// id), if any.
    pub calls: Vec<Call<'a>>,
    /// The last non-empty assistant text; empty when there is none.
    pub reply: &'a str,
}

impl<'a> TrialView<'a> {
    pub fn new(transcript: &'a Transcript, verdict: &'a Verdict) -> TrialView<'a> {
        let seeded = transcript.seeded.min(transcript.messages.len());
        TrialView {
            transcript,
            verdict,
            seeded: &transcript.messages[..seeded],
            calls: tools::calls(transcript),
            reply: transcript.final_reply(),
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
}
