//! Markdown footnotes read where they are referenced: "4.1%[^a]" with "[^a]: assumed — …"
//! reads "4.1% [assumed — …]", so a tag or a derivation given in a footnote stands by its
//! figure. A definition's own marker (`[^a]:` at the start of its line) is left as written.
//! At most 64 definitions a message, each up to 300 characters.

use regex::Regex;
use std::sync::LazyLock;

/// A footnote definition line, and a footnote marker in text.
static DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^[ \t]{0,3}(\[\^[^\]\s]{1,32}\]):[ \t]*(\S[^\n]{0,300})").unwrap()
});
static REF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[\^[^\]\s]{1,32}\](?::)?").unwrap());

/// The footnote definitions of a message, by marker (`[^a]`).
pub fn definitions(raw: &str) -> Vec<(String, String)> {
    if !raw.contains("[^") {
        return Vec::new();
    }
    DEF.captures_iter(raw)
        .take(64)
        .map(|c| (c[1].to_string(), c[2].trim().to_string()))
        .collect()
}

/// `text` with every defined marker replaced by its definition in brackets; `None` when nothing
/// changes.
pub fn resolve(text: &str, defs: &[(String, String)]) -> Option<String> {
    if defs.is_empty() || !text.contains("[^") {
        return None;
    }
    let out = REF.replace_all(text, |c: &regex::Captures| {
        let m = &c[0];
        match defs.iter().find(|(k, _)| k.as_str() == m) {
            Some((_, def)) if !m.ends_with(':') => format!(" [{def}]"),
            _ => m.to_string(),
        }
    });
    (out != text).then(|| out.into_owned())
}
