//! Errors that stop a command, each naming the file, line or variable at fault.

use crate::exit;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: a manifest, charter, case file or command line that cannot be used.
    #[error("{0}")]
    Input(String),
    /// A file operation failed: what was being done, to which path, and what to do next.
    #[error("could not {op} {}: {} — {}", path.display(), reason(source), next_step(source, next.as_deref()))]
    Io {
        /// What was being done, as a verb phrase: "write", "create run folder".
        op: &'static str,
        path: PathBuf,
        source: std::io::Error,
        /// The next step, when the caller knows a better one than the error's kind suggests.
        next: Option<String>,
    },
    #[error("{0}")]
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }
    /// Writing `path` failed (the harness's file errors are nearly all writes).
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::io_op("write", path, source)
    }
    /// `op` on `path` failed: "read", "create run folder", "copy".
    pub fn io_op(op: &'static str, path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            op,
            path: path.to_path_buf(),
            source,
            next: None,
        }
    }
    /// The same error with `step` as its next step (a file error only; others are unchanged).
    pub fn next(self, step: impl Into<String>) -> Self {
        match self {
            Error::Io {
                op, path, source, ..
            } => Error::Io {
                op,
                path,
                source,
                next: Some(step.into()),
            },
            other => other,
        }
    }
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) => exit::USAGE,
            // Writing failed (a full disk, a folder it cannot write): the harness, not the input.
            Error::Io { .. } | Error::Internal(_) => exit::HARNESS_FAILED,
        }
    }
    pub fn report(&self) -> ExitCode {
        self.say();
        ExitCode::from(self.exit_code())
    }
    /// `error: …` on stderr, for a command that stops on this error.
    pub fn say(&self) {
        // Shown under `-q` too: quiet silences notes, never the reason a command stopped.
        crate::output::err_always(&format!("error: {self}\n"));
    }
}

/// An I/O error's reason in words, without the "(os error N)" suffix.
pub fn reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::PermissionDenied => "permission denied".into(),
        K::NotFound => "no such file or folder".into(),
        K::ReadOnlyFilesystem => "read-only file system".into(),
        K::StorageFull => "no space left on the device".into(),
        K::AlreadyExists => "it already exists".into(),
        K::NotADirectory => "a part of the path is not a folder".into(),
        K::IsADirectory => "it is a folder".into(),
        _ => {
            let text = e.to_string();
            let text = match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            let mut c = text.chars();
            match c.next() {
                Some(f) => f.to_lowercase().chain(c).collect(),
                None => text,
            }
        }
    }
}

/// What to do about an I/O error when the caller named no better step.
fn next_step(e: &std::io::Error, given: Option<&str>) -> String {
    use std::io::ErrorKind as K;
    if let Some(s) = given {
        return s.to_string();
    }
    match e.kind() {
        K::PermissionDenied | K::ReadOnlyFilesystem => {
            "check that you may write there, or point the harness at another folder".into()
        }
        K::NotFound => "check the path".into(),
        K::StorageFull => "free some space and run the command again".into(),
        _ => "check the path and the disk, then run the command again".into(),
    }
}

/// `; did you mean "max_steps"?` for serde's "unknown field `max_step`, expected one of …".
fn unknown_key_hint(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return String::new();
    };
    let Some((given, expected)) = rest.split_once('`') else {
        return String::new();
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    did_you_mean(given, known)
}

/// `; did you mean "X"?` for the nearest of `known` within two edits (letter case ignored),
/// else "".
pub fn did_you_mean<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let given = given.to_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::levenshtein(&given, &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map_or(String::new(), |(_, k)| format!("; did you mean {k:?}?"))
}

/// 1-based line of a byte offset, for messages that point into a file.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// Parse TOML into `T`; an error names the file, the line and the problem (an unknown key, a
/// wrong type, a syntax error).
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    if let Some((line, depth)) = toml_too_deep(text) {
        return Err(Error::input(format!(
            "{}, line {line}: arrays or inline tables nested {depth} deep; at most {MAX_TOML_DEPTH} are read",
            path.display()
        )));
    }
    toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| format!(", line {}", line_of(text, s.start)))
            .unwrap_or_default();
        // toml 1.x words a control character by where it stands ("invalid comment
        // character"); the span points at it, so it is named the same everywhere.
        let start = e.span().map_or(0, |s| s.start);
        let message = match e.message().trim() {
            m if m.is_empty() || e.span().is_some_and(|s| has_control(text, s)) => {
                control_character(text, start)
            }
            m => one_line(m),
        };
        // A wrong type or value names the key it is under ("expected u32" alone does not).
        let key = match e.span() {
            Some(s) if e.message().starts_with("invalid ") => {
                key_at(text, s.start).map_or(String::new(), |k| format!(" (key `{k}`)"))
            }
            _ => String::new(),
        };
        Error::input(format!(
            "{}{at}: {message}{key}{}",
            path.display(),
            unknown_key_hint(e.message())
        ))
    })
}

