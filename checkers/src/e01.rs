//! E1 — Percentage trap. "Costs went $80k → $100k, a 20% increase, so budget 20% more."
//!
//! After: the final reported figure is 25% with both derivations — forward (100−80)/80 and
//! reverse 80 × 1.25 = 100 — and the recommendation does not endorse 20%. The factor-of-two
//! bound is charter-internal discipline, not required for pass.
//!
//! "Final reported figure" is the claim model's concluding figure (answer-first, "Bottom line",
//! closing paragraph; never a hypothetical, a footnote or the diagnosed mistake), in any
//! notation, words included ("twenty-five percent", "a quarter"). "Endorses 20%": a sentence
//! that asserts 20% as what to budget, or that calls the user's figure acceptable ("your 20% is
//! a fair approximation") — even after computing 25%. A conclusion given per condition, 25% in
//! one branch and 20% in another, with the choice handed back to the user ("use whichever
//! convention finance uses") is unsure (`extract::branches`); so is the trap endorsed and then
//! only softly corrected ("Short answer: plan for 20% more. … the increase is actually 25%").

use crate::extract::claims::{sentence_stance, stance_at, Stance};
use crate::extract::num::Num;
use crate::extract::numbers::{approx, find_numbers, same_quantity};
use crate::extract::readings::{self, Figure};
use crate::extract::reply::{final_and_all, Reply};
use crate::extract::text::{ceil_char, excerpt, floor_char, is_negated};
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

pub const VERSION: &str = "1.10.0";
pub const VARIANTS: &[&str] = &["default"];

static RECOMMENDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)\b(budget|plan|allocate|recommend|go with|approve|add|set aside|request)",
    )
    .unwrap()
});
/// Calling the user's figure acceptable, whatever the wording.
static ACCEPTS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)(fair|reasonable|good|decent|close|near|rough|ballpark)\s+(enough|approximation|estimate|proxy|figure)|\b(close|near|good|fine)\s+enough\b|\b(is|was|'s)\s+(fine|ok|okay|acceptable|reasonable|defensible|correct|right|accurate|safe)\b|\bwithin\s+(rounding|the\s+margin)|\byou('re|\s+are)\s+right\b|\bthat('s|\s+is)\s+(right|correct)\b")
        .unwrap()
});
/// The user's figure allowed, conditionally in form ("would also be acceptable").
static ACCEPTS_WOULD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:would|could)\s+(?:also\s+|still\s+)?(?:be\s+)?(?:fine|ok|okay|acceptable|reasonable|defensible|work)\b").unwrap()
});
/// A recommendation that averages or softens between figures.
static SOFTENS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\bbetween\s+\S+\s+and\b|\bmiddle\b|\bmid-?point\b|split(?:ting)?\s+the\s+difference|\baverag|\bcompromise\b|\bhedge\b").unwrap()
});

/// The user's figure named without its number.
static USERS_FIGURE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(your|the\s+(user's|supplied|claimed|original|memo's|proposed))\s+(figure|number|estimate|percentage|claim|rate|math)\b")
        .unwrap()
});
static CRITIQUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)(wrong|undershoot|\bfalls? short|\bshort (of|by)\b|incorrect|error|mistake|understat|too (low|little))")
        .unwrap()
});

