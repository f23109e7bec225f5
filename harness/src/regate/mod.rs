//! `harness gate`: a run folder's gate decided again from its stored transcripts with the
//! current checkers and its reports rewritten; with `--charter-base`, the comparison with the
//! charter at a base revision (its failing units rerun or reused, `--settle`d on request) put
//! first in report.md. Above `gate`, `base` and `settle`, which it ties together.

pub mod base;
pub mod merge;
pub mod settle;

use crate::error::{Error, Result};
use crate::gate::Gate;
use crate::report::findings::RunFacts;
use crate::store::record::{RunRecord, Sandbox};
use crate::store::run_folder;
use crate::store::trial::TrialRecord;
use crate::suite::charter;
use crate::suite::manifest::GatePolicy;
use crate::suite::{self, Suite};
use base::{Base, BaseSent, UnitChange};
use settle::Arm;
use std::path::{Path, PathBuf};

/// What `harness gate` (and `harness merge`, once merged) decides.
pub struct GateOptions {
    /// The run folder.
    pub run_dir: PathBuf,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
    /// `--charter-base`: also compare with the charter at a base revision.
    pub base: Option<BaseOptions>,
    /// Append report.md to `$GITHUB_STEP_SUMMARY` (with a base, once the comparison is known).
    pub step_summary: bool,
}

/// `--charter-base REV` and the options that go with it.
pub struct BaseOptions {
    pub rev: String,
    /// A run folder made on the base charter to reuse (its charter sha256 must match).
    pub base_results: Option<PathBuf>,
    /// The manifest for the base run (default: the one the run recorded).
    pub matrix: Option<PathBuf>,
    /// `--settle N`: more trials on both charters for units within noise, up to N per arm.
    pub settle: Option<u32>,
}

/// `--settle`'s head arm, base arm and manifest.
type SettleArms = (Arm, Arm, PathBuf);
/// What `plan` checked: the base rerun (none when the charter's text is the base's), settle's
/// arms, and the base's `[run] gate`.
type Planned = (Option<Base>, Option<SettleArms>, GatePolicy);

/// Gate a run folder from its stored transcripts; with a base, compare with it. The gate's
/// exit code.
pub fn gate(opts: &GateOptions) -> Result<u8> {
    let root = suite::locate(opts.suite.as_deref())?;
    let suite = Suite::load(&root)?;
    let run = run_folder::read_run(&opts.run_dir)?;
    let (records, gate) = stored_gate(&opts.run_dir, &suite, &run)?;
    let system_prompt = records[0]
        .transcript()?
        .system_prompt()
        .unwrap_or_default()
        .to_string();
    announce(&run, &system_prompt, &root, &suite);
    let facts = RunFacts {
        charter_source: or_unknown(&run.charter.source),
        charter_sha256: or_unknown(&run.charter.sha256),
        charter_version: run.charter.version.as_deref(),
        system_prompt: &system_prompt,
        suite: &suite,
        usage: run.usage.clone(),
        lift: None,
        sandbox_off: run.sandbox == Sandbox::Off,
        step_summary: opts.step_summary,
        comparison: None,
    };
    // The base comparison's inputs (revision, charter, manifest, stored results) are checked
    // before anything is written: bad input leaves the run folder as it was.
    crate::run::banner::untestable(&gate.untestable);
    let base = match &opts.base {
        Some(b) => Some((b, plan(opts, b, &run, &gate)?)),
        None => None,
    };
    let Some((b, planned)) = base else {
        say_when_no_regression_lacks_a_base(&run);
        let resume = crate::run::interrupt::finish_command(&opts.run_dir);
        return crate::run::outcome::conclude(&opts.run_dir, &resume, &gate, &records, &facts);
    };
    let head = Head {
        gate: &gate,
        run: &run,
        suite: &suite,
        suite_root: &root,
        system_prompt: &system_prompt,
    };
    let policy = planned.2;
    match compare_with_base(opts, b, planned, &head) {
        Ok(compared) => conclude_against_base(&opts.run_dir, &head, &records, &facts, &compared),
        Err(e) => Ok(conclude_without_base(
            &opts.run_dir,
            (&b.rev, policy, &e),
            &gate,
            &records,
            &facts,
        )),
    }
}

/// What the gate reads, before anything else: the charter, matrix and suite the run recorded,
/// and which models read the charter.
fn announce(run: &RunRecord, system_prompt: &str, root: &Path, suite: &Suite) {
    err!("{}", crate::run::banner::for_gate(run, system_prompt, root));
    let models = crate::run::banner::recorded_models(run);
    err!(
        "{}",
        crate::run::banner::models(&models, suite, system_prompt)
    );
}

