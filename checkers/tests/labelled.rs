//! The labelled corpus (`tests/labelled/`): stored transcripts with a person's verdict in
//! `labels.jsonl`. A checker change that turns a labelled verdict wrong fails the build.

mod common;

use checkers::CheckContext;

#[test]
fn every_labelled_transcript_gets_the_verdict_a_person_gave_it() {
    let mut wrong = Vec::new();
    let mut n = 0;
    for (l, t) in common::labelled() {
        let truth = common::truth(&t.case);
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