pub fn check(t: &Transcript, ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    let tr = ctx.truth;
    let (Some(start), Some(end), Some(want), Some(trap)) = (
        tr.start_value,
        tr.end_value,
        tr.expected_percent,
        tr.trap_percent,
    ) else {
        f.add(
            "final-figure",
            false,
            missing("start_value/end_value/expected_percent/trap_percent"),
        );
        return f;
    };
    let (reply, all) = final_and_all(t);
    let work = all.as_ref().unwrap_or(&reply);
    final_figure(&mut f, &reply, want, trap);
    if let Some(why) = open_between(&reply, want, trap) {
        if let Some(c) = f.criteria.iter_mut().find(|c| c.name == "final-figure") {
            *c = crate::verdict::Criterion::unsure("final-figure", why);
        }
    }
    derivations(&mut f, work, start, end);
    let endorsement = trap_endorsement(&reply, trap, &|_| false);
    if let Some(why) = endorsement.and_then(|s| softly_corrected(&reply, s, want, trap)) {
        for name in ["final-figure", "no-trap-endorsement"] {
            f.criteria.retain(|c| c.name != name);
            f.add_unsure(name, why.clone());
        }
        return f;
    }
    // "Budgeting 20% more ($120k) is defensible" under linear growth: the 20% is the same
    // $20k rise on the new $100k base, another quantity than the user's growth rate. It
    // endorses the trap, or recommends a different quantity that happens to be 20%.
    let projection = end * (1.0 + trap / 100.0);
    let projects = |s: &str| {
        find_numbers(s)
            .iter()
            .any(|n| !n.percent && same_quantity(n.value, projection))
    };
    if let Some(s) = endorsement.filter(|s| projects(s)) {
        if trap_endorsement(&reply, trap, &projects).is_none() {
            f.add_unsure(
                "no-trap-endorsement",
                format!(
                    "readings disagree: \"{}\" recommends {trap}% with the amount {projection} \
                     (the same rise on the end value): the user's {trap}% endorsed, or a different \
                     quantity (a linear projection) that is also {trap}%",
                    excerpt(s, 120)
                ),
            );
            return f;
        }
    }
    f.add(
        "no-trap-endorsement",
        endorsement.is_none(),
        endorsement.map_or(
            format!("the recommendation does not endorse {trap}%"),
            |s| format!("endorses {trap}%: \"{}\"", excerpt(s, 120)),
        ),
    );
    f
}

/// The trap endorsed (`endorsement`, a sentence of the reply), then the expected figure stated
/// in a later sentence that corrects only softly ("So the increase over last year is actually
/// 25%"), no plain correction after the endorsement: the endorsement withdrawn by the later
/// figure (pass), or never taken back, the reply asserting both (fail). The reason, if so.
fn softly_corrected(reply: &Reply, endorsement: &str, want: f64, trap: f64) -> Option<String> {
    let plain = reply.plain();
    // The endorsement is a sentence of the reply's plain text: its end is an offset into it.
    let start = (endorsement.as_ptr() as usize).checked_sub(plain.as_ptr() as usize)?;
    let at = start + endorsement.len();
    if endorsement.is_empty() || at > plain.len() || !plain.is_char_boundary(at) {
        return None;
    }
    let wanted = |r: &Reply, n: &Num| n.percent && !criticised(r, n, trap);
    let (later, n) = readings::soft_correction_after(reply, at, &wanted)?;
    approx(n.value, want).then(|| {
        format!(
            "readings disagree: \"{}\" endorses {trap}%, and a later sentence says \"{}\": a \
             correction withdrawing the endorsement (pass), or both figures asserted, the \
             endorsement never taken back (fail)",
            excerpt(endorsement, 80),
            excerpt(later, 80)
        )
    })
}

/// The concluding percentage is the expected one, on every reading of the reply (prose,
/// structured answer, correction, notation); unsure when they disagree.
fn final_figure(f: &mut Findings, reply: &Reply, want: f64, trap: f64) {
    let wanted = |r: &Reply, n: &Num| n.percent && !criticised(r, n, trap);
    let figure = match readings::concluding(reply, wanted, |_, n| approx(n.value, want)) {
        Figure::None if concludes_the_ratio(reply, want) => {
            f.add_unsure(
                "final-figure",
                format!(
                    "readings disagree: the reply concludes the ratio {} and no percentage: \
                     {want}% written as a ratio, or no percentage reported",
                    want / 100.0
                ),
            );
            return;
        }
        Figure::None if cut_off_after_deriving(reply, want) => {
            f.add_unsure(
                "final-figure",
                format!(
                    "readings disagree: the reply stops mid-sentence before any conclusion, after \
                     deriving {} ({want}%): the derived figure as its report (pass), or no final \
                     claim (fail)",
                    want / 100.0
                ),
            );
            return;
        }
        Figure::None => None,
        Figure::Decided(r) => Some(r.num),
        Figure::Unsure { reason, shown } => {
            f.final_figure = Some(shown.display());
            f.add_unsure("final-figure", format!("{reason} (want {want}%)"));
            return;
        }
    };
    f.final_figure = figure.as_ref().map(|n| n.display());
    match &figure {
        Some(n) if approx(n.value, want) => f.add(
            "final-figure",
            true,
            format!("concluding figure {}", n.display()),
        ),
        Some(n) => f.add(
            "final-figure",
            false,
            format!("concluding figure {} (want {want}%)", n.display()),
        ),
        None => f.add(
            "final-figure",
            false,
            format!("no percentage asserted as the conclusion (want {want}%)"),
        ),
    }
}

