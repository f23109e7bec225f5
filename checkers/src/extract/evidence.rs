//! The evidence model (issue 31): every tool call the model made, with its outcome — succeeded,
//! refused, error or empty — what it read, wrote, matched or ran, and the workspace after each
//! command. Criteria ask it ("a successful read of X before Y"), never the raw call list:
//! whatever a criterion credits to a call rests on a call that succeeded.
//!
//! A result's outcome is its recorded `status` (the harness writes `ok`, `error`, `refused`);
//! absent that, it is read from the text the way the harness has always written failures
//! (`error: …`, `refused: …`, [`crate::Message::tool_status`]). A call with no result, or with
//! an empty one, shows nothing: Invariant 5, "no visible output → the action did not happen".
//!
//! Files are read from the workspace record (`workspace.changed`, `after_commands`) as well as
//! from the calls, so a file a `run_tests` script changed is seen.

use super::paths::{is_state_changing, listed_paths, normalize_path};
use crate::transcript::{Role, ToolCall, ToolStatus, Transcript};
use std::collections::BTreeSet;

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Refused,
    Error,
    /// No result, or an empty one: nothing visible.
    Empty,
}

/// One tool call of the model's with its result and outcome.
#[derive(Debug, Clone, Copy)]
pub struct Act<'a> {
    /// Index of the assistant message that made the call.
    pub pos: usize,
    /// Index of the tool message that answered it, if any.
    pub result_pos: Option<usize>,
    pub call: &'a ToolCall,
    pub result: Option<&'a str>,
    pub outcome: Outcome,
}

impl<'a> Act<'a> {
    pub fn name(&self) -> &str {
        &self.call.name
    }
    /// The `path` argument normalised.
    pub fn path(&self) -> String {
        normalize_path(self.call.arg("path"))
    }
    pub fn ok(&self) -> bool {
        self.outcome == Outcome::Succeeded
    }
    /// The call asks to change state (whether or not it was allowed to).
    pub fn changes_state(&self) -> bool {
        is_state_changing(&self.call.name)
    }
    /// A successful read of `path`.
    pub fn reads(&self, path: &str) -> bool {
        self.ok() && self.name() == "read_file" && self.path() == normalize_path(path)
    }
    /// A successful write or edit of `path`.
    pub fn writes(&self, path: &str) -> bool {
        self.ok()
            && matches!(self.name(), "write_file" | "edit_file")
            && self.path() == normalize_path(path)
    }
    /// A successful search: the paths its result lists.
    pub fn matched(&self) -> Option<BTreeSet<String>> {
        (self.ok() && self.name() == "search").then(|| listed_paths(self.result.unwrap_or("")))
    }
    /// The visible output of a successful call.
    pub fn output(&self) -> Option<&'a str> {
        self.ok().then_some(self.result.unwrap_or(""))
    }
    /// `name(key argument) → outcome` for evidence lines.
    pub fn describe(&self) -> String {
        let how = match self.outcome {
            Outcome::Succeeded => "",
            Outcome::Refused => " (refused)",
            Outcome::Error => " (error)",
            Outcome::Empty => " (no output)",
        };
        format!("{}{how}", super::paths::call_name(self.call))
    }
}

/// The episode's calls with their outcomes, and the workspace record.
pub struct Evidence<'a> {
    pub acts: Vec<Act<'a>>,
    t: &'a Transcript,
}

fn outcome(result: Option<(usize, &crate::transcript::Message)>) -> Outcome {
    let Some((_, m)) = result else {
        return Outcome::Empty;
    };
    match m.tool_status() {
        ToolStatus::Refused => Outcome::Refused,
        ToolStatus::Error => Outcome::Error,
        ToolStatus::Ok if m.content.trim().is_empty() => Outcome::Empty,
        ToolStatus::Ok => Outcome::Succeeded,
    }
}

/// The positions of the tool messages answering each call id, in order: a call finds its
/// result by looking it up, so a transcript of thousands of calls is paired in one pass (a
/// scan of the later messages per call took minutes for 100,000 calls).
fn results_by_id(t: &Transcript) -> std::collections::HashMap<&str, Vec<usize>> {
    let mut by_id: std::collections::HashMap<&str, Vec<usize>> = Default::default();
    for (i, m) in t.messages.iter().enumerate() {
        crate::work::add(1);
        if let (Role::Tool, Some(id)) = (m.role, m.tool_call_id.as_deref()) {
            by_id.entry(id).or_default().push(i);
        }
    }
    by_id
}

impl<'a> Evidence<'a> {
    pub fn of(t: &'a Transcript) -> Self {
        let mut acts = Vec::new();
        let results = results_by_id(t);
        for (pos, m) in t.messages.iter().enumerate().skip(t.seeded) {
            if m.role != Role::Assistant {
                continue;
            }
            for call in &m.tool_calls {
                crate::work::add(1);
                // The first tool message after the call that answers its id.
                let found = results.get(call.id.as_str()).and_then(|at| {
                    let i = *at.get(at.partition_point(|&i| i <= pos))?;
                    Some((i, &t.messages[i]))
                });
                acts.push(Act {
                    pos,
                    result_pos: found.map(|(i, _)| i),
                    call,
                    result: found.map(|(_, r)| r.content.as_str()),
                    outcome: outcome(found),
                });
            }
        }
        Evidence { acts, t }
    }

