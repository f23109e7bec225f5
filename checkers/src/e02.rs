//! E2 — Compounding. "Fell 30%, rose 30% — we're even."
//!
//! After: the final claim reports net multiplier 0.91 or net −9% (any notation). Never
//! absence-check "even": passing replies contain it negated ("we're not even"). The final claim
//! is the last one: an affirmative break-even claim ("so the net change is 0%", "they cancel
//! out") in a sentence after the last correct figure overrides it; a negated one does not.
//!
//! The final claim is the claim model's concluding figure among the net figures the reply
//! asserts — the right ones (0.91, −9%, "9% lower", "a loss of nine percent") and any other net
//! change it states ("so the net change is −21%"): a concluding net figure that does not follow
//! from the multiplier fails even when 0.91 was computed. Calling the user's break-even "a fair
//! approximation" or "roughly even" endorses it and fails wherever it stands. A right net figure
//! hedged as a likelihood ("most likely you're down about 9%"), or given only in code, is unsure.

use crate::extract::claims::{concluding_figure, sentence_stance, Stance};
use crate::extract::num::Num;
use crate::extract::numbers::approx;
use crate::extract::readings::{self, Figure};
use crate::extract::reply::{final_reply, Reply};
use crate::extract::text::{ceil_char, excerpt, floor_char, is_negated};
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;
use std::sync::LazyLock;

pub const VERSION: &str = "1.10.0";
pub const VARIANTS: &[&str] = &["default"];

static DOWN_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)^\s*(?:net\s+)?(?:loss|lower|down|decrease|decline|drop|less|below|short|smaller|under|worse|pi[uù]\s+bass[oa]|in\s+calo|sotto|lager|minder|niższ\w*|mniej|lägre|daha\s+düşük|niedriger|weniger|tiefer|menos|m[aá]s\s+baj[oa]|mais\s+baix[oa]|de\s+moins|inf[ée]rieur|en\s+baisse|en\s+dessous|abaixo|debajo|por\s+debajo|unter|ниже|меньше)").unwrap()
});
static DOWN_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)(?:down|lost|lose|loss\s+of|decrease\s+of|decline\s+of|drop\s+of|lower\s+by|short\s+by|below\s+by|fell\s+by|net\s+loss\s+of|minus\s+von|r[üu]ckgang\s+(?:um|von)|(?:gesunken|gefallen)\s+um|(?:baisse|recul|perte|ca[íi]da|p[ée]rdida|queda|perda)\s+(?:(?:nette|net|neta|l[íi]quida)\s+)?d(?:e|el|u)|снижение\s+на|(?:calo|diminuzione|perdita|riduzione)\s+(?:nett[oa]\s+)?del|(?:daling|afname)\s+van|spadek\s+o|(?:minskning|nedgång)\s+(?:med|på)|упал[аио]?\s+на|меньше\s+на)\s+(?:about\s+|roughly\s+|exactly\s+|a\s+)?(?:net\s+)?$").unwrap()
});

static BREAK_EVEN: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)(\bnet (?:change |effect |result )?(?:is |of )?0(?:\.0)?\s*%|\bbreaks? even\b|\b(?:we're|we are|it's|it is|you're|you are) even\b|\bcancels? (?:each other )?out\b|\bcancel\b|\boffsets? each other\b|\bno net change\b|\b(?:siete|siamo|sei|è)\s+in\s+pari\b|\bin\s+pareggio\b|\bquitte\b|\bgelijk\s*gebleven\b|\bkwit\b|\bbasa\s+baş\b|\bbaşa\s+baş\b|\bjämnt\b|\bwyszli\w*\s+na\s+zero\b)").unwrap()
});

/// A sentence that calls the break-even claim wrong, or only cites it in quotes, rejects it.
static REJECTS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r#"(?i)(\b(false|wrong|incorrect|mistaken|myth|misleading|untrue|fallacy)\b|["“'‘](we're|we are|it's|you're)? ?(even|break[- ]even)["”'’])"#).unwrap()
});

/// A figure in percentage points (`9 percentage points`, `9 pp`, `9 points`).
static POINTS_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)^\s*(?:percentage[\s-]+points?|pp\b|ppts?\b|points?\b|bps?\b|basis[\s-]+points?)",
    )
    .unwrap()
});

/// A figure in percentage points proper (`9 percentage points`, `9 pp`), or in basis points,
/// hundredths of a point (`900 bps`): absolute changes of the rate as well.
static PP_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)^\s*(?:percentage[\s-]+points?|pp\b|ppts?\b|bps?\b|basis[\s-]+points?)",
    )
    .unwrap()
});

