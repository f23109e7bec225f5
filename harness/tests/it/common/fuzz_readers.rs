//! Mutation fuzzing of every reader of untrusted files (manifest, case, charter, capsule,
//! transcript, run.json, summary.json, labels), shared by the property test (a few seconds in
//! `cargo test`) and `examples/fuzz_campaign.rs` (a longer campaign). Each execution writes a
//! mutated seed into a fresh folder, runs the reader, and records a finding for a panic, an
//! error without problem text, a reader that changed its input, or an execution slower than
//! `SLOW`. An abort (out of memory) ends the process, and so the campaign, visibly.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A hang guard, not a speed bound (a loaded 2-core machine runs the debug build several
/// times slower): a reader that takes this long on one mutated input never ends in practice.
pub const SLOW: Duration = Duration::from_secs(60);

/// The readers, by name.
pub const READERS: [&str; 8] = [
    "manifest",
    "case",
    "charter",
    "capsule",
    "transcript",
    "run.json",
    "summary.json",
    "labels",
];

/// Tokens spliced into inputs: the shapes of the campaign's defects and their neighbours.
const TOKENS: [&str; 24] = [
    "&a ",
    "*a",
    "[*a, *a]",
    "\u{1}",
    "\u{7f}",
    "\r",
    "\u{feff}",
    "{{",
    "[[",
    "]]",
    "4294967295",
    "100001",
    "-1",
    "1e309",
    "\"",
    "'''",
    "\n---\n",
    "```\n",
    "## Identity\n",
    "Version 0.2.0-rc.1",
    "E14 — x",
    "\t",
    "\u{0}",
    "null",
];

/// A small deterministic generator (xorshift64*), so a campaign can be repeated from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One mutation of `seed`: byte flips, inserted tokens or bytes, deleted or duplicated ranges,
/// deep nesting; one to four of them.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(7) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            2 if !b.is_empty() => {
                let end = (at + rng.below(64)).min(b.len());
                b.drain(at.min(end)..end);
            }
            3 if !b.is_empty() => {
                let end = (at + rng.below(256)).min(b.len());
                let piece = b[at.min(end)..end].to_vec();
                b.splice(at..at, piece);
            }
            4 => {
                let n = 1 + rng.below(200);
                let open = if rng.below(2) == 0 { "[" } else { "{" };
                b.splice(at..at, open.repeat(n).into_bytes());
            }
            5 => b.truncate(at),
            _ => {
                let n = rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                b.splice(at..at, bytes);
            }
        }
    }
    b
}

/// The valid inputs mutations start from, per reader.
pub fn seeds(root: &Path, bin: &Path) -> Vec<(&'static str, Vec<u8>)> {
    let read = |p: &str| std::fs::read(root.join(p)).unwrap();
    let run = offline_run_folder(root, Some(bin));
    let transcript = std::fs::read(first_transcript(&run)).unwrap();
    let label = "{\"transcript\":\"t.json\",\"label\":\"pass\",\"note\":\"n\"}\n{\"transcript\":\"t.json\",\"label\":\"fail\"}";
    vec![
        ("manifest", read("manifests/offline.toml")),
        ("case", read("cases/E1.toml")),
        (
            "charter",
            read("fixtures/charters/reasoning-charter-0.1.0.md"),
        ),
        ("charter", read("fixtures/charters/example-charter.md")),
        ("capsule", read("harness/tests/lint/capsule/good-locked.md")),
        (
            "capsule",
            read("harness/tests/lint/blind/capsules/10-valid-optional-fields.md"),
        ),
        ("transcript", transcript),
        ("run.json", std::fs::read(run.join("run.json")).unwrap()),
        (
            "summary.json",
            std::fs::read(run.join("summary.json")).unwrap(),
        ),
        ("labels", label.as_bytes().to_vec()),
    ]
}

/// A finished offline run of E1 with one trial, made once per process with `bin`.
fn offline_run_folder(root: &Path, bin: Option<&Path>) -> PathBuf {
    static RUN: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        let o = std::process::Command::new(bin.expect("the harness binary"))
            .args([
                "run",
                "--matrix",
                "manifests/offline.toml",
                "--case",
                "E1",
                "--trials",
                "1",
            ])
            .arg("--out")
            .arg(&run)
            .current_dir(root)
            .output()
            .expect("the harness binary runs");
        assert!(
            run.join("summary.json").is_file(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (dir, run)
    })
    .1
    .clone()
}

fn first_transcript(run: &Path) -> PathBuf {
    let mut stack = vec![run.join("transcripts")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                return p;
            }
        }
    }
    panic!("no transcript in {}", run.display())
}

/// What one execution found, if anything.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    Panic(String),
    EmptyError(String),
    Overwrite,
    Slow(Duration),
}

