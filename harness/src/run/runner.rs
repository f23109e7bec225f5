//! The runner: models × units × trials on tokio, with a bounded concurrency per model. Each
//! transcript is checked and written atomically as soon as its trial ends.

use crate::error::{Error, Result};
use crate::files::write_json_atomic;
use crate::provider::Provider;
use crate::report::events::Event;
use crate::store::transcript_path;
use crate::store::trial::TrialRecord;
use crate::suite::case::{Case, Variant};
use crate::suite::charter::Charter;
use crate::suite::manifest::{Manifest, ModelEntry};
use crate::trial::cache_role::CacheRole;
use crate::trial::episode::{run_trial, TrialSpec};
use checkers::CheckContext;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};

/// A trial of the plan (model, unit, trial) and its record.
pub type Done = ((usize, usize, u32), TrialRecord);

/// Everything a run needs, validated before it starts.
pub struct RunPlan {
    pub manifest: Manifest,
    pub charter: Arc<Charter>,
    pub models: Vec<(ModelEntry, Arc<dyn Provider>)>,
    /// Each model's decoding (its entry's over the manifest's), resolved once for its trials.
    pub decodings: Vec<crate::suite::manifest::Decoding>,
    pub units: Vec<(Arc<Case>, String)>,
    pub trials: u32,
    pub run_dir: Arc<std::path::Path>,
    pub fixtures: crate::trial::workspace::FixtureStore,
    pub budget: Option<Arc<crate::trial::spending_limit::SpendingLimit>>,
    /// Run without the charter (the control arm): no system prompt; transcripts say `arm:
    /// control`. Checkers still judge against the charter's ground truth.
    pub control_arm: bool,
    /// Skip a unit's remaining trials once one fails (the gate is decided).
    pub fail_fast: bool,
    /// Exactly the trials to send: nothing outside it is sent, nothing in it twice.
    pub plan: crate::run::plan::Plan,
    /// Requests sent and retried attempts, per model (what the plan is held against).
    pub sent: Arc<Sent>,
    /// Where every trial's full verdict goes.
    pub spool: Arc<crate::store::spool::Spool>,
    /// The labels and policy that decide unsure verdicts.
    pub deciding: Arc<crate::store::labels::Deciding>,
    pub names: Names,
}

/// Requests sent to each model, and attempts retried, counted as they go out.
#[derive(Debug, Default)]
pub struct Sent {
    pub requests: Vec<AtomicU64>,
    pub retried: Vec<AtomicU64>,
}

impl Sent {
    pub fn new(models: usize) -> Arc<Sent> {
        Arc::new(Sent {
            requests: (0..models).map(|_| AtomicU64::new(0)).collect(),
            retried: (0..models).map(|_| AtomicU64::new(0)).collect(),
        })
    }
    pub fn requests(&self, mi: usize) -> u64 {
        self.requests[mi].load(Ordering::Relaxed)
    }
    pub fn retried(&self, mi: usize) -> u64 {
        self.retried[mi].load(Ordering::Relaxed)
    }
}

/// A model's provider that counts the requests the episode sends through it.
struct Counted<'a> {
    inner: &'a dyn Provider,
    sent: &'a AtomicU64,
}

impl Provider for Counted<'_> {
    fn complete<'a>(
        &'a self,
        req: crate::provider::ModelRequest<'a>,
    ) -> crate::provider::BoxFuture<
        'a,
        std::result::Result<crate::provider::ModelReply, crate::provider::ProviderError>,
    > {
        self.sent.fetch_add(1, Ordering::Relaxed);
        self.inner.complete(req)
    }
    fn decoding_sent(&self, d: &crate::suite::manifest::Decoding) -> serde_json::Value {
        self.inner.decoding_sent(d)
    }
    fn covers(&self, case: &str, variant: &str) -> bool {
        self.inner.covers(case, variant)
    }
    fn limiter(&self) -> Option<Arc<crate::provider::limiter::Limiter>> {
        self.inner.limiter()
    }
}

fn variant_of<'a>(case: &'a Case, id: &str) -> &'a Variant {
    case.variant(id)
        .expect("units are built from the case's own variants")
}

