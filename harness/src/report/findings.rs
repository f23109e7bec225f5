//! What a run folder's reports say, read once: from the gate, its trial records and the run's
//! facts, one plain value (the verdict, the counts, the charter line, how sure the gate is per
//! model, the registry rows, the unsure readings and the labels they wait for, what stopped
//! trials, the control arm's lift, the run's identity from run.json). The terminal and every
//! report render from it; the gate's units and the records are still walked where a report
//! lists them unit by unit or trial by trial.

use crate::gate::{Gate, UnitStatus};
use crate::provider::ProviderError;
use crate::store::record::{Counts, RunMeta};
use crate::store::trial::{TrialRecord, TrialStatus};
use std::path::Path;

/// What the reports say about the run besides its trials.
#[derive(Clone)]
pub struct RunFacts<'a> {
    pub charter_source: &'a str,
    pub charter_sha256: &'a str,
    pub charter_version: Option<&'a str>,
    pub system_prompt: &'a str,
    pub suite: &'a crate::suite::Suite,
    /// Tokens and cost per model, as in run.json (none when the run recorded none).
    pub usage: Option<Vec<crate::store::record::ModelUsage>>,
    /// Per case: pass rate with the charter, without it (control arm), and the lift.
    pub lift: Option<Vec<crate::store::record::CaseLift>>,
    /// `--no-sandbox`: model-written code ran unconfined. Every report says so.
    pub sandbox_off: bool,
    /// Append report.md to `$GITHUB_STEP_SUMMARY` (off when a later step writes the summary).
    pub step_summary: bool,
    /// `gate --charter-base`: the comparison every report leads with, and the verdict under
    /// the base's `[run] gate`.
    pub comparison: Option<super::comparison::View<'a>>,
}

/// The line every report carries when the run gave up the sandbox.
pub const NO_SANDBOX_WARNING: &str = "WARNING: run with --no-sandbox: test scripts and probes a model could write ran unconfined, with the harness's privileges, network and files.";

/// Everything the reports say that is not a list of units or trials, computed once.
pub struct Findings {
    /// The gate's outcome as a word (`pass`, `fail`, `inconclusive`, `partial`) and a sentence.
    pub word: &'static str,
    pub sentence: String,
    pub exit_code: u8,
    /// A whole run's gate (a partial run's is never a decision).
    pub decided: bool,
    /// Trials each unit must pass.
    pub required: u32,
    pub counts: Counts,
    /// "32 units: 16 pass, 16 fail, 0 inconclusive"
    pub counts_line: String,
    /// The run (from its run.json), when the folder has one.
    pub run: Option<RunMeta>,
    /// The charter, its version and digest, what every unit must pass (the run's line first).
    pub charter_line: String,
    /// The gate as a grid: a row per case and variant, in the order their units first appear,
    /// a cell per model (in the gate's order, as `models`).
    pub rows: Vec<Row>,
    /// The undecided units, each with what keeps it undecided.
    pub undecided: Vec<Undecided>,
    /// How sure the gate is, model by model.
    pub models: Vec<Sureness>,
    /// Cases the charter lists that this harness has no checker for.
    pub untestable: Vec<String>,
    /// The Proposed Failure-Mode Registry rows as a Markdown table (a header and a row per
    /// failing unit).
    pub registry: String,
    /// What stopped trials in a way re-running cannot fix: a line and what to do, once each.
    pub stops: Vec<(String, String)>,
    /// The control arm's lift per case as a Markdown table, when the run had a control arm.
    pub lift: Option<String>,
    /// Every unsure criterion of the undecided units, with its readings and its command.
    pub unsure: Vec<super::unsure::UnsureReading>,
    /// The unsure trials grouped by the label that decides them.
    pub labels: Vec<LabelGroup>,
    /// The units waiting for a label, as `model case/variant`.
    pub needs_labels: Vec<String>,
}

/// A gated run as its reports read it: its folder, its gate and trial records (in gate order),
/// the facts besides them, and the findings read from them once.
pub struct Reported<'a> {
    pub run_dir: &'a Path,
    pub gate: &'a Gate,
    pub records: &'a [TrialRecord],
    pub facts: &'a RunFacts<'a>,
    pub findings: Findings,
}

impl<'a> Reported<'a> {
    /// The findings of `gate` over `records` in `run_dir`, read once, beside what they were
    /// read from.
    pub fn read(
        run_dir: &'a Path,
        gate: &'a Gate,
        records: &'a [TrialRecord],
        facts: &'a RunFacts<'a>,
    ) -> Reported<'a> {
        Reported {
            run_dir,
            gate,
            records,
            facts,
            findings: Findings::of(run_dir, gate, records, facts),
        }
    }
}

/// A case and variant of the grid, with its unit on each model (none where it did not run).
pub struct Row {
    pub case: String,
    pub variant: String,
    pub cells: Vec<Option<Cell>>,
}

