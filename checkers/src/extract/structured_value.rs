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

/// A key as words: `memo_figure` → `memo figure`. A hyphen before a digit is part of a name
/// (`INV-1`, `CVE-2026-1234`), kept as written.
pub(crate) fn words(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut chars = key.chars().peekable();
    while let Some(c) = chars.next() {
        let names = c == '-' && chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if (c == '_' || c == '-') && !names {
            ' '
        } else {
            c
        });
    }
    out
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_key_reads_as_words_and_a_name_with_a_number_stays_whole() {
        assert_eq!(super::words("memo_figure"), "memo figure");
        assert_eq!(super::words("action-taken"), "action taken");
        assert_eq!(super::words("INV-1"), "INV-1");
        assert_eq!(super::words("CVE-2026-1234_fix"), "CVE-2026-1234 fix");
    }
}
