//! Base vs head: the failing units of a run rerun on the charter at a base revision (or stored
//! results for that charter reused), and per unit whether the proposed charter regressed,
//! improved or left it as it was.

use crate::error::{Error, Result};
use crate::gate::{Gate, UnitStatus};
use crate::session::{self, RunOptions};
use crate::stats::{self, Label, Rate};
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Passes on the base charter, fails on the proposed one, and Fisher's exact test says the
    /// pass rates differ.
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

/// Per unit of the head run that the base run also holds, or that fails at head. A unit whose
/// status differs is a regression or improvement only when Fisher's exact test says so.
pub fn compare(head: &Gate, base: &Gate) -> Vec<UnitChange> {
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
            };
            c.relabel(stats::ALPHA);
            c
        })
        .collect()
}

/// Run (or reuse) the head run's failing units on the charter at `rev`; the base run folder.
pub fn base_run(
    run_dir: &Path,
    run: &serde_json::Value,
    head: &Gate,
    rev: &str,
    base_results: Option<&Path>,
    matrix: Option<&Path>,
    suite: Option<&Path>,
) -> Result<Option<PathBuf>> {
    let source = run["charter"]["source"].as_str().ok_or_else(|| {
        Error::input(format!(
            "{}: run.json names no charter source",
            run_dir.display()
        ))
    })?;
    let (base_source, base_dir) =
        crate::charter::source_at_rev(source, run["charter"]["repo_path"].as_str(), rev)?;
    let base_charter = crate::charter::load(&base_source, &base_dir)?;
    if base_charter.sha256 == run["charter"]["sha256"].as_str().unwrap_or_default() {
        // Same runtime text: nothing can regress or improve, every failure is the base's too.
        return Ok(None);
    }
    let dir = base_results
        .map(Path::to_path_buf)
        .unwrap_or_else(|| run_dir.join(format!("base-{}", &base_charter.sha256[..12])));
    let stored_sha = std::fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|r| r["charter"]["sha256"].as_str().map(str::to_string));
    if base_results.is_some() && stored_sha.as_deref() != Some(base_charter.sha256.as_str()) {
        return Err(Error::input(format!(
            "{}: not a run on the charter at {rev} (sha256 {})",
            dir.display(),
            &base_charter.sha256[..12]
        )));
    }
    let failing: Vec<(String, String, String)> = head
        .units
        .iter()
        .filter(|u| u.status(head.required) == UnitStatus::Fail)
        .map(|u| (u.model.clone(), u.case.clone(), u.variant.clone()))
        .collect();
    if failing.is_empty() {
        return Ok(Some(dir));
    }
    let manifest = matrix
        .map(Path::to_path_buf)
        .or_else(|| run["manifest_path"].as_str().map(PathBuf::from))
        .ok_or_else(|| Error::input("pass --matrix: the run records no manifest path"))?;
    let cases: Vec<String> = failing.iter().map(|(_, c, _)| c.clone()).collect();
    let models: Vec<String> = failing.iter().map(|(m, _, _)| m.clone()).collect();
    let opts = RunOptions {
        matrix: manifest,
        cases,
        models,
        trials: Some(head.required),
        out: stored_sha.is_none().then(|| dir.clone()),
        // Stored results for this charter are reused: only units they lack are run.
        resume: stored_sha.is_some().then(|| dir.clone()),
        charter: Some(base_source),
        charter_dir: Some(base_dir),
        suite: suite.map(Path::to_path_buf),
        arms: vec!["charter".into()],
        only_units: Some(failing),
        ..Default::default()
    };
    session::run(&opts)?;
    Ok(Some(dir))
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
        let p = u
            .p_value
            .map_or(String::new(), |p| format!(" (p = {})", stats::p_text(p)));
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