/// A unit in the grid: passed of the trials it needs (`3/3`, or `0/1 (2 not run)`), its
/// status, and the interval of its pass rate.
pub struct Cell {
    pub tally: String,
    pub status: UnitStatus,
    pub interval: (f64, f64),
}

impl Cell {
    /// The tally with the mark of its status (`[pass, fail, inconclusive]`); `-` for no unit.
    pub fn marked(cell: Option<&Cell>, marks: [&str; 3]) -> String {
        cell.map_or("-".to_string(), |c| {
            let mark = match c.status {
                UnitStatus::Pass => marks[0],
                UnitStatus::Fail => marks[1],
                UnitStatus::Inconclusive => marks[2],
            };
            format!("{}{mark}", c.tally)
        })
    }
}

/// An undecided unit: how many of its trials passed, how many wait for a label, how many
/// errored or are missing.
pub struct Undecided {
    pub case: String,
    pub variant: String,
    pub model: String,
    pub passed: usize,
    pub unsure: usize,
    pub missing: usize,
}

/// One model's units: pass^k over them (k = 1 ..= the trials required) and the flaky ones.
pub struct Sureness {
    pub model: String,
    pub units: usize,
    /// pass^k averaged over the model's units, unrounded.
    pub pass_k: Vec<Option<f64>>,
    pub flaky: Vec<Flaky>,
}

/// A unit that passed some trials and failed others, with the criteria that differ.
pub struct Flaky {
    pub case: String,
    pub variant: String,
    pub model: String,
    pub passed: u32,
    pub decided: u32,
    pub criteria: Vec<String>,
}

/// Unsure trials one label decides: their names, the criterion that is unsure and why, and the
/// command that labels the first.
pub struct LabelGroup {
    pub names: String,
    pub one_reply: bool,
    pub why: String,
    pub command: String,
}

impl Findings {
    /// The findings of `gate` over `records` in `run_dir`, with the run's `facts`.
    pub fn of(run_dir: &Path, gate: &Gate, records: &[TrialRecord], facts: &RunFacts) -> Findings {
        let (word, sentence) = gate.verdict();
        let run = RunMeta::of(run_dir);
        let charter_line = match &run {
            Some(meta) => format!("{}\n\n{}", meta.line(), charter_line(gate.required, facts)),
            None => charter_line(gate.required, facts),
        };
        Findings {
            word,
            sentence,
            exit_code: gate.exit_code(),
            decided: gate.partial.is_none(),
            required: gate.required,
            counts: Counts {
                pass: gate.count(UnitStatus::Pass),
                fail: gate.count(UnitStatus::Fail),
                inconclusive: gate.count(UnitStatus::Inconclusive),
            },
            counts_line: gate.counts_line(),
            run,
            charter_line,
            rows: rows(gate),
            undecided: undecided(gate),
            models: sureness(gate),
            untestable: gate.untestable.clone(),
            registry: super::registry::table(gate, facts.suite, facts.system_prompt),
            stops: provider_stops(records),
            lift: (facts.lift.as_deref()).map(super::control_arm::lift_table),
            unsure: unsure_readings(gate, run_dir),
            labels: label_groups(records),
            needs_labels: (gate.needing_labels())
                .map(|u| format!("{} {}/{}", u.model, u.case, u.variant))
                .collect(),
        }
    }
}

/// The charter, its version and digest, and what every unit must pass; the sandbox warning
/// first when the run gave the sandbox up.
fn charter_line(required: u32, facts: &RunFacts) -> String {
    // A path of the machine that ran is noise in a report read elsewhere: its file name.
    let source = Path::new(facts.charter_source);
    let shown = if source.is_absolute() {
        source
            .file_name()
            .map_or(facts.charter_source.to_string(), |n| {
                n.to_string_lossy().into_owned()
            })
    } else {
        facts.charter_source.to_string()
    };
    let line = format!(
        "Charter `{}` version {} (runtime sha256 `{}`); every unit must pass {} of {} trials.",
        shown,
        facts.charter_version.unwrap_or("?"),
        facts.charter_sha256,
        required,
        required
    );
    match facts.sandbox_off {
        true => format!("**{NO_SANDBOX_WARNING}**\n\n{line}"),
        false => line,
    }
}

/// The grid: a row per case and variant, a cell per model.
fn rows(gate: &Gate) -> Vec<Row> {
    (gate.rows().into_iter())
        .map(|(case, variant)| {
            let cells = (gate.models.iter())
                .map(|m| {
                    let u = gate.unit(m, &case, &variant)?;
                    Some(Cell {
                        tally: u.tally(gate.required),
                        status: u.status(gate.required),
                        interval: crate::gate::stats::Rate::of(u).interval(),
                    })
                })
                .collect();
            Row {
                case,
                variant,
                cells,
            }
        })
        .collect()
}

