//! The helper process (`harness __sandbox …`): it unshares the namespaces, forks the PID
//! namespace's init, which builds the root and forks the command; the command's process sets
//! its limits, drops to its own uid, confines itself with Landlock and execs.

#[cfg(target_os = "linux")]
use super::{is_root, namespace_flags, root::build_root, root::SYSTEM_DIRS};
#[cfg(target_os = "linux")]
use std::ffi::CString;
#[cfg(target_os = "linux")]
use std::path::{Path, PathBuf};

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
    enter_namespaces(root);
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

/// Unshare the mount, network and process namespaces (in a user namespace when not root, with
/// this uid and gid mapped to themselves); dies when it cannot.
#[cfg(target_os = "linux")]
fn enter_namespaces(root: bool) {
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    if unsafe { libc::unshare(namespace_flags(root)) } != 0 {
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
    join_fresh_keyring();
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
    if let Err(e) = super::seccomp::install() {
        die(
            &format!("sandbox: cannot install the seccomp filter: {e}"),
            125,
        );
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

/// A new anonymous session keyring (KEYCTL_JOIN_SESSION_KEYRING with no name), so no key of the
/// session that started the harness is the command's by possession. Where keyctl itself is
/// refused (an outer seccomp policy), no keyring is reachable from here at all.
#[cfg(target_os = "linux")]
fn join_fresh_keyring() {
    const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
    let r = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if r < 0 {
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::ENOSYS) | Some(libc::EPERM)) {
            die(
                &format!("sandbox: cannot join a fresh session keyring: {e}"),
                125,
            );
        }
    }
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
