//! Figures written in words: cardinals ("twenty-five", "one hundred and twenty", "eighty
//! thousand", "zero point nine one"), percentages ("nine percent", "nine per cent"), fractions
//! ("a quarter", "two thirds", "three quarters", "a half") and ordinals where a count is meant
//! ("the third through the tenth"), each with its byte span in the text.
//!
//! A small table rather than a crate: `text2num` (the well-kept one) reports token indexes, not
//! byte spans, knows neither "percent" nor fractions, and builds phf's proc macros; what the
//! checkers need is these few dozen English words, read in one linear pass.

use super::num::Num;
use super::text::ceil_char;
use regex::Regex;
use std::sync::LazyLock;

/// One number word (or a word that joins or qualifies them), ASCII word boundaries.
static WORD: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|point|negative|percent|per\s+cent|half|halves|thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|first|second|fourth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)\b",
    )
    .unwrap()
});

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Unit(u32),
    Tens(u32),
    Hundred,
    Scale(f64),
    A,
    And,
    Point,
    Negative,
    Percent,
    /// A fraction's denominator ("third", "quarters"), which alone is also an ordinal.
    Denom {
        n: u32,
        plural: bool,
    },
    Ordinal(u32),
}

const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const ORD: [(&str, u32); 14] = [
    ("first", 1),
    ("second", 2),
    ("fourth", 4),
    ("eleventh", 11),
    ("twelfth", 12),
    ("thirteenth", 13),
    ("fourteenth", 14),
    ("fifteenth", 15),
    ("sixteenth", 16),
    ("seventeenth", 17),
    ("eighteenth", 18),
    ("nineteenth", 19),
    ("twentieth", 20),
    ("thirtieth", 30),
];

/// The denominator a fraction word names ("third" 3, "halve" 2), singular stem.
fn denominator(stem: &str) -> Option<u32> {
    match stem {
        "half" | "halve" => Some(2),
        "third" => Some(3),
        "quarter" => Some(4),
        "fifth" => Some(5),
        "sixth" => Some(6),
        "seventh" => Some(7),
        "eighth" => Some(8),
        "ninth" => Some(9),
        "tenth" => Some(10),
        _ => None,
    }
}

fn classify(w: &str) -> Option<Tok> {
    let w: std::borrow::Cow<str> = if w.bytes().any(|b| b.is_ascii_uppercase()) {
        w.to_ascii_lowercase().into()
    } else {
        w.into()
    };
    let w: &str = &w;
    if let Some(i) = UNITS.iter().position(|u| *u == w) {
        return Some(Tok::Unit(i as u32));
    }
    if let Some(i) = TENS.iter().position(|u| *u == w) {
        return Some(Tok::Tens(20 + 10 * i as u32));
    }
    if let Some((_, n)) = ORD.iter().find(|(o, _)| *o == w) {
        return Some(Tok::Ordinal(*n));
    }
    let plural = w.ends_with('s') && !w.ends_with("ss");
    let stem = if plural { &w[..w.len() - 1] } else { w };
    let denom = denominator(stem);
    if let Some(n) = denom {
        return Some(Tok::Denom { n, plural });
    }
    Some(match w {
        "hundred" => Tok::Hundred,
        "thousand" => Tok::Scale(1e3),
        "million" => Tok::Scale(1e6),
        "billion" => Tok::Scale(1e9),
        "a" | "an" => Tok::A,
        "and" => Tok::And,
        "point" => Tok::Point,
        "negative" => Tok::Negative,
        _ if w.starts_with("per") || w == "percent" => Tok::Percent,
        _ => return None,
    })
}

/// Words that make up one run: only white space or a hyphen between them.
fn adjacent(text: &str, end: usize, next: usize) -> bool {
    text[end..next]
        .chars()
        .all(|c| c == ' ' || c == '-' || c == '\u{A0}')
        && next - end <= 3
}

