//! CPU time of checking one hostile reply, per shape and size: every shape of
//! `tests/common/shapes.rs` at 128 KiB and 1 MiB as the last reply of each case's first passing
//! golden, the slowest case's thread CPU time (median of ROUNDS) and the readers' work count.
//! `cargo run --release -p checkers --example linear_bench [-- ROUNDS [SHAPE…]]`

#[path = "../tests/common/mod.rs"]
mod common;

use checkers::{CheckContext, Message, Role, Transcript};
use common::shapes::{filled, SHAPES};

/// This thread's CPU time in seconds (Linux: `/proc/thread-self/schedstat`, nanoseconds).
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}

fn with_reply(case: &str, reply: &str) -> Transcript {
    let g = common::goldens(case)
        .into_iter()
        .find(|g| g.expect == checkers::golden::Expect::Pass)
        .expect("a passing golden");
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

/// Per case: median CPU seconds and work count of checking `reply`.
fn measure(reply: &str, rounds: usize) -> Vec<(f64, &'static str, u64)> {
    checkers::CASE_IDS
        .iter()
        .map(|case| {
            let t = with_reply(case, reply);
            let truth = common::truth(case);
            let core = common::core_invariants(case);
            let ctx = CheckContext {
                truth: &truth,
                core_invariants: core.as_deref(),
            };
            let mut times = Vec::new();
            let mut work = 0;
            for _ in 0..rounds {
                let (start, w0) = (cpu(), checkers::work::count());
                std::hint::black_box(checkers::check(&t, &ctx).unwrap());
                times.push(cpu() - start);
                work = checkers::work::count() - w0;
            }
            times.sort_by(f64::total_cmp);
            (times[times.len() / 2], *case, work)
        })
        .collect()
}

/// The slowest case of a measurement.
fn slowest(m: &[(f64, &'static str, u64)]) -> (f64, &'static str) {
    m.iter()
        .map(|&(t, c, _)| (t, c))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((0.0, ""))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let only: Vec<String> = args.collect();
    println!("| shape | 128 KiB: CPU s (case) | 1 MiB: CPU s (case) | CPU × | work × (most) |");
    println!("|---|---|---|---|---|");
    // `unit:TEXT` measures a shape of your own.
    let own: Vec<(&str, &str)> = only
        .iter()
        .filter_map(|o| o.strip_prefix("unit:").map(|u| ("own unit", u)))
        .collect();
    let shapes = if own.is_empty() { SHAPES.to_vec() } else { own };
    for (name, unit) in shapes {
        if !only.is_empty() && name != "own unit" && !only.iter().any(|o| name.contains(o.as_str()))
        {
            continue;
        }
        let (a, b) = (
            measure(&filled(unit, 128 << 10), rounds),
            measure(&filled(unit, 1 << 20), rounds),
        );
        let ((small, s_case), (large, l_case)) = (slowest(&a), slowest(&b));
        // The work test's measure: the largest growth of any case, a reply's bytes at least.
        let floor = (128u64 << 10) / 8;
        let work = a
            .iter()
            .zip(&b)
            .map(|(a, b)| b.2.max(floor) as f64 / a.2.max(floor) as f64)
            .fold(0.0, f64::max);
        println!(
            "| {name} | {small:.3} ({s_case}) | {large:.3} ({l_case}) | {:.1} | {work:.1} |",
            large / small
        );
    }
}
