//! The change gate and its reports on the offline matrix: exit status, registry rows, JUnit,
//! the HTML page (in headless Chromium; required in CI, skipped loudly elsewhere), re-checks that list changed verdicts,
//! shards merged into the same gate, and --fail-fast.

use crate::common;

use common::{
    edited_charter, files_under, harness, merge, offline_run, offline_run_with, repo_root, stderr,
    stdout, write_offline_manifest,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[test]
fn the_offline_gate_fails_on_the_naive_model_with_one_registry_row_per_unit_and_valid_junit() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let summary_file = tmp.path().join("step-summary.md");
    let o = offline_run_with(
        &run,
        &[],
        &[("GITHUB_STEP_SUMMARY", summary_file.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["verdict"], "fail");
    for u in summary["units"].as_array().unwrap() {
        let want = if u["model"] == "scripted-naive" {
            "fail"
        } else {
            "pass"
        };
        assert_eq!(u["status"], want, "{}", u["case"]);
    }
    assert_eq!(
        summary["counts"],
        serde_json::json!({"pass": 32, "fail": 16, "inconclusive": 0})
    );
    assert_eq!(
        summary["checker_versions"]["E9"]["version"],
        checkers::checker_for("E9").unwrap().version
    );

    let rows = std::fs::read_to_string(run.join("registry-rows.md")).unwrap();
    let data_rows: Vec<&str> = rows
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Failure mode"))
        .collect();
    // A row per failing unit: scripted-naive fails every one.
    assert_eq!(
        data_rows.len(),
        crate::common::counts::Counts::get().units,
        "{rows}"
    );
    assert!(
        data_rows
            .iter()
            .all(|r| r.contains("on scripted-naive") && r.split(" | ").count() == 3),
        "{rows}"
    );
    assert!(
        stdout(&o).contains("Proposed Failure-Mode Registry rows"),
        "shown at the end of the run"
    );

    let xml = std::fs::read_to_string(run.join("junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("junit.xml is well-formed XML");
    let cases: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let c = crate::common::counts::Counts::get();
    let (episodes, failing) = (c.offline_episodes(), c.units * c.trials);
    assert_eq!(cases.len(), episodes);
    assert_eq!(
        cases
            .iter()
            .filter(|n| n.children().any(|c| c.has_tag_name("failure")))
            .count(),
        failing
    );
    let root = doc.root_element();
    assert_eq!(
        (
            root.tag_name().name(),
            root.attribute("tests"),
            root.attribute("failures")
        ),
        (
            "testsuites",
            Some(episodes.to_string().as_str()),
            Some(failing.to_string().as_str())
        )
    );
    assert!(cases
        .iter()
        .all(|c| c.attribute("classname").is_some() && c.attribute("name").is_some()));

    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        md.contains("**FAIL**")
            && md.contains("| E9/default | Multi-file invariant | 3/3 [0.29–1] | 0/3 ❌ [0–0.71] | 3/3 [0.29–1] |"),
        "{md}"
    );
    assert_eq!(
        std::fs::read_to_string(&summary_file).unwrap(),
        md,
        "report.md goes to the step summary"
    );
}

#[test]
fn report_html_is_self_contained_and_opens_in_headless_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(&run, &["--case", "E9"]);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        html.contains("id=\"matrix\"")
            && html.contains("class=\"failed-criterion\"")
            && html.contains("<mark>first edit edit_file(config/app.toml)")
    );
    assert!(
        !html.contains("<script src")
            && !html.contains("src=\"http")
            && !html.contains("href=\"http"),
        "self-contained: one inline script, nothing loaded"
    );
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| which(b));
    let Some(chromium) = chromium else {
        assert!(
            !browser_required(),
            "no chromium on PATH, and CI or CHARTER_HARNESS_REQUIRE_BROWSER=1 requires the \
             browser check: .ci/run installs it (apt-get install chromium)"
        );
        common::skipped(
            "the report's browser check (DOM, screenshots at 1400 and 390 px) did not run: \
             no chromium on PATH (Debian package `chromium`); CI fails here instead",
        );
        return;
    };
    let profile = tmp.path().join("profile");
    let url = format!("file://{}", run.join("report.html").display());
    let base = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ];
    let dom = std::process::Command::new(&chromium)
        .args(base)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("id=\"matrix\"") && dom.contains("class=\"transcript\""),
        "the browser's DOM holds the matrix and a transcript"
    );
    // At 1400 and 390 px wide, the top of the page shows the failing cells and their criteria
    // without scrolling: a copy of the page measures itself and writes the answer in its title.
    let probe = "<script>addEventListener('load',function(){var c=document.querySelector('td.fail small');var r=c&&c.getBoundingClientRect();document.title='FAILCELL:'+(r&&r.bottom<=innerHeight&&r.right<=innerWidth+1?'visible':'hidden');});</script>";
    let html_full = std::fs::read_to_string(run.join("report.html")).unwrap();
    let measured = tmp.path().join("measure.html");
    std::fs::write(
        &measured,
        html_full.replace("</body>", &format!("{probe}</body>")),
    )
    .unwrap();
    for (w, h) in [(1400, 900), (390, 844)] {
        let shot = tmp.path().join(format!("report-{w}.png"));
        std::process::Command::new(&chromium)
            .args(base)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("--window-size={w},{h}"))
            .arg(&url)
            .output()
            .unwrap();
        assert!(
            std::fs::metadata(&shot)
                .map(|m| m.len() > 1000)
                .unwrap_or(false),
            "a screenshot was taken at {w} px"
        );
        let dom = std::process::Command::new(&chromium)
            .args(base)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={w},{h}"))
            .args(["--virtual-time-budget=2000", "--dump-dom"])
            .arg(format!("file://{}", measured.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(
            dom.contains("<title>FAILCELL:visible</title>"),
            "at {w} px the first failing cell and its criteria are above the fold"
        );
        if let Ok(keep) = std::env::var("CHARTER_HARNESS_KEEP_SCREENSHOTS") {
            let _ = std::fs::copy(
                &shot,
                std::path::Path::new(&keep).join(format!("report-{w}.png")),
            );
        }
    }
}

