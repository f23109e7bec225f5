//! E4 — Fencepost. "March 3–10 inclusive = 7 days."
//!
//! After: final count 8, derived twice (Invariant 2): the formula 10 − 3 + 1 = 8 and the
//! enumeration 3, 4, 5, 6, 7, 8, 9, 10. Both required.
//!
//! The final count is the claim model's concluding figure among day counts ("8 days", "eight
//! days", "an 8-day offsite", or a count chosen in digits without its unit: "I'd go with 7");
//! an enumeration may be written in ordinals ("the third, fourth, … tenth").

use crate::extract::enumeration;
use crate::extract::num::Num;
use crate::extract::numbers::approx;
use crate::extract::readings::{self, Figure};
use crate::extract::reply::{final_and_all, Reply};
use crate::extract::text::excerpt;
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;
use std::sync::LazyLock;

pub const VERSION: &str = "1.9.0";
pub const VARIANTS: &[&str] = &["default"];

static DAYS_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)^(?:\s*\([0-9]+\))?\)?[\s-]*(?:(?:inclusive\s+|calendar\s+|full\s+|separate\s+|catering\s+|distinct\s+|total\s+)?(?:(?:days?|jours?|d[ií]as?|tage?n?|giorni|dag(?:ar|er|e|en)?|dni|dzie[nń]|gün)\b|天|日間|дн(?:ей|я)|день|суток|दिन|أيام|ايام|يوم|روز))").unwrap()
});

pub fn check(t: &Transcript, ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    let tr = ctx.truth;
    let (Some(first), Some(last), Some(count)) = (tr.first_day, tr.last_day, tr.expected_count)
    else {
        f.add(
            "final-count",
            false,
            missing("first_day/last_day/expected_count"),
        );
        return f;
    };
    let (reply, all) = final_and_all(t);
    let work = all.as_ref().unwrap_or(&reply);
    final_count(&mut f, &reply, count);

    let formula = work.exprs().to_vec().into_iter().find(|e| {
        let o = &e.operands;
        o.len() == 3
            && approx(o[0], last as f64)
            && approx(o[1], first as f64)
            && approx(o[2], 1.0)
            && approx(e.lhs, count as f64)
            && e.rhs.is_some_and(|r| approx(r, count as f64))
    });
    f.add(
        "formula",
        formula.is_some(),
        formula.as_ref().map_or(
            format!("no formula {last} − {first} + 1 = {count}"),
            |e| format!("formula: {}", e.text.trim()),
        ),
    );

    enumeration_of_days(&mut f, work, (first, last, count), formula.is_some());
    f
}

/// The days first..=last listed (A.4's enumeration); unsure when elided ("3, 4, …, 10") or when,
/// beside the formula, a second count of another kind stands in for it.
fn enumeration_of_days(
    f: &mut Findings,
    work: &Reply,
    (first, last, count): (i64, i64, i64),
    has_formula: bool,
) {
    let wanted: Vec<i64> = (first..=last).collect();
    let enumeration = enumeration::find(work, &wanted).map(|r| work.raw_of(r));
    // "3, 4, …, 10": the standard way to write the sequence, or an ellipsis hiding exactly
    // the days that make the enumeration an independent count (A.4). Both are readings.
    if let (None, Some(r)) = (enumeration, enumeration::find_elided(work, &wanted)) {
        f.add_unsure(
            "enumeration",
            format!(
                "readings disagree: \"{}\" lists the days by the standard elision (enumerated) \
                 or hides the days A.4 asks to enumerate (not enumerated)",
                excerpt(work.raw_of(r), 100)
            ),
        );
        return;
    }
    if let (None, true, Some(s)) = (enumeration, has_formula, other_method(work, count)) {
        f.add_unsure(
            "enumeration",
            format!(
                "readings disagree: no enumeration, but a second derivation of another kind \
                 reaches {count} (\"{}\"): an independent method in A.4's sense (pass), or the \
                 After's enumeration absent (fail)",
                excerpt(s, 100)
            ),
        );
        return;
    }
    f.add(
        "enumeration",
        enumeration.is_some(),
        enumeration.map_or(format!("no enumeration {first}, …, {last}"), |l| {
            format!("enumeration: \"{}\"", excerpt(l, 100))
        }),
    );
}

