//! Base vs head: the failing units of a run rerun on the charter at a base revision (or stored
//! results for that charter reused), and per unit whether the proposed charter regressed,
//! improved or left it as it was.

use crate::error::{Error, Result};
use crate::gate::stats::{self, Label, Rate};
use crate::gate::{Gate, UnitStatus};
use crate::run::options::RunOptions;
use crate::run::session;
use crate::store::record::RunRecord;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Passes on the base charter, fails on the proposed one, and Fisher's exact test says the
    /// pass rates differ; on a scripted (deterministic) model, every base trial passes and
    /// every head trial fails.
    Regression,
    /// Fails on the base charter, passes on the proposed one, significantly.
    Improvement,
    /// The status differs, but the pass rates could be the same: too few trials to tell.
    WithinNoise,
    StillFailing,
    StillPassing,
    /// Inconclusive on one side, or not run on the base.
    Undecided,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::WithinNoise => "within noise",
            Change::StillFailing => "still-failing",
            Change::StillPassing => "still-passing",
            Change::Undecided => "undecided",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct UnitChange {
    pub model: String,
    pub case: String,
    pub variant: String,
    pub head: UnitStatus,
    pub base: Option<UnitStatus>,
    /// Passed of decided trials, `--settle` trials included.
    pub head_rate: Rate,
    pub base_rate: Option<Rate>,
    /// Fisher's exact test (two-sided) on the two arms' passes and fails, when the status differs.
    pub p_value: Option<f64>,
    /// Significant below this; lower than 0.05 when `--settle` looked more than once.
    pub alpha: f64,
    pub change: Change,
    /// With `--settle`: the trials each arm ran beyond the gate's, counted in the rates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settle_trials: Option<u32>,
    /// Labelled exactly, without a statistical test: the model is scripted, so its trials
    /// repeat, and the unit went from every trial passing to every trial failing (or back).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
}

impl UnitChange {
    /// Whether the status differs: the units a label (and `--settle`) is for.
    pub fn differs(&self) -> bool {
        matches!(
            self.change,
            Change::Regression | Change::Improvement | Change::WithinNoise
        )
    }

    /// Label a unit whose status differs from its rates at `alpha`.
    pub fn relabel(&mut self, alpha: f64) {
        let Some(base) = self.base_rate.filter(|_| self.differs()) else {
            return;
        };
        if self.exact {
            return;
        }
        let (label, p) = stats::label(base, self.head_rate, alpha);
        self.alpha = alpha;
        self.p_value = Some(p);
        self.change = match label {
            Label::Regression => Change::Regression,
            Label::Improvement => Change::Improvement,
            Label::WithinNoise => Change::WithinNoise,
        };
    }
}

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

/// The exact label of a unit on a scripted model: every base trial passing and every head
/// trial failing is a regression, the reverse an improvement; None for anything else.
fn exact_change(base: Rate, head: Rate) -> Option<Change> {
    let all = |r: Rate| r.trials > 0 && r.passed == r.trials;
    let none = |r: Rate| r.trials > 0 && r.passed == 0;
    if all(base) && none(head) {
        Some(Change::Regression)
    } else if none(base) && all(head) {
        Some(Change::Improvement)
    } else {
        None
    }
}

