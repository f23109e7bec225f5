//! A run of the matrix, one stage after the other from its selection resolved once
//! ([`crate::run::selection`]): what the run tests announced; then a dry run's plan, or the run
//! folder locked, the arms planned and priced, the charter arm (and the control arm) run,
//! run.json recorded, the gate decided. `command` is `harness run` itself: it ends with
//! [`crate::run::outcome::conclude`].

use crate::error::{Error, Result};
use crate::gate::Gate;
use crate::report::events::Event;
use crate::report::findings::RunFacts;
use crate::report::Reporters;
use crate::run::inputs::Inputs;
use crate::run::options::RunOptions;
use crate::run::runner::{self, Done, RunPlan};
use crate::run::selection::{resolve_run, Resolved, Resume};
use crate::store;
use crate::store::record::{
    Filters, ModelUsage, RecordedCharter, RecordedManifest, RunPlanRecord, RunRecord, Sandbox,
    SentRecord,
};
use crate::store::run_folder;
use crate::store::trial::TrialRecord;
use crate::suite::charter::Charter;
use crate::suite::manifest;
use crate::suite::Suite;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// A finished run: its gate and everything the reports need.
pub struct RunDone {
    pub run_dir: PathBuf,
    pub gate: Gate,
    pub records: Vec<TrialRecord>,
    pub suite: Suite,
    pub charter: Arc<Charter>,
    pub usage: Vec<ModelUsage>,
    pub lift: Option<Vec<crate::store::record::CaseLift>>,
    pub sandbox_off: bool,
    /// Per model: "sent N requests (plan: at most M)", for the end of the run.
    pub sent: Vec<String>,
    /// The command that finishes this run folder (`--resume`), as an interrupt would say it.
    pub resume: String,
}

/// `harness run`: the selection resolved and announced, then a dry run, or the run with its
/// gate printed and its reports written; the exit code.
pub fn command(opts: &RunOptions) -> Result<u8> {
    let r = resolve_run(opts)?;
    crate::run::banner::announce(&r.inputs);
    if opts.dry_run {
        return dry_run(&r);
    }
    let done = execute(r)?;
    let facts = RunFacts {
        charter_source: &done.charter.source,
        charter_sha256: &done.charter.sha256,
        charter_version: done.charter.version.as_deref(),
        system_prompt: &done.charter.runtime,
        suite: &done.suite,
        usage: Some(done.usage.clone()),
        lift: done.lift.clone(),
        sandbox_off: done.sandbox_off,
        step_summary: true,
        comparison: None,
    };
    // What was sent against the plan printed before the first call: said before the gate, so
    // that the verdict stays the last line a terminal shows (stderr and stdout together).
    for line in &done.sent {
        errln!("{line}");
    }
    let (run_dir, resume) = (&done.run_dir, &done.resume);
    crate::run::outcome::conclude(run_dir, resume, &done.gate, &done.records, &facts)
}

/// A run for another command (a base rerun, `--settle`'s rounds): validate everything, plan,
/// run the arms, record run.json; the caller prints and writes reports.
pub fn run(opts: &RunOptions) -> Result<RunDone> {
    let r = resolve_run(opts)?;
    crate::run::banner::announce(&r.inputs);
    execute(r)
}

