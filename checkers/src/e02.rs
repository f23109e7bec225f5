//! E2 — Compounding. "Fell 30%, rose 30% — we're even."
//!
//! After: the final claim reports net multiplier 0.91 or net −9% (any notation). Never
//! absence-check "even": passing replies contain it negated ("we're not even").

use crate::extract::claims::affirmative_numbers;
use crate::extract::numbers::approx;
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;
use std::sync::LazyLock;

pub const VERSION: &str = "1.0.0";
pub const VARIANTS: &[&str] = &["default"];

static DOWN_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:net\s+)?(?:loss|lower|down|decrease|decline|drop|less|below|short|smaller|under|worse)").unwrap()
});
static DOWN_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:down|lost|lose|loss\s+of|decrease\s+of|decline\s+of|drop\s+of|lower\s+by|short\s+by|below\s+by|fell\s+by|net\s+loss\s+of)\s+(?:about\s+|roughly\s+|exactly\s+|a\s+)?$").unwrap()
});

pub fn check(t: &Transcript, ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    let Some(mult) = ctx.truth.expected_multiplier else {
        f.add("net-change", false, missing("expected_multiplier"));
        return f;
    };
    let reply = t.final_reply();
    let net_percent = (mult - 1.0) * 100.0;
    let found = affirmative_numbers(reply).into_iter().find(|n| {
        if !n.percent {
            return approx(n.value, mult);
        }
        if approx(n.value, net_percent) {
            return true;
        }
        // "9% lower", "down 9%": the sign is in the words.
        approx(-n.value, net_percent)
            && (DOWN_AFTER.is_match(&reply[n.end..]) || DOWN_BEFORE.is_match(&reply[..n.start]))
    });
    f.final_figure = found.as_ref().map(|n| n.display());
    f.add(
        "net-change",
        found.is_some(),
        found.map_or(
            format!("no affirmative net figure {mult} or {net_percent:.0}% in the final reply"),
            |n| format!("final claim reports {}", n.display()),
        ),
    );
    f
}
