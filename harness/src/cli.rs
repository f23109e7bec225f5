//! The command line: `run`, `cases`, `check`. Parses arguments, loads and validates
//! everything a command needs, then hands over to the library.

use crate::charter::{self, Charter};
use crate::error::{Error, Result};
use crate::events::Event;
use crate::gate::Gate;
use crate::manifest;
use crate::report::files::RunFacts;
use crate::report::{progress::Progress, table};
use crate::runner::{self, RunPlan};
use crate::suite::{self, Suite};
use crate::{check, exit, provider, store};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

#[derive(Parser)]
#[command(
    name = "harness",
    version,
    about = "Replay a charter's conformance cases against a pinned model matrix and decide its change gate"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every case (or the filtered ones) on every model of a manifest, N trials each, check
    /// each transcript and print the gate. Exit: 0 pass, 1 fail, 2 bad input, 3 inconclusive.
    Run(RunArgs),
    /// List the cases and variants, with their workspace and tools.
    Cases(SuiteArgs),
    /// Recompute the gate of a run folder from its stored transcripts with the current
    /// checkers, and rewrite its reports. Exit as `run`.
    Gate(GateArgs),
    /// Combine the run folders of sharded jobs into one run folder and gate it.
    Merge(MergeArgs),
    /// Show stored transcripts (files or unit folders) as stories, re-checked with the current
    /// checkers: tool calls, final reply, criteria with evidence, workspace diff.
    Show(ShowArgs),
    /// Re-send a stored trial's first model request to the same model (key from the
    /// environment) and write the answer next to it as trial-N.replay-K.json.
    Replay(ReplayArgs),
    /// Check charter documents statically, before any model is called.
    #[command(subcommand)]
    Lint(LintCommand),
    /// Re-check stored transcripts (files or folders) with the current checkers, offline.
    /// Exit: 0 all pass, 1 any fail, 2 unreadable or unknown input, 3 only inconclusive.
    Check(CheckArgs),
}

#[derive(Args)]
struct SuiteArgs {
    /// Folder holding cases/ and fixtures/ (default: found upward from the manifest or the
    /// current folder).
    #[arg(long)]
    suite: Option<PathBuf>,
}

#[derive(Args)]
struct RunArgs {
    /// The model matrix and decoding config, e.g. manifests/offline.toml.
    #[arg(long)]
    matrix: PathBuf,
    /// Only these cases (E8, e8 and E08 are the same); repeatable.
    #[arg(long = "case")]
    cases: Vec<String>,
    /// Only these variants (e.g. A, ii); repeatable.
    #[arg(long = "variant")]
    variants: Vec<String>,
    /// Only these models, by name or role (frontier, weakest, other); repeatable.
    #[arg(long = "model")]
    models: Vec<String>,
    /// Trials per unit instead of the manifest's [run] trials (the gate then requires this many).
    #[arg(long)]
    trials: Option<u32>,
    /// The run folder to write (default: results/<run-id> in the suite). Must not hold a run.
    #[arg(long, conflicts_with = "resume")]
    out: Option<PathBuf>,
    /// Print every trial's story (tool calls, final reply, criteria with evidence); on by
    /// default when the run is narrowed to one case.
    #[arg(long, short)]
    verbose: bool,
    /// Colour the stories: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t)]
    color: crate::report::story::ColorChoice,
    /// Run only shard K of N (units split deterministically, e.g. 1/2 and 2/2 on two CI
    /// jobs); combine the shards' folders with `harness merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Arms to run: `charter` (the gate), and `control` to also run every unit without the
    /// charter and report each case's lift (pass rate with the charter minus without).
    #[arg(long, value_delimiter = ',', default_value = "charter")]
    arms: Vec<String>,
    /// Skip a unit's remaining trials once one fails: the gate is already decided.
    #[arg(long)]
    fail_fast: bool,
    /// Finish a run folder: run only the trials with no completed transcript, under the same
    /// charter; finished transcripts are kept, never repeated.
    #[arg(long, value_name = "RUN_DIR")]
    resume: Option<PathBuf>,
    /// A charter file or git REV:PATH to load instead of the manifest's.
    #[arg(long)]
    charter: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Subcommand)]
