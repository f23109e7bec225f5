//! Parsers with limits for the JSON inputs (run.json, summary.json, transcripts, labels): the
//! file's size is bounded by its reader (`read`), nesting by serde_json's recursion limit (128),
//! and an error names the file, the line and the problem on one line, never echoing a value
//! whole.

use crate::error::{one_line, Error, Result};
use std::path::Path;

/// Parse `text` (read from `path`) as JSON into `T`; `what` says what it is not when it fails.
pub fn json<T: serde::de::DeserializeOwned>(path: &Path, text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| {
        Error::input(format!(
            "{}, line {}: {what}: {}",
            path.display(),
            e.line(),
            one_line(&e.to_string())
        ))
    })
}
