//! `harness replay`: re-send a stored trial's first model request to the same model (key from
//! the environment) and write what came back next to the original, so a flaky unit can be
//! probed without rerunning the matrix.

use crate::error::{Error, Result};
use crate::provider::{self, ModelRequest};
use crate::store::request::TrialRequest;
use crate::suite::manifest::{Decoding, ModelEntry};
use checkers::transcript::{Message, Outcome, Role, Transcript};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The model entry a transcript recorded. It is TOML-shaped data stored as JSON; it goes back
/// through TOML text because the entry keeps source spans, which only the TOML reader supplies.
fn model_entry(t: &Transcript, file: &Path) -> Result<ModelEntry> {
    let bad = |why: String| Error::input(format!("{}: cannot replay: {why}", file.display()));
    let v = t
        .request
        .as_ref()
        .and_then(|r| r.get("model"))
        .ok_or_else(|| bad("no request.model recorded".into()))?;
    // TOML has no null: an unset optional key is simply absent.
    let mut v = v.clone();
    strip_nulls(&mut v);
    let as_toml = toml::Value::try_from(&v).map_err(|e| bad(format!("request.model: {e}")))?;
    let text = toml::to_string(&as_toml).map_err(|e| bad(format!("request.model: {e}")))?;
    toml::from_str(&text).map_err(|e| bad(format!("request.model: {}", e.message())))
}

fn strip_nulls(v: &mut Value) {
    if let Some(obj) = v.as_object_mut() {
        obj.retain(|_, x| !x.is_null());
        obj.values_mut().for_each(strip_nulls);
    }
}

/// Next free `trial-N.replay-K.json` beside the original.
fn replay_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("trial");
    let dir = file.parent().unwrap_or(Path::new("."));
    (1..)
        .map(|k| dir.join(format!("{stem}.replay-{k}.json")))
        .find(|p| !p.exists())
        .expect("a free name")
}

/// The model to replay against: the entry of `manifest` named like the transcript's model. A
/// transcript is untrusted input: it never chooses the URL or the variable whose value is sent
/// as the key; it must agree with the manifest about the URL, or nothing is sent.
fn trusted_model(
    t: &Transcript,
    file: &Path,
    manifest: &crate::suite::manifest::LoadedManifest,
) -> Result<ModelEntry> {
    let recorded = model_entry(t, file)?;
    let entry = manifest
        .manifest
        .models
        .iter()
        .find(|m| m.name() == recorded.name())
        .ok_or_else(|| {
            Error::input(format!(
                "{}: cannot replay: model {:?} is not in {}",
                file.display(),
                recorded.name(),
                manifest.path.display()
            ))
        })?;
    if entry.base_url != recorded.base_url || entry.provider != recorded.provider {
        return Err(Error::input(format!(
            "{}: cannot replay: the transcript's model {:?} was called at {:?} ({:?}), but {} says {:?} ({:?}); nothing was sent",
            file.display(),
            recorded.name(),
            recorded.base_url.as_deref().unwrap_or("(default)"),
            recorded.provider,
            manifest.path.display(),
            entry.base_url.as_deref().unwrap_or("(default)"),
            entry.provider
        )));
    }
    Ok(entry.clone())
}

/// Replay the first request of the transcript at `file` against the model of the same name in
/// `manifest`; returns the new transcript's path.
pub async fn replay(
    file: &Path,
    suite_root: &Path,
    manifest: &crate::suite::manifest::LoadedManifest,
) -> Result<(PathBuf, Transcript)> {
    let t = crate::store::read_transcript(file)?;
    let model = trusted_model(&t, file, manifest)?;
    crate::suite::manifest::check_api_keys(file, std::slice::from_ref(&model))?;
    let provider = provider::build(
        &model,
        &crate::suite::Suite::load(suite_root)?,
        manifest.manifest.run.max_reply_bytes,
    )?;
    let req = TrialRequest::of(&t);
    let decoding = recorded_decoding(&req, file)?;
    let tools = recorded_tools(&req);
    let seeded: Vec<Message> = t.messages[..t.seeded.min(t.messages.len())].to_vec();
    let (system, rest) = split_system(&seeded);
    let on_retry = |n: provider::http::RetryNotice| {
        errln!(
            "retry: attempt {} failed ({}); next in {:.1}s",
            n.attempt,
            n.reason,
            n.wait.as_secs_f64()
        )
    };
    let request = ModelRequest {
        case: &t.case,
        variant: &t.variant,
        turn: 0,
        system: &system,
        messages: rest,
        tools: &tools,
        decoding: &decoding,
        on_retry: &on_retry,
    };
    let result = provider.complete(request).await;

    let mut out = t.clone();
    out.messages = seeded;
    out.workspace = None;
    out.max_steps_reached = false;
    out.checker = None;
    out.timing = None;
    let mut request = TrialRequest::of(&t);
    request.replay_of = file.file_name().map(|n| n.to_string_lossy().into_owned());
    request.decoding_sent = provider.decoding_sent(&decoding);
    // The stored trial's failure is not the replay's.
    request.provider_error = None;
    let max = manifest.manifest.run.max_reply_bytes;
    record_result(&mut out, &mut request, result, max);
    out.request = Some(request.to_value());
    let path = replay_path(file);
    crate::files::write_json_atomic(&path, &out)?;
    Ok((path, out))
}