/// Every figure written in words in `text`, left to right. Digit-written numbers are found by
/// [`super::numbers`]; a scale word right after digits ("80 thousand") belongs to them.
pub fn find(text: &str) -> Vec<Num> {
    // The regex finds number words only; the joining words ("a quarter", "one hundred and
    // twenty", "one and a quarter") are read from the gaps around them, so the commonest words
    // of English are never matched one by one.
    let words: Vec<(usize, usize, Tok)> = WORD
        .find_iter(text)
        .filter_map(|m| classify(m.as_str()).map(|t| (m.start(), m.end(), t)))
        .collect();
    let mut toks: Vec<(usize, usize, Tok)> = Vec::with_capacity(words.len());
    let mut prev_end = 0;
    for &w in &words {
        let gap_start = ceil_char(text, w.0.saturating_sub(8)).max(prev_end);
        let gap = &text[gap_start..w.0];
        let lower = gap.to_ascii_lowercase();
        // "and" (and "and a") between two number words.
        if !toks.is_empty() && gap_start == prev_end {
            if let Some(at) = lower.find(" and ").filter(|_| {
                let t = lower.trim();
                t == "and" || t == "and a" || t == "and an"
            }) {
                toks.push((gap_start + at + 1, gap_start + at + 4, Tok::And));
            }
        }
        // "a" / "an" right before a number word.
        let trimmed = lower.trim_end_matches([' ', '\u{a0}']);
        for article in ["an", "a"] {
            if let Some(head) = trimmed.strip_suffix(article) {
                let bounded = head.is_empty() && gap_start == 0
                    || head.ends_with(|c: char| !c.is_alphanumeric());
                if bounded && (head.len() + article.len() < gap.len()) {
                    let at = gap_start + head.len();
                    toks.push((at, at + article.len(), Tok::A));
                    break;
                }
            }
        }
        toks.push(w);
        prev_end = w.1;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        // A run of adjacent words.
        let mut j = i + 1;
        while j < toks.len() && adjacent(text, toks[j - 1].1, toks[j].0) {
            j += 1;
        }
        parse_run(text, &toks[i..j], &mut out);
        i = j;
    }
    out
}

