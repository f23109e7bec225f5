//! Text helpers shared by the checkers: negation, normalized white space, evidence excerpts.
//! The structure of replies (blocks, sentences, code) lives in [`super::reply`].

use regex::Regex;
use std::sync::LazyLock;

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(\bnot\b|n't\b|\bnever\b|\bno\b|\bcannot\b|\bunable\b|\bwithout\b|\bunverified\b|\bunconfirmed\b|\bnone\b|\bneither\b|\bnor\b)").unwrap()
});

/// A regex whose word boundaries are ASCII: `\b` becomes `(?-u:\b)`, which the regex crate's
/// DFAs run on any text. A Unicode `\b` sends every search with a non-ASCII character (`×`, `−`,
/// `→`) to the slow engines, which made checking a long reply take seconds.
pub fn re(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
}

pub fn is_negated(sentence: &str) -> bool {
    NEGATION.is_match(sentence)
}

/// The char boundary at or before byte `i` (`i` within the text): a window cut by bytes starts
/// on a whole character.
pub fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The char boundary at or after byte `i` (`i` within the text): a window cut by bytes ends on
/// a whole character.
pub fn ceil_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
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
