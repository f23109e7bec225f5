//! Ctrl-C (SIGINT) or SIGTERM (a CI job's timeout, `kill`) during a run: say how many trials
//! were written and the command that finishes the run, remove the run's trial folders
//! (memory-backed /dev/shm would keep them until the next run) and its folder's lock file, and
//! exit 130. Finished transcripts are whole files (written by rename) and stay. The handlers are the `signal-hook`
//! crate's (registered once per process, chained safely with any other), not hand-written
//! `libc::signal` calls: outside a run they act as the default handler would.

use crate::store::run_folder::RunLock;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The pipe's write end the signal handler wakes the watcher thread through.
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// Set by the signal handler itself, so no path that ends the run can miss a signal that came
/// before it, even one the watcher thread has not read yet.
static FIRED: AtomicBool = AtomicBool::new(false);
/// Which signal ended the run.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// While a run holds a [`Guard`]: the signals end the run as described above.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Completed transcripts the run has written since it was armed (the runner counts each as it
/// writes it): what an interrupt says this run finished, without reading the folder again.
static WRITTEN: AtomicUsize = AtomicUsize::new(0);

/// A completed trial's transcript is written (the runner says so after each write).
pub fn completed_written() {
    WRITTEN.fetch_add(1, Ordering::SeqCst);
}

/// The run folders' locks this process's runs hold. A run's end drops its own (removing the
/// lock file); an interrupt ends the process with `exit`, which runs no destructor, so it drops
/// them all first: an interrupted run folder keeps no lock file either.
static HELD: Mutex<Vec<RunLock>> = Mutex::new(Vec::new());

fn held() -> MutexGuard<'static, Vec<RunLock>> {
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

/// Drop every lock held (each removes its file), then exit 130.
fn exit_interrupted() -> ! {
    drop(std::mem::take(&mut *held()));
    std::process::exit(i32::from(crate::exit::INTERRUPTED));
}

/// The signals a run ends on: Ctrl-C, and SIGTERM handled the same way.
const SIGNALS: [libc::c_int; 2] = [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];

/// Register the handlers once per process. Only async-signal-safe work runs in them: atomics,
/// one write to a pipe, or (outside a run) the default action.
fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        for sig in SIGNALS {
            let action = move || {
                if !ACTIVE.load(Ordering::SeqCst) {
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    return;
                }
                SIGNAL.store(sig, Ordering::SeqCst);
                FIRED.store(true, Ordering::SeqCst);
                let fd = WAKE.load(Ordering::Relaxed);
                if fd >= 0 {
                    unsafe {
                        libc::write(fd, b"!".as_ptr().cast(), 1);
                    }
                }
            };
            // SAFETY: the action does only async-signal-safe work (see above).
            let _ = unsafe { signal_hook::low_level::register(sig, action) };
        }
    });
}

/// While held, Ctrl-C or SIGTERM ends the run in `run_dir` as described above; dropped, the
/// run folder's lock is released and they end the process as usual.
pub struct Guard {
    /// The run folder's lock file: which of [`HELD`] is this run's.
    lock: PathBuf,
    /// The command that finishes the run (`--resume`).
    command: String,
}

impl Guard {
    /// The command line that finishes this run folder: this one, resumed.
    pub fn command(&self) -> &str {
        &self.command
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // Released while the signals still end the run: a signal from here on finds the lock
        // file gone, or removes it itself.
        let mine = {
            let mut held = held();
            let at = held.iter().position(|l| l.path() == self.lock);
            at.map(|i| held.remove(i))
        };
        drop(mine);
        ACTIVE.store(false, Ordering::SeqCst);
        // Trials end at once when their folders go, so the run can reach its end before the
        // watcher has said what was kept; it ends the process with 130, not this thread with 1.
        wait_if_interrupted();
    }
}

/// After a Ctrl-C or SIGTERM, never return: the watcher thread prints what was kept and exits
/// 130. Called where a run would go on to print its own summary.
pub fn wait_if_interrupted() {
    if FIRED.load(Ordering::SeqCst) {
        // The watcher removes folders for up to about two seconds; should it be gone, the
        // interrupt still ends the run with 130.
        std::thread::sleep(std::time::Duration::from_secs(30));
        exit_interrupted();
    }
}

/// Catch Ctrl-C and SIGTERM for the run in `run_dir`, holding its folder's `lock` until the
/// run ends, however it ends.
pub fn arm(run_dir: &Path, lock: RunLock) -> Guard {
    let command = resume_command(argv(), run_dir);
    let shown = crate::suite::embedded::shown(run_dir);
    let guard = Guard {
        lock: lock.path().to_path_buf(),
        command: command.clone(),
    };
    held().push(lock);
    let mut fds = [0 as libc::c_int; 2];
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return guard;
    }
    WRITTEN.store(0, Ordering::SeqCst);
    let (folder, armed) = (run_dir.to_path_buf(), std::time::SystemTime::now());
    std::thread::spawn(move || {
        // Completed transcripts the folder held before this run (a resumed run's), counted here
        // while the run plans and starts; the run's own are counted as it writes them, and a
        // transcript it writes while this counts is newer than `armed`, so never counted twice.
        let before = trials_written(&folder, armed);
        let mut b = [0u8; 1];
        loop {
            match unsafe { libc::read(fds[0], b.as_mut_ptr().cast(), 1) } {
                1 => break,
                -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {
                }
                _ => return,
            }
        }
        let removed = crate::trial::workspace::remove_own();
        let written = WRITTEN.load(Ordering::SeqCst);
        let by = match SIGNAL.load(Ordering::SeqCst) {
            signal_hook::consts::SIGTERM => "terminated (SIGTERM)",
            _ => "interrupted",
        };
        // Held until the process ends: a trial cut short by its removed folder reports on
        // another thread, and its line must not land after the command this ends with (the
        // lock is reentrant, so this thread's own `errln!` still writes).
        let _last_word = std::io::stderr().lock();
        errln!(
            "{}",
            message(written, before + written, &shown, removed, &command).replacen(
                "interrupted",
                by,
                1
            )
        );
        exit_interrupted();
    });
    WAKE.store(fds[1], Ordering::Relaxed);
    install();
    ACTIVE.store(true, Ordering::SeqCst);
    guard
}

