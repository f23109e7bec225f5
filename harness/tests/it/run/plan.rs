//! The plan against what a loopback model receives: a run, duplicated filters, the resume of a
//! narrowed run, a resume after Ctrl-C, a base rerun, shards and their merge each send exactly
//! the trials their plan lists, each once; a base revision that does not resolve writes nothing.

use crate::common;

use common::loopback_run::{responder, two_api_manifest, KEY};
use common::model_server::{encode, generic_turn, is_anthropic, serve};
use common::{edited_charter, example_charter, files_under, repo_root};
use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const PINNED: &str = "test-model-2026-01-01";

/// Two models on one loopback server (`oa` speaks OpenAI, `an` Anthropic), the given charter,
/// `trials` per unit in the manifest.
fn manifest(server: &LoopbackServer, charter: &Path, trials: u32) -> String {
    let limits = "retry_base_ms = 10\ntimeout_secs = 5\nmax_concurrency = 2";
    two_api_manifest(
        charter,
        &server.url(),
        PINNED,
        &format!("[run]\ntrials = {trials}\n\n[decoding]\ntemperature = 0\nmax_tokens = 1000"),
        limits,
        limits,
    )
}

/// A temp folder holding the manifest `m.toml`; runs go beside it.
struct Bench {
    dir: tempfile::TempDir,
}

