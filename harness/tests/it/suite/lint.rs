//! `harness lint`: golden fixtures for every capsule check and forbidden pattern, charter
//! structure rules, and --base rules against git repositories built with git2.

use crate::common;

use common::{git_repo, harness, repo_root, stdout};
use std::path::{Path, PathBuf};

fn capsule_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/capsule")
}

/// (rule, severity) of each finding `harness lint` printed.
fn findings(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter_map(|l| {
            let sev = if l.contains(": ERROR [") {
                "ERROR"
            } else if l.contains(": WARN [") {
                "WARN"
            } else if l.contains(": NEEDS REVIEWER [") {
                "NEEDS REVIEWER"
            } else {
                return None;
            };
            let rule = l.split('[').nth(1)?.split(']').next()?.to_string();
            Some((rule, sev.to_string()))
        })
        .collect()
}

fn lint(args: &[&str]) -> (i32, Vec<(String, String)>, String) {
    let o = harness(&repo_root(), args, &[]);
    let out = stdout(&o);
    (o.status.code().unwrap_or(-1), findings(&out), out)
}

#[test]
fn every_capsule_check_and_forbidden_pattern_has_a_file_that_triggers_it_and_the_good_ones_do_not()
{
    let cases: &[(&str, &[&str])] = &[
        ("good", &[]),
        ("good-locked", &[]),
        ("not-a-charter", &[]),
        ("check-1-missing-field", &["capsule/check-1"]),
        ("check-1-bad-uid", &["capsule/check-1"]),
        ("check-1-bad-date", &["capsule/check-1"]),
        ("check-2-agent-class", &["capsule/check-2"]),
        ("check-3-boot-protocol", &["capsule/check-3"]),
        ("check-4-status", &["capsule/check-4"]),
        ("check-5-scope-writes", &["capsule/check-5"]),
        ("check-6-no-identity", &["capsule/check-6"]),
        ("check-6-two-identities", &["capsule/check-6"]),
        ("check-7-locked-at-alone", &["capsule/check-7"]),
        ("check-7-locked-without-pair", &["capsule/check-7"]),
        ("check-8-retired-stays-warn", &["capsule/check-1"]),
        (
            "forbidden-document-typing",
            &["capsule/forbidden-document-typing"],
        ),
        (
            "forbidden-agent-charter",
            &["capsule/forbidden-agent-charter"],
        ),
        (
            "forbidden-pointer-body",
            &["capsule/forbidden-pointer-body"],
        ),
    ];
    for (name, want) in cases {
        let file = capsule_dir().join(format!("{name}.md"));
        let (code, got, out) = lint(&["lint", "capsule", file.to_str().unwrap()]);
        let rules: Vec<&str> = got.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(&rules, want, "{name}:\n{out}");
        assert_eq!(code, 0, "{name}: WARN by default, as the capsule ships");
        assert!(got.iter().all(|(_, s)| s == "WARN"), "{name}: {out}");
        assert!(
            out.lines()
                .all(|l| l.contains(&format!("{name}.md:")) && l.contains("— fix: ")),
            "{name}: findings name the file, line and fix:\n{out}"
        );

        let (strict_code, strict, _) =
            lint(&["lint", "capsule", "--strict", file.to_str().unwrap()]);
        let retired = *name == "check-8-retired-stays-warn";
        let expect_code = if want.is_empty() || retired { 0 } else { 1 };
        assert_eq!(strict_code, expect_code, "{name} under --strict");
        if !want.is_empty() {
            assert_eq!(
                strict[0].1,
                if retired { "WARN" } else { "ERROR" },
                "{name} under --strict"
            );
        }
    }
}

