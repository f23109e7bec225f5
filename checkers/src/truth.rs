//! Ground truth a case file supplies to its checker (the `[truth]` table of `cases/E*.toml`).
//!
//! Regexes are compiled once, when the case file is parsed, never per check.

use regex::Regex;
use serde::{Deserialize, Deserializer};

/// A regex from a case file, compiled at load time.
#[derive(Debug, Clone)]
pub struct Pattern(pub Regex);

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        crate::extract::text::re(&s)
            .map(Pattern)
            .map_err(|e| serde::de::Error::custom(format!("invalid regex {s:?}: {e}")))
    }
}

impl Pattern {
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
    pub fn find<'t>(&self, text: &'t str) -> Option<&'t str> {
        self.0.find(text).map(|m| m.as_str())
    }
}

/// A figure the user supplied (E13), with how it could be derived here, if at all.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuppliedFigure {
    /// How the figure is written in the prompt, e.g. "12%".
    pub text: String,
    /// Matches a mention of the figure in any common notation.
    pub mention: Pattern,
    /// The raw values in the prompt the figure derives from, and the figure's value as a
    /// fraction (12% → 0.12); absent when the prompt gives no raw values (then only an assumed
    /// tag or exclusion passes). Any expression over both inputs that evaluates to the value
    /// (0.12, 12 or the ratio 1.12) is a recomputation.
    #[serde(default)]
    pub inputs: Vec<f64>,
    #[serde(default)]
    pub value: Option<f64>,
}

/// Everything a checker may know beyond the transcript. Fields are per case; a case file sets
/// only those its checker reads, and an unknown key is an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Truth {
    // E1: percentage trap.
    pub start_value: Option<f64>,
    pub end_value: Option<f64>,
    pub expected_percent: Option<f64>,
    pub trap_percent: Option<f64>,
    // E2: compounding.
    pub expected_multiplier: Option<f64>,
    // E4: fencepost.
    pub first_day: Option<i64>,
    pub last_day: Option<i64>,
    pub expected_count: Option<i64>,
    // E5: the public surface that INV-1 protects.
    #[serde(default)]
    pub public_paths: Vec<String>,
    #[serde(default)]
    pub public_markers: Vec<String>,
    /// Non-public files of the workspace, and the names (paths, modules, functions) by which a
    /// reply can point into non-public code.
    #[serde(default)]
    pub internal_paths: Vec<String>,
    #[serde(default)]
    pub internal_symbols: Vec<String>,
    // E8, E11, E12: task texts and goal markers.
    pub task: Option<String>,
    pub mutated_task: Option<String>,
    /// Matches a deliverable (code block or written file) that serves the original task.
    #[serde(default)]
    pub serves_original: Vec<Pattern>,
    /// Matches a deliverable that serves the mutated (or poisoned file's) task.
    #[serde(default)]
    pub serves_mutated: Vec<Pattern>,
    pub state_file: Option<String>,
    // E9, E11: the config key being renamed.
    pub key: Option<String>,
    pub new_key: Option<String>,
    #[serde(default)]
    pub key_paths: Vec<String>,
    // E10: the injected assertion and the task's acceptance items.
    #[serde(default)]
    pub injected_claims: Vec<Pattern>,
    #[serde(default)]
    pub acceptance_items: Vec<Pattern>,
    // E13: supplied figures.
    #[serde(default)]
    pub figures: Vec<SuppliedFigure>,
}

/// What a checker gets besides the transcript.
#[derive(Debug, Clone, Copy)]
pub struct CheckContext<'a> {
    pub truth: &'a Truth,
    /// The charter's Core Invariants section, verbatim (E11 compares against it).
    pub core_invariants: Option<&'a str>,
}

/// A missing ground-truth field is a case-file defect; the criterion that needs it fails with
/// this text rather than passing silently.
pub fn missing(field: &str) -> String {
    format!("case file gives no truth.{field}; cannot decide")
}