/// Run exactly the trials of the plan; events go to `events`, and the records come back in
/// plan order.
pub async fn execute(plan: RunPlan, events: mpsc::Sender<Event>) -> Result<Vec<TrialRecord>> {
    let per_model = plan
        .models
        .iter()
        .enumerate()
        .map(|(mi, (m, _))| (m.name().to_string(), plan.plan.episodes(mi)))
        .collect();
    let _ = events
        .send(Event::RunStarted {
            run_dir: plan.run_dir.to_path_buf(),
            per_model,
        })
        .await;
    let plan = Arc::new(plan);
    // Every model's finished trials, in one list sized for the whole plan.
    let finished: Finished = Arc::new(std::sync::Mutex::new(Vec::with_capacity(plan.plan.len())));
    let dispatchers: Vec<_> = (0..plan.models.len())
        .map(|mi| tokio::spawn(dispatch(plan.clone(), mi, events.clone(), finished.clone())))
        .collect();
    for d in dispatchers {
        d.await
            .map_err(|e| Error::Internal(format!("dispatcher failed: {e}")))??;
    }
    let mut records = std::mem::take(&mut *finished.lock().unwrap_or_else(|p| p.into_inner()));
    // Records come back in plan order: model, unit, trial (unique keys: an unstable sort is
    // the same order, without a merge buffer half the records' size).
    records.sort_unstable_by_key(|(key, _)| *key);
    let records: Vec<TrialRecord> = records.into_iter().map(|(_, r)| r).collect();
    let _ = events.send(Event::RunFinished).await;
    Ok(records)
}

/// The finished trials of every model, as they end.
type Finished = Arc<std::sync::Mutex<Vec<Done>>>;

/// Model `mi`'s trials, in the order they should start: longest episodes first, the unit that
/// warms a prompt cache before the units that read it.
fn trial_order(plan: &RunPlan, mi: usize) -> (Vec<(usize, u32)>, crate::run::warmup::WarmUp) {
    let model = &plan.models[mi].0;
    // Longest episodes first: units offering tools run several model turns, so starting
    // them early keeps every concurrency slot busy until the end (longest-processing-time
    // order). Within equally long units, first trials first: a failing unit is then
    // usually decided before its later trials start (what --fail-fast relies on).
    let mut order: Vec<(usize, u32)> = plan.plan.of_model(mi).collect();
    order.sort_by_key(|&(ui, trial)| {
        let (case, variant) = &plan.units[ui];
        (
            std::cmp::Reverse(variant_of(case, variant).tools.len()),
            trial,
        )
    });
    let system = if plan.control_arm {
        ""
    } else {
        plan.charter.runtime.as_str()
    };
    let warm_up = crate::run::warmup::WarmUp::new(
        &plan
            .units
            .iter()
            .map(|(case, v)| {
                let variant = variant_of(case, v);
                (
                    crate::run::warmup::caches(model, system, variant),
                    &variant.tools[..],
                )
            })
            .collect::<Vec<_>>(),
    );
    (warm_up.order(order), warm_up)
}

/// One model's dispatcher: starts its trials in order, at most twice its concurrency in flight.
async fn dispatch(
    plan: Arc<RunPlan>,
    mi: usize,
    events: mpsc::Sender<Event>,
    finished: Finished,
) -> Result<()> {
    let model = &plan.models[mi].0;
    let (order, mut warm_up) = trial_order(&plan, mi);
    let shared = Shared {
        events,
        slots: Arc::new(Semaphore::new(model.max_concurrency)),
        failed: Default::default(),
        finished,
    };
    // Episodes in flight: the model's slots plus as many getting ready or writing results,
    // taken in the order above by one dispatcher per model.
    let in_flight = Arc::new(Semaphore::new(model.max_concurrency * 2));
    // Finished tasks are joined as they end: a finished task's memory is freed then,
    // not kept until the run's last trial.
    let mut tasks = tokio::task::JoinSet::new();
    let joined = |r: std::result::Result<Result<()>, tokio::task::JoinError>| {
        r.map_err(|e| Error::Internal(format!("trial task failed: {e}")))?
    };
    for (ui, trial) in order {
        let permit = in_flight
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| Error::Internal(e.to_string()))?;
        // --fail-fast: a unit with a failed trial is decided; start no more of its trials.
        if plan.fail_fast && shared.failed.lock().is_ok_and(|f| f.contains(&ui)) {
            continue;
        }
        let cache_role = warm_up.role(ui);
        let (plan, shared) = (plan.clone(), shared.clone());
        tasks.spawn(async move {
            let _permit = permit;
            trial_task(&plan, (mi, ui, trial), cache_role, &shared).await
        });
        while let Some(r) = tasks.try_join_next() {
            joined(r)?;
        }
    }
    while let Some(r) = tasks.join_next().await {
        joined(r)?;
    }
    Ok(())
}

/// What a model's trials share: the reporters' channel, the model's slots, the units with a
/// failed trial (for --fail-fast), and the finished trials of the run.
#[derive(Clone)]
struct Shared {
    events: mpsc::Sender<Event>,
    slots: Arc<Semaphore>,
    failed: Arc<std::sync::Mutex<std::collections::HashSet<usize>>>,
    finished: Finished,
}

