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
//!   space, open files, no core dumps), drops to a uid/gid of its own when started as root (one
//!   per command, so one command's process limit is not another's), sets the parent-death
//!   signal again after that change (which clears it), and confines the file system with
//!   Landlock as a second layer; then execs.
//!
//! The harness runs the helper in its own process group and kills the group (helper and init,
//! so the whole namespace) at the time limit and when the command ends.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The first uid (and gid) of the range sandboxed commands run as when the harness is root:
/// 0x70000000 + (harness pid mod 2^22) × 64 + (command mod 64), far above every account and
/// below 2^31. Each command gets its own, so limits counted per user are per command.
pub const UID_BASE: u32 = 0x7000_0000;
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

/// System folders bound read-only into the sandbox's root (or recreated as the links they are).
const SYSTEM_DIRS: [&str; 7] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
];
/// The /etc entries the loader and an interpreter read; nothing else of /etc exists inside.
const ETC: [&str; 4] = [
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/localtime",
    "/etc/alternatives",
];
/// Device nodes bound into the sandbox's /dev.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

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

/// The uid a confined command runs as: a fresh one from the range when root, else the
/// harness's own (mapped into a user namespace of the command's own).
fn command_id() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    if !is_root() {
        return unsafe { libc::geteuid() };
    }
    let slot = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) & 0x3f;
    UID_BASE | ((std::process::id() & 0x3f_ffff) << 6) | slot
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
        crate::workspace::tempdir("charter-harness-sandbox-").map_err(|e| e.to_string())?;
    let (cmd, tmpdir) = match mode {
        Mode::Confined => {
            let id = command_id();
            prepare_box(workspace, boxdir.path(), id)?;
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
    let mut child = cmd
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
        Ok((o, e, Ok(status))) => Ok(Output {
            stdout: cut(o),
            stderr: cut(e),
            code: status.code(),
            timed_out: false,
        }),
    }
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
    crate::beneath::chown_tree(dir, id, id).map_err(|e| format!("{}: {e}", dir.display()))
}

/// The kernel settings that decide whether an unprivileged process may create a user
/// namespace, as read from /proc/sys (None where the file does not exist).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsernsSettings {
    /// kernel.apparmor_restrict_unprivileged_userns (Ubuntu 23.10 and later).
    pub apparmor_restrict: Option<String>,
    /// user.max_user_namespaces.
    pub max_user_namespaces: Option<String>,
    /// kernel.unprivileged_userns_clone (Debian's older kernels).
    pub unprivileged_userns_clone: Option<String>,
}

