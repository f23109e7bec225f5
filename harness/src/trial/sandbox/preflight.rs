//! Whether this machine can confine commands, checked once before any model is called, and
//! what to do when it cannot: the kernel setting that denies the sandbox and its fix.

#[cfg(target_os = "linux")]
use super::is_root;

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
    landlock_offered()?;
    let root = is_root();
    let said = match namespace_step_failed(root)? {
        0 => return Ok(()),
        1 if root => "cannot create mount, network and process namespaces",
        1 => "cannot create a user namespace with mount, network and process namespaces",
        2 => "cannot map the harness's user into a user namespace",
        3 => "cannot mount in the sandbox's mount namespace",
        _ => "the namespace check did not finish",
    };
    Err(format!("{said}: {}", advice(root, &UsernsSettings::read())))
}

/// The kernel reports a Landlock ABI (the second layer every command runs under).
#[cfg(target_os = "linux")]
fn landlock_offered() -> Result<(), String> {
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
    Ok(())
}

/// Fork a child that tries what the helper will do; the step it failed at (1 namespaces,
/// 2 user mapping, 3 mounting, 4 it did not finish), 0 when all went through.
#[cfg(target_os = "linux")]
fn namespace_step_failed(root: bool) -> Result<i32, String> {
    // Everything the child needs is made before the fork: it only makes system calls.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let uid_map = format!("{uid} {uid} 1");
    let gid_map = format!("{gid} {gid} 1");
    let mountpoint = crate::trial::workspace::tempdir("charter-harness-sandbox-check-")
        .map_err(|e| e.to_string())?;
    let target = super::root::cstr(mountpoint.path())?;
    let flags = super::namespace_flags(root);
    // SAFETY: the child only makes system calls on data prepared above, then exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let step = unsafe { try_namespaces(flags, root, &uid_map, &gid_map, &target) };
        unsafe { libc::_exit(step) };
    }
    if pid < 0 {
        return Err("fork failed".into());
    }
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    Ok(if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        4
    })
}

/// In the forked child: unshare, map the user (unless root), mount privately and a tmpfs on
/// `target`; the first step that failed, or 0. System calls only (the parent is threaded).
#[cfg(target_os = "linux")]
unsafe fn try_namespaces(
    flags: libc::c_int,
    root: bool,
    uid_map: &str,
    gid_map: &str,
    target: &std::ffi::CStr,
) -> i32 {
    if libc::unshare(flags) != 0 {
        1
    } else if !(root
        || write_proc(c"/proc/self/setgroups", "deny")
            && write_proc(c"/proc/self/uid_map", uid_map)
            && write_proc(c"/proc/self/gid_map", gid_map))
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
}

/// Write `text` to a /proc file with system calls only (no allocation after the fork).
#[cfg(target_os = "linux")]
fn write_proc(path: &std::ffi::CStr, text: &str) -> bool {
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        let ok = fd >= 0
            && libc::write(fd, text.as_ptr() as *const libc::c_void, text.len())
                == text.len() as isize;
        libc::close(fd);
        ok
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
