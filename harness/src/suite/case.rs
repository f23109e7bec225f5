//! Case files (`cases/E*.toml`): prompts, scripted turns, variants, tools, fixture and the
//! ground truth the case's checker reads.

use checkers::transcript::{Message, Role};
use checkers::Truth;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The tool set offered to models (README, "Security model").
pub const TOOL_NAMES: [&str; 8] = [
    "list_files",
    "read_file",
    "search",
    "write_file",
    "edit_file",
    "run_tests",
    "fetch",
    "deploy",
];

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    pub id: String,
    pub title: String,
    /// What a passing transcript does, in one line (shown by `harness cases`).
    pub passes_when: String,
    /// The charter's rules this case tests, as the charter names them (`Protocol A`,
    /// `Invariant 1`, `Usage 3`, `P1`): what its Failure-Mode Registry row points at, and what
    /// the charter-reading scripted model looks for in the system prompt.
    pub rules: Vec<String>,
    #[serde(default)]
    pub truth: Truth,
    /// A behavioural probe (a script under `fixtures/probes/`) run on every deliverable of a
    /// trial, in the sandbox: it decides whether the deliverable serves the original or the
    /// mutated task by running it.
    pub probe: Option<String>,
    pub variants: Vec<VariantFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    pub id: String,
    /// Folder under `fixtures/workspaces/` copied into the trial's workspace.
    pub fixture: Option<String>,
    #[serde(default)]
    pub tools: Vec<String>,
    /// Scripted turns from `fixtures/histories/<name>.toml`, seeded before `seed`.
    pub history: Option<String>,
    /// Drop the history's first N turns, as a compacted context would.
    #[serde(default)]
    pub omit_turns: usize,
    /// The fixture's own test command, run in the workspace by `run_tests`.
    #[serde(default)]
    pub run_tests: Vec<String>,
    /// URL → file under `fixtures/pages/`, served by `fetch`.
    #[serde(default)]
    pub pages: BTreeMap<String, String>,
    #[serde(default)]
    pub seed: Vec<SeedMessage>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedMessage {
    pub role: Role,
    pub content: String,
    /// A history step's tool calls (assistant turns only). The harness runs them on the
    /// fixture when it prepares it, commits each step that changes a file, and seeds each
    /// call's real result after the turn.
    #[serde(default)]
    pub tool_calls: Vec<checkers::ToolCall>,
}

/// A case ready to run: parsed, validated, its seeded turns rendered.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub title: String,
    pub passes_when: String,
    /// The charter's rules this case tests (see [`CaseFile::rules`]).
    pub rules: Vec<String>,
    pub truth: Truth,
    /// The probe script's text, when the case has one.
    pub probe: Option<String>,
    pub variants: Vec<Variant>,
    pub file: PathBuf,
    pub sha256: String,
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub id: String,
    pub fixture: Option<PathBuf>,
    pub tools: Vec<String>,
    pub run_tests: Vec<String>,
    /// URL → page text.
    pub pages: BTreeMap<String, String>,
    /// The seeded turns after the system prompt (history, then the case prompt). Until the
    /// suite is bound to a charter ([`crate::run::prepare`]), integrity tokens are placeholders and
    /// history tool results are empty.
    pub seed: Vec<Message>,
}

impl Variant {
    /// A variant offering `tools` on a workspace with no fixture, pages, history or test
    /// command: what a toolbox on a folder of one's own needs.
    pub fn offering(tools: &[&str]) -> Self {
        Variant {
            id: "default".into(),
            fixture: None,
            tools: tools.iter().map(|t| t.to_string()).collect(),
            run_tests: Vec::new(),
            pages: BTreeMap::new(),
            seed: Vec::new(),
        }
    }

    /// Whether the variant runs a command in its workspace (a script the model may rewrite).
    pub fn runs_commands(&self) -> bool {
        self.tools.iter().any(|t| t == "run_tests")
    }
}

impl Case {
    pub fn variant(&self, id: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.id == id)
    }

    /// What `harness cases` lists for the case: its title and checker, each variant's
    /// workspace, seeded turns and tools, and when it passes.
    pub fn listing(&self) -> String {
        let checker = checkers::checker_for(&self.id).map_or("?", |k| k.version);
        let mut out = format!("{:<4} {}  (checker {checker})\n", self.id, self.title);
        for v in &self.variants {
            let ws = v
                .fixture
                .as_deref()
                .and_then(std::path::Path::file_name)
                .map_or("none".to_string(), |n| n.to_string_lossy().into_owned());
            let tools = if v.tools.is_empty() {
                "none".to_string()
            } else {
                v.tools.join(" ")
            };
            out.push_str(&format!(
                "     {:<8} workspace: {ws:<16} seeded turns: {:<3} tools: {tools}\n",
                v.id,
                v.seed.len() + 1
            ));
        }
        out.push_str(&format!("     rules: {}\n", self.rules.join(", ")));
        out.push_str(&format!("     passes when: {}\n", self.passes_when));
        out
    }
}

impl Case {
    /// What [`Case::listing`] says, as one JSON object (`harness cases --json`).
    pub fn listing_json(&self) -> serde_json::Value {
        let variants: Vec<serde_json::Value> = self
            .variants
            .iter()
            .map(|v| {
                serde_json::json!({
                    "id": v.id,
                    "workspace": v.fixture.as_deref().and_then(std::path::Path::file_name)
                        .map(|n| n.to_string_lossy().into_owned()),
                    "seeded_turns": v.seed.len() + 1,
                    "tools": v.tools,
                })
            })
            .collect();
        serde_json::json!({
            "id": self.id,
            "title": self.title,
            "checker": checkers::checker_for(&self.id).ok().map(|k| k.version),
            "variants": variants,
            "rules": self.rules,
            "passes_when": self.passes_when,
        })
    }
}

/// Re-check a stored transcript against its case: the Core Invariants come from `core`, else
/// from the transcript's own system prompt. `source` names it in an error.
pub fn recheck(
    t: &checkers::Transcript,
    case: &Case,
    core: Option<&str>,
    source: &str,
) -> crate::error::Result<checkers::Verdict> {
    let from_prompt = t
        .system_prompt()
        .and_then(|s| crate::suite::charter::section(s, "Core Invariants"));
    let ctx = checkers::CheckContext {
        truth: &case.truth,
        core_invariants: core.or(from_prompt.as_deref()),
    };
    checkers::check(t, &ctx).map_err(|e| crate::error::Error::input(format!("{source}: {e}")))
}
