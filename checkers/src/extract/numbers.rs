//! Numbers and their normal forms: `80k`, `80,000`, `80 000` (thin space), `80_000` (code),
//! `$80,000`, `25%`, `0.25`, `−9%`, `$2.8M`.

use super::num::Num;
use regex::Regex;
use std::sync::LazyLock;

// ASCII digits, spaces and word boundaries: the regex crate's DFA runs this on any text; with
// Unicode classes it fell back to a slow engine, and a long reply of numbers took seconds.
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?x)
        (?P<sign>[-−–+][\ \t\u{A0}\u{202F}]?)?
        (?P<cur>\$[\ \t\u{A0}\u{202F}]?)?
        (?P<num>[0-9]{1,3}(?:[,_\u{2009}\u{202F}\u{A0}][0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)
        (?P<suf>[\ \t\u{A0}\u{202F}]?%|[\ \t\u{A0}\u{202F}]?(?:percent|per[\ \u{A0}]cent)\b|[kK]\b|[mM]\b|[\ \t\u{A0}\u{202F}]?(?:thousand|million)\b)?",
    )
    .unwrap()
});

/// Equal within rounding of the kind people write (0.91 vs 0.9100, 25% vs 25.0%).
pub fn approx(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6_f64.max(b.abs() * 1e-6)
}

/// Equal at the same scale or with thousands dropped (`100−80` for `100,000−80,000`).
pub fn same_quantity(written: f64, truth: f64) -> bool {
    approx(written, truth)
        || approx(written * 1000.0, truth)
        || approx(written * 1_000_000.0, truth)
}

/// Whether text ends in something an operator could follow: a digit, `)`, `%`, or `80k`.
fn ends_with_operand(before: &str) -> bool {
    let mut rev = before.chars().rev();
    match rev.next() {
        Some(c) if c.is_ascii_digit() || c == ')' || c == '%' => true,
        Some('k' | 'K' | 'm' | 'M') => rev.next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// The parts of one number match, read from its text (the regex already decided its extent).
struct Parts<'a> {
    sign: Option<(usize, &'a str)>,
    money: bool,
    num: &'a str,
    /// Offset of the currency sign or, without one, of the digits.
    body_at: usize,
    suffix: &'a str,
}

fn parts(m: &str) -> Parts<'_> {
    let mut at = 0;
    let mut sign = None;
    if let Some(c) = m.chars().next().filter(|c| "-−–+".contains(*c)) {
        sign = Some((0, &m[..c.len_utf8()]));
        at = c.len_utf8();
        if m[at..].starts_with(char::is_whitespace) {
            at += m[at..].chars().next().map_or(0, char::len_utf8);
        }
    }
    let body_at = at;
    let mut money = false;
    if m[at..].starts_with('$') {
        money = true;
        at += 1;
        if m[at..].starts_with(char::is_whitespace) {
            at += m[at..].chars().next().map_or(0, char::len_utf8);
        }
    }
    let digits_end = m[at..]
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || ((c == ',' || c == '_' || c == '\u{2009}' || c == '\u{202F}' || c == '\u{A0}')
                    && m[at + i + c.len_utf8()..].starts_with(|d: char| d.is_ascii_digit())))
        })
        .map_or(m.len(), |(i, _)| at + i);
    Parts {
        sign,
        money,
        num: &m[at..digits_end],
        body_at,
        suffix: m[digits_end..].trim(),
    }
}

/// Every number written in digits in `text`, left to right.
fn find_digit_numbers(text: &str) -> Vec<Num> {
    // The regex (run by its DFA) finds each number; its parts are then read from the matched
    // text, so a long reply costs one linear scan.
    NUMBER
        .find_iter(text)
        .filter_map(|m| {
            let p = parts(m.as_str());
            let digits: String = p
                .num
                .chars()
                .filter(|&ch| ch.is_ascii_digit() || ch == '.')
                .collect();
            let mut value: f64 = digits.parse().ok()?;
            let suffix = p.suffix.to_ascii_lowercase();
            let percent = suffix == "%" || suffix.starts_with("per");
            match suffix.as_str() {
                "k" | "thousand" => value *= 1e3,
                "m" | "million" => value *= 1e6,
                _ => {}
            }
            let mut start = m.start();
            if let Some((sign_at, sign)) = p.sign {
                // A sign right after a number or a closing bracket is an operator, not a sign.
                if ends_with_operand(text[..m.start() + sign_at].trim_end()) {
                    start = m.start() + p.body_at;
                } else if sign != "+" {
                    value = -value;
                }
            }
            Some(Num {
                start,
                end: m.end(),
                raw: text[start..m.end()].to_string(),
                value,
                percent,
                money: p.money,
                words: false,
                ordinal: false,
            })
        })
        .collect()
}

/// Every number in `text`, in digits or in words, left to right.
pub fn find_numbers(text: &str) -> Vec<Num> {
    let digits = find_digit_numbers(text);
    let words = super::words::find(text);
    if words.is_empty() {
        return digits;
    }
    let mut out = Vec::with_capacity(digits.len() + words.len());
    let (mut d, mut w) = (digits.into_iter().peekable(), words.into_iter().peekable());
    loop {
        let next = match (d.peek(), w.peek()) {
            (Some(a), Some(b)) if b.start < a.start => {
                let b = w.next().unwrap();
                // A scale word right after digits ("80 thousand") belongs to the digits.
                if out.last().is_some_and(|l: &Num| l.end > b.start) {
                    continue;
                }
                b
            }
            (Some(_), _) => d.next().unwrap(),
            (None, Some(_)) => w.next().unwrap(),
            (None, None) => break,
        };
        if out.last().is_some_and(|l: &Num| l.end > next.start) {
            continue;
        }
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<(f64, bool)> {
        find_numbers(text)
            .iter()
            .map(|n| (n.value, n.percent))
            .collect()
    }

    #[test]
    fn equal_quantities_in_every_notation_compare_equal() {
        for t in ["80k", "80,000", "$80,000", "80 thousand", "$80k"] {
            assert_eq!(values(t), vec![(80000.0, false)], "{t}");
        }
        assert!(approx(
            find_numbers("25%")[0].fraction(),
            find_numbers("0.25")[0].fraction()
        ));
        assert_eq!(values("$2.8M"), vec![(2_800_000.0, false)]);
        for t in ["80_000", "80\u{2009}000", "80\u{202F}000"] {
            assert_eq!(values(t), vec![(80000.0, false)], "{t}");
        }
    }

    #[test]
    fn unicode_minus_is_a_sign_but_a_minus_between_numbers_is_an_operator() {
        assert_eq!(values("net −9%"), vec![(-9.0, true)]);
        assert_eq!(values("100−80"), vec![(100.0, false), (80.0, false)]);
        assert_eq!(
            values("(100k − 80k)/80k"),
            vec![(100000.0, false), (80000.0, false), (80000.0, false)]
        );
        assert_eq!(values("-9 percent"), vec![(-9.0, true)]);
    }

    #[test]
    fn figures_in_words_sit_among_figures_in_digits() {
        assert_eq!(
            values("25 per cent, twenty-five percent, a quarter, 80 thousand, eight days"),
            vec![
                (25.0, true),
                (25.0, true),
                (25.0, true),
                (80000.0, false),
                (8.0, false)
            ]
        );
    }
}
