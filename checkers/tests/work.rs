//! Every reader reads a reply in time linear in its length, shown by the work the readers count
//! (`checkers::work`: figures visited, bytes of sentences, clauses and lines read for a decision)
//! rather than by a clock, which a busy machine moves: each hostile shape of
//! `common/shapes.rs`, at 128 KiB and at 1 MiB (eight times the text), checked as every case,
//! costs at most ten times the work (a reading that costs the square of its length costs 64
//! times). The timings are `examples/linear_bench.rs`'s, in docs/benchmarks.md.

mod common;

use checkers::{CheckContext, Message, Role, Transcript};
use common::shapes::{filled, SHAPES};

const SMALL: usize = 128 << 10;
const LARGE: usize = 1 << 20;

/// The first passing golden of `case` with its last reply replaced by `reply`.
fn with_reply(case: &str, reply: &str) -> Transcript {
    let g = common::goldens(case)
        .into_iter()
        .find(|g| g.expect == checkers::golden::Expect::Pass)
        .unwrap_or_else(|| panic!("{case} has no passing golden"));
    let mut t = g.transcript(case);
    match t
        .messages
        .iter_mut()
        .rev()
        .find(|m| m.role == Role::Assistant)
    {
        Some(m) => m.content = reply.to_string(),
        None => t.messages.push(Message::new(Role::Assistant, reply)),
    }
    t
}

/// The work counted while `case` checks `reply`.
fn work(case: &str, reply: &str) -> u64 {
    let t = with_reply(case, reply);
    let truth = common::truth(case);
    let core = common::core_invariants(case);
    let ctx = CheckContext {
        truth: &truth,
        core_invariants: core.as_deref(),
    };
    let before = checkers::work::count();
    checkers::check(&t, &ctx).unwrap_or_else(|e| panic!("{case}: {e}"));
    checkers::work::count() - before
}

/// Each shape, as every case, at both sizes: the work grows at most tenfold for eight times the
/// text. Runs on a thread with a tokio worker's stack, as the harness checks.
fn grows_linearly(shapes: &[(&'static str, &'static str)]) {
    let shapes = shapes.to_vec();
    let failures = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut failures = Vec::new();
            for (name, unit) in shapes {
                let (small, large) = (filled(unit, SMALL), filled(unit, LARGE));
                for case in checkers::CASE_IDS {
                    let (a, b) = (work(case, &small), work(case, &large));
                    // The work of reading the reply at all: a reply is at least its bytes.
                    let (a, b) = (a.max(SMALL as u64 / 8), b.max(SMALL as u64 / 8));
                    if b > 10 * a {
                        failures.push(format!("{name} as {case}: {a} → {b} (×{})", b / a));
                    }
                }
            }
            failures
        })
        .unwrap()
        .join()
        .expect("a checker panicked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fractions_scientific_notation_mentions_and_comma_clauses_are_read_in_linear_work() {
    grows_linearly(&SHAPES[..4]);
}

#[test]
fn the_hostile_replies_are_read_in_linear_work() {
    grows_linearly(&SHAPES[4..]);
}
