//! The case suite: the folder holding `cases/` and `fixtures/`, loaded and validated at once so
//! a bad case file stops the run before any model is called.

pub mod case;
pub mod charter;
pub mod embedded;
pub mod init;
pub mod lint;
pub mod manifest;
pub mod rules;
pub mod tools;

use crate::error::{Error, Result};
use crate::files::read::{read_text, within, Kind};
use crate::suite::case::{Case, CaseFile, Variant, VariantFile, TOOL_NAMES};
use crate::suite::charter::sha256_hex;
use checkers::transcript::{Message, Role};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Suite {
    pub root: PathBuf,
    pub cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoryFile {
    turn: Vec<crate::suite::case::SeedMessage>,
}

/// The suite root: `explicit` (`--suite`), else `$CHARTER_HARNESS_SUITE`, else the suite built
/// into the binary.
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf> {
    let from_env = crate::files::settings::var_os("CHARTER_HARNESS_SUITE").map(PathBuf::from);
    let (dir, what) = match (explicit, &from_env) {
        (Some(d), _) => (d.to_path_buf(), "--suite"),
        (None, Some(d)) => (d.clone(), "$CHARTER_HARNESS_SUITE"),
        (None, None) => return crate::suite::embedded::root(),
    };
    if dir.join("cases").is_dir() && dir.join("fixtures").is_dir() {
        Ok(dir)
    } else {
        Err(Error::input(format!(
            "{what} {}: not a case suite (a folder with cases/ and fixtures/)",
            dir.display()
        )))
    }
}

impl Suite {
    pub fn load(root: &Path) -> Result<Suite> {
        let mut cases = Vec::new();
        for id in checkers::CASE_IDS {
            let file = root.join("cases").join(format!("{id}.toml"));
            if !file.exists() {
                return Err(Error::input(format!(
                    "{}: missing; every case {} needs a case file",
                    file.display(),
                    checkers::case_range()
                )));
            }
            cases.push(load_case(root, &file, id)?);
        }
        Ok(Suite {
            root: root.to_path_buf(),
            cases,
        })
    }

    pub fn case(&self, id: &str) -> Option<&Case> {
        let id = checkers::registry::normalize_case_id(id)?;
        self.cases.iter().find(|c| c.id == id)
    }

    /// The case a stored transcript was run from, refusing one made with a different case file
    /// (its ground truth would not be the one the checker reads here).
    pub fn case_of(&self, t: &checkers::Transcript, file: &Path) -> Result<&Case> {
        let case = self.case(&t.case).ok_or_else(|| {
            Error::input(format!(
                "{}: unknown case {:?} (cases are {})",
                file.display(),
                t.case,
                checkers::case_range()
            ))
        })?;
        let variant = case.variant(&t.variant).ok_or_else(|| {
            Error::input(format!(
                "{}: variant: case {} has no variant {:?} (variants: {})",
                file.display(),
                case.id,
                t.variant,
                case.variants
                    .iter()
                    .map(|v| v.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        if variant.fixture.is_some()
            && t.workspace.is_none()
            && t.outcome == checkers::Outcome::Completed
        {
            return Err(Error::input(format!(
                "{}: workspace: {}/{} works in a fixture, so a completed transcript records its workspace (null here)",
                file.display(),
                case.id,
                variant.id
            )));
        }
        match &t.case_sha256 {
            Some(sha) if *sha != case.sha256 => Err(Error::input(format!(
                "{}: made with a different cases/{}.toml (sha256 {}…) than this suite's (sha256 {}…); \
                 check it with the harness version that made it, or pass --suite DIR holding that case file",
                file.display(),
                case.id,
                &sha[..sha.len().min(12)],
                &case.sha256[..12]
            ))),
            _ => Ok(case),
        }
    }
}

/// One case file of the suite at `root`, which must hold case `id`.
pub fn load_case(root: &Path, file: &Path, id: &str) -> Result<Case> {
    let text = read_text(file, Kind::Case)?;
    let parsed: CaseFile = crate::error::parse_toml(file, &text)?;
    let bad = |what: String| bad_case(file, what);
    if parsed.id != id {
        return Err(bad(format!(
            "id = {:?}, but the file is named for {id}",
            parsed.id
        )));
    }
    if parsed.rules.is_empty() {
        return Err(bad(format!(
            "rules = []: name the charter rules the case tests ({})",
            crate::suite::rules::NAME_FORMS
        )));
    }
    if let Some(r) = parsed
        .rules
        .iter()
        .find(|r| !crate::suite::rules::is_rule_name(r))
    {
        return Err(bad(format!(
            "rules: {r:?} is not a rule name as the charter writes them ({})",
            crate::suite::rules::NAME_FORMS
        )));
    }
    let checker = checkers::checker_for(id).map_err(|e| bad(e.to_string()))?;
    let declared: Vec<&str> = parsed.variants.iter().map(|v| v.id.as_str()).collect();
    if declared != checker.variants {
        return Err(bad(format!(
            "variants {declared:?} differ from the contract's {:?} for {id}",
            checker.variants
        )));
    }
    let variants = parsed
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| load_variant(root, file, i, v))
        .collect::<Result<Vec<Variant>>>()?;
    let probe = match &parsed.probe {
        Some(rel) => {
            let p = within(&root.join("fixtures/probes"), rel, "probe")
                .map_err(|e| bad(e.to_string()))?;
            Some(read_text(&p, Kind::Scripted).map_err(|e| bad(format!("probe: {e}")))?)
        }
        None => None,
    };
    Ok(Case {
        id: parsed.id,
        title: parsed.title,
        passes_when: parsed.passes_when,
        rules: parsed.rules,
        truth: parsed.truth,
        probe,
        variants,
        file: file.to_path_buf(),
        sha256: sha256_hex(text.as_bytes()),
    })
}

/// A problem of the case file `file`.
fn bad_case(file: &Path, what: String) -> Error {
    Error::input(format!("{}: {what}", file.display()))
}

/// The variant's fixture folder `name`, under the suite's fixtures/workspaces.
fn fixture_dir(root: &Path, file: &Path, key: &str, name: &str) -> Result<PathBuf> {
    let dir = within(
        &root.join("fixtures/workspaces"),
        name,
        &format!("{key}.fixture"),
    )?;
    if !dir.is_dir() {
        return Err(bad_case(
            file,
            format!("{key}.fixture: no folder {}", dir.display()),
        ));
    }
    Ok(dir)
}

/// The variant's pages, by URL: each file under the suite's fixtures/pages, read.
fn pages(
    root: &Path,
    file: &Path,
    key: &str,
    v: &VariantFile,
) -> Result<std::collections::BTreeMap<String, String>> {
    let mut pages = std::collections::BTreeMap::new();
    for (url, rel) in &v.pages {
        let p = within(
            &root.join("fixtures/pages"),
            rel,
            &format!("{key}.pages[{url:?}]"),
        )?;
        let text = read_text(&p, Kind::Scripted)
            .map_err(|e| bad_case(file, format!("{key}.pages[{url:?}]: {e}")))?;
        pages.insert(url.clone(), text);
    }
    Ok(pages)
}

/// Variant `i` of a case file: its tools from the contract, its fixture, pages and history in
/// the suite, and seeded turns that end with a user message.
fn load_variant(root: &Path, file: &Path, i: usize, v: &VariantFile) -> Result<Variant> {
    let bad = |what: String| bad_case(file, what);
    let key = format!("variants[{i}] ({})", v.id);
    for t in &v.tools {
        if !TOOL_NAMES.contains(&t.as_str()) {
            return Err(bad(format!(
                "{key}.tools: unknown tool {t:?} (the tools: {})",
                TOOL_NAMES.join(", ")
            )));
        }
    }
    let fixture = match &v.fixture {
        Some(name) => Some(fixture_dir(root, file, &key, name)?),
        None => None,
    };
    if !v.run_tests.is_empty() && !v.tools.iter().any(|t| t == "run_tests") {
        return Err(bad(format!(
            "{key}.run_tests is set but run_tests is not among its tools"
        )));
    }
    if v.tools.iter().any(|t| t == "run_tests") && (v.run_tests.is_empty() || fixture.is_none()) {
        return Err(bad(format!(
            "{key}: offers run_tests but gives no fixture and run_tests command"
        )));
    }
    let pages = pages(root, file, &key, v)?;
    let mut seed = history_seed(root, file, &key, v)?;
    seed.extend(seeded_turns(root, file, &key, v)?);
    if seed.last().map(|m| m.role) != Some(Role::User) {
        return Err(bad(format!(
            "{key}: the seeded turns must end with a user message"
        )));
    }
    Ok(Variant {
        id: v.id.clone(),
        fixture,
        tools: v.tools.clone(),
        run_tests: v.run_tests.clone(),
        pages,
        seed,
    })
}

/// The turns of the variant's history file (less its last `omit_turns`), each tool call
/// followed by an empty result the replay fills in; calls only to tools the variant offers.
fn history_seed(root: &Path, file: &Path, key: &str, v: &VariantFile) -> Result<Vec<Message>> {
    let bad = |what: String| bad_case(file, what);
    let mut seed = Vec::new();
    let Some(h) = &v.history else {
        return Ok(seed);
    };
    let hp = within(
        &root.join("fixtures/histories"),
        &format!("{h}.toml"),
        &format!("{key}.history"),
    )?;
    let htext = read_text(&hp, Kind::Scripted)?;
    let hist: HistoryFile = crate::error::parse_toml(&hp, &htext)?;
    if v.omit_turns >= hist.turn.len() {
        return Err(bad(format!(
            "{key}.omit_turns = {} leaves nothing of {} turns",
            v.omit_turns,
            hist.turn.len()
        )));
    }
    for t in hist.turn.iter().skip(v.omit_turns) {
        check_tokens(root, &t.content).map_err(|e| bad(format!("{key}.history: {e}")))?;
        if !t.tool_calls.is_empty() && t.role != Role::Assistant {
            return Err(bad(format!(
                "{key}.history: only assistant turns make tool calls"
            )));
        }
        let mut m = Message::new(t.role, t.content.clone());
        m.tool_calls = t.tool_calls.clone();
        seed.push(m);
        for c in &t.tool_calls {
            if !v.tools.contains(&c.name) {
                return Err(bad(format!(
                    "{key}.history: step calls {:?}, which the variant does not offer",
                    c.name
                )));
            }
            let mut r = Message::new(Role::Tool, "");
            r.tool_call_id = Some(c.id.clone());
            r.name = Some(c.name.clone());
            seed.push(r);
        }
    }
    Ok(seed)
}

/// The variant's own `seed` turns: user or assistant text only (tool calls belong in a
/// history file, the system prompt is the charter).
fn seeded_turns(root: &Path, file: &Path, key: &str, v: &VariantFile) -> Result<Vec<Message>> {
    let bad = |what: String| bad_case(file, what);
    let mut seed = Vec::new();
    for (j, s) in v.seed.iter().enumerate() {
        if matches!(s.role, Role::System | Role::Tool) {
            return Err(bad(format!(
                "{key}.seed[{j}].role must be user or assistant (the system prompt is the charter)"
            )));
        }
        if !s.tool_calls.is_empty() {
            return Err(bad(format!(
                "{key}.seed[{j}]: tool calls belong in a history file"
            )));
        }
        check_tokens(root, &s.content).map_err(|e| bad(format!("{key}.seed[{j}]: {e}")))?;
        seed.push(Message::new(s.role, s.content.clone()));
    }
    Ok(seed)
}

/// Every `{{integrity_token:PATH}}` in `content` names a readable file of the suite (they are
/// expanded when the suite is bound to a charter, over the rendered bytes).
fn check_tokens(root: &Path, content: &str) -> std::result::Result<(), String> {
    expand_tokens(content, |rel| {
        let path = within(root, rel, "integrity token").map_err(|e| e.to_string())?;
        read_text(&path, Kind::Scripted)
            .map(|_| String::new())
            .map_err(|e| format!("{e} (an integrity token must name a file of the suite)"))
    })
    .map(|_| ())
}

/// Replace every `{{integrity_token:PATH}}` with `token(PATH)`.
pub(crate) fn expand_tokens(
    content: &str,
    mut token: impl FnMut(&str) -> std::result::Result<String, String>,
) -> std::result::Result<String, String> {
    const OPEN: &str = "{{integrity_token:";
    let mut out = String::new();
    let mut rest = content;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len()..];
        let end = after.find("}}").ok_or("unclosed {{integrity_token:…}}")?;
        out.push_str(&token(after[..end].trim())?);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

pub fn integrity_token(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    let last = text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
    format!(
        "sha256={} bytes={} first={first:?} last={last:?}",
        sha256_hex(text.as_bytes()),
        text.len()
    )
}

/// Filter values as given: repeated flags and comma lists (`--case E8,E9`) alike.
pub fn split_list(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

/// The cases `--case` names (each once, in order), or every case when it names none.
fn cases_in_scope<'a>(suite: &'a Suite, cases: &[String]) -> Result<Vec<&'a Case>> {
    let mut wanted_cases = Vec::new();
    for c in cases {
        let case = suite.case(c).ok_or_else(|| {
            let ids = suite.cases.iter().map(|c| c.id.as_str());
            Error::input(format!(
                "--case {c}: no such case{} (cases are {})",
                crate::error::did_you_mean(c, ids),
                checkers::case_range()
            ))
        })?;
        // A case named twice (a base rerun names each failing unit's case) runs once.
        if !wanted_cases.iter().any(|w: &&Case| w.id == case.id) {
            wanted_cases.push(case);
        }
    }
    Ok(if wanted_cases.is_empty() {
        suite.cases.iter().collect()
    } else {
        wanted_cases
    })
}

/// The variants each case in scope has, for the error naming an unknown `--variant`.
fn variants_listed(scope: &[&Case]) -> String {
    scope
        .iter()
        .map(|c| {
            let ids: Vec<&str> = c.variants.iter().map(|x| x.id.as_str()).collect();
            format!(
                "{} has {} {}",
                c.id,
                if ids.len() == 1 {
                    "variant"
                } else {
                    "variants"
                },
                ids.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The units to run: (case, variant) pairs passing the `--case` and `--variant` filters. Case
/// and variant ids match without regard to case (`e8`, `E08`, `a`); an unknown one is named with
/// the ids that exist.
pub fn select<'a>(
    suite: &'a Suite,
    cases: &[String],
    variants: &[String],
) -> Result<Vec<(&'a Case, &'a Variant)>> {
    let (cases, variants) = (split_list(cases), split_list(variants));
    let scope = cases_in_scope(suite, &cases)?;
    for v in &variants {
        if !scope
            .iter()
            .any(|c| c.variants.iter().any(|x| x.id.eq_ignore_ascii_case(v)))
        {
            return Err(Error::input(format!(
                "--variant {v}: no selected case has it ({})",
                variants_listed(&scope)
            )));
        }
    }
    let units: Vec<(&Case, &Variant)> = scope
        .into_iter()
        .flat_map(|c| c.variants.iter().map(move |v| (c, v)))
        .filter(|(_, v)| {
            variants.is_empty() || variants.iter().any(|w| v.id.eq_ignore_ascii_case(w))
        })
        .collect();
    if units.is_empty() {
        return Err(Error::input(format!(
            "--case {} --variant {} select no unit",
            cases.join(","),
            variants.join(",")
        )));
    }
    Ok(units)
}
