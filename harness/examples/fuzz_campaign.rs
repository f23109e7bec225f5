//! A longer mutation-fuzzing campaign over every reader of untrusted files: manifest, case,
//! charter, capsule, transcript, run.json, summary.json, labels. Prints executions and findings
//! per reader (a finding: a panic, an error without problem text, an input the reader changed,
//! an execution over 5 s; an abort ends the process).
//!
//!     cargo build -p harness && cargo run --release -p harness --example fuzz_campaign -- [SECONDS] [SEED]
//!
//! The readers run in this process; the harness binary (target/debug/harness, or $HARNESS_BIN)
//! makes the run folder whose files seed the run.json, summary.json and transcript readers.

#[path = "../tests/it/common/fuzz_readers.rs"]
mod fuzz_readers;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let secs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(35);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let bin = std::env::var_os("HARNESS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/debug/harness"));
    let start = Instant::now();
    let tallies = fuzz_readers::campaign(&root, &bin, seed, Duration::from_secs(secs), 1);
    let took = start.elapsed().as_secs_f64();
    let total: usize = tallies.values().map(|t| t.executions).sum();
    let found: usize = tallies.values().map(|t| t.findings.len()).sum();
    println!("{:<14} {:>10} {:>9}", "reader", "executions", "findings");
    for (reader, t) in &tallies {
        println!("{reader:<14} {:>10} {:>9}", t.executions, t.findings.len());
        for (f, input) in t.findings.iter().take(3) {
            let shown: String = String::from_utf8_lossy(input).chars().take(120).collect();
            println!("  {f:?} on {shown:?}");
        }
    }
    println!(
        "{:<14} {total:>10} {found:>9}   ({took:.0} s, seed {seed})",
        "all"
    );
    if found > 0 {
        std::process::exit(1);
    }
}
