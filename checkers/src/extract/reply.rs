//! The reply model: a model's Markdown reply read by a CommonMark parser (pulldown-cmark, with
//! its table and math extensions) into blocks and one plain text, with byte spans back into
//! what the model wrote.
//!
//! Plain text puts every block on its own line(s): a paragraph (soft line breaks kept as line
//! breaks, as chat interfaces show them), a heading, a list item (nested items are blocks of
//! their own), a table row (cells joined by ` | `), a fenced or indented code block (verbatim).
//! Emphasis, links and inline-code markers are dropped; LaTeX math (`$…$`, `$$…$$`, `\(…\)`,
//! `\[…\]`) is rewritten as plain arithmetic ([`super::latex`]). A `$…$` pair that is really two
//! amounts of money (`$80k → $100k`, `$20k / $80k`) stays money.
//!
//! Sentences are computed once per reply (Unicode sentence boundaries, never across a line), so
//! finding the sentence around a number is a binary search, not a rescan.

use super::claim_cache::{LineMeta, QuoteMarks, SentenceMeta};
use super::latex;
use crate::transcript::Transcript;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

pub use super::block::{Block, BlockKind};

/// A stretch of plain text and the raw bytes it came from. `exact` stretches are the raw text
/// byte for byte, so offsets inside them map one to one.
#[derive(Debug, Clone)]
struct Segment {
    plain: Range<usize>,
    raw: Range<usize>,
    message: usize,
    exact: bool,
}

/// One or more replies of a transcript, read as Markdown.
#[derive(Debug, Clone, Default)]
pub struct Reply<'a> {
    raws: Vec<&'a str>,
    plain: String,
    blocks: Vec<Block>,
    segments: Vec<Segment>,
    /// Computed on first use: a reply read only for its arithmetic never pays for them.
    sentences: std::sync::OnceLock<Vec<Range<usize>>>,
    /// Every number of the plain text, found once however many criteria read them.
    numbers: std::sync::OnceLock<Vec<super::num::Num>>,
    exprs: std::sync::OnceLock<Vec<super::expr::Expr>>,
    /// What the claim model knows of each sentence, computed once for all of them.
    pub(crate) sentence_meta: std::sync::OnceLock<Vec<SentenceMeta>>,
    /// What the claim model knows of each line, and where the quotation marks are.
    pub(crate) line_meta: std::sync::OnceLock<Vec<LineMeta>>,
    pub(crate) quote_marks: std::sync::OnceLock<QuoteMarks>,
    /// What the user wrote, so a sentence that only echoes it is read as the user's words, not
    /// the model's claim; white space collapsed on first use.
    prompt_raw: Vec<&'a str>,
    prompt: std::sync::OnceLock<String>,
}

impl<'a> Reply<'a> {
    /// Read one reply.
    pub fn parse(raw: &'a str) -> Self {
        Self::parse_all([raw])
    }

    /// Read several replies (a model's turns, in order) into one plain text, one after another,
    /// each without its decoding leftovers (template tokens, role prefix, an imitated turn).
    pub fn parse_all(raws: impl IntoIterator<Item = &'a str>) -> Self {
        let mut r = Reply::default();
        for (i, raw) in raws.into_iter().enumerate() {
            let raw = super::leftovers::reply_text(raw);
            r.raws.push(raw);
            Builder::new(&mut r, raw, i).run();
        }
        r
    }

    /// The same reply, knowing what the user wrote (one or more messages).
    pub fn with_prompt(mut self, prompt: impl IntoIterator<Item = &'a str>) -> Self {
        self.prompt_raw = prompt.into_iter().collect();
        self.prompt = Default::default();
        self
    }

    /// What the user wrote, white space collapsed ("" when unknown).
    pub fn prompt(&self) -> &str {
        self.prompt
            .get_or_init(|| super::text::normalize_ws(&self.prompt_raw.join("\n")))
    }

