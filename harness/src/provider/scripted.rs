//! The scripted provider: replays replies from `fixtures/scripted/<script>/<case>-<variant>.toml`,
//! one per model turn, so the whole pipeline runs offline and deterministically.
//!
//! A reply may hold `{{core_invariants}}`, filled from the Core Invariants section of the system
//! prompt it is sent, as a model copying from its instructions would.
//!
//! A script folder holding `reads-charter.toml` (`compliant = "FOLDER"`, `naive = "FOLDER"`) is
//! a model that reads its charter: each unit is answered from the compliant folder's script
//! while the system prompt still holds every rule the unit's case names (`rules = [...]` in
//! `cases/ENN.toml`), and from the naive folder's otherwise. Deleting a rule from the charter
//! turns exactly the units that rule serves naive, so the offline gate can show a regression.

use super::{BoxFuture, FinishReason, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::error::{Error, Result};
use crate::files::read::{read_text, Kind};
use crate::suite::manifest::ModelEntry;
use checkers::transcript::ToolCall;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// The file that makes a script folder a charter-reading model.
pub const READS_CHARTER: &str = "reads-charter.toml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadsCharterFile {
    /// The script folder answering a unit whose rules the charter holds.
    compliant: String,
    /// The script folder answering a unit whose rules the charter lost.
    naive: String,
}

