//! Helpers shared by the integration tests: run the built binary, find the repository root.

pub mod counts;
pub mod fuzz_readers;
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

/// `line` run by `sh` in `dir` as a user types it: this build's `harness` first on PATH, nothing
/// else of the test's environment but a git identity and `HOME` in `dir` (so the commands the
/// README and the run print work as printed).
pub fn shell(dir: &Path, line: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_harness")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("GIT_AUTHOR_NAME", "Walkthrough")
        .env("GIT_AUTHOR_EMAIL", "walkthrough@example.invalid")
        .env("GIT_COMMITTER_NAME", "Walkthrough")
        .env("GIT_COMMITTER_EMAIL", "walkthrough@example.invalid")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap()
}

/// `harness` with `args` started in the background, its output discarded, with only PATH and
/// the given environment: for tests that watch the process (its memory, its children) as it runs.
pub fn spawn_quiet<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    env: &[(&str, &str)],
) -> std::process::Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_harness"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("harness starts")
}

/// The example charter the loopback manifests test.
pub fn example_charter() -> PathBuf {
    repo_root().join("fixtures/charters/example-charter.md")
}

/// A charter in a git repository: HEAD holds the example charter, the work tree a wording edit
/// of it ("pick" becomes "choose" the higher tier) with a patch version bump.
pub fn edited_charter() -> (tempfile::TempDir, PathBuf) {
    let base = std::fs::read_to_string(example_charter()).unwrap();
    let edited = base
        .replace("pick the higher tier", "choose the higher tier")
        .replace("Version 0.1.0", "Version 0.1.1");
    git_repo(&base, &edited)
}

/// A copy of the offline manifest written to `path`, each (from, to) of `edits` applied, its
/// charter named by absolute path so that the copy loads from any folder.
pub fn write_offline_manifest(path: &Path, edits: &[(&str, &str)]) {
    let mut text = std::fs::read_to_string(repo_root().join("manifests/offline.toml")).unwrap();
    for (from, to) in edits {
        text = text.replace(from, to);
    }
    let text = text.replace(
        "\"../fixtures/charters/example-charter.md\"",
        &format!("{:?}", example_charter().to_str().unwrap()),
    );
    std::fs::write(path, text).unwrap();
}

/// `harness run` on the offline matrix into `run_dir`, with `extra` arguments.
pub fn offline_run(run_dir: &Path, extra: &[&str]) -> Output {
    offline_run_with(run_dir, extra, &[])
}

/// `harness run` on the offline matrix into `run_dir`, with `extra` arguments and `env`.
pub fn offline_run_with(run_dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut args = vec![
        "run",
        "--matrix",
        "manifests/offline.toml",
        "--out",
        run_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    harness(&repo_root(), &args, env)
}

/// `harness merge` of the run folders `shards` into `out`.
pub fn merge(shards: &[&Path], out: &Path) -> Output {
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    harness(&repo_root(), &args, &[])
}

/// A manifest of two OpenAI models (`f` frontier, `w` weakest) on a port nothing listens on,
/// their keys in the variables `keys`, one attempt each: a run that reaches them ends undecided.
pub fn unreachable_models(charter: &Path, keys: [&str; 2]) -> String {
    let model = |name: &str, role: &str, key: &str| {
        format!(
            "[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"openai\"\nmodel = \"m-2026-01-01\"\nbase_url = \"http://127.0.0.1:9/v1\"\napi_key_env = \"{key}\"\nmax_attempts = 1\ntimeout_secs = 1\n"
        )
    };
    format!(
        "[charter]\nsource = {charter:?}\n[run]\ntrials = 1\n{}{}",
        model("f", "frontier", keys[0]),
        model("w", "weakest", keys[1])
    )
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
    git_repo_at("CHARTER.md", base.as_bytes(), head.as_bytes())
}

/// A git repository whose HEAD commit holds `base` at `name`, with `head` written over it.
pub fn git_repo_at(name: &str, base: &[u8], head: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, base).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new(name)).unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "base", &tree, &[])
        .unwrap();
    std::fs::write(&file, head).unwrap();
    (dir, file)
}

/// Say that a test skipped what it checks, where `cargo test` shows it: written straight to the
/// process's stderr, which the test harness does not capture (it captures only the `print!`
/// family), so the line appears beside the test's `ok` without `--nocapture`.
pub fn skipped(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr(), "SKIPPED in {test}: {reason}");
}

/// A tool a test needs, found on PATH; else None, said as a visible skip, or a failure when CI
/// is set (`.ci/run` installs it: `install` says how).
pub fn required_tool(name: &str, install: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|f| f.is_file())
    });
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "{name} is not on PATH: .ci/run installs it ({install})"
        );
        skipped(&format!(
            "{name} is not on PATH, so what it checks did not run ({install})"
        ));
    }
    found
}

/// The DOM headless Chromium builds from the page at `page` (`--dump-dom`), or None, said as a
/// skip, when no chromium is on PATH and neither CI nor CHARTER_HARNESS_REQUIRE_BROWSER=1
/// requires one (then a missing browser fails).
pub fn chromium_dom(page: &Path) -> Option<String> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| {
            std::env::var_os("PATH").and_then(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join(b))
                    .find(|f| f.is_file())
            })
        });
    let Some(chromium) = found else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        let required = std::env::var("CHARTER_HARNESS_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !(ci || required),
            "no chromium on PATH: .ci/run installs it"
        );
        skipped("the browser check did not run: no chromium on PATH (Debian package `chromium`)");
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// A copy of the folder `from` at `to`, files and folders alike.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}
