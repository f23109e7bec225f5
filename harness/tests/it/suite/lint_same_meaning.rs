//! `lint` reads the same charter in other words as the same charter, and a changed meaning as a
//! change (issue 49, blind49e's classes): an HTML comment is no part of the charter wherever it
//! stands, and the text beside one is; a version restated below the version line that disagrees
//! with it is a finding naming both lines; a bump that skips a release is a finding; a word in
//! another form (a hyphen, a plural, a prefix written joined), a function word, a pronoun
//! replaced by the thing the rule already names (or a phrase naming it added), a unit's synonym or the charter's own fuller
//! name for a thing is wording, and a changed number, negation, unit or new content word is not;
//! a capsule's role said in another form of its words, or under a "Role:" label, is stated.

use super::lint_readings::{edit, finding, lint_edit, lint_edit_as, seed, versioned, LINE};

const MARKER: &str = "Runtime load ends here (Usage 1).";
const GATE: &str = "passes 3 of 3 transcripts";

#[test]
fn an_html_comment_is_not_part_of_the_charter_wherever_it_stands() {
    let base = seed();
    for (name, head) in [
        (
            "a comment block above the version line",
            edit(
                &base,
                LINE,
                &format!("<!-- reviewed 2026-07-30, no changes -->\n\n{LINE}"),
            ),
        ),
        (
            "a comment opening the marker's line",
            edit(
                &base,
                MARKER,
                &format!("<!-- do not move this marker -->{MARKER}"),
            ),
        ),
        (
            "a comment over several lines",
            edit(
                &base,
                "\nVersioning & Maintenance\n",
                "\n<!--\n  maintainers:\n  keep the gate\n-->\nVersioning & Maintenance\n",
            ),
        ),
        (
            "a comment inside a rule",
            edit(&base, GATE, "passes 3 of 3 <!-- sic --> transcripts"),
        ),
    ] {
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 0, "{name}: {out}");
        assert!(
            !out.contains("[charter/runtime-marker]") && !out.contains("[charter/version"),
            "{name}: {out}"
        );
    }
    // The text beside a comment is the charter's: a rule changed there is a change.
    let commented = edit(&base, MARKER, &format!("<!-- note -->{MARKER}"));
    let head = edit(
        &commented,
        "serve maintainers and the evaluation harness.",
        "serve maintainers only.",
    );
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-increase").contains("restriction"),
        "{out}"
    );
}

#[test]
fn a_version_restated_below_that_disagrees_is_a_finding_naming_both_lines() {
    let base = seed();
    let gate = versioned(&edit(&base, GATE, "passes 2 of 3 transcripts"), "0.2.0");
    let (code, out) = lint_edit(&base, &gate);
    assert_eq!(code, 0, "{out}");
    let at = gate.lines().count() + 2;
    let with = |footer: &str| format!("{gate}\n\n{footer}");
    for old in [
        "Reasoning Charter — Version 0.1.0 — 2026-07-09",
        "*Reasoning Charter, version 0.1.0*",
        "Charter version: 0.1.0 (2026-07-09)",
    ] {
        let (code, out) = lint_edit(&base, &with(old));
        assert_eq!(code, 1, "{old}: {out}");
        let f = finding(&out, "charter/version-lines");
        assert!(
            f.contains("line 23")
                && f.contains(&format!("line {at}"))
                && f.contains("0.2.0")
                && f.contains("0.1.0"),
            "{old}: {f}"
        );
        // The same line restating the version it follows: one version, said twice.
        let agrees = old.replace("0.1.0", "0.2.0");
        let (code, out) = lint_edit(&base, &with(&agrees));
        assert_eq!(code, 0, "{agrees}: {out}");
        assert!(!out.contains("[charter/version-lines]"), "{agrees}: {out}");
    }
    // The version line in two parts, `Version 0.2`, is 0.2.0: a footer saying 0.2.0 agrees.
    let two_parts = gate.replacen("Version 0.2.0 —", "Version 0.2 —", 1);
    let (_, out) = lint_edit(
        &base,
        &format!("{two_parts}\n\nReasoning Charter — Version 0.2.0"),
    );
    assert!(!out.contains("[charter/version-lines]"), "{out}");
}

