//! The base comparison for people, from one list of unit changes (`gate::change`, attributed by
//! `gate::attribute`): the terminal's text and the Markdown that leads report.md and the
//! pull-request comment. Regressions first, then new failures, then what the base already
//! fails, the rest folded. Text a model or a charter wrote goes in code spans or fenced blocks.

use crate::gate::attribute::WHOLE_CHARTER;
use crate::gate::change::{Attribution, Change, Hunk, Settles, UnitChange};
use crate::gate::stats::{self, Rate};
use crate::gate::UnitStatus;
use std::fmt::Write;

/// A base comparison as the reports take it: the revision, the units (attributed), and the
/// gate under the base's policy.
#[derive(Clone)]
pub struct View<'a> {
    pub rev: &'a str,
    pub changes: &'a [UnitChange],
    pub policy: crate::suite::manifest::GatePolicy,
    pub outcome: &'a crate::gate::policy::Outcome,
    /// What the base rerun sent and cost (`Base rerun: …` lines): the decide job's spending.
    pub cost: &'a str,
    /// What the offline gate cannot see (rules reworded, the charter-reading models unmoved).
    pub notes: &'a [String],
}

impl View<'_> {
    /// summary.json's additive `comparison` field: the base, the policy, the outcome and every
    /// unit compared with its attribution.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "base_rev": self.rev,
            "gate": self.policy.as_str(),
            "verdict": self.outcome.sentence,
            "undecided": undecided_counts(self.changes),
            "notes": self.notes,
            "units": self.changes,
        })
    }
}

/// How many head failures wait on the base, by what settles them: `{"rerun": n, "label": n}`.
/// The decide job never keeps a gate with a rerun pending.
pub fn undecided_counts(changes: &[UnitChange]) -> serde_json::Value {
    let n = |k: Settles| {
        changes
            .iter()
            .filter(|u| crate::gate::policy::undecided(u) == Some(k))
            .count()
    };
    serde_json::json!({"rerun": n(Settles::Rerun), "label": n(Settles::Label)})
}

/// The head failures whose base did not decide, a line each with what settles it.
fn waiting_on_the_base(changes: &[UnitChange]) -> Vec<String> {
    changes
        .iter()
        .filter_map(|u| {
            let what = match crate::gate::policy::undecided(u)? {
                Settles::Rerun => "provider errors or trials missing on the base: run again",
                Settles::Label => "unsure on the base: needs a label",
            };
            Some(format!("{} ({what})", unit_line(u)))
        })
        .collect()
}

/// The groups of the comparison, in the order every view shows them.
pub const GROUPS: [(&str, &[Change]); 5] = [
    ("Regressions", &[Change::Regression]),
    ("Newly failing", &[Change::NewFailure, Change::WithinNoise]),
    ("Fixed", &[Change::Improvement]),
    ("Already failing on the base", &[Change::StillFailing]),
    ("Undecided", &[Change::Undecided]),
];

/// The units of `changes` in the group `kinds`, within noise only when the head fails.
pub fn group<'a>(changes: &'a [UnitChange], kinds: &[Change]) -> Vec<&'a UnitChange> {
    changes
        .iter()
        .filter(|u| kinds.contains(&u.change))
        .filter(|u| u.change != Change::WithinNoise || u.head == UnitStatus::Fail)
        .chain(
            // Within noise the other way (fails on base, passes here) is folded with the fixed.
            changes.iter().filter(|u| {
                kinds.contains(&Change::Improvement)
                    && u.change == Change::WithinNoise
                    && u.head != UnitStatus::Fail
            }),
        )
        .collect()
}

/// The counts line every view opens with.
pub fn counts(changes: &[UnitChange], rev: &str) -> String {
    let count = |c: Change| changes.iter().filter(|u| u.change == c).count();
    format!(
        "Against the charter at {rev}: {} regression(s), {} improvement(s), {} within noise, {} still failing, {} undecided",
        count(Change::Regression),
        count(Change::Improvement),
        count(Change::WithinNoise),
        count(Change::StillFailing),
        count(Change::Undecided) + count(Change::NewFailure)
    )
}

fn side(s: Option<UnitStatus>, r: Option<Rate>) -> String {
    match (s, r) {
        (Some(s), Some(r)) => format!(
            "{} {}/{}",
            format!("{s:?}").to_lowercase(),
            r.passed,
            r.trials
        ),
        _ => "not run".to_string(),
    }
}

