//! Reporters: they turn runner events and gate results into what people read.

pub mod files;
pub mod html;
pub mod junit;
pub mod lift;
pub mod markdown;
pub mod progress;
pub mod registry;
pub mod story;
pub mod table;

/// Model or server text made safe to print or to put in a report: every configured key masked,
/// and control characters other than newline and tab shown escaped (`\u{1b}`), so a reply cannot
/// clear a terminal, set its title or paint a fake "Gate: PASS".
pub fn inert(text: &str) -> String {
    let masked = crate::secrets::redact(text);
    if !masked
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return masked;
    }
    let mut out = String::with_capacity(masked.len() + 8);
    for c in masked.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Text as XML or HTML character data or attribute value. Control characters XML 1.0 forbids
/// even escaped become U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_print_escaped_and_newlines_stay() {
        let s = super::inert("a\u{1b}]0;pwned\u{7}b\u{1b}[2J\nc\td");
        assert_eq!(s, "a\\u{1b}]0;pwned\\u{7}b\\u{1b}[2J\nc\td");
    }
}