/// In CI (`CI` set, as GitHub and `.ci/run` set it) or with CHARTER_HARNESS_REQUIRE_BROWSER=1,
/// a missing browser fails the browser test rather than skipping it.
fn browser_required() -> bool {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    ci || std::env::var("CHARTER_HARNESS_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

fn which(bin: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(bin))
            .find(|f| f.is_file())
    })
}

#[test]
fn gate_recomputes_from_stored_transcripts_and_check_lists_verdicts_a_checker_change_flipped() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(&run, &["--case", "E2"]);
    let o = harness(&repo_root(), &["gate", run.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("3 units: 2 pass, 1 fail"),
        "{}",
        stdout(&o)
    );

    // Pretend an older checker (0.9.0) had passed the naive trial: the re-check must say so.
    let file = run.join("transcripts/scripted-naive/E2-default/trial-2.json");
    let mut t: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    t["checker"]["pass"] = Value::Bool(true);
    t["checker"]["checker_version"] = Value::String("0.9.0".into());
    std::fs::write(&file, serde_json::to_string_pretty(&t).unwrap()).unwrap();
    let o = harness(&repo_root(), &["check", run.to_str().unwrap()], &[]);
    let out = stdout(&o);
    assert!(
        out.contains("Verdicts that changed against the stored ones (1):"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "E2-default/trial-2.json: PASS → FAIL (checker 0.9.0 → {})",
            checkers::checker_for("E2").unwrap().version
        )),
        "{out}"
    );
    let json = stdout(&harness(
        &repo_root(),
        &["check", run.to_str().unwrap(), "--json"],
        &[],
    ));
    let changed: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("changed").is_some())
        .collect();
    assert_eq!(changed.len(), 1);
}

