//! `harness lint capsule`: charter capsules (Markdown with YAML frontmatter `type: charter`),
//! checked by the capsule definition's §7 validation checks 1–8, its §4 Identity content and
//! §8 forbidden patterns, and, against a base revision, its §6 lock semantics. Findings speak
//! the definition's language: its field names only, each citing its section and check number.
//!
//! Findings are WARN, as the capsule ships; `--strict` is the v2.0.0 ERROR ratchet, except for
//! retired and archived charters, which check 8 keeps at WARN. The definition records a
//! lock-break the way it records its own amendments: an amendment note naming the signed
//! lock-break (`v1_0_3_amendment_note: … per Mike-A103 signed lock-break …`) and
//! `locked_signoff`; either, new or changed in the same change, signs it.

use super::fields::{
    AGENT_CLASSES, BOOT_PROTOCOLS, HYGIENE_FIELDS, IDENTITY_FIELDS, OPTIONAL_FIELDS,
    POINTER_FIELDS, RENAMED, REQUIRED, STATUSES,
};
use super::frontmatter::{is_date, same};
use super::frontmatter::{parse, Doc};
use super::identity::{mentions, no_lineage_at_all, role_stated, LINEAGE};
use super::{line_where, Finding, Severity};
use regex::Regex;
use std::sync::LazyLock;
use yaml_rust2::yaml::Hash;
use yaml_rust2::Yaml;

static IDENTITY_H2: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^##\s+(?:\d+\.\s+)?Identity$").unwrap());
static UID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9a-f]{8}$").unwrap());
static POINTER_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:[-*>]\s*)*(?:(?:see|->|→|pointer:?|moved to)\s*)?(?:\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\]|`?[\w./<>*-]+\.(?:md|jsonl?|ya?ml)`?|[0-9a-f]{8})[\s.,;]*$").unwrap()
});

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
    /// Set when check 8 keeps a retired or archived charter's findings at WARN under --strict.
    relaxed: Option<String>,
    out: Vec<Finding>,
}

impl Ctx<'_> {
    fn key_line(&self, key: &str) -> usize {
        // Frontmatter starts on line 2 of the file.
        line_where(self.doc.front_text, |l| l.starts_with(&format!("{key}:"))) + 1
    }
    /// The value of `key` as written, for messages about how YAML read it.
    fn raw(&self, key: &str) -> Option<String> {
        self.doc.front_text.lines().find_map(|l| {
            l.strip_prefix(&format!("{key}:"))
                .map(|v| v.trim().to_string())
        })
    }
    /// A question of meaning the words could not settle: needs a reviewer, whatever the
    /// severity of the decided findings (`--strict` does not make it an error).
    fn ask(&mut self, line: usize, rule: &'static str, message: String, fix: &str) {
        self.out.push(Finding {
            path: self.path.to_string(),
            line,
            severity: Severity::NeedsReviewer,
            rule,
            message,
            fix: fix.to_string(),
        });
    }
    fn add(&mut self, line: usize, rule: &'static str, message: String, fix: &str) {
        let message = match &self.relaxed {
            Some(status) => {
                format!(
                    "{message} (WARN only: §7 check 8 relaxes checks 1–7 for a {status} charter)"
                )
            }
            None => message,
        };
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
        relaxed: None,
        out: Vec::new(),
    };

    forbidden_typing(&mut cx, &ty);
    if ty != "charter" {
        return cx.out;
    }
    if strict && relaxed {
        cx.relaxed = Some(status);
    }
    validation_checks(&mut cx);
    identity_content(&mut cx);
    if let Some((rev, Some(base_text))) = base {
        lock_semantics(&mut cx, rev, base_text);
    }
    cx.out
}

/// §8's forbidden typings: `type: agent-charter`, and `type: document` on a file whose
/// frontmatter is charter-shaped (three of the charter's identifying keys).
fn forbidden_typing(cx: &mut Ctx, ty: &str) {
    let charter_shaped = [
        "agent_name",
        "agent_class",
        "capability_scope",
        "boot_protocol",
        "role",
    ]
    .iter()
    .filter(|k| get(&cx.doc.front, k).is_some())
    .count()
        >= 3;
    match ty {
        "agent-charter" => cx.add(
            cx.key_line("type"),
            "capsule/forbidden-agent-charter",
            "§8: type: agent-charter is the deprecated third-variant typing".into(),
            "set type: charter",
        ),
        "document" if charter_shaped => cx.add(
            cx.key_line("type"),
            "capsule/forbidden-document-typing",
            "§8: type: document on a file with charter-shaped frontmatter".into(),
            "set type: charter",
        ),
        _ => {}
    }
}

