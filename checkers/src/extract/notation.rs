//! The world's number notations: which mark is the decimal one in a written figure ("0,25",
//! "1.250,5", "80 000", "80'000", "1,250,000"), decided by the figure itself where it can be and
//! otherwise by the notation the reply establishes; a figure neither settles has two readings.
//!
//! The charter's normalised forms keep their English reading (`80,000` is eighty thousand, `0.25`
//! a quarter) unless the reply establishes decimal commas by a figure only that notation writes
//! ("0,25", "25,5 %", "1.250.000", "1.250,5"). Only "1.250" (a point before exactly three
//! digits) stays two-way when nothing settles it: 1.25 first, 1250 as its other reading.

/// Which mark a reply writes decimals with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decimal {
    /// Nothing settles it, or the reply writes both.
    #[default]
    Unknown,
    Point,
    Comma,
}

/// Grouping marks other than `,` and `.`: never a decimal mark.
pub(crate) fn is_group_mark(c: char) -> bool {
    matches!(
        c,
        '\'' | '’' | '_' | ' ' | '\u{2009}' | '\u{202F}' | '\u{A0}'
    )
}

/// A figure's digits split at its marks: the digit runs and the marks between them.
fn split(token: &str) -> (Vec<&str>, Vec<char>) {
    let mut runs = Vec::new();
    let mut marks = Vec::new();
    let mut start = 0;
    for (i, c) in token.char_indices() {
        if !c.is_ascii_digit() {
            runs.push(&token[start..i]);
            marks.push(c);
            start = i + c.len_utf8();
        }
    }
    runs.push(&token[start..]);
    (runs, marks)
}

/// Which decimal mark the figure itself shows, if only one notation writes it.
pub fn evidence(token: &str) -> Decimal {
    if token.bytes().all(|b| b.is_ascii_digit()) {
        return Decimal::Unknown;
    }
    let (runs, marks) = split(token);
    let commas = marks.iter().filter(|&&c| c == ',').count();
    let points = marks.iter().filter(|&&c| c == '.').count();
    let last = *runs.last().unwrap_or(&"");
    let lead_zero = runs[0] == "0";
    match (commas, points) {
        (0, 0) => Decimal::Unknown,
        // The mark that comes last, after the other, is the decimal one.
        (_, _) if commas > 0 && points > 0 => {
            match marks.iter().rev().find(|c| **c == ',' || **c == '.') {
                Some(',') => Decimal::Comma,
                _ => Decimal::Point,
            }
        }
        (1, 0) if last.len() != 3 || lead_zero => Decimal::Comma,
        (0, 1) if last.len() != 3 || lead_zero => Decimal::Point,
        // Two or more groups of the same mark: that mark groups, the other is the decimal.
        (c, 0) if c > 1 => Decimal::Point,
        (0, p) if p > 1 => Decimal::Comma,
        _ => Decimal::Unknown,
    }
}

/// The notation a text establishes: the decimal mark its self-evident figures use, when they
/// all use the same one. `tokens` are the figures as written.
pub fn established<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Decimal {
    established_by(tokens.into_iter().map(evidence))
}

/// The notation established by each figure's evidence, when all that say anything agree.
pub fn established_by(evidence: impl IntoIterator<Item = Decimal>) -> Decimal {
    let (mut point, mut comma) = (false, false);
    for e in evidence {
        match e {
            Decimal::Point => point = true,
            Decimal::Comma => comma = true,
            Decimal::Unknown => {}
        }
        if point && comma {
            return Decimal::Unknown;
        }
    }
    match (point, comma) {
        (true, false) => Decimal::Point,
        (false, true) => Decimal::Comma,
        _ => Decimal::Unknown,
    }
}

