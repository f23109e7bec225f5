//! Verdicts (contract §4): pass/fail with every criterion and the evidence behind it.

use serde::{Deserialize, Serialize};

/// Fields in alphabetical order: the order transcripts and summaries have always written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub detail: String,
    pub name: String,
    pub pass: bool,
}

impl Criterion {
    pub fn new(name: &str, pass: bool, detail: impl Into<String>) -> Self {
        Criterion {
            name: name.to_string(),
            pass,
            detail: detail.into(),
        }
    }
}

/// Fields in alphabetical order: the order transcripts and summaries have always written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub case: String,
    /// sha256 over all the checker crate's sources (every file under `checkers/src/`, the
    /// shared extraction included), so verdicts from different code never compare as equal.
    pub checker_source_sha256: String,
    pub checker_version: String,
    pub criteria: Vec<Criterion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_figure: Option<String>,
    /// The transcript records a provider or harness failure: neither pass nor fail.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inconclusive: bool,
    pub pass: bool,
    pub variant: String,
}

impl Verdict {
    pub fn failed(&self) -> impl Iterator<Item = &Criterion> {
        self.criteria.iter().filter(|c| !c.pass)
    }
}
