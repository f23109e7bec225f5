//! Base vs head: the failing units of a run rerun on the charter at a base revision (or stored
//! results for that charter reused), and per unit whether the proposed charter regressed,
//! improved or left it as it was.

use crate::error::{Error, Result};
use crate::gate::{Gate, UnitStatus};
use crate::session::{self, RunOptions};
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Passes on the base charter, fails on the proposed one.
    Regression,
    /// Fails on the base charter, passes on the proposed one.
    Improvement,
    StillFailing,
    StillPassing,
    /// Inconclusive on one side, or not run on the base.
    Undecided,
}

#[derive(Debug, Clone, Serialize)]
pub struct UnitChange {
    pub model: String,
    pub case: String,
    pub variant: String,
    pub head: UnitStatus,
    pub base: Option<UnitStatus>,
    pub change: Change,
}

/// Per unit of the head run that the base run also holds, or that fails at head.
pub fn compare(head: &Gate, base: &Gate) -> Vec<UnitChange> {
    head.units
        .iter()
        .filter(|u| {
            base.unit(&u.model, &u.case, &u.variant).is_some()
                || u.status(head.required) != UnitStatus::Pass
        })
        .map(|u| {
            let h = u.status(head.required);
            let b = base
                .unit(&u.model, &u.case, &u.variant)
                .map(|bu| bu.status(base.required));
            let change = match (b, h) {
                (Some(UnitStatus::Pass), UnitStatus::Fail) => Change::Regression,
                (Some(UnitStatus::Fail), UnitStatus::Pass) => Change::Improvement,
                (Some(UnitStatus::Fail), UnitStatus::Fail) => Change::StillFailing,
                (Some(UnitStatus::Pass), UnitStatus::Pass) => Change::StillPassing,
                _ => Change::Undecided,
            };
            UnitChange {
                model: u.model.clone(),
                case: u.case.clone(),
                variant: u.variant.clone(),
                head: h,
                base: b,
                change,
            }
        })
        .collect()
}

/// A base rerun, checked and planned before anything is written or any model is called.
pub struct Base {
    pub rev: String,
    /// The charter at `rev`, as a `REV:PATH` source, and the folder it loads from.
    source: String,
    charter_dir: PathBuf,
    /// Where the base's transcripts are kept. Named by the key of the base's inputs (`harness
    /// key`: charter text, manifest, suite, harness version), so stored transcripts are reused
    /// exactly when every input matches.
    pub dir: PathBuf,
    manifest: PathBuf,
    suite: Option<PathBuf>,
    /// The head's failing units (model, case, variant), each once.
    needed: Vec<(String, String, String)>,
    trials: u32,
}