impl UsernsSettings {
    pub fn read() -> UsernsSettings {
        let r = |p: &str| {
            std::fs::read_to_string(p)
                .ok()
                .map(|s| s.trim().to_string())
        };
        UsernsSettings {
            apparmor_restrict: r("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
            max_user_namespaces: r("/proc/sys/user/max_user_namespaces"),
            unprivileged_userns_clone: r("/proc/sys/kernel/unprivileged_userns_clone"),
        }
    }
}

/// What to do when the sandbox could not start: the setting that denies it and the fix.
pub fn advice(root: bool, s: &UsernsSettings) -> String {
    let as_root = "or run the harness as root (for example with sudo), which needs no user namespace: the sandbox drops privileges itself for every command";
    if root {
        return "the harness runs as root, yet the kernel refused the namespaces: a container started without CAP_SYS_ADMIN or with a seccomp profile that denies unshare/mount forbids them; start it with `--cap-add SYS_ADMIN --security-opt seccomp=unconfined` (or --privileged), or run the harness outside the container".into();
    }
    if s.max_user_namespaces.as_deref() == Some("0") {
        return format!("user namespaces are disabled (user.max_user_namespaces = 0): allow them with `sudo sysctl -w user.max_user_namespaces=15000`, {as_root}");
    }
    if s.unprivileged_userns_clone.as_deref() == Some("0") {
        return format!("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0): allow them with `sudo sysctl -w kernel.unprivileged_userns_clone=1`, {as_root}");
    }
    if s.apparmor_restrict.as_deref() == Some("1") {
        return format!("AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, the default on Ubuntu 23.10 and later, GitHub's ubuntu-24.04 runners included): allow them with `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`, {as_root}");
    }
    format!(
        "the kernel or the container refused an unprivileged user namespace: allow them, {as_root}"
    )
}

/// Whether this machine can confine commands: the kernel reports a Landlock ABI, and a forked
/// child (system calls only) may create the helper's namespaces, map its user and mount in its
/// own mount namespace (what AppArmor's restriction of user namespaces takes away). Under a
/// millisecond, run once before any model is called. The error names the setting and the fix.
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
            "the kernel does not offer Landlock ({}); it needs Linux 5.13 or later with landlock in the kernel's lsm= list",
            std::io::Error::last_os_error()
        ));
    }
    // Everything the child needs is made before the fork: it only makes system calls.
    let root = is_root();
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let uid_map = format!("{uid} {uid} 1");
    let gid_map = format!("{gid} {gid} 1");
    let mountpoint =
        crate::workspace::tempdir("charter-harness-sandbox-check-").map_err(|e| e.to_string())?;
    let target = cstr(mountpoint.path())?;
    let mut flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    let write = |path: &std::ffi::CStr, text: &str| unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        let ok = fd >= 0
            && libc::write(fd, text.as_ptr() as *const libc::c_void, text.len())
                == text.len() as isize;
        libc::close(fd);
        ok
    };
    // SAFETY: the child only makes system calls on data prepared above, then exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let step = unsafe {
            if libc::unshare(flags) != 0 {
                1
            } else if !(root
                || write(c"/proc/self/setgroups", "deny")
                    && write(c"/proc/self/uid_map", &uid_map)
                    && write(c"/proc/self/gid_map", &gid_map))
            {
                2
            } else if libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
                || libc::mount(
                    c"tmpfs".as_ptr(),
                    target.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    std::ptr::null(),
                ) != 0
            {
                3
            } else {
                0
            }
        };
        unsafe { libc::_exit(step) };
    }
    if pid < 0 {
        return Err("fork failed".into());
    }
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    let step = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        4
    };
    let said = match step {
        0 => return Ok(()),
        1 if root => "cannot create mount, network and process namespaces",
        1 => "cannot create a user namespace with mount, network and process namespaces",
        2 => "cannot map the harness's user into a user namespace",
        3 => "cannot mount in the sandbox's mount namespace",
        _ => "the namespace check did not finish",
    };
    Err(format!("{said}: {}", advice(root, &UsernsSettings::read())))
}

/// `harness __sandbox WORKSPACE BOX CPU_SECS FSIZE UID PARENT -- PROGRAM ARGS…`: the helper's
/// entry point, called before anything else in `main`. Never returns.
#[cfg(not(target_os = "linux"))]
pub fn helper_main(_args: &[String]) -> ! {
    die("sandbox: the sandbox needs Linux", 125)
}

