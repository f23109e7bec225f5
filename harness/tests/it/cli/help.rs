//! Every `--help` text, snapshotted: a move of code must not change what a user reads.
//!
//! The commands are found by walking `harness --help` itself (every subcommand, nested ones too),
//! so a new command is snapshotted without editing this file. The snapshot is insta's
//! `harness/tests/snapshots/help.snap`: after a deliberate change, `cargo insta review`; with
//! `CI` set insta writes nothing and a difference fails.

use crate::common::{harness, repo_root};

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
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("help", got));
}
