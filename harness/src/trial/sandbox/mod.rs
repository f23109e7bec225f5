//! The sandbox for every process the harness starts on a model's behalf (`run_tests`, the
//! behavioural probe): a model may have rewritten the script or written the code it runs.
//!
//! On Linux the harness starts itself as a small helper (`harness __sandbox …`, a fresh
//! single-threaded process, so nothing unsafe happens between fork and exec), which
//! - dies with the harness however the harness ends (parent-death signal), and unshares new
//!   mount, network, PID, IPC and UTS namespaces (a user namespace first when not root);
//! - forks the PID namespace's init, which also dies with the helper, builds a minimal root
//!   (read-only binds of the system paths an interpreter needs, a few /etc files and /dev
//!   nodes, a fresh /proc, a private /tmp, the workspace read-write; nothing else exists in it),
//!   pivots into it and forks the command; when the command ends, init ends, and the kernel
//!   kills everything left in the namespace;
//! - in the command's process: sets resource limits (CPU seconds, file size, processes, address
//!   space, open files, no core dumps), drops to a uid/gid of its own when started as root
//!   (one per live command, from `uids.rs`, so one command's process limit is not another's),
//!   sets the parent-death signal again after that change (which clears it), and confines the
//!   file system with Landlock as a second layer; joins a fresh anonymous session keyring before the uid change
//!   (a key the CI job keeps in its session keyring is not the command's to possess), and last
//!   installs the seccomp allow-list ([`seccomp`]); then execs.
//!
//! The harness runs the helper in its own process group and kills the group (helper and init,
//! so the whole namespace) at the time limit and when the command ends.

mod helper;
mod preflight;
#[cfg(target_os = "linux")]
mod root;
pub mod seccomp;
mod syscalls;
mod uids;

pub use helper::helper_main;
pub use preflight::{advice, check, UsernsSettings};

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use uids::UID_BASE;
const HELPER_ARG: &str = "__sandbox";

/// Limits for one sandboxed command.
#[derive(Debug, Clone)]
pub struct Limits {
    pub timeout: Duration,
    /// Largest file the command may write (RLIMIT_FSIZE).
    pub max_file_bytes: u64,
    /// Bytes of stdout and stderr kept (each); the rest is cut with a marker.
    pub max_output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            max_file_bytes: 16 << 20,
            max_output_bytes: 64 << 10,
        }
    }
}

/// Whether commands run confined (the default) or, with `--no-sandbox`, as the harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Confined,
    Unconfined,
}

/// What a sandboxed command did.
#[derive(Debug, Clone)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// The exit code; None when killed by a signal (or by the timeout).
    pub code: Option<i32>,
    pub timed_out: bool,
}

