//! `harness lint`: static checks of charter documents, before any model is called. Findings
//! name the file and line, the rule, and what would satisfy it. A finding is decided (an error
//! or a warning) when structure decides it, and needs a reviewer when only meaning could: the
//! linter never guesses what a reworded sentence means.

pub mod blocks;
pub mod capsule;
pub mod charter;
pub mod fields;
pub mod forms;
pub mod frontmatter;
pub mod headings;
pub mod identity;
pub mod markdown;
pub mod patterns;
pub mod quantities;
pub mod rules;
pub mod signoff;
pub mod versioning;
pub mod words;

use crate::error::Result;
use std::fmt;
use std::path::Path;

/// How a finding weighs, least to worst: a warning never fails; a finding that needs a reviewer
/// is a question the linter cannot answer (exit 3 when it is the worst); an error is decided
/// (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warn,
    NeedsReviewer,
    Error,
}

impl Severity {
    /// The `kind` of `lint --json` and of the pull-request comment.
    pub fn kind(self) -> &'static str {
        match self {
            Severity::Warn => "warning",
            Severity::NeedsReviewer => "needs-reviewer",
            Severity::Error => "error",
        }
    }
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

    /// A finding only a person can settle: the linter shows what changed and does not claim
    /// either reading.
    pub fn needs_reviewer(
        path: &str,
        line: usize,
        rule: &'static str,
        message: String,
        fix: String,
    ) -> Finding {
        Finding {
            severity: Severity::NeedsReviewer,
            ..Finding::error(path, line, rule, message, fix)
        }
    }

    /// One line of `lint --json`: `file`, `line`, `rule`, `kind`, `message`, `fix`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.path,
            "line": self.line,
            "rule": self.rule,
            "kind": self.severity.kind(),
            "message": self.message,
            "fix": self.fix,
        })
    }
}

impl Finding {
    /// The finding as a GitHub Actions workflow command, so it shows on the file's line. A
    /// question for a reviewer is a notice: it must not read as a failure.
    pub fn annotation(&self) -> String {
        let level = match self.severity {
            Severity::Warn => "warning",
            Severity::NeedsReviewer => "notice",
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
            Severity::NeedsReviewer => "NEEDS REVIEWER",
            Severity::Error => "ERROR",
        };
        // One finding, one line: a file named with a line break (a pull request can name its
        // capsules) must not start a line a CI log reads as a command.
        let line = crate::output::one_line;
        write!(
            f,
            "{}:{}: {sev} [{}] {} — fix: {}",
            line(&self.path),
            self.line,
            self.rule,
            line(&self.message),
            line(&self.fix)
        )
    }
}

/// 1-based line of the first line matching `pred`, or 1.
pub fn line_where(text: &str, pred: impl Fn(&str) -> bool) -> usize {
    text.lines().position(pred).map_or(1, |i| i + 1)
}

/// A file's text at `rev` in the git repository holding it.
pub fn text_at_rev(file: &Path, rev: &str) -> Result<Option<String>> {
    let (workdir, rel) = crate::suite::charter::repo_path(file)?;
    match crate::suite::charter::read_from_git(&workdir, rev, &rel) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.to_string().contains("no file") => Ok(None),
        Err(e) => Err(e),
    }
}

/// What `harness lint` checks, and how it prints.
pub struct Lint {
    pub what: LintOptions,
    /// One JSON object a line per finding on stdout (the counts stay on stderr).
    pub json: bool,
}

/// What `harness lint` checks.
pub enum LintOptions {
    /// A reasoning charter; with `base`, its versioning rules against that git revision.
    Charter {
        file: std::path::PathBuf,
        base: Option<String>,
    },
    /// Charter capsules (folders are searched); `strict` makes findings errors; with `base`,
    /// the lock rules against that git revision.
    Capsule {
        paths: Vec<std::path::PathBuf>,
        strict: bool,
        base: Option<String>,
    },
}

/// `harness lint`: print every finding (and, on GitHub Actions, its annotation), for a charter
/// the start of its system prompt, then the counts. 1 on any error, else 3 when a finding needs
/// a reviewer, else 0.
pub fn run(lint: &Lint) -> Result<u8> {
    let opts = &lint.what;
    let findings = match opts {
        LintOptions::Charter { file, base } => charter_findings(file, base.as_deref())?,
        LintOptions::Capsule {
            paths,
            strict,
            base,
        } => capsule_findings(paths, *strict, base.as_deref())?,
    };
    let annotate = std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true");
    for f in &findings {
        if lint.json {
            // As JSON escapes, never the terminal's escaping: the line stays JSON.
            crate::output::json::out_doc(crate::output::json::LINT, &f.json());
            continue;
        }
        outln!("{f}");
        if annotate {
            outln!("{}", f.annotation());
        }
    }
    if let (LintOptions::Charter { file, .. }, false) = (opts, lint.json) {
        let text = crate::files::read::read_text(file, crate::files::read::Kind::Charter)?;
        if let Some(p) = charter::prompt_preview(&text, 6) {
            out!("{p}");
        }
    }
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (errors, questions) = (count(Severity::Error), count(Severity::NeedsReviewer));
    errln!(
        "{} finding(s), {errors} error(s), {questions} needing a reviewer",
        findings.len()
    );
    Ok(exit_code(&findings))
}

/// The worst finding decides: an error fails (1); a question for a reviewer is exit 3, "needs a
/// reviewer" (the workflow lets the gate run and hands it to the pull-request comment).
pub fn exit_code(findings: &[Finding]) -> u8 {
    match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Error) => crate::exit::GATE_FAILED,
        Some(Severity::NeedsReviewer) => crate::exit::NEEDS_REVIEWER,
        _ => crate::exit::OK,
    }
}

fn charter_findings(file: &Path, base: Option<&str>) -> Result<Vec<Finding>> {
    let text = crate::files::read::read_text(file, crate::files::read::Kind::Charter)?;
    let base_text = match base {
        Some(rev) => match text_at_rev(file, rev)? {
            Some(t) => Some(t),
            // The pull request that first adds the charter has nothing to compare with.
            None => {
                errln!(
                    "note: {} is new at {rev}; versioning checks skipped",
                    file.display()
                );
                None
            }
        },
        None => None,
    };
    Ok(charter::lint(
        &file.display().to_string(),
        &text,
        base.zip(base_text.as_deref()),
    ))
}

fn capsule_findings(
    paths: &[std::path::PathBuf],
    strict: bool,
    base: Option<&str>,
) -> Result<Vec<Finding>> {
    let mut out = Vec::new();
    // A charter repository without capsules yet: nothing to lint, nothing wrong.
    let present: Vec<std::path::PathBuf> = paths.iter().filter(|p| p.exists()).cloned().collect();
    for p in paths.iter().filter(|p| !p.exists()) {
        errln!(
            "note: {}: no such file or folder; no capsules to lint there",
            p.display()
        );
    }
    // Markdown files at or under the paths, sorted.
    let files = crate::files::files_under(&present, |p| p.extension().is_some_and(|x| x == "md"))?;
    for file in files {
        let text = crate::files::read::read_text(&file, crate::files::read::Kind::Capsule)?;
        let base_text = match base {
            Some(rev) => Some((rev, text_at_rev(&file, rev)?)),
            None => None,
        };
        out.extend(capsule::lint(
            &file.display().to_string(),
            &text,
            strict,
            base_text.as_ref().map(|(r, t)| (*r, t.as_deref())),
        ));
    }
    Ok(out)
}