/// Check everything a base comparison needs, writing nothing: the revision resolves, the
/// charter loads there, the manifest loads, stored results match. `None` when the charter's
/// runtime text at `rev` is the head's (nothing can regress or improve).
pub fn plan_base(
    run_dir: &Path,
    run: &serde_json::Value,
    head: &Gate,
    rev: &str,
    base_results: Option<&Path>,
    matrix: Option<&Path>,
    suite: Option<&Path>,
) -> Result<Option<Base>> {
    let source = run["charter"]["source"].as_str().ok_or_else(|| {
        Error::input(format!(
            "{}: run.json names no charter source",
            run_dir.display()
        ))
    })?;
    let (base_source, charter_dir) =
        crate::charter::source_at_rev(source, run["charter"]["repo_path"].as_str(), rev)?;
    resolve_rev(&charter_dir, rev)?;
    let base_charter = crate::charter::load(&base_source, &charter_dir)?;
    if base_charter.sha256 == run["charter"]["sha256"].as_str().unwrap_or_default() {
        // Same runtime text: nothing can regress or improve, every failure is the base's too.
        return Ok(None);
    }
    let manifest = matrix
        .map(Path::to_path_buf)
        .or_else(|| run["manifest_path"].as_str().map(PathBuf::from))
        .ok_or_else(|| Error::input("pass --matrix: the run records no manifest path"))?;
    let manifest = crate::manifest::resolve(&manifest);
    crate::manifest::load(&manifest)?;
    let dir = match base_results {
        Some(dir) => {
            let stored_sha = std::fs::read_to_string(dir.join("run.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|r| r["charter"]["sha256"].as_str().map(str::to_string));
            if stored_sha.as_deref() != Some(base_charter.sha256.as_str()) {
                return Err(Error::input(format!(
                    "{}: not a run on the charter at {rev} (sha256 {})",
                    dir.display(),
                    &base_charter.sha256[..12]
                )));
            }
            dir.to_path_buf()
        }
        None => {
            let key = crate::init::key_of(&base_charter.sha256, &manifest, suite)?;
            run_dir.join(format!("base-{}", &key[..16]))
        }
    };
    let mut needed: Vec<(String, String, String)> = Vec::new();
    for u in head
        .units
        .iter()
        .filter(|u| u.status(head.required) == UnitStatus::Fail)
    {
        let unit = (u.model.clone(), u.case.clone(), u.variant.clone());
        if !needed.contains(&unit) {
            needed.push(unit);
        }
    }
    Ok(Some(Base {
        rev: rev.to_string(),
        source: base_source,
        charter_dir,
        dir,
        manifest,
        suite: suite.map(Path::to_path_buf),
        needed,
        trials: head.required,
    }))
}

/// What a base rerun sent, per model, and its tokens and cost (run.json's `usage` shape).
pub struct BaseSent {
    pub sent: Vec<String>,
    pub usage: serde_json::Value,
}

/// Run the failing units on the base charter, each needed trial once; trials its folder
/// already holds (same inputs) are reused, not sent again.
pub fn run_base(base: &Base) -> Result<BaseSent> {
    if base.needed.is_empty() {
        return Ok(BaseSent {
            sent: Vec::new(),
            usage: serde_json::Value::Null,
        });
    }
    let mut cases: Vec<String> = Vec::new();
    let mut models: Vec<String> = Vec::new();
    for (m, c, _) in &base.needed {
        if !cases.contains(c) {
            cases.push(c.clone());
        }
        if !models.contains(m) {
            models.push(m.clone());
        }
    }
    let stored = base.dir.join("run.json").is_file();
    let opts = RunOptions {
        matrix: base.manifest.clone(),
        cases,
        models,
        trials: Some(base.trials),
        out: (!stored).then(|| base.dir.clone()),
        // Stored results for these inputs are reused: only trials they lack are sent.
        resume: stored.then(|| base.dir.clone()),
        all: true,
        charter: Some(base.source.clone()),
        charter_dir: Some(base.charter_dir.clone()),
        suite: base.suite.clone(),
        arms: vec!["charter".into()],
        only_units: Some(base.needed.clone()),
        ..Default::default()
    };
    eprintln!(
        "base rerun: {} failing unit(s) on the charter at {}, {} trial(s) each",
        base.needed.len(),
        base.rev,
        base.trials
    );
    let done = session::run(&opts)?;
    Ok(BaseSent {
        sent: done.sent,
        usage: done.usage,
    })
}

/// `rev` in the repository around `dir`, or an input error naming the revisions that exist
/// (closest first) and what a shallow clone lacks.
fn resolve_rev(dir: &Path, rev: &str) -> Result<()> {
    let Ok(repo) = git2::Repository::discover(dir) else {
        // No repository: loading the charter at the revision says so.
        return Ok(());
    };
    if repo.revparse_single(rev).is_ok() {
        return Ok(());
    }
    let mut names: Vec<String> = Vec::new();
    if let Ok(branches) = repo.branches(None) {
        names.extend(
            branches
                .flatten()
                .filter_map(|(b, _)| b.name().ok().flatten().map(str::to_string)),
        );
    }
    if let Ok(tags) = repo.tag_names(None) {
        names.extend(tags.iter().flatten().map(str::to_string));
    }
    let tail = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    names.sort_by_key(|n| (tail(n) != tail(rev), !rev.contains(n.as_str()), n.clone()));
    names.dedup();
    let listed = match names.len() {
        0 => "none besides HEAD".to_string(),
        n if n > 10 => format!("{} (and {} more)", names[..10].join(", "), n - 10),
        _ => names.join(", "),
    };
    let shallow = if repo.is_shallow() {
        "this clone is shallow: "
    } else {
        "in a shallow clone, "
    };
    Err(Error::input(format!(
        "--charter-base {rev}: no such revision in {} (branches and tags there: {listed}); \
         {shallow}fetch the base's history first (actions/checkout with `fetch-depth: 0`, or `git fetch origin <base>`). \
         Nothing was written.",
        repo.workdir().unwrap_or(repo.path()).display()
    )))
}

pub fn render(changes: &[UnitChange], rev: &str) -> String {
    let count = |c: Change| changes.iter().filter(|u| u.change == c).count();
    let mut out = format!(
        "Against the charter at {rev}: {} regression(s), {} improvement(s), {} still failing, {} undecided\n",
        count(Change::Regression),
        count(Change::Improvement),
        count(Change::StillFailing),
        count(Change::Undecided)
    );
    for u in changes.iter().filter(|u| u.change != Change::StillPassing) {
        let base = u
            .base
            .map_or("not run".to_string(), |b| format!("{b:?}").to_lowercase());
        let change = serde_json::to_value(u.change)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {change:<14} {}/{} on {}: base {base}, head {}",
            u.case,
            u.variant,
            u.model,
            format!("{:?}", u.head).to_lowercase()
        );
    }
    out
}
