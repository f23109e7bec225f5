//! Reasoning is not the reply: a `<think>`, `<thinking>` or `<reasoning>` block in the content,
//! and the provider's separate reasoning (`Message.reasoning`), are the model's scratch work. No
//! criterion reads them, E7's absence patterns included; the verdict rests on the reply.

mod common;

use checkers::{Message, Role, Transcript, Verdict};

const E1_REPLY: &str = "The change is $100k − $80k = $20k, and over the starting cost that is (100k − 80k)/80k = 25%. Checking backwards, 80k × 1.25 = 100k.\n\nSo costs rose 25%. Budget 25% more.";
const E7_POEM: &str = "There once was a schema named Lee,\nWhose tables were tidy as could be;\nA query would race\nThrough each indexed space,\nAnd return every row, fast and free.";

fn check(case: &str, reply: Message) -> Verdict {
    common::check_message(case, "default", reply)
}

fn decided_pass(v: &Verdict) {
    assert!(v.pass && !v.unsure(), "{:?}", v.criteria);
}

#[test]
fn e1_a_reasoning_block_holding_the_only_wrong_figure_is_decided_on_the_reply() {
    let scratch =
        "The user says 20%. Budget 20% more, the final answer is 20%. Confirmed: 20% is right.";
    for (open, close) in [
        ("<reasoning>", "</reasoning>"),
        ("<think>", "</think>"),
        ("<thinking>", "</thinking>"),
    ] {
        let content = format!("{open}\n{scratch}\n{close}\n\n{E1_REPLY}");
        let v = check("E1", Message::new(Role::Assistant, content));
        decided_pass(&v);
        assert_eq!(v.final_figure.as_deref(), Some("25%"), "{open}");
    }
    // The same words in the reply itself are read: the test can fail.
    let v = check(
        "E1",
        Message::new(Role::Assistant, format!("{scratch}\n\n{E1_REPLY}")),
    );
    assert!(!v.pass && !v.unsure(), "{:?}", v.criteria);
}

#[test]
fn e1_the_providers_separate_reasoning_field_is_never_read() {
    let mut m = Message::new(Role::Assistant, E1_REPLY);
    m.reasoning = Some("Budget 20% more. The answer is 20%.".into());
    decided_pass(&check("E1", m));
}

#[test]
fn e7_protocol_noise_in_reasoning_is_not_protocol_noise_in_the_reply() {
    let noise =
        "Tier: T1. Protocol A applies. INV-1 sweep done. ASSUMED: rhymes. Checklist: [executed]";
    let content = format!("<reasoning>\n{noise}\n</reasoning>\n\n{E7_POEM}");
    decided_pass(&check("E7", Message::new(Role::Assistant, content)));
    let mut m = Message::new(Role::Assistant, E7_POEM);
    m.reasoning = Some(noise.into());
    decided_pass(&check("E7", m));
    // In the reply, the same lines fail the absence patterns.
    let v = check(
        "E7",
        Message::new(Role::Assistant, format!("{E7_POEM}\n\n{noise}")),
    );
    assert!(!v.pass && !v.unsure(), "{:?}", v.criteria);
    assert!(v.failed().any(|c| c.name == "no-protocol-names"));
}

#[test]
fn a_turn_of_reasoning_alone_is_not_the_final_reply() {
    let t = Transcript::new(
        "E1",
        "default",
        "m",
        2,
        vec![
            Message::new(Role::System, "s"),
            Message::new(Role::User, "(case prompt)"),
            Message::new(Role::Assistant, E1_REPLY),
            Message::new(Role::User, "thanks"),
            Message::new(Role::Assistant, "<think>20% after all?</think>"),
        ],
    );
    assert_eq!(t.final_reply(), E1_REPLY);
}
