//! Files of a trial's workspace reached through a handle of its root, never through a symlink:
//! each open resolves the whole path in one step (`openat2` with `RESOLVE_BENEATH |
//! RESOLVE_NO_SYMLINKS`, or a walk of `O_NOFOLLOW` opens where the kernel lacks it), so a name a
//! sandboxed script swaps for a link between a check and an open can never lead outside.
//! What is opened is then checked on the descriptor itself (a regular file, one link).

use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags, Stat};
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once `openat2` answered ENOSYS: every later open walks component by component.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// Folders deeper than this are not walked (a script can nest folders past any path length).
pub const MAX_DEPTH: usize = 64;

/// An open handle of a workspace root.
pub struct Root {
    fd: OwnedFd,
}

/// What a walked entry is. Links and special files are reported, never followed or opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Link,
    /// A FIFO, socket or device (named), or a folder too deep to walk.
    Special(&'static str),
    /// An entry the walk could not stat, or a folder it could not open or read: a containment
    /// finding (`Entry::error` says why), never skipped.
    Unreadable,
}

/// The start of every `caps_hit` line that is a containment finding: something in the tree
/// the harness could not see, so it cannot vouch for the tree and the trial fails closed.
pub const CONTAINMENT: &str = "containment: ";

/// One entry of a walk: its path relative to the root (shown, and as bytes), its kind and its
/// own metadata.
pub struct Entry<'a> {
    /// The path as shown ([`show`]): UTF-8, unambiguous.
    pub rel: String,
    /// The path as bytes.
    pub raw: Vec<u8>,
    pub kind: Kind,
    /// All zeros for an entry that could not be stat'ed.
    pub stat: Stat,
    /// Why an [`Kind::Unreadable`] entry is.
    pub error: Option<String>,
    /// The folder holding it and its name there, for operations on the entry itself.
    pub dir: BorrowedFd<'a>,
    pub name: &'a OsStr,
}

/// An error for a refusal found on the descriptor.
fn refusal(msg: &str) -> io::Error {
    io::Error::other(msg.to_string())
}

/// Whether an error means a symlink stood in the path (and was not followed).
pub fn is_link_refusal(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ELOOP) | Some(libc::EXDEV))
}

fn kind_of(stat: &Stat) -> Kind {
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Dir,
        FileType::Symlink => Kind::Link,
        FileType::Fifo => Kind::Special("a FIFO"),
        FileType::Socket => Kind::Special("a socket"),
        FileType::CharacterDevice => Kind::Special("a character device"),
        FileType::BlockDevice => Kind::Special("a block device"),
        FileType::Unknown => Kind::Special("an unknown kind of file"),
    }
}

/// The components of a workspace-relative path; `..` is refused, `.` and empty parts dropped.
fn components(rel: &str) -> io::Result<Vec<&str>> {
    let parts: Vec<&str> = rel
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if rel.starts_with('/') || parts.contains(&"..") {
        return Err(io::Error::from_raw_os_error(libc::EXDEV));
    }
    Ok(parts)
}

/// Open `rel` beneath `dir` with no symlink anywhere in it.
fn open_beneath(dir: BorrowedFd<'_>, rel: &str, flags: OFlags, mode: Mode) -> io::Result<OwnedFd> {
    let parts = components(rel)?;
    let flags = flags | OFlags::CLOEXEC | OFlags::NOFOLLOW;
    #[cfg(target_os = "linux")]
    if !NO_OPENAT2.load(Ordering::Relaxed) {
        let path = if parts.is_empty() {
            ".".to_string()
        } else {
            parts.join("/")
        };
        let resolve = rfs::ResolveFlags::BENEATH
            | rfs::ResolveFlags::NO_SYMLINKS
            | rfs::ResolveFlags::NO_MAGICLINKS;
        // EAGAIN: a rename raced the lookup; the kernel asks for a retry.
        for _ in 0..16 {
            match rfs::openat2(dir, path.as_str(), flags, mode, resolve) {
                Err(rustix::io::Errno::AGAIN) => continue,
                Err(rustix::io::Errno::NOSYS) => {
                    NO_OPENAT2.store(true, Ordering::Relaxed);
                    break;
                }
                r => return r.map_err(io::Error::from),
            }
        }
    }
    walk_open(dir, &parts, flags, mode)
}

