//! `report.html`: one self-contained page — the case × model matrix coloured by outcome, then
//! every transcript readable (messages, tool calls and results, the workspace diff) with the
//! failed criteria and their evidence highlighted. One inline script (filter, expand/collapse);
//! nothing loaded from elsewhere.

use super::xml_escape as esc;
use crate::events::{TrialRecord, TrialStatus};
use crate::gate::{Gate, UnitStatus};
use checkers::transcript::Role;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:1.2rem 2rem;color:#1d1d1f}h1{font-size:1.4rem;margin:.2rem 0}\
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

/// Text longer than this is folded: a runaway reply must not put megabytes inline.
const FOLD: usize = 20_000;

fn folded(text: &str) -> String {
    if text.len() <= FOLD {
        return esc(text);
    }
    let mut cut = FOLD;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}\n[… {} more bytes: see the transcript file]",
        esc(&text[..cut]),
        text.len() - cut
    )
}

/// A reply rendered as Markdown, inert: raw HTML shows as text, links and images are dropped
/// (their text stays), so a model cannot put a script or a remote resource in the report.
fn markdown(text: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let text = if text.len() > FOLD {
        &text[..text.floor_char_boundary_compat(FOLD)]
    } else {
        text
    };
    let events = Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
        .filter_map(|e| match e {
            Event::Html(h) | Event::InlineHtml(h) => Some(Event::Text(h)),
            Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => None,
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
            other => Some(other),
        });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}
impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// pass^k per model (τ²-bench's estimate averaged over the model's units) under the matrix.
fn pass_k_table(h: &mut String, gate: &Gate) {
    h.push_str("<p class=\"note\">In brackets: the 95% Clopper–Pearson interval of the true pass rate; 3 of 3 is consistent with a rate as low as 0.29. pass^k: the chance that k trials of a unit all pass, averaged over the model's units.</p><table class=\"matrix\" id=\"pass-k\"><thead><tr><th>model</th>");
    for k in 1..=gate.required {
        let _ = write!(h, "<th>pass^{k}</th>");
    }
    h.push_str("<th>flaky units</th></tr></thead><tbody>");
    for m in &gate.models {
        let units: Vec<&crate::gate::Unit> = gate.units.iter().filter(|u| u.model == *m).collect();
        let _ = write!(h, "<tr><th>{}</th>", esc(m));
        for p in crate::stats::model_pass_ks(&units, gate.required) {
            let _ = write!(
                h,
                "<td>{}</td>",
                p.map_or("-".into(), |p| format!("{p:.2}"))
            );
        }
        let flaky = units
            .iter()
            .filter(|u| crate::stats::flaky_criteria(u).is_some())
            .count();
        let _ = write!(h, "<td>{flaky}</td></tr>");
    }
    h.push_str("</tbody></table>\n");
}

/// The facts of the page besides the gate and its trials.
pub struct Page<'a> {
    pub title: &'a str,
    pub charter_line: &'a str,
    pub system_prompt: &'a str,
    pub case_title: &'a dyn Fn(&str) -> String,
    pub run_dir: &'a std::path::Path,
}

