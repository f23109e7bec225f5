//! Notation perturbations (issue 39): the same reply written in another of the world's
//! notations, which must not change the verdict. Digits of another script (Arabic-Indic with
//! the Arabic decimal, thousands and percent signs; Devanagari), the decimal comma with point
//! grouping and a spaced percent sign, currency signs and codes before or after the amount,
//! and the percentages and day counts in German or Russian words. Code and LaTeX paragraphs are
//! left as written (code is verbatim; LaTeX has its own notation).

use super::Rng;
use regex::Regex;
use std::sync::LazyLock;

/// The units whose replies are about figures: the notation perturbations apply to them.
pub fn numeric(case: &str) -> bool {
    matches!(case, "E1" | "E2" | "E4" | "E13")
}

fn verbatim(p: &str) -> bool {
    p.contains("```") || p.contains('\\')
}

/// Each paragraph that is not code or LaTeX, rewritten by `f`.
pub fn each(paras: &mut [String], f: impl Fn(&str) -> String) {
    for p in paras.iter_mut().filter(|p| !verbatim(p)) {
        *p = f(p);
    }
}

/// Digits in the script whose zero is `zero`; with `arabic_marks`, the Arabic decimal (٫),
/// thousands (٬) and percent (٪) signs too.
pub fn script(p: &str, zero: char, arabic_marks: bool) -> String {
    let chars: Vec<char> = p.chars().collect();
    let digit = |i: usize| chars.get(i).is_some_and(|c| c.is_ascii_digit());
    let mut out = String::with_capacity(p.len() * 2);
    for (i, &c) in chars.iter().enumerate() {
        let between = i > 0 && digit(i - 1) && digit(i + 1);
        match c {
            '0'..='9' => out.push(char::from_u32(zero as u32 + (c as u32 - '0' as u32)).unwrap()),
            '.' if arabic_marks && between => out.push('٫'),
            ',' if arabic_marks && between => out.push('٬'),
            '%' if arabic_marks => out.push('٪'),
            _ => out.push(c),
        }
    }
    out
}

/// The decimal comma: point and comma swapped between digits ("100,000" → "100.000", "0.25" →
/// "0,25"), and a narrow no-break space before the percent sign.
pub fn decimal_comma(p: &str) -> String {
    let chars: Vec<char> = p.chars().collect();
    let digit = |i: usize| chars.get(i).is_some_and(|c| c.is_ascii_digit());
    let mut out = String::with_capacity(p.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let between = i > 0 && digit(i - 1) && digit(i + 1);
        match c {
            '.' if between => out.push(','),
            ',' if between => out.push('.'),
            '%' if i > 0 && digit(i - 1) => out.push_str("\u{202F}%"),
            _ => out.push(c),
        }
    }
    out
}

static DOLLARS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$([0-9][0-9.,]*(?:[kKM]\b)?)").unwrap());

/// Dollar amounts in another currency, its sign or code before or after the amount.
pub fn currency(p: &str, style: usize) -> String {
    let with = match style {
        0 => "€$1",
        1 => "$1 €",
        2 => "CHF $1",
        _ => "₹$1",
    };
    DOLLARS.replace_all(p, with).into_owned()
}

const GERMAN: &[(&str, &str)] = &[
    ("−9%", "minus neun Prozent"),
    ("25%", "fünfundzwanzig Prozent"),
    ("20%", "zwanzig Prozent"),
    ("12%", "zwölf Prozent"),
    ("9%", "neun Prozent"),
    ("8 days", "acht Tage"),
    ("7 days", "sieben Tage"),
];
const RUSSIAN: &[(&str, &str)] = &[
    ("−9%", "минус девять процентов"),
    ("25%", "двадцать пять процентов"),
    ("20%", "двадцать процентов"),
    ("12%", "двенадцать процентов"),
    ("9%", "девять процентов"),
    ("8 days", "восемь дней"),
    ("7 days", "семь дней"),
];

/// The percentages and day counts in German or Russian words ("fünfundzwanzig Prozent",
/// "восемь дней"); a figure glued to another digit ("120%") is left as written.
pub fn words(p: &str, russian: bool) -> String {
    let table = if russian { RUSSIAN } else { GERMAN };
    let mut s = p.to_string();
    for (digits, words) in table {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        while let Some(at) = rest.find(digits) {
            let glued = rest[..at].ends_with(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
            out.push_str(&rest[..at]);
            out.push_str(if glued { digits } else { words });
            rest = &rest[at + digits.len()..];
        }
        out.push_str(rest);
        s = out;
    }
    s
}

/// One of the styles above for a reply, picked by `rng`.
pub fn pick_style(rng: &mut Rng, n: usize) -> usize {
    rng.below(n)
}
