//! The pinned model matrix and decoding config (`manifests/*.toml`), parsed by serde and then
//! validated once. An unknown key is an error: a typo in a gate config must never be ignored.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use toml::Spanned;

mod address;
mod validate;

pub use address::{check_base_url, private_address, private_base_url};
pub use validate::load;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub charter: CharterSource,
    #[serde(default)]
    pub decoding: Decoding,
    #[serde(default)]
    pub run: RunConfig,
    pub models: Vec<ModelEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharterSource {
    /// A file path (relative to the manifest's folder), or `REV:PATH` in the git repository
    /// that holds the manifest.
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decoding {
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub seed: Option<u64>,
}

impl Decoding {
    /// This config with `over`'s values where it sets them.
    pub fn overridden_by(&self, over: &Decoding) -> Decoding {
        Decoding {
            temperature: over.temperature.or(self.temperature),
            max_tokens: over.max_tokens.or(self.max_tokens),
            seed: over.seed.or(self.seed),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    #[serde(default = "default_trials")]
    pub trials: u32,
    #[serde(default = "default_max_steps")]
    pub max_steps: u32,
    /// Seconds a fixture's test script may run.
    #[serde(default = "default_test_timeout")]
    pub test_timeout_secs: u64,
    /// USD the run may spend; a request that could pass it is not sent.
    pub budget_usd: Option<f64>,
    /// Largest file a model may write through a tool, in bytes.
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Largest tool result shown to the model and recorded; longer ones are cut with a marker.
    #[serde(default = "default_max_tool_result_bytes")]
    pub max_tool_result_bytes: u64,
    /// Largest model reply accepted; a longer one is cut with a marker.
    #[serde(default = "default_max_reply_bytes")]
    pub max_reply_bytes: u64,
    /// Largest total size of a trial's workspace; a write past it is refused.
    #[serde(default = "default_max_workspace_bytes")]
    pub max_workspace_bytes: u64,
    /// Most files a trial's workspace may hold; a write past it is refused, files a command
    /// made past it are dropped.
    #[serde(default = "default_max_files")]
    pub max_files: u64,
    /// Largest transcript a trial may write: the conversation stops (an error) before it passes.
    #[serde(default = "default_max_transcript_bytes")]
    pub max_transcript_bytes: u64,
    /// Seconds a trial may work (tools, commands, the probe; time waiting on a provider does
    /// not count): past it the trial stops as an error.
    #[serde(default = "default_max_trial_secs")]
    pub max_trial_secs: u64,
    /// Tool calls a trial may make: past it the trial stops as an error.
    #[serde(default = "default_max_tool_calls")]
    pub max_tool_calls: u64,
    /// What an unsure verdict with no deciding label counts as: `label` (undecided until a
    /// person labels it, exit 3) or `fail`.
    #[serde(default)]
    pub unsure: UnsurePolicy,
    /// `[run] gate`: what the gate asks of a change. Read from the BASE branch's manifest by
    /// `gate --charter-base` (a pull request cannot change its own policy).
    #[serde(default, skip_serializing_if = "GatePolicy::is_all_pass")]
    pub gate: GatePolicy,
}

/// `[run] gate`: `all-pass` (the charter's rule: every unit passes 3 of 3 on every model) or
/// `no-regression` (a unit blocks when it fails on the head and passed on the base, or is new
/// and fails; what the base already fails is listed, not blocking).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GatePolicy {
    #[default]
    AllPass,
    NoRegression,
}

impl GatePolicy {
    pub fn is_all_pass(&self) -> bool {
        *self == GatePolicy::AllPass
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GatePolicy::AllPass => "all-pass",
            GatePolicy::NoRegression => "no-regression",
        }
    }
}

/// `[run] unsure`: who decides a verdict the checker is unsure of.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnsurePolicy {
    /// A person, with `harness label --decide`; until then the unit is undecided.
    #[default]
    Label,
    /// Nobody: unsure counts as a fail.
    Fail,
}

fn default_max_files() -> u64 {
    10_000
}
fn default_max_transcript_bytes() -> u64 {
    32 << 20
}
fn default_max_trial_secs() -> u64 {
    1800
}
fn default_max_tool_calls() -> u64 {
    400
}

