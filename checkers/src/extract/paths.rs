//! Workspace paths and tool names as the checkers compare them: one spelling of a path, which
//! tools change state, and what a `search` result lists.

use crate::transcript::ToolCall;
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

/// `name(key argument)`: a call as evidence lines name it.
pub fn call_name(call: &ToolCall) -> String {
    let key = ["path", "pattern", "url"]
        .iter()
        .map(|k| call.arg(k))
        .find(|v| !v.is_empty())
        .unwrap_or("");
    format!("{}({key})", call.name)
}
