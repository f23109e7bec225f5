//! Numbers and their normal forms: `80k`, `80,000`, `80 000` (a space, thin or no-break space),
//! `80'000`, `80_000` (code), `$80,000`, `25%`, `0.25`, `−9%`, `$2.8M`, `2.5e4`, `1¼`,
//! `1,00,000` and `0.8 lakh` (Indian grouping and scales), and the
//! decimal comma (`0,25`, `1.250,5`) where the figure or the reply establishes it ([`notation`]).
//! A figure the reply leaves two-way ("1.250") carries its other reading in [`Num::alt`].

use super::notation::{self, Decimal};
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
        (?P<num>[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]{1,3}\b
          |[0-9]{1,3}(?:[,.][0-9]{2,3}|['’_\ \u{2009}\u{202F}\u{A0}][0-9]{3})+(?:[.,][0-9]+)?
          |[0-9]+(?:[.,][0-9]+)?|\.[0-9]+)
        (?P<suf>[\ \t\u{A0}\u{202F}]?%|[\ \t\u{A0}\u{202F}]?(?:percent|per[\ \u{A0}]cent)\b|[kK]\b|[mM]\b|[\ \t\u{A0}\u{202F}]?(?:thousand|million|billion|bn|Mio|Mrd|mln|lakhs?|lacs?|crores?)\b)?",
    )
    .unwrap()
});

/// The English-only reading the house has always had: where the wider one cuts a figure short
/// ("3.141" of "3.14159") or reads a list ("1,2,3") as a decimal comma, this one reads it.
static ENGLISH: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?x)
        (?P<sign>[-−–+][\ \t\u{A0}\u{202F}]?)?
        (?P<cur>\$[\ \t\u{A0}\u{202F}]?)?
        (?P<num>[0-9]{1,3}(?:[,_\u{2009}\u{202F}\u{A0}][0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)
        (?P<suf>[\ \t\u{A0}\u{202F}]?%|[\ \t\u{A0}\u{202F}]?(?:percent|per[\ \u{A0}]cent)\b|[kK]\b|[mM]\b|[\ \t\u{A0}\u{202F}]?(?:thousand|million|billion|bn|Mio|Mrd|mln|lakhs?|lacs?|crores?)\b)?",
    )
    .unwrap()
});

/// Vulgar fractions, alone (`¼`) or after a whole number (`1¼`, `1 ¼`).
const VULGAR: [(char, f64); 9] = [
    ('¼', 0.25),
    ('½', 0.5),
    ('¾', 0.75),
    ('⅓', 1.0 / 3.0),
    ('⅔', 2.0 / 3.0),
    ('⅕', 0.2),
    ('⅛', 0.125),
    ('⅜', 0.375),
    ('⅝', 0.625),
];

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

