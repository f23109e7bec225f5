//! Listing the runs of a results folder, and `results/latest`.

use crate::error::{Error, Result};
use crate::store::record::{RunRecord, Summary};
use std::path::Path;

/// Point `results/latest` at the newest whole run (a symlink; replaced atomically). A run
/// narrowed by `--case`, `--variant`, `--model` or `--shard` never calls this.
pub fn mark_latest(run_dir: &Path) {
    let Some(parent) = run_dir.parent() else {
        return;
    };
    let Some(name) = run_dir.file_name() else {
        return;
    };
    let tmp = parent.join(format!(".latest-{}", std::process::id()));
    #[cfg(unix)]
    {
        let _ = std::fs::remove_file(&tmp);
        if std::os::unix::fs::symlink(name, &tmp).is_ok() {
            let _ = std::fs::rename(&tmp, parent.join("latest"));
        }
    }
}

/// One line a run under `results`: when, charter version, models, verdict.
pub fn list(results: &Path) -> Result<String> {
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
            "" => "?".to_string(),
            s => crate::suite::embedded::shown(Path::new(s)),
        };
        // A narrowed run names what narrowed it and only the models it ran.
        let narrowed = run
            .narrowed()
            .map_or(String::new(), |n| format!("  narrowed: {n}"));
        rows.push(format!(
            "{:<22} {:<22} charter {:<8} {:<12} {}  ({charter}){narrowed}",
            e.file_name().to_string_lossy(),
            run.started.as_deref().unwrap_or("?"),
            run.charter.version.as_deref().unwrap_or("?"),
            verdict.as_deref().unwrap_or("(no gate)"),
            run.models_run().join(", ")
        ));
    }
    rows.sort();
    rows.reverse();
    if rows.is_empty() {
        return Err(Error::input(format!(
            "{}: no run folders here",
            results.display()
        )));
    }
    Ok(rows.join("\n") + "\n")
}
