//! Loading a manifest: parsed by serde, then every model entry, the roles, `[run]` and
//! `[decoding]` validated once, each problem naming the file and the line or key. Checks run
//! in a fixed order, so a manifest with several problems always names the same one first.

use super::{
    check_base_url, private_base_url, Decoding, LoadedManifest, Manifest, ModelEntry, ProviderKind,
    Role, ANTHROPIC_DEFAULT_VERSION, ANTHROPIC_NO_SAMPLING_FROM, MAX_CONCURRENCY, MAX_TRIALS,
};
use crate::error::{line_of, Error, Result};
use crate::files::read::{read_text, Kind};
use regex::Regex;
use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

static ALIAS_SUFFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(latest|preview|beta)$").unwrap());
static PINNED_SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    // A date, a 4-digit build, a `:tag` or `@version`, or an explicit -vN: not a bare "-1".
    // ASCII classes (`(?-u)`): a model id is ASCII, and sixteen copies of Unicode's digits
    // compiled to a fifth of a megabyte in every run.
    Regex::new(r"(?-u)(\d{4}-\d{2}-\d{2}|\d{8}|-\d{4}|[@:][\w.-]+|-v\d+(\.\d+)*)$").unwrap()
});

/// Parse and validate a manifest. Every problem names the file and the line or key.
pub fn load(path: &Path) -> Result<LoadedManifest> {
    let text = read_text(path, Kind::Manifest).map_err(|e| builtin_hint(path, e))?;
    let manifest: Manifest = crate::error::parse_toml(path, &text)?;
    let warnings = check_models(path, &text, &manifest)?;
    check_roles(path, &manifest)?;
    check_run(path, &text, &manifest)?;
    check_decoding(&manifest.decoding)
        .map_err(|why| Error::input(format!("{}: [decoding] {why}", path.display())))?;
    super::adopt_keys(&manifest.models);
    let charter_line = charter_line(&text);
    if manifest.charter.source.contains('\0') {
        return Err(Error::input(format!(
            "{}, line {charter_line}: charter.source {:?} holds a NUL byte, which no file name can; name the charter file",
            path.display(),
            crate::error::one_line(&manifest.charter.source)
        )));
    }
    Ok(LoadedManifest {
        path: path.to_path_buf(),
        manifest,
        warnings,
        charter_line,
    })
}

