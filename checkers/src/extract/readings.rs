//! Readings, not a reading: every plausible reading of a reply's concluding figure, each with
//! the span it rests on, so a criterion decides only when they all give the same verdict.
//!
//! The readings are: the prose conclusion (the claim model's concluding figure, or a later
//! correction of it: "Correction: it is 25 %" decides over the figure it corrects); each
//! structured answer beside the prose (a JSON object, fenced or bare, read with serde_json; a
//! YAML document, by the lenient reader), whose marked answer (`answer`, `final_figure`,
//! `result`, …) is read like a marked conclusion, and without one its closing value; each result row of a table ("Final answer |
//! 20 %"), read from pulldown-cmark's table cells; and a figure's other reading where its
//! notation leaves it two-way ("1.250"). Two marked conclusions in the prose that differ, with
//! no correction between them, are two readings. A passing prose figure hedged as a likelihood
//! ("most likely you're down about 9%") is a figure or a softened value: unsure. A reply that is
//! only code is read from its code as text: a passing figure there is its answer or no answer
//! stated (unsure). Past [`MAX_READINGS`] the reply is unsure: the cost stays linear in the
//! reply.

use super::claims::{asserted_where, concluding_figure, marked_conclusion};
use super::num::Num;
use super::reply::{Block, BlockKind, Reply};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// More readings than this and the reply is unsure.
pub const MAX_READINGS: usize = 8;

/// A sentence that corrects or retracts what came before it.
static CORRECTION: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:correction|correcting\s+myself|i\s+misspoke|scratch\s+that|wait\s?[,.!:—–…]|on\s+second\s+thought|erratum|let\s+me\s+(?:correct|redo|fix)\s+(?:that|this|myself)|i\s+(?:made|had)\s+an?\s+(?:error|mistake)|(?:that|this)\s+was\s+wrong|update:|rather,|sorry,\s+(?:it|that|the))").unwrap()
});
/// A word that corrects softly, without saying a correction: "is actually 25%", "in fact",
/// "more precisely". After an earlier conclusion with another figure it withdraws that one
/// (a correction), or only adds a second figure beside a conclusion never taken back.
static SOFT_CORRECTION: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:actually|in\s+fact|in\s+reality|more\s+precisely|to\s+be\s+precise|strictly\s+speaking|properly\s+(?:computed|calculated|measured))\b").unwrap()
});

/// The first cell of a table row that holds the table's result.
static RESULT_CELL: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:final(?:\s+(?:answer|figure|count|result|number))?|answer|result|conclusion|recommendation|bottom\s+line|verdict|total(?:\s+(?:increase|change|count|days))?)[\W_]*$").unwrap()
});

/// A table column that holds a result ("Net", "Total", "Days to cater"): a summary table's cell
/// under it restates the reply's figure. "Result" is not one: a table of methods lists each
/// method's result, the rejected ones too.
static RESULT_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:net(?:\s+(?:change|effect|result|multiplier))?|total(?:\s+(?:days|change|increase|count))?|final(?:\s+(?:answer|figure|count|result|number))?|days(?:\s+to\s+\w+)?|day\s+count|number\s+of\s+days)[\W_]*$").unwrap()
});

/// A summary table holds a few rows; a longer one is data, not a restated result.
const SUMMARY_ROWS: usize = 3;

/// A line of a plain code block that labels the table's or the reply's result.
static RESULT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\s>*#_]*(?:final(?:\s+(?:answer|figure|count|result))?|answer|result|conclusion|bottom\s+line|recommendation)\s*[:=]").unwrap()
});

/// One reading: where it comes from, the figure it rests on (its span is in that source's
/// plain text), and the verdict it gives.
#[derive(Debug, Clone)]
pub struct Reading {
    pub source: Source,
    pub num: Num,
    pub pass: bool,
    /// The figure's notation leaves it two-way; this is one of its readings.
    pub two_way: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Prose,
    Correction,
    /// Another marked conclusion of the prose.
    Marked,
    Json {
        fenced: bool,
    },
    Yaml,
    Table,
    /// A summary box drawn in a plain code block (`┌──┐ │ Budget uplift: +20% │`).
    Boxed,
    /// A figure inside the range the prose concludes with ("between 8 and 10 percent lower").
    Range,
    /// The code of a reply that is only code, its comments read as text (`net = level - 1  #
    /// -0.09 => net -9%, NOT even`).
    Code,
}