fn default_max_file_bytes() -> u64 {
    1 << 20
}
fn default_max_tool_result_bytes() -> u64 {
    64 << 10
}
fn default_max_reply_bytes() -> u64 {
    256 << 10
}
fn default_max_workspace_bytes() -> u64 {
    16 << 20
}

fn default_trials() -> u32 {
    3
}
fn default_max_steps() -> u32 {
    40
}
fn default_test_timeout() -> u64 {
    60
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            trials: default_trials(),
            max_steps: default_max_steps(),
            test_timeout_secs: default_test_timeout(),
            budget_usd: None,
            max_file_bytes: default_max_file_bytes(),
            max_tool_result_bytes: default_max_tool_result_bytes(),
            max_reply_bytes: default_max_reply_bytes(),
            max_workspace_bytes: default_max_workspace_bytes(),
            unsure: UnsurePolicy::default(),
            gate: GatePolicy::default(),
            max_files: default_max_files(),
            max_transcript_bytes: default_max_transcript_bytes(),
            max_trial_secs: default_max_trial_secs(),
            max_tool_calls: default_max_tool_calls(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Frontier,
    Weakest,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    Openai,
    Anthropic,
    Scripted,
}

impl ProviderKind {
    /// As a manifest spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Scripted => "scripted",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    pub name: Spanned<String>,
    pub role: Role,
    pub provider: ProviderKind,
    /// The exact pinned model id sent to the API.
    pub model: String,
    pub base_url: Option<String>,
    /// Let `base_url` (and what its name resolves to) be a private-network, link-local or cloud
    /// metadata address. Off: the key is sent only to public addresses and loopback.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_private_network: bool,
    /// Name of the environment variable holding the API key (never the key itself).
    pub api_key_env: Option<String>,
    /// The proxy this model's requests go through (`http://` or `https://` URL), over the
    /// process environment's proxy variables (`provider::proxy`); a `.env` never sets those.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy: Option<String>,
    #[serde(default = "default_concurrency")]
    pub max_concurrency: usize,
    /// False for models that reject a temperature (reasoning models, current Anthropic API):
    /// then none is sent, and the transcript records that.
    #[serde(default = "yes")]
    pub temperature_supported: bool,
    #[serde(default)]
    pub decoding: Decoding,
    /// For `provider = "scripted"`: the folder under `fixtures/scripted/` to replay.
    pub script: Option<String>,
    /// Anthropic: the `anthropic-version` header (default 2026-10-21, which takes no temperature).
    pub api_version: Option<String>,
    /// Anthropic: how the key is sent, `x-api-key` (default) or `bearer`. One, never both.
    pub auth: Option<AuthStyle>,
    /// OpenAI: `max_tokens` (default) or `max_completion_tokens` (reasoning models).
    pub token_limit_field: Option<TokenLimitField>,
    /// Seconds one HTTP request may take.
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    /// Attempts per request, retries included; after the last the trial is inconclusive.
    #[serde(default = "default_attempts")]
    pub max_attempts: u32,
    /// First retry delay in milliseconds; doubles per attempt, with jitter.
    #[serde(default = "default_retry_base")]
    pub retry_base_ms: u64,
    /// The old name of `rpm`: a seed of the same limiter.
    pub requests_per_minute: Option<u32>,
    /// Tokens per minute this account may use with this model, if known: a seed of its
    /// limiter, which the answers' rate-limit headers then correct.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpm: Option<u64>,
    /// Requests per minute, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpm: Option<u64>,
    /// Seconds a request may wait on rate limits (429, 529, the account's limiter) before its
    /// trial ends inconclusive.
    #[serde(default = "default_request_deadline")]
    pub request_deadline_secs: u64,
    /// USD per million input tokens, for cost accounting.
    pub price_input_per_mtok: Option<f64>,
    /// USD per million output tokens.
    pub price_output_per_mtok: Option<f64>,
    /// USD per million input tokens read from the prompt cache (default: 0.1 × input, the
    /// vendors' list ratio).
    pub price_cache_read_per_mtok: Option<f64>,
    /// USD per million input tokens written to the prompt cache (default: 1.25 × input).
    pub price_cache_write_per_mtok: Option<f64>,
    /// Mark the charter, the tools and the latest turn for the API's prompt cache (Anthropic;
    /// OpenAI caches long prefixes by itself). On by default.
    #[serde(default = "yes")]
    pub prompt_cache: bool,
    /// Which of the model's reasoning goes back to it on later turns: `auto` (default) follows
    /// the documented rule of a known host and sends nothing extra elsewhere, `always` sends
    /// back every reasoning field recorded, `never` none (`provider::openai::ReplayRule`).
    #[serde(default, skip_serializing_if = "ReasoningReplay::is_auto")]
    pub reasoning_replay: ReasoningReplay,
}

/// The manifest's `reasoning_replay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningReplay {
    #[default]
    Auto,
    Always,
    Never,
}

