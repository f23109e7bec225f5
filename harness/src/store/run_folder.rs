//! A run folder, read and held: its run.json as a `RunRecord`, its stored transcripts as trial
//! records re-checked by today's checkers, the lock a run holds on it, whether a previous run
//! may be resumed in it, and the record of merged shards. Below the runner: a command that only
//! reads run folders needs this, not the runner.

use crate::error::{Error, Result};
use crate::store::labels::{Deciding, DECIDING_LABELS};
use crate::store::record::RunRecord;
use crate::store::trial::TrialRecord;
use crate::suite::case::Case;
use crate::suite::charter::Charter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A run folder's run.json; a folder without one is named as not a run folder, with the run
/// folders inside it (the folder given is often their parent).
pub fn read_run(run_dir: &Path) -> Result<RunRecord> {
    let path = run_dir.join("run.json");
    // Anything at the name is read (and a device or pipe refused as such), not called missing.
    if path.symlink_metadata().is_ok() {
        return RunRecord::read(&path);
    }
    let mut runs: Vec<String> = std::fs::read_dir(run_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("run.json").is_file())
        .map(|e| e.path().display().to_string())
        .collect();
    runs.sort();
    let near = match runs.len() {
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
    };
    Err(Error::input(format!(
        "{}: not a run folder (no run.json){near}",
        run_dir.display()
    )))
}

/// The manifest a run folder recorded, for `run --resume DIR` without `--matrix`.
pub fn recorded_manifest(run_dir: &Path) -> Result<PathBuf> {
    read_run(run_dir)?
        .manifest_path
        .map(PathBuf::from)
        .ok_or_else(|| {
            Error::input(format!(
                "{}: run.json records no manifest; pass --matrix",
                run_dir.display()
            ))
        })
}

/// The run record of shards merged into one run: the first shard's, with where it was merged
/// from and no shard of its own. Only shards of one run merge: the same charter and trials.
pub fn merged_record(shards: &[PathBuf]) -> Result<RunRecord> {
    let runs: Vec<RunRecord> = shards.iter().map(|d| read_run(d)).collect::<Result<_>>()?;
    let Some(first) = runs.first() else {
        return Err(Error::input("merge: no run folders given"));
    };
    for (dir, run) in shards.iter().zip(&runs).skip(1) {
        let differs = [
            ("charter", run.charter.sha256 != first.charter.sha256),
            ("trials", run.trials != first.trials),
        ];
        if let Some((what, _)) = differs.iter().find(|(_, d)| *d) {
            return Err(Error::input(format!(
                "{}: {what} differs from {}'s; only shards of one run merge",
                dir.display(),
                shards[0].display()
            )));
        }
    }
    Ok(RunRecord {
        merged_from: Some(shards.iter().map(|d| d.display().to_string()).collect()),
        shard: None,
        ..first.clone()
    })
}

/// A stored transcript as a trial record, re-checked with the current checkers. The Core
/// Invariants come from `core`, else from the transcript's own system prompt.
pub fn record_of(
    run_dir: &Arc<Path>,
    path: PathBuf,
    t: checkers::Transcript,
    case: &Case,
    core: Option<&str>,
    spool: &Arc<crate::store::spool::Spool>,
    deciding: &Deciding,
) -> Result<TrialRecord> {
    let mut verdict = crate::suite::case::recheck(&t, case, core, &path.display().to_string())?;
    deciding.apply(&t, &mut verdict);
    let request = crate::store::request::TrialRequest::of(&t);
    let pinned = request.pinned_model().to_string();
    let names = (
        Arc::from(t.model.as_str()),
        Arc::from(case.id.as_str()),
        Arc::from(t.variant.as_str()),
    );
    // Records find their file from the run folder and their names: a transcript must lie
    // where its own model, case, variant and trial say.
    let want = crate::store::transcript_path(run_dir, &t.model, &case.id, &t.variant, t.trial);
    if want != path {
        return Err(Error::input(format!(
            "{}: the transcript says it is {} trial {} of {}/{}, which belongs at {}",
            path.display(),
            t.model,
            t.trial,
            case.id,
            t.variant,
            want.display()
        )));
    }
    record(names, run_dir.clone(), &t, &verdict, &pinned, spool)
}

