//! The rules a case tests, as the charter names them: `Protocol A` … (a bullet or heading under
//! Verification Protocols), `Invariant 1` … (a numbered item under Core Invariants), `Usage 3`
//! … (a numbered item under Usage Rules) and `P1` … (a procedure under Procedures). A rule is in
//! a charter while its heading or bullet is; deleting it removes it. Read from the Markdown form
//! (`#` headings, `- A Arithmetic:`, `1. **…**`) and from the plain-text rendering (`A —
//! Arithmetic.`, `  1. No unverified numbers.`) alike.

use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Protocol [A-Z]|Invariant [1-9][0-9]?|Usage [1-9][0-9]?|P[1-9][0-9]?)$")
        .unwrap()
});
static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-*•]\s+)?([1-9][0-9]?)[.)]\s+\S").unwrap());
static PROTOCOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[-*•]\s+)?(?:#{1,6}\s+)?(?:\*\*)?(?:Protocol\s+)?([A-Z])(?:\*\*)?(?:\s*[—–:.-]\s*|\s+)(?:\*\*)?[A-Z][a-z]",
    )
    .unwrap()
});
static PROCEDURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*•]\s+)?(?:#{1,6}\s+)?(?:\*\*)?(P[1-9][0-9]?)(?:\*\*)?(?:\s|[—–:.-]|$)")
        .unwrap()
});

/// Whether `name` is written as the charter names a rule: `Protocol A`, `Invariant 1`,
/// `Usage 3` or `P1`.
pub fn is_rule_name(name: &str) -> bool {
    NAME.is_match(name)
}

/// What `rules = [...]` in a case file may name, for an error message.
pub const NAME_FORMS: &str =
    "\"Protocol A\" … \"Protocol Z\", \"Invariant 1\" …, \"Usage 1\" … or \"P1\" …";

#[derive(Clone, Copy, PartialEq)]
enum Family {
    Invariant,
    Protocol,
    Usage,
    Procedure,
}

fn family_of(heading: &str) -> Option<Family> {
    let h = heading.to_ascii_lowercase();
    if h.contains("invariant") {
        Some(Family::Invariant)
    } else if h.contains("protocol") {
        Some(Family::Protocol)
    } else if h.contains("usage") {
        Some(Family::Usage)
    } else if h.contains("procedure") {
        Some(Family::Procedure)
    } else {
        None
    }
}

fn item(family: Family, line: &str) -> Option<String> {
    match family {
        Family::Invariant => NUMBERED
            .captures(line)
            .map(|c| format!("Invariant {}", &c[1])),
        Family::Usage => NUMBERED.captures(line).map(|c| format!("Usage {}", &c[1])),
        Family::Protocol => PROTOCOL
            .captures(line)
            .map(|c| format!("Protocol {}", &c[1])),
        Family::Procedure => PROCEDURE.captures(line).map(|c| c[1].to_string()),
    }
}

/// The rules `text` (a charter's runtime text, the system prompt) holds.
pub fn present(text: &str) -> BTreeSet<String> {
    let headings: std::collections::HashMap<usize, String> =
        crate::suite::charter::headings(text).into_iter().collect();
    let mut family = None;
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        // An item may itself be a heading (`### P1 — Decompose`, or a short plain-text line):
        // it names a rule of the section it is in and does not end that section.
        if let Some(rule) = family.and_then(|f| item(f, line)) {
            out.insert(rule);
            continue;
        }
        if let Some(h) = headings.get(&i) {
            family = family_of(h);
        }
    }
    out
}

/// Per line of `text`, the rule whose text it is: from the rule's own line (its heading,
/// bullet or numbered item) up to the next rule or the next heading that starts no rule. The
/// lines a charter diff touches map to rules through this.
pub fn rule_of_lines(text: &str) -> Vec<Option<String>> {
    let headings: std::collections::HashMap<usize, String> =
        crate::suite::charter::headings(text).into_iter().collect();
    let (mut family, mut current) = (None, None);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(rule) = family.and_then(|f| item(f, line)) {
            current = Some(rule);
        } else if let Some(h) = headings.get(&i) {
            family = family_of(h);
            current = None;
        }
        out.push(current.clone());
    }
    out
}

/// The rules of `wanted` that `text` no longer holds, in order.
pub fn missing<'a>(text: &str, wanted: &'a [String]) -> Vec<&'a str> {
    let have = present(text);
    wanted
        .iter()
        .filter(|r| !have.contains(r.as_str()))
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> String {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/charters/example-charter.md"
        ))
        .unwrap();
        crate::suite::charter::parse("md", &text).unwrap().runtime
    }

    fn plain() -> String {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/charters/reasoning-charter-0.1.0.md"
        ))
        .unwrap();
        crate::suite::charter::parse("txt", &text).unwrap().runtime
    }

    fn all() -> Vec<String> {
        let mut v: Vec<String> = ('A'..='E').map(|c| format!("Protocol {c}")).collect();
        v.extend((1..=5).map(|n| format!("Invariant {n}")));
        v.extend((1..=5).map(|n| format!("Usage {n}")));
        v.extend((1..=3).map(|n| format!("P{n}")));
        v
    }

    #[test]
    fn both_forms_of_the_charter_hold_every_protocol_invariant_usage_rule_and_procedure() {
        for (form, text) in [("markdown", example()), ("plain text", plain())] {
            let have: Vec<String> = present(&text).into_iter().collect();
            let mut want = all();
            want.sort();
            assert_eq!(have, want, "{form}");
        }
    }

    #[test]
    fn a_rule_is_gone_when_its_bullet_or_heading_is_gone() {
        let md = example();
        let without_a: String = md
            .lines()
            .filter(|l| !l.starts_with("- A Arithmetic"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            missing(&without_a, &all()),
            vec!["Protocol A"],
            "deleting the A bullet removes Protocol A only"
        );
        let txt = plain();
        let without_usage_3: String = txt
            .lines()
            .filter(|l| !l.trim_start().starts_with("3. Any T2 task"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(missing(&without_usage_3, &all()), vec!["Usage 3"]);
        let without_p1: String = txt
            .lines()
            .filter(|l| !l.starts_with("P1 — Decompose"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(missing(&without_p1, &all()), vec!["P1"]);
    }

    #[test]
    fn each_line_of_a_rule_maps_to_that_rule_and_a_heading_ends_it() {
        let md = example();
        let of = rule_of_lines(&md);
        let at = |prefix: &str| {
            let i = md.lines().position(|l| l.starts_with(prefix)).unwrap();
            of[i].clone()
        };
        assert_eq!(at("- A Arithmetic").as_deref(), Some("Protocol A"));
        assert_eq!(of.len(), md.lines().count());
        let first_heading = md.lines().position(|l| l.starts_with('#')).unwrap();
        assert_eq!(of[first_heading], None);
    }

    #[test]
    fn rule_names_are_written_as_the_charter_writes_them() {
        for ok in ["Protocol A", "Invariant 5", "Usage 3", "P1"] {
            assert!(is_rule_name(ok), "{ok}");
        }
        for bad in [
            "protocol A",
            "A",
            "Invariant",
            "Usage three",
            "D.2",
            "Protocol AB",
        ] {
            assert!(!is_rule_name(bad), "{bad}");
        }
    }
}
