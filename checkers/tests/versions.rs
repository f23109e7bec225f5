//! Versions by behaviour. `versions.lock` records, for every checker version, the sha256 of the
//! case file it was written against and its behavioural fingerprint: the digest of its verdicts
//! (every criterion, detail and final figure; version, source digest and the spans in `evidence`
//! left out) on the golden
//! and labelled corpora. A changed case file or a changed verdict without a version bump and a
//! new lock line fails here.
//!
//! The lock is append-only: a new version adds a line, old lines stay as history (lines with
//! three fields predate fingerprints). To print the lines for the current versions — never
//! written by the test —
//! `CHECKERS_LOCK=print cargo test -p checkers --test versions -- --nocapture`.

mod common;

use checkers::{CheckContext, Verdict};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// One lock line: the case file's sha256 and, since fingerprints exist, the verdicts' digest.
#[derive(Debug, Clone, PartialEq)]
struct Locked {
    case_sha256: String,
    fingerprint: Option<String>,
}

type Lock = BTreeMap<(String, String), Locked>;

fn parse_lock(text: &str) -> Result<Lock, String> {
    let mut out = BTreeMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 && f.len() != 4 {
            return Err(format!(
                "versions.lock line {}: want `case version case-sha256 [fingerprint]`",
                n + 1
            ));
        }
        let key = (f[0].to_string(), f[1].to_string());
        let locked = Locked {
            case_sha256: f[2].to_string(),
            fingerprint: f.get(3).map(|s| s.to_string()),
        };
        if out.insert(key, locked).is_some() {
            return Err(format!(
                "versions.lock line {}: {} {} is listed twice (a new verdict needs a new version)",
                n + 1,
                f[0],
                f[1]
            ));
        }
    }
    Ok(out)
}

/// `1.2.0` → `1.2.1`.
fn next_patch(version: &str) -> String {
    let mut parts: Vec<u64> = version.split('.').filter_map(|p| p.parse().ok()).collect();
    if let Some(last) = parts.last_mut() {
        *last += 1;
    }
    parts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// What a checker is now: its case, version, case-file sha256 and fingerprint.
#[derive(Clone)]
struct Current {
    case: String,
    version: String,
    case_sha256: String,
    fingerprint: String,
}

impl Current {
    fn line(&self) -> String {
        format!(
            "{:<5} {:<8} {} {}",
            self.case, self.version, self.case_sha256, self.fingerprint
        )
    }
}

/// Everything wrong with the lock for the checkers as they are now.
fn problems(lock: &Lock, current: &[Current]) -> Vec<String> {
    let mut out = Vec::new();
    for c in current {
        let add = format!("append `{}` to versions.lock", c.line());
        let next = next_patch(&c.version);
        match lock.get(&(c.case.clone(), c.version.clone())) {
            None => out.push(format!("versions.lock has no line for {} {}: {add}", c.case, c.version)),
            Some(l) if l.case_sha256 != c.case_sha256 => out.push(format!(
                "cases/{}.toml changed since checker {} {} was locked: bump its VERSION and {add}",
                c.case, c.case, c.version
            )),
            Some(l) if l.fingerprint.as_deref() != Some(c.fingerprint.as_str()) => out.push(format!(
                "the verdicts of checker {} {} on the golden and labelled corpora changed (fingerprint {}, locked {}): bump its VERSION (to {next} at least) and append `{}` to versions.lock",
                c.case,
                c.version,
                &c.fingerprint[..12],
                l.fingerprint.as_deref().map_or("none", |f| &f[..f.len().min(12)]),
                Current { version: next.clone(), ..c.clone() }.line(),
            )),
            Some(_) => {}
        }
    }
    out
}

/// A verdict as the fingerprint sees it: its version and source digest left out, since the
/// fingerprint is what they must be bumped for.
fn behaviour(v: &Verdict) -> String {
    let mut v = v.clone();
    v.checker_version.clear();
    v.checker_source_sha256.clear();
    // `evidence` records the spans a criterion read (issue 50), not what it decided: the
    // fingerprint is the decision (pass, detail, final figure), so a new span moves no version.
    for c in v.criteria.iter_mut() {
        c.evidence.clear();
    }
    serde_json::to_string(&v).unwrap()
}

/// The digest of every verdict of `case`'s checker on the golden and labelled corpora.
fn fingerprint(case: &str) -> String {
    let truth = common::truth(case);
    let core = common::core_invariants(case);
    let ctx = CheckContext {
        truth: &truth,
        core_invariants: core.as_deref(),
    };
    let mut lines: Vec<String> = common::goldens(case)
        .iter()
        .map(|g| {
            let v = checkers::check(&g.transcript(case), &ctx).unwrap();
            format!("golden {}\t{}", g.name, behaviour(&v))
        })
        .collect();
    let bare = CheckContext {
        truth: &truth,
        core_invariants: None,
    };
    for (l, t) in common::labelled() {
        if checkers::registry::normalize_case_id(&t.case) == Some(case) {
            let v = checkers::check(&t, &bare).unwrap();
            lines.push(format!("labelled {}\t{}", l.transcript, behaviour(&v)));
        }
    }
    lines.sort();
    let mut h = Sha256::new();
    for l in &lines {
        h.update(l.as_bytes());
        h.update(b"\n");
    }
    format!("{:x}", h.finalize())
}

/// The case file as its checker reads it: without the `rules = [...]` line, which names the
/// charter rules the case tests for the harness (registry rows, the charter-reading scripted
/// model) and which no checker reads, so adding or editing it needs no checker bump.
fn checker_input(path: &std::path::Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap();
    let kept: Vec<&str> = text
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("rules = "))
        .collect();
    kept.concat().into_bytes()
}