/// The end of `gate --charter-base` when the comparison with the base failed: it hides nothing
/// of the head (its counts and reports are written), then the error, then the verdict last,
/// saying the comparison was not made. The error's exit code.
fn conclude_without_base(
    run_dir: &Path,
    (rev, policy, e): (&str, GatePolicy, &Error),
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> u8 {
    let resume = crate::run::interrupt::finish_command(run_dir);
    let _ = crate::run::outcome::conclude_before_verdict(run_dir, &resume, gate, records, facts);
    e.say();
    let o = crate::gate::policy::not_compared(policy, gate, rev);
    crate::run::outcome::print_verdict(e.exit_code(), false, &o);
    e.exit_code()
}

/// `[run] gate = "no-regression"` compares with a base: without `--charter-base` the gate
/// says so and decides as all-pass.
fn say_when_no_regression_lacks_a_base(run: &RunRecord) {
    let policy = run
        .manifest_path
        .as_deref()
        .map(|m| crate::suite::manifest::resolve(Path::new(m)))
        .and_then(|m| crate::suite::manifest::load(&m).ok())
        .map(|l| l.manifest.run.gate);
    if policy == Some(GatePolicy::NoRegression) {
        errln!("[run] gate = \"no-regression\" needs a base (--charter-base REV): without one this gate decides as \"all-pass\"");
    }
}

/// The head side of a base comparison: the run's gate, record, suite and tested charter.
struct Head<'a> {
    gate: &'a Gate,
    run: &'a RunRecord,
    suite: &'a Suite,
    suite_root: &'a Path,
    /// The charter's runtime text as the transcripts sent it: the head side of the diff.
    system_prompt: &'a str,
}

/// The end of `gate --charter-base`: the head's counts, the comparison (regressions first),
/// the reports with the comparison leading, what the base rerun cost, the verdict last.
fn conclude_against_base(
    run_dir: &Path,
    head: &Head,
    records: &[TrialRecord],
    facts: &RunFacts,
    c: &Compared,
) -> Result<u8> {
    let gate = head.gate;
    // The reports lead with the comparison.
    let facts = RunFacts {
        comparison: Some(crate::report::comparison::View {
            rev: &c.rev,
            changes: &c.changes,
            policy: c.policy,
            outcome: &c.outcome,
            cost: &c.cost,
            notes: &c.notes,
        }),
        ..facts.clone()
    };
    let run = crate::report::findings::Reported::read(run_dir, gate, records, &facts);
    outln!("\nhead: {}", run.findings.counts_line);
    crate::run::outcome::needs_labels(&run.findings.labels);
    outln!("\n{}", c.text.trim_end());
    let o = &c.outcome;
    let verdict = || {
        let pass = o.decided && o.code == crate::exit::OK && o.word == "pass";
        crate::run::outcome::print_verdict(o.code, pass, &o.sentence);
    };
    if let Err(e) = crate::report::files::print_summary(&run)
        .and_then(|_| crate::report::files::write_all(&run))
        .and_then(|_| write_comparison(run_dir, c))
    {
        // As without a base: a report that cannot be written must not hide the verdict.
        verdict();
        errln!("error: the reports could not be written: {e}");
        return Ok(crate::exit::HARNESS_FAILED);
    }
    out!("{}", c.cost);
    outln!(
        "reports: {}/{{report.md,report.html,junit.xml,summary.json,registry-rows.md,base-comparison.md}}",
        run_dir.display()
    );
    verdict();
    Ok(o.code)
}

/// The run folder's trial records in plan order, and its gate, scoped as the run recorded.
fn stored_gate(run_dir: &Path, suite: &Suite, run: &RunRecord) -> Result<(Vec<TrialRecord>, Gate)> {
    let mut records = run_folder::stored_records(run_dir, suite)?;
    if records.is_empty() {
        return Err(Error::input(format!(
            "{}: no trial transcripts",
            run_dir.display()
        )));
    }
    crate::gate::sort_records(&mut records, &run.model_names());
    let trials = run.trials.unwrap_or(3);
    let mut gate = Gate::from_records(&records, trials);
    // The cases the charter listed that no checker of this harness version tests.
    gate.untestable = (run.charter.untestable_cases.iter())
        .filter(|c| checkers::checker_for(c).is_err())
        .cloned()
        .collect();
    if let Some(total) = run.units_total {
        gate = gate.scoped(
            total,
            run.manifest_trials.unwrap_or(trials),
            run.shard.clone(),
        );
    }
    Ok((records, gate))
}

