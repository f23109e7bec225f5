//! Every command the README shows in a code block is run here, as written, with the exit status
//! its `# exit N` comment promises, or by the walkthrough tests its block's marker names, or is
//! on the allow-list below with the reason. Commands that call a model run against a loopback
//! stand-in (both APIs) with dummy keys in place of the README's placeholders.

use crate::common::model_server::{encode, generic_turn};
use crate::common::{files_under, repo_root, stderr};
use loopback::{LoopbackServer, RecordedRequest};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";
/// What stands for the `…` of the README's `export ANTHROPIC_API_KEY=sk-ant-…`.
const DUMMY: &str = "readme-dummy-key-4c1f";

/// Lines never run here, each with the reason. Anything else in a README command block runs.
const ALLOWED: [(&str, &str); 4] = [
    (
        "curl -fsSL https://raw.githubusercontent.com/charter-harness/charter-harness/v0.2.0/scripts/install.sh | sh",
        "downloads from the network; cli::install runs this script against a release served on loopback",
    ),
    (
        "cargo binstall --git https://github.com/charter-harness/charter-harness harness",
        "downloads from the network; cli::install checks its metadata names release.yml's archive",
    ),
    (
        "cargo install --locked --git https://github.com/charter-harness/charter-harness --tag v0.2.0 harness",
        "installs from the network (a release tag of this repository's home); no test leaves the machine",
    ),
    (
        "cargo test --workspace",
        "the test suite itself: running it from a test would recurse; `.ci/run` runs it (checked below)",
    ),
];

/// Where a command block runs, from the marker before it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// `walkthrough: commands`: run by `cli::first_hour`.
    FirstHour,
    /// `walkthrough: regression commands`: run by `regate::walkthrough`.
    Regression,
    /// `readme: anywhere`: an empty folder.
    Anywhere,
    /// `readme: charter repository`: the first walkthrough's repository, models on loopback.
    CharterRepository,
    /// `readme: clone`: a folder holding this repository's manifests and charters.
    Clone,
}

struct Block {
    place: Place,
    lines: Vec<String>,
}

/// Every shell block of the README with the marker that says where it runs; a shell block
/// without one fails, so a new command cannot slip in untested.
fn command_blocks(readme: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut marker: Option<&str> = None;
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with("<!--") {
            marker = Some(t);
            continue;
        }
        if let Some(info) = t.strip_prefix("```") {
            let body: Vec<String> = lines
                .by_ref()
                .take_while(|l| !l.trim_start().starts_with("```"))
                .map(str::to_string)
                .collect();
            if ["sh", "bash", "shell", "console", "zsh"].contains(&info.trim()) {
                let m = marker.unwrap_or_else(|| {
                    panic!(
                        "README: a ```{info} block without a marker saying how it is tested:\n{}",
                        body.join("\n")
                    )
                });
                blocks.push(Block {
                    place: place(m),
                    lines: body,
                });
            }
        }
        if !t.is_empty() {
            marker = None;
        }
    }
    blocks
}

fn place(marker: &str) -> Place {
    match marker {
        "<!-- walkthrough: commands -->" => Place::FirstHour,
        "<!-- walkthrough: regression commands -->" => Place::Regression,
        "<!-- readme: anywhere -->" => Place::Anywhere,
        "<!-- readme: charter repository -->" => Place::CharterRepository,
        "<!-- readme: clone -->" => Place::Clone,
        other => panic!("README: unknown command block marker {other}"),
    }
}

/// The exit statuses a line's `# exit 0 or 1: …` comment allows; a line that only sets the
/// shell up (`export`, `cd`) needs no comment and must succeed.
fn wanted(line: &str) -> Vec<i32> {
    let setup = ["export ", "cd "]
        .iter()
        .any(|p| command(line).starts_with(p));
    if setup && !line.contains("# exit ") {
        return vec![0];
    }
    let (_, comment) = line
        .split_once("# exit ")
        .unwrap_or_else(|| panic!("README: no `# exit N` comment and not allowed: {line}"));
    let codes = comment.split(':').next().unwrap();
    let got: Vec<i32> = codes
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(!got.is_empty(), "README: no exit status in {line}");
    got
}

/// The command of a line, without its comment.
fn command(line: &str) -> &str {
    line.split(" #").next().unwrap().trim()
}