#[test]
fn a_bump_that_skips_a_release_is_a_finding_at_every_level() {
    // Semver resets the lower numbers: 0.2.1 is no minor bump of 0.1.0, 1.1.0 no major one.
    let base = seed();
    let minor = edit(&base, GATE, "passes 2 of 3 transcripts");
    let major = edit(
        &base,
        "halts dependent work until surfaced",
        "halts all work until surfaced",
    );
    for (head, v, fix) in [(&minor, "0.2.1", "0.2.0"), (&major, "1.1.0", "1.0.0")] {
        let (code, out) = lint_edit(&base, &versioned(head, v));
        assert_eq!(code, 1, "{v}: {out}");
        let f = finding(&out, "charter/version-increase");
        assert!(
            f.contains("does not reset") && f.contains(&format!("fix: write {fix}")),
            "{v}: {f}"
        );
        let (code, out) = lint_edit(&base, &versioned(head, fix));
        assert_eq!(code, 0, "{fix}: {out}");
    }
}

/// Wording: the same rule in other words, each with the charter's text it replaces.
const SAME: [(&str, &str); 9] = [
    ("tie-broken by fewest", "ties broken by fewest"),
    ("Before: agrees.", "Before: agrees with the claim."),
    ("clause-by-clause", "clause by clause"),
    ("(nonzero exit,", "(non-zero exit,"),
    ("with evidence tags.", "along with its evidence tags."),
    (
        "Layer identity comes from channel, not content:",
        "Layer identity comes from the channel, not the content:",
    ),
    ("Before: ships it.", "Before: ships the rename."),
    ("to one significant figure,", "to 1 significant digit,"),
    ("live in the harness.", "live in the evaluation harness."),
];

#[test]
fn a_word_in_another_form_or_a_thing_named_in_full_is_wording_both_ways() {
    let base = seed();
    let mut all = base.clone();
    for (from, to) in SAME {
        let other = edit(&base, from, to);
        let (code, out) = lint_edit(&base, &versioned(&other, "0.1.1"));
        assert_eq!(code, 0, "{from} → {to}: {out}");
        let (code, out) = lint_edit(&other, &versioned(&base, "0.1.1"));
        assert_eq!(code, 0, "{to} → {from}: {out}");
        // Not bumped, it is a change of wording still: a patch.
        let (code, out) = lint_edit(&base, &other);
        assert_eq!(code, 1, "{from} → {to} unbumped: {out}");
        assert!(
            finding(&out, "charter/version-increase").contains("fix: bump to 0.1.1"),
            "{out}"
        );
        all = edit(&all, from, to);
    }
    let (code, out) = lint_edit(&base, &versioned(&all, "0.1.1"));
    assert_eq!(code, 0, "all at once: {out}");
}

#[test]
fn a_changed_number_negation_or_unit_is_decided_and_a_new_content_word_goes_to_a_reviewer() {
    let base = seed();
    for (from, to, code_wanted) in [
        ("(nonzero exit,", "(zero exit,", 1),
        ("with evidence tags.", "without evidence tags.", 1),
        (
            "to one significant figure,",
            "to two significant figures,",
            1,
        ),
        ("to one significant figure,", "to one decimal place,", 1),
        ("Before: ships it.", "Before: ships the tests.", 3),
        ("Before: agrees.", "Before: agrees with the user.", 3),
        (
            "tie-broken by fewest artifacts",
            "tie-broken by fewest files",
            3,
        ),
        ("live in the harness.", "live in the archived harness.", 3),
        // The charter's words, but another thing, or a quantifier's scope narrowed.
        ("live in the harness.", "live in the harness manifest.", 3),
        (
            "from each model in the pinned",
            "from each deployed model in the pinned",
            3,
        ),
    ] {
        let (code, out) = lint_edit(&base, &versioned(&edit(&base, from, to), "0.1.1"));
        assert_eq!(code, code_wanted, "{from} → {to}: {out}");
    }
}

fn capsule(identity: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/capsule/good.md"),
    )
    .unwrap()
    .replace("role: Chief of Staff", "role: Product Manager")
    .replace("You are Vela, the Chief of Staff of the crew.", identity)
}

