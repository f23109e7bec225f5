//! A run of the matrix from its options, end to end: load and validate the manifest, charter,
//! suite and providers before any model is called, run the charter arm (and the control arm),
//! and record run.json. The caller prints the gate and writes the reports.

use crate::charter::{self, Charter};
use crate::error::{Error, Result};
use crate::events::{Event, TrialRecord};
use crate::gate::Gate;
use crate::manifest;
use crate::report::Reporters;
use crate::runner::{self, Done, RunPlan};
use crate::suite::{self, Suite};
use crate::{provider, store};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// What `harness run` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub matrix: PathBuf,
    pub cases: Vec<String>,
    pub variants: Vec<String>,
    pub models: Vec<String>,
    pub trials: Option<u32>,
    pub out: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    pub charter: Option<String>,
    /// The folder `charter` is relative to (default: the current folder).
    pub charter_dir: Option<PathBuf>,
    pub suite: Option<PathBuf>,
    pub shard: Option<String>,
    pub arms: Vec<String>,
    pub fail_fast: bool,
    /// Print each trial's story instead of progress.
    pub story: Option<crate::report::story::StoryOptions>,
    /// Run only these units (model, case, variant); others are skipped like another shard's.
    pub only_units: Option<Vec<(String, String, String)>>,
    /// Run model-influenced commands unconfined (`--no-sandbox`).
    pub no_sandbox: bool,
    /// With `resume`: the selection is these options', not the one the folder recorded
    /// (`--resume DIR --all`: every unit; a base rerun: the units it needs). Completed trials
    /// are kept either way.
    pub all: bool,
}

/// A finished run: its gate and everything the reports need.
pub struct RunDone {
    pub run_dir: PathBuf,
    pub gate: Gate,
    pub records: Vec<TrialRecord>,
    pub suite: Suite,
    pub charter: Arc<Charter>,
    pub usage: serde_json::Value,
    pub lift: Option<Vec<crate::report::lift::CaseLift>>,
    pub sandbox_off: bool,
    /// Per model: "sent N requests (plan: at most M)", for the end of the run.
    pub sent: Vec<String>,
}

/// Confine commands a model could influence, or say loudly that they are not. A unit that runs
/// commands (`run_tests`, a behavioural probe) refuses to start without a working sandbox.
fn sandbox_for(suite: &Suite, opts: &RunOptions) -> Result<()> {
    if opts.no_sandbox {
        crate::sandbox::set_unconfined(true);
        errln!("{}", crate::report::files::NO_SANDBOX_WARNING);
        return Ok(());
    }
    let runs_commands = suite::select(suite, &opts.cases, &opts.variants)?
        .iter()
        .any(|(c, v)| v.runs_commands() || c.probe.is_some());
    if !runs_commands {
        return Ok(());
    }
    crate::sandbox::check().map_err(|e| {
        Error::input(format!(
            "the selected cases run commands a model can influence, and this machine cannot confine them: {e}\n\
             The sandbox needs Linux with Landlock and mount/network/PID namespaces (user namespaces when not root). \
             Only as a last resort, with models you trust on a machine you can lose: --no-sandbox runs them unconfined."
        ))
    })
}

