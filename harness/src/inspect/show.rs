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
    /// Only these cases (E8, e8 and E08 are the same).
    pub cases: Vec<String>,
    /// Only these models, by name.
    pub models: Vec<String>,
    /// Only trials that did not pass.
    pub failed: bool,
}

/// The position of a case in E1 … E13 (natural order, E10 after E9).
fn case_at(case: &str) -> usize {
    checkers::CASE_IDS
        .iter()
        .position(|c| *c == case)
        .unwrap_or(usize::MAX)
}

/// Whether a trial passed.
fn passed(c: &check::Checked) -> bool {
    crate::store::trial::TrialStatus::of(&c.verdict) == crate::store::trial::TrialStatus::Pass
}

/// The transcripts the filters keep, failures first, then by case (natural order), variant,
/// model and trial.
fn selected(
    opts: &ShowOptions,
    suite: &Suite,
    checked: Vec<check::Checked>,
) -> Result<Vec<check::Checked>> {
    let mut cases = Vec::new();
    for c in opts.cases.iter().flat_map(|c| c.split(',')) {
        let id = suite.case(c.trim()).map(|k| k.id.clone()).ok_or_else(|| {
            Error::input(format!(
                "--case {c}: no such case{} (cases are {})",
                crate::error::did_you_mean(c, checkers::CASE_IDS.iter().copied()),
                checkers::case_range()
            ))
        })?;
        cases.push(id);
    }
    let models: Vec<&str> = opts.models.iter().flat_map(|m| m.split(',')).collect();
    if let Some(m) = models
        .iter()
        .find(|m| !checked.iter().any(|c| c.transcript.model == **m))
    {
        let mut known: Vec<&str> = checked
            .iter()
            .map(|c| c.transcript.model.as_str())
            .collect();
        known.sort();
        known.dedup();
        return Err(Error::input(format!(
            "--model {m}: no transcript here is of that model{} (models: {})",
            crate::error::did_you_mean(m, known.iter().copied()),
            known.join(", ")
        )));
    }
    let mut kept: Vec<check::Checked> = checked
        .into_iter()
        .filter(|c| cases.is_empty() || cases.contains(&c.transcript.case))
        .filter(|c| models.is_empty() || models.contains(&c.transcript.model.as_str()))
        .filter(|c| !opts.failed || !passed(c))
        .collect();
    kept.sort_by(|a, b| {
        let key = |c: &check::Checked| {
            (
                passed(c),
                case_at(&c.transcript.case),
                crate::inspect::compare::natural_key(&c.transcript.variant),
                c.transcript.model.clone(),
                c.transcript.trial,
            )
        };
        key(a).cmp(&key(b))
    });
    Ok(kept)
}

/// What makes two trials tell the same story: the unit, the final reply and the verdict.
fn same(a: &check::Checked, b: &check::Checked) -> bool {
    let t = |c: &check::Checked| {
        (
            c.transcript.model.clone(),
            c.transcript.case.clone(),
            c.transcript.variant.clone(),
            c.transcript.final_reply().to_string(),
            passed(c),
            c.verdict
                .criteria
                .iter()
                .filter(|k| !k.pass)
                .map(|k| k.name.clone())
                .collect::<Vec<_>>(),
        )
    };
    t(a) == t(b)
}

/// Each verdict as a line of versioned JSON (`--json`).
fn verdict_lines(checked: &[check::Checked]) -> String {
    let mut out = String::new();
    for c in checked {
        let v = crate::output::json::versioned(crate::output::json::VERDICT, &c.verdict);
        out.push_str(&crate::output::printable_json(&v));
        out.push('\n');
    }
    out
}

/// Each transcript's story under its file name; the trials after it with the same reply and
/// verdict folded into one line.
fn stories(checked: &[check::Checked], story: crate::report::story::StoryOptions) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < checked.len() {
        let c = &checked[i];
        out.push_str(&crate::output::printable(&format!(
            "{}\n",
            c.verdict.file.as_deref().unwrap_or("")
        )));
        out.push_str(&crate::report::story::render(
            &c.transcript,
            &c.verdict,
            story,
        ));
        let mut j = i + 1;
        while j < checked.len() && same(&checked[j], c) {
            j += 1;
        }
        if j > i + 1 {
            let trials: Vec<String> = checked[i + 1..j]
                .iter()
                .map(|k| k.transcript.trial.to_string())
                .collect();
            out.push_str(&crate::output::printable(&format!(
                "── trial(s) {} of {}/{} on {}: the same reply and verdict as trial {}, folded\n",
                trials.join(", "),
                c.transcript.case,
                c.transcript.variant,
                c.transcript.model,
                c.transcript.trial
            )));
        }
        out.push('\n');
        i = j;
    }
    out
}

/// Print every transcript's story (or verdict), failures first and identical trials folded;
/// the exit code of [`check::exit_code`].
pub fn run(opts: &ShowOptions) -> Result<u8> {
    let root = suite::locate(opts.suite.as_deref())?;
    let suite = Suite::load(&root)?;
    let all = check::check_paths(&opts.paths, &suite, None)?;
    let code = check::exit_code(&all);
    let checked = selected(opts, &suite, all)?;
    let story = crate::report::story::StoryOptions {
        color: !opts.json && opts.color,
        seeded: opts.seeded,
        diff: true,
    };
    // Written as made, not through `out!`: a story is inert already and may be coloured.
    let mut out = if opts.json {
        verdict_lines(&checked)
    } else {
        stories(&checked, story)
    };
    if !opts.json {
        let fail = checked.iter().filter(|c| !passed(c)).count();
        out.push_str(&format!(
            "{} transcript(s) shown: {} pass, {} not passing (failures first)\n",
            checked.len(),
            checked.len() - fail,
            fail
        ));
    }
    {
        use std::io::Write;
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
    Ok(code)
}
