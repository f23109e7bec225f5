//! Taking a workspace back after a sandboxed command, before the harness reads it: owner and
//! modes reset, special files and hard links removed, files over the caps dropped.

use crate::trial::confined::{self, Kind, Root};
use std::path::Path;

/// Take the tree back after a sandboxed command (`after` names it), before anything reads it:
/// every folder and file owned by the harness's uid with plain modes (folders 0755, the root
/// 0700, files 0644 or 0755 when executable: no setuid, setgid, sticky or world-writable bit);
/// FIFOs, sockets, devices and files with a second name (a hard link can be a file outside)
/// removed; then files over `max_file_bytes`, and the largest files while the workspace is over
/// `max_workspace_bytes`, dropped, through the folder's descriptor (never by a full path, which
/// may pass PATH_MAX); more files than `max_files`: the newest names past the cap dropped.
/// Returns a line for each removal, for `caps_hit`; an entry the walk could not see is a
/// containment finding (its line starts with [`confined::CONTAINMENT`]).
pub fn reclaim(root: &Path, caps: &crate::trial::tools::Caps, after: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let handle = match Root::open(root) {
        Ok(h) => h,
        Err(e) => return vec![format!("{after}: could not take the workspace back: {e}")],
    };
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let owner = |st: &rustix::fs::Stat| st.st_uid == uid && st.st_gid == gid;
    let _ = reset(handle.fd(), 0o700, uid, gid);
    let mut files: Vec<(Vec<u8>, String, u64)> = Vec::new();
    let walked = handle.walk("", &|_| false, &mut |e| {
        let mode = e.stat.st_mode & 0o7777;
        match e.kind {
            Kind::Unreadable => {
                notes.push(unreadable(e, after));
                false
            }
            Kind::Dir => {
                if mode != 0o755 || !owner(&e.stat) {
                    open_and_reset(e, true, 0o755, uid, gid);
                }
                true
            }
            Kind::File if e.stat.st_nlink > 1 => {
                remove(e, &mut notes, after, "a file with another name (hard link)");
                false
            }
            Kind::File => {
                let want = if mode & 0o111 != 0 { 0o755 } else { 0o644 };
                if mode != want || !owner(&e.stat) {
                    open_and_reset(e, false, want, uid, gid);
                }
                if e.stat.st_size as u64 > caps.max_file_bytes {
                    let why = format!("over max_file_bytes ({})", caps.max_file_bytes);
                    drop_entry(e, e.stat.st_size as u64, &why, after, &mut notes);
                } else if e.rel != ".git" {
                    // (git's own link to its folder outside is no file of the model's)
                    files.push((e.raw.clone(), e.rel.clone(), e.stat.st_size as u64));
                }
                false
            }
            Kind::Link => {
                if !owner(&e.stat) {
                    own_link(e, uid, gid);
                }
                false
            }
            Kind::Special(what) => {
                remove(e, &mut notes, after, what);
                false
            }
        }
    });
    if let Err(e) = walked {
        notes.push(format!("{after}: could not take the workspace back: {e}"));
    }
    drop_over_caps(&handle, files, caps, after, &mut notes);
    notes
}

/// An entry the script made unreadable: removed if it can be, named either way (a containment
/// finding).
fn unreadable(e: &confined::Entry<'_>, after: &str) -> String {
    let why = e.error.clone().unwrap_or_default();
    let gone = confined::remove_tree(e.dir, e.name)
        .or_else(|_| {
            rustix::fs::unlinkat(e.dir, e.name, rustix::fs::AtFlags::empty())
                .map_err(std::io::Error::from)
        })
        .is_ok();
    format!(
        "{}{after}: the harness could not walk {} ({why}){}",
        confined::CONTAINMENT,
        e.rel,
        if gone { "; removed" } else { "" }
    )
}

/// A symbolic link owned by the harness again, the link itself (never what it points to).
fn own_link(e: &confined::Entry<'_>, uid: libc::uid_t, gid: libc::gid_t) {
    let _ = rustix::fs::chownat(
        e.dir,
        e.name,
        Some(rustix::fs::Uid::from_raw(uid)),
        Some(rustix::fs::Gid::from_raw(gid)),
        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
    );
}

/// Remove a walked entry (a folder too deep to walk: with everything in it).
fn remove(e: &confined::Entry<'_>, notes: &mut Vec<String>, after: &str, what: &str) {
    let removed = if e.kind == confined::TOO_DEEP {
        confined::remove_tree(e.dir, e.name)
    } else {
        rustix::fs::unlinkat(e.dir, e.name, rustix::fs::AtFlags::empty()).map_err(Into::into)
    };
    match removed {
        Ok(()) => notes.push(format!("{after}: removed {}: {what}", e.rel)),
        Err(err) => notes.push(format!("{after}: left {} ({what}): {err}", e.rel)),
    }
}

