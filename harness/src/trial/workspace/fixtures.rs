//! Fixture commits: each fixture committed once per run into a shared object store (fixed
//! author and date, so commit ids repeat across runs), and a trial's workspace made from it
//! with its git dir outside the tree.

use super::{git_err, init, scratch::stopping, tempdir, TrialWorkspace};
use crate::error::{Error, Result};
use git2::{IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The fixed commit time of every fixture commit (2026-01-01T00:00:00Z).
const FIXTURE_TIME: i64 = 1_767_225_600;

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
        if stopping() {
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
            .ok()
            .flatten()
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
