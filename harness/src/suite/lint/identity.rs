//! §4 of the capsule definition, read from an Identity section's words: whether it states the
//! agent's role and whether it points to or sums up its lineage. What the words settle is
//! decided; what only meaning could settle is left to a reviewer.

use super::forms::root;
use regex::Regex;
use std::sync::LazyLock;

/// Whether lower-cased `text` holds `words` as whole words (whitespace runs matched loosely).
pub fn mentions(text: &str, words: &str) -> bool {
    let pattern = words
        .split_whitespace()
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join(r"\s+");
    Regex::new(&format!(r"(?:^|[^\w]){pattern}(?:[^\w]|$)")).is_ok_and(|re| re.is_match(text))
}

/// The words that point to or sum up a lineage.
pub static LINEAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:lineage|generations?|predecessors?|successors?|succeed(?:s|ed)?|commissioned|activation (?:registry|entries|records?))\b").unwrap()
});

/// Anything a lineage could be said with in other words: a path, a history, an earlier
/// version or instance.
static LINEAGE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)[/\\]|\.md\b|\b(?:prior|previous|earlier|before|history|histories|origins?|formerly|former|inherit\w*|descend\w*|replac\w*|version\w*|instances?|ancestr\w*|forebears?|heirs?|line of|took over|v\d+|[a-z]\d{1,3})\b").unwrap()
});

/// The role is stated: the Identity holds the role's head phrase (the words before its first
/// comma, semicolon, dash or "and"), or says in so many words what its role is.
pub fn role_stated(lower: &str, role: &str) -> bool {
    let head = role
        .split([',', ';', '(', '—', '–'])
        .next()
        .unwrap_or(role)
        .split(" and ")
        .next()
        .unwrap_or(role)
        .trim();
    mentions(lower, role)
        || (!head.is_empty() && (mentions(lower, head) || in_other_forms(lower, head)))
        || ROLE_STATEMENT.is_match(lower)
}

/// Every content word of the role's head phrase stands in the text in some form of it:
/// "product manager" in "the product-management director".
fn in_other_forms(lower: &str, head: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        t.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 2 && !["the", "and", "for", "of"].contains(w))
            .map(root)
            .collect()
    };
    let (role, text) = (words(head), words(lower));
    !role.is_empty() && role.iter().all(|w| text.contains(w))
}

/// The role said in so many words: "your role is", "its role:", a line headed "Role:".
static ROLE_STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[^\w])(?:your|my|its|the agent's) role(?: is|:)|^\s*(?:[-*]\s+)?\**role\s*:\**\s*\S").unwrap()
});

/// No lineage word, and nothing a lineage could be said with in other words: decided, no
/// reviewer needed.
pub fn no_lineage_at_all(section: &str) -> bool {
    !LINEAGE.is_match(section) && !LINEAGE_CUE.is_match(section)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_role_head_phrase_or_a_role_statement_states_the_role() {
        let t = "you are vela, the chief of staff of the crew.";
        assert!(role_stated(t, "chief of staff and scheduler"));
        assert!(role_stated(
            "you are cosmo, the chief scientist.",
            "chief scientist, keeper of the crew's experiments"
        ));
        assert!(role_stated("your role: you keep the plan.", "planner"));
        assert!(!role_stated(t, "archivist"));
    }

    #[test]
    fn an_identity_without_any_lineage_cue_is_decided() {
        assert!(no_lineage_at_all(
            "You are Vela, the Chief of Staff.\n\nYour role: you keep the plan."
        ));
        assert!(!no_lineage_at_all("You are Vela; see agents/vela/x.md."));
        assert!(!no_lineage_at_all(
            "You are Vela, the fifth of your line of Chiefs."
        ));
    }
}
