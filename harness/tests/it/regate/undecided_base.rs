//! `gate = "no-regression"` against a base that cannot decide: the base's provider answers 500
//! to every request, so a unit failing on the pull request is undecided there (exit 3, nothing
//! kept), while the same change against a base that answers is blocked (exit 1).

use crate::common::loopback_run::{responder, KEY};
use crate::common::model_server::{encode, generic_turn, Turn};
use crate::common::{harness, repo_root, shell, stderr, stdout};
use loopback::{LoopbackServer, RecordedRequest, Reply};
use std::path::Path;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";
/// A line only the pull request's charter holds: the server tells head from base by it.
const HEAD_LINE: &str = "Reviewed for the pull request 7Q.";
const MODEL: &str = "test-model-2026-01-01";

/// A charter repository on main with a no-regression manifest of one OpenAI-style model at
/// `url`, and a branch `pr` whose charter adds [`HEAD_LINE`].
fn repo(url: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    std::fs::create_dir(dir.path().join("manifests")).unwrap();
    std::fs::write(
        dir.path().join("manifests/api.toml"),
        format!(
            "[charter]\nsource = \"../CHARTER.md\"\n\n[run]\ntrials = 3\ngate = \"no-regression\"\n\n\
             [decoding]\ntemperature = 0\nmax_tokens = 1000\nseed = 7\n\n\
             [[models]]\nname = \"oa\"\nrole = \"frontier\"\nprovider = \"openai\"\nmodel = \"{MODEL}\"\n\
             base_url = \"{url}/v1\"\napi_key_env = \"CH_TEST_KEY\"\nretry_base_ms = 10\ntimeout_secs = 2\nmax_attempts = 2\n\n\
             [[models]]\nname = \"compliant\"\nrole = \"weakest\"\nprovider = \"scripted\"\n\
             model = \"scripted/compliant-v1\"\nscript = \"compliant\"\n"
        ),
    )
    .unwrap();
    for line in [
        "git init -q -b main",
        "git add -A",
        "git commit -qm main",
        "git switch -qc pr",
        &format!("sed -i 's/^Purpose & Scope$/{HEAD_LINE}\\n\\nPurpose \\& Scope/' CHARTER.md"),
        "git commit -qam pr",
    ] {
        let o = shell(dir.path(), line);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    dir
}

fn body(r: &RecordedRequest) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

/// The head's model refuses E2 (the conversion-rate prompt) and otherwise finishes every case
/// alike; the base's answers as `base` says: 500 to everything, or as the head but for E2.
fn server_answers(base_fails_with_500: bool) -> loopback::Responder {
    responder(move |r, _| {
        let b = body(r);
        let head = b.contains(HEAD_LINE);
        if !head && base_fails_with_500 {
            return Reply::raw(500, r#"{"error":"boom"}"#);
        }
        if head && b.contains("conversion rate fell 30%") {
            let refusal = Turn {
                text: "I can't help with that.".into(),
                calls: vec![],
            };
            return encode(r, &refusal, MODEL);
        }
        encode(r, &generic_turn(r), MODEL)
    })
}

fn harness_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let home = dir.display().to_string();
    harness(dir, args, &[("CH_TEST_KEY", KEY), ("HOME", &home)])
}

async fn gate_against_main(base_fails_with_500: bool) -> (std::process::Output, tempfile::TempDir) {
    let server = LoopbackServer::start(server_answers(base_fails_with_500)).await;
    let dir = repo(&server.url());
    let path = dir.path().to_path_buf();
    let o = tokio::task::spawn_blocking(move || {
        let run = harness_in(&path, &["run", "--matrix", "manifests/api.toml"]);
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        harness_in(&path, &["gate", "results/latest", "--charter-base", "main"])
    })
    .await
    .unwrap();
    (o, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_base_whose_provider_answers_500_leaves_the_gate_undecided_and_nothing_kept() {
    let (o, dir) = gate_against_main(true).await;
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}{}", stderr(&o));
    let verdict = out.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("Gate: NOT DECIDED: ") && verdict.contains("run again"),
        "{out}"
    );
    assert!(
        out.contains("Failing here, not decided on the base")
            && out.contains("E2/default on oa: base inconclusive"),
        "{out}"
    );
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("results/latest/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["exit_code"], 3);
    assert_ne!(summary["verdict"], "no-regression");
    assert!(summary["comparison"]["undecided"]["rerun"].as_u64() > Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_change_against_a_base_that_answers_is_blocked() {
    let (o, _dir) = gate_against_main(false).await;
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(
        out.trim_end().ends_with("(no-regression)") && out.contains("FAIL: the change is blocked"),
        "{out}"
    );
}
