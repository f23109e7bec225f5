//! The final reported claim: the value a reply finally reports, not any number present anywhere.
//!
//! Passing replies quote the trap figure while diagnosing it ("25%, not 20%", "the 20% figure
//! uses the wrong base"), so a mention counts as a claim only when it is stated affirmatively.
//! A line opened by a report marker ("Report:", "Answer:", "Bottom line:") is where the final
//! claim lives when there is one; otherwise the last affirmative mention in the reply is.

use super::numbers::Num;
use super::reply::Reply;
use regex::Regex;
use std::sync::LazyLock;

static DIAGNOSTIC_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix)
        (?: \bnot | n't | \bnever | \bno | rather\s+than | instead\s+of | \bvs\.? | \bversus | \bthan
          | \bclaimed | \bclaims? | \bstated | \bsupplied | \bquoted | \balleged | \bsaid | \bgave
          | \byour | \btheir | \bthe\s+(?:supplied|stated|claimed|quoted|original|reported|given|user's) )
        \s+ (?:(?:a|an|the|that|this)\s+)? (?:\$\s?)? $
        "#,
    )
    .unwrap()
});

static DIAGNOSTIC_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix) ^ \s* (?: days? \s+ | increase \s+ | rise \s+ )?
        (?: figure | number | claim | estimate | value
          | (?:is|was|would\s+be) \s+ (?:wrong|incorrect|off|an?\s+(?:error|mistake|miscalculation|undercount))
          | would \s+ (?:undershoot|understate|overstate|under-?budget|fall\s+short)
          | understates | overstates | undershoots | uses | used | comes\s+from | divides | is\s+based\s+on
          | assumes | miscounts | counts\s+(?:only|the\s+gaps?) )
        "#,
    )
    .unwrap()
});

/// Lines that restate what was given or diagnose it: their mentions are never the claim.
static DIAGNOSTIC_LINE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:diagnosis|claimed|claim|supplied|given|premise|trap)\b")
        .unwrap()
});

static REPORT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?im)^[\W_]*(?:(?:short|direct|quick|final|the|my|in\s+short|one-line)\s+)?(?:report|answer|final(?:\s+(?:answer|figure|count))?|conclusion|bottom\s+line|result|recommendation|summary|tl;?dr|verdict)\b.*$").unwrap()
});

/// Whether the mention at `start..end` of `text` is stated as a claim rather than quoted,
/// negated or diagnosed.
pub fn is_affirmative(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    // Regexes see this line only: a search over the rest of the reply per number is quadratic.
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let window_start = floor_char(text, start.saturating_sub(48)).max(line_start);
    let before = &text[window_start..start];
    let after = &text[end..ceil_char(text, (end + 48).min(text.len()))];
    // A figure in quotes on both sides ("the '20%' figure") is cited, not claimed.
    let quoted =
        before.ends_with(['"', '“', '‘', '\'']) && after.starts_with(['"', '”', '’', '\'']);
    !quoted
        && !DIAGNOSTIC_LINE.is_match(&text[line_start..line_end])
        && !DIAGNOSTIC_BEFORE.is_match(before)
        && !DIAGNOSTIC_AFTER.is_match(after)
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
fn ceil_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Numbers stated affirmatively in a reply's prose (code blocks compute, they do not claim),
/// with offsets into its plain text.
pub fn affirmative_numbers(reply: &Reply) -> Vec<Num> {
    affirmative_where(reply, |_| true)
}

/// Affirmative numbers among those `wanted` accepts: the cheap test first, so a reply full of
/// numbers is not read around every one of them.
pub fn affirmative_where(reply: &Reply, wanted: impl Fn(&Num) -> bool) -> Vec<Num> {
    let plain = reply.plain();
    reply
        .numbers()
        .iter()
        .filter(|n| wanted(n) && !reply.in_code(n.start) && is_affirmative(plain, n.start, n.end))
        .cloned()
        .collect()
}

/// The figure a reply finally reports among the numbers `wanted` accepts: the last affirmative
/// one on the report lines if the reply has any (a marker standing alone, as a heading or a bold
/// label, reports the line after it), else the last affirmative one anywhere.
pub fn final_figure(reply: &Reply, wanted: impl Fn(&Num) -> bool) -> Option<Num> {
    let plain = reply.plain();
    let nums: Vec<Num> = affirmative_where(reply, wanted);
    // Numbers are in text order: the last one inside a range is found by binary search, so a
    // reply with thousands of report lines stays linear.
    let last_in = |from: usize, to: usize| {
        let end = nums.partition_point(|n| n.end <= to);
        nums[..end].last().filter(|n| n.start >= from).cloned()
    };
    let from_report = REPORT_LINE
        .find_iter(plain)
        .filter(|m| !reply.in_code(m.start()))
        .filter_map(|m| {
            last_in(m.start(), m.end()).or_else(|| {
                let next = (m.end() + 1).min(plain.len());
                let next_end = plain[next..].find('\n').map_or(plain.len(), |e| next + e);
                last_in(next, next_end)
            })
        })
        .last();
    from_report.or_else(|| nums.last().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(reply: &str) -> Option<f64> {
        final_figure(&Reply::parse(reply), |n| n.percent).map(|n| n.value)
    }

    #[test]
    fn a_quoted_trap_figure_is_not_the_final_claim() {
        assert_eq!(pct("It is 25%, not 20%."), Some(25.0));
        assert_eq!(
            pct("The 20% figure uses the wrong base; the rise is 25%."),
            Some(25.0)
        );
        assert_eq!(pct("Budgeting 20% would undershoot. Use 25%."), Some(25.0));
    }

    #[test]
    fn the_last_affirmative_claim_wins_over_an_earlier_one() {
        assert_eq!(
            pct("Strictly it's 25%, but close enough: budget 20% more."),
            Some(20.0)
        );
    }

    #[test]
    fn a_quoted_report_and_a_diagnosis_line_are_read_as_the_charter_means_them() {
        assert_eq!(
            pct("Diagnosis: 20,000 / 100,000 = 20%.\nReport: \"25%, not 20%.\""),
            Some(25.0)
        );
        assert_eq!(pct("Budget the \"20%\" they quoted? No: 25%."), Some(25.0));
    }

    #[test]
    fn an_answer_first_line_or_a_heading_is_a_report_line() {
        assert_eq!(
            pct("**Short answer: budget 25% more.**\n\nWorking: the claimed 20% divides by 100k. Budgeting 20% is what they proposed."),
            Some(25.0)
        );
        assert_eq!(
            pct("## Answer\n\nThe increase is **25%**.\n\n## Why not 20%\n\nIt is 20% of the new cost."),
            Some(25.0)
        );
    }

    #[test]
    fn figures_inside_code_blocks_are_computed_not_claimed() {
        assert_eq!(
            pct("The increase is 25%.\n\n```python\nprint(f\"{20}%\")  # 20%\n```"),
            Some(25.0)
        );
    }

    #[test]
    fn a_report_line_is_where_the_final_claim_lives() {
        assert_eq!(
            pct("Report: 25%, not 20%.\nDiagnosis: 20,000/100,000 = 20% on the wrong base."),
            Some(25.0)
        );
    }
}
