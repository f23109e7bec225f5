//! Sentences of a reply's plain text: Unicode sentence boundaries (UAX #29) inside a line, never
//! across one, with two corrections — a table row's short leading cell (a row number) is not
//! part of its sentence, and a sentence that opens with a figure is split off the one before
//! ("…over-committing. 20% would also be fine"), which UAX #29 joins.

use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

pub(crate) fn line_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split('\n').map(move |l| {
        let o = at;
        at += l.len() + 1;
        (o, l)
    })
}

/// A table row's short leading cell (`1 | `, `✓ | `): a row number or mark, not the sentence.
fn lead_cell(line: &str) -> usize {
    match line.find(" | ") {
        Some(i) if line[..i].trim().chars().count() <= 3 && !line[..i].trim().is_empty() => i + 3,
        _ => 0,
    }
}

pub(crate) fn sentence_ranges(plain: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (lo, line) in line_offsets(plain) {
        let cut = lead_cell(line);
        let (lo, line) = (lo + cut, &line[cut..]);
        // An ASCII line with no '.', '!' or '?' holds no sentence terminator, so UAX #29 finds
        // no boundary in it: it is one sentence, known without the per-character tables.
        if line.is_ascii() && !line.contains(['.', '!', '?']) {
            let lead = line.len() - line.trim_start().len();
            let t = line.trim();
            if !t.is_empty() {
                out.push(lo + lead..lo + lead + t.len());
            }
            continue;
        }
        for (so, s) in line.split_sentence_bound_indices() {
            let lead = s.len() - s.trim_start().len();
            let t = s.trim();
            if !t.is_empty() {
                let start = lo + so + lead;
                split_before_figures(t, start, &mut out);
            }
        }
    }
    out
}

/// UAX #29 joins "…over-committing. 20% would also be fine" into one sentence (a sentence that
/// opens with a figure and goes on in lower case); split there, unless the period ends an
/// abbreviation ("e.g. 22.5%", "approx. 20%").
fn split_before_figures(t: &str, start: usize, out: &mut Vec<Range<usize>>) {
    let mut from = 0;
    let bytes = t.as_bytes();
    for (i, _) in t.match_indices(['.', '!', '?']) {
        let next = t[i + 1..].trim_start();
        let gap = t.len() - i - 1 - next.len();
        let opens_figure = gap > 0 && next.starts_with(|c: char| c.is_ascii_digit() || c == '$');
        let word = t[..i]
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        let abbreviation = word.len() <= 1
            || bytes.get(i.wrapping_sub(1)).is_some_and(u8::is_ascii_digit)
            || [
                "eg", "ie", "vs", "approx", "ca", "no", "pp", "fig", "eq", "cf", "incl", "est",
            ]
            .contains(&word.to_ascii_lowercase().as_str());
        if opens_figure && !abbreviation && i + 1 > from {
            out.push(start + from..start + i + 1);
            from = i + 1 + gap;
        }
    }
    out.push(start + from..start + t.len());
}

/// A sentence asks something when it ends in a question mark (closing quotes and brackets aside).
pub fn is_question(sentence: &str) -> bool {
    sentence
        .trim_end_matches(|c: char| c.is_whitespace() || "\"'”’)*_".contains(c))
        .ends_with(['?', '؟'])
}
