//! A charter as a reader sees it: the rendered Markdown from its title down, as blocks
//! (headings of both Markdown styles, paragraphs, list items, table rows, fenced blocks), each
//! with its section and its place relative to the runtime marker. Text compares after Unicode
//! NFC, typographic punctuation folded, whitespace collapsed and soft breaks joined; HTML
//! comments and anything above the title (page chrome, a byte-order mark) are not part of it.
//! Two charters with the same blocks are the same charter.
//!
//! The plain-text rendering of a charter (a GitHub page copied as text) is read the same way:
//! a short title line between blank lines is a heading and a `•` line is a list item; the
//! Failure-Mode Registry rendered as lines is one paragraph, as a Markdown reader renders it.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;

/// The line that ends what `run` sends (`suite::charter` reads it from here).
pub const RUNTIME_MARKER: &str = "Runtime load ends here";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Heading,
    Paragraph,
    Item,
    Row,
    Code,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: Kind,
    /// The text as compared: NFC, typographic punctuation folded, whitespace collapsed.
    pub text: String,
    /// 1-based line of the file where the block starts.
    pub line: usize,
    /// The top-level section it is in ("" above the first section) and its sub-block heading
    /// ("" when none), e.g. ("Reasoning Procedures", "P1 - Decompose").
    pub section: String,
    pub sub: String,
    /// Above the runtime marker: sent to the model.
    pub runtime: bool,
    /// A list item's number in an ordered list.
    pub ordinal: Option<usize>,
    /// A paragraph's lines as written, each folded: a rendered table (the Failure-Mode
    /// Registry copied from a page) is one paragraph of one row a line.
    pub lines: Vec<String>,
}

/// A charter read as blocks.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    /// The charter's blocks from its title down (title included), the marker line included.
    pub blocks: Vec<Block>,
    /// The blocks above the title: page chrome.
    pub chrome: Vec<Block>,
    /// The title's block index within `blocks` is 0 when there is a title.
    pub title: Option<Block>,
}

/// The top-level sections of a reasoning charter: in a plain-text rendering, where headings
/// have no level, a heading named here starts a section and any other heading is a block
/// within the section above it (`P1 — Decompose`, `A — Arithmetic`).
pub const SECTIONS: [&str; 11] = [
    "Purpose & Scope",
    "Core Invariants",
    "Reasoning Procedures",
    "Procedures",
    "Verification Protocols",
    "Composition",
    "Usage Rules",
    "Versioning & Maintenance",
    "Failure-Mode Registry",
    "Evaluation Harness",
    "Self-Verification",
];

/// The version line as people write it: `Version 0.2.0 — date`, `**Version:** 0.2.0`,
/// `**Version 0.2.0**`, `*Version* v0.2.0 (date)`, `version - 0.2.0`.
pub static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[#>*\s_]*version\b[*_]*\s*[:—-]?[*_\s]*v?([^\s*_]\S*?)[*_]*(?:\s|$)").unwrap()
});

/// A version line written without the word "version", or with words before it, as people write
/// one under the title: `v0.2.0`, `v0.2.0 — 2026-07-10`, `**v1.0.0** (July 20, 2026)`, `0.2.0 —
/// date`, `Charter version: 0.2.0`, `Rev. 0.2.0`, `Release 0.2.0`. Read only between the title and the first heading below it.
static PREAMBLE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[#>*_\s]*(?:(?:[a-z&]+\s+){1,3}version\b[*_]*\s*[:-]?[*_\s]*|(?:rev\.?|revision|release)[*_]*\s*[:-]?[*_\s]*)?v?(\d+\.\d+\.\d+(?:-[0-9a-z.-]*[0-9a-z])?(?:\+[0-9a-z.-]+)?)[*_]*[,.]?\s*(?:$|[-(,;:|·]\s*.*$)").unwrap()
});

/// A version in the title: `Reasoning Charter v0.1.0`, `Reasoning Charter (version 0.1.0)`.
static TITLE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\bversion\s*:?\s*v?|\bv)(\d+\.\d+\.\d+(?:-[0-9a-z.-]*[0-9a-z])?(?:\+[0-9a-z.-]+)?)").unwrap()
});

/// A short block that is a version line in the preamble form.
fn preamble_version(b: &Block) -> Option<String> {
    let t = b.text.replace('*', "");
    (matches!(b.kind, Kind::Paragraph | Kind::Item) && t.chars().count() <= 80)
        .then(|| PREAMBLE_VERSION.captures(&t).map(|c| c[1].to_string()))
        .flatten()
}

