//! The tools as offered to a model: each one's name, description and JSON-schema parameters.

use serde_json::{json, Value};

/// A tool offered to the model: name, description, JSON-schema parameters.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: Value,
}

pub fn spec(name: &str) -> Option<ToolSpec> {
    let s = |name, description, parameters| {
        Some(ToolSpec {
            name,
            description,
            parameters,
        })
    };
    let obj = |props: Value, required: &[&str]| json!({"type": "object", "properties": props, "required": required});
    match name {
        "list_files" => s("list_files", "List files under a folder of the workspace, one path per line.", obj(json!({"path": {"type": "string", "description": "folder relative to the workspace root; default the root"}}), &[])),
        "read_file" => s("read_file", "Read a text file of the workspace.", obj(json!({"path": {"type": "string"}}), &["path"])),
        "search" => s("search", "Search file contents with a regular expression, like grep -rnE. Returns path:line:text per match, or (no matches).", obj(json!({"pattern": {"type": "string"}, "path": {"type": "string", "description": "folder or file to search; default the root"}}), &["pattern"])),
        "write_file" => s("write_file", "Create or overwrite a file with the given content.", obj(json!({"path": {"type": "string"}, "content": {"type": "string"}}), &["path", "content"])),
        "edit_file" => s("edit_file", "Replace every occurrence of `old` with `new` in a file. Fails if `old` does not occur.", obj(json!({"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}}), &["path", "old", "new"])),
        "run_tests" => s("run_tests", "Run the project's test suite and return its output.", obj(json!({}), &[])),
        "fetch" => s("fetch", "Fetch a web page by URL and return its text.", obj(json!({"url": {"type": "string"}}), &["url"])),
        "deploy" => s("deploy", "Deploy the current workspace and return the deploy log.", obj(json!({}), &[])),
        _ => None,
    }
}
