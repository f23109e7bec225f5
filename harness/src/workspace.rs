//! Trial workspaces: a fixture copied into a fresh tempdir whose git metadata lives in another
//! tempdir the model's tools never reach (a separate git dir; the tree holds only git's `.git`
//! file naming it, which the tools refuse and the diff leaves out). HEAD is the
//! fixture committed with git2 (fixed author and date, so commit ids are the same on every run),
//! or the last commit of a fixture prepared with a history; afterwards the diff against it fills
//! `workspace.changed`. The diff walks the tree itself, so no ignore rule (a `.gitignore`
//! anywhere, `info/exclude`, `core.excludesFile`) and no nested repository hides a file; it never
//! follows a symlink: it records the link and its target.
//!
//! After every sandboxed command [`reclaim`] takes the tree back before the harness reads it:
//! owner and modes reset, special files and hard links removed, files over the caps dropped.
//!
//! Each fixture is committed once per run into a shared object store; a trial's repository
//! borrows those objects through `objects/info/alternates` instead of writing its own, which
//! keeps the harness's file-system work per trial small.

use crate::beneath::{self, Kind, Root};
use crate::error::{Error, Result};
use checkers::transcript::{FileChange, Workspace};
use git2::{IndexAddOption, ObjectType, Oid, Repository, RepositoryInitOptions, Signature, Time};
use git2::{TreeWalkMode, TreeWalkResult};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The fixed commit time of every fixture commit (2026-01-01T00:00:00Z).
const FIXTURE_TIME: i64 = 1_767_225_600;

pub struct TrialWorkspace {
    dir: tempfile::TempDir,
    /// The git dir, outside the work tree.
    _git: tempfile::TempDir,
    repo: Repository,
    base: Oid,
}

fn git_err(what: &str, e: git2::Error) -> Error {
    Error::Internal(format!("workspace {what}: {}", e.message()))
}

/// `git init` without the system's template folder: its sample hooks are dozens of files per
/// trial that nothing reads.
fn init(dir: &Path) -> Result<Repository> {
    let mut opts = RepositoryInitOptions::new();
    opts.external_template(false);
    Repository::init_opts(dir, &opts).map_err(|e| git_err("init", e))
}

/// Where trial workspaces go: `$CHARTER_HARNESS_TMPDIR`, else `/dev/shm` when it is a writable
/// folder (memory-backed, so a trial's hundred-odd file operations cost microseconds rather than
/// a disk journal's milliseconds), else the system's temp folder.
pub(crate) fn scratch_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        if let Some(dir) = std::env::var_os("CHARTER_HARNESS_TMPDIR") {
            return PathBuf::from(dir);
        }
        let shm = Path::new("/dev/shm");
        let writable = shm.is_dir()
            && tempfile::Builder::new()
                .prefix(&format!("charter-harness-probe-p{}-", std::process::id()))
                .tempdir_in(shm)
                .is_ok();
        if writable {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        }
    })
    .clone()
}

/// Signature of every commit the harness makes: fixed, so commit ids repeat across runs.
pub(crate) fn fixture_signature(offset_secs: i64) -> Result<Signature<'static>> {
    Signature::new(
        "charter-harness",
        "fixtures@charter-harness.invalid",
        &Time::new(FIXTURE_TIME + offset_secs, 0),
    )
    .map_err(|e| git_err("signature", e))
}

/// Commit the whole tree of `repo`'s work dir on top of HEAD (if any).
pub(crate) fn commit_all(repo: &Repository, message: &str, offset_secs: i64) -> Result<Oid> {
    let mut index = repo.index().map_err(|e| git_err("index", e))?;
    index
        .add_all(["*"], IndexAddOption::DEFAULT, None)
        .map_err(|e| git_err("add", e))?;
    index
        .update_all(["*"], None)
        .map_err(|e| git_err("add", e))?;
    index.write().map_err(|e| git_err("index", e))?;
    let tree_id = index.write_tree().map_err(|e| git_err("tree", e))?;
    let tree = repo.find_tree(tree_id).map_err(|e| git_err("tree", e))?;
    let sig = fixture_signature(offset_secs)?;
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
        .map_err(|e| git_err("commit", e))
}

