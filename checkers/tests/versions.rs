//! The checker version must change whenever its case file changes: `versions.lock` records the
//! case file's sha256 for every checker version, and this test fails on drift.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

fn lock() -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("versions.lock"))
        .unwrap();
    let mut out = BTreeMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            f.len(),
            3,
            "versions.lock line {}: want `case version sha256`",
            n + 1
        );
        let prev = out.insert((f[0].to_string(), f[1].to_string()), f[2].to_string());
        assert!(
            prev.is_none(),
            "versions.lock line {}: {} {} is listed twice",
            n + 1,
            f[0],
            f[1]
        );
    }
    out
}

#[test]
fn every_checker_version_is_locked_to_its_case_file() {
    let lock = lock();
    let mut drift = Vec::new();
    for c in checkers::registry::CHECKERS.iter() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cases")
            .join(format!("{}.toml", c.case));
        let sha = format!("{:x}", Sha256::digest(std::fs::read(&path).unwrap()));
        match lock.get(&(c.case.to_string(), c.version.to_string())) {
            Some(locked) if *locked == sha => {}
            Some(_) => drift.push(format!(
                "cases/{}.toml changed since checker {} {} was locked: bump its VERSION and add `{} <new> {sha}` to versions.lock",
                c.case, c.case, c.version, c.case
            )),
            None => drift.push(format!("versions.lock has no line for {} {}: add `{} {} {sha}`", c.case, c.version, c.case, c.version)),
        }
    }
    assert!(drift.is_empty(), "{}", drift.join("\n"));
}