/// Frontmatter keys as written, in order.
fn keys(front: &Yaml) -> Vec<String> {
    match front {
        Yaml::Hash(h) => h
            .keys()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// Why a missing required field may be missing: the key written instead (a renamed or misspelt
/// field), in the definition's words.
fn written_instead(present: &[String], missing: &str) -> Option<String> {
    if let Some((old, _, why)) = RENAMED.iter().find(|(_, new, _)| *new == missing) {
        if present.iter().any(|k| k == old) {
            return Some(format!("{old}: is there; {why}"));
        }
    }
    let norm = |s: &str| s.to_lowercase().replace(['-', '_', ' '], "");
    let known = |k: &str| {
        REQUIRED.contains(&k)
            || IDENTITY_FIELDS.contains(&k)
            || HYGIENE_FIELDS.contains(&k)
            || POINTER_FIELDS.contains(&k)
            || OPTIONAL_FIELDS.contains(&k)
    };
    present
        .iter()
        .filter(|k| !known(k))
        .find(|k| norm(k) == norm(missing) || !crate::error::did_you_mean(k, [missing]).is_empty())
        .map(|k| format!("{k}: is there; §2 calls it {missing}"))
}

/// §7 validation checks 1–7 and §8's pointer-only body, in the order the definition lists them.
fn validation_checks(cx: &mut Ctx) {
    required_fields(cx);
    typed_fields(cx);
    enum_fields(cx);
    capability_scope(cx);
    identity_heading(cx);
    narrative_body(cx);
    lock_pair(cx);
}

/// Check 1: every §2 required field present (a field written under another name is named).
fn required_fields(cx: &mut Ctx) {
    let front = &cx.doc.front;
    let present = keys(front);
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|k| get(front, k).is_none())
        .collect();
    if !missing.is_empty() {
        let hints: Vec<String> = missing
            .iter()
            .filter_map(|m| written_instead(&present, m))
            .collect();
        let line = missing
            .iter()
            .find_map(|m| {
                RENAMED
                    .iter()
                    .find(|(_, new, _)| new == m)
                    .filter(|(old, _, _)| present.iter().any(|k| k == old))
                    .map(|(old, _, _)| cx.key_line(old))
            })
            .unwrap_or(2);
        let fix = if hints.is_empty() {
            "declare every §2 field".to_string()
        } else {
            format!("rename or declare them: {}", hints.join("; "))
        };
        cx.add(
            line,
            "capsule/check-1",
            format!(
                "§7 check 1 (§2 required frontmatter): type: charter without {} (a §8 forbidden pattern)",
                missing.join(", ")
            ),
            &fix,
        );
    }
}

/// Check 1: each present field of the type §2 gives it.
fn typed_fields(cx: &mut Ctx) {
    let front = &cx.doc.front;
    for (key, ok, want) in TYPED {
        let Some(v) = get(front, key) else { continue };
        if ok(v) {
            continue;
        }
        let raw = cx.raw(key).unwrap_or_default();
        let (message, fix) = mistyped(key, want, &raw, v);
        cx.add(cx.key_line(key), "capsule/check-1", message, &fix);
    }
}

/// Check 1's message and fix for `key: raw` (read as `v`) that is not `want`.
fn mistyped(key: &str, want: &str, raw: &str, v: &Yaml) -> (String, String) {
    let number = matches!(v, Yaml::Integer(_) | Yaml::Real(_));
    if key == "uid" && number && raw.len() == 8 && raw.bytes().all(|b| b.is_ascii_hexdigit()) {
        // `uid: 00000001` is the number 1 to YAML; quoted, it is the 8-hex string.
        (
            format!(
                "§7 check 1 (§2 uid: 8-hex string): uid: {raw} is read by YAML as the number {}, not a string",
                as_text(v).unwrap_or_default()
            ),
            format!("quote it: uid: \"{raw}\""),
        )
    } else {
        (
            format!("§7 check 1 (§2 {key}: {want}): {key}: {raw} is not {want}"),
            format!("make {key} {want}"),
        )
    }
}

/// A key, the test its value passes and what the test wants.
type Typed = (&'static str, fn(&Yaml) -> bool, &'static str);
/// Check 1's fields.
const TYPED: [Typed; 9] = [
    (
        "uid",
        |y| matches!(y, Yaml::String(s) if UID.is_match(s)),
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
        |y| as_text(y).is_some_and(|s| is_date(&s)),
        "a calendar date YYYY-MM-DD",
    ),
    (
        "modified",
        |y| as_text(y).is_some_and(|s| is_date(&s)),
        "a calendar date YYYY-MM-DD",
    ),
    (
        "created_by",
        |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
        "a string in <agent-slug>-<generation> form, e.g. argus-a69",
    ),
    (
        "modified_by",
        |y| matches!(y, Yaml::String(s) if !s.trim().is_empty()),
        "a string in <agent-slug>-<generation> form, e.g. argus-a69",
    ),
    (
        "capability_scope",
        |y| matches!(y, Yaml::Hash(_)),
        "an object with reads: and writes:",
    ),
    ("status", |y| matches!(y, Yaml::String(_)), "a string"),
];

/// Checks 2–4: agent_class, boot_protocol and status take one of their enum's values.
fn enum_fields(cx: &mut Ctx) {
    let front = &cx.doc.front;
    for (key, allowed, rule, n) in [
        ("agent_class", &AGENT_CLASSES[..], "capsule/check-2", 2),
        ("boot_protocol", &BOOT_PROTOCOLS[..], "capsule/check-3", 3),
        ("status", &STATUSES[..], "capsule/check-4", 4),
    ] {
        let Some(v) = get(front, key).and_then(as_text) else {
            continue;
        };
        if allowed.contains(&v.as_str()) {
            continue;
        }
        let extra = match (key, v.as_str()) {
            ("agent_class", _) => {
                " (sa.* agents use session-agent.capsule with type: session-agent; §8 forbids other values here)"
            }
            ("status", "superseded") => {
                " (§2's enum semantics line names superseded, but the §2 table and §7 check 4 do not; an older charter is archived)"
            }
            _ => "",
        };
        cx.add(
            cx.key_line(key),
            rule,
            format!(
                "§7 check {n}: {key}: {v} is not one of {}{extra}",
                allowed.join(" | ")
            ),
            &format!("set {key} to one of {}", allowed.join(", ")),
        );
    }
}

/// Check 5: capability_scope has reads and writes, each a list.
fn capability_scope(cx: &mut Ctx) {
    let front = &cx.doc.front;
    if let Some(scope @ Yaml::Hash(_)) = get(front, "capability_scope") {
        for sub in ["reads", "writes"] {
            if !matches!(&scope[sub], Yaml::Array(_)) {
                cx.add(
                    cx.key_line("capability_scope"),
                    "capsule/check-5",
                    format!("§7 check 5: capability_scope.{sub}: is missing or not a list"),
                    &format!("give capability_scope a {sub}: list (it may be empty)"),
                );
            }
        }
    }
}

/// Check 6: exactly one Identity H2.
fn identity_heading(cx: &mut Ctx) {
    let identity = identity_lines(cx.doc.body);
    match identity.len() {
        0 => cx.add(
            cx.doc.body_start,
            "capsule/check-6",
            "§7 check 6 (§4): no H2 matching ^##\\s+(?:\\d+\\.\\s+)?Identity$ (a §8 forbidden pattern; ## Purpose, ## Charter or ## Role do not count)".into(),
            "add a \"## Identity\" section naming the agent, its role and its lineage",
        ),
        1 => {}
        n => cx.add(
            cx.doc.body_start + identity[1],
            "capsule/check-6",
            format!("§7 check 6 (§4): {n} Identity H2 sections; exactly one is allowed"),
            "merge them into one \"## Identity\" section",
        ),
    }
}

/// §8: a body of pointers only, without identity narrative, is forbidden.
fn narrative_body(cx: &mut Ctx) {
    let narrative = cx.doc.body.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#') && !POINTER_LINE.is_match(t)
    });
    if !narrative {
        cx.add(
            cx.doc.body_start,
            "capsule/forbidden-pointer-body",
            "§8: the body consists entirely of pointers, without identity narrative".into(),
            "write the identity narrative in the body; pointers may stay alongside it",
        );
    }
}

