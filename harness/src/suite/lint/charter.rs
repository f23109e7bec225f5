//! `harness lint charter`: a reasoning charter's structure (runtime marker, semver version line,
//! Core Invariants, every listed E-case has a checker and every checker's case is listed) and,
//! against a base revision, its own versioning rules.

use super::{line_where, Finding};
use crate::suite::charter::{headings, section, RUNTIME_MARKER};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

static VERSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?mi)^[#*\s_]*version\s*:?\s*v?(\S+)").unwrap());
/// A rule's substance: its numbers and its absolute words. A change to one of them is a rule
/// change (a threshold, a "never" dropped), not wording.
static SUBSTANCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:\d+(?:[.,]\d+)*%?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|never|always|must|only|stop|none)\b").unwrap()
});
/// A numbered or bulleted item: one rule, step or check.
static ITEM: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:\d+\.|[-*•])\s+\S").unwrap());
/// The sections whose items are the charter's rules (Core Invariants are counted apart).
const RULE_SECTIONS: [&str; 5] = [
    "Purpose & Scope",
    "Reasoning Procedures",
    "Verification Protocols",
    "Composition",
    "Usage Rules",
];
static E_CASE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bE(\d{1,3})\s*[—–-]\s*\S").unwrap());
static PROTOCOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*]\s+)?\**([A-Z])\**(?:\s*[—–:-]\s*|\s+)\**[A-Z][a-z]").unwrap()
});

/// What versioning cares about in a charter.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    pub version: Option<semver::Version>,
    pub version_text: Option<String>,
    pub core_invariants: Option<String>,
    pub protocols: BTreeSet<char>,
    pub cases: BTreeSet<u32>,
    pub registry_rows: Vec<String>,
    pub has_marker: bool,
    /// Per rule section: how many items (rules, steps, checks) it holds.
    pub rule_items: Vec<(String, usize)>,
    /// The rule sections' numbers and absolute words, in order.
    pub substance: Vec<String>,
}

/// The version as semver (the `semver` crate: a pre-release sorts before its release).
fn semver(v: &str) -> Option<semver::Version> {
    semver::Version::parse(v).ok()
}