/// The value of a figure's digits and marks in `notation`, and its other reading when the
/// figure stays two-way; `None` when the marks make no number.
pub fn value(token: &str, notation: Decimal) -> Option<(f64, Option<f64>)> {
    // Most figures are plain digits, or digits with one decimal point that no notation reads
    // otherwise ("0.25", "1.5"): read without splitting.
    let plain = token.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && token.bytes().filter(|&b| b == b'.').count() <= 1
        && (notation == Decimal::Point
            || token
                .split_once('.')
                .is_none_or(|(int, frac)| frac.len() != 3 || int == "0" || int.is_empty()));
    if plain {
        return token.parse().ok().map(|v| (v, None));
    }
    let (runs, marks) = split(token);
    let decimal = match evidence(token) {
        Decimal::Unknown => match (marks.contains(&','), marks.contains(&'.'), notation) {
            (true, _, Decimal::Comma) => Some(','),
            // `80,000` keeps its English reading unless the reply writes decimal commas.
            (true, _, _) => None,
            (_, true, Decimal::Comma) => None,
            (_, true, Decimal::Point) => Some('.'),
            (_, true, Decimal::Unknown) => {
                let english = read(&runs, &marks, Some('.'))?;
                return Some((english, read(&runs, &marks, None)));
            }
            _ => None,
        },
        Decimal::Comma => Some(','),
        Decimal::Point => Some('.'),
    };
    Some((read(&runs, &marks, decimal)?, None))
}

/// The number the runs make when `decimal` (if any) is the last mark's meaning and every other
/// mark groups thousands.
fn read(runs: &[&str], marks: &[char], decimal: Option<char>) -> Option<f64> {
    let mut s = String::new();
    for (i, run) in runs.iter().enumerate() {
        if i > 0 {
            let mark = marks[i - 1];
            let is_last = i == runs.len() - 1;
            if Some(mark) == decimal && is_last {
                s.push('.');
            } else if Some(mark) == decimal || !(run.len() == 3 || (run.len() == 2 && !is_last)) {
                // A decimal mark before the last group, or a group of neither three digits nor
                // (lakh grouping, 12,34,567) two before the last.
                return None;
            }
        }
        s.push_str(run);
    }
    if s.starts_with('.') {
        s.insert(0, '0');
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_only_one_notation_writes_settles_the_mark() {
        for t in ["0,25", "25,5", "1.250.000", "1.250,5", "0,250"] {
            assert_eq!(evidence(t), Decimal::Comma, "{t}");
        }
        for t in ["0.25", "1.5", "1,250,000", "1,250.5", "0.250"] {
            assert_eq!(evidence(t), Decimal::Point, "{t}");
        }
        for t in ["1,250", "1.250", "80 000", "80'000", "25"] {
            assert_eq!(evidence(t), Decimal::Unknown, "{t}");
        }
        assert_eq!(established(["0,25", "80 000", "1,250"]), Decimal::Comma);
        assert_eq!(established(["0,25", "0.25"]), Decimal::Unknown);
    }

    #[test]
    fn normalised_forms_keep_the_english_reading_unless_the_reply_says_otherwise() {
        assert_eq!(value("80,000", Decimal::Unknown), Some((80000.0, None)));
        assert_eq!(value("1,250", Decimal::Point), Some((1250.0, None)));
        assert_eq!(value("1,250", Decimal::Comma), Some((1.25, None)));
        assert_eq!(value("0.25", Decimal::Comma), Some((0.25, None)));
        assert_eq!(value("1.250", Decimal::Comma), Some((1250.0, None)));
        assert_eq!(value("1.250", Decimal::Unknown), Some((1.25, Some(1250.0))));
        assert_eq!(value("80'000", Decimal::Unknown), Some((80000.0, None)));
        assert_eq!(
            value("80\u{202F}000,5", Decimal::Unknown),
            Some((80000.5, None))
        );
        assert_eq!(
            value("1.250.000", Decimal::Unknown),
            Some((1_250_000.0, None))
        );
        assert_eq!(value("1.250,5", Decimal::Point), Some((1250.5, None)));
        assert_eq!(
            value("12,34,567", Decimal::Unknown),
            Some((1_234_567.0, None))
        );
        assert_eq!(value("12,3456", Decimal::Unknown), Some((12.3456, None)));
        assert_eq!(value("1,25,00", Decimal::Unknown), None);
    }
}