/// Whether text ends in something an operator could follow: a digit, `)`, `%`, or `80k`; a
/// currency sign or code, or a scale word, after it ("100 000 € − 80 000 €", "1 lakh − 0.8
/// lakh") changes nothing.
fn ends_with_operand(before: &str) -> bool {
    // A currency after a scale ("2,8 Mio. €"): at most two units are taken off.
    let mut before = before;
    for _ in 0..2 {
        match trailing_unit(before) {
            Some(n) => before = before[..before.len() - n].trim_end(),
            None => break,
        }
    }
    let mut rev = before.chars().rev();
    match rev.next() {
        Some(c) if c.is_ascii_digit() || c == ')' || c == '%' => true,
        Some('k' | 'K' | 'm' | 'M') => rev.next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// The length of the currency sign or code, or scale word, that ends `text`, if one does.
fn trailing_unit(text: &str) -> Option<usize> {
    const UNITS: [&str; 26] = [
        "€", "£", "¥", "₹", "₽", "₺", "₩", "chf", "eur", "usd", "gbp", "inr", "kr", "lakh",
        "lakhs", "crore", "crores", "thousand", "million", "billion", "bn", "mio.", "mio", "mrd.",
        "mrd", "mln",
    ];
    // Only the tail can hold the unit: lower-case a few bytes, not the whole text before.
    let mut tail = text.len().saturating_sub(12);
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    let lower = text[tail..].to_ascii_lowercase();
    UNITS
        .iter()
        .find(|u| {
            lower.ends_with(*u)
                && !lower[..lower.len() - u.len()].ends_with(|c: char| c.is_alphabetic())
        })
        .map(|u| u.len())
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
            let next = &m[at + i + c.len_utf8()..];
            let digit_next = next.starts_with(|d: char| d.is_ascii_digit());
            let exponent = matches!(c, 'e' | 'E')
                && (digit_next
                    || (next.starts_with(['+', '-'])
                        && next[1..].starts_with(|d: char| d.is_ascii_digit())));
            let exp_sign = matches!(c, '+' | '-') && m[..at + i].ends_with(['e', 'E']);
            !(c.is_ascii_digit()
                || c == '.'
                || exponent
                || exp_sign
                || ((c == ',' || notation::is_group_mark(c)) && digit_next))
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

/// Whether the wider reading of a match must give way to the English one: it cut a figure
/// short (a digit follows), or its decimal comma sits in a list (`1,2,3`, `8,9,10`).
fn english_instead(text: &str, m: &regex::Match, num: &str) -> bool {
    let after = &text[m.end()..];
    if after.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let single_comma = num.matches(',').count() == 1 && !num.contains(['.', ' ']);
    let listed = after.starts_with(',') && after[1..].starts_with(|c: char| c.is_ascii_digit())
        || text[..m.start()].ends_with(',')
            && text[..m.start() - 1].ends_with(|c: char| c.is_ascii_digit());
    single_comma && notation::evidence(num) == Decimal::Comma && listed
}

/// The figures a text writes, each as matched (the English reading where the wider one gives
/// way), in order: one linear scan by the regexes' DFAs.
fn matches(text: &str) -> Vec<regex::Match<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(m) = NUMBER.find_at(text, at) {
        let p = parts(m.as_str());
        let m = if english_instead(text, &m, p.num) {
            ENGLISH.find_at(text, m.start()).unwrap_or(m)
        } else {
            m
        };
        at = m.end().max(at + 1);
        out.push(m);
    }
    out
}

/// Whether a figure establishes the decimal comma: a self-evident one, not a bare `1,5` (which
/// an English list also writes) unless a unit follows it.
fn establishes(p: &Parts) -> Decimal {
    match notation::evidence(p.num) {
        Decimal::Comma
            if p.num.matches(',').count() == 1
                && !p.num.starts_with("0,")
                && !p
                    .num
                    .contains(['.', '\'', '’', ' ', '\u{2009}', '\u{202F}', '\u{A0}'])
                && p.suffix.is_empty()
                && !p.money =>
        {
            Decimal::Unknown
        }
        d => d,
    }
}

/// Every number written in digits in `text`, left to right.
fn find_digit_numbers(text: &str) -> Vec<Num> {
    // The regex (run by its DFA) finds each number; its parts are then read from the matched
    // text, so a long reply costs one linear scan. The notation the text establishes decides
    // the figures only it settles.
    let mut nums = digit_figures(text);
    if !text.is_ascii() {
        nums = vulgar_fractions(text, nums);
    }
    fold_powers_and_mixed(text, nums)
}

/// Each figure in digits as its regex match reads it.
fn digit_figures(text: &str) -> Vec<Num> {
    let found = matches(text);
    let decimal = notation::established_by(found.iter().map(|m| establishes(&parts(m.as_str()))));
    found
        .into_iter()
        .filter_map(|m| {
            let p = parts(m.as_str());
            let (mut value, mut alt) = if p.num.contains(['e', 'E']) {
                (p.num.parse().ok()?, None)
            } else {
                notation::value(p.num, decimal)?
            };
            let suffix = p.suffix.to_ascii_lowercase();
            let percent = suffix == "%" || suffix.starts_with("per");
            let scale = match suffix.as_str() {
                "k" | "thousand" => 1e3,
                "m" | "million" | "mio" | "mln" => 1e6,
                "billion" | "bn" | "mrd" => 1e9,
                // Indian scales: a lakh is 1,00,000, a crore 1,00,00,000.
                "lakh" | "lakhs" | "lac" | "lacs" => 1e5,
                "crore" | "crores" => 1e7,
                _ => 1.0,
            };
            value *= scale;
            alt = alt.map(|a| a * scale);
            let mut start = m.start();
            if let Some((sign_at, sign)) = p.sign {
                // A sign right after a number or a closing bracket is an operator, not a sign.
                if ends_with_operand(text[..m.start() + sign_at].trim_end()) {
                    start = m.start() + p.body_at;
                } else if sign != "+" {
                    value = -value;
                    alt = alt.map(|a| -a);
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
                alt,
            })
        })
        .collect()
}

/// `¼` alone, or after a whole number (`1¼`, `1 ¼`): one figure. The figures are collected
/// into a new vector in one pass (an insert in place per fraction cost the square of them).
fn vulgar_fractions(text: &str, nums: Vec<Num>) -> Vec<Num> {
    let mut out: Vec<Num> = Vec::with_capacity(nums.len());
    let mut rest = nums.into_iter().peekable();
    for (at, c) in text.char_indices() {
        let Some(&(_, frac)) = VULGAR.iter().find(|(v, _)| *v == c) else {
            continue;
        };
        crate::work::add(1);
        while let Some(n) = rest.next_if(|n| n.end <= at) {
            out.push(n);
        }
        let end = at + c.len_utf8();
        let whole = out.last_mut().filter(|n| {
            let gap = &text[n.end..at];
            (gap.is_empty() || gap == " ") && n.value.fract() == 0.0 && !n.percent
        });
        match whole {
            Some(n) => {
                n.value += frac.copysign(n.value);
                n.end = end;
                n.raw = text[n.start..end].to_string();
            }
            // Alone it is a share, as "a quarter" is ("costs rose by ¼" is 25 %), unless a
            // percent sign follows ("¼ %" is a quarter of a percent).
            None => out.push(Num {
                start: at,
                end,
                raw: c.to_string(),
                value: if text[end..].trim_start().starts_with('%') {
                    frac
                } else {
                    frac * 100.0
                },
                percent: true,
                money: false,
                words: false,
                ordinal: false,
                alt: None,
            }),
        }
    }
    out.extend(rest);
    out
}

/// `2.5 × 10^4` (or `10⁴`) is one figure, 25000; `1 1/4` is one figure, 1.25. The figures are
/// collected into a new vector in one pass (a drain in place per fold cost the square of them).
fn fold_powers_and_mixed(text: &str, nums: Vec<Num>) -> Vec<Num> {
    let mut out: Vec<Num> = Vec::with_capacity(nums.len());
    let mut i = 0;
    while i < nums.len() {
        crate::work::add(1);
        let mut n = nums[i].clone();
        let (Some(b), rest) = (nums.get(i + 1), &nums[i + 1..]) else {
            out.push(n);
            break;
        };
        let between = text[n.end..b.start].trim();
        let after_b = &text[b.end..];
        let power = b.value == 10.0
            && b.raw == "10"
            && matches!(between, "×" | "x" | "*" | "·")
            && (after_b.starts_with('^') || after_b.starts_with(SUPERSCRIPT));
        let mut skip = 0;
        if power {
            if let (Some(exp), end) = exponent(text, b.end, rest.get(1)) {
                n.value *= 10f64.powi(exp);
                n.alt = n.alt.map(|x| x * 10f64.powi(exp));
                n.end = end;
                n.raw = text[n.start..end].to_string();
                skip = if after_b.starts_with('^') { 2 } else { 1 };
            }
        } else if let Some(c) = rest.get(1).filter(|c| mixed(text, &n, b, c)) {
            n.value += b.value / c.value;
            n.end = c.end;
            n.raw = text[n.start..c.end].to_string();
            skip = 2;
        }
        out.push(n);
        i += 1 + skip;
    }
    out
}

/// Whether `a b/c` is one mixed number (`1 1/4`).
fn mixed(text: &str, a: &Num, b: &Num, c: &Num) -> bool {
    let whole = |n: &Num| {
        n.value.fract() == 0.0
            && n.value >= 0.0
            && !n.percent
            && !n.money
            && n.raw.bytes().all(|d| d.is_ascii_digit())
    };
    whole(a)
        && whole(b)
        && whole(c)
        && text[a.end..b.start] == *" "
        && text[b.end..c.start] == *"/"
        && b.value < c.value
        && c.value <= 100.0
}

const SUPERSCRIPT: [char; 11] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹', '⁻'];

/// The exponent after `10` at `at`: `^4` (the next figure) or `⁻⁴` in superscripts.
fn exponent(text: &str, at: usize, next: Option<&Num>) -> (Option<i32>, usize) {
    let rest = &text[at..];
    if rest.starts_with('^') {
        let ok =
            next.filter(|n| n.start == at + 1 && n.value.fract() == 0.0 && n.value.abs() < 300.0);
        return ok.map_or((None, at), |n| (Some(n.value as i32), n.end));
    }
    let mut exp = String::new();
    let mut end = at;
    for c in rest.chars().take_while(|c| SUPERSCRIPT.contains(c)) {
        let i = SUPERSCRIPT.iter().position(|s| *s == c).unwrap_or(0);
        exp.push(if i == 10 {
            '-'
        } else {
            char::from(b'0' + i as u8)
        });
        end += c.len_utf8();
    }
    (exp.parse().ok().filter(|e: &i32| e.abs() < 300), end)
}

/// Every number in `text`, in digits or in words, left to right.
pub fn find_numbers(text: &str) -> Vec<Num> {
    crate::work::add(text.len());
    let all = digits_and_words(text);
    let mut out: Vec<Num> = Vec::with_capacity(all.len());
    for n in all {
        // A figure restating the one kept before it is that figure.
        if !out.last().is_some_and(|p| glosses(text, p, &n)) {
            out.push(n);
        }
    }
    out
}

/// Every number in digits and in words, left to right, a scale word after digits joined to them.
fn digits_and_words(text: &str) -> Vec<Num> {
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

/// The same figure in brackets right after itself ("9 % (neuf pour cent)", "9% (9 %)") spells
/// it out: one figure, the one it stands beside (whose sign and place it shares).
fn glosses(text: &str, prev: &Num, next: &Num) -> bool {
    let between = text.get(prev.end..next.start).unwrap_or("x");
    let after = text.get(next.end..).unwrap_or("");
    between.trim() == "("
        && after.trim_start().starts_with(')')
        && next.percent == prev.percent
        && (next.value.abs() - prev.value.abs()).abs() < 1e-9
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
        assert_eq!(values("2,5 Mio. €"), vec![(2_500_000.0, false)]);
        assert_eq!(values("$2.8 billion"), vec![(2_800_000_000.0, false)]);
        for t in ["1,00,000", "1 lakh", "0.01 crore"] {
            assert_eq!(values(t), vec![(100000.0, false)], "{t}");
        }
        for t in ["80_000", "80\u{2009}000", "80\u{202F}000"] {
            assert_eq!(values(t), vec![(80000.0, false)], "{t}");
        }
    }

    #[test]
    fn a_figure_spelt_out_in_brackets_after_itself_is_one_figure() {
        assert_eq!(
            values("une baisse de 9 % (neuf pour cent)"),
            vec![(9.0, true)]
        );
        assert_eq!(values("down 9% (nine percent)"), vec![(9.0, true)]);
        // Another figure in brackets is another figure.
        assert_eq!(
            values("down 9% (twenty percent)"),
            vec![(9.0, true), (20.0, true)]
        );
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
    fn the_worlds_notations_read_as_the_reply_writes_them() {
        // A reply that writes "0,25" and "80 000" uses decimal commas: "1,250" is 1.25.
        assert_eq!(
            values("Die Quote ist 0,25, also 80 000 auf 100 000; Faktor 1,250."),
            vec![
                (0.25, false),
                (80000.0, false),
                (100000.0, false),
                (1.25, false)
            ]
        );
        // Without a decimal comma anywhere, "1,250" keeps its English reading.
        assert_eq!(
            values("Factor 1,250 and 0.25."),
            vec![(1250.0, false), (0.25, false)]
        );
        for (t, want) in [
            ("25,5 %", (25.5, true)),
            ("80'000", (80000.0, false)),
            ("80’000", (80000.0, false)),
            ("1.250.000", (1_250_000.0, false)),
            ("1.250,5", (1250.5, false)),
            ("2.5e4", (25000.0, false)),
            ("2,5 × 10^4", (25000.0, false)),
            ("2.5×10⁴", (25000.0, false)),
            ("1 1/4", (1.25, false)),
            ("1¼", (1.25, false)),
            ("¼", (25.0, true)),
            ("¼ %", (0.25, true)),
            ("−0,09", (-0.09, false)),
        ] {
            assert_eq!(values(t), vec![want], "{t}");
        }
        // A list keeps its commas, and a long decimal is not cut at three digits.
        assert_eq!(
            values("days 1,2,3"),
            vec![(1.0, false), (2.0, false), (3.0, false)]
        );
        assert_eq!(values("ratio 1.23456"), vec![(1.23456, false)]);
        assert_eq!(
            values("(100 − 80)/80"),
            vec![(100.0, false), (80.0, false), (80.0, false)]
        );
    }

    #[test]
    fn a_figure_the_reply_leaves_two_way_has_two_readings() {
        let n = &find_numbers("about 1.250 %")[0];
        assert_eq!((n.value, n.alt), (1.25, Some(1250.0)));
        assert_eq!(
            n.readings().map(|r| r.value).collect::<Vec<_>>(),
            [1.25, 1250.0]
        );
        // The reply's own notation settles it either way.
        assert_eq!(find_numbers("0,5 and 1.250")[1].value, 1250.0);
        assert_eq!(find_numbers("0.5 and 1.250")[1].alt, None);
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
