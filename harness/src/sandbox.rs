//! The sandbox for every process the harness starts on a model's behalf (`run_tests`, the
//! behavioural probe): a model may have rewritten the script or written the code it runs.
//!
//! On Linux the harness starts itself as a small helper (`harness __sandbox …`, a fresh
//! single-threaded process, so nothing unsafe happens between fork and exec), which
//! - unshares a new network namespace (no interface is up: not even 127.0.0.1 is reachable) and
//!   a new PID namespace (when the command ends or is killed, every process it left dies with
//!   it), with a new user namespace first when the harness is not root;
//! - in the command's process: sets resource limits (CPU seconds, file size, processes, address
//!   space, open files, no core dumps), drops to uid/gid 65534 when started as root, and confines
//!   the file system with Landlock: read-only the system paths a shell and an interpreter need,
//!   read-write only the trial workspace and the sandbox's own temp folder; then execs.
//!
//! The harness runs the helper in its own process group and kills the group on timeout.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The uid and gid the sandboxed command runs as when the harness is root ("nobody").
pub const SANDBOX_ID: u32 = 65534;
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

/// Paths the sandboxed command may read (and execute): what `sh`, coreutils and Python need.
const READ_DIRS: [&str; 6] = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32"];
const READ_FILES: [&str; 6] = [
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/localtime",
    "/dev/urandom",
    "/dev/random",
    "/dev/zero",
];

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

/// Run `program args` in `workspace` under the sandbox (or unconfined), with a fresh temp
/// folder of its own. The command's environment is only PATH, HOME, TMPDIR and LANG.
pub async fn run(
    program: &str,
    args: &[String],
    workspace: &Path,
    limits: &Limits,
    mode: Mode,
) -> Result<Output, String> {
    let tmp =
        crate::workspace::tempdir("charter-harness-sandbox-tmp-").map_err(|e| e.to_string())?;
    let mut cmd = match mode {
        Mode::Confined => {
            chown_tree(workspace, SANDBOX_ID)?;
            chown_tree(tmp.path(), SANDBOX_ID)?;
            let mut c = tokio::process::Command::new(helper()?);
            c.arg(HELPER_ARG)
                .arg(workspace)
                .arg(tmp.path())
                // CPU seconds: one past the wall limit, so the wall limit (which names itself) wins.
                .arg((limits.timeout.as_secs() + 1).to_string())
                .arg(limits.max_file_bytes.to_string())
                .arg("--")
                .arg(program)
                .args(args);
            c
        }
        Mode::Unconfined => {
            let mut c = tokio::process::Command::new(program);
            c.args(args);
            c
        }
    };
    cmd.current_dir(workspace)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", workspace)
        .env("TMPDIR", tmp.path())
        .env("LANG", "C.UTF-8")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let child = cmd
        .spawn()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    let pgid = child.id().map(|p| p as i32);
    let out = tokio::time::timeout(limits.timeout, child.wait_with_output()).await;
    // Whatever happened, nothing the command started outlives it.
    if let Some(pg) = pgid {
        unsafe { libc::killpg(pg, libc::SIGKILL) };
    }
    if mode == Mode::Confined {
        // The workspace is the harness's again (git refuses a tree another user owns).
        chown_tree(workspace, unsafe { libc::geteuid() })?;
    }
    let cut = |b: &[u8]| {
        let text = String::from_utf8_lossy(&b[..b.len().min(limits.max_output_bytes)]).into_owned();
        if b.len() > limits.max_output_bytes {
            format!(
                "{text}\n[output cut at {} bytes of {}]",
                limits.max_output_bytes,
                b.len()
            )
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
        Ok(Err(e)) => Err(format!("{program}: {e}")),
        Ok(Ok(o)) => Ok(Output {
            stdout: cut(&o.stdout),
            stderr: cut(&o.stderr),
            code: o.status.code(),
            timed_out: false,
        }),
    }
}

/// When the harness is root, the sandbox user must own what the command may write, and the
/// harness takes it back afterwards. Links are changed, never followed.
fn chown_tree(dir: &Path, id: u32) -> Result<(), String> {
    if unsafe { libc::geteuid() } != 0 {
        return Ok(());
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        std::os::unix::fs::lchown(&p, Some(id), Some(id))
            .map_err(|e| format!("{}: {e}", p.display()))?;
        let meta = std::fs::symlink_metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            for e in std::fs::read_dir(&p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .flatten()
            {
                stack.push(e.path());
            }
        }
    }
    Ok(())
}

/// Whether this machine can confine commands, checked without starting anything: the kernel
/// reports a Landlock ABI, and a forked child (which only makes the system call, then exits) may
/// create the namespaces the helper needs. Cheap enough to run at every start.
#[cfg(not(target_os = "linux"))]
pub fn check() -> Result<(), String> {
    Err("the sandbox needs Linux (Landlock and namespaces)".into())
}

#[cfg(target_os = "linux")]
pub fn check() -> Result<(), String> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if abi < 1 {
        return Err(format!(
            "the kernel does not offer Landlock ({})",
            std::io::Error::last_os_error()
        ));
    }
    let root = unsafe { libc::geteuid() } == 0;
    let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: the child makes one system call and exits; nothing else runs after fork.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let ok = unsafe { libc::unshare(flags) } == 0;
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    if pid < 0 {
        return Err("fork failed".into());
    }
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        Ok(())
    } else {
        Err(
            "cannot create network and PID namespaces (the kernel or the container forbids it)"
                .into(),
        )
    }
}

/// `harness __sandbox WORKSPACE TMP CPU_SECS FSIZE -- PROGRAM ARGS…`: the helper's entry point,
/// called before anything else in `main`. Never returns.
#[cfg(not(target_os = "linux"))]
pub fn helper_main(_args: &[String]) -> ! {
    die("sandbox: the sandbox needs Linux", 125)
}