/// Validate everything, plan, run the arms, record run.json; the caller prints and writes
/// reports.
pub fn run(opts: &RunOptions) -> Result<RunDone> {
    let previous = opts.resume.as_deref().map(read_previous).transpose()?;
    let asked = opts;
    // A resumed run finishes its own selection; `all` (and a base rerun) selects anew.
    let opts = &match &previous {
        Some(prev) => selection_of(opts, prev)?,
        None => opts.clone(),
    };
    let inputs = Inputs::load(opts)?;
    if previous.is_some() && !opts.all {
        same_selection(asked, opts, &inputs)?;
    }
    let opts = &canonical(opts, &inputs);
    let started = SystemTime::now();
    if let (Some(dir), Some(prev)) = (&opts.resume, &previous) {
        resumable(dir, prev, &inputs.charter, &inputs.loaded)?;
    }
    let trials = trials_of(opts, &inputs.loaded)?;
    err!(
        "{}",
        crate::banner::for_run(&inputs.charter, &inputs.loaded.path, &inputs.suite_root)
    );
    let run_dir = run_dir_of(opts, started)?;
    // Held until the run ends: a second run, or a resume, in this folder is refused at once.
    let _lock = lock_empty_run_dir(opts, &run_dir)?;
    let _interrupt = crate::interrupt::arm(&run_dir);

    let (plan, done, selected) = charter_plan(opts, &inputs, trials, &run_dir)?;
    let control = match inputs.with_control {
        true => Some(control_plan(
            &plan,
            selected,
            &run_dir,
            opts.resume.is_some(),
        )?),
        false => None,
    };
    if let Some(prev) = &previous {
        err!("{}", resume_note(opts, prev, &plan));
    }
    let priced = inputs.priced(&plan.plan, &inputs.charter.runtime);
    err!("{}", priced.summary());
    let mut plan_json = serde_json::json!({"charter": priced.record()});
    if let Some(c) = &control {
        let priced = inputs.priced(&c.plan, "");
        err!("control arm {}", priced.summary());
        plan_json["control"] = priced.record();
    }
    let mut run_json = run_record(opts, &inputs, trials, started, previous.as_ref());
    run_json["plan"] = plan_json;
    // A resume with nothing left to send, or a base rerun whose trials are all stored, leaves
    // the folder's record as it was: nothing ran, and a stored run keeps its own selection.
    let nothing_to_send = previous.is_some()
        && plan.plan.is_empty()
        && control.as_ref().is_none_or(|c| c.plan.is_empty())
        && (!opts.all || opts.only_units.is_some());
    if !nothing_to_send {
        store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let mut at_most: Vec<u64> = (0..plan.models.len())
        .map(|mi| plan.plan.requests_at_most(mi))
        .collect();
    let sent = plan.sent.clone();
    let records = execute_arm(&rt, plan, opts.story)?;
    let control_records = match control {
        Some(c) => {
            errln!("control arm: the same units without the charter");
            for (mi, m) in at_most.iter_mut().enumerate() {
                *m += c.plan.requests_at_most(mi);
            }
            let c_dir = c.run_dir.clone();
            execute_arm(&rt, c, opts.story)?;
            // All of the control arm's trials, earlier ones of a resumed run included.
            Some(runner::stored_records(&c_dir, &inputs.suite)?)
        }
        None => None,
    };

    let models: Vec<manifest::ModelEntry> =
        inputs.providers.iter().map(|(m, _)| m.clone()).collect();
    let usage = accounting(&models, &records);
    let sent_lines: Vec<String> = models
        .iter()
        .enumerate()
        .map(|(mi, m)| {
            crate::plan::sent_line(m.name(), sent.requests(mi), sent.retried(mi), at_most[mi])
        })
        .collect();
    run_json["ended"] = serde_json::json!(store::rfc3339(SystemTime::now()));
    run_json["usage"] = usage.clone();
    run_json["sent"] = serde_json::json!(models
        .iter()
        .enumerate()
        .map(|(mi, m)| serde_json::json!({"model": m.name(), "requests": sent.requests(mi), "retried": sent.retried(mi), "requests_at_most": at_most[mi]}))
        .collect::<Vec<_>>());
    if !nothing_to_send {
        store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;
    }

    let mut records = records;
    records.extend(done.into_iter().map(|(_, r)| r));
    let names: Vec<String> = models.iter().map(|m| m.name().to_string()).collect();
    crate::gate::sort_records(&mut records, &names);
    let gate = Gate::from_records(&records, trials).scoped(
        inputs.units_total,
        inputs.loaded.manifest.run.trials,
        opts.shard.clone(),
    );
    let lift = control_records
        .as_ref()
        .map(|c| crate::report::lift::lift(&records, c));
    Ok(RunDone {
        run_dir,
        gate,
        records,
        suite: inputs.suite,
        charter: inputs.charter,
        usage,
        lift,
        sandbox_off: opts.no_sandbox,
        sent: sent_lines,
    })
}

/// Everything a run needs from its options, loaded and checked before any model is called.
struct Inputs {
    loaded: manifest::LoadedManifest,
    suite_root: PathBuf,
    /// The suite bound to the charter (see `_prepared`).
    suite: Suite,
    charter: Arc<Charter>,
    /// Keeps the bound fixtures alive for the run.
    _prepared: crate::prepare::Prepared,
    providers: Vec<(manifest::ModelEntry, Arc<dyn provider::Provider>)>,
    units: Vec<(Arc<crate::case::Case>, String)>,
    shard: Option<(usize, usize)>,
    with_control: bool,
    /// What a whole gate of this manifest is: every model × every case variant.
    units_total: usize,
}

impl Inputs {
    fn load(opts: &RunOptions) -> Result<Inputs> {
        let loaded = manifest::load(&manifest::resolve(&opts.matrix))?;
        for w in &loaded.warnings {
            errln!("warning: {w}");
        }
        let suite_root = suite::locate(opts.suite.as_deref())?;
        let suite = Suite::load(&suite_root)?;
        let charter = match &opts.charter {
            Some(src) => charter::load(
                src,
                &opts
                    .charter_dir
                    .clone()
                    .unwrap_or_else(|| std::env::current_dir().unwrap_or_default()),
            )?,
            None => charter::load(&loaded.manifest.charter.source, loaded.dir())?,
        };
        sandbox_for(&suite, opts)?;
        let stale = crate::workspace::remove_stale();
        if stale > 0 {
            errln!("removed {stale} trial folder(s) left by harness runs that died");
        }
        // The suite bound to this charter: state files hold its Core Invariants, tokens match
        // the rendered files, history steps are in the fixtures' git history.
        let prepared = crate::prepare::bind(
            &suite,
            &charter.core_invariants,
            std::time::Duration::from_secs(loaded.manifest.run.test_timeout_secs),
        )?;
        let suite = prepared.suite.clone();
        let models = loaded.select_models(&opts.models)?;
        manifest::check_api_keys(&loaded.path, &models)?;
        let selected = crate::plan::units(suite::select(&suite, &opts.cases, &opts.variants)?);
        let mut providers = Vec::new();
        for m in &models {
            let p = provider::build(m, &suite_root)?;
            if let Some((c, v)) = selected.iter().find(|(c, v)| !p.covers(&c.id, &v.id)) {
                return Err(Error::input(format!("model {}: cannot answer {}/{} (for a scripted model: no fixtures/scripted/{}/{}-{}.toml)", m.name(), c.id, v.id, m.script.as_deref().unwrap_or(""), c.id, v.id)));
            }
            providers.push((m.clone(), p));
        }
        let units = selected
            .iter()
            .map(|(c, v)| (Arc::new((*c).clone()), v.id.clone()))
            .collect();
        let shard = opts.shard.as_deref().map(parse_shard).transpose()?;
        let arms = arms_of(opts);
        if let Some(bad) = arms
            .iter()
            .find(|a| !["charter", "control"].contains(&a.as_str()))
        {
            return Err(Error::input(format!(
                "--arms: unknown arm {bad:?} (arms: charter, control)"
            )));
        }
        if !arms.iter().any(|a| a == "charter") {
            return Err(Error::input(
                "--arms must include charter: the gate is decided on the charter arm",
            ));
        }
        let units_total = loaded.manifest.models.len()
            * suite.cases.iter().map(|c| c.variants.len()).sum::<usize>();
        Ok(Inputs {
            with_control: arms.iter().any(|a| a == "control"),
            loaded,
            suite_root,
            suite,
            charter: Arc::new(charter),
            _prepared: prepared,
            providers,
            units,
            shard,
            units_total,
        })
    }

    /// A plan of this run, priced with the manifest's prices.
    fn priced<'a>(
        &'a self,
        plan: &'a crate::plan::Plan,
        system: &'a str,
    ) -> crate::plan::Priced<'a> {
        let manifest = &self.loaded.manifest;
        crate::plan::Priced {
            plan,
            models: &self.providers,
            units: &self.units,
            system,
            max_tokens: manifest.decoding.max_tokens.unwrap_or(4096),
            budget_usd: manifest.run.budget_usd,
        }
    }
}