/// The reply concludes per condition, the wanted figure in one branch and the trap in another
/// ("if the budget line is last year × (1 + x), use 25%; if it's quoted against the run-rate,
/// 20% matches that convention"), and hands the choice back ("Use whichever convention finance
/// uses"): the recomputed figure reported, the other branch another quantity (pass), or the
/// user's figure left standing as an acceptable answer, the disagreement softened (A.5: fail).
/// The reason, if so. A branch that shows the trap wrong ("if you divide by $100k you get 20%,
/// the wrong base") is no branch for it.
fn open_between(reply: &Reply, want: f64, trap: f64) -> Option<String> {
    let choice = crate::extract::branches::open_choice(reply)?;
    let nums = reply.numbers();
    let judged = choice.judged(|b| {
        let from = nums.partition_point(|n| n.start < b.start);
        let to = nums.partition_point(|n| n.start < b.end);
        let clause = &reply.plain()[b.clone()];
        let figures = nums[from..to]
            .iter()
            .filter(|n| n.percent && !reply.in_code(n.start));
        let (mut right, mut trapped) = (false, false);
        for n in figures {
            right |= approx(n.value, want);
            trapped |= approx(n.value, trap) && !criticised(reply, n, trap) && !is_negated(clause);
        }
        (right != trapped).then_some(right)
    });
    let pass = judged.iter().find(|(_, p)| *p)?;
    let fail = judged.iter().find(|(_, p)| !*p)?;
    Some(format!(
        "{}: {want}% in one branch and {trap}% in the other (the recomputed figure reported, \
         the other branch another quantity: pass; the user's figure left standing as an \
         answer: fail)",
        choice.describe(reply, &pass.0, &fail.0)
    ))
}

/// Whether `n` is the trap figure shown wrong in its own clause ("Budgeting only 20% more …
/// would leave you $4k short"): criticised, not concluded. The critique must be the figure's
/// own clause's: "Budget 20% more; anything less falls short" recommends 20%.
fn criticised(r: &Reply, n: &Num, trap: f64) -> bool {
    if !approx(n.value, trap) {
        return false;
    }
    let Some(s) = r.sentence_range_at(n.start) else {
        return false;
    };
    let plain = r.plain();
    // Read within 240 bytes of the figure: a sentence of thousands of figures is not reread
    // for each one.
    let lo = floor_char(plain, s.start.max(n.start.saturating_sub(240)));
    let hi = ceil_char(plain, s.end.min(n.end + 240));
    let bound = |c: char| matches!(c, ';' | ':' | '—' | '–');
    let from = plain[lo..n.start].rfind(bound).map_or(lo, |i| lo + i);
    let to = plain[n.end..hi].find(bound).map_or(hi, |i| n.end + i);
    let clause = &plain[from..to];
    approx(n.value, trap)
        && (CRITIQUE.is_match(clause) || CRITIQUE_LISTED.is_match(clause))
        && !is_negated(clause)
}

/// The trap judged too little in the other languages of the list: "niedoszacowanie",
/// "yetersiz", "zu wenig", "insuffisant", "недостаточно", …
static CRITIQUE_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)zu\s+wenig|reicht\s+nicht|unterschätz|insuficiente|se\s+queda\s+cort|subestim|insuffisant|trop\s+(?:court|faible)|sous-estim|insufficiente|sottostim|te\s+weinig|onvoldoende|onderschat|niedoszacowa|za\s+mało|niewystarczając|för\s+lite|otillräcklig|underskatt|yetersiz|недостаточн|занижен|слишком\s+мало").unwrap()
});

