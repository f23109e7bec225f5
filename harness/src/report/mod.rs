//! Reporters: they turn runner events and gate results into what people read; the run's
//! reporters as one set in [`reporters`], one trial's view in [`trial`], HTML in [`markup`].

pub mod comparison;
pub mod events;

pub mod control_arm;
pub mod files;
pub mod findings;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod markup;
pub mod progress;
pub mod registry;
pub mod reporters;
pub mod story;
pub mod table;
pub mod trial;
pub mod unsure;

pub use reporters::{Console, Reporters};

/// A character XML 1.0 forbids even escaped: the controls but tab, newline and carriage
/// return, and U+FFFE and U+FFFF (a JUnit reader refuses the whole file for one).
pub fn xml_forbidden(c: char) -> bool {
    ((c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t')) || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// Text as XML or HTML character data or attribute value, each character through
/// [`xml_char`].
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => xml_char(c, &mut out),
        }
    }
    out
}

/// One character of text for XML or HTML: U+FFFD for one XML forbids ([`xml_forbidden`]);
/// written out (`\u{202e}`) for one that would act on the text around it rather than show
/// ([`crate::output::acts`]: bidi overrides, isolates and marks, C1 controls, line
/// separators), as every printed line writes them, so a page cannot show a figure reversed;
/// else as it is. A carriage return stays: XML and HTML read it as a line break.
pub fn xml_char(c: char, out: &mut String) {
    if xml_forbidden(c) {
        out.push('\u{FFFD}');
    } else if c != '\r' && crate::output::acts(c) {
        out.push_str(&format!("\\u{{{:x}}}", c as u32));
    } else {
        out.push(c);
    }
}

/// `text` through [`xml_char`], borrowed when no character changes.
pub fn xml_chars(text: &str) -> std::borrow::Cow<'_, str> {
    let changes = |c: char| xml_forbidden(c) || (c != '\r' && crate::output::acts(c));
    if !text.chars().any(changes) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        xml_char(c, &mut out);
    }
    out.into()
}