#[cfg(target_os = "linux")]
pub fn helper_main(args: &[String]) -> ! {
    const USAGE: &str =
        "usage: harness __sandbox WORKSPACE BOX CPU_SECS FSIZE UID PARENT -- PROGRAM ARGS…";
    if args.len() < 8 || args[6] != "--" {
        die(USAGE, 125);
    }
    let num = |s: &String| s.parse::<u64>().unwrap_or_else(|_| die(USAGE, 125));
    let (ws, boxdir) = (PathBuf::from(&args[0]), PathBuf::from(&args[1]));
    let (cpu, fsize, id, parent) = (num(&args[2]), num(&args[3]), num(&args[4]), num(&args[5]));
    let command: Vec<CString> = args[7..]
        .iter()
        .map(|a| CString::new(a.as_bytes()).unwrap_or_else(|_| die("NUL in an argument", 125)))
        .collect();

    let root = is_root();
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    if unsafe { libc::unshare(flags) } != 0 {
        die(
            &format!(
                "sandbox: cannot create the mount, network and process namespaces{} ({})",
                if root { "" } else { " in a user namespace" },
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
            die(
                &format!(
                    "sandbox: cannot map the user namespace ({})",
                    std::io::Error::last_os_error()
                ),
                125,
            );
        }
    }
    // Dies with the harness, however it ends (set after the namespace change, which may clear
    // it); a harness already gone is seen at once.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    if unsafe { libc::getppid() } as u64 != parent {
        die("sandbox: the harness is gone", 125);
    }
    // Init learns that the helper is gone from this pipe (its parent is outside the namespace,
    // so getppid cannot tell it).
    let mut pipe = [0; 2];
    if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        die("sandbox: pipe failed", 125);
    }
    match unsafe { libc::fork() } {
        -1 => die("sandbox: fork failed", 125),
        0 => {
            unsafe { libc::close(pipe[1]) };
            init(&ws, &boxdir, pipe[0], cpu, fsize, id as u32, root, &command)
        }
        child => {
            unsafe { libc::close(pipe[0]) };
            std::process::exit(wait_for(child))
        }
    }
}

/// Wait for `pid`, reaping whatever else ends meanwhile; its exit code, or 128 + the signal.
#[cfg(target_os = "linux")]
fn wait_for(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    loop {
        let r = unsafe { libc::waitpid(-1, &mut status, 0) };
        if r == pid {
            break;
        }
        if r == -1 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return 125;
        }
    }
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        125
    }
}

/// PID 1 of the namespace: build the root, start the command, reap, and end with the command,
/// which ends every process it left.
#[cfg(target_os = "linux")]
#[allow(clippy::too_many_arguments)]
fn init(
    ws: &Path,
    boxdir: &Path,
    helper_alive: libc::c_int,
    cpu: u64,
    fsize: u64,
    id: u32,
    root: bool,
    cmd: &[CString],
) -> ! {
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let mut p = libc::pollfd {
        fd: helper_alive,
        events: libc::POLLIN,
        revents: 0,
    };
    if unsafe { libc::poll(&mut p, 1, 0) } != 0 {
        die("sandbox: the helper is gone", 125);
    }
    if let Err(e) = build_root(ws, boxdir) {
        die(
            &format!("sandbox: cannot build the sandbox's root: {e}"),
            125,
        );
    }
    match unsafe { libc::fork() } {
        -1 => die("sandbox: fork failed", 125),
        0 => confine_and_exec(ws, cpu, fsize, id, root, cmd),
        child => std::process::exit(wait_for(child)),
    }
}

#[cfg(target_os = "linux")]
fn cstr(p: &Path) -> Result<CString, String> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(p.as_os_str().as_bytes()).map_err(|_| format!("NUL in {}", p.display()))
}