/// Run `reader` on `bytes` in a fresh folder.
pub fn execute(root: &Path, reader: &str, bytes: &[u8]) -> Option<Finding> {
    let dir = tempfile::tempdir().unwrap();
    let name = match reader {
        "manifest" | "case" => "input.toml",
        "charter" => "CHARTER.md",
        "capsule" => "capsule.md",
        "labels" => "labels.jsonl",
        "run.json" => "run.json",
        "summary.json" => "summary.json",
        _ => "trial-1.json",
    };
    let file = dir.path().join(name);
    std::fs::write(&file, bytes).unwrap();
    if reader == "labels" {
        let t = std::fs::read(first_transcript(&offline_run_folder(root, None))).unwrap();
        std::fs::write(dir.path().join("t.json"), t).unwrap();
    }
    let start = Instant::now();
    let result = std::panic::catch_unwind(|| read_with(root, reader, &file, bytes));
    let took = start.elapsed();
    match result {
        Err(p) => Some(Finding::Panic(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        )),
        Ok(Err(e)) if empty(&e) => Some(Finding::EmptyError(e)),
        Ok(_) if std::fs::read(&file).ok().as_deref() != Some(bytes) => Some(Finding::Overwrite),
        Ok(_) if took > SLOW => Some(Finding::Slow(took)),
        Ok(_) => None,
    }
}

/// An error without problem text: nothing after the last "file[, line N]: ".
fn empty(e: &str) -> bool {
    let t = e.trim();
    t.is_empty() || t.ends_with(':') || t.ends_with(": ")
}

fn read_with(root: &Path, reader: &str, file: &Path, bytes: &[u8]) -> Result<(), String> {
    let s = |e: harness::error::Error| e.to_string();
    let text = || String::from_utf8_lossy(bytes).into_owned();
    match reader {
        "manifest" => harness::suite::manifest::load(file).map(|_| ()).map_err(s),
        "case" => harness::suite::load_case(root, file, "E1")
            .map(|_| ())
            .map_err(s),
        "charter" => {
            let t = harness::files::read::read_text(file, harness::files::read::Kind::Charter)
                .map_err(s)?;
            let base =
                std::fs::read_to_string(root.join("fixtures/charters/reasoning-charter-0.1.0.md"))
                    .unwrap();
            let _ = harness::suite::lint::charter::lint("CHARTER.md", &t, Some(("HEAD", &base)));
            harness::suite::charter::parse("CHARTER.md", &t)
                .map(|_| ())
                .map_err(s)
        }
        "capsule" => {
            let base =
                std::fs::read_to_string(root.join("harness/tests/lint/capsule/good-locked.md"))
                    .unwrap();
            let findings = harness::suite::lint::capsule::lint(
                "c.md",
                &text(),
                true,
                Some(("HEAD", Some(&base))),
            );
            match findings.iter().find(|f| f.message.trim().is_empty()) {
                Some(f) => Err(format!("{}: ", f.rule)),
                None => Ok(()),
            }
        }
        "transcript" => harness::store::read_transcript(file).map(|_| ()).map_err(s),
        "run.json" => harness::store::record::RunRecord::read(file)
            .map(|_| ())
            .map_err(s),
        "summary.json" => harness::store::record::Summary::read(file)
            .map(|_| ())
            .map_err(s),
        "labels" => {
            let suite = suite(root);
            harness::inspect::calibrate::calibrate(&[file.parent().unwrap().to_path_buf()], suite)
                .map(|_| ())
                .map_err(s)
        }
        other => panic!("no reader {other}"),
    }
}

fn suite(root: &Path) -> &'static harness::suite::Suite {
    static SUITE: std::sync::OnceLock<harness::suite::Suite> = std::sync::OnceLock::new();
    SUITE.get_or_init(|| harness::suite::Suite::load(root).unwrap())
}

/// Executions and findings of one reader.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub executions: usize,
    pub findings: Vec<(Finding, Vec<u8>)>,
}

/// Run mutations of every seed until `budget` runs out (at least `min_per_reader` executions a
/// reader), round-robin over the readers.
pub fn campaign(
    root: &Path,
    bin: &Path,
    seed: u64,
    budget: Duration,
    min_per_reader: usize,
) -> std::collections::BTreeMap<&'static str, Tally> {
    let seeds = seeds(root, bin);
    let mut rng = Rng::new(seed);
    let mut out: std::collections::BTreeMap<&'static str, Tally> =
        READERS.iter().map(|r| (*r, Tally::default())).collect();
    let start = Instant::now();
    // A panic is a finding, not noise on the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let mut round = 0usize;
    loop {
        for reader in READERS {
            let mine: Vec<&Vec<u8>> = seeds
                .iter()
                .filter(|(r, _)| *r == reader)
                .map(|(_, b)| b)
                .collect();
            let input = mutate(mine[round % mine.len()], &mut rng);
            let t = out.get_mut(reader).unwrap();
            t.executions += 1;
            if let Some(f) = execute(root, reader, &input) {
                t.findings.push((f, input));
            }
        }
        round += 1;
        let enough = out.values().all(|t| t.executions >= min_per_reader);
        if enough && start.elapsed() >= budget {
            break;
        }
    }
    let _ = std::panic::take_hook();
    out
}