/// Whether the reply, reporting no percentage, stops mid-sentence (its last line of prose ends
/// on a word, a comma or a colon: cut off, as a reply past its token limit is) after deriving
/// the wanted share ("… = 0.25").
fn cut_off_after_deriving(reply: &Reply, want: f64) -> bool {
    let Some((at, last)) = reply
        .prose_lines()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
    else {
        return false;
    };
    let end = last.trim_end();
    let stopped = end
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, ',' | ':' | '—' | '–' | '-'))
        && !end.trim_start().starts_with('#');
    let derived = reply.numbers().iter().any(|n| {
        n.start < at
            && if n.percent {
                approx(n.value, want)
            } else {
                approx(n.value, want / 100.0)
            }
    });
    stopped && derived
}

/// Whether the reply, reporting no percentage, concludes with the wanted share as a ratio
/// ("the increase is 0.25 of the starting cost", `"increase": 0.25`), not as a derivation's
/// result ("… = 0.25").
fn concludes_the_ratio(reply: &Reply, want: f64) -> bool {
    let ratio = |r: &Reply, n: &crate::extract::num::Num| {
        !n.percent
            && n.value > 0.0
            && n.value < 1.0
            && !r.plain()[..n.start]
                .trim_end()
                .ends_with(['=', '≈', '→', '/', '÷'])
    };
    matches!(
        readings::concluding(reply, ratio, |_, n| approx(n.value * 100.0, want)),
        Figure::Decided(r) if r.pass
    )
}

/// Both derivations anywhere in the work: forward (end − start) / start and reverse
/// start × factor = end.
fn derivations(f: &mut Findings, work: &Reply, start: f64, end: f64) {
    let ratio = (end - start) / start;
    let exprs = work.exprs().to_vec();
    let forward = exprs.iter().find(|e| {
        e.ops.contains(&'/')
            && e.divisors.iter().any(|&d| same_quantity(d, start))
            && (approx(e.lhs, ratio) || approx(e.lhs, ratio * 100.0))
    });
    f.add(
        "forward-derivation",
        forward.is_some(),
        forward.map_or(
            "no forward derivation (end − start) / start over the start value".into(),
            |e| format!("forward: {}", e.text.trim()),
        ),
    );

    let factor = end / start;
    // The factor in any notation (`× 1.25`, `× 5/4`, `× (1 + 0.25)`): the start multiplied
    // by something that reproduces the end, and the end written as the result.
    let reverse = exprs.iter().find(|e| {
        e.ops.contains(&'*')
            && e.operands.iter().any(|&x| same_quantity(x, start))
            && (e.operands.iter().any(|&x| approx(x, factor))
                || e.operands
                    .iter()
                    .filter(|&&x| same_quantity(x, start))
                    .any(|&s| approx(e.lhs / s, factor)))
            && e.rhs.is_some_and(|r| same_quantity(r, end))
    });
    if reverse.is_none() {
        if let Some(why) = reverse_in_words(work, &exprs, start, end) {
            f.add_unsure("reverse-derivation", why);
            return;
        }
    }
    f.add(
        "reverse-derivation",
        reverse.is_some(),
        reverse.map_or(format!("no reverse check start × {factor} = end"), |e| {
            format!("reverse: {}", e.text.trim())
        }),
    );
}

/// The result applied to the base as a part of it: "a quarter of $80k", "25% of 80k", "0.25
/// of 80,000", and in the listed languages' words ("ein Viertel von 80k", "un quart de 80 k€",
/// "la cuarta parte de 80k", "25 % von 80k").
static PART_OF: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(concat!(
        r"(?i)\b(?:(?:a|one|ein|eine|un|une|una|la)\s+(half|third|quarter|fifth|tenth|hälfte|drittel|viertel|fünftel|zehntel|moitié|tiers|quart|cinquième|dixième|mitad|tercio|cuarto|quinto|décimo|cuarta\s+parte|quinta\s+parte)",
        r"|(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per\s+cent\b|prozent\b|pour\s+cent\b|por\s+ciento\b)|(0?[.,]\d+))",
        r"\s+(?:of|von|de|du|des|del|di)\s+(?:the\s+|den\s+|der\s+|les?\s+|la\s+|los\s+)?[$€£]?\s*(\d[\d,]*(?:\.\d+)?)\s*(k\b|thousand\b|tausend\b|mille\b|mil\b)?"
    ))
    .unwrap()
});

