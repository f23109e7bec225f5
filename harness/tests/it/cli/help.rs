//! Every `--help` text, snapshotted: a move of code must not change what a user reads.
//!
//! The commands are found by walking `harness --help` itself (every subcommand, nested ones too),
//! so a new command is snapshotted without editing this file. To record a deliberate change:
//! `cargo test -p harness --test it -- --ignored update_the_help_snapshot`, then review
//! `git diff harness/tests/snapshots/help.txt`.

use crate::common::{harness, repo_root};
use std::path::PathBuf;

fn snapshot_file() -> PathBuf {
    repo_root().join("harness/tests/snapshots/help.txt")
}

/// The subcommand names listed under `Commands:` in a help text.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

fn help_of(path: &[String]) -> String {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let out = harness(&repo_root(), &args, &[]);
    assert!(out.status.success(), "harness {args:?} failed");
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// Every help text, depth first, each under a `==== harness …` heading.
fn all_help() -> String {
    let mut out = String::new();
    let mut stack: Vec<Vec<String>> = vec![vec![]];
    while let Some(path) = stack.pop() {
        let text = help_of(&path);
        out.push_str(&format!("==== harness {} --help\n{text}\n", path.join(" ")));
        for sub in subcommands(&text).into_iter().rev() {
            let mut p = path.clone();
            p.push(sub);
            stack.push(p);
        }
    }
    out
}

#[test]
fn every_help_text_matches_its_snapshot() {
    let got = all_help();
    assert!(
        got.matches("==== harness").count() > 10,
        "too few commands found:\n{got}"
    );
    let want = std::fs::read_to_string(snapshot_file()).expect("help snapshot exists");
    if got != want {
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "help texts differ from harness/tests/snapshots/help.txt at line {}:\n  got:  {:?}\n  want: {:?}\n\
             If the change is deliberate, record it: cargo test -p harness --test it -- --ignored update_the_help_snapshot",
            first + 1,
            got.lines().nth(first).unwrap_or(""),
            want.lines().nth(first).unwrap_or("")
        );
    }
}

#[test]
#[ignore = "rewrites the help snapshot; run by hand and review the diff"]
fn update_the_help_snapshot() {
    std::fs::write(snapshot_file(), all_help()).unwrap();
}
