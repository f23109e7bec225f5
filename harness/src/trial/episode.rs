//! One trial: seed the conversation, let the model act through the tools until it answers
//! without a tool call or hits `max_steps`, and record everything as a transcript.

use crate::provider::http::RetryNotice;
use crate::provider::{ModelRequest, Provider};
use crate::store::request::TrialRequest;
use crate::suite::case::{Case, Variant};
use crate::suite::manifest::{Decoding, ModelEntry};
use crate::suite::tools::ToolSpec;
use crate::trial::cache_role::OpensOnDrop;
pub use crate::trial::reply::assistant_message;
use crate::trial::reply::{bound_reasoning, live_message, message_bytes};
use crate::trial::tools::{self, ToolBox};
use crate::trial::workspace::{FixtureStore, TrialWorkspace};
use checkers::transcript::{Message, Outcome, RequestRecord, Role, Timing, Transcript};
use serde_json::json;
use std::time::{Duration, Instant};

pub struct TrialSpec<'a> {
    pub case: &'a Case,
    pub variant: &'a Variant,
    pub model: &'a ModelEntry,
    pub trial: u32,
    pub system_prompt: &'a str,
    pub charter_sha256: &'a str,
    pub decoding: &'a Decoding,
    pub max_steps: u32,
    pub test_timeout: Duration,
    /// Size caps from the manifest's `[run]`.
    pub caps: crate::trial::tools::Caps,
    pub max_reply_bytes: u64,
    pub fixtures: &'a FixtureStore,
    /// The model's concurrency slots: held only while the episode talks to the model, so
    /// preparing the workspace and writing results never occupy one.
    pub model_slots: &'a tokio::sync::Semaphore,
    /// Whether this episode writes the unit's prompt cache first, or waits for it.
    pub cache_role: crate::trial::cache_role::CacheRole,
    pub budget: Option<&'a crate::trial::spending_limit::SpendingLimit>,
    /// `charter`, or `control` (no system prompt) for the control arm.
    pub arm: &'a str,
}

/// The decoding actually sent to a model: the manifest's, the model's overrides, and no
/// temperature where the model does not support one.
pub fn decoding_for(global: &Decoding, model: &ModelEntry) -> Decoding {
    let mut d = global.overridden_by(&model.decoding);
    if !model.temperature_supported {
        d.temperature = None;
    }
    d
}

pub async fn run_trial(
    spec: &TrialSpec<'_>,
    provider: &dyn Provider,
    on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
) -> Transcript {
    let started = Instant::now();
    // Opens the unit's latch after the first reply, or however the episode ends without one.
    let warm_up = OpensOnDrop(spec.cache_role.opens.clone());
    let tools: Vec<ToolSpec> = spec
        .variant
        .tools
        .iter()
        .filter_map(|t| crate::suite::tools::spec(t))
        .collect();
    let mut episode = Episode::seeded(spec, first_request(spec, provider, &tools));
    let transcript = new_transcript(spec, episode.messages.len());
    let workspace = match spec
        .variant
        .fixture
        .as_deref()
        .map(|f| spec.fixtures.workspace(f))
        .transpose()
    {
        Ok(ws) => ws,
        Err(e) => {
            let why = format!("harness could not prepare the workspace: {e}");
            return episode.abandoned(transcript, why);
        }
    };
    let mut toolbox = ToolBox::new(
        spec.variant,
        workspace.as_ref().map(|w| w.root()),
        spec.test_timeout,
    )
    .with_caps(spec.caps);
    if let Some(latch) = &spec.cache_role.waits_for {
        latch.wait().await;
    }
    let slot = match spec.model_slots.acquire().await {
        Ok(p) => p,
        Err(e) => return episode.abandoned(transcript, format!("harness: {e}")),
    };
    episode
        .converse(spec, provider, on_retry, &tools, &mut toolbox, warm_up)
        .await;
    drop(slot);
    let (mut transcript, used) = episode.finish(spec, transcript, workspace.as_ref());
    // The behavioural probe runs each deliverable after the diff was taken.
    if let (Some(script), Some(ws)) = (&spec.case.probe, &workspace) {
        if transcript.outcome == Outcome::Completed {
            run_probe(script, ws.root(), &spec.caps, used, &mut transcript).await;
        }
    }
    transcript.timing = Some(Timing {
        duration_ms: started.elapsed().as_millis() as u64,
    });
    transcript
}

