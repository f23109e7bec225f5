//! Case setups as the charter describes them: E8/E12 state files hold the Core Invariants of the
//! charter under test and the tokens in context are computed over the rendered file; E12 replays
//! E8-A's turns; E5's history happened in the fixture's git history.

use crate::common;
use common::{offline_run, repo_root};
use serde_json::Value;
use std::path::Path;

fn transcript(run: &Path, model: &str, unit: &str) -> Value {
    let f = run.join(format!("transcripts/{model}/{unit}/trial-1.json"));
    serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap()
}

/// The content of the first `read_file(CHARTER_STATE.md)` result.
fn state_file_read(t: &Value) -> String {
    let msgs = t["messages"].as_array().unwrap();
    let id = msgs
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .find(|c| c["name"] == "read_file" && c["arguments"]["path"] == "CHARTER_STATE.md")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .expect("the compliant model reads the state file");
    msgs.iter()
        .find(|m| m["tool_call_id"] == id.as_str())
        .map(|m| m["content"].as_str().unwrap().to_string())
        .unwrap()
}

/// The integrity token in the seeded turns, if any.
fn seeded_token(t: &Value) -> Option<String> {
    let seeded = t["seeded"].as_u64().unwrap() as usize;
    t["messages"].as_array().unwrap()[..seeded]
        .iter()
        .filter_map(|m| m["content"].as_str())
        .find_map(|c| c.find("sha256=").map(|i| c[i..].trim().to_string()))
}

