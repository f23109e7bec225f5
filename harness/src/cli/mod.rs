//! The command line: `harness` and its commands (the variants of `Command`; `harness --help`
//! lists them), one file each holding its arguments and the call into the library that does
//! the work. Here: the parser, the process set-up every command needs, and the dispatch. No
//! clap type leaves it.

mod calibrate;
mod cases;
mod check;
mod ci;
mod comment;
mod compare;
mod gate;
mod init;
mod key;
mod label;
mod lint;
mod merge;
mod replay;
mod run;
mod runs;
mod show;

use crate::error::{Error, Result};
use crate::exit;
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "harness",
    version,
    about = "Replay a charter's conformance cases against a pinned model matrix and decide its change gate"
)]
struct Cli {
    /// Diagnostic logs on stderr: error, warn (the default), info, debug, trace, or a RUST_LOG
    /// filter (`harness=debug,reqwest=info`; a bare word must be a level or a target the
    /// harness knows). Wins over RUST_LOG (one it cannot use is a warning); keys are masked.
    #[arg(long, global = true, value_name = "LEVEL")]
    log_level: Option<String>,
    /// Print only the result (stdout) and errors: no progress, notes or warnings on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Colour: auto (a terminal, unless NO_COLOR is set), always, never. One setting for
    /// every output: the stories and the verdict line.
    #[arg(long, value_enum, global = true, default_value_t)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the cases on the models of a manifest and print the gate
    ///
    /// Run every case (or the filtered ones) on every model of a manifest, N trials each, check
    /// each transcript and print the gate. Exit: 0 pass, 1 fail, 2 bad input, 3 inconclusive,
    /// 4 the harness could not finish (e.g. a report it could not write), 130 interrupted
    /// (Ctrl-C; it prints the --resume command that finishes the run).
    Run(run::RunArgs),
    /// List the cases and variants, with their workspace and tools
    Cases(cases::CasesArgs),
    /// Recompute a run folder's gate from its stored transcripts
    ///
    /// Recompute the gate of a run folder (default: results/latest) from its stored transcripts
    /// with the current checkers, and rewrite its reports. Exit as `run`.
    Gate(gate::GateArgs),
    /// Combine the run folders of sharded jobs into one run folder and gate it
    Merge(merge::MergeArgs),
    /// Show stored transcripts as stories, re-checked
    ///
    /// Show stored transcripts (files or unit folders; default results/latest) as stories, re-checked with the current
    /// checkers: tool calls, final reply (its reasoning folded apart), criteria with evidence,
    /// workspace diff.
    Show(show::ShowArgs),
    /// Re-send a stored trial's first request to its model
    ///
    /// Re-send a stored trial's first model request to the same model (key from the
    /// environment) and write the answer next to it as trial-N.replay-K.json.
    Replay(replay::ReplayArgs),
    /// Check charter documents statically, before any model is called
    Lint(lint::LintArgs),
    /// Re-check stored transcripts with the current checkers, offline
    ///
    /// Re-check stored transcripts (files or folders; default results/latest) with the current
    /// checkers, offline: the verdicts that changed, then one line of counts. Exit: 0 all pass,
    /// 1 any fail, 2 unreadable or unknown input, 3 only inconclusive.
    Check(check::CheckArgs),
    /// Record a person's verdict for stored transcripts
    ///
    /// Record a person's verdict for stored transcripts in a labels.jsonl beside each one (or
    /// in --labels FILE), for `harness calibrate`.
    Label(label::LabelArgs),
    /// Measure the checkers against labelled transcripts and golden files
    ///
    /// Re-check every labelled transcript (labels.jsonl) and golden file under the folders with
    /// the current checkers; print agreement, false passes and false fails per case and checker
    /// version, and every disagreement. Exit: 0 full agreement, 1 any disagreement, 2 bad input.
    Calibrate(calibrate::CalibrateArgs),
    /// Set a charter repository up for the gate
    ///
    /// Set a charter repository up for the gate: manifests/pinned.toml, the GitHub workflow
    /// (using this release's action) and .gitignore lines for results/ and .env.
    Init(init::InitArgs),
    /// Compare two runs unit by unit
    ///
    /// Compare two runs unit by unit (two charters, two models, two dates): status, passes with
    /// the 95% interval and failed criteria side by side; a unit whose status differs is a
    /// regression or improvement only when Fisher's exact test says so (p < 0.05), else within
    /// noise; regressions first, cases in natural order, and what else differs. A side may be
    /// DIR:MODEL to compare two models of one run. Models pair by name, else by role (and the
    /// output says so). Exit 1 when B significantly regresses a unit, 2 when nothing pairs.
    Compare(compare::CompareArgs),
    /// List the runs of a results folder, newest first
    ///
    /// List the runs of a results folder (default: results): date, charter version, verdict,
    /// models, charter path; newest first, under a header row (--json: no header).
    Runs(runs::RunsArgs),
    /// Print the key of a gate's inputs
    ///
    /// Print the key of a gate's inputs (charter runtime text, manifest, case suite, harness
    /// version): equal keys mean a stored gate can be reused instead of calling models again.
    Key(key::KeyArgs),
    /// Print the pull-request comment the workflow posts
    ///
    /// A run's gate (verdict first, then regressions with reasons and hunks, what needs a
    /// label, what the base already fails), lint findings, lint failed, or a fork waiting;
    /// within GitHub's 65,536 characters.
    Comment(comment::CommentArgs),
    /// The steps of the workflow `harness init` writes, one command each
    #[command(hide = true)]
    Ci(ci::CiArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    ///
    /// Load it in bash with `source <(harness completions bash)`, or save it where your shell
    /// reads completions (e.g. ~/.local/share/bash-completion/completions/harness).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) for `harness`, or for one command
    ///
    /// `harness man | man -l -` reads it; `harness man run` gives `harness-run(1)`. The release
    /// archives carry every page under man/.
    Man {
        /// A command, for its own page.
        command: Option<String>,
        /// List the commands that have a page of their own, one a line (what the release
        /// archives ship under man/).
        #[arg(long, conflicts_with = "command")]
        list: bool,
    },
}

#[derive(Args)]
struct SuiteArgs {
    /// A custom case suite: a folder holding cases/ and fixtures/ (default:
    /// $CHARTER_HARNESS_SUITE, else the suite built into this binary).
    #[arg(long, env = "CHARTER_HARNESS_SUITE")]
    suite: Option<PathBuf>,
}

/// `--color`, global: auto (a terminal, unless NO_COLOR is set), always, never.
#[derive(Clone, Copy, Default, clap::ValueEnum)]
enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

impl Color {
    /// Set the process's one colour choice (anstream's), which every output then asks.
    fn apply(self) {
        match self {
            Color::Auto => anstream::ColorChoice::Auto,
            Color::Always => anstream::ColorChoice::Always,
            Color::Never => anstream::ColorChoice::Never,
        }
        .write_global();
    }
}

/// Whether stdout is coloured, as `--color` and the environment decided.
fn coloured() -> bool {
    crate::report::story::stdout_coloured()
}

/// The newest run of `harness run` in the current folder: what `show`, `check` and `gate` read
/// when no path is given.
const LATEST: &str = "results/latest";

/// A default path that names a repository file (`results/latest`, `manifests/pinned.toml`),
/// read at the repository's root when the command started in a subfolder of one (as git finds
/// its root), which stderr says once; else as given.
fn at_root(default: &Path) -> PathBuf {
    match crate::files::root::subfolder_root() {
        Some(root) => {
            say_root(&root);
            root.join(default)
        }
        None => default.to_path_buf(),
    }
}

/// "repository root: …", once a process.
fn say_root(root: &Path) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        errln!(
            "repository root: {} (started in a subfolder; repository defaults are read there)",
            root.display()
        )
    });
}