/// Whether a scripted model entry reads its charter (its script folder holds
/// `reads-charter.toml`), or replays fixed scripts whatever the system prompt says.
pub fn reads_charter(entry: &ModelEntry, suite_root: &Path) -> bool {
    entry.script.as_deref().is_some_and(|s| {
        let marker = suite_root
            .join("fixtures/scripted")
            .join(s)
            .join(READS_CHARTER);
        crate::files::read::present(&marker)
    })
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptFile {
    reply: Vec<ScriptedReply>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptedReply {
    #[serde(default)]
    content: String,
    #[serde(default)]
    tool_calls: Vec<ScriptedCall>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptedCall {
    name: String,
    #[serde(default)]
    arguments: serde_json::Value,
}

/// "E9/default" → replies.
type Scripts = HashMap<String, Vec<ScriptedReply>>;

pub struct ScriptedProvider {
    model: String,
    scripts: Scripts,
    /// For a charter-reading model: the naive replies, and each case's rules.
    reader: Option<Reader>,
}

struct Reader {
    naive: Scripts,
    rules: HashMap<String, Vec<String>>,
}

impl ScriptedProvider {
    pub fn load(entry: &ModelEntry, suite: &crate::suite::Suite) -> Result<ScriptedProvider> {
        let name = entry.script.as_deref().unwrap_or_default();
        let dir = script_dir(entry, &suite.root, name)?;
        let marker = dir.join(READS_CHARTER);
        // Anything by that name is the marker: read (or refused, named) by the bounded reader.
        if !crate::files::read::present(&marker) {
            return Ok(ScriptedProvider {
                model: entry.model.clone(),
                scripts: load_scripts(&dir)?,
                reader: None,
            });
        }
        let text = read_text(&marker, Kind::Scripted)?;
        let file: ReadsCharterFile = crate::error::parse_toml(&marker, &text)?;
        let mut sets = Vec::new();
        for folder in [&file.compliant, &file.naive] {
            if folder.is_empty() || folder.contains(['/', '\\']) || folder.starts_with('.') {
                return Err(Error::input(format!(
                    "{}: {folder:?} is not a script folder name under fixtures/scripted/",
                    marker.display()
                )));
            }
            sets.push(load_scripts(&script_dir(entry, &suite.root, folder)?)?);
        }
        let naive = sets.pop().unwrap_or_default();
        let compliant = sets.pop().unwrap_or_default();
        let rules = suite
            .cases
            .iter()
            .map(|c| (c.id.clone(), c.rules.clone()))
            .collect();
        Ok(ScriptedProvider {
            model: entry.model.clone(),
            scripts: compliant,
            reader: Some(Reader { naive, rules }),
        })
    }

    /// The replies for a unit: a charter-reading model answers naively when the system
    /// prompt lost any rule the unit's case names.
    fn replies(&self, case: &str, variant: &str, system: &str) -> Option<&Vec<ScriptedReply>> {
        let key = format!("{case}/{variant}");
        match &self.reader {
            Some(r) => {
                let rules = r.rules.get(case).map_or(&[][..], |v| &v[..]);
                if crate::suite::rules::missing(system, rules).is_empty() {
                    self.scripts.get(&key)
                } else {
                    r.naive.get(&key)
                }
            }
            None => self.scripts.get(&key),
        }
    }
}

/// A scripted text with `{{core_invariants}}` replaced by the Core Invariants of the charter in
/// the system prompt.
fn fill(s: &str, system: &str) -> String {
    if s.contains("{{core_invariants}}") {
        let core = crate::suite::charter::section(system, "Core Invariants").unwrap_or_default();
        s.replace("{{core_invariants}}", &core)
    } else {
        s.to_string()
    }
}

/// The scripted calls of turn `turn` (from 0), each string argument filled, with ids by turn and
/// place.
fn scripted_calls(calls: &[ScriptedCall], turn: usize, system: &str) -> Vec<ToolCall> {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut arguments = c.arguments.clone();
            if let Some(obj) = arguments.as_object_mut() {
                for v in obj.values_mut() {
                    if let Some(s) = v.as_str() {
                        *v = serde_json::Value::String(fill(s, system));
                    }
                }
            }
            ToolCall {
                id: format!("call_{}_{}", turn + 1, i + 1),
                name: c.name.clone(),
                arguments,
            }
        })
        .collect()
}

fn script_dir(entry: &ModelEntry, root: &Path, name: &str) -> Result<std::path::PathBuf> {
    // A suite's paths stay inside the suite: `script = ".."` is refused.
    let dir = crate::files::read::within(
        &root.join("fixtures/scripted"),
        name,
        &format!("model {}: script", entry.name()),
    )?;
    if !dir.is_dir() {
        let what = if crate::files::read::present(&dir) {
            "is not a folder"
        } else {
            "does not exist"
        };
        return Err(Error::input(format!(
            "model {}: script folder {} {what}",
            entry.name(),
            dir.display()
        )));
    }
    Ok(dir)
}

/// Every `CASE-VARIANT.toml` of a script folder.
fn load_scripts(dir: &Path) -> Result<Scripts> {
    let mut scripts = HashMap::new();
    for e in std::fs::read_dir(dir)
        .map_err(|e| Error::io_op("read script folder", dir, e))?
        .flatten()
    {
        let path = e.path();
        if path.extension().and_then(|x| x.to_str()) != Some("toml")
            || path.file_name().is_some_and(|n| n == READS_CHARTER)
        {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let Some((case, variant)) = stem.split_once('-') else {
            return Err(Error::input(format!(
                "{}: script files are named CASE-VARIANT.toml",
                path.display()
            )));
        };
        let text = read_text(&path, Kind::Scripted)?;
        let file: ScriptFile = crate::error::parse_toml(&path, &text)?;
        scripts.insert(format!("{case}/{variant}"), file.reply);
    }
    Ok(scripts)
}

impl Provider for ScriptedProvider {
    fn covers(&self, case: &str, variant: &str) -> bool {
        let key = format!("{case}/{variant}");
        self.scripts.contains_key(&key)
            && self
                .reader
                .as_ref()
                .is_none_or(|r| r.naive.contains_key(&key))
    }

    fn complete<'a>(
        &'a self,
        req: ModelRequest<'a>,
    ) -> BoxFuture<'a, std::result::Result<ModelReply, ProviderError>> {
        Box::pin(async move {
            let key = format!("{}/{}", req.case, req.variant);
            let replies = self
                .replies(req.case, req.variant, req.system)
                .ok_or_else(|| ProviderError::NoScript { unit: key.clone() })?;
            let r = replies
                .get(req.turn)
                .ok_or_else(|| ProviderError::NoScriptedReply {
                    unit: key.clone(),
                    turn: req.turn + 1,
                    replies: replies.len(),
                })?;
            let tool_calls = scripted_calls(&r.tool_calls, req.turn, req.system);
            let input_chars: usize =
                req.system.len() + req.messages.iter().map(|m| m.content.len()).sum::<usize>();
            Ok(ModelReply {
                content: fill(&r.content, req.system),
                tool_calls,
                finish_reason: Some(FinishReason::Stop),
                usage: Usage {
                    input_tokens: (input_chars / 4) as u64,
                    output_tokens: (r.content.len() / 4) as u64,
                    ..Usage::default()
                },
                model_reported: Some(self.model.clone()),
                system_fingerprint: None,
                attempts: 1,
                request_id: None,
                ..ModelReply::default()
            })
        })
    }
}
