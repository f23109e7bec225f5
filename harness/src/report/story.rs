//! The story of one trial for a person debugging a case: the tool calls in order, the final
//! reply, and every criterion with its evidence; on request the seeded turns and the workspace
//! diff. Colour only when asked (a terminal, and `NO_COLOR` unset).

use super::trial::TrialView;
use checkers::transcript::Transcript;
use checkers::Verdict;
use std::fmt::Write;

/// Characters of the final reply shown before it is cut.
const REPLY_LIMIT: usize = 1200;
/// Characters of the reasoning shown, dimmed, before it is cut: a glimpse, not the reply.
const REASONING_LIMIT: usize = 300;
const WIDTH: usize = 96;

#[derive(Debug, Clone, Copy, Default)]
pub struct StoryOptions {
    pub color: bool,
    /// Show the seeded turns instead of folding them.
    pub seeded: bool,
    /// Show the workspace diff.
    pub diff: bool,
}

/// `--color`: auto colours a terminal unless `NO_COLOR` is set (no-color.org).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub fn resolve(self) -> bool {
        let console = super::Console::detect();
        decide(self, console.stdout_terminal, console.no_color)
    }
}

/// Whether stdout is coloured: the one decision, anstream's, which `--color` sets for the
/// process (auto: a terminal, NO_COLOR unset; CLICOLOR_FORCE forces). Stories and the verdict
/// line both ask it, so they never disagree.
pub fn stdout_coloured() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

fn decide(choice: ColorChoice, terminal: bool, no_color: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color,
    }
}

struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
    fn good(&self, s: &str) -> String {
        self.wrap("32", s)
    }
    fn bad(&self, s: &str) -> String {
        self.wrap("31", s)
    }
    fn warn(&self, s: &str) -> String {
        self.wrap("33", s)
    }
}

fn one_line(s: &str, max: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        format!("{}…", flat.chars().take(max).collect::<String>())
    } else {
        flat
    }
}

/// Wrap text at WIDTH with an indent, keeping its own line breaks. Fenced code is printed as it
/// is, indentation included; a wrapped prose line keeps its own leading spaces.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
        if fence || in_code {
            let _ = writeln!(out, "{indent}{line}");
            if fence {
                in_code = !in_code;
            }
            continue;
        }
        let lead = &line[..line.len() - line.trim_start().len()];
        let options = textwrap::Options::new(WIDTH)
            .initial_indent(lead)
            .subsequent_indent(lead)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .break_words(false);
        let wrapped = textwrap::wrap(line.trim_start(), options);
        if wrapped.is_empty() {
            let _ = writeln!(out, "{indent}{lead}");
        }
        for l in wrapped {
            let _ = writeln!(out, "{indent}{l}");
        }
    }
    out
}

/// The transcript and verdict with every text a model or server wrote made inert.
fn sanitized(t: &Transcript, v: &Verdict) -> (Transcript, Verdict) {
    let mut t = t.clone();
    for m in t.messages.iter_mut() {
        m.content = crate::output::printable(&m.content);
        m.reasoning = m.reasoning.as_deref().map(crate::output::printable);
        if let Some(r) = m.refusal.as_mut() {
            r.text = crate::output::printable(&r.text);
            r.details.iter_mut().for_each(printable_json);
            r.reason = r.reason.as_deref().map(crate::output::printable);
        }
        for c in m.tool_calls.iter_mut() {
            c.name = crate::output::printable(&c.name);
            printable_json(&mut c.arguments);
        }
    }
    if let Some(ws) = t.workspace.as_mut() {
        for ch in ws.changed.iter_mut() {
            ch.path = crate::output::printable(&ch.path);
            ch.before = ch.before.as_deref().map(crate::output::printable);
            ch.after = ch.after.as_deref().map(crate::output::printable);
        }
    }
    t.error = t.error.as_deref().map(crate::output::printable);
    for s in [&mut t.model, &mut t.case, &mut t.variant] {
        *s = crate::output::printable(s);
    }
    let mut v = v.clone();
    for c in v.criteria.iter_mut() {
        c.detail = crate::output::printable(&c.detail);
        for e in c.evidence.iter_mut() {
            *e = crate::output::printable(e);
        }
    }
    v.final_figure = v.final_figure.as_deref().map(crate::output::printable);
    (t, v)
}

fn printable_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => *s = crate::output::printable(s),
        serde_json::Value::Array(a) => a.iter_mut().for_each(printable_json),
        serde_json::Value::Object(o) => o.values_mut().for_each(printable_json),
        _ => {}
    }
}

