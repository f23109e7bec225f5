//! `harness lint charter`: a reasoning charter's structure (runtime marker, semver version line,
//! Core Invariants, a checker for every listed E-case and a case for every checker, the
//! criteria's own regexes) and, against a base revision, its own versioning rules. The charter
//! is read as a document (`blocks`): what a reader sees from the title down, so a re-saved,
//! re-wrapped or re-formatted charter is the same charter, and its changes are weighed block by
//! block (`versioning`).

use super::blocks::{self, Doc, Kind};
use super::rules::similarity;
use super::versioning::{self, Change};
use super::{line_where, Finding, Severity};
use crate::suite::charter::RUNTIME_MARKER;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

static E_CASE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bE(\d{1,3})\**\s*[-:]\s*\S").unwrap());
static PROTOCOL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\**([A-Z])\**(?:\s*[-:]\s*|\s+)\**[A-Z][a-z]").unwrap());

/// What versioning cares about in a charter.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    pub version: Option<semver::Version>,
    pub version_text: Option<String>,
    /// A version the title states, and the title's line.
    pub title_version: Option<(String, usize)>,
    /// 1-based lines of every version line below the title.
    pub version_lines: Vec<usize>,
    /// Versions restated on other lines (`Reasoning Charter — Version 0.1.0`), with their lines.
    pub restated: Vec<(String, usize)>,
    pub has_core_invariants: bool,
    pub protocols: BTreeSet<char>,
    pub cases: BTreeSet<u32>,
    pub registry_rows: Vec<String>,
    /// The registry's text, all of it: a row re-wrapped over two lines is no new row.
    pub registry_text: String,
    pub has_marker: bool,
}

/// The version as semver (the `semver` crate: a pre-release sorts before its release). A
/// version people write in two parts (`Version 0.2`, `Version 1.0`) is that release with patch
/// 0; one part (`Version 2`) stays unreadable, as it could mean any release of that major.
fn semver(v: &str) -> Option<semver::Version> {
    semver::Version::parse(v).ok().or_else(|| {
        let (major, minor) = v.split_once('.')?;
        let digits =
            |p: &str| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit());
        (digits(major) && digits(minor))
            .then(|| semver::Version::parse(&format!("{major}.{minor}.0")).ok())
            .flatten()
    })
}

