//! The results folder: run ids, transcript paths, atomic writes, and reading transcripts back.

use crate::error::{Error, Result};
use checkers::Transcript;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// `results/<run>/transcripts/<model>/<case>-<variant>/trial-<n>.json`
pub fn transcript_path(
    run_dir: &Path,
    model: &str,
    case: &str,
    variant: &str,
    trial: u32,
) -> PathBuf {
    run_dir
        .join("transcripts")
        .join(model)
        .join(format!("{case}-{variant}"))
        .join(format!("trial-{trial}.json"))
}

/// Write JSON through a temp file in the same folder and rename it into place, so a reader
/// (or a killed run) never sees a half-written file.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    // Serialize first, then one write: an unbuffered writer would make a syscall per token.
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::Internal(format!("{}: {e}", path.display())))?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Write bytes through a temp file in the same folder, renamed into place. Every configured key
/// is masked on the way: nothing the harness writes may carry one, whatever text brought it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let masked;
    let bytes = match std::str::from_utf8(bytes) {
        Ok(text) if crate::secrets::any() => {
            masked = crate::secrets::redact(text);
            masked.as_bytes()
        }
        _ => bytes,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    // A temp file is private (0600); what the harness writes is an ordinary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (proleptic Gregorian), after H. Hinnant's public-domain algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A run id from the start time: `20261130-001500`.
pub fn run_id(t: SystemTime) -> String {
    let s = rfc3339(t);
    format!(
        "{}{}{}-{}{}{}",
        &s[0..4],
        &s[5..7],
        &s[8..10],
        &s[11..13],
        &s[14..16],
        &s[17..19]
    )
}

/// Run-level JSON files that sit beside the transcripts.
const RUN_FILES: [&str; 3] = ["run.json", "summary.json", "base-comparison.json"];

/// Every file at or under `paths` that `keep` accepts, sorted; `.git` folders are not entered.
/// A path that does not exist is an error naming it.
pub fn files_under(paths: &[PathBuf], keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>> {
    // Regular files only, found without following a symlink into a folder (a link to `.` would
    // loop, a FIFO would hang a read), each once however it was named (`a`, `./a`, `/abs/a`).
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut take = |path: PathBuf, out: &mut Vec<PathBuf>| {
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(canonical) {
            out.push(path);
        }
    };
    for p in paths {
        let meta = std::fs::metadata(p)
            .map_err(|_| Error::input(format!("{}: no such file or folder", p.display())))?;
        if meta.is_file() {
            take(p.clone(), &mut out);
            continue;
        }
        if !meta.is_dir() {
            eprintln!("warning: {}: not a regular file; skipped", p.display());
            continue;
        }
        let mut stack = vec![p.clone()];
        while let Some(d) = stack.pop() {
            let entries = std::fs::read_dir(&d)
                .map_err(|e| Error::input(format!("{}: {e}", d.display())))?;
            for e in entries.flatten() {
                let path = e.path();
                let Ok(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    if e.file_name() != ".git" {
                        stack.push(path);
                    }
                } else if kind.is_file() {
                    if keep(&path) {
                        take(path, &mut out);
                    }
                } else if keep(&path) && !kind.is_symlink() {
                    eprintln!("warning: {}: not a regular file; skipped", path.display());
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Every `*.json` transcript file at or under the given paths, sorted; `run.json` and other
/// run-level files are skipped.
pub fn transcript_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    files_under(paths, |p| {
        p.extension().is_some_and(|x| x == "json")
            && !p
                .file_name()
                .is_some_and(|n| RUN_FILES.iter().any(|r| n == *r))
    })
}

/// `trial-N.json`, not a replay (`trial-N.replay-K.json`) or another file.
pub fn is_trial_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("trial-") && n.ends_with(".json") && !n.contains(".replay-"))
}

/// Temp files an interrupted atomic write left behind (`.tmp*` beside the transcripts).
pub fn leftover_temp_files(run_dir: &Path) -> Vec<PathBuf> {
    files_under(&[run_dir.to_path_buf()], |p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".tmp"))
    })
    .unwrap_or_default()
}

pub fn read_transcript(path: &Path) -> Result<Transcript> {
    let text = crate::error::read_to_string(path)?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(format!(
            "{}, line {}: not a transcript: {e}",
            path.display(),
            e.line()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_render_in_utc() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_997_700); // 2026-11-30T00:15:00Z
        assert_eq!(rfc3339(t), "2026-11-30T00:15:00Z");
        assert_eq!(run_id(t), "20261130-001500");
    }
}
