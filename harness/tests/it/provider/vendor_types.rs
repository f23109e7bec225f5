//! The request bodies the harness sends, checked against the vendors' own request types: the
//! `openai` and `anthropic` Python packages (pinned by hash in .ci/requirements.txt, installed
//! by .ci/run into its own virtual environment), through harness/tests/vendor_types.py. Where
//! `python3` with those packages is missing the test says so and skips; with CI set it fails.

use crate::common;

use common::loopback_run::run_harness;
use common::repo_root;
use loopback::vendors::{self, Vendor};
use std::io::Write;
use std::process::{Command, Stdio};

/// `python3` on PATH when it imports both packages; otherwise a loud skip (a failure in CI).
fn python_with_the_sdks() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("python3"))
            .find(|p| p.is_file())
    });
    let imports = found.as_ref().is_some_and(|py| {
        Command::new(py)
            .args(["-c", "import openai, anthropic, pydantic"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !imports {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        let how = "pip install --require-hashes -r .ci/requirements.txt (what .ci/run does, into target/ci-venv)";
        assert!(
            !ci,
            "python3 with the openai and anthropic packages is not on PATH: {how}"
        );
        common::skipped(&format!(
            "python3 with the openai and anthropic packages is not on PATH, so the request bodies were not checked against the vendors' types: {how}"
        ));
        return None;
    }
    found
}

/// Every request body of a run of `case` against `vendor` speaking `api`, with `extra` in the
/// model's table.
async fn bodies(vendor: Vendor, api: &str, extra: &str, case: &str) -> Vec<serde_json::Value> {
    let server = vendors::serve(vendor).await;
    let url = match api {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    let manifest = format!(
        r#"
[charter]
source = {:?}

[decoding]
max_tokens = 200

[[models]]
name = "m"
role = "frontier"
provider = "{api}"
model = "stand-in-2026-01-01"
base_url = "{url}"
api_key_env = "CH_TEST_KEY"
temperature_supported = false
{extra}

[[models]]
name = "w"
role = "weakest"
provider = "scripted"
model = "scripted"
script = "naive"
"#,
        common::example_charter()
    );
    let run = run_harness(manifest, &["--case", case, "--trials", "1", "--model", "m"]).await;
    let reqs = server.requests();
    assert!(!reqs.is_empty(), "{}", run.stderr);
    reqs.iter()
        .map(|r| serde_json::json!({"api": api, "body": r.json()}))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_shape_validates_against_the_vendors_own_request_types() {
    let Some(python) = python_with_the_sdks() else {
        return;
    };
    let mut all = Vec::new();
    for (vendor, api, extra, case) in [
        (
            Vendor::DeepSeekThinking,
            "openai",
            "reasoning_replay = \"always\"",
            "E9",
        ),
        (
            Vendor::OpenRouterDetails,
            "openai",
            "reasoning_replay = \"always\"",
            "E9",
        ),
        (
            Vendor::ObjectArguments,
            "openai",
            "token_limit_field = \"max_completion_tokens\"",
            "E9",
        ),
        (Vendor::AnthropicThinkingWithKey, "anthropic", "", "E9"),
        (Vendor::PauseTurn, "anthropic", "prompt_cache = false", "E1"),
        (
            Vendor::AnthropicThinkingWithKey,
            "anthropic",
            "auth = \"bearer\"",
            "E5",
        ),
    ] {
        all.extend(bodies(vendor, api, extra, case).await);
    }
    let mut child = Command::new(python)
        .arg(repo_root().join("harness/tests/vendor_types.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines: String = all.iter().map(|b| format!("{b}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} request bodies checked:\n{}{}",
        all.len(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
