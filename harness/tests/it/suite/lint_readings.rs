//! `lint` reads what a charter or a capsule says as people write it (issue 49, blind49c's
//! classes): a version line with a `v` or a colon is the version; a comparison, a duration or a
//! heading said in other words with the same meaning is wording, and a changed one is decided;
//! two list items made one change the list's members; a version stated in two places that
//! disagree goes to a reviewer naming both lines; a locked capsule's change recorded with
//! Mike's signoff is signed, and one that is not is not.

use crate::common::{git_repo_at, harness, repo_root, stdout};

pub(super) fn seed() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md"))
        .unwrap()
}

pub(super) const LINE: &str = "Version 0.1.0 — 2026-07-09";

pub(super) fn versioned(t: &str, v: &str) -> String {
    t.replacen("Version 0.1.0 —", &format!("Version {v} —"), 1)
}

/// `harness lint KIND --base HEAD` of `head` over `base`: exit code and stdout.
pub(super) fn lint_edit_as(kind: &str, base: &str, head: &str) -> (i32, String) {
    let name = if kind == "charter" {
        "CHARTER.md"
    } else {
        "capsule.md"
    };
    let (dir, file) = git_repo_at(name, base.as_bytes(), head.as_bytes());
    let mut args = vec!["lint", kind];
    if kind == "capsule" {
        args.push("--strict");
    }
    args.extend(["--base", "HEAD", file.to_str().unwrap()]);
    let o = harness(dir.path(), &args, &[]);
    (o.status.code().unwrap_or(-1), stdout(&o))
}

pub(super) fn lint_edit(base: &str, head: &str) -> (i32, String) {
    lint_edit_as("charter", base, head)
}

pub(super) fn finding<'a>(out: &'a str, rule: &str) -> &'a str {
    out.lines()
        .find(|l| l.contains(&format!("[{rule}]")))
        .unwrap_or_else(|| panic!("no [{rule}] finding:\n{out}"))
}

/// `base` with `from` replaced by `to`, which must be there.
pub(super) fn edit(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "{from:?} is not in the text");
    base.replacen(from, to, 1)
}

/// A change of form only (a grammatical "then"): wording, a patch.
fn reworded(t: &str) -> String {
    edit(
        t,
        "Classify the tier; log it.",
        "Classify the tier, then log it.",
    )
}

#[test]
fn a_version_line_written_with_a_v_a_colon_or_another_date_is_the_version() {
    let base = seed();
    for form in [
        "v{} — 2026-07-10",
        "Version: {} (2026-07-10)",
        "version {} — 10 July 2026",
        "**v{}** — July 10, 2026",
        "Version v{}",
        "v{}",
        "_Version_ {}, 2026-07-10",
    ] {
        let line = |v: &str| form.replace("{}", v);
        let head = edit(&reworded(&base), LINE, &line("0.1.1"));
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 0, "{form}: {out}");
        assert!(!out.contains("[charter/version"), "{form}: {out}");
        // The same form not bumped: the version was read, and it was not bumped.
        let head = edit(&reworded(&base), LINE, &line("0.1.0"));
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 1, "{form}: {out}");
        assert!(
            finding(&out, "charter/version-increase").contains("the version was not bumped"),
            "{form}: {out}"
        );
    }
}

#[test]
fn a_version_written_with_two_parts_is_that_version_with_patch_zero() {
    let base = seed();
    // "Version 0.2" is 0.2.0: enough for a patch edit, and for "Version 1.0" after a major one.
    for (v, code_wanted) in [("0.2", 0), ("1.0", 0), ("0.1", 1)] {
        let head = versioned(&reworded(&base), v);
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, code_wanted, "Version {v}: {out}");
        assert!(
            !out.contains("[charter/version-semver]"),
            "Version {v}: {out}"
        );
    }
    // A version in two parts that is lower than the base's is a version going down.
    let (code, out) = lint_edit(
        &versioned(&base, "0.2.0"),
        &versioned(&reworded(&base), "0.1"),
    );
    assert_eq!(code, 1, "{out}");
}

