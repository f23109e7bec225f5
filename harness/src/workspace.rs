//! Trial workspaces: a fixture copied into a fresh tempdir whose git metadata lives in another
//! tempdir the model's tools never reach (a separate git dir, no `.git` in the tree). HEAD is the
//! fixture committed with git2 (fixed author and date, so commit ids are the same on every run),
//! or the last commit of a fixture prepared with a history; afterwards the diff against it fills
//! `workspace.changed`. The diff never follows a symlink: it records the link and its target.
//!
//! Each fixture is committed once per run into a shared object store; a trial's repository
//! borrows those objects through `objects/info/alternates` instead of writing its own, which
//! keeps the harness's file-system work per trial small.

use crate::error::{Error, Result};
use checkers::transcript::{FileChange, Workspace};
use git2::{DiffOptions, IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};
use std::collections::HashMap;
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

    /// Created, edited and deleted files against the fixture commit, untracked files included.
    pub fn changes(&self) -> Result<Workspace> {
        let tree = self
            .repo
            .find_commit(self.base)
            .and_then(|c| c.tree())
            .map_err(|e| git_err("tree", e))?;
        let mut opts = DiffOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .show_untracked_content(true);
        let diff = self
            .repo
            .diff_tree_to_workdir(Some(&tree), Some(&mut opts))
            .map_err(|e| git_err("diff", e))?;
        let mut changed = Vec::new();
        for delta in diff.deltas() {
            let path = delta
                .new_file()
                .path()
                .or(delta.old_file().path())
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let old_id = delta.old_file().id();
            let before = if old_id.is_zero() {
                None
            } else {
                let blob = self
                    .repo
                    .find_blob(old_id)
                    .map_err(|e| git_err("blob", e))?;
                Some(String::from_utf8_lossy(blob.content()).into_owned())
            };
            let after = read_no_follow(&self.root().join(&path));
            if before != after {
                changed.push(FileChange {
                    path,
                    before,
                    after,
                });
            }
        }
        changed.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(Workspace { changed })
    }
}

/// A work-tree file as the diff records it: a regular file's text, a symlink as
/// `symlink → TARGET` (never followed: a link to /etc/hostname or /dev/zero is not read), and
/// nothing for anything else (a FIFO, a device).
fn read_no_follow(path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).ok()?;
        return Some(format!("symlink → {}", target.display()));
    }
    if !meta.is_file() {
        return None;
    }
    // A sandboxed script may write many files up to the file-size limit; the transcript keeps
    // the head of each, enough for any checker, and says how much was cut.
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_CHANGE_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    let mut text = String::from_utf8_lossy(&head).into_owned();
    if meta.len() > MAX_CHANGE_BYTES {
        text.push_str(&format!(
            "\n[… cut at {MAX_CHANGE_BYTES} bytes of {}]",
            meta.len()
        ));
    }
    Some(text)
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