/// The labels and policy that decide a stored run's unsure verdicts: the charter repository's
/// labels (`labels/labels.jsonl` in the current folder) under the `unsure` policy the run
/// recorded (`label` when it recorded none).
pub fn deciding_for(run_dir: &Path) -> Result<Deciding> {
    let policy = read_run(run_dir)
        .ok()
        .and_then(|r| r.manifest.rest.get("run")?.get("unsure").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    Deciding::load(Path::new(DECIDING_LABELS), policy)
}

/// Every trial transcript of a run folder (`trial-N.json`; replays excluded), re-checked.
pub fn stored_records(run_dir: &Path, suite: &crate::suite::Suite) -> Result<Vec<TrialRecord>> {
    let files = crate::store::transcript_files(&[run_dir.join("transcripts")])?;
    let spool = crate::store::spool::Spool::new()?;
    let dir: Arc<Path> = Arc::from(run_dir);
    let deciding = deciding_for(run_dir)?;
    let mut out = Vec::new();
    for f in files.into_iter().filter(|f| crate::store::is_trial_file(f)) {
        let t = crate::store::read_transcript(&f)?;
        let case = suite.case_of(&t, &f)?;
        out.push(record_of(&dir, f, t, case, None, &spool, &deciding)?);
    }
    Ok(out)
}

/// A trial's record: the gate's facts from the verdict, the rest left in the transcript file
/// and the verdict spool.
pub(crate) fn record(
    (model, case, variant): (Arc<str>, Arc<str>, Arc<str>),
    run_dir: Arc<Path>,
    t: &checkers::Transcript,
    verdict: &checkers::Verdict,
    pinned: &str,
    spool: &Arc<crate::store::spool::Spool>,
) -> Result<TrialRecord> {
    // Only what the record needs of the request, read in place.
    let request = crate::store::request::TrialRequest::reported(t);
    let alias_drift = request
        .model_reported
        .iter()
        .flatten()
        .filter(|m| *m != pinned)
        .cloned()
        .collect();
    let status = crate::store::trial::TrialStatus::of(verdict);
    Ok(TrialRecord {
        model,
        case,
        variant,
        trial: t.trial,
        status,
        failed: spool.failed_names(verdict),
        verdict: spool.put(verdict)?,
        run_dir,
        usage: t.usage.clone().unwrap_or_default().into(),
        alias_drift,
        error: t.error.as_deref().map(Box::from),
        provider_error: request.provider_error.map(Box::new),
        duration_ms: t.timing.as_ref().map_or(0, |t| t.duration_ms),
        reply_digest: {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            t.final_reply().hash(&mut h);
            h.finish()
        },
    })
}

/// An advisory lock on a run folder, held for the run's life (released when dropped or when the
/// process dies, however it dies). A run that ends removes its lock file: a finished or
/// interrupted run folder holds none (its run.json marks it as a run folder for the link-safe
/// writes). Only a process killed by a signal a run does not catch (SIGKILL) leaves it, for the
/// next run to take over. While it is held, the run folder is held open too: the run writes
/// its files through the folder's descriptor, each folder below checked for links once
/// ([`crate::files::held`]).
pub struct RunLock {
    file: std::fs::File,
    path: PathBuf,
    _held: crate::files::held::Holding,
}

impl RunLock {
    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Only while the name is still this lock's file: removed, then closed (unlocked).
        if same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` (not followed) names the open `file`.
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), path.symlink_metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        false
    }
}

/// Lock `dir` for one run, creating it; a folder another run holds is refused at once, naming
/// the holder's pid.
pub fn lock_run_dir(dir: &Path) -> Result<RunLock> {
    // Made and opened before the lock is taken: failing, it leaves no lock file behind.
    let held = crate::files::held::hold(dir)?;
    let path = dir.join(crate::files::LOCK_FILE);
    // A holder that ends removes the file it locked: a lock taken on that removed file would
    // guard nothing, so the name is opened again (a few times at most).
    for _ in 0..3 {
        if let Some(file) = try_lock(dir, &path)? {
            return Ok(RunLock {
                file,
                path,
                _held: held,
            });
        }
    }
    Err(Error::input(format!(
        "{}: its lock file kept changing while it was being locked; another harness is starting or ending in this folder — try again, or choose another --out",
        dir.display()
    )))
}

/// Open and lock the lock file: `None` when the name no longer holds the file locked.
fn try_lock(dir: &Path, path: &Path) -> Result<Option<std::fs::File>> {
    let mut file = crate::files::open_no_follow(
        path,
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true),
    )?;
    #[cfg(unix)]
    {
        use std::io::{Read, Seek};
        use std::os::unix::io::AsRawFd;
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(Error::input(format!(
                "{}: another harness (pid {}) is running in this folder; wait for it, or choose another --out",
                dir.display(),
                holder.trim()
            )));
        }
        if !same_file(&file, path) {
            return Ok(None);
        }
        let _ = file.set_len(0);
        let _ = file.seek(std::io::SeekFrom::Start(0));
        let _ = std::io::Write::write_fmt(&mut file, format_args!("{}", std::process::id()));
    }
    Ok(Some(file))
}

/// Lock the run folder for a run; a new run (not `resume`) refuses a folder that already holds
/// files.
pub fn lock_for_run(run_dir: &Path, resume: bool) -> Result<RunLock> {
    let lock = lock_run_dir(run_dir).map_err(crate::store::run_folder_error)?;
    if !resume
        && std::fs::read_dir(run_dir)
            .map_err(|e| Error::io(run_dir, e))?
            .flatten()
            .any(|e| e.file_name() != crate::files::LOCK_FILE)
    {
        return Err(Error::input(format!("{}: already holds files; choose another --out, or --resume it (nothing was overwritten)", run_dir.display())));
    }
    Ok(lock)
}

/// Whether a run folder (its run.json `prev`) may be resumed under `charter` and this manifest.
/// Temp files a killed run left are cleared.
pub fn check_resumable(
    dir: &Path,
    prev: &RunRecord,
    charter: &Charter,
    loaded: &crate::suite::manifest::LoadedManifest,
) -> Result<()> {
    let path = dir.join("run.json");
    let sha = &prev.charter.sha256;
    if *sha != charter.sha256 {
        return Err(Error::input(format!(
            "{}: the run was made under charter {sha}, not {} ({}); resume it with the same charter, or start a new run",
            path.display(),
            charter.sha256,
            charter.source
        )));
    }
    // The same models at the same decoding, from the same manifest file: a resumed run must not
    // gate models the run never had, or trials made under another config.
    let json = |v: serde_json::Result<serde_json::Value>| v.unwrap_or_default();
    let models = (
        json(serde_json::to_value(&prev.manifest.models)),
        json(serde_json::to_value(&loaded.manifest.models)),
    );
    let decoding = (
        prev.manifest.decoding.clone(),
        json(serde_json::to_value(&loaded.manifest.decoding)),
    );
    for (key, (then, now)) in [("models", models), ("decoding", decoding)] {
        if then != now {
            return Err(Error::input(format!(
                "{}: the run was made with other {key} than {} has now; resume it with its own manifest ({}), or start a new run",
                path.display(),
                loaded.path.display(),
                prev.manifest_path.as_deref().unwrap_or("?")
            )));
        }
    }
    if let Some(recorded) = &prev.manifest_sha256 {
        let bytes =
            crate::files::read::read_bytes(&loaded.path, crate::files::read::Kind::Manifest)?;
        if crate::suite::charter::sha256_hex(&bytes) != *recorded {
            return Err(Error::input(format!(
                "{}: {} changed since the run started (sha256 differs); resume with the manifest the run was made with",
                path.display(),
                loaded.path.display()
            )));
        }
    }
    // A run killed mid-write leaves only temp files (writes are rename-atomic); clear them.
    for f in crate::store::leftover_temp_files(dir) {
        let _ = std::fs::remove_file(f);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run folder an earlier harness wrote: its run.json lacks arms, sandbox and the
    /// whole-gate size, and carries a field this harness does not know.
    fn older_run(results: &Path) -> PathBuf {
        let dir = results.join("20261129-100000-00aa");
        std::fs::create_dir_all(&dir).unwrap();
        let run = r#"{"harness_version": "0.1.0", "started": "2026-11-29T10:00:00Z",
            "charter": {"source": "/c/CHARTER.md", "sha256": "abc", "version": "0.3.1"},
            "manifest": {"models": [{"name": "m1", "role": "frontier"}]},
            "trials": 3, "from_the_future": {"x": 1}}"#;
        std::fs::write(dir.join("run.json"), run).unwrap();
        std::fs::write(
            dir.join("summary.json"),
            r#"{"verdict": "PASS", "units": []}"#,
        )
        .unwrap();
        dir
    }

    #[test]
    fn an_older_run_folder_with_an_unknown_field_still_reads_and_lists() {
        let results = tempfile::tempdir().unwrap();
        let dir = older_run(results.path());
        let run = read_run(&dir).unwrap();
        assert_eq!(run.arms(), ["charter"]);
        assert_eq!(run.model_names(), ["m1"]);
        let listed = crate::store::runs::list(results.path()).unwrap();
        assert!(listed.contains("2026-11-29T10:00:00Z"), "{listed}");
        assert!(
            listed.contains("charter 0.3.1") && listed.contains("PASS"),
            "{listed}"
        );
    }

    #[test]
    fn a_folder_without_run_json_is_named_with_the_run_folders_inside_it() {
        let results = tempfile::tempdir().unwrap();
        older_run(results.path());
        let e = read_run(results.path()).unwrap_err().to_string();
        assert!(e.contains("not a run folder (no run.json)"), "{e}");
        assert!(e.contains("20261129-100000-00aa"), "{e}");
    }

    #[test]
    fn shards_of_one_run_merge_into_its_record_and_another_runs_shard_is_refused() {
        let results = tempfile::tempdir().unwrap();
        let a = older_run(results.path());
        let b = results.path().join("shard-2");
        std::fs::create_dir_all(&b).unwrap();
        let mut run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(a.join("run.json")).unwrap()).unwrap();
        run["shard"] = serde_json::json!("2/2");
        std::fs::write(b.join("run.json"), run.to_string()).unwrap();
        let merged = merged_record(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(merged.shard, None);
        assert_eq!(merged.merged_from.unwrap().len(), 2);
        run["trials"] = serde_json::json!(5);
        std::fs::write(b.join("run.json"), run.to_string()).unwrap();
        let e = merged_record(&[a, b]).unwrap_err().to_string();
        assert!(
            e.contains("trials differs") && e.contains("only shards of one run merge"),
            "{e}"
        );
    }

    #[test]
    fn a_new_run_refuses_a_folder_holding_files_and_a_second_lock_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let lock = lock_for_run(dir.path(), false).unwrap();
        assert!(
            lock_for_run(dir.path(), true).is_err(),
            "held by the first run"
        );
        drop(lock);
        assert!(
            !dir.path().join(crate::files::LOCK_FILE).exists(),
            "a run that ends leaves no lock file"
        );
        std::fs::write(dir.path().join("run.json"), "{}").unwrap();
        let e = lock_for_run(dir.path(), false).err().unwrap().to_string();
        assert!(e.contains("already holds files"), "{e}");
        assert!(
            lock_for_run(dir.path(), true).is_ok(),
            "a resume may use it"
        );
    }

    fn files_in(dir: &Path) -> Vec<PathBuf> {
        crate::files::files_under(&[dir.to_path_buf()], |_| true).unwrap()
    }

    #[test]
    fn a_link_planted_in_a_held_run_folder_after_its_folders_were_checked_is_never_followed() {
        let results = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let run = results.path().join("run");
        let _lock = lock_for_run(&run, false).unwrap();
        let trial = |model: &str, n: u32| {
            let path = crate::store::transcript_path(&run, model, "E1", "default", n);
            crate::files::write_atomic(&path, b"{}\n")
        };
        trial("a", 1).unwrap();
        trial("b", 1).unwrap();
        let transcripts = run.join("transcripts");
        // The model's folder moved aside and a link to the outside put in its place.
        std::fs::rename(transcripts.join("a"), run.join("moved")).unwrap();
        std::os::unix::fs::symlink(outside.path(), transcripts.join("a")).unwrap();
        // The unit's folder removed and a link put in its place.
        std::fs::remove_dir_all(transcripts.join("b/E1-default")).unwrap();
        std::os::unix::fs::symlink(outside.path(), transcripts.join("b/E1-default")).unwrap();
        // A link where a folder the run has not written in yet will be.
        std::os::unix::fs::symlink(outside.path(), transcripts.join("c")).unwrap();
        // The run goes on writing (into the folder it opened, wherever that now is), or
        // refuses naming the link; it never writes through one.
        let _ = trial("a", 2);
        for (model, link) in [("b", "b/E1-default"), ("c", "c")] {
            let e = trial(model, 2).unwrap_err().to_string();
            let link = transcripts.join(link);
            assert!(
                e.contains(&format!(
                    "{}: is a symlink inside the run folder",
                    link.display()
                )),
                "{e}"
            );
        }
        assert!(
            files_in(outside.path()).is_empty(),
            "{:?}",
            files_in(outside.path())
        );
    }

    #[test]
    fn a_run_folder_resumed_with_a_planted_link_refuses_it_before_writing() {
        let results = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let run = results.path().join("run");
        std::fs::create_dir_all(run.join("transcripts")).unwrap();
        std::fs::write(run.join("run.json"), "{}").unwrap();
        std::os::unix::fs::symlink(outside.path(), run.join("transcripts/m")).unwrap();
        let _lock = lock_for_run(&run, true).unwrap();
        let path = crate::store::transcript_path(&run, "m", "E1", "default", 1);
        let e = crate::files::write_atomic(&path, b"{}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a symlink inside the run folder"), "{e}");
        assert!(files_in(outside.path()).is_empty());
        // The run's own files at its top level are written through the folder too.
        crate::files::write_atomic(&run.join("run.json"), b"{\"x\": 1}").unwrap();
        assert_eq!(std::fs::read(run.join("run.json")).unwrap(), b"{\"x\": 1}");
    }
}
