//! A reply's blocks ([`super::reply`]): what kind each is (a paragraph, heading, list item, table
//! row or code block), where it sits in the plain text and which message it came from. The
//! types are apart from the reader that builds them, which reads Markdown into them.

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockKind {
    Paragraph,
    Heading(u8),
    /// A list item; `depth` 1 is a top-level item.
    ListItem {
        ordered: bool,
        depth: usize,
    },
    TableRow {
        header: bool,
    },
    Code {
        lang: String,
    },
}

#[derive(Debug, Clone)]
pub struct Block {
    pub kind: BlockKind,
    /// Inside how many block quotes.
    pub quote_depth: usize,
    /// The block's text in [`Reply::plain`](super::reply::Reply::plain) (without its closing newline).
    pub plain: Range<usize>,
    /// Table cells, as ranges of [`Reply::plain`](super::reply::Reply::plain).
    pub cells: Vec<Range<usize>>,
    /// Which message of the reply set the block came from.
    pub message: usize,
    /// The number an ordered list item carries ("3." is 3).
    pub number: Option<u64>,
}

impl Block {
    pub fn is_code(&self) -> bool {
        matches!(self.kind, BlockKind::Code { .. })
    }
}
