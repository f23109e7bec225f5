//! A user with no charter yet (issue 53, item 3): `harness init --example` writes the harness's
//! example charter beside the gate's files, says so, and the offline gate runs on it.

use crate::common::{harness, repo_root, stderr, stdout};

#[test]
fn init_example_writes_the_example_charter_says_so_and_the_offline_gate_tests_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = harness(dir.path(), &["init", "--example"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with("wrote CHARTER.md: the harness's example charter"),
        "said first:\n{out}"
    );
    assert!(out.contains("wrote manifests/pinned.toml"), "{out}");
    assert!(!stderr(&o).contains("no charter at"), "{}", stderr(&o));
    let written = std::fs::read_to_string(dir.path().join("CHARTER.md")).unwrap();
    let example = repo_root().join("fixtures/charters/example-charter.md");
    assert_eq!(written, std::fs::read_to_string(example).unwrap());
    // The offline matrix tests the repository's charter: the one just written.
    let o = harness(
        dir.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("testing: charter CHARTER.md — \"Example Reasoning Charter\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn init_example_never_overwrites_a_charter_and_leaves_nothing_when_init_refuses() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("CHARTER.md"), "# My charter\n").unwrap();
    let o = harness(dir.path(), &["init", "--example"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("CHARTER.md: already exists; nothing was written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("CHARTER.md")).unwrap(),
        "# My charter\n"
    );
    assert!(!dir.path().join("manifests").exists());
    // No charter, but a manifest already there: init refuses, and the example is not left behind.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("manifests")).unwrap();
    std::fs::write(dir.path().join("manifests/pinned.toml"), "# mine\n").unwrap();
    let o = harness(
        dir.path(),
        &["init", "--example", "--charter", "docs/charter.md"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        !dir.path().join("docs/charter.md").exists(),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("removed docs/charter.md again"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_readme_installs_with_the_script_first_and_shows_the_three_uses_and_init_example() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let at = |s: &str| {
        readme
            .find(s)
            .unwrap_or_else(|| panic!("README lacks {s:?}"))
    };
    // The install script before cargo-binstall, building from source last.
    assert!(at("/scripts/install.sh | sh") < at("cargo binstall --git"));
    assert!(at("cargo binstall --git") < at("cargo install --locked --git"));
    assert!(readme.contains("gh attestation verify"));
    // The three uses, one command each, and a start for a user with no charter.
    for use_ in [
        "harness run --matrix manifests/pinned.toml ",
        "harness gate --charter-base main ",
        "harness run --matrix manifests/pinned.toml --case E8 --model weakest ",
        "harness init --example ",
    ] {
        assert!(readme.contains(use_), "README lacks {use_:?}");
    }
}

#[test]
fn run_warns_of_page_chrome_above_the_title_in_the_words_lint_uses() {
    let dir = tempfile::tempdir().unwrap();
    let seed = repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md");
    std::fs::copy(seed, dir.path().join("CHARTER.md")).unwrap();
    let lint = harness(dir.path(), &["lint", "charter", "CHARTER.md"], &[]);
    let said = stdout(&lint) + &stderr(&lint);
    let warning = said
        .lines()
        .find(|l| l.contains("[charter/text-before-title]"))
        .unwrap_or_else(|| panic!("{said}"))
        .to_string();
    let args = [
        "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
    ];
    let o = harness(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&warning),
        "run says what lint says:\n{warning}\n{err}"
    );
    assert!(
        err.find(&warning) < err.find("plan:"),
        "before anything is sent:\n{err}"
    );
    // A charter that starts at its title: no such warning.
    std::fs::write(
        dir.path().join("CHARTER.md"),
        std::fs::read_to_string(crate::common::example_charter()).unwrap(),
    )
    .unwrap();
    let o = harness(dir.path(), &args, &[]);
    assert!(!stderr(&o).contains("text-before-title"), "{}", stderr(&o));
}