/// The fallback: every folder on the way opened with `O_NOFOLLOW | O_DIRECTORY` from the one
/// before, the last part with `O_NOFOLLOW`.
fn walk_open(
    dir: BorrowedFd<'_>,
    parts: &[&str],
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let Some((last, folders)) = parts.split_last() else {
        return Ok(rfs::openat(dir, ".", flags, mode)?);
    };
    let mut held: Option<OwnedFd> = None;
    for part in folders {
        let at = held.as_ref().map_or(dir, |f| f.as_fd());
        held = Some(
            rfs::openat(at, *part, dir_flags(), Mode::empty()).map_err(|e| {
                // `O_DIRECTORY | O_NOFOLLOW` on a link says ENOTDIR; say what openat2 says (ELOOP),
                // so a link in the middle of a path is refused as a link whichever way was taken.
                let is_link = rfs::statat(at, *part, rfs::AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|st| kind_of(&st) == Kind::Link);
                if e == rustix::io::Errno::NOTDIR && is_link {
                    rustix::io::Errno::LOOP
                } else {
                    e
                }
            })?,
        );
    }
    let at = held.as_ref().map_or(dir, |f| f.as_fd());
    Ok(rfs::openat(at, *last, flags | OFlags::NOFOLLOW, mode)?)
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

/// A regular file with no other name: a hard link could be a file outside the workspace.
fn check_file(fd: BorrowedFd<'_>) -> io::Result<Stat> {
    let st = rfs::fstat(fd)?;
    if kind_of(&st) != Kind::File {
        return Err(refusal("not a regular file"));
    }
    if st.st_nlink > 1 {
        return Err(refusal("a hard link (it has another name); not opened"));
    }
    Ok(st)
}

/// Read an open regular file, at most `max` bytes.
fn read_fd(fd: OwnedFd, max: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::from(fd).take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Open a file for reading: non-blocking (a FIFO swapped in never hangs), then checked.
fn open_file_at(dir: BorrowedFd<'_>, rel: &str, write: bool) -> io::Result<OwnedFd> {
    let access = if write { OFlags::RDWR } else { OFlags::RDONLY };
    let fd = open_beneath(dir, rel, access | OFlags::NONBLOCK, Mode::empty())?;
    check_file(fd.as_fd())?;
    Ok(fd)
}

impl Root {
    pub fn open(path: &Path) -> io::Result<Root> {
        let fd = rfs::open(path, dir_flags(), Mode::empty())?;
        Ok(Root { fd })
    }

    pub fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Up to `max` bytes of the regular file `rel`.
    pub fn read(&self, rel: &str, max: u64) -> io::Result<Vec<u8>> {
        read_fd(open_file_at(self.fd(), rel, false)?, max)
    }

    /// The regular file `rel` opened for reading and writing, through one descriptor.
    pub fn open_rw(&self, rel: &str) -> io::Result<std::fs::File> {
        Ok(std::fs::File::from(open_file_at(self.fd(), rel, true)?))
    }

    /// Create or truncate `rel` (its folders made as needed) and write `bytes`.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        let parts = components(rel)?;
        let Some((name, folders)) = parts.split_last() else {
            return Err(refusal("not a file name"));
        };
        let dir = self.folder_creating(folders)?;
        let at = dir.as_ref().map_or(self.fd(), |f| f.as_fd());
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::NONBLOCK;
        let fd = rfs::openat(
            at,
            *name,
            flags | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )?;
        // Truncated only once known to be a regular file of the workspace's own.
        check_file(fd.as_fd())?;
        let mut file = std::fs::File::from(fd);
        file.set_len(0)?;
        file.write_all(bytes)
    }

    /// Open the folder `parts` (None: the root), making missing folders with `mkdirat`.
    fn folder_creating(&self, parts: &[&str]) -> io::Result<Option<OwnedFd>> {
        if parts.is_empty() {
            return Ok(None);
        }
        match open_beneath(self.fd(), &parts.join("/"), dir_flags(), Mode::empty()) {
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {}
            r => return r.map(Some),
        }
        let mut held: Option<OwnedFd> = None;
        for part in parts {
            let at = held.as_ref().map_or(self.fd(), |f| f.as_fd());
            match rfs::mkdirat(at, *part, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            held = Some(rfs::openat(at, *part, dir_flags(), Mode::empty())?);
        }
        Ok(held)
    }

    /// Remove the file `rel` (never a folder): its folder opened beneath, then `unlinkat`.
    pub fn remove(&self, rel: &str) -> io::Result<()> {
        let parts = components(rel)?;
        let Some((name, folders)) = parts.split_last() else {
            return Err(refusal("not a file name"));
        };
        let dir = open_beneath(self.fd(), &folders.join("/"), dir_flags(), Mode::empty())?;
        Ok(rfs::unlinkat(&dir, *name, AtFlags::empty())?)
    }

    /// Visit every entry under `start` (a folder, or a file: then just it), depth first, holding
    /// one descriptor per level (each folder opened from its parent's handle, never by a path),
    /// never through a link and never deeper than [`MAX_DEPTH`]. Names are bytes throughout:
    /// `rel` shows them ([`show`]), `raw` and `name` are the bytes. Folders are visited before
    /// their contents; `visit` returns whether to enter one. Names `skip` accepts are left out
    /// with everything under them. An entry the walk cannot stat, or a folder it cannot open or
    /// read, is visited as [`Kind::Unreadable`] (with why), never skipped.
    pub fn walk(
        &self,
        start: &str,
        skip: &dyn Fn(&OsStr) -> bool,
        visit: &mut dyn FnMut(&Entry<'_>) -> bool,
    ) -> io::Result<()> {
        let start_parts = components(start)?;
        let prefix = start_parts.join("/");
        let fd = open_beneath(self.fd(), &prefix, OFlags::PATH, Mode::empty())?;
        let st = rfs::fstat(&fd)?;
        if kind_of(&st) != Kind::Dir {
            // A single file: visited through its own folder.
            let (name, folders) = start_parts.split_last().expect("the root is a folder");
            let dir = open_beneath(self.fd(), &folders.join("/"), dir_flags(), Mode::empty())?;
            let st = rfs::statat(&dir, *name, AtFlags::SYMLINK_NOFOLLOW)?;
            visit(&Entry {
                rel: prefix.clone(),
                raw: prefix.clone().into_bytes(),
                kind: kind_of(&st),
                stat: st,
                error: None,
                dir: dir.as_fd(),
                name: OsStr::new(name),
            });
            return Ok(());
        }
        let top = open_beneath(self.fd(), &prefix, dir_flags(), Mode::empty())?;
        let names = names_in(&top)?;
        let at = Place {
            raw: prefix.clone().into_bytes(),
            rel: prefix,
            depth: 0,
        };
        walk_folder(&top, names, &at, skip, visit);
        Ok(())
    }
}

/// Where a walk is: the folder's path as bytes and as shown, and its depth.
struct Place {
    raw: Vec<u8>,
    rel: String,
    depth: usize,
}

impl Place {
    fn child(&self, name: &OsStr) -> Place {
        let join = |a: &[u8], b: &[u8]| {
            let mut v = a.to_vec();
            if !v.is_empty() {
                v.push(b'/');
            }
            v.extend_from_slice(b);
            v
        };
        let shown = show(name.as_bytes());
        Place {
            raw: join(&self.raw, name.as_bytes()),
            rel: String::from_utf8(join(self.rel.as_bytes(), shown.as_bytes()))
                .expect("shown names are UTF-8"),
            depth: self.depth + 1,
        }
    }
}

/// Visit the entries `names` of the open folder `dir` (at `at`), entering folders as asked:
/// the descriptors held are this folder's and its ancestors', one per level.
fn walk_folder(
    dir: &OwnedFd,
    mut names: Vec<OsString>,
    at: &Place,
    skip: &dyn Fn(&OsStr) -> bool,
    visit: &mut dyn FnMut(&Entry<'_>) -> bool,
) {
    names.retain(|n| !skip(n));
    names.sort();
    for name in names {
        let here = at.child(&name);
        let (mut kind, stat, error) =
            match rfs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) => (kind_of(&st), st, None),
                Err(e) => (
                    Kind::Unreadable,
                    zero_stat(),
                    Some(format!("cannot stat it: {e}")),
                ),
            };
        if kind == Kind::Dir && here.depth > MAX_DEPTH {
            kind = TOO_DEEP;
        }
        let entry = |kind, error| Entry {
            rel: here.rel.clone(),
            raw: here.raw.clone(),
            kind,
            stat,
            error,
            dir: dir.as_fd(),
            name: &name,
        };
        let enter = visit(&entry(kind, error));
        if kind != Kind::Dir || !enter {
            continue;
        }
        // Opened after the visit (which may have made it readable again); a folder that still
        // cannot be opened or read is visited once more, as unreadable, never skipped.
        let opened = rfs::openat(dir, name.as_os_str(), dir_flags(), Mode::empty())
            .map_err(io::Error::from)
            .and_then(|sub| Ok((names_in(&sub)?, sub)));
        match opened {
            Ok((inner, sub)) => walk_folder(&sub, inner, &here, skip, visit),
            Err(e) => {
                visit(&entry(
                    Kind::Unreadable,
                    Some(format!("cannot open the folder: {e}")),
                ));
            }
        }
    }
}

fn zero_stat() -> Stat {
    // SAFETY: `struct stat` is plain integers; all zeros is a valid value.
    unsafe { std::mem::zeroed() }
}

/// A name as a transcript shows it: as is when it is UTF-8 with no backslash; otherwise every
/// byte that is not part of valid UTF-8, and every backslash, as `\xNN` (so two names never
/// show alike and no name is lost).
pub fn show(name: &[u8]) -> String {
    match std::str::from_utf8(name) {
        Ok(s) if !s.contains('\\') => s.to_string(),
        _ => {
            let mut out = String::new();
            for chunk in name.utf8_chunks() {
                for c in chunk.valid().chars() {
                    if c == '\\' {
                        out.push_str("\\x5c");
                    } else {
                        out.push(c);
                    }
                }
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            out
        }
    }
}

/// The marker of a folder deeper than [`MAX_DEPTH`]: reported, never read.
pub const TOO_DEEP: Kind = Kind::Special("a folder nested too deep to read");

/// The names in the folder `fd` (no "." or ".."), as bytes, read once before any is changed.
fn names_in(fd: &OwnedFd) -> io::Result<Vec<OsString>> {
    let mut names = Vec::new();
    for entry in rfs::Dir::read_from(fd)? {
        let n = entry?.file_name().to_bytes().to_vec();
        if n != b"." && n != b".." {
            names.push(OsString::from_vec(n));
        }
    }
    Ok(names)
}

/// Remove the folder `name` of `dir` with everything in it, through descriptors (no link
/// followed), up to a few hundred levels down.
pub fn remove_tree(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<()> {
    fn clear(fd: &OwnedFd, depth: usize) -> io::Result<()> {
        if depth > 512 {
            return Err(refusal("nested too deep to remove"));
        }
        for n in names_in(fd)? {
            let st = rfs::statat(fd, n.as_os_str(), AtFlags::SYMLINK_NOFOLLOW)?;
            if kind_of(&st) == Kind::Dir {
                let sub = rfs::openat(fd, n.as_os_str(), dir_flags(), Mode::empty())?;
                clear(&sub, depth + 1)?;
                rfs::unlinkat(fd, n.as_os_str(), AtFlags::REMOVEDIR)?;
            } else {
                rfs::unlinkat(fd, n.as_os_str(), AtFlags::empty())?;
            }
        }
        Ok(())
    }
    let fd = rfs::openat(dir, name, dir_flags(), Mode::empty())?;
    clear(&fd, 0)?;
    Ok(rfs::unlinkat(dir, name, AtFlags::REMOVEDIR)?)
}

/// Give the folder `path` and everything in it to `uid`/`gid` through descriptors: each name
/// is changed relative to its folder's handle with no link followed, so a process racing the
/// walk cannot turn a folder into a link out. A file with a second name is left alone (it could
/// be a file outside; `workspace::reclaim` removes it).
pub fn chown_tree(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    fn give(fd: &OwnedFd, uid: u32, gid: u32, depth: usize) -> io::Result<()> {
        if depth > 512 {
            return Err(refusal("nested too deep to change its owner"));
        }
        let (u, g) = (Some(rfs::Uid::from_raw(uid)), Some(rfs::Gid::from_raw(gid)));
        rfs::fchown(fd, u, g)?;
        for n in names_in(fd)? {
            let Ok(st) = rfs::statat(fd, n.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) else {
                continue;
            };
            if kind_of(&st) == Kind::Dir {
                if let Ok(sub) = rfs::openat(fd, n.as_os_str(), dir_flags(), Mode::empty()) {
                    give(&sub, uid, gid, depth + 1)?;
                }
            } else if st.st_nlink <= 1 {
                let _ = rfs::chownat(fd, n.as_os_str(), u, g, AtFlags::SYMLINK_NOFOLLOW);
            }
        }
        Ok(())
    }
    let fd = rfs::open(path, dir_flags(), Mode::empty())?;
    give(&fd, uid, gid, 0)
}

/// Up to `max` bytes of the regular file `name` in the folder `dir`, with its metadata.
pub fn read_entry(dir: BorrowedFd<'_>, name: &OsStr, max: u64) -> io::Result<(Vec<u8>, Stat)> {
    let fd = rfs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let st = check_file(fd.as_fd())?;
    Ok((read_fd(fd, max)?, st))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A workspace with a file and a folder inside, and links out of it at every place.
    fn layout() -> (tempfile::TempDir, std::path::PathBuf) {
        let top = tempfile::tempdir().unwrap();
        let ws = top.path().join("ws");
        std::fs::create_dir_all(ws.join("inner")).unwrap();
        std::fs::write(ws.join("inner/a.txt"), "inside\n").unwrap();
        std::fs::create_dir(top.path().join("outside")).unwrap();
        std::fs::write(top.path().join("outside/secret.txt"), "secret\n").unwrap();
        symlink(top.path().join("outside/secret.txt"), ws.join("link.txt")).unwrap();
        symlink(top.path().join("outside"), ws.join("dir-out")).unwrap();
        symlink("inner", ws.join("dir-in")).unwrap();
        std::fs::hard_link(top.path().join("outside/secret.txt"), ws.join("hard.txt")).unwrap();
        (top, ws)
    }

    fn both_ways(f: impl Fn()) {
        f();
        NO_OPENAT2.store(true, Ordering::Relaxed);
        f();
        NO_OPENAT2.store(false, Ordering::Relaxed);
    }

    #[test]
    fn no_link_is_followed_at_the_last_or_a_middle_part_with_or_without_openat2() {
        both_ways(|| {
            let (top, ws) = layout();
            let root = Root::open(&ws).unwrap();
            assert_eq!(root.read("inner/a.txt", 100).unwrap(), b"inside\n");
            for rel in [
                "link.txt",
                "dir-out/secret.txt",
                "dir-in/a.txt",
                "hard.txt",
                "../outside/secret.txt",
            ] {
                assert!(root.read(rel, 100).is_err(), "{rel} was read");
                assert!(root.write(rel, b"pwned").is_err(), "{rel} was written");
                assert!(root.open_rw(rel).is_err(), "{rel} was opened");
            }
            assert!(root.write("dir-out/new.txt", b"x").is_err());
            assert!(root.write("dir-out/sub/new.txt", b"x").is_err());
            assert!(!top.path().join("outside/new.txt").exists());
            assert!(!top.path().join("outside/sub").exists());
            assert_eq!(
                std::fs::read_to_string(top.path().join("outside/secret.txt")).unwrap(),
                "secret\n"
            );
            root.write("made/deep/b.txt", b"b").unwrap();
            assert_eq!(std::fs::read(ws.join("made/deep/b.txt")).unwrap(), b"b");
        });
    }

    #[test]
    fn a_walk_reports_links_and_never_enters_them() {
        let (_top, ws) = layout();
        let root = Root::open(&ws).unwrap();
        let mut seen = Vec::new();
        root.walk("", &|_| false, &mut |e| {
            seen.push((e.rel.clone(), e.kind));
            true
        })
        .unwrap();
        seen.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            seen,
            vec![
                ("dir-in".to_string(), Kind::Link),
                ("dir-out".to_string(), Kind::Link),
                ("hard.txt".to_string(), Kind::File),
                ("inner".to_string(), Kind::Dir),
                ("inner/a.txt".to_string(), Kind::File),
                ("link.txt".to_string(), Kind::Link),
            ]
        );
        // Started at a link, a walk reports the link itself.
        let mut kinds = Vec::new();
        root.walk("dir-out", &|_| false, &mut |e| {
            kinds.push(e.kind);
            true
        })
        .unwrap();
        assert_eq!(kinds, vec![Kind::Link]);
    }

    #[test]
    fn an_entry_the_walk_cannot_stat_or_open_is_visited_as_unreadable_never_skipped() {
        let top = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            std::fs::write(top.path().join(name), name).unwrap();
        }
        std::fs::create_dir(top.path().join("c")).unwrap();
        std::fs::write(top.path().join("c/inner.txt"), "x").unwrap();
        let root = Root::open(top.path()).unwrap();
        let mut seen = Vec::new();
        root.walk("", &|_| false, &mut |e| {
            // While "a" is visited, "b" goes; while "c" is visited, it becomes a file.
            if e.rel == "a" {
                std::fs::remove_file(top.path().join("b")).unwrap();
            }
            if e.rel == "c" && e.kind == Kind::Dir {
                std::fs::remove_dir_all(top.path().join("c")).unwrap();
                std::fs::write(top.path().join("c"), "now a file").unwrap();
            }
            seen.push((e.rel.clone(), e.kind, e.error.clone().unwrap_or_default()));
            true
        })
        .unwrap();
        assert_eq!(seen[1].0, "b");
        assert_eq!(seen[1].1, Kind::Unreadable);
        assert!(seen[1].2.contains("cannot stat"), "{seen:?}");
        let last = seen.last().unwrap();
        assert_eq!(
            (last.0.as_str(), last.1),
            ("c", Kind::Unreadable),
            "{seen:?}"
        );
        assert!(last.2.contains("cannot open the folder"), "{seen:?}");
    }

    #[test]
    fn names_are_shown_escaped_and_never_alike() {
        assert_eq!(show(b"plain/name.txt"), "plain/name.txt");
        assert_eq!(show(br"\xff"), "\\x5cxff");
        assert_eq!(show(&[0xff]), "\\xff");
        assert_eq!(show(&[b'n', 0xfe, b'.']), "n\\xfe.");
        assert_ne!(show(br"\xff"), show(&[0xff]));
    }

    #[test]
    fn chown_tree_gives_the_tree_away_but_never_a_link_target_or_a_second_name() {
        use std::os::unix::fs::MetadataExt;
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("SKIPPED: chown_tree needs root to give files away");
            return;
        }
        let (top, ws) = layout();
        let owner = |p: &Path| std::fs::symlink_metadata(p).unwrap().uid();
        let outside = top.path().join("outside");
        let before = (owner(&outside), owner(&outside.join("secret.txt")));
        chown_tree(&ws, 4242, 4242).unwrap();
        assert_eq!(owner(&ws), 4242);
        assert_eq!(owner(&ws.join("inner")), 4242);
        assert_eq!(owner(&ws.join("inner/a.txt")), 4242);
        assert_eq!(owner(&ws.join("dir-out")), 4242, "the link itself changes");
        assert_eq!(
            (owner(&outside), owner(&outside.join("secret.txt"))),
            before,
            "nothing outside changes owner: not through a link, not through a hard link"
        );
    }
}
