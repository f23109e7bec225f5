//! Transcript format v1 (contract §3): the record of one trial, shared by the runner and checkers.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

pub const FORMAT_V1: &str = "charter-harness/transcript/v1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    #[serde(default = "default_format")]
    pub format: String,
    pub case: String,
    pub variant: String,
    #[serde(default)]
    pub model: String,
    #[serde(default)]
    pub trial: u32,
    #[serde(default = "default_arm")]
    pub arm: String,
    #[serde(default)]
    pub charter_sha256: String,
    pub seeded: usize,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub workspace: Option<Workspace>,
    #[serde(default)]
    pub outcome: Outcome,
    #[serde(default)]
    pub error: Option<String>,
    /// The tool loop stopped at `max_steps` before the model gave a final answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub max_steps_reached: bool,
    /// What the harness records about the trial's requests. Read leniently: a shape this
    /// version does not know reads as absent (no checker looks at these).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub usage: Option<TrialUsage>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub timing: Option<Timing>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub request_ids: Option<Vec<RequestRecord>>,
    /// What is needed to replay the trial's first request: the model entry (no secrets), the
    /// decoding actually sent and the tool definitions offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<Value>,
    /// The verdict the harness made when it wrote the transcript.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub checker: Option<crate::Verdict>,
    /// sha256 of the case file the trial was run from: a checker's ground truth is only valid
    /// for the case file it was written against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_sha256: Option<String>,
    /// Caps the trial hit (`[run]` in the manifest): what was cut or refused, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caps_hit: Option<Vec<String>>,
    /// Behavioural probes run on the trial's deliverables (E8, E12); absent when none ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probes: Option<Vec<ProbeResult>>,
}

/// Tokens a trial used, summed over its requests. Fields in alphabetical order, the order
/// transcripts have always had.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TrialUsage {
    #[serde(default)]
    pub cache_read_input_tokens: u64,
    #[serde(default)]
    pub cache_write_input_tokens: u64,
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    #[serde(default)]
    pub duration_ms: u64,
}

/// One request of the trial as the API answered it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub finish_reason: Option<String>,
    /// The model id the API reported.
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub request_id: Option<String>,
    #[serde(default)]
    pub system_fingerprint: Option<String>,
    #[serde(default)]
    pub turn: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<RequestUsage>,
}

/// One request's tokens as the API reported them (cache figures apart).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestUsage {
    #[serde(default)]
    pub cache_read_tokens: u64,
    #[serde(default)]
    pub cache_write_tokens: u64,
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
}

/// A field the harness writes for people and reports, never for checkers: when it does not
/// have the shape this version writes, it reads as absent instead of failing the transcript.
fn lenient<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let v = Option::<Value>::deserialize(d)?;
    Ok(v.and_then(|v| serde_json::from_value(v).ok()))
}

/// What a case's behavioural probe found when it ran one deliverable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeResult {
    /// sha256 of the deliverable's text, as [`crate::extract::tools::deliverables`] gives it.
    pub deliverable_sha256: String,
    /// Where it came from: `reply code block`, `write_file src/duration.py`, ….
    pub source: String,
    /// Whether the deliverable could run at all (it parsed and defined what the task asks for).
    pub runs: bool,
    /// It behaves as the original task says, on the original task's examples.
    pub serves_original: bool,
    /// It behaves as the mutated task says.
    pub serves_mutated: bool,
    /// The probe's own account, cut short.
    #[serde(default)]
    pub detail: String,
}

fn default_format() -> String {
    FORMAT_V1.to_string()
}
fn default_arm() -> String {
    "charter".to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    #[default]
    Completed,
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    /// `null` content (an assistant turn that only calls tools) reads as empty text.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// On a tool result: whether the call did what it was asked, as the harness saw it. Absent
    /// in hand-made and older transcripts; readers then derive it from the text
    /// ([`Message::tool_status`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    /// On an assistant message: the provider's separate reasoning text (OpenAI-compatible
    /// `reasoning_content` / `reasoning`, Anthropic `thinking` blocks), recorded apart from
    /// `content`. It is the model's scratch work: no criterion reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// On an assistant message: provider blocks that must be sent back unchanged on the next
    /// turn (Anthropic `thinking` / `redacted_thinking` blocks with their signatures), kept as
    /// sent. Never read by a criterion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasoning_blocks: Vec<serde_json::Value>,
    /// On an assistant message: the provider said the model refused (OpenAI `message.refusal`,
    /// Anthropic `stop_reason: "refusal"`). Absent when it did not. `deliverable` fails naming
    /// it; the other criteria read its text as the reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
}

/// A refusal as the provider reported it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refusal {
    /// What the model said in refusing (OpenAI's `refusal` text; Anthropic's text before the
    /// stop, possibly empty).
    #[serde(default)]
    pub text: String,
    /// The provider's word for it (`refusal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The provider's details as sent (Anthropic `stop_details`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl Refusal {
    /// The refusal in one line: the provider's reason, its details' category and explanation
    /// when given, and the text.
    pub fn describe(&self) -> String {
        let mut out = format!("refused ({})", self.reason.as_deref().unwrap_or("refusal"));
        let detail = |k: &str| {
            self.details
                .as_ref()
                .and_then(|d| d.get(k))
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
        };
        if let Some(c) = detail("category") {
            out.push_str(&format!(", category {c}"));
        }
        if let Some(e) = detail("explanation") {
            out.push_str(&format!(": {e}"));
        }
        if !self.text.trim().is_empty() {
            let short: String = self.text.trim().chars().take(120).collect();
            out.push_str(&format!(": \"{short}\""));
        }
        out
    }
}

