//! `harness lint capsule`: charter capsules (Markdown with YAML frontmatter `type: charter`),
//! checked by the capsule definition's §7 validation checks 1–8 and §8 forbidden patterns, and,
//! against a base revision, its §6 lock semantics.
//!
//! Findings are WARN, as the capsule ships; `--strict` is the v2.0.0 ERROR ratchet, except for
//! retired and archived charters, which check 8 keeps at WARN. A lock-break signoff is recorded
//! by setting `lock_break_signoff` (or a new `locked_signoff`) in the same change.

use super::{line_where, Finding, Severity};
use regex::Regex;
use std::sync::LazyLock;
use yaml_rust2::{Yaml, YamlLoader};

static IDENTITY_H2: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^##\s+(?:\d+\.\s+)?Identity$").unwrap());
static H2: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^##\s").unwrap());
static UID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9a-f]{8}$").unwrap());
static DATE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}$").unwrap());
static POINTER_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:[-*>]\s*)*(?:(?:see|->|→|pointer:?|moved to)\s*)?(?:\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\]|`?[\w./<>*-]+\.(?:md|jsonl?|ya?ml)`?|[0-9a-f]{8})[\s.,;]*$").unwrap()
});

pub const REQUIRED: [&str; 12] = [
    "uid",
    "type",
    "agent_name",
    "agent_class",
    "role",
    "capability_scope",
    "status",
    "boot_protocol",
    "created",
    "created_by",
    "modified",
    "modified_by",
];
const AGENT_CLASSES: [&str; 2] = ["executive", "director"];
const BOOT_PROTOCOLS: [&str; 3] = ["playbook", "commissioned", "on-demand"];
const STATUSES: [&str; 5] = ["active", "locked", "retired", "archived", "suspended"];
/// Identity fields of §6: a change needs a lock-break signoff.
const IDENTITY_FIELDS: [&str; 6] = [
    "agent_name",
    "agent_class",
    "role",
    "scope",
    "capability_scope",
    "boot_protocol",
];
/// Standard editing under §6: hygiene and pointer fields.
const FREE_FIELDS: [&str; 11] = [
    "last_updated",
    "modified",
    "modified_by",
    "status_card",
    "generation_log",
    "living_transfer",
    "briefing_file",
    "board",
    "channels",
    "lock_break_signoff",
    "locked_signoff",
];

/// A Markdown file split into YAML frontmatter and body.
pub struct Doc<'a> {
    pub front_text: &'a str,
    pub front: Yaml,
    /// Line number (1-based) of the body's first line.
    pub body_start: usize,
    pub body: &'a str,
}

/// Split `text`; `Ok(None)` when it has no frontmatter, `Err` when the YAML does not parse.
pub fn parse(text: &str) -> Result<Option<Doc<'_>>, (usize, String)> {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok(None);
    };
    let end = rest
        .find("\n---\n")
        .or_else(|| rest.find("\n---\r\n"))
        .or_else(|| rest.strip_suffix("\n---").map(|r| r.len()));
    let Some(end) = end else {
        return Err((1, "frontmatter opened with --- but never closed".into()));
    };
    let front_text = &rest[..end + 1];
    let docs = YamlLoader::load_from_str(front_text).map_err(|e| {
        (
            e.marker().line() + 1,
            format!("frontmatter is not valid YAML: {e}"),
        )
    })?;
    let front = docs.into_iter().next().unwrap_or(Yaml::Null);
    let after = (end + 1 + 4).min(rest.len());
    let body = &rest[after..];
    let body_start = text[..text.len() - body.len()].lines().count() + 1;
    Ok(Some(Doc {
        front_text,
        front,
        body_start,
        body,
    }))
}

fn get<'a>(front: &'a Yaml, key: &str) -> Option<&'a Yaml> {
    match &front[key] {
        Yaml::BadValue => None,
        v => Some(v),
    }
}

fn as_text(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

struct Ctx<'a> {
    path: &'a str,
    doc: &'a Doc<'a>,
    severity: Severity,
    out: Vec<Finding>,
}

impl Ctx<'_> {
    fn key_line(&self, key: &str) -> usize {
        // Frontmatter starts on line 2 of the file.
        line_where(self.doc.front_text, |l| l.starts_with(&format!("{key}:"))) + 1
    }
    fn add(&mut self, line: usize, rule: &'static str, message: String, fix: &str) {
        self.out.push(Finding {
            path: self.path.to_string(),
            line,
            severity: self.severity,
            rule,
            message,
            fix: fix.to_string(),
        });
    }
}

