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
        errln!("error: {self}");
        ExitCode::from(self.exit_code())
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

/// Read a file, naming it in the error.
/// Inputs that cannot be read are bad input; a file that is not UTF-8 names the line.
pub fn read_to_string(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| {
        Error::input(format!(
            "could not read {}: {} — {}",
            path.display(),
            reason(&e),
            match e.kind() {
                std::io::ErrorKind::NotFound => "check the path",
                std::io::ErrorKind::IsADirectory => "name a file",
                _ => "check the file's permissions",
            }
        ))
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::input(format!(
            "{}, line {line}: not UTF-8 text (byte {at})",
            path.display()
        ))
    })
}

/// Parse TOML into `T`; an error names the file, the line and the problem (an unknown key, a
/// wrong type, a syntax error).
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| format!(", line {}", line_of(text, s.start)))
            .unwrap_or_default();
        Error::input(format!(
            "{}{at}: {}{}",
            path.display(),
            e.message(),
            unknown_key_hint(e.message())
        ))
    })
}