/// The arms a run asked for (`charter` unless told).
fn arms_of(opts: &RunOptions) -> Vec<String> {
    if opts.arms.is_empty() {
        vec!["charter".to_string()]
    } else {
        opts.arms.clone()
    }
}

/// A resumed folder's run.json, read before anything else is loaded: it says what to select.
fn read_previous(dir: &Path) -> Result<serde_json::Value> {
    let path = dir.join("run.json");
    let text = crate::error::read_to_string(&path)?;
    serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run record: {e}", path.display())))
}

/// The options a resume runs with: the folder's recorded selection, or with `all` the options'
/// own (never fewer trials than the folder has).
fn selection_of(opts: &RunOptions, prev: &serde_json::Value) -> Result<RunOptions> {
    let recorded_trials = prev["trials"].as_u64().map(|t| t as u32);
    if opts.all {
        // A base rerun asks for the head's trials of the units it needs, whatever its folder
        // holds; `--all` only widens.
        if let (Some(asked), Some(had), None) = (opts.trials, recorded_trials, &opts.only_units) {
            if asked < had {
                return Err(Error::input(format!(
                    "--resume --all --trials {asked}: the run already has {had} trials per unit; widening never drops trials"
                )));
            }
        }
        return Ok(RunOptions {
            trials: opts.trials.or(recorded_trials),
            arms: if opts.arms.is_empty() {
                recorded_arms(prev)
            } else {
                opts.arms.clone()
            },
            ..opts.clone()
        });
    }
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(RunOptions {
        cases: strings(&prev["filters"]["case"]),
        variants: strings(&prev["filters"]["variant"]),
        models: strings(&prev["filters"]["model"]),
        trials: recorded_trials,
        shard: prev["shard"].as_str().map(str::to_string),
        arms: recorded_arms(prev),
        only_units: serde_json::from_value(prev["units"].clone()).unwrap_or(None),
        ..opts.clone()
    })
}

