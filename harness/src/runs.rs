//! Listing the runs of a results folder, and `results/latest`.

use crate::error::{Error, Result};
use std::path::Path;

/// Point `results/latest` at the newest run (a symlink; replaced atomically).
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
        let run: serde_json::Value = crate::error::read_to_string(&dir.join("run.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let summary: serde_json::Value = std::fs::read_to_string(dir.join("summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let models = model_names(&run);
        // Two charters may carry the same version: the path tells them apart.
        let charter = run["charter"]["source"]
            .as_str()
            .map_or("?".to_string(), |s| crate::banner::shown(Path::new(s)));
        rows.push(format!(
            "{:<22} {:<22} charter {:<8} {:<12} {}  ({charter})",
            e.file_name().to_string_lossy(),
            run["started"].as_str().unwrap_or("?"),
            run["charter"]["version"].as_str().unwrap_or("?"),
            summary["verdict"].as_str().unwrap_or("(no gate)"),
            models.join(", ")
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

/// The names of a run's models, in manifest order, from its run.json.
pub fn model_names(run: &serde_json::Value) -> Vec<String> {
    run["manifest"]["models"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["name"].as_str().map(str::to_string))
        .collect()
}
