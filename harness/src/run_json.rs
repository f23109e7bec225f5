//! A run folder's `run.json` read back, for the commands that continue a run (`run --resume`,
//! `gate`, `merge`): the record, or an error naming the run folders nearby.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The manifest a run folder recorded, for `run --resume DIR` without `--matrix`.
pub fn recorded_manifest(run_dir: &Path) -> Result<PathBuf> {
    let run = read(run_dir)?;
    run["manifest_path"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| {
            Error::input(format!(
                "{}: run.json records no manifest; pass --matrix",
                run_dir.display()
            ))
        })
}

/// `run_dir/run.json`; when there is none, the error names the runs inside `run_dir`: the
/// folder given is often their parent.
pub fn read(run_dir: &Path) -> Result<serde_json::Value> {
    let path = run_dir.join("run.json");
    if !path.is_file() {
        return Err(Error::input(format!(
            "{}: not a run folder (no run.json){}",
            run_dir.display(),
            runs_inside(run_dir)
        )));
    }
    let text = crate::error::read_to_string(&path)?;
    serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run record: {e}", path.display())))
}

/// "; run folders in it: …" (the newest five), or nothing when `dir` holds none.
fn runs_inside(dir: &Path) -> String {
    let mut runs: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("run.json").is_file())
        .map(|e| e.path().display().to_string())
        .collect();
    runs.sort();
    match runs.len() {
        0 => String::new(),
        n => format!(
            "; run folders in it: {}{}",
            runs.iter()
                .rev()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if n > 5 {
                format!(" (and {} more)", n - 5)
            } else {
                String::new()
            }
        ),
    }
}
