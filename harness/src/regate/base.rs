//! Base vs head: the failing units of a run rerun on the charter at a base revision (or stored
//! results for that charter reused), and per unit whether the proposed charter regressed,
//! improved or left it as it was.

use crate::error::{Error, Result};
pub use crate::gate::change::{compare, Change, Settles, UnitChange};
use crate::gate::{Gate, UnitStatus};
use crate::run::options::RunOptions;
use crate::run::session;
use crate::store::record::RunRecord;
use crate::suite::manifest::GatePolicy;
use std::path::{Path, PathBuf};

/// The models of a run that are scripted (`provider = "scripted"`): deterministic, so a base
/// comparison labels them exactly.
pub fn scripted_models(run: &RunRecord) -> Vec<String> {
    run.manifest
        .models
        .iter()
        .filter(|m| m.rest.get("provider").and_then(|p| p.as_str()) == Some("scripted"))
        .map(|m| m.name.clone())
        .collect()
}

/// Whether the base run in `dir` has a unit (model, case, variant): its run.json records the
/// model and the case, and it was asked for the unit (its `units`, when it lists them). A unit it
/// has but holds no trial of had its trials go missing (an interrupted or failed base rerun);
/// one it does not have is new on the head. No run.json: the base has nothing.
pub fn holds(dir: &Path, suite: &crate::suite::Suite) -> impl Fn(&str, &str, &str) -> bool {
    let record = RunRecord::read(&dir.join("run.json")).ok();
    let variants = |case: &str| -> Vec<String> {
        suite
            .case(case)
            .map(|c| c.variants.iter().map(|v| v.id.clone()).collect())
            .unwrap_or_default()
    };
    let units: Vec<(String, String, String)> = match &record {
        None => Vec::new(),
        Some(r) => r
            .manifest
            .models
            .iter()
            .flat_map(|m| {
                r.case_files.keys().flat_map(move |c| {
                    variants(c)
                        .into_iter()
                        .map(move |v| (m.name.clone(), c.clone(), v))
                })
            })
            .filter(|u| r.units.as_ref().is_none_or(|asked| asked.contains(u)))
            .collect(),
    };
    move |m: &str, c: &str, v: &str| {
        units
            .iter()
            .any(|(um, uc, uv)| um == m && uc == c && uv == v)
    }
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
    /// The base charter's runtime text: the side of the charter diff attribution reads.
    pub runtime: String,
}

/// Check everything a base comparison needs, writing nothing: the revision resolves, the
/// charter loads there, the manifest loads, stored results match. `None` when the charter's
/// runtime text at `rev` is the head's (nothing can regress or improve).
pub fn plan_base(
    run_dir: &Path,
    run: &RunRecord,
    head: &Gate,
    rev: &str,
    base_results: Option<&Path>,
    matrix: Option<&Path>,
    suite: Option<&Path>,
) -> Result<Option<Base>> {
    let source = Some(run.charter.source.as_str())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            Error::input(format!(
                "{}: run.json names no charter source",
                run_dir.display()
            ))
        })?;
    let (base_source, charter_dir) =
        crate::suite::charter::source_at_rev(source, run.charter.repo_path.as_deref(), rev)?;
    resolve_rev(&charter_dir, rev)?;
    let base_charter = crate::suite::charter::load(&base_source, &charter_dir)?;
    if base_charter.sha256 == run.charter.sha256 {
        // Same runtime text: nothing can regress or improve, every failure is the base's too.
        return Ok(None);
    }
    let manifest = matrix
        .map(Path::to_path_buf)
        .or_else(|| run.manifest_path.as_deref().map(PathBuf::from))
        .ok_or_else(|| Error::input("pass --matrix: the run records no manifest path"))?;
    let manifest = crate::suite::manifest::resolve(&manifest);
    crate::suite::manifest::load(&manifest)?;
    let dir = base_dir(
        run_dir,
        base_results,
        &base_charter.sha256,
        rev,
        &manifest,
        suite,
    )?;
    let needed = failing_units(head);
    Ok(Some(Base {
        rev: rev.to_string(),
        source: base_source,
        charter_dir,
        dir,
        manifest,
        suite: suite.map(Path::to_path_buf),
        needed,
        trials: head.required,
        runtime: base_charter.runtime,
    }))
}