/// The head of a protocol or procedure block: `A - Arithmetic.`, `P1 - Decompose`; its name (the
/// second group) at most 41 characters, counted by `block_head` (a counted repetition of a
/// Unicode class, `{1,40}`, compiles to forty copies of it: 2 MB of automaton for every run).
static BLOCK_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\**((?:P\d+|[A-Z])\**\s*-\s*\**([A-Z][\w&' -]+?))\**[.:]").unwrap()
});

/// A paragraph's protocol or procedure head (`A - Arithmetic`), if it opens with one. The lazy
/// name stops at its first `.` or `:`: one longer than 41 characters is no head.
fn block_head(folded: &str) -> Option<&str> {
    let c = BLOCK_HEAD.captures(folded)?;
    (c[2].chars().count() <= 41).then(|| c.get(1).map_or("", |m| m.as_str()))
}

/// Text as compared: NFC, typographic quotes, dashes, ellipses and spaces folded to plain,
/// whitespace collapsed.
pub fn fold(text: &str) -> String {
    let nfc: String = text.nfc().collect();
    let mut out = String::with_capacity(nfc.len());
    for c in nfc.chars() {
        match c {
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => out.push('\''),
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' | '«' | '»' => {
                out.push('"')
            }
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' => {
                out.push('-')
            }
            '\u{2026}' => out.push_str("..."),
            '\u{feff}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' => {}
            c if c.is_whitespace() => out.push(' '),
            c => out.push(c),
        }
    }
    // "--" and "---" typed for a dash are the dash.
    let out = out.replace("---", "-").replace("--", "-");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One leaf block as the parser gave it, before sections are assigned.
struct Raw {
    kind: Kind,
    text: String,
    start: usize,
    ordinal: Option<usize>,
}

impl Raw {
    fn new(kind: Kind, start: usize, ordinal: Option<usize>) -> Raw {
        Raw {
            kind,
            text: String::new(),
            start,
            ordinal,
        }
    }
}

/// The open block, done: kept unless it holds no text.
fn flush(cur: &mut Option<Raw>, out: &mut Vec<Raw>) {
    if let Some(r) = cur.take() {
        if !r.text.trim().is_empty() || r.kind == Kind::Code {
            out.push(r);
        }
    }
}