impl Reading {
    /// "the prose concludes 25%", "the fenced JSON says 20%".
    pub fn describe(&self) -> String {
        let what = match self.source {
            Source::Prose => "the prose concludes",
            Source::Correction => "the correction says",
            Source::Marked => "an earlier conclusion says",
            Source::Json { fenced: true } => "the fenced JSON says",
            Source::Json { fenced: false } => "the JSON says",
            Source::Yaml => "the YAML says",
            Source::Table => "the table's result row says",
            Source::Boxed => "the boxed summary says",
            Source::Range => "the concluding range holds",
            Source::Code => "the reply is only code, whose comments conclude",
        };
        if self.two_way {
            format!("{what} {} read as {}", self.num.display(), self.num.value)
        } else {
            format!("{what} {}", self.num.display())
        }
    }
}

/// What the readings of a concluding figure come to.
#[derive(Debug, Clone)]
pub enum Figure {
    /// No reading holds a figure of the wanted kind.
    None,
    /// Every reading gives the same verdict: the one to report (the prose's, when it has one).
    Decided(Reading),
    /// The readings disagree, or are too many: the reason names them.
    Unsure { reason: String, shown: Num },
}

/// The readings of the figure `reply` concludes with among those `wanted` accepts, each judged
/// by `pass`; both are given the reply (or structured answer) the figure stands in.
pub fn concluding<W, P>(reply: &Reply, wanted: W, pass: P) -> Figure
where
    W: Fn(&Reply, &Num) -> bool,
    P: Fn(&Reply, &Num) -> bool,
{
    let answers = structured_answers(reply);
    // The prose is what lies outside the structured answers (a bare JSON paragraph, a table's
    // result row): each of those is a reading of its own.
    let spans: Vec<Range<usize>> = answers.iter().filter_map(|a| a.2.clone()).collect();
    let wanted = |r: &Reply, n: &Num| {
        wanted(r, n) && !spans.iter().any(|s| s.start <= n.start && n.end <= s.end)
    };
    let mut out: Vec<Reading> = Vec::new();
    let push = |r: &Reply, source: Source, n: Num, out: &mut Vec<Reading>| {
        let two_way = n.alt.is_some();
        for num in n.readings() {
            let pass = pass(r, &num);
            out.push(Reading {
                source,
                num,
                pass,
                two_way,
            });
        }
    };
    if let Some(n) = prose_figure(reply, &wanted) {
        let source = n.1;
        let range = range_reading(reply, &n.0, &pass);
        push(reply, source, n.0, &mut out);
        out.extend(range);
    }
    for (earlier, _) in other_marked(reply, &wanted, out.first().map(|r| &r.num)) {
        push(reply, Source::Marked, earlier, &mut out);
    }
    for (text, source, _) in answers {
        if out.len() > MAX_READINGS {
            break;
        }
        // Its marked answer (`answer`, `final_figure`, …) when it has one, else what its
        // closing value asserts, as for prose.
        let sub = Reply::parse(&text);
        if let Some(n) = concluding_figure(&sub, |n| wanted(&sub, n)) {
            push(&sub, source, n, &mut out);
        }
    }
    if out.is_empty() {
        return code_only(reply, &wanted, &pass);
    }
    hedged(reply, decide(out))
}

/// A reply that is only code blocks, no prose: its figure read from the code as text (comments
/// and values). A passing figure is one reading (the code is how the reply writes its answer);
/// no answer stated in the reply's own voice is the other: unsure. A failing one fails on both.
fn code_only<W, P>(reply: &Reply, wanted: &W, pass: &P) -> Figure
where
    W: Fn(&Reply, &Num) -> bool,
    P: Fn(&Reply, &Num) -> bool,
{
    let blocks = reply.blocks();
    if blocks.is_empty() || !blocks.iter().all(Block::is_code) {
        return Figure::None;
    }
    let text: Vec<&str> = blocks.iter().map(|b| reply.block_text(b)).collect();
    let text = text.join("\n\n");
    let sub = Reply::parse(&text);
    let Some(num) = concluding_figure(&sub, |n| wanted(&sub, n)) else {
        return Figure::None;
    };
    let r = Reading {
        source: Source::Code,
        pass: pass(&sub, &num),
        num,
        two_way: false,
    };
    if !r.pass {
        return Figure::Decided(r);
    }
    Figure::Unsure {
        reason: format!(
            "readings disagree: {} (the code is how the reply writes its answer: pass), or the \
             reply states no answer in its own voice (fail)",
            r.describe()
        ),
        shown: r.num,
    }
}