/// Check the base comparison's inputs, `--settle`'s first (before the base rerun calls any
/// model); writes nothing.
fn plan(opts: &GateOptions, b: &BaseOptions, run: &RunRecord, gate: &Gate) -> Result<Planned> {
    let settle = match b.settle {
        Some(n) if n <= gate.required => {
            return Err(Error::input(format!(
                "--settle {n}: must exceed the gate's {} trials per unit",
                gate.required
            )))
        }
        Some(_) => Some(settle_arms(&opts.run_dir, b, run)?),
        None => None,
    };
    let base = base::plan_base(
        &opts.run_dir,
        run,
        gate,
        &b.rev,
        b.base_results.as_deref(),
        b.matrix.as_deref(),
        opts.suite.as_deref(),
    )?;
    let manifest = b
        .matrix
        .clone()
        .or_else(|| run.manifest_path.as_deref().map(PathBuf::from));
    let policy = match manifest {
        Some(m) => base::base_policy(&crate::suite::manifest::resolve(&m), &b.rev)?,
        None => GatePolicy::AllPass,
    };
    Ok((base, settle, policy))
}

/// `gate --charter-base`: compare the run with the charter at a base revision, unit by unit,
/// attributed.
fn compare_with_base(
    opts: &GateOptions,
    b: &BaseOptions,
    (base, settle, policy): Planned,
    head: &Head,
) -> Result<Compared> {
    let rev = &b.rev;
    let mut compared = match base {
        // The charter's runtime text is the base's: nothing regresses or improves.
        None => Compared {
            rev: rev.clone(),
            text: format!(
                "The charter's runtime text at {rev} is the same as this one's: no unit can regress or improve, and every failure below is the base's too.\n"
            ),
            cost: String::new(),
            changes: Vec::new(),
            base_dir: opts.run_dir.clone(),
            settle: None,
            outcome: crate::gate::policy::all_pass(head.gate),
            policy,
            notes: Vec::new(),
        },
        Some(base) => rerun_base(opts, b, base, settle, head)?,
    };
    compared.policy = policy;
    compared.outcome = crate::gate::policy::decide(policy, head.gate, Some(&compared.changes));
    Ok(compared)
}

/// The comparison with the base: the terminal's text, the units (attributed), what the base
/// rerun cost, where the base's transcripts are, and what `--settle` did.
struct Compared {
    rev: String,
    text: String,
    cost: String,
    changes: Vec<UnitChange>,
    base_dir: PathBuf,
    settle: Option<settle::Report>,
    /// The base's `[run] gate`, and the gate under it.
    policy: GatePolicy,
    outcome: crate::gate::policy::Outcome,
    /// What the offline gate cannot see (rules reworded, charter-reading models unmoved).
    notes: Vec<String>,
}

/// Rerun (or reuse) the base's failing units, compare unit by unit, settle on request, then
/// attribute every unit whose status differs.
fn rerun_base(
    opts: &GateOptions,
    b: &BaseOptions,
    base: Base,
    settle: Option<SettleArms>,
    head: &Head,
) -> Result<Compared> {
    let sent = base::run_base(&base)?;
    for line in &sent.sent {
        errln!("base {line}");
    }
    let base_dir = base.dir.clone();
    let base_records = if base_dir.join("transcripts").exists() {
        run_folder::stored_records(&base_dir, head.suite)?
    } else {
        Vec::new()
    };
    let base_gate = Gate::from_records(&base_records, head.gate.required);
    let held = base::holds(&base_dir, head.suite);
    let mut changes = base::compare(
        head.gate,
        &base_gate,
        &base::scripted_models(head.run),
        &held,
    );
    let settled = settle_if_asked(opts, b.settle, settle, head, &mut changes)?;
    let hunks = crate::gate::attribute::charter_hunks(&base.runtime, head.system_prompt);
    let rules_of = |case: &str| {
        head.suite
            .case(case)
            .map(|c| c.rules.clone())
            .unwrap_or_default()
    };
    crate::gate::attribute::attribute(&mut changes, head.gate, &base_gate, &hunks, &rules_of);
    let notes = presence_notes(&base.runtime, head, &changes);
    let text = comparison_text(&changes, &b.rev, &notes, settled.as_ref());
    Ok(Compared {
        rev: b.rev.clone(),
        text,
        cost: base_cost(&sent),
        changes,
        base_dir,
        settle: settled,
        outcome: crate::gate::policy::all_pass(head.gate),
        policy: GatePolicy::AllPass,
        notes,
    })
}

/// `--settle N` when asked (and its arms planned): the units the comparison left unsure rerun
/// on both sides, `changes` updated; what it did.
fn settle_if_asked(
    opts: &GateOptions,
    max_trials: Option<u32>,
    arms: Option<SettleArms>,
    head: &Head,
    changes: &mut [UnitChange],
) -> Result<Option<settle::Report>> {
    let (Some(n), Some((head_arm, base_arm, matrix))) = (max_trials, arms) else {
        return Ok(None);
    };
    let inputs = settle::Inputs {
        max_trials: n,
        head: head.gate,
        run: head.run,
        matrix,
        suite: opts.suite.as_deref(),
        suite_loaded: head.suite,
        head_arm,
        base_arm,
    };
    settle::settle(changes, &inputs, &opts.run_dir)
}

