//! Agreement of the checkers with a labelled corpus in the golden format.
//!
//! `cargo run -p checkers --example corpus -- DIR [--verbose]`: DIR holds `E<N>.toml` files or
//! `E<N>/` folders of golden files. Prints every disagreement with the criteria that decided it,
//! then per unit (case and variant): right, decided wrong, unsure (it needs a label: neither
//! right nor wrong) among the replies labelled pass or fail, and the `either` replies left unsure
//! (for them unsure is right). Case truth is read from `cases/E<N>.toml`.

use checkers::golden::{self, Expect};
use checkers::{CheckContext, Truth};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One unit's figures: right, decided wrong, unsure; `either` replies and how many were unsure.
#[derive(Default)]
struct Unit {
    right: usize,
    wrong: usize,
    unsure: usize,
    either: usize,
    either_unsure: usize,
}

#[derive(Deserialize)]
struct CaseTruth {
    #[serde(default)]
    truth: Truth,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: corpus DIR [--verbose]"));
    let verbose = args.any(|a| a == "--verbose");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if !name.starts_with('E') {
            continue;
        }
        if p.is_dir() {
            for f in std::fs::read_dir(&p).unwrap().flatten() {
                if f.path().extension().is_some_and(|x| x == "toml") {
                    files.push((name.clone(), f.path()));
                }
            }
        } else if p.extension().is_some_and(|x| x == "toml") {
            files.push((name, p));
        }
    }
    files.sort_by_key(|(c, p)| (c[1..].parse::<u32>().unwrap_or(0), p.clone()));
    let (mut total, mut agree_all, mut unsure_all, mut wrong_all) = (0, 0, 0, 0);
    let mut units: BTreeMap<(u32, String), Unit> = BTreeMap::new();
    for (case, file) in &files {
        let text =
            std::fs::read_to_string(root.join("cases").join(format!("{case}.toml"))).unwrap();
        let truth = toml::from_str::<CaseTruth>(&text).unwrap().truth;
        // The Core Invariants the corpus was written against: its own `core-invariants.md`, else
        // the charter the fixtures render (`fixtures/charters/reasoning-charter-0.1.0.md`).
        let core = std::fs::read_to_string(file.with_file_name("core-invariants.md"))
            .ok()
            .or_else(|| fixture_core_invariants(&root));
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: core.as_deref().map(str::trim),
        };
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let goldens = golden::parse(&std::fs::read_to_string(file).unwrap(), &stem)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for g in goldens {
            let v = checkers::check(&g.transcript(case), &ctx).unwrap();
            let label = g.expect == Expect::Pass;
            let unit = units
                .entry((
                    case[1..].parse().unwrap_or(0),
                    format!("{case}-{}", g.variant),
                ))
                .or_default();
            total += 1;
            let failed: Vec<String> = v
                .failed()
                .map(|c| format!("{}: {}", c.name, c.detail))
                .collect();
            // "A careful reader could say either": right when unsure, wrong when decided.
            if g.expect == Expect::Either {
                unit.either += 1;
                if v.unsure() {
                    unit.either_unsure += 1;
                    agree_all += 1;
                } else {
                    wrong_all += 1;
                    println!(
                        "  MISS {case} {}: labelled either, checker {}\n       failed: {failed:?}",
                        g.name,
                        if v.pass { "pass" } else { "fail" }
                    );
                }
                continue;
            }
            if v.unsure() {
                unit.unsure += 1;
                unsure_all += 1;
                println!(
                    "  UNSURE {case} {}: labelled {}\n       unsure: {failed:?}",
                    g.name,
                    if label { "pass" } else { "fail" }
                );
                continue;
            }
            if v.pass == label {
                unit.right += 1;
                agree_all += 1;
                if verbose && !label {
                    println!(
                        "  ok   {case} {} fails {:?}",
                        g.name,
                        v.failed().map(|c| &c.name).collect::<Vec<_>>()
                    );
                }
            } else {
                unit.wrong += 1;
                wrong_all += 1;
                println!(
                    "  MISS {case} {} (class {:?}, {}): labelled {}, checker {}\n       failed: {failed:?}\n       why: {}",
                    g.name,
                    g.class,
                    g.style.as_deref().unwrap_or("-"),
                    if label { "pass" } else { "fail" },
                    if v.pass { "pass" } else { "fail" },
                    g.why.as_deref().unwrap_or("-")
                );
            }
        }
    }
    for ((_, unit), u) in &units {
        println!(
            "{unit}: right {}, decided wrong {}, unsure {}; either unsure {} of {}",
            u.right, u.wrong, u.unsure, u.either_unsure, u.either
        );
    }
    println!(
        "total: {agree_all}/{total} right, {wrong_all} wrong decided, {unsure_all} unsure ({:.1} %)",
        100.0 * unsure_all as f64 / total.max(1) as f64
    );
}

/// The Core Invariants section of the fixture charter, as the harness cuts it: the lines between
/// the `Core Invariants` heading (a plain line in this copy) and the next section.
fn fixture_core_invariants(root: &Path) -> Option<String> {
    let text =
        std::fs::read_to_string(root.join("fixtures/charters/reasoning-charter-0.1.0.md")).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "Core Invariants")? + 1;
    let end = lines[start..]
        .iter()
        .position(|l| l.trim() == "Reasoning Procedures")
        .map_or(lines.len(), |e| start + e);
    Some(lines[start..end].join("\n").trim_matches('\n').to_string())
}