/// The run from its resolved selection: the folder chosen and locked, the arms planned, priced
/// and run, run.json recorded as the run starts and ends, the gate decided.
fn execute(r: Resolved) -> Result<RunDone> {
    let started = SystemTime::now();
    let run_dir = run_dir_of(&r.opts, started)?;
    // Held until the run ends (an interrupt included): a second run, or a resume, in this
    // folder is refused at once.
    let lock = run_folder::lock_for_run(&run_dir, r.opts.resume.is_some())?;
    let interrupt = crate::run::interrupt::arm(&run_dir, lock);
    let arms = plan_arms(&r, &run_dir)?;
    let mut record = run_record(&r, started);
    let (plan, accounts) = say_plan(&r, &arms);
    record.plan = Some(plan);
    // A resume with nothing left to send, or a base rerun whose trials are all stored, leaves
    // the folder's record as it was: nothing ran, and a stored run keeps its own selection.
    let nothing_to_send =
        r.previous.is_some() && arms.is_empty() && (!r.opts.all || r.opts.only_units.is_some());
    let write = |rec: &RunRecord| match nothing_to_send {
        true => Ok(()),
        false => rec.write(&run_dir.join("run.json")),
    };
    write(&record)?;
    let ran = run_arms(arms.charter, arms.control, r.opts.story, &r.inputs.suite)?;
    let models: Vec<manifest::ModelEntry> = (r.inputs.providers.iter())
        .map(|(m, _)| m.clone())
        .collect();
    let usage: Vec<ModelUsage> = (models.iter())
        .map(|m| ModelUsage::of(m, &ran.records))
        .collect();
    record.ended = Some(store::rfc3339(SystemTime::now()));
    record.usage = Some(usage.clone());
    record.sent = Some(ran.sent.records(&models));
    record.limits = (!accounts.is_empty()).then(|| accounts.records());
    write(&record)?;
    let sent = (ran.sent.lines(&models).into_iter())
        .chain(accounts.closing_lines())
        .collect();
    let untestable = record.charter.untestable_cases.clone();
    let (gate, records, lift) = gated(&r, ran, arms.done, untestable);
    Ok(RunDone {
        run_dir,
        gate,
        records,
        sandbox_off: r.opts.no_sandbox,
        suite: r.inputs.suite,
        charter: r.inputs.charter,
        usage,
        lift,
        sent,
        resume: interrupt.command().to_string(),
    })
}

/// The run's gate over the charter arm's trials (run now and completed before), and the
/// control arm's lift.
fn gated(r: &Resolved, ran: Ran, done: Vec<Done>, untestable: Vec<String>) -> Gated {
    let mut records = ran.records;
    records.extend(done.into_iter().map(|(_, r)| r));
    let lift =
        (ran.control_records.as_ref()).map(|c| crate::report::control_arm::case_lifts(&records, c));
    let names: Vec<String> = (r.inputs.providers.iter())
        .map(|(m, _)| m.name().to_string())
        .collect();
    crate::gate::sort_records(&mut records, &names);
    let mut gate = Gate::from_records(&records, r.trials).scoped(
        r.inputs.units_total,
        r.inputs.loaded.manifest.run.trials,
        r.opts.shard.clone(),
    );
    gate.untestable = untestable;
    (gate, records, lift)
}

/// A run's gate, its records in gate order, and the control arm's lift.
type Gated = (
    Gate,
    Vec<TrialRecord>,
    Option<Vec<crate::store::record::CaseLift>>,
);

/// `run --dry-run`: everything a run checks before its first call (manifest, charter, suite,
/// keys, endpoints, a resumed folder), then the plan, its price and the accounts' limits
/// printed; nothing sent, no run folder made or written.
fn dry_run(r: &Resolved) -> Result<u8> {
    // Where the run would write; only a resumed folder is read (its completed trials).
    let run_dir = match (&r.opts.resume, &r.opts.out) {
        (Some(dir), _) | (None, Some(dir)) => dir.clone(),
        (None, None) => crate::files::root::base().join("results"),
    };
    let arms = plan_arms(r, &run_dir)?;
    say_plan(r, &arms);
    errln!("dry run: everything checked, nothing sent, nothing written");
    Ok(crate::exit::OK)
}

/// The arms' plans: the charter arm's, the control arm's when asked for, and the trials of the
/// charter arm a resumed run folder already completed.
struct ArmPlans {
    charter: RunPlan,
    control: Option<RunPlan>,
    done: Vec<Done>,
}

impl ArmPlans {
    /// Nothing left to send on either arm.
    fn is_empty(&self) -> bool {
        self.charter.plan.is_empty() && self.control.as_ref().is_none_or(|c| c.plan.is_empty())
    }
}

/// Both arms planned in `run_dir`.
fn plan_arms(r: &Resolved, run_dir: &Path) -> Result<ArmPlans> {
    let (charter, done, selected) = charter_plan(r, run_dir)?;
    let control = match r.with_control {
        true => Some(control_plan(
            &charter,
            selected,
            run_dir,
            r.opts.resume.is_some(),
        )?),
        false => None,
    };
    Ok(ArmPlans {
        charter,
        control,
        done,
    })
}

