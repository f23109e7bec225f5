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

use crate::error::{Error, Result};
use git2::{Oid, Repository, RepositoryInitOptions};
use std::path::Path;

pub mod diff;
pub mod effects;
mod fixtures;
mod reclaim;
mod scratch;

pub use fixtures::FixtureStore;
pub(crate) use fixtures::{commit_all, copy_tree, init_repo};
pub use reclaim::reclaim;
pub(crate) use scratch::scratch_root;
pub use scratch::{remove_own, remove_stale, tempdir};

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
}