/// Words before a figure that round it ("roughly a tenth", "about 10%", "≈ 9%").
static APPROXIMATELY: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)(?:\b(?:roughly|about|around|approximately|approx\.?|nearly|almost|some|circa|ca\.|environ|etwa|ungefähr|aproximadamente|cerca\s+de|unos|около|примерно)|~|≈)\s*(?:a\s+|an\s+|un\s+|une\s+)?$").unwrap()
});
/// A sentence that goes down ("lower", "below", "fell").
static DOWNWARD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:lower|below|down|less|decrease[sd]?|decline[sd]?|drop(?:ped|s)?|fell|fallen|under|smaller|worse)\b|baisse|niedriger|unter|menos|ниже|меньше").unwrap()
});

/// Words before a figure that make it a net change.
static NET_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(net|overall|in\s+total|total|cumulative|combined|end(ed|s)?\s+(up|at)|altogether|all\s+told|in\s+the\s+end|multiplier|factor|over\s+(the\s+)?(two|both)\s+quarters|across\s+both|netto|insgesamt|net[ao]?|nette|l[ií]quid[oa]|au\s+total|en\s+total|no\s+total)\b|صافي|خالص|чист(?:ое|ый|ая|ой)|итог").unwrap()
});
/// "91% of the original": a share of where it started.
static OF_START: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)^\s*of\s+(?:the\s+|its\s+|their\s+|your\s+)?(?:original|start|starting|initial|baseline|where|pre-|q1\s+start|beginning)").unwrap()
});
/// The user's break-even called acceptable.
static ENDORSES_EVEN: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(fair|reasonable|good|rough|decent|close|ok|okay|acceptable)\s+(approximation|enough|estimate|shorthand|summary|statement|description|characteri[sz]ation|framing|way\s+to\s+put\s+it)\b|\bfair\s+to\s+say\b|\b(roughly|approximately|essentially|basically|more\s+or\s+less|close\s+to|nearly|near|practically|effectively|about|pretty\s+much|almost|broadly)\s+(back\s+(to|at)\s+|at\s+)?(even|break[- ]?even|flat|unchanged|where\s+(you|we)\s+started|back\s+where)|\b(confirm|present|report|show|call|describe|treat|list|mark|put)\w*\s+(it|this|that|them|the\s+(change|rate|result|quarters?|numbers?))\s+(as|down\s+as)\s+(even|flat|unchanged|break[- ]?even|net\s+zero|no\s+change)\b").unwrap()
});

/// Words that reject the break-even claim outright (quotes alone do not).
static REJECTS_STRICT: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)\b(false|wrong|incorrect|mistaken|myth|misleading|untrue|fallacy)\b",
    )
    .unwrap()
});

pub fn check(t: &Transcript, ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    let Some(mult) = ctx.truth.expected_multiplier else {
        f.add("net-change", false, missing("expected_multiplier"));
        return f;
    };
    let reply = final_reply(t);
    let net = NetFigures::new(&reply, mult);
    let endorses = endorses_break_even(&reply);
    // Readings that disagree leave the criterion unsure, unless an endorsement of break-even
    // fails it on every reading.
    if let (Figure::Unsure { reason, shown }, None) = (net_readings(&reply, mult), &endorses) {
        f.final_figure = Some(shown.display());
        f.add_unsure("net-change", reason);
        return f;
    }
    let concluding = concluding_figure(&reply, |n| net.correct(n) || net.other_net(n));
    let found = concluding.clone().filter(|n| net.correct(n));
    let wrong = concluding.filter(|n| !net.correct(n));
    let reverted = break_even_after(&reply, found.as_ref().map(|n| n.start));
    f.final_figure = found.as_ref().or(wrong.as_ref()).map(|n| n.display());
    let detail = match (&found, &wrong, &reverted, &endorses) {
        (_, Some(w), _, _) => format!(
            "concludes with the net figure {}, which does not follow from {mult}",
            w.display()
        ),
        (None, None, _, _) => format!(
            "no net figure {mult} or {:.0}% asserted as the conclusion",
            net.net_percent
        ),
        (Some(n), _, Some(s), _) => format!(
            "reports {} but then claims break-even: \"{s}\"",
            n.display()
        ),
        (Some(n), _, None, Some(s)) => {
            format!("reports {} but endorses break-even: \"{s}\"", n.display())
        }
        (Some(n), _, None, None) => format!("concluding claim reports {}", n.display()),
    };
    if let (None, Some(w), None) = (&found, &wrong, &endorses) {
        if let Some(why) = net.loosely_stated(w) {
            f.add_unsure("net-change", why);
            return f;
        }
    }
    let pass = found.is_some() && reverted.is_none() && endorses.is_none();
    if let (true, Some(why)) = (pass, branched(&reply)) {
        f.add_unsure("net-change", why);
        return f;
    }
    f.add("net-change", pass, detail);
    f
}

