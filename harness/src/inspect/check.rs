//! `harness check`: re-check stored transcripts offline with the current checkers. Needs no
//! manifest and no network; case files are read fresh on every call.

use crate::error::{Error, Result};
use crate::exit;
use crate::store::labels::{by_label, key_of, label_command, Deciding, DECIDING_LABELS};
use crate::store::trial::TrialStatus;
use crate::store::{read_transcript, transcript_files};
use crate::suite::case::recheck;
use crate::suite::manifest::UnsurePolicy;
use crate::suite::Suite;
use checkers::Verdict;
use std::path::{Path, PathBuf};

/// A fresh verdict and the one stored in the transcript when it was written, if any.
pub struct Checked {
    pub verdict: Verdict,
    pub stored: Option<Verdict>,
    pub transcript: checkers::Transcript,
}

impl Checked {
    /// How the fresh verdict differs from the stored one: outcome or checker code.
    pub fn change(&self) -> Option<String> {
        let old = self.stored.as_ref()?;
        let (was, now) = (TrialStatus::of(old), TrialStatus::of(&self.verdict));
        let code_changed = old.checker_version != self.verdict.checker_version
            || old.checker_source_sha256 != self.verdict.checker_source_sha256;
        (was != now).then(|| {
            let code = if code_changed {
                format!(
                    " (checker {} → {})",
                    old.checker_version, self.verdict.checker_version
                )
            } else {
                String::new()
            };
            format!(
                "{} → {}{code}",
                format!("{was:?}").to_uppercase(),
                format!("{now:?}").to_uppercase()
            )
        })
    }
}

