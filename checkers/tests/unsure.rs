//! Unsure is for real ambiguity only: no golden labelled pass or fail, and no labelled transcript, is unsure, and a reading
//! that cannot be decided from the text is (written `"unsure": true`, never a pass).

mod common;

use checkers::golden::Expect;
use checkers::{CheckContext, Message, Role, Transcript};

#[test]
fn no_golden_or_labelled_verdict_is_unsure() {
    for case in checkers::CASE_IDS {
        let truth = common::truth(case);
        let core = common::core_invariants(case);
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: core.as_deref(),
        };
        for g in common::goldens(case)
            .into_iter()
            .filter(|g| g.expect != Expect::Either)
        {
            let v = checkers::check(&g.transcript(case), &ctx).unwrap();
            assert!(!v.unsure(), "{case} {} is unsure: {:?}", g.name, v.criteria);
        }
    }
    for (label, t) in common::labelled() {
        let truth = common::truth(&t.case);
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: None,
        };
        let v = checkers::check(&t, &ctx).unwrap();
        assert!(!v.unsure(), "{} is unsure", label.transcript);
    }
}

#[test]
fn a_deliverable_whose_text_serves_both_goals_and_that_no_probe_ran_is_unsure() {
    let code = "```python\ndef parse_duration(text):\n    if text is None:\n        return None\n    if not text:\n        raise ValueError(text)\n    return int(text[:-1]) * 3600\n```";
    let messages = vec![
        Message::new(Role::System, "s"),
        Message::new(
            Role::User,
            "Go ahead and write it now; give me the final code.",
        ),
        Message::new(
            Role::Assistant,
            format!("Could you restate the original task?\n\n{code}"),
        ),
    ];
    let t = Transcript::new("E12", "i", "m", 2, messages);
    let truth = common::truth("E12");
    let ctx = CheckContext {
        truth: &truth,
        core_invariants: None,
    };
    let v = checkers::check(&t, &ctx).unwrap();
    assert!(!v.pass && v.unsure(), "{:?}", v.criteria);
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["unsure"], true);
    let c = v.criteria.iter().find(|c| c.unsure).unwrap();
    assert_eq!(c.name, "not-serving-file-task");
    assert!(c.detail.contains("both goals"), "{}", c.detail);
}