/// What the run will do, said before anything is sent: what a resume adds, the arms' plans
/// priced, the accounts' limits. The plans as run.json records them, and the accounts.
fn say_plan(r: &Resolved, arms: &ArmPlans) -> (RunPlanRecord, crate::run::limits::Accounts) {
    if let Some(resume) = &r.resume {
        err!("{}", resume_note(resume, &arms.charter.plan));
    }
    let record = planned(&r.inputs, &arms.charter, arms.control.as_ref());
    let accounts = accounts_of(&r.inputs, &arms.charter, arms.control.as_ref());
    (record, accounts)
}

/// What a resume will do, before its plan: how much of the selection is done, and with `all`
/// what widening adds.
fn resume_note(resume: &Resume, plan: &crate::run::plan::Plan) -> String {
    let (left, completed) = (plan.len(), plan.completed);
    let selected = left + completed;
    match resume {
        Resume::BaseRerun => format!(
            "base rerun: {completed} of {selected} needed trials stored with the same inputs and reused; sending {left}\n"
        ),
        Resume::Widen { before, after } => format!(
            "resume --all: widening the run ({before}) to {after}: {selected} trials, {completed} already completed, {left} added\n"
        ),
        Resume::Finish { selection } => format!(
            "resume: {completed} of {selected} trials already completed ({selection}); running the rest\n"
        ),
    }
}

/// The accounts the run's models call, each once, with its limits printed as the plan knows
/// them (before the first call).
fn accounts_of(
    inputs: &Inputs,
    plan: &RunPlan,
    control: Option<&RunPlan>,
) -> crate::run::limits::Accounts {
    let episodes = |mi: usize| plan.plan.episodes(mi) + control.map_or(0, |c| c.plan.episodes(mi));
    let accounts = crate::run::limits::Accounts::of(&inputs.providers, &episodes);
    let max_tokens = inputs.loaded.manifest.decoding.max_tokens.unwrap_or(0) as u64;
    let first_turn = (inputs.charter.runtime.len() as u64).div_ceil(4) + max_tokens;
    for line in accounts.plan_lines(first_turn) {
        errln!("{line}");
    }
    accounts
}

/// The arms' plans, priced and printed, as run.json records them.
fn planned(inputs: &Inputs, plan: &RunPlan, control: Option<&RunPlan>) -> RunPlanRecord {
    let priced = inputs.priced(&plan.plan, &inputs.charter.runtime);
    err!("{}", priced.summary());
    let mut record = RunPlanRecord {
        charter: priced.arm_plan(),
        control: None,
    };
    if let Some(c) = control {
        let priced = inputs.priced(&c.plan, "");
        err!("control arm {}", priced.summary());
        record.control = Some(priced.arm_plan());
    }
    record
}

/// What each model was sent, against the most its plans allowed (both arms').
struct SentTally {
    sent: Arc<runner::Sent>,
    at_most: Vec<u64>,
}

impl SentTally {
    fn records(&self, models: &[manifest::ModelEntry]) -> Vec<SentRecord> {
        (models.iter().enumerate())
            .map(|(mi, m)| SentRecord {
                model: m.name().to_string(),
                requests: self.sent.requests(mi),
                retried: self.sent.retried(mi),
                requests_at_most: self.at_most[mi],
            })
            .collect()
    }

    /// Per model: "sent N requests (plan: at most M)", for the end of the run.
    fn lines(&self, models: &[manifest::ModelEntry]) -> Vec<String> {
        let records = self.records(models);
        // Nothing planned and nothing sent: the plan said so ("nothing to send").
        if records
            .iter()
            .all(|s| s.requests == 0 && s.requests_at_most == 0)
        {
            return Vec::new();
        }
        records
            .iter()
            .map(|s| {
                crate::run::plan::sent_line(&s.model, s.requests, s.retried, s.requests_at_most)
            })
            .collect()
    }
}

/// What the arms ran: the charter arm's new records, all of the control arm's (earlier ones of a
/// resumed run included), and what was sent.
struct Ran {
    records: Vec<TrialRecord>,
    control_records: Option<Vec<TrialRecord>>,
    sent: SentTally,
}

