//! `harness ci decide`: the decide job. The shards merged (or a stored gate for the same key
//! restored), the gate decided (against the base on a pull request), and whether to keep it:
//! a decided gate, and an undecided one whose every undecided unit waits only on a label —
//! stored under the same key as a decided one, so that once a maintainer commits labels to the
//! base branch the next run decides the kept transcripts and calls no model. A gate kept, and a
//! stored gate restored, is checked to be of the charter this job read: the key names what was
//! tested, and a gate stored under it by another run is not taken on trust.

use super::{annotate, gh, harness_quoted, output, summary};
use crate::error::{Error, Result};
use crate::exit;
use std::path::Path;

/// Where the decided gate goes (the artifact charter-gate-results, the comment job's input).
pub const GATE_DIR: &str = "results/gate";
/// The copy that is cached and uploaded as charter-gate-KEY.
const STORED_DIR: &str = "results/stored";

pub struct Decide {
    /// The key this job computed from the files it read; the plan's must be the same.
    pub key: String,
    pub plan_key: String,
    /// Reuse a stored gate: from the cache (restored into results/stored) or a run's artifact.
    pub reuse: bool,
    pub from: String,
    pub repo: String,
    /// The base branch to decide against; none on a push.
    pub base_ref: Option<String>,
    pub matrix: String,
}

pub fn run(d: &Decide) -> Result<u8> {
    output(&[("keep", "false"), ("key", &d.key)])?;
    if d.key != d.plan_key {
        annotate("error", &format!(
            "the gate's inputs changed during this run (planned key {}, this job read {}): nothing is decided or stored; run it again",
            d.plan_key, d.key
        ));
        return Ok(exit::HARNESS_FAILED);
    }
    if d.reuse {
        if !restore_checked(d)? {
            return Ok(exit::HARNESS_FAILED);
        }
    } else {
        if !any_shard() {
            annotate("error", "no gate shard ran (the gate job was skipped or wrote nothing) and no stored gate is reused: nothing is decided");
            return Ok(exit::HARNESS_FAILED);
        }
        let code = merge()?;
        if ![exit::OK, exit::GATE_FAILED, exit::INCONCLUSIVE].contains(&code) {
            annotate("error", &explain("merge", code, false));
            return Ok(code);
        }
    }
    let code = match &d.base_ref {
        Some(b) => harness_quoted(&["gate", GATE_DIR, "--charter-base", &format!("origin/{b}")])?,
        None => harness_quoted(&["gate", GATE_DIR])?,
    };
    let labels_only = waits_only_on_labels(Path::new(GATE_DIR));
    // A gate whose base could not decide (provider errors there) is never kept: run again.
    let (base_rerun, base_labels) = base_undecided(Path::new(GATE_DIR));
    if code != exit::OK {
        let labels = (labels_only || base_labels) && !base_rerun;
        annotate("error", &explain("gate", code, labels));
    }
    let keep = keeps(code, labels_only, base_rerun);
    if keep && tested_here(&d.matrix, "it is not stored")? {
        copy_dir(Path::new(GATE_DIR), Path::new(STORED_DIR))?;
        output(&[("keep", "true")])?;
    }
    Ok(code)
}

/// Whether a gate is kept (cached and uploaded under its key): a decided pass, or an undecided
/// gate whose every undecided unit waits only on a label; never one with provider errors or
/// missing trials, here or on the base (`base_rerun`), under any policy.
fn keeps(code: u8, labels_only: bool, base_rerun: bool) -> bool {
    !base_rerun && (code == exit::OK || (code == exit::INCONCLUSIVE && labels_only))
}

/// [`restore`], then whether the restored gate tested the charter this job read: a gate stored
/// under this key by any run of the repository (a branch's workflow can upload anything under
/// the name) decides only its own charter. One of another charter is removed, so the comment
/// job finds no gate to post.
fn restore_checked(d: &Decide) -> Result<bool> {
    restore(d)?;
    let ok = tested_here(
        &d.matrix,
        "the stored gate is not used and nothing is decided; run again",
    )?;
    if !ok {
        let _ = std::fs::remove_dir_all(GATE_DIR);
    }
    Ok(ok)
}

/// The stored gate into results/gate: from the cache (already in results/stored) or
/// downloaded from the run that decided it.
fn restore(d: &Decide) -> Result<()> {
    let origin = if d.from == "cache" {
        "the cache".to_string()
    } else {
        let name = format!("charter-gate-{}", d.key);
        gh(&[
            "run", "download", &d.from, "-R", &d.repo, "-n", &name, "-D", STORED_DIR,
        ])
        .map_err(|why| Error::input(format!("the stored gate {name} of run {}: {why}", d.from)))?;
        format!("run {}", d.from)
    };
    let note = format!(
        "Reusing the stored gate for identical inputs (key {}, from {origin}): the runtime text, manifest, suite and harness version are unchanged, so no model was called.\n",
        d.key
    );
    outln!("{}", note.trim_end());
    summary(&note)?;
    let _ = std::fs::remove_dir_all(GATE_DIR);
    copy_dir(Path::new(STORED_DIR), Path::new(GATE_DIR))
}

/// Whether any results/shard-* folder was downloaded: a skipped gate job leaves none.
fn any_shard() -> bool {
    std::fs::read_dir("results").is_ok_and(|d| {
        d.flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("shard-"))
    })
}

