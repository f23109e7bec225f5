//! Placeholders where the charter asks for substance: "TBD", "to be determined", "TODO",
//! "pending", "…", a bracketed template (`<invariant>`, `[fill in]`). An INV line that says only
//! "INV-1: TBD" names no constraint; a criterion that needs the substance does not count it.

use regex::Regex;
use std::sync::LazyLock;

static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:tbd|tba|tbc|todo|fixme|xxx+|n/?a|pending|none yet|to\s+be\s+(?:determined|decided|defined|confirmed|added|filled(?:\s+in)?|written)|fill\s+(?:in|me)|placeholder|\.{2,}|…|\?+|<[^<>]*>|\[[^\[\]]*\]|\{[^{}]*\})$").unwrap()
});

/// Whether `value` (the text after a label such as "INV-1:") holds no substance: empty, or
/// only a placeholder, once markdown emphasis and closing punctuation are stripped.
pub fn is_placeholder(value: &str) -> bool {
    let v = value
        .trim()
        .trim_matches(|c: char| matches!(c, '*' | '_' | '`' | '"' | '\'' | '“' | '”'))
        .trim_end_matches(['.', ';', ','])
        .trim();
    v.is_empty() || PLACEHOLDER.is_match(v)
}

#[cfg(test)]
mod tests {
    use super::is_placeholder;

    #[test]
    fn placeholders_hold_no_substance_and_content_does() {
        for v in [
            "TBD",
            " to be determined.",
            "**TODO**",
            "…",
            "<invariant>",
            "[fill in]",
            "",
            "pending",
        ] {
            assert!(is_placeholder(v), "{v:?}");
        }
        for v in [
            "public API unchanged",
            "no occurrence of db_timeout remains",
            "N/A for T0 replies only",
        ] {
            assert!(!is_placeholder(v), "{v:?}");
        }
    }
}
