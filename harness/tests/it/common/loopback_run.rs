//! Running the binary against a loopback model: a manifest in a temp folder, the run folder
//! beside it, the test key in the environment.

use super::repo_root;
use loopback::{RecordedRequest, Reply, Responder};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

pub const KEY: &str = "sk-test-DO-NOT-LEAK-7f3a9c";

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub dir: tempfile::TempDir,
}

impl Run {
    pub fn out(&self) -> std::path::PathBuf {
        self.dir.path().join("out")
    }
    /// `harness replay FILE` with this run's manifest and the repository's suite.
    pub async fn replay(&self, file: &Path) -> std::process::Output {
        harness_off_runtime(vec![
            "replay".into(),
            file.display().to_string(),
            "--matrix".into(),
            self.dir.path().join("m.toml").display().to_string(),
            "--suite".into(),
            super::repo_root().display().to_string(),
        ])
        .await
    }
    /// `harness run --resume` of this run with its manifest, the repository's suite and `extra`.
    pub async fn resume(&self, extra: &[&str]) -> std::process::Output {
        let mut argv = run_argv(&self.dir.path().join("m.toml"), extra);
        argv.extend(["--resume".into(), self.out().display().to_string()]);
        harness_off_runtime(argv).await
    }
    /// `harness COMMAND OUT --suite ROOT`: a command that reads this run's folder.
    pub async fn read_back(&self, command: &str) -> std::process::Output {
        harness_off_runtime(vec![
            command.into(),
            self.out().display().to_string(),
            "--suite".into(),
            super::repo_root().display().to_string(),
        ])
        .await
    }
    pub fn transcript(&self, model: &str, unit: &str, trial: u32) -> Value {
        let p = self
            .out()
            .join(format!("transcripts/{model}/{unit}/trial-{trial}.json"));
        serde_json::from_str(
            &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
        .unwrap()
    }
}

/// Run the binary against a manifest, off the async runtime so the server keeps serving.
pub async fn run_harness(manifest: String, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.toml");
    std::fs::write(&path, manifest).unwrap();
    let mut argv = run_argv(&path, &["--out", dir.path().join("out").to_str().unwrap()]);
    argv.extend(args.iter().map(|s| s.to_string()));
    let o = harness_off_runtime(argv).await;
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: super::stdout(&o),
        stderr: super::stderr(&o),
        dir,
    }
}

/// The arguments of `harness run` with the manifest `matrix`, the repository's suite and `extra`.
pub fn run_argv(matrix: &Path, extra: &[&str]) -> Vec<String> {
    let mut argv: Vec<String> = vec![
        "run".into(),
        "--matrix".into(),
        matrix.display().to_string(),
        "--suite".into(),
        repo_root().display().to_string(),
    ];
    argv.extend(extra.iter().map(|s| s.to_string()));
    argv
}

/// A manifest with two models on one loopback server at `url`, both pinned to `model`: `oa`
/// (frontier) speaks OpenAI Chat Completions, `an` (weakest) Anthropic Messages. `tables`
/// (`[run]`, `[decoding]`, …) stand between the charter and the models; `oa_extra` and
/// `an_extra` end each model's table.
pub fn two_api_manifest(
    charter: &Path,
    url: &str,
    model: &str,
    tables: &str,
    oa_extra: &str,
    an_extra: &str,
) -> String {
    format!(
        r#"
[charter]
source = {charter:?}

{tables}

[[models]]
name = "oa"
role = "frontier"
provider = "openai"
model = "{model}"
base_url = "{url}/v1"
api_key_env = "CH_TEST_KEY"
{oa_extra}

[[models]]
name = "an"
role = "weakest"
provider = "anthropic"
model = "{model}"
base_url = "{url}"
api_key_env = "CH_TEST_KEY"
temperature_supported = false
{an_extra}
"#
    )
}

/// The binary with the test key, off the async runtime so the loopback server keeps serving.
pub async fn harness_off_runtime(args: Vec<String>) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        super::harness(Path::new("/"), &a, &[("CH_TEST_KEY", KEY)])
    })
    .await
    .unwrap()
}

pub fn responder(
    f: impl Fn(&RecordedRequest, usize) -> Reply + Send + Sync + 'static,
) -> Responder {
    Arc::new(f)
}
