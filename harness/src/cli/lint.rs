//! `harness lint`: static checks of a charter (`lint charter`) or of charter capsules
//! (`lint capsule`), before any model is called.

use crate::error::Result;
use crate::suite::lint::{self, Lint, LintOptions};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct LintArgs {
    #[command(subcommand)]
    what: LintCommand,
    /// One JSON object a line per finding: file, line, rule, kind (error | warning |
    /// needs-reviewer), message, fix.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
pub(super) enum LintCommand {
    /// A reasoning charter's structure; with --base, its versioning rules.
    ///
    /// Checks the runtime marker, the semver version line (Markdown emphasis allowed), Core
    /// Invariants, that every listed E-case has a checker and every checker's case is listed,
    /// and that every regex a case's criteria state compiles and looks like what it evidently
    /// means. Reads the charter as a document, from its title down: page chrome, HTML
    /// comments, line endings, wrapping and typographic punctuation are not content. Warns of
    /// text above the title and of E-cases this harness cannot test, and shows the first lines
    /// of the system prompt a run would send. With --base, pairs every block with its content in
    /// the base wherever it stands: a change to a number, threshold, negation, quantifier, modal
    /// or list, a move across the runtime marker, a block added or deleted is decided in every
    /// section; content words changed with none of these need a reviewer when the version bump
    /// would differ between its readings. Exit: 0 clean or warnings only, 1 a decided finding,
    /// 3 the worst finding needs a reviewer, 2 unreadable input.
    Charter {
        file: PathBuf,
        /// Compare with the charter at this git revision (same path, read with git2).
        #[arg(long)]
        base: Option<String>,
    },
    /// Charter capsules: §7 validation, §4 Identity content, §8 patterns, §6 locks.
    ///
    /// Every Markdown file (folders are searched) with frontmatter `type: charter`, by the
    /// capsule definition's §7 validation checks 1–8, §4 Identity content and §8 forbidden
    /// patterns; with --base, its §6 lock semantics. Each finding cites its section and check.
    /// Findings are WARN (exit 0) unless --strict (exit 1). Whether the Identity narrative
    /// states the role or the lineage is a question of meaning: the words found pass it, an
    /// Identity with nothing that could say a lineage is a finding, otherwise their absence
    /// needs a reviewer (exit 3 when that is the worst). A named path that does not exist: exit 2.
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

/// The default vault/files is the repository's, read at its root from a subfolder; missing,
/// it is a repository without capsules yet. A path named on the command line that does not
/// exist is a usage error (exit 2).
fn capsule_paths(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    match paths.as_slice() {
        [one] if one == std::path::Path::new("vault/files") => Ok(vec![super::at_root(one)]),
        _ => match paths.iter().find(|p| p.symlink_metadata().is_err()) {
            Some(p) => Err(crate::error::Error::input(format!(
                "lint capsule: {}: no such file or folder",
                p.display()
            ))),
            None => Ok(paths),
        },
    }
}

pub(super) fn run(args: LintArgs) -> Result<u8> {
    let what = match args.what {
        LintCommand::Charter { file, base } => LintOptions::Charter { file, base },
        LintCommand::Capsule {
            paths,
            strict,
            base,
        } => LintOptions::Capsule {
            paths: capsule_paths(paths)?,
            strict,
            base,
        },
    };
    lint::run(&Lint {
        what,
        json: args.json,
    })
}