impl ReasoningReplay {
    fn is_auto(&self) -> bool {
        *self == ReasoningReplay::Auto
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuthStyle {
    #[serde(rename = "x-api-key")]
    XApiKey,
    #[serde(rename = "bearer")]
    Bearer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenLimitField {
    MaxTokens,
    MaxCompletionTokens,
}

/// The Anthropic API version sent when the manifest names none.
pub const ANTHROPIC_DEFAULT_VERSION: &str = "2026-10-21";
/// From this `anthropic-version` on, the Messages API takes no sampling parameters.
const ANTHROPIC_NO_SAMPLING_FROM: &str = "2026-10-21";

fn default_timeout() -> u64 {
    120
}
fn default_attempts() -> u32 {
    5
}
fn default_request_deadline() -> u64 {
    600
}
fn default_retry_base() -> u64 {
    500
}

fn default_concurrency() -> usize {
    4
}
fn yes() -> bool {
    true
}

impl ModelEntry {
    pub fn name(&self) -> &str {
        self.name.get_ref()
    }
    pub fn role_name(&self) -> &'static str {
        match self.role {
            Role::Frontier => "frontier",
            Role::Weakest => "weakest",
            Role::Other => "other",
        }
    }
}

/// A manifest as loaded: where it came from, the parsed config, and warnings to show.
#[derive(Debug, Clone)]
pub struct LoadedManifest {
    pub path: PathBuf,
    pub manifest: Manifest,
    pub warnings: Vec<String>,
    /// The line of `[charter] source`, for errors about the charter path.
    pub charter_line: usize,
}

impl LoadedManifest {
    /// The folder that relative paths in the manifest are relative to.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
    /// An error loading the manifest's charter, said at the manifest's file and line.
    pub fn at_charter(&self, e: crate::error::Error) -> crate::error::Error {
        crate::error::Error::input(format!(
            "{}, line {}: charter.source: {e}",
            self.path.display(),
            self.charter_line
        ))
    }
    /// Models selected by `--model` names or roles (all when none given).
    pub fn select_models(&self, filters: &[String]) -> Result<Vec<ModelEntry>> {
        let models = &self.manifest.models;
        if filters.is_empty() {
            return Ok(models.clone());
        }
        let mut out: Vec<ModelEntry> = Vec::new();
        let filters: Vec<String> = filters
            .iter()
            .flat_map(|f| f.split(','))
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect();
        for f in &filters {
            let hits: Vec<&ModelEntry> = models
                .iter()
                .filter(|m| m.name() == f || m.role_name() == f)
                .collect();
            if hits.is_empty() {
                let names: Vec<&str> = models.iter().map(|m| m.name()).collect();
                let hint = crate::error::did_you_mean(
                    f,
                    names
                        .iter()
                        .copied()
                        .chain(["frontier", "weakest", "other"]),
                );
                // The built-in manifest is named as the user named it, never by its cache path.
                return Err(Error::input(format!(
                    "--model {f}: matches no model name or role in {}{hint} (models: {}; roles: frontier, weakest, other)",
                    crate::suite::embedded::shown(&self.path),
                    names.join(", ")
                )));
            }
            for h in hits {
                if !out.iter().any(|m| m.name() == h.name()) {
                    out.push(h.clone());
                }
            }
        }
        Ok(out)
    }
}

/// A manifest path as given, or, for a bare name that is no file (`offline`), the manifest of
/// that name built into the binary.
pub fn resolve(given: &Path) -> std::path::PathBuf {
    let bare = given.components().count() == 1 && given.extension().is_none();
    if bare && !given.exists() {
        if let Some(p) = given.to_str().and_then(crate::suite::embedded::manifest) {
            return p;
        }
    }
    given.to_path_buf()
}

/// Trials per unit a manifest, `--trials` or a run folder's run.json may ask for: the one bound
/// (the benchmarks use up to 96,000), few enough that a typo cannot plan a billion trials.
pub const MAX_TRIALS: u64 = 100_000;
/// Concurrent requests per model.
pub const MAX_CONCURRENCY: usize = 1024;

/// Every selected model that calls an API must find its key variable set. Checked before any
/// model is called; the message names the variable, never its value.
pub fn check_api_keys(manifest_path: &Path, models: &[ModelEntry]) -> Result<()> {
    // Every missing variable at once: fixing them one run at a time wastes a maintainer's hour.
    // A variable two models share is named once, with both models.
    let mut by_var: Vec<(&str, Vec<&str>)> = Vec::new();
    for m in models {
        let Some(var) = m.api_key_env.as_deref() else {
            continue;
        };
        if !std::env::var(var).map_or(true, |v| v.trim().is_empty()) {
            continue;
        }
        match by_var.iter_mut().find(|(v, _)| *v == var) {
            Some((_, names)) => names.push(m.name()),
            None => by_var.push((var, vec![m.name()])),
        }
    }
    let missing: Vec<String> = by_var
        .iter()
        .map(|(var, names)| match names.as_slice() {
            [one] => format!("${var} (model {one})"),
            many => format!("${var} (models {})", many.join(", ")),
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Error::input(format!(
        "{}: {} not set: {} — set {} in the environment, or in a .env file (this folder's, else the nearest parent folder's; keep it out of git — see the README's \"API keys and .env\")",
        manifest_path.display(),
        if missing.len() == 1 {
            "this API key variable is"
        } else {
            "these API key variables are"
        },
        missing.join(", "),
        if missing.len() == 1 { "it" } else { "them" }
    )))
}

/// The `.env` of the current folder, else of the nearest parent folder holding one (dotenvy's
/// lookup), as name–value pairs; nothing if there is none or it cannot be read.
fn dotenv_pairs() -> Vec<(String, String)> {
    dotenvy::dotenv_iter()
        .map(|it| it.filter_map(|kv| kv.ok()).collect())
        .unwrap_or_default()
}

/// Before any manifest is read: mask the values `.env` holds under key-like names, without
/// putting any of them in the environment (commands without a manifest still mask keys).
pub fn mask_dotenv_keys() {
    for (name, value) in dotenv_pairs() {
        if crate::output::secrets::named_like_a_key(&name) {
            crate::output::secrets::register(&value);
        }
    }
}

/// The variables that choose a proxy. Only the process environment sets them: a `.env` (which
/// a pull request can bring) never does, even under a name a manifest gives as a key.
pub const PROXY_VARIABLES: [&str; 8] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

/// The key variables `models` name: from `.env` into the environment only those (never
/// overriding one that is set; a `.env` that sets `GITHUB_STEP_SUMMARY` or anything else sets
/// nothing, and a proxy variable there is named as ignored), then every one of them registered
/// as a secret, whether its model runs or not.
pub fn adopt_keys(models: &[ModelEntry]) {
    let named: Vec<&str> = models
        .iter()
        .filter_map(|m| m.api_key_env.as_deref())
        .collect();
    for (name, value) in dotenv_pairs() {
        if PROXY_VARIABLES.contains(&name.as_str()) {
            errln!("note: .env sets {name}: ignored (a proxy comes only from the process environment or a model's `proxy` key, never from .env)");
        } else if named.contains(&name.as_str()) && std::env::var_os(&name).is_none() {
            std::env::set_var(&name, value);
        }
    }
    for var in named {
        if let Ok(v) = std::env::var(var) {
            crate::output::secrets::register(&v);
        }
    }
}