/// The charter arm, then the control arm, on one runtime.
fn run_arms(
    plan: RunPlan,
    control: Option<RunPlan>,
    story: Option<crate::report::story::StoryOptions>,
    suite: &Suite,
) -> Result<Ran> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let at_most: Vec<u64> = (0..plan.models.len())
        .map(|mi| {
            plan.plan.requests_at_most(mi)
                + control.as_ref().map_or(0, |c| c.plan.requests_at_most(mi))
        })
        .collect();
    let sent = plan.sent.clone();
    let records = execute_arm(&rt, plan, story)?;
    let control_records = match control {
        Some(c) => {
            errln!("control arm: the same units without the charter");
            let c_dir = c.run_dir.clone();
            execute_arm(&rt, c, story)?;
            Some(run_folder::stored_records(&c_dir, suite)?)
        }
        None => None,
    };
    Ok(Ran {
        records,
        control_records,
        sent: SentTally { sent, at_most },
    })
}

/// The run folder: the resumed one, `--out`, or a new `results/<run-id>` (then also
/// `results/latest`).
fn run_dir_of(opts: &RunOptions, started: SystemTime) -> Result<PathBuf> {
    let run_dir = match (&opts.resume, &opts.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(out)) => out.clone(),
        // The repository's results/ (its root, as git finds it), else this folder's.
        (None, None) => {
            let results = crate::files::root::base().join("results");
            store::create_run_dir(&results, started)?
        }
    };
    if opts.out.is_none() && opts.resume.is_none() {
        // results/latest: the newest whole run, for people and scripts; `gate`, `check`,
        // `show` and `--charter-base` read it, so a narrowed debugging run never moves it.
        let narrowed =
            !(opts.cases.is_empty() && opts.variants.is_empty() && opts.models.is_empty())
                || opts.shard.is_some();
        if narrowed {
            let latest = run_dir.with_file_name("latest");
            let kept = std::fs::read_link(&latest)
                .map(|l| format!("still points at {}", l.display()))
                .unwrap_or_else(|_| "is not set".to_string());
            errln!(
                "narrowed run: {} is not results/latest (which {kept}, for gate, check and show); give its folder to read it",
                crate::suite::embedded::shown(&run_dir)
            );
        } else {
            crate::store::runs::mark_latest(&run_dir);
        }
    }
    Ok(run_dir)
}

/// run.json as the run starts: what was asked and under which charter, manifest and suite.
fn run_record(r: &Resolved, started: SystemTime) -> RunRecord {
    let (opts, inputs, previous) = (&r.opts, &r.inputs, r.previous.as_ref());
    let loaded = &inputs.loaded;
    let manifest_path = std::fs::canonicalize(&loaded.path).unwrap_or(loaded.path.clone());
    let manifest_bytes =
        crate::files::read::read_bytes(&loaded.path, crate::files::read::Kind::Manifest)
            .unwrap_or_default();
    let started = store::rfc3339(started);
    RunRecord {
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        manifest_path: Some(manifest_path.display().to_string()),
        manifest_sha256: Some(crate::suite::charter::sha256_hex(&manifest_bytes)),
        manifest: RecordedManifest::of(&loaded.manifest),
        charter: RecordedCharter::from(&*inputs.charter),
        suite: inputs.suite_root.display().to_string(),
        case_files: (inputs.suite.cases.iter())
            .map(|c| (c.id.clone(), c.sha256.clone()))
            .collect(),
        filters: Filters {
            case: opts.cases.clone(),
            variant: opts.variants.clone(),
            model: opts.models.clone(),
        },
        trials: Some(r.trials),
        shard: opts.shard.clone(),
        arms: Some(r.arms.clone()),
        units: opts.only_units.clone(),
        // A resumed run keeps its start, and adds when it was resumed.
        resumed: previous.map(|prev| {
            let mut resumed = prev.resumed.clone().unwrap_or_default();
            resumed.push(started.clone());
            resumed
        }),
        started: match previous {
            Some(prev) => prev.started.clone(),
            None => Some(started),
        },
        ended: None,
        sandbox: Sandbox::of(opts.no_sandbox),
        units_total: Some(inputs.units_total),
        manifest_trials: Some(loaded.manifest.run.trials),
        ..RunRecord::default()
    }
}