/// The workspace's changes against its fixture commit; a diff that fails makes the trial an
/// error, never a pass.
fn record_changes(transcript: &mut Transcript, ws: &TrialWorkspace) {
    match ws.changes() {
        Ok(w) => transcript.workspace = Some(w),
        Err(e) => {
            transcript.outcome = Outcome::Error;
            transcript.error = Some(format!("harness could not diff the workspace: {e}"));
        }
    }
}

/// The workspace diff counted against `max_transcript_bytes` after the `used` bytes of the
/// conversation and its records: one that would pass it keeps its first files, names the cut
/// in `caps_hit`, and makes the trial an error. The bytes used in all come back.
fn bound_diff(transcript: &mut Transcript, used: u64, max: u64) -> u64 {
    let Some(w) = transcript.workspace.as_mut() else {
        return used;
    };
    let room = max.saturating_sub(used);
    let (bytes, cut) = crate::trial::workspace::diff::bounded(&mut w.changed, room, max);
    if let Some(note) = cut {
        transcript.outcome = Outcome::Error;
        transcript.error = Some(format!(
            "the transcript would pass max_transcript_bytes ({max}) with the workspace's diff"
        ));
        transcript.caps_hit.get_or_insert_with(Vec::new).push(note);
    }
    used + bytes
}

/// A containment finding (something in the tree the harness could not see) fails the trial
/// closed: an error naming it, never a verdict.
fn fail_closed(caps_hit: &[String], transcript: &mut Transcript) {
    let prefix = crate::trial::confined::CONTAINMENT;
    if let Some(finding) = caps_hit.iter().find(|n| n.starts_with(prefix)) {
        transcript.outcome = Outcome::Error;
        transcript.error = Some(format!("harness: {finding}"));
    }
}

/// The behavioural probe over each deliverable in the workspace at `root`.
async fn run_probe(
    script: &str,
    root: &std::path::Path,
    caps: &tools::Caps,
    used: u64,
    transcript: &mut Transcript,
) {
    use crate::trial::workspace::effects;
    let root = root.to_path_buf();
    let before = effects::digests(&root, caps.max_workspace_bytes);
    let (probes, mut notes) = crate::trial::probe::run(script, transcript, &root).await;
    transcript.probes = Some(probes);
    // The probe ran model code in the tree: taken back and held to the caps like after
    // `run_tests`, and what that removed is named.
    notes.extend(crate::trial::workspace::reclaim(&root, caps, "probe"));
    let after = effects::digests(&root, caps.max_workspace_bytes);
    let message = transcript.messages.len().saturating_sub(1);
    let effect = checkers::transcript::CommandEffect {
        message,
        command: "probe".into(),
        changed: effects::changed(&before, &after),
    };
    let max = caps.max_transcript_bytes;
    let (effect, _, cut) = effects::bounded(effect, max.saturating_sub(used), max);
    if let Some(w) = transcript.workspace.as_mut() {
        w.after_commands.push(effect);
    }
    if let Some(note) = cut {
        transcript.outcome = Outcome::Error;
        transcript.error = Some(format!(
            "the transcript would pass max_transcript_bytes ({max}) with the probe's record"
        ));
        notes.push(note);
    }
    if !notes.is_empty() {
        fail_closed(&notes, transcript);
        transcript
            .caps_hit
            .get_or_insert_with(Vec::new)
            .extend(notes);
    }
}

/// The trial's request as the transcript records it, before any request: the model entry, the
/// decoding asked and sent, the tools offered. Built once; what the requests report is added at
/// the end ([`Episode::record`]) and the whole turned into JSON once.
fn first_request(
    spec: &TrialSpec<'_>,
    provider: &dyn Provider,
    tools: &[ToolSpec],
) -> TrialRequest {
    TrialRequest {
        model: json!(spec.model),
        decoding: json!(spec.decoding),
        decoding_sent: provider.decoding_sent(spec.decoding),
        tools: tools.iter().map(|t| t.name.to_string()).collect(),
        ..TrialRequest::default()
    }
}

/// The transcript before the first request: who, what, under which charter.
fn new_transcript(spec: &TrialSpec<'_>, seeded: usize) -> Transcript {
    Transcript {
        trial: spec.trial,
        arm: spec.arm.to_string(),
        charter_sha256: spec.charter_sha256.to_string(),
        case_sha256: Some(spec.case.sha256.clone()),
        ..Transcript::new(
            &spec.case.id,
            &spec.variant.id,
            spec.model.name(),
            seeded,
            Vec::new(),
        )
    }
}

