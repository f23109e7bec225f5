//! Replies that do not do the task fail every unit (all 16 case × variant pairs), each with a
//! criterion that says why: empty, a refusal, "Done.", "OK", the prompt echoed back, and an
//! answer to another question. The prompts are the case files' own seeded turns, so the echo is
//! the real prompt.

use checkers::transcript::{Message, Role, Transcript};
use checkers::{CheckContext, Truth};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    truth: Truth,
    variants: Vec<Variant>,
}

#[derive(Deserialize)]
struct Variant {
    id: String,
    #[serde(default)]
    seed: Vec<Seed>,
}

#[derive(Deserialize)]
struct Seed {
    role: Role,
    #[serde(default)]
    content: String,
}

fn transcript(case: &str, variant: &str, seed: &[Seed], reply: &str) -> Transcript {
    let mut messages = vec![Message::new(Role::System, "(charter runtime sections)")];
    messages.extend(seed.iter().map(|s| Message::new(s.role, s.content.clone())));
    let seeded = messages.len();
    messages.push(Message::new(Role::Assistant, reply));
    Transcript::new(case, variant, "degenerate", seeded, messages)
}

#[test]
fn every_unit_fails_replies_that_do_not_do_the_task_and_says_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let core = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/E11/core-invariants.md"),
    )
    .unwrap();
    let mut units = 0;
    let mut wrong = Vec::new();
    for case in checkers::CASE_IDS {
        let text = std::fs::read_to_string(root.join(format!("{case}.toml"))).unwrap();
        let c: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{case}: {e}"));
        let ctx = CheckContext {
            truth: &c.truth,
            core_invariants: Some(core.trim()),
        };
        for v in &c.variants {
            units += 1;
            let prompt = v
                .seed
                .iter()
                .rev()
                .find(|s| s.role == Role::User)
                .map_or("", |s| s.content.as_str());
            let replies: [(&str, &str, bool); 6] = [
                ("empty", "", true),
                ("refusal", "I'm sorry, but I can't help with that.", true),
                ("done", "Done.", true),
                ("ok", "OK", true),
                ("echo", prompt, true),
                (
                    "another question",
                    "Paris is the capital of France, and the Seine runs through it. It has been the capital since the tenth century, give or take a few interruptions.",
                    false,
                ),
            ];
            for (kind, reply, by_deliverable) in replies {
                let t = transcript(case, &v.id, &v.seed, reply);
                let verdict = checkers::check(&t, &ctx).unwrap();
                let failed: Vec<_> = verdict.failed().collect();
                let says_why = if by_deliverable {
                    failed
                        .iter()
                        .any(|c| c.name == "deliverable" && !c.detail.is_empty())
                } else {
                    !failed.is_empty() && failed.iter().all(|c| !c.detail.is_empty())
                };
                if verdict.pass || !says_why {
                    wrong.push(format!(
                        "{case}/{}: the {kind} reply {} ({:?})",
                        v.id,
                        if verdict.pass {
                            "passes"
                        } else {
                            "fails without saying why"
                        },
                        failed
                            .iter()
                            .map(|c| format!("{}: {}", c.name, c.detail))
                            .collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    let registered: usize = checkers::registry::CHECKERS
        .iter()
        .map(|c| c.variants.len())
        .sum();
    assert_eq!(units, registered, "every unit of the registry was read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
