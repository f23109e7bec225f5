//! The repository root, found as git finds it: the nearest folder, from the current one up,
//! holding `.git` (a folder, or a worktree's file). The defaults that name repository files
//! (manifests/pinned.toml, CHARTER.md, results/) are read there, so a command started in a
//! subfolder reads what it would read at the root.

use std::path::{Path, PathBuf};

/// The nearest folder from `dir` up that holds `.git`, if any.
pub fn git_root_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The root of the repository holding the current folder when the current folder is a
/// subfolder of it (the caller says so once); `None` at the root or outside a repository.
pub fn subfolder_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    git_root_of(&cwd).filter(|root| *root != cwd)
}

/// The folder the repository-relative defaults are read in: the repository's root, else the
/// current folder.
pub fn base() -> PathBuf {
    subfolder_root()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
}