/// One trial's conversation with the model and what it cost: the messages, a record per
/// request, the token totals, and how it ended.
struct Episode {
    /// The conversation as written: every key masked.
    messages: Vec<Message>,
    /// The conversation as resent to the provider: the model's own turns as it sent them,
    /// unmasked ([`live_message`]); never written.
    live: Vec<Message>,
    /// The transcript's `request`, written into it once when the episode ends.
    request: TrialRequest,
    usage: crate::provider::Usage,
    requests: Vec<RequestRecord>,
    finish_reasons: Vec<crate::provider::FinishReason>,
    reported_models: Vec<String>,
    caps_hit: Vec<String>,
    /// The model answered without a tool call, or the episode stopped on an error (as opposed
    /// to running out of steps).
    finished: bool,
    error: Option<String>,
    provider_error: Option<crate::provider::ProviderError>,
    /// What each command changed, with the index of the tool message it answered.
    effects: Vec<checkers::transcript::CommandEffect>,
    /// Time spent outside provider calls: tools, commands, accounting. Waiting on a provider
    /// (and on any rate limiter inside it) is not work.
    worked: Duration,
    tool_calls: u64,
    /// Bytes of messages (content and arguments) and command records so far, against
    /// `max_transcript_bytes`.
    bytes: u64,
}

impl Episode {
    /// The system prompt (unless the control arm) and the variant's seeded turns.
    fn seeded(spec: &TrialSpec<'_>, request: TrialRequest) -> Episode {
        let mut messages = if spec.system_prompt.is_empty() {
            Vec::new()
        } else {
            vec![Message::new(Role::System, spec.system_prompt)]
        };
        messages.extend(spec.variant.seed.iter().cloned());
        Episode {
            live: messages.clone(),
            messages,
            request,
            usage: Default::default(),
            requests: Vec::new(),
            finish_reasons: Vec::new(),
            reported_models: Vec::new(),
            caps_hit: Vec::new(),
            finished: false,
            error: None,
            provider_error: None,
            effects: Vec::new(),
            worked: Duration::ZERO,
            tool_calls: 0,
            bytes: 0,
        }
    }

    /// The trial ends before any request: the seeded turns and why.
    fn abandoned(self, mut transcript: Transcript, why: String) -> Transcript {
        transcript.request = Some(self.request.into_value());
        transcript.messages = self.messages;
        transcript.outcome = Outcome::Error;
        transcript.error = Some(why);
        transcript
    }

    /// Turns until the model answers without a tool call, a request fails, the budget
    /// refuses, or `max_steps` is reached.
    async fn converse(
        &mut self,
        spec: &TrialSpec<'_>,
        provider: &dyn Provider,
        on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
        tools: &[ToolSpec],
        toolbox: &mut ToolBox,
        warm_up: OpensOnDrop,
    ) {
        let mut warm_up = Some(warm_up);
        let prices = crate::provider::prices::Prices::of(spec.model);
        for turn in 0..spec.max_steps as usize {
            if let Some(why) = self.over_limits(spec, Duration::ZERO) {
                return self.stop(why);
            }
            let reservation = match self.reserve(spec, &prices) {
                Ok(r) => r,
                Err(why) => return self.stop(why),
            };
            let request = ModelRequest {
                case: &spec.case.id,
                variant: &spec.variant.id,
                turn,
                system: spec.system_prompt,
                messages: &self.live[usize::from(!spec.system_prompt.is_empty())..],
                tools,
                decoding: spec.decoding,
                on_retry,
            };
            // The hook for working time: only what happens outside this call counts.
            let result = provider.complete(request).await;
            let work = Instant::now();
            drop(warm_up.take());
            if let Some(b) = spec.budget {
                let used = result
                    .as_ref()
                    .map_or(0.0, |r| prices.cost_cached(&r.usage));
                b.settle(reservation, used);
            }
            let reply = match result {
                Ok(r) => r,
                Err(e) => {
                    self.stop(format!("provider failed on turn {}: {e}", turn + 1));
                    self.provider_error = Some(e);
                    return;
                }
            };
            let finish = reply.finish_reason.clone();
            let calls = self.take_reply(spec, turn, reply);
            if self.error.is_some() {
                return;
            }
            match finish {
                // Content was withheld: what came is no answer to grade.
                Some(f @ crate::provider::FinishReason::ContentFilter) => {
                    let e = crate::provider::ProviderError::Filtered {
                        finish_reason: f.as_str().to_string(),
                        turn: turn + 1,
                    };
                    self.stop(e.to_string());
                    self.provider_error = Some(e);
                    return;
                }
                // A long server-side turn paused: it went back whole; the model continues.
                Some(crate::provider::FinishReason::PauseTurn) if calls.is_empty() => continue,
                _ => {}
            }
            if calls.is_empty() {
                self.finished = true;
                return;
            }
            self.run_calls(spec, toolbox, calls, work).await;
            self.worked += work.elapsed();
            if self.error.is_some() {
                return;
            }
        }
    }

