//! Closure (Protocol C's trigger): any "done", "fixed", "complete" or final answer the model
//! states, in any of its turns — not only the last reply.

use super::reply::{is_question, Reply};
use super::text::is_negated;
use crate::transcript::{Role, Transcript};
use regex::Regex;
use std::sync::LazyLock;

static CLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)(\b(done|fixed|finished|completed?|all set|resolved|ready to (ship|deploy|merge))\b|\b(renamed|updated|changed) (it |the key |them )?everywhere\b)").unwrap()
});
/// Words that make a "done" something other than a claim of it: a plan, a condition, a question.
static NOT_A_CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(once|until|before|after I|when I|will|I'll|let me|going to|if|whether|should|would|can't|cannot|yet)\b").unwrap()
});

/// A sentence that claims closure.
pub fn claims_closure(sentence: &str) -> bool {
    CLOSURE.is_match(sentence)
        && !is_question(sentence)
        && !is_negated(sentence)
        && !NOT_A_CLAIM.is_match(sentence)
}

/// The first assistant turn (message index) that claims closure, with the sentence.
pub fn first_closure(t: &Transcript) -> Option<(usize, String)> {
    t.messages
        .iter()
        .enumerate()
        .skip(t.seeded)
        .filter(|(_, m)| m.role == Role::Assistant && m.has_reply())
        .find_map(|(i, m)| {
            let reply = Reply::parse(&m.content);
            let s = reply.sentences().find(|s| claims_closure(s))?.to_string();
            Some((i, s))
        })
}

#[cfg(test)]
mod tests {
    use super::claims_closure;

    #[test]
    fn done_fixed_and_complete_are_closure_but_plans_and_negations_are_not() {
        for s in [
            "Done.",
            "Fixed: the key is renamed everywhere.",
            "All 5 files renamed — finished.",
            "The rename is complete.",
        ] {
            assert!(claims_closure(s), "{s}");
        }
        for s in [
            "I'll be done once the search is clean.",
            "Not done yet.",
            "Is it done?",
            "Verification is not complete.",
        ] {
            assert!(!claims_closure(s), "{s}");
        }
    }
}