/// The leaf blocks of a Markdown text in order, inline markup kept as markers (`*`, `**`,
/// `` ` ``) so a change of emphasis is a change, HTML left out.
fn leaves(text: &str) -> Vec<Raw> {
    let mut out: Vec<Raw> = Vec::new();
    let mut cur: Option<Raw> = None;
    let mut lists: Vec<Option<usize>> = Vec::new();
    let mut in_html = 0usize;
    let mut cells = 0usize;
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for (ev, range) in Parser::new_ext(text, opts).into_offset_iter() {
        let open = |kind, ordinal| Raw::new(kind, range.start, ordinal);
        match ev {
            Event::Start(Tag::HtmlBlock) => in_html += 1,
            Event::End(TagEnd::HtmlBlock) => in_html = in_html.saturating_sub(1),
            Event::Html(_) | Event::InlineHtml(_) => {}
            _ if in_html > 0 => {}
            Event::Start(Tag::List(first)) => {
                flush(&mut cur, &mut out);
                lists.push(first.map(|n| n as usize));
            }
            Event::End(TagEnd::List(_)) => {
                flush(&mut cur, &mut out);
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                flush(&mut cur, &mut out);
                cur = Some(open(Kind::Item, next_ordinal(&mut lists)));
            }
            Event::Start(
                tag @ (Tag::Heading { .. } | Tag::CodeBlock(_) | Tag::TableHead | Tag::TableRow),
            ) => {
                flush(&mut cur, &mut out);
                cells = 0;
                cur = Some(open(leaf_kind(&tag), None));
            }
            Event::End(
                TagEnd::Item
                | TagEnd::Heading(_)
                | TagEnd::CodeBlock
                | TagEnd::TableHead
                | TagEnd::TableRow,
            ) => flush(&mut cur, &mut out),
            Event::Start(Tag::Paragraph) => paragraph(&mut cur, &mut out, range.start),
            Event::End(TagEnd::Paragraph) if cur.as_ref().is_some_and(|r| r.kind != Kind::Item) => {
                flush(&mut cur, &mut out)
            }
            Event::Start(Tag::TableCell) => table_cell(&mut cur, &mut cells),
            ev => inline(ev, &mut cur),
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// The ordinal of the next item of the innermost list: an ordered list's items count from its
/// first number; a bullet list's have none.
fn next_ordinal(lists: &mut [Option<usize>]) -> Option<usize> {
    lists.last_mut().and_then(|n| {
        let at = *n;
        *n = n.map(|k| k + 1);
        at
    })
}

/// The kind of leaf a heading, code block or table row opens.
fn leaf_kind(tag: &Tag) -> Kind {
    match tag {
        Tag::Heading { .. } => Kind::Heading,
        Tag::CodeBlock(_) => Kind::Code,
        _ => Kind::Row,
    }
}

/// A paragraph: inside a list item it continues the item on a new line; elsewhere a block of its
/// own from `start`.
fn paragraph(cur: &mut Option<Raw>, out: &mut Vec<Raw>, start: usize) {
    match cur {
        Some(r) if r.kind == Kind::Item => r.text.push('\n'),
        _ => {
            flush(cur, out);
            *cur = Some(Raw::new(Kind::Paragraph, start, None));
        }
    }
}

/// A table cell: cells after the first of a row are joined by " | ".
fn table_cell(cur: &mut Option<Raw>, cells: &mut usize) {
    if let Some(r) = cur {
        if *cells > 0 {
            r.text.push_str(" | ");
        }
    }
    *cells += 1;
}

/// An inline event's text into the open block.
fn inline(ev: Event, cur: &mut Option<Raw>) {
    let Some(r) = cur else { return };
    match ev {
        Event::Text(t) => r.text.push_str(&t),
        Event::Code(t) => {
            r.text.push('`');
            r.text.push_str(&t);
            r.text.push('`');
        }
        // A hard break (two trailing spaces, a backslash) ends a line as a soft break does: a
        // plain-text rendering's lines (bullets, registry rows) stay lines when re-saved with
        // trailing blanks. Both fold to one space in the compared text.
        Event::SoftBreak | Event::HardBreak => r.text.push('\n'),
        Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis) => r.text.push('*'),
        Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) => r.text.push_str("**"),
        Event::Start(Tag::Strikethrough) | Event::End(TagEnd::Strikethrough) => {
            r.text.push_str("~~")
        }
        _ => {}
    }
}

/// A line of a plain-text rendering that reads as a heading: short, capitalised, no closing
/// punctuation, not a list item.
fn plain_title(t: &str) -> bool {
    !t.is_empty()
        && !t.contains('\n')
        && t.chars().count() <= 48
        && !t.ends_with(['.', ':', ',', ';', ')'])
        && !t.starts_with(|c: char| c.is_ascii_digit() || "-*•|".contains(c))
        && t.chars().next().is_some_and(char::is_uppercase)
}

/// A plain-text paragraph cut at its `•` lines: the text before the first bullet, then one
/// item per bullet (its wrapped lines joined).
fn split_bullets(r: Raw, text: &str, out: &mut Vec<Raw>) {
    let mut parts: Vec<(Kind, String, usize)> = Vec::new();
    let mut offset = r.start;
    for line in r.text.split('\n') {
        let t = line.trim_start();
        let at = text[offset.min(text.len())..]
            .find(t.get(..t.len().min(12)).unwrap_or(t))
            .map_or(offset, |i| offset + i);
        if let Some(rest) = t.strip_prefix(['•', '◦', '▪']) {
            parts.push((Kind::Item, rest.trim().to_string(), at));
        } else if let Some(last) = parts.last_mut() {
            last.1.push('\n');
            last.1.push_str(line);
        } else {
            parts.push((r.kind, line.to_string(), at));
        }
        offset = at;
    }
    for (kind, t, start) in parts {
        out.push(Raw {
            kind,
            text: t,
            start,
            ordinal: None,
        });
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Read a charter as blocks.
pub fn read(text: &str) -> Doc {
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let raw = leaves(&text);
    let markdown = raw.iter().any(|r| r.kind == Kind::Heading);
    let mut split = Vec::new();
    for r in raw {
        if r.kind == Kind::Paragraph {
            split_bullets(r, &text, &mut split);
        } else {
            split.push(r);
        }
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut place = Place {
        section: String::new(),
        sub: String::new(),
        runtime: true,
    };
    for r in split {
        let mut kind = r.kind;
        if !markdown
            && kind == Kind::Paragraph
            && plain_title(r.text.trim())
            && !VERSION.is_match(r.text.trim())
            && !PREAMBLE_VERSION.is_match(r.text.trim())
        {
            kind = Kind::Heading;
        }
        let folded = if kind == Kind::Code {
            r.text.trim_end().to_string()
        } else {
            fold(&r.text)
        };
        let line = line_of(&text, r.start);
        let top = kind == Kind::Heading && heading_is_top(&text, &r, markdown);
        place.enter(kind, &r.text, &folded, top);
        blocks.push(Block {
            kind,
            text: folded,
            line,
            section: place.section.clone(),
            sub: place.sub.clone(),
            runtime: place.runtime,
            ordinal: r.ordinal,
            lines: r
                .text
                .split('\n')
                .map(fold)
                .filter(|l| !l.is_empty())
                .collect(),
        });
    }
    cut_at_title(blocks)
}

/// Where a block stands as the document is read: its section, the sub-heading within it, and
/// whether the runtime part (before the marker that ends it) still goes on.
struct Place {
    section: String,
    sub: String,
    runtime: bool,
}

impl Place {
    /// A block of `kind` (its raw text and folded text) moves the place: a heading (`top` for a
    /// section's) names it, a paragraph that heads items names the sub, the marker ends runtime.
    fn enter(&mut self, kind: Kind, raw: &str, folded: &str, top: bool) {
        if kind == Kind::Heading {
            let name = fold(&raw.replace('*', ""));
            if top {
                self.section = name;
                self.sub.clear();
            } else {
                self.sub = name;
            }
        }
        if kind == Kind::Paragraph {
            // A protocol or procedure set as a paragraph (`A — Arithmetic. Trigger: …`) heads
            // the items under it.
            if let Some(head) = block_head(folded) {
                self.sub = head.trim().to_string();
            }
        }
        if kind != Kind::Code && folded.contains(RUNTIME_MARKER) {
            self.runtime = false;
        }
    }
}

/// A heading opens a section: one of the charter's section names, or in Markdown a heading of
/// level 1 or 2.
fn heading_is_top(text: &str, r: &Raw, markdown: bool) -> bool {
    let name = fold(&r.text.replace('*', ""));
    SECTIONS.iter().any(|s| s.eq_ignore_ascii_case(&name))
        || (markdown && heading_level(text, r.start) <= 2)
}

/// A Markdown heading's level from its source: `#` count, or 1/2 for a setext underline.
fn heading_level(text: &str, start: usize) -> usize {
    let line = text[start..].lines().next().unwrap_or("");
    let hashes = line.trim_start().chars().take_while(|c| *c == '#').count();
    if hashes > 0 {
        return hashes;
    }
    let under = text[start..].lines().skip(1).find(|l| {
        let t = l.trim();
        !t.is_empty() && t.chars().all(|c| c == '=' || c == '-')
    });
    match under.map(|l| l.trim().starts_with('=')) {
        Some(true) => 1,
        _ => 2,
    }
}

/// Whether a block is a version line.
pub fn is_version(b: &Block) -> bool {
    b.kind != Kind::Code && VERSION.is_match(&b.text.replace('*', ""))
}

/// The title is the heading nearest above the first version line, else the first heading;
/// what is above it is page chrome.
fn cut_at_title(mut blocks: Vec<Block>) -> Doc {
    // A version line in the preamble form counts right under a heading.
    let first_version = blocks.iter().position(is_version).or_else(|| {
        (1..blocks.len()).find(|&k| {
            blocks[k - 1].kind == Kind::Heading && preamble_version(&blocks[k]).is_some()
        })
    });
    let title = match first_version {
        Some(v) => blocks[..v]
            .iter()
            .rposition(|b| b.kind == Kind::Heading)
            .or_else(|| blocks.iter().position(|b| b.kind == Kind::Heading)),
        None => blocks.iter().position(|b| b.kind == Kind::Heading),
    };
    let Some(at) = title else {
        return Doc {
            blocks,
            chrome: Vec::new(),
            title: None,
        };
    };
    let rest = blocks.split_off(at);
    // Chrome sits in no section.
    let chrome = blocks;
    Doc {
        title: rest.first().cloned(),
        blocks: rest,
        chrome,
    }
}

impl Doc {
    /// The blocks of the section named `name` (case-insensitive).
    pub fn section<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks
            .iter()
            .filter(move |b| b.section.eq_ignore_ascii_case(name) && !is_heading_of(b, name))
    }

    pub fn has_section(&self, name: &str) -> bool {
        self.blocks
            .iter()
            .any(|b| b.kind == Kind::Heading && b.text.replace('*', "").eq_ignore_ascii_case(name))
    }

    /// The version lines below the title (a version string in chrome or a comment is none).
    pub fn version_lines(&self) -> Vec<&Block> {
        (0..self.blocks.len())
            .filter(|&k| self.version_at(k).is_some())
            .map(|k| &self.blocks[k])
            .collect()
    }

    /// The version a block states when it is a version line: `Version 0.2.0 …` anywhere below
    /// the title, the preamble forms (`v0.2.0 — date`) between the title and the first heading.
    pub fn version_at(&self, k: usize) -> Option<String> {
        let b = self.blocks.get(k)?;
        if is_version(b) {
            return VERSION
                .captures(&b.text.replace('*', ""))
                .map(|c| c[1].trim_end_matches(['-', ',', '.']).to_string())
                .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()));
        }
        let preamble = k > 0 && !self.blocks[1..k].iter().any(|b| b.kind == Kind::Heading);
        preamble.then(|| preamble_version(b)).flatten()
    }

    /// The title's text without the version it states: the version is compared as a version.
    pub fn title_words(&self) -> Option<String> {
        let t = self.title.as_ref()?;
        Some(fold(&TITLE_VERSION.replace_all(&t.text, "")))
    }

    /// A version the title states (`Reasoning Charter v0.1.0`), and the title's line.
    pub fn title_version(&self) -> Option<(String, usize)> {
        let t = self.title.as_ref()?;
        let c = TITLE_VERSION.captures(&t.text)?;
        Some((c[1].to_string(), t.line))
    }

    pub fn has_marker(&self) -> bool {
        self.blocks
            .iter()
            .any(|b| b.kind != Kind::Code && b.text.contains(RUNTIME_MARKER))
    }
}

fn is_heading_of(b: &Block, name: &str) -> bool {
    b.kind == Kind::Heading && b.text.replace('*', "").eq_ignore_ascii_case(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_block_head_names_its_protocol_up_to_41_characters_in_any_script() {
        assert_eq!(
            block_head("A - Arithmetic. Trigger: any figure"),
            Some("A - Arithmetic")
        );
        assert_eq!(
            block_head("**P2 - Decompose**: steps"),
            Some("P2 - Decompose")
        );
        assert_eq!(
            block_head("B - Aritmética básica: x"),
            Some("B - Aritmética básica")
        );
        let name = format!("C - N{}", "a".repeat(40));
        assert_eq!(block_head(&format!("{name}. x")), Some(name.as_str()));
        assert_eq!(block_head(&format!("C - N{}. x", "a".repeat(41))), None);
        assert_eq!(block_head("a - lower case. x"), None);
        assert_eq!(block_head("Arithmetic. x"), None);
    }

    use super::*;

    fn texts(d: &Doc) -> Vec<(Kind, String, String, bool)> {
        d.blocks
            .iter()
            .map(|b| (b.kind, b.text.clone(), b.section.clone(), b.runtime))
            .collect()
    }

    #[test]
    fn setext_and_atx_headings_crlf_a_bom_and_comments_read_as_the_same_blocks() {
        let atx = "# Charter\n\nVersion 1.0.0\n\n## Core Invariants\n\n1. **One.** Do \"it\".\n\nRuntime load ends here.\n";
        let setext = "\u{feff}Skip to content\r\n\r\nCharter\r\n=======\r\n\r\nVersion 1.0.0\r\n\r\n<!-- a note -->\r\nCore Invariants\r\n---------------\r\n\r\n1.  **One.**\r\n    Do \u{201c}it\u{201d}.\r\n\r\nRuntime load ends here.\r\n";
        let (a, b) = (read(atx), read(setext));
        assert_eq!(texts(&a), texts(&b));
        assert_eq!(b.chrome.len(), 1);
        assert_eq!(a.blocks[2].section, "Core Invariants");
        assert!(!a.blocks.last().unwrap().runtime);
    }

    #[test]
    fn a_plain_text_rendering_has_sections_items_and_registry_rows() {
        let t = "Charter\n\nVersion 0.1.0\n\nComposition\n\n  • Scope: this.\n  • Memory layer: that,\n    wrapped.\n\nRuntime load ends here.\n\nFailure-Mode Registry\n\nFailure mode Signature Mitigation\nA row B C\n";
        let d = read(t);
        let items: Vec<&str> = d
            .section("Composition")
            .filter(|b| b.kind == Kind::Item)
            .map(|b| b.text.as_str())
            .collect();
        assert_eq!(items, ["Scope: this.", "Memory layer: that, wrapped."]);
        let rows: Vec<&Block> = d.section("Failure-Mode Registry").collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].lines,
            ["Failure mode Signature Mitigation", "A row B C"]
        );
        assert!(!rows[0].runtime);
    }

    #[test]
    fn typographic_punctuation_nfd_and_spacing_fold() {
        assert_eq!(
            fold("A \u{2018}b\u{2019} \u{2014} c\u{2026}  =\u{338}\n d"),
            fold("A 'b' - c... \u{2260} d")
        );
    }
}