/// Per unit of the head run that the base run also holds, or that fails at head. A unit whose
/// status differs is a regression or improvement only when Fisher's exact test says so, or,
/// on a model in `scripted` (deterministic), when it went from all trials passing to all
/// failing (or back).
pub fn compare(head: &Gate, base: &Gate, scripted: &[String]) -> Vec<UnitChange> {
    head.units
        .iter()
        .filter(|u| {
            base.unit(&u.model, &u.case, &u.variant).is_some()
                || u.status(head.required) != UnitStatus::Pass
        })
        .map(|u| {
            let h = u.status(head.required);
            let bu = base.unit(&u.model, &u.case, &u.variant);
            let b = bu.map(|bu| bu.status(base.required));
            let change = match (b, h) {
                (Some(UnitStatus::Pass), UnitStatus::Fail)
                | (Some(UnitStatus::Fail), UnitStatus::Pass) => Change::WithinNoise,
                (Some(UnitStatus::Fail), UnitStatus::Fail) => Change::StillFailing,
                (Some(UnitStatus::Pass), UnitStatus::Pass) => Change::StillPassing,
                _ => Change::Undecided,
            };
            let mut c = UnitChange {
                model: u.model.clone(),
                case: u.case.clone(),
                variant: u.variant.clone(),
                head: h,
                base: b,
                head_rate: Rate::of(u),
                base_rate: bu.map(Rate::of),
                p_value: None,
                alpha: stats::ALPHA,
                change,
                settle_trials: None,
                exact: false,
            };
            let exact = (change == Change::WithinNoise && scripted.contains(&u.model))
                .then(|| c.base_rate.and_then(|b| exact_change(b, c.head_rate)))
                .flatten();
            match exact {
                Some(label) => {
                    c.change = label;
                    c.exact = true;
                }
                None => c.relabel(stats::ALPHA),
            }
            c
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
    let dir = match base_results {
        Some(dir) => {
            let stored_sha = RunRecord::read(&dir.join("run.json"))
                .ok()
                .map(|r| r.charter.sha256);
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
            let key = crate::run::key::key_of(&base_charter.sha256, &manifest, suite)?;
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
        names.extend(tags.iter().flatten().map(str::to_string));
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

/// The comparison for people: significant regressions and improvements first, units within
/// noise apart, then failures the base shares and undecided units.
pub fn render(changes: &[UnitChange], rev: &str) -> String {
    let count = |c: Change| changes.iter().filter(|u| u.change == c).count();
    let mut out = format!(
        "Against the charter at {rev}: {} regression(s), {} improvement(s), {} within noise, {} still failing, {} undecided\n",
        count(Change::Regression),
        count(Change::Improvement),
        count(Change::WithinNoise),
        count(Change::StillFailing),
        count(Change::Undecided)
    );
    let line = |out: &mut String, u: &UnitChange| {
        let side = |s: Option<UnitStatus>, r: Option<Rate>| match (s, r) {
            (Some(s), Some(r)) => format!(
                "{} {}/{}",
                format!("{s:?}").to_lowercase(),
                r.passed,
                r.trials
            ),
            _ => "not run".to_string(),
        };
        let p = match (u.exact, u.p_value) {
            (true, _) => " (exact: a scripted model repeats its trials)".to_string(),
            (false, Some(p)) => format!(" (p = {})", stats::p_text(p)),
            (false, None) => String::new(),
        };
        let p = match u.settle_trials {
            Some(n) => format!("{p}, with {n} more trials per arm (--settle)"),
            None => p,
        };
        let _ = writeln!(
            out,
            "  {:<14} {}/{} on {}: base {}, head {}{p}",
            u.change.as_str(),
            u.case,
            u.variant,
            u.model,
            side(u.base, u.base_rate),
            side(Some(u.head), Some(u.head_rate))
        );
    };
    let alpha = changes.iter().map(|u| u.alpha).fold(stats::ALPHA, f64::min);
    for u in changes
        .iter()
        .filter(|u| matches!(u.change, Change::Regression | Change::Improvement))
    {
        line(&mut out, u);
    }
    if count(Change::WithinNoise) > 0 {
        let settled = changes.iter().any(|u| u.settle_trials.is_some());
        let _ = writeln!(
            out,
            "Within noise: the status differs, but Fisher's exact test cannot tell the two pass rates apart (p >= {}){}:",
            stats::p_text(alpha),
            if settled {
                ", even with --settle's trials"
            } else {
                "; more trials on both arms (--settle N) may"
            }
        );
        for u in changes.iter().filter(|u| u.change == Change::WithinNoise) {
            line(&mut out, u);
        }
    }
    for u in changes
        .iter()
        .filter(|u| matches!(u.change, Change::StillFailing | Change::Undecided))
    {
        line(&mut out, u);
    }
    out
}
