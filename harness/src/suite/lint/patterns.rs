//! The charter's own regexes: every `/pattern/flags` a case's criteria state in the Evaluation
//! Harness must compile, and likely mistakes are flagged with their evident intent: a character
//! class holding `|` or whole words, an unescaped `.` in a path or a version, an anchor in a
//! pattern that is applied to a whole reply without `m`.

use super::{line_where, Finding, Severity};
use crate::suite::charter::section;
use regex::Regex;
use std::sync::LazyLock;

/// A JavaScript-style literal: opened after a space, `(`, a backtick or a line start, closed
/// by `/` and flags, then a word boundary. `(100−80)/80` and `verified / plausible` are not.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(`])/((?:[^/\s\\]|\\.)(?:[^/\\\n]|\\.)*)/([a-z]*)(?:$|[^\w/])").unwrap()
});
static CASE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(E\d{1,3})\s*[—–-]\s*\S").unwrap());
/// A path or version with a bare `.` between its parts.
static BARE_DOT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^\\])[A-Za-z0-9_]\.(?:md|toml|json|ya?ml|py|txt|rs|\d)").unwrap()
});

/// A `.` between two parts of a name, for the escaped form the fix suggests.
static DOT_BETWEEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Za-z0-9_])\.([A-Za-z0-9])").unwrap());

/// One pattern a case's criterion states.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    pub case: String,
    pub body: String,
    pub flags: String,
    /// The criterion applies it to each line ("a /^INV-\d+/ line", "no line matches …").
    pub per_line: bool,
}

/// Every `/pattern/flags` of the Evaluation Harness section, with the case it belongs to.
pub fn patterns(text: &str) -> Vec<Pattern> {
    let Some(body) = section(text, "Evaluation Harness") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut case = String::new();
    for line in body.lines() {
        if let Some(c) = CASE.captures(line) {
            case = c[1].to_string();
        }
        for c in LITERAL.captures_iter(line) {
            let after = line[c.get(2).map_or(0, |m| m.end())..].trim_start_matches([' ', ')', ',']);
            let before = &line[..c.get(0).map_or(0, |m| m.start())];
            if !case.is_empty() {
                out.push(Pattern {
                    case: case.clone(),
                    body: c[1].to_string(),
                    flags: c[2].to_string(),
                    per_line: after.starts_with("line") || before.contains("no line matches"),
                });
            }
        }
    }
    out
}

/// Findings for the charter's patterns: an error when one does not compile, a warning for a
/// likely mistake, each naming the case, the pattern and what it evidently means.
pub fn lint(path: &str, text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in patterns(text) {
        let shown = format!("/{}/{}", p.body, p.flags);
        let line = line_where(text, |l| l.contains(&shown));
        let inline: String = p.flags.chars().filter(|c| "ims".contains(*c)).collect();
        let rust = if inline.is_empty() {
            p.body.clone()
        } else {
            format!("(?{inline}){}", p.body)
        };
        if let Err(e) = Regex::new(&rust) {
            let first = e
                .to_string()
                .lines()
                .last()
                .unwrap_or("")
                .trim()
                .to_string();
            out.push(Finding::error(
                path,
                line,
                "charter/case-pattern",
                format!(
                    "{}'s criterion pattern {shown} does not compile: {first}",
                    p.case
                ),
                "write the pattern so a regex engine accepts it".into(),
            ));
            continue;
        }
        for (what, intent) in mistakes(&p) {
            out.push(Finding {
                path: path.to_string(),
                line,
                severity: Severity::Warn,
                rule: "charter/case-pattern",
                message: format!(
                    "{}'s criterion pattern {shown}: {what}; its evident intent is {intent} (the checkers follow that intent: cases/README.md, \"Deviations from the charter's literal text\")",
                    p.case
                ),
                fix: format!("write {intent}"),
            });
        }
    }
    out
}

/// The likely mistakes in one pattern, each with the pattern it evidently means.
fn mistakes(p: &Pattern) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for class in classes(&p.body) {
        let inner = &class[1..class.len() - 1];
        let word = inner
            .split(|c: char| !c.is_alphabetic())
            .any(|w| w.len() >= 4);
        if inner.contains('|') || word {
            let literal = format!("\\[{inner}\\]");
            out.push((
                format!(
                    "the character class {class} holds {} and matches any single one of its characters, almost any line",
                    if inner.contains('|') { "`|` and whole words" } else { "a whole word" }
                ),
                format!("/{}/{}", p.body.replacen(&class, &literal, 1), p.flags),
            ));
        }
    }
    if BARE_DOT.is_match(&p.body) {
        let fixed = DOT_BETWEEN.replace_all(&p.body, r"$1\.$2");
        out.push((
            "a `.` in a path or version matches any character".into(),
            format!("/{fixed}/{}", p.flags),
        ));
    }
    let anchored = p.body.starts_with('^') || (p.body.ends_with('$') && !p.body.ends_with("\\$"));
    if anchored && !p.flags.contains('m') && !p.per_line {
        out.push((
            "an anchor without the m flag matches only at the start or end of the whole reply"
                .into(),
            format!("/{}/{}m", p.body, p.flags),
        ));
    }
    out
}

/// The unescaped bracket expressions of a pattern, as written (`[…]`).
fn classes(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '[' => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                if i < chars.len() {
                    out.push(chars[start..=i].iter().collect());
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charter(line: &str) -> String {
        format!("Evaluation Harness\n\n  • {line}\n\nSelf-Verification\n")
    }

    #[test]
    fn e7s_tag_class_is_a_likely_mistake_with_its_bracketed_intent() {
        let f = lint("C.md", &charter("E7 — Over-verification. No line matches /ASSUMED/i or /[(executed|derived|assumed)]/i."));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0]
            .message
            .contains("E7's criterion pattern /[(executed|derived|assumed)]/i"));
        assert!(
            f[0].message.contains(r"/\[(executed|derived|assumed)\]/i"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_bare_dot_an_unflagged_anchor_and_a_broken_pattern_are_found() {
        let f = lint("C.md", &charter("E11 — State. A write matches /CHARTER_STATE.md/ and /^INV-\\d+/ and /(unclosed/, then a /^INV-\\d+/ line."));
        let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(f.len(), 3, "{msgs:?}");
        assert!(msgs[0].contains(r"/CHARTER_STATE\.md/"), "{msgs:?}");
        assert!(msgs[1].contains("/^INV-\\d+/m"), "{msgs:?}");
        assert!(msgs[2].contains("does not compile"), "{msgs:?}");
    }

    #[test]
    fn slashes_in_prose_and_arithmetic_are_not_patterns() {
        let text = charter("E1 — Trap. Forward (100−80)/80; verified / plausible; and/or /INV-1/ and /(violat|break)/i.");
        let bodies: Vec<String> = patterns(&text).into_iter().map(|p| p.body).collect();
        assert_eq!(bodies, ["INV-1", "(violat|break)"]);
        assert!(lint("C.md", &text).is_empty());
    }
}
