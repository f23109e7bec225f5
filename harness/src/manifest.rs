//! The pinned model matrix and decoding config (`manifests/*.toml`), parsed by serde and then
//! validated once. An unknown key is an error: a typo in a gate config must never be ignored.

use crate::error::{line_of, read_to_string, Error, Result};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use toml::Spanned;

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
    pub requests_per_minute: Option<u32>,
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
}

impl LoadedManifest {
    /// The folder that relative paths in the manifest are relative to.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
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
                return Err(Error::input(format!(
                    "--model {f}: matches no model name or role in {}{hint} (models: {}; roles: frontier, weakest, other)",
                    self.path.display(),
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

static ALIAS_SUFFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(latest|preview|beta)$").unwrap());
static PINNED_SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    // A date, a 4-digit build, a `:tag` or `@version`, or an explicit -vN: not a bare "-1".
    Regex::new(r"(\d{4}-\d{2}-\d{2}|\d{8}|-\d{4}|[@:][\w.-]+|-v\d+(\.\d+)*)$").unwrap()
});

/// A base URL the harness will call: http(s), a host, and no credentials, query or fragment —
/// a key in a URL would be written to run.json and every transcript. Keys go in the environment.
pub fn check_base_url(url: &str) -> std::result::Result<(), String> {
    let u = reqwest::Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
        return Err(format!("{url:?} must be an http(s) URL with a host"));
    }
    if !u.username().is_empty() || u.password().is_some() {
        return Err(
            "holds a user name or password; put the key in the variable api_key_env names".into(),
        );
    }
    if u.query().is_some() || u.fragment().is_some() {
        return Err("holds a query string or fragment (a key there would be written to every transcript); put the key in the variable api_key_env names".into());
    }
    Ok(())
}

/// Why a model server at `ip` would not get a key unless its entry allows private networks:
/// link-local and cloud metadata addresses (a key sent there, or a redirect a metadata service
/// answers, reaches the machine's own credentials), private networks and non-host addresses.
/// Loopback passes: local servers (vLLM, llama.cpp, Ollama) listen there.
pub fn private_address(ip: std::net::IpAddr) -> Option<&'static str> {
    use std::net::IpAddr;
    const METADATA: &str = "a cloud metadata service's address";
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            if v4.is_loopback() {
                None
            } else if v4.octets() == [100, 100, 100, 200] || v4.octets() == [192, 0, 0, 192] {
                Some(METADATA)
            } else if v4.is_link_local() {
                Some("a link-local address, where cloud metadata services answer")
            } else if v4.is_private() || (a == 100 && (64..128).contains(&b)) {
                Some("a private-network address")
            } else if v4.is_unspecified() || v4.is_broadcast() || v4.is_multicast() || a == 0 {
                Some("not a host's address")
            } else {
                None
            }
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return private_address(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                None
            } else if v6 == std::net::Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
                Some(METADATA)
            } else if first & 0xffc0 == 0xfe80 {
                Some("a link-local address, where cloud metadata services answer")
            } else if first & 0xfe00 == 0xfc00 || first & 0xffc0 == 0xfec0 {
                Some("a private-network address")
            } else if v6.is_unspecified() || v6.is_multicast() {
                Some("not a host's address")
            } else {
                None
            }
        }
    }
}

/// Host names of cloud metadata services (they resolve to link-local addresses only inside
/// the cloud, so the name itself is refused).
fn metadata_host(host: &str) -> bool {
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    matches!(
        h.as_str(),
        "metadata" | "metadata.google.internal" | "metadata.goog" | "instance-data"
    ) || h.starts_with("instance-data.")
}

/// Why `url`'s host is refused for a model without `allow_private_network`, if it is.
pub fn private_base_url(url: &str) -> Option<String> {
    let u = reqwest::Url::parse(url).ok()?;
    let host = u.host_str()?;
    if metadata_host(host) {
        return Some(format!("{host} is a cloud metadata service's name"));
    }
    let ip: std::net::IpAddr = host.trim_matches(['[', ']']).parse().ok()?;
    private_address(ip).map(|why| format!("{ip} is {why}"))
}

