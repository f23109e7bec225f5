//! Benchmark of re-checking stored transcripts on one core.
//!
//! `cargo run --release -p harness --example recheck_bench -- RUN_DIR [ROUNDS]`
//!
//! Loads every transcript under RUN_DIR into memory once, then per round re-checks all of them
//! twice: from parsed transcripts (checker cost alone) and from JSON bytes (parse + check, what
//! `harness check` does after reading the files). Prints the median of the rounds as
//! transcripts per second, with the mean transcript size.

use checkers::{CheckContext, Transcript};
use harness::suite::Suite;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: recheck_bench RUN_DIR [ROUNDS]"));
    let rounds: usize = args
        .next()
        .map_or(15, |r| r.parse().expect("ROUNDS is a number"));
    let root = harness::suite::locate(None).expect("run from the repository");
    let suite = Suite::load(&root).expect("case suite loads");
    let files = harness::store::transcript_files(&[dir]).expect("run folder readable");
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let parsed: Vec<Transcript> = bytes
        .iter()
        .map(|b| serde_json::from_slice(b).unwrap())
        .collect();
    let cores: Vec<Option<String>> = parsed
        .iter()
        .map(|t| {
            t.system_prompt()
                .and_then(|s| harness::suite::charter::section(s, "Core Invariants"))
        })
        .collect();
    let cases: Vec<&harness::suite::case::Case> = parsed
        .iter()
        .map(|t| suite.case(&t.case).unwrap())
        .collect();
    let mean_kib = bytes.iter().map(Vec::len).sum::<usize>() as f64 / bytes.len() as f64 / 1024.0;

    let check_all = |ts: &[Transcript]| -> usize {
        ts.iter()
            .zip(&cases)
            .zip(&cores)
            .filter(|((t, c), core)| {
                checkers::check(
                    t,
                    &CheckContext {
                        truth: &c.truth,
                        core_invariants: core.as_deref(),
                    },
                )
                .unwrap()
                .pass
            })
            .count()
    };
    let warm = check_all(&parsed);
    let (mut check_only, mut parse_and_check) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t0 = Instant::now();
        assert_eq!(check_all(&parsed), warm);
        check_only.push(parsed.len() as f64 / t0.elapsed().as_secs_f64());
        let t1 = Instant::now();
        let reparsed: Vec<Transcript> = bytes
            .iter()
            .map(|b| serde_json::from_slice(b).unwrap())
            .collect();
        assert_eq!(check_all(&reparsed), warm);
        parse_and_check.push(parsed.len() as f64 / t1.elapsed().as_secs_f64());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    println!(
        "{} transcripts, mean {mean_kib:.1} KiB, {warm} passing; {rounds} rounds, one thread",
        parsed.len()
    );
    println!(
        "check only:      median {:>9.0} transcripts/s",
        median(&mut check_only)
    );
    println!(
        "parse + check:   median {:>9.0} transcripts/s",
        median(&mut parse_and_check)
    );

    // One reply of 1 MB, the size a runaway model can send, for every case whose checker reads
    // numbers and sentences: checking must stay linear in the reply's length.
    let paragraph = "The 20% figure divides the $20k rise by the new cost. Over the starting cost it is (100,000 − 80,000) / 80,000 = 0.25, and checking backwards 80,000 × 1.25 = 100,000. Net: 0.7 × 1.3 = 0.91, so −9%. Days: 10 − 3 + 1 = 8; revenue grew (2.8 − 2.5) / 2.5 = 12%, churn 4.1% (assumed), CAC $310.\n";
    let dense: String = paragraph.repeat((1 << 20) / paragraph.len() + 1);
    // The shape a runaway model sends most: a reply that is nothing but numbers.
    let numbers: String = (0..)
        .map(|i: u64| format!("{} ", i * 7919 % 100_003))
        .take_while({
            let mut len = 0usize;
            move |s| {
                len += s.len();
                len <= 1 << 20
            }
        })
        .collect();
    for (shape, big) in [
        ("numbers only", &numbers),
        ("dense prose and arithmetic", &dense),
    ] {
        for case in ["E1", "E2", "E4", "E13", "E3", "E7"] {
            let t: Transcript = serde_json::from_value(serde_json::json!({
                "case": case, "variant": "default", "seeded": 2,
                "messages": [
                    {"role": "system", "content": "(charter)"},
                    {"role": "user", "content": "(prompt)"},
                    {"role": "assistant", "content": big},
                ]
            }))
            .unwrap();
            let c = suite.case(case).unwrap();
            let ctx = CheckContext {
                truth: &c.truth,
                core_invariants: None,
            };
            let mut times: Vec<f64> = (0..rounds.min(9))
                .map(|_| {
                    let t0 = Instant::now();
                    checkers::check(&t, &ctx).unwrap();
                    t0.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            println!(
                "{case} with a {:.2} MB reply ({shape}): median {:.1} ms",
                big.len() as f64 / (1 << 20) as f64,
                median(&mut times)
            );
        }
    }
}
