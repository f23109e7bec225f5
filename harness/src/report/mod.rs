//! Reporters: they turn runner events and gate results into what people read; the run's
//! reporters as one set in [`reporters`], one trial's view in [`trial`], HTML in [`markup`].

pub mod comparison;
pub mod events;

pub mod files;
pub mod html;
pub mod junit;
pub mod lift;
pub mod markdown;
pub mod markup;
pub mod progress;
pub mod registry;
pub mod reporters;
pub mod story;
pub mod table;
pub mod trial;

pub use reporters::{Console, Reporters};

/// A character XML 1.0 forbids even escaped: the controls but tab, newline and carriage
/// return, and U+FFFE and U+FFFF (a JUnit reader refuses the whole file for one).
pub fn xml_forbidden(c: char) -> bool {
    ((c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t')) || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// Text as XML or HTML character data or attribute value. Characters XML 1.0 forbids even
/// escaped ([`xml_forbidden`]) become U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if xml_forbidden(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