enum LintCommand {
    /// A reasoning charter: runtime marker, semver version line, Core Invariants, every listed
    /// E-case has a checker and every checker's case is listed; with --base, the charter's
    /// versioning rules. Exit: 0 clean, 1 findings, 2 unreadable input.
    Charter {
        file: PathBuf,
        /// Compare with the charter at this git revision (same path, read with git2).
        #[arg(long)]
        base: Option<String>,
    },
    /// Charter capsules: every Markdown file (folders are searched) with frontmatter
    /// `type: charter`, by the capsule's validation checks 1–8 and forbidden patterns; with
    /// --base, its lock semantics. Findings are WARN (exit 0) unless --strict (exit 1).
    Capsule {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The v2.0.0 ERROR ratchet: findings are errors and exit 1.
        #[arg(long)]
        strict: bool,
        /// Compare each file with itself at this git revision for the lock rules.
        #[arg(long)]
        base: Option<String>,
    },
}

#[derive(Args)]
struct GateArgs {
    run_dir: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct MergeArgs {
    /// Run folders of the shards.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The merged run folder to write (must not exist or be empty).
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct ReplayArgs {
    /// The transcript to replay.
    path: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct ShowArgs {
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Show the seeded turns (folded by default).
    #[arg(long)]
    seeded: bool,
    /// Print only the verdicts, one JSON object per line.
    #[arg(long)]
    json: bool,
    /// Colour: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t)]
    color: crate::report::story::ColorChoice,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct CheckArgs {
    /// Transcript files, or folders searched for them (a run folder, a unit folder).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON verdict per line (contract §4).
    #[arg(long)]
    json: bool,
    /// Compare against this charter's Core Invariants instead of each transcript's system prompt.
    #[arg(long)]
    charter: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
}

/// Run the command line; the number is the process exit code.
pub fn run() -> Result<u8> {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return Ok(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    match cli.command {
        Command::Run(args) => run_cmd(args),
        Command::Cases(args) => cases_cmd(args),
        Command::Check(args) => check_cmd(args),
        Command::Lint(cmd) => lint_cmd(cmd),
        Command::Show(args) => show_cmd(args),
        Command::Gate(args) => gate_cmd(&args.run_dir, args.suite.suite.as_deref()),
        Command::Merge(args) => merge_cmd(args),
        Command::Replay(args) => replay_cmd(args),
    }
}

fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

fn run_cmd(args: RunArgs) -> Result<u8> {
    let loaded = manifest::load(&args.matrix)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let suite_root = suite::locate(args.suite.suite.as_deref(), loaded.dir())?;
    let suite = Suite::load(&suite_root)?;
    let charter = match &args.charter {
        Some(src) => charter::load(src, &cwd())?,
        None => charter::load(&loaded.manifest.charter.source, loaded.dir())?,
    };
    let models = loaded.select_models(&args.models)?;
    manifest::check_api_keys(&loaded.path, &models)?;
    let units = suite::select(&suite, &args.cases, &args.variants)?;
    let mut providers = Vec::new();
    for m in &models {
        let p = provider::build(m, &suite_root)?;
        if let Some((c, v)) = units.iter().find(|(c, v)| !p.covers(&c.id, &v.id)) {
            return Err(Error::input(format!("model {}: cannot answer {}/{} (for a scripted model: no fixtures/scripted/{}/{}-{}.toml)", m.name(), c.id, v.id, m.script.as_deref().unwrap_or(""), c.id, v.id)));
        }
        providers.push((m.clone(), p));
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if let Some(bad) = args
        .arms
        .iter()
        .find(|a| !["charter", "control"].contains(&a.as_str()))
    {
        return Err(Error::input(format!(
            "--arms: unknown arm {bad:?} (arms: charter, control)"
        )));
    }
    if !args.arms.iter().any(|a| a == "charter") {
        return Err(Error::input(
            "--arms must include charter: the gate is decided on the charter arm",
        ));
    }
    let with_control = args.arms.iter().any(|a| a == "control");
    let started = SystemTime::now();
    let previous = match &args.resume {
        Some(dir) => Some(resumable(dir, &charter)?),
        None => None,
    };
    let trials = args
        .trials
        .or(previous
            .as_ref()
            .and_then(|p| p["trials"].as_u64())
            .map(|t| t as u32))
        .unwrap_or(loaded.manifest.run.trials);
    if trials == 0 {
        return Err(Error::input("--trials must be at least 1"));
    }
    eprint!(
        "{}",
        plan_summary(&providers, &units, trials, &charter.runtime)
    );
    let run_dir = match (&args.resume, &args.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(out)) => out.clone(),
        (None, None) => suite_root.join("results").join(store::run_id(started)),
    };
    if args.resume.is_none()
        && run_dir.exists()
        && std::fs::read_dir(&run_dir)
            .map_err(|e| Error::io(&run_dir, e))?
            .next()
            .is_some()
    {
        return Err(Error::input(format!("{}: already holds files; choose another --out, or --resume it (nothing was overwritten)", run_dir.display())));
    }
    let units: Vec<(Arc<crate::case::Case>, String)> = units
        .iter()
        .map(|(c, v)| (Arc::new((*c).clone()), v.id.clone()))
        .collect();
    let charter = Arc::new(charter);
    let mut run_json = serde_json::json!({
        "harness_version": env!("CARGO_PKG_VERSION"),
        "manifest_path": loaded.path.display().to_string(),
        "manifest": loaded.manifest,
        "charter": &*charter,
        "suite": suite_root.display().to_string(),
        "case_files": suite.cases.iter().map(|c| (c.id.clone(), c.sha256.clone())).collect::<std::collections::BTreeMap<_, _>>(),
        "filters": {"case": args.cases, "variant": args.variants, "model": args.models},
        "trials": trials,
        "shard": args.shard,
        "started": store::rfc3339(started),
        "ended": null,
    });
    if let Some(prev) = &previous {
        run_json["started"] = prev["started"].clone();
        let mut resumed = prev["resumed"].as_array().cloned().unwrap_or_default();
        resumed.push(serde_json::json!(store::rfc3339(started)));
        run_json["resumed"] = serde_json::json!(resumed);
    }
    store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;
    let plan_models: Vec<manifest::ModelEntry> = providers.iter().map(|(m, _)| m.clone()).collect();
    let plan = RunPlan {
        manifest: loaded.manifest.clone(),
        charter: charter.clone(),
        models: providers,
        units,
        trials,
        run_dir: run_dir.clone(),
        fixtures: crate::workspace::FixtureStore::new()?,
        budget: loaded
            .manifest
            .run
            .budget_usd
            .map(|b| Arc::new(crate::budget::Budget::new(b))),
        skip: Default::default(),
        fail_fast: args.fail_fast,
        control_arm: false,
    };
    let mut plan = plan;
    let done = if args.resume.is_some() {
        runner::completed_trials(&plan)?
    } else {
        Vec::new()
    };
    let mut done = done;
    if let Some((k, n)) = shard {
        // Units (model, case, variant) are dealt round-robin in plan order: deterministic.
        let per_model = plan.units.len();
        let outside = |mi: usize, ui: usize| (mi * per_model + ui) % n != k - 1;
        done.retain(|((mi, ui, _), _)| !outside(*mi, *ui));
        for mi in 0..plan.models.len() {
            for ui in (0..per_model).filter(|&ui| outside(mi, ui)) {
                plan.skip.extend((1..=plan.trials).map(|t| (mi, ui, t)));
            }
        }
    }
    plan.skip.extend(done.iter().map(|(k, _)| *k));
    if args.resume.is_some() {
        eprintln!(
            "resume: {} of {} trials already completed; running the rest",
            done.len(),
            plan.trial_count()
        );
    }

    let story =
        (args.verbose || args.cases.len() == 1).then(|| crate::report::story::StoryOptions {
            color: args.color.resolve(),
            ..Default::default()
        });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let control = if with_control {
        let mut c = RunPlan {
            manifest: plan.manifest.clone(),
            charter: plan.charter.clone(),
            models: plan.models.clone(),
            units: plan.units.clone(),
            trials: plan.trials,
            run_dir: run_dir.join("control-arm"),
            fixtures: crate::workspace::FixtureStore::new()?,
            budget: plan.budget.clone(),
            skip: plan
                .skip
                .iter()
                .filter(|k| !done.iter().any(|(d, _)| d == *k))
                .copied()
                .collect(),
            fail_fast: false,
            control_arm: true,
        };
        if args.resume.is_some() {
            c.skip
                .extend(runner::completed_trials(&c)?.into_iter().map(|(k, _)| k));
        }
        Some(c)
    } else {
        None
    };
    let run_plan = |plan: RunPlan| {
        rt.block_on(async move {
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
            let reporter = tokio::spawn(async move {
                let mut progress = Progress::with_story(story);
                while let Some(ev) = rx.recv().await {
                    progress.on_event(&ev);
                }
            });
            let result = runner::execute(plan, tx).await;
            let _ = reporter.await;
            result
        })
    };
    let records = run_plan(plan)?;
    let control_records = match control {
        Some(c) => {
            eprintln!("control arm: the same units without the charter");
            let c_dir = c.run_dir.clone();
            run_plan(c)?;
            // All of the control arm's trials, earlier ones of a resumed run included.
            Some(runner::stored_records(&c_dir, &suite)?)
        }
        None => None,
    };
    let accounting = accounting(&plan_models, &records);
    run_json["ended"] = serde_json::json!(store::rfc3339(SystemTime::now()));
    run_json["usage"] = accounting.clone();
    store::write_json_atomic(&run_dir.join("run.json"), &run_json)?;

    let mut records = records;
    records.extend(done.into_iter().map(|(_, r)| r));
    let names: Vec<String> = plan_models.iter().map(|m| m.name().to_string()).collect();
    crate::gate::sort_records(&mut records, &names);
    let gate = Gate::from_records(&records, trials);
    let facts = RunFacts {
        charter_source: &charter.source,
        charter_sha256: &charter.sha256,
        charter_version: charter.version.as_deref(),
        system_prompt: &charter.runtime,
        suite: &suite,
        usage: accounting,
        lift: control_records
            .as_ref()
            .map(|c| crate::report::lift::lift(&records, c)),
    };
    finish(&run_dir, &gate, &records, &facts)
}

/// Print the gate and write the run folder's reports; the gate's exit code.
fn finish(
    run_dir: &Path,
    gate: &Gate,
    records: &[crate::events::TrialRecord],
    facts: &RunFacts,
) -> Result<u8> {
    crate::report::files::write_all(run_dir, gate, records, facts)?;
    println!("\n{}", table::render(gate));
    print!("{}", usage_lines(&facts.usage));
    if gate.count(crate::gate::UnitStatus::Fail) > 0 {
        println!(
            "\nProposed Failure-Mode Registry rows ({}):",
            run_dir.join("registry-rows.md").display()
        );
        print!(
            "{}",
            crate::report::registry::table(gate, |c| facts
                .suite
                .case(c)
                .map_or(c.to_string(), |k| k.title.clone()))
        );
    }
    if let Some(l) = &facts.lift {
        print!(
            "\nControl arm: lift per case (pass rate with the charter minus without)\n{}",
            crate::report::lift::table(l)
        );
    }
    println!(
        "\nreports: {}/{{report.md,report.html,junit.xml,summary.json,registry-rows.md}}",
        run_dir.display()
    );
    Ok(gate.exit_code())
}

fn cases_cmd(args: SuiteArgs) -> Result<u8> {
    let root = suite::locate(args.suite.as_deref(), &cwd())?;
    let suite = Suite::load(&root)?;
    for c in &suite.cases {
        println!(
            "{:<4} {}  (checker {})",
            c.id,
            c.title,
            checkers::checker_for(&c.id)
                .map(|k| k.version)
                .unwrap_or("?")
        );
        for v in &c.variants {
            let ws = v
                .fixture
                .as_deref()
                .and_then(Path::file_name)
                .map_or("none".to_string(), |n| n.to_string_lossy().into_owned());
            let tools = if v.tools.is_empty() {
                "none".to_string()
            } else {
                v.tools.join(" ")
            };
            println!(
                "     {:<8} workspace: {ws:<16} seeded turns: {:<3} tools: {tools}",
                v.id,
                v.seed.len() + 1
            );
        }
        println!("     passes when: {}", c.passes_when);
    }
    Ok(exit::OK)
}

fn check_cmd(args: CheckArgs) -> Result<u8> {
    let root = suite::locate(args.suite.suite.as_deref(), &cwd())?;
    let suite = Suite::load(&root)?;
    let charter: Option<Charter> = args
        .charter
        .as_deref()
        .map(|s| charter::load(s, &cwd()))
        .transpose()?;
    let verdicts = check::check_paths(
        &args.paths,
        &suite,
        charter.as_ref().map(|c| c.core_invariants.as_str()),
    )?;
    if args.json {
        for c in &verdicts {
            let mut v =
                serde_json::to_value(&c.verdict).map_err(|e| Error::Internal(e.to_string()))?;
            if let Some(change) = c.change() {
                v["changed"] = serde_json::json!(change);
            }
            println!("{v}");
        }
    } else {
        print!("{}", check::render(&verdicts));
    }
    Ok(check::exit_code(&verdicts))
}

/// What the run is about to spend, printed before the first call.
fn plan_summary(
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
        let cost = m
            .price_input_per_mtok
            .map(|p| {
                format!(
                    ", at least ${:.2} input",
                    p * first_turn_tokens as f64 / 1e6
                )
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "  {} ({:?} {}): {episodes} episodes, at least {episodes} requests, about {first_turn_tokens} input tokens in first turns{cost}\n",
            m.name(),
            m.provider,
            m.model
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
            let mine: Vec<_> = records.iter().filter(|r| r.model == m.name()).collect();
            let input: u64 = mine.iter().map(|r| r.input_tokens).sum();
            let output: u64 = mine.iter().map(|r| r.output_tokens).sum();
            let cost = match (m.price_input_per_mtok, m.price_output_per_mtok) {
                (None, None) => None,
                (i, o) => Some(i.unwrap_or(0.0) * input as f64 / 1e6 + o.unwrap_or(0.0) * output as f64 / 1e6),
            };
            let mut drift: Vec<String> = mine.iter().flat_map(|r| r.alias_drift.iter().cloned()).collect();
            drift.sort();
            drift.dedup();
            serde_json::json!({"model": m.name(), "pinned": m.model, "input_tokens": input, "output_tokens": output, "cost_usd": cost, "alias_drift": drift})
        })
        .collect();
    serde_json::json!(per_model)
}

fn usage_lines(accounting: &serde_json::Value) -> String {
    let mut out = String::new();
    for m in accounting.as_array().into_iter().flatten() {
        let cost = m["cost_usd"]
            .as_f64()
            .map(|c| format!(", ${c:.4}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "usage {}: {} input + {} output tokens{cost}\n",
            m["model"].as_str().unwrap_or(""),
            m["input_tokens"],
            m["output_tokens"]
        ));
        if let Some(d) = m["alias_drift"].as_array().filter(|d| !d.is_empty()) {
            out.push_str(&format!(
                "warning: {} is pinned to {} but the API reported {}: the pinned id resolved to another model (alias drift)\n",
                m["model"].as_str().unwrap_or(""),
                m["pinned"],
                d.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    out
}

/// The run.json of a run folder that may be resumed under `charter`.
fn resumable(dir: &Path, charter: &Charter) -> Result<serde_json::Value> {
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
    // A run killed mid-write leaves only temp files (writes are rename-atomic); clear them.
    for f in crate::store::leftover_temp_files(dir) {
        let _ = std::fs::remove_file(f);
    }
    Ok(prev)
}

fn lint_cmd(cmd: LintCommand) -> Result<u8> {
    use crate::lint::{self, Severity};
    let findings = match &cmd {
        LintCommand::Charter { file, base } => {
            let text = crate::error::read_to_string(file)?;
            let base_text = match base {
                Some(rev) => Some(lint::text_at_rev(file, rev)?.ok_or_else(|| {
                    Error::input(format!("{}: not in revision {rev}", file.display()))
                })?),
                None => None,
            };
            lint::charter::lint(
                &file.display().to_string(),
                &text,
                base.as_deref().zip(base_text.as_deref()),
            )
        }
        LintCommand::Capsule {
            paths,
            strict,
            base,
        } => {
            let mut out = Vec::new();
            for file in markdown_files(paths)? {
                let text = crate::error::read_to_string(&file)?;
                let base_text = match base {
                    Some(rev) => Some((rev.as_str(), lint::text_at_rev(&file, rev)?)),
                    None => None,
                };
                out.extend(lint::capsule::lint(
                    &file.display().to_string(),
                    &text,
                    *strict,
                    base_text.as_ref().map(|(r, t)| (*r, t.as_deref())),
                ));
            }
            out
        }
    };
    for f in &findings {
        println!("{f}");
    }
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    eprintln!("{} finding(s), {errors} error(s)", findings.len());
    Ok(if errors > 0 {
        exit::GATE_FAILED
    } else {
        exit::OK
    })
}

/// Markdown files at or under `paths`, sorted.
fn markdown_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
            continue;
        }
        if !p.is_dir() {
            return Err(Error::input(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
        let mut stack = vec![p.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d)
                .map_err(|e| Error::io(&d, e))?
                .flatten()
            {
                let path = e.path();
                if path.is_dir() && e.file_name() != ".git" {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "md") {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

fn show_cmd(args: ShowArgs) -> Result<u8> {
    let root = suite::locate(args.suite.suite.as_deref(), &cwd())?;
    let suite = Suite::load(&root)?;
    let checked = check::check_paths(&args.paths, &suite, None)?;
    let opts = crate::report::story::StoryOptions {
        color: !args.json && args.color.resolve(),
        seeded: args.seeded,
        diff: true,
    };
    let mut out = String::new();
    for c in &checked {
        if args.json {
            out.push_str(
                &serde_json::to_string(&c.verdict).map_err(|e| Error::Internal(e.to_string()))?,
            );
            out.push('\n');
        } else {
            out.push_str(&format!("{}\n", c.verdict.file.as_deref().unwrap_or("")));
            out.push_str(&crate::report::story::render(
                &c.transcript,
                &c.verdict,
                opts,
            ));
            out.push('\n');
        }
    }
    print!("{out}");
    Ok(check::exit_code(&checked))
}

fn replay_cmd(args: ReplayArgs) -> Result<u8> {
    let root = suite::locate(args.suite.suite.as_deref(), &cwd())?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let (path, t) = rt.block_on(crate::replay::replay(&args.path, &root))?;
    println!("wrote {}", path.display());
    match &t.error {
        Some(e) => {
            println!("inconclusive: {e}");
            Ok(exit::INCONCLUSIVE)
        }
        None => {
            let reply = t
                .messages
                .last()
                .filter(|m| m.role == checkers::Role::Assistant);
            if let Some(m) = reply {
                for c in &m.tool_calls {
                    println!("tool call: {}({})", c.name, c.arguments);
                }
                println!("{}", m.content);
            }
            Ok(exit::OK)
        }
    }
}

fn read_run_json(run_dir: &Path) -> Result<serde_json::Value> {
    let path = run_dir.join("run.json");
    let text = crate::error::read_to_string(&path)?;
    serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run record: {e}", path.display())))
}

fn gate_cmd(run_dir: &Path, suite_dir: Option<&Path>) -> Result<u8> {
    let root = suite::locate(suite_dir, &cwd())?;
    let suite = Suite::load(&root)?;
    let run = read_run_json(run_dir)?;
    let mut records = runner::stored_records(run_dir, &suite)?;
    if records.is_empty() {
        return Err(Error::input(format!(
            "{}: no trial transcripts",
            run_dir.display()
        )));
    }
    let models: Vec<String> = run["manifest"]["models"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["name"].as_str().map(str::to_string))
        .collect();
    crate::gate::sort_records(&mut records, &models);
    let trials = run["trials"].as_u64().unwrap_or(3) as u32;
    let gate = Gate::from_records(&records, trials);
    let system_prompt = records[0]
        .transcript
        .system_prompt()
        .unwrap_or_default()
        .to_string();
    let facts = RunFacts {
        charter_source: run["charter"]["source"].as_str().unwrap_or("?"),
        charter_sha256: run["charter"]["sha256"].as_str().unwrap_or("?"),
        charter_version: run["charter"]["version"].as_str(),
        system_prompt: &system_prompt,
        suite: &suite,
        usage: run["usage"].clone(),
        lift: None,
    };
    finish(run_dir, &gate, &records, &facts)
}

fn merge_cmd(args: MergeArgs) -> Result<u8> {
    if args.out.exists()
        && std::fs::read_dir(&args.out)
            .map_err(|e| Error::io(&args.out, e))?
            .next()
            .is_some()
    {
        return Err(Error::input(format!(
            "{}: already holds files; merge into a new folder",
            args.out.display()
        )));
    }
    let runs: Vec<serde_json::Value> = args
        .dirs
        .iter()
        .map(|d| read_run_json(d))
        .collect::<Result<_>>()?;
    let first = &runs[0];
    for (dir, run) in args.dirs.iter().zip(&runs).skip(1) {
        for key in [("charter", "sha256"), ("trials", "")] {
            let get = |r: &serde_json::Value| {
                if key.1.is_empty() {
                    r[key.0].clone()
                } else {
                    r[key.0][key.1].clone()
                }
            };
            if get(run) != get(first) {
                return Err(Error::input(format!(
                    "{}: {} differs from {}'s; only shards of one run merge",
                    dir.display(),
                    key.0,
                    args.dirs[0].display()
                )));
            }
        }
    }
    for dir in &args.dirs {
        let base = dir.join("transcripts");
        for f in store::transcript_files(&[base.clone()])? {
            let rel = f.strip_prefix(&base).unwrap_or(&f);
            let to = args.out.join("transcripts").join(rel);
            if to.exists() {
                return Err(Error::input(format!(
                    "{}: {} is in two shards",
                    dir.display(),
                    rel.display()
                )));
            }
            std::fs::create_dir_all(to.parent().unwrap()).map_err(|e| Error::io(&to, e))?;
            std::fs::copy(&f, &to).map_err(|e| Error::io(&f, e))?;
        }
    }
    let mut merged = first.clone();
    merged["merged_from"] = serde_json::json!(args
        .dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>());
    merged["shard"] = serde_json::Value::Null;
    store::write_json_atomic(&args.out.join("run.json"), &merged)?;
    gate_cmd(&args.out, args.suite.suite.as_deref())
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