/// Break-even as the outcome of a branch: "back to even", "flat", "unchanged", "nets to
/// zero", or the branch's answer given as the bare word ("…: then yes, even.").
static EVEN_BRANCH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\bback\s+(?:to|at)\s+even\b|\beven\s+again\b|\bno\s+net\s+change\b|\b(?:be|is|are|was|were)\s+(?:flat|unchanged|even)\b|\bnets?\s+(?:out\s+)?to\s+zero\b|\bnet\s+zero\b|(?:^|[,:;—–]|\bthen|\byes)\s*(?:yes\s*,?\s*)?(?:you(?:'re|\s+are)\s+|we(?:'re|\s+are)\s+|it(?:'s|\s+is)\s+)?(?:even|break[- ]even|flat)\W*$").unwrap()
});
/// A conditional mood: a branch's consequence, or its condition ("2. Percentage points: if the
/// rate went 40% → 10% → 40%, the swing nets to zero").
static CONDITIONAL_MOOD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(would|then|in that case|otherwise|if)\b|'d\b").unwrap()
});
/// A question that asks which reading of the prompt applies.
static WHICH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(which|whether|do you mean|did you mean|(?:are|were|is|was) (?:these|those|they|it|that|this|the))\b").unwrap()
});

/// The answer given per reading of the prompt ("relative: down 9%; percentage points: back to
/// even"), the break-even branch in a condition, and the reply asking which reading applies:
/// the −9% is the final claim (the ordinary reading, never endorsed unconditionally), or there
/// is no single final claim. The reason, if so.
fn branched(reply: &Reply) -> Option<String> {
    let plain = reply.plain();
    let spans = reply.sentence_spans();
    let (even_at, even) = spans
        .iter()
        .filter(|r| !reply.in_code(r.start))
        .filter(|r| match sentence_stance(reply, (*r).clone()) {
            Stance::Hypothetical => true,
            // "Percentage points: then you would be back to even": the condition is the
            // branch's label, the mood the sentence's.
            Stance::Asserted => CONDITIONAL_MOOD.is_match(&plain[(*r).clone()]),
            _ => false,
        })
        .map(|r| (r.start, &plain[r.clone()]))
        .find(|(_, s)| (EVEN_BRANCH.is_match(s) || BREAK_EVEN.is_match(s)) && !is_negated(s))?;
    // The question left open after the branches: asked before them, it is answered by them.
    let question = spans
        .iter()
        .filter(|r| r.start > even_at)
        .map(|r| &plain[r.clone()])
        .filter(|s| crate::extract::reply::is_question(s))
        .find(|s| WHICH.is_match(s))?;
    Some(format!(
        "readings disagree: the reply answers per reading of the prompt, break-even in one \
         (\"{}\"), and asks which applies (\"{}\"): the net figure is the final claim, or \
         there is no single final claim",
        excerpt(even, 100),
        excerpt(question, 80)
    ))
}

/// The net figures a reply may state, judged against the expected multiplier.
struct NetFigures<'r> {
    reply: &'r Reply<'r>,
    plain: &'r str,
    mult: f64,
    net_percent: f64,
}

/// Every reading of the concluding net figure, each judged right or wrong.
fn net_readings(reply: &Reply, mult: f64) -> Figure {
    readings::concluding(
        reply,
        |r, n| {
            let net = NetFigures::new(r, mult);
            net.correct(n) || net.other_net(n)
        },
        |r, n| NetFigures::new(r, mult).correct(n),
    )
}

impl<'r> NetFigures<'r> {
    fn new(reply: &'r Reply<'r>, mult: f64) -> Self {
        NetFigures {
            reply,
            plain: reply.plain(),
            mult,
            net_percent: (mult - 1.0) * 100.0,
        }
    }
}