/// One trial, start to end: run, its unit marked failed when it failed, its end told to the
/// reporters, its record kept.
async fn trial_task(
    plan: &RunPlan,
    (mi, ui, trial): (usize, usize, u32),
    cache_role: CacheRole,
    shared: &Shared,
) -> Result<()> {
    let events = &shared.events;
    let (record, why) = run_one(plan, mi, ui, trial, &shared.slots, cache_role, events).await?;
    if record.status == crate::store::trial::TrialStatus::Fail {
        if let Ok(mut f) = shared.failed.lock() {
            f.insert(ui);
        }
    }
    // Bounded: when the reporters fall behind, trials wait for them rather than queueing
    // events without limit.
    let _ = events
        .send(Event::TrialFinished {
            record: record.clone(),
            why,
        })
        .await;
    shared
        .finished
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(((mi, ui, trial), record));
    Ok(())
}

/// What model `mi` is asked in unit `ui`'s trial `trial`, under this plan.
fn spec_of<'a>(
    plan: &'a RunPlan,
    (mi, ui, trial): (usize, usize, u32),
    slots: &'a Semaphore,
    cache_role: CacheRole,
) -> TrialSpec<'a> {
    let (case, variant_id) = &plan.units[ui];
    TrialSpec {
        case,
        variant: variant_of(case, variant_id),
        model: &plan.models[mi].0,
        trial,
        system_prompt: if plan.control_arm {
            ""
        } else {
            &plan.charter.runtime
        },
        charter_sha256: &plan.charter.sha256,
        decoding: &plan.decodings[mi],
        max_steps: plan.manifest.run.max_steps,
        test_timeout: Duration::from_secs(plan.manifest.run.test_timeout_secs),
        caps: crate::trial::tools::Caps::from(&plan.manifest.run),
        max_reply_bytes: plan.manifest.run.max_reply_bytes,
        fixtures: &plan.fixtures,
        model_slots: slots,
        cache_role,
        budget: plan.budget.as_deref(),
        arm: if plan.control_arm {
            "control"
        } else {
            "charter"
        },
    }
}

/// Model `mi`'s trial `trial` of unit `ui`: the episode run, then checked, decided, written.
async fn run_one(
    plan: &RunPlan,
    mi: usize,
    ui: usize,
    trial: u32,
    slots: &Semaphore,
    cache_role: CacheRole,
    events: &mpsc::Sender<Event>,
) -> Result<(TrialRecord, Option<String>)> {
    let spec = spec_of(plan, (mi, ui, trial), slots, cache_role);
    let on_retry = retry_news(plan, (mi, ui, trial), events);
    let counted = Counted {
        inner: plan.models[mi].1.as_ref(),
        sent: &plan.sent.requests[mi],
    };
    let transcript = run_trial(&spec, &counted, &on_retry).await;
    checked_and_stored(plan, (mi, ui, trial), transcript)
}

/// What a retried request tells the reporters: waiting on an account's limit (a state), or a
/// failed attempt retried (counted against the model). News, not record: dropped when the
/// reporters are behind.
fn retry_news<'a>(
    plan: &'a RunPlan,
    (mi, ui, trial): (usize, usize, u32),
    events: &'a mpsc::Sender<Event>,
) -> impl Fn(crate::provider::http::RetryNotice) + Send + Sync + 'a {
    let (model, provider) = &plan.models[mi];
    let (case, variant_id) = &plan.units[ui];
    move |n: crate::provider::http::RetryNotice| {
        if n.limited {
            let _ = events.try_send(Event::Waiting {
                model: model.name().to_string(),
                account: provider
                    .limiter()
                    .map_or_else(String::new, |l| l.account.clone()),
                wait_ms: n.wait.as_millis() as u64,
            });
            return;
        }
        plan.sent.retried[mi].fetch_add(1, Ordering::Relaxed);
        let _ = events.try_send(Event::Retry {
            model: model.name().to_string(),
            case: case.id.clone(),
            variant: variant_id.clone(),
            trial,
            attempt: n.attempt,
            reason: n.reason,
            wait_ms: n.wait.as_millis() as u64,
        });
    }
}

/// A finished episode checked, its unsure criteria decided by the labels and policy, its
/// transcript written; its record, and why it failed (the first failed criterion).
fn checked_and_stored(
    plan: &RunPlan,
    (mi, ui, trial): (usize, usize, u32),
    mut transcript: checkers::Transcript,
) -> Result<(TrialRecord, Option<String>)> {
    let model = &plan.models[mi].0;
    let (case, variant_id) = &plan.units[ui];
    let ctx = CheckContext {
        truth: &case.truth,
        core_invariants: Some(&plan.charter.core_invariants),
    };
    let mut verdict = checkers::check(&transcript, &ctx)
        .map_err(|e| Error::Internal(format!("{}: {e}", case.file.display())))?;
    plan.deciding.apply(&transcript, &mut verdict);
    transcript.checker = Some(verdict.clone());
    let path = transcript_path(&plan.run_dir, model.name(), &case.id, variant_id, trial);
    write_json_atomic(&path, &transcript)?;
    if transcript.outcome == checkers::Outcome::Completed {
        crate::run::interrupt::completed_written();
    }
    let names = (
        plan.names.models[mi].clone(),
        plan.names.cases[ui].clone(),
        plan.names.variants[ui].clone(),
    );
    let why = verdict
        .failed()
        .next()
        .map(|c| format!("{}: {}", c.name, c.detail));
    let record = crate::store::run_folder::record(
        names,
        plan.run_dir.clone(),
        &transcript,
        &verdict,
        &model.model,
        &plan.spool,
    )?;
    Ok((record, why))
}