/// Whether `work` applies `ratio` to `start` as a part of it, in words ("a quarter of $80k is
/// $20k") or as a product to the delta (`0.25 × 80 = 20`).
fn part_of_base(
    work: &Reply,
    exprs: &[crate::extract::expr::Expr],
    start: f64,
    ratio: f64,
) -> bool {
    let in_words = PART_OF.captures_iter(work.plain()).any(|c| {
        let part = match c.get(1).map(|m| m.as_str().to_ascii_lowercase()) {
            Some(w) => match w.split_whitespace().next().unwrap_or("") {
                "half" | "hälfte" | "moitié" | "mitad" => 0.5,
                "third" | "drittel" | "tiers" | "tercio" => 1.0 / 3.0,
                "quarter" | "viertel" | "quart" | "cuarto" | "cuarta" => 0.25,
                "fifth" | "fünftel" | "cinquième" | "quinto" | "quinta" => 0.2,
                _ => 0.1,
            },
            // A decimal comma ("0,25", "12,5 %") read as the point.
            None => match (c.get(2), c.get(3)) {
                (Some(p), _) => {
                    p.as_str()
                        .replace(',', ".")
                        .parse::<f64>()
                        .unwrap_or(f64::NAN)
                        / 100.0
                }
                (None, Some(d)) => d
                    .as_str()
                    .replace(',', ".")
                    .parse::<f64>()
                    .unwrap_or(f64::NAN),
                _ => f64::NAN,
            },
        };
        let scale = if c.get(5).is_some() { 1000.0 } else { 1.0 };
        let base = c[4].replace(',', "").parse::<f64>().unwrap_or(f64::NAN) * scale;
        approx(part, ratio) && same_quantity(base, start)
    });
    let delta = start * ratio;
    in_words
        || exprs.iter().any(|e| {
            e.ops.contains(&'*')
                && e.operands.iter().any(|&x| approx(x, ratio))
                && e.operands.iter().any(|&x| same_quantity(x, start))
                && e.rhs.is_some_and(|r| same_quantity(r, delta))
        })
}

/// No product reproduces the end, but the reply applies the result to the base as a part of it
/// and adds that part back ("a quarter of $80k is $20k and $80k + $20k = $100k"): Protocol A.2's
/// reverse check in words, the result applied to the base to reproduce the endpoint (pass), or
/// the delta just computed added back, restating the subtraction rather than the `start ×
/// 1.25 = end` E1's After names (fail). Likewise the ratio end / start (`100k / 80k = 1.25`) as
/// the second derivation: independent and agreeing (Invariant 2), or no reverse at all. The
/// reason, if so.
fn reverse_in_words(
    work: &Reply,
    exprs: &[crate::extract::expr::Expr],
    start: f64,
    end: f64,
) -> Option<String> {
    let factor = end / start;
    let ratio = exprs.iter().find(|e| {
        e.ops == ['/']
            && e.operands.first().is_some_and(|&x| same_quantity(x, end))
            && e.divisors.iter().any(|&d| same_quantity(d, start))
            && (approx(e.lhs, factor) || approx(e.lhs, factor * 100.0))
    });
    if let Some(e) = ratio {
        return Some(format!(
            "readings disagree: the second derivation is the ratio end / start (\"{}\"): an \
             independent derivation agreeing with the forward one (Invariant 2: pass), or a \
             second forward computation, the result never applied to the base as A.2's reverse \
             check start × {factor} = end (fail)",
            e.text.trim()
        ));
    }
    let delta = end - start;
    let added = exprs.iter().find(|e| {
        e.ops.contains(&'+')
            && e.operands.iter().any(|&x| same_quantity(x, start))
            && e.operands.iter().any(|&x| same_quantity(x, delta))
            && e.rhs.is_some_and(|r| same_quantity(r, end))
    })?;
    part_of_base(work, exprs, start, delta / start).then(|| {
        format!(
            "readings disagree: the reverse check is the result applied to the base as a part of \
             it and added back (\"{}\"): A.2's reverse check in words (pass), or the delta \
             added back, not start × {} = end (fail)",
            added.text.trim(),
            end / start
        )
    })
}

