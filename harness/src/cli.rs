//! The command line, all 14 commands (`run`, `cases`, `gate`, `merge`, `show`, `replay`, `lint`,
//! `check`, `label`, `calibrate`, `init`, `compare`, `runs`, `key`): each parses its arguments,
//! loads and validates everything it needs, then hands over to the library.

use crate::charter;
use crate::error::{Error, Result};
use crate::gate::Gate;
use crate::report::files::RunFacts;
use crate::report::table;
use crate::runner;
use crate::suite::{self, Suite};
use crate::{check, exit, store};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

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
    /// each transcript and print the gate. Exit: 0 pass, 1 fail, 2 bad input, 3 inconclusive,
    /// 130 interrupted (Ctrl-C; it prints the --resume command that finishes the run).
    Run(RunArgs),
    /// List the cases and variants, with their workspace and tools.
    Cases(SuiteArgs),
    /// Recompute the gate of a run folder (default: results/latest) from its stored transcripts
    /// with the current checkers, and rewrite its reports. Exit as `run`.
    Gate(GateArgs),
    /// Combine the run folders of sharded jobs into one run folder and gate it.
    Merge(MergeArgs),
    /// Show stored transcripts (files or unit folders; default results/latest) as stories, re-checked with the current
    /// checkers: tool calls, final reply, criteria with evidence, workspace diff.
    Show(ShowArgs),
    /// Re-send a stored trial's first model request to the same model (key from the
    /// environment) and write the answer next to it as trial-N.replay-K.json.
    Replay(ReplayArgs),
    /// Check charter documents statically, before any model is called.
    #[command(subcommand)]
    Lint(LintCommand),
    /// Re-check stored transcripts (files or folders; default results/latest) with the current
    /// checkers, offline: the verdicts that changed, then one line of counts. Exit: 0 all pass,
    /// 1 any fail, 2 unreadable or unknown input, 3 only inconclusive.
    Check(CheckArgs),
    /// Record a person's verdict for stored transcripts in a labels.jsonl beside each one (or
    /// in --labels FILE), for `harness calibrate`.
    Label(LabelArgs),
    /// Re-check every labelled transcript (labels.jsonl) and golden file under the folders with
    /// the current checkers; print agreement, false passes and false fails per case and checker
    /// version, and every disagreement. Exit: 0 full agreement, 1 any disagreement, 2 bad input.
    Calibrate(CalibrateArgs),
    /// Set a charter repository up for the gate: manifests/pinned.toml, the GitHub workflow
    /// (using this release's action) and .gitignore lines for results/ and .env.
    Init(InitArgs),
    /// Compare two runs unit by unit (two charters, two models, two dates): status, passes with
    /// the 95% interval and failed criteria side by side; a unit whose status differs is a
    /// regression or improvement only when Fisher's exact test says so (p < 0.05), else within
    /// noise; regressions first, cases in natural order, and what else differs. A side may be
    /// DIR:MODEL to compare two models of one run. Models pair by name, else by role (and the
    /// output says so). Exit 1 when B significantly regresses a unit, 2 when nothing pairs.
    Compare(CompareArgs),
    /// List the runs of a results folder (default: results): date, charter version, verdict,
    /// models, charter path; newest first.
    Runs(RunsArgs),
    /// Print the key of a gate's inputs (charter runtime text, manifest, case suite, harness
    /// version): equal keys mean a stored gate can be reused instead of calling models again.
    Key(KeyArgs),
}

#[derive(Args)]
struct InitArgs {
    /// The charter repository's root (default: the current folder).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Overwrite files that exist.
    #[arg(long)]
    force: bool,
    /// The action every job installs the harness with, OWNER/REPO@REF: REF a release tag or a
    /// full commit SHA (default: this release of charter-harness/charter-harness).
    #[arg(long, value_name = "OWNER/REPO@REF")]
    action: Option<String>,
    /// The branch whose pushes store the gate (default: the repository's default branch, read
    /// from origin/HEAD, else the branch checked out, else main).
    #[arg(long)]
    branch: Option<String>,
}