    /// Why the trial must stop now: past its working time, its tool calls or its transcript
    /// size (`[run]` max_trial_secs, max_tool_calls, max_transcript_bytes); `this_turn` is the
    /// work of the current turn so far.
    fn over_limits(&self, spec: &TrialSpec<'_>, this_turn: Duration) -> Option<String> {
        let caps = &spec.caps;
        if self.worked + this_turn > Duration::from_secs(caps.max_trial_secs) {
            return Some(format!(
                "the trial worked past max_trial_secs ({} s)",
                caps.max_trial_secs
            ));
        }
        if self.tool_calls > caps.max_tool_calls {
            return Some(format!(
                "the model made more than max_tool_calls ({}) tool calls",
                caps.max_tool_calls
            ));
        }
        if self.bytes > caps.max_transcript_bytes {
            return Some(format!(
                "the transcript would pass max_transcript_bytes ({})",
                caps.max_transcript_bytes
            ));
        }
        None
    }

    fn stop(&mut self, why: String) {
        self.error = Some(why);
        self.finished = true;
    }

    /// Hold budget for the worst case of the next request: a token per three characters in,
    /// the whole token limit out.
    fn reserve(
        &self,
        spec: &TrialSpec<'_>,
        prices: &crate::provider::prices::Prices,
    ) -> std::result::Result<u64, String> {
        let Some(b) = spec.budget else {
            return Ok(0);
        };
        let chars =
            spec.system_prompt.len() + self.messages.iter().map(|m| m.content.len()).sum::<usize>();
        let most_out = spec.decoding.max_tokens.unwrap_or(4096) as u64;
        b.reserve(prices.cost(chars as u64 / 3 + 1, most_out))
    }

    /// Account for a reply and add it to the conversation; its tool calls come back.
    fn take_reply(
        &mut self,
        spec: &TrialSpec<'_>,
        turn: usize,
        reply: crate::provider::ModelReply,
    ) -> Vec<checkers::ToolCall> {
        self.requests.push(reply.record(turn + 1));
        self.usage.add(&reply.usage);
        self.finish_reasons.extend(reply.finish_reason.clone());
        if let Some(m) = &reply.model_reported {
            if !self.reported_models.contains(m) {
                self.reported_models.push(m.clone());
            }
        }
        let live = live_message(reply.clone(), spec.max_reply_bytes);
        let (message, cut) = assistant_message(reply, spec.max_reply_bytes);
        if cut {
            self.caps_hit.push(format!(
                "turn {}: reply cut at {} bytes",
                turn + 1,
                spec.max_reply_bytes
            ));
        }
        let mut message = message;
        let max = spec.caps.max_transcript_bytes;
        let hit = bound_reasoning(&mut message, max.saturating_sub(self.bytes), max);
        let cut_reasoning = hit.is_some();
        self.caps_hit
            .extend(hit.map(|h| format!("turn {}: {h}", turn + 1)));
        let calls = message.tool_calls.clone();
        self.bytes += message_bytes(&message);
        self.messages.push(message);
        self.live.push(live);
        // A final reply is checked too: no later turn would see the bound passed.
        if cut_reasoning || self.bytes > max {
            self.stop(format!(
                "the transcript would pass max_transcript_bytes ({max})"
            ));
            return Vec::new();
        }
        calls
    }

