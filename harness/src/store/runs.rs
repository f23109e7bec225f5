//! Listing the runs of a results folder, and `results/latest`.

use crate::error::{Error, Result};
use crate::store::record::{RunRecord, Summary};
use std::path::{Path, PathBuf};

/// Point `results/latest` at the newest whole run (a symlink; replaced atomically). A run
/// narrowed by `--case`, `--variant`, `--model` or `--shard` never calls this. A folder there
/// (a run copied to it) stands for itself: left as it is, and said.
pub fn mark_latest(run_dir: &Path) {
    let Some(parent) = run_dir.parent() else {
        return;
    };
    let Some(name) = run_dir.file_name() else {
        return;
    };
    let latest = parent.join("latest");
    if latest.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        errln!(
            "{}: a folder, not the link a run moves: left as it is (gate, check and show with no path read it); move it away to follow the newest run",
            latest.display()
        );
        return;
    }
    let tmp = parent.join(format!(".latest-{}", std::process::id()));
    #[cfg(unix)]
    {
        let _ = std::fs::remove_file(&tmp);
        // The link is made aside and renamed over the name; one that cannot be is not left.
        if std::os::unix::fs::symlink(name, &tmp).is_ok() && std::fs::rename(&tmp, &latest).is_err()
        {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// One run of a results folder, as `harness runs` lists it (`--json`: one object a line).
#[derive(Debug, serde::Serialize)]
pub struct RunRow {
    /// The run folder's name (its run id).
    pub run: String,
    pub started: Option<String>,
    pub charter_version: Option<String>,
    /// The gate's verdict; null when the run has no gate (yet).
    pub verdict: Option<String>,
    pub models: Vec<String>,
    /// The charter's path as the run recorded it; null when unreadable.
    pub charter: Option<String>,
    /// What narrowed the run (`--case`, `--model`, …); null for a whole run.
    pub narrowed: Option<String>,
}

impl RunRow {
    fn line(&self) -> String {
        let narrowed = self
            .narrowed
            .as_ref()
            .map_or(String::new(), |n| format!("  narrowed: {n}"));
        format!(
            "{:<22} {:<22} charter {:<8} {:<12} {}  ({}){narrowed}",
            self.run,
            self.started.as_deref().unwrap_or("?"),
            self.charter_version.as_deref().unwrap_or("?"),
            self.verdict.as_deref().unwrap_or("(no gate)"),
            self.models.join(", "),
            self.charter.as_deref().unwrap_or("?"),
        )
    }
}

/// The header row of `harness runs`, its columns as wide as `RunRow::line`'s.
pub fn header() -> String {
    format!(
        "{:<22} {:<22} {:<16} {:<12} models  (charter file)",
        "run", "started", "charter version", "verdict"
    )
}

/// A header row, then one line a run under `results`: when, charter version, verdict, models;
/// newest first. An error when there is none: a table of no rows would say nothing.
pub fn list(results: &Path) -> Result<String> {
    let rows = rows(results)?;
    if rows.is_empty() {
        return Err(Error::input(format!(
            "{}: no run folders here",
            results.display()
        )));
    }
    let mut lines = vec![header()];
    lines.extend(rows.iter().map(RunRow::line));
    Ok(lines.join("\n") + "\n")
}

/// The runs under `results`, newest first (none in a results folder with no run yet); an
/// error when `results` cannot be read.
pub fn rows(results: &Path) -> Result<Vec<RunRow>> {
    let mut rows = Vec::new();
    let entries = std::fs::read_dir(results).map_err(|e| {
        Error::input(format!(
            "could not read {}: {} — give the results folder (`harness runs DIR`), or run `harness run` here first",
            results.display(),
            crate::error::reason(&e)
        ))
    })?;
    for e in entries.flatten() {
        let dir = e.path();
        if e.file_name() == "latest" || !dir.join("run.json").is_file() {
            continue;
        }
        rows.push(row(&dir, e.file_name().to_string_lossy().into_owned()));
    }
    // Run ids start with their time: the reversed name order is newest first.
    rows.sort_by_key(|r| std::cmp::Reverse(r.line()));
    Ok(rows)
}

fn row(dir: &Path, name: String) -> RunRow {
    // A listing shows what it can read: an unreadable file is a row of "?".
    let run = RunRecord::read(&dir.join("run.json")).unwrap_or_default();
    let summary = dir.join("summary.json");
    let verdict = (summary.is_file())
        .then(|| Summary::read(&summary).ok())
        .flatten()
        .map(|s| s.verdict)
        .filter(|v| !v.is_empty());
    // Two charters may carry the same version: the path tells them apart.
    let charter = match run.charter.source.as_str() {
        "" => None,
        s => Some(crate::suite::embedded::shown(Path::new(s))),
    };
    RunRow {
        run: name,
        started: run.started.clone(),
        charter_version: run.charter.version.clone(),
        verdict,
        models: run.models_run(),
        charter,
        // A narrowed run names what narrowed it and only the models it ran.
        narrowed: run.narrowed(),
    }
}

/// The run `show` and `check` read when given no path, as found under a results folder.
#[derive(Debug, PartialEq)]
pub enum DefaultRun {
    /// `results/latest`: the newest full run (`dir`, resolved), and the newest narrowed run
    /// made after it, with what narrowed it, if there is one.
    Latest {
        dir: PathBuf,
        newer_narrowed: Option<(PathBuf, String)>,
    },
    /// No full run yet: the newest narrowed run, and what narrowed it.
    Narrowed { dir: PathBuf, narrowed: String },
}

/// What `show` and `check` read under `results` with no path given; `None` when there is no
/// run there at all. Newer means a later run id (ids start with their time).
pub fn default_run(results: &Path) -> Option<DefaultRun> {
    let rows = rows(results).unwrap_or_default();
    let latest = results.join("latest");
    if !latest.exists() {
        let newest = rows.into_iter().find(|r| r.narrowed.is_some())?;
        return Some(DefaultRun::Narrowed {
            dir: results.join(&newest.run),
            narrowed: newest.narrowed.unwrap_or_default(),
        });
    }
    // A link to its run id (as `mark_latest` writes it); a folder copied there stands for itself.
    let id = std::fs::read_link(&latest)
        .ok()
        .and_then(|l| l.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|id| results.join(id).is_dir());
    let newer_narrowed = id.as_ref().and_then(|id| {
        rows.iter()
            .take_while(|r| r.run > *id)
            .find_map(|r| Some((results.join(&r.run), r.narrowed.clone()?)))
    });
    Some(DefaultRun::Latest {
        dir: id.map_or(latest, |id| results.join(id)),
        newer_narrowed,
    })
}