/// `git init` of a work tree with its metadata in `<dir>/.git` (fixture preparation only).
pub(crate) fn init_repo(dir: &Path) -> Result<Repository> {
    init(dir)
}

/// A scratch folder named for the process that owns it (`PREFIXp1234-…`), so a later run can
/// tell the folders of a run that died (SIGKILL leaves them in RAM on /dev/shm) from live ones.
pub fn tempdir(prefix: &str) -> Result<tempfile::TempDir> {
    let root = scratch_root();
    if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(Error::Internal("the run is stopping".into()));
    }
    tempfile::Builder::new()
        .prefix(&format!("{prefix}p{}-", std::process::id()))
        .tempdir_in(&root)
        .map_err(|e| {
            Error::io_op("create a trial folder in", &root, e)
                .next("set CHARTER_HARNESS_TMPDIR to a folder you may write")
        })
}

/// Remove the scratch folders of harness processes that are gone. Returns how many.
pub fn remove_stale() -> usize {
    // Liveness is read from /proc; without it nothing is known to be dead.
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    remove_owned_by(|pid| !Path::new(&format!("/proc/{pid}")).exists()).0
}

/// Set once the process is stopping: no new scratch folder is made.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Remove this process's own scratch folders (an interrupted run's trial folders), refusing
/// new ones from now on. Trials still running may be writing into them, so this repeats until
/// none has been seen for a few passes (or two seconds have passed). Returns how many were
/// removed.
pub fn remove_own() -> usize {
    STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
    let me = std::process::id();
    let (mut removed, mut quiet) = (0, 0);
    for _ in 0..100 {
        let (gone, left) = remove_owned_by(|pid| pid == me);
        removed += gone;
        quiet = if gone == 0 && left == 0 { quiet + 1 } else { 0 };
        if quiet == 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    removed
}

/// Remove the scratch folders whose owner pid `owner` accepts: (removed, still there).
fn remove_owned_by(owner: impl Fn(u32) -> bool) -> (usize, usize) {
    let root = scratch_root();
    let Ok(entries) = std::fs::read_dir(&root) else {
        return (0, 0);
    };
    let (mut removed, mut left) = (0, 0);
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("charter-harness-") else {
            continue;
        };
        // The owner pid follows the last "p" that starts a "p<digits>-" part.
        let pid = rest.split('-').find_map(|part| {
            part.strip_prefix('p')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse::<u32>().ok())
        });
        let Some(pid) = pid else { continue };
        if owner(pid) && e.file_type().is_ok_and(|t| t.is_dir()) {
            match std::fs::remove_dir_all(e.path()) {
                Ok(()) => removed += 1,
                Err(_) => left += 1,
            }
        }
    }
    (removed, left)
}

/// A fixture committed once: where its objects live and its commit.
#[derive(Clone)]
struct Committed {
    objects: PathBuf,
    commit: Oid,
}

/// Fixture commits for one run, made on first use and shared by every trial.
pub struct FixtureStore {
    dir: tempfile::TempDir,
    committed: Mutex<HashMap<PathBuf, Committed>>,
}

impl FixtureStore {
    pub fn new() -> Result<FixtureStore> {
        Ok(FixtureStore {
            dir: tempdir("charter-harness-fixtures-")?,
            committed: Mutex::new(HashMap::new()),
        })
    }

