//! `lint charter` reads the charter as a document (issue 49): a re-saved or re-formatted charter
//! is the same charter, a change to what a rule requires is decided in every section, a moved
//! rule is reported as moved, a reworded rule goes to a reviewer with a word diff, a new case is
//! the charter's business (a warning here), and `--json` is JSON whatever the names and rules
//! hold.

use crate::common::{git_repo_at, harness, repo_root, stderr, stdout};

fn example() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/charters/example-charter.md")).unwrap()
}

fn seed() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md"))
        .unwrap()
}

fn versioned(t: &str, v: &str) -> String {
    t.replacen("Version 0.1.0 —", &format!("Version {v} —"), 1)
}

/// `lint charter --base HEAD` of `head` over `base`: exit code and stdout.
fn lint_edit(base: &str, head: &str) -> (i32, String) {
    let (dir, file) = git_repo_at("CHARTER.md", base.as_bytes(), head.as_bytes());
    let o = harness(
        dir.path(),
        &["lint", "charter", "--base", "HEAD", file.to_str().unwrap()],
        &[],
    );
    (o.status.code().unwrap_or(-1), stdout(&o))
}

fn finding<'a>(out: &'a str, rule: &str) -> &'a str {
    out.lines()
        .find(|l| l.contains(&format!("[{rule}]")))
        .unwrap_or_else(|| panic!("no [{rule}] finding:\n{out}"))
}