/// Owner and mode of an open folder or file.
fn reset(fd: std::os::fd::BorrowedFd<'_>, mode: u32, uid: u32, gid: u32) -> std::io::Result<()> {
    if unsafe { libc::geteuid() } == 0 {
        rustix::fs::fchown(
            fd,
            Some(rustix::fs::Uid::from_raw(uid)),
            Some(rustix::fs::Gid::from_raw(gid)),
        )?;
    }
    rustix::fs::fchmod(fd, rustix::fs::Mode::from_raw_mode(mode))?;
    Ok(())
}

/// Reset a walked entry through a descriptor of its own, opened without following a link and
/// checked to be what the walk saw (a folder, or a file with one name).
fn open_and_reset(e: &confined::Entry<'_>, dir: bool, mode: u32, uid: u32, gid: u32) {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if dir {
        flags |= OFlags::DIRECTORY;
    }
    let fd = match rustix::fs::openat(e.dir, e.name, flags, Mode::empty()) {
        Ok(fd) => fd,
        // A folder or file the script made unreadable (the harness is not root): its mode
        // first, by name, after checking again that it is no link.
        Err(rustix::io::Errno::ACCESS) => {
            chmod_unreadable(e.dir, e.name, e.stat.st_ino, dir, mode);
            return;
        }
        Err(_) => return,
    };
    let Ok(st) = rustix::fs::fstat(&fd) else {
        return;
    };
    if st.st_ino != e.stat.st_ino || (!dir && st.st_nlink > 1) {
        return;
    }
    let _ = reset(std::os::fd::AsFd::as_fd(&fd), mode, uid, gid);
}

/// The mode of an entry the harness cannot open for reading, through an O_PATH descriptor opened
/// without following a link and checked to be the inode the walk saw: a name checked and then
/// changed by name could be swapped for a link between the two steps, and chmod follows links.
fn chmod_unreadable(
    dir: std::os::fd::BorrowedFd<'_>,
    name: &std::ffi::OsStr,
    ino: u64,
    want_dir: bool,
    mode: u32,
) -> bool {
    use rustix::fs::{FileType, Mode, OFlags};
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let Ok(fd) = rustix::fs::openat(dir, name, flags, Mode::empty()) else {
        return false;
    };
    let Ok(st) = rustix::fs::fstat(&fd) else {
        return false;
    };
    let kind = FileType::from_raw_mode(st.st_mode);
    let expected = if want_dir {
        kind == FileType::Directory
    } else {
        kind == FileType::RegularFile && st.st_nlink == 1
    };
    if st.st_ino != ino || !expected {
        return false;
    }
    // An O_PATH descriptor takes no fchmod; its /proc link names the very inode it holds.
    let path = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&fd));
    rustix::fs::chmod(path.as_str(), Mode::from_raw_mode(mode)).is_ok()
}

/// Remove a walked file through its folder's descriptor, naming it.
fn drop_entry(e: &confined::Entry<'_>, size: u64, why: &str, after: &str, notes: &mut Vec<String>) {
    let path = &e.rel;
    match rustix::fs::unlinkat(e.dir, e.name, rustix::fs::AtFlags::empty()) {
        Ok(()) => notes.push(format!("{after}: dropped {path} ({size} bytes): {why}")),
        Err(err) => notes.push(format!(
            "{}{after}: could not drop {path}: {err}",
            confined::CONTAINMENT
        )),
    }
}