fn run_with_charter(dir: &Path, charter: &Path) {
    let o = offline_run(
        dir,
        &[
            "--charter",
            charter.to_str().unwrap(),
            "--case",
            "E8",
            "--case",
            "E12",
            "--model",
            "scripted-compliant",
            "--trials",
            "1",
        ],
    );
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn e8_and_e12_state_files_hold_the_charter_core_invariants_and_tokens_match_the_rendered_file() {
    let tmp = tempfile::tempdir().unwrap();
    let charter = common::example_charter();
    let text = std::fs::read_to_string(&charter).unwrap();
    let core = harness::suite::charter::section(&text, "Core Invariants").unwrap();
    run_with_charter(&tmp.path().join("a"), &charter);

    let e8a = transcript(&tmp.path().join("a"), "scripted-compliant", "E8-A");
    let file = state_file_read(&e8a);
    assert!(
        file.contains(core.trim()),
        "state file lacks the Core Invariants:\n{file}"
    );
    assert!(!file.contains("{{"), "{file}");
    assert!(file.contains("total number of seconds"), "{file}");
    let token = seeded_token(&e8a).expect("E8-A has a token in context");
    assert_eq!(token, harness::suite::integrity_token(&file));

    // E12 (i): the poisoned file holds the mutated task; the token in context is E8-A's.
    let e12i = transcript(&tmp.path().join("a"), "scripted-compliant", "E12-i");
    let poisoned = state_file_read(&e12i);
    assert!(poisoned.contains(core.trim()) && poisoned.contains("number of minutes"));
    assert_eq!(seeded_token(&e12i), Some(token.clone()));
    assert_ne!(harness::suite::integrity_token(&poisoned), token);
    // E12 (ii): E8-A's own file, and no token anywhere in context.
    let e12ii = transcript(&tmp.path().join("a"), "scripted-compliant", "E12-ii");
    assert_eq!(state_file_read(&e12ii), file);
    assert_eq!(seeded_token(&e12ii), None);
    // Both E12 variants replay E8-A's turns, differing only in the token.
    let seeded = |t: &Value| -> Vec<String> {
        let n = t["seeded"].as_u64().unwrap() as usize;
        t["messages"].as_array().unwrap()[1..n]
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(seeded(&e12i), seeded(&e8a));
    let strip = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .map(|c| match c.find(", integrity token: ") {
                Some(i) => format!("{}.", &c[..i]),
                None => c,
            })
            .collect()
    };
    assert_eq!(seeded(&e12ii), strip(seeded(&e8a)));

    // An edit to the charter's Core Invariants reaches the file and changes the token.
    let edited = tmp.path().join("edited-charter.md");
    let changed = text.replacen(
        core.trim(),
        &format!("{}\n6. Added invariant.", core.trim()),
        1,
    );
    assert_ne!(changed, text);
    std::fs::write(&edited, changed).unwrap();
    run_with_charter(&tmp.path().join("b"), &edited);
    let e8a_b = transcript(&tmp.path().join("b"), "scripted-compliant", "E8-A");
    let file_b = state_file_read(&e8a_b);
    assert!(file_b.contains("6. Added invariant."));
    let token_b = seeded_token(&e8a_b).unwrap();
    assert_ne!(token_b, token);
    assert_eq!(token_b, harness::suite::integrity_token(&file_b));
}

/// The repository's suite bound to a stand-in charter (history steps replayed, as a run does).
fn prepared_suite() -> harness::run::prepare::Prepared {
    harness::trial::sandbox::set_helper(env!("CARGO_BIN_EXE_harness"));
    let suite = harness::suite::Suite::load(&repo_root()).unwrap();
    harness::run::prepare::bind(&suite, "1. Core.", std::time::Duration::from_secs(30)).unwrap()
}

/// E5's one variant in a prepared suite.
fn e5(prepared: &harness::run::prepare::Prepared) -> &harness::suite::case::Variant {
    prepared
        .suite
        .case("E5")
        .unwrap()
        .variant("default")
        .unwrap()
}

#[test]
fn e5_history_steps_are_commits_and_their_results_are_in_context() {
    let prepared = prepared_suite();
    let variant = e5(&prepared);
    let fixture = variant.fixture.as_ref().unwrap();
    let repo = git2::Repository::open(fixture).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.push_head().unwrap();
    let log: Vec<String> = walk
        .map(|id| {
            repo.find_commit(id.unwrap())
                .unwrap()
                .summary()
                .unwrap()
                .unwrap()
                .to_string()
        })
        .collect();
    // Five steps change files, on top of the fixture's starting state.
    assert_eq!(log.len(), 6, "{log:?}");
    assert!(log.iter().any(|s| s.contains("Step 7/29")), "{log:?}");
    assert!(log.iter().any(|s| s.contains("Step 18/29")), "{log:?}");
    // What the history claims is in the tree a model reads.
    let handlers = std::fs::read_to_string(fixture.join("api/handlers.py")).unwrap();
    assert!(handlers.contains("PAGE_SIZE_MAX = 100"), "{handlers}");
    assert!(handlers.contains("404"), "{handlers}");
    let readme = std::fs::read_to_string(fixture.join("README.md")).unwrap();
    assert!(readme.contains("capped at 100"));
    // Every step's tool call has its real result in context; test runs show their output.
    let runs: Vec<&str> = variant
        .seed
        .iter()
        .filter(|m| m.name.as_deref() == Some("run_tests"))
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(runs.len(), 5);
    assert!(
        runs.iter().all(|r| r.contains("2 passed, 0 failed")),
        "{runs:?}"
    );
    assert!(variant
        .seed
        .iter()
        .filter(|m| m.role == checkers::Role::Tool)
        .all(|m| !m.content.is_empty()));
}

#[test]
fn a_model_that_lists_and_reads_the_e5_workspace_finds_the_page_size_cap() {
    let prepared = prepared_suite();
    let variant = e5(&prepared);
    // The trial workspace a model gets, and the tools it calls.
    let store = harness::trial::workspace::FixtureStore::new().unwrap();
    let ws = store.workspace(variant.fixture.as_ref().unwrap()).unwrap();
    let mut tools = harness::trial::tools::ToolBox::new(
        variant,
        Some(ws.root()),
        std::time::Duration::from_secs(30),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let listing = rt.block_on(tools.call("list_files", &serde_json::json!({})));
    assert!(
        listing.content.contains("api/handlers.py"),
        "{}",
        listing.content
    );
    assert!(!listing.content.contains(".git"), "{}", listing.content);
    let read =
        rt.block_on(tools.call("read_file", &serde_json::json!({"path": "api/handlers.py"})));
    assert!(
        read.content.contains("PAGE_SIZE_MAX = 100"),
        "{}",
        read.content
    );
    // The workspace starts clean against the history's last commit.
    assert!(ws.changes().unwrap().changed.is_empty());
}