/// Check every transcript at or under `paths`. `core_invariants` overrides the section read
/// from each transcript's own system prompt.
pub fn check_paths(
    paths: &[PathBuf],
    suite: &Suite,
    core_invariants: Option<&str>,
) -> Result<Vec<Checked>> {
    let files = transcript_files(paths)?;
    if files.is_empty() {
        return Err(Error::input(format!(
            "no transcript files under {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    // Unsure verdicts are decided by the charter repository's labels, as a gate decides them.
    let deciding = Deciding::load(Path::new(DECIDING_LABELS), UnsurePolicy::Label)?;
    let mut verdicts = Vec::new();
    for file in files {
        let t = read_transcript(&file)?;
        let case = suite.case_of(&t, &file)?;
        let mut v = recheck(&t, case, core_invariants, &file.display().to_string())?;
        deciding.apply(&t, &mut v);
        v.file = Some(file.display().to_string());
        let stored = t.checker.clone();
        verdicts.push(Checked {
            verdict: v,
            stored,
            transcript: t,
        });
    }
    Ok(verdicts)
}

/// 0 all pass, 1 any fail, 3 none failed but some inconclusive or unsure (needing a label).
pub fn exit_code(checked: &[Checked]) -> u8 {
    let statuses: Vec<TrialStatus> = checked
        .iter()
        .map(|c| TrialStatus::of(&c.verdict))
        .collect();
    if statuses.contains(&TrialStatus::Fail) {
        exit::GATE_FAILED
    } else if statuses.contains(&TrialStatus::Inconclusive)
        || statuses.contains(&TrialStatus::Unsure)
    {
        exit::INCONCLUSIVE
    } else {
        exit::OK
    }
}

/// With `verbose`, one block per verdict (its status line and failed criteria); always, every
/// verdict that changed against the stored one (a checker bump never flips a gate silently)
/// with its block; last, one line: transcripts, pass / fail / inconclusive, verdicts changed.
pub fn render(checked: &[Checked], verbose: bool) -> String {
    let mut out = String::new();
    if verbose {
        out.push_str(&every_verdict(checked));
    }
    let changed = changed_verdicts(checked);
    if !changed.is_empty() {
        out.push_str(&format!(
            "{}Verdicts that changed against the stored ones ({}):\n",
            if out.is_empty() { "" } else { "\n" },
            changed.len()
        ));
        out.extend(changed.iter().cloned());
    }
    let count = |s: TrialStatus| {
        checked
            .iter()
            .filter(|c| TrialStatus::of(&c.verdict) == s)
            .count()
    };
    if !out.is_empty() {
        out.push('\n');
    }
    let unsure = needs_labels(checked, &mut out);
    let fails = count(TrialStatus::Fail);
    if !verbose && fails > 0 {
        out.push_str(
            "(--verbose lists every verdict with its failed criteria; `harness show FILE` tells a trial's story)\n",
        );
    }
    let n = checked.len();
    let unsure = match unsure {
        0 => String::new(),
        u => format!(", {u} need{} a label", if u == 1 { "s" } else { "" }),
    };
    out.push_str(&format!(
        "{n} transcript{}: {} pass, {fails} fail, {} inconclusive{unsure}; {} verdict{} changed\n",
        if n == 1 { "" } else { "s" },
        count(TrialStatus::Pass),
        count(TrialStatus::Inconclusive),
        changed.len(),
        if changed.len() == 1 { "" } else { "s" },
    ));
    out
}

/// A verdict's failed criteria, a line each under `indent`.
fn failed_block(v: &Verdict, indent: &str) -> String {
    let mut out = String::new();
    for c in v.failed() {
        out.push_str(&format!("{indent}✗ {}: {}\n", c.name, c.detail));
    }
    out
}

/// Every verdict: its status line and its failed criteria (`--verbose`).
fn every_verdict(checked: &[Checked]) -> String {
    let mut out = String::new();
    for v in checked.iter().map(|c| &c.verdict) {
        let status = format!("{:?}", TrialStatus::of(v)).to_uppercase();
        out.push_str(&format!(
            "{status:<12} {}/{} (checker {})  {}\n",
            v.case,
            v.variant,
            v.checker_version,
            v.file.as_deref().unwrap_or("")
        ));
        out.push_str(&failed_block(v, "    "));
    }
    out
}

/// The verdicts that changed against the stored ones, each with what changed and its failed
/// criteria.
fn changed_verdicts(checked: &[Checked]) -> Vec<String> {
    checked
        .iter()
        .filter_map(|c| {
            c.change().map(|what| {
                format!(
                    "  {}: {what}\n{}",
                    c.verdict.file.as_deref().unwrap_or(""),
                    failed_block(&c.verdict, "      ")
                )
            })
        })
        .collect()
}

/// The verdicts that need a label, one entry a label (transcripts of one reply under one
/// checker version take one), each with its unsure criteria and the command that decides it,
/// added to `out`; how many verdicts.
fn needs_labels(checked: &[Checked], out: &mut String) -> usize {
    let unsure: Vec<&Checked> = checked
        .iter()
        .filter(|c| TrialStatus::of(&c.verdict) == TrialStatus::Unsure)
        .collect();
    if unsure.is_empty() {
        return 0;
    }
    out.push_str("Needs a label (the checker is unsure; a person decides):\n");
    let keyed = unsure
        .iter()
        .map(|c| (Some(key_of(&c.transcript, &c.verdict)), *c));
    for g in by_label(keyed) {
        let file = g[0].verdict.file.as_deref().unwrap_or("");
        let more = match g.len() - 1 {
            0 => String::new(),
            n => format!(" and {n} more of the same reply"),
        };
        for k in g[0].verdict.criteria.iter().filter(|k| k.unsure) {
            out.push_str(&format!("  {file}{more}: {}: {}\n", k.name, k.detail));
        }
        out.push_str(&format!("    {}\n", label_command(Path::new(file))));
    }
    out.push('\n');
    unsure.len()
}

/// What `harness check` re-checks, and how it prints.
pub struct CheckOptions {
    /// Transcript files, or folders searched for them.
    pub paths: Vec<PathBuf>,
    /// One JSON verdict per line (docs/formats.md).
    pub json: bool,
    /// Every verdict with its failed criteria, not only the ones that changed.
    pub verbose: bool,
    /// A charter file or git `REV:PATH` whose Core Invariants replace each transcript's.
    pub charter: Option<String>,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
}

/// One line of `check --json`: the verdict, and what changed against the stored one.
#[derive(serde::Serialize)]
struct CheckedVerdict<'a> {
    #[serde(flatten)]
    verdict: &'a Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    changed: Option<String>,
}

/// `harness check`: re-check, print the verdicts (the changed ones, or all as JSON); the exit
/// code of [`exit_code`].
pub fn run(opts: &CheckOptions) -> Result<u8> {
    let root = crate::suite::locate(opts.suite.as_deref())?;
    let suite = Suite::load(&root)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let charter = opts
        .charter
        .as_deref()
        .map(|s| crate::suite::charter::load(s, &cwd))
        .transpose()?;
    let verdicts = check_paths(
        &opts.paths,
        &suite,
        charter.as_ref().map(|c| c.core_invariants.as_str()),
    )?;
    if opts.json {
        for c in &verdicts {
            let record = CheckedVerdict {
                verdict: &c.verdict,
                changed: c.change(),
            };
            // Through a JSON value: keys sorted, as `check --json` has always written them.
            let v = serde_json::to_value(&record).map_err(|e| Error::Internal(e.to_string()))?;
            // JSON escapes control characters, not bidi overrides; keys quoted in reasons
            // need masking.
            crate::output::json::out_doc(crate::output::json::VERDICT, &v);
        }
    } else {
        out!("{}", render(&verdicts, opts.verbose));
    }
    Ok(exit_code(&verdicts))
}
