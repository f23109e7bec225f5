//! A run of the matrix from its options, end to end: load and validate the manifest, charter,
//! suite and providers before any model is called, run the charter arm (and the control arm),
//! and record run.json. The caller prints the gate and writes the reports.

use crate::charter::{self, Charter};
use crate::error::{Error, Result};
use crate::events::{Event, TrialRecord};
use crate::gate::Gate;
use crate::manifest;
use crate::report::progress::Progress;
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
}

/// Confine commands a model could influence, or say loudly that they are not. A unit that runs
/// commands (`run_tests`, a behavioural probe) refuses to start without a working sandbox.
fn sandbox_for(suite: &Suite, opts: &RunOptions) -> Result<()> {
    if opts.no_sandbox {
        crate::sandbox::set_unconfined(true);
        eprintln!("{}", crate::report::files::NO_SANDBOX_WARNING);
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
             The sandbox needs Linux with Landlock and network/PID namespaces (user namespaces when not root). \
             Run on such a machine, or pass --no-sandbox to run them unconfined (never with untrusted models on a machine that matters)."
        ))
    })
}

/// Validate everything, run the arms, record run.json; the caller prints and writes reports.
pub fn run(opts: &RunOptions) -> Result<RunDone> {
    let inputs = Inputs::load(opts)?;
    let started = SystemTime::now();
    let previous = match &opts.resume {
        Some(dir) => Some(resumable(dir, &inputs.charter, &inputs.loaded)?),
        None => None,
    };
    let trials = trials_of(opts, previous.as_ref(), &inputs.loaded)?;
    eprint!(
        "{}",
        crate::banner::for_run(&inputs.charter, &inputs.loaded.path, &inputs.suite_root)
    );
    eprint!("{}", inputs.plan_summary(trials));
    let run_dir = run_dir_of(opts, started)?;
    // Held until the run ends: a second run, or a resume, in this folder is refused at once.
    let _lock = lock_empty_run_dir(opts, &run_dir)?;
    let _interrupt = crate::interrupt::arm(&run_dir);
    let mut run_json = run_record(opts, &inputs, trials, started, previous.as_ref());
    store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;

    let (plan, done) = charter_plan(opts, &inputs, trials, &run_dir)?;
    let control = match inputs.with_control {
        true => Some(control_plan(&plan, &done, &run_dir, opts.resume.is_some())?),
        false => None,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let records = execute_arm(&rt, plan, opts.story)?;
    let control_records = match control {
        Some(c) => {
            eprintln!("control arm: the same units without the charter");
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
    run_json["ended"] = serde_json::json!(store::rfc3339(SystemTime::now()));
    run_json["usage"] = usage.clone();
    store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;

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
            eprintln!("warning: {w}");
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
            eprintln!("removed {stale} trial folder(s) left by harness runs that died");
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
        let selected = suite::select(&suite, &opts.cases, &opts.variants)?;
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
        if let Some(bad) = opts
            .arms
            .iter()
            .find(|a| !["charter", "control"].contains(&a.as_str()))
        {
            return Err(Error::input(format!(
                "--arms: unknown arm {bad:?} (arms: charter, control)"
            )));
        }
        if !opts.arms.iter().any(|a| a == "charter") {
            return Err(Error::input(
                "--arms must include charter: the gate is decided on the charter arm",
            ));
        }
        let units_total = loaded.manifest.models.len()
            * suite.cases.iter().map(|c| c.variants.len()).sum::<usize>();
        Ok(Inputs {
            with_control: opts.arms.iter().any(|a| a == "control"),
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

    fn plan_summary(&self, trials: u32) -> String {
        let units: Vec<(&crate::case::Case, &crate::case::Variant)> = self
            .units
            .iter()
            .filter_map(|(c, v)| Some((&**c, c.variant(v)?)))
            .collect();
        plan_summary(&self.providers, &units, trials, &self.charter.runtime)
    }
}

/// Trials per unit: `--trials`, else what the resumed run had, else the manifest's.
fn trials_of(
    opts: &RunOptions,
    previous: Option<&serde_json::Value>,
    loaded: &manifest::LoadedManifest,
) -> Result<u32> {
    let trials = opts
        .trials
        .or(previous
            .and_then(|p| p["trials"].as_u64())
            .map(|t| t as u32))
        .unwrap_or(loaded.manifest.run.trials);
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
        "filters": {"case": opts.cases, "variant": opts.variants, "model": opts.models},
        "trials": trials,
        "shard": opts.shard,
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

/// The charter arm's plan, and the trials a resumed run already completed. Units outside this
/// shard or outside `--only` units, and completed trials, are skipped.
fn charter_plan(
    opts: &RunOptions,
    inputs: &Inputs,
    trials: u32,
    run_dir: &Path,
) -> Result<(RunPlan, Vec<Done>)> {
    let manifest = &inputs.loaded.manifest;
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
        skip: Default::default(),
        fail_fast: opts.fail_fast,
        control_arm: false,
        spool: crate::spool::Spool::new()?,
        names: runner::Names::of(&inputs.providers, &inputs.units),
    };
    let mut done = match opts.resume {
        Some(_) => runner::completed_trials(&plan)?,
        None => Vec::new(),
    };
    // Shards deal units round-robin in plan order: deterministic.
    let per_model = plan.units.len();
    let outside = |mi: usize, ui: usize| {
        let other_shard = inputs
            .shard
            .is_some_and(|(k, n)| (mi * per_model + ui) % n != k - 1);
        let not_listed = opts.only_units.as_ref().is_some_and(|only| {
            let (case, variant) = &plan.units[ui];
            !only
                .iter()
                .any(|(m, c, v)| m == plan.models[mi].0.name() && *c == case.id && v == variant)
        });
        other_shard || not_listed
    };
    done.retain(|((mi, ui, _), _)| !outside(*mi, *ui));
    let mut outside_trials = Vec::new();
    for mi in 0..plan.models.len() {
        for ui in (0..per_model).filter(|&ui| outside(mi, ui)) {
            outside_trials.extend((1..=plan.trials).map(|t| (mi, ui, t)));
        }
    }
    plan.skip.extend(outside_trials);
    plan.skip.extend(done.iter().map(|(k, _)| *k));
    if opts.resume.is_some() {
        eprintln!(
            "resume: {} of {} trials already completed; running the rest",
            done.len(),
            plan.trial_count()
        );
    }
    Ok((plan, done))
}

/// The control arm: the charter arm's units without the charter, in `control-arm/`, skipping
/// what the charter arm skips for its shard and what a resumed control arm completed.
fn control_plan(plan: &RunPlan, done: &[Done], run_dir: &Path, resume: bool) -> Result<RunPlan> {
    let completed: std::collections::HashSet<(usize, usize, u32)> =
        done.iter().map(|(k, _)| *k).collect();
    let mut c = RunPlan {
        manifest: plan.manifest.clone(),
        charter: plan.charter.clone(),
        models: plan.models.clone(),
        units: plan.units.clone(),
        trials: plan.trials,
        run_dir: Arc::from(run_dir.join("control-arm").as_path()),
        fixtures: crate::workspace::FixtureStore::new()?,
        budget: plan.budget.clone(),
        skip: plan.skip.difference(&completed).copied().collect(),
        fail_fast: false,
        control_arm: true,
        spool: plan.spool.clone(),
        names: plan.names.clone(),
    };
    if resume {
        c.skip
            .extend(runner::completed_trials(&c)?.into_iter().map(|(k, _)| k));
    }
    Ok(c)
}

/// One arm on the runtime, its events to the progress reporter; with `story`, each trial's
/// story printed at the end.
fn execute_arm(
    rt: &tokio::runtime::Runtime,
    plan: RunPlan,
    story: Option<crate::report::story::StoryOptions>,
) -> Result<Vec<TrialRecord>> {
    let records = rt.block_on(async move {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Event>(EVENT_BACKLOG);
        let reporter = tokio::spawn(async move {
            let mut progress = Progress::with_story(story);
            while let Some(ev) = rx.recv().await {
                progress.on_event(&ev);
            }
        });
        let result = runner::execute(plan, tx).await;
        let _ = reporter.await;
        result
    })?;
    if let Some(opts) = story {
        crate::report::story::print_all(&records, opts);
    }
    Ok(records)
}

/// Events a run may queue for its reporters before trials wait for them: enough to smooth
/// bursts, bounded so a slow terminal cannot make memory grow with the trial count.
const EVENT_BACKLOG: usize = 1024;

/// What the run is about to spend, printed before the first call.
pub fn plan_summary(
    models: &[(manifest::ModelEntry, Arc<dyn provider::Provider>)],
    units: &[(&crate::case::Case, &crate::case::Variant)],
    trials: u32,
    system: &str,
) -> String {
    let first_turn_chars: usize = units
        .iter()
        .map(|(_, v)| system.len() + v.seed.iter().map(|m| m.content.len()).sum::<usize>())
        .sum();
    let first_turn_tokens = (first_turn_chars / 4) as u64 * trials as u64;
    let mut out = String::from("plan:\n");
    for (m, _) in models {
        let episodes = units.len() * trials as usize;
        // Cents would round a real cost to "$0.00": show what it is.
        let usd = |v: f64| {
            if v < 0.01 {
                format!("${v:.4}")
            } else {
                format!("${v:.2}")
            }
        };
        let cost = m
            .price_input_per_mtok
            .map(|_| {
                let p = crate::budget::Prices::of(m);
                let plain = p.input * first_turn_tokens as f64 / 1e6;
                // With the prompt cache the charter is written once and read by every later
                // request; the rest of each first turn is paid in full.
                let system_tokens = (system.len() / 4) as f64;
                let n = episodes as f64;
                let cached_system = match (m.provider, m.prompt_cache) {
                    (crate::manifest::ProviderKind::Anthropic, true) => {
                        system_tokens * (p.cache_write + p.cache_read * (n - 1.0).max(0.0))
                    }
                    (crate::manifest::ProviderKind::Openai, _) if system_tokens >= 1024.0 => {
                        system_tokens * (p.input + p.cache_read * (n - 1.0).max(0.0))
                    }
                    _ => system_tokens * p.input * n,
                } / 1e6;
                let cached = plain - system_tokens * p.input * n / 1e6 + cached_system;
                format!(
                    ", at least {} input in first turns ({} with the prompt cache)",
                    usd(plain),
                    usd(cached.max(0.0))
                )
            })
            .unwrap_or_default();
        let s = |n: usize| if n == 1 { "" } else { "s" };
        out.push_str(&format!(
            "  {} ({:?} {}): {episodes} episode{}, at least {episodes} request{}, about {first_turn_tokens} input tokens in first turns{cost}\n",
            m.name(),
            m.provider,
            m.model,
            s(episodes),
            s(episodes)
        ));
    }
    out
}

/// Tokens, cost and alias drift per model, for run.json and the end-of-run summary.
fn accounting(
    models: &[manifest::ModelEntry],
    records: &[crate::events::TrialRecord],
) -> serde_json::Value {
    let per_model: Vec<serde_json::Value> = models
        .iter()
        .map(|m| {
            let mine: Vec<_> = records.iter().filter(|r| &*r.model == m.name()).collect();
            let usage = crate::provider::Usage {
                input_tokens: mine.iter().map(|r| r.input_tokens).sum(),
                output_tokens: mine.iter().map(|r| r.output_tokens).sum(),
                cache_read_tokens: mine.iter().map(|r| r.cache_read_tokens).sum(),
                cache_write_tokens: mine.iter().map(|r| r.cache_write_tokens).sum(),
            };
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

/// The run.json of a run folder that may be resumed under `charter`.
fn resumable(
    dir: &Path,
    charter: &Charter,
    loaded: &manifest::LoadedManifest,
) -> Result<serde_json::Value> {
    let path = dir.join("run.json");
    let text = crate::error::read_to_string(&path)?;
    let prev: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run record: {e}", path.display())))?;
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
    Ok(prev)
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