/// `harness merge` of every results/shard-* folder into results/gate.
fn merge() -> Result<u8> {
    let mut shards: Vec<String> = std::fs::read_dir("results")
        .map_err(|e| Error::io_op("read", Path::new("results"), e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("shard-"))
        .map(|n| format!("results/{n}"))
        .collect();
    shards.sort();
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--out", GATE_DIR, "--quiet-summary"]);
    harness_quoted(&args)
}

/// What an exit code means, for the log and the comment.
fn explain(step: &str, code: u8, labels_only: bool) -> String {
    match code {
        exit::GATE_FAILED => "the gate fails: some unit passed fewer than all its trials (the step summary lists them)".into(),
        exit::USAGE => format!("harness {step}: bad input (exit 2); see the log"),
        exit::INCONCLUSIVE if labels_only => format!(
            "harness {step}: needs a label: harness label --decide … (exit 3: a verdict is unsure; label it from the run's artifact and commit labels/labels.jsonl to the base branch; the next run decides it without calling a model)"
        ),
        exit::INCONCLUSIVE => format!("harness {step}: provider errors: run again (exit 3: some unit could not be decided) here or on the base; nothing is kept"),
        other => format!("harness {step} could not finish (exit {other}); see the log"),
    }
}

/// What the workflow's decisions read of a gate's summary.json, typed; a part that is absent
/// reads as none (a gate that did not finish writes less).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct SummaryFacts {
    /// The units waiting on a label (only their number is read).
    needs_labels: Option<Vec<serde::de::IgnoredAny>>,
    counts: InconclusiveCount,
    charter: CharterDigest,
    comparison: Option<BaseComparison>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct InconclusiveCount {
    inconclusive: Option<u64>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct CharterDigest {
    sha256: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct BaseComparison {
    undecided: Undecided,
}

/// The head failures the base could not decide: for a rerun, or waiting on a label.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Undecided {
    rerun: u64,
    label: u64,
}

impl SummaryFacts {
    /// `dir`'s summary.json, or `None` when it is missing or not such a document.
    fn read(dir: &Path) -> Option<SummaryFacts> {
        let text = std::fs::read_to_string(dir.join("summary.json")).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// Whether summary.json's base comparison has head failures the base could not decide for
/// provider errors or missing trials (`comparison.undecided.rerun`; such a gate is never kept),
/// and whether some wait on a label of the base's unsure verdicts (`…label`).
fn base_undecided(dir: &Path) -> (bool, bool) {
    let undecided = SummaryFacts::read(dir)
        .and_then(|s| s.comparison)
        .map(|c| c.undecided)
        .unwrap_or_default();
    (undecided.rerun > 0, undecided.label > 0)
}

/// Whether every undecided unit of the gate waits only on a label (summary.json's
/// `needs_labels` covers its inconclusive units): provider errors are never kept.
fn waits_only_on_labels(dir: &Path) -> bool {
    let Some(s) = SummaryFacts::read(dir) else {
        return false;
    };
    let waiting = s.needs_labels.map_or(0, |n| n.len());
    waiting > 0 && s.counts.inconclusive == Some(waiting as u64)
}

/// Whether the gate in results/gate is of the charter this job read (its runtime text's
/// sha256): only then is it stored under this job's key, or a stored one used; else `then` is
/// said after why.
fn tested_here(matrix: &str, then: &str) -> Result<bool> {
    let loaded = crate::suite::manifest::load(&crate::suite::manifest::resolve(Path::new(matrix)))?;
    let charter = crate::suite::charter::load(&loaded.manifest.charter.source, loaded.dir())
        .map_err(|e| loaded.at_charter(e))?;
    let tested = SummaryFacts::read(Path::new(GATE_DIR)).and_then(|s| s.charter.sha256);
    if tested.as_deref() == Some(charter.sha256.as_str()) {
        return Ok(true);
    }
    annotate(
        "error",
        &format!(
        "the gate tested a charter whose runtime sha256 is {}, not the {} this job read: {then}",
        tested.as_deref().unwrap_or("unknown"),
        charter.sha256
    ),
    );
    Ok(false)
}

/// `cp -a FROM/. TO` (a run folder, as written; TO replaced).
fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).map_err(|e| Error::io_op("create", to, e))?;
    let ok = std::process::Command::new("cp")
        .arg("-a")
        .arg(from.join("."))
        .arg(to)
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err(Error::input(format!(
            "could not copy {} to {}",
            from.display(),
            to.display()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_whose_base_could_not_decide_is_never_kept() {
        assert!(keeps(exit::OK, false, false));
        assert!(keeps(exit::INCONCLUSIVE, true, false));
        assert!(!keeps(exit::INCONCLUSIVE, false, false), "provider errors");
        assert!(
            !keeps(exit::INCONCLUSIVE, true, true),
            "the base needs a rerun"
        );
        assert!(!keeps(exit::OK, false, true));
        assert!(!keeps(exit::GATE_FAILED, false, false));
    }

    #[test]
    fn summary_json_says_what_the_base_could_not_decide() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("summary.json"),
            r#"{"exit_code": 3, "comparison": {"undecided": {"rerun": 2, "label": 0}}}"#,
        )
        .unwrap();
        assert_eq!(base_undecided(dir.path()), (true, false));
        std::fs::write(dir.path().join("summary.json"), r#"{"exit_code": 0}"#).unwrap();
        assert_eq!(base_undecided(dir.path()), (false, false));
    }
}