/// A manifest path as given, or, for a bare name that is no file (`offline`), the manifest of
/// that name built into the binary.
pub fn resolve(given: &Path) -> std::path::PathBuf {
    let bare = given.components().count() == 1 && given.extension().is_none();
    if bare && !given.exists() {
        if let Some(p) = given.to_str().and_then(crate::embedded::manifest) {
            return p;
        }
    }
    given.to_path_buf()
}

/// Parse and validate a manifest. Every problem names the file and the line or key.
pub fn load(path: &Path) -> Result<LoadedManifest> {
    let text = read_to_string(path)?;
    let manifest: Manifest = crate::error::parse_toml(path, &text)?;
    let where_ = |span: std::ops::Range<usize>| {
        format!("{}, line {}", path.display(), line_of(&text, span.start))
    };
    let mut warnings = Vec::new();

    if manifest.models.is_empty() {
        return Err(Error::input(format!(
            "{}: no [[models]]; the gate needs a frontier and a weakest model",
            path.display()
        )));
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, m) in manifest.models.iter().enumerate() {
        let at = where_(m.name.span());
        let name_ok = !m.name().is_empty()
            && m.name().len() <= 64
            && !m.name().starts_with('.')
            && m.name()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !name_ok {
            return Err(Error::input(format!("{at}: models[{i}].name {:?} must be 1–64 letters, digits, '.', '_' or '-', not starting with '.' (it names a results folder)", m.name())));
        }
        if m.max_concurrency > MAX_CONCURRENCY {
            return Err(Error::input(format!(
                "{at}: models[{i}].max_concurrency {} is more than {MAX_CONCURRENCY}",
                m.max_concurrency
            )));
        }
        check_decoding(&m.decoding).map_err(|why| {
            Error::input(format!("{at}: models[{i}] ({}).decoding: {why}", m.name()))
        })?;
        for (key, price) in [
            ("price_input_per_mtok", m.price_input_per_mtok),
            ("price_output_per_mtok", m.price_output_per_mtok),
            ("price_cache_read_per_mtok", m.price_cache_read_per_mtok),
            ("price_cache_write_per_mtok", m.price_cache_write_per_mtok),
        ] {
            if price.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
                return Err(Error::input(format!(
                    "{at}: models[{i}] ({}).{key} must be a price of 0 or more",
                    m.name()
                )));
            }
        }
        if let Some(first) = seen.insert(m.name(), m.name.span().start) {
            return Err(Error::input(format!(
                "{at}: models[{i}].name {:?} is a duplicate (first defined at line {})",
                m.name(),
                line_of(&text, first)
            )));
        }
        if m.max_concurrency == 0 {
            return Err(Error::input(format!(
                "{at}: models[{i}].max_concurrency must be at least 1"
            )));
        }
        match m.provider {
            ProviderKind::Scripted => {
                if m.script.is_none() {
                    return Err(Error::input(format!(
                        "{at}: models[{i}] ({}) has provider = \"scripted\" but no script",
                        m.name()
                    )));
                }
            }
            ProviderKind::Openai | ProviderKind::Anthropic => {
                if m.api_key_env.is_none() {
                    return Err(Error::input(format!(
                        "{at}: models[{i}] ({}) needs api_key_env, the variable that holds its key",
                        m.name()
                    )));
                }
                if m.script.is_some() {
                    return Err(Error::input(format!(
                        "{at}: models[{i}] ({}) sets script, which only scripted models take",
                        m.name()
                    )));
                }
                if let Some(url) = &m.base_url {
                    check_base_url(url).map_err(|why| {
                        Error::input(format!("{at}: models[{i}] ({}).base_url {why}", m.name()))
                    })?;
                    if let Some(why) = private_base_url(url).filter(|_| !m.allow_private_network) {
                        return Err(Error::input(format!(
                            "{at}: models[{i}] ({}).base_url {url:?} is refused: {why}, and the model's key would be sent there; if your model server really listens there, add allow_private_network = true to this model's entry",
                            m.name()
                        )));
                    }
                }
                if m.max_attempts == 0 || m.timeout_secs == 0 || m.requests_per_minute == Some(0) {
                    return Err(Error::input(format!("{at}: models[{i}] ({}): max_attempts, timeout_secs and requests_per_minute must be at least 1", m.name())));
                }
                let misplaced = match m.provider {
                    ProviderKind::Openai => (m.api_version.is_some() || m.auth.is_some())
                        .then_some("api_version and auth are Anthropic settings"),
                    _ => m
                        .token_limit_field
                        .is_some()
                        .then_some("token_limit_field is an OpenAI setting"),
                };
                if let Some(why) = misplaced {
                    return Err(Error::input(format!(
                        "{at}: models[{i}] ({}): {why}",
                        m.name()
                    )));
                }
                if m.provider == ProviderKind::Anthropic {
                    let version = m
                        .api_version
                        .as_deref()
                        .unwrap_or(ANTHROPIC_DEFAULT_VERSION);
                    if version >= ANTHROPIC_NO_SAMPLING_FROM && m.temperature_supported {
                        return Err(Error::input(format!(
                            "{at}: models[{i}] ({}): anthropic-version {version} takes no temperature; set temperature_supported = false, or an older api_version for an endpoint that still takes one",
                            m.name()
                        )));
                    }
                }
                if ALIAS_SUFFIX.is_match(&m.model) || !PINNED_SUFFIX.is_match(&m.model) {
                    warnings.push(format!(
                        "{at}: models[{i}].model {:?} looks like an alias, not a pinned version; the gate is only reproducible against a pinned id",
                        m.model
                    ));
                }
            }
        }
    }
    for (role, label) in [(Role::Frontier, "frontier"), (Role::Weakest, "weakest")] {
        if !manifest.models.iter().any(|m| m.role == role) {
            return Err(Error::input(format!(
                "{}: no model has role = \"{label}\"; the gate needs at least the frontier reference and the weakest deployed model",
                path.display()
            )));
        }
    }
    let run = &manifest.run;
    let bounds: [(&str, u64, u64, u64); 7] = [
        ("trials", run.trials as u64, 1, MAX_TRIALS),
        ("max_steps", run.max_steps as u64, 1, 1000),
        ("test_timeout_secs", run.test_timeout_secs, 1, 3600),
        ("max_file_bytes", run.max_file_bytes, 1, 1 << 30),
        (
            "max_tool_result_bytes",
            run.max_tool_result_bytes,
            1,
            1 << 30,
        ),
        ("max_reply_bytes", run.max_reply_bytes, 1, 1 << 30),
        ("max_workspace_bytes", run.max_workspace_bytes, 1, 1 << 34),
    ];
    for (key, v, lo, hi) in bounds {
        if v < lo || v > hi {
            return Err(Error::input(format!(
                "{}: [run] {key} = {v} is outside {lo}–{hi}",
                path.display()
            )));
        }
    }
    if let Some(b) = manifest.run.budget_usd {
        if !(b > 0.0) {
            return Err(Error::input(format!(
                "{}: [run] budget_usd must be above 0",
                path.display()
            )));
        }
        if let Some(m) = manifest.models.iter().find(|m| {
            m.provider != ProviderKind::Scripted
                && (m.price_input_per_mtok.is_none() || m.price_output_per_mtok.is_none())
        }) {
            return Err(Error::input(format!(
                "{}, line {}: [run] budget_usd is set, so model {} needs price_input_per_mtok and price_output_per_mtok",
                path.display(),
                line_of(&text, m.name.span().start),
                m.name()
            )));
        }
    }
    check_decoding(&manifest.decoding)
        .map_err(|why| Error::input(format!("{}: [decoding] {why}", path.display())))?;
    Ok(LoadedManifest {
        path: path.to_path_buf(),
        manifest,
        warnings,
    })
}