fn current() -> Vec<Current> {
    checkers::registry::CHECKERS
        .iter()
        .map(|c| {
            let path = common::root()
                .join("../cases")
                .join(format!("{}.toml", c.case));
            Current {
                case: c.case.to_string(),
                version: c.version.to_string(),
                case_sha256: format!("{:x}", Sha256::digest(checker_input(&path))),
                fingerprint: fingerprint(c.case),
            }
        })
        .collect()
}

#[test]
fn every_checker_version_is_locked_to_its_case_file_and_its_verdicts() {
    let current = current();
    if std::env::var("CHECKERS_LOCK").as_deref() == Ok("print") {
        println!("# lines for the current checker versions:");
        for c in &current {
            println!("{}", c.line());
        }
    }
    let text = std::fs::read_to_string(common::root().join("versions.lock")).unwrap();
    let lock = parse_lock(&text).unwrap_or_else(|e| panic!("{e}"));
    let problems = problems(&lock, &current);
    assert!(
        problems.is_empty(),
        "{}\n(print every current line with `CHECKERS_LOCK=print cargo test -p checkers --test versions -- --nocapture`)",
        problems.join("\n")
    );
}

#[test]
fn a_changed_verdict_without_a_version_bump_fails_and_a_bump_with_a_new_line_passes() {
    let now = |version: &str, fingerprint: &str| Current {
        case: "E1".into(),
        version: version.into(),
        case_sha256: "c".repeat(64),
        fingerprint: fingerprint.repeat(64),
    };
    let lock = parse_lock(&format!("E1 1.0.0 {} {}\n", "c".repeat(64), "a".repeat(64))).unwrap();
    assert!(problems(&lock, &[now("1.0.0", "a")]).is_empty());
    // Same version, other verdicts: fails, naming the fix.
    let p = problems(&lock, &[now("1.0.0", "b")]);
    assert!(
        p.len() == 1 && p[0].contains("bump its VERSION (to 1.0.1 at least)"),
        "{p:?}"
    );
    // A bump without a lock line fails; with its line it passes.
    assert_eq!(problems(&lock, &[now("1.0.1", "b")]).len(), 1);
    let bumped = parse_lock(&format!(
        "E1 1.0.0 {c} {a}\nE1 1.0.1 {c} {b}\n",
        c = "c".repeat(64),
        a = "a".repeat(64),
        b = "b".repeat(64)
    ))
    .unwrap();
    assert!(problems(&bumped, &[now("1.0.1", "b")]).is_empty());
    // Rewriting the old version's line instead of bumping is caught as a duplicate.
    assert!(parse_lock(&format!(
        "E1 1.0.0 {c} {a}\nE1 1.0.0 {c} {b}\n",
        c = "c".repeat(64),
        a = "a".repeat(64),
        b = "b".repeat(64)
    ))
    .is_err());
}
