//! The README's second walkthrough, run exactly as written: in a charter repository, offline,
//! deleting Protocol A on a branch makes `gate --charter-base main` report the charter-reading
//! model's regressions on the cases that rule serves (E1, E2, E4), and none elsewhere.

use crate::common::{harness, repo_root, shell, stderr, stdout};
use std::path::Path;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";

/// The fenced block after `marker` in the README.
fn block(readme: &str, marker: &str) -> String {
    let start = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README: {marker}"));
    let b = &readme[start..];
    let b = &b[b.find("```").unwrap()..];
    let b = &b[b.find('\n').unwrap() + 1..];
    b[..b.find("```").unwrap()].to_string()
}

/// The repository the first walkthrough leaves: the Reasoning Charter as CHARTER.md after
/// `harness init`, committed on main.
fn charter_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    let o = harness(dir.path(), &["init", "--branch", "main"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for line in [
        "git init -q -b main",
        "git add -A",
        "git commit -qm 'The Reasoning Charter 0.1.0'",
    ] {
        let o = shell(dir.path(), line);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    dir
}

#[test]
fn the_readme_walkthrough_deleting_protocol_a_shows_its_regressions_offline_and_none_elsewhere() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let commands = block(&readme, "<!-- walkthrough: regression commands -->");
    let repo = charter_repo();
    let mut outputs = String::new();
    let mut last = String::new();
    let mut last_stdout = String::new();
    for line in commands.lines().filter(|l| !l.trim().is_empty()) {
        let (_, comment) = line.rsplit_once("# exit ").expect("a `# exit N` comment");
        let want: i32 = comment
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no exit status: {line}"));
        let o = shell(repo.path(), line);
        assert_eq!(
            o.status.code(),
            Some(want),
            "{line}\n{}{}",
            stdout(&o),
            stderr(&o)
        );
        last = format!("{}{}", stdout(&o), stderr(&o));
        last_stdout = stdout(&o);
        outputs.push_str(&last);
    }
    // The gate against main: exactly the three units Protocol A serves regress, on the model
    // that reads the charter, labelled exactly; the fixed scripts change nothing.
    let changes: Vec<&str> = last
        .lines()
        .filter(|l| {
            ["regression ", "improvement ", "within noise "]
                .iter()
                .any(|k| l.trim_start().starts_with(k))
        })
        .collect();
    assert_eq!(
        changes
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect::<Vec<_>>(),
        vec!["E1/default", "E2/default", "E4/default"],
        "{last}"
    );
    assert!(
        changes
            .iter()
            .all(|l| l.contains("on scripted-reader:") && l.contains("(exact: ")),
        "{last}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.path().join("results/latest/base-comparison.json")).unwrap(),
    )
    .unwrap();
    let regressions = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["change"] == "regression")
        .count();
    assert_eq!(regressions, 3, "{json}");
    gate_output_reads_regressions_first_and_the_verdict_last(&last_stdout);
    reading_commands_stay_on_the_head_run(repo.path());
    the_comment_says_what_the_gate_said(repo.path());
    compare_agrees_with_the_gate(repo.path(), &json);
    // The registry rows point at the rule the edit removed.
    let rows =
        std::fs::read_to_string(repo.path().join("results/latest/registry-rows.md")).unwrap();
    assert!(
        rows.contains("| Protocol A (not in this charter) + Invariant 1 + Invariant 2 |"),
        "{rows}"
    );
    // Every line the README quotes is what the commands printed.
    for l in block(&readme, "<!-- walkthrough: regression output -->").lines() {
        assert!(
            outputs.contains(l),
            "README quotes {l:?}, not printed:\n{outputs}"
        );
    }
}