/// Where the base's trials are: `--base-results DIR` (it must hold a run on the base charter,
/// `base_sha`), else a folder of the head's run named by the key of the base's inputs.
fn base_dir(
    run_dir: &Path,
    base_results: Option<&Path>,
    base_sha: &str,
    rev: &str,
    manifest: &Path,
    suite: Option<&Path>,
) -> Result<PathBuf> {
    let Some(dir) = base_results else {
        let key = crate::run::key::key_of(base_sha, manifest, suite)?;
        return Ok(run_dir.join(format!("base-{}", &key[..16])));
    };
    let stored_sha = RunRecord::read(&dir.join("run.json"))
        .ok()
        .map(|r| r.charter.sha256);
    if stored_sha.as_deref() != Some(base_sha) {
        return Err(Error::input(format!(
            "{}: not a run on the charter at {rev} (sha256 {})",
            dir.display(),
            &base_sha[..12]
        )));
    }
    Ok(dir.to_path_buf())
}

/// The head's failing units (model, case, variant), each once: what the base reruns.
fn failing_units(head: &Gate) -> Vec<(String, String, String)> {
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
    needed
}

/// `[run] gate` as the manifest reads at the base revision (`rev`): a pull request cannot
/// change its own policy. All-pass when the manifest is not a file of a git repository (a
/// built-in matrix) or the base has no such file; an unknown value is an input error naming
/// `REV:PATH`, found before any model is called.
pub fn base_policy(manifest: &Path, rev: &str) -> Result<GatePolicy> {
    let Ok((workdir, rel)) = crate::suite::charter::repo_path(manifest) else {
        return Ok(GatePolicy::AllPass);
    };
    let Ok(text) = crate::suite::charter::read_from_git(&workdir, rev, &rel) else {
        return Ok(GatePolicy::AllPass);
    };
    let bad = |what: String| Error::input(format!("{rev}:{rel}: [run] gate: {what}"));
    let doc: toml::Table = toml::from_str(&text).map_err(|e| bad(e.message().to_string()))?;
    match doc.get("run").and_then(|r| r.get("gate")) {
        None => Ok(GatePolicy::AllPass),
        Some(toml::Value::String(s)) if s == "all-pass" => Ok(GatePolicy::AllPass),
        Some(toml::Value::String(s)) if s == "no-regression" => Ok(GatePolicy::NoRegression),
        Some(other) => Err(bad(format!(
            "{other} is neither \"all-pass\" nor \"no-regression\""
        ))),
    }
}

/// What a base rerun sent, per model, and its tokens and cost (run.json's `usage` shape).
pub struct BaseSent {
    pub sent: Vec<String>,
    pub usage: Vec<crate::store::record::ModelUsage>,
}

/// Run the failing units on the base charter, each needed trial once; trials its folder
/// already holds (same inputs) are reused, not sent again.
pub fn run_base(base: &Base) -> Result<BaseSent> {
    if base.needed.is_empty() {
        return Ok(BaseSent {
            sent: Vec::new(),
            usage: Vec::new(),
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
    errln!(
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
        names.extend(tags.iter().flatten().flatten().map(str::to_string));
    }
    // A stable order: sorted by name, deduplicated, the nearest first.
    names.sort();
    names.dedup();
    let tail = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    names.sort_by_key(|n| (tail(n) != tail(rev), !rev.contains(n.as_str())));
    let hint = crate::error::did_you_mean(
        rev,
        names
            .iter()
            .flat_map(|n| [n.as_str(), n.rsplit('/').next().unwrap_or(n)]),
    );
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
        "--charter-base {rev}: no such revision in {}{hint} (branches and tags there: {listed}); \
         {shallow}fetch the base's history first (actions/checkout with `fetch-depth: 0`, or `git fetch origin <base>`). \
         Nothing was written.",
        repo.workdir().unwrap_or(repo.path()).display()
    )))
}
