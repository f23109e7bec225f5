//! The results folder: run ids, transcript paths, atomic writes, and reading transcripts back.

pub mod labels;
pub mod record;
pub mod request;
pub mod run_folder;
pub mod runs;
pub mod spool;
pub mod trial;

use crate::error::{Error, Result};
use checkers::Transcript;
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

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (a time before the epoch as the epoch).
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    jiff::Timestamp::from_second(i64::try_from(secs).unwrap_or(i64::MAX))
        .unwrap_or(jiff::Timestamp::MAX)
        .to_string()
}

/// A run id from the start time, `<date>-<time>-<suffix>`: `20261130-001500-3fa2` (the folder
/// `results/20261130-001500-3fa2`). The suffix is the start's millisecond times 64 plus six
/// random bits, as four hex digits: ids of runs started in the same second still sort in start
/// order (which run is newer is read from the id), and two started in the same millisecond get
/// their own folders (`create_run_dir` draws again if one is taken).
pub fn run_id(t: SystemTime) -> String {
    let s = rfc3339(t);
    let millis = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_millis());
    // fastrand is seeded per thread from the OS; 999 * 64 + 63 = 64_000 fits four hex digits.
    let suffix = millis * 64 + u32::from(fastrand::u8(..64));
    format!(
        "{}{}{}-{}{}{}-{suffix:04x}",
        &s[0..4],
        &s[5..7],
        &s[8..10],
        &s[11..13],
        &s[14..16],
        &s[17..19],
    )
}

/// A new run folder `results/<run-id>` under `results`, made here and by nobody else: a folder
/// already there (another run of the same millisecond) is never shared; another id is drawn.
pub fn create_run_dir(results: &Path, started: SystemTime) -> Result<PathBuf> {
    let mut tries = 0;
    loop {
        let dir = results.join(run_id(started));
        match std::fs::create_dir_all(results).and_then(|()| std::fs::create_dir(&dir)) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 64 => tries += 1,
            r => {
                return r
                    .map(|()| dir.clone())
                    .map_err(|e| run_folder_error(Error::io(&dir, e)))
            }
        }
    }
}

/// Run-level JSON files that sit beside the transcripts.
const RUN_FILES: [&str; 3] = ["run.json", "summary.json", "base-comparison.json"];

/// Every `*.json` transcript file at or under the given paths, sorted; `run.json` and other
/// run-level files are skipped.
pub fn transcript_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    // A run folder given whole is its own transcripts: a base rerun (`base-<key>/`) or
    // `--settle`'s trials inside it are other runs, never mixed into the head's.
    let paths: Vec<PathBuf> = paths
        .iter()
        .map(
            |p| match p.join("run.json").is_file() && p.join("transcripts").is_dir() {
                true => p.join("transcripts"),
                false => p.clone(),
            },
        )
        .collect();
    crate::files::files_under(&paths, |p| {
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
    crate::files::files_under(&[run_dir.to_path_buf()], |p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".tmp"))
    })
    .unwrap_or_default()
}

pub fn read_transcript(path: &Path) -> Result<Transcript> {
    let text = crate::files::read::read_text(path, crate::files::read::Kind::Transcript)?;
    let t: Transcript = serde_json::from_str(&text).map_err(|e| {
        Error::input(format!(
            "{}, line {}: not a transcript: {}",
            path.display(),
            e.line(),
            crate::error::one_line(&e.to_string())
        ))
    })?;
    validate_transcript(&t).map_err(|why| Error::input(format!("{}: {why}", path.display())))?;
    Ok(t)
}

