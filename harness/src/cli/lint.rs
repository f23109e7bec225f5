//! `harness lint`: static checks of a charter (`lint charter`) or of charter capsules
//! (`lint capsule`), before any model is called.

use crate::error::Result;
use crate::suite::lint::{self, LintOptions};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(super) enum LintCommand {
    /// A reasoning charter: runtime marker, semver version line, Core Invariants, every listed
    /// E-case has a checker and every checker's case is listed; with --base, the charter's
    /// versioning rules. Warns of text above the title (web page chrome copied with the
    /// charter) and shows the first lines of the system prompt a run would send. Exit: 0 clean
    /// or warnings only, 1 findings, 2 unreadable input.
    Charter {
        file: PathBuf,
        /// Compare with the charter at this git revision (same path, read with git2).
        #[arg(long)]
        base: Option<String>,
    },
    /// Charter capsules: every Markdown file (folders are searched) with frontmatter
    /// `type: charter`, by the capsule definition's §7 validation checks 1–8, §4 Identity
    /// content and §8 forbidden patterns; with --base, its §6 lock semantics. Each finding
    /// cites its section and check. Findings are WARN (exit 0) unless --strict (exit 1).
    Capsule {
        /// Files or folders to lint; without one, vault/files (where a charter repository
        /// keeps its capsules).
        #[arg(default_value = "vault/files")]
        paths: Vec<PathBuf>,
        /// The v2.0.0 ERROR ratchet: findings are errors and exit 1.
        #[arg(long)]
        strict: bool,
        /// Compare each file with itself at this git revision for the lock rules.
        #[arg(long)]
        base: Option<String>,
    },
}

pub(super) fn run(cmd: LintCommand) -> Result<u8> {
    lint::run(&match cmd {
        LintCommand::Charter { file, base } => LintOptions::Charter { file, base },
        LintCommand::Capsule {
            paths,
            strict,
            base,
        } => LintOptions::Capsule {
            paths,
            strict,
            base,
        },
    })
}