/// What versioning cares about, read from the charter with its fenced code blocks blanked: a
/// version line or a registry row inside a code block is an example, not the charter's own.
/// A byte-order mark is read as such; line endings are the reader's, not content.
pub fn outline(text: &str) -> Outline {
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let text = &super::markdown::without_fences(&text);
    let version_text = VERSION
        .captures(text)
        .map(|c| c[1].trim_end_matches(['—', '-', ',']).to_string());
    let protocols = section(text, "Verification Protocols")
        .map(|s| {
            s.lines()
                .filter_map(|l| PROTOCOL.captures(l).and_then(|c| c[1].chars().next()))
                .collect()
        })
        .unwrap_or_default();
    let cases = section(text, "Evaluation Harness")
        .map(|s| {
            E_CASE
                .captures_iter(&s)
                .filter_map(|c| c[1].parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let registry_rows = registry_section(text)
        .map(|s| {
            s.lines()
                .map(str::trim)
                .filter(|l| {
                    !l.is_empty()
                        && !l.starts_with("|---")
                        && !l.starts_with("| ---")
                        && !l
                            .to_ascii_lowercase()
                            .replace(['|', ' '], "")
                            .starts_with("failuremodesignature")
                })
                .map(|l| {
                    l.trim_matches('|')
                        .split('|')
                        .next()
                        .unwrap_or(l)
                        .split('\t')
                        .next()
                        .unwrap_or(l)
                        .trim()
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default();
    Outline {
        version: version_text.as_deref().and_then(semver),
        version_text,
        core_invariants: section(text, "Core Invariants")
            .map(|s| checkers::extract::text::normalize_ws(&s)),
        protocols,
        cases,
        registry_rows,
        has_marker: text.lines().any(|l| l.contains(RUNTIME_MARKER)),
        rule_items: RULE_SECTIONS
            .iter()
            .map(|s| {
                let n =
                    section(text, s).map_or(0, |b| b.lines().filter(|l| ITEM.is_match(l)).count());
                (s.to_string(), n)
            })
            .collect(),
        substance: RULE_SECTIONS
            .iter()
            .filter_map(|s| section(text, s))
            .flat_map(|b| {
                SUBSTANCE
                    .find_iter(&b)
                    .map(|m| m.as_str().to_lowercase())
                    .collect::<Vec<_>>()
            })
            .collect(),
    }
}

/// The Failure-Mode Registry's rows, in every form the charter uses: a Markdown table, a
/// rendered page's lines (columns run together, or tab-separated), a list. The table's header
/// line on a rendered page reads like a heading ("Failure mode Signature Mitigation"); the
/// registry runs on through it to the next section.
fn registry_section(text: &str) -> Option<String> {
    let hs = headings(text);
    let pos = hs
        .iter()
        .position(|(_, h)| h.eq_ignore_ascii_case("Failure-Mode Registry"))?;
    let start = hs[pos].0 + 1;
    let is_header = |h: &str| {
        h.to_ascii_lowercase()
            .replace(['|', ' ', '\t'], "")
            .starts_with("failuremode")
    };
    let end = hs[pos + 1..]
        .iter()
        .find(|(_, h)| !is_header(h))
        .map_or(usize::MAX, |(i, _)| *i);
    crate::suite::charter::lines_between(text, start, end)
}

/// Structural findings, and versioning findings when `base` (the charter at a revision) is given.
pub fn lint(path: &str, text: &str, base: Option<(&str, &str)>) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(f) = text_before_title(path, text) {
        out.push(f);
    }
    let o = outline(text);
    let mut find = |line: usize, rule: &'static str, message: String, fix: String| {
        out.push(Finding::error(path, line, rule, message, fix))
    };
    if !o.has_marker {
        find(
            text.lines().count().max(1),
            "charter/runtime-marker",
            format!("no line holds \"{RUNTIME_MARKER}\""),
            "add the runtime marker line between the runtime sections and the maintainers' part"
                .into(),
        );
    }
    let vline = line_where(text, |l| VERSION.is_match(l));
    match (&o.version_text, &o.version) {
        (None, _) => find(
            1,
            "charter/version-line",
            "no version line".into(),
            "add a line \"Version MAJOR.MINOR.PATCH — DATE\" under the title".into(),
        ),
        (Some(v), None) => find(
            vline,
            "charter/version-semver",
            format!("version {v:?} is not semver"),
            "write the version as MAJOR.MINOR.PATCH, e.g. 0.2.0".into(),
        ),
        _ => {}
    }
    if o.core_invariants.is_none() {
        find(
            1,
            "charter/core-invariants",
            "no \"Core Invariants\" section".into(),
            "add a Core Invariants heading with the invariants under it".into(),
        );
    }
    let harness_line = headings(text)
        .into_iter()
        .find(|(_, h)| h.eq_ignore_ascii_case("Evaluation Harness"))
        .map_or(1, |(i, _)| i + 1);
    let listed: BTreeSet<String> = o.cases.iter().map(|n| format!("E{n}")).collect();
    for case in &listed {
        if checkers::checker_for(case).is_err() {
            let line = line_where(text, |l| {
                l.contains(&format!("{case} —")) || l.contains(&format!("{case} -"))
            });
            find(line, "charter/case-without-checker", format!("{case} is listed in the Evaluation Harness but this harness has no checker for it"), format!("add checkers/src/e{:02}.rs, cases/{case}.toml and golden transcripts, then register it", case[1..].parse::<u32>().unwrap_or(0)));
        }
    }
    for id in checkers::CASE_IDS {
        if !listed.contains(id) {
            find(
                harness_line,
                "charter/checker-without-case",
                format!(
                    "the harness checks {id}, but the Evaluation Harness section does not list it"
                ),
                format!("list {id} in the Evaluation Harness, or retire its checker"),
            );
        }
    }
    if let Some((rev, base_text)) = base {
        out.extend(versioning(
            path,
            text,
            &o,
            rev,
            &outline(base_text),
            base_text != text,
        ));
    }
    out
}

/// Lines above the charter's title: a charter copied from a web page brings the page's own
/// lines ("Skip to content", "Latest commit", "History", "Raw"), and everything above the
/// runtime marker is sent as the system prompt. A warning: a preamble may be meant.
fn text_before_title(path: &str, text: &str) -> Option<Finding> {
    let (at, title) = crate::suite::charter::title(text)?;
    let before: Vec<&str> = text
        .lines()
        .take(at)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let first = *before.first()?;
    let shown: Vec<String> = before.iter().take(4).map(|l| format!("{l:?}")).collect();
    let more = if before.len() > 4 { ", …" } else { "" };
    Some(Finding {
        path: path.to_string(),
        line: line_where(text, |l| l.trim() == first),
        severity: super::Severity::Warn,
        rule: "charter/text-before-title",
        message: format!(
            "{} line(s) precede the title {title:?} (line {}): {}{more} — page chrome copied with the charter? It is sent to every model as part of the system prompt",
            before.len(),
            at + 1,
            shown.join(", ")
        ),
        fix: format!("delete everything above the line {title:?}"),
    })
}

/// The start of the system prompt `run` would send for this charter, for `lint charter` to
/// show: where the runtime text ends, its size and sha256 prefix, and its first lines.
pub fn prompt_preview(text: &str, lines: usize) -> Option<String> {
    let c = crate::suite::charter::parse("", text).ok()?;
    let total = c.runtime.lines().count();
    let mut out = format!(
        "system prompt it would send: lines 1–{total} (everything above the runtime marker), {} bytes, runtime sha256 {}; its first lines:\n",
        c.runtime.len(),
        &c.sha256[..12]
    );
    for (i, l) in c
        .runtime
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(lines)
    {
        out.push_str(&format!("  {:>4} | {l}\n", i + 1));
    }
    Some(out)
}

/// The charter's own versioning rules between `base` and `head`.
fn versioning(
    path: &str,
    text: &str,
    head: &Outline,
    rev: &str,
    base: &Outline,
    changed: bool,
) -> Vec<Finding> {
    let new_cases: Vec<u32> = head.cases.difference(&base.cases).copied().collect();
    let Some((required, why)) = required_bump(head, base, &new_cases, changed) else {
        return Vec::new();
    };
    let vline = line_where(text, |l| VERSION.is_match(l));
    let mut out = Vec::new();
    out.extend(version_finding(
        path, vline, rev, base, head, required, &why,
    ));
    out.extend(registry_finding(path, text, head, base, &new_cases));
    out
}

/// The bump the change needs (0 patch, 1 minor, 2 major) and why; None when nothing changed.
fn required_bump(
    head: &Outline,
    base: &Outline,
    new_cases: &[u32],
    changed: bool,
) -> Option<(usize, String)> {
    let new_protocols: Vec<char> = head
        .protocols
        .difference(&base.protocols)
        .copied()
        .collect();
    let gone_protocols: Vec<char> = base
        .protocols
        .difference(&head.protocols)
        .copied()
        .collect();
    let gone_cases: Vec<u32> = base.cases.difference(&head.cases).copied().collect();
    let gone_rules: Vec<String> = base
        .rule_items
        .iter()
        .zip(&head.rule_items)
        .filter(|((_, b), (_, h))| h < b)
        .map(|((s, b), (_, h))| format!("{} rule(s) of {s}", b - h))
        .collect();
    if head.core_invariants != base.core_invariants {
        Some((2, "Core Invariants changed".to_string()))
    } else if !new_cases.is_empty() || !new_protocols.is_empty() {
        let mut what = Vec::new();
        what.extend(new_cases.iter().map(|c| format!("E{c}")));
        what.extend(new_protocols.iter().map(|p| format!("protocol {p}")));
        Some((1, format!("new {}", what.join(", "))))
    } else if !gone_cases.is_empty() || !gone_protocols.is_empty() || !gone_rules.is_empty() {
        let mut what = Vec::new();
        what.extend(gone_cases.iter().map(|c| format!("E{c}")));
        what.extend(gone_protocols.iter().map(|p| format!("protocol {p}")));
        what.extend(gone_rules);
        Some((
            1,
            format!("deleted {} (a rule change, not wording)", what.join(", ")),
        ))
    } else if head.substance != base.substance {
        Some((
            1,
            "a rule's substance changed (a number, or never/always/must/only/stop), not its wording"
                .to_string(),
        ))
    } else if changed {
        Some((0, "wording changed".to_string()))
    } else {
        None
    }
}

/// The head's version must increase on the base's by at least the `required` level.
fn version_finding(
    path: &str,
    vline: usize,
    rev: &str,
    base: &Outline,
    head: &Outline,
    required: usize,
    why: &str,
) -> Option<Finding> {
    let f =
        |line, rule, message: String, fix: String| Finding::error(path, line, rule, message, fix);
    let level = ["patch", "minor", "major"];
    let (Some(b), Some(h)) = (base.version.clone(), head.version.clone()) else {
        return Some(f(
            vline,
            "charter/version-increase",
            format!("cannot compare versions with {rev}"),
            "give both revisions a semver version line".into(),
        ));
    };
    if h <= b {
        return Some(f(
            vline,
            "charter/version-increase",
            format!("version {h} does not increase on {rev}'s {b}"),
            format!("bump to at least {}", bump(&b, required)),
        ));
    }
    // A release of a pre-release (0.2.0-rc.1 → 0.2.0) counts as the level the pre-release
    // already claimed over the release before it.
    let got = if h.major > b.major {
        2
    } else if h.minor > b.minor {
        1
    } else if h.patch > b.patch || b.patch > 0 {
        0
    } else if b.minor > 0 {
        1
    } else {
        2
    };
    (got < required).then(|| {
        f(
            vline,
            "charter/version-bump",
            format!(
                "{why}: that needs a {} bump, but {b} → {h} is a {}",
                level[required], level[got]
            ),
            format!("bump to {}", bump(&b, required)),
        )
    })
}

/// New E-cases and new Failure-Mode Registry rows come in pairs, in the same change.
fn registry_finding(
    path: &str,
    text: &str,
    head: &Outline,
    base: &Outline,
    new_cases: &[u32],
) -> Option<Finding> {
    let f =
        |line, rule, message: String, fix: String| Finding::error(path, line, rule, message, fix);
    let new_rows: Vec<&String> = head
        .registry_rows
        .iter()
        .filter(|r| !base.registry_rows.contains(r))
        .collect();
    if new_cases.len() > new_rows.len() {
        let line = line_where(text, |l| {
            l.trim() == "Failure-Mode Registry"
                || l.trim_start_matches('#').trim() == "Failure-Mode Registry"
        });
        Some(f(line, "charter/case-needs-registry-row", format!("{} new E-case(s) ({}) but {} new Failure-Mode Registry row(s)", new_cases.len(), new_cases.iter().map(|c| format!("E{c}")).collect::<Vec<_>>().join(", "), new_rows.len()), "add one registry row (failure mode | signature | mitigation) per new E-case in the same change".into()))
    } else if new_rows.len() > new_cases.len() {
        let line = line_where(text, |l| l.contains(new_rows[0].as_str()));
        Some(f(
            line,
            "charter/registry-row-needs-case",
            format!(
                "{} new registry row(s) ({}) but {} new E-case(s)",
                new_rows.len(),
                new_rows
                    .iter()
                    .map(|r| format!("{r:?}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                new_cases.len()
            ),
            "add one E-case with its checker per new registry row in the same change".into(),
        ))
    } else {
        None
    }
}

fn bump(b: &semver::Version, level: usize) -> String {
    match level {
        2 => format!("{}.0.0", b.major + 1),
        1 => format!("{}.{}.0", b.major, b.minor + 1),
        _ => format!("{}.{}.{}", b.major, b.minor, b.patch + 1),
    }
}