/// Check 7: locked_at and locked_by as an atomic pair, required once locked (§3).
fn lock_pair(cx: &mut Ctx) {
    let front = &cx.doc.front;
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
            format!("§7 check 7: {has} without {lacks} (atomic LOCK metadata)"),
            &format!("add {lacks}, or remove {has}"),
        );
    } else if !at && get(front, "status").and_then(as_text).as_deref() == Some("locked") {
        cx.add(
            cx.key_line("status"),
            "capsule/check-7",
            "§7 check 7 (§3): status: locked without locked_at and locked_by, required once the charter is LOCKED".into(),
            "record locked_at and locked_by from the LOCK signoff",
        );
    }
}

/// Body line indexes of the Identity H2s: ATX headings of level 2 (read as Markdown, so a
/// line inside fenced code is not one) whose line matches the definition's pattern.
fn identity_lines(body: &str) -> Vec<usize> {
    super::markdown::headings(body)
        .into_iter()
        .filter(|h| h.level == 2 && IDENTITY_H2.is_match(h.source.trim_end()))
        .map(|h| h.line)
        .collect()
}

static PATH_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\S*[/\\]\S*|\S+\.(?:md|jsonl?|ya?ml|toml)\b\S*").unwrap());

/// §4: the Identity section names the agent in narrative form, and points to or sums up its
/// lineage.
fn identity_content(cx: &mut Ctx) {
    let Some(&at) = identity_lines(cx.doc.body).first() else {
        return;
    };
    // A body of pointers only has one fix, narrative, and §8 already asks for it.
    if cx
        .out
        .iter()
        .any(|f| f.rule == "capsule/forbidden-pointer-body")
    {
        return;
    }
    let section = section_after(cx.doc.body, at);
    // A name inside a path (agents/argus/lineage.md) does not name the agent in narrative form.
    let lower = PATH_TOKEN
        .replace_all(&section.to_lowercase(), " ")
        .into_owned();
    let name = get(&cx.doc.front, "agent_name")
        .and_then(as_text)
        .unwrap_or_default()
        .to_lowercase();
    let line = cx.doc.body_start + at;
    if !name.is_empty() && !mentions(&lower, &name) {
        cx.add(
            line,
            "capsule/identity-content",
            format!("§4: the Identity section never names the agent ({name}) in narrative form"),
            "state the agent's name in narrative form, e.g. \"You are Argus, the Chief Architect …\"",
        );
    }
    let role = get(&cx.doc.front, "role")
        .and_then(as_text)
        .unwrap_or_default()
        .to_lowercase();
    // Whether the narrative states the role or sums up the lineage is a question of meaning:
    // the words found pass it; their absence is for a reviewer, never an error.
    if !role.trim().is_empty() && !role_stated(&lower, role.trim()) {
        cx.ask(
            line,
            "capsule/identity-role",
            format!(
                "§4: the Identity section does not use the front matter's role words ({}); a reviewer reads whether it states the role in other words",
                role.trim()
            ),
            "a reviewer decides; to settle it without one, state the role in the front matter's words, e.g. \"You are Argus, the Chief Architect …\"",
        );
    }
    lineage_findings(cx, line, &section, &name);
}

