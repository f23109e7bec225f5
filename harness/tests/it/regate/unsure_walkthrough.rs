//! docs/gate.md's unsure walkthrough, offline: a scripted model whose E1 reply reads two ways
//! (the prose concludes 25%, its JSON answer says 20%), so its E1 verdicts are unsure. The run
//! exits 3; the pull-request comment lists each unsure verdict with its criterion, the two
//! readings, the transcript's path in the run's artifact and the `harness label` command; the
//! story and report.html mark it `?`, not ✗; `label` settles it and the gate decides, calling
//! no model (every model here is a script).

use crate::common::{copy_tree, harness, repo_root, shell, stderr, stdout};
use std::path::Path;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";
const TWO_WAYS: &str = "Tier: T1. Trigger: supplied percentage → Protocol A.\nThe change is $100k − $80k = $20k; over the starting cost, (100k − 80k)/80k = 25%. Checking backwards, 80k × 1.25 = 100k.\n\nBottom line: budget 25% more.\n\n```json\n{\"answer\": \"20%\", \"base\": \"$80k\"}\n```";

/// A charter repository with a suite of its own: the built-in cases and fixtures, and a script
/// `two-ways` that is `compliant` but for its E1 reply.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::copy(repo_root().join(SEED), root.join("CHARTER.md")).unwrap();
    for part in ["cases", "fixtures"] {
        copy_tree(&repo_root().join(part), &root.join("suite").join(part));
    }
    let scripts = root.join("suite/fixtures/scripted");
    copy_tree(&scripts.join("compliant"), &scripts.join("two-ways"));
    std::fs::write(
        scripts.join("two-ways/E1-default.toml"),
        format!("[[reply]]\ncontent = '''{TWO_WAYS}'''\n"),
    )
    .unwrap();
    std::fs::create_dir(root.join("manifests")).unwrap();
    std::fs::write(
        root.join("manifests/offline.toml"),
        "[charter]\nsource = \"../CHARTER.md\"\n\n[run]\ntrials = 3\n\n\
         [[models]]\nname = \"two-ways\"\nrole = \"frontier\"\nprovider = \"scripted\"\n\
         model = \"scripted/two-ways-v1\"\nscript = \"two-ways\"\n\n\
         [[models]]\nname = \"compliant\"\nrole = \"weakest\"\nprovider = \"scripted\"\n\
         model = \"scripted/compliant-v1\"\nscript = \"compliant\"\n",
    )
    .unwrap();
    let o = shell(root, "git init -q -b main");
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

fn run(root: &Path, args: &[&str]) -> std::process::Output {
    let home = root.display().to_string();
    let suite = root.join("suite").display().to_string();
    harness(
        root,
        args,
        &[("HOME", &home), ("CHARTER_HARNESS_SUITE", &suite)],
    )
}

#[test]
fn an_unsure_verdict_goes_from_the_run_to_the_comment_to_a_label_to_a_decided_gate() {
    let dir = repo();
    let root = dir.path();
    let o = run(root, &["run", "--matrix", "manifests/offline.toml"]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("Needs a label"), "{}", stdout(&o));

    // The comment, as the workflow posts it: each unsure verdict with what settles it.
    let url = "https://github.com/org/charter/actions/runs/77";
    let c = run(root, &["comment", "results/latest", "--run-url", url]);
    let body = stdout(&c);
    assert_eq!(c.status.code(), Some(0), "{}", stderr(&c));
    assert!(
        body.contains("## Unsure verdicts (each needs a label)"),
        "{body}"
    );
    assert!(
        body.contains(&format!("[the run's artifacts]({url}#artifacts)"))
            && body.contains("gh run download 77 -n charter-gate-results -D results/gate"),
        "{body}"
    );
    let listed: Vec<&str> = body
        .lines()
        .filter(|l| l.starts_with("- **E1/default** on ` two-ways `, trial "))
        .collect();
    assert_eq!(listed.len(), 3, "one line a trial: {body}");
    assert!(listed[0].contains("criterion **"), "{body}");
    for want in [
        "  - reading 1: ` ",
        "  - reading 2: ` ",
        "  - transcript: ` transcripts/two-ways/E1-default/trial-1.json `",
        "  - settle it: ` harness label --decide --pass ",
    ] {
        assert!(body.lines().any(|l| l.starts_with(want)), "{want}: {body}");
    }

    // The story and report.html mark it unsure (`?`), with its readings, never as a fail.
    let transcript = root.join("results/latest/transcripts/two-ways/E1-default/trial-1.json");
    let show = run(root, &["show", transcript.to_str().unwrap()]);
    let story = stdout(&show);
    assert!(
        story
            .lines()
            .any(|l| l.trim_start().starts_with("? ") && l.contains("unsure: ")),
        "{story}"
    );
    assert!(
        story.contains("reading 1: ") && story.contains("reading 2: "),
        "{story}"
    );
    let html = std::fs::read_to_string(root.join("results/latest/report.html")).unwrap();
    assert!(
        html.contains("class=\"unsure-criterion\">? "),
        "report.html marks it `?`"
    );

    // The command the comment gives, run as given (the path is the run folder's), with --pass.
    let command = body
        .lines()
        .find_map(|l| l.strip_prefix("  - settle it: ` "))
        .and_then(|l| l.split("  # or --fail").next())
        .unwrap()
        .to_string();
    let o = shell(
        root,
        &format!("HOME=. CHARTER_HARNESS_SUITE=suite {command}"),
    );
    assert!(o.status.success(), "{command}: {}", stderr(&o));
    assert!(root.join("labels/labels.jsonl").is_file());

    // The gate again: the label decides, no trial runs (every model is a script, nothing sent).
    let g = run(root, &["gate", "results/latest"]);
    let out = stdout(&g);
    assert_eq!(g.status.code(), Some(0), "{out}{}", stderr(&g));
    assert_eq!(
        out.lines().last(),
        Some("Gate: PASS: the change may land"),
        "{out}"
    );
    let again = run(root, &["comment", "results/latest"]);
    assert!(
        !stdout(&again).contains("Unsure verdicts"),
        "{}",
        stdout(&again)
    );
}
