//! What the harness writes for people: every printed line made inert (no key value, no control
//! character), and the register of key values to mask.

pub mod json;
pub mod log;
pub mod secrets;

/// Text made safe to print or to put in a Markdown report — the one function for it: every
/// configured key masked, and every character that would act instead of show written out as
/// `\u{1b}`: control characters other than newline and tab (ESC, CR, BEL, C1 controls such as
/// CSI), bidi embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069,
/// U+200E/U+200F, U+061C), and the Unicode line and paragraph separators. So a reply cannot
/// clear a terminal, set its title, paint a fake "Gate: PASS", or show one text and be another.
/// `##[` is written `##\u{5b}`: a CI runner reads `##[error]…` anywhere in a line of a log as a
/// workflow command (the older form of `::error::…`), so no printed text may hold it.
pub fn printable(text: &str) -> String {
    let masked = older_command_broken(crate::output::secrets::redact(text), "##\\u{5b}");
    if !masked.chars().any(acts) {
        return masked;
    }
    let mut out = String::with_capacity(masked.len() + 8);
    for c in masked.chars() {
        if acts(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`printable`], and on one line: a path or a text from a pull request (a capsule's name, a
/// link's) printed where a line break would start a line of its own, which a CI log reads as a
/// command (`::error::…` on GitHub Actions). Line breaks and tabs are written `\n`, `\r`, `\t`.
pub fn one_line(text: &str) -> String {
    printable(text).replace('\n', "\\n").replace('\t', "\\t")
}

/// A shell word: as is when safe, else in single quotes (a printed command runs as shown).
pub fn shell_word(a: &str) -> String {
    let safe = !a.is_empty()
        && a.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:=,@+-%".contains(&b));
    if safe {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', r"'\''"))
    }
}

/// `text` with every `##[` written `escaped` (`[` as an escape the reader decodes): the older
/// form of a workflow command, which a runner finds anywhere in a line, then starts nowhere.
fn older_command_broken(text: String, escaped: &str) -> String {
    if text.contains("##[") {
        text.replace("##[", escaped)
    } else {
        text
    }
}

/// A character that changes how the text around it is shown rather than showing itself.
pub fn acts(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}' | '\u{2028}' | '\u{2029}')
}

/// [`printable`] for JSON text: what acts is written as a JSON escape (`\u202e`), so the line
/// stays the same JSON, shows nothing raw, and holds no key.
pub fn printable_json(json: &str) -> String {
    let masked = older_command_broken(crate::output::secrets::redact(json), "##\\u005b");
    if !masked.chars().any(acts) {
        return masked;
    }
    masked
        .chars()
        .map(|c| {
            if acts(c) {
                format!("\\u{:04x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// One JSON document as a line of stdout, through [`printable_json`].
pub fn out_json(json: &str) {
    use std::io::Write;
    let _ = std::io::stdout()
        .lock()
        .write_all(format!("{}\n", printable_json(json)).as_bytes());
}

/// Write `text` to stdout, inert (the `outln!` and `out!` macros); under `--json` (see
/// [`json::set_stdout_json`]) to stderr, as [`err`] does, so stdout holds the document alone.
pub fn out(text: &str) {
    use std::io::Write;
    if json::stdout_json() {
        return err(text);
    }
    let _ = std::io::stdout()
        .lock()
        .write_all(printable(text).as_bytes());
}

/// Where a command's text result is written as it is made (the gate's table, the stories):
/// stdout; under `--json`, stderr (nothing under `-q`), so stdout holds the document alone.
/// What goes through it is inert already.
pub fn text_writer() -> Box<dyn std::io::Write> {
    if !json::stdout_json() {
        Box::new(std::io::stdout().lock())
    } else if quiet() {
        Box::new(std::io::sink())
    } else {
        Box::new(std::io::stderr().lock())
    }
}

/// Write `text` to stderr, inert, in one write (the `errln!` and `err!` macros); nothing
/// under `-q` (see [`set_quiet`]).
pub fn err(text: &str) {
    if !QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        err_always(text);
    }
}

/// [`err`] even under `-q`: the error that stops a command, and the logs the user asked for.
pub fn err_always(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr()
        .lock()
        .write_all(printable(text).as_bytes());
}

static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `-q`: stderr holds only errors and the logs asked for; stdout (the result) is unchanged.
pub fn set_quiet(yes: bool) {
    QUIET.store(yes, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `-q` was given.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_older_form_workflow_command_anywhere_in_a_line_is_written_out() {
        assert_eq!(
            super::printable("x ##[error]forged"),
            "x ##\\u{5b}error]forged"
        );
        let json = super::printable_json(r#"{"path":"a##[error]b"}"#);
        assert_eq!(json, r#"{"path":"a##\u005berror]b"}"#);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["path"], "a##[error]b", "the JSON is the same JSON");
    }

    #[test]
    fn escapes_print_escaped_and_newlines_stay() {
        let s = super::printable("a\u{1b}]0;pwned\u{7}b\u{1b}[2J\nc\td");
        assert_eq!(s, "a\\u{1b}]0;pwned\\u{7}b\\u{1b}[2J\nc\td");
    }

    #[test]
    fn bidi_overrides_isolates_marks_and_c1_controls_print_escaped() {
        let s =
            super::printable("a\u{202e}b\u{202c}c\u{2066}d\u{2069}e\u{200f}f\u{9b}31m\rg\u{2028}h");
        assert_eq!(
            s,
            "a\\u{202e}b\\u{202c}c\\u{2066}d\\u{2069}e\\u{200f}f\\u{9b}31m\\u{d}g\\u{2028}h"
        );
        // Text in any script stays as it is.
        assert_eq!(super::printable("שלום — 日本 — é"), "שלום — 日本 — é");
    }

    #[test]
    fn json_stays_the_same_json_with_nothing_raw() {
        let v = serde_json::json!({"reason": "a\u{202e}b\u{1b}[2J\u{9b}c"});
        let line = super::printable_json(&v.to_string());
        assert!(
            !line.contains('\u{202e}') && !line.contains('\u{9b}'),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<serde_json::Value>(&line).unwrap(), v);
    }
}
