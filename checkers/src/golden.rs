//! Golden transcripts: hand-written replies with the verdict a careful reader of the charter
//! gives them. A golden file is TOML holding one golden at its top level, or several as
//! `[[golden]]` tables each with a `name`; a golden names its variant, `expect = "pass"`,
//! `"fail"` or `"either"` (a careful reader could say either: its verdict must be unsure), on a
//! fail the exact criteria that fail, on an `either` optionally the `readings` it admits, and the
//! model's turns after the case prompt. A turn may carry `reasoning`: the provider's separate
//! reasoning text (`Message.reasoning`), which no criterion reads.
//!
//! The golden suite (`checkers/tests/golden/`) and `harness calibrate` read the same format, so a
//! golden is a labelled transcript whatever reads it.

use crate::transcript::{FileChange, Message, Role, ToolCall, ToolStatus, Transcript, Workspace};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Golden {
    /// The golden's name: the file stem for a one-golden file, else its `name`.
    #[serde(default)]
    pub name: String,
    pub variant: String,
    pub expect: Expect,
    /// The criteria a failing golden fails, exactly.
    #[serde(default)]
    pub fails: Vec<String>,
    /// On an `either` golden: the readings a careful reader could take ("the prose's 25 %", "the
    /// JSON's 20 %"), for people; the verdict must be unsure whatever they say.
    #[serde(default)]
    pub readings: Vec<String>,
    #[serde(default)]
    pub message: Vec<GoldenMessage>,
    #[serde(default)]
    pub changed: Vec<FileChange>,
    /// Why a careful reader gives this verdict (read by people, never by a checker).
    #[serde(default)]
    pub why: Option<String>,
    /// The house style the reply is written in (`gpt-markdown`, `latex`, `tldr-first`, …).
    #[serde(default)]
    pub style: Option<String>,
    /// Which class of misreading the golden guards against (issue 22's list, 0 = none).
    #[serde(default)]
    pub class: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    Pass,
    Fail,
    /// A careful reader could say either: the checker must be unsure.
    Either,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldenMessage {
    pub role: Role,
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub name: Option<String>,
    /// A tool result's status (`ok`, `error`, `refused`); derived from the text when absent.
    #[serde(default)]
    pub status: Option<ToolStatus>,
    /// On an assistant turn: the provider's separate reasoning text (`Message.reasoning`).
    #[serde(default)]
    pub reasoning: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Many {
    golden: Vec<Golden>,
}

/// Every golden in a golden file's text; `stem` names a one-golden file's golden.
pub fn parse(text: &str, stem: &str) -> Result<Vec<Golden>, String> {
    let value: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    if value.contains_key("golden") {
        let many: Many = toml::from_str(text).map_err(|e| e.to_string())?;
        for (i, g) in many.golden.iter().enumerate() {
            if g.name.trim().is_empty() {
                return Err(format!("[[golden]] number {} has no name", i + 1));
            }
        }
        Ok(many.golden)
    } else {
        let mut one: Golden = toml::from_str(text).map_err(|e| e.to_string())?;
        if one.name.is_empty() {
            one.name = stem.to_string();
        }
        Ok(vec![one])
    }
}

impl Golden {
    /// The transcript the golden stands for: a system prompt, the case prompt, then its turns.
    pub fn transcript(&self, case: &str) -> Transcript {
        let mut messages = vec![
            Message::new(Role::System, "(charter runtime sections)"),
            Message::new(Role::User, "(case prompt)"),
        ];
        messages.extend(self.message.iter().map(|m| Message {
            role: m.role,
            content: m.content.clone(),
            tool_calls: m.tool_calls.clone(),
            tool_call_id: m.tool_call_id.clone(),
            name: m.name.clone(),
            status: m.status,
            reasoning: m.reasoning.clone(),
            reasoning_blocks: Vec::new(),
            refusal: None,
        }));
        Transcript {
            workspace: (!self.changed.is_empty()).then(|| Workspace {
                changed: self.changed.clone(),
                after_commands: Vec::new(),
            }),
            ..Transcript::new(case, &self.variant, "golden", 2, messages)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_holds_one_golden_or_many_named_ones() {
        let one = parse("variant = \"default\"\nexpect = \"pass\"\n", "pass-x").unwrap();
        assert_eq!(one[0].name, "pass-x");
        let many = parse(
            "[[golden]]\nname = \"a\"\nvariant = \"default\"\nexpect = \"fail\"\nfails = [\"x\"]\n[[golden]]\nname = \"b\"\nvariant = \"default\"\nexpect = \"pass\"\n",
            "styles",
        )
        .unwrap();
        assert_eq!(
            many.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert!(parse(
            "[[golden]]\nvariant = \"default\"\nexpect = \"pass\"\n",
            "s"
        )
        .is_err());
        assert!(parse("variant = \"default\"\nexpect = \"maybe\"\n", "s").is_err());
    }

    #[test]
    fn an_either_golden_names_its_readings_and_a_turn_carries_its_reasoning() {
        let g = parse(
            "variant = \"default\"\nexpect = \"either\"\nreadings = [\"25 %\", \"20 %\"]\n[[message]]\nrole = \"assistant\"\ncontent = \"25%\"\nreasoning = '''maybe 20%'''\n",
            "e",
        )
        .unwrap();
        assert_eq!(g[0].expect, Expect::Either);
        assert_eq!(g[0].readings, ["25 %", "20 %"]);
        let t = g[0].transcript("E1");
        assert_eq!(t.messages[2].reasoning.as_deref(), Some("maybe 20%"));
        assert_eq!(t.messages[2].content, "25%");
    }
}
