//! A run folder held open for its run: the folder is opened once when the run locks it, and
//! every file the run writes below it is created relative to that descriptor, each folder on the
//! way opened with `O_NOFOLLOW` (and made with `mkdirat` when missing) the first time the run
//! writes in it, then kept open. A link planted in the run folder is refused when its folder is
//! first opened, and one planted later is never on the way: the run writes through the folders'
//! descriptors, not through their names. A trial's file costs four system calls (create the temp
//! file, write, rename, close) instead of a walk of `statx` up the folders on every write.

use crate::error::{Error, Result};
use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// Folders below a held run folder kept open at once (a descriptor each); past this the cache
/// starts again, so a matrix of thousands of units never runs out of descriptors.
const MAX_OPEN_FOLDERS: usize = 64;

/// The run folders this process holds.
static HELD: RwLock<Vec<Arc<Held>>> = RwLock::new(Vec::new());

/// A run folder opened once, and the folders below it opened so far (by their path below it).
pub struct Held {
    root: PathBuf,
    fd: Arc<OwnedFd>,
    folders: Mutex<HashMap<PathBuf, Arc<OwnedFd>>>,
    /// The process's umask takes bits of 0644 away: files are set to 0644 after creation.
    chmod: bool,
}

/// While alive, writes below its folder go through the folder's descriptor; dropped, the folder
/// is let go (its descriptors closed once the writes in flight are done).
pub struct Holding(Arc<Held>);

impl Drop for Holding {
    fn drop(&mut self) {
        let mut held = HELD.write().unwrap_or_else(|p| p.into_inner());
        held.retain(|h| !Arc::ptr_eq(h, &self.0));
    }
}

/// Hold `dir` for a run, made first if it is not there yet (its own path may be a link, the
/// user's to choose).
pub fn hold(dir: &Path) -> Result<Holding> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = rfs::open(dir, flags, Mode::empty()).map_err(|e| Error::io(dir, e.into()))?;
    let held = Arc::new(Held {
        root: dir.to_path_buf(),
        fd: Arc::new(fd),
        folders: Mutex::new(HashMap::new()),
        chmod: umask().is_none_or(|m| m & 0o644 != 0),
    });
    HELD.write()
        .unwrap_or_else(|p| p.into_inner())
        .push(held.clone());
    Ok(Holding(held))
}

/// The process's umask, read without changing it (`/proc/self/status`).
fn umask() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Umask:"))?;
    u32::from_str_radix(line.trim(), 8).ok()
}

/// The held folder `path` lies below (the deepest, when one holds another) and the path of its
/// folder below it; `None` when no held folder holds it, or its path has parts other than names.
fn held_for(path: &Path) -> Option<(Arc<Held>, PathBuf)> {
    let held = HELD.read().unwrap_or_else(|p| p.into_inner());
    let h = held
        .iter()
        .filter(|h| path.starts_with(&h.root))
        .max_by_key(|h| h.root.as_os_str().len())?;
    let rel = path.strip_prefix(&h.root).ok()?.parent()?;
    rel.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| (h.clone(), rel.to_path_buf()))
}

/// A temp file being written in a held folder: removed when dropped unpublished.
pub struct Temp {
    dir: Arc<OwnedFd>,
    name: String,
    pub file: std::fs::File,
    published: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.published {
            let _ = rfs::unlinkat(&*self.dir, self.name.as_str(), AtFlags::empty());
        }
    }
}

/// A new temp file (`.tmp…`, created with `O_EXCL`, so nothing at its name is followed) in
/// `path`'s folder, when a held run folder holds `path`; its folders are made as needed.
pub fn temp_beside(path: &Path) -> Option<Result<Temp>> {
    let (held, rel) = held_for(path)?;
    let made = held.temp_in(&rel).or_else(|e| {
        // A folder kept open was removed since (a folder taken away mid-run): opened again
        // from the run folder, part by part.
        if e.raw_os_error() != Some(libc::ENOENT) {
            return Err(e);
        }
        held.forget(&rel);
        held.temp_in(&rel)
    });
    Some(made.map_err(|e| held.error(&rel, e)))
}

impl Temp {
    /// Rename the finished temp file to `path`'s name in its folder, replacing whatever stands
    /// there (a planted link included) without writing through it.
    pub fn publish(mut self, path: &Path) -> Result<()> {
        let name = path
            .file_name()
            .ok_or_else(|| Error::Internal(format!("{}: no file name", path.display())))?;
        rfs::renameat(&*self.dir, self.name.as_str(), &*self.dir, name)
            .map_err(|e| Error::io(path, e.into()))?;
        self.published = true;
        Ok(())
    }
}

