//! Tool calls for people and the harness (calls with their results, the final reply's
//! position) and the deliverables a model wrote. Criteria ask the evidence model
//! ([`super::evidence`]), which knows whether a call succeeded.

use crate::extract::evidence::Evidence;
use crate::extract::reply::Reply;
use crate::transcript::{Role, ToolCall, Transcript};

use super::paths::{is_state_changing, normalize_path};

/// One tool call of the episode with its result, if the transcript holds one.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// Index of the assistant message that made the call.
    pub pos: usize,
    pub call: &'a ToolCall,
    pub result: Option<&'a str>,
}

impl Call<'_> {
    pub fn name(&self) -> &str {
        &self.call.name
    }
    /// The `path` argument as written.
    pub fn raw_path(&self) -> &str {
        self.call.arg("path")
    }
    /// The `path` argument normalised: `./a`, `a//b` and `a/./b` all name `a/b`.
    pub fn path(&self) -> String {
        normalize_path(self.call.arg("path"))
    }
    pub fn changes_state(&self) -> bool {
        is_state_changing(&self.call.name)
    }
    /// `name(key argument)` for evidence lines.
    pub fn describe(&self) -> String {
        super::paths::call_name(self.call)
    }
}

/// The episode's tool calls in order, each paired with its result by id (the evidence model's
/// acts, without their outcomes: for the harness's reports and deliverables).
pub fn calls(t: &Transcript) -> Vec<Call<'_>> {
    Evidence::of(t)
        .acts
        .into_iter()
        .map(|a| Call {
            pos: a.pos,
            call: a.call,
            result: a.result,
        })
        .collect()
}

/// Index of the message holding the final reply (the last assistant text).
pub fn final_reply_pos(t: &Transcript) -> Option<usize> {
    t.messages
        .iter()
        .enumerate()
        .skip(t.seeded)
        .filter(|(_, m)| m.role == Role::Assistant && m.has_reply())
        .map(|(i, _)| i)
        .next_back()
}

/// Text the model produced as a deliverable: code blocks in its replies and the text it wrote
/// through tools.
pub fn deliverables(t: &Transcript) -> Vec<String> {
    deliverables_with_source(t)
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// Deliverables with where each came from (`a code block of reply 2`, `write_file src/x.py`).
pub fn deliverables_with_source(t: &Transcript) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, m) in t.replies().enumerate() {
        let reply = Reply::parse(&m.content);
        for (_, code) in reply.code_blocks() {
            out.push((format!("a code block of reply {}", i + 1), code.to_string()));
        }
    }
    for c in calls(t) {
        for key in ["content", "new"] {
            let v = c.call.arg(key);
            if !v.is_empty() {
                out.push((format!("{} {}", c.name(), c.path()), v.to_string()));
            }
        }
    }
    out
}
