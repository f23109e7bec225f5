//! The behavioural checklist (issue 31): failure rate per unit × capability over generated
//! replies. `cargo run -p checkers --release --example checklist -- [--per-unit N] [--seed S]
//! [--verbose]`; with `--verbose`, a few failing replies per cell.

#[path = "../tests/checklist/mod.rs"]
mod checklist;

use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str, default: u64| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let per_unit = value("--per-unit", 1300) as usize;
    let seed = value("--seed", 31);
    let verbose = args.iter().any(|a| a == "--verbose");
    let env = checklist::Env::load();
    let samples = checklist::generate(seed, per_unit, &env);
    let outcomes = checklist::run(&samples, &env);
    println!(
        "{} generated replies (seed {seed}, {per_unit} per unit)\n",
        outcomes.len()
    );
    println!("{}", checklist::table(&outcomes));
    println!("{}", checklist::by_perturbation(&outcomes));
    if verbose {
        let mut shown: BTreeMap<(&str, &str, String), usize> = BTreeMap::new();
        for o in outcomes.iter().filter(|o| o.is_failure()) {
            let n = shown
                .entry((o.unit, o.capability, o.kind.clone()))
                .or_default();
            *n += 1;
            if *n > 2 {
                continue;
            }
            println!("{}", o.describe());
        }
    }
}
