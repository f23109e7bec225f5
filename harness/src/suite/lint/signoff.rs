//! Whether a change to a locked capsule records the lock-break §6 asks for: "Lock-break
//! required (Mike signoff per OS Invariant)". The definition records its own amendments as a
//! note naming Mike's signed lock-break (`v1_0_3_amendment_note: … per Mike-A103 signed
//! lock-break ('approved')`) and as `locked_signoff: Mike-A69 verbatim 'yes, proceed'`; authors
//! write the same record under their own key (`lock_break:`, `lock_break_note:`) or as a line of
//! the body. A record is a signoff when it names Mike signing or approving, and nothing in it
//! says the signoff is not given (self-approved, pending, requested, unsigned).

use regex::Regex;
use std::sync::LazyLock;

/// A front matter key that holds a lock-break record.
pub fn is_record_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['-', ' '], "_");
    k == "locked_signoff"
        || k.ends_with("amendment_note")
        || k.contains("lock_break")
        || k.contains("lockbreak")
        || k.contains("signoff")
        || k.contains("sign_off")
}

static MIKE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\bmike\b").unwrap());
static SIGNS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:signed|signs|sign-off|signoff|approved|approves|approval|verbatim|yes, proceed|lock-break|lock break)\b").unwrap()
});
static NOT_GIVEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:self[- ]?(?:approved|approval|signed|signoff|sign-off)|pending|awaiting|unsigned|not (?:yet )?(?:signed|approved|given)|to be (?:signed|approved)|will (?:sign|approve)|tbd|to follow|requested (?:from|of)|request (?:to|for)|without (?:mike|a |his |signoff|sign-off|approval))").unwrap()
});

/// The text records Mike's signoff of a lock-break.
pub fn signs(text: &str) -> bool {
    MIKE.is_match(text) && SIGNS.is_match(text) && !NOT_GIVEN.is_match(text)
}

/// A line the head's body adds that records Mike's signed lock-break.
pub fn body_records(base: &str, head: &str) -> bool {
    let before: Vec<&str> = base.lines().map(str::trim).collect();
    head.lines()
        .map(str::trim)
        .any(|l| !before.contains(&l) && l.to_lowercase().contains("lock") && signs(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_naming_mikes_signoff_signs_and_a_self_approval_does_not() {
        for t in [
            "Mike-A121 signed lock-break ('approved') 2026-08-02 — role renamed",
            "v1.0.0 → v1.0.1 amendment 2026-11-30 per Mike-A104 signed lock-break ('approved')",
            "Mike-A69 verbatim 'yes, proceed' 2026-05-17",
            "approved by Mike 2026-08-02",
        ] {
            assert!(signs(t), "{t}");
        }
        for t in [
            "vela-v49 self-approved lock-break 2026-08-02 — role rename",
            "lock-break requested from Mike 2026-08-02",
            "Mike signoff pending",
            "typo fixes",
            "signed lock-break ('approved') by argus-a104",
        ] {
            assert!(!signs(t), "{t}");
        }
        assert!(is_record_key("lock_break") && is_record_key("lock_break_note"));
        assert!(is_record_key("v1_0_1_amendment_note") && is_record_key("locked_signoff"));
        assert!(!is_record_key("role") && !is_record_key("modified_by"));
    }
}
