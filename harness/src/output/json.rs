//! The JSON documents the harness prints, each with its own `schema_version` (an integer per
//! document type, from 1; docs/formats.md lists them), and `--json`'s stdout: the document
//! alone, the text that would have gone there sent to stderr.

use std::sync::atomic::{AtomicBool, Ordering};

/// One type of JSON document: what prints it and its `schema_version`, which grows when a
/// field changes meaning or goes away (a new field does not change it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schema {
    /// The type's name in docs/formats.md's table.
    pub name: &'static str,
    /// The commands that print it (and the file that holds it, for `summary`).
    pub printed_by: &'static str,
    pub version: u32,
}

impl Schema {
    const fn new(name: &'static str, version: u32, printed_by: &'static str) -> Schema {
        Schema {
            name,
            printed_by,
            version,
        }
    }
}

/// A run's gate: summary.json, and what `run --json` and `gate --json` print.
pub const SUMMARY: Schema = Schema::new("summary", 1, "summary.json, `run --json`, `gate --json`");
/// One transcript's verdict a line (`check --json`, `show --json`).
pub const VERDICT: Schema = Schema::new("verdict", 1, "`check --json`, `show --json`");
/// One labelled transcript a line, then the tallies (`calibrate --json`).
pub const CALIBRATE: Schema = Schema::new("calibrate", 1, "`calibrate --json`");
/// Two runs side by side (`compare --json`).
pub const COMPARE: Schema = Schema::new("compare", 1, "`compare --json`");
/// One lint finding a line (`lint charter --json`, `lint capsule --json`).
pub const LINT: Schema = Schema::new("lint", 1, "`lint charter --json`, `lint capsule --json`");
/// One run folder a line (`runs --json`).
pub const RUNS: Schema = Schema::new("runs", 1, "`runs --json`");
/// One case a line (`cases --json`).
pub const CASES: Schema = Schema::new("cases", 1, "`cases --json`");
/// The inputs key (`key --json`).
pub const KEY: Schema = Schema::new("key", 1, "`key --json`");

/// Every document type, as docs/formats.md lists them.
pub const ALL: [Schema; 8] = [SUMMARY, VERDICT, CALIBRATE, COMPARE, LINT, RUNS, CASES, KEY];

/// `doc` as one line of JSON, its type's `schema_version` its first field, the others in
/// their order.
pub fn versioned<T: serde::Serialize + ?Sized>(schema: Schema, doc: &T) -> String {
    let text = serde_json::to_string(doc).unwrap_or_else(|_| "{}".to_string());
    let head = format!("{{\"schema_version\":{}", schema.version);
    match text.strip_prefix('{') {
        Some("}") => format!("{head}}}"),
        Some(rest) => format!("{head},{rest}"),
        // Not an object: nothing to put the version in (every document is one).
        None => text,
    }
}

/// One document of type `schema` as a line of stdout, `schema_version` first, masked and
/// escaped as JSON escapes ([`super::out_json`]): never through the terminal escaping.
pub fn out_doc<T: serde::Serialize + ?Sized>(schema: Schema, doc: &T) {
    super::out_json(&versioned(schema, doc));
}

static STDOUT_JSON: AtomicBool = AtomicBool::new(false);

/// `--json` on `run` and `gate`: stdout holds one JSON document; the text that would have gone
/// there (the table, the stories, the verdict line) goes to stderr.
pub fn set_stdout_json(yes: bool) {
    STDOUT_JSON.store(yes, Ordering::Relaxed);
}

/// Whether stdout is kept for one JSON document ([`set_stdout_json`]).
pub fn stdout_json() -> bool {
    STDOUT_JSON.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_document_type_has_its_own_name_and_a_version_from_one() {
        let mut names: Vec<&str> = super::ALL.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), super::ALL.len());
        assert!(super::ALL.iter().all(|s| s.version >= 1));
    }

    #[test]
    fn a_versioned_document_holds_its_schema_version_first_then_its_fields() {
        let text = super::versioned(super::KEY, &serde_json::json!({"key": "k"}));
        assert_eq!(text, r#"{"schema_version":1,"key":"k"}"#);
        let empty = super::versioned(super::KEY, &serde_json::json!({}));
        assert_eq!(empty, r#"{"schema_version":1}"#);
    }
}