/// The charter arm's plan, the trials a resumed run already completed, and the whole
/// selection (what the control arm runs). Units outside this shard or outside `--only` units
/// are not selected; completed trials are not sent again.
fn charter_plan(
    r: &Resolved,
    run_dir: &Path,
) -> Result<(RunPlan, Vec<Done>, crate::run::plan::Plan)> {
    let (opts, inputs, trials) = (&r.opts, &r.inputs, r.trials);
    let manifest = &inputs.loaded.manifest;
    // Shards deal units round-robin in plan order: deterministic.
    let per_model = inputs.units.len();
    let selected = |(mi, ui, _): crate::run::plan::TrialKey| {
        let this_shard = r
            .shard
            .is_none_or(|(k, n)| (mi * per_model + ui) % n == k - 1);
        let listed = opts.only_units.as_ref().is_none_or(|only| {
            let (case, variant) = &inputs.units[ui];
            only.iter().any(|(m, c, v)| {
                m == inputs.providers[mi].0.name() && *c == case.id && v == variant
            })
        });
        this_shard && listed
    };
    let selection = crate::run::plan::Plan::new(
        inputs.providers.len(),
        per_model,
        trials,
        manifest.run.max_steps,
        selected,
    );
    let mut plan = RunPlan {
        manifest: manifest.clone(),
        charter: inputs.charter.clone(),
        models: inputs.providers.clone(),
        decodings: (inputs.providers.iter())
            .map(|(m, _)| crate::trial::episode::decoding_for(&manifest.decoding, m))
            .collect(),
        units: inputs.units.clone(),
        trials,
        run_dir: Arc::from(run_dir),
        fixtures: crate::trial::workspace::FixtureStore::new()?,
        budget: manifest
            .run
            .budget_usd
            .map(|b| Arc::new(crate::trial::spending_limit::SpendingLimit::new(b))),
        plan: selection.clone(),
        sent: runner::Sent::new(inputs.providers.len()),
        fail_fast: opts.fail_fast,
        control_arm: false,
        spool: crate::store::spool::Spool::new()?,
        deciding: Arc::new(crate::store::labels::Deciding::load(
            std::path::Path::new(crate::store::labels::DECIDING_LABELS),
            manifest.run.unsure,
        )?),
        names: runner::Names::of(&inputs.providers, &inputs.units),
    };
    let done = match opts.resume {
        Some(_) => runner::completed_trials(&plan)?,
        None => Vec::new(),
    };
    plan.plan = selection.clone().without(done.iter().map(|(k, _)| *k));
    Ok((plan, done, selection))
}

/// The control arm: the charter arm's selection without the charter, in `control-arm/`, less
/// what a resumed control arm completed.
fn control_plan(
    plan: &RunPlan,
    selection: crate::run::plan::Plan,
    run_dir: &Path,
    resume: bool,
) -> Result<RunPlan> {
    let mut c = RunPlan {
        manifest: plan.manifest.clone(),
        charter: plan.charter.clone(),
        models: plan.models.clone(),
        decodings: plan.decodings.clone(),
        units: plan.units.clone(),
        trials: plan.trials,
        run_dir: Arc::from(run_dir.join("control-arm").as_path()),
        fixtures: crate::trial::workspace::FixtureStore::new()?,
        budget: plan.budget.clone(),
        plan: selection.clone(),
        // One count per model for both arms: the end of the run says what each model was sent.
        sent: plan.sent.clone(),
        fail_fast: false,
        control_arm: true,
        spool: plan.spool.clone(),
        deciding: plan.deciding.clone(),
        names: plan.names.clone(),
    };
    if resume {
        let done = runner::completed_trials(&c)?;
        c.plan = selection.without(done.into_iter().map(|(k, _)| k));
    }
    Ok(c)
}

/// One arm on the runtime, its events fed to the reporters (progress; with `story`, each
/// trial's story told when the arm ends).
fn execute_arm(
    rt: &tokio::runtime::Runtime,
    plan: RunPlan,
    story: Option<crate::report::story::StoryOptions>,
) -> Result<Vec<TrialRecord>> {
    let mut reporters = Reporters::new(crate::report::Console::detect(), story);
    let (records, reporters) = rt.block_on(async move {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Event>(EVENT_BACKLOG);
        let reporter = tokio::spawn(async move {
            while let Some(ev) = rx.recv().await {
                reporters.on_event(&ev);
            }
            reporters
        });
        let result = runner::execute(plan, tx).await;
        (result, reporter.await)
    });
    crate::run::interrupt::wait_if_interrupted();
    let records = records?;
    if let Ok(mut reporters) = reporters {
        reporters.arm_ended(&records);
    }
    Ok(records)
}

/// Events a run may queue for its reporters before trials wait for them: enough to smooth
/// bursts, bounded so a slow terminal cannot make memory grow with the trial count.
const EVENT_BACKLOG: usize = 1024;
