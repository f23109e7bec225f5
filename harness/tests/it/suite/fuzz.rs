//! Property tests over the readers of untrusted files: the transcript reader and the manifest
//! loader return a value or an error for any bytes, and never panic. Bounded, so CI stays fast.

use crate::common;
use common::repo_root;
use proptest::prelude::*;

fn valid_transcript() -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "format": "charter-harness/transcript/v1",
        "case": "E9", "variant": "default", "seeded": 2,
        "messages": [
            {"role": "system", "content": "charter"},
            {"role": "user", "content": "rename"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "search", "arguments": {"pattern": "db_timeout"}}]},
            {"role": "tool", "tool_call_id": "c1", "name": "search", "content": "a.toml:3:db_timeout = 5"},
            {"role": "assistant", "content": "Done: 25%, (100−80)/80 = 0.25, `x` **y**"}
        ],
        "workspace": {"changed": [{"path": "a.toml", "before": "db_timeout", "after": "database_timeout"}]},
        "outcome": "completed", "error": null
    }))
    .unwrap()
}

fn valid_manifest() -> Vec<u8> {
    std::fs::read(repo_root().join("manifests/offline.toml")).unwrap()
}

/// Read, and if it reads, check: neither step may panic.
fn read_and_check(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.json");
    std::fs::write(&f, bytes).unwrap();
    if let Ok(t) = harness::store::read_transcript(&f) {
        let suite = suite();
        if let Ok(case) = suite.case_of(&t, &f) {
            let ctx = checkers::CheckContext {
                truth: &case.truth,
                core_invariants: None,
            };
            let _ = checkers::check(&t, &ctx);
        }
    }
}

fn suite() -> &'static harness::suite::Suite {
    static SUITE: std::sync::OnceLock<harness::suite::Suite> = std::sync::OnceLock::new();
    SUITE.get_or_init(|| harness::suite::Suite::load(&repo_root()).unwrap())
}

fn load_manifest(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.toml");
    std::fs::write(&f, bytes).unwrap();
    let _ = harness::suite::manifest::load(&f);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_transcript_reader(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        read_and_check(&bytes);
    }

    #[test]
    fn a_mutated_transcript_never_panics_the_reader_or_the_checkers(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12)
    ) {
        let mut bytes = valid_transcript();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        read_and_check(&bytes);
    }

    #[test]
    fn arbitrary_text_in_a_reply_never_panics_a_checker(reply in "\\PC{0,400}", case in 1usize..=13) {
        let id = format!("E{case}");
        let c = suite().case(&id).unwrap();
        let t: checkers::Transcript = serde_json::from_value(serde_json::json!({
            "case": id, "variant": c.variants[0].id, "seeded": 1,
            "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": reply}],
            "workspace": {"changed": []}
        })).unwrap();
        let ctx = checkers::CheckContext { truth: &c.truth, core_invariants: None };
        let _ = checkers::check(&t, &ctx);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_manifest_loader(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        load_manifest(&bytes);
    }

    #[test]
    fn a_mutated_manifest_never_panics_the_loader(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)
    ) {
        let mut bytes = valid_manifest();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        load_manifest(&bytes);
    }
}

/// Every reader of untrusted files (manifest, case, charter, capsule, transcript, run.json,
/// summary.json, labels) under mutations of valid inputs and the campaign's defect shapes, for
/// a fixed budget: no panic, no error without problem text, no input changed, nothing slow.
/// `cargo run --example fuzz_campaign` runs the same for longer.
#[test]
fn every_reader_survives_a_short_mutation_campaign() {
    use common::fuzz_readers::{campaign, READERS};
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_harness"));
    let tallies = campaign(&repo_root(), bin, 35, std::time::Duration::from_secs(3), 25);
    for reader in READERS {
        let t = &tallies[reader];
        assert!(t.executions >= 25, "{reader}: {} executions", t.executions);
        if let Some((f, input)) = t.findings.first() {
            panic!(
                "{reader}: {} finding(s); first {f:?} on {:?}",
                t.findings.len(),
                String::from_utf8_lossy(input)
            );
        }
    }
}