/// `paths`, with the default `results/latest` read at the repository's root; an error saying
/// what to give when it is not there.
fn existing_or_latest_hint(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    if !(paths.len() == 1 && paths[0] == Path::new(LATEST)) {
        return Ok(paths);
    }
    let latest = at_root(Path::new(LATEST));
    if !latest.exists() {
        return Err(no_run_here(&latest));
    }
    Ok(vec![latest])
}

fn no_run_here(latest: &Path) -> Error {
    Error::input(format!(
        "{}: no run here (it points at the newest run `harness run` wrote in this folder) — give a run folder or transcript files, e.g. `harness runs` lists them",
        latest.display()
    ))
}

/// What `show` and `check` read: `paths`, or with none given the newest full run
/// (`results/latest`, as issue 34 decided) or, before the first one, the newest narrowed run.
/// Either is named on stderr, and so is a narrowed run newer than the full one.
fn run_to_read(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    use crate::store::runs::DefaultRun;
    if !(paths.len() == 1 && paths[0] == Path::new(LATEST)) {
        return Ok(paths);
    }
    let latest = at_root(Path::new(LATEST));
    let results = latest.parent().unwrap_or(Path::new("results"));
    let shown = |p: &Path| crate::suite::embedded::shown(p);
    match crate::store::runs::default_run(results) {
        None => Err(no_run_here(&latest)),
        Some(DefaultRun::Latest {
            dir,
            newer_narrowed,
        }) => {
            errln!(
                "reading {} (results/latest: the newest full run)",
                shown(&dir)
            );
            if let Some((newer, what)) = newer_narrowed {
                errln!(
                    "a newer narrowed run ({what}) is in {}: give its folder to read it",
                    shown(&newer)
                );
            }
            Ok(vec![dir])
        }
        Some(DefaultRun::Narrowed { dir, narrowed }) => {
            errln!(
                "no full run yet: reading {}, the newest narrowed run ({narrowed}); a run of every unit becomes results/latest",
                shown(&dir)
            );
            Ok(vec![dir])
        }
    }
}