#[test]
fn two_shards_merged_give_the_same_gate_as_one_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (s1, s2, merged, whole) = (
        tmp.path().join("s1"),
        tmp.path().join("s2"),
        tmp.path().join("merged"),
        tmp.path().join("whole"),
    );
    offline_run(&s1, &["--shard", "1/2"]);
    offline_run(&s2, &["--shard", "2/2"]);
    let (n1, n2) = (
        files_under(&s1.join("transcripts")).len(),
        files_under(&s2.join("transcripts")).len(),
    );
    let episodes = crate::common::counts::Counts::get().offline_episodes();
    assert_eq!(
        (n1 + n2, n1 > 0, n2 > 0),
        (episodes, true, true),
        "{n1} + {n2}"
    );
    let m = merge(&[&s1, &s2], &merged);
    let w = offline_run(&whole, &[]);
    assert_eq!(m.status.code(), w.status.code());
    let gate_of = |dir: &Path| {
        let s: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        s["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                (
                    u["case"].to_string(),
                    u["variant"].to_string(),
                    u["model"].to_string(),
                    u["status"].to_string(),
                    u["passed"].to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(gate_of(&merged), gate_of(&whole));
    let again = merge(&[&s1, &s1], &tmp.path().join("dup"));
    assert_eq!(
        again.status.code(),
        Some(2),
        "a transcript in two shards is refused"
    );
    assert!(stderr(&again).contains("is in two shards"));
}

#[test]
fn fail_fast_skips_trials_of_decided_units_and_still_fails_the_gate() {
    // One episode at a time per model: trial 1 fails before trial 3 is due, so it is skipped.
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("one-at-a-time.toml");
    write_offline_manifest(&m, &[("max_concurrency = 8", "max_concurrency = 1")]);
    let run = tmp.path().join("run");
    let suite = repo_root();
    let o = harness(
        &repo_root(),
        &[
            "run",
            "--matrix",
            m.to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
            "--case",
            "E1",
            "--out",
            run.to_str().unwrap(),
            "--fail-fast",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let naive = files_under(&run.join("transcripts/scripted-naive/E1-default")).len();
    let compliant = files_under(&run.join("transcripts/scripted-compliant/E1-default")).len();
    assert_eq!(compliant, 3, "a passing unit runs all its trials");
    assert!(
        naive < 3,
        "{naive} naive trials ran; the decided unit stops early"
    );
    // Counted as written: the trials fail-fast skipped are named as not run, not as failures.
    assert!(
        stdout(&o).contains(&format!("0/{naive} ({} not run) ✗", 3 - naive)),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_control_arm_runs_every_unit_without_the_charter_and_reports_the_lift_per_case() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let o = offline_run(&run, &["--arms", "charter,control"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the gate is decided on the charter arm alone"
    );
    let control = files_under(&run.join("control-arm/transcripts"));
    let c = crate::common::counts::Counts::get();
    assert_eq!(control.len(), c.offline_episodes());
    let t: Value = serde_json::from_str(&std::fs::read_to_string(&control[0]).unwrap()).unwrap();
    assert_eq!(t["arm"], "control");
    assert_ne!(
        t["messages"][0]["role"], "system",
        "no charter, no system prompt"
    );
    assert_eq!(
        files_under(&run.join("transcripts")).len(),
        c.offline_episodes()
    );
    // The fixed scripts ignore the system prompt, but the charter-reading model answers naively
    // without a charter: every case gains its share, and E11 (whose compliant script copies the
    // Core Invariants from the system prompt) gains the compliant model's too.
    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(md.contains("| E11 | 67% | 0% | +67 pts |"), "{md}");
    assert!(md.contains("| E9 | 67% | 33% | +33 pts |"), "{md}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["control_arm"].as_array().unwrap().len(), c.cases);
    let bad = offline_run(&tmp.path().join("bad"), &["--arms", "control"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn gate_against_a_base_charter_reruns_failing_units_there_and_reports_per_unit_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let (_repo, charter) = edited_charter();
    let run = tmp.path().join("run");
    let o = offline_run(
        &run,
        &[
            "--charter",
            charter.to_str().unwrap(),
            "--case",
            "E1",
            "--case",
            "E9",
        ],
    );
    assert_eq!(o.status.code(), Some(1));

    let o = harness(
        &repo_root(),
        &["gate", run.to_str().unwrap(), "--charter-base", "HEAD"],
        &[],
    );
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the head gate still decides: {}",
        stderr(&o)
    );
    assert!(out.contains("Against the charter at HEAD: 0 regression(s), 0 improvement(s), 0 within noise, 2 still failing, 0 undecided"), "{out}");
    let cmp: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("base-comparison.json")).unwrap())
            .unwrap();
    let base_dir = PathBuf::from(cmp["base_results"].as_str().unwrap());
    assert_eq!(
        files_under(&base_dir.join("transcripts")).len(),
        6,
        "only the 2 failing units ran on the base, 3 trials each"
    );

    // Reuse stored base results: where the base passed a unit the head fails, it is a regression.
    let naive_e1 = base_dir.join("transcripts/scripted-naive/E1-default");
    let naive: Value =
        serde_json::from_str(&std::fs::read_to_string(naive_e1.join("trial-1.json")).unwrap())
            .unwrap();
    let base_sha = naive["charter_sha256"].clone();
    for n in 1..=3 {
        let compliant = std::fs::read_to_string(run.join(format!(
            "transcripts/scripted-compliant/E1-default/trial-{n}.json"
        )))
        .unwrap();
        let mut t: Value = serde_json::from_str(&compliant).unwrap();
        t["model"] = Value::String("scripted-naive".into());
        t["charter_sha256"] = base_sha.clone();
        // A resume keeps only trials made under the model request it would send (issue 41).
        t["request"]["model"] = naive["request"]["model"].clone();
        std::fs::write(naive_e1.join(format!("trial-{n}.json")), t.to_string()).unwrap();
    }
    let o = harness(
        &repo_root(),
        &[
            "gate",
            run.to_str().unwrap(),
            "--charter-base",
            "HEAD",
            "--base-results",
            base_dir.to_str().unwrap(),
        ],
        &[],
    );
    // 3/3 on the base against 0/3 at head: on a scripted model, whose trials repeat, a
    // regression without a statistical test (Fisher's p = 0.1 would call it within noise).
    let out = stdout(&o);
    assert!(
        out.contains("1 regression(s), 0 improvement(s), 0 within noise")
            && out.contains(
                "regression     E1/default on scripted-naive: base pass 3/3, head fail 0/3 (exact: a scripted model repeats its trials)"
            ),
        "{out}\n{}",
        common::stderr(&o)
    );
    let cmp: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("base-comparison.json")).unwrap())
            .unwrap();
    let e1 = cmp["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["case"] == "E1")
        .unwrap();
    assert!(
        e1["change"] == "regression"
            && e1["exact"] == true
            && e1["p_value"].is_null()
            && e1["base_rate"]["passed"] == 3
            && e1["head_rate"]["passed"] == 0,
        "{e1}"
    );
}

#[test]
fn a_narrowed_run_or_a_shard_says_partial_and_never_that_the_change_may_land() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let o = offline_run(
        &one,
        &[
            "--case",
            "E1",
            "--model",
            "scripted-compliant",
            "--trials",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let on_models = crate::common::counts::Counts::get().offline_units();
    assert!(
        out.contains(&format!(
            "PARTIAL: 1 of {on_models} units, not a gate decision"
        )),
        "{out}"
    );
    assert!(!out.contains("may land"), "{out}");
    for report in ["report.md", "report.html"] {
        let text = std::fs::read_to_string(one.join(report)).unwrap();
        assert!(text.contains("PARTIAL"), "{report}");
        assert!(!text.contains("may land"), "{report}");
    }
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["verdict"], "partial");

    // Shards write only their unit count to the step summary; merged, they are the gate.
    let step = tmp.path().join("step-summary.md");
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let dir = tmp.path().join(format!("shard-{}", &k[..1]));
        let o = offline_run_with(
            &dir,
            &["--shard", k, "--trials", "1"],
            &[("GITHUB_STEP_SUMMARY", step.to_str().unwrap())],
        );
        assert!(stdout(&o).contains("PARTIAL"), "{}", stdout(&o));
        shards.push(dir);
    }
    let written = std::fs::read_to_string(&step).unwrap();
    let half = on_models / 2;
    assert_eq!(
        written,
        format!(
            "shard 1/2: {half} units run\nshard 2/2: {} units run\n",
            on_models - half
        )
    );
    let merged = tmp.path().join("merged");
    let o = merge(&[&shards[0], &shards[1]], &merged);
    let out = stdout(&o);
    // --trials 1 is fewer than the manifest's 3: still partial, even merged.
    assert!(
        out.contains(&format!("PARTIAL: {on_models} of {on_models} units")),
        "{out}"
    );
}

#[test]
fn compare_lists_regressions_first_across_charters_and_between_two_models_of_one_run() {
    let cwd = tempfile::tempdir().unwrap();
    let seed = repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md");
    for extra in [vec![], vec!["--charter", seed.to_str().unwrap()]] {
        let mut args = vec!["run", "--matrix", "offline", "--trials", "1"];
        args.extend(extra);
        let o = common::harness(cwd.path(), &args, &[]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    }
    let results = cwd.path().join("results");
    let mut runs: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != "latest")
        .map(|e| e.path().display().to_string())
        .collect();
    runs.sort();
    assert_eq!(runs.len(), 2);
    let latest = std::fs::read_link(results.join("latest")).unwrap();
    assert!(runs.iter().any(|r| r.ends_with(&*latest.to_string_lossy())));
    let listed = stdout(&common::harness(cwd.path(), &["runs"], &[]));
    assert_eq!(
        listed.lines().count(),
        3,
        "a header row and two runs: {listed}"
    );

    // Two charters: what differs is named; the scripted models behave alike, so no change.
    let o = common::harness(cwd.path(), &["compare", &runs[0], &runs[1]], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("charter runtime sha256:"), "{out}");
    // Two models of one run: the naive one fails every unit the other passes, but one trial
    // each cannot tell a pass rate of 1 from 0 (Fisher's p = 1): within noise, no regression.
    let (a, b) = both_models(&runs[0]);
    let o = common::harness(cwd.path(), &["compare", &a, &b, "--json"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), crate::common::counts::Counts::get().units);
    assert!(units
        .iter()
        .all(|u| u["change"] == "within-noise" && u["p_value"].as_f64() == Some(1.0)));
    assert!(!units[0]["b_failed"].as_array().unwrap().is_empty());
    // Five trials each: 5/5 against 0/5 is p = 0.0079, a regression, and it comes first.
    let five = five_trials(cwd.path(), &["E1", "E2"]);
    let (a, b) = both_models(&five.display().to_string());
    let o = common::harness(cwd.path(), &["compare", &a, &b], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("2 regression(s), 0 improvement(s), 0 within noise"),
        "{out}"
    );
    assert!(
        out.contains("| E1/default | scripted-compliant → scripted-naive | pass 5/5 (0.48–1) | FAIL 0/5 (0–0.52) (")
            && out.contains("**regression** (p = 0.0079) |"),
        "{out}"
    );
    assert!(
        out.contains("scripted-compliant 1.00 / 1.00 / 1.00 / 1.00 / 1.00")
            && out.contains("scripted-naive 0.00 / 0.00 / 0.00 / 0.00 / 0.00"),
        "pass^1 … pass^5 per side: {out}"
    );
}

/// The offline matrix on `cases` with five trials each into `cwd/five`: the naive model fails.
fn five_trials(cwd: &Path, cases: &[&str]) -> PathBuf {
    let five = cwd.join("five");
    let mut args = vec!["run", "--matrix", "offline", "--trials", "5"];
    for case in cases {
        args.extend(["--case", case]);
    }
    args.extend(["--out", five.to_str().unwrap()]);
    let o = common::harness(cwd, &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    five
}

/// The two sides `compare` takes for the offline models of one run: compliant, then naive.
fn both_models(run: &str) -> (String, String) {
    (
        format!("{run}:scripted-compliant"),
        format!("{run}:scripted-naive"),
    )
}

#[test]
fn report_html_puts_failures_first_and_every_failing_cell_names_its_criteria() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(&run, &[]);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    // The first unit section is a failing one.
    let first = html.find("<section class=\"unit").unwrap();
    assert!(
        html[first..].starts_with("<section class=\"unit fail\""),
        "{}",
        &html[first..first + 80]
    );
    // Every failing matrix cell names its failed criteria and links to its unit.
    let matrix = &html[html.find("id=\"matrix\"").unwrap()..html.find("</table>").unwrap()];
    let fails: Vec<&str> = matrix.split("<td class=\"fail\"").skip(1).collect();
    assert_eq!(
        fails.len(),
        crate::common::counts::Counts::get().units,
        "scripted-naive fails every unit"
    );
    for cell in fails {
        let cell = &cell[..cell.find("</td>").unwrap()];
        assert!(
            cell.contains("<small>") && cell.contains("href=\"#unit-"),
            "{cell}"
        );
    }
    // Case titles, collapsed identical trials, a filter, expand-all, no absolute paths.
    assert!(matrix.contains("Percentage trap"));
    assert!(html.contains("trials 1–3: same reply"));
    assert!(html.contains("id=\"filter\"") && html.contains("expand all"));
    assert!(
        !html.contains(&*repo_root().to_string_lossy()),
        "an absolute path of this machine"
    );
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "no network resource"
    );
}

// --- i26-reporters: compare --html shows the failing trial of every regression ---

#[test]
fn compare_html_shows_each_regressions_failing_trial_with_its_criteria_and_calls() {
    let cwd = tempfile::tempdir().unwrap();
    let five = five_trials(cwd.path(), &["E1"]);
    let page = cwd.path().join("compare.html");
    let (a, b) = both_models(&five.display().to_string());
    let o = common::harness(
        cwd.path(),
        &["compare", &a, &b, "--html", page.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>\n") && html.ends_with("</body></html>\n"));
    assert!(!html.contains("<script"), "a compare page has no script");
    assert!(
        html.contains("<tr class=\"bad\"><td>E1/default</td>"),
        "{html}"
    );
    let section = &html[html
        .find("<section class=\"unit\">")
        .expect("a failing trial")..];
    assert!(
        section.contains("E1/default on scripted-naive: regression — fails in B")
            && section.contains("<details class=\"transcript\" open><summary>B: trial 1 — ")
            && section.contains("<li class=\"failed-criterion\">")
            && section.contains("<h4>final reply</h4>"),
        "{section}"
    );
    // Only the regression's failing side: the passing model's trials are not shown.
    assert_eq!(html.matches("<section class=\"unit\">").count(), 1);
}

/// An interrupted run, as it is left: trial 1 of a unit written, trials 2 and 3 never run.
#[test]
fn an_interrupted_runs_gate_counts_the_trials_written_not_the_trials_needed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = offline_run(&out, &["--case", "E1", "--trials", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for t in [2, 3] {
        std::fs::remove_file(out.join(format!(
            "transcripts/scripted-naive/E1-default/trial-{t}.json"
        )))
        .unwrap();
    }
    let o = common::harness(&repo_root(), &["gate", out.to_str().unwrap()], &[]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    let row = text.lines().find(|l| l.starts_with("E1/default")).unwrap();
    assert!(row.contains("0/1 (2 not run) ✗"), "{text}");
    assert!(row.contains("3/3"), "the whole units as before: {text}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| 0/1 (2 not run) ❌ [0–0.97] |"), "{md}");
    assert!(!md.contains("0/3"), "{md}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("0/1 (2 not run) fail"), "{html}");
    assert!(!html.contains("0/3"), "{html}");
}