/// A word that turns a figure into a likelihood: "most likely you're down about 9%",
/// "probably 25%", "I think it's 8 days".
static EPISTEMIC_HEDGE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:most\s+likely|probably|possibly|perhaps|maybe|i\s+think|i\s+believe|i'd\s+guess|i\s+guess|presumably)\b").unwrap()
});

/// A passing prose conclusion whose sentence hedges the figure as a likelihood, before it:
/// the figure reported with a conversational hedge (pass), or a derived value softened into a
/// likelihood (A.5 "Never average or soften": fail). A failing one fails on either reading.
fn hedged(reply: &Reply, figure: Figure) -> Figure {
    let Figure::Decided(r) = &figure else {
        return figure;
    };
    if !r.pass || !matches!(r.source, Source::Prose | Source::Correction) {
        return figure;
    }
    let plain = reply.plain();
    let Some(s) = reply.sentence_range_at(r.num.start) else {
        return figure;
    };
    match EPISTEMIC_HEDGE.find(&plain[s.start..r.num.start]) {
        Some(h) => Figure::Unsure {
            reason: format!(
                "readings disagree: {} hedged as a likelihood (\"{}\"): the figure reported with \
                 a conversational hedge (pass), or a derived value softened (A.5: fail)",
                r.describe(),
                h.as_str()
            ),
            shown: r.num.clone(),
        },
        None => figure,
    }
}

fn decide(out: Vec<Reading>) -> Figure {
    let Some(first) = out.first().cloned() else {
        return Figure::None;
    };
    if out.len() > MAX_READINGS {
        return Figure::Unsure {
            reason: format!(
                "more than {MAX_READINGS} readings of the concluding figure ({}, …)",
                first.describe()
            ),
            shown: first.num,
        };
    }
    if out.iter().all(|r| r.pass == first.pass) {
        return Figure::Decided(first);
    }
    let mut named: Vec<String> = Vec::new();
    for r in &out {
        let d = r.describe();
        if !named.contains(&d) {
            named.push(d);
        }
    }
    Figure::Unsure {
        reason: format!("readings disagree: {}", named.join(", ")),
        shown: first.num,
    }
}

/// The prose's concluding figure, or the correction that follows it.
fn prose_figure<W: Fn(&Reply, &Num) -> bool>(reply: &Reply, wanted: &W) -> Option<(Num, Source)> {
    let n = concluding_figure(reply, |n| wanted(reply, n))?;
    // One scan for correction words after the figure; only their sentences are read.
    let plain = reply.plain();
    // A correction holds from its sentence to the end of its block: "Correction: that divides
    // by the new total. … The increase is 25%."
    let corrected = CORRECTION
        .find_iter(&plain[n.end..])
        .filter_map(|m| {
            let s = reply.sentence_range_at(n.end + m.start())?;
            let b = reply.block_at(s.start)?;
            (s.start >= n.end && !b.is_code()).then_some(s.start..b.plain.end)
        })
        .filter_map(|r| last_asserted(reply, wanted, r))
        .last();
    match corrected {
        Some(c) => Some((c, Source::Correction)),
        None => Some((n, Source::Prose)),
    }
}

/// Between a range's bounds: "8 and", "8 to", "8–", "8-".
static RANGE_GAP: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(?i)^\s*(?:and|to|[-–—])\s*$").unwrap());

/// The concluding figure as the upper bound of a range ("between 8 and 10 percent lower",
/// "20–25%"): a range is not the figure, yet it holds it. The first figure inside the range
/// (bounds and twentieths between them, each read like the bound: same unit, same words
/// around it) that `pass` judges otherwise than the bound is a reading of its own.
fn range_reading<P: Fn(&Reply, &Num) -> bool>(reply: &Reply, n: &Num, pass: &P) -> Option<Reading> {
    let nums = reply.numbers();
    let i = nums.partition_point(|m| m.start < n.start);
    let lo = nums.get(i.checked_sub(1)?)?;
    let gap = reply.plain().get(lo.end..n.start)?;
    if !RANGE_GAP.is_match(gap) || lo.percent && !n.percent || lo.value >= n.value {
        return None;
    }
    let bound = pass(reply, n);
    (0..=20)
        .map(|k| lo.value + (n.value - lo.value) * f64::from(k) / 20.0)
        .map(|value| Num {
            value,
            alt: None,
            raw: format!("{}–{}", lo.display(), n.display()),
            ..n.clone()
        })
        .find(|m| pass(reply, m) != bound)
        .map(|num| Reading {
            source: Source::Range,
            pass: !bound,
            num,
            two_way: false,
        })
}

