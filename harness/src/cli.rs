//! The command line, all 14 commands (`run`, `cases`, `gate`, `merge`, `show`, `replay`, `lint`,
//! `check`, `label`, `calibrate`, `init`, `compare`, `runs`, `key`): each parses its arguments,
//! loads and validates everything it needs, then hands over to the library.

use crate::error::{Error, Result};
use crate::suite::{self, Suite};
use crate::{check, exit};
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
        Command::Gate(args) => {
            existing_or_latest_hint(std::slice::from_ref(&args.run_dir))?;
            crate::decide::gate(&crate::decide::GateOptions {
                run_dir: args.run_dir,
                suite: args.suite.suite,
                // clap requires --charter-base for the options that go with it.
                base: args.charter_base.map(|rev| crate::decide::BaseOptions {
                    rev,
                    base_results: args.base_results,
                    matrix: args.matrix,
                    settle: args.settle,
                }),
                step_summary: true,
            })
        }
        Command::Merge(args) => crate::merge::merge(&crate::merge::MergeOptions {
            dirs: args.dirs,
            out: args.out,
            step_summary: !args.quiet_summary,
            suite: args.suite.suite,
        }),
        Command::Replay(args) => {
            crate::replay::run(&args.path, &args.matrix, args.suite.suite.as_deref())
        }
    }
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
        (None, Some(dir)) => crate::run_json::recorded_manifest(dir)?,
        (None, None) => unreachable!("clap requires --matrix without --resume"),
    };
    // In a charter repository the built-in offline matrix tests the repository's charter.
    let mut charter = args.charter;
    if charter.is_none() && crate::banner::is_builtin_offline(&matrix) {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        if let Some((file, note)) = crate::banner::repo_charter(&cwd) {
            errln!("{note}");
            charter = Some(file.display().to_string());
        }
    }
    crate::outcome::run(&crate::session::RunOptions {
        matrix,
        cases: args.cases,
        variants: args.variants,
        models: args.models,
        trials: args.trials,
        out: args.out,
        resume: args.resume,
        charter,
        charter_dir: None,
        suite: args.suite.suite,
        shard: args.shard,
        arms: args.arms,
        fail_fast: args.fail_fast,
        story,
        only_units: None,
        no_sandbox: args.no_sandbox,
        all: args.all,
    })
}