/// Runs `lines` in one `sh` in `dir` (so `export` and `cd` carry on, as in a terminal), with
/// this build's `harness` first on PATH and `cargo run --release --` standing for it; returns
/// each line's exit status and everything printed.
fn run_block(dir: &Path, lines: &[&str]) -> (Vec<i32>, String) {
    let status = dir.join(".readme-status");
    let mut script = String::new();
    for line in lines {
        let cmd = command(line).replacen("cargo run --release -- ", "harness ", 1);
        // The README's placeholder keys (`sk-ant-…`) become dummy keys a header can carry.
        let cmd = match cmd.strip_prefix("export ") {
            Some(_) => cmd.replace('…', DUMMY),
            None => cmd,
        };
        script.push_str(&format!("{cmd}\necho $? >> '{}'\n", status.display()));
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_harness")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let codes = std::fs::read_to_string(&status)
        .unwrap_or_default()
        .lines()
        .map(|c| c.parse().unwrap())
        .collect();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (codes, printed)
}

/// The first walkthrough's repository (the Reasoning Charter after `harness init`), its pinned
/// models pointed at `server`, everything committed on `main` (what `--charter-base main` reads).
fn charter_repository(server: &LoopbackServer) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    let o = crate::common::harness(dir.path(), &["init", "--branch", "main"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pinned = dir.path().join("manifests/pinned.toml");
    let text = std::fs::read_to_string(&pinned).unwrap();
    let url = server.url();
    let moved = text
        .replace("\"https://api.anthropic.com\"", &format!("\"{url}\""))
        .replace("\"https://api.openai.com/v1\"", &format!("\"{url}/v1\""));
    assert_eq!(
        moved.matches(&url).count(),
        2,
        "both models moved:\n{moved}"
    );
    std::fs::write(&pinned, moved).unwrap();
    commit_on_main(dir.path());
    dir
}

/// A git repository at `dir` whose branch `main` holds every file there.
fn commit_on_main(dir: &Path) {
    let mut opts = git2::RepositoryInitOptions::new();
    opts.initial_head("main");
    let repo = git2::Repository::init_opts(dir, &opts).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "the charter", &tree, &[])
        .unwrap();
}

/// A folder with what `cargo run -- run --matrix manifests/offline.toml` reads from a clone.
fn clone() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "manifests/offline.toml",
        "fixtures/charters/example-charter.md",
    ] {
        let to = dir.path().join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo_root().join(f), to).unwrap();
    }
    dir
}

/// A stand-in for both APIs that finishes any case and reports the model it was asked for.
async fn stand_in() -> LoopbackServer {
    LoopbackServer::start(Arc::new(|r: &RecordedRequest, _| {
        let model = r.json()["model"].as_str().unwrap_or_default().to_string();
        encode(r, &generic_turn(r), &model)
    }))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_the_readme_shows_runs_as_written_or_is_allowed_with_a_reason() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let blocks = command_blocks(&readme);
    let places: Vec<Place> = blocks.iter().map(|b| b.place).collect();
    // The two walkthroughs' blocks are run by their own tests, which find them by marker.
    assert!(places.contains(&Place::FirstHour) && places.contains(&Place::Regression));
    let server = stand_in().await;
    let mut ran = 0;
    for block in blocks
        .iter()
        .filter(|b| ![Place::FirstHour, Place::Regression].contains(&b.place))
    {
        let lines: Vec<&str> = block
            .lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .filter(|l| !ALLOWED.iter().any(|(a, _)| command(l) == *a))
            .collect();
        let dir = match block.place {
            Place::CharterRepository => charter_repository(&server),
            Place::Clone => clone(),
            _ => tempfile::tempdir().unwrap(),
        };
        let want: Vec<Vec<i32>> = lines.iter().map(|l| wanted(l)).collect();
        let (codes, printed) = {
            let dir = dir.path().to_path_buf();
            let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            tokio::task::spawn_blocking(move || {
                let l: Vec<&str> = lines.iter().map(String::as_str).collect();
                run_block(&dir, &l)
            })
            .await
            .unwrap()
        };
        assert_eq!(codes.len(), lines.len(), "{printed}");
        for ((line, code), want) in lines.iter().zip(&codes).zip(&want) {
            assert!(want.contains(code), "{line}: exit {code}\n{printed}");
        }
        if block.place == Place::CharterRepository {
            assert_models_were_called_and_no_key_written(&server, dir.path(), &printed);
        }
        ran += lines.len();
    }
    assert!(ran >= 3, "{ran} README commands run");
}

/// The pinned run spoke to the stand-in in both APIs with the exported keys, and neither key
/// reached a file of the run or a printed line.
fn assert_models_were_called_and_no_key_written(server: &LoopbackServer, repo: &Path, out: &str) {
    let requests = server.requests();
    let anthropic = requests
        .iter()
        .filter(|r| r.path.ends_with("/v1/messages"))
        .count();
    assert!(
        anthropic > 0 && anthropic < requests.len(),
        "{}",
        requests.len()
    );
    assert!(requests
        .iter()
        .any(|r| r.header("x-api-key") == Some(format!("sk-ant-{DUMMY}").as_str())));
    for key in [format!("sk-ant-{DUMMY}"), format!("sk-{DUMMY}")] {
        assert!(!out.contains(&key), "{key} printed:\n{out}");
        for f in files_under(&repo.join("results")) {
            let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).to_string();
            assert!(!text.contains(&key), "{key} in {}", f.display());
        }
    }
}

#[test]
fn the_readmes_allowed_lines_are_shown_and_ci_runs_its_test_command() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let shown: Vec<String> = command_blocks(&readme)
        .into_iter()
        .flat_map(|b| b.lines)
        .map(|l| command(&l).to_string())
        .collect();
    for (line, why) in ALLOWED {
        assert!(!why.is_empty());
        assert!(
            shown.iter().any(|s| s == line),
            "allowed but no longer in the README (drop it from ALLOWED): {line}"
        );
    }
    // CI runs the README's developer commands: the tests and the offline main job.
    let ci = std::fs::read_to_string(repo_root().join(".ci/run")).unwrap();
    assert!(ci.contains("cargo test --workspace"), "{ci}");
    assert!(
        ci.contains("-- run --matrix manifests/offline.toml"),
        "{ci}"
    );
    assert!(shown
        .iter()
        .any(|s| s == "cargo run --release -- run --matrix manifests/offline.toml"));
}
