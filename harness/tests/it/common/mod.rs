//! Helpers shared by the integration tests: run the built binary, find the repository root.

pub mod loopback_run;
pub mod model_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Run `harness` with `args` from `cwd`, with only the environment given (plus PATH).
pub fn harness(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_harness"));
    cmd.args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("harness runs")
}

/// `harness run` on the offline matrix into `run_dir`, with `extra` arguments.
pub fn offline_run(run_dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--matrix",
        "manifests/offline.toml",
        "--out",
        run_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    harness(&repo_root(), &args, &[])
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every file under `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// A git repository (built with git2) whose HEAD commit holds `base` as CHARTER.md, with `head`
/// in the work tree.
pub fn git_repo(base: &str, head: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let file = dir.path().join("CHARTER.md");
    std::fs::write(&file, base).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("CHARTER.md")).unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "base", &tree, &[])
        .unwrap();
    std::fs::write(&file, head).unwrap();
    (dir, file)
}