/// The reviewer's view of `gate --charter-base`: the three regressions before anything the
/// base already fails, and the verdict as the very last line.
fn gate_output_reads_regressions_first_and_the_verdict_last(out: &str) {
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.last().copied(),
        Some("Gate: FAIL: the change is blocked"),
        "{out}"
    );
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{out}"))
    };
    assert!(
        at("Regressions:") < at("regression     E1/default"),
        "{out}"
    );
    assert!(
        at("regression     E4/default") < at("Already failing on the base"),
        "{out}"
    );
    assert_eq!(out.matches("Gate: ").count(), 1, "the verdict once:\n{out}");
    // The Protocol A hunk once, the three regressions it caused under it, each with the
    // criteria that flipped.
    let hunk = "  charter hunk touching Protocol A (3 units below): @@ ";
    assert_eq!(out.matches("charter hunk touching").count(), 1, "{out}");
    assert!(
        at("Regressions:") < at(hunk) && at(hunk) < at("-A — Arithmetic. Trigger:"),
        "{out}"
    );
    assert!(at("-A — Arithmetic. Trigger:") < at("    regression     E1/default"));
    for case in ["E1", "E2", "E4"] {
        let from = at(&format!("    regression     {case}/default"));
        let block = &out[from..];
        let end = block[1..]
            .find("\n    regression")
            .or_else(|| block.find("Already failing"))
            .unwrap();
        let block = &block[..end];
        assert!(block.contains("      flipped: "), "{case}: {block}");
    }
}