/// Whether a correction or retraction ("Correction: that's wrong", "scratch that") follows
/// plain offset `at` in the prose: what stood before it is withdrawn.
pub fn corrected_after(reply: &Reply, at: usize) -> bool {
    let plain = reply.plain();
    at < plain.len()
        && CORRECTION
            .find_iter(&plain[at..])
            .any(|m| !reply.in_code(at + m.start()))
}

/// Where the reply's last correction or retraction in prose starts: [`corrected_after`] for
/// every offset at once (`at` is corrected when it lies before this), read in one pass.
pub fn last_correction(reply: &Reply) -> Option<usize> {
    CORRECTION
        .find_iter(reply.plain())
        .map(|m| m.start())
        .filter(|&at| !reply.in_code(at))
        .last()
}

/// The last asserted wanted figure in a plain-text range.
fn last_asserted<W: Fn(&Reply, &Num) -> bool>(
    reply: &Reply,
    wanted: &W,
    r: Range<usize>,
) -> Option<Num> {
    asserted_where(reply, |n| {
        n.start >= r.start && n.end <= r.end && wanted(reply, n)
    })
    .pop()
}

/// The first figure the prose states after a soft correction past `at` ("So the increase is
/// actually 25%"), of those `wanted` accepts, in that word's sentence, with no plain correction after `at`: the sentence
/// and its figure. Beside an earlier conclusion with another figure, two readings.
pub fn soft_correction_after<'r, W: Fn(&Reply, &Num) -> bool>(
    reply: &'r Reply,
    at: usize,
    wanted: &W,
) -> Option<(&'r str, Num)> {
    let plain = reply.plain();
    if at >= plain.len() || !plain.is_char_boundary(at) || corrected_after(reply, at) {
        return None;
    }
    SOFT_CORRECTION
        .find_iter(&plain[at..])
        .filter(|m| !reply.in_code(at + m.start()))
        .find_map(|m| {
            let r = reply.sentence_range_at(at + m.start())?;
            // The figure the soft word leads to: "is actually 25%; 20% is the delta over …".
            let n = asserted_where(reply, |n| {
                n.start >= at + m.end() && n.end <= r.end && wanted(reply, n)
            })
            .into_iter()
            .next()?;
            Some((&plain[r.clone()], n))
        })
}

/// Marked conclusions other than the one the prose concludes in, each with its last asserted
/// wanted figure, when no correction stands between it and the concluding figure.
fn other_marked<W: Fn(&Reply, &Num) -> bool>(
    reply: &Reply,
    wanted: &W,
    concluding: Option<&Num>,
) -> Vec<(Num, Range<usize>)> {
    let Some(c) = concluding else {
        return Vec::new();
    };
    let plain = reply.plain();
    marked_conclusion(reply)
        .into_iter()
        .filter(|r| !(r.start <= c.start && c.end <= r.end))
        .filter_map(|r| last_asserted(reply, wanted, r.clone()).map(|n| (n, r)))
        .filter(|(n, _)| {
            let (a, b) = if n.end <= c.start {
                (n.end, c.start)
            } else {
                (c.end, n.start)
            };
            !CORRECTION.is_match(&plain[a.min(b)..b.max(a)])
        })
        .take(MAX_READINGS + 1)
        .collect()
}