/// The E-case numbers a charter's Evaluation Harness lists.
fn listed_cases(doc: &Doc) -> BTreeSet<u32> {
    doc.section("Evaluation Harness")
        .flat_map(|b| {
            E_CASE
                .captures_iter(&b.text)
                .filter_map(|c| c[1].parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// What versioning cares about, read from the charter's blocks: a version line or a registry
/// row inside a code block is an example, and one in page chrome or a comment is not the
/// charter's.
pub fn outline(doc: &Doc) -> Outline {
    let versions = doc.version_lines();
    let first = (0..doc.blocks.len()).find_map(|k| doc.version_at(k));
    // A version line that is not semver ("Version: TBD") is still the version line, reported.
    let unreadable = || {
        let b = doc
            .blocks
            .iter()
            .find(|b| blocks::is_version(b) && b.kind != Kind::Heading)?;
        blocks::VERSION
            .captures(&b.text.replace('*', ""))
            .map(|c| c[1].trim_end_matches(['-', ',', '.']).to_string())
    };
    let title_version = doc.title_version();
    let version_text = first
        .or_else(unreadable)
        .or_else(|| title_version.as_ref().map(|(v, _)| v.clone()));
    let protocols = doc
        .section("Verification Protocols")
        .filter_map(|b| PROTOCOL.captures(&b.text).and_then(|c| c[1].chars().next()))
        .collect();
    let cases = listed_cases(doc);
    let registry: Vec<&blocks::Block> = doc.section("Failure-Mode Registry").collect();
    let registry_rows = registry_rows(&registry);
    let registry_text = registry
        .iter()
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    Outline {
        version: version_text.as_deref().and_then(semver),
        version_text,
        title_version,
        version_lines: versions.iter().map(|b| b.line).collect(),
        restated: doc.restated_versions(),
        has_core_invariants: doc.has_section(versioning::CORE),
        protocols,
        cases,
        registry_rows,
        registry_text,
        has_marker: doc.has_marker(),
    }
}

/// The failure modes the registry names, the first cell of each row: rows of a table, or lines of
/// a rendered table (one paragraph), header left out.
fn registry_rows(registry: &[&blocks::Block]) -> Vec<String> {
    registry
        .iter()
        .flat_map(|b| match b.kind {
            Kind::Row => vec![b.text.clone()],
            Kind::Paragraph => b.lines.clone(),
            _ => Vec::new(),
        })
        .filter(|r| {
            !r.to_ascii_lowercase()
                .replace(['|', ' ', '*'], "")
                .starts_with("failuremode")
        })
        .map(|r| {
            let first = r.split(" | ").next().unwrap_or(&r);
            first.split('\t').next().unwrap_or(first).trim().to_string()
        })
        .collect()
}

/// The E-cases a charter lists in its Evaluation Harness that this harness version has no
/// checker for (`E14`), in order: `run` and `gate` say so before any model is called and the gate
/// fails for them. Read from the same block model as lint's `charter/case-without-checker`.
pub fn untestable_cases(text: &str) -> Vec<String> {
    // The cases alone: the run's banner reads them, and nothing else of the outline.
    listed_cases(&blocks::read(text))
        .into_iter()
        .map(|n| format!("E{n}"))
        .filter(|case| checkers::checker_for(case).is_err())
        .collect()
}

/// Structural findings, and versioning findings when `base` (the charter at a revision) is given.
pub fn lint(path: &str, text: &str, base: Option<(&str, &str)>) -> Vec<Finding> {
    let mut out = Vec::new();
    let doc = blocks::read(text);
    if let Some(f) = chrome_before_title(path, &doc) {
        out.push(f);
    }
    let o = outline(&doc);
    out.extend(structure(path, text, &o));
    out.extend(version_places(path, &o));
    out.extend(harness_cases(path, text, &doc, &o));
    out.extend(super::patterns::lint(path, text));
    if let Some((rev, base_text)) = base {
        let base_doc = blocks::read(base_text);
        let base = outline(&base_doc);
        let changes = versioning::changes(&base_doc, &doc);
        out.extend(version_findings(path, rev, &base, &o, &changes));
        out.extend(registry_finding(path, text, &o, &base));
    }
    out
}

/// A version stated in the title and on the version line that disagree (`Reasoning Charter
/// v0.1.0` over `Version 0.1.1`, one place bumped and not the other): a charter has one
/// version, and its rules do not say which of the two it is. A reviewer's question.
fn version_places(path: &str, o: &Outline) -> Option<Finding> {
    let (tv, tline) = o.title_version.as_ref()?;
    let (v, vline) = (o.version_text.as_ref()?, *o.version_lines.first()?);
    (tv != v && vline != *tline).then(|| {
        Finding::needs_reviewer(
            path,
            *tline,
            "charter/version-places",
            format!("the title states version {tv} (line {tline}) and the version line {v} (line {vline}): a charter has one version, and its rules do not say which of the two it is"),
            format!("a reviewer decides; to settle it without one, state one version: {v} in the title too, or no version in the title"),
        )
    })
}

/// The runtime marker, one semver version line, a Core Invariants section.
fn structure(path: &str, text: &str, o: &Outline) -> Vec<Finding> {
    let mut out = Vec::new();
    if !o.has_marker {
        out.push(Finding::error(
            path,
            text.lines().count().max(1),
            "charter/runtime-marker",
            format!("no line holds \"{RUNTIME_MARKER}\""),
            "add the runtime marker line between the runtime sections and the maintainers' part"
                .into(),
        ));
    }
    let vline = o.version_lines.first().copied().unwrap_or(1);
    out.extend(version_line(path, text, o));
    let mut find = |line: usize, rule: &'static str, message: String, fix: String| {
        out.push(Finding::error(path, line, rule, message, fix))
    };
    if o.version_lines.len() > 1 {
        let lines: Vec<String> = o.version_lines.iter().map(usize::to_string).collect();
        find(
            o.version_lines[1],
            "charter/version-lines",
            format!(
                "{} version lines (lines {}): a charter has one version",
                lines.len(),
                lines.join(", ")
            ),
            format!("keep the version line at line {vline} and delete the others"),
        );
    }
    // A version restated elsewhere that disagrees: which of the two is the charter's?
    if let Some(v) = &o.version_text {
        let same = |rv: &str| rv == v || (o.version.is_some() && semver(rv) == o.version);
        for (rv, rline) in o.restated.iter().filter(|(rv, _)| !same(rv)) {
            find(
                *rline,
                "charter/version-lines",
                format!("line {vline} states version {v} and line {rline} states version {rv}: a charter has one version"),
                format!("state one version: {v} at line {rline} too, or delete line {rline}"),
            );
        }
    }
    if !o.has_core_invariants {
        find(
            1,
            "charter/core-invariants",
            "no \"Core Invariants\" section".into(),
            "add a Core Invariants heading with the invariants under it".into(),
        );
    }
    out
}

/// The version line as read: missing, not semver, or in two parts (read as that release, so
/// the bump is judged on it, and said as a warning, so the next edit writes it whole).
fn version_line(path: &str, text: &str, o: &Outline) -> Option<Finding> {
    let at = |v: &str| line_where(text, |l| l.contains(v));
    match (&o.version_text, &o.version) {
        (None, _) => Some(Finding::error(
            path,
            1,
            "charter/version-line",
            "no version line".into(),
            "add a line \"Version MAJOR.MINOR.PATCH — DATE\" under the title".into(),
        )),
        (Some(v), None) => Some(Finding::error(
            path,
            at(v),
            "charter/version-semver",
            format!("version {v:?} is not semver"),
            "write the version as MAJOR.MINOR.PATCH, e.g. 0.2.0".into(),
        )),
        (Some(v), Some(read)) if v.split('.').count() == 2 => Some(Finding {
            severity: super::Severity::Warn,
            ..Finding::error(
                path,
                at(v),
                "charter/version-two-parts",
                format!("version {v:?} has two parts: read as {read}"),
                format!("write the version as MAJOR.MINOR.PATCH: {read}"),
            )
        }),
        _ => None,
    }
}

/// Whether this harness can test the charter's cases. A case without a checker is the
/// harness's limit, not the charter's fault: a warning (run and gate say they cannot test it);
/// a checker whose case the charter no longer lists is a warning too (deleting a case is judged
/// by the charter's versioning rules: minor).
fn harness_cases(path: &str, text: &str, doc: &Doc, o: &Outline) -> Vec<Finding> {
    let mut out = Vec::new();
    let harness_line = doc
        .blocks
        .iter()
        .find(|b| b.kind == Kind::Heading && b.text.eq_ignore_ascii_case("Evaluation Harness"))
        .map_or(1, |b| b.line);
    let listed: BTreeSet<String> = o.cases.iter().map(|n| format!("E{n}")).collect();
    for case in &listed {
        if checkers::checker_for(case).is_err() {
            let line = doc
                .section("Evaluation Harness")
                .find(|b| {
                    E_CASE
                        .captures(&b.text)
                        .is_some_and(|c| format!("E{}", &c[1]) == *case)
                })
                .map_or_else(
                    || line_where(text, |l| l.contains(case.as_str())),
                    |b| b.line,
                );
            out.push(Finding {
                severity: Severity::Warn,
                ..Finding::error(
                    path,
                    line,
                    "charter/case-without-checker",
                    format!("{case} is listed in the Evaluation Harness, but this harness version has no checker for it: the charter's versioning rules judge the case; run and gate cannot test it"),
                    "a new case needs a harness release with its checker, case file and golden transcripts; until then the gate fails naming it".into(),
                )
            });
        }
    }
    for id in checkers::CASE_IDS {
        // Which cases the charter lists is the charter's business (a deleted case is judged
        // by its versioning rules: minor); a checker this harness keeps for it is the harness's,
        // a warning, as a case without a checker is (docs/development.md).
        if !listed.contains(id) {
            out.push(Finding {
                severity: Severity::Warn,
                ..Finding::error(
                    path,
                    harness_line,
                    "charter/checker-without-case",
                    format!(
                        "the harness checks {id}, but the Evaluation Harness section does not list it"
                    ),
                    format!("list {id} in the Evaluation Harness, or retire its checker"),
                )
            });
        }
    }
    out
}

/// Blocks above the charter's title: a charter copied from a web page brings the page's own
/// lines ("Skip to content", "Latest commit", "History", "Raw"), and everything above the
/// runtime marker is sent as the system prompt. A warning: a preamble may be meant. A
/// byte-order mark or an HTML comment is no text. `run` gives the same warning before it sends
/// the charter.
pub fn text_before_title(path: &str, text: &str) -> Option<Finding> {
    chrome_before_title(path, &blocks::read(text))
}

fn chrome_before_title(path: &str, doc: &Doc) -> Option<Finding> {
    let title = doc.title.as_ref()?;
    let first = doc.chrome.first()?;
    let shown: Vec<String> = doc
        .chrome
        .iter()
        .take(4)
        .map(|b| format!("{:?}", versioning::short(&b.text)))
        .collect();
    let more = if doc.chrome.len() > 4 { ", …" } else { "" };
    Some(Finding {
        path: path.to_string(),
        line: first.line,
        severity: Severity::Warn,
        rule: "charter/text-before-title",
        message: format!(
            "{} block(s) precede the title {:?} (line {}): {}{more} — page chrome copied with the charter? It is sent to every model as part of the system prompt",
            doc.chrome.len(),
            title.text,
            title.line,
            shown.join(", ")
        ),
        fix: format!("delete everything above the line {:?}", title.text),
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

const LEVEL: [&str; 3] = ["patch", "minor", "major"];
const WHY_LEVEL: [&str; 3] = [
    "the charter's semver: patch = wording",
    "more than wording, so a patch cannot carry it (minor = a new protocol or case, or a change to what a rule requires)",
    "the charter's semver: major = Core Invariant change",
];

/// The worst change and how many others there are, for a finding: which block changed in which
/// section, and why that needs its bump.
fn worst(changes: &[Change]) -> Option<(usize, String, usize)> {
    let w = changes.iter().max_by_key(|c| c.level)?;
    let others = match changes.len() - 1 {
        0 => String::new(),
        n => format!(" (and {n} other change(s))"),
    };
    Some((
        w.level,
        format!("{}: {}{others} — {}", w.place(), w.what, WHY_LEVEL[w.level]),
        w.at.line,
    ))
}

/// The head's version against the base's: never down, and up by at least the bump the changes
/// need; none needed when the two are the same charter. Reworded rules whose readings need
/// different bumps go to a reviewer.
fn version_findings(
    path: &str,
    rev: &str,
    base: &Outline,
    head: &Outline,
    changes: &[Change],
) -> Vec<Finding> {
    let vline = head.version_lines.first().copied().unwrap_or(1);
    let err = |rule, message: String, fix: String| Finding::error(path, vline, rule, message, fix);
    let worst = worst(changes);
    let (Some(b), Some(h)) = (base.version.clone(), head.version.clone()) else {
        return match worst {
            Some(_) => vec![err(
                "charter/version-increase",
                format!("cannot compare versions with {rev}"),
                "give both revisions a semver version line".into(),
            )],
            None => Vec::new(),
        };
    };
    let bline = base.version_lines.first().copied().unwrap_or(1);
    if h.cmp_precedence(&b) == std::cmp::Ordering::Less {
        return vec![err(
            "charter/version-increase",
            format!("the version goes down: {h} (line {vline}) is below {rev}'s {b} (its line {bline}); a version never goes down"),
            format!("bump from {b} instead, to at least {}", bump(&b, worst.as_ref().map_or(0, |w| w.0))),
        )];
    }
    let Some((required, why, _)) = worst else {
        return Vec::new();
    };
    let Some(got) = made_bump(base, head) else {
        let build = if !h.build.is_empty() {
            " (build metadata does not change a version's precedence)"
        } else {
            ""
        };
        return vec![err(
            "charter/version-increase",
            format!("{why}; the version was not bumped ({h} at line {vline}, as at {rev}){build}: that needs a {} bump", LEVEL[required]),
            format!("bump to {}", bump(&b, required)),
        )];
    };
    bump_findings(path, vline, changes, (&b, &h), got, (required, &why))
}

/// A bump was made (`got`, a level) where the changes need `required` (for `why`): it resets the
/// lower numbers and is big enough; a change of no required level whose readings differ (a
/// reworded rule) goes to a reviewer.
fn bump_findings(
    path: &str,
    vline: usize,
    changes: &[Change],
    (b, h): (&semver::Version, &semver::Version),
    got: usize,
    (required, why): (usize, &str),
) -> Vec<Finding> {
    let err = |rule, message: String, fix: String| Finding::error(path, vline, rule, message, fix);
    let mut out = Vec::new();
    let unreset = (h.major > b.major && (h.minor, h.patch) != (0, 0))
        || (h.major == b.major && h.minor > b.minor && h.patch != 0);
    if unreset {
        out.push(err(
            "charter/version-increase",
            format!("{b} → {h} does not reset the lower numbers: a minor bump resets patch, a major bump minor and patch (semver)"),
            format!("write {}", bump(b, got)),
        ));
    }
    if got < required {
        out.push(err(
            "charter/version-bump",
            format!(
                "{why}: that needs a {} bump, but {b} → {h} is a {}",
                LEVEL[required], LEVEL[got]
            ),
            format!("bump to {}", bump(b, required)),
        ));
    } else if required < 1 && got < 1 {
        for c in changes.iter().filter(|c| c.question) {
            out.push(reworded_finding(path, c, b, h));
        }
    }
    out
}

/// One reworded rule, for a person: the rule and its section, a word diff marking only the
/// changed words, the bump each reading needs and the one the change made; the linter claims
/// neither reading.
fn reworded_finding(path: &str, c: &Change, b: &semver::Version, h: &semver::Version) -> Finding {
    let diff = versioning::word_diff(
        c.old.as_deref().unwrap_or(""),
        c.new.as_deref().unwrap_or(""),
    );
    Finding::needs_reviewer(
        path,
        c.at.line,
        "charter/reworded-rule",
        format!(
            "{}: {}. Changed words: {}. Read as the same requirement, this is wording (patch, as made: {b} → {h}); read as a changed requirement, it needs a minor bump ({})",
            c.place(),
            c.what,
            diff.trim_end_matches('.'),
            bump(b, 1)
        ),
        format!("a reviewer decides: if the rule requires something else now, bump to {}; if not, nothing to do", bump(b, 1)),
    )
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

/// New E-cases and new Failure-Mode Registry rows come in pairs, in the same change.
fn registry_finding(path: &str, text: &str, head: &Outline, base: &Outline) -> Option<Finding> {
    let f =
        |line, rule, message: String, fix: String| Finding::error(path, line, rule, message, fix);
    let new_cases: Vec<String> = head
        .cases
        .difference(&base.cases)
        .map(|c| format!("E{c}"))
        .collect();
    let mut new_rows: Vec<&String> = head
        .registry_rows
        .iter()
        .filter(|r| !base.registry_rows.contains(r) && !base.registry_text.contains(r.as_str()))
        .collect();
    // A row identified by its content: a base row gone from the head and a new row holding
    // most of its words are one row edited (a typo fixed, a word added), not a row added.
    let mut gone: Vec<&String> = base
        .registry_rows
        .iter()
        .filter(|r| !head.registry_rows.contains(r))
        .collect();
    new_rows.retain(|r| {
        let edited = gone.iter().position(|g| similarity(g, r) >= 0.5);
        edited.map(|k| gone.remove(k)).is_none()
    });
    if new_cases.len() > new_rows.len() {
        let line = line_where(text, |l| l.contains("Failure-Mode Registry"));
        Some(f(line, "charter/case-needs-registry-row", format!("{} new E-case(s) ({}) but {} new Failure-Mode Registry row(s)", new_cases.len(), new_cases.join(", "), new_rows.len()), "add one registry row (failure mode | signature | mitigation) per new E-case in the same change".into()))
    } else if new_rows.len() > new_cases.len() {
        let line = line_where(text, |l| l.contains(new_rows[0].as_str()));
        let rows: Vec<String> = new_rows.iter().map(|r| format!("{r:?}")).collect();
        Some(f(
            line,
            "charter/registry-row-needs-case",
            format!(
                "{} new registry row(s) ({}) but {} new E-case(s)",
                new_rows.len(),
                rows.join(", "),
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