/// The dotted key whose value stands at `offset`: the `key =` on its line, under the last
/// `[table]` or `[[array]]` header above it (`run.trials`, `models.max_concurrency`).
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text[line_start..].split_once('=')?;
    let key = key.trim().trim_matches('"');
    if key.is_empty() || key.contains(['[', '{', '#']) {
        return None;
    }
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|h| h.trim_matches(['[', ']']).trim().to_string());
    Some(match table {
        Some(t) if !t.is_empty() => format!("{t}.{key}"),
        _ => key.to_string(),
    })
}

/// Whether `text[span]` holds a character TOML allows nowhere (see [`control_character`]).
fn has_control(text: &str, span: std::ops::Range<usize>) -> bool {
    let b = text.as_bytes();
    // An empty span points at the character itself, or (a lone CR) just after it.
    (span.start.saturating_sub(1)..span.end.max(span.start + 1))
        .take_while(|&i| i < b.len())
        .any(|i| is_control_byte(b, i))
}

fn is_control_byte(bytes: &[u8], i: usize) -> bool {
    let b = bytes[i];
    (b < 0x20 && b != b'\t' && b != b'\n' && !(b == b'\r' && bytes.get(i + 1) == Some(&b'\n')))
        || b == 0x7f
}

/// The problem the TOML parser gave no words for: a control character (U+0000–U+001F but tab,
/// DEL, or a CR not before LF), which TOML allows nowhere, comments included.
fn control_character(text: &str, from: usize) -> String {
    let bytes = text.as_bytes();
    let bad = |i: usize| is_control_byte(bytes, i);
    let at = (from.min(bytes.len())..bytes.len())
        .chain(0..from.min(bytes.len()))
        .find(|&i| bad(i));
    match at {
        Some(i) => format!(
            "a control character (U+{:04X}) at line {}, which TOML allows nowhere, comments included — delete it",
            bytes[i],
            line_of(text, i)
        ),
        None => "TOML syntax error (the parser gave no detail)".into(),
    }
}

/// At most `MAX_ECHO` characters of `text` on one line: an error echoes values from the input,
/// and a 200 KB value or one with line breaks must not flood or forge the terminal.
pub fn one_line(text: &str) -> String {
    const MAX_ECHO: usize = 240;
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let n = flat.chars().count();
    if n <= MAX_ECHO {
        return flat;
    }
    let head: String = flat.chars().take(MAX_ECHO).collect();
    format!("{head}… ({n} characters in all)")
}

/// How deep TOML arrays and inline tables may nest (a manifest or case needs three or four).
pub const MAX_TOML_DEPTH: usize = 32;

/// The line where `[`/`{` values first nest deeper than `MAX_TOML_DEPTH`, and how deep, found
/// before the parser recurses. Strings and comments are skipped; a table header `[[a.b]]` at
/// the start of a line is not nesting.
fn toml_too_deep(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let (mut i, mut depth, mut line) = (0usize, 0usize, 1usize);
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'') => {
                let triple = b[i..].starts_with(&[q, q, q]);
                let close: &[u8] = if triple { &b[i..i + 3] } else { &b[i..i + 1] };
                i += close.len();
                while i < b.len() && !b[i..].starts_with(close) {
                    if b[i] == b'\\' && q == b'"' {
                        i += 1;
                    } else if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += close.len();
                continue;
            }
            b'[' | b'{' if depth > 0 || !at_line_start(b, i) => {
                depth += 1;
                if depth > MAX_TOML_DEPTH {
                    return Some((line, depth));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn at_line_start(b: &[u8], i: usize) -> bool {
    b[..i]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|c| c.is_ascii_whitespace() || *c == b'[')
}
