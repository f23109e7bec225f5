//! Plain-text structure of replies: sentences, code blocks, questions, normalized whitespace.

use regex::Regex;
use std::sync::LazyLock;

static CODE_BLOCK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)```[^\n]*\n(.*?)```").unwrap());
static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(\bnot\b|n't\b|\bnever\b|\bno\b|\bcannot\b|\bunable\b|\bwithout\b|\bunverified\b|\bunconfirmed\b)").unwrap()
});

/// Sentences as byte spans: split after `.`, `!`, `?` followed by white space, and at line ends.
/// A decimal point (`0.91`) never splits.
pub fn sentence_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let ends = match b {
            b'\n' => true,
            b'.' | b'!' | b'?' => next.map_or(true, |n| {
                n == b' ' || n == b'\n' || n == b'\t' || n == b'"' || n == b')'
            }),
            _ => false,
        };
        if ends {
            if text[start..=i].trim().len() > 0 {
                spans.push((start, i + 1));
            }
            start = i + 1;
        }
    }
    if text[start..].trim().len() > 0 {
        spans.push((start, text.len()));
    }
    spans
}

pub fn sentences(text: &str) -> Vec<&str> {
    sentence_spans(text)
        .into_iter()
        .map(|(a, b)| text[a..b].trim())
        .collect()
}

/// The sentence that holds byte offset `at`.
pub fn sentence_at(text: &str, at: usize) -> &str {
    sentence_spans(text)
        .into_iter()
        .find(|&(a, b)| a <= at && at < b)
        .map(|(a, b)| text[a..b].trim())
        .unwrap_or("")
}

pub fn is_negated(sentence: &str) -> bool {
    NEGATION.is_match(sentence)
}

/// Bodies of fenced code blocks.
pub fn code_blocks(text: &str) -> Vec<&str> {
    CODE_BLOCK
        .captures_iter(text)
        .map(|c| c.get(1).unwrap().as_str())
        .collect()
}

/// Sentences that ask the reader something.
pub fn questions(text: &str) -> Vec<&str> {
    sentences(text)
        .into_iter()
        .filter(|s| s.ends_with('?'))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_do_not_split_sentences() {
        assert_eq!(
            sentences("Net is 0.91. So not even!"),
            vec!["Net is 0.91.", "So not even!"]
        );
    }

    #[test]
    fn code_blocks_are_extracted_with_their_bodies() {
        assert_eq!(code_blocks("a\n```python\nx = 1\n```\nb"), vec!["x = 1\n"]);
    }
}