/// The arms a run folder recorded (a run.json from before arms were recorded: the charter arm).
fn recorded_arms(prev: &serde_json::Value) -> Vec<String> {
    match prev["arms"].as_array() {
        Some(a) => a
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
        None => vec!["charter".to_string()],
    }
}

/// `--resume DIR` with selection flags: they must say what the folder recorded, since a resume
/// finishes that selection and nothing else.
fn same_selection(asked: &RunOptions, recorded: &RunOptions, inputs: &Inputs) -> Result<()> {
    let dir = asked.resume.as_deref().unwrap_or(Path::new("."));
    let differs = |what: &str| {
        Error::input(format!(
            "{}: --resume finishes the run's own selection ({}), and {what} asks for another; \
             to add every unit of the manifest to this run: --resume {} --all; for another selection: a new run (--out)",
            dir.display(),
            describe(recorded),
            dir.display()
        ))
    };
    let unit_set = |o: &RunOptions| -> Result<std::collections::BTreeSet<(String, String)>> {
        Ok(suite::select(&inputs.suite, &o.cases, &o.variants)?
            .into_iter()
            .map(|(c, v)| (c.id.clone(), v.id.clone()))
            .collect())
    };
    if (!asked.cases.is_empty() || !asked.variants.is_empty())
        && unit_set(asked)? != unit_set(recorded)?
    {
        return Err(differs("--case/--variant"));
    }
    let model_set = |o: &RunOptions| -> Result<std::collections::BTreeSet<String>> {
        Ok(inputs
            .loaded
            .select_models(&o.models)?
            .iter()
            .map(|m| m.name().to_string())
            .collect())
    };
    if !asked.models.is_empty() && model_set(asked)? != model_set(recorded)? {
        return Err(differs("--model"));
    }
    let recorded_trials = recorded.trials.unwrap_or(inputs.loaded.manifest.run.trials);
    if asked.trials.is_some_and(|t| t != recorded_trials) {
        return Err(differs("--trials"));
    }
    let shard = |o: &RunOptions| o.shard.as_deref().map(parse_shard).transpose();
    if asked.shard.is_some() && shard(asked)? != shard(recorded)? {
        return Err(differs("--shard"));
    }
    let arm_set = |o: &RunOptions| {
        arms_of(o)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
    };
    if !asked.arms.is_empty() && arm_set(asked) != arm_set(recorded) {
        return Err(differs("--arms"));
    }
    Ok(())
}

