//! Check-only speed on one core: every golden transcript (or those of DIR, in the golden
//! format) checked again and again for a few seconds, parsing done once beforehand.
//! `cargo run --release -p checkers --example recheck_speed [-- DIR]`

use checkers::golden;
use checkers::{CheckContext, Transcript, Truth};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Deserialize)]
struct CaseTruth {
    #[serde(default)]
    truth: Truth,
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::args()
        .nth(1)
        .map_or(root.join("tests/golden"), PathBuf::from);
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    let mut work: Vec<(Transcript, Truth)> = Vec::new();
    for p in paths {
        let case = p
            .components()
            .filter_map(|c| c.as_os_str().to_str())
            .chain(p.file_stem().and_then(|s| s.to_str()))
            .rfind(|c| c.starts_with('E') && c[1..].parse::<u32>().is_ok())
            .map(str::to_string);
        let Some(case) = case else { continue };
        let text = std::fs::read_to_string(root.join("../cases").join(format!("{case}.toml")))
            .expect("case file");
        let truth = toml::from_str::<CaseTruth>(&text).unwrap().truth;
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        for g in golden::parse(&std::fs::read_to_string(&p).unwrap(), &stem).unwrap() {
            work.push((g.transcript(&case), truth.clone()));
        }
    }
    let core = std::fs::read_to_string(root.join("tests/golden/E11/core-invariants.md")).ok();
    let start = Instant::now();
    let mut n = 0usize;
    while start.elapsed() < Duration::from_secs(3) {
        for (t, truth) in &work {
            let ctx = CheckContext {
                truth,
                core_invariants: core.as_deref(),
            };
            std::hint::black_box(checkers::check(t, &ctx).unwrap());
            n += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} distinct transcripts, {n} checks in {secs:.2} s on one thread: {:.0} transcripts/s",
        work.len(),
        n as f64 / secs
    );
}