    fn commit_fixture(&self, fixture: &Path) -> Result<Committed> {
        let mut committed = self
            .committed
            .lock()
            .map_err(|_| Error::Internal("fixture store poisoned".into()))?;
        if let Some(c) = committed.get(fixture) {
            return Ok(c.clone());
        }
        // A fixture prepared with a history is already a repository: use its last commit.
        if fixture.join(".git").is_dir() {
            let repo = Repository::open(fixture).map_err(|e| git_err("open", e))?;
            let commit = repo
                .head()
                .and_then(|h| h.peel_to_commit())
                .map_err(|e| git_err("HEAD", e))?
                .id();
            let c = Committed {
                objects: fixture.join(".git/objects"),
                commit,
            };
            committed.insert(fixture.to_path_buf(), c.clone());
            return Ok(c);
        }
        let dir = self.dir.path().join(committed.len().to_string());
        std::fs::create_dir_all(&dir).map_err(|e| Error::io_op("create folder", &dir, e))?;
        copy_tree(fixture, &dir)?;
        let repo = init(&dir)?;
        let mut index = repo.index().map_err(|e| git_err("index", e))?;
        index
            .add_all(["*"], IndexAddOption::DEFAULT, None)
            .map_err(|e| git_err("add", e))?;
        let tree_id = index.write_tree().map_err(|e| git_err("tree", e))?;
        let tree = repo.find_tree(tree_id).map_err(|e| git_err("tree", e))?;
        let sig = fixture_signature(0)?;
        let commit = repo
            .commit(None, &sig, &sig, "fixture", &tree, &[])
            .map_err(|e| git_err("commit", e))?;
        let c = Committed {
            objects: dir.join(".git/objects"),
            commit,
        };
        committed.insert(fixture.to_path_buf(), c.clone());
        Ok(c)
    }

    /// A fresh workspace holding `fixture`, its HEAD at the fixture commit.
    pub fn workspace(&self, fixture: &Path) -> Result<TrialWorkspace> {
        if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(Error::Internal("the run is stopping".into()));
        }
        let committed = self.commit_fixture(fixture)?;
        let dir = tempdir("charter-harness-")?;
        copy_tree(fixture, dir.path())?;
        // The git dir lives outside the tree: the model's tools, and anything a test script
        // does in the tree, cannot reach the index, the excludes or the alternates.
        let git = tempdir("charter-harness-git-")?;
        let info = git.path().join("objects/info");
        std::fs::create_dir_all(&info).map_err(|e| Error::io_op("create folder", &info, e))?;
        std::fs::write(
            info.join("alternates"),
            format!("{}\n", committed.objects.display()),
        )
        .map_err(|e| Error::io(&info, e))?;
        let mut opts = RepositoryInitOptions::new();
        opts.external_template(false)
            .bare(false)
            .no_dotgit_dir(true)
            .workdir_path(dir.path());
        let repo = Repository::init_opts(git.path(), &opts).map_err(|e| git_err("init", e))?;
        // Nothing in the tree may switch files off: no core.excludesFile, no attributes.
        let _ = repo
            .config()
            .and_then(|mut c| c.set_str("core.excludesFile", ""));
        let head = repo
            .find_reference("HEAD")
            .map_err(|e| git_err("HEAD", e))?;
        let branch = head
            .symbolic_target()
            .unwrap_or("refs/heads/main")
            .to_string();
        drop(head);
        repo.reference(&branch, committed.commit, true, "fixture")
            .map_err(|e| git_err("branch", e))?;
        Ok(TrialWorkspace {
            dir,
            _git: git,
            repo,
            base: committed.commit,
        })
    }
}

