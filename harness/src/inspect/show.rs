//! `harness show`: stored transcripts as stories (tool calls, final reply, criteria with
//! evidence, workspace diff), re-checked with the current checkers; or only their verdicts.

use crate::error::{Error, Result};
use crate::inspect::check;
use crate::suite::{self, Suite};
use std::path::PathBuf;

/// What `harness show` shows, and how.
pub struct ShowOptions {
    /// Transcript files, or folders searched for them.
    pub paths: Vec<PathBuf>,
    /// Unfold the seeded turns.
    pub seeded: bool,
    /// Only the verdicts, one JSON object per line.
    pub json: bool,
    /// Colour the stories.
    pub color: bool,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
}

/// Print every transcript's story (or verdict); the exit code of [`check::exit_code`].
pub fn run(opts: &ShowOptions) -> Result<u8> {
    let root = suite::locate(opts.suite.as_deref())?;
    let suite = Suite::load(&root)?;
    let checked = check::check_paths(&opts.paths, &suite, None)?;
    let story = crate::report::story::StoryOptions {
        color: !opts.json && opts.color,
        seeded: opts.seeded,
        diff: true,
    };
    // Written as made, not through `out!`: a story is inert already and may be coloured.
    let mut out = String::new();
    for c in &checked {
        if opts.json {
            out.push_str(&crate::output::inert_json(
                &serde_json::to_string(&c.verdict).map_err(|e| Error::Internal(e.to_string()))?,
            ));
            out.push('\n');
        } else {
            out.push_str(&crate::output::inert(&format!(
                "{}\n",
                c.verdict.file.as_deref().unwrap_or("")
            )));
            out.push_str(&crate::report::story::render(
                &c.transcript,
                &c.verdict,
                story,
            ));
            out.push('\n');
        }
    }
    {
        use std::io::Write;
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
    Ok(check::exit_code(&checked))
}
