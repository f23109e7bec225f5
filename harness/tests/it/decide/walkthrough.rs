//! The README's second walkthrough, run exactly as written: in a charter repository, offline,
//! deleting Protocol A on a branch makes `gate --charter-base main` report the charter-reading
//! model's regressions on the cases that rule serves (E1, E2, E4), and none elsewhere.

use crate::common::{harness, repo_root, stderr, stdout};
use std::path::Path;
use std::process::Command;

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

/// `line` run by `sh` in `dir`, with this build's `harness` first on PATH.
fn shell(dir: &Path, line: &str) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_harness")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("GIT_AUTHOR_NAME", "Walkthrough")
        .env("GIT_AUTHOR_EMAIL", "walkthrough@example.invalid")
        .env("GIT_COMMITTER_NAME", "Walkthrough")
        .env("GIT_COMMITTER_EMAIL", "walkthrough@example.invalid")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap()
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
