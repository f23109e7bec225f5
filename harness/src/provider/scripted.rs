//! The scripted provider: replays replies from `fixtures/scripted/<script>/<case>-<variant>.toml`,
//! one per model turn, so the whole pipeline runs offline and deterministically.
//!
//! A reply may hold `{{core_invariants}}`, filled from the Core Invariants section of the system
//! prompt it is sent, as a model copying from its instructions would.

use super::{BoxFuture, FinishReason, ModelReply, ModelRequest, Provider, ProviderError, Usage};
use crate::error::{Error, Result};
use crate::files::read::{read_text, Kind};
use crate::suite::manifest::ModelEntry;
use checkers::transcript::ToolCall;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

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

pub struct ScriptedProvider {
    model: String,
    /// "E9/default" → replies.
    scripts: HashMap<String, Vec<ScriptedReply>>,
}

impl ScriptedProvider {
    pub fn load(entry: &ModelEntry, suite_root: &Path) -> Result<ScriptedProvider> {
        let name = entry.script.as_deref().unwrap_or_default();
        let dir = crate::files::read::within(
            &suite_root.join("fixtures/scripted"),
            name,
            &format!("model {}: script", entry.name()),
        )?;
        if !dir.is_dir() {
            return Err(Error::input(format!(
                "model {}: script folder {} does not exist",
                entry.name(),
                dir.display()
            )));
        }
        let mut scripts = HashMap::new();
        for e in std::fs::read_dir(&dir)
            .map_err(|e| Error::io_op("read script folder", &dir, e))?
            .flatten()
        {
            let path = e.path();
            if path.extension().and_then(|x| x.to_str()) != Some("toml") {
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
        Ok(ScriptedProvider {
            model: entry.model.clone(),
            scripts,
        })
    }
}

impl Provider for ScriptedProvider {
    fn covers(&self, case: &str, variant: &str) -> bool {
        self.scripts.contains_key(&format!("{case}/{variant}"))
    }

    fn complete<'a>(
        &'a self,
        req: ModelRequest<'a>,
    ) -> BoxFuture<'a, std::result::Result<ModelReply, ProviderError>> {
        Box::pin(async move {
            let key = format!("{}/{}", req.case, req.variant);
            let replies = self
                .scripts
                .get(&key)
                .ok_or_else(|| ProviderError::NoScript { unit: key.clone() })?;
            let r = replies
                .get(req.turn)
                .ok_or_else(|| ProviderError::NoScriptedReply {
                    unit: key.clone(),
                    turn: req.turn + 1,
                    replies: replies.len(),
                })?;
            let fill = |s: &str| {
                if s.contains("{{core_invariants}}") {
                    let core = crate::suite::charter::section(req.system, "Core Invariants")
                        .unwrap_or_default();
                    s.replace("{{core_invariants}}", &core)
                } else {
                    s.to_string()
                }
            };
            let tool_calls = r
                .tool_calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut arguments = c.arguments.clone();
                    if let Some(obj) = arguments.as_object_mut() {
                        for v in obj.values_mut() {
                            if let Some(s) = v.as_str() {
                                *v = serde_json::Value::String(fill(s));
                            }
                        }
                    }
                    ToolCall {
                        id: format!("call_{}_{}", req.turn + 1, i + 1),
                        name: c.name.clone(),
                        arguments,
                    }
                })
                .collect();
            let input_chars: usize =
                req.system.len() + req.messages.iter().map(|m| m.content.len()).sum::<usize>();
            Ok(ModelReply {
                content: fill(&r.content),
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
            })
        })
    }
}