#[cfg(target_os = "linux")]
fn mount(
    src: Option<&Path>,
    dst: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> Result<(), String> {
    let src_c = src.map(cstr).transpose()?;
    let dst_c = cstr(dst)?;
    let fs_c = fstype.map(|f| CString::new(f).expect("no NUL"));
    let data_c = data.map(|d| CString::new(d).expect("no NUL"));
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    let r = unsafe {
        libc::mount(
            ptr(&src_c),
            dst_c.as_ptr(),
            ptr(&fs_c),
            flags,
            data_c
                .as_ref()
                .map_or(std::ptr::null(), |c| c.as_ptr() as *const libc::c_void),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(format!(
            "mount {} on {}: {}",
            src.map_or("-".into(), |s| s.display().to_string()),
            dst.display(),
            std::io::Error::last_os_error()
        ))
    }
}

/// Bind `src` on `dst` read-only, keeping the flags a user namespace may not drop.
#[cfg(target_os = "linux")]
fn bind_ro(src: &Path, dst: &Path) -> Result<(), String> {
    mount(Some(src), dst, None, libc::MS_BIND | libc::MS_REC, None)?;
    let mut locked = 0;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(cstr(src)?.as_ptr(), &mut st) } == 0 {
        for (st_flag, ms_flag) in [
            (libc::ST_NOEXEC, libc::MS_NOEXEC),
            (libc::ST_NOATIME, libc::MS_NOATIME),
            (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
            (libc::ST_RELATIME, libc::MS_RELATIME),
        ] {
            if st.f_flag & st_flag != 0 {
                locked |= ms_flag;
            }
        }
    }
    let flags = libc::MS_BIND
        | libc::MS_REMOUNT
        | libc::MS_RDONLY
        | libc::MS_NOSUID
        | libc::MS_NODEV
        | locked;
    mount(None, dst, None, flags, None)
}

/// Recreate `host` (a system folder or file) inside `new_root`: a link as the same link, a
/// folder or file as a read-only bind, nothing when absent.
#[cfg(target_os = "linux")]
fn carry(host: &Path, new_root: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::symlink_metadata(host) else {
        return Ok(());
    };
    let inside = new_root.join(host.strip_prefix("/").unwrap_or(host));
    let e = |e: std::io::Error| format!("{}: {e}", inside.display());
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(host).map_err(e)?;
        return std::os::unix::fs::symlink(target, &inside).map_err(e);
    }
    if meta.is_dir() {
        std::fs::create_dir(&inside).map_err(e)?;
    } else {
        std::fs::write(&inside, b"").map_err(e)?;
    }
    bind_ro(host, &inside)
}

/// The sandbox's root, built on a small tmpfs at `BOX/root` and pivoted into: the system
/// folders, a few /etc files, /dev nodes, a fresh /proc of this PID namespace, `BOX/tmp` as
/// /tmp and the workspace at its own path. Nothing of the host else is there: no home, no
/// checkout, no other trial, no socket, not even a name to stat.
#[cfg(target_os = "linux")]
fn build_root(ws: &Path, boxdir: &Path) -> Result<(), String> {
    let r = boxdir.join("root");
    let mkdir = |p: &Path| std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()));
    mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )?;
    mount(
        Some(Path::new("tmpfs")),
        &r,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("mode=0755,size=1m,nr_inodes=4096"),
    )?;
    for d in SYSTEM_DIRS {
        carry(Path::new(d), &r)?;
    }
    mkdir(&r.join("etc"))?;
    for f in ETC {
        carry(Path::new(f), &r)?;
    }
    let dev = r.join("dev");
    mkdir(&dev)?;
    for d in DEVICES {
        let host = Path::new("/dev").join(d);
        if host.exists() {
            let inside = dev.join(d);
            std::fs::write(&inside, b"").map_err(|e| format!("{}: {e}", inside.display()))?;
            mount(Some(&host), &inside, None, libc::MS_BIND, None)?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(name)).map_err(|e| e.to_string())?;
    }
    let proc_dir = r.join("proc");
    mkdir(&proc_dir)?;
    // A proc of this PID namespace; where a user namespace may not mount one (a container
    // that masks parts of the host's), the command runs without /proc.
    let _ = mount(
        Some(Path::new("proc")),
        &proc_dir,
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    );
    mkdir(&r.join("tmp"))?;
    mount(
        Some(&boxdir.join("tmp")),
        &r.join("tmp"),
        None,
        libc::MS_BIND,
        None,
    )?;
    let ws_inside = r.join(ws.strip_prefix("/").unwrap_or(ws));
    mkdir(&ws_inside)?;
    mount(Some(ws), &ws_inside, None, libc::MS_BIND, None)?;

    std::env::set_current_dir(&r).map_err(|e| format!("{}: {e}", r.display()))?;
    let dot = c".";
    if unsafe { libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) } != 0 {
        return Err(format!("pivot_root: {}", std::io::Error::last_os_error()));
    }
    // The host's root, now stacked under the new one, is let go of entirely.
    if unsafe { libc::umount2(dot.as_ptr(), libc::MNT_DETACH) } != 0 {
        return Err(format!(
            "detaching the host's root: {}",
            std::io::Error::last_os_error()
        ));
    }
    std::env::set_current_dir("/").map_err(|e| e.to_string())?;
    mount(
        None,
        Path::new("/"),
        None,
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        None,
    )
}