/// The comparison as the terminal shows it: the units, what the offline gate cannot see, and
/// what `--settle` ran.
fn comparison_text(
    changes: &[UnitChange],
    rev: &str,
    notes: &[String],
    settled: Option<&settle::Report>,
) -> String {
    let mut text = crate::report::comparison::terminal(changes, rev);
    for n in notes {
        text.push_str(&format!("{n}\n"));
    }
    if let Some(s) = settled {
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
    text
}

/// What the offline gate cannot see: rules reworded from `base_runtime` while the
/// charter-reading models answer as on the base.
fn presence_notes(base_runtime: &str, head: &Head, changes: &[UnitChange]) -> Vec<String> {
    let reworded = crate::gate::attribute::reworded_rules(base_runtime, head.system_prompt);
    let readers = charter_readers(head.run, head.suite_root);
    crate::gate::attribute::presence_note(&reworded, &readers, changes)
        .into_iter()
        .collect()
}

/// The run's charter-reading scripted models: those whose script folder in the suite holds
/// `reads-charter.toml` (they answer by the presence of a case's rules in the system prompt).
fn charter_readers(run: &RunRecord, suite_root: &Path) -> Vec<String> {
    run.manifest
        .models
        .iter()
        .filter(|m| m.rest.get("provider").and_then(|p| p.as_str()) == Some("scripted"))
        .filter(|m| {
            m.rest
                .get("script")
                .and_then(|s| s.as_str())
                .is_some_and(|s| {
                    crate::files::read::present(
                        &suite_root
                            .join("fixtures/scripted")
                            .join(s)
                            .join(crate::provider::scripted::READS_CHARTER),
                    )
                })
        })
        .map(|m| m.name.clone())
        .collect()
}

/// Write base-comparison.{md,json}, and put the comparison first in report.md and the step
/// summary: a failure the base already has is not this change's doing.
fn write_comparison(run_dir: &Path, c: &Compared) -> Result<()> {
    let text = &format!("{}{}", c.text, c.cost);
    crate::files::write_atomic(
        &run_dir.join("base-comparison.md"),
        crate::output::printable(&format!("# Base vs head\n\n```\n{text}```\n")).as_bytes(),
    )?;
    crate::files::write_json_atomic(
        &run_dir.join("base-comparison.json"),
        &serde_json::json!({"base_rev": c.rev, "base_results": c.base_dir.display().to_string(), "alpha": crate::gate::stats::ALPHA, "settle": c.settle, "units": c.changes, "gate": c.policy.as_str(), "verdict": c.outcome.sentence}),
    )
}

/// `--settle N`'s two arms (the run's charter, checked unchanged, and the charter at the base
/// revision), their folders under `settle/`, and the manifest.
fn settle_arms(run_dir: &Path, b: &BaseOptions, run: &RunRecord) -> Result<SettleArms> {
    let source = run.charter.source.as_str();
    let repo_path = run.charter.repo_path.as_deref();
    let recorded = run.charter.sha256.as_str();
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
    let (base_source, base_dir) = charter::source_at_rev(source, repo_path, &b.rev)?;
    let base_sha = charter::load(&base_source, &base_dir)?.sha256;
    let matrix = b
        .matrix
        .clone()
        .or_else(|| run.manifest_path.as_deref().map(PathBuf::from))
        .ok_or_else(|| Error::input("pass --matrix: the run records no manifest path"))?;
    let settle_dir = run_dir.join("settle");
    Ok((
        Arm {
            charter: head_source.to_string(),
            charter_dir: Some(cwd()),
            sha256: head_charter.sha256.clone(),
            dir: settle_dir.join("head"),
        },
        Arm {
            dir: settle_dir.join(format!("base-{}", &base_sha[..12])),
            charter: base_source,
            charter_dir: Some(base_dir),
            sha256: base_sha,
        },
        matrix,
    ))
}

/// What the base rerun sent and cost: the decide job's own spending.
fn base_cost(base: &BaseSent) -> String {
    if base.sent.is_empty() {
        return "Base rerun: no model called.\n".to_string();
    }
    let mut out = String::from("Base rerun:\n");
    for line in &base.sent {
        out.push_str(&format!("  {line}\n"));
    }
    for line in crate::run::outcome::usage_lines(&base.usage).lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// A recorded text, or "?" when the run recorded none.
fn or_unknown(s: &str) -> &str {
    if s.is_empty() {
        "?"
    } else {
        s
    }
}