/// Lint one file's text. Files that are not charters and show no forbidden pattern give nothing.
pub fn lint(
    path: &str,
    text: &str,
    strict: bool,
    base: Option<(&str, Option<&str>)>,
) -> Vec<Finding> {
    let doc = match parse(text) {
        Ok(Some(d)) => d,
        Ok(None) => return Vec::new(),
        Err((line, msg)) => {
            return vec![Finding {
                path: path.into(),
                line,
                severity: Severity::Error,
                rule: "capsule/frontmatter",
                message: msg,
                fix: "make the frontmatter valid YAML between --- lines".into(),
            }]
        }
    };
    let ty = get(&doc.front, "type")
        .and_then(as_text)
        .unwrap_or_default();
    let status = get(&doc.front, "status")
        .and_then(as_text)
        .unwrap_or_default();
    // Check 8: retired and archived charters stay at WARN even under the ratchet.
    let relaxed = status == "retired" || status == "archived";
    let severity = if strict && !relaxed {
        Severity::Error
    } else {
        Severity::Warn
    };
    let mut cx = Ctx {
        path,
        doc: &doc,
        severity,
        out: Vec::new(),
    };

    let charter_shaped = [
        "agent_name",
        "agent_class",
        "capability_scope",
        "boot_protocol",
        "role",
    ]
    .iter()
    .filter(|k| get(&doc.front, k).is_some())
    .count()
        >= 3;
    match ty.as_str() {
        "agent-charter" => cx.add(
            cx.key_line("type"),
            "capsule/forbidden-agent-charter",
            "type: agent-charter is the deprecated third typing".into(),
            "set type: charter",
        ),
        "document" if charter_shaped => cx.add(
            cx.key_line("type"),
            "capsule/forbidden-document-typing",
            "charter-shaped frontmatter typed as document".into(),
            "set type: charter",
        ),
        _ => {}
    }
    if ty != "charter" {
        return cx.out;
    }
    validation_checks(&mut cx);
    if let Some((rev, base_text)) = base {
        if let Some(base_text) = base_text {
            lock_semantics(&mut cx, rev, base_text);
        }
    }
    cx.out
}

fn validation_checks(cx: &mut Ctx) {
    let front = &cx.doc.front;
    // Check 1: required fields present and typed.
    let mut missing: Vec<&str> = Vec::new();
    for key in REQUIRED.iter().copied() {
        if get(front, key).is_none() {
            missing.push(key);
        }
    }
    if !missing.is_empty() {
        cx.add(
            2,
            "capsule/check-1",
            format!(
                "type: charter without required field(s): {}",
                missing.join(", ")
            ),
            "declare every §2 field (a charter without them is a §8 forbidden pattern)",
        );
    }
    let typed: [(&str, fn(&Yaml) -> bool, &str); 9] = [
        (
            "uid",
            |y| as_text(y).is_some_and(|s| UID.is_match(&s)),
            "an 8-hex string",
        ),
        (
            "agent_name",
            |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
            "a non-empty string",
        ),
        (
            "role",
            |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
            "a non-empty string",
        ),
        (
            "created",
            |y| as_text(y).is_some_and(|s| DATE.is_match(&s)),
            "a date YYYY-MM-DD",
        ),
        (
            "modified",
            |y| as_text(y).is_some_and(|s| DATE.is_match(&s)),
            "a date YYYY-MM-DD",
        ),
        (
            "created_by",
            |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
            "a string like argus-a69",
        ),
        (
            "modified_by",
            |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
            "a string like argus-a69",
        ),
        (
            "capability_scope",
            |y| matches!(y, Yaml::Hash(_)),
            "an object with reads and writes",
        ),
        ("status", |y| matches!(y, Yaml::String(_)), "a string"),
    ];
    for (key, ok, want) in typed {
        if let Some(v) = get(front, key) {
            if !ok(v) {
                cx.add(
                    cx.key_line(key),
                    "capsule/check-1",
                    format!("{key} is not {want}"),
                    &format!("make {key} {want}"),
                );
            }
        }
    }
    // Checks 2–4: enums.
    for (key, allowed, rule) in [
        ("agent_class", &AGENT_CLASSES[..], "capsule/check-2"),
        ("boot_protocol", &BOOT_PROTOCOLS[..], "capsule/check-3"),
        ("status", &STATUSES[..], "capsule/check-4"),
    ] {
        if let Some(v) = get(front, key).and_then(as_text) {
            if !allowed.contains(&v.as_str()) {
                let extra = if key == "agent_class" {
                    " (sa.* agents use session-agent.capsule, a §8 forbidden pattern here)"
                } else {
                    ""
                };
                cx.add(
                    cx.key_line(key),
                    rule,
                    format!("{key}: {v} is not one of {}{extra}", allowed.join(" | ")),
                    &format!("set {key} to one of {}", allowed.join(", ")),
                );
            }
        }
    }
    // Check 5: capability_scope has reads and writes, each a list.
    if let Some(scope @ Yaml::Hash(_)) = get(front, "capability_scope") {
        for sub in ["reads", "writes"] {
            if !matches!(&scope[sub], Yaml::Array(_)) {
                cx.add(
                    cx.key_line("capability_scope"),
                    "capsule/check-5",
                    format!("capability_scope.{sub} is missing or not a list"),
                    &format!("give capability_scope a {sub}: list (it may be empty)"),
                );
            }
        }
    }
    // Check 6: exactly one Identity H2, holding identity narrative (§4).
    let body_lines: Vec<&str> = cx.doc.body.lines().collect();
    let identity: Vec<usize> = body_lines
        .iter()
        .enumerate()
        .filter(|(_, l)| IDENTITY_H2.is_match(l.trim_end()))
        .map(|(i, _)| i)
        .collect();
    match identity.len() {
        0 => cx.add(
            cx.doc.body_start,
            "capsule/check-6",
            "no H2 matching ^##\\s+(?:\\d+\\.\\s+)?Identity$ (a §8 forbidden pattern)".into(),
            "add a \"## Identity\" section naming the agent, its role and its lineage",
        ),
        1 => {}
        n => cx.add(
            cx.doc.body_start + identity[1],
            "capsule/check-6",
            format!("{n} Identity H2 sections; exactly one is allowed"),
            "merge them into one \"## Identity\" section",
        ),
    }
    if let Some(&at) = identity.first() {
        let end = body_lines[at + 1..]
            .iter()
            .position(|l| H2.is_match(l))
            .map_or(body_lines.len(), |p| at + 1 + p);
        let section = body_lines[at + 1..end].join("\n").to_lowercase();
        let name = get(front, "agent_name")
            .and_then(as_text)
            .unwrap_or_default()
            .to_lowercase();
        if !name.is_empty() && !section.contains(&name) {
            cx.add(
                cx.doc.body_start + at,
                "capsule/identity-content",
                format!("the Identity section never names the agent ({name})"),
                "state the agent's name in narrative form, e.g. \"You are Argus, …\"",
            );
        }
    }
    let narrative = body_lines.iter().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#') && !POINTER_LINE.is_match(t)
    });
    if !narrative {
        cx.add(
            cx.doc.body_start,
            "capsule/forbidden-pointer-body",
            "the body is only pointers, with no identity narrative".into(),
            "write the identity narrative in the body; pointers may stay alongside it",
        );
    }
    // Check 7: locked_at and locked_by as an atomic pair, required once locked (§3).
    let (at, by) = (
        get(front, "locked_at").is_some(),
        get(front, "locked_by").is_some(),
    );
    if at != by {
        let (has, lacks) = if at {
            ("locked_at", "locked_by")
        } else {
            ("locked_by", "locked_at")
        };
        cx.add(
            cx.key_line(has),
            "capsule/check-7",
            format!("{has} without {lacks}: LOCK metadata is an atomic pair"),
            &format!("add {lacks}, or remove {has}"),
        );
    } else if !at && get(front, "status").and_then(as_text).as_deref() == Some("locked") {
        cx.add(
            cx.key_line("status"),
            "capsule/check-7",
            "status: locked without locked_at and locked_by (required once LOCKED, §3)".into(),
            "record locked_at and locked_by from the LOCK signoff",
        );
    }
}

