//! Counts in one place (issue 53, item 6): the number of cases is the checkers' registry, the
//! units are the built-in suite's variants, the rest follows from the manifests. The docs'
//! figures block is `scripts/counts.sh`'s output, and every figure the docs quote in prose is
//! the figure these make: adding a case fails here until the docs say so.

use crate::common::counts::Counts;
use crate::common::{repo_root, stderr};

#[test]
fn the_docs_figures_block_is_what_scripts_counts_sh_prints() {
    let o = std::process::Command::new("bash")
        .arg(repo_root().join("scripts/counts.sh"))
        .arg("--quick")
        .env("CHARTER_HARNESS_BIN", env!("CARGO_BIN_EXE_harness"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = String::from_utf8(o.stdout).unwrap();
    let docs = std::fs::read_to_string(repo_root().join("docs/README.md")).unwrap();
    let stable = ["cases:", "units:", "offline:", "pinned:"];
    let lines: Vec<&str> = printed
        .lines()
        .filter(|l| stable.iter().any(|s| l.starts_with(s)))
        .collect();
    assert_eq!(lines.len(), stable.len(), "{printed}");
    for l in lines {
        assert!(
            docs.lines().any(|d| d == l),
            "docs/README.md's figures block differs from scripts/counts.sh: paste its output there\n{l}"
        );
    }
    // And the script counts what the registry and the suite hold.
    let c = Counts::get();
    assert!(
        printed.contains(&format!("cases:   {} ", c.cases)),
        "{printed}"
    );
    assert!(
        printed.contains(&format!("units:   {} ", c.units)),
        "{printed}"
    );
}

#[test]
fn every_figure_the_docs_quote_in_prose_is_the_one_the_registry_and_suite_make() {
    let c = Counts::get();
    let range = checkers::case_range();
    let (first, last) = range.split_once(" … ").unwrap();
    let offline = c.offline_models * c.units * c.trials;
    let pinned = c.pinned_models * c.units * c.trials;
    let quoted: Vec<(&str, String)> = vec![
        ("README.md", format!("({first}–{last}, {} units:", c.units)),
        (
            "README.md",
            format!(
                "{} units × {} models × {} trials = {pinned} episodes",
                c.units, c.pinned_models, c.trials
            ),
        ),
        ("README.md", format!("{offline} transcripts: ")),
        (
            "docs/setup.md",
            format!(
                "{} units × {} models × {} trials = {pinned} episodes",
                c.units, c.pinned_models, c.trials
            ),
        ),
        ("docs/README.md", format!("Evaluation Harness, {range}")),
        (
            "docs/cases-and-checkers.md",
            format!("({range}, every unit)"),
        ),
        (
            "docs/benchmarks.md",
            format!(
                "({} cases, {} units, {} trials)",
                c.cases, c.units, c.trials
            ),
        ),
        (
            "docs/benchmarks.md",
            format!(
                "({} units × {} trials × {} models)",
                c.units, c.trials, c.pinned_models
            ),
        ),
        (
            "docs/commands.md",
            format!("{} units on {} models", c.units, c.offline_models),
        ),
        ("docs/commands.md", format!("`{offline} transcripts: ")),
        (
            "docs/gate.md",
            format!(
                "a gate of {} units on models ({} units on {} models)",
                c.units * c.pinned_models,
                c.units,
                c.pinned_models
            ),
        ),
    ];
    let mut wrong = Vec::new();
    for (page, phrase) in &quoted {
        let text = std::fs::read_to_string(repo_root().join(page)).unwrap();
        // A phrase may wrap: compare with the page's whitespace collapsed.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !flat.contains(phrase.as_str()) {
            wrong.push(format!("{page}: no {phrase:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "figures that are not this build's (scripts/counts.sh):\n{}",
        wrong.join("\n")
    );
}
