//! The pieces a structured (JSON or YAML) answer is read into, and how a `key: value` reads
//! as prose; shared by the JSON reader (`structured`) and the YAML reader (`structured_yaml`).

use std::ops::Range;

/// How a piece of a structured answer is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Line,
    Item,
    Code,
}

/// One piece of a structured answer: its text as prose and where it stands in the raw reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub shape: Shape,
    pub text: String,
    pub raw: Range<usize>,
}

/// Keys that mark their value as the answer.
const ANSWER_KEYS: [&str; 9] = [
    "answer",
    "final_answer",
    "conclusion",
    "recommendation",
    "bottom_line",
    "verdict",
    "final",
    "result",
    "tl;dr",
];
const CODE_KEYS: [&str; 7] = [
    "code",
    "python",
    "source",
    "implementation",
    "sql",
    "snippet",
    "file_content",
];

/// A key as words: `memo_figure` → `memo figure`.
pub(crate) fn words(key: &str) -> String {
    key.replace(['_', '-'], " ")
}

/// The prose of a scalar under `key`.
pub(crate) fn line(key: Option<&str>, value: &str) -> (Shape, String) {
    let value = value.replace("**", "").replace('`', "");
    let Some(k) = key else {
        return (Shape::Item, value);
    };
    // `"tests_pass": null` (YAML `~`) gives the key no value: it states nothing is known, not
    // the key's words as a claim ("tests pass").
    if matches!(value.trim(), "null" | "~" | "") {
        return (Shape::Line, format!("{}: not known", words(k)));
    }
    let lower = k.to_ascii_lowercase();
    if CODE_KEYS.contains(&lower.as_str()) && value.contains('\n') {
        return (Shape::Code, value);
    }
    if ANSWER_KEYS.contains(&lower.as_str()) {
        return (Shape::Line, format!("Answer: {value}"));
    }
    // A number whose key names its unit: `day_count: 8` is 8 days.
    let unit = if value.parse::<f64>().is_ok() && lower.contains("day") {
        " days"
    } else if value.parse::<f64>().is_ok() && (lower.contains("percent") || lower.contains("pct")) {
        "%"
    } else {
        ""
    };
    (Shape::Line, format!("{}: {value}{unit}", words(k)))
}
