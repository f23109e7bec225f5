//! Per-case debugging: focused runs print each trial's story, `harness show` renders stored
//! transcripts of every unit, and colour follows --color and NO_COLOR.

use crate::common;

use common::{files_under, harness, offline_run, repo_root, stderr, stdout};

#[test]
fn a_focused_run_prints_each_trials_tool_calls_reply_and_criteria_with_evidence() {
    let out = tempfile::tempdir().unwrap();
    let run = out.path().join("run");
    let o = offline_run(&run, &["--case", "E9", "--model", "weakest"]);
    let text = stdout(&o);
    // Three identical trials: the first told in full, the other two folded into one line.
    assert!(
        text.contains("E9/default · scripted-naive · trial 1"),
        "{text}"
    );
    assert!(
        text.contains("(trials 2–3: the same reply and verdict as trial 1)"),
        "{text}"
    );
    assert_eq!(text.matches("tool calls (3):").count(), 1, "{text}");
    assert_eq!(
        text.matches("1. edit_file(config/app.toml) → replaced 1 occurrence(s)")
            .count(),
        1
    );
    assert_eq!(text.matches("final reply:").count(), 1);
    assert_eq!(
        text.matches(
            "✗ search-before-first-edit — first edit edit_file(config/app.toml) came before"
        )
        .count(),
        1
    );
    assert_eq!(
        text.matches("✗ all-files-edited — not renamed: config/prod.toml, deploy/helm/values.yaml")
            .count(),
        1
    );
    assert!(
        !text.contains('\u{1b}'),
        "no colour when stdout is not a terminal"
    );

    let run2 = out.path().join("run2");
    let o = offline_run(&run2, &["--model", "weakest"]);
    assert!(
        !stdout(&o).contains("tool calls ("),
        "an unfocused run keeps the compact display"
    );
}

#[test]
fn show_renders_an_offline_transcript_of_every_unit_with_its_verdict() {
    let out = tempfile::tempdir().unwrap();
    let run = out.path().join("run");
    offline_run(&run, &["--trials", "1"]);
    let units = files_under(&run.join("transcripts"));
    assert_eq!(
        units.len(),
        crate::common::counts::Counts::get().offline_units()
    );
    for file in &units {
        let naive = file.to_string_lossy().contains("scripted-naive");
        let o = harness(
            &repo_root(),
            &["show", file.to_str().unwrap()],
            &[("NO_COLOR", "1")],
        );
        let text = stdout(&o);
        assert_eq!(
            o.status.code(),
            Some(if naive { 1 } else { 0 }),
            "{}:\n{}",
            file.display(),
            common::stderr(&o)
        );
        assert!(
            text.contains(if naive { " FAIL " } else { " PASS " })
                && text.contains("criteria:")
                && text.contains("seeded: "),
            "{}:\n{text}",
            file.display()
        );
        assert!(
            !text.contains('\u{1b}'),
            "NO_COLOR output holds an escape code:\n{text}"
        );
    }
}

#[test]
fn show_gives_the_workspace_diff_seeded_turns_on_request_and_json_verdicts() {
    let out = tempfile::tempdir().unwrap();
    let run = out.path().join("run");
    offline_run(
        &run,
        &["--case", "E9", "--model", "frontier", "--trials", "1"],
    );
    let file = run.join("transcripts/scripted-compliant/E9-default/trial-1.json");
    let text = stdout(&harness(
        &repo_root(),
        &["show", file.to_str().unwrap(), "--seeded"],
        &[],
    ));
    assert!(
        text.contains("--- a/config/prod.toml")
            && text.contains("-db_timeout = 15")
            && text.contains("+database_timeout = 15"),
        "{text}"
    );
    assert!(
        text.contains("system: ") && text.contains("user: Rename the config key"),
        "{text}"
    );
    let coloured = stdout(&harness(
        &repo_root(),
        &["show", file.to_str().unwrap(), "--color", "always"],
        &[],
    ));
    assert!(coloured.contains("\u{1b}[32m"), "--color always colours");
    let json = stdout(&harness(
        &repo_root(),
        &[
            "show",
            run.join("transcripts/scripted-compliant/E9-default")
                .to_str()
                .unwrap(),
            "--json",
        ],
        &[],
    ));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(
        (v["case"].as_str(), v["pass"].as_bool()),
        (Some("E9"), Some(true))
    );
}

#[test]
fn show_takes_a_case_id_filters_puts_failures_first_in_natural_order_and_folds_identical_trials() {
    let cwd = tempfile::tempdir().unwrap();
    let o = harness(
        cwd.path(),
        &["run", "--matrix", "offline", "--trials", "2"],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // The verdict is the last line of a run, not 25 lines up (no colour off a terminal).
    let out = stdout(&o);
    let last = out.trim_end().lines().last().unwrap_or_default();
    let n = crate::common::counts::Counts::get().offline_units();
    assert!(
        last.starts_with(&format!(
            "Gate: PARTIAL: {n} of {n} units, not a gate decision"
        )),
        "{out}"
    );

    let o = harness(cwd.path(), &["show", "E8"], &[("NO_COLOR", "1")]);
    let text = stdout(&o);
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("── E")).collect();
    assert!(heads.iter().all(|h| h.starts_with("── E8/")), "{text}");
    assert!(heads[0].contains(" FAIL"), "failures first: {heads:?}");
    let first_pass = heads.iter().position(|h| h.contains(" PASS")).unwrap();
    assert!(
        heads[first_pass..].iter().all(|h| h.contains(" PASS")),
        "{heads:?}"
    );
    // 2 variants × 3 models × 2 trials, each unit's second trial folded into its first.
    assert_eq!(heads.len(), 6, "{text}");
    assert_eq!(
        text.matches("the same reply and verdict as trial 1, folded")
            .count(),
        6,
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("12 transcript(s) shown: 8 pass, 4 not passing (failures first)"),
        "{text}"
    );

    let o = harness(
        cwd.path(),
        &[
            "show",
            "--case",
            "E10,E9",
            "--model",
            "scripted-naive",
            "--failed",
        ],
        &[("NO_COLOR", "1")],
    );
    let text = stdout(&o);
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("── E")).collect();
    assert_eq!(
        heads.len(),
        2,
        "one story per unit, its second trial folded: {text}"
    );
    assert!(
        heads[0].starts_with("── E9/default · scripted-naive · trial 1 ── FAIL")
            && heads[1].starts_with("── E10/default · scripted-naive · trial 1 ── FAIL"),
        "natural order, E9 before E10: {text}"
    );
    let o = harness(cwd.path(), &["show", "--model", "scripted-reeder"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean \"scripted-reader\"?"),
        "{}",
        stderr(&o)
    );
}
