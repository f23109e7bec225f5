//! Trial workspaces: a fixture copied into a fresh tempdir and committed with git2 (fixed author
//! and date, so commit ids are the same on every run); afterwards the git diff fills
//! `workspace.changed`.

use crate::error::{Error, Result};
use checkers::transcript::{FileChange, Workspace};
use git2::{DiffOptions, IndexAddOption, Repository, Signature, Time};
use std::path::{Path, PathBuf};

/// The fixed commit time of every fixture commit (2026-01-01T00:00:00Z).
const FIXTURE_TIME: i64 = 1_767_225_600;

pub struct TrialWorkspace {
    dir: tempfile::TempDir,
    repo: Repository,
    base: git2::Oid,
}

fn git_err(what: &str, e: git2::Error) -> Error {
    Error::Internal(format!("workspace {what}: {}", e.message()))
}

impl TrialWorkspace {
    /// Copy `fixture` into a new tempdir and commit it.
    pub fn create(fixture: &Path) -> Result<TrialWorkspace> {
        let dir = tempfile::Builder::new()
            .prefix("charter-harness-")
            .tempdir()
            .map_err(|e| Error::io(Path::new("tempdir"), e))?;
        copy_tree(fixture, dir.path())?;
        let repo = Repository::init(dir.path()).map_err(|e| git_err("init", e))?;
        let base = {
            let mut index = repo.index().map_err(|e| git_err("index", e))?;
            index
                .add_all(["*"], IndexAddOption::DEFAULT, None)
                .map_err(|e| git_err("add", e))?;
            index.write().map_err(|e| git_err("index write", e))?;
            let tree_id = index.write_tree().map_err(|e| git_err("tree", e))?;
            let tree = repo.find_tree(tree_id).map_err(|e| git_err("tree", e))?;
            let sig = Signature::new(
                "charter-harness",
                "fixtures@charter-harness.invalid",
                &Time::new(FIXTURE_TIME, 0),
            )
            .map_err(|e| git_err("signature", e))?;
            repo.commit(Some("HEAD"), &sig, &sig, "fixture", &tree, &[])
                .map_err(|e| git_err("commit", e))?
        };
        Ok(TrialWorkspace { dir, repo, base })
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
            let after = std::fs::read(self.root().join(&path))
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
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

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in std::fs::read_dir(from).map_err(|e| Error::io(from, e))? {
        let entry = entry.map_err(|e| Error::io(from, e))?;
        let src = entry.path();
        let dst: PathBuf = to.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| Error::io(&src, e))?;
        if kind.is_dir() {
            std::fs::create_dir_all(&dst).map_err(|e| Error::io(&dst, e))?;
            copy_tree(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| Error::io(&src, e))?;
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
        let ws = TrialWorkspace::create(fixture.path()).unwrap();
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
    fn fixture_commits_are_identical_across_runs() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("a.txt"), "a\n").unwrap();
        let one = TrialWorkspace::create(fixture.path())
            .unwrap()
            .base_commit();
        let two = TrialWorkspace::create(fixture.path())
            .unwrap()
            .base_commit();
        assert_eq!(one, two);
    }
}