static UNCONFINED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--no-sandbox`: every later command of this process runs unconfined.
pub fn set_unconfined(yes: bool) {
    UNCONFINED.store(yes, std::sync::atomic::Ordering::SeqCst);
}

/// The mode commands run in: confined unless `--no-sandbox` was given.
pub fn mode() -> Mode {
    if UNCONFINED.load(std::sync::atomic::Ordering::SeqCst) {
        Mode::Unconfined
    } else {
        Mode::Confined
    }
}

static HELPER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// The binary that acts as the helper: this one, unless set (tests run from another binary).
pub fn set_helper(path: impl Into<PathBuf>) {
    let _ = HELPER.set(path.into());
}

fn helper() -> Result<PathBuf, String> {
    match HELPER.get() {
        Some(p) => Ok(p.clone()),
        None => std::env::current_exe().map_err(|e| format!("cannot find the harness binary: {e}")),
    }
}

fn is_root() -> bool {
    unsafe { libc::geteuid() == 0 }
}

/// The uid a confined command runs as: one no running command holds (leased until the
/// command's processes are gone) when root, else the harness's own (mapped into a user
/// namespace of the command's own).
async fn command_id() -> (u32, Option<uids::Lease>) {
    if !is_root() {
        return (unsafe { libc::geteuid() }, None);
    }
    let lease = uids::lease().await;
    (lease.uid(), Some(lease))
}

/// The helper's command line for running `program args` in `workspace`, with `boxdir` (holding
/// `root/`, where the new root is built, and `tmp/`, the command's /tmp).
fn helper_command(
    workspace: &Path,
    boxdir: &Path,
    id: u32,
    limits: &Limits,
    program: &str,
    args: &[String],
) -> Result<std::process::Command, String> {
    let mut c = std::process::Command::new(helper()?);
    c.arg(HELPER_ARG)
        .arg(workspace)
        .arg(boxdir)
        // CPU seconds: one past the wall limit, so the wall limit (which names itself) wins.
        .arg((limits.timeout.as_secs() + 1).to_string())
        .arg(limits.max_file_bytes.to_string())
        .arg(id.to_string())
        .arg(std::process::id().to_string())
        .arg("--")
        .arg(program)
        .args(args);
    Ok(c)
}

/// Make `boxdir/root` and `boxdir/tmp`; the command will own its /tmp and the workspace.
fn prepare_box(workspace: &Path, boxdir: &Path, id: u32) -> Result<(), String> {
    let mk = |p: PathBuf| std::fs::create_dir(&p).map_err(|e| format!("{}: {e}", p.display()));
    mk(boxdir.join("root"))?;
    mk(boxdir.join("tmp"))?;
    chown_tree(workspace, id)?;
    chown_tree(&boxdir.join("tmp"), id)
}

/// Run `program args` in `workspace` under the sandbox (or unconfined), with a fresh temp
/// folder of its own. The command's environment is only PATH, HOME, TMPDIR and LANG.
pub async fn run(
    program: &str,
    args: &[String],
    workspace: &Path,
    limits: &Limits,
    mode: Mode,
) -> Result<Output, String> {
    let boxdir =
        crate::trial::workspace::tempdir("charter-harness-sandbox-").map_err(|e| e.to_string())?;
    // Held until the helper is reaped and the tree taken back (dropped at the end).
    let mut lease = None;
    let (cmd, tmpdir) = match mode {
        Mode::Confined => {
            let (id, held) = command_id().await;
            lease = held;
            prepare_box(workspace, boxdir.path(), id)
                .inspect_err(|e| tracing::warn!(error = %e, "sandbox set-up failed"))?;
            let c = helper_command(workspace, boxdir.path(), id, limits, program, args)?;
            (c, PathBuf::from("/tmp"))
        }
        Mode::Unconfined => {
            let tmp = boxdir.path().join("tmp");
            std::fs::create_dir(&tmp).map_err(|e| e.to_string())?;
            let mut c = std::process::Command::new(program);
            c.args(args);
            (c, tmp)
        }
    };
    let mut child = with_bare_env(cmd, workspace, tmpdir)
        .spawn()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    let pgid = child.id().map(|p| p as i32);
    let (so, se) = (child.stdout.take(), child.stderr.take());
    let max = limits.max_output_bytes;
    let all = async { tokio::join!(read_capped(so, max), read_capped(se, max), child.wait()) };
    let out = tokio::time::timeout(limits.timeout, all).await;
    // Whatever happened, nothing the command started outlives it: the group holds the helper
    // and the namespace's init, and init's end kills every process of the namespace.
    if let Some(pg) = pgid {
        unsafe { libc::killpg(pg, libc::SIGKILL) };
    }
    // The helper reaped before the tree is touched again.
    let _ = child.wait().await;
    if mode == Mode::Confined {
        // The workspace is the harness's again (git refuses a tree another user owns).
        chown_tree(workspace, unsafe { libc::geteuid() })?;
    }
    drop(lease);
    finish(out, mode, program, max)
}

type Finished = (
    (Vec<u8>, usize),
    (Vec<u8>, usize),
    std::io::Result<std::process::ExitStatus>,
);

/// The command's output, each stream cut at `max` bytes (saying so), or the timeout.
fn finish(
    out: Result<Finished, tokio::time::error::Elapsed>,
    mode: Mode,
    program: &str,
    max: usize,
) -> Result<Output, String> {
    let cut = |(kept, total): (Vec<u8>, usize)| {
        let text = String::from_utf8_lossy(&kept).into_owned();
        if total > max {
            format!("{text}\n[output cut at {max} bytes of {total}]")
        } else {
            text
        }
    };
    match out {
        Err(_) => Ok(Output {
            stdout: String::new(),
            stderr: String::new(),
            code: None,
            timed_out: true,
        }),
        Ok((_, _, Err(e))) => Err(format!("{program}: {e}")),
        // The helper exits 125 when it could not confine the command (namespaces, Landlock).
        Ok((o, e, Ok(status))) if mode == Mode::Confined && status.code() == Some(125) => {
            let stderr = cut(e);
            tracing::warn!(program, stderr = %stderr.trim_end(), "sandbox set-up failed");
            Ok(Output {
                stdout: cut(o),
                stderr,
                code: status.code(),
                timed_out: false,
            })
        }
        Ok((o, e, Ok(status))) => Ok(Output {
            stdout: cut(o),
            stderr: cut(e),
            code: status.code(),
            timed_out: false,
        }),
    }
}

/// `cmd` in `workspace` with only PATH, HOME, TMPDIR and LANG, no stdin, its output piped,
/// in a process group of its own, killed if dropped.
fn with_bare_env(
    cmd: std::process::Command,
    workspace: &Path,
    tmpdir: PathBuf,
) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::from(cmd);
    cmd.current_dir(workspace)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", workspace)
        .env("TMPDIR", tmpdir)
        .env("LANG", "C.UTF-8")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    cmd
}

/// Read a pipe to its end, keeping only its first `max` bytes (a command that prints gigabytes
/// costs the harness no memory); the bytes kept and the total.
async fn read_capped<R: tokio::io::AsyncRead + Unpin>(
    r: Option<R>,
    max: usize,
) -> (Vec<u8>, usize) {
    use tokio::io::AsyncReadExt;
    let (mut kept, mut total, mut buf) = (Vec::new(), 0usize, vec![0u8; 16 << 10]);
    let Some(mut r) = r else {
        return (kept, total);
    };
    while let Ok(n) = r.read(&mut buf).await {
        if n == 0 {
            break;
        }
        total += n;
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    (kept, total)
}

/// When the harness is root, the command's user must own what the command may write, and the
/// harness takes it back afterwards, through descriptors (a survivor racing the walk cannot
/// swap a folder for a link out).
fn chown_tree(dir: &Path, id: u32) -> Result<(), String> {
    if !is_root() {
        return Ok(());
    }
    crate::trial::confined::chown_tree(dir, id, id).map_err(|e| format!("{}: {e}", dir.display()))
}

/// The namespaces every command gets: mount, network, PID, IPC and UTS, in a user namespace
/// of its own when the harness is not root.
#[cfg(target_os = "linux")]
fn namespace_flags(root: bool) -> libc::c_int {
    let mut flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    flags
}

/// Called first by the binary: runs the helper when asked to, else returns.
/// The arguments are read as `OsString`: `std::env::args()` panics on one that is not UTF-8
/// (`harness show $'a\xff'`), and this runs before every command.
pub fn maybe_helper() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == HELPER_ARG) {
        let args: Vec<String> = args
            .map(|a| {
                a.into_string().unwrap_or_else(|a| {
                    errln!("sandbox: an argument is not UTF-8: {}", a.to_string_lossy());
                    std::process::exit(125)
                })
            })
            .collect();
        helper_main(&args);
    }
}