/// The structured answers beside the prose, as texts a [`Reply`] reads as data: fenced JSON or
/// YAML blocks, a bare JSON object, a table's result rows as `Answer: …` lines.
/// With each, its span in the reply's plain text when it stands in the prose (not in code).
fn structured_answers(reply: &Reply) -> Vec<(String, Source, Option<Range<usize>>)> {
    let mut out = Vec::new();
    let mut columns: Vec<String> = Vec::new();
    for (i, b) in reply.blocks().iter().enumerate() {
        if out.len() > MAX_READINGS {
            break;
        }
        let text = reply.block_text(b);
        match &b.kind {
            BlockKind::Code { lang } => {
                let lang = lang.to_ascii_lowercase();
                let body = text.trim();
                let json = (lang == "json" || lang.is_empty()) && is_json_object(body);
                if json {
                    out.push((
                        format!("```json\n{body}\n```"),
                        Source::Json { fenced: true },
                        None,
                    ));
                } else if matches!(lang.as_str(), "yaml" | "yml") {
                    out.push((format!("```yaml\n{body}\n```"), Source::Yaml, None));
                } else if let Some(text) = boxed(&lang, body) {
                    out.push((text, Source::Boxed, None));
                }
            }
            BlockKind::Paragraph if reply.blocks().len() > 1 => {
                let raw = reply.raw_of(b.plain.clone()).trim();
                // The reply's last paragraph may be an object the reply was cut off in.
                let last = reply.blocks().last().is_some_and(|l| l.plain == b.plain);
                let cut = || last.then(|| super::structured::closed_json(raw)).flatten();
                if let Some(json) = is_json_object(raw).then(|| raw.to_string()).or_else(cut) {
                    out.push((json, Source::Json { fenced: false }, Some(b.plain.clone())));
                }
            }
            BlockKind::TableRow { header: true } => {
                columns = result_columns(reply, i);
            }
            BlockKind::TableRow { header: false } => {
                out.extend(column_readings(reply, b, &columns));
                if let Some(first) = b.cells.first() {
                    let label = &reply.plain()[first.clone()];
                    if RESULT_CELL.is_match(label) {
                        let rest: Vec<&str> = b.cells[1..]
                            .iter()
                            .map(|c| &reply.plain()[c.clone()])
                            .collect();
                        out.push((
                            format!("Answer: {}", rest.join(" ")),
                            Source::Table,
                            Some(b.plain.clone()),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A body row's cells under the table's result columns, each as an answer naming its column
/// ("Answer: Net 0% Net": the column's name read before and after the figure, as a label or a
/// unit).
fn column_readings(
    reply: &Reply,
    b: &Block,
    columns: &[String],
) -> Vec<(String, Source, Option<Range<usize>>)> {
    columns
        .iter()
        .zip(&b.cells)
        .filter(|(name, _)| !name.is_empty())
        .map(|(name, cell)| {
            let cell = &reply.plain()[cell.clone()];
            (
                format!("Answer: {name} {cell} {name}"),
                Source::Table,
                Some(b.plain.clone()),
            )
        })
        .collect()
}

/// The header names of a summary table's result columns, by column (empty for the others and
/// the first, which labels the row), for the header row at block `i`; none for a table of more
/// than [`SUMMARY_ROWS`] rows.
fn result_columns(reply: &Reply, i: usize) -> Vec<String> {
    let blocks = reply.blocks();
    let rows = blocks[i + 1..]
        .iter()
        .take_while(|b| matches!(b.kind, BlockKind::TableRow { header: false }))
        .count();
    if rows > SUMMARY_ROWS {
        return Vec::new();
    }
    blocks[i]
        .cells
        .iter()
        .enumerate()
        .map(|(col, c)| {
            let name = reply.plain()[c.clone()].trim();
            if col > 0 && RESULT_COLUMN.is_match(name) {
                name.to_string()
            } else {
                String::new()
            }
        })
        .collect()
}

/// A plain code block that draws a box (box-drawing characters, U+2500–U+257F), or whose line
/// labels the result ("RESULT: increase = 25%", "Answer: 8 days"), is a summary the user
/// reads, not code: its lines, the frame taken off, read as prose.
fn boxed(lang: &str, body: &str) -> Option<String> {
    let plain_lang = matches!(lang, "" | "text" | "txt" | "plain" | "plaintext");
    let drawn = body.chars().any(|c| ('\u{2500}'..='\u{257F}').contains(&c));
    if !plain_lang || !(drawn || body.lines().any(|l| RESULT_LINE.is_match(l))) {
        return None;
    }
    let frame = |c: char| ('\u{2500}'..='\u{257F}').contains(&c) || c.is_whitespace() || c == '|';
    let lines: Vec<&str> = body
        .lines()
        .map(|l| l.trim_matches(frame))
        .filter(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n\n"))
}

fn is_json_object(s: &str) -> bool {
    s.starts_with('{')
        && s.ends_with('}')
        && serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(s).is_ok()
}