impl Bench {
    fn new(manifest: String) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.toml"), manifest).unwrap();
        Bench { dir }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    /// `harness run` with this manifest and the repository's suite into `out`.
    async fn run(&self, out: &str, args: &[&str]) -> Outcome {
        let mut argv = vec![
            "run".to_string(),
            "--matrix".into(),
            self.path("m.toml").display().to_string(),
            "--suite".into(),
            repo_root().display().to_string(),
        ];
        if !args.contains(&"--resume") {
            argv.extend(["--out".into(), self.path(out).display().to_string()]);
        }
        argv.extend(args.iter().map(|s| s.to_string()));
        harness(argv, &[]).await
    }
}

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The binary with the test key and `env`, off the async runtime so the server keeps serving.
async fn harness(args: Vec<String>, env: &[(&str, &str)]) -> Outcome {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    tokio::task::spawn_blocking(move || {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut e: Vec<(&str, &str)> = vec![("CH_TEST_KEY", KEY)];
        e.extend(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let o = common::harness(Path::new("/"), &a, &e);
        Outcome {
            code: o.status.code().unwrap_or(-1),
            stdout: common::stdout(&o),
            stderr: common::stderr(&o),
        }
    })
    .await
    .unwrap()
}

/// What one model was sent: requests, and episodes (requests opening a conversation).
#[derive(Debug, Default, PartialEq, Clone, Copy)]
struct Received {
    requests: usize,
    episodes: usize,
}

impl Received {
    /// `n` episodes of one request each.
    fn single_request_episodes(n: usize) -> Received {
        Received {
            requests: n,
            episodes: n,
        }
    }
}

fn received(requests: &[RecordedRequest], model: &str) -> Received {
    let mine: Vec<&RecordedRequest> = requests
        .iter()
        .filter(|r| is_anthropic(r) == (model == "an"))
        .collect();
    Received {
        requests: mine.len(),
        episodes: mine.iter().filter(|r| opens_episode(r)).count(),
    }
}

/// The request that opens an episode ends with the case's prompt; later ones end with tool
/// results (seeded histories hold assistant turns too, so those are not counted).
fn opens_episode(r: &RecordedRequest) -> bool {
    let body = r.json();
    let Some(last) = body["messages"].as_array().and_then(|m| m.last()) else {
        return false;
    };
    let tool_results = last["content"]
        .as_array()
        .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"));
    last["role"] == "user" && !tool_results
}

fn run_json(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// A model's part of the plan run.json recorded: (episodes, requests at most).
fn planned(dir: &Path, model: &str) -> (usize, usize) {
    let run = run_json(dir);
    let m = run["plan"]["charter"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == model)
        .cloned()
        .unwrap_or_else(|| panic!("no plan for {model}: {run}"));
    (
        m["episodes"].as_u64().unwrap() as usize,
        m["requests_at_most"].as_u64().unwrap() as usize,
    )
}

/// Requests `model` received since `before` equal the plan: one opening request per planned
/// episode, no more requests than the plan allows, and the end of the run said how many.
fn assert_sent_as_planned(
    dir: &Path,
    o: &Outcome,
    model: &str,
    now: &[RecordedRequest],
    before: usize,
) -> Received {
    let got = received(&now[before..], model);
    let (episodes, at_most) = planned(dir, model);
    assert_eq!(
        got.episodes, episodes,
        "{model}: episodes sent vs planned\n{}",
        o.stderr
    );
    assert!(got.requests <= at_most, "{model}: {got:?} > {at_most}");
    let line = format!(
        "{model}: sent {} request{} (plan: at most {at_most})",
        got.requests,
        if got.requests == 1 { "" } else { "s" }
    );
    assert!(o.stderr.contains(&line), "want {line:?} in\n{}", o.stderr);
    got
}

fn transcripts(dir: &Path) -> Vec<PathBuf> {
    files_under(&dir.join("transcripts"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("trial-") && n.ends_with(".json"))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_sends_exactly_its_plan_and_says_so_per_model() {
    let server = serve(generic_turn, PINNED).await;
    let bench = Bench::new(manifest(&server, &example_charter(), 2));
    // E2 answers in one request, E9 looks at the workspace first: two requests an episode.
    let o = bench.run("out", &["--case", "E2", "--case", "E9"]).await;
    assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
    let out = bench.path("out");
    let now = server.requests();
    for model in ["oa", "an"] {
        let got = assert_sent_as_planned(&out, &o, model, &now, 0);
        assert_eq!(planned(&out, model).0, 2 * 2, "2 units × 2 trials");
        // E2's two episodes one request each, E9's two requests each.
        assert_eq!(got.requests, 2 + 2 * 2, "{got:?}");
    }
    assert_eq!(transcripts(&out).len(), 8);
    assert!(
        o.stderr
            .contains("oa (openai test-model-2026-01-01): 4 episodes"),
        "{}",
        o.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_filter_selects_its_unit_once() {
    let server = serve(generic_turn, PINNED).await;
    let bench = Bench::new(manifest(&server, &example_charter(), 3));
    let o = bench
        .run(
            "out",
            &[
                "--case", "E1", "--case", "e1", "--case", "E01", "--model", "weakest", "--model",
                "an",
            ],
        )
        .await;
    assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
    let out = bench.path("out");
    let now = server.requests();
    let got = assert_sent_as_planned(&out, &o, "an", &now, 0);
    assert_eq!(
        got,
        Received::single_request_episodes(3),
        "one unit × 3 trials"
    );
    assert_eq!(received(&now, "oa"), Received::default());
    assert_eq!(transcripts(&out).len(), 3);
    // The selection is recorded once, as the suite and manifest spell it.
    let filters = &run_json(&out)["filters"];
    assert_eq!(filters["case"], serde_json::json!(["E1"]));
    assert_eq!(filters["model"], serde_json::json!(["an"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_narrowed_run_finishes_its_selection_and_widening_is_asked_for() {
    let server = serve(generic_turn, PINNED).await;
    let bench = Bench::new(manifest(&server, &example_charter(), 1));
    let o = bench
        .run("out", &["--case", "E1", "--model", "oa", "--trials", "3"])
        .await;
    assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
    let out = bench.path("out");
    let out_s = out.display().to_string();
    let run = run_json(&out);
    assert_eq!(run["filters"]["case"], serde_json::json!(["E1"]));
    assert_eq!(run["trials"], 3);
    assert_eq!(run["arms"], serde_json::json!(["charter"]));
    std::fs::remove_file(out.join("transcripts/oa/E1-default/trial-2.json")).unwrap();

    // --resume alone: the one missing trial of the selection, nothing of the rest of the matrix.
    let before = server.requests().len();
    let o = bench.run("", &["--resume", &out_s]).await;
    assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("resume: 2 of 3 trials already completed (--case E1 --model oa --trials 3)"),
        "{}",
        o.stderr
    );
    let now = server.requests();
    let got = assert_sent_as_planned(&out, &o, "oa", &now, before);
    assert_eq!(got, Received::single_request_episodes(1));
    assert_eq!(received(&now[before..], "an"), Received::default());
    assert_eq!(transcripts(&out).len(), 3);

    // Another selection with --resume is refused before anything is sent.
    let before = server.requests().len();
    let o = bench.run("", &["--resume", &out_s, "--case", "E2"]).await;
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("--resume finishes the run's own selection"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--all"), "{}", o.stderr);
    // The same selection, spelled again, is the resume it was.
    let o = bench
        .run(
            "",
            &[
                "--resume", &out_s, "--case", "e1", "--model", "frontier", "--trials", "3",
            ],
        )
        .await;
    assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
    assert!(
        o.stderr.contains("3 of 3 trials already completed"),
        "{}",
        o.stderr
    );
    assert_eq!(server.requests().len(), before, "nothing left to send");

    // --all widens to every unit of the manifest (1 trial each there, 3 kept here) and says what
    // it adds: every unit × 2 models × 3 trials, less E1 on oa.
    let per_model = crate::common::counts::Counts::get().units * 3;
    let before = server.requests().len();
    let o = bench.run("", &["--resume", &out_s, "--all"]).await;
    assert!(matches!(o.code, 0 | 1 | 3), "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("resume --all: widening the run (--case E1 --model oa --trials 3) to every unit of the manifest, --trials 3: {} trials, 3 already completed, {} added", 2 * per_model, 2 * per_model - 3)),
        "{}",
        o.stderr
    );
    let now = server.requests();
    let oa = assert_sent_as_planned(&out, &o, "oa", &now, before);
    let an = assert_sent_as_planned(&out, &o, "an", &now, before);
    assert_eq!((oa.episodes, an.episodes), (per_model - 3, per_model));
    assert_eq!(transcripts(&out).len(), 2 * per_model);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_ctrl_c_a_resume_plans_and_sends_only_what_is_left() {
    let server = LoopbackServer::start(responder(|r, _| {
        Reply::Delay(
            Duration::from_millis(150),
            Box::new(encode(r, &generic_turn(r), PINNED)),
        )
    }))
    .await;
    let bench = Bench::new(manifest(&server, &example_charter(), 3));
    let out = bench.path("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["run", "--matrix"])
        .arg(bench.path("m.toml"))
        .args(["--suite"])
        .arg(repo_root())
        .args(["--case", "E2", "--model", "oa", "--trials", "16", "--out"])
        .arg(&out)
        .env("CH_TEST_KEY", KEY)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while transcripts(&out).len() < 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "the run wrote too little"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Ctrl-C.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    child.wait().unwrap();
    let kept = transcripts(&out).len();
    assert!((3..16).contains(&kept), "interrupted midway: {kept}");

    let before = server.requests().len();
    let o = bench
        .run("", &["--resume", &out.display().to_string()])
        .await;
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains(&format!("resume: {kept} of 16 trials already completed")),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains(&format!("oa (openai {PINNED}): {} episodes", 16 - kept)),
        "the plan prices what is left: {}",
        o.stderr
    );
    let now = server.requests();
    let got = assert_sent_as_planned(&out, &o, "oa", &now, before);
    assert_eq!(got, Received::single_request_episodes(16 - kept));
    assert_eq!(transcripts(&out).len(), 16);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_base_rerun_sends_each_failing_unit_trial_once_and_reuses_stored_ones() {
    let server = serve(generic_turn, PINNED).await;
    let (_repo, charter) = edited_charter();
    let bench = Bench::new(manifest(&server, &charter, 3));
    // The generic model fails E6, E8 and E12 (five units a model: the cases with two variants
    // that sent each unit four times) on both models.
    let o = bench
        .run("out", &["--case", "E6", "--case", "E8", "--case", "E12"])
        .await;
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let out = bench.path("out");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let failing: Vec<(String, String)> = summary["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["status"] == "fail")
        .map(|u| {
            (
                u["model"].as_str().unwrap().to_string(),
                u["case"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for model in ["oa", "an"] {
        for case in ["E6", "E8", "E12"] {
            assert!(
                failing.iter().any(|(m, c)| m == model && c == case),
                "{case} on {model} fails at head: {failing:?}"
            );
        }
    }

    let step = bench.path("step-summary.md");
    let gate = |rev: &'static str| {
        let (out, step) = (out.clone(), step.clone());
        async move {
            harness(
                vec![
                    "gate".into(),
                    out.display().to_string(),
                    "--charter-base".into(),
                    rev.into(),
                    "--suite".into(),
                    repo_root().display().to_string(),
                ],
                &[("GITHUB_STEP_SUMMARY", step.to_str().unwrap())],
            )
            .await
        }
    };
    let before = server.requests().len();
    let o = gate("HEAD").await;
    assert_eq!(o.code, 1, "{}", o.stderr);
    let cmp: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("base-comparison.json")).unwrap())
            .unwrap();
    let base_dir = PathBuf::from(cmp["base_results"].as_str().unwrap());
    let now = server.requests();
    for model in ["oa", "an"] {
        let fails = failing.iter().filter(|(m, _)| m == model).count();
        let got = assert_sent_as_planned(&base_dir, &o, model, &now, before);
        assert_eq!(
            got.episodes,
            fails * 3,
            "{model}: each failing unit × trial once"
        );
    }
    assert_eq!(transcripts(&base_dir).len(), failing.len() * 3);
    let summary = std::fs::read_to_string(&step).unwrap();
    assert!(
        summary.contains("Base rerun:")
            && summary.contains("oa: sent ")
            && summary.contains("usage oa:"),
        "the decide job's cost is in its step summary: {summary}"
    );

    // Again: the stored base transcripts have the same inputs, so nothing is sent, and the
    // stored base run's record is left as it was.
    let before = server.requests().len();
    let record = std::fs::read(base_dir.join("run.json")).unwrap();
    let o = gate("HEAD").await;
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(server.requests().len(), before, "{}", o.stderr);
    assert_eq!(std::fs::read(base_dir.join("run.json")).unwrap(), record);
    assert!(
        o.stderr.contains(&format!(
            "base rerun: {n} of {n} needed trials stored with the same inputs and reused; sending 0",
            n = failing.len() * 3
        )),
        "{}",
        o.stderr
    );
    // Nothing planned is said once, not as a plan and a tally of zeros per model.
    assert!(
        o.stderr.contains("plan: nothing to send: the ") && !o.stderr.contains("sent 0 requests"),
        "{}",
        o.stderr
    );
    assert_eq!(transcripts(&base_dir).len(), failing.len() * 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_send_their_plans_and_merge_into_the_whole_selection() {
    let server = serve(generic_turn, PINNED).await;
    let bench = Bench::new(manifest(&server, &example_charter(), 2));
    let mut total = 0;
    let mut dirs = Vec::new();
    for (k, name) in [("1/2", "s1"), ("2/2", "s2")] {
        let before = server.requests().len();
        let o = bench
            .run(
                name,
                &["--case", "E1", "--case", "E2", "--case", "E9", "--shard", k],
            )
            .await;
        assert!(matches!(o.code, 0 | 1), "{}", o.stderr);
        let dir = bench.path(name);
        let now = server.requests();
        for model in ["oa", "an"] {
            total += assert_sent_as_planned(&dir, &o, model, &now, before).episodes;
        }
        assert_eq!(transcripts(&dir).len(), {
            let (a, _) = planned(&dir, "oa");
            let (b, _) = planned(&dir, "an");
            a + b
        });
        dirs.push(dir);
    }
    assert_eq!(
        total,
        3 * 2 * 2,
        "the shards together: 3 units × 2 models × 2 trials, once each"
    );
    let merged = bench.path("merged");
    let o = common::harness(
        &repo_root(),
        &[
            "merge",
            dirs[0].to_str().unwrap(),
            dirs[1].to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
            "--suite",
            repo_root().to_str().unwrap(),
        ],
        &[],
    );
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        common::stderr(&o)
    );
    assert_eq!(transcripts(&merged).len(), total);
    assert!(
        common::stdout(&o).contains("6 units"),
        "the merge is the whole selection: {}",
        common::stdout(&o)
    );
}

#[test]
fn a_base_revision_that_does_not_resolve_exits_2_and_leaves_the_run_folder_as_it_was() {
    let (_repo, charter) = edited_charter();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let o = common::offline_run(
        &run,
        &[
            "--charter",
            charter.to_str().unwrap(),
            "--case",
            "E1",
            "--trials",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let snapshot = |dir: &Path| -> Vec<(PathBuf, String)> {
        use sha2::{Digest, Sha256};
        files_under(dir)
            .into_iter()
            .map(|f| {
                let hash = format!("{:x}", Sha256::digest(std::fs::read(&f).unwrap()));
                (f, hash)
            })
            .collect()
    };
    let before = snapshot(&run);
    assert!(before.len() > 5, "{before:?}");
    let step = tmp.path().join("step.md");
    let o = common::harness(
        &repo_root(),
        &[
            "gate",
            run.to_str().unwrap(),
            "--charter-base",
            "origin/main",
        ],
        &[("GITHUB_STEP_SUMMARY", step.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert!(
        err.contains("--charter-base origin/main: no such revision"),
        "{err}"
    );
    assert!(err.contains("fetch-depth: 0"), "{err}");
    let branch = git2::Repository::discover(charter.parent().unwrap())
        .unwrap()
        .head()
        .unwrap()
        .shorthand()
        .unwrap()
        .to_string();
    assert!(
        err.contains(&format!("branches and tags there: {branch}")),
        "{err}"
    );
    assert_eq!(snapshot(&run), before, "the run folder is byte-identical");
    assert!(!step.exists(), "nothing went to the step summary");
    assert!(
        common::stdout(&o).is_empty(),
        "no gate printed: {}",
        common::stdout(&o)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_sends_its_one_planned_request() {
    let server = serve(generic_turn, PINNED).await;
    let bench = Bench::new(manifest(&server, &example_charter(), 1));
    let o = bench.run("out", &["--case", "E2", "--model", "oa"]).await;
    assert_eq!(o.code, 0, "{}", o.stderr);
    let before = server.requests().len();
    let file = bench.path("out/transcripts/oa/E2-default/trial-1.json");
    let o = harness(
        vec![
            "replay".into(),
            file.display().to_string(),
            "--matrix".into(),
            bench.path("m.toml").display().to_string(),
            "--suite".into(),
            repo_root().display().to_string(),
        ],
        &[],
    )
    .await;
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(server.requests().len(), before + 1);
    assert!(
        o.stderr.contains("oa: sent 1 request (plan: at most 1)"),
        "{}",
        o.stderr
    );
}