/// Reads the numbers of one run of adjacent number words.
fn parse_run(text: &str, run: &[(usize, usize, Tok)], out: &mut Vec<Num>) {
    let mut k = 0;
    while k < run.len() {
        match read_number(run, k) {
            Some((value, ordinal, next)) if next > k => {
                let (mut start, mut end) = (run[k].0, run[next - 1].1);
                let mut value = value;
                let mut percent = false;
                let mut next = next;
                if k > 0 && run[k - 1].2 == Tok::Negative {
                    start = run[k - 1].0;
                    value = -value;
                }
                if let Some((_, e, Tok::Percent)) = run.get(next) {
                    percent = true;
                    end = *e;
                    next += 1;
                }
                // A fraction is a share: "a quarter" is 25%.
                if let Some(frac) = ordinal_is_fraction(value, ordinal) {
                    value = frac * 100.0;
                    percent = true;
                }
                out.push(Num {
                    start,
                    end,
                    raw: text[start..end].to_string(),
                    value,
                    percent,
                    money: false,
                    words: true,
                    ordinal: ordinal == Kind::Ordinal,
                    alt: None,
                });
                k = next;
            }
            _ => k += 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Cardinal,
    Ordinal,
    /// Numerator over denominator, value already divided.
    Fraction,
}

fn ordinal_is_fraction(value: f64, kind: Kind) -> Option<f64> {
    (kind == Kind::Fraction).then_some(value)
}

/// One number starting at `run[k]`: its value, kind and the index after it.
fn read_number(run: &[(usize, usize, Tok)], k: usize) -> Option<(f64, Kind, usize)> {
    let tok = |i: usize| run.get(i).map(|t| t.2);
    let (lead, mut i) = match start(run, k)? {
        Start::Figure(value, kind, next) => return Some((value, kind, next)),
        Start::Count(lead, i) => (lead, i),
    };
    let mut count = Count {
        total: 0.0,
        current: lead.unwrap_or(0.0),
        any: lead.is_some(),
        last: lead.map(|_| Tok::A),
        led: lead.is_some(),
    };
    while let Some(t) = tok(i) {
        match count.step(run, i, t)? {
            Step::Extend => {}
            Step::End => break,
            Step::Done(value, kind, next) => return Some((value, kind, next)),
        }
        count.any = true;
        count.last = Some(t);
        i += 1;
    }
    if !count.any || lead.is_some() && i == k + 1 {
        return None;
    }
    // A trailing "and" is not part of the number.
    while i > k && tok(i - 1) == Some(Tok::And) {
        i -= 1;
    }
    Some((count.total + count.current, Kind::Cardinal, i))
}

/// A count of number words read so far: the scaled total, the group being built ("twenty-one"
/// before "thousand"), whether any word was read, the last word kind (so "five six" splits into
/// two numbers) and whether "a" led it.
struct Count {
    total: f64,
    current: f64,
    any: bool,
    last: Option<Tok>,
    led: bool,
}

/// What the next word does to a count: extends it, ends it before the word, or completes a
/// number (its value, kind and the index after it).
enum Step {
    Extend,
    End,
    Done(f64, Kind, usize),
}

impl Count {
    /// The decision for the word `t` at `run[i]`, kept apart from the loop that walks the words:
    /// `None` when the words read as a number that does not parse.
    fn step(&mut self, run: &[(usize, usize, Tok)], i: usize, t: Tok) -> Option<Step> {
        let tok = |i: usize| run.get(i).map(|t| t.2);
        match t {
            Tok::Unit(n) | Tok::Tens(n) => {
                if !adds_to(self.last, t) {
                    return Some(Step::End);
                }
                self.current += n as f64;
            }
            Tok::Hundred => {
                if !self.any && !self.led {
                    return Some(Step::End);
                }
                self.current = self.current.max(1.0) * 100.0;
            }
            Tok::Scale(s) => {
                if !self.any {
                    return Some(Step::End);
                }
                self.total += self.current.max(1.0) * s;
                self.current = 0.0;
            }
            Tok::And => {
                // "one and a quarter", "two and a half": a whole number and a fraction.
                if matches!(self.last, Some(Tok::Unit(_) | Tok::Tens(_))) {
                    if let Some((value, next)) = and_fraction(run, i, self.current) {
                        return Some(Step::Done(self.total + value, Kind::Cardinal, next));
                    }
                }
                // "one hundred and twenty": "and" joins only after a hundred or a scale.
                let next_joins = matches!(tok(i + 1), Some(Tok::Unit(_) | Tok::Tens(_)));
                if !(matches!(self.last, Some(Tok::Hundred | Tok::Scale(_))) && next_joins) {
                    return Some(Step::End);
                }
            }
            Tok::Point => {
                let (frac, j) = spoken_digits(run, i + 1);
                if frac.is_empty() || !self.any {
                    return Some(Step::End);
                }
                let whole = self.total + self.current;
                let value: f64 = format!("{whole}.{frac}").parse().ok()?;
                return Some(Step::Done(value, Kind::Cardinal, j));
            }
            Tok::Denom { n, plural } => {
                let counted = (self.total, self.current, self.last, self.led);
                return Some(match after_count(counted, n, plural) {
                    Some((value, kind)) => Step::Done(value, kind, i + 1),
                    None => Step::End,
                });
            }
            Tok::Ordinal(n) if matches!(self.last, Some(Tok::Tens(_))) && n < 10 => {
                let value = self.total + self.current + n as f64;
                return Some(Step::Done(value, Kind::Ordinal, i + 1));
            }
            _ => return Some(Step::End),
        }
        Some(Step::Extend)
    }
}

/// How a run of number words starts: a figure complete in one word ("the third"), or a count
/// whose words begin at an index, led by "a" standing for one ("a quarter", "a hundred").
enum Start {
    Figure(f64, Kind, usize),
    Count(Option<f64>, usize),
}

fn start(run: &[(usize, usize, Tok)], k: usize) -> Option<Start> {
    let tok = |i: usize| run.get(i).map(|t| t.2);
    // "a quarter", "a hundred", "an eighth"; "a" alone is no number.
    Some(match tok(k)? {
        Tok::A => match tok(k + 1)? {
            Tok::Hundred | Tok::Scale(_) | Tok::Denom { plural: false, .. } => {
                Start::Count(Some(1.0), k + 1)
            }
            _ => return None,
        },
        // "first" and "second" alone are adverbs and time units far more often than ranks.
        Tok::Ordinal(n) if n > 2 => Start::Figure(n as f64, Kind::Ordinal, k + 1),
        // "third" alone is an ordinal; "half" alone is not a figure.
        Tok::Denom { n, plural: false } if n >= 3 => Start::Figure(n as f64, Kind::Ordinal, k + 1),
        Tok::Unit(_) | Tok::Tens(_) => Start::Count(None, k),
        _ => return None,
    })
}

/// Whether a unit or a tens word adds to the count read so far: "twenty five", "hundred and
/// five", but not "five six" or "twenty thirty".
fn adds_to(last: Option<Tok>, t: Tok) -> bool {
    match (last, t) {
        (None | Some(Tok::Hundred | Tok::Scale(_) | Tok::And), _) => true,
        (Some(Tok::Tens(_)), Tok::Unit(n)) => n < 10 && n > 0,
        _ => false,
    }
}

/// "one and a quarter", "two and a half million": the whole number `current` and the fraction
/// after the "and" at `i` (scaled when a scale follows), and the index after it.
fn and_fraction(run: &[(usize, usize, Tok)], i: usize, current: f64) -> Option<(f64, usize)> {
    let tok = |i: usize| run.get(i).map(|t| t.2);
    let (num, at) = match (tok(i + 1), tok(i + 2)) {
        (Some(Tok::A), Some(Tok::Denom { n, plural: false })) => (1.0, (n, i + 3)),
        (Some(Tok::Unit(u)), Some(Tok::Denom { n, .. })) if u > 0 && u < n => {
            (u as f64, (n, i + 3))
        }
        _ => return None,
    };
    let mut value = current + num / at.0 as f64;
    let mut next = at.1;
    // "two and a half million".
    if let Some(Tok::Scale(s)) = tok(next) {
        value *= s;
        next += 1;
    }
    Some((value, next))
}

/// "zero point nine one": the digits after "point", one word each, and the index after them.
fn spoken_digits(run: &[(usize, usize, Tok)], from: usize) -> (String, usize) {
    let mut frac = String::new();
    let mut j = from;
    while let Some(Tok::Unit(d)) = run.get(j).map(|t| t.2) {
        if d > 9 {
            break;
        }
        frac.push(char::from_digit(d, 10).unwrap());
        j += 1;
    }
    (frac, j)
}

/// A denominator word after the count read so far (`total`, `current`, the `last` word, and
/// whether "a" led it): "two thirds", "a quarter", "one half", "three quarters" and "one third"
/// are fractions, "twenty third" an ordinal. Anything else ends the number before it.
fn after_count(
    (total, current, last, lead): (f64, f64, Option<Tok>, bool),
    n: u32,
    plural: bool,
) -> Option<(f64, Kind)> {
    let numerator = total + current;
    // "two quarters" is a half year, not a half: only "three quarters" is a share.
    let time = n == 4 && plural && numerator != 3.0;
    let simple = (1.0..10.0).contains(&numerator) && total == 0.0 && !time;
    if simple && (plural == (numerator > 1.0) || lead) {
        return Some((numerator / n as f64, Kind::Fraction));
    }
    if matches!(last, Some(Tok::Tens(_))) && !plural && n >= 3 {
        return Some((current + n as f64 + total, Kind::Ordinal));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(f64, bool, &str)> {
        find(text)
            .into_iter()
            .map(|n| {
                let raw: &str = &text[n.start..n.end];
                (n.value, n.percent, raw)
            })
            .collect()
    }

    #[test]
    fn cardinals_in_words_read_as_their_value() {
        assert_eq!(read("eight days"), vec![(8.0, false, "eight")]);
        assert_eq!(read("twenty-five"), vec![(25.0, false, "twenty-five")]);
        assert_eq!(read("twenty five"), vec![(25.0, false, "twenty five")]);
        assert_eq!(
            read("one hundred and twenty people"),
            vec![(120.0, false, "one hundred and twenty")]
        );
        assert_eq!(
            read("eighty thousand dollars"),
            vec![(80000.0, false, "eighty thousand")]
        );
        assert_eq!(
            read("a hundred thousand"),
            vec![(100000.0, false, "a hundred thousand")]
        );
        assert_eq!(
            read("zero point nine one"),
            vec![(0.91, false, "zero point nine one")]
        );
        assert_eq!(
            read("ten and three"),
            vec![(10.0, false, "ten"), (3.0, false, "three")]
        );
        assert_eq!(
            read("five six"),
            vec![(5.0, false, "five"), (6.0, false, "six")]
        );
        assert!(read("a dog and an apple").is_empty());
    }

    #[test]
    fn percent_and_per_cent_make_a_percentage() {
        assert_eq!(
            read("twenty-five percent"),
            vec![(25.0, true, "twenty-five percent")]
        );
        assert_eq!(read("nine per cent"), vec![(9.0, true, "nine per cent")]);
        assert_eq!(
            read("negative nine percent"),
            vec![(-9.0, true, "negative nine percent")]
        );
    }

    #[test]
    fn fractions_are_shares_and_ordinals_are_ranks() {
        assert_eq!(read("a quarter more"), vec![(25.0, true, "a quarter")]);
        assert_eq!(read("three quarters"), vec![(75.0, true, "three quarters")]);
        let two_thirds = read("two thirds");
        assert!((two_thirds[0].0 - 200.0 / 3.0).abs() < 1e-9 && two_thirds[0].1);
        assert_eq!(read("one half"), vec![(50.0, true, "one half")]);
        assert_eq!(read("over two quarters"), vec![(2.0, false, "two")]);
        assert_eq!(
            read("one and a quarter"),
            vec![(1.25, false, "one and a quarter")]
        );
        assert_eq!(read("two and a half"), vec![(2.5, false, "two and a half")]);
        assert_eq!(
            read("two and a half million"),
            vec![(2_500_000.0, false, "two and a half million")]
        );
        assert!(read("half the time").is_empty());
        assert_eq!(read("the third"), vec![(3.0, false, "third")]);
        assert_eq!(read("the tenth"), vec![(10.0, false, "tenth")]);
        assert_eq!(read("twenty-first"), vec![(21.0, false, "twenty-first")]);
        let n = &find("the eighth")[0];
        assert!(n.ordinal && n.words);
    }
}