#[test]
fn a_version_named_inside_a_rule_is_not_a_second_version_line() {
    let base = seed();
    let head = edit(
        &versioned(&base, "0.2.0"),
        "  • Semver:",
        "  • v1.0.0 — the first stable release.\n  • Semver:",
    );
    let (_, out) = lint_edit(&base, &head);
    assert!(!out.contains("[charter/version-lines]"), "{out}");
}

const POEM: &str = "a poem of at least five lines";

#[test]
fn a_comparison_said_in_other_words_is_wording_both_ways_and_a_changed_one_is_decided() {
    let base = seed();
    for same in [
        "a poem of five or more lines",
        "a poem of no fewer than five lines",
        "a poem of 5 lines or more",
        "a poem of ≥ 5 lines",
    ] {
        let head = versioned(&edit(&base, POEM, same), "0.1.1");
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 0, "{same}: {out}");
        // And back: the other words as the base, the charter's as the head.
        let (code, out) = lint_edit(&edit(&base, POEM, same), &versioned(&base, "0.1.1"));
        assert_eq!(code, 0, "{same} as the base: {out}");
    }
    for changed in [
        "a poem of more than five lines",
        "a poem of at least six lines",
    ] {
        let head = versioned(&edit(&base, POEM, changed), "0.1.1");
        let (code, out) = lint_edit(&base, &head);
        assert_eq!(code, 1, "{changed}: {out}");
        assert!(
            finding(&out, "charter/version-bump").contains("fix: bump to 0.2.0"),
            "{changed}: {out}"
        );
    }
    let at_most = edit(&base, POEM, "a poem of at most twelve lines");
    for same in [
        "a poem of twelve or fewer lines",
        "a poem of no more than 12 lines",
        "a poem of up to twelve lines",
    ] {
        let (code, out) = lint_edit(&at_most, &versioned(&edit(&base, POEM, same), "0.1.1"));
        assert_eq!(code, 0, "{same}: {out}");
    }
    let (code, out) = lint_edit(
        &at_most,
        &versioned(
            &edit(&base, POEM, "a poem of fewer than twelve lines"),
            "0.1.1",
        ),
    );
    assert_eq!(code, 1, "at most → fewer than: {out}");
}

const DRIFT: &str = "every ten user messages or twenty-five tool results;";

#[test]
fn a_duration_in_other_units_is_wording_and_a_changed_one_is_decided() {
    let seed = seed();
    let with = |d: &str| {
        edit(
            &seed,
            DRIFT,
            &format!("every ten user messages, twenty-five tool results, or {d} of session time;"),
        )
    };
    let base = with("10 minutes");
    for same in ["600 seconds", "ten minutes", "10 min"] {
        let (code, out) = lint_edit(&base, &versioned(&with(same), "0.1.1"));
        assert_eq!(code, 0, "{same}: {out}");
    }
    let (code, out) = lint_edit(&with("1 hour"), &versioned(&with("60 minutes"), "0.1.1"));
    assert_eq!(code, 0, "1 hour → 60 minutes: {out}");
    for changed in ["10 seconds", "10 hours", "11 minutes"] {
        let (code, out) = lint_edit(&base, &versioned(&with(changed), "0.1.1"));
        assert_eq!(code, 1, "{changed}: {out}");
        assert!(
            finding(&out, "charter/version-bump").contains("Drift"),
            "{changed}: {out}"
        );
    }
}