    /// Calls that succeeded, in order.
    pub fn succeeded(&self) -> impl Iterator<Item = &Act<'a>> {
        self.acts.iter().filter(|a| a.ok())
    }

    /// A successful read of `path` made before message `before`.
    pub fn read_before(&self, path: &str, before: usize) -> Option<&Act<'a>> {
        self.acts.iter().find(|a| a.pos < before && a.reads(path))
    }

    /// The first call named `name` on `path` that did not succeed: what a criterion names when
    /// it found no successful one.
    pub fn failed_attempt(&self, name: &str, path: &str) -> Option<&Act<'a>> {
        self.acts
            .iter()
            .find(|a| a.name() == name && a.path() == normalize_path(path) && !a.ok())
    }

    /// A successful call named `name` made before message `before`.
    pub fn ran_before(&self, name: &str, before: usize) -> Option<&Act<'a>> {
        self.acts
            .iter()
            .find(|a| a.pos < before && a.ok() && a.name() == name)
    }

    /// The last successful call named `name` made before message `before`: the latest
    /// evidence, which a later run that contradicts an earlier one overrides.
    pub fn last_ran_before(&self, name: &str, before: usize) -> Option<&Act<'a>> {
        self.acts
            .iter()
            .rfind(|a| a.pos < before && a.ok() && a.name() == name)
    }

    /// The first call that asks to change state, with its index among the calls.
    pub fn first_state_change(&self) -> Option<(usize, &Act<'a>)> {
        self.acts
            .iter()
            .enumerate()
            .find(|(_, a)| a.changes_state())
    }

    /// The last call that changed state: a state-changing call that succeeded.
    pub fn last_effective_change(&self) -> Option<(usize, &Act<'a>)> {
        self.acts
            .iter()
            .enumerate()
            .rfind(|(_, a)| a.changes_state() && a.ok())
    }

    /// Paths the workspace record says changed: the end-of-trial diff and every command's
    /// effect. Empty when the transcript records no workspace.
    pub fn workspace_changed(&self) -> BTreeSet<String> {
        let Some(w) = self.t.workspace.as_ref() else {
            return BTreeSet::new();
        };
        w.changed
            .iter()
            .map(|c| normalize_path(&c.path))
            .chain(
                w.after_commands
                    .iter()
                    .flat_map(|e| e.changed.iter().map(|p| normalize_path(&p.path))),
            )
            .collect()
    }

    /// Every path a successful state-changing call wrote, and every path the workspace record
    /// says changed.
    pub fn changed_paths(&self) -> BTreeSet<String> {
        let mut out = self.workspace_changed();
        out.extend(
            self.succeeded()
                .filter(|a| a.changes_state() && !a.path().is_empty())
                .map(|a| a.path()),
        );
        out
    }

    /// What the workspace record says a command call changed (matched by the index of the
    /// tool result it answered), if it recorded one.
    pub fn after_command(&self, act: &Act) -> Option<&'a crate::transcript::CommandEffect> {
        let at = act.result_pos?;
        self.t
            .workspace
            .as_ref()?
            .after_commands
            .iter()
            .find(|e| e.message == at)
    }

    /// Whether any call of the kinds named succeeded before message `before`.
    pub fn any_succeeded(&self, names: &[&str], before: usize) -> bool {
        self.acts
            .iter()
            .any(|a| a.pos < before && a.ok() && names.contains(&a.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Message, ToolCall};

    fn transcript(result: &str, status: Option<ToolStatus>) -> Transcript {
        let call = ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: serde_json::json!({"path": "./CHARTER_STATE.md"}),
        };
        let msgs = vec![
            Message::new(Role::System, "s"),
            Message::new(Role::User, "u"),
            Message {
                tool_calls: vec![call],
                ..Message::new(Role::Assistant, "")
            },
            Message {
                tool_call_id: Some("c1".into()),
                status,
                ..Message::new(Role::Tool, result)
            },
        ];
        Transcript::new("E8", "A", "m", 2, msgs)
    }

    #[test]
    fn a_command_is_paired_with_the_workspace_after_it() {
        let mut t = transcript("5 passed", Some(ToolStatus::Ok));
        t.workspace = Some(crate::transcript::Workspace {
            changed: Vec::new(),
            after_commands: vec![crate::transcript::CommandEffect {
                message: 3,
                command: "run_tests".into(),
                changed: vec![crate::transcript::PathDigest {
                    path: "./openapi.yaml".into(),
                    sha256: None,
                }],
            }],
        });
        let ev = Evidence::of(&t);
        assert_eq!(
            ev.after_command(&ev.acts[0]).map(|e| e.command.as_str()),
            Some("run_tests")
        );
        assert!(ev.workspace_changed().contains("openapi.yaml"));
    }

    #[test]
    fn only_a_call_that_succeeded_is_credited() {
        let t = transcript("# state", None);
        assert!(Evidence::of(&t)
            .read_before("CHARTER_STATE.md", 9)
            .is_some());
        for (text, status) in [
            ("error: no such file", None),
            ("# state", Some(ToolStatus::Error)),
            ("refused: outside the workspace", None),
            ("  ", None),
        ] {
            let t = transcript(text, status);
            assert!(
                Evidence::of(&t)
                    .read_before("CHARTER_STATE.md", 9)
                    .is_none(),
                "{text}"
            );
        }
    }
}