/// The largest files while the workspace is over `max_workspace_bytes`, then the last names
/// (in path order) while there are more than `max_files`: chosen from the first walk, removed
/// in a second one through each folder's descriptor.
fn drop_over_caps(
    root: &Root,
    mut files: Vec<(Vec<u8>, String, u64)>,
    caps: &crate::trial::tools::Caps,
    after: &str,
    notes: &mut Vec<String>,
) {
    use std::collections::BTreeMap;
    let mut chosen: BTreeMap<Vec<u8>, String> = BTreeMap::new();
    let mut total: u64 = files.iter().map(|(_, _, n)| n).sum();
    if total > caps.max_workspace_bytes {
        let mut by_size: Vec<&(Vec<u8>, String, u64)> = files.iter().collect();
        by_size.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        for (raw, _, size) in by_size {
            if total <= caps.max_workspace_bytes {
                break;
            }
            total -= size;
            let why = format!(
                "the workspace was over max_workspace_bytes ({})",
                caps.max_workspace_bytes
            );
            chosen.insert(raw.clone(), why);
        }
    }
    files.retain(|(raw, _, _)| !chosen.contains_key(raw));
    if files.len() as u64 > caps.max_files {
        files.sort();
        for (raw, _, _) in files.drain(caps.max_files as usize..) {
            chosen.insert(raw, format!("more than max_files ({})", caps.max_files));
        }
    }
    if chosen.is_empty() {
        return;
    }
    let walked = root.walk("", &|_| false, &mut |e| {
        if e.kind == Kind::File {
            if let Some(why) = chosen.remove(&e.raw) {
                drop_entry(e, e.stat.st_size as u64, &why, after, notes);
            }
        }
        e.kind == Kind::Dir
    });
    if let Err(e) = walked {
        notes.push(format!(
            "{}{after}: could not drop files: {e}",
            confined::CONTAINMENT
        ));
    }
    for raw in chosen.keys() {
        notes.push(format!(
            "{}{after}: could not find {} again to drop it",
            confined::CONTAINMENT,
            confined::show(raw)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_of_an_unreadable_entry_is_reset_through_its_own_descriptor_never_a_link() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let top = tempfile::tempdir().unwrap();
        let (ws, outside) = (top.path().join("ws"), top.path().join("outside.txt"));
        std::fs::create_dir(&ws).unwrap();
        std::fs::write(&outside, "outside\n").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(ws.join("locked.txt"), "x").unwrap();
        std::fs::set_permissions(
            ws.join("locked.txt"),
            std::fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        std::os::unix::fs::symlink(&outside, ws.join("link")).unwrap();
        let d = std::fs::File::open(&ws).unwrap();
        let dir = std::os::fd::AsFd::as_fd(&d);
        let ino = |p: &std::path::Path| std::fs::symlink_metadata(p).unwrap().ino();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        // The name swapped for a link to the file outside, even one given that file's inode.
        assert!(!chmod_unreadable(
            dir,
            "link".as_ref(),
            ino(&outside),
            false,
            0o644
        ));
        assert!(!chmod_unreadable(
            dir,
            "link".as_ref(),
            ino(&ws.join("link")),
            false,
            0o644
        ));
        assert_eq!(mode(&outside), 0o600);
        // Another inode than the walk saw, or a folder where a file was: left alone.
        let locked = ws.join("locked.txt");
        assert!(!chmod_unreadable(
            dir,
            "locked.txt".as_ref(),
            ino(&locked) + 1,
            false,
            0o644
        ));
        assert!(!chmod_unreadable(
            dir,
            "locked.txt".as_ref(),
            ino(&locked),
            true,
            0o644
        ));
        assert_eq!(mode(&locked), 0);
        assert!(chmod_unreadable(
            dir,
            "locked.txt".as_ref(),
            ino(&locked),
            false,
            0o644
        ));
        assert_eq!(mode(&locked), 0o644);
    }

    #[test]
    fn reclaim_resets_modes_removes_specials_and_hard_links_and_drops_what_passes_the_caps() {
        use std::os::unix::fs::PermissionsExt;
        let top = tempfile::tempdir().unwrap();
        let (ws, outside) = (top.path().join("ws"), top.path().join("outside.txt"));
        std::fs::create_dir_all(ws.join("open")).unwrap();
        std::fs::write(&outside, "outside\n").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::hard_link(&outside, ws.join("hard.txt")).unwrap();
        std::fs::write(ws.join("open/suid"), "x").unwrap();
        std::fs::set_permissions(
            ws.join("open/suid"),
            std::fs::Permissions::from_mode(0o4777),
        )
        .unwrap();
        std::fs::set_permissions(ws.join("open"), std::fs::Permissions::from_mode(0o1777)).unwrap();
        std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o777)).unwrap();
        let fifo = std::ffi::CString::new(ws.join("pipe").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o666) }, 0);
        let mut deep = ws.join("deep");
        for _ in 0..confined::MAX_DEPTH + 3 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("hidden.txt"), "h").unwrap();
        std::fs::write(ws.join("big.bin"), vec![b'b'; 300]).unwrap();
        std::fs::write(ws.join("mid.bin"), vec![b'm'; 150]).unwrap();
        std::fs::write(ws.join("small.bin"), vec![b's'; 100]).unwrap();
        let caps = crate::trial::tools::Caps {
            max_file_bytes: 200,
            max_tool_result_bytes: 1000,
            max_workspace_bytes: 200,
            ..Default::default()
        };
        let notes = reclaim(&ws, &caps, "run_tests");
        let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&ws), 0o700);
        assert_eq!(mode(&ws.join("open")), 0o755);
        assert_eq!(mode(&ws.join("open/suid")), 0o755);
        // The file outside kept its mode and its content; only the name inside went.
        assert_eq!(mode(&outside), 0o600);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside\n");
        assert!(!deep.join("hidden.txt").exists());
        for gone in ["hard.txt", "pipe", "big.bin", "mid.bin"] {
            assert!(!ws.join(gone).exists(), "{gone} is still there");
        }
        assert!(ws.join("small.bin").exists());
        let all = notes.join("\n");
        for named in [
            "removed hard.txt: a file with another name",
            "removed pipe: a FIFO",
            "nested too deep",
            "dropped big.bin (300 bytes): over max_file_bytes (200)",
            "dropped mid.bin (150 bytes): the workspace was over max_workspace_bytes (200)",
        ] {
            assert!(all.contains(named), "{named} not in {all}");
        }
    }
}