/// The filters as run.json records them: case ids as the suite spells them, model names, each
/// once (`--case E1 --case e1` is `--case E1`).
fn canonical(opts: &RunOptions, inputs: &Inputs) -> RunOptions {
    let once = |values: Vec<String>| {
        let mut out: Vec<String> = Vec::new();
        for v in values {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&v)) {
                out.push(v);
            }
        }
        out
    };
    let split = crate::suite::split_list;
    let cases = split(&opts.cases)
        .into_iter()
        .map(|c| inputs.suite.case(&c).map_or(c, |case| case.id.clone()))
        .collect();
    let models = match opts.models.is_empty() {
        true => Vec::new(),
        false => inputs
            .providers
            .iter()
            .map(|(m, _)| m.name().to_string())
            .collect(),
    };
    RunOptions {
        cases: once(cases),
        variants: once(split(&opts.variants)),
        models,
        ..opts.clone()
    }
}

/// A selection as the flags that make it.
fn describe(o: &RunOptions) -> String {
    let mut units = Vec::new();
    for (flag, values) in [
        ("--case", &o.cases),
        ("--variant", &o.variants),
        ("--model", &o.models),
    ] {
        units.extend(values.iter().map(|v| format!("{flag} {v}")));
    }
    if let Some(s) = &o.shard {
        units.push(format!("--shard {s}"));
    }
    if let Some(u) = &o.only_units {
        units.push(format!("{} unit(s) of a base rerun", u.len()));
    }
    let mut more = Vec::new();
    if let Some(t) = o.trials {
        more.push(format!("--trials {t}"));
    }
    if arms_of(o) != ["charter"] {
        more.push(format!("--arms {}", arms_of(o).join(",")));
    }
    match (units.is_empty(), more.is_empty()) {
        (true, true) => "every unit of the manifest".to_string(),
        (true, false) => format!("every unit of the manifest, {}", more.join(" ")),
        _ => [units, more].concat().join(" "),
    }
}

/// What a resume will do, before its plan: how much of the selection is done, and with `all`
/// what widening adds.
fn resume_note(opts: &RunOptions, prev: &serde_json::Value, plan: &RunPlan) -> String {
    let (left, completed) = (plan.plan.len(), plan.plan.completed);
    let selected = left + completed;
    if opts.only_units.is_some() {
        return format!(
            "base rerun: {completed} of {selected} needed trials stored with the same inputs and reused; sending {left}\n"
        );
    }
    if opts.all {
        let before = selection_of(
            &RunOptions {
                all: false,
                ..opts.clone()
            },
            prev,
        )
        .map(|o| describe(&o))
        .unwrap_or_default();
        return format!(
            "resume --all: widening the run ({before}) to {}: {selected} trials, {completed} already completed, {left} added\n",
            describe(opts),
        );
    }
    format!(
        "resume: {completed} of {selected} trials already completed ({}); running the rest\n",
        describe(opts)
    )
}

/// Trials per unit: `--trials` (or what the resumed run had), else the manifest's.
fn trials_of(opts: &RunOptions, loaded: &manifest::LoadedManifest) -> Result<u32> {
    let trials = opts.trials.unwrap_or(loaded.manifest.run.trials);
    if trials == 0 {
        return Err(Error::input("--trials must be at least 1"));
    }
    Ok(trials)
}

/// The run folder: the resumed one, `--out`, or a new `results/<run-id>` (then also
/// `results/latest`).
fn run_dir_of(opts: &RunOptions, started: SystemTime) -> Result<PathBuf> {
    let run_dir = match (&opts.resume, &opts.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(out)) => out.clone(),
        (None, None) => std::env::current_dir()
            .map_err(|e| Error::io(Path::new("."), e))?
            .join("results")
            .join(store::run_id(started)),
    };
    if opts.out.is_none() && opts.resume.is_none() {
        // results/latest: the newest run, for people and scripts.
        std::fs::create_dir_all(&run_dir).map_err(|e| Error::io(&run_dir, e).run_folder())?;
        crate::runs::mark_latest(&run_dir);
    }
    Ok(run_dir)
}