#[derive(Args)]
struct CompareArgs {
    /// The first run folder (or DIR:MODEL).
    a: String,
    /// The second run folder (or DIR:MODEL); changes read from A to B.
    b: String,
    /// Print JSON instead of Markdown.
    #[arg(long)]
    json: bool,
    /// Also write the comparison as a self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct RunsArgs {
    #[arg(default_value = "results")]
    dir: PathBuf,
}

#[derive(Args)]
struct KeyArgs {
    /// The manifest, as for `run`.
    #[arg(long)]
    matrix: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct LabelArgs {
    /// Transcript files to label.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// A careful reader of the charter passes the transcript.
    #[arg(long, conflicts_with = "fail", required_unless_present = "fail")]
    pass: bool,
    /// A careful reader of the charter fails the transcript.
    #[arg(long)]
    fail: bool,
    /// Why: kept with the label and shown with any disagreement.
    #[arg(long)]
    note: Option<String>,
    /// The labels file to append to (default: labels.jsonl beside each transcript).
    #[arg(long)]
    labels: Option<PathBuf>,
}

#[derive(Args)]
struct CalibrateArgs {
    /// Folders holding labels.jsonl files or golden files (e.g. checkers/tests/golden).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Print one JSON object per labelled transcript, then a summary object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct SuiteArgs {
    /// A custom case suite: a folder holding cases/ and fixtures/ (default:
    /// $CHARTER_HARNESS_SUITE, else the suite built into this binary).
    #[arg(long)]
    suite: Option<PathBuf>,
}

#[derive(Args)]
struct RunArgs {
    /// The model matrix and decoding config: a file (e.g. manifests/pinned.toml), or the name
    /// of a manifest built into the binary (`offline`: two scripted models, no network). With
    /// --resume it defaults to the manifest the run recorded (and must match it).
    #[arg(long, required_unless_present = "resume")]
    matrix: Option<PathBuf>,
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
    /// The run folder to write (default: results/<run-id> in the current directory). Must not hold a run.
    #[arg(long, conflicts_with = "resume")]
    out: Option<PathBuf>,
    /// Print every trial's story (tool calls, final reply, criteria with evidence); on by
    /// default when the run is narrowed to one case. Stories print in trial order at the end,
    /// identical trials folded.
    #[arg(long, short)]
    verbose: bool,
    /// In stories, unfold the seeded turns (the system prompt, the scripted history, the prompt).
    #[arg(long)]
    seeded: bool,
    /// Colour the stories: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t)]
    color: crate::report::story::ColorChoice,
    /// Run only shard K of N (units split deterministically, e.g. 1/2 and 2/2 on two CI
    /// jobs); combine the shards' folders with `harness merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Arms to run: `charter` (the gate, the default), and `control` to also run every unit
    /// without the charter and report each case's lift (pass rate with the charter minus without).
    #[arg(long, value_delimiter = ',')]
    arms: Vec<String>,
    /// Skip a unit's remaining trials once one fails: the gate is already decided.
    #[arg(long)]
    fail_fast: bool,
    /// Run test scripts and probes a model could have written without the sandbox (for a
    /// kernel that lacks Landlock or namespaces). They then run with the harness's privileges,
    /// network and files; the output, run.json and every report say so.
    #[arg(long)]
    no_sandbox: bool,
    /// Finish a run folder: the selection it recorded (cases, variants, models, trials, shard,
    /// arms) and nothing more, only the trials with no completed transcript, under the same
    /// charter; finished transcripts are kept, never repeated. Selection flags, if given, must
    /// say the same.
    #[arg(long, value_name = "RUN_DIR")]
    resume: Option<PathBuf>,
    /// With --resume: widen the run to every unit of the manifest (and its trials, or
    /// --trials); the plan says what this adds.
    #[arg(long, requires = "resume", conflicts_with_all = ["cases", "variants", "models", "shard"])]
    all: bool,
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
    /// versioning rules. Warns of text above the title (web page chrome copied with the
    /// charter) and shows the first lines of the system prompt a run would send. Exit: 0 clean
    /// or warnings only, 1 findings, 2 unreadable input.
    Charter {
        file: PathBuf,
        /// Compare with the charter at this git revision (same path, read with git2).
        #[arg(long)]
        base: Option<String>,
    },
    /// Charter capsules: every Markdown file (folders are searched) with frontmatter
    /// `type: charter`, by the capsule definition's §7 validation checks 1–8, §4 Identity
    /// content and §8 forbidden patterns; with --base, its §6 lock semantics. Each finding
    /// cites its section and check. Findings are WARN (exit 0) unless --strict (exit 1).
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
    /// The run folder (results/latest: the newest run in this folder).
    #[arg(default_value = LATEST)]
    run_dir: PathBuf,
    /// Also rerun the failing units on the charter at this git revision, each needed trial
    /// once (planned and priced before the first call; transcripts stored for the same inputs
    /// are reused), and report regressions and improvements per unit. The revision is checked
    /// before anything is written.
    #[arg(long, value_name = "REV")]
    charter_base: Option<String>,
    /// A run folder made on the base charter to reuse (its charter sha256 must match).
    #[arg(long, requires = "charter_base")]
    base_results: Option<PathBuf>,
    /// The manifest for the base run (default: the one the run recorded).
    #[arg(long, requires = "charter_base")]
    matrix: Option<PathBuf>,
    /// For units whose difference from the base is within noise: more trials on both charters,
    /// one round (the gate's trials per unit) at a time, until the label settles or each arm has
    /// N trials. The worst case is planned and priced before the first call; the gate's decision
    /// never changes (the trials go to settle/ in the run folder).
    #[arg(long, value_name = "N", requires = "charter_base")]
    settle: Option<u32>,
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
    /// Write nothing to $GITHUB_STEP_SUMMARY (a later `gate --charter-base` writes it).
    #[arg(long)]
    quiet_summary: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct ReplayArgs {
    /// The transcript to replay.
    path: PathBuf,
    /// The manifest whose model entry (URL, key variable) the replay uses, matched by the
    /// transcript's model name; a transcript that recorded another URL is refused.
    #[arg(long)]
    matrix: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

#[derive(Args)]
struct ShowArgs {
    /// Transcript files, or folders searched for them.
    #[arg(default_value = LATEST)]
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
    #[arg(default_value = LATEST)]
    paths: Vec<PathBuf>,
    /// Print one JSON verdict per line (contract §4).
    #[arg(long)]
    json: bool,
    /// Print every verdict with its failed criteria, not only the ones that changed.
    #[arg(long, short)]
    verbose: bool,
    /// Compare against this charter's Core Invariants instead of each transcript's system prompt.
    #[arg(long)]
    charter: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
}

/// The newest run of `harness run` in the current folder: what `show`, `check` and `gate` read
/// when no path is given.
const LATEST: &str = "results/latest";

/// `paths`, or an error saying what to give when the default `results/latest` is not there.
fn existing_or_latest_hint(paths: &[PathBuf]) -> Result<()> {
    if paths.len() == 1 && paths[0] == Path::new(LATEST) && !paths[0].exists() {
        return Err(Error::input(format!(
            "{LATEST}: no run here (it points at the newest run `harness run` wrote in this folder) — give a run folder or transcript files, e.g. `harness runs` lists them"
        )));
    }
    Ok(())
}

/// Run the command line; the number is the process exit code.
pub fn run() -> Result<u8> {
    // The sandbox helper is this binary started again; it never returns.
    crate::sandbox::maybe_helper();
    // Keys may sit in .env (this folder's or the nearest parent's); the environment wins.
    crate::manifest::load_dotenv();
    // Commands without a manifest (`check`, `runs`, `calibrate`) still mask the keys the
    // environment holds under the usual names; a manifest's own key names add to these.
    crate::secrets::register_from_env();
    // A closed stdout (`harness check --json | head -1`) ends the program quietly, as it does
    // every Unix tool, instead of a panic on the broken pipe.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
        Command::Cases(args) => {
            let suite = Suite::load(&suite::locate(args.suite.as_deref())?)?;
            for c in &suite.cases {
                out!("{}", c.listing());
            }
            Ok(exit::OK)
        }
        Command::Check(args) => {
            existing_or_latest_hint(&args.paths)?;
            check::run(&check::CheckOptions {
                paths: args.paths,
                json: args.json,
                verbose: args.verbose,
                charter: args.charter,
                suite: args.suite.suite,
            })
        }
        Command::Label(args) => {
            let n = crate::calibrate::label(
                &args.paths,
                args.pass,
                args.note.as_deref(),
                args.labels.as_deref(),
            )?;
            outln!("labelled {n} transcript{}", if n == 1 { "" } else { "s" });
            Ok(exit::OK)
        }
        Command::Calibrate(args) => crate::calibrate::run(&crate::calibrate::CalibrateOptions {
            dirs: args.dirs,
            json: args.json,
            suite: args.suite.suite,
        }),
        Command::Init(args) => {
            crate::init::run(&args.dir, args.action.as_deref(), args.branch, args.force)?;
            Ok(exit::OK)
        }
        Command::Compare(args) => crate::compare::run(&crate::compare::CompareOptions {
            a: args.a,
            b: args.b,
            json: args.json,
            html: args.html,
            suite: args.suite.suite,
        }),
        Command::Runs(args) => {
            // run.json files are as untrusted as the transcripts beside them.
            out!("{}", crate::runs::list(&args.dir)?);
            Ok(exit::OK)
        }
        Command::Key(args) => {
            outln!(
                "{}",
                crate::init::inputs_key(&args.matrix, args.suite.suite.as_deref())?
            );
            Ok(exit::OK)
        }
        Command::Lint(cmd) => crate::lint::run(&match cmd {
            LintCommand::Charter { file, base } => crate::lint::LintOptions::Charter { file, base },
            LintCommand::Capsule {
                paths,
                strict,
                base,
            } => crate::lint::LintOptions::Capsule {
                paths,
                strict,
                base,
            },
        }),
        Command::Show(args) => {
            existing_or_latest_hint(&args.paths)?;
            crate::show::run(&crate::show::ShowOptions {
                color: !args.json && args.color.resolve(),
                paths: args.paths,
                seeded: args.seeded,
                json: args.json,
                suite: args.suite.suite,
            })
        }
        Command::Gate(args) => gate_cmd(
            &args.run_dir,
            args.suite.suite.as_deref(),
            Some(&args),
            true,
        ),
        Command::Merge(args) => merge_cmd(args),
        Command::Replay(args) => {
            crate::replay::run(&args.path, &args.matrix, args.suite.suite.as_deref())
        }
    }
}

fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

fn run_cmd(args: RunArgs) -> Result<u8> {
    let story = (args.verbose || args.seeded || args.cases.len() == 1).then(|| {
        crate::report::story::StoryOptions {
            color: args.color.resolve(),
            seeded: args.seeded,
            ..Default::default()
        }
    });
    let matrix = match (args.matrix, &args.resume) {
        (Some(m), _) => m,
        (None, Some(dir)) => recorded_manifest(dir)?,
        (None, None) => unreachable!("clap requires --matrix without --resume"),
    };
    // In a charter repository the built-in offline matrix tests the repository's charter.
    let mut charter_arg = args.charter;
    if charter_arg.is_none() && crate::banner::is_builtin_offline(&matrix) {
        if let Some((file, note)) = crate::banner::repo_charter(&cwd()) {
            errln!("{note}");
            charter_arg = Some(file.display().to_string());
        }
    }
    let opts = crate::session::RunOptions {
        matrix,
        cases: args.cases,
        variants: args.variants,
        models: args.models,
        trials: args.trials,
        out: args.out,
        resume: args.resume,
        charter: charter_arg,
        charter_dir: None,
        suite: args.suite.suite,
        shard: args.shard,
        arms: args.arms,
        fail_fast: args.fail_fast,
        story,
        only_units: None,
        no_sandbox: args.no_sandbox,
        all: args.all,
    };
    let done = crate::session::run(&opts)?;
    let facts = RunFacts {
        charter_source: &done.charter.source,
        charter_sha256: &done.charter.sha256,
        charter_version: done.charter.version.as_deref(),
        system_prompt: &done.charter.runtime,
        suite: &done.suite,
        usage: done.usage.clone(),
        lift: done.lift.clone(),
        sandbox_off: done.sandbox_off,
        step_summary: true,
    };
    let code = finish(&done.run_dir, &done.gate, &done.records, &facts)?;
    // What was sent against the plan printed before the first call.
    for line in &done.sent {
        errln!("{line}");
    }
    Ok(code)
}

/// Print the gate and write the run folder's reports; the gate's exit code.
fn finish(
    run_dir: &Path,
    gate: &Gate,
    records: &[crate::events::TrialRecord],
    facts: &RunFacts,
) -> Result<u8> {
    // The verdict is printed first: a report that cannot be written must not hide it.
    {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout
            .write_all(b"\n")
            .and_then(|_| table::write(gate, &mut stdout))
            .and_then(|_| stdout.write_all(b"\n"));
    }
    for line in crate::report::files::auth_failures(records) {
        outln!("{line}: fix the key, then re-run");
    }
    out!("{}", usage_lines(&facts.usage));
    if gate.count(crate::gate::UnitStatus::Fail) > 0 {
        outln!(
            "\nProposed Failure-Mode Registry rows ({}):",
            run_dir.join("registry-rows.md").display()
        );
        out!(
            "{}",
            crate::report::registry::table(gate, |c| facts
                .suite
                .case(c)
                .map_or(c.to_string(), |k| k.title.clone()))
        );
    }
    if let Some(l) = &facts.lift {
        out!(
            "\nControl arm: lift per case (pass rate with the charter minus without)\n{}",
            crate::report::lift::table(l)
        );
    }
    if let Err(e) = crate::report::files::write_all(run_dir, gate, records, facts) {
        errln!("error: the reports could not be written: {e}");
        return Ok(exit::HARNESS_FAILED);
    }
    outln!(
        "\nreports: {}/{{report.md,report.html,junit.xml,summary.json,registry-rows.md}}",
        run_dir.display()
    );
    Ok(gate.exit_code())
}

/// What the base rerun sent and cost: the decide job's own spending.
fn base_cost(base: &crate::base::BaseSent) -> String {
    if base.sent.is_empty() {
        return "Base rerun: no model called.\n".to_string();
    }
    let mut out = String::from("Base rerun:\n");
    for line in &base.sent {
        out.push_str(&format!("  {line}\n"));
    }
    for line in usage_lines(&base.usage).lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

fn usage_lines(accounting: &serde_json::Value) -> String {
    let mut out = String::new();
    for m in accounting.as_array().into_iter().flatten() {
        let cost = match (m["cost_usd"].as_f64(), m["cost_without_cache_usd"].as_f64()) {
            (Some(c), Some(u)) if u > c => format!(
                ", ${c:.4} (${u:.4} without the prompt cache, {:.0}% saved)",
                100.0 * (u - c) / u
            ),
            (Some(c), _) => format!(", ${c:.4}"),
            _ => String::new(),
        };
        let read = m["cache_read_input_tokens"].as_u64().unwrap_or(0);
        let cached = if read > 0 || m["cache_write_input_tokens"].as_u64().unwrap_or(0) > 0 {
            format!(
                " ({} read from the prompt cache, {:.0}% of input; {} written to it)",
                read,
                100.0 * m["cached_share"].as_f64().unwrap_or(0.0),
                m["cache_write_input_tokens"]
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "usage {}: {} input + {} output tokens{cached}{cost}\n",
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

/// The manifest a run folder recorded, for `run --resume DIR` without `--matrix`.
fn recorded_manifest(run_dir: &Path) -> Result<PathBuf> {
    let run = read_run_json(run_dir)?;
    run["manifest_path"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| {
            Error::input(format!(
                "{}: run.json records no manifest; pass --matrix",
                run_dir.display()
            ))
        })
}

fn read_run_json(run_dir: &Path) -> Result<serde_json::Value> {
    let path = run_dir.join("run.json");
    if !path.is_file() {
        // Name the runs that are nearby: the folder given is often their parent.
        let mut runs: Vec<String> = std::fs::read_dir(run_dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join("run.json").is_file())
            .map(|e| e.path().display().to_string())
            .collect();
        runs.sort();
        let near = match runs.len() {
            0 => String::new(),
            n => format!(
                "; run folders in it: {}{}",
                runs.iter()
                    .rev()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
                if n > 5 {
                    format!(" (and {} more)", n - 5)
                } else {
                    String::new()
                }
            ),
        };
        return Err(Error::input(format!(
            "{}: not a run folder (no run.json){near}",
            run_dir.display()
        )));
    }
    let text = crate::error::read_to_string(&path)?;
    serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run record: {e}", path.display())))
}

/// Gate a run folder from its stored transcripts; with `--charter-base`, compare with the base.
fn gate_cmd(
    run_dir: &Path,
    suite_dir: Option<&Path>,
    args: Option<&GateArgs>,
    step_summary: bool,
) -> Result<u8> {
    existing_or_latest_hint(&[run_dir.to_path_buf()])?;
    let root = suite::locate(suite_dir)?;
    let suite = Suite::load(&root)?;
    let run = read_run_json(run_dir)?;
    let mut records = runner::stored_records(run_dir, &suite)?;
    if records.is_empty() {
        return Err(Error::input(format!(
            "{}: no trial transcripts",
            run_dir.display()
        )));
    }
    let models = crate::runs::model_names(&run);
    crate::gate::sort_records(&mut records, &models);
    let trials = run["trials"].as_u64().unwrap_or(3) as u32;
    let mut gate = Gate::from_records(&records, trials);
    if let Some(total) = run["units_total"].as_u64() {
        gate = gate.scoped(
            total as usize,
            run["manifest_trials"].as_u64().unwrap_or(trials as u64) as u32,
            run["shard"].as_str().map(str::to_string),
        );
    }
    let system_prompt = records[0]
        .transcript()?
        .system_prompt()
        .unwrap_or_default()
        .to_string();
    err!("{}", crate::banner::for_gate(&run, &system_prompt, &root));
    let facts = RunFacts {
        charter_source: run["charter"]["source"].as_str().unwrap_or("?"),
        charter_sha256: run["charter"]["sha256"].as_str().unwrap_or("?"),
        charter_version: run["charter"]["version"].as_str(),
        system_prompt: &system_prompt,
        suite: &suite,
        usage: run["usage"].clone(),
        lift: None,
        sandbox_off: run["sandbox"] == "off",
        // With --charter-base the summary is written once the base comparison, which goes
        // first, is known.
        step_summary: step_summary && args.and_then(|a| a.charter_base.as_ref()).is_none(),
    };
    // The base comparison's inputs (revision, charter, manifest, stored results) are checked
    // before anything is written: bad input leaves the run folder as it was.
    let base = match args.and_then(|a| a.charter_base.as_deref().map(|rev| (a, rev))) {
        Some((a, rev)) => {
            // --settle's inputs too, before the base rerun calls any model.
            let settle = match a.settle {
                Some(n) if n <= gate.required => {
                    return Err(Error::input(format!(
                        "--settle {n}: must exceed the gate's {} trials per unit",
                        gate.required
                    )))
                }
                Some(_) => Some(settle_arms(a, rev, &run)?),
                None => None,
            };
            let base = crate::base::plan_base(
                run_dir,
                &run,
                &gate,
                rev,
                a.base_results.as_deref(),
                a.matrix.as_deref(),
                a.suite.suite.as_deref(),
            )?;
            Some((a, rev, base, settle))
        }
        None => None,
    };
    let code = finish(run_dir, &gate, &records, &facts)?;
    if let Some((args, rev, base, settle)) = base {
        base_cmd(args, rev, (base, settle), &suite, &run, &gate)?;
    }
    Ok(code)
}

fn merge_cmd(args: MergeArgs) -> Result<u8> {
    if args.out.exists()
        && std::fs::read_dir(&args.out)
            .map_err(|e| Error::io_op("read", &args.out, e))?
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
    // Everything goes into a temp folder beside the destination, renamed into place only when
    // complete: a failed merge leaves nothing behind.
    let parent = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let merge_err = |op, p: &Path, e| Error::io_op(op, p, e).next("choose another with --out DIR");
    std::fs::create_dir_all(&parent).map_err(|e| merge_err("create folder", &parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(".merge-")
        .tempdir_in(&parent)
        .map_err(|e| merge_err("create the merge's staging folder in", &parent, e))?;
    for dir in &args.dirs {
        let base = dir.join("transcripts");
        for f in store::transcript_files(&[base.clone()])? {
            let rel = f.strip_prefix(&base).unwrap_or(&f);
            let to = staging.path().join("transcripts").join(rel);
            if to.exists() {
                return Err(Error::input(format!(
                    "{}: {} is in two shards",
                    dir.display(),
                    rel.display()
                )));
            }
            std::fs::create_dir_all(to.parent().unwrap())
                .map_err(|e| merge_err("create folder", &to, e))?;
            std::fs::copy(&f, &to).map_err(|e| merge_err("copy", &f, e))?;
        }
    }
    let mut merged = first.clone();
    merged["merged_from"] = serde_json::json!(args
        .dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>());
    merged["shard"] = serde_json::Value::Null;
    store::write_json_atomic(&staging.path().join("run.json"), &merged)?;
    if args.out.exists() {
        std::fs::remove_dir(&args.out)
            .map_err(|e| merge_err("replace the empty folder", &args.out, e))?;
    }
    let staged = staging.keep();
    std::fs::rename(&staged, &args.out)
        .map_err(|e| merge_err("move the merged run into", &args.out, e))?;
    gate_cmd(
        &args.out,
        args.suite.suite.as_deref(),
        None,
        !args.quiet_summary,
    )
}

/// `gate --charter-base`: compare the run with the charter at a base revision.
fn base_cmd(
    args: &GateArgs,
    rev: &str,
    (base, settle): (Option<crate::base::Base>, Option<SettleArms>),
    suite: &Suite,
    run: &serde_json::Value,
    head: &Gate,
) -> Result<()> {
    let trials = head.required;
    let mut settle_report = None;
    let (text, changes, base_dir) = match base {
        // The charter's runtime text is the base's: nothing regresses or improves.
        None => (format!(
            "The charter's runtime text at {rev} is the same as this one's: no unit can regress or improve, and every failure below is the base's too.\n"
        ), Vec::new(), args.run_dir.clone()),
        Some(base) => {
            let sent = crate::base::run_base(&base)?;
            for line in &sent.sent {
                errln!("base {line}");
            }
            let base_dir = base.dir.clone();
            let base_records = if base_dir.join("transcripts").exists() {
                runner::stored_records(&base_dir, suite)?
            } else {
                Vec::new()
            };
            let base_gate = Gate::from_records(&base_records, trials);
            let mut changes = crate::base::compare(head, &base_gate);
            let settled = match (args.settle, settle) {
                (Some(n), Some((head_arm, base_arm, matrix))) => {
                    let inputs = crate::settle::Inputs {
                        max_trials: n,
                        head,
                        run,
                        matrix,
                        suite: args.suite.suite.as_deref(),
                        suite_loaded: suite,
                        head_arm,
                        base_arm,
                    };
                    crate::settle::settle(&mut changes, &inputs, &args.run_dir)?
                }
                _ => None,
            };
            let mut text = crate::base::render(&changes, rev);
            if let Some(s) = &settled {
                text.push_str(&format!(
                    "--settle {}: {} round(s) run of at most {}, {} trials ({} requests) of at most {}\n",
                    s.max_trials,
                    s.rounds.len(),
                    s.rounds_planned,
                    s.rounds.iter().map(|r| r.planned.trials).sum::<u64>(),
                    s.rounds.iter().map(|r| r.planned.requests).sum::<u64>(),
                    s.worst_case.trials
                ));
            }
            text.push_str(&base_cost(&sent));
            settle_report = settled;
            (text, changes, base_dir)
        }
    };
    outln!("\n{text}");
    store::write_atomic(
        &args.run_dir.join("base-comparison.md"),
        crate::report::inert(&format!("# Base vs head\n\n```\n{text}```\n")).as_bytes(),
    )?;
    // Regressions, improvements and failures the base shares go first, in report.md and in
    // the step summary: a failure the base already has is not this change's doing.
    let section = crate::report::inert(&format!(
        "## Against the base ({rev})\n\n```\n{}\n```\n\n",
        text.trim_end()
    ));
    let report = args.run_dir.join("report.md");
    let md = std::fs::read_to_string(&report).unwrap_or_default();
    let combined = format!("{section}{md}");
    store::write_atomic(&report, combined.as_bytes())?;
    crate::report::files::append_step_summary(&combined)?;
    store::write_json_atomic(
        &args.run_dir.join("base-comparison.json"),
        &serde_json::json!({"base_rev": rev, "base_results": base_dir.display().to_string(), "alpha": crate::stats::ALPHA, "settle": settle_report, "units": changes}),
    )
}

/// `--settle N`'s two arms (the run's charter, checked unchanged, and the charter at `rev`),
/// their folders under `settle/`, and the manifest.
/// `--settle`'s head arm, base arm and manifest.
type SettleArms = (crate::settle::Arm, crate::settle::Arm, PathBuf);

fn settle_arms(args: &GateArgs, rev: &str, run: &serde_json::Value) -> Result<SettleArms> {
    let source = run["charter"]["source"].as_str().unwrap_or_default();
    let repo_path = run["charter"]["repo_path"].as_str();
    let recorded = run["charter"]["sha256"].as_str().unwrap_or_default();
    // Recorded on another machine (a shard's runner): the same file in this work tree.
    let head_source = match repo_path {
        Some(rel) if !Path::new(source).exists() => rel,
        _ => source,
    };
    let head_charter = charter::load(head_source, &cwd())?;
    if head_charter.sha256 != recorded {
        return Err(Error::input(format!(
            "{source}: the charter changed since the run (sha256 {} now, {} then); --settle runs more trials of the run's own charter",
            &head_charter.sha256[..12],
            &recorded[..recorded.len().min(12)]
        )));
    }
    let (base_source, base_dir) = charter::source_at_rev(source, repo_path, rev)?;
    let base_sha = charter::load(&base_source, &base_dir)?.sha256;
    let matrix = args
        .matrix
        .clone()
        .or_else(|| run["manifest_path"].as_str().map(PathBuf::from))
        .ok_or_else(|| Error::input("pass --matrix: the run records no manifest path"))?;
    let settle_dir = args.run_dir.join("settle");
    Ok((
        crate::settle::Arm {
            charter: head_source.to_string(),
            charter_dir: Some(cwd()),
            sha256: head_charter.sha256.clone(),
            dir: settle_dir.join("head"),
        },
        crate::settle::Arm {
            dir: settle_dir.join(format!("base-{}", &base_sha[..12])),
            charter: base_source,
            charter_dir: Some(base_dir),
            sha256: base_sha,
        },
        matrix,
    ))
}
