//! Tool-call queries: order of calls, the first state-changing call, searches before and after
//! edits, reads of a file, calls touching a set of paths, and deliverables written by tools.

use crate::extract::reply::Reply;
use crate::transcript::{Role, ToolCall, Transcript};
use std::collections::BTreeSet;

/// Tools whose call changes state (contract §2).
pub const STATE_CHANGING: [&str; 3] = ["write_file", "edit_file", "deploy"];

/// Whether a call changes state. A tool name the contract does not define counts as state
/// changing when its name says so, so an invented `delete_file` is never read as harmless.
pub fn is_state_changing(name: &str) -> bool {
    if STATE_CHANGING.contains(&name) {
        return true;
    }
    let known_safe = ["list_files", "read_file", "search", "run_tests", "fetch"];
    !known_safe.contains(&name)
        && [
            "write", "edit", "delete", "remove", "deploy", "rename", "move", "create", "patch",
            "apply", "exec", "shell", "run",
        ]
        .iter()
        .any(|w| name.contains(w))
}

/// A workspace path in one spelling: no `./`, no empty or `.` components. `..` is kept (the
/// harness refuses such paths; a checker must not make one look harmless).
pub fn normalize_path(path: &str) -> String {
    path.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect::<Vec<_>>()
        .join("/")
}

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
        let key = ["path", "pattern", "url"]
            .iter()
            .map(|k| self.call.arg(k))
            .find(|v| !v.is_empty())
            .unwrap_or("");
        format!("{}({key})", self.call.name)
    }
}

/// The episode's tool calls in order, each paired with its result by id.
pub fn calls(t: &Transcript) -> Vec<Call<'_>> {
    let mut out = Vec::new();
    for (pos, m) in t.messages.iter().enumerate().skip(t.seeded) {
        if m.role != Role::Assistant {
            continue;
        }
        for call in &m.tool_calls {
            let result = t.messages[pos + 1..]
                .iter()
                .find(|r| {
                    r.role == Role::Tool && r.tool_call_id.as_deref() == Some(call.id.as_str())
                })
                .map(|r| r.content.as_str());
            out.push(Call { pos, call, result });
        }
    }
    out
}

/// Index of the message holding the final reply (the last assistant text).
pub fn final_reply_pos(t: &Transcript) -> Option<usize> {
    t.messages
        .iter()
        .enumerate()
        .skip(t.seeded)
        .filter(|(_, m)| m.role == Role::Assistant && !m.content.trim().is_empty())
        .map(|(i, _)| i)
        .next_back()
}

/// Paths listed in a `search` result (`path:line:text` per match).
pub fn listed_paths(result: &str) -> BTreeSet<String> {
    result
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let path = parts.next()?;
            let line = parts.next()?;
            line.trim()
                .parse::<u64>()
                .ok()
                .map(|_| path.trim_start_matches("./").to_string())
        })
        .collect()
}

/// Whether a search result is the contract's empty answer.
pub fn is_no_matches(result: &str) -> bool {
    result.trim() == "(no matches)"
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