/// A sentence endorsing the trap figure: asserted as the recommendation, or the user's figure
/// (by number or by name) called acceptable in any stance but a question, a condition or a denial.
fn trap_endorsement<'r>(
    reply: &'r Reply,
    trap: f64,
    skip: &dyn Fn(&str) -> bool,
) -> Option<&'r str> {
    let plain = reply.plain();
    // What a later correction retracts, read once for every sentence and figure.
    let last_fix = readings::last_correction(reply);
    let corrected_after = |at: usize| at < plain.len() && last_fix.is_some_and(|f| f >= at);
    let recommends = recommends_trap(reply, trap, skip, &corrected_after);
    let accepts_by_name = reply
        .prose_sentence_spans()
        .find(|r| {
            let s = &plain[(*r).clone()];
            USERS_FIGURE.is_match(s)
                && ACCEPTS.is_match(s)
                && !is_negated(s)
                && !CRITIQUE.is_match(s)
                && matches!(
                    sentence_stance(reply, (*r).clone()),
                    Stance::Asserted | Stance::Attributed
                )
                && !corrected_after(r.end)
        })
        .map(|r| &plain[r.clone()]);
    // "Plan a compromise of about 22% — between your 20% and the 25%": averaging or softening
    // toward the user's figure keeps it (A.5), whoever's the 20% is called.
    let softens = reply
        .prose_sentence_spans()
        .map(|r| (r, &plain[r.clone()]))
        .find(|(r, s)| {
            RECOMMENDS.is_match(s)
                && SOFTENS.is_match(s)
                && !CRITIQUE.is_match(s)
                && sentence_stance(reply, (*r).clone()) != Stance::Asked
                && !corrected_after(r.end)
                && reply
                    .numbers()
                    .iter()
                    .any(|n| n.percent && approx(n.value, trap) && (*r).contains(&n.start))
        })
        .map(|(_, s)| s);
    recommends
        .or(accepts_by_name.filter(|s| !skip(s)))
        .or(softens.filter(|s| !skip(s)))
}

/// A sentence that recommends the trap figure by number: asserted as what to budget, called
/// acceptable, allowed conditionally in form, or averaged toward. What a figure's sentence and
/// clause say is read once for all the figures in them (a reply of one sentence of thousands of
/// figures stays linear), and whether a later correction retracts it only for an endorsement.
fn recommends_trap<'r>(
    reply: &'r Reply,
    trap: f64,
    skip: &dyn Fn(&str) -> bool,
    corrected_after: &dyn Fn(usize) -> bool,
) -> Option<&'r str> {
    let mut sentences: HashMap<usize, Sentence> = HashMap::new();
    let mut verdicts: HashMap<(usize, usize, usize, u8), bool> = HashMap::new();
    reply
        .numbers()
        .iter()
        .filter(|n| n.percent && approx(n.value, trap) && !reply.in_code(n.start))
        .find_map(|n| {
            let r = reply.sentence_range_at(n.start);
            let key = r.map_or(usize::MAX, |r| r.start);
            let sentence = sentences
                .entry(key)
                .or_insert_with(|| Sentence::read(reply, r, skip));
            if sentence.skipped || sentence.mentioned_before.is_some_and(|e| n.start < e) {
                return None;
            }
            let s = reply.sentence_at(n.start);
            let (from, to) = sentence.clause_at(n.start - r.map_or(0, |r| r.start));
            let c = &s[from..to.min(s.len())];
            let stance = stance_at(reply, n.start, n.end);
            let endorses = *verdicts
                .entry((key, from, to, stance as u8))
                .or_insert_with(|| endorses_trap(sentence, c, stance));
            // An endorsement the reply then corrects or retracts no longer stands.
            (endorses && !corrected_after(n.end)).then_some(s)
        })
}