#[test]
fn a_folder_is_searched_for_markdown_and_each_finding_points_at_its_line() {
    let (_, got, out) = lint(&["lint", "capsule", capsule_dir().to_str().unwrap()]);
    assert!(got.len() >= 15, "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("check-3-boot-protocol.md"))
        .unwrap();
    assert!(
        line.contains("check-3-boot-protocol.md:11: WARN [capsule/check-3]"),
        "{line}"
    );
}

const EXAMPLE: &str = "fixtures/charters/example-charter.md";

fn example() -> String {
    std::fs::read_to_string(repo_root().join(EXAMPLE)).unwrap()
}

fn lint_text(text: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("CHARTER.md");
    std::fs::write(&f, text).unwrap();
    lint(&["lint", "charter", f.to_str().unwrap()]).1
}

fn rules(f: &[(String, String)]) -> Vec<&str> {
    f.iter().map(|(r, _)| r.as_str()).collect()
}

#[test]
fn the_example_and_the_seed_charter_are_clean_of_structural_findings() {
    let (code, got, out) = lint(&["lint", "charter", EXAMPLE]);
    assert_eq!((code, got.len()), (0, 0), "{out}");
    // The seed was copied from a web page: its page chrome is warned about, and so is E7's
    // character-class pattern (below); nothing else.
    let seed = repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md");
    let (code, got, out) = lint(&["lint", "charter", seed.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        got,
        [
            ("charter/text-before-title".to_string(), "WARN".to_string()),
            ("charter/case-pattern".to_string(), "WARN".to_string())
        ],
        "{out}"
    );
}

#[test]
fn lint_charter_reports_e7s_absence_pattern_on_the_seed_as_a_likely_mistake_with_its_intent() {
    let seed = repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md");
    let (_, _, out) = lint(&["lint", "charter", seed.to_str().unwrap()]);
    let line = out
        .lines()
        .find(|l| l.contains("[charter/case-pattern]"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(
            "WARN [charter/case-pattern] E7's criterion pattern /[(executed|derived|assumed)]/i"
        ) && line.contains("its evident intent is /\\[(executed|derived|assumed)\\]/i")
            && line.contains("cases/README.md"),
        "{line}"
    );
    // The tier pattern /^Tier:?\s*T0\b/m has its m flag, and E11's /^INV-\d+/ is read per line.
    assert_eq!(out.matches("[charter/case-pattern]").count(), 1, "{out}");
}

#[test]
fn a_charter_copied_with_its_web_page_chrome_is_warned_about_and_the_prompt_start_shown() {
    let seed = repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md");
    let (_, _, out) = lint(&["lint", "charter", seed.to_str().unwrap()]);
    assert!(
        out.contains(
            ": WARN [charter/text-before-title] 8 block(s) precede the title \"Reasoning Charter\""
        ) && out.contains("\"Skip to content\", \"CHARTER.md\", \"Latest commit\", \"History\", …")
            && out.contains("page chrome copied with the charter? It is sent to every model as part of the system prompt")
            && out.contains("— fix: delete everything above the line \"Reasoning Charter\""),
        "{out}"
    );
    assert!(
        out.contains("system prompt it would send: lines 1–")
            && out.contains("runtime sha256 ba4cade0bfb1; its first lines:\n     1 | Skip to content\n     3 | CHARTER.md\n"),
        "{out}"
    );
    // Without the chrome: no warning, and the prompt starts at the title.
    let text = std::fs::read_to_string(&seed).unwrap();
    let clean = &text[text.find("Reasoning Charter\n\nVersion").unwrap()..];
    assert_eq!(rules(&lint_text(clean)), ["charter/case-pattern"]);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("CHARTER.md");
    std::fs::write(&f, clean).unwrap();
    let (_, _, out) = lint(&["lint", "charter", f.to_str().unwrap()]);
    assert!(
        out.contains(
            "its first lines:\n     1 | Reasoning Charter\n     3 | Version 0.1.0 — 2026-07-09\n"
        ),
        "{out}"
    );
}

#[test]
fn each_structural_rule_fires_on_a_charter_that_breaks_it() {
    let t = example();
    assert_eq!(
        rules(&lint_text(
            &t.replace("Runtime load ends here", "Maintainers only")
        )),
        ["charter/runtime-marker"]
    );
    assert_eq!(
        rules(&lint_text(&t.replace("Version 0.1.0", "Version 0.1.x"))),
        ["charter/version-semver"]
    );
    assert_eq!(
        rules(&lint_text(
            &t.replace("## Core Invariants", "## Invariants")
        )),
        ["charter/core-invariants"]
    );
    let more = t.replace(
        "E13 — Vacuity laundering.",
        "E13 — Vacuity laundering. E14 — Tool loops.",
    );
    assert_eq!(rules(&lint_text(&more)), ["charter/case-without-checker"]);
    let fewer = t.replace(" E13 — Vacuity laundering.", "");
    assert_eq!(rules(&lint_text(&fewer)), ["charter/checker-without-case"]);
}

fn lint_against_base(base: &str, head: &str) -> Vec<(String, String)> {
    let (_dir, file) = git_repo(base, head);
    lint(&["lint", "charter", file.to_str().unwrap(), "--base", "HEAD"]).1
}

fn versioned(t: &str, v: &str) -> String {
    t.replace("Version 0.1.0", &format!("Version {v}"))
}

#[test]
fn a_core_invariant_change_needs_a_major_bump() {
    let base = example();
    let head = base.replace("Derive twice.** A quantity", "Derive twice.** Any quantity");
    assert_eq!(
        rules(&lint_against_base(&base, &versioned(&head, "0.2.0"))),
        ["charter/version-bump"]
    );
    assert!(lint_against_base(&base, &versioned(&head, "1.0.0")).is_empty());
}

#[test]
fn a_new_protocol_needs_a_minor_bump() {
    let base = example();
    let head = base.replace(
        "- E Tools:",
        "- F Forecasts: state every forecast's horizon and base rate.\n- E Tools:",
    );
    assert_eq!(
        rules(&lint_against_base(&base, &versioned(&head, "0.1.1"))),
        ["charter/version-bump"]
    );
    assert!(lint_against_base(&base, &versioned(&head, "0.2.0")).is_empty());
}

#[test]
fn a_wording_change_needs_at_least_a_patch_bump_and_the_version_must_increase() {
    let base = example();
    // A typo fixed is wording: the structure and every word but its spelling hold.
    let head = base.replace("pick the higher tier", "pick the higher teir");
    assert_eq!(
        rules(&lint_against_base(&base, &head)),
        ["charter/version-increase"]
    );
    assert!(lint_against_base(&base, &versioned(&head, "0.1.1")).is_empty());
    assert_eq!(
        rules(&lint_against_base(
            &versioned(&base, "0.3.0"),
            &versioned(&head, "0.2.9")
        )),
        ["charter/version-increase"]
    );
    assert!(
        lint_against_base(&base, &base).is_empty(),
        "no change, no bump needed"
    );
}

#[test]
fn a_new_e_case_comes_with_one_new_registry_row_and_the_reverse() {
    let base = example();
    let with_case = versioned(&base, "0.2.0").replace(
        "E13 — Vacuity laundering.",
        "E13 — Vacuity laundering. E14 — Tool loops.",
    );
    let row =
        "| Tool loop | The same call repeated without new input | E: stop on repeated output |\n";
    let with_row = |t: &str| {
        t.replace(
            "\n## Evaluation Harness",
            &format!("{row}\n## Evaluation Harness"),
        )
        .replace("|\n\n| Tool loop", "|\n| Tool loop")
    };
    let registry = |f: &[(String, String)]| {
        rules(f)
            .into_iter()
            .filter(|r| r.contains("registry"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        registry(&lint_against_base(&base, &with_case)),
        ["charter/case-needs-registry-row"]
    );
    assert!(registry(&lint_against_base(&base, &with_row(&with_case))).is_empty());
    assert_eq!(
        registry(&lint_against_base(
            &base,
            &with_row(&versioned(&base, "0.1.1"))
        )),
        ["charter/registry-row-needs-case"]
    );
}

fn capsule(name: &str) -> String {
    std::fs::read_to_string(capsule_dir().join(format!("{name}.md"))).unwrap()
}

fn capsule_against_base(base: &str, head: &str) -> Vec<(String, String)> {
    let (_dir, file) = git_repo(base, head);
    lint(&[
        "lint",
        "capsule",
        "--strict",
        file.to_str().unwrap(),
        "--base",
        "HEAD",
    ])
    .1
}

#[test]
fn a_locked_capsule_charter_changed_without_a_signoff_is_a_finding_and_with_one_is_not() {
    let base = capsule("good-locked");
    let body = base.replace(
        "the Chief of Staff.",
        "the Chief of Staff and keeper of the calendar.",
    );
    assert_eq!(
        rules(&capsule_against_base(&base, &body)),
        ["capsule/lock-break"]
    );
    // Signed as the capsule definition signs its own amendments: an amendment note naming the
    // signed lock-break, or locked_signoff.
    let signed = body.replace(
        "modified_by: vela-v46",
        "modified_by: vela-v46\nv1_0_1_amendment_note: \"v1.0.0 → v1.0.1 amendment 2026-11-30 per Mike-A104 signed lock-break ('approved')\"",
    );
    assert!(capsule_against_base(&base, &signed).is_empty());
    let signoff = body.replace(
        "locked_by: mike-a01",
        "locked_by: mike-a01\nlocked_signoff: \"Mike-A104 verbatim 'approved' 2026-11-30\"",
    );
    assert!(capsule_against_base(&base, &signoff).is_empty());
    // A note that names no lock-break signs nothing.
    let unsigned = body.replace(
        "modified_by: vela-v46",
        "modified_by: vela-v46\nv1_0_1_amendment_note: \"typo fixes\"",
    );
    assert_eq!(
        rules(&capsule_against_base(&base, &unsigned)),
        ["capsule/lock-break"]
    );
    // The Identity section still says Chief of Staff: whether it states the new role in other
    // words is for a reviewer; the lock-break is decided.
    let role = base.replace("role: Chief of Staff", "role: Chief Architect");
    assert_eq!(
        capsule_against_base(&base, &role),
        [
            (
                "capsule/identity-role".to_string(),
                "NEEDS REVIEWER".to_string()
            ),
            ("capsule/lock-break".to_string(), "ERROR".to_string())
        ]
    );
}

#[test]
fn hygiene_pointer_and_additive_edits_to_a_locked_charter_pass() {
    let base = capsule("good-locked");
    let hygiene = base
        .replace("modified: 2026-06-01", "modified: 2026-11-30")
        .replace("modified_by: vela-v46", "modified_by: vela-v47");
    assert!(capsule_against_base(&base, &hygiene).is_empty());
    let added = base.replace(
        "created: 2026-05-01",
        "created: 2026-05-01\nchannels: [channels/vela-argus.md]\nsoul:\n  voice: plain",
    );
    assert!(capsule_against_base(&base, &added).is_empty());
    let unlocked = capsule("good");
    let body = unlocked.replace("make sure every", "see that every");
    assert!(
        capsule_against_base(&unlocked, &body).is_empty(),
        "an unlocked charter edits freely"
    );
}

#[test]
fn a_repository_without_capsules_or_with_a_charter_new_at_the_base_lints_clean() {
    // Without a path, a repository with no vault/files yet (a named path that does not exist
    // is a usage error: lint_document.rs).
    let empty = tempfile::tempdir().unwrap();
    let o = harness(empty.path(), &["lint", "capsule"], &[]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("no capsules to lint"), "{err}");

    // The pull request that adds CHARTER.md: the base commit holds another file only.
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    std::fs::write(dir.path().join("README.md"), "hi\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(std::path::Path::new("README.md")).unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "base", &tree, &[])
        .unwrap();
    let file = dir.path().join("CHARTER.md");
    std::fs::write(&file, example()).unwrap();
    let o = harness(
        &repo_root(),
        &["lint", "charter", file.to_str().unwrap(), "--base", "HEAD"],
        &[],
    );
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}{}", stdout(&o));
    assert!(err.contains("versioning checks skipped"), "{err}");
}

#[test]
fn findings_become_github_annotations_on_their_file_and_line_in_actions() {
    let o = harness(
        &repo_root(),
        &[
            "lint",
            "capsule",
            capsule_dir().to_str().unwrap(),
            "--strict",
        ],
        &[("GITHUB_ACTIONS", "true")],
    );
    let out = stdout(&o);
    let annotation = out
        .lines()
        .find(|l| l.starts_with("::error file="))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(annotation.contains(",line="), "{annotation}");
    assert!(annotation.contains("title=capsule/"), "{annotation}");
    let o = harness(
        &repo_root(),
        &["lint", "capsule", capsule_dir().to_str().unwrap()],
        &[],
    );
    assert!(
        !stdout(&o).contains("::error"),
        "no annotations outside Actions"
    );
}

/// `harness lint capsule` on `text` as one file: its stdout.
fn capsule_text_out(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("vela.md");
    std::fs::write(&f, text).unwrap();
    lint(&["lint", "capsule", f.to_str().unwrap()]).2
}

#[test]
fn capsule_findings_cite_the_definitions_section_and_check_and_use_only_its_field_names() {
    let (_, got, out) = lint(&["lint", "capsule", capsule_dir().to_str().unwrap()]);
    assert!(!got.is_empty());
    for l in out.lines().filter(|l| l.contains(": WARN [")) {
        assert!(l.contains("§"), "every finding cites its section: {l}");
        if l.contains("[capsule/check-") {
            let n = l
                .split("[capsule/check-")
                .nth(1)
                .unwrap()
                .chars()
                .next()
                .unwrap();
            assert!(l.contains(&format!("§7 check {n}")), "{l}");
        }
        assert!(!l.contains("lock_break_signoff"), "{l}");
    }
}

#[test]
fn an_unquoted_uid_gets_the_hint_to_quote_it() {
    let out = capsule_text_out(&capsule("good").replace("uid: 4b1e9c2a", "uid: 00000001"));
    assert!(
        out.contains("WARN [capsule/check-1] §7 check 1 (§2 uid: 8-hex string): uid: 00000001 is read by YAML as the number 1, not a string — fix: quote it: uid: \"00000001\""),
        "{out}"
    );
    let quoted = capsule_text_out(&capsule("good").replace("uid: 4b1e9c2a", "uid: \"00000001\""));
    assert!(!quoted.contains("[capsule/"), "{quoted}");
}

#[test]
fn a_renamed_or_misspelt_field_is_named_with_the_definitions_name_for_it() {
    let good = capsule("good");
    let out = capsule_text_out(&good.replace("capability_scope:", "scope:"));
    assert!(
        out.contains("§7 check 1 (§2 required frontmatter): type: charter without capability_scope")
            && out.contains("fix: rename or declare them: scope: is there; §2 calls it capability_scope (renamed from scope in v1.72)"),
        "{out}"
    );
    let out = capsule_text_out(&good.replace("agent_name:", "agent-name:"));
    assert!(
        out.contains("without agent_name")
            && out.contains("agent-name: is there; §2 calls it agent_name"),
        "{out}"
    );
}

#[test]
fn an_identity_section_with_no_lineage_at_all_is_decided_and_one_in_other_words_needs_a_reviewer() {
    let good = capsule("good");
    // Nothing in it could say a lineage: §4's "a pointer or summary of lineage" is missing.
    let out =
        capsule_text_out(&good.replace(" See agents/vela/lineage.md for prior generations.", ""));
    assert!(
        out.contains("WARN [capsule/identity-lineage] §4: the Identity section neither points to nor sums up the agent's lineage")
            && out.contains("add a lineage pointer"),
        "{out}"
    );
    // Other words that may sum it up: a reviewer reads them.
    let other = good.replace(
        "See agents/vela/lineage.md for prior generations.",
        "She took the post over from the officers before her.",
    );
    let out = capsule_text_out(&other);
    assert!(
        out.contains("NEEDS REVIEWER [capsule/identity-lineage] §4: the Identity section has no lineage word or pointer")
            && out.contains("add a lineage pointer, e.g. \"See agents/vela/lineage.md for prior generations.\""),
        "{out}"
    );
    // A summary does as well as a pointer.
    let summed = good.replace(
        "See agents/vela/lineage.md for prior generations.",
        "Vela has served since her first generation, V1.",
    );
    assert!(!capsule_text_out(&summed).contains("identity-lineage"));
}

#[test]
fn a_status_change_on_a_locked_capsule_is_a_required_field_change_signed_the_definitions_way() {
    let base = capsule("good-locked");
    let retired = base.replace("status: locked", "status: retired");
    let (_dir, file) = common::git_repo(&base, &retired);
    let (_, got, out) = lint(&["lint", "capsule", file.to_str().unwrap(), "--base", "HEAD"]);
    assert_eq!(rules(&got), ["capsule/lock-break"], "{out}");
    assert!(
        out.contains("§6: locked at HEAD: required field status (§2) changed (locked → retired) without a signed lock-break"),
        "{out}"
    );
    assert!(!out.contains("optional substrate"), "{out}");
    assert!(
        out.contains("a note naming Mike's signoff (e.g. v1_0_1_amendment_note: \"… per Mike-A104 signed lock-break ('approved') …\", or locked_signoff, or lock_break:)")
            && !out.contains("lock_break_signoff"),
        "{out}"
    );
    // A mutation of authored optional substrate is one; an identity field is one too.
    let with_soul = base.replace(
        "created: 2026-05-01",
        "created: 2026-05-01\nsoul:\n  voice: plain",
    );
    let soul_changed = with_soul.replace("voice: plain", "voice: ornate");
    let (_dir, file) = common::git_repo(&with_soul, &soul_changed);
    let out = lint(&["lint", "capsule", file.to_str().unwrap(), "--base", "HEAD"]).2;
    assert!(
        out.contains("optional substrate field soul (§3) changed"),
        "{out}"
    );
    let renamed = base.replace("role: Chief of Staff", "role: Chief Architect");
    let (_dir, file) = common::git_repo(&base, &renamed);
    let out = lint(&["lint", "capsule", file.to_str().unwrap(), "--base", "HEAD"]).2;
    assert!(
        out.contains("identity field role (§6) changed (Chief of Staff → Chief Architect)"),
        "{out}"
    );
}

fn seed() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md"))
        .unwrap()
}

fn seed_versioned(t: &str, v: &str) -> String {
    t.replace("Version 0.1.0 —", &format!("Version {v} —"))
}

/// The findings of `lint charter --base HEAD` with their kinds, and the exit code.
fn lint_edit(base: &str, head: &str) -> (i32, Vec<(String, String)>, String) {
    let (_dir, file) = git_repo(base, head);
    lint(&["lint", "charter", file.to_str().unwrap(), "--base", "HEAD"])
}

fn without_structural(f: Vec<(String, String)>) -> Vec<(String, String)> {
    f.into_iter()
        .filter(|(r, _)| r != "charter/text-before-title" && r != "charter/case-pattern")
        .collect()
}

#[test]
fn a_rule_reworded_with_the_same_meaning_needs_a_reviewer_never_a_decided_substance_finding() {
    let base = seed();
    let head = base.replace(
        "5. A supplied figure disagrees → report the recomputed value with both derivations. Never average or soften.",
        "5. When a supplied figure disagrees, state the recomputed value and both derivations; never average or soften it.",
    );
    assert_ne!(head, base);
    let (code, got, out) = lint_edit(&base, &seed_versioned(&head, "0.1.1"));
    assert_eq!(
        without_structural(got),
        [(
            "charter/reworded-rule".to_string(),
            "NEEDS REVIEWER".to_string()
        )],
        "{out}"
    );
    assert_eq!(code, 3, "the worst finding needs a reviewer: exit 3\n{out}");
    let line = out
        .lines()
        .find(|l| l.contains("[charter/reworded-rule]"))
        .unwrap();
    assert!(
        line.contains("(Verification Protocols › A - Arithmetic, item 5)")
            && line.contains("Changed words: {+When+} a supplied figure disagrees, [-report-]{+state+} the recomputed value [-with-]{+and+} both derivations; never average or soften {+it.+}")
            && line.contains("this is wording (patch, as made: 0.1.0 → 0.1.1)")
            && line.contains("it needs a minor bump (0.2.0)"),
        "{line}"
    );
    // A minor bump satisfies both readings: nothing for a reviewer.
    let (code, got, out) = lint_edit(&base, &seed_versioned(&head, "0.2.0"));
    assert_eq!((code, without_structural(got)), (0, vec![]), "{out}");
}

#[test]
fn two_ranked_items_swapped_is_decided_and_needs_at_least_a_minor_bump() {
    let base = seed();
    let head = base.replace(
        "tool and permission constraints → this charter's Invariants",
        "this charter's Invariants → tool and permission constraints",
    );
    assert_ne!(head, base);
    let (code, got, out) = lint_edit(&base, &seed_versioned(&head, "0.1.1"));
    assert_eq!(
        without_structural(got),
        [("charter/version-bump".to_string(), "ERROR".to_string())],
        "{out}"
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a ranked order (a → b → c) changed"), "{out}");
    let (code, got, out) = lint_edit(&base, &seed_versioned(&head, "0.2.0"));
    assert_eq!((code, without_structural(got)), (0, vec![]), "{out}");
}

#[test]
fn two_numbered_steps_swapped_is_a_reordering_and_a_moved_section_is_not() {
    let base = seed();
    let one = "  1. Order steps by dependency; name each step's verification before executing it.";
    let two = "  2. Fewest steps satisfying every INV-n wins, tie-broken by fewest artifacts touched. Note discarded alternatives in one line each.";
    assert!(base.contains(one) && base.contains(two));
    let swapped = base.replace(
        &format!("{one}\n{two}"),
        &format!(
            "{}\n{}",
            two.replacen("2.", "1.", 1),
            one.replacen("1.", "2.", 1)
        ),
    );
    assert_ne!(swapped, base);
    let (_, got, out) = lint_edit(&base, &seed_versioned(&swapped, "0.1.1"));
    assert_eq!(
        without_structural(got),
        [("charter/version-bump".to_string(), "ERROR".to_string())],
        "{out}"
    );
    // Composition moved above Verification Protocols, unchanged: wording at most.
    let start = base.find("\nComposition\n").unwrap();
    let end = base.find("\nUsage Rules\n").unwrap();
    let composition = &base[start..end];
    let moved = base.replacen(composition, "", 1).replacen(
        "\nVerification Protocols\n",
        &format!("{composition}\nVerification Protocols\n"),
        1,
    );
    assert_ne!(moved, base);
    let (code, got, out) = lint_edit(&base, &seed_versioned(&moved, "0.1.1"));
    assert_eq!((code, without_structural(got)), (0, vec![]), "{out}");
}

#[test]
fn a_number_written_as_a_word_is_the_same_number_and_so_wording() {
    let base = seed();
    let head = base.replace(
        "every ten user messages or twenty-five tool results",
        "every 10 user messages or 25 tool results",
    );
    assert_ne!(head, base);
    let (code, got, out) = lint_edit(&base, &seed_versioned(&head, "0.1.1"));
    assert_eq!((code, without_structural(got)), (0, vec![]), "{out}");
    // A different number is decided.
    let head = base.replace("twenty-five tool results", "thirty tool results");
    let (_, got, out) = lint_edit(&base, &seed_versioned(&head, "0.1.1"));
    assert_eq!(
        without_structural(got),
        [("charter/version-bump".to_string(), "ERROR".to_string())],
        "{out}"
    );
}

#[test]
fn build_metadata_is_not_an_increase_and_a_bold_version_line_is_read() {
    let base = example();
    let head = base.replace("pick the higher tier", "pick the higher teir");
    let (_, got, out) = lint_edit(&base, &versioned(&head, "0.1.0+r2"));
    assert_eq!(rules(&got), ["charter/version-increase"], "{out}");
    assert!(
        out.contains("build metadata does not change a version's precedence"),
        "{out}"
    );
    for bold in [
        "**Version:** 0.1.1",
        "**Version 0.1.1**",
        "*Version* 0.1.1",
        "**Version:** v0.1.1 (2026-12-01)",
    ] {
        let head2 = head.replace("Version 0.1.0 — 2026-11-30", bold);
        assert_ne!(head2, head);
        assert!(
            lint_text(&head2).is_empty(),
            "{bold}: {:?}",
            lint_text(&head2)
        );
        let (code, got, out) = lint_edit(&base, &head2);
        assert_eq!((code, got), (0, vec![]), "{bold}: {out}");
    }
    // A version line it cannot read is a finding naming the line.
    let unread = base.replace("Version 0.1.0 — 2026-11-30", "**Version:** TBD");
    assert_eq!(rules(&lint_text(&unread)), ["charter/version-semver"]);
}

#[test]
fn a_capsule_identity_stating_its_role_in_other_words_is_never_an_error_strict_or_not() {
    let good = capsule("good");
    let role_line = good
        .lines()
        .find(|l| l.starts_with("role:"))
        .unwrap()
        .to_string();
    let other = good.replace(&role_line, "role: Keeper of the Roadmap");
    for strict in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("vela.md");
        std::fs::write(&f, &other).unwrap();
        let mut args = vec!["lint", "capsule", f.to_str().unwrap()];
        if strict {
            args.push("--strict");
        }
        let (code, got, out) = lint(&args);
        assert_eq!(
            (code, got),
            (
                3,
                vec![(
                    "capsule/identity-role".to_string(),
                    "NEEDS REVIEWER".to_string()
                )]
            ),
            "strict {strict}: {out}"
        );
    }
}

#[test]
fn lint_json_gives_one_object_a_line_with_file_line_rule_kind_message_and_fix() {
    let base = seed();
    let head = base.replace(
        "5. A supplied figure disagrees → report the recomputed value with both derivations. Never average or soften.",
        "5. When a supplied figure disagrees, state the recomputed value and both derivations; never average or soften it.",
    );
    let (_dir, file) = git_repo(&base, &seed_versioned(&head, "0.1.1"));
    let o = harness(
        &repo_root(),
        &[
            "lint",
            "charter",
            file.to_str().unwrap(),
            "--base",
            "HEAD",
            "--json",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(3));
    let out = stdout(&o);
    let kinds: Vec<String> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            let obj = v.as_object().unwrap();
            let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
            keys.sort();
            assert_eq!(
                keys,
                [
                    "file",
                    "fix",
                    "kind",
                    "line",
                    "message",
                    "rule",
                    "schema_version"
                ],
                "{l}"
            );
            assert!(v["line"].as_u64().unwrap() >= 1);
            format!(
                "{}:{}",
                v["rule"].as_str().unwrap(),
                v["kind"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "charter/text-before-title:warning",
            "charter/case-pattern:warning",
            "charter/reworded-rule:needs-reviewer"
        ],
        "{out}"
    );
}