/// Lock the run folder; a new run refuses a folder that already holds files.
fn lock_empty_run_dir(opts: &RunOptions, run_dir: &Path) -> Result<store::RunLock> {
    let lock = store::lock_run_dir(run_dir).map_err(Error::run_folder)?;
    if opts.resume.is_none()
        && std::fs::read_dir(run_dir)
            .map_err(|e| Error::io(run_dir, e))?
            .flatten()
            .any(|e| e.file_name() != store::LOCK_FILE)
    {
        return Err(Error::input(format!("{}: already holds files; choose another --out, or --resume it (nothing was overwritten)", run_dir.display())));
    }
    Ok(lock)
}

/// run.json as the run starts: what was asked and under which charter, manifest and suite.
fn run_record(
    opts: &RunOptions,
    inputs: &Inputs,
    trials: u32,
    started: SystemTime,
    previous: Option<&serde_json::Value>,
) -> serde_json::Value {
    let loaded = &inputs.loaded;
    let mut run_json = serde_json::json!({
        "harness_version": env!("CARGO_PKG_VERSION"),
        "manifest_path": std::fs::canonicalize(&loaded.path).unwrap_or(loaded.path.clone()).display().to_string(),
        "manifest_sha256": crate::charter::sha256_hex(&std::fs::read(&loaded.path).unwrap_or_default()),
        "manifest": loaded.manifest,
        "charter": &*inputs.charter,
        "suite": inputs.suite_root.display().to_string(),
        "case_files": inputs.suite.cases.iter().map(|c| (c.id.clone(), c.sha256.clone())).collect::<std::collections::BTreeMap<_, _>>(),
        // The selection: what `--resume` finishes.
        "filters": {"case": opts.cases, "variant": opts.variants, "model": opts.models},
        "trials": trials,
        "shard": opts.shard,
        "arms": arms_of(opts),
        "units": opts.only_units,
        "started": store::rfc3339(started),
        "ended": null,
        "sandbox": if opts.no_sandbox { "off" } else { "confined" },
        // What a whole gate of this manifest is: fewer units or trials make the run partial.
        "units_total": inputs.units_total,
        "manifest_trials": loaded.manifest.run.trials,
    });
    if let Some(prev) = previous {
        run_json["started"] = prev["started"].clone();
        let mut resumed = prev["resumed"].as_array().cloned().unwrap_or_default();
        resumed.push(serde_json::json!(store::rfc3339(started)));
        run_json["resumed"] = serde_json::json!(resumed);
    }
    run_json
}

