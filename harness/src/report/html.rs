//! `report.html`: one self-contained page — the case × model matrix coloured by outcome, then
//! every trial readable (seeded turns, tool calls with their results, the final reply, the
//! workspace diff) with the failed criteria and their evidence highlighted. One inline script,
//! the page's own (filter, expand/collapse); nothing loaded from elsewhere. Written through
//! [`super::markup`].

use super::markup::Html;
use super::trial::TrialView;
use crate::gate::{Gate, Unit, UnitStatus};
use crate::store::trial::TrialRecord;
use crate::store::trial::TrialStatus;
use checkers::transcript::Role;
use std::path::Path;

/// The page's style; the trial view's rules are what `compare --html` shows trials with.
pub const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:1.2rem 2rem;color:#1d1d1f}h1{font-size:1.4rem;margin:.2rem 0}\
header{background:#fff;padding:.3rem 0;border-bottom:1px solid #ddd;z-index:2}@media(min-width:800px){header{position:sticky;top:0}}#counts{overflow-wrap:anywhere}\
.bar{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}.bar input{padding:.25rem .5rem;min-width:16rem}\
table.matrix{border-collapse:collapse;margin:.6rem 0}table.matrix td,table.matrix th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}\
table.matrix th.case{font-weight:400}td.pass{background:#d6f5d6}td.fail{background:#f8d0d0}td.inconclusive{background:#fbeec1}\
td.fail a{font-weight:600}td small{display:block;color:#6b0000}td small.flaky{color:#8a6100}.ci{color:#555;font-size:.85em}\
.verdict-pass{color:#176b17}.verdict-fail{color:#a31515}.verdict-inconclusive,.verdict-partial{color:#8a6100}\
details{margin:.3rem 0 .3rem 1rem}summary{cursor:pointer}pre{background:#f6f6f6;padding:.5rem;white-space:pre;overflow:auto;margin:.2rem 0}\
li.failed-criterion{background:#fde2e2}li.failed-criterion mark{background:#ffb3b3}li.passed-criterion{color:#555}\
.msg{border-left:3px solid #ddd;padding-left:.6rem;margin:.4rem 0}.msg.assistant{border-color:#6b8afd}.msg.tool{border-color:#aaa}.msg.user{border-color:#3aa655}\
ol.timeline{margin:.3rem 0 .3rem 1rem;padding-left:1.2rem}ol.timeline li{margin:.15rem 0}code{background:#f1f1f1;padding:0 .2rem}\
.md{border:1px solid #e3e3e3;padding:.2rem .8rem;border-radius:4px}.md pre{white-space:pre}\
.add{color:#176b17}.del{color:#a31515}.note{color:#666}";

/// Filter and expand-all: the page's only script, inline (the file needs no network).
const SCRIPT: &str = "function filt(q){q=q.toLowerCase();document.querySelectorAll('section.unit').forEach(function(s){s.style.display=s.dataset.key.indexOf(q)>=0?'':'none'})}\
function expand(o){document.querySelectorAll('details').forEach(function(d){d.open=o})}";

fn status_class(s: UnitStatus) -> &'static str {
    match s {
        UnitStatus::Pass => "pass",
        UnitStatus::Fail => "fail",
        UnitStatus::Inconclusive => "inconclusive",
    }
}

fn anchor(model: &str, case: &str, variant: &str) -> String {
    format!(
        "unit-{case}-{variant}-{}",
        model.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

/// The filter and the expand/collapse buttons under the title: constant markup.
const BAR: &str = "<div class=\"bar\"><input id=\"filter\" type=\"search\" placeholder=\"filter: case, model, status (e.g. E8, weakest, fail)\" oninput=\"filt(this.value)\">\
<button onclick=\"expand(true)\">expand all</button><button onclick=\"expand(false)\">collapse all</button></div>";

/// The facts of the page besides the gate and its trials.
pub struct Page<'a> {
    pub title: &'a str,
    pub charter_line: &'a str,
    pub system_prompt: &'a str,
    pub case_title: &'a dyn Fn(&str) -> String,
    pub run_dir: &'a Path,
    /// `gate --charter-base`: the comparison the page leads with.
    pub comparison: Option<&'a super::comparison::View<'a>>,
}

/// The page, streamed to `out` a trial at a time: a run whose trials all differ writes a long
/// page, but holds one trial's text in memory at a time.
pub fn write(
    gate: &Gate,
    records: &[TrialRecord],
    page: &Page,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut h = Html::new();
    h.page_start(page.title, STYLE, Some(SCRIPT));
    header(&mut h, gate, page);
    if let Some(c) = page.comparison {
        super::comparison::html(&mut h, c, page.case_title);
    }
    matrix(&mut h, gate, page);
    pass_k_table(&mut h, gate);
    h.raw("<details><summary>System prompt (the charter's runtime sections), sent in every trial</summary>")
        .el("pre", &[], |h| {
            h.folded(page.system_prompt);
        })
        .close("details")
        .nl();
    // Failing units first, then undecided, then passing.
    let mut units: Vec<&Unit> = gate.units.iter().collect();
    units.sort_by_key(|u| match u.status(gate.required) {
        UnitStatus::Fail => 0,
        UnitStatus::Inconclusive => 1,
        UnitStatus::Pass => 2,
    });
    let by_unit = crate::gate::records_by_unit(records);
    for u in units {
        let trials: &[&TrialRecord] = by_unit
            .get(&(&*u.model, &*u.case, &*u.variant))
            .map_or(&[], Vec::as_slice);
        unit(&mut h, gate, u, trials, page, out)?;
    }
    h.page_end();
    out.write_all(h.take().as_bytes())
}

fn header(h: &mut Html, gate: &Gate, page: &Page) {
    let (word, sentence) = gate.verdict();
    h.el("header", &[], |h| {
        h.el("h1", &[], |h| {
            h.text(page.title).text(": ").leaf(
                "span",
                &[
                    ("id", "gate-verdict"),
                    ("class", &format!("verdict-{word}")),
                ],
                &sentence,
            );
        })
        .leaf(
            "p",
            &[("id", "counts")],
            &format!("{}. {}", gate.counts_line(), page.charter_line),
        )
        .raw(BAR);
    })
    .nl();
}

/// The matrix: a failing cell names what failed and links to its unit.
fn matrix(h: &mut Html, gate: &Gate, page: &Page) {
    h.raw("<table class=\"matrix\" id=\"matrix\"><thead><tr><th>unit</th>");
    for m in &gate.models {
        h.leaf("th", &[], m);
    }
    h.raw("</tr></thead><tbody>\n");
    for (c, v) in &gate.rows() {
        h.open("tr", &[]).el("th", &[("class", "case")], |h| {
            h.leaf("strong", &[], &format!("{c}/{v}"))
                .text(" ")
                .text(&(page.case_title)(c));
        });
        for m in &gate.models {
            match gate.unit(m, c, v) {
                Some(u) => matrix_cell(h, u, gate.required),
                None => {
                    h.leaf("td", &[], "-");
                }
            }
        }
        h.close("tr").nl();
    }
    h.raw("</tbody></table>\n");
}

fn matrix_cell(h: &mut Html, u: &Unit, required: u32) {
    let s = status_class(u.status(required));
    let crit = u.failed_criteria();
    let rate = crate::gate::stats::Rate::of(u);
    let (lo, hi) = rate.interval();
    let attrs = [("class", s), ("data-criteria", &*crit.join(","))];
    h.el("td", &attrs, |h| {
        let href = format!("#{}", anchor(&u.model, &u.case, &u.variant));
        let title = format!(
            "95% Clopper–Pearson interval of the pass rate, {} of {} decided trials",
            rate.passed, rate.trials
        );
        let interval = format!(
            "[{}–{}]",
            crate::gate::stats::short(lo),
            crate::gate::stats::short(hi)
        );
        h.leaf(
            "a",
            &[("href", &href)],
            &format!("{} {s}", u.tally(required)),
        )
        .text(" ")
        .leaf("span", &[("class", "ci"), ("title", &title)], &interval);
        if !crit.is_empty() {
            h.leaf("small", &[], &crit.join(", "));
        }
        match crate::gate::stats::flaky_criteria(u) {
            Some(c) if !c.is_empty() => {
                let text = format!("flaky: {}", c.join(", "));
                h.leaf("small", &[("class", "flaky")], &text);
            }
            Some(_) => {
                h.leaf("small", &[("class", "flaky")], "flaky");
            }
            None => {}
        }
    });
}

/// pass^k per model (τ²-bench's estimate averaged over the model's units) under the matrix.
fn pass_k_table(h: &mut Html, gate: &Gate) {
    h.raw("<p class=\"note\">In brackets: the 95% Clopper–Pearson interval of the true pass rate; 3 of 3 is consistent with a rate as low as 0.29. pass^k: the chance that k trials of a unit all pass, averaged over the model's units.</p><table class=\"matrix\" id=\"pass-k\"><thead><tr><th>model</th>");
    for k in 1..=gate.required {
        h.leaf("th", &[], &format!("pass^{k}"));
    }
    h.raw("<th>flaky units</th></tr></thead><tbody>");
    for m in &gate.models {
        let units: Vec<&Unit> = gate.units.iter().filter(|u| u.model == *m).collect();
        h.open("tr", &[]).leaf("th", &[], m);
        for p in crate::gate::stats::model_pass_ks(&units, gate.required) {
            h.leaf("td", &[], &p.map_or("-".into(), |p| format!("{p:.2}")));
        }
        let flaky = units
            .iter()
            .filter(|u| crate::gate::stats::flaky_criteria(u).is_some())
            .count();
        h.leaf("td", &[], &flaky.to_string()).close("tr");
    }
    h.raw("</tbody></table>\n");
}

/// A unit's section: its trials, each written out as soon as it is made; a run of trials with
/// the same reply and failures shown once.
fn unit(
    h: &mut Html,
    gate: &Gate,
    u: &Unit,
    trials: &[&TrialRecord],
    page: &Page,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let s = status_class(u.status(gate.required));
    let title = (page.case_title)(&u.case);
    let key = format!("{} {} {} {s} {title}", u.case, u.variant, u.model).to_lowercase();
    let attrs = [
        ("class", &*format!("unit {s}")),
        ("id", &anchor(&u.model, &u.case, &u.variant)),
        ("data-key", &key),
    ];
    h.open("section", &attrs)
        .el("h2", &[], |h| {
            let verdict = format!("{} {s}", u.tally(gate.required));
            h.text(&format!(
                "{}/{} {title} on {} — ",
                u.case, u.variant, u.model
            ))
            .leaf("span", &[("class", &format!("verdict-{s}"))], &verdict);
        })
        .nl();
    let mut i = 0;
    while i < trials.len() {
        let same = |r: &TrialRecord| (r.reply_digest, r.failed.clone());
        let mut j = i + 1;
        while j < trials.len() && same(trials[j]) == same(trials[i]) {
            j += 1;
        }
        let label = if j > i + 1 {
            format!(
                "trials {}–{}: same reply",
                trials[i].trial,
                trials[j - 1].trial
            )
        } else {
            format!("trial {}", trials[i].trial)
        };
        trial(h, trials[i], &label, page.run_dir);
        out.write_all(h.take().as_bytes())?;
        i = j;
    }
    h.close("section").nl();
    Ok(())
}

/// One trial of the run. Only the trials shown are read back: their transcript file and
/// their verdict.
fn trial(h: &mut Html, r: &TrialRecord, label: &str, run_dir: &Path) {
    let path = r.path();
    let shown = Shown {
        label,
        status: r.status,
        path: &path,
        run_dir,
    };
    stored_trial(h, &shown, &r.verdict.get());
}

/// How a stored trial is introduced: its label, status and transcript file.
pub struct Shown<'a> {
    pub label: &'a str,
    pub status: TrialStatus,
    pub path: &'a Path,
    /// The file is named relative to this folder.
    pub run_dir: &'a Path,
}

/// A trial read back from its transcript file and rendered with its verdict, folded open
/// unless it passed; a file that cannot be read is said so in its place.
pub fn stored_trial(h: &mut Html, shown: &Shown, verdict: &checkers::Verdict) {
    let t = match crate::store::read_transcript(shown.path) {
        Ok(t) => t,
        Err(e) => {
            let attrs = [("class", "verdict-inconclusive")];
            h.leaf("p", &attrs, &e.to_string()).nl();
            return;
        }
    };
    let view = TrialView::new(&t, verdict);
    let class = match shown.status {
        TrialStatus::Pass => "pass",
        TrialStatus::Fail => "fail",
        TrialStatus::Inconclusive => "inconclusive",
        TrialStatus::Unsure => "unsure",
    };
    let path = shown.path;
    let file = path
        .strip_prefix(shown.run_dir)
        .unwrap_or(path)
        .display()
        .to_string();
    h.details(
        &[("class", "transcript")],
        shown.status != TrialStatus::Pass,
    )
    .el("summary", &[], |h| {
        h.text(shown.label)
            .text(" — ")
            .leaf("span", &[("class", &format!("verdict-{class}"))], class)
            .text(&format!(" (checker {}) ", verdict.checker_version))
            .leaf("span", &[("class", "note")], &file);
    })
    .nl();
    trial_view(h, &view);
    h.close("details").nl();
}

/// An unsure criterion: its own mark (`?`, not a fail's ✗), why, and the readings that
/// disagree, one line each.
fn unsure_criterion(h: &mut Html, c: &checkers::Criterion) {
    let (why, readings) = crate::report::unsure::readings(&c.detail);
    h.el("li", &[("class", "unsure-criterion")], |h| {
        h.text("? ")
            .leaf("strong", &[], &c.name)
            .text(&format!(" — unsure: {why}"));
        if !readings.is_empty() {
            h.el("ul", &[("class", "readings")], |h| {
                for (i, r) in readings.iter().enumerate() {
                    h.leaf("li", &[], &format!("reading {}: {r}", i + 1));
                }
            });
        }
    });
}

/// The spans a decided criterion rests on, after it: "read: …".
fn evidence(h: &mut Html, spans: &[String]) {
    if spans.is_empty() {
        return;
    }
    let read: Vec<String> = spans
        .iter()
        .map(|e| format!("\u{201c}{e}\u{201d}"))
        .collect();
    h.leaf(
        "span",
        &[("class", "evidence")],
        &format!(" read: {}", read.join(" · ")),
    );
}

/// The criteria (failed first, their evidence marked), the seeded turns, the tool calls, the
/// final reply and the workspace diff.
fn trial_view(h: &mut Html, view: &TrialView) {
    h.el("ul", &[("class", "criteria")], |h| {
        for c in view.failed() {
            if c.unsure {
                unsure_criterion(h, c);
                continue;
            }
            h.el("li", &[("class", "failed-criterion")], |h| {
                h.text("✗ ").leaf("strong", &[], &c.name).text(" — ");
                h.leaf("mark", &[], &c.detail);
                evidence(h, &c.evidence);
            });
        }
        for c in view.passed() {
            let text = format!("✓ {} — {}", c.name, c.detail);
            h.el("li", &[("class", "passed-criterion")], |h| {
                h.text(&text);
                evidence(h, &c.evidence);
            });
        }
    })
    .nl();
    if let Some(e) = &view.transcript.error {
        let attrs = [("class", "verdict-inconclusive")];
        h.leaf("p", &attrs, &format!("error: {e}")).nl();
    }
    if let Some(r) = &view.refusal {
        let attrs = [("class", "verdict-fail")];
        h.leaf("p", &attrs, &format!("the provider reports a refusal: {r}"))
            .nl();
    }
    let seeded = format!("seeded turns ({})", view.seeded.len().saturating_sub(1));
    h.raw("<details>").leaf("summary", &[], &seeded).nl();
    for m in view.seeded.iter().filter(|m| m.role != Role::System) {
        message(h, m);
    }
    h.close("details").nl();
    calls(h, view);
    if !view.reply.trim().is_empty() {
        h.leaf("h4", &[], "final reply");
        reasoning(h, view);
        h.el("div", &[("class", "md")], |h| {
            h.markdown(&view.reply);
        })
        .fold("raw text", |h| {
            h.el("pre", &[], |h| {
                h.folded(&view.reply);
            });
        })
        .nl();
    }
    workspace(h, view);
}

/// The final reply's reasoning, folded shut above it and marked as what it is: the model's
/// scratch work, which no criterion reads.
fn reasoning(h: &mut Html, view: &TrialView) {
    if view.reasoning.is_empty() {
        return;
    }
    let summary = format!(
        "reasoning ({} characters; scratch work, no criterion reads it)",
        view.reasoning.chars().count()
    );
    h.details(&[("class", "reasoning")], false)
        .leaf("summary", &[], &summary)
        .el("pre", &[], |h| {
            h.folded(&view.reasoning);
        })
        .close("details")
        .nl();
}

/// Tool calls as a timeline: name and key argument, the arguments and the result folded.
fn calls(h: &mut Html, view: &TrialView) {
    if view.calls.is_empty() {
        return;
    }
    h.leaf("h4", &[], "tool calls");
    h.el("ol", &[("class", "timeline")], |h| {
        for c in &view.calls {
            let args = serde_json::to_string_pretty(&c.call.arguments).unwrap_or_default();
            h.el("li", &[], |h| {
                h.leaf("code", &[], &c.describe())
                    .fold("arguments", |h| {
                        h.el("pre", &[], |h| {
                            h.folded(&args);
                        });
                    })
                    .fold("result", |h| {
                        h.el("pre", &[], |h| {
                            h.folded(c.result.unwrap_or("(no result)"));
                        });
                    });
            });
        }
    })
    .nl();
}

/// Each changed file's diff, lines added and removed marked, cut at the fold.
fn workspace(h: &mut Html, view: &TrialView) {
    let Some(changed) = view.changes() else {
        return;
    };
    let summary = format!("workspace: {} file(s) changed", changed.len());
    h.raw("<details>").leaf("summary", &[], &summary).nl();
    for ch in changed {
        h.open("pre", &[("class", "diff")])
            .leaf("strong", &[], &ch.path)
            .nl();
        let text = super::trial::diff(ch, 2, false);
        let shown =
            &text[..super::markup::floor_boundary(&text, super::markup::FOLD.min(text.len()))];
        for line in shown.lines() {
            let cls = if line.starts_with('+') {
                "add"
            } else if line.starts_with('-') {
                "del"
            } else {
                ""
            };
            h.leaf("span", &[("class", cls)], line).nl();
        }
        h.close("pre").nl();
    }
    h.close("details").nl();
}

fn message(h: &mut Html, m: &checkers::Message) {
    let role = format!("{:?}", m.role).to_lowercase();
    h.open("div", &[("class", &format!("msg {role}"))])
        .leaf("em", &[], &role);
    if m.role == Role::Tool {
        h.text(" ")
            .leaf("code", &[], m.name.as_deref().unwrap_or(""));
    }
    if !m.content.is_empty() {
        h.el("pre", &[], |h| {
            h.folded(&m.content);
        });
    }
    for c in &m.tool_calls {
        let args = serde_json::to_string_pretty(&c.arguments).unwrap_or_default();
        h.el("pre", &[("class", "tool-call")], |h| {
            h.text(&format!("→ {}(", c.name)).folded(&args).text(")");
        });
    }
    h.close("div").nl();
}
