//! `harness run`: the trials of a manifest's matrix (or a run folder finished with `--resume`),
//! checked, gated and reported.

use super::SuiteArgs;
use crate::error::Result;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(super) struct RunArgs {
    /// The model matrix and decoding config: a file (e.g. manifests/pinned.toml), or the name
    /// of a manifest built into the binary (`offline`: three scripted models, no network).
    /// Default: manifests/pinned.toml when it exists (as `harness init` writes it); with
    /// --resume, the manifest the run recorded (and it must match it).
    #[arg(long)]
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
    #[arg(long, short = 'o', conflicts_with = "resume")]
    out: Option<PathBuf>,
    /// Print every trial's story (tool calls, final reply, criteria with evidence); on by
    /// default when the run is narrowed to one case. Stories print in trial order at the end,
    /// identical trials folded.
    #[arg(long, short)]
    verbose: bool,
    /// In stories, unfold the seeded turns (the system prompt, the scripted history, the prompt).
    #[arg(long)]
    seeded: bool,
    /// Run only shard K of N (units split deterministically, e.g. 1/2 and 2/2 on two CI
    /// jobs); combine the shards' folders with `harness merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Arms to run: `charter` (the gate, the default), and `control` to also run every unit
    /// without the charter and report each case's lift (pass rate with the charter minus without).
    #[arg(long, value_delimiter = ',')]
    arms: Vec<String>,
    /// At most N requests in flight per model entry: an upper bound over the manifest's
    /// `max_concurrency` (never raises it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    max_concurrency: Option<u16>,
    /// Check everything a run checks before its first call (manifest, charter, suite,
    /// endpoints; keys not set are named, not needed) and print the plan with its expected cost
    /// and the worst-case bound apart; send nothing, write nothing. Exit 0, or 2 on bad input.
    #[arg(long)]
    dry_run: bool,
    /// Print the run's summary on stdout, one JSON object (summary.json's record, with its
    /// schema_version); the table, stories and verdict line go to stderr. Nothing on stdout
    /// when the run stops before its gate (exit 2, 130).
    #[arg(long, conflicts_with = "dry_run")]
    json: bool,
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

/// The charter repository's pinned manifest when there is one (said on stderr), else an error
/// naming `--matrix offline` and `--matrix FILE`.
fn default_matrix() -> Result<PathBuf> {
    let pinned = super::at_root(std::path::Path::new("manifests/pinned.toml"));
    if pinned.is_file() {
        errln!("matrix: {} (no --matrix given; --matrix offline runs the built-in scripted models, no key)", pinned.display());
        return Ok(pinned);
    }
    Err(crate::error::Error::input(
        "no --matrix, and no manifests/pinned.toml here (`harness init` writes one): give --matrix offline (the built-in scripted models, no key, no network) or --matrix FILE",
    ))
}

/// `--matrix pinned` (a built-in name other than `offline`) tests the built-in example charter,
/// with the built-in models: in a charter repository that is rarely what was meant, so stderr
/// points at the repository's own manifest. The name keeps its one meaning (a script or CI job
/// that says `pinned` gets the same matrix in every folder); the note says what to give instead.
fn note_builtin_name(given: &Path) {
    let resolved = crate::suite::manifest::resolve(given);
    if resolved == given
        || !crate::suite::embedded::is_embedded(&resolved)
        || crate::run::banner::is_builtin_offline(given)
    {
        return;
    }
    let name = given.display();
    let base = crate::files::root::base();
    let own = base.join("manifests").join(format!("{name}.toml"));
    let head = format!("matrix: `{name}` is the manifest built into harness, which tests the built-in example charter, not this repository's");
    if own.is_file() {
        let own = crate::suite::embedded::shown(&own);
        errln!("{head}; this repository has {own}: give --matrix {own} to test your charter");
    } else if base.join("CHARTER.md").is_file() {
        errln!("{head} (CHARTER.md); `harness init` writes manifests/pinned.toml naming it, then give --matrix manifests/pinned.toml");
    }
}

pub(super) fn run(args: RunArgs) -> Result<u8> {
    crate::output::json::set_stdout_json(args.json);
    let story = (args.verbose || args.seeded || args.cases.len() == 1).then(|| {
        crate::report::story::StoryOptions {
            color: !args.json && super::coloured(),
            seeded: args.seeded,
            ..Default::default()
        }
    });
    // From a subfolder, results/ and the repository's files are the root's (as git finds it).
    if let Some(root) = crate::files::root::subfolder_root() {
        super::say_root(&root);
    }
    let matrix = match (args.matrix, &args.resume) {
        (Some(m), _) => {
            note_builtin_name(&m);
            m
        }
        (None, Some(dir)) => crate::store::run_folder::recorded_manifest(dir)?,
        (None, None) => default_matrix()?,
    };
    // In a charter repository the built-in offline matrix tests the repository's charter.
    let mut charter = args.charter;
    if charter.is_none() && crate::run::banner::is_builtin_offline(&matrix) {
        if let Some((file, note)) = crate::run::banner::repo_charter(&crate::files::root::base()) {
            errln!("{note}");
            charter = Some(file.display().to_string());
        }
    }
    crate::run::session::command(&crate::run::options::RunOptions {
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
        max_concurrency: args.max_concurrency.map(usize::from),
        dry_run: args.dry_run,
    })
}
