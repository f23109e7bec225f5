//! `harness lint charter`: a reasoning charter's structure (runtime marker, semver version line,
//! Core Invariants, every listed E-case has a checker and every checker's case is listed, the
//! criteria's own regexes) and, against a base revision, its own versioning rules, with the
//! rules compared as structure (`rules`).

use super::{line_where, Finding};
use crate::suite::charter::{headings, section, RUNTIME_MARKER};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// The version line as people write it: `Version 0.2.0 — date`, `**Version:** 0.2.0`,
/// `**Version 0.2.0**`, `*Version* v0.2.0 (date)`; emphasis around the label or the number is
/// Markdown, not part of the version.
static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?mi)^[#>*\s_]*version[*_]*\s*:?[*_\s]*v?([^\s*_]\S*?)[*_]*(?:\s|$)").unwrap()
});
/// A numbered or bulleted item: one rule, step or check.
static ITEM: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:\d+\.|[-*•])\s+\S").unwrap());
use super::rules::RULE_SECTIONS;
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
    }
}

/// The E-cases a charter lists in its Evaluation Harness that this harness version has no
/// checker for (`E14`), in order: `run` and `gate` say so before any model is called and the gate
/// fails for them. One small function over the outline, for the lint rewrite to replace.
pub fn untestable_cases(text: &str) -> Vec<String> {
    let listed: BTreeSet<u32> = outline(text).cases.into_iter().collect();
    listed
        .into_iter()
        .map(|n| format!("E{n}"))
        .filter(|case| checkers::checker_for(case).is_err())
        .collect()
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
    out.extend(super::patterns::lint(path, text));
    if let Some((rev, base_text)) = base {
        let base = Base {
            text: base_text,
            outline: outline(base_text),
        };
        out.extend(versioning(path, text, &o, rev, &base));
    }
    out
}

/// Lines above the charter's title: a charter copied from a web page brings the page's own
/// lines ("Skip to content", "Latest commit", "History", "Raw"), and everything above the
/// runtime marker is sent as the system prompt. A warning: a preamble may be meant. `run`
/// gives the same warning before it sends the charter.
pub fn text_before_title(path: &str, text: &str) -> Option<Finding> {
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

/// The charter's own versioning rules between `base` and `head`: the bump structure decides,
/// and a question for a reviewer for every reworded rule whose readings need different bumps.
fn versioning(path: &str, text: &str, head: &Outline, rev: &str, base: &Base) -> Vec<Finding> {
    let new_cases: Vec<u32> = head
        .cases
        .difference(&base.outline.cases)
        .copied()
        .collect();
    let rule_diffs = super::rules::diff(base.text, text);
    let Some((required, why)) = required_bump(
        head,
        &base.outline,
        &new_cases,
        &rule_diffs,
        base.text != text,
    ) else {
        return Vec::new();
    };
    let vline = line_where(text, |l| VERSION.is_match(l));
    let made = made_bump(&base.outline, head);
    let mut out = Vec::new();
    out.extend(version_finding(
        path,
        vline,
        rev,
        &base.outline,
        head,
        required,
        &why,
    ));
    // A reworded rule is wording (patch) or a rule change (minor). Only when the bump made
    // and the decided bump are both below minor do the readings disagree about the version.
    if required < 1 && made.is_some_and(|m| m < 1) {
        let b = base
            .outline
            .version
            .as_ref()
            .map_or(String::new(), |v| v.to_string());
        let h = head
            .version
            .as_ref()
            .map_or(String::new(), |v| v.to_string());
        for d in &rule_diffs {
            if let super::rules::Change::Question(what) = &d.change {
                out.push(reworded_finding(path, text, d, what, &b, &h));
            }
        }
    }
    out.extend(registry_finding(
        path,
        text,
        head,
        &base.outline,
        &new_cases,
    ));
    out
}

/// The base revision's charter, as text and as outline.
struct Base<'a> {
    text: &'a str,
    outline: Outline,
}

/// One reworded rule, for a person: the rule, old and new side by side, the bump each reading
/// needs and the one the change made; the linter claims neither reading.
fn reworded_finding(
    path: &str,
    text: &str,
    d: &super::rules::RuleDiff,
    what: &str,
    b: &str,
    h: &str,
) -> Finding {
    let shown = |t: &Option<String>| {
        t.as_deref()
            .map_or("(none)".to_string(), |t| format!("«{t}»"))
    };
    let first = d.new.as_deref().or(d.old.as_deref()).unwrap_or("");
    let probe: String = first.chars().take(40).collect();
    let line = line_where(text, |l| l.contains(probe.trim()));
    let minor = semver::Version::parse(b).map_or("a minor version".to_string(), |v| bump(&v, 1));
    Finding::needs_reviewer(
        path,
        line,
        "charter/reworded-rule",
        format!(
            "{}: {what}. Old {} → new {}. If it still requires the same, this is wording (a patch bump); if it changes what the rule requires, it is a rule change (a minor bump). This change bumps {b} → {h} (patch)",
            d.label,
            shown(&d.old),
            shown(&d.new)
        ),
        format!("a reviewer decides: if the meaning changed, bump to {minor}; if not, nothing to do"),
    )
}

/// The bump the change needs (0 patch, 1 minor, 2 major) and why; None when nothing changed.
fn required_bump(
    head: &Outline,
    base: &Outline,
    new_cases: &[u32],
    rules: &[super::rules::RuleDiff],
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
    let decided: Vec<String> = rules
        .iter()
        .filter_map(|d| match &d.change {
            super::rules::Change::Decided(why) => Some(format!("{}: {why}", d.label)),
            _ => None,
        })
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
    } else if !decided.is_empty() {
        Some((1, format!("a rule changed ({})", decided.join("; "))))
    } else if changed {
        Some((0, "wording changed".to_string()))
    } else {
        None
    }
}

/// The level of the bump from base to head (0 patch, 1 minor, 2 major), or None when the head
/// does not increase on the base by semver precedence (build metadata is not an increase).
fn made_bump(base: &Outline, head: &Outline) -> Option<usize> {
    let (b, h) = (base.version.as_ref()?, head.version.as_ref()?);
    if h.cmp_precedence(b) != std::cmp::Ordering::Greater {
        return None;
    }
    // A release of a pre-release (0.2.0-rc.1 → 0.2.0) counts as the level the pre-release
    // already claimed over the release before it.
    Some(if h.major > b.major {
        2
    } else if h.minor > b.minor {
        1
    } else if h.patch > b.patch || b.patch > 0 {
        0
    } else if b.minor > 0 {
        1
    } else {
        2
    })
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
    let Some(got) = made_bump(base, head) else {
        let build = if h.cmp_precedence(&b) == std::cmp::Ordering::Equal && !h.build.is_empty() {
            " (build metadata does not change a version's precedence)"
        } else {
            ""
        };
        return Some(f(
            vline,
            "charter/version-increase",
            format!("version {h} does not increase on {rev}'s {b}{build}"),
            format!("bump to at least {}", bump(&b, required)),
        ));
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