    /// Run the model's tool calls in the trial's workspace and add their results.
    async fn run_calls(
        &mut self,
        spec: &TrialSpec<'_>,
        toolbox: &mut ToolBox,
        calls: Vec<checkers::ToolCall>,
        started: Instant,
    ) {
        for call in calls {
            self.tool_calls += 1;
            if let Some(why) = self.over_limits(spec, started.elapsed()) {
                return self.stop(why);
            }
            let result = if call.arguments.is_object() {
                toolbox.call(&call.name, &call.arguments).await
            } else {
                // Unparsable arguments are the model's mistake: show it, do not crash.
                let raw = call
                    .arguments
                    .as_str()
                    .map_or_else(|| call.arguments.to_string(), str::to_string);
                crate::trial::tools::ToolResult {
                    content: format!("error: arguments are not a JSON object: {raw}"),
                    is_error: true,
                    capped: false,
                    refused: false,
                }
            };
            let capped = result.capped;
            let status = result.status();
            let (result_text, cut) = crate::trial::tools::cap_text(
                result.content,
                spec.caps.max_tool_result_bytes,
                "tool result",
            );
            if cut {
                self.caps_hit.push(format!(
                    "{}({}): result cut at {} bytes",
                    call.name,
                    call.arguments
                        .get("path")
                        .and_then(|p| p.as_str())
                        .unwrap_or(""),
                    spec.caps.max_tool_result_bytes
                ));
            } else if capped {
                self.caps_hit
                    .push(format!("{}: {}", call.name, result_text));
            }
            // What the harness dropped or removed when it took the tree back after a command.
            self.caps_hit.extend(toolbox.take_notes());
            for (command, changed) in toolbox.take_effects() {
                let message = self.messages.len();
                self.push_effect(spec, command, changed, message);
            }
            let message = Message {
                role: Role::Tool,
                content: result_text,
                tool_calls: Vec::new(),
                tool_call_id: Some(call.id),
                name: Some(call.name),
                reasoning: None,
                reasoning_blocks: Vec::new(),
                status: Some(status),
                refusal: None,
            };
            self.bytes += message_bytes(&message);
            self.live.push(message.clone());
            self.messages.push(message);
        }
    }

    /// A command's record, counted against `max_transcript_bytes`: one that would pass it is
    /// kept cut (its first entries, the counts in `caps_hit`) and the trial stops.
    fn push_effect(
        &mut self,
        spec: &TrialSpec<'_>,
        command: String,
        changed: Vec<checkers::transcript::PathDigest>,
        message: usize,
    ) {
        let max = spec.caps.max_transcript_bytes;
        let effect = checkers::transcript::CommandEffect {
            message,
            command,
            changed,
        };
        let room = max.saturating_sub(self.bytes);
        let (effect, bytes, cut) = crate::trial::workspace::effects::bounded(effect, room, max);
        self.bytes += bytes;
        self.effects.push(effect);
        if let Some(note) = cut {
            self.caps_hit.push(note);
            self.stop(format!(
                "the transcript would pass max_transcript_bytes ({max}) with the record of {}",
                self.effects.last().map_or("", |e| e.command.as_str())
            ));
        }
    }

    /// The episode over, the transcript: how it ended and what it changed in the workspace
    /// (held to `max_transcript_bytes` with the conversation); the bytes it holds come back.
    fn finish(
        mut self,
        spec: &TrialSpec<'_>,
        mut transcript: Transcript,
        workspace: Option<&TrialWorkspace>,
    ) -> (Transcript, u64) {
        if let Some(why) = self.error.take() {
            transcript.outcome = Outcome::Error;
            transcript.error = Some(why);
        }
        transcript.max_steps_reached = !self.finished;
        if let Some(ws) = workspace {
            record_changes(&mut transcript, ws);
        }
        let used = self.record(spec, &mut transcript);
        let used = bound_diff(&mut transcript, used, spec.caps.max_transcript_bytes);
        (transcript, used)
    }

    /// The conversation and its accounting into the transcript; the bytes it holds come back.
    fn record(self, spec: &TrialSpec<'_>, transcript: &mut Transcript) -> u64 {
        let bytes = self.bytes;
        if let Some(w) = transcript.workspace.as_mut() {
            w.after_commands = self.effects;
        }
        fail_closed(&self.caps_hit, transcript);
        transcript.caps_hit = (!self.caps_hit.is_empty()).then_some(self.caps_hit);
        transcript.messages = self.messages;
        transcript.usage = Some(self.usage.into());
        let drift = self.reported_models.iter().any(|m| *m != spec.model.model);
        let mut req = self.request;
        req.truncated = Some(
            self.finish_reasons
                .iter()
                .any(crate::provider::FinishReason::truncated),
        );
        req.finish_reasons = Some(self.finish_reasons);
        req.model_reported = Some(self.reported_models);
        req.alias_drift = Some(drift);
        req.provider_error = self.provider_error;
        transcript.request = Some(req.into_value());
        transcript.request_ids = Some(self.requests);
        bytes
    }
}