/// The charter arm's plan, the trials a resumed run already completed, and the whole
/// selection (what the control arm runs). Units outside this shard or outside `--only` units
/// are not selected; completed trials are not sent again.
fn charter_plan(
    opts: &RunOptions,
    inputs: &Inputs,
    trials: u32,
    run_dir: &Path,
) -> Result<(RunPlan, Vec<Done>, crate::plan::Plan)> {
    let manifest = &inputs.loaded.manifest;
    // Shards deal units round-robin in plan order: deterministic.
    let per_model = inputs.units.len();
    let selected = |(mi, ui, _): crate::plan::TrialKey| {
        let this_shard = inputs
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
    let selection = crate::plan::Plan::new(
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
        units: inputs.units.clone(),
        trials,
        run_dir: Arc::from(run_dir),
        fixtures: crate::workspace::FixtureStore::new()?,
        budget: manifest
            .run
            .budget_usd
            .map(|b| Arc::new(crate::budget::Budget::new(b))),
        plan: selection.clone(),
        sent: runner::Sent::new(inputs.providers.len()),
        fail_fast: opts.fail_fast,
        control_arm: false,
        spool: crate::spool::Spool::new()?,
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
    selection: crate::plan::Plan,
    run_dir: &Path,
    resume: bool,
) -> Result<RunPlan> {
    let mut c = RunPlan {
        manifest: plan.manifest.clone(),
        charter: plan.charter.clone(),
        models: plan.models.clone(),
        units: plan.units.clone(),
        trials: plan.trials,
        run_dir: Arc::from(run_dir.join("control-arm").as_path()),
        fixtures: crate::workspace::FixtureStore::new()?,
        budget: plan.budget.clone(),
        plan: selection.clone(),
        // One count per model for both arms: the end of the run says what each model was sent.
        sent: plan.sent.clone(),
        fail_fast: false,
        control_arm: true,
        spool: plan.spool.clone(),
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
    crate::interrupt::wait_if_interrupted();
    let records = records?;
    if let Ok(mut reporters) = reporters {
        reporters.arm_ended(&records);
    }
    Ok(records)
}

/// Events a run may queue for its reporters before trials wait for them: enough to smooth
/// bursts, bounded so a slow terminal cannot make memory grow with the trial count.
const EVENT_BACKLOG: usize = 1024;

/// Tokens, cost and alias drift per model, for run.json and the end-of-run summary.
fn accounting(
    models: &[manifest::ModelEntry],
    records: &[crate::events::TrialRecord],
) -> serde_json::Value {
    let per_model: Vec<serde_json::Value> = models
        .iter()
        .map(|m| {
            let mine: Vec<_> = records.iter().filter(|r| &*r.model == m.name()).collect();
            let usage: crate::provider::Usage = mine.iter().map(|r| &r.usage).sum();
            let (input, output) = (usage.input_tokens, usage.output_tokens);
            let all_input = input + usage.cache_read_tokens + usage.cache_write_tokens;
            let priced = m.price_input_per_mtok.is_some() || m.price_output_per_mtok.is_some();
            let prices = crate::budget::Prices::of(m);
            // What it cost, and what the same tokens would have cost with no prompt cache.
            let cost = priced.then(|| prices.cost_cached(&usage));
            let uncached = priced.then(|| prices.cost(all_input, output));
            let cached_share = if all_input == 0 { 0.0 } else { usage.cache_read_tokens as f64 / all_input as f64 };
            let mut drift: Vec<String> = mine.iter().flat_map(|r| r.alias_drift.iter().cloned()).collect();
            drift.sort();
            drift.dedup();
            serde_json::json!({"model": m.name(), "pinned": m.model, "input_tokens": input, "output_tokens": output, "cache_read_input_tokens": usage.cache_read_tokens, "cache_write_input_tokens": usage.cache_write_tokens, "cached_share": cached_share, "cost_usd": cost, "cost_without_cache_usd": uncached, "alias_drift": drift})
        })
        .collect();
    serde_json::json!(per_model)
}

/// Whether a run folder (its run.json `prev`) may be resumed under `charter` and this manifest.
fn resumable(
    dir: &Path,
    prev: &serde_json::Value,
    charter: &Charter,
    loaded: &manifest::LoadedManifest,
) -> Result<()> {
    let path = dir.join("run.json");
    let sha = prev["charter"]["sha256"].as_str().unwrap_or_default();
    if sha != charter.sha256 {
        return Err(Error::input(format!(
            "{}: the run was made under charter {sha}, not {} ({}); resume it with the same charter, or start a new run",
            path.display(),
            charter.sha256,
            charter.source
        )));
    }
    // The same models at the same decoding, from the same manifest file: a resumed run must not
    // gate models the run never had, or trials made under another config.
    let now = serde_json::to_value(&loaded.manifest).unwrap_or_default();
    for key in ["models", "decoding"] {
        if prev["manifest"][key] != now[key] {
            return Err(Error::input(format!(
                "{}: the run was made with other {key} than {} has now; resume it with its own manifest ({}), or start a new run",
                path.display(),
                loaded.path.display(),
                prev["manifest_path"].as_str().unwrap_or("?")
            )));
        }
    }
    if let Some(recorded) = prev["manifest_sha256"].as_str() {
        let bytes = std::fs::read(&loaded.path).unwrap_or_default();
        if crate::charter::sha256_hex(&bytes) != recorded {
            return Err(Error::input(format!(
                "{}: {} changed since the run started (sha256 differs); resume with the manifest the run was made with",
                path.display(),
                loaded.path.display()
            )));
        }
    }
    // A run killed mid-write leaves only temp files (writes are rename-atomic); clear them.
    for f in crate::store::leftover_temp_files(dir) {
        let _ = std::fs::remove_file(f);
    }
    Ok(())
}

/// `K/N` as (k, n) with 1 ≤ k ≤ n.
fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let bad = || Error::input(format!("--shard {s:?}: want K/N with 1 ≤ K ≤ N, e.g. 1/2"));
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}