/// `harness compare` on the same two runs (the base rerun and the head) labels the same units
/// the same way, exactly, and exits 1 as the gate does.
fn compare_agrees_with_the_gate(repo: &Path, gate_json: &serde_json::Value) {
    let base = gate_json["base_results"].as_str().unwrap();
    let o = shell(
        repo,
        &format!("harness compare '{base}' results/latest --json"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut from_compare: Vec<(String, bool)> = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["change"] == "regression")
        .map(|u| (format!("{} {}", u["case"], u["model"]), u["exact"] == true))
        .collect();
    let mut from_gate: Vec<(String, bool)> = gate_json["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["change"] == "regression")
        .map(|u| (format!("{} {}", u["case"], u["model"]), u["exact"] == true))
        .collect();
    from_compare.sort();
    from_gate.sort();
    assert_eq!(from_compare, from_gate);
    assert_eq!(from_gate.len(), 3);
    for u in gate_json["units"].as_array().unwrap() {
        if u["change"] == "regression" {
            let a = &u["attribution"];
            assert!(!a["flipped"].as_array().unwrap().is_empty(), "{u}");
            assert_eq!(a["hunks"][0]["rules"][0], "Protocol A", "{u}");
            assert_eq!(a["whole_charter"], false, "{u}");
        }
    }
}

/// A charter repository whose main has no Protocol B (so the charter-reading model fails E3 on
/// main), gated by a manifest on main that says `[run] gate = "no-regression"`.
fn repo_failing_e3_on_main() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let seed = std::fs::read_to_string(repo_root().join(SEED)).unwrap();
    let without_b: String = seed
        .lines()
        .filter(|l| !l.starts_with("B — Premise Audit"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("CHARTER.md"), without_b).unwrap();
    std::fs::create_dir(dir.path().join("manifests")).unwrap();
    std::fs::write(
        dir.path().join("manifests/reader.toml"),
        "[charter]\nsource = \"../CHARTER.md\"\n\n[run]\ntrials = 3\ngate = \"no-regression\"\n\n\
         [[models]]\nname = \"scripted-reader\"\nrole = \"frontier\"\nprovider = \"scripted\"\n\
         model = \"scripted/charter-reader-v1\"\nscript = \"charter-reading\"\n\n\
         [[models]]\nname = \"scripted-compliant\"\nrole = \"weakest\"\nprovider = \"scripted\"\n\
         model = \"scripted/compliant-v1\"\nscript = \"compliant\"\n",
    )
    .unwrap();
    for line in [
        "git init -q -b main",
        "git add -A",
        "git commit -qm 'main fails E3'",
    ] {
        let o = shell(dir.path(), line);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    dir
}

/// `edit` committed on a new branch, run on the reader manifest, gated against main.
fn gate_edit_against_main(repo: &Path, branch: &str, edit: &str) -> std::process::Output {
    for line in [
        format!("git switch -qc {branch} main"),
        edit.to_string(),
        format!("git commit -qam '{branch}'"),
        "harness run --matrix manifests/reader.toml".to_string(),
    ] {
        let o = shell(repo, &line);
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{line}: {}",
            stderr(&o)
        );
    }
    shell(repo, "harness gate --charter-base main")
}

#[test]
fn no_regression_on_a_main_failing_e3_passes_a_head_failing_only_e3_and_blocks_a_new_e1_failure() {
    let repo = repo_failing_e3_on_main();
    // The stored gate's key carries the base's policy: the same inputs under all-pass differ.
    let key = |args: &str| {
        stdout(&shell(
            repo.path(),
            &format!("harness key --matrix manifests/reader.toml{args}"),
        ))
    };
    assert_ne!(key(" --charter-base main"), key(""));
    let reword = "sed -i 's/Write raw values; name the base./Write raw values and name the base./' CHARTER.md";
    let o = gate_edit_against_main(repo.path(), "reword", reword);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert_eq!(
        out.lines().rfind(|l| !l.trim().is_empty()),
        Some("Gate: no regression; the charter's gate is not met: 1 unit still fails"),
        "{out}"
    );
    let latest = repo.path().join("results/latest");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(latest.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["verdict"], "no-regression");
    assert_eq!(summary["exit_code"], 0);
    assert_eq!(summary["comparison"]["gate"], "no-regression");
    let md = std::fs::read_to_string(latest.join("report.md")).unwrap();
    assert!(
        md.contains("no regression; the charter's gate is not met") && !md.contains("PASS"),
        "{md}"
    );
    // A rule reworded while the charter-reading model answers as before: the offline gate says
    // what it cannot see, in the terminal, report.md (and so the comment) and summary.json.
    let presence = "the offline models read rules by presence, not meaning, so only real models can show the effect of this wording";
    assert!(
        out.contains("Note: this change rewords 1 rule(s) (line ")
            && out.contains("(Verification Protocols")
            && out.contains(presence),
        "{out}"
    );
    assert!(md.contains(presence), "{md}");
    assert!(summary["comparison"]["notes"][0]
        .as_str()
        .unwrap()
        .contains(presence));

    // Without a base the policy cannot apply: said, and decided as all-pass (E3 fails).
    let o = shell(repo.path(), "harness gate");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("[run] gate = \"no-regression\" needs a base (--charter-base REV)"),
        "{}",
        stderr(&o)
    );
    let drop_a = format!("{reword} && sed -i '/^A — Arithmetic/d' CHARTER.md");
    let o = gate_edit_against_main(repo.path(), "drop-a", &drop_a);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(
        out.trim_end()
            .ends_with("Gate: FAIL: the change is blocked: 3 units fail here and passed on the base (no-regression)"),
        "{out}"
    );
    assert!(
        out.contains("regression     E1/default on scripted-reader"),
        "{out}"
    );
    // The reader's units moved: what it shows is no longer only presence, no note.
    assert!(!out.contains("read rules by presence"), "{out}");
}

/// After the base comparison, `check` reads the head's transcripts only (the base rerun
/// kept inside the run folder is another run), and no report calls the run "latest".
fn reading_commands_stay_on_the_head_run(repo: &Path) {
    let o = shell(repo, "harness check");
    let out = format!("{}{}", stdout(&o), stderr(&o));
    let head = format!(
        "{} transcripts: ",
        crate::common::counts::Counts::get().offline_episodes()
    );
    assert!(
        out.lines().any(|l| l.starts_with(&head)),
        "units on models x trials, no base transcript among them:\n{out}"
    );
    let latest = repo.join("results/latest");
    let id = std::fs::canonicalize(&latest).unwrap();
    let id = id.file_name().unwrap().to_str().unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(latest.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["run"]["id"], id, "the gate keeps the run's own id");
    let md = std::fs::read_to_string(latest.join("report.md")).unwrap();
    reports_lead_with_the_comparison(
        &md,
        &std::fs::read_to_string(latest.join("report.html")).unwrap(),
    );
    // In a browser: the comparison section is the page's first, its hunk a diff block.
    if let Some(dom) = crate::common::chromium_dom(&latest.join("report.html")) {
        let (cmp, matrix) = (dom.find("id=\"comparison\""), dom.find("id=\"matrix\""));
        assert!(
            cmp.is_some() && cmp < matrix,
            "the DOM leads with the comparison"
        );
        assert!(
            dom.contains("<pre class=\"diff\" style=") && dom.contains("-A — Arithmetic. Trigger:")
        );
        assert!(dom.contains("Regressions (3)"));
        // The hunk once (wrapping, not cut off, on a narrow screen), the 16 units the base
        // already fails folded into one closed line.
        assert_eq!(
            dom.matches(
                "<pre class=\"diff\" style=\"white-space:pre-wrap;overflow-wrap:anywhere\">@@ "
            )
            .count(),
            1
        );
        assert!(dom.contains("<details class=\"still-failing\"><summary>Already failing on the base (16): not this change's doing</summary>"));
    }
    assert!(
        !md.contains("Run `latest`") && md.contains(&format!("Run `{id}`")),
        "{md}"
    );
}

/// report.md and report.html open with the comparison: the regressions with case titles,
/// flipped criteria and the Protocol A hunk as a diff, before the head's own matrix.
fn reports_lead_with_the_comparison(md: &str, html: &str) {
    let at = |text: &str, needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{text}"))
    };
    assert!(
        at(md, "## Against the base") < at(md, "### Regressions (3)"),
        "{md}"
    );
    assert!(at(md, "### Regressions (3)") < at(md, "### Already failing on the base (16)"));
    assert!(at(md, "### Already failing on the base") < at(md, "## The head's own gate"));
    // The hunk once, its three regressions under it.
    let hunk = "#### Charter hunk touching Protocol A (3 units below)";
    assert!(
        at(md, hunk) < at(md, "```diff\n@@ ")
            && at(md, "```diff\n@@ ") < at(md, "##### E1/default — "),
        "{md}"
    );
    let comparison = &md[..at(md, "## The head's own gate")];
    assert_eq!(
        comparison.matches("\n-A — Arithmetic. Trigger:").count(),
        1,
        "{md}"
    );
    assert!(
        at(html, "id=\"comparison\"") < at(html, "System prompt (the charter"),
        "report.html"
    );
    assert!(html.contains("class=\"diff\"") && html.contains("-A — Arithmetic. Trigger:"));
    let comparison = &html[at(html, "id=\"comparison\"")..at(html, "System prompt (the charter")];
    assert_eq!(
        comparison.matches("-A — Arithmetic. Trigger:").count(),
        1,
        "the hunk once"
    );
    assert!(comparison.contains("white-space:pre-wrap;overflow-wrap:anywhere"));
    assert!(
        comparison.contains("<details class=\"still-failing\"><summary>Already failing on the base (16): not this change&apos;s doing</summary>")
            && !comparison.contains("E13/default — "),
        "what the base already fails is folded, no unit of it spelled out"
    );
}