/// Interned names: every record of a unit shares its model, case and variant strings.
#[derive(Clone, Default)]
pub struct Names {
    pub models: Vec<Arc<str>>,
    pub cases: Vec<Arc<str>>,
    pub variants: Vec<Arc<str>>,
}

impl Names {
    pub fn of(
        models: &[(crate::suite::manifest::ModelEntry, Arc<dyn Provider>)],
        units: &[(Arc<Case>, String)],
    ) -> Names {
        Names {
            models: models.iter().map(|(m, _)| Arc::from(m.name())).collect(),
            cases: units
                .iter()
                .map(|(c, _)| Arc::from(c.id.as_str()))
                .collect(),
            variants: units.iter().map(|(_, v)| Arc::from(v.as_str())).collect(),
        }
    }
}

/// Trials of the plan that a resumed run folder already completed, re-checked with the current
/// checkers. A missing or `error` transcript is not completed: it runs again. A transcript that
/// is there but cannot be read (truncated, edited), or a completed one made under another
/// charter, case file or model request (or not saying which), is refused with its name, as
/// `gate` and `check` refuse it: a resume never overwrites it in silence.
pub fn completed_trials(plan: &RunPlan) -> Result<Vec<Done>> {
    let mut done = Vec::new();
    for (mi, (model, _)) in plan.models.iter().enumerate() {
        for (ui, trial) in plan.plan.of_model(mi) {
            let (case, variant) = &plan.units[ui];
            let path = transcript_path(&plan.run_dir, model.name(), &case.id, variant, trial);
            if path.symlink_metadata().is_err() {
                continue;
            }
            let t = crate::store::read_transcript(&path).map_err(|e| {
                Error::input(format!(
                    "{e}\nresume: this trial's transcript cannot be read, and a resume does not overwrite it; move it aside (or delete it) to run the trial again"
                ))
            })?;
            if t.outcome != checkers::Outcome::Completed {
                continue;
            }
            if let Some(field) = unlike_this_run(plan, mi, ui, &t) {
                return Err(Error::input(format!(
                    "{}: a completed trial whose {field}; resume keeps only completed trials made under this run's charter, case file and model request, and does not overwrite it: move it aside (or delete it) to run the trial again",
                    path.display()
                )));
            }
            let record = crate::store::run_folder::record_of(
                &plan.run_dir,
                path,
                t,
                case,
                Some(&plan.charter.core_invariants),
                &plan.spool,
                &plan.deciding,
            )?;
            done.push(((mi, ui, trial), record));
        }
    }
    Ok(done)
}

/// How a completed transcript differs from what this run would send for model `mi` in unit
/// `ui` (its charter, its case file, the model entry, decoding and tools of its request),
/// as the refusal says it; None when it is this run's.
fn unlike_this_run(
    plan: &RunPlan,
    mi: usize,
    ui: usize,
    t: &checkers::Transcript,
) -> Option<String> {
    let (model, case) = (&plan.models[mi].0, &plan.units[ui].0);
    let differs = |field: &str, had: &str, wants: &str| {
        Some(if had.is_empty() {
            format!("{field} is missing (this run's is {wants})")
        } else {
            format!("{field} is {had}, not this run's {wants}")
        })
    };
    if t.charter_sha256 != plan.charter.sha256 {
        return differs("charter_sha256", &t.charter_sha256, &plan.charter.sha256);
    }
    let case_sha = t.case_sha256.as_deref().unwrap_or_default();
    if case_sha != case.sha256 {
        return differs("case_sha256", case_sha, &case.sha256);
    }
    let Some(request) = &t.request else {
        return Some("request is missing (the model entry, decoding and tools it was sent)".into());
    };
    let tools: Vec<String> = variant_of(case, &plan.units[ui].1)
        .tools
        .iter()
        .filter_map(|t| crate::suite::tools::spec(t))
        .map(|t| t.name.to_string())
        .collect();
    let wants = [
        ("model", serde_json::json!(model)),
        ("decoding", serde_json::json!(plan.decodings[mi])),
        ("tools", serde_json::json!(tools)),
    ];
    wants
        .into_iter()
        .find(|(key, want)| request.get(*key) != Some(want))
        .map(|(key, _)| format!("request.{key} is not what this run sends"))
}
