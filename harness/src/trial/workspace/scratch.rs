//! The scratch folders trials work in (`/dev/shm` when it can be written), each named for the
//! process that owns it, so a later run removes the folders of a run that died.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Where trial workspaces go: `$CHARTER_HARNESS_TMPDIR`, else `/dev/shm` when it is a writable
/// folder (memory-backed, so a trial's hundred-odd file operations cost microseconds rather than
/// a disk journal's milliseconds), else the system's temp folder.
pub(crate) fn scratch_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        if let Some(dir) = crate::files::settings::var_os("CHARTER_HARNESS_TMPDIR") {
            return PathBuf::from(dir);
        }
        let shm = Path::new("/dev/shm");
        let writable = shm.is_dir()
            && tempfile::Builder::new()
                .prefix(&format!("charter-harness-probe-p{}-", std::process::id()))
                .tempdir_in(shm)
                .is_ok();
        if writable {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        }
    })
    .clone()
}

/// A scratch folder named for the process that owns it (`PREFIXp1234-…`), so a later run can
/// tell the folders of a run that died (SIGKILL leaves them in RAM on /dev/shm) from live ones.
pub fn tempdir(prefix: &str) -> Result<tempfile::TempDir> {
    let root = scratch_root();
    if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(Error::Internal("the run is stopping".into()));
    }
    tempfile::Builder::new()
        .prefix(&format!("{prefix}p{}-", std::process::id()))
        .tempdir_in(&root)
        .map_err(|e| {
            Error::io_op("create a trial folder in", &root, e)
                .next("set CHARTER_HARNESS_TMPDIR to a folder you may write")
        })
}

/// Remove the scratch folders of harness processes that are gone. Returns how many.
pub fn remove_stale() -> usize {
    // Liveness is read from /proc; without it nothing is known to be dead.
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    remove_owned_by(|pid| !Path::new(&format!("/proc/{pid}")).exists()).0
}

/// Set once the process is stopping: no new scratch folder is made.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Remove this process's own scratch folders (an interrupted run's trial folders), refusing
/// new ones from now on. Trials still running may be writing into them, so this repeats until
/// none has been seen for a few passes (or two seconds have passed). Returns how many were
/// removed.
pub fn remove_own() -> usize {
    STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
    let me = std::process::id();
    let (mut removed, mut quiet) = (0, 0);
    for _ in 0..100 {
        let (gone, left) = remove_owned_by(|pid| pid == me);
        removed += gone;
        quiet = if gone == 0 && left == 0 { quiet + 1 } else { 0 };
        if quiet == 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    removed
}

/// Remove the scratch folders whose owner pid `owner` accepts: (removed, still there).
fn remove_owned_by(owner: impl Fn(u32) -> bool) -> (usize, usize) {
    let root = scratch_root();
    let Ok(entries) = std::fs::read_dir(&root) else {
        return (0, 0);
    };
    let (mut removed, mut left) = (0, 0);
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("charter-harness-") else {
            continue;
        };
        // The owner pid follows the last "p" that starts a "p<digits>-" part.
        let pid = rest.split('-').find_map(|part| {
            part.strip_prefix('p')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse::<u32>().ok())
        });
        let Some(pid) = pid else { continue };
        if owner(pid) && e.file_type().is_ok_and(|t| t.is_dir()) {
            match std::fs::remove_dir_all(e.path()) {
                Ok(()) => removed += 1,
                Err(_) => left += 1,
            }
        }
    }
    (removed, left)
}

/// Whether the process is stopping (no new scratch folder or workspace is made).
pub(super) fn stopping() -> bool {
    STOPPING.load(std::sync::atomic::Ordering::SeqCst)
}