/// The decoding the original request recorded.
fn recorded_decoding(req: &TrialRequest, file: &Path) -> Result<Decoding> {
    let recorded = match &req.decoding {
        Value::Null => json!({}),
        d => d.clone(),
    };
    serde_json::from_value(recorded)
        .map_err(|e| Error::input(format!("{}: request.decoding: {e}", file.display())))
}

/// The tools the original request offered, as the harness offers them now (a name it does not
/// know is left out).
fn recorded_tools(req: &TrialRequest) -> Vec<crate::suite::tools::ToolSpec> {
    req.tools
        .iter()
        .filter_map(|n| crate::suite::tools::spec(n))
        .collect()
}

/// The system prompt (empty when the trial had none: the control arm) and the turns after it.
fn split_system(seeded: &[Message]) -> (String, &[Message]) {
    let system = seeded
        .first()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.clone())
        .unwrap_or_default();
    let rest = if seeded.first().is_some_and(|m| m.role == Role::System) {
        &seeded[1..]
    } else {
        seeded
    };
    (system, rest)
}

/// What the model answered, recorded as a run records it, or the provider's failure (by kind
/// in `request`, as a run records it).
fn record_result(
    out: &mut Transcript,
    request: &mut TrialRequest,
    result: std::result::Result<provider::ModelReply, provider::ProviderError>,
    max: u64,
) {
    match result {
        Ok(reply) => {
            out.outcome = Outcome::Completed;
            out.error = None;
            out.usage = Some(reply.usage.clone().into());
            out.request_ids = Some(vec![reply.record(1)]);
            // The same treatment as in a run: keys masked, size capped, tool paths normalised.
            let (message, cut) = crate::trial::episode::assistant_message(reply, max);
            out.caps_hit = cut.then(|| vec![format!("turn 1: reply cut at {max} bytes")]);
            out.messages.push(message);
        }
        Err(e) => {
            out.outcome = Outcome::Error;
            out.error = Some(format!("provider failed: {e}"));
            request.provider_error = Some(e);
        }
    }
}

/// `harness replay`: the plan (one request), the replay, what was sent, where the answer went
/// and what it says. 0, or 3 when the provider failed (inconclusive).
pub fn run(path: &Path, matrix: &Path, suite: Option<&Path>) -> Result<u8> {
    let root = crate::suite::locate(suite)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let manifest = crate::suite::manifest::load(matrix)?;
    // A replay's plan is one trial's first request, sent once.
    let plan = crate::run::plan::Plan::new(1, 1, 1, 1, |_| true);
    errln!(
        "plan: {} request: the first request of {}",
        plan.requests_at_most(0),
        path.display()
    );
    let (written, t) = rt.block_on(replay(path, &root, &manifest))?;
    let retried = t
        .request_ids
        .iter()
        .flatten()
        .map(|r| u64::from(r.attempts.saturating_sub(1)))
        .sum();
    errln!(
        "{}",
        crate::run::plan::sent_line(&t.model, 1, retried, plan.requests_at_most(0))
    );
    outln!("wrote {}", written.display());
    match &t.error {
        Some(e) => {
            outln!("inconclusive: {e}");
            Ok(crate::exit::INCONCLUSIVE)
        }
        None => {
            let reply = t.messages.last().filter(|m| m.role == Role::Assistant);
            if let Some(m) = reply {
                for c in &m.tool_calls {
                    outln!("tool call: {}({})", c.name, c.arguments);
                }
                outln!("{}", m.content);
            }
            Ok(crate::exit::OK)
        }
    }
}