/// The page, streamed to `out` a trial at a time: a run whose trials all differ writes a long
/// page, but holds one trial's text in memory at a time.
pub fn write(
    gate: &Gate,
    records: &[TrialRecord],
    page: &Page,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut h = String::new();
    let (word, sentence) = gate.verdict();
    let _ = write!(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style><script>{SCRIPT}</script></head><body>\n", esc(page.title));
    let _ = writeln!(
        h,
        "<header><h1>{}: <span id=\"gate-verdict\" class=\"verdict-{word}\">{}</span></h1><p id=\"counts\">{}. {}</p>\
         <div class=\"bar\"><input id=\"filter\" type=\"search\" placeholder=\"filter: case, model, status (e.g. E8, weakest, fail)\" oninput=\"filt(this.value)\">\
         <button onclick=\"expand(true)\">expand all</button><button onclick=\"expand(false)\">collapse all</button></div></header>",
        esc(page.title),
        esc(&sentence),
        esc(&gate.counts_line()),
        esc(page.charter_line)
    );

    // The matrix: a failing cell names what failed and links to its unit.
    h.push_str("<table class=\"matrix\" id=\"matrix\"><thead><tr><th>unit</th>");
    for m in &gate.models {
        let _ = write!(h, "<th>{}</th>", esc(m));
    }
    h.push_str("</tr></thead><tbody>\n");
    for (c, v) in &gate.rows() {
        let _ = write!(
            h,
            "<tr><th class=\"case\"><strong>{c}/{}</strong> {}</th>",
            esc(v),
            esc(&(page.case_title)(c))
        );
        for m in &gate.models {
            match gate.unit(m, c, v) {
                Some(u) => {
                    let s = status_class(u.status(gate.required));
                    let crit = u.failed_criteria();
                    let small = if crit.is_empty() {
                        String::new()
                    } else {
                        format!("<small>{}</small>", esc(&crit.join(", ")))
                    };
                    let rate = crate::stats::Rate::of(u);
                    let (lo, hi) = rate.interval();
                    let flaky = match crate::stats::flaky_criteria(u) {
                        Some(c) if !c.is_empty() => {
                            format!(
                                "<small class=\"flaky\">flaky: {}</small>",
                                esc(&c.join(", "))
                            )
                        }
                        Some(_) => "<small class=\"flaky\">flaky</small>".into(),
                        None => String::new(),
                    };
                    let _ = write!(
                        h,
                        "<td class=\"{s}\" data-criteria=\"{}\"><a href=\"#{}\">{}/{} {s}</a> <span class=\"ci\" title=\"95% Clopper–Pearson interval of the pass rate, {} of {} decided trials\">[{}–{}]</span>{small}{flaky}</td>",
                        esc(&crit.join(",")),
                        anchor(m, c, v),
                        u.passed(),
                        gate.required,
                        rate.passed,
                        rate.trials,
                        crate::stats::short(lo),
                        crate::stats::short(hi)
                    );
                }
                None => h.push_str("<td>-</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table>\n");
    pass_k_table(&mut h, gate);
    let _ = writeln!(h, "<details><summary>System prompt (the charter's runtime sections), sent in every trial</summary><pre>{}</pre></details>", folded(page.system_prompt));

    // Failing units first, then undecided, then passing.
    let mut units: Vec<&crate::gate::Unit> = gate.units.iter().collect();
    units.sort_by_key(|u| match u.status(gate.required) {
        UnitStatus::Fail => 0,
        UnitStatus::Inconclusive => 1,
        UnitStatus::Pass => 2,
    });
    let by_unit = crate::gate::records_by_unit(records);
    for u in units {
        let s = status_class(u.status(gate.required));
        let key = format!(
            "{} {} {} {} {}",
            u.case,
            u.variant,
            u.model,
            s,
            (page.case_title)(&u.case)
        )
        .to_lowercase();
        let _ = writeln!(h, "<section class=\"unit {s}\" id=\"{}\" data-key=\"{}\"><h2>{}/{} {} on {} — <span class=\"verdict-{s}\">{}/{} {s}</span></h2>", anchor(&u.model, &u.case, &u.variant), esc(&key), u.case, esc(&u.variant), esc(&(page.case_title)(&u.case)), esc(&u.model), u.passed(), gate.required);
        let trials: &[&TrialRecord] = by_unit
            .get(&(&*u.model, &*u.case, &*u.variant))
            .map_or(&[], Vec::as_slice);
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
            trial(&mut h, trials[i], &label, page.run_dir);
            out.write_all(h.as_bytes())?;
            h.clear();
            i = j;
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body></html>\n");
    out.write_all(h.as_bytes())
}

fn trial(h: &mut String, r: &TrialRecord, label: &str, run_dir: &std::path::Path) {
    // Only the trials shown are read back: their transcript file and their verdict.
    let verdict = r.verdict.get();
    let t = match r.transcript() {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(
                h,
                "<p class=\"verdict-inconclusive\">{}</p>",
                esc(&e.to_string())
            );
            return;
        }
    };
    let st = r.status;
    let class = match st {
        TrialStatus::Pass => "pass",
        TrialStatus::Fail => "fail",
        TrialStatus::Inconclusive => "inconclusive",
    };
    let open = if st == TrialStatus::Pass { "" } else { " open" };
    let path = r.path();
    let file = path
        .strip_prefix(run_dir)
        .unwrap_or(&path)
        .display()
        .to_string();
    let _ = writeln!(h, "<details class=\"transcript\"{open}><summary>{} — <span class=\"verdict-{class}\">{class}</span> (checker {}) <span class=\"note\">{}</span></summary>", esc(label), esc(&verdict.checker_version), esc(&file));
    h.push_str("<ul class=\"criteria\">");
    for c in verdict.criteria.iter().filter(|c| !c.pass) {
        let _ = write!(
            h,
            "<li class=\"failed-criterion\">✗ <strong>{}</strong> — <mark>{}</mark></li>",
            esc(&c.name),
            esc(&c.detail)
        );
    }
    for c in verdict.criteria.iter().filter(|c| c.pass) {
        let _ = write!(
            h,
            "<li class=\"passed-criterion\">✓ {} — {}</li>",
            esc(&c.name),
            esc(&c.detail)
        );
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

    // Tool calls as a timeline: name, key argument, the arguments and the result folded.
    let episode = &t.messages[seeded..];
    let calls: Vec<(&checkers::ToolCall, Option<&str>)> = episode
        .iter()
        .flat_map(|m| m.tool_calls.iter())
        .map(|c| {
            let result = episode
                .iter()
                .find(|m| m.tool_call_id.as_deref() == Some(c.id.as_str()))
                .map(|m| m.content.as_str());
            (c, result)
        })
        .collect();
    if !calls.is_empty() {
        h.push_str("<h4>tool calls</h4><ol class=\"timeline\">");
        for (c, result) in calls {
            let key = ["path", "pattern", "url"]
                .iter()
                .map(|k| c.arg(k))
                .find(|v| !v.is_empty())
                .unwrap_or("");
            let args = serde_json::to_string_pretty(&c.arguments).unwrap_or_default();
            let _ = write!(
                h,
                "<li><code>{}({})</code><details><summary>arguments</summary><pre>{}</pre></details><details><summary>result</summary><pre>{}</pre></details></li>",
                esc(&c.name),
                esc(key),
                folded(&args),
                folded(result.unwrap_or("(no result)"))
            );
        }
        h.push_str("</ol>\n");
    }
    let reply = t.final_reply();
    if !reply.trim().is_empty() {
        let _ = writeln!(
            h,
            "<h4>final reply</h4><div class=\"md\">{}</div><details><summary>raw text</summary><pre>{}</pre></details>",
            markdown(reply),
            folded(reply)
        );
    }
    if let Some(ws) = &t.workspace {
        let _ = writeln!(
            h,
            "<details><summary>workspace: {} file(s) changed</summary>",
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
            let text = diff.unified_diff().context_radius(2).to_string();
            let shown = if text.len() > FOLD {
                &text[..text.floor_char_boundary_compat(FOLD)]
            } else {
                &text
            };
            for line in shown.lines() {
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
        h.push_str("</details>\n");
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
        let _ = write!(h, "<pre>{}</pre>", folded(&m.content));
    }
    for c in &m.tool_calls {
        let _ = write!(
            h,
            "<pre class=\"tool-call\">→ {}({})</pre>",
            esc(&c.name),
            folded(&serde_json::to_string_pretty(&c.arguments).unwrap_or_default())
        );
    }
    h.push_str("</div>\n");
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_reply_renders_as_markdown_with_its_html_and_links_inert() {
        let out = super::markdown(
            "**25%**\n\n```python\ndef f():\n    return 1\n```\n\n<script>alert(1)</script> [x](javascript:alert(1)) ![i](http://e.test/i.png)",
        );
        assert!(out.contains("<strong>25%</strong>"), "{out}");
        assert!(out.contains("    return 1"), "{out}");
        assert!(!out.contains("<script>"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
        assert!(!out.contains("href=") && !out.contains("<img"), "{out}");
        let link = super::markdown("see [x](javascript:alert(1)) and ![i](http://e.test/i.png)");
        assert!(
            !link.contains("href=") && !link.contains("<img") && link.contains("see x and"),
            "{link}"
        );
    }
}