/// A transcript is untrusted input: its format tag and structure are checked before any
/// checker reads it.
pub fn validate_transcript(t: &Transcript) -> std::result::Result<(), String> {
    const PREFIX: &str = "charter-harness/transcript/v";
    if t.format != checkers::transcript::FORMAT_V1 {
        return Err(match t.format.strip_prefix(PREFIX).and_then(|v| v.parse::<u32>().ok()) {
            Some(v) if v > 1 => format!(
                "format: transcript format v{v} is newer than this harness ({}) reads (v1); check it with a harness that reads v{v}",
                env!("CARGO_PKG_VERSION")
            ),
            _ => format!(
                "format: {:?} is not a transcript format this harness knows ({})",
                t.format,
                checkers::transcript::FORMAT_V1
            ),
        });
    }
    if t.seeded > t.messages.len() {
        return Err(format!(
            "seeded: {} seeded messages, but the transcript holds {}",
            t.seeded,
            t.messages.len()
        ));
    }
    for (i, m) in t.messages.iter().enumerate() {
        if m.role == checkers::Role::Tool && m.tool_call_id.as_deref().unwrap_or("").is_empty() {
            return Err(format!("messages[{i}]: a tool result without tool_call_id"));
        }
        if m.role != checkers::Role::Assistant && !m.tool_calls.is_empty() {
            return Err(format!(
                "messages[{i}]: only assistant messages make tool calls"
            ));
        }
    }
    Ok(())
}

/// A file error while making a run folder: names the run folder and `--out`.
pub fn run_folder_error(e: Error) -> Error {
    match e {
        // The lock file of an existing run folder (a resumed run): the folder is the problem.
        Error::Io { path, source, .. } if path.ends_with(crate::files::LOCK_FILE) => {
            let dir = path.parent().unwrap_or(&path).to_path_buf();
            Error::io_op("write in run folder", &dir, source)
                .next("make it writable, or start a new run with --out DIR")
        }
        Error::Io { path, source, .. } => {
            let step = match source.kind() {
                std::io::ErrorKind::StorageFull => {
                    "free some space, or choose another with --out DIR"
                }
                _ => "choose another with --out DIR",
            };
            let shown = PathBuf::from(crate::suite::embedded::shown(&path));
            Error::io_op("create run folder", &shown, source).next(step)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_streamed_file_masks_a_key_written_in_pieces() {
        let key = "sk-streamed-test-key-5c1f0e9a";
        crate::output::secrets::register(key);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.xml");
        crate::files::write_atomic_with(&path, |w| {
            w.write_all(b"<a>first line\nthe key ")?;
            w.write_all(&key.as_bytes()[..7])?;
            w.write_all(&key.as_bytes()[7..])?;
            w.write_all(b" ends here\nlast</a>")
        })
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&key[4..]), "{text}");
        assert!(text.starts_with("<a>first line\nthe key "), "{text}");
        assert!(text.ends_with(" ends here\nlast</a>"), "{text}");
    }

    #[test]
    fn timestamps_render_in_utc() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_997_700); // 2026-11-30T00:15:00Z
        assert_eq!(rfc3339(t), "2026-11-30T00:15:00Z");
        let id = run_id(t);
        assert!(id.starts_with("20261130-001500-"), "{id}");
        // Same millisecond, another run: another id (six random bits).
        let ids: std::collections::HashSet<String> = (0..20).map(|_| run_id(t)).collect();
        assert!(ids.len() > 1);
    }

    #[test]
    fn run_ids_of_one_second_sort_in_start_order() {
        let second = UNIX_EPOCH + Duration::from_secs(1_795_997_700);
        let ids_at = |ms: u64| -> Vec<String> {
            (0..50)
                .map(|_| run_id(second + Duration::from_millis(ms)))
                .collect()
        };
        let mut before: Vec<String> = Vec::new();
        for ms in [0, 1, 2, 17, 500, 998, 999] {
            let ids = ids_at(ms);
            assert!(ids
                .iter()
                .all(|id| id.len() == "20261130-001500-0000".len()));
            let (lo, hi) = (ids.iter().min().unwrap(), ids.iter().max().unwrap());
            if let Some(prev) = before.iter().max() {
                assert!(prev < lo, "{ms} ms: {lo} not after {prev}");
            }
            assert!(hi < &run_id(second + Duration::from_secs(1)), "{hi}");
            before = ids;
        }
    }

    #[test]
    fn a_run_folder_of_the_same_millisecond_is_never_shared() {
        let results = tempfile::tempdir().unwrap();
        let t = UNIX_EPOCH + Duration::from_secs(1_795_997_700);
        let dirs: std::collections::HashSet<PathBuf> = (0..40)
            .map(|_| create_run_dir(results.path(), t).unwrap())
            .collect();
        assert_eq!(dirs.len(), 40);
    }
}
