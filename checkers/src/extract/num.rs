//! One number as written in a reply, with its value normalized: the type that the digit reader
//! (`numbers`) and the word reader (`words`) both produce.

/// One number as written, with its value normalized.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    pub start: usize,
    pub end: usize,
    pub raw: String,
    /// The value with thousands separators, `k`/`M` and sign applied; a percentage keeps its
    /// percent value (25 for `25%`).
    pub value: f64,
    pub percent: bool,
    pub money: bool,
    /// Written in words ("twenty-five percent", "a quarter", "eight").
    pub words: bool,
    /// An ordinal ("3rd" is not; "the third" is): a rank, which counts only where a count is meant.
    pub ordinal: bool,
    /// The figure's other reading when its notation leaves it two-way ("1.250": 1.25, or 1250
    /// with the point grouping thousands), scaled and signed like `value`.
    pub alt: Option<f64>,
}

impl Num {
    /// Every reading of the figure: its value, then its other reading if it has one.
    pub fn readings(&self) -> impl Iterator<Item = Num> + '_ {
        std::iter::once(self.clone()).chain(self.alt.map(|a| Num {
            value: a,
            alt: None,
            ..self.clone()
        }))
    }

    /// The value as a plain fraction: `25%` and `0.25` both give 0.25.
    pub fn fraction(&self) -> f64 {
        if self.percent {
            self.value / 100.0
        } else {
            self.value
        }
    }
    /// A percentage as its percent value, a plain number as written.
    pub fn display(&self) -> String {
        self.raw.trim().to_string()
    }
}