/// Every `## Heading` as setext (`Heading` over `---`), the title as `===`.
fn setext(t: &str) -> String {
    t.lines()
        .map(|l| {
            if let Some(h) = l.strip_prefix("## ") {
                format!("{h}\n{}", "-".repeat(h.len()))
            } else if let Some(h) = l.strip_prefix("# ") {
                format!("{h}\n{}", "=".repeat(h.len()))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn a_charter_resaved_with_crlf_a_bom_rewrapped_a_repadded_registry_and_setext_headings_needs_no_bump(
) {
    let base = example();
    let head = setext(&base)
        .replace(
            "given to you is\n   recomputed from raw values",
            "given\n   to you is recomputed from\n   raw values",
        )
        .replace(
            "| Failure mode | Signature | Mitigation |\n|---|---|---|",
            "Failure mode   | Signature      | Mitigation\n:--------------|----------------|-----------",
        )
        .replace(
            "| Echoed figure | Repeating a supplied figure unchecked | Invariant 1 |",
            "|  Echoed figure  |  Repeating a supplied figure unchecked  |  Invariant 1  |",
        );
    assert!(
        head.contains("Core Invariants\n---------------")
            && head.contains("to you is recomputed from\n")
    );
    let head = format!("\u{feff}{}", head.replace('\n', "\r\n"));
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[charter/text-before-title]"), "{out}");
    assert!(!out.contains("[charter/version"), "{out}");
}

#[test]
fn the_change_gate_3_of_3_made_2_of_3_with_a_patch_bump_is_decided_and_needs_a_minor_bump() {
    let base = seed();
    let head = base.replace("passes 3 of 3 transcripts", "passes 2 of 3 transcripts");
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-bump");
    assert!(
        f.contains("ERROR")
            && f.contains("(Versioning & Maintenance)")
            && f.contains("the rule \"Change gate. An edit lands only if every E-case checker")
            && f.contains("a number changed: 3 → 2")
            && f.contains("that needs a minor bump, but 0.1.0 → 0.1.1 is a patch")
            && f.contains("fix: bump to 0.2.0"),
        "{f}"
    );
}

const USAGE_5: &str =
    "  5. Told to skip the workings → verify silently, report the conclusion with evidence tags.\n";

#[test]
fn a_usage_rule_moved_below_the_runtime_marker_is_decided_and_reported_as_moved() {
    let base = seed();
    let marker = "The sections below serve maintainers and the evaluation harness.\n";
    let head = base.replacen(USAGE_5, "", 1).replacen(
        marker,
        &format!("{marker}\nTold to skip the workings → verify silently, report the conclusion with evidence tags.\n"),
        1,
    );
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-bump");
    assert!(
        f.contains("moved from line 112 (Usage Rules, item 5) to line 122 (Versioning & Maintenance) (across the runtime marker: it changed when it applies)")
            && f.contains("needs a minor bump")
            && !f.contains("was deleted"),
        "{f}"
    );
    let (code, out) = lint_edit(&base, &versioned(&head, "0.2.0"));
    assert_eq!(code, 0, "a minor bump carries it:\n{out}");
}

#[test]
fn two_rules_swapped_between_sections_are_decided_as_moves() {
    let base = seed();
    let usage_2 = "Emit a one-line log for every invariant re-read and INV sweep.";
    let memory = "Memory layer: externalized items (Usage 3) must be pinned and retrievable; otherwise restate them in the visible reply.";
    let head = base
        .replace(usage_2, "\u{0}")
        .replace(memory, usage_2)
        .replace('\u{0}', memory);
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 1, "decided, not handed to a reviewer:\n{out}");
    let f = finding(&out, "charter/version-increase");
    assert!(
        f.contains("moved from line") && f.contains("(and 1 other change(s))"),
        "{f}"
    );
    assert!(f.contains("the version was not bumped"), "{f}");
    assert!(!out.contains("NEEDS REVIEWER"), "{out}");
}

#[test]
fn a_rule_whose_content_words_changed_goes_to_a_reviewer_with_only_those_words_marked() {
    let base = seed();
    let head = base.replace(
        "verify silently, report the conclusion",
        "verify quietly, report the finding",
    );
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 3, "{out}");
    let f = finding(&out, "charter/reworded-rule");
    assert!(
        f.contains("NEEDS REVIEWER")
            && f.contains("line 112 (Usage Rules, item 5)")
            && f.contains("Changed words: … skip the workings verify [-silently,-]{+quietly,+} report the [-conclusion-]{+finding+} with evidence tags. Read as")
            && f.contains("wording (patch, as made: 0.1.0 → 0.1.1)")
            && f.contains("it needs a minor bump (0.2.0)"),
        "{f}"
    );
}

#[test]
fn a_charter_adding_e14_with_its_registry_row_and_a_minor_bump_passes_lint_with_a_warning() {
    let base = seed();
    let e13 = base
        .lines()
        .find(|l| l.contains("E13 — Vacuity laundering"))
        .unwrap();
    let head = base
        .replacen(
            e13,
            &format!("{e13}\n  • E14 — Unit slip. \"Convert 5 miles to km.\" Before: 5 km. After: 8.05 km, units named."),
            1,
        )
        .replacen(
            "Over-verification Checklists on a T0 creative ask",
            "Unit slip Mixing units in a conversion A.1: name the units\nOver-verification Checklists on a T0 creative ask",
            1,
        );
    let (code, out) = lint_edit(&base, &versioned(&head, "0.2.0"));
    assert_eq!(code, 0, "{out}");
    let f = finding(&out, "charter/case-without-checker");
    assert!(f.contains("WARN") && f.contains("E14"), "{f}");
    assert!(!out.contains("ERROR"), "{out}");
    // At a patch bump the new case is the charter's own finding: a minor is needed.
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-bump").contains("case E14 was added"),
        "{out}"
    );
}

/// DEL, C1 controls (NEL, CSI) and bidi marks.
const HOSTILE: &str = "\u{7f}\u{85}\u{9b}\u{202e}\u{2066}\u{200f}";

fn parses_line_by_line(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect()
}

#[test]
fn lint_json_is_json_for_names_and_rules_holding_del_c1_controls_and_bidi_marks() {
    let base = seed();
    let head = base.replace(
        "verify silently, report the conclusion",
        &format!("verify qu{HOSTILE}ietly, report the conclusion"),
    );
    let name = format!("CHARTER{HOSTILE}.md");
    let (dir, file) = git_repo_at(&name, base.as_bytes(), versioned(&head, "0.1.1").as_bytes());
    let o = harness(
        dir.path(),
        &[
            "lint",
            "charter",
            "--base",
            "HEAD",
            "--json",
            file.to_str().unwrap(),
        ],
        &[],
    );
    let out = stdout(&o);
    let charter = parses_line_by_line(&out);
    assert!(
        charter.iter().any(|v| v["rule"] == "charter/reworded-rule"
            && v["file"].as_str().unwrap().ends_with(&name)),
        "{out}"
    );

    let capsule = format!(
        "---\ntype: charter\nuid: 1234abcd\nname: evil{HOSTILE}\nrole: a{HOSTILE}\n---\n\n## Identity{HOSTILE}\n\nrules{HOSTILE}\n"
    );
    let cname = format!("capsule{HOSTILE}.md");
    std::fs::write(dir.path().join(&cname), capsule).unwrap();
    let o = harness(dir.path(), &["lint", "capsule", "--json", &cname], &[]);
    let cout = stdout(&o);
    let caps = parses_line_by_line(&cout);
    assert!(!caps.is_empty(), "{cout}{}", stderr(&o));

    // The pull-request comment built from both shows the findings.
    std::fs::write(dir.path().join("lint.jsonl"), format!("{out}{cout}")).unwrap();
    let o = harness(
        dir.path(),
        &["comment", "--lint", "lint.jsonl", "--status", "status.json"],
        &[],
    );
    let body = stdout(&o);
    assert!(!body.contains("could not be built"), "{body}");
    assert!(body.contains("charter/reworded-rule"), "{body}");
}

#[test]
fn lint_capsule_on_a_named_path_that_does_not_exist_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = harness(dir.path(), &["lint", "capsule", "no/such/capsules"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no/such/capsules: no such file or folder"),
        "{}",
        stderr(&o)
    );
    // The default vault/files missing: a repository without capsules yet.
    let o = harness(dir.path(), &["lint", "capsule"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("no capsules to lint"), "{}", stderr(&o));
}

#[test]
fn two_version_lines_or_a_version_going_down_is_a_finding_naming_the_lines() {
    let base = seed();
    let two = base.replacen(
        "Version 0.1.0 — 2026-07-09\n",
        "Version 0.1.0 — 2026-07-09\n\nVersion 0.2.0 — 2026-08-01\n",
        1,
    );
    let (code, out) = lint_edit(&base, &two);
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-lines");
    assert!(f.contains("2 version lines (lines 23, 25)"), "{f}");

    let down = base.replace("Version 0.1.0 —", "Version 0.0.9 —");
    let (code, out) = lint_edit(&base, &down);
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-increase");
    assert!(
        f.contains("the version goes down: 0.0.9 (line 23) is below HEAD's 0.1.0 (its line 23)"),
        "{f}"
    );

    // Not bumped at all: the finding still names the block, its section and why.
    let reworded = base.replace("passes 3 of 3 transcripts", "passes 2 of 3 transcripts");
    let (_, out) = lint_edit(&base, &reworded);
    let f = finding(&out, "charter/version-increase");
    assert!(
        f.contains("(Versioning & Maintenance): the rule \"Change gate.")
            && f.contains("the version was not bumped")
            && f.contains("that needs a minor bump")
            && f.contains("fix: bump to 0.2.0"),
        "{f}"
    );
}

#[test]
fn a_core_invariant_changed_in_punctuation_only_is_wording_and_a_patch_carries_it() {
    let base = seed();
    let head = base.replace(
        "ground truth about the tool's actions — never about verification status",
        "ground truth about the tool's actions, never about verification status",
    );
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[charter/version"), "{out}");
    let (code, out) = lint_edit(
        &base,
        &versioned(&head.replace("never about", "not about"), "0.1.1"),
    );
    assert_eq!(code, 1, "a changed word in an Invariant stays major: {out}");
    assert!(
        finding(&out, "charter/version-bump").contains("fix: bump to 1.0.0"),
        "{out}"
    );
}

#[test]
fn a_registry_row_with_a_typo_fixed_is_the_same_row_edited_not_a_new_row_needing_a_case() {
    let base = seed();
    let head = base.replace(
        "Delta over the wrong endpoint A.1–A.2: name base",
        "Delta taken over the wrong endpoint A.1–A.2: name base",
    );
    assert_ne!(head, base);
    let (_, out) = lint_edit(&base, &versioned(&head, "0.2.0"));
    assert!(!out.contains("[charter/registry-row-needs-case]"), "{out}");
    let added = head.replace(
        "Over-verification Checklists",
        "Unit slip Kilometres read as miles A.2: reverse-check\nOver-verification Checklists",
    );
    assert_ne!(added, head);
    let (code, out) = lint_edit(&base, &versioned(&added, "0.2.0"));
    assert_eq!(code, 1, "a row added without its case still fails: {out}");
    assert!(
        finding(&out, "charter/registry-row-needs-case").contains("Unit slip"),
        "{out}"
    );
}

#[test]
fn a_deleted_case_whose_checker_the_harness_keeps_is_a_warning_and_a_minor_bump_carries_it() {
    let base = seed();
    let start = base.find("  • E13 — Vacuity laundering.").unwrap();
    let end = start + base[start..].find('\n').unwrap() + 1;
    let head = format!("{}{}", &base[..start], &base[end..]);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.2.0"));
    assert!(
        finding(&out, "charter/checker-without-case").contains("WARN"),
        "{out}"
    );
    assert_eq!(code, 0, "{out}");
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 1, "a deleted case still needs a minor bump: {out}");
}

#[test]
fn is_not_said_as_does_not_is_the_same_negation_not_a_new_prohibition() {
    let base = seed();
    let head = base.replace(
        "N models repeating a figure is not verification",
        "N models repeating a figure does not count as verification",
    );
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert!(!out.contains("prohibition changed"), "{out}");
    // New content words ("count as") with the same operators: a reviewer's question.
    assert_eq!(code, 3, "{out}");
    assert!(
        finding(&out, "charter/reworded-rule").contains("{+count as+}"),
        "{out}"
    );
}

#[test]
fn a_plain_text_charter_resaved_with_trailing_blanks_keeps_its_bullets_and_needs_no_bump() {
    let base = seed();
    // Two trailing blanks are a Markdown hard break: each bullet line must stay its own case.
    let head: String = base.lines().map(|l| format!("{l}  \r\n")).collect();
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[charter/version"), "{out}");
}

#[test]
fn a_bullet_an_editor_made_a_continuation_line_is_wording_and_two_rules_joined_are_decided() {
    let base = seed();
    // A Markdown editor's re-save (blind49b case 33): the item above becomes a Markdown list
    // item and the `•` lines under it its continuation lines, each still on a line of its own
    // led by its bullet. The same rules: wording.
    let head = base.replace("  • Change gate.", "- Change gate.");
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[charter/version"), "{out}");
    let (code, out) = lint_edit(
        &base,
        &versioned(&head.replace("one E-case", "two E-cases"), "0.1.1"),
    );
    assert_eq!(code, 1, "a merge that changes a number is decided: {out}");
    // The bullet gone and the two rules joined into one: the list's members changed (blind49c
    // case 43), a minor change however few words moved.
    let joined = base.replace(
        "\n  • Each new failure mode adds",
        " Each new failure mode adds",
    );
    assert_ne!(joined, base);
    let (code, out) = lint_edit(&base, &versioned(&joined, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-bump").contains("the list's members changed"),
        "{out}"
    );
    let (code, out) = lint_edit(&base, &versioned(&joined, "0.2.0"));
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_registry_rendered_as_lines_resaved_as_a_markdown_table_is_the_same_rows() {
    let base = seed();
    let start = base.find("Failure mode Signature Mitigation\n").unwrap();
    let end = start + base[start..].find("\n\n").unwrap();
    let table: Vec<String> = base[start..end]
        .lines()
        .enumerate()
        .flat_map(|(k, l)| {
            // Each rendered line as a one-cell row: the words, not the cell borders, compare.
            let row = format!("| {l} |");
            if k == 0 {
                vec![row, "|---|".to_string()]
            } else {
                vec![row]
            }
        })
        .collect();
    let head = format!("{}{}{}", &base[..start], table.join("\n"), &base[end..]);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("[charter/version"), "{out}");
    let moved = head.replace(
        "| Over-verification Checklists",
        "| Over-verification checklists and more",
    );
    let (code, out) = lint_edit(&base, &versioned(&moved, "0.1.1"));
    assert_ne!(code, 0, "a row's words changed is still seen: {out}");
}

#[test]
fn vs_said_as_into_and_is_wording_not_a_question_for_a_reviewer() {
    let base = seed();
    let head = base.replace(
        "Partition unknowns: self-resolvable (research, compute, or test now) vs. human-gated",
        "Partition unknowns into self-resolvable (research, compute, or test now) and human-gated",
    );
    assert_ne!(head, base);
    let (code, out) = lint_edit(&base, &versioned(&head, "0.1.1"));
    assert_eq!(code, 0, "{out}");
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 1, "wording still needs its patch bump: {out}");
}