/// The lines of `body` after its line `at` up to the next heading of level 1 or 2.
fn section_after(body: &str, at: usize) -> String {
    let body_lines: Vec<&str> = body.lines().collect();
    let end = super::markdown::headings(body)
        .into_iter()
        .find(|h| h.level <= 2 && h.line > at)
        .map_or(body_lines.len(), |h| h.line.min(body_lines.len()));
    body_lines[(at + 1).min(end)..end].join("\n")
}

/// §4's lineage in the Identity `section` at `line`: none at all is an error; no lineage word or
/// pointer is for a reviewer (a summary in other words may be one).
fn lineage_findings(cx: &mut Ctx, line: usize, section: &str, name: &str) {
    if no_lineage_at_all(section) {
        cx.add(line, "capsule/identity-lineage", "§4: the Identity section neither points to nor sums up the agent's lineage (\"a pointer or summary of lineage\" is required)".into(), "add a lineage pointer, e.g. \"See <lineage substrate path> for prior generations.\"");
    } else if !LINEAGE.is_match(section) {
        let who = if name.is_empty() { "<name>" } else { name };
        cx.ask(
            line,
            "capsule/identity-lineage",
            "§4: the Identity section has no lineage word or pointer (lineage, generations, predecessor, successor, commissioned); a reviewer reads whether it sums up the lineage in other words".into(),
            &format!(
                "a reviewer decides; to settle it without one, add a lineage pointer, e.g. \"See agents/{who}/lineage.md for prior generations.\""
            ),
        );
    }
}