#[cfg(target_os = "linux")]
fn confine_and_exec(ws: &Path, cpu: u64, fsize: u64, id: u32, root: bool, cmd: &[CString]) -> ! {
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
        let dropped = unsafe {
            libc::setgroups(0, std::ptr::null()) == 0
                && libc::setresgid(id, id, id) == 0
                && libc::setresuid(id, id, id) == 0
        };
        if !dropped || unsafe { libc::geteuid() } == 0 {
            die("sandbox: cannot drop root privileges", 125);
        }
    }
    // After the uid change, which clears it: the command dies with init.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    if let Err(e) = landlock_confine(ws) {
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

/// The second layer, inside the new root: read-only the system paths, read-write only the
/// workspace and /tmp.
#[cfg(target_os = "linux")]
fn landlock_confine(ws: &Path) -> Result<(), String> {
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
        .add_rules(path_beneath_rules(
            SYSTEM_DIRS.iter().chain(&["/etc", "/proc"]),
            AccessFs::from_read(abi),
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            ["/dev/urandom", "/dev/random", "/dev/zero"],
            AccessFs::ReadFile,
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            ["/dev/null", "/dev/full"],
            AccessFs::ReadFile | AccessFs::WriteFile,
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            [ws, Path::new("/tmp")],
            AccessFs::from_all(abi),
        ))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(apparmor: Option<&str>, max: Option<&str>, clone: Option<&str>) -> UsernsSettings {
        UsernsSettings {
            apparmor_restrict: apparmor.map(String::from),
            max_user_namespaces: max.map(String::from),
            unprivileged_userns_clone: clone.map(String::from),
        }
    }

    #[test]
    fn ubuntus_apparmor_restriction_is_named_with_its_sysctl_and_the_root_alternative() {
        let m = advice(false, &settings(Some("1"), Some("63450"), None));
        assert!(
            m.contains("kernel.apparmor_restrict_unprivileged_userns = 1"),
            "{m}"
        );
        assert!(
            m.contains("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
            "{m}"
        );
        assert!(m.contains("as root"), "{m}");
        assert!(!m.contains("--no-sandbox"), "{m}");
    }

    #[test]
    fn zero_user_namespaces_and_debians_switch_are_named_before_apparmor() {
        let m = advice(false, &settings(Some("1"), Some("0"), None));
        assert!(m.contains("user.max_user_namespaces = 0"), "{m}");
        assert!(
            m.contains("sudo sysctl -w user.max_user_namespaces="),
            "{m}"
        );
        let m = advice(false, &settings(Some("0"), Some("100"), Some("0")));
        assert!(
            m.contains("sudo sysctl -w kernel.unprivileged_userns_clone=1"),
            "{m}"
        );
        // Nothing restrictive is set: no sysctl is blamed.
        let m = advice(false, &settings(Some("0"), Some("100"), Some("1")));
        assert!(!m.contains("sysctl"), "{m}");
        assert!(m.contains("as root"), "{m}");
    }

    #[test]
    fn as_root_a_refusal_points_at_the_container_not_at_user_namespaces() {
        let m = advice(true, &settings(Some("1"), Some("0"), None));
        assert!(m.contains("CAP_SYS_ADMIN"), "{m}");
        assert!(!m.contains("sysctl"), "{m}");
    }
}
