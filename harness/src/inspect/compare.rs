//! `harness compare`: two runs (two charters, two models, two dates) paired unit by unit and
//! model by model, with the changes between them as Markdown, JSON or an HTML page.

use crate::error::{Error, Result};
use crate::gate::change::{self, Arm, Change};
use crate::gate::stats::Rate;
use crate::gate::{Gate, Unit, UnitStatus};
use crate::store::record::RunRecord;
use crate::store::run_folder;
use crate::suite::Suite;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One side of a comparison: a run folder, optionally narrowed to one model (`DIR:MODEL`).
pub struct Side {
    pub dir: PathBuf,
    pub model: Option<String>,
    pub gate: Gate,
    pub run: RunRecord,
}

impl Side {
    pub fn load(spec: &str, suite: &Suite) -> Result<Side> {
        let (dir, model) = match spec.rsplit_once(':') {
            Some((d, m)) if Path::new(d).join("run.json").is_file() => {
                (PathBuf::from(d), Some(m.to_string()))
            }
            _ => (PathBuf::from(spec), None),
        };
        let run = run_folder::read_run(&dir)?;
        let mut records = run_folder::stored_records(&dir, suite)?;
        if let Some(m) = &model {
            records.retain(|r| *r.model == **m);
            if records.is_empty() {
                return Err(Error::input(format!(
                    "{}: no transcripts of model {m:?}",
                    dir.display()
                )));
            }
        }
        let trials = run.trials.unwrap_or(3);
        Ok(Side {
            dir,
            model,
            gate: Gate::from_records(&records, trials),
            run,
        })
    }

    fn label(&self) -> String {
        match &self.model {
            Some(m) => format!("{}:{m}", self.dir.display()),
            None => self.dir.display().to_string(),
        }
    }

    /// The side's models: the one named by `DIR:MODEL`, else every model of the run.
    fn models(&self) -> Vec<String> {
        match &self.model {
            Some(m) => vec![m.clone()],
            None => self.gate.models.clone(),
        }
    }

    /// A model's role as the run's manifest recorded it.
    fn role(&self, model: &str) -> Option<String> {
        self.run.role(model).map(str::to_string)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub case: String,
    pub variant: String,
    /// The model, or `A-model → B-model` when each side is one model.
    pub model: String,
    pub a: Option<UnitStatus>,
    pub b: Option<UnitStatus>,
    pub a_failed: Vec<String>,
    pub b_failed: Vec<String>,
    /// Passed of decided trials on each side.
    pub a_rate: Option<Rate>,
    pub b_rate: Option<Rate>,
    /// Fisher's exact test (two-sided) on the two sides' passes and fails, when the status differs.
    pub p_value: Option<f64>,
    /// Labelled without a statistical test: the model is scripted on both sides, and the unit
    /// went from every trial passing to every trial failing (or back).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// Where the status differs: `regression` (passes in A, fails in B, and the pass rates
    /// differ at p < 0.05), `improvement`, or `within-noise`; else `same`, `only-in-a`,
    /// `only-in-b`, `undecided`.
    pub change: &'static str,
}

/// Which model of A is compared with which model of B.
#[derive(Debug, Default)]
pub struct Pairing {
    /// (A's model, B's model), A's order.
    pub pairs: Vec<(String, String)>,
    /// Pairs made by role because no name matched, as "frontier: x → y".
    pub by_role: Vec<String>,
}

/// Models pair by name; a model left over pairs with the one model of B left over in the same
/// role (two runs whose matrices named their models differently); two `DIR:MODEL` sides pair
/// with each other.
pub fn pairing(a: &Side, b: &Side) -> Pairing {
    let (ma, mb) = (a.models(), b.models());
    if a.model.is_some() && b.model.is_some() {
        return Pairing {
            pairs: vec![(ma[0].clone(), mb[0].clone())],
            by_role: Vec::new(),
        };
    }
    let mut p = Pairing::default();
    for m in ma.iter().filter(|m| mb.contains(m)) {
        p.pairs.push((m.clone(), m.clone()));
    }
    let left = |ms: &[String], paired: &dyn Fn(&String) -> bool| -> Vec<String> {
        ms.iter().filter(|m| !paired(m)).cloned().collect()
    };
    let left_a = left(&ma, &|m| p.pairs.iter().any(|(x, _)| x == m));
    let left_b = left(&mb, &|m| p.pairs.iter().any(|(_, y)| y == m));
    for x in &left_a {
        let Some(role) = a.role(x) else { continue };
        let same_a = left_a
            .iter()
            .filter(|m| a.role(m).as_deref() == Some(&*role))
            .count();
        let same_b: Vec<&String> = left_b
            .iter()
            .filter(|m| b.role(m).as_deref() == Some(&*role))
            .collect();
        if same_a == 1 && same_b.len() == 1 {
            p.pairs.push((x.clone(), same_b[0].clone()));
            p.by_role.push(format!("{role}: {x} → {}", same_b[0]));
        }
    }
    let order = |m: &String| ma.iter().position(|x| x == m);
    p.pairs.sort_by_key(|(x, _)| order(x));
    p
}

/// `E10` after `E9`: runs of digits compare as numbers.
pub fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.push(c);
        }
    }
    out.push((text, digits.parse().unwrap_or(0)));
    out
}