/// Every `[[models]]` entry checked (at least one, names unique, a script for a scripted one, a
/// pinned id for an API one); the warnings for ids that look like aliases.
fn check_models(path: &Path, text: &str, manifest: &Manifest) -> Result<Vec<String>> {
    if manifest.models.is_empty() {
        return Err(Error::input(format!(
            "{}: no [[models]]; the gate needs a frontier and a weakest model",
            path.display()
        )));
    }
    let mut warnings = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, m) in manifest.models.iter().enumerate() {
        let at = format!(
            "{}, line {}",
            path.display(),
            line_of(text, m.name.span().start)
        );
        check_entry(&at, i, m)?;
        if let Some(first) = seen.insert(m.name(), m.name.span().start) {
            return Err(Error::input(format!(
                "{at}: models[{i}].name {:?} is a duplicate (first defined at line {})",
                m.name(),
                line_of(text, first)
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
                check_api_model(&at, i, m)?;
                if let Some(w) = alias_warning(&at, i, m) {
                    warnings.push(w);
                }
            }
        }
    }
    Ok(warnings)
}

/// The line of `[charter] source` in the manifest's text (1 when it cannot be found), for
/// errors about the charter path.
fn charter_line(text: &str) -> usize {
    #[derive(serde::Deserialize)]
    struct Spans {
        charter: CharterSpan,
    }
    #[derive(serde::Deserialize)]
    struct CharterSpan {
        source: toml::Spanned<String>,
    }
    toml::from_str::<Spans>(text).map_or(1, |s| line_of(text, s.charter.source.span().start))
}

/// What every model entry must be, whatever its provider: a name that can name a results
/// folder, a bounded concurrency, decoding every API accepts, prices of 0 or more.
fn check_entry(at: &str, i: usize, m: &ModelEntry) -> Result<()> {
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
    check_decoding(&m.decoding)
        .map_err(|why| Error::input(format!("{at}: models[{i}] ({}).decoding: {why}", m.name())))?;
    if let Some(proxy) = &m.proxy {
        let ok = reqwest::Url::parse(proxy)
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
        if !ok {
            return Err(Error::input(format!(
                "{at}: models[{i}] ({}).proxy must be an http:// or https:// URL",
                m.name()
            )));
        }
    }
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
    Ok(())
}

/// A model called over an API: its key variable named, no script, a base URL its key may be
/// sent to, request limits of at least 1, and only its own provider's settings.
fn check_api_model(at: &str, i: usize, m: &ModelEntry) -> Result<()> {
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
    check_limits(at, i, m)?;
    check_provider_settings(at, i, m)
}

/// The rate-limit seeds and the deadline: within bounds, and `rpm` agreeing with its old
/// name `requests_per_minute` when both are set.
fn check_limits(at: &str, i: usize, m: &ModelEntry) -> Result<()> {
    let bounds: [(&str, Option<u64>, u64, u64); 3] = [
        ("tpm", m.tpm, 1, 1_000_000_000_000),
        ("rpm", m.rpm, 1, 1_000_000_000),
        (
            "request_deadline_secs",
            Some(m.request_deadline_secs),
            1,
            86_400,
        ),
    ];
    for (key, v, lo, hi) in bounds {
        if let Some(v) = v.filter(|v| *v < lo || *v > hi) {
            return Err(Error::input(format!(
                "{at}: models[{i}] ({}).{key} = {v} is outside {lo}–{hi}",
                m.name()
            )));
        }
    }
    if let (Some(rpm), Some(old)) = (m.rpm, m.requests_per_minute) {
        if rpm != u64::from(old) {
            return Err(Error::input(format!(
                "{at}: models[{i}] ({}).rpm = {rpm} and requests_per_minute = {old} disagree (requests_per_minute is rpm's old name; keep one)",
                m.name()
            )));
        }
    }
    Ok(())
}

/// Settings of the other provider are refused (they would be silently ignored), and an
/// Anthropic version without sampling parameters must not be sent a temperature.
fn check_provider_settings(at: &str, i: usize, m: &ModelEntry) -> Result<()> {
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
    Ok(())
}

/// A warning when the model id looks like an alias: the gate is reproducible only against a
/// pinned version.
fn alias_warning(at: &str, i: usize, m: &ModelEntry) -> Option<String> {
    (ALIAS_SUFFIX.is_match(&m.model) || !PINNED_SUFFIX.is_match(&m.model)).then(|| {
        format!(
            "{at}: models[{i}].model {:?} looks like an alias, not a pinned version; the gate is only reproducible against a pinned id",
            m.model
        )
    })
}

/// The gate compares the frontier reference with the weakest deployed model: both must be there.
fn check_roles(path: &Path, manifest: &Manifest) -> Result<()> {
    for (role, label) in [(Role::Frontier, "frontier"), (Role::Weakest, "weakest")] {
        if !manifest.models.iter().any(|m| m.role == role) {
            return Err(Error::input(format!(
                "{}: no model has role = \"{label}\"; the gate needs at least the frontier reference and the weakest deployed model",
                path.display()
            )));
        }
    }
    Ok(())
}

/// `[run]`: every count and cap within its bounds, and a budget only with prices to keep it.
fn check_run(path: &Path, text: &str, manifest: &Manifest) -> Result<()> {
    let run = &manifest.run;
    let bounds: [(&str, u64, u64, u64); 11] = [
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
        ("max_files", run.max_files, 1, 1_000_000),
        (
            "max_transcript_bytes",
            run.max_transcript_bytes,
            1 << 10,
            1 << 32,
        ),
        ("max_trial_secs", run.max_trial_secs, 1, 86_400),
        ("max_tool_calls", run.max_tool_calls, 1, 100_000),
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
        // Written so NaN is refused too.
        if b.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
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
                line_of(text, m.name.span().start),
                m.name()
            )));
        }
    }
    Ok(())
}

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

/// A bare name that is no file and no built-in manifest (`--matrix ofline`): the nearest
/// built-in name, as other typos get.
fn builtin_hint(path: &Path, e: Error) -> Error {
    let bare = path.components().count() == 1 && path.extension().is_none() && !path.exists();
    let names = crate::suite::embedded::manifest_names();
    let hint = path
        .to_str()
        .filter(|_| bare)
        .map(|p| crate::error::did_you_mean(p, names.iter().map(String::as_str)))
        .unwrap_or_default();
    if hint.is_empty() {
        return e;
    }
    Error::input(format!(
        "{}: no such file, and no manifest built in by that name{hint} (built in: {})",
        path.display(),
        names.join(", ")
    ))
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
            // IPv4 addresses carried inside IPv6 ones reach the same hosts: NAT64 (well-known
            // and local-use prefixes), 6to4 and the old IPv4-compatible form.
            "http://[64:ff9b::a9fe:a9fe]",
            "http://[64:ff9b:1::a00:1]",
            "http://[2002:a9fe:a9fe::1]",
            "http://[2002:c0a8:0101::]",
            "http://[::a9fe:a9fe]",
            "http://[::10.0.0.1]",
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
            "https://[64:ff9b::808:808]",
            "https://[2002:808:808::1]",
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
