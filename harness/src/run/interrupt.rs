//! Ctrl-C (SIGINT) during a run: say how many trials were written and the command that finishes
//! the run, remove the run's trial folders (memory-backed /dev/shm would keep them until the
//! next run), and exit 130. Finished transcripts are whole files (written by rename) and stay.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The pipe's write end the signal handler wakes the watcher thread through.
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// Set by the signal handler itself, so no path that ends the run can miss a Ctrl-C that came
/// before it, even one the watcher thread has not read yet.
static FIRED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe work here: an atomic store and one write to a pipe.
    FIRED.store(true, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::Relaxed);
    if fd >= 0 {
        unsafe {
            libc::write(fd, b"!".as_ptr().cast(), 1);
        }
    }
}

/// While held, Ctrl-C ends the run in `run_dir` as described above; dropped, Ctrl-C kills the
/// process as usual.
pub struct Guard(());

impl Drop for Guard {
    fn drop(&mut self) {
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
        // Trials end at once when their folders go, so the run can reach its end before the
        // watcher has said what was kept; it ends the process with 130, not this thread with 1.
        wait_if_interrupted();
    }
}

/// After a Ctrl-C, never return: the watcher thread prints what was kept and exits 130. Called
/// where a run would go on to print its own summary.
pub fn wait_if_interrupted() {
    if FIRED.load(Ordering::SeqCst) {
        // The watcher removes folders for up to about two seconds; should it be gone, the
        // interrupt still ends the run with 130.
        std::thread::sleep(std::time::Duration::from_secs(30));
        std::process::exit(i32::from(crate::exit::INTERRUPTED));
    }
}

/// Catch Ctrl-C for the run in `run_dir`.
pub fn arm(run_dir: &Path) -> Guard {
    let mut fds = [0 as libc::c_int; 2];
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Guard(());
    }
    let before = trials_written(run_dir);
    let command = resume_command(std::env::args().collect(), run_dir);
    let run_dir = run_dir.to_path_buf();
    std::thread::spawn(move || {
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
        let now = trials_written(&run_dir);
        errln!(
            "{}",
            message(now.saturating_sub(before), now, &run_dir, removed, &command)
        );
        std::process::exit(i32::from(crate::exit::INTERRUPTED));
    });
    WAKE.store(fds[1], Ordering::Relaxed);
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
    }
    Guard(())
}

/// What an interrupted run says.
pub fn message(
    written: usize,
    in_folder: usize,
    run_dir: &Path,
    removed: usize,
    command: &str,
) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    format!(
        "\ninterrupted: {written} trial{} finished by this run ({in_folder} in {}), kept; \
         {removed} trial folder{} removed from {}.\nFinish the run (finished trials are kept, never repeated):\n  {command}",
        s(written),
        crate::suite::embedded::shown(run_dir),
        s(removed),
        crate::trial::workspace::scratch_root().display(),
    )
}

/// Completed trial transcripts in a run folder (both arms): the ones `--resume` keeps. A trial
/// cut short by the interrupt may leave an error transcript, which `--resume` runs again.
fn trials_written(run_dir: &Path) -> usize {
    crate::store::transcript_files(&[run_dir.to_path_buf()])
        .unwrap_or_default()
        .iter()
        .filter(|p| crate::store::is_trial_file(p))
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
    out.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A shell word: as is when safe, else in single quotes.
fn quote(a: &str) -> String {
    let safe = !a.is_empty()
        && a.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:=,@+-%".contains(&b));
    if safe {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
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
