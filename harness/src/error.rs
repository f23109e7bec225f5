//! Errors that stop a command, each naming the file, line or variable at fault.

use crate::exit;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: a manifest, charter, case file or command line that cannot be used.
    #[error("{0}")]
    Input(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
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

/// `; did you mean "max_steps"?` for serde's "unknown field `max_step`, expected one of …".
fn unknown_key_hint(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return String::new();
    };
    let Some((given, expected)) = rest.split_once('`') else {
        return String::new();
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    crate::suite::did_you_mean(given, known)
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
    let bytes =
        std::fs::read(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
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