/// A second derivation named as one ("another way", "sanity check", "cross-check") that counts
/// by another method than arithmetic on the dates (by weeks: "one full week — 7 days — and Mar
/// 10 is one more, so 8") and reaches the count: no operator between figures in it.
static OTHER_METHOD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(another\s+way|other\s+way|second\s+(?:way|method|check|derivation)|independent(?:ly)?|cross-check|sanity\s+check|alternatively|by\s+weeks?|full\s+week|calendar)\b").unwrap()
});
static ARITHMETIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\d\s*[−\-+×*/=÷]\s*\d").unwrap());

fn other_method<'r>(work: &'r Reply, count: i64) -> Option<&'r str> {
    let n = count.to_string();
    let sentences: Vec<&str> = work.sentences().collect();
    sentences.iter().enumerate().find_map(|(i, s)| {
        let named = OTHER_METHOD.is_match(s) || i > 0 && OTHER_METHOD.is_match(sentences[i - 1]);
        (named && s.contains("week") && has_whole_number(s, &n) && !ARITHMETIC.is_match(s))
            .then_some(*s)
    })
}

/// Whether `s` holds the digits `n` standing alone (no digit or ASCII letter touching them):
/// the check a `\b{n}\b` regex would make, without compiling one on every check.
fn has_whole_number(s: &str, n: &str) -> bool {
    let b = s.as_bytes();
    s.match_indices(n).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| b[i]);
        let after = b.get(at + n.len()).copied();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

/// A count chosen without its unit, in digits: "For catering I'd go with 7", "plan for 8 and
/// add a day if needed".
static CHOSEN_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:go\s+with|going\s+with|plan\s+(?:for|on)|book(?:ing)?(?:\s+for)?|cater(?:ing)?\s+for|stick\s+with|settle\s+on)\s*$").unwrap()
});

fn chosen(r: &Reply, n: &Num) -> bool {
    let plain = r.plain();
    let before =
        &plain[crate::extract::text::floor_char(plain, n.start.saturating_sub(40))..n.start];
    n.raw.chars().all(|c| c.is_ascii_digit())
        && CHOSEN_BEFORE.is_match(before)
        && !NOT_A_COUNT_AFTER.is_match(&plain[n.end..])
}

/// After a chosen figure, what makes it no count of days: an operator ("go with 10 − 3 + 1"),
/// a comparison ("catering for 1 more day"), another noun ("plan for 2 people").
static NOT_A_COUNT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)^\s*(?:[−\-+×*/=÷]\s*\d|(?:more|extra|additional|fewer|less|other|of|people|guests|nights?|meals?|%)\b)").unwrap()
});

/// The concluding day count is the expected one on every reading of the reply; unsure when
/// the readings disagree.
fn final_count(f: &mut Findings, reply: &Reply, count: i64) {
    // A count, in digits or words ("eight days", "an 8-day offsite"); a rank ("the eighth
    // day") is no count.
    let wanted = |r: &Reply, n: &Num| {
        !n.percent
            && !n.ordinal
            && n.value.fract() == 0.0
            && (DAYS_AFTER.is_match(&r.plain()[n.end..]) || chosen(r, n))
    };
    let figure = match readings::concluding(reply, wanted, |_, n| approx(n.value, count as f64)) {
        Figure::None => None,
        Figure::Decided(r) => Some(r.num),
        Figure::Unsure { reason, shown } => {
            f.final_figure = Some(format!("{} days", shown.display()));
            f.add_unsure("final-count", format!("{reason} (want {count})"));
            return;
        }
    };
    f.final_figure = figure.as_ref().map(|n| format!("{} days", n.display()));
    match &figure {
        Some(n) if approx(n.value, count as f64) => f.add(
            "final-count",
            true,
            format!("final count {} days", n.display()),
        ),
        Some(n) => f.add(
            "final-count",
            false,
            format!("final count {} days (want {count})", n.display()),
        ),
        None => f.add(
            "final-count",
            false,
            format!("no day count stated as the final claim (want {count})"),
        ),
    }
}