/// `harness comment` prints the Markdown the workflow posts: the verdict first, then the three
/// regressions with their flipped criteria and the Protocol A hunk, and a failure status.
fn the_comment_says_what_the_gate_said(repo: &Path) {
    let o = shell(
        repo,
        "harness comment --run-url https://github.com/o/r/actions/runs/7 --status status.json",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let body = stdout(&o);
    let report = std::fs::read_to_string(repo.join("results/latest/report.md")).unwrap();
    assert!(
        body.starts_with("<!-- charter-harness-gate -->\n# Charter gate\n\n❌ **FAIL**"),
        "{body}"
    );
    assert!(body.contains(&report), "the comment is report.md and more");
    assert!(body.contains("### Regressions (3)") && body.contains("\n-A — Arithmetic. Trigger:"));
    assert!(body
        .trim_end()
        .ends_with("[The run](https://github.com/o/r/actions/runs/7)"));
    let status: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["state"], "failure", "{status}");
}

/// The last line a terminal shows (stdout and stderr together, as written): blank lines aside.
fn last_line(combined: &str) -> &str {
    combined
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or_default()
}

#[test]
fn a_base_rerun_reused_whole_plans_nothing_quietly_and_the_verdict_stays_the_last_line() {
    let repo = repo_failing_e3_on_main();
    let reword = "sed -i 's/Write raw values; name the base./Write raw values and name the base./' CHARTER.md";
    let first = gate_edit_against_main(repo.path(), "reword", reword);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // Again: every base trial is stored, so nothing is planned, sent or priced.
    let o = shell(repo.path(), "harness gate --charter-base main 2>&1");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(
            "base rerun: 3 of 3 needed trials stored with the same inputs and reused; sending 0"
        ),
        "{out}"
    );
    assert!(
        out.contains("plan: nothing to send: the 3 trials stored here are reused\n"),
        "{out}"
    );
    for noise in ["0 episodes", "sent 0 requests", "0 input + 0 output tokens"] {
        assert!(!out.contains(noise), "{noise:?} in:\n{out}");
    }
    assert!(out.contains("Base rerun: no model called."), "{out}");
    assert_eq!(
        last_line(&out),
        "Gate: no regression; the charter's gate is not met: 1 unit still fails",
        "{out}"
    );
}