impl Held {
    fn temp_in(&self, rel: &Path) -> io::Result<Temp> {
        let dir = self.folder(rel)?;
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC;
        for _ in 0..16 {
            let name = format!(
                ".tmp{}",
                std::iter::repeat_with(fastrand::alphanumeric)
                    .take(6)
                    .collect::<String>()
            );
            match rfs::openat(&*dir, name.as_str(), flags, Mode::from_raw_mode(0o644)) {
                Ok(fd) => {
                    let temp = Temp {
                        dir: dir.clone(),
                        name,
                        file: std::fs::File::from(fd),
                        published: false,
                    };
                    if self.chmod {
                        rfs::fchmod(temp.file.as_fd(), Mode::from_raw_mode(0o644))?;
                    }
                    return Ok(temp);
                }
                Err(rustix::io::Errno::EXIST) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temp file name",
        ))
    }

    /// The folder `rel` below the run folder, opened once per run: each part opened with
    /// `O_NOFOLLOW`, made when missing.
    fn folder(&self, rel: &Path) -> io::Result<Arc<OwnedFd>> {
        if rel.as_os_str().is_empty() {
            return Ok(self.fd.clone());
        }
        let mut folders = self.folders.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(fd) = folders.get(rel) {
            return Ok(fd.clone());
        }
        let mut at = self.fd.clone();
        let mut so_far = PathBuf::new();
        for part in rel.iter() {
            so_far.push(part);
            if let Some(fd) = folders.get(&so_far) {
                at = fd.clone();
                continue;
            }
            at = Arc::new(open_or_make(&at, part)?);
            if folders.len() >= MAX_OPEN_FOLDERS {
                folders.clear();
            }
            folders.insert(so_far.clone(), at.clone());
        }
        Ok(at)
    }

    /// Close `rel` and the folders above it, to be opened again.
    fn forget(&self, rel: &Path) {
        let mut folders = self.folders.lock().unwrap_or_else(|p| p.into_inner());
        folders.retain(|k, _| !rel.starts_with(k));
    }

    /// What a failed write below the run folder says: a link names itself and the run folder.
    fn error(&self, rel: &Path, e: io::Error) -> Error {
        if let Some(link) = self.first_link(rel) {
            return Error::input(format!(
                "{}: is a symlink inside the run folder {}; the harness does not write through links (remove it)",
                self.root.join(link).display(),
                self.root.display()
            ));
        }
        Error::io(&self.root.join(rel), e)
    }

    /// The first part of `rel` that is a link, looked at without following any.
    fn first_link(&self, rel: &Path) -> Option<PathBuf> {
        let mut at = self.fd.clone();
        let mut so_far = PathBuf::new();
        for part in rel.iter() {
            so_far.push(part);
            let stat = rfs::statat(&*at, part, AtFlags::SYMLINK_NOFOLLOW).ok()?;
            if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink {
                return Some(so_far);
            }
            at = Arc::new(rfs::openat(&*at, part, dir_flags(), Mode::empty()).ok()?);
        }
        None
    }
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

/// The folder `name` in `at`, never through a link; made (0777 less the umask) when missing.
fn open_or_make(at: &OwnedFd, name: &std::ffi::OsStr) -> io::Result<OwnedFd> {
    match rfs::openat(at, name, dir_flags(), Mode::empty()) {
        Err(rustix::io::Errno::NOENT) => {}
        r => return r.map_err(Into::into),
    }
    match rfs::mkdirat(at, name, Mode::from_raw_mode(0o777)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(rfs::openat(at, name, dir_flags(), Mode::empty())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_folder_writes_below_it_and_a_temp_file_left_unpublished_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let _held = hold(dir.path()).unwrap();
        let path = dir.path().join("transcripts/m/E1-default/trial-1.json");
        let mut temp = temp_beside(&path).unwrap().unwrap();
        std::io::Write::write_all(&mut temp.file, b"{}").unwrap();
        temp.publish(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&path).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o644);
        drop(temp_beside(&path).unwrap().unwrap());
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["trial-1.json"]);
    }

    #[test]
    fn a_path_outside_every_held_folder_or_with_dots_is_not_held() {
        let dir = tempfile::tempdir().unwrap();
        let _held = hold(&dir.path().join("")).unwrap();
        assert!(temp_beside(&dir.path().join("../x.json")).is_none());
        assert!(temp_beside(Path::new("/elsewhere/x.json")).is_none());
        assert!(temp_beside(&dir.path().join("a/x.json")).is_some());
    }
}