/// How §6 classes a frontmatter field of a locked charter: `None` for standard editing (hygiene
/// and pointer fields, and the lock-break's own records), else what a change to it is.
fn field_class(key: &str) -> Option<String> {
    if HYGIENE_FIELDS.contains(&key) || POINTER_FIELDS.contains(&key) || is_lock_break_record(key) {
        return None;
    }
    Some(if key == "scope" {
        "identity field scope (§6; §2 now calls it capability_scope)".into()
    } else if IDENTITY_FIELDS.contains(&key) {
        format!("identity field {key} (§6)")
    } else if REQUIRED.contains(&key) {
        format!("required field {key} (§2)")
    } else if OPTIONAL_FIELDS.contains(&key) {
        format!("optional substrate field {key} (§3)")
    } else {
        format!("field {key}")
    })
}

/// Where the definition records a lock-break: `locked_signoff` and amendment notes
/// (`v1_0_3_amendment_note`).
fn is_lock_break_record(key: &str) -> bool {
    key == "locked_signoff" || key.ends_with("_amendment_note")
}

/// Signed: a new or changed amendment note naming a signed lock-break, or locked_signoff, in the
/// frontmatter `h` against the base's `b`.
fn signed_lock_break(b: &Hash, h: &Hash) -> bool {
    h.iter().any(|(k, v)| {
        let Some(key) = k.as_str() else { return false };
        let new_or_changed = !b.get(k).is_some_and(|w| same(v, w));
        let names_lock_break = key == "locked_signoff"
            || as_text(v).is_some_and(|t| t.to_lowercase().contains("lock-break"));
        is_lock_break_record(key) && new_or_changed && names_lock_break
    })
}

/// The frontmatter fields of a locked charter changed from the base's `b` to `h` that §6 does not
/// count as standard editing, each with its line.
fn field_changes(cx: &Ctx, b: &Hash, h: &Hash) -> Vec<(usize, String)> {
    let mut changes = Vec::new();
    for (k, bv) in b {
        let Some(key) = k.as_str() else { continue };
        let Some(what) = field_class(key) else {
            continue;
        };
        match h.get(k) {
            None => changes.push((2, format!("{what} removed"))),
            Some(hv) if !same(hv, bv) => {
                let show = |y: &Yaml| as_text(y).map(|t| format!(" ({t}"));
                let detail = match (show(bv), as_text(hv)) {
                    (Some(was), Some(now)) => format!("{was} → {now})"),
                    _ => String::new(),
                };
                changes.push((cx.key_line(key), format!("{what} changed{detail}")));
            }
            _ => {}
        }
    }
    // Additions are standard editing, except an identity field (a rename of scope included).
    for (k, _) in h {
        if let Some(key) = k.as_str() {
            if IDENTITY_FIELDS.contains(&key) && !b.contains_key(k) {
                let what = field_class(key).unwrap_or_default();
                changes.push((cx.key_line(key), format!("{what} added")));
            }
        }
    }
    changes
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
    let (Yaml::Hash(b), Yaml::Hash(h)) = (&base.front, &cx.doc.front) else {
        return;
    };
    if signed_lock_break(b, h) {
        return;
    }
    let fix = "revert it, or record the signed lock-break in the same change, as the capsule definition records its own: an amendment note naming it (e.g. v1_0_1_amendment_note: \"… per <signer> signed lock-break …\") and locked_signoff";
    let mut changes: Vec<(usize, String)> = Vec::new();
    if checkers::extract::text::normalize_ws(base.body)
        != checkers::extract::text::normalize_ws(cx.doc.body)
    {
        changes.push((cx.doc.body_start, "the body content changed".into()));
    }
    changes.extend(field_changes(cx, b, h));
    for (line, what) in changes {
        cx.add(
            line,
            "capsule/lock-break",
            format!("§6: locked at {rev}: {what} without a signed lock-break"),
            fix,
        );
    }
}