/// Trials per unit a manifest may ask for: enough for any gate, few enough that a typo cannot
/// plan a billion trials.
pub const MAX_TRIALS: u64 = 1000;
/// Concurrent requests per model.
pub const MAX_CONCURRENCY: usize = 1024;

/// Decoding values every API accepts.
fn check_decoding(d: &Decoding) -> std::result::Result<(), String> {
    if let Some(t) = d.temperature {
        if !(0.0..=2.0).contains(&t) {
            return Err(format!("temperature {t} is outside 0–2"));
        }
    }
    if let Some(m) = d.max_tokens {
        if m == 0 || m > 1_000_000 {
            return Err(format!("max_tokens {m} is outside 1–1000000"));
        }
    }
    Ok(())
}

/// Every selected model that calls an API must find its key variable set. Checked before any
/// model is called; the message names the variable, never its value.
pub fn check_api_keys(manifest_path: &Path, models: &[ModelEntry]) -> Result<()> {
    // Every missing variable at once: fixing them one run at a time wastes a maintainer's hour.
    let missing: Vec<String> = models
        .iter()
        .filter_map(|m| {
            let var = m.api_key_env.as_ref()?;
            std::env::var(var)
                .map_or(true, |v| v.trim().is_empty())
                .then(|| format!("${var} (model {})", m.name()))
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

/// Read `.env` from the current folder, else the nearest parent folder holding one (dotenvy's
/// lookup), into the environment, never overriding a variable that is set, as promptfoo and
/// Inspect AI do. Its values are registered as secrets only when a model
/// names them, like any key.
pub fn load_dotenv() {
    let _ = dotenvy::dotenv();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<LoadedManifest> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.toml");
        std::fs::write(&path, text).unwrap();
        load(&path)
    }

    const TWO: &str = "[charter]\nsource = \"c.md\"\n\n[[models]]\nname = \"a\"\nrole = \"frontier\"\nprovider = \"openai\"\nmodel = \"MODEL_A\"\napi_key_env = \"K\"\n\n[[models]]\nname = \"b\"\nrole = \"weakest\"\nprovider = \"anthropic\"\nmodel = \"MODEL_B\"\napi_key_env = \"K\"\ntemperature_supported = false\n";

    #[test]
    fn an_alias_model_id_is_warned_about_and_a_pinned_one_is_not() {
        let m = load_text(
            &TWO.replace("MODEL_A", "gpt-4o-latest")
                .replace("MODEL_B", "claude-opus-4-1"),
        )
        .unwrap();
        assert_eq!(m.warnings.len(), 2, "{:?}", m.warnings);
        assert!(
            m.warnings[0].contains("gpt-4o-latest") && m.warnings[0].contains("line 5"),
            "{:?}",
            m.warnings
        );
        let m = load_text(
            &TWO.replace("MODEL_A", "gpt-4o-mini-2024-07-18")
                .replace("MODEL_B", "claude-opus-4-1-20250805"),
        )
        .unwrap();
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    }

    #[test]
    fn sending_a_temperature_to_an_api_version_without_sampling_is_refused() {
        let err = load_text(
            &TWO.replace("MODEL_A", "m-2024-01-01")
                .replace("MODEL_B", "m-2024-01-01")
                .replace("temperature_supported = false\n", ""),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("takes no temperature") && err.contains("line 12"),
            "{err}"
        );
    }

    #[test]
    fn metadata_link_local_and_private_hosts_need_allow_private_network_and_loopback_does_not() {
        for url in [
            "http://169.254.169.254",
            "http://[fe80::1]:8000",
            "http://METADATA.google.internal.",
            "http://100.100.100.200",
            "http://[fd00:ec2::254]",
            "http://[::ffff:a9fe:a9fe]",
            "http://0x0a000001",
            "http://100.64.0.1",
            "http://[fc00::1]",
            "http://0.0.0.0:8000",
        ] {
            assert!(private_base_url(url).is_some(), "{url}");
        }
        for url in [
            "http://127.0.0.1:8000/v1",
            "http://localhost:11434/v1",
            "http://[::1]:8000",
            "https://api.openai.com/v1",
            "https://8.8.8.8",
            "https://[2001:4860::8888]",
        ] {
            assert_eq!(private_base_url(url), None, "{url}");
        }
        let metadata = TWO
            .replace("MODEL_A", "m-2024-01-01")
            .replace("MODEL_B", "m-2024-01-01")
            .replace(
                "api_key_env = \"K\"\n\n",
                "api_key_env = \"K\"\nbase_url = \"http://169.254.169.254/v1\"\n\n",
            );
        let err = load_text(&metadata).unwrap_err().to_string();
        assert!(
            err.contains("line 5") && err.contains("allow_private_network = true"),
            "{err}"
        );
        let allowed = metadata.replace("base_url = ", "allow_private_network = true\nbase_url = ");
        let m = load_text(&allowed).unwrap();
        assert!(m.manifest.models[0].allow_private_network);
    }
}