/// How a tool call ended: `ok`, `error` (it ran and failed: no such file, no match, HTTP 404)
/// or `refused` (the harness would not run it: a path outside the workspace, a cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    Ok,
    Error,
    Refused,
}

fn null_as_empty<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
            reasoning: None,
            reasoning_blocks: Vec::new(),
            status: None,
            refusal: None,
        }
    }

    /// What the user reads of this message: its content, or a refusal's text when the content
    /// is empty (OpenAI sends a refusal apart, with no content).
    pub fn reply(&self) -> &str {
        match &self.refusal {
            Some(r) if self.content.trim().is_empty() => &r.text,
            _ => &self.content,
        }
    }

    /// Whether the content holds anything outside reasoning blocks: a turn of scratch work
    /// alone says nothing to the user.
    pub fn has_reply(&self) -> bool {
        !crate::extract::structured::reply_text(self.reply())
            .trim()
            .is_empty()
    }

    /// A tool result's status: as recorded, else read from its text the way the harness has
    /// always written failures (`error: …`, `refused: …`).
    pub fn tool_status(&self) -> ToolStatus {
        if let Some(s) = self.status {
            return s;
        }
        let t = self.content.trim_start();
        let lower = t.get(..8).unwrap_or(t).to_ascii_lowercase();
        if lower.starts_with("refused") {
            ToolStatus::Refused
        } else if lower.starts_with("error") || http_error(t) {
            ToolStatus::Error
        } else {
            ToolStatus::Ok
        }
    }
}

/// A result that opens with an HTTP error status ("404 Not Found: …", "HTTP 500 …"): the
/// fetch tool's own form for a page it could not get, in transcripts that carry no `status`.
fn http_error(content: &str) -> bool {
    let rest = content.strip_prefix("HTTP").map_or(content, |r| {
        r.trim_start_matches(|c: char| c == '/' || c == '.' || c.is_ascii_digit())
            .trim_start()
    });
    let code: String = rest.chars().take_while(char::is_ascii_digit).collect();
    code.len() == 3
        && code.as_str() >= "400"
        && code.as_str() < "600"
        && rest[3..].starts_with([' ', ':'])
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
}

impl ToolCall {
    /// A string argument, or "" when absent or not a string.
    pub fn arg(&self, key: &str) -> &str {
        self.arguments
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Workspace {
    #[serde(default)]
    pub changed: Vec<FileChange>,
    /// What each command the model ran (`run_tests`, `deploy`, the probe) changed in the
    /// workspace, in order: criteria about files read these, not the calls' arguments, so a
    /// file changed by a script is seen. Absent in older transcripts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after_commands: Vec<CommandEffect>,
}

/// The workspace after one command: every path whose content differs from before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandEffect {
    /// Index in `messages` of the tool result the command answered (the probe: the last one).
    pub message: usize,
    /// The tool or harness step that ran it: `run_tests`, `deploy`, `probe`.
    pub command: String,
    /// Paths (workspace-relative; non-UTF-8 bytes escaped as `\xNN`) with the sha256 of their
    /// content after the command, `null` for a path it deleted.
    pub changed: Vec<PathDigest>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathDigest {
    pub path: String,
    pub sha256: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileChange {
    pub path: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl Transcript {
    /// A v1 transcript of `messages` (the first `seeded` written by the harness) with nothing
    /// else recorded: trial 1 of the charter arm, completed, no workspace. Callers set what
    /// they record beside it with struct update syntax.
    pub fn new(
        case: &str,
        variant: &str,
        model: &str,
        seeded: usize,
        messages: Vec<Message>,
    ) -> Self {
        Transcript {
            format: FORMAT_V1.to_string(),
            case: case.to_string(),
            variant: variant.to_string(),
            model: model.to_string(),
            trial: 1,
            arm: default_arm(),
            charter_sha256: String::new(),
            seeded,
            messages,
            workspace: None,
            outcome: Outcome::default(),
            error: None,
            max_steps_reached: false,
            usage: None,
            timing: None,
            request_ids: None,
            request: None,
            checker: None,
            case_sha256: None,
            caps_hit: None,
            probes: None,
        }
    }

    /// The messages the model produced, and tool results, after the seeded prefix.
    pub fn episode(&self) -> &[Message] {
        &self.messages[self.seeded.min(self.messages.len())..]
    }

    /// The model's own turns, in order.
    pub fn replies(&self) -> impl Iterator<Item = &Message> {
        self.episode().iter().filter(|m| m.role == Role::Assistant)
    }

    /// The last assistant turn with text: the reply the user reads at the end.
    pub fn final_reply(&self) -> &str {
        self.replies()
            .filter(|m| m.has_reply())
            .last()
            .map(Message::reply)
            .unwrap_or("")
    }

    /// Everything the model wrote, turn by turn, reasoning blocks left out (no criterion reads
    /// the model's scratch work).
    pub fn model_text(&self) -> String {
        self.replies()
            .map(|m| crate::extract::structured::reply_text(m.reply()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The system prompt the trial ran under, if any.
    pub fn system_prompt(&self) -> Option<&str> {
        self.messages
            .iter()
            .find(|m| m.role == Role::System)
            .map(|m| m.content.as_str())
    }
}