#[test]
fn a_base_comparison_that_cannot_be_made_says_so_before_the_verdict_which_stays_last() {
    use std::os::unix::io::AsRawFd;
    let repo = repo_failing_e3_on_main();
    let reword = "sed -i 's/Write raw values; name the base./Write raw values and name the base./' CHARTER.md";
    let first = gate_edit_against_main(repo.path(), "reword", reword);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // Another gate holds the base rerun's folder: this gate's comparison cannot be made.
    let latest = repo.path().join("results/latest");
    let base = std::fs::read_dir(&latest)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            // A folder: the run folder holds files named after the base too.
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("base-")
        })
        .expect("the base rerun's folder");
    std::fs::write(base.join(".lock"), std::process::id().to_string()).unwrap();
    let held = std::fs::File::open(base.join(".lock")).unwrap();
    assert_eq!(
        unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    let o = shell(repo.path(), "harness gate --charter-base main 2>&1");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "the error's exit code:\n{out}");
    let error = out.find("\nerror: ").expect("the error");
    assert!(
        out[error..].contains(&format!("another harness (pid {})", std::process::id()))
            && out[error..].contains("is running in this folder"),
        "{out}"
    );
    let verdict = out.rfind("Gate: ").unwrap();
    assert!(error < verdict, "the error before the verdict:\n{out}");
    // The verdict says the comparison was not made, and what the run alone decides.
    assert_eq!(
        last_line(&out),
        "Gate: NOT DECIDED: the comparison with the base at main could not be made (the error above), and [run] gate = \"no-regression\" decides by it; this run alone: FAIL: the change is blocked",
        "{out}"
    );
    // The head's reports are still written.
    assert!(latest.join("report.md").is_file());

    // Under all-pass (main's manifest says so from now on) the comparison decides nothing: the
    // verdict is the run's own, the comparison said missing, after the error.
    for line in [
        "git switch -q main",
        "sed -i '/^gate = /d' manifests/reader.toml",
        "git commit -qam 'all-pass'",
        "git switch -q reword",
    ] {
        let o = shell(repo.path(), line);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
    }
    let o = shell(repo.path(), "harness gate --charter-base main 2>&1");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    let error = out.find("\nerror: ").expect("the error");
    assert!(out[error..].contains("another harness (pid"), "{out}");
    assert!(error < out.rfind("Gate: ").unwrap(), "{out}");
    assert_eq!(
        last_line(&out),
        "Gate: FAIL: the change is blocked (the comparison with the base at main could not be made: the error above)",
        "{out}"
    );
}

#[test]
fn a_base_comparison_whose_reports_cannot_be_written_still_prints_its_verdict_first() {
    let repo = repo_failing_e3_on_main();
    let reword = "sed -i 's/Write raw values; name the base./Write raw values and name the base./' CHARTER.md";
    let first = gate_edit_against_main(repo.path(), "reword", reword);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // report.html cannot be replaced: a folder holding a file stands at its name.
    let html = repo.path().join("results/latest/report.html");
    std::fs::remove_file(&html).unwrap();
    std::fs::create_dir(&html).unwrap();
    std::fs::write(html.join("x"), "").unwrap();
    let o = shell(repo.path(), "harness gate --charter-base main 2>&1");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(4), "{out}");
    // As for a gate without a base: the verdict, when decided, is printed first, then why the
    // harness could not finish.
    let verdict = out
        .find("Gate: no regression; the charter's gate is not met: 1 unit still fails")
        .unwrap_or_else(|| panic!("no verdict:\n{out}"));
    let error = out
        .find("error: the reports could not be written")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(verdict < error, "{out}");
}
