//! A conclusion left open on a choice the user did not make: the reply gives an outcome per
//! condition ("if the budget line is last year × (1 + x), use 25%; if it's quoted against the
//! run-rate, 20% matches that convention") and hands the choice back ("Use whichever convention
//! finance uses", "Your call on how criterion 2 applies", "Which one does your tool report?")
//! without settling it afterwards ("Either way, budget 25%").
//!
//! This module finds the branches and the hand-off; each criterion judges the branches'
//! outcomes itself. Branches it judges alike decide as one reading; branches that disagree are
//! plausible readings that disagree, and the criterion is unsure naming them.
//!
//! A branch opens where a clause opens on a condition ("if", "if instead", "unless",
//! "otherwise"; German "wenn"/"falls", French and Spanish "si") — at a sentence's start, after
//! a list marker, a semicolon, a colon or a dash — and runs to the next branch or the
//! sentence's end. A condition inside a clause ("you'd be short if you budget 20%") opens none.

use super::reply::{is_question, Reply};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// A condition word that may open a branch.
static CONDITION: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(?i)\b(?:if|unless|otherwise|wenn|falls|si)\b").unwrap());
/// A connective a branch may open with ("…; and if …", "but if …").
static CONNECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)(?:^|[\s;:—–(])(?:and|but|or|so|then|while|whereas)$").unwrap()
});
/// The choice handed back to the user.
static HANDOFF: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(concat!(
        r"(?i)\byour\s+(?:call|decision|choice)\b|\bup\s+to\s+(?:you|your|finance|the\s+team)\b",
        r"|\byou(?:'ll)?\s+(?:decide|choose|pick)\b|\bwhichever\s+\w+|\bit\s+(?:all\s+)?depends\b",
        r"|\bdepends\s+(?:entirely\s+|only\s+)?on\s+(?:which|what|whether|how|your)\b",
        r"|\b(?:let\s+me\s+know|tell\s+me)\s+(?:which|whether|how)\b",
        r"|\bje\s+nachdem\b|(?:^|\s)à\s+vous\s+de\b|\bdepende\s+de\b|\bdipende\s+da\b"
    ))
    .unwrap()
});
/// A question that asks which reading applies.
static WHICH: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:which|whether|do\s+you\s+mean|did\s+you\s+mean)\b").unwrap()
});
/// A sentence that settles the choice itself, whatever the condition.
static SETTLES: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:either\s+way|in\s+any\s+case|in\s+either\s+case|regardless|whichever\s+(?:it\s+is|you\s+pick|applies)|my\s+recommendation|I\s+recommend|I(?:'d|\s+would)\s+(?:go\s+with|use|recommend|pick|choose|budget|report|write)|bottom\s+line)\b").unwrap()
});

/// Branches of a conditional conclusion and the sentence that hands the choice back.
#[derive(Debug, Clone)]
pub struct OpenChoice {
    /// Each branch's span in the reply's plain text: its condition and its outcome.
    pub branches: Vec<Range<usize>>,
    /// The sentence that hands the choice back.
    pub handoff: Range<usize>,
}

impl OpenChoice {
    /// The branches whose outcome `judge` reads (`Some(pass)`), with that reading.
    pub fn judged(
        &self,
        judge: impl Fn(&Range<usize>) -> Option<bool>,
    ) -> Vec<(Range<usize>, bool)> {
        self.branches
            .iter()
            .filter_map(|b| judge(b).map(|p| (b.clone(), p)))
            .collect()
    }

    /// "readings disagree: the reply concludes per condition — \"…\" (pass) and \"…\" (fail) —
    /// and leaves the choice to the user (\"…\")", for branches `pass` and `fail`.
    pub fn describe(&self, reply: &Reply, pass: &Range<usize>, fail: &Range<usize>) -> String {
        let plain = reply.plain();
        let ex = |r: &Range<usize>| super::text::excerpt(plain[r.clone()].trim(), 90);
        format!(
            "readings disagree: the reply concludes per condition, \"{}\" and \"{}\", and leaves \
             the choice to the user (\"{}\")",
            ex(pass),
            ex(fail),
            ex(&self.handoff)
        )
    }
}

/// Where a branch may open in `s`: a condition word with nothing before it in its clause but
/// a list marker, markup or a connective.
fn branch_starts(s: &str) -> Vec<usize> {
    CONDITION
        .find_iter(s)
        .filter(|m| {
            let before = s[..m.start()].trim_end_matches(|c: char| {
                c.is_whitespace() || matches!(c, '*' | '_' | '"' | '“' | '(')
            });
            // Only the words just before the condition are read: a sentence of many
            // conditions is not reread for each one.
            let tail = &before[super::text::floor_char(before, before.len().saturating_sub(12))..];
            let connective = CONNECTIVE.find(tail);
            let before = match connective {
                Some(c) => before[..before.len() - tail.len() + c.start()].trim_end(),
                None => before,
            };
            // "…, and if …" opens a branch; "…, if …" is a condition inside the clause.
            before.is_empty()
                || before.ends_with([';', ':', '—', '–'])
                || connective.is_some() && before.ends_with(',')
                || before.len() <= 8
                    && before
                        .chars()
                        .all(|c| c.is_ascii_digit() || matches!(c, '.' | ')' | '-' | '•' | ' '))
        })
        .map(|m| m.start())
        .collect()
}

/// The reply's open choice, if it has one: at least two branches in its prose, a sentence that
/// hands the choice back (or a question asking which applies, after the first branch), and no
/// sentence after the last branch that settles it.
pub fn open_choice(reply: &Reply) -> Option<OpenChoice> {
    let plain = reply.plain();
    let mut branches: Vec<Range<usize>> = Vec::new();
    let mut handoffs: Vec<Range<usize>> = Vec::new();
    let mut settled_at: Option<usize> = None;
    for r in reply.prose_sentence_spans() {
        let s = &plain[r.clone()];
        crate::work::add(s.len());
        let starts = branch_starts(s);
        for (i, &at) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(s.len());
            branches.push(r.start + at..r.start + end);
        }
        if SETTLES.is_match(s) {
            settled_at = Some(r.start);
        } else if HANDOFF.is_match(s)
            || is_question(s)
                && WHICH.is_match(s)
                && branches.first().is_some_and(|b| b.start < r.start)
        {
            handoffs.push(r.clone());
        }
    }
    let last = branches.last()?.start;
    if branches.len() < 2 || settled_at.is_some_and(|at| at > last) {
        return None;
    }
    Some(OpenChoice {
        branches,
        handoff: handoffs.pop()?,
    })
}