impl TrialWorkspace {
    /// A workspace from a store of its own (one fixture, one trial).
    pub fn create(fixture: &Path) -> Result<(FixtureStore, TrialWorkspace)> {
        let store = FixtureStore::new()?;
        let ws = store.workspace(fixture)?;
        Ok((store, ws))
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn base_commit(&self) -> String {
        self.base.to_string()
    }

    /// Created, edited and deleted files against the fixture commit, untracked files included,
    /// whatever ignore rules the tree holds.
    pub fn changes(&self) -> Result<Workspace> {
        let tree = self
            .repo
            .find_commit(self.base)
            .and_then(|c| c.tree())
            .map_err(|e| git_err("tree", e))?;
        let mut base: BTreeMap<String, Oid> = BTreeMap::new();
        tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            if entry.kind() == Some(ObjectType::Blob) {
                let name = String::from_utf8_lossy(entry.name_bytes());
                base.insert(format!("{dir}{name}"), entry.id());
            }
            TreeWalkResult::Ok
        })
        .map_err(|e| git_err("tree", e))?;
        let before = |id: Oid| -> Result<String> {
            let blob = self.repo.find_blob(id).map_err(|e| git_err("blob", e))?;
            Ok(String::from_utf8_lossy(blob.content()).into_owned())
        };
        let root = Root::open(self.root()).map_err(|e| Error::io(self.root(), e))?;
        let mut now: BTreeMap<String, Current> = BTreeMap::new();
        root.walk("", &|_| false, &mut |e| {
            // The one file git puts in the tree: the link to its git dir outside it.
            let gitlink = e.rel == ".git" && e.kind == Kind::File;
            if let Some(c) = current(e).filter(|_| !gitlink) {
                now.insert(e.rel.clone(), c);
            }
            true
        })
        .map_err(|e| Error::io(self.root(), e))?;
        let mut changed = Vec::new();
        for (path, id) in &base {
            match now.get(path) {
                Some(c) if c.id == Some(*id) => {}
                Some(c) => {
                    let before = Some(before(*id)?);
                    if before != c.after {
                        changed.push(FileChange {
                            path: path.clone(),
                            before,
                            after: c.after.clone(),
                        });
                    }
                }
                None => changed.push(FileChange {
                    path: path.clone(),
                    before: Some(before(*id)?),
                    after: None,
                }),
            }
        }
        for (path, c) in now {
            if !base.contains_key(&path) && c.after.is_some() {
                changed.push(FileChange {
                    path,
                    before: None,
                    after: c.after,
                });
            }
        }
        changed.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(Workspace { changed })
    }
}

/// A work-tree entry as the diff sees it: its blob id when it is a regular file or a link (to
/// compare with the fixture's), and its text as the transcript records it.
struct Current {
    id: Option<Oid>,
    after: Option<String>,
}

/// A walked entry as the diff records it: a regular file's text (its head when long), a symlink
/// as `symlink → TARGET` (never followed: a link to /etc/hostname or /dev/zero is not read), and
/// nothing for anything else (a FIFO, a device, a file with another name).
fn current(e: &beneath::Entry<'_>) -> Option<Current> {
    match e.kind {
        Kind::Link => {
            let target = rustix::fs::readlinkat(e.dir, e.name, Vec::new()).ok()?;
            let target = target.as_bytes();
            Some(Current {
                id: Oid::hash_object(ObjectType::Blob, target).ok(),
                after: Some(format!("symlink → {}", String::from_utf8_lossy(target))),
            })
        }
        Kind::File => {
            let Ok((bytes, st)) = beneath::read_entry(e.dir, e.name, u64::MAX) else {
                return Some(Current {
                    id: None,
                    after: None,
                });
            };
            // A sandboxed script may write many files up to the file-size limit; the transcript
            // keeps the head of each, enough for any checker, and says how much was cut.
            let size = st.st_size as u64;
            let head = &bytes[..bytes.len().min(MAX_CHANGE_BYTES as usize)];
            let mut text = String::from_utf8_lossy(head).into_owned();
            if size > MAX_CHANGE_BYTES {
                text.push_str(&format!("\n[… cut at {MAX_CHANGE_BYTES} bytes of {size}]"));
            }
            Some(Current {
                id: Oid::hash_object(ObjectType::Blob, &bytes).ok(),
                after: Some(text),
            })
        }
        // Left by a script and too deep to remove: the checkers see that it is there.
        k if k == beneath::TOO_DEEP => Some(Current {
            id: None,
            after: Some("[a folder nested too deep to read]".into()),
        }),
        Kind::Dir | Kind::Special(_) => None,
    }
}