/// Run the command line; the number is the process exit code.
pub fn run() -> Result<u8> {
    // The sandbox helper is this binary started again; it never returns.
    crate::trial::sandbox::maybe_helper();
    // Keys may sit in .env (this folder's or the nearest parent's): only the variables a
    // manifest names as keys are taken from it, when the manifest is read (the environment
    // wins); values under key-like names are masked from the start.
    crate::suite::manifest::mask_dotenv_keys();
    // Commands without a manifest (`check`, `runs`, `calibrate`) still mask the keys the
    // environment holds under the usual names; a manifest's own key names add to these.
    crate::output::secrets::register_from_env();
    // A closed stdout (`harness run | head -1`) must not end a run: SIGPIPE would kill it
    // (exit 141) before the reports and the gate are written, and the verdict's exit code
    // would be lost. Ignored, a write to it fails with EPIPE, which every printer drops
    // (they write with `let _ =`, never `println!`); the run finishes and exits as it decides.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
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
    crate::output::set_quiet(cli.quiet);
    cli.color.apply();
    let level = match (&cli.log_level, cli.quiet) {
        (None, true) if std::env::var_os("RUST_LOG").is_none() => Some("error"),
        (l, _) => l.as_deref(),
    };
    crate::output::log::init(level).map_err(Error::input)?;
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Cases(args) => cases::run(args),
        Command::Gate(args) => gate::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Show(args) => show::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Lint(cmd) => lint::run(cmd),
        Command::Check(args) => check::run(args),
        Command::Label(args) => label::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Init(args) => init::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Runs(args) => runs::run(args),
        Command::Key(args) => key::run(args),
        Command::Comment(args) => comment::run(args),
        Command::Ci(args) => ci::run(args),
        Command::Completions { shell } => completions(shell),
        Command::Man { list: true, .. } => man_list(),
        Command::Man { command, .. } => man(command.as_deref()),
    }
}

/// `harness completions SHELL`: the script clap_complete writes from the parser.
fn completions(shell: clap_complete::Shell) -> Result<u8> {
    use clap::CommandFactory;
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "harness", &mut buf);
    write_stdout(&buf)
}

/// `harness man [COMMAND]`: the roff page clap_mangen writes from the parser.
fn man(command: Option<&str>) -> Result<u8> {
    use clap::CommandFactory;
    let root = Cli::command();
    let cmd = match command {
        None => root,
        Some(name) => {
            let Some(sub) = root.find_subcommand(name).cloned() else {
                let names = root.get_subcommands().map(|c| c.get_name());
                return Err(Error::input(format!(
                    "harness man {name}: no such command{}",
                    crate::error::did_you_mean(name, names)
                )));
            };
            // Once a process: the page's name lives as long as it.
            sub.name(format!("harness-{name}").leak() as &str)
        }
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Error::Internal(format!("man page: {e}")))?;
    write_stdout(&buf)
}

/// `harness man --list`: every command shown in `--help`, one a line, from the parser itself.
fn man_list() -> Result<u8> {
    use clap::CommandFactory;
    let root = Cli::command();
    let names: String = root
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| format!("{}\n", c.get_name()))
        .collect();
    write_stdout(names.as_bytes())
}

/// Generated text as is: a completion script or a roff page holds no model text or key, and
/// the printer would escape what the shell needs.
fn write_stdout(bytes: &[u8]) -> Result<u8> {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(bytes);
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the parser: no two arguments with one name, every `requires` and
    /// `conflicts_with` naming an argument that exists, defaults among the possible values.
    #[test]
    fn every_command_s_arguments_are_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