/// The inconclusive units, each with what keeps it undecided: trials that need a label, or
/// trials that errored or are missing.
fn undecided(gate: &Gate) -> Vec<Undecided> {
    (gate.units_with(UnitStatus::Inconclusive))
        .map(|u| {
            let decided = (u.trials.iter())
                .filter(|t| t.status != TrialStatus::Inconclusive)
                .count();
            Undecided {
                case: u.case.clone(),
                variant: u.variant.clone(),
                model: u.model.clone(),
                passed: u.passed(),
                unsure: u.unsure().count(),
                missing: (gate.required as usize).saturating_sub(decided),
            }
        })
        .collect()
}

/// Model by model: pass^k averaged over its units, as τ²-bench reports it, and its flaky units
/// with the criteria that differ between their passing and failing trials.
fn sureness(gate: &Gate) -> Vec<Sureness> {
    use crate::gate::stats;
    (gate.models.iter())
        .map(|m| {
            let units: Vec<&crate::gate::Unit> =
                gate.units.iter().filter(|u| u.model == *m).collect();
            let flaky = (units.iter())
                .filter_map(|u| {
                    let criteria = stats::flaky_criteria(u)?;
                    let rate = stats::Rate::of(u);
                    Some(Flaky {
                        case: u.case.clone(),
                        variant: u.variant.clone(),
                        model: u.model.clone(),
                        passed: rate.passed,
                        decided: rate.trials,
                        criteria,
                    })
                })
                .collect();
            Sureness {
                model: m.clone(),
                units: units.len(),
                pass_k: stats::model_pass_ks(&units, gate.required),
                flaky,
            }
        })
        .collect()
}

/// What stopped trials in a way re-running as it is cannot fix, once each, with what to do: a
/// refused key, an account that cannot be served (no quota, no credit), and trials the
/// provider's content filter withheld (counted per model: the same prompt is filtered again).
pub fn provider_stops(records: &[TrialRecord]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut filtered: Vec<(String, usize)> = Vec::new();
    for r in records {
        let line = match r.provider_error.as_deref() {
            Some(ProviderError::Authentication { model, key_env, .. }) => (
                format!("authentication failed for model {model} (key from ${key_env})"),
                "fix the key, then re-run".to_string(),
            ),
            Some(ProviderError::AccountStopped {
                model,
                status,
                code,
                message,
                advice,
            }) => (
                format!("model {model} cannot be served (HTTP {status} {code}: {message})"),
                advice.clone(),
            ),
            Some(ProviderError::Filtered { .. }) => {
                match filtered.iter_mut().find(|(m, _)| **m == *r.model) {
                    Some((_, n)) => *n += 1,
                    None => filtered.push((r.model.to_string(), 1)),
                }
                continue;
            }
            _ => continue,
        };
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out.extend(filtered.into_iter().map(|(model, n)| {
        (
            format!("{n} trial{} of model {model} filtered by the provider (inconclusive)", if n == 1 { "" } else { "s" }),
            "the provider's content filter withheld the reply; it will recur for the same prompt (the charter's text or the case may trip it), so running again will not help".to_string(),
        )
    }));
    out
}

/// Every unsure criterion of every trial the undecided units wait a label for, its verdict
/// read back once.
fn unsure_readings(gate: &Gate, run_dir: &Path) -> Vec<super::unsure::UnsureReading> {
    let mut out = Vec::new();
    for u in gate.units_with(UnitStatus::Inconclusive) {
        for t in u.unsure() {
            let v = t.verdict.get();
            let transcript = super::unsure::transcript_path(&u.model, &u.case, &u.variant, t.trial);
            let settle = crate::store::labels::label_command(&run_dir.join(&transcript));
            for c in v.criteria.iter().filter(|c| c.unsure) {
                let (why, readings) = super::unsure::readings(&c.detail);
                out.push(super::unsure::UnsureReading {
                    case: u.case.clone(),
                    variant: u.variant.clone(),
                    model: u.model.clone(),
                    trial: t.trial,
                    criterion: c.name.clone(),
                    why,
                    readings,
                    transcript: transcript.clone(),
                    settle: settle.clone(),
                });
            }
        }
    }
    out
}

/// The unsure trials, one group a label: the trials one reply takes one label for, the
/// criterion that is unsure and why, and the command that decides them.
fn label_groups(records: &[TrialRecord]) -> Vec<LabelGroup> {
    use crate::store::labels;
    let unsure = (records.iter())
        .filter(|r| r.status == TrialStatus::Unsure)
        .map(|r| {
            let v = r.verdict.get();
            let key = r.transcript().ok().map(|t| labels::key_of(&t, &v));
            (key, (r, v))
        });
    (labels::by_label(unsure).into_iter())
        .map(|g| {
            let (first, v) = &g[0];
            let names = labels::trial_names(
                (g.iter()).map(|(r, _)| (&*r.model, &*r.case, &*r.variant, r.trial)),
            );
            let why = v.criteria.iter().find(|c| c.unsure);
            LabelGroup {
                names,
                one_reply: g.len() > 1,
                why: why.map_or(String::new(), |c| format!("{}: {}", c.name, c.detail)),
                command: labels::label_command(&first.path()),
            }
        })
        .collect()
}
