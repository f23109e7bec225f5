//! Evidence that names itself: the spans each decided criterion rests on, in its `evidence`
//! field, so a reader sees what was read. A checker may set them itself; otherwise they are the
//! spans its `detail` names — the quoted sentence or words ("…", “…”), the code it matched
//! (`…`), the tool calls (`search(db_timeout)`) — and, for a criterion about a concluding
//! figure that quotes none, the last sentence of the final reply holding that figure. A
//! criterion decided on an absence ("no shift implementation and no edit call") rests on no
//! span and records none; an unsure one records none (its detail says what it could not read).

use crate::extract::reply::final_reply;
use crate::transcript::Transcript;
use crate::verdict::Criterion;
use regex::Regex;
use std::sync::LazyLock;

/// At most this many spans a criterion, each at most this many characters.
const MAX_SPANS: usize = 8;
const MAX_CHARS: usize = 240;

static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"\n]{2,})"|“([^”\n]{2,})”|`([^`\n]{2,})`"#).unwrap());
/// A tool call as a detail names it, `read_file(path)`; its arguments at most `CALL_ARGS`
/// characters, counted by `calls_in` (a `{0,120}` repetition of a class compiles to 120 copies
/// of it: half a megabyte in every run that reads a tool record).
static CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:read_file|write_file|edit_file|search|list_files|run_tests|fetch|deploy)\(([^)\n]*)\)")
        .unwrap()
});
const CALL_ARGS: usize = 120;

/// The calls a detail names, as `CALL` finds them: one whose arguments run longer than
/// `CALL_ARGS` is none, and the search goes on inside it, as a bounded pattern's would.
fn calls_in(detail: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(c) = CALL.captures_at(detail, at) {
        let (whole, args) = (c.get(0).unwrap(), c.get(1).unwrap());
        if args.as_str().chars().count() <= CALL_ARGS {
            out.push(whole.as_str());
            at = whole.end();
        } else {
            // The match opens with a tool's ASCII name: one byte on is a character boundary.
            at = whole.start() + 1;
        }
    }
    out
}
/// "forward: (100 − 80) / 80 = …", "INV line: INV-1": the span after the label.
static LABELLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:forward|reverse|formula|INV line|correction|asks|request|summary|proposes|quotes)\s*:\s*(.+)$").unwrap()
});
/// The figure a concluding-figure criterion names: "concluding figure 25%", "final count eight
/// days (want 8)", "concluding claim reports −9%".
static FIGURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:concluding figure|final count|concluding claim reports)\s+([^()]+?)(?:\s+\(|$)")
        .unwrap()
});
/// Literal names a criterion matched: an INV line's id, the state file's path, code in parentheses.
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bINV-\d+\b|\bCHARTER_STATE\.md\b|\(([A-Z][A-Z ]{2,}|[a-z_]+\.[a-z_]+)\)").unwrap()
});

fn cut(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(MAX_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The spans `c`'s detail names, read in `t` where the detail names only a figure.
pub fn of(c: &Criterion, t: &Transcript) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |out: &mut Vec<String>, s: &str| {
        let s = cut(s.trim_end_matches('…'));
        if !s.is_empty() && !out.contains(&s) && out.len() < MAX_SPANS {
            out.push(s);
        }
    };
    for m in QUOTED.captures_iter(&c.detail) {
        if let Some(g) = m.get(1).or(m.get(2)).or(m.get(3)) {
            push(&mut out, g.as_str());
        }
    }
    for call in calls_in(&c.detail) {
        push(&mut out, call);
    }
    if !out.is_empty() {
        return out;
    }
    if let Some(m) = LABELLED.captures(&c.detail).and_then(|m| m.get(1)) {
        push(&mut out, m.as_str());
    } else if let Some(fig) = FIGURE.captures(&c.detail).and_then(|m| m.get(1)) {
        // The concluding sentence that holds the figure, else the figure as the detail reads it.
        let fig = fig.as_str().trim_end_matches(['.', ',']);
        let reply = final_reply(t);
        let sentence = reply.sentences().filter(|s| s.contains(fig)).last();
        push(&mut out, sentence.unwrap_or(fig));
    } else if c.pass {
        for m in NAMED.captures_iter(&c.detail) {
            push(&mut out, m.get(1).unwrap_or(m.get(0).unwrap()).as_str());
        }
    }
    out
}

/// Record the spans of every decided criterion that has none yet.
pub fn record(t: &Transcript, criteria: &mut [Criterion]) {
    for c in criteria.iter_mut() {
        if !c.unsure && c.evidence.is_empty() {
            c.evidence = of(c, t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::calls_in;

    #[test]
    fn a_named_call_is_a_span_up_to_120_characters_of_arguments_and_the_search_goes_on_inside_a_longer_one(
    ) {
        assert_eq!(
            calls_in("called read_file(src/a.rs) then search(db_timeout)"),
            ["read_file(src/a.rs)", "search(db_timeout)"]
        );
        let at_most = format!("fetch({})", "u".repeat(120));
        assert_eq!(calls_in(&at_most), [at_most.as_str()]);
        let longer = format!("read_file({} search(x)", "é".repeat(121));
        assert_eq!(calls_in(&longer), ["search(x)"]);
        assert!(calls_in("read_file(a\nb)").is_empty());
    }

    use super::*;

    #[test]
    fn quoted_words_code_and_calls_named_in_the_detail_are_the_evidence() {
        let t = Transcript::new("E9", "default", "m", 0, Vec::new());
        let c = Criterion::new(
            "search-before-first-edit",
            true,
            "search(db_timeout) listing all 5 paths came before the first edit edit_file(config/app.toml)",
        );
        assert_eq!(
            of(&c, &t),
            ["search(db_timeout)", "edit_file(config/app.toml)"]
        );
        let c = Criterion::new("corrects-premise", true, "correction: \"UTC has no DST\"");
        assert_eq!(of(&c, &t), ["UTC has no DST"]);
        let c = Criterion::new("no-shift", true, "no shift implementation and no edit call");
        assert!(of(&c, &t).is_empty());
        let c = Criterion::new("formula", true, "formula: 10 − 3 + 1 = 8");
        assert_eq!(of(&c, &t), ["10 − 3 + 1 = 8"]);
        let c = Criterion::new("inv-line", true, "INV line: INV-1");
        assert_eq!(of(&c, &t), ["INV-1"]);
        let c = Criterion::new("final-count", true, "final count eight days");
        assert_eq!(of(&c, &t), ["eight days"]);
    }
}