/// The story of one trial, its texts made inert.
pub fn render(t: &Transcript, v: &Verdict, opts: StoryOptions) -> String {
    let (t, v) = sanitized(t, v);
    let view = TrialView::new(&t, &v);
    let p = Paint(opts.color);
    let mut out = String::new();
    heading(&mut out, &view, &p);
    seeded(&mut out, &view, &p, opts.seeded);
    calls(&mut out, &view, &p);
    reasoning(&mut out, &view, &p);
    reply(&mut out, &view, &p);
    let _ = writeln!(out, "  {}", p.bold("criteria:"));
    for c in &v.criteria {
        if c.unsure {
            // Its own mark, not a fail's: the readings that disagree, one line each.
            let (why, readings) = crate::report::unsure::readings(&c.detail);
            let _ = writeln!(
                out,
                "    {} {} {} unsure: {why}",
                p.warn("?"),
                c.name,
                p.dim("—")
            );
            for (i, r) in readings.iter().enumerate() {
                let _ = writeln!(out, "        reading {}: {r}", i + 1);
            }
            continue;
        }
        let mark = if c.pass { p.good("✓") } else { p.bad("✗") };
        let _ = writeln!(out, "    {mark} {} {} {}", c.name, p.dim("—"), c.detail);
        if !c.evidence.is_empty() {
            let read: Vec<String> = c.evidence.iter().map(|e| format!("\"{e}\"")).collect();
            let _ = writeln!(out, "      {} {}", p.dim("read:"), read.join(" · "));
        }
    }
    if opts.diff {
        diffs(&mut out, &view, &p);
    }
    out
}

fn heading(out: &mut String, view: &TrialView, p: &Paint) {
    let (t, v) = (view.transcript, view.verdict);
    let status = if v.inconclusive {
        p.warn("INCONCLUSIVE")
    } else if v.unsure() {
        p.warn("UNSURE (needs a label)")
    } else if v.pass {
        p.good("PASS")
    } else {
        p.bad("FAIL")
    };
    let title = format!(
        "{}/{} · {} · trial {}",
        t.case,
        t.variant,
        if t.model.is_empty() { "?" } else { &t.model },
        t.trial
    );
    let _ = writeln!(
        out,
        "{} {status} {}",
        p.bold(&format!("── {title} ──")),
        p.dim(&format!("(checker {})", v.checker_version))
    );
}

/// The seeded turns one line each, or folded into a count.
fn seeded(out: &mut String, view: &TrialView, p: &Paint, show: bool) {
    if !show {
        let _ = writeln!(
            out,
            "  {}",
            p.dim(&format!(
                "seeded: {} messages (system prompt and scripted turns; --seeded shows them)",
                view.seeded.len()
            ))
        );
        return;
    }
    let _ = writeln!(out, "  {}", p.bold("seeded:"));
    for m in view.seeded {
        let _ = writeln!(
            out,
            "    {} {}",
            p.dim(&format!("{:?}:", m.role).to_lowercase()),
            one_line(&m.content, 140)
        );
    }
}

fn calls(out: &mut String, view: &TrialView, p: &Paint) {
    if view.calls.is_empty() {
        let _ = writeln!(out, "  {}", p.bold("tool calls: none"));
        return;
    }
    let _ = writeln!(
        out,
        "  {}",
        p.bold(&format!("tool calls ({}):", view.calls.len()))
    );
    for (n, c) in view.calls.iter().enumerate() {
        let result = c
            .result
            .map_or_else(|| p.warn("(no result)"), |r| one_line(r, 70));
        let _ = writeln!(
            out,
            "    {:>2}. {} {} {result}",
            n + 1,
            c.describe(),
            p.dim("→")
        );
    }
}

/// The final reply's reasoning, set apart above it: labelled, dimmed behind a bar, cut at
/// [`REASONING_LIMIT`]; the whole is in the transcript file.
fn reasoning(out: &mut String, view: &TrialView, p: &Paint) {
    if view.reasoning.is_empty() {
        return;
    }
    let n = view.reasoning.chars().count();
    let _ = writeln!(
        out,
        "  {}",
        p.dim(&format!(
            "reasoning ({n} characters, folded; scratch work, no criterion reads it):"
        ))
    );
    let cut: String = view.reasoning.chars().take(REASONING_LIMIT).collect();
    for line in wrap(&cut, "    │ ").lines() {
        let _ = writeln!(out, "{}", p.dim(line));
    }
    if n > REASONING_LIMIT {
        let more = format!(
            "[… {} more characters of reasoning cut]",
            n - REASONING_LIMIT
        );
        let _ = writeln!(out, "    │ {}", p.dim(&more));
    }
}