/// How the label was reached: exactly, by Fisher's test, with `--settle`'s trials.
fn how(u: &UnitChange) -> String {
    let p = match (u.exact, u.p_value) {
        (true, _) => " (exact: a scripted model repeats its trials)".to_string(),
        (false, Some(p)) => format!(" (p = {})", stats::p_text(p)),
        (false, None) => String::new(),
    };
    match u.settle_trials {
        Some(n) => format!("{p}, with {n} more trials per arm (--settle)"),
        None => p,
    }
}

/// One unit's line: `regression     E1/default on m: base pass 3/3, head fail 0/3 (exact: …)`.
pub fn unit_line(u: &UnitChange) -> String {
    format!(
        "{:<14} {}/{} on {}: base {}, head {}{}",
        u.change.as_str(),
        u.case,
        u.variant,
        u.model,
        side(u.base, u.base_rate),
        side(Some(u.head), Some(u.head_rate)),
        how(u)
    )
}

/// The terminal's comparison: the counts, each group in order with its units (attributed
/// where the status differs), what the base already fails a line per model, the rest folded.
pub fn terminal(changes: &[UnitChange], rev: &str) -> String {
    let mut out = format!("{}\n", counts(changes, rev));
    for (name, kinds) in &GROUPS[..3] {
        let units = group(changes, kinds);
        if units.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{name}:");
        group_lines(&mut out, &units);
        if changes.iter().any(|u| u.change == Change::WithinNoise)
            && kinds.contains(&Change::WithinNoise)
        {
            let alpha = changes.iter().map(|u| u.alpha).fold(stats::ALPHA, f64::min);
            let _ = writeln!(
                out,
                "  Within noise: the status differs, but Fisher's exact test cannot tell the two pass rates apart (p >= {}){}",
                stats::p_text(alpha),
                if changes.iter().any(|u| u.settle_trials.is_some()) {
                    ", even with --settle's trials"
                } else {
                    "; more trials on both arms (--settle N) may"
                }
            );
        }
    }
    let waiting = waiting_on_the_base(changes);
    if !waiting.is_empty() {
        let _ = writeln!(
            out,
            "Failing here, not decided on the base ({}):",
            waiting.len()
        );
        for l in &waiting {
            let _ = writeln!(out, "  {l}");
        }
    }
    let still = group(changes, &[Change::StillFailing]);
    if !still.is_empty() {
        let _ = writeln!(
            out,
            "Already failing on the base (not this change's doing), {} unit(s):",
            still.len()
        );
        for (model, units) in by_model(&still) {
            let _ = writeln!(out, "  {model}: {}", units.join(", "));
        }
    }
    let folded = |c: Change| changes.iter().filter(|u| u.change == c).count();
    let _ = writeln!(
        out,
        "Folded: {} still passing, {} undecided (base-comparison.md lists every unit)",
        folded(Change::StillPassing),
        folded(Change::Undecided)
    );
    out
}

/// Units grouped by the charter hunks behind them, in first-seen order: the units the same
/// hunks caused together, under them once; the units no hunk touches together, with an empty
/// key (each says why on its own: the charter as a whole changed, or nothing to attribute).
pub fn by_hunks<'a>(units: &[&'a UnitChange]) -> Vec<(&'a [Hunk], Vec<&'a UnitChange>)> {
    let mut out: Vec<(&'a [Hunk], Vec<&'a UnitChange>)> = Vec::new();
    for u in units {
        let hunks: &'a [Hunk] = u.attribution.as_ref().map_or(&[], |a| &a.hunks[..]);
        match out.iter_mut().find(|(h, _)| *h == hunks) {
            Some((_, v)) => v.push(u),
            None => out.push((hunks, vec![u])),
        }
    }
    out
}

/// A hunk's heading: the rules it touches, and how many units it caused.
fn hunk_heading(h: &Hunk, units: usize) -> String {
    format!(
        "charter hunk touching {} ({units} unit{} below)",
        h.rules.join(", "),
        if units == 1 { "" } else { "s" }
    )
}

/// The terminal's lines for one group's units: each hunk once, its units indented under it.
fn group_lines(out: &mut String, units: &[&UnitChange]) {
    for (hunks, units) in by_hunks(units) {
        let indent = if hunks.is_empty() { "  " } else { "    " };
        for h in hunks {
            let _ = writeln!(out, "  {}: {}", hunk_heading(h, units.len()), h.header);
            for l in h.diff.lines() {
                let _ = writeln!(out, "      {l}");
            }
        }
        for u in units {
            let _ = writeln!(out, "{indent}{}", unit_line(u));
            if let Some(a) = &u.attribution {
                attribution_lines(out, a, indent);
            }
        }
    }
}

