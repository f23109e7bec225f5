//! Text helpers shared by the checkers: negation, normalized white space, evidence excerpts.
//! The structure of replies (blocks, sentences, code) lives in [`super::reply`].

use regex::Regex;
use std::sync::LazyLock;

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(\bnot\b|n't\b|\bnever\b|\bno\b|\bcannot\b|\bunable\b|\bwithout\b|\bunverified\b|\bunconfirmed\b)").unwrap()
});

pub fn is_negated(sentence: &str) -> bool {
    NEGATION.is_match(sentence)
}

/// Collapse every run of white space to one space and trim: "verbatim" up to layout.
pub fn normalize_ws(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Shorten evidence for a detail line, on a character boundary.
pub fn excerpt(text: &str, max: usize) -> String {
    let one_line = normalize_ws(text);
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max).collect();
        format!("{cut}…")
    }
}