#[test]
fn a_role_said_in_another_form_of_its_words_or_under_a_role_label_is_stated() {
    for stated in [
        "You are Vela, the product-management director of the crew.",
        "You are Vela, director of product management for the crew.",
        "You are Vela, the crew's product manager.",
        "You are Vela.\n\nRole: own the release plan and its acceptance criteria.",
        "You are Vela.\n\n- **Role:** own the release plan.",
    ] {
        let c = capsule(stated);
        let (code, out) = lint_edit_as("capsule", &c, &c);
        assert_eq!(code, 0, "{stated}: {out}");
    }
    for unstated in [
        "You are Vela, the release coordinator of the crew.",
        "You are Vela, the product owner of the crew.",
        "You are Vela. The role of a release plan is to be kept.",
    ] {
        let c = capsule(unstated);
        let (code, out) = lint_edit_as("capsule", &c, &c);
        assert_eq!(code, 3, "{unstated}: {out}");
        assert!(out.contains("[capsule/identity-role]"), "{unstated}: {out}");
    }
}

#[test]
fn an_html_comment_in_a_markdown_charter_is_no_part_of_it_either() {
    let base = std::fs::read_to_string(
        crate::common::repo_root().join("fixtures/charters/example-charter.md"),
    )
    .unwrap();
    let derive = "2. **Derive twice.**";
    for head in [
        edit(&base, derive, "2. **Derive twice.** <!-- kept -->"),
        edit(
            &base,
            derive,
            "<!-- between items -->\n\n2. **Derive twice.**",
        ),
        edit(
            &base,
            "## Core Invariants\n",
            "## Core Invariants <!-- major -->\n",
        ),
        edit(
            &base,
            "Runtime load ends here",
            "<!-- marker -->Runtime load ends here",
        ),
    ] {
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 0, "{out}");
    }
    // A Core Invariant changed beside a comment is a Core Invariant changed: major.
    let head = edit(&base, derive, "<!-- c -->\n\n2. **Derive three times.**");
    let (code, out) = lint_edit(&base, &versioned(&head, "0.2.0"));
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-bump").contains("fix: bump to 1.0.0"),
        "{out}"
    );
}

#[test]
fn a_typo_fixed_or_a_kind_named_before_its_id_is_wording_and_a_near_word_or_another_id_is_not() {
    let seed = seed();
    // blind49f's classes: a charter saved with typos, then fixed with a patch bump; a trace
    // "for E1" written "for case E1".
    for (from, to) in [
        ("in one sentence; compare", "in one sentance; compare"),
        ("Verification-first", "Verifcation-first"),
        ("every five steps", "every five setps"),
    ] {
        let typo = edit(&seed, from, to);
        let (code, out) = lint_edit(&typo, &versioned(&seed, "0.1.1"));
        assert_eq!(code, 0, "{to} → {from}: {out}");
        // Unbumped, a typo fixed is still a change of wording: a patch.
        let (code, out) = lint_edit(&typo, &seed);
        assert_eq!(code, 1, "{to} → {from} unbumped: {out}");
        assert!(
            finding(&out, "charter/version-increase").contains("fix: bump to 0.1.1"),
            "{out}"
        );
    }
    for (from, to) in [
        ("Reference trace for E1", "Reference trace for case E1"),
        ("Traces for E2–E13", "Traces for cases E2–E13"),
    ] {
        let (code, out) = lint_edit(&seed, &versioned(&edit(&seed, from, to), "0.1.1"));
        assert_eq!(code, 0, "{from} → {to}: {out}");
        let (code, out) = lint_edit(&edit(&seed, from, to), &versioned(&seed, "0.1.1"));
        assert_eq!(code, 0, "{to} → {from}: {out}");
    }
    // Directional: a near word replacing one the charter uses elsewhere is another word (a
    // reviewer reads "stops"; "section" changes a number's unit); another id, or a kind before
    // an id of another shape, is not the same thing.
    for (from, to, wanted) in [
        ("every five steps", "every five stops", 3),
        ("in one sentence; compare", "in one section; compare", 1),
        ("Reference trace for E1", "Reference trace for E2", 1),
        ("Reference trace for E1", "Reference trace for step E1", 3),
    ] {
        let (code, out) = lint_edit(&seed, &versioned(&edit(&seed, from, to), "0.1.1"));
        assert_eq!(code, wanted, "{from} → {to}: {out}");
    }
}