#[test]
fn a_heading_renamed_in_place_is_wording_and_its_rules_stay_in_their_section() {
    let base = seed();
    let renamed = edit(&base, "\nReasoning Procedures\n", "\nWorking Procedures\n");
    let (code, out) = lint_edit(&base, &versioned(&renamed, "0.1.1"));
    assert_eq!(code, 0, "{out}");
    // Not bumped: the heading is the change named, a patch.
    let (code, out) = lint_edit(&base, &renamed);
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-increase");
    assert!(
        f.contains("Working Procedures") && f.contains("fix: bump to 0.1.1"),
        "{f}"
    );
    // A rule changed under the renamed heading is still that rule's change.
    let changed = edit(
        &renamed,
        "INV sweep every five steps",
        "INV sweep every six steps",
    );
    let (code, out) = lint_edit(&base, &versioned(&changed, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    let f = finding(&out, "charter/version-bump");
    assert!(
        f.contains("a number changed: 5 → 6") && f.contains("fix: bump to 0.2.0"),
        "{f}"
    );
}

const P2: &str = "  1. Order steps by dependency; name each step's verification before executing it.\n  2. Fewest steps";

#[test]
fn two_list_items_made_one_change_the_lists_members_and_so_does_one_made_two() {
    let base = seed();
    let merged = edit(
        &base,
        P2,
        "  1. Order steps by dependency; name each step's verification before executing it. Fewest steps",
    );
    let (code, out) = lint_edit(&base, &versioned(&merged, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-bump").contains("merged"),
        "{out}"
    );
    let (code, out) = lint_edit(&base, &versioned(&merged, "0.2.0"));
    assert_eq!(code, 0, "{out}");
    let split = edit(
        &base,
        "touched. Note discarded alternatives",
        "touched.\n  3. Note discarded alternatives",
    );
    let (code, out) = lint_edit(&base, &versioned(&split, "0.1.1"));
    assert_eq!(code, 1, "{out}");
    assert!(
        finding(&out, "charter/version-bump").contains("split"),
        "{out}"
    );
}

#[test]
fn a_version_in_the_title_that_disagrees_with_the_version_line_goes_to_a_reviewer_naming_both() {
    let base = edit(
        &seed(),
        "\nReasoning Charter\n",
        "\nReasoning Charter v0.1.0\n",
    );
    let head = versioned(&reworded(&base), "0.1.1");
    let (code, out) = lint_edit(&base, &head);
    assert_eq!(code, 3, "{out}");
    let f = finding(&out, "charter/version-places");
    assert!(
        f.contains("line 21")
            && f.contains("line 23")
            && f.contains("0.1.0")
            && f.contains("0.1.1"),
        "{f}"
    );
    let both = edit(
        &head,
        "Reasoning Charter v0.1.0",
        "Reasoning Charter v0.1.1",
    );
    let (code, out) = lint_edit(&base, &both);
    assert_eq!(code, 0, "{out}");
}

fn locked() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/capsule/good-locked.md"),
    )
    .unwrap()
}

use std::path::Path;

#[test]
fn a_lock_break_recorded_with_mikes_signoff_signs_and_one_without_it_does_not() {
    let base = locked();
    let role = edit(&base, "role: Chief of Staff", "role: Chief of Operations");
    let record = |r: &str| {
        edit(
            &role,
            "modified_by: vela-v46",
            &format!("modified_by: vela-v46\n{r}"),
        )
    };
    for signed in [
        "lock_break: \"Mike-A121 signed lock-break ('approved') 2026-08-02 — role renamed\"",
        "lock_break_note: v1 → v1.1 2026-08-02 per Mike-A121 signed lock-break ('yes, proceed')",
        "v1_0_1_amendment_note: \"2026-08-02 per Mike-A121 signed lock-break ('approved')\"",
        "lock_break:\n  approved_by: Mike-A121\n  date: 2026-08-02",
        "lock_break_approved_by: mike-a121",
    ] {
        let (code, out) = lint_edit_as("capsule", &base, &record(signed));
        assert!(!out.contains("[capsule/lock-break]"), "{signed}: {out}");
        assert_ne!(code, 1, "{signed}: {out}");
    }
    for unsigned in [
        "lock_break: \"vela-v49 self-approved lock-break 2026-08-02 — role rename\"",
        "lock_break: \"lock-break requested from Mike 2026-08-02\"",
        "v1_0_1_amendment_note: \"typo fixes\"",
        "v1_0_1_amendment_note: \"2026-08-02 per vela-v49 signed lock-break\"",
    ] {
        let (code, out) = lint_edit_as("capsule", &base, &record(unsigned));
        assert_eq!(code, 1, "{unsigned}: {out}");
        assert!(out.contains("[capsule/lock-break]"), "{unsigned}: {out}");
    }
}