    /// Length of what the user wrote, before white space is collapsed (cheap).
    pub fn prompt_len(&self) -> usize {
        self.prompt_raw.iter().map(|p| p.len() + 1).sum()
    }

    /// Everything the reader sees, one block a line.
    pub fn plain(&self) -> &str {
        &self.plain
    }

    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The text of a block.
    pub fn block_text(&self, b: &Block) -> &str {
        &self.plain[b.plain.clone()]
    }

    /// The block that holds plain offset `at`.
    pub fn block_at(&self, at: usize) -> Option<&Block> {
        let i = self.blocks.partition_point(|b| b.plain.end < at);
        self.blocks.get(i).filter(|b| b.plain.start <= at)
    }

    /// Whether plain offset `at` lies in a code block.
    pub fn in_code(&self, at: usize) -> bool {
        self.block_at(at).is_some_and(Block::is_code)
    }

    /// Plain-text lines of prose blocks (code blocks left out), with their offsets.
    pub fn prose_lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.blocks.iter().filter(|b| !b.is_code()).flat_map(|b| {
            let text = &self.plain[b.plain.clone()];
            let base = b.plain.start;
            super::sentences::line_offsets(text).map(move |(o, l)| (base + o, l))
        })
    }

    /// Every plain-text line with its offset, code included.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        super::sentences::line_offsets(&self.plain)
    }

    /// Bodies of code blocks, verbatim.
    pub fn code_blocks(&self) -> impl Iterator<Item = (&Block, &str)> {
        self.blocks
            .iter()
            .filter(|b| b.is_code())
            .map(|b| (b, &self.plain[b.plain.clone()]))
    }

    /// Sentence spans of the plain text (trimmed; never across a line; code lines included).
    pub fn sentence_spans(&self) -> &[Range<usize>] {
        self.sentences
            .get_or_init(|| super::sentences::sentence_ranges(&self.plain))
    }

    /// Sentence spans of prose (outside code blocks).
    pub fn prose_sentence_spans(&self) -> impl Iterator<Item = &Range<usize>> {
        self.sentence_spans()
            .iter()
            .filter(|r| !self.in_code(r.start))
    }

    /// Sentences of prose (outside code blocks).
    pub fn sentences(&self) -> impl Iterator<Item = &str> {
        self.prose_sentence_spans().map(|r| &self.plain[r.clone()])
    }

    /// The sentence that holds plain offset `at`, or "".
    pub fn sentence_at(&self, at: usize) -> &str {
        self.sentence_range_at(at)
            .map_or("", |r| &self.plain[r.clone()])
    }

    pub fn sentence_range_at(&self, at: usize) -> Option<&Range<usize>> {
        let spans = self.sentence_spans();
        let i = spans.partition_point(|r| r.end <= at);
        spans.get(i).filter(|r| r.start <= at)
    }

    /// Every number in the plain text, left to right (computed once).
    pub fn numbers(&self) -> &[super::num::Num] {
        self.numbers
            .get_or_init(|| super::numbers::find_numbers(&self.plain))
    }

    /// Every arithmetic expression in the plain text (computed once).
    pub fn exprs(&self) -> &[super::expr::Expr] {
        self.exprs
            .get_or_init(|| super::expr::find_exprs_in(&self.plain, self.numbers()))
    }

    /// Prose sentences that ask the reader something.
    pub fn questions(&self) -> impl Iterator<Item = &str> {
        self.sentences().filter(|s| is_question(s))
    }

    /// What the model wrote for a plain-text range: the raw bytes it came from, as written.
    pub fn raw_of(&self, range: Range<usize>) -> &'a str {
        let first = self
            .segments
            .partition_point(|s| s.plain.end <= range.start);
        let Some(a) = self.segments.get(first) else {
            return "";
        };
        let last = self.segments.partition_point(|s| s.plain.start < range.end);
        let b = &self.segments[last.saturating_sub(1).max(first)];
        let raw = self.raws[a.message];
        let start = if a.exact && range.start >= a.plain.start {
            a.raw.start + (range.start - a.plain.start)
        } else {
            a.raw.start
        };
        let end = if b.message != a.message {
            raw.len()
        } else if b.exact && range.end <= b.plain.end {
            b.raw.start + (range.end.max(b.plain.start) - b.plain.start)
        } else {
            b.raw.end
        };
        raw.get(start..end.max(start)).unwrap_or("")
    }
}

