//! `report.html`: one self-contained page — the case × model matrix coloured by outcome, then
//! every transcript readable (messages, tool calls and results, the workspace diff) with the
//! failed criteria and their evidence highlighted. No scripts, no external resources.

use super::junit::xml_escape as esc;
use crate::events::{TrialRecord, TrialStatus};
use crate::gate::{Gate, UnitStatus};
use checkers::transcript::Role;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f}h1{font-size:1.4rem}\
table.matrix{border-collapse:collapse;margin:1rem 0}table.matrix td,table.matrix th{border:1px solid #ccc;padding:.3rem .7rem;text-align:center}\
td.pass{background:#d6f5d6}td.fail{background:#f8d0d0;font-weight:600}td.inconclusive{background:#fbeec1}\
.verdict-pass{color:#176b17}.verdict-fail{color:#a31515}.verdict-inconclusive{color:#8a6100}\
details{margin:.3rem 0 .3rem 1rem}summary{cursor:pointer}pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0}\
li.failed-criterion{background:#fde2e2}li.failed-criterion mark{background:#ffb3b3}li.passed-criterion{color:#555}\
.msg{border-left:3px solid #ddd;padding-left:.6rem;margin:.4rem 0}.msg.assistant{border-color:#6b8afd}.msg.tool{border-color:#aaa}.msg.user{border-color:#3aa655}\
.add{color:#176b17}.del{color:#a31515}";

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

pub fn render(
    gate: &Gate,
    records: &[TrialRecord],
    title: &str,
    charter_line: &str,
    system_prompt: &str,
) -> String {
    let mut h = String::new();
    let verdict = gate.verdict();
    let _ = write!(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n", esc(title));
    let _ = writeln!(h, "<h1>{}</h1>\n<p>{}</p>\n<p id=\"gate-verdict\" class=\"verdict-{}\"><strong>Gate: {}</strong></p>", esc(title), esc(charter_line), verdict.0, verdict.1);

    let rows = gate.rows();
    h.push_str("<table class=\"matrix\" id=\"matrix\"><thead><tr><th>unit</th>");
    for m in &gate.models {
        let _ = write!(h, "<th>{}</th>", esc(m));
    }
    h.push_str("</tr></thead><tbody>\n");
    for (c, v) in &rows {
        let _ = write!(h, "<tr><th>{c}/{}</th>", esc(v));
        for m in &gate.models {
            match gate.unit(m, c, v) {
                Some(u) => {
                    let s = status_class(u.status(gate.required));
                    let _ = write!(
                        h,
                        "<td class=\"{s}\"><a href=\"#{}\">{}/{}</a></td>",
                        anchor(m, c, v),
                        u.passed(),
                        gate.required
                    );
                }
                None => h.push_str("<td>-</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table>\n");
    let _ = writeln!(h, "<details><summary>System prompt (the charter's runtime sections), sent in every trial</summary><pre>{}</pre></details>", esc(system_prompt));

    for u in &gate.units {
        let s = u.status(gate.required);
        let _ = writeln!(h, "<section class=\"unit\" id=\"{}\"><h2>{}/{} on {} — <span class=\"verdict-{}\">{}/{} {}</span></h2>", anchor(&u.model, &u.case, &u.variant), u.case, esc(&u.variant), esc(&u.model), status_class(s), u.passed(), gate.required, status_class(s));
        for r in records
            .iter()
            .filter(|r| r.model == u.model && r.case == u.case && r.variant == u.variant)
        {
            trial(&mut h, r);
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body></html>\n");
    h
}

fn trial(h: &mut String, r: &TrialRecord) {
    let t = &r.transcript;
    let st = TrialStatus::of(&r.verdict);
    let class = match st {
        TrialStatus::Pass => "pass",
        TrialStatus::Fail => "fail",
        TrialStatus::Inconclusive => "inconclusive",
    };
    let open = if st == TrialStatus::Pass { "" } else { " open" };
    let _ = writeln!(h, "<details class=\"transcript\"{open}><summary>trial {} — <span class=\"verdict-{class}\">{class}</span> (checker {})</summary>", r.trial, esc(&r.verdict.checker_version));
    h.push_str("<ul class=\"criteria\">");
    for c in &r.verdict.criteria {
        if c.pass {
            let _ = write!(
                h,
                "<li class=\"passed-criterion\">✓ {} — {}</li>",
                esc(&c.name),
                esc(&c.detail)
            );
        } else {
            let _ = write!(
                h,
                "<li class=\"failed-criterion\">✗ <strong>{}</strong> — <mark>{}</mark></li>",
                esc(&c.name),
                esc(&c.detail)
            );
        }
    }
    h.push_str("</ul>\n");
    if let Some(e) = &t.error {
        let _ = writeln!(h, "<p class=\"verdict-inconclusive\">error: {}</p>", esc(e));
    }
    let seeded = t.seeded.min(t.messages.len());
    let _ = writeln!(
        h,
        "<details><summary>seeded turns ({})</summary>",
        seeded.saturating_sub(1)
    );
    for m in t.messages[..seeded]
        .iter()
        .filter(|m| m.role != Role::System)
    {
        message(h, m);
    }
    h.push_str("</details>\n");
    for m in &t.messages[seeded..] {
        message(h, m);
    }
    if let Some(ws) = &t.workspace {
        let _ = writeln!(
            h,
            "<h4>workspace: {} file(s) changed</h4>",
            ws.changed.len()
        );
        for ch in &ws.changed {
            let diff = similar::TextDiff::from_lines(
                ch.before.as_deref().unwrap_or(""),
                ch.after.as_deref().unwrap_or(""),
            );
            let _ = write!(
                h,
                "<pre class=\"diff\"><strong>{}</strong>\n",
                esc(&ch.path)
            );
            for line in diff.unified_diff().context_radius(2).to_string().lines() {
                let cls = if line.starts_with('+') {
                    "add"
                } else if line.starts_with('-') {
                    "del"
                } else {
                    ""
                };
                let _ = writeln!(h, "<span class=\"{cls}\">{}</span>", esc(line));
            }
            h.push_str("</pre>\n");
        }
    }
    h.push_str("</details>\n");
}

fn message(h: &mut String, m: &checkers::Message) {
    let role = format!("{:?}", m.role).to_lowercase();
    let _ = write!(h, "<div class=\"msg {role}\"><em>{role}</em>");
    if m.role == Role::Tool {
        let _ = write!(h, " <code>{}</code>", esc(m.name.as_deref().unwrap_or("")));
    }
    if !m.content.is_empty() {
        let _ = write!(h, "<pre>{}</pre>", esc(&m.content));
    }
    for c in &m.tool_calls {
        let _ = write!(
            h,
            "<pre class=\"tool-call\">→ {}({})</pre>",
            esc(&c.name),
            esc(&c.arguments.to_string())
        );
    }
    h.push_str("</div>\n");
}