/// Take the tree back after a sandboxed command (`after` names it), before anything reads it:
/// every folder and file owned by the harness's uid with plain modes (folders 0755, the root
/// 0700, files 0644 or 0755 when executable: no setuid, setgid, sticky or world-writable bit);
/// FIFOs, sockets, devices and files with a second name (a hard link can be a file outside)
/// removed; then files over `max_file_bytes`, and the largest files while the workspace is over
/// `max_workspace_bytes`, dropped. Returns a line for each removal, for `caps_hit`.
pub fn reclaim(root: &Path, caps: &crate::tools::Caps, after: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let handle = match Root::open(root) {
        Ok(h) => h,
        Err(e) => return vec![format!("{after}: could not take the workspace back: {e}")],
    };
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let owner = |st: &rustix::fs::Stat| st.st_uid == uid && st.st_gid == gid;
    let _ = reset(handle.fd(), 0o700, uid, gid);
    let mut files: Vec<(String, u64)> = Vec::new();
    let walked = handle.walk("", &|_| false, &mut |e| {
        let mode = e.stat.st_mode & 0o7777;
        match e.kind {
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
                files.push((e.rel.clone(), e.stat.st_size as u64));
                false
            }
            Kind::Link => {
                if !owner(&e.stat) {
                    let _ = rustix::fs::chownat(
                        e.dir,
                        e.name,
                        Some(rustix::fs::Uid::from_raw(uid)),
                        Some(rustix::fs::Gid::from_raw(gid)),
                        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
                    );
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

/// Remove a walked entry (a folder too deep to walk: with everything in it).
fn remove(e: &beneath::Entry<'_>, notes: &mut Vec<String>, after: &str, what: &str) {
    let removed = if e.kind == beneath::TOO_DEEP {
        beneath::remove_tree(e.dir, e.name)
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
fn open_and_reset(e: &beneath::Entry<'_>, dir: bool, mode: u32, uid: u32, gid: u32) {
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
            let still = rustix::fs::statat(e.dir, e.name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
            if still.is_ok_and(|st| st.st_ino == e.stat.st_ino) {
                let _ = rustix::fs::chmodat(
                    e.dir,
                    e.name,
                    Mode::from_raw_mode(mode),
                    rustix::fs::AtFlags::empty(),
                );
            }
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

/// Drop every file over `max_file_bytes`, then the largest files until the workspace is within
/// `max_workspace_bytes`, naming each.
fn drop_over_caps(
    root: &Root,
    mut files: Vec<(String, u64)>,
    caps: &crate::tools::Caps,
    after: &str,
    notes: &mut Vec<String>,
) {
    let mut dropped: Vec<(String, u64, String)> = Vec::new();
    files.retain(|(path, size)| {
        let over = *size > caps.max_file_bytes;
        if over {
            let why = format!("over max_file_bytes ({})", caps.max_file_bytes);
            dropped.push((path.clone(), *size, why));
        }
        !over
    });
    let mut total: u64 = files.iter().map(|(_, n)| n).sum();
    if total > caps.max_workspace_bytes {
        files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        for (path, size) in files {
            if total <= caps.max_workspace_bytes {
                break;
            }
            total -= size;
            let why = format!(
                "the workspace was over max_workspace_bytes ({})",
                caps.max_workspace_bytes
            );
            dropped.push((path, size, why));
        }
    }
    for (path, size, why) in dropped {
        match root.remove(&path) {
            Ok(()) => notes.push(format!("{after}: dropped {path} ({size} bytes): {why}")),
            Err(e) => notes.push(format!("{after}: could not drop {path}: {e}")),
        }
    }
}

/// The most of one changed file a transcript records.
const MAX_CHANGE_BYTES: u64 = 1 << 20;

/// Copy a fixture tree: regular files and folders only (no `.git`, no links).
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in std::fs::read_dir(from).map_err(|e| Error::io_op("read folder", from, e))? {
        let entry = entry.map_err(|e| Error::io_op("read folder", from, e))?;
        if entry.file_name() == ".git" {
            continue;
        }
        let src = entry.path();
        let dst: PathBuf = to.join(entry.file_name());
        let kind = entry
            .file_type()
            .map_err(|e| Error::io_op("read", &src, e))?;
        if kind.is_dir() {
            std::fs::create_dir_all(&dst).map_err(|e| Error::io(&dst, e))?;
            copy_tree(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| Error::io_op("copy", &src, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_reports_created_edited_and_deleted_files() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("keep.txt"), "same\n").unwrap();
        std::fs::write(fixture.path().join("edit.txt"), "old\n").unwrap();
        std::fs::create_dir(fixture.path().join("sub")).unwrap();
        std::fs::write(fixture.path().join("sub/gone.txt"), "bye\n").unwrap();
        let (_store, ws) = TrialWorkspace::create(fixture.path()).unwrap();
        std::fs::write(ws.root().join("edit.txt"), "new\n").unwrap();
        std::fs::remove_file(ws.root().join("sub/gone.txt")).unwrap();
        std::fs::create_dir(ws.root().join("made")).unwrap();
        std::fs::write(ws.root().join("made/new.txt"), "hi\n").unwrap();
        let changed = ws.changes().unwrap().changed;
        let summary: Vec<(&str, Option<&str>, Option<&str>)> = changed
            .iter()
            .map(|c| (c.path.as_str(), c.before.as_deref(), c.after.as_deref()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("edit.txt", Some("old\n"), Some("new\n")),
                ("made/new.txt", None, Some("hi\n")),
                ("sub/gone.txt", Some("bye\n"), None)
            ]
        );
    }

    #[test]
    fn a_huge_written_file_is_recorded_as_its_head_and_its_size() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("a.txt"), "a\n").unwrap();
        let (_store, ws) = TrialWorkspace::create(fixture.path()).unwrap();
        let size = MAX_CHANGE_BYTES as usize * 3;
        std::fs::write(ws.root().join("big.txt"), "x".repeat(size)).unwrap();
        let changed = ws.changes().unwrap().changed;
        let after = changed[0].after.as_deref().unwrap();
        assert!(after.len() < MAX_CHANGE_BYTES as usize + 100);
        assert!(
            after.ends_with(&format!("bytes of {size}]")),
            "{}",
            &after[after.len() - 60..]
        );
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
        for _ in 0..beneath::MAX_DEPTH + 3 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("hidden.txt"), "h").unwrap();
        std::fs::write(ws.join("big.bin"), vec![b'b'; 300]).unwrap();
        std::fs::write(ws.join("mid.bin"), vec![b'm'; 150]).unwrap();
        std::fs::write(ws.join("small.bin"), vec![b's'; 100]).unwrap();
        let caps = crate::tools::Caps {
            max_file_bytes: 200,
            max_tool_result_bytes: 1000,
            max_workspace_bytes: 200,
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

    #[test]
    fn fixture_commits_are_identical_across_runs() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("a.txt"), "a\n").unwrap();
        let one = TrialWorkspace::create(fixture.path())
            .unwrap()
            .1
            .base_commit();
        let store = FixtureStore::new().unwrap();
        let two = store.workspace(fixture.path()).unwrap();
        let three = store.workspace(fixture.path()).unwrap();
        assert_eq!((two.base_commit(), three.base_commit()), (one.clone(), one));
        // HEAD resolves through the shared objects, and a clean workspace has no changes.
        assert_eq!(
            two.repo
                .head()
                .unwrap()
                .peel_to_commit()
                .unwrap()
                .id()
                .to_string(),
            two.base_commit()
        );
        assert!(three.changes().unwrap().changed.is_empty());
    }
}