/// The reply the user reads at the end of a transcript.
pub fn final_reply(t: &Transcript) -> Reply<'_> {
    Reply::parse(t.final_reply()).with_prompt(user_messages(t))
}

/// Everything the model wrote, turn by turn.
pub fn model_replies(t: &Transcript) -> Reply<'_> {
    Reply::parse_all(t.replies().map(|m| m.content.as_str())).with_prompt(user_messages(t))
}

fn user_messages(t: &Transcript) -> impl Iterator<Item = &str> {
    t.messages
        .iter()
        .filter(|m| m.role == crate::transcript::Role::User)
        .map(|m| m.content.as_str())
}

/// Everything the user wrote in the transcript, one message a line.
pub fn user_text(t: &Transcript) -> String {
    t.messages
        .iter()
        .filter(|m| m.role == crate::transcript::Role::User)
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The final reply and everything the model wrote, read once when they are the same text (one
/// reply with words): a long reply is parsed once, not twice.
/// `None` stands for "the same as the final reply": use `all.as_ref().unwrap_or(&final)`.
pub fn final_and_all(t: &Transcript) -> (Reply<'_>, Option<Reply<'_>>) {
    let with_text = t.replies().filter(|m| m.has_reply()).count();
    if with_text == 1 {
        (model_replies(t), None)
    } else {
        (final_reply(t), Some(model_replies(t)))
    }
}

pub use super::sentences::is_question;

/// Builds the plain text and blocks of one message from parser events.
struct Builder<'r, 'a> {
    r: &'r mut Reply<'a>,
    raw: &'a str,
    message: usize,
    /// Start of the block being written, and its kind.
    open: Option<(BlockKind, usize)>,
    cells: Vec<Range<usize>>,
    cell_start: Option<usize>,
    list_depth: usize,
    ordered: Vec<bool>,
    /// The number of the current item of each open list.
    numbers: Vec<u64>,
    quote_depth: usize,
    /// Per open block quote, whether it is a quotation (counted in `quote_depth`).
    quotes: Vec<bool>,
    in_head: bool,
    /// An HTML block being read: its text and raw span, read at its end for tables.
    html: Option<(String, Range<usize>)>,
    /// The message's footnote definitions (`[^a]: assumed — user-reported`), by marker.
    footnotes: Vec<(String, String)>,
}

impl<'r, 'a> Builder<'r, 'a> {
    fn new(r: &'r mut Reply<'a>, raw: &'a str, message: usize) -> Self {
        Builder {
            r,
            raw,
            message,
            open: None,
            cells: Vec::new(),
            cell_start: None,
            list_depth: 0,
            ordered: Vec::new(),
            numbers: Vec::new(),
            quote_depth: 0,
            quotes: Vec::new(),
            in_head: false,
            html: None,
            footnotes: super::footnotes::definitions(raw),
        }
    }

    fn run(mut self) {
        let opts = Options::ENABLE_TABLES
            | Options::ENABLE_MATH
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS;
        let raw = self.raw;
        // Thinking blocks are scratch work, not the answer; a JSON or YAML answer is read as
        // the prose of its values (`structured`).
        for region in super::structured::visible(raw) {
            if let Some(values) = super::structured::answer_values(raw, region.clone()) {
                for v in values {
                    use super::structured_value::Shape;
                    self.begin(match v.shape {
                        Shape::Line => BlockKind::Paragraph,
                        Shape::Item => BlockKind::ListItem {
                            ordered: false,
                            depth: 1,
                        },
                        Shape::Code => BlockKind::Code {
                            lang: String::new(),
                        },
                    });
                    let text = match v.shape {
                        Shape::Code => v.text,
                        _ => super::fold::fold(&latex::to_plain(&v.text)).into_owned(),
                    };
                    self.push(&text, v.raw, false);
                }
                continue;
            }
            let part = &raw[region.clone()];
            let mut run: Vec<(pulldown_cmark::CowStr, Range<usize>)> = Vec::new();
            for (ev, range) in Parser::new_ext(part, opts).into_offset_iter() {
                let range = range.start + region.start..range.end + region.start;
                if let Event::Text(t) = ev {
                    if run
                        .last()
                        .is_some_and(|(_, r)| !latex::adjoins(raw, r, &range))
                    {
                        self.text_run(&mut run);
                    }
                    run.push((t, range));
                    continue;
                }
                self.text_run(&mut run);
                self.event(ev, range);
            }
            self.text_run(&mut run);
            self.close();
        }
        self.close();
    }

    fn begin(&mut self, kind: BlockKind) {
        self.close();
        self.open = Some((kind, self.r.plain.len()));
    }

    /// Ends the open block, if it holds any text.
    fn close(&mut self) {
        let Some((kind, start)) = self.open.take() else {
            return;
        };
        let plain = &mut self.r.plain;
        while plain.len() > start && plain.ends_with([' ', '\n']) {
            plain.pop();
        }
        self.with_footnotes(start);
        let plain = &mut self.r.plain;
        let end = plain.len();
        if end > start {
            let number = match kind {
                BlockKind::ListItem { ordered: true, .. } => self.numbers.last().copied(),
                _ => None,
            };
            self.r.blocks.push(Block {
                number,
                kind,
                quote_depth: self.quote_depth,
                plain: start..end,
                cells: std::mem::take(&mut self.cells),
                message: self.message,
            });
            plain.push('\n');
        } else {
            self.cells.clear();
        }
    }

    /// Text inside a block; a paragraph-less spot (a tight list item) opens its block lazily.
    fn push(&mut self, text: &str, raw: Range<usize>, exact: bool) {
        if self.open.is_none() {
            let kind = if self.list_depth > 0 {
                BlockKind::ListItem {
                    ordered: self.ordered.last().copied().unwrap_or(false),
                    depth: self.list_depth,
                }
            } else {
                BlockKind::Paragraph
            };
            self.open = Some((kind, self.r.plain.len()));
        }
        if text.is_empty() {
            return;
        }
        let start = self.r.plain.len();
        self.r.plain.push_str(text);
        self.r.segments.push(Segment {
            plain: start..self.r.plain.len(),
            raw,
            message: self.message,
            exact,
        });
    }

    fn push_sep(&mut self, sep: &str) {
        if self.open.is_some() && !(sep == "\n" && self.r.plain.ends_with('\n')) {
            self.r.plain.push_str(sep);
        }
    }

    /// A run of adjoining text events: one text where CommonMark's escapes cut a LaTeX
    /// command ([`latex::cut_run`]), else event by event, as always (exact spans).
    fn text_run(&mut self, run: &mut Vec<(pulldown_cmark::CowStr<'a>, Range<usize>)>) {
        let in_code = matches!(self.open, Some((BlockKind::Code { .. }, _)));
        match latex::cut_run(self.raw, run).filter(|_| !in_code) {
            Some((merged, span)) => {
                run.clear();
                let plain = latex::to_plain(&merged);
                self.push(&super::fold::fold(&plain), span, false);
            }
            None => {
                for (t, range) in run.drain(..) {
                    self.event(Event::Text(t), range);
                }
            }
        }
    }

    fn text(&mut self, mut text: &str, mut range: Range<usize>) {
        // `\(` `\)` `\[` `\]` delimit LaTeX math; CommonMark reads them as escaped brackets and
        // starts a text event at the bracket, right after the backslash.
        let escaped = range.start > 0 && self.raw.as_bytes()[range.start - 1] == b'\\';
        if escaped && text.starts_with(['(', ')', '[', ']']) {
            text = &text[1..];
            range.start += 1;
        }
        let exact = self.raw.get(range.clone()) == Some(text);
        let plain = latex::to_plain(text);
        let plain = super::fold::fold(&plain);
        let exact = exact && plain == text;
        self.push(&plain, range, exact);
    }

    /// Inside an HTML block, its pieces are collected and read whole at its end (for the tables
    /// it may hold): true when `ev` was such a piece.
    fn html_block_event(&mut self, ev: &Event<'a>, range: &Range<usize>) -> bool {
        let Some((text, span)) = self.html.as_mut() else {
            return false;
        };
        match ev {
            Event::Html(h) => {
                text.push_str(h);
                span.start = span.start.min(range.start);
                span.end = range.end;
                true
            }
            Event::End(TagEnd::HtmlBlock) => {
                let (text, span) = self.html.take().unwrap_or_default();
                self.html_tables(&text, span);
                true
            }
            _ => false,
        }
    }

    fn event(&mut self, ev: Event<'a>, range: Range<usize>) {
        if self.html_block_event(&ev, &range) {
            return;
        }
        match ev {
            Event::Start(tag) => {
                if matches!(tag, Tag::BlockQuote(_)) {
                    let own = super::structured::own_callout(&self.raw[range.clone()]);
                    self.quotes.push(!own);
                }
                self.start(tag)
            }
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if matches!(self.open, Some((BlockKind::Code { .. }, _))) {
                    // Code is verbatim: the raw bytes, never unescaped or rewritten.
                    let raw = &self.raw[range.clone()];
                    self.push(raw, range, true);
                } else {
                    self.text(&t, range);
                }
            }
            Event::Code(t) => {
                let exact = self.raw.get(range.clone()) == Some(&*t);
                self.push(&t, range, exact);
            }
            Event::InlineMath(m) => {
                // `$80k → $100k`: a closing dollar right before a digit opens an amount.
                let next = self.raw[range.end..].chars().next();
                if next.is_some_and(|c| c.is_ascii_digit()) || m.starts_with(char::is_whitespace) {
                    let raw = &self.raw[range.clone()];
                    self.push(raw, range, true);
                } else {
                    self.push(&latex::to_plain(&m), range, false);
                }
            }
            Event::DisplayMath(m) => {
                let text = latex::to_plain(m.trim());
                self.push_sep("\n");
                self.push(text.trim(), range, false);
                self.push_sep("\n");
            }
            Event::SoftBreak | Event::HardBreak => self.push_sep("\n"),
            Event::Html(h) | Event::InlineHtml(h) => {
                let tag = h.trim().to_ascii_lowercase();
                if tag.starts_with("<br") {
                    self.push_sep(" ");
                }
            }
            Event::TaskListMarker(done) => {
                self.push(if done { "[x] " } else { "[ ] " }, range, false)
            }
            Event::FootnoteReference(_) | Event::Rule => {}
        }
    }

    /// Footnote markers in the block from `start` replaced by their definitions in brackets
    /// (CommonMark splits `[^a]` into several text events, so the block is read whole); a
    /// definition's own marker (`[^a]:`) is left as written. The block's spans then map to its
    /// raw text as a whole.
    fn with_footnotes(&mut self, start: usize) {
        let Some(out) = super::footnotes::resolve(&self.r.plain[start..], &self.footnotes) else {
            return;
        };
        let first = self.r.segments.partition_point(|g| g.plain.start < start);
        let raw = match (self.r.segments.get(first), self.r.segments.last()) {
            (Some(a), Some(b)) if a.message == self.message => a.raw.start..b.raw.end,
            _ => return,
        };
        self.r.segments.truncate(first);
        self.r.plain.truncate(start);
        self.r.plain.push_str(&out);
        self.r.segments.push(Segment {
            plain: start..self.r.plain.len(),
            raw,
            message: self.message,
            exact: false,
        });
    }

    /// An HTML block's tables, as table rows: each cell folded like prose, its span the block's;
    /// a block without a table is a paragraph of its text, tags dropped.
    fn html_tables(&mut self, html: &str, span: Range<usize>) {
        let span = span.start.min(span.end)..span.end;
        let rows = super::html::table_rows(html);
        if let (true, Some(text)) = (rows.is_empty(), super::html::element_text(html)) {
            self.begin(BlockKind::Paragraph);
            self.push(&super::fold::fold(&text), span, false);
            return self.close();
        }
        for row in rows {
            self.begin(BlockKind::TableRow { header: row.header });
            for (i, cell) in row.cells.iter().enumerate() {
                if i > 0 {
                    self.push_sep(" | ");
                }
                let start = self.r.plain.len();
                self.push(&super::fold::fold(cell), span.clone(), false);
                self.cells.push(start..self.r.plain.len());
            }
            self.close();
        }
    }

    fn start(&mut self, tag: Tag<'a>) {
        match tag {
            Tag::HtmlBlock => {
                self.close();
                self.html = Some((String::new(), self.raw.len()..0));
            }
            Tag::Paragraph
                // A paragraph inside a list item continues the item's block.
                if !(self.list_depth > 0 && self.open.is_some()) => {
                    self.begin(if self.list_depth > 0 {
                        BlockKind::ListItem {
                            ordered: self.ordered.last().copied().unwrap_or(false),
                            depth: self.list_depth,
                        }
                    } else {
                        BlockKind::Paragraph
                    });
                }
            Tag::Heading { level, .. } => self.begin(BlockKind::Heading(level as u8)),
            Tag::List(first) => {
                self.close();
                self.list_depth += 1;
                self.ordered.push(first.is_some());
                self.numbers.push(first.unwrap_or(1).saturating_sub(1));
            }
            Tag::Item => self.list_item(),
            // A block quote the reply heads as its own ("> **Report:** …") holds its words.
            Tag::BlockQuote(_) => {
                self.close();
                self.quote_depth += usize::from(self.quotes.last() != Some(&false));
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.split_whitespace().next().unwrap_or("").into(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.begin(BlockKind::Code { lang });
            }
            Tag::TableHead => {
                self.in_head = true;
                self.begin(BlockKind::TableRow { header: true });
            }
            Tag::TableRow => self.begin(BlockKind::TableRow { header: false }),
            Tag::TableCell => self.table_cell(),
            _ => {}
        }
    }

    /// A list item: a block of its own, numbered in an ordered list.
    fn list_item(&mut self) {
        self.close();
        if let Some(n) = self.numbers.last_mut() {
            *n += 1;
        }
        self.begin(BlockKind::ListItem {
            ordered: self.ordered.last().copied().unwrap_or(false),
            depth: self.list_depth,
        })
    }

    /// A table cell: cells are joined by " | " in their row's block, opened by the first cell.
    fn table_cell(&mut self) {
        if !self.cells.is_empty() || self.cell_start.is_some() {
            self.push_sep(" | ");
        }
        if self.open.is_none() {
            self.open = Some((
                BlockKind::TableRow {
                    header: self.in_head,
                },
                self.r.plain.len(),
            ));
        }
        self.cell_start = Some(self.r.plain.len());
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                if self.list_depth > 0 {
                    self.push_sep("\n");
                } else {
                    self.close();
                }
            }
            TagEnd::Heading(_) | TagEnd::Item | TagEnd::CodeBlock => self.close(),
            TagEnd::TableHead => {
                self.close();
                self.in_head = false;
            }
            TagEnd::TableRow => self.close(),
            TagEnd::TableCell => {
                if let Some(s) = self.cell_start.take() {
                    self.cells.push(s..self.r.plain.len());
                }
            }
            TagEnd::List(_) => {
                self.close();
                self.list_depth -= 1;
                self.ordered.pop();
                self.numbers.pop();
            }
            TagEnd::BlockQuote(_) => {
                self.close();
                self.quote_depth -= usize::from(self.quotes.pop() != Some(false));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "reply_tests.rs"]
mod tests;