#[cfg(target_os = "linux")]
pub fn helper_main(args: &[String]) -> ! {
    let (Some(ws), Some(tmp), Some(cpu), Some(fsize), Some(sep)) = (
        args.first(),
        args.get(1),
        args.get(2),
        args.get(3),
        args.get(4),
    ) else {
        die(
            "usage: harness __sandbox WORKSPACE TMP CPU_SECS FSIZE -- PROGRAM ARGS…",
            125,
        )
    };
    if sep != "--" || args.len() < 6 {
        die(
            "usage: harness __sandbox WORKSPACE TMP CPU_SECS FSIZE -- PROGRAM ARGS…",
            125,
        );
    }
    let cpu: u64 = cpu.parse().unwrap_or(30);
    let fsize: u64 = fsize.parse().unwrap_or(16 << 20);
    let (ws, tmp) = (PathBuf::from(ws), PathBuf::from(tmp));
    let command: Vec<CString> = args[5..]
        .iter()
        .map(|a| CString::new(a.as_bytes()).unwrap_or_else(|_| die("NUL in an argument", 125)))
        .collect();

    let root = unsafe { libc::geteuid() } == 0;
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    if unsafe { libc::unshare(flags) } != 0 {
        die(
            &format!(
                "sandbox: cannot create network and process namespaces ({}); the kernel or the container forbids it",
                std::io::Error::last_os_error()
            ),
            125,
        );
    }
    if !root {
        let w = |f: &str, s: String| std::fs::write(f, s).is_ok();
        let ok = w("/proc/self/setgroups", "deny".into())
            && w("/proc/self/uid_map", format!("{uid} {uid} 1"))
            && w("/proc/self/gid_map", format!("{gid} {gid} 1"));
        if !ok {
            die("sandbox: cannot map the user namespace", 125);
        }
    }
    // The first child is PID 1 of the new namespace: when it ends, every process it left ends.
    match unsafe { libc::fork() } {
        -1 => die("sandbox: fork failed", 125),
        0 => confine_and_exec(&ws, &tmp, cpu, fsize, root, &command),
        child => {
            let mut status = 0;
            loop {
                let r = unsafe { libc::waitpid(child, &mut status, 0) };
                if r == child || r == -1 {
                    break;
                }
            }
            let code = if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else if libc::WIFSIGNALED(status) {
                128 + libc::WTERMSIG(status)
            } else {
                125
            };
            std::process::exit(code)
        }
    }
}

#[cfg(target_os = "linux")]
fn confine_and_exec(ws: &Path, tmp: &Path, cpu: u64, fsize: u64, root: bool, cmd: &[CString]) -> ! {
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let limit = |res, n: u64| {
        let l = libc::rlimit {
            rlim_cur: n,
            rlim_max: n,
        };
        if unsafe { libc::setrlimit(res, &l) } != 0 {
            die("sandbox: setrlimit failed", 125);
        }
    };
    limit(libc::RLIMIT_CPU, cpu);
    limit(libc::RLIMIT_FSIZE, fsize);
    limit(libc::RLIMIT_NPROC, 512);
    limit(libc::RLIMIT_AS, 2 << 30);
    limit(libc::RLIMIT_NOFILE, 256);
    limit(libc::RLIMIT_CORE, 0);
    if root {
        let id = SANDBOX_ID;
        let dropped = unsafe {
            libc::setgroups(0, std::ptr::null()) == 0
                && libc::setresgid(id, id, id) == 0
                && libc::setresuid(id, id, id) == 0
        };
        if !dropped || unsafe { libc::geteuid() } == 0 {
            die("sandbox: cannot drop root privileges", 125);
        }
    }
    if let Err(e) = landlock_confine(ws, tmp) {
        die(&format!("sandbox: Landlock is not available: {e}"), 125);
    }
    if std::env::set_current_dir(ws).is_err() {
        die("sandbox: cannot enter the workspace", 125);
    }
    let mut argv: Vec<*const libc::c_char> = cmd.iter().map(|c| c.as_ptr()).collect();
    argv.push(std::ptr::null());
    unsafe { libc::execvp(cmd[0].as_ptr(), argv.as_ptr()) };
    die(
        &format!(
            "sandbox: cannot run {}: {}",
            cmd[0].to_string_lossy(),
            std::io::Error::last_os_error()
        ),
        127,
    )
}

#[cfg(target_os = "linux")]
fn landlock_confine(ws: &Path, tmp: &Path) -> Result<(), String> {
    use landlock::{
        path_beneath_rules, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr,
        RulesetStatus, ABI,
    };
    let abi = ABI::V3;
    let e = |e: landlock::RulesetError| e.to_string();
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(e)?
        .create()
        .map_err(e)?
        .add_rules(path_beneath_rules(READ_DIRS, AccessFs::from_read(abi)))
        .map_err(e)?
        .add_rules(path_beneath_rules(READ_FILES, AccessFs::ReadFile))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            ["/dev/null"],
            AccessFs::ReadFile | AccessFs::WriteFile,
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules([ws, tmp], AccessFs::from_all(abi)))
        .map_err(e)?
        .restrict_self()
        .map_err(e)?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err("this kernel does not enforce Landlock".into());
    }
    Ok(())
}

fn die(msg: &str, code: i32) -> ! {
    eprintln!("{msg}");
    std::process::exit(code)
}

/// Called first by the binary: runs the helper when asked to, else returns.
pub fn maybe_helper() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(HELPER_ARG) {
        helper_main(&args[2..]);
    }
}
