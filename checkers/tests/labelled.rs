//! The labelled corpus (`tests/labelled/`): stored transcripts with a person's verdict in
//! `labels.jsonl`. A checker change that turns a labelled verdict wrong fails the build.

use checkers::{CheckContext, Transcript, Truth};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
struct Label {
    transcript: String,
    label: String,
    note: Option<String>,
    #[allow(dead_code)]
    transcript_sha256: Option<String>,
}

#[derive(Deserialize)]
struct CaseTruth {
    #[serde(default)]
    truth: Truth,
}

#[test]
fn every_labelled_transcript_gets_the_verdict_a_person_gave_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/labelled");
    let labels = std::fs::read_to_string(dir.join("labels.jsonl")).unwrap();
    let mut wrong = Vec::new();
    let mut n = 0;
    for line in labels.lines().filter(|l| !l.trim().is_empty()) {
        let l: Label = serde_json::from_str(line).unwrap();
        let t: Transcript =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&l.transcript)).unwrap())
                .unwrap();
        let case = dir.join(format!("../../../cases/{}.toml", t.case));
        let truth = toml::from_str::<CaseTruth>(&std::fs::read_to_string(case).unwrap())
            .unwrap()
            .truth;
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: None,
        };
        let v = checkers::check(&t, &ctx).unwrap();
        let verdict = if v.pass { "pass" } else { "fail" };
        n += 1;
        if verdict != l.label {
            wrong.push(format!(
                "{}: labelled {} ({}), checker {} says {verdict}: {:?}",
                l.transcript,
                l.label,
                l.note.unwrap_or_default(),
                v.checker_version,
                v.failed().map(|c| &c.detail).collect::<Vec<_>>()
            ));
        }
    }
    assert!(n >= 10, "the labelled corpus holds only {n} transcripts");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