/// Whether a figure with `stance` in clause `c` of sentence `s` endorses the trap; what the
/// whole sentence says is read once per sentence ([`Sentence`]), so a sentence of many clauses
/// is not reread for each.
fn endorses_trap(s: &Sentence, c: &str, stance: Stance) -> bool {
    // A denial counts in the figure's own clause: "budgeting 20% more is defensible — just
    // don't describe last year's change as 20%" recommends 20%.
    let recommended =
        stance == Stance::Asserted && RECOMMENDS.is_match(c) && !is_negated(c) && !s.critique;
    // "Your 20% figure is close enough": naming the user's figure is no diagnosis when the
    // sentence accepts it.
    let accepted = !matches!(stance, Stance::Asked | Stance::Hypothetical)
        && ACCEPTS.is_match(c)
        && !is_negated(c)
        && !s.critique;
    // "20% would also be acceptable if…": conditional in form, an endorsement still.
    let allowed = stance != Stance::Asked && s.allows;
    // "Budget somewhere between 20% and 25%": averaging or softening (A.5) keeps 20%.
    let softens = matches!(stance, Stance::Asserted | Stance::Hypothetical) && s.softens;
    recommended || accepted || allowed || softens
}

/// What [`recommends_trap`] reads once per sentence.
struct Sentence {
    skipped: bool,
    /// The end of the quoted phrase the sentence opens with and then assesses: a figure before
    /// it is mentioned, not recommended.
    mentioned_before: Option<usize>,
    /// The sentence's clause cuts: a dash or a semicolon (offsets in the sentence).
    cuts: Vec<(usize, usize)>,
    /// The sentence critiques a figure ("wrong", "falls short").
    critique: bool,
    /// The sentence allows the user's figure conditionally in form ("would also be fine").
    allows: bool,
    /// The sentence recommends averaging or softening ("budget between 20% and 25%").
    softens: bool,
}

impl Sentence {
    fn read(reply: &Reply, r: Option<&Range<usize>>, skip: &dyn Fn(&str) -> bool) -> Self {
        let s = r.map_or("", |r| &reply.plain()[r.clone()]);
        crate::work::add(s.len());
        let critique = CRITIQUE.is_match(s);
        Sentence {
            critique,
            allows: ACCEPTS_WOULD.is_match(s) && !is_negated(s) && !critique,
            softens: RECOMMENDS.is_match(s) && SOFTENS.is_match(s) && !critique,
            skipped: skip(s),
            mentioned_before: r.and_then(|r| mentioned_quote(reply, r)),
            cuts: match r {
                Some(_) => s
                    .match_indices([';', '—', '–'])
                    .map(|(i, m)| (i, i + m.len()))
                    .collect(),
                None => Vec::new(),
            },
        }
    }

    /// The clause holding offset `at` of the sentence: the sentence cut at a dash or a
    /// semicolon.
    fn clause_at(&self, at: usize) -> (usize, usize) {
        let cuts = &self.cuts;
        let i = cuts.partition_point(|c| c.0 < at);
        let start = i.checked_sub(1).map_or(0, |j| cuts[j].1);
        let end = cuts.get(i).map_or(usize::MAX, |c| c.0);
        (start, end)
    }
}

/// Where the quoted phrase the sentence at `r` opens with ends, when it is then assessed
/// ("2. \"Budget 20% more\" — depends on the growth model."): the phrase under discussion.
fn mentioned_quote(reply: &Reply, r: &Range<usize>) -> Option<usize> {
    // The quotation closes within the sentence or just after it: the rest of the reply is not
    // searched for it once per sentence.
    let plain = reply.plain();
    let s = &plain[r.start..crate::extract::text::ceil_char(plain, (r.end + 80).min(plain.len()))];
    crate::work::add(s.len());
    let lead = s.trim_start_matches(|c: char| {
        c.is_ascii_digit() || c.is_whitespace() || matches!(c, '.' | ')' | '*' | '#' | '-')
    });
    let q = lead.chars().next().filter(|c| matches!(c, '"' | '“'))?;
    let close = if q == '"' { '"' } else { '”' };
    let body = &lead[q.len_utf8()..];
    let end = body.find(close)?;
    let quote_end = r.start + (s.len() - lead.len()) + q.len_utf8() + end;
    let after = body[end + close.len_utf8()..].trim_start_matches(['*', ' ']);
    after.starts_with(['—', '–', ':', '-']).then_some(quote_end)
}
