//! `harness lint`: static checks of charter documents, before any model is called. Findings
//! name the file and line, the rule, and what would satisfy it.

pub mod capsule;
pub mod charter;

use crate::error::Result;
use std::fmt;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: String,
    pub line: usize,
    pub severity: Severity,
    /// A stable rule id, e.g. `charter/version-bump` or `capsule/check-6`.
    pub rule: &'static str,
    pub message: String,
    /// What would satisfy the rule.
    pub fix: String,
}

impl Finding {
    pub fn error(
        path: &str,
        line: usize,
        rule: &'static str,
        message: String,
        fix: String,
    ) -> Finding {
        Finding {
            path: path.to_string(),
            line,
            severity: Severity::Error,
            rule,
            message,
            fix,
        }
    }
}

impl Finding {
    /// The finding as a GitHub Actions workflow command, so it shows on the file's line.
    pub fn annotation(&self) -> String {
        let level = match self.severity {
            Severity::Warn => "warning",
            Severity::Error => "error",
        };
        // Workflow commands take %, CR and LF escaped; properties also , and :.
        let data = |s: &str| {
            s.replace('%', "%25")
                .replace('\r', "%0D")
                .replace('\n', "%0A")
        };
        let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
        format!(
            "::{level} file={},line={},title={}::{}",
            prop(&self.path),
            self.line,
            prop(self.rule),
            data(&format!("{} — fix: {}", self.message, self.fix))
        )
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warn => "WARN",
            Severity::Error => "ERROR",
        };
        write!(
            f,
            "{}:{}: {sev} [{}] {} — fix: {}",
            self.path, self.line, self.rule, self.message, self.fix
        )
    }
}

/// 1-based line of the first line matching `pred`, or 1.
pub fn line_where(text: &str, pred: impl Fn(&str) -> bool) -> usize {
    text.lines().position(pred).map_or(1, |i| i + 1)
}

/// A file's text at `rev` in the git repository holding it.
pub fn text_at_rev(file: &Path, rev: &str) -> Result<Option<String>> {
    let (workdir, rel) = crate::charter::repo_path(file)?;
    match crate::charter::read_from_git(&workdir, rev, &rel) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.to_string().contains("no file") => Ok(None),
        Err(e) => Err(e),
    }
}