/// Unit by unit, B against A: regressions first, then improvements, then the rest; within
/// each, cases in natural order (E1, E2, …, E10).
pub fn compare(a: &Side, b: &Side) -> Vec<Row> {
    let pairing = pairing(a, b);
    // (A's model, B's model), with "" for a model on one side only.
    let mut pairs: Vec<(String, String)> = pairing.pairs.clone();
    for m in a.models() {
        if !pairs.iter().any(|(x, _)| *x == m) {
            pairs.push((m, String::new()));
        }
    }
    for m in b.models() {
        if !pairs.iter().any(|(_, y)| *y == m) {
            pairs.push((String::new(), m));
        }
    }
    let mut rows: Vec<(usize, Row)> = Vec::new();
    for (pi, (ma, mb)) in pairs.iter().enumerate() {
        let mut keys: Vec<(String, String)> = Vec::new();
        for (side, m) in [(a, ma), (b, mb)] {
            for u in side.gate.units.iter().filter(|u| u.model == *m) {
                let k = (u.case.clone(), u.variant.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        for (case, variant) in keys {
            rows.push((pi, row(a, b, (ma, mb), case, variant)));
        }
    }
    let rank = |c: &str| match c {
        "regression" => 0,
        "improvement" => 1,
        "within-noise" => 2,
        "undecided" => 3,
        // The units compared (a status on both sides) before those on one side only.
        "only-in-a" | "only-in-b" => 5,
        _ => 4,
    };
    rows.sort_by_cached_key(|(pi, r)| {
        (
            rank(r.change),
            natural_key(&r.case),
            natural_key(&r.variant),
            *pi,
        )
    });
    rows.into_iter().map(|(_, r)| r).collect()
}

/// One unit of a model pair (A's model, B's model; "" for a model on one side only).
fn row(a: &Side, b: &Side, (ma, mb): (&str, &str), case: String, variant: String) -> Row {
    let (ua, ub) = (
        a.gate.unit(ma, &case, &variant),
        b.gate.unit(mb, &case, &variant),
    );
    let sa = ua.map(|u| u.status(a.gate.required));
    let sb = ub.map(|u| u.status(b.gate.required));
    let (a_rate, b_rate) = (ua.map(Rate::of), ub.map(Rate::of));
    // The one comparison `gate --charter-base` makes too: exact when the model is scripted on
    // both sides (its trials repeat), Fisher's exact test otherwise.
    let scripted = |side: &Side, m: &str| {
        crate::regate::base::scripted_models(&side.run)
            .iter()
            .any(|x| x == m)
    };
    let arm = |u: Option<&Unit>, req| u.map(|u| Arm::of(u, req));
    let decided = match (arm(ua, a.gate.required), arm(ub, b.gate.required)) {
        (base, Some(head)) => Some(change::decide(
            base,
            head,
            // One model on both sides: two scripts may differ, but each repeats itself.
            ma == mb && scripted(a, ma) && scripted(b, mb),
            crate::gate::stats::ALPHA,
        )),
        _ => None,
    };
    let (p_value, exact) = decided.map_or((None, false), |d| (d.p_value, d.exact));
    let change = match (sa, sb, decided.map(|d| d.change)) {
        (_, _, Some(Change::Regression)) => "regression",
        (_, _, Some(Change::Improvement)) => "improvement",
        (_, _, Some(Change::WithinNoise)) => "within-noise",
        (Some(x), Some(y), _) if x == y => "same",
        (Some(_), None, _) => "only-in-a",
        (None, Some(_), _) => "only-in-b",
        _ => "undecided",
    };
    let model = match (ma, mb) {
        (x, "") | ("", x) => x.to_string(),
        (x, y) if x == y => x.to_string(),
        (x, y) => format!("{x} → {y}"),
    };
    Row {
        case,
        variant,
        model,
        a: sa,
        b: sb,
        a_failed: ua.map(Unit::failed_criteria).unwrap_or_default(),
        b_failed: ub.map(Unit::failed_criteria).unwrap_or_default(),
        a_rate,
        b_rate,
        p_value,
        exact,
        change,
    }
}

/// A side's models, for messages.
pub fn models_of(side: &Side) -> Vec<String> {
    side.models()
}

/// Whether no unit has a status on both sides: the two runs share nothing to compare.
pub fn nothing_pairs(rows: &[Row]) -> bool {
    rows.iter().all(|r| r.a.is_none() || r.b.is_none())
}

/// What differs between the two runs besides their units.
pub fn differences(a: &Side, b: &Side) -> Vec<String> {
    let mut out = Vec::new();
    let facts = |s: &Side| {
        let r = &s.run;
        [
            Some(r.charter.sha256.clone()).filter(|v| !v.is_empty()),
            r.charter.version.clone(),
            Some(r.harness_version.clone()).filter(|v| !v.is_empty()),
            r.started.clone(),
        ]
        .map(|v| v.unwrap_or_else(|| "?".to_string()))
    };
    let what = [
        "charter runtime sha256",
        "charter version",
        "harness version",
        "started",
    ];
    for (what, (x, y)) in what.iter().zip(facts(a).into_iter().zip(facts(b))) {
        if x != y {
            out.push(format!("{what}: {x} → {y}"));
        }
    }
    let models = |s: &Side| -> String {
        match &s.model {
            Some(m) => m.clone(),
            None => s.gate.models.join(", "),
        }
    };
    if models(a) != models(b) {
        out.push(format!("models: {} → {}", models(a), models(b)));
    }
    out
}

fn status(s: Option<UnitStatus>) -> &'static str {
    match s {
        Some(UnitStatus::Pass) => "pass",
        Some(UnitStatus::Fail) => "FAIL",
        Some(UnitStatus::Inconclusive) => "inconclusive",
        None => "—",
    }
}

pub fn markdown(a: &Side, b: &Side, rows: &[Row]) -> String {
    let mut out = format!("# Compare\n\nA: `{}`\nB: `{}`\n\n", a.label(), b.label());
    let mut diffs = differences(a, b);
    for p in pairing(a, b).by_role {
        diffs.push(format!("paired by role (the model names differ): {p}"));
    }
    if diffs.is_empty() {
        out.push_str("Same charter, models and harness.\n\n");
    } else {
        for d in diffs {
            let _ = writeln!(out, "- {d}");
        }
        out.push('\n');
    }
    let count = |c: &str| rows.iter().filter(|r| r.change == c).count();
    let _ = writeln!(
        out,
        "{} regression(s), {} improvement(s), {} within noise, {} unchanged, {} undecided or on one side only\n",
        count("regression"),
        count("improvement"),
        count("within-noise"),
        count("same"),
        count("undecided") + count("only-in-a") + count("only-in-b")
    );
    for (side, label, models) in pass_k(a, b) {
        let _ = writeln!(
            out,
            "pass^k on {side} ({label}): {}\n",
            models
                .iter()
                .map(|(m, ks)| format!(
                    "{m} {}",
                    ks.iter()
                        .map(|p| p.map_or("-".into(), |p| format!("{p:.2}")))
                        .collect::<Vec<_>>()
                        .join(" / ")
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    unit_rows(&mut out, rows);
    out
}

/// The table of units: each side's status, pass rate and failed criteria, and the change.
fn unit_rows(out: &mut String, rows: &[Row]) {
    out.push_str("| unit | model | A | B | change |\n|---|---|---|---|---|\n");
    for r in rows {
        let cell = |s: Option<UnitStatus>, r: Option<Rate>, f: &[String]| {
            let rate = r.map_or(String::new(), |r| format!(" {}", r.cell()));
            if f.is_empty() {
                format!("{}{rate}", status(s))
            } else {
                format!("{}{rate} ({})", status(s), f.join(", "))
            }
        };
        let _ = writeln!(
            out,
            "| {}/{} | {} | {} | {} | {} |",
            r.case,
            r.variant,
            r.model,
            cell(r.a, r.a_rate, &r.a_failed),
            cell(r.b, r.b_rate, &r.b_failed),
            change_text(r)
        );
    }
}

/// pass^1 … pass^n per model of each side (τ²-bench's estimate averaged over the model's
/// units), n the side's trials: ("A" or "B", the side, [(model, [pass^k])]).
pub type PassK = (&'static str, String, Vec<(String, Vec<Option<f64>>)>);

pub fn pass_k(a: &Side, b: &Side) -> Vec<PassK> {
    [("A", a), ("B", b)]
        .into_iter()
        .map(|(name, side)| {
            let models = side
                .gate
                .models
                .iter()
                .filter(|m| side.model.as_ref().is_none_or(|x| x == *m))
                .map(|m| {
                    let units: Vec<&Unit> =
                        side.gate.units.iter().filter(|u| u.model == *m).collect();
                    let ks = crate::gate::stats::model_pass_ks(&units, side.gate.required)
                        .into_iter()
                        .map(|p| p.map(crate::gate::stats::round4))
                        .collect();
                    (m.clone(), ks)
                })
                .collect();
            (name, side.label(), models)
        })
        .collect()
}

/// The change column: significant changes bold, every label of a differing status with its
/// p-value.
fn change_text(r: &Row) -> String {
    let p = match (r.exact, r.p_value) {
        (true, _) => " (exact: a scripted model repeats its trials)".to_string(),
        (false, Some(p)) => format!(" (p = {})", crate::gate::stats::p_text(p)),
        (false, None) => String::new(),
    };
    match r.change {
        "regression" | "improvement" => format!("**{}**{p}", r.change),
        "within-noise" => format!("within noise{p}"),
        other => other.to_string(),
    }
}

/// The page's own style after report.html's (which the trials shown are drawn with): the rows
/// coloured by change.
const HTML_STYLE: &str = "body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}.bad{background:#fdd}.good{background:#dfd}";

/// The comparison as a self-contained page, written like report.html (`report::markup`):
/// the table, then for every regression and improvement the side's failing trial.
pub fn html(a: &Side, b: &Side, rows: &[Row]) -> String {
    let mut h = crate::report::markup::Html::new();
    let style = format!("{}{HTML_STYLE}", crate::report::html::STYLE);
    h.page_start("Compare", &style, None)
        .leaf("h1", &[], "Compare")
        .el("p", &[], |h| {
            h.text(&format!("A: {}", a.label()))
                .raw("<br>")
                .text(&format!("B: {}", b.label()));
        })
        .el("ul", &[], |h| {
            for d in differences(a, b) {
                h.leaf("li", &[], &d);
            }
        })
        .nl();
    h.raw("<table><tr><th>unit</th><th>model</th><th>A</th><th>B</th><th>change</th></tr>\n");
    for r in rows {
        let class = match r.change {
            "regression" => "bad",
            "improvement" => "good",
            _ => "",
        };
        let side = |s: Option<UnitStatus>, rate: Option<Rate>, failed: &[String]| {
            let rate = rate.map_or(String::new(), Rate::cell);
            format!("{} {rate} {}", status(s), failed.join(", "))
        };
        h.el("tr", &[("class", class)], |h| {
            h.leaf("td", &[], &format!("{}/{}", r.case, r.variant))
                .leaf("td", &[], &r.model)
                .leaf("td", &[], &side(r.a, r.a_rate, &r.a_failed))
                .leaf("td", &[], &side(r.b, r.b_rate, &r.b_failed))
                .leaf("td", &[], &change_text(r).replace("**", ""));
        })
        .nl();
    }
    h.raw("</table>\n");
    for r in rows {
        failing_trial(&mut h, a, b, r);
    }
    h.page_end();
    h.take()
}

/// Where a unit changed, the first failing trial of the side it fails on (B for a regression,
/// A for an improvement), as report.html shows it.
fn failing_trial(h: &mut crate::report::markup::Html, a: &Side, b: &Side, r: &Row) {
    // `model` is one name, or `A's → B's` when the sides' models differ.
    let (ma, mb) = r.model.split_once(" → ").unwrap_or((&r.model, &r.model));
    let (name, side, model) = match r.change {
        "regression" => ("B", b, mb),
        "improvement" => ("A", a, ma),
        _ => return,
    };
    let Some(unit) = side.gate.unit(model, &r.case, &r.variant) else {
        return;
    };
    let Some(t) = unit
        .trials
        .iter()
        .find(|t| t.status == crate::store::trial::TrialStatus::Fail)
    else {
        return;
    };
    let path = crate::store::transcript_path(&side.dir, model, &r.case, &r.variant, t.trial);
    let heading = format!(
        "{}/{} on {model}: {} — fails in {name}",
        r.case, r.variant, r.change
    );
    let label = format!("{name}: trial {}", t.trial);
    let shown = crate::report::html::Shown {
        label: &label,
        status: t.status,
        path: &path,
        run_dir: &side.dir,
    };
    h.el("section", &[("class", "unit")], |h| {
        h.leaf("h2", &[], &heading).nl();
        crate::report::html::stored_trial(h, &shown, &t.verdict.get());
    })
    .nl();
}

/// What `harness compare` compares, and how it prints.
pub struct CompareOptions {
    /// The first run folder (or `DIR:MODEL`).
    pub a: String,
    /// The second (or `DIR:MODEL`); changes read from A to B.
    pub b: String,
    /// JSON instead of Markdown.
    pub json: bool,
    /// Also write the comparison as a self-contained HTML page here.
    pub html: Option<PathBuf>,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
}

/// `harness compare`: print the comparison (and write the page); 1 when B significantly
/// regresses a unit, an input error when nothing pairs.
pub fn run(opts: &CompareOptions) -> Result<u8> {
    let suite = Suite::load(&crate::suite::locate(opts.suite.as_deref())?)?;
    let a = Side::load(&opts.a, &suite)?;
    let b = Side::load(&opts.b, &suite)?;
    let rows = compare(&a, &b);
    if nothing_pairs(&rows) {
        return Err(Error::input(crate::output::printable(&format!(
            "{} and {}: nothing to compare — no unit has a result on both sides (models {} against {}, paired by neither name nor role); compare DIR:MODEL with DIR:MODEL to pair two models by hand",
            opts.a,
            opts.b,
            models_of(&a).join(", "),
            models_of(&b).join(", "),
        ))));
    }
    if let Some(f) = &opts.html {
        crate::files::write_atomic(f, html(&a, &b, &rows).as_bytes())?;
    }
    if opts.json {
        let v = serde_json::json!({
            "a": opts.a, "b": opts.b,
            "differences": differences(&a, &b),
            "paired_by_role": pairing(&a, &b).by_role,
            "pass_k": pass_k(&a, &b)
                .into_iter()
                .map(|(side, _, models)| (side.to_lowercase(), models))
                .collect::<std::collections::BTreeMap<_, _>>(),
            "units": rows,
        });
        crate::output::json::out_doc(crate::output::json::COMPARE, &v);
    } else {
        out!("{}", markdown(&a, &b, &rows));
    }
    Ok(if rows.iter().any(|r| r.change == "regression") {
        crate::exit::GATE_FAILED
    } else {
        crate::exit::OK
    })
}
