//! What the claim model (`claims`) reads once per sentence and per line, cached with the reply
//! it reads: a reply of one enormous line or sentence full of figures stays linear.

use std::ops::Range;

/// What the claim model reads once per sentence, whatever number of figures it holds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SentenceMeta {
    pub(crate) question: bool,
    /// In a block quote, restating someone ("You said…", "The page says…"), or echoing the user.
    pub(crate) attributed: bool,
    pub(crate) next_rejects: bool,
    pub(crate) next_adopts: bool,
    /// Where a sentence that opens by restating someone starts to speak in its own voice (a
    /// plain offset: "You said we're even, and for the deck that works: …").
    pub(crate) own_from: Option<usize>,
}

/// What the claim model reads once per line: its plain range, and whether it restates or
/// diagnoses what was given ("Diagnosis: …", "Claimed: …").
#[derive(Debug, Clone)]
pub(crate) struct LineMeta {
    pub(crate) range: Range<usize>,
    pub(crate) diagnostic: bool,
}

/// The plain offsets of the reply's quotation marks, so the quotes open before a figure are
/// counted without rereading its sentence: `"`, `“` and `”`.
#[derive(Debug, Clone, Default)]
pub(crate) struct QuoteMarks {
    pub(crate) straight: Vec<usize>,
    pub(crate) open: Vec<usize>,
    pub(crate) close: Vec<usize>,
}