/// The final reply wrapped and cut at [`REPLY_LIMIT`], and how the trial ended if not by it.
fn reply(out: &mut String, view: &TrialView, p: &Paint) {
    let reply = &*view.reply;
    let _ = writeln!(out, "  {}", p.bold("final reply:"));
    if reply.trim().is_empty() {
        let _ = writeln!(out, "    {}", p.warn("(none)"));
    } else if reply.chars().count() > REPLY_LIMIT {
        let cut: String = reply.chars().take(REPLY_LIMIT).collect();
        out.push_str(&wrap(&cut, "    "));
        let _ = writeln!(
            out,
            "    {}",
            p.dim(&format!(
                "[… {} more characters cut]",
                reply.chars().count() - REPLY_LIMIT
            ))
        );
    } else {
        out.push_str(&wrap(reply, "    "));
    }
    if let Some(r) = &view.refusal {
        let _ = writeln!(out, "  {} {}", p.bad("the provider reports a refusal:"), r);
    }
    if view.transcript.max_steps_reached {
        let _ = writeln!(
            out,
            "  {}",
            p.warn("stopped at max_steps before a final answer")
        );
    }
    if let Some(e) = &view.transcript.error {
        let _ = writeln!(out, "  {} {e}", p.warn("error:"));
    }
}

fn diffs(out: &mut String, view: &TrialView, p: &Paint) {
    let Some(changed) = view.changes() else {
        return;
    };
    let _ = writeln!(
        out,
        "  {}",
        p.bold(&format!("workspace: {} file(s) changed", changed.len()))
    );
    for ch in changed {
        for line in super::trial::diff(ch, 3, true).lines() {
            let shown = match line.chars().next() {
                Some('+') if !line.starts_with("+++") => p.good(line),
                Some('-') if !line.starts_with("---") => p.bad(line),
                Some('@') => p.dim(line),
                _ => line.to_string(),
            };
            let _ = writeln!(out, "    {shown}");
        }
    }
}

#[cfg(test)]
mod wrap_tests {
    #[test]
    fn fenced_code_keeps_its_indentation() {
        let text =
            "Here:\n```python\ndef f(x):\n    return x\n```\n  indented prose stays indented";
        let out = super::wrap(text, "  ");
        assert!(out.contains("      return x\n"), "{out}");
        assert!(out.contains("    indented prose"), "{out}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_only_a_terminal_without_no_color() {
        assert!(decide(ColorChoice::Auto, true, false));
        assert!(
            !decide(ColorChoice::Auto, true, true),
            "NO_COLOR wins in auto"
        );
        assert!(!decide(ColorChoice::Auto, false, false));
        assert!(decide(ColorChoice::Always, false, true));
        assert!(!decide(ColorChoice::Never, true, false));
    }
}

/// Every trial's story on stdout, in trial order (model, case, variant, trial), each told from
/// its transcript file and read back one at a time; a trial whose reply and failed criteria
/// repeat the one before it in its unit is folded into one line.
pub fn print_all(records: &[crate::store::trial::TrialRecord], opts: StoryOptions) {
    use std::io::Write;
    let case_at = |case: &str| {
        checkers::CASE_IDS
            .iter()
            .position(|c| *c == case)
            .unwrap_or(99)
    };
    let mut order: Vec<&crate::store::trial::TrialRecord> = records.iter().collect();
    order.sort_by(|a, b| {
        (&a.model, case_at(&a.case), &a.variant, a.trial).cmp(&(
            &b.model,
            case_at(&b.case),
            &b.variant,
            b.trial,
        ))
    });
    // What makes two trials "the same": the unit, the reply and which criteria failed.
    let same = |r: &crate::store::trial::TrialRecord| {
        (
            r.model.clone(),
            r.case.clone(),
            r.variant.clone(),
            r.reply_digest,
            r.failed.clone(),
        )
    };
    let mut out = crate::output::text_writer();
    let mut i = 0;
    while i < order.len() {
        let r = order[i];
        let text = match r.transcript() {
            Ok(t) => render(&t, &r.verdict.get(), opts),
            Err(e) => format!("{e}\n"),
        };
        let _ = writeln!(out, "{text}");
        let mut j = i + 1;
        while j < order.len() && same(order[j]) == same(r) {
            j += 1;
        }
        if j > i + 1 {
            let (first, last) = (order[i + 1].trial, order[j - 1].trial);
            let which = if first == last {
                format!("trial {first}")
            } else {
                format!("trials {first}–{last}")
            };
            let _ = write!(
                out,
                "  ({which}: the same reply and verdict as trial {})\n\n",
                r.trial
            );
        }
        i = j;
    }
}