/// Units as `case/variant`, grouped by model in first-seen order.
fn by_model(units: &[&UnitChange]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for u in units {
        let name = format!("{}/{}", u.case, u.variant);
        match out.iter_mut().find(|(m, _)| *m == u.model) {
            Some((_, v)) => v.push(name),
            None => out.push((u.model.clone(), vec![name])),
        }
    }
    out
}

/// A unit's flipped criteria, and why no hunk is named when none is (its hunks are printed
/// once above its group's units).
fn attribution_lines(out: &mut String, a: &Attribution, indent: &str) {
    for f in &a.flipped {
        let _ = writeln!(
            out,
            "{indent}  flipped: {} (fails on {}, trial {}): {}",
            f.criterion, f.fails_on, f.trial, f.evidence
        );
    }
    if a.whole_charter {
        let _ = writeln!(out, "{indent}  {WHOLE_CHARTER} ({})", a.rules.join(", "));
    }
}

/// `text` as an inline code span: nothing in it is a mention, reference, link, image or HTML.
pub fn code(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let longest = longest_run(&one_line, '`');
    let fence = "`".repeat(longest + 1);
    format!("{fence} {one_line} {fence}")
}

/// `text` as a fenced block of `lang`, fenced longer than any backtick run inside it.
pub fn fenced(text: &str, lang: &str) -> String {
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    format!("{fence}{lang}\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

fn longest_run(text: &str, ch: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == ch { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The comparison as Markdown (report.md's first section, the comment's body): a heading per
/// group, a sub-heading per changed unit with its title, flipped criteria and hunks as diffs;
/// what the base already fails as one table.
pub fn markdown(
    changes: &[UnitChange],
    rev: &str,
    notes: &[String],
    title_of: &dyn Fn(&str) -> String,
) -> String {
    let mut out = format!(
        "## Against the base ({})\n\n{}\n\n",
        code(rev),
        counts(changes, &code(rev))
    );
    for n in notes {
        // A charter's rule labels are its text: in a code span.
        let _ = writeln!(out, "> {}\n", code(n));
    }
    for (name, kinds) in &GROUPS[..3] {
        let units = group(changes, kinds);
        if units.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {name} ({})\n", units.len());
        for (hunks, units) in by_hunks(&units) {
            for h in hunks {
                let _ = writeln!(out, "#### {}\n", upper_first(&hunk_heading(h, units.len())));
                out.push_str(&fenced(&format!("{}\n{}", h.header, h.diff), "diff"));
                out.push('\n');
            }
            for u in units {
                unit_markdown(&mut out, u, title_of, !hunks.is_empty());
            }
        }
    }
    let waiting = waiting_on_the_base(changes);
    if !waiting.is_empty() {
        let _ = writeln!(
            out,
            "### Failing here, not decided on the base ({})\n",
            waiting.len()
        );
        for l in &waiting {
            let _ = writeln!(out, "- {}", code(l));
        }
        out.push('\n');
    }
    already_failing(&mut out, changes, title_of);
    out
}

/// What the base already fails, as one table: not this change's doing.
fn already_failing(out: &mut String, changes: &[UnitChange], title_of: &dyn Fn(&str) -> String) {
    let still = group(changes, &[Change::StillFailing]);
    if still.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "### Already failing on the base ({})\n\nNot this change's doing: these units fail on the base too.\n\n| unit | case | model | base | head |\n|---|---|---|---|---|",
        still.len()
    );
    for u in still {
        let _ = writeln!(
            out,
            "| {}/{} | {} | {} | {} | {} |",
            u.case,
            u.variant,
            title_of(&u.case).replace('|', "\\|"),
            u.model,
            side(u.base, u.base_rate),
            side(Some(u.head), Some(u.head_rate))
        );
    }
    out.push('\n');
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// A changed unit: its heading (one level below its hunk's when `under_hunk`), its change, its
/// flipped criteria.
fn unit_markdown(
    out: &mut String,
    u: &UnitChange,
    title_of: &dyn Fn(&str) -> String,
    under_hunk: bool,
) {
    let _ = writeln!(
        out,
        "{} {}/{} — {} on {}\n\n{}: base {}, head {}{}\n",
        if under_hunk { "#####" } else { "####" },
        u.case,
        u.variant,
        title_of(&u.case),
        u.model,
        u.change.as_str(),
        side(u.base, u.base_rate),
        side(Some(u.head), Some(u.head_rate)),
        how(u)
    );
    let Some(a) = &u.attribution else { return };
    for f in &a.flipped {
        let _ = writeln!(
            out,
            "- **{}** fails on {} (trial {}): {}",
            f.criterion,
            f.fails_on,
            f.trial,
            code(&f.evidence)
        );
    }
    out.push('\n');
    if a.whole_charter {
        let _ = writeln!(
            out,
            "{WHOLE_CHARTER} (the case names {}).\n",
            a.rules.join(", ")
        );
    }
}

/// The comparison as report.html's first section (id `comparison`): the verdict under the
/// base's policy, then each group with its units (case titles, flipped criteria, hunks as
/// diffs). Every text goes through the page's escaping: nothing a model or charter wrote is
/// markup.
pub fn html(h: &mut super::markup::Html, view: &View, title_of: &dyn Fn(&str) -> String) {
    h.open("section", &[("id", "comparison")]);
    h.leaf("h2", &[], &format!("Against the base ({})", view.rev))
        .leaf(
            "p",
            &[("id", "comparison-verdict")],
            &format!(
                "{} (gate = {})",
                view.outcome.sentence,
                view.policy.as_str()
            ),
        )
        .leaf("p", &[], &counts(view.changes, view.rev))
        .nl();
    for n in view.notes {
        h.leaf("p", &[("class", "note")], n).nl();
    }
    for (name, kinds) in &GROUPS[..3] {
        let units = group(view.changes, kinds);
        if units.is_empty() {
            continue;
        }
        h.leaf("h3", &[], &format!("{name} ({})", units.len())).nl();
        for (hunks, units) in by_hunks(&units) {
            for hunk in hunks {
                h.leaf(
                    "p",
                    &[("class", "hunk-heading")],
                    &upper_first(&format!("{}:", hunk_heading(hunk, units.len()))),
                );
                diff_html(h, hunk);
            }
            for u in units {
                changed_unit_html(h, u, title_of);
            }
        }
    }
    still_failing_html(h, view.changes);
    h.close("section").nl();
}

/// A charter hunk as a diff whose long lines wrap (a removed rule stays readable at 390 px).
fn diff_html(h: &mut super::markup::Html, hunk: &Hunk) {
    h.el(
        "pre",
        &[
            ("class", "diff"),
            ("style", "white-space:pre-wrap;overflow-wrap:anywhere"),
        ],
        |h| {
            h.text(&format!("{}\n{}", hunk.header, hunk.diff));
        },
    );
}

fn changed_unit_html(
    h: &mut super::markup::Html,
    u: &UnitChange,
    title_of: &dyn Fn(&str) -> String,
) {
    h.open("div", &[("class", "changed-unit")]);
    h.leaf(
        "h4",
        &[],
        &format!(
            "{}/{} — {} on {}",
            u.case,
            u.variant,
            title_of(&u.case),
            u.model
        ),
    )
    .leaf("p", &[], &unit_line(u));
    if let Some(a) = &u.attribution {
        attribution_html(h, a);
    }
    h.close("div").nl();
}

/// What the base already fails, folded to one line (expandable), a line per model inside, as
/// the terminal prints it: not this change's doing.
fn still_failing_html(h: &mut super::markup::Html, changes: &[UnitChange]) {
    let still = group(changes, &[Change::StillFailing]);
    if still.is_empty() {
        return;
    }
    h.details(&[("class", "still-failing")], false).leaf(
        "summary",
        &[],
        &format!(
            "Already failing on the base ({}): not this change's doing",
            still.len()
        ),
    );
    h.el("ul", &[], |h| {
        for (model, units) in by_model(&still) {
            h.leaf("li", &[], &format!("{model}: {}", units.join(", ")));
        }
    });
    h.close("details").nl();
}

fn attribution_html(h: &mut super::markup::Html, a: &Attribution) {
    h.el("ul", &[("class", "flipped")], |h| {
        for f in &a.flipped {
            h.leaf(
                "li",
                &[],
                &format!(
                    "{} fails on {} (trial {}): {}",
                    f.criterion, f.fails_on, f.trial, f.evidence
                ),
            );
        }
    });
    if a.whole_charter {
        h.leaf(
            "p",
            &[],
            &format!("{WHOLE_CHARTER} ({})", a.rules.join(", ")),
        );
    }
}
