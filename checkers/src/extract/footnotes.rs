//! Markdown footnotes read where they are referenced: "4.1%[^a]" with "[^a]: assumed — …"
//! reads "4.1% [assumed — …]", so a tag or a derivation given in a footnote stands by its
//! figure. A definition's own marker (`[^a]:` at the start of its line) is left as written.
//! The same in the other way authors write footnotes: superscript numerals ("4,1 %²" with a
//! line `² [assumed] …`), the marker starting a line being the definition; a superscript with
//! no definition line (an exponent, "m²") is left as written.
//! At most 64 definitions a message, each up to 300 characters.

use regex::Regex;
use std::sync::LazyLock;

/// A footnote definition line, and a footnote marker in text.
static DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^[ \t]{0,3}(\[\^[^\]\s]{1,32}\]):[ \t]*(\S[^\n]{0,300})").unwrap()
});
static REF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[\^[^\]\s]{1,32}\](?::)?").unwrap());
/// A definition line opened by superscript numerals, and such a marker in text: not at a line
/// start, where it opens its definition, nor after a sentence's closing stop, where it notes the
/// sentence and not a figure (resolved there, the note would become the sentence's last word).
static SUP_DEF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^[ \t]{0,3}([¹²³⁴-⁹⁰]{1,3})[ \t]*(\S[^\n]{0,300})").unwrap());
static SUP_REF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)(^[ \t]{0,3}|[.!?。])?([¹²³⁴-⁹⁰]{1,3})").unwrap());

/// The footnote definitions of a message, by marker (`[^a]`).
pub fn definitions(raw: &str) -> Vec<(String, String)> {
    let sup = raw.contains(is_superscript);
    if !raw.contains("[^") && !sup {
        return Vec::new();
    }
    let markdown = DEF.captures_iter(raw);
    let superscript = SUP_DEF.captures_iter(raw).filter(|_| sup);
    markdown
        .chain(superscript)
        .take(64)
        .map(|c| (c[1].to_string(), c[2].trim().to_string()))
        .collect()
}

fn is_superscript(c: char) -> bool {
    matches!(c, '¹' | '²' | '³' | '⁰' | '⁴'..='⁹')
}

/// `text` with every defined marker replaced by its definition in brackets; `None` when nothing
/// changes.
pub fn resolve(text: &str, defs: &[(String, String)]) -> Option<String> {
    if defs.is_empty() || !(text.contains("[^") || text.contains(is_superscript)) {
        return None;
    }
    let out = REF.replace_all(text, |c: &regex::Captures| {
        let m = &c[0];
        match defs.iter().find(|(k, _)| k.as_str() == m) {
            Some((_, def)) if !m.ends_with(':') => format!(" [{def}]"),
            _ => m.to_string(),
        }
    });
    let out = SUP_REF.replace_all(&out, |c: &regex::Captures| {
        let m = &c[2];
        match defs.iter().find(|(k, _)| k.as_str() == m) {
            Some((_, def)) if c.get(1).is_none() => format!(" [{def}]"),
            _ => c[0].to_string(),
        }
    });
    (out != text).then(|| out.into_owned())
}