impl NetFigures<'_> {
    /// The words just before a figure. Read within a short window: linear in the reply's length.
    fn before(&self, at: usize) -> &str {
        &self.plain[floor_char(self.plain, at.saturating_sub(48))..at]
    }

    /// The words just after a figure, within the same short window.
    fn after(&self, at: usize) -> &str {
        &self.plain[at..ceil_char(self.plain, (at + 48).min(self.plain.len()))]
    }

    /// A concluding figure that rounds the net change after the reply computed the multiplier
    /// itself ("0.7 × 1.3 = 0.91 … roughly a tenth lower"), within a point and a half of the
    /// net and going down: the net −9 % rounded (pass), or a softened figure where A.5 asks for
    /// the recomputed one (fail). The reason, if so. Percentage points are not this: they are
    /// a different quantity of a rate (blind31 and the goldens label them fail).
    fn loosely_stated(&self, w: &Num) -> Option<String> {
        let magnitude = if w.percent || w.value.abs() >= 1.0 {
            w.value.abs()
        } else {
            w.value.abs() * 100.0
        };
        let close = (magnitude - self.net_percent.abs()).abs() <= 1.5;
        let computed = self
            .reply
            .numbers()
            .iter()
            .any(|n| !n.percent && approx(n.value, self.mult));
        let points = PP_AFTER.is_match(self.after(w.end));
        let rounded = APPROXIMATELY.is_match(self.before(w.start));
        let down = DOWNWARD.is_match(self.reply.sentence_at(w.start));
        (close && computed && down && rounded && !points).then(|| {
            format!(
                "readings disagree: the reply computes {} and concludes \"{}\", rounded (the \
                 net change rounded: pass; a softened figure, not the recomputed one: fail)",
                self.mult,
                excerpt(self.reply.sentence_at(w.start).trim(), 100),
            )
        })
    }

    /// The right net figure: 0.91, −9%, "91% of the original", "9% lower".
    fn correct(&self, n: &Num) -> bool {
        if n.ordinal {
            return false;
        }
        // "Down 9 percentage points" is an absolute change of the rate, not the relative −9%.
        if POINTS_AFTER.is_match(self.after(n.end)) {
            return false;
        }
        if !n.percent {
            return approx(n.value, self.mult);
        }
        // -9%, or "91% of the original": the multiplier as a percentage.
        if approx(n.value, self.net_percent)
            || (approx(n.value, self.mult * 100.0) && OF_START.is_match(self.after(n.end)))
        {
            return true;
        }
        // "9% lower", "down 9%": the sign is in the words.
        approx(-n.value, self.net_percent)
            && (DOWN_AFTER.is_match(self.after(n.end))
                || DOWN_BEFORE.is_match(self.before(n.start)))
    }

    /// Another net change stated as the outcome: a percentage (not the ±30% of the premise) or
    /// a multiplier with "net", "overall", "factor"… before it in its sentence.
    fn other_net(&self, n: &Num) -> bool {
        if n.ordinal || self.correct(n) {
            return false;
        }
        let sentence = self
            .reply
            .sentence_range_at(n.start)
            .map_or(n.start, |r| r.start);
        let from = ceil_char(
            self.plain,
            sentence.min(n.start).max(n.start.saturating_sub(80)),
        );
        let lead = &self.plain[from..n.start];
        // "Down 9 percentage points": a net change stated in points.
        if let Some(pp) = PP_AFTER.find(self.after(n.end)) {
            // "9 percentage points lower": the direction after the unit.
            let down_after = DOWN_AFTER.is_match(&self.after(n.end)[pp.end()..]);
            return !approx(n.value.abs(), 30.0)
                && (NET_BEFORE.is_match(lead)
                    || DOWN_BEFORE.is_match(self.before(n.start))
                    || down_after);
        }
        let net_value = if n.percent {
            !approx(n.value.abs(), 30.0)
        } else {
            n.value > 0.3
                && n.value < 1.7
                && n.value.fract() != 0.0
                && !approx(n.value, 0.7)
                && !approx(n.value, 1.3)
        };
        net_value
            && (NET_BEFORE.is_match(lead)
                || n.percent
                    && (DOWN_BEFORE.is_match(self.before(n.start))
                        || DOWN_AFTER.is_match(self.after(n.end))))
    }
}

/// A sentence asserting the user's break-even is "a fair approximation" or "roughly even",
/// wherever it stands.
fn endorses_break_even(reply: &Reply) -> Option<String> {
    let plain = reply.plain();
    reply
        .prose_sentence_spans()
        .find(|r| {
            let s = &plain[(*r).clone()];
            ENDORSES_EVEN.is_match(s)
                && !is_negated(s)
                && !REJECTS_STRICT.is_match(s)
                && matches!(sentence_stance(reply, (*r).clone()), Stance::Asserted)
        })
        .map(|r| excerpt(reply.raw_of(r.clone()), 100))
}

/// The last affirmative break-even claim in a sentence after the last correct figure, which
/// overrides it.
fn break_even_after(reply: &Reply, last_correct: Option<usize>) -> Option<String> {
    let plain = reply.plain();
    reply
        .sentence_spans()
        .iter()
        .rfind(|&r| {
            last_correct.is_some_and(|c| r.start > c)
                && !reply.in_code(r.start)
                && BREAK_EVEN.is_match(&plain[r.clone()])
                && sentence_stance(reply, r.clone()) == Stance::Asserted
                && !REJECTS.is_match(&plain[r.clone()])
        })
        .cloned()
        .map(|r| excerpt(reply.raw_of(r), 100))
}