/// §6 lock semantics against the file at a base revision.
fn lock_semantics(cx: &mut Ctx, rev: &str, base_text: &str) {
    let Ok(Some(base)) = parse(base_text) else {
        return;
    };
    let was_locked = get(&base.front, "locked_at").is_some()
        || get(&base.front, "status").and_then(as_text).as_deref() == Some("locked");
    if !was_locked {
        return;
    }
    let signoff_recorded = ["lock_break_signoff", "locked_signoff"].iter().any(|k| {
        let now = get(&cx.doc.front, k).map(|y| format!("{y:?}"));
        now.is_some() && now != get(&base.front, k).map(|y| format!("{y:?}"))
    });
    if signoff_recorded {
        return;
    }
    let fix =
        "revert it, or record the lock-break signoff (lock_break_signoff: …) in the same change";
    let mut changes: Vec<(usize, String)> = Vec::new();
    if checkers::extract::text::normalize_ws(base.body)
        != checkers::extract::text::normalize_ws(cx.doc.body)
    {
        changes.push((cx.doc.body_start, "the body changed".into()));
    }
    if let (Yaml::Hash(b), Yaml::Hash(h)) = (&base.front, &cx.doc.front) {
        for (k, bv) in b {
            let Some(key) = k.as_str() else { continue };
            if FREE_FIELDS.contains(&key) {
                continue;
            }
            let hv = h.get(k);
            if hv != Some(bv) {
                let what = if IDENTITY_FIELDS.contains(&key) {
                    "identity field"
                } else {
                    "optional substrate"
                };
                let how = if hv.is_none() { "removed" } else { "changed" };
                changes.push((cx.key_line(key), format!("{what} {key} {how}")));
            }
        }
        for (k, _) in h {
            if let Some(key) = k.as_str() {
                if IDENTITY_FIELDS.contains(&key) && !b.contains_key(k) {
                    changes.push((cx.key_line(key), format!("identity field {key} added")));
                }
            }
        }
    }
    for (line, what) in changes {
        cx.add(
            line,
            "capsule/lock-break",
            format!("locked at {rev}: {what} without a lock-break signoff (§6)"),
            fix,
        );
    }
}
