//! The sandbox's root file system, built by the namespace's init on a small tmpfs and pivoted
//! into: read-only binds of the system paths an interpreter needs, a few /etc files and /dev
//! nodes, a fresh /proc, a private /tmp and the workspace; nothing else of the host exists in it.

use std::ffi::CString;
use std::path::Path;

/// System folders bound read-only into the sandbox's root (or recreated as the links they are).
pub(super) const SYSTEM_DIRS: [&str; 7] = [
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

pub(super) fn cstr(p: &Path) -> Result<CString, String> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(p.as_os_str().as_bytes()).map_err(|_| format!("NUL in {}", p.display()))
}

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
fn bind_ro(src: &Path, dst: &Path) -> Result<(), String> {
    mount(Some(src), dst, None, libc::MS_BIND | libc::MS_REC, None)?;
    let flags = libc::MS_BIND
        | libc::MS_REMOUNT
        | libc::MS_RDONLY
        | libc::MS_NOSUID
        | libc::MS_NODEV
        | locked_flags(src)?;
    mount(None, dst, None, flags, None)
}

/// Bind `src` on `dst` writable but nosuid and nodev: a setuid file or a device node a
/// command makes there gives it nothing. (A bind takes no flags; the remount sets them.)
fn bind_rw(src: &Path, dst: &Path) -> Result<(), String> {
    mount(Some(src), dst, None, libc::MS_BIND, None)?;
    let flags =
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV | locked_flags(src)?;
    mount(None, dst, None, flags, None)
}

/// The flags of the mount holding `src` that a remount inside a user namespace must keep.
fn locked_flags(src: &Path) -> Result<libc::c_ulong, String> {
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
    Ok(locked)
}

/// Recreate `host` (a system folder or file) inside `new_root`: a link as the same link, a
/// folder or file as a read-only bind, nothing when absent.
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
pub(super) fn build_root(ws: &Path, boxdir: &Path) -> Result<(), String> {
    let r = boxdir.join("root");
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
    carry_system(&r)?;
    make_dev(&r)?;
    mount_proc(&r)?;
    mkdir(&r.join("tmp"))?;
    bind_rw(&boxdir.join("tmp"), &r.join("tmp"))?;
    let ws_inside = r.join(ws.strip_prefix("/").unwrap_or(ws));
    mkdir(&ws_inside)?;
    bind_rw(ws, &ws_inside)?;
    pivot_into(&r)
}

fn mkdir(p: &Path) -> Result<(), String> {
    std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// The system folders and the /etc entries, each as the host has it (see [`carry`]).
fn carry_system(r: &Path) -> Result<(), String> {
    for d in SYSTEM_DIRS {
        carry(Path::new(d), r)?;
    }
    mkdir(&r.join("etc"))?;
    for f in ETC {
        carry(Path::new(f), r)?;
    }
    Ok(())
}

/// /dev: the harmless device nodes bound from the host, and the standard links into /proc.
fn make_dev(r: &Path) -> Result<(), String> {
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
    Ok(())
}

fn mount_proc(r: &Path) -> Result<(), String> {
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
    Ok(())
}

/// Make `r` the root, let go of the host's, and make the new root read-only.
fn pivot_into(r: &Path) -> Result<(), String> {
    std::env::set_current_dir(r).map_err(|e| format!("{}: {e}", r.display()))?;
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