/// What an interrupted run says; `shown` is the run folder as printed.
pub fn message(
    written: usize,
    in_folder: usize,
    shown: &str,
    removed: usize,
    command: &str,
) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    format!(
        "\ninterrupted: {written} trial{} finished by this run ({in_folder} in {}), kept; \
         {removed} trial folder{} removed from {}.\nFinish the run (finished trials are kept, never repeated):\n  {command}",
        s(written),
        shown,
        s(removed),
        crate::trial::workspace::scratch_root().display(),
    )
}

/// Completed trial transcripts in a run folder (both arms) written before `armed`: the ones
/// `--resume` keeps. A trial cut short by the interrupt may leave an error transcript, which
/// `--resume` runs again.
fn trials_written(run_dir: &Path, armed: std::time::SystemTime) -> usize {
    crate::store::transcript_files(&[run_dir.to_path_buf()])
        .unwrap_or_default()
        .iter()
        .filter(|p| crate::store::is_trial_file(p))
        .filter(|p| {
            std::fs::metadata(p)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < armed)
        })
        .filter(|p| {
            crate::store::read_transcript(p)
                .is_ok_and(|t| t.outcome == checkers::Outcome::Completed)
        })
        .count()
}

/// The command line that was run, with `--out DIR` (or an earlier `--resume DIR`) replaced by
/// `--resume RUN_DIR`: the same matrix, filters and options.
pub fn resume_command(argv: Vec<String>, run_dir: &Path) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut args = argv.into_iter();
    if let Some(bin) = args.next() {
        out.push(bin);
    }
    while let Some(a) = args.next() {
        if a == "--out" || a == "--resume" {
            args.next();
            continue;
        }
        if a.starts_with("--out=") || a.starts_with("--resume=") {
            continue;
        }
        out.push(a);
    }
    out.push("--resume".into());
    out.push(crate::suite::embedded::shown(&absolute(run_dir)));
    out.iter()
        .map(|a| crate::output::shell_word(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The exact command that finishes the run in `run_dir`: this `run` command line resumed, or
/// (after `gate` or `merge`) `harness run --resume RUN_DIR`, which reloads the manifest the run
/// recorded.
pub fn finish_command(run_dir: &Path) -> String {
    let argv = argv();
    if argv.get(1).map(String::as_str) == Some("run") {
        return resume_command(argv, run_dir);
    }
    let bin = argv.first().cloned().unwrap_or_else(|| "harness".into());
    resume_command(vec![bin, "run".into()], run_dir)
}

/// The command line as text: `std::env::args()` panics on an argument that is not UTF-8 (a
/// path), so each is read as an `OsString` and shown lossily (the resume line is for a person).
fn argv() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use checkers::{Message, Role, Transcript};

    #[test]
    fn a_resumed_folders_trials_are_those_completed_before_the_run_armed_never_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let armed = std::time::SystemTime::now();
        let ten = std::time::Duration::from_secs(10);
        // Each transcript's time set, not waited for: a file system's clock may be coarse.
        let write = |trial: u32, at: std::time::SystemTime| {
            let t = Transcript {
                trial,
                ..Transcript::new(
                    "E1",
                    "default",
                    "m",
                    0,
                    vec![Message::new(Role::Assistant, "x")],
                )
            };
            let path = crate::store::transcript_path(dir.path(), "m", "E1", "default", trial);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, serde_json::to_vec(&t).unwrap()).unwrap();
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(at).unwrap();
        };
        write(1, armed - ten);
        write(2, armed - ten);
        // Written by this run while the count runs: the run counts it as its own.
        write(3, armed + ten);
        assert_eq!(trials_written(dir.path(), armed), 2);
        assert_eq!(trials_written(dir.path(), armed + ten + ten), 3);
    }

    use super::*;

    #[test]
    fn the_resume_command_keeps_every_option_and_replaces_out() {
        let argv = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            resume_command(
                argv("harness run --matrix offline --out /tmp/x --case E8 --trials 1"),
                Path::new("/nonexistent/r 1")
            ),
            "harness run --matrix offline --case E8 --trials 1 --resume '/nonexistent/r 1'"
        );
        assert_eq!(
            resume_command(
                argv("harness run --resume=/a/b --matrix m.toml"),
                Path::new("/a/b")
            ),
            "harness run --matrix m.toml --resume /a/b"
        );
    }
}
