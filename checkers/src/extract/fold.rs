//! The world's ways of writing a figure, folded once into the forms every reader of a reply
//! knows, before anything is read: full-width digits and signs (Japanese, Chinese: `２５％`,
//! `０．９１`, `（１００−８０）／８０`), the ideographic space, the enumeration comma `、` and the
//! full-width comma `，` (a list separator, never a decimal or grouping mark in CJK prose), the
//! myriad `万` after a figure (`８万` is 80,000), the percent sign written first (Turkish `%25`),
//! and percentages in words of other languages (`25 per cento`, `9 pct`, `8 procent`,
//! `12 Prozent`, `25 por ciento`, `25 pour cent`, `25 процентов`). The digits of other scripts
//! (Arabic-Indic `٢٥٪`, Eastern Arabic-Indic `۲۵٪`, Devanagari `२५%`, Bengali) are ASCII
//! digits, with the Arabic decimal separator `٫`, thousands separator `٬`, percent sign `٪`,
//! comma `،` and question mark `؟`; bidirectional marks, which are invisible, are dropped.
//! Figures in words of other languages are read by [`super::words_intl`]. English forms are
//! left as written.
//!
//! Prose only: code is verbatim and never folded. A text the fold does not change is returned
//! as it is (no copy), so English replies pay one scan.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// A figure followed by a percent word of another language.
static PERCENT_WORD: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?i)([0-9])[\ \u{A0}]?(?:процент(?:ов|а|ы)?|في[\ \u{A0}]?الم[ئا]+ة|بالم[ئا]+ة|प्रतिशत|درصد|パーセント|per[\ \u{A0}]cento|percento|pct\b|procent(?:u|y|ów|em)?\b|prozent\b|por[\ \u{A0}]ciento|por[\ \u{A0}]cento|pour[\ \u{A0}]cent\b|porcento)",
    )
    .unwrap()
});

/// The percent sign before the figure (Turkish `%25`), where it cannot be a URL escape: at the
/// start, or after a space, a bracket, an arrow, emphasis or punctuation (not `=` or `/`).
static PERCENT_FIRST: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(^|[\s(\[*_→:;,~≈])%([0-9]+(?:[.,][0-9]+)?)\b").unwrap());

/// The German scale abbreviations inside an amount ("2,8 Mio. € − 2,5 Mio. €"): their period is
/// no sentence end when a currency sign, an operator or a bracket follows.
static SCALE_ABBREV: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([0-9][\ \u{A0}\u{202F}]?)(Mio|Mrd)\.([\ \u{A0}\u{202F}]*[€$£−–\-+×*/=)\]])")
        .unwrap()
});

/// The percent sign before the figure with a space between (Turkish `% 25`), after a word (not
/// after a figure: "50 % 25" is two figures).
static PERCENT_FIRST_SPACED: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"([^\s0-9%][\ \u{A0}])%[\ \u{A0}]([0-9]+(?:[.,][0-9]+)?)\b").unwrap()
});

/// A figure followed by the myriad (万, 10,000).
static MYRIAD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"([0-9]+(?:\.[0-9]+)?)万").unwrap());

/// `text` with the notations above folded; borrowed when nothing changes.
pub fn fold(text: &str) -> Cow<'_, str> {
    let mut out: Cow<str> = Cow::Borrowed(text);
    if !text.is_ascii() {
        if let Some(s) = wide(text) {
            out = Cow::Owned(s);
        }
        if out.contains('万') {
            if let Cow::Owned(s) = MYRIAD.replace_all(&out, myriad) {
                out = Cow::Owned(s);
            }
        }
    }
    if out.contains('%') {
        if let Cow::Owned(s) = PERCENT_FIRST.replace_all(&out, "$1$2%") {
            out = Cow::Owned(s);
        }
        if out.contains("% ") {
            if let Cow::Owned(s) = PERCENT_FIRST_SPACED.replace_all(&out, "$1$2%") {
                out = Cow::Owned(s);
            }
        }
    }
    if out.contains(". ") {
        if let Cow::Owned(s) = SCALE_ABBREV.replace_all(&out, "$1$2$3") {
            out = Cow::Owned(s);
        }
    }
    if let Cow::Owned(s) = super::words_intl::fold(&out) {
        out = Cow::Owned(s);
    }
    if let Cow::Owned(s) = PERCENT_WORD.replace_all(&out, "$1%") {
        out = Cow::Owned(s);
    }
    out
}

/// The zero of every run of ten decimal digits in Unicode (general category Nd, to Unicode
/// 16.0): Arabic-Indic, Extended Arabic-Indic (Persian, Urdu), N'Ko, Devanagari, Bengali,
/// Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala, Thai, Lao, Tibetan,
/// Myanmar, Khmer, Mongolian, Limbu, New Tai Lue, Tai Tham, Balinese, Sundanese, Lepcha, Ol
/// Chiki, Vai, Saurashtra, Kayah Li, Javanese, Cham, Meetei Mayek, full-width, Osmanya, the
/// Brahmi-derived scripts of the supplementary planes, mathematical bold, double-struck,
/// sans-serif and monospace digits (`𝟐𝟓`), Adlam, segmented and outlined digits, and the
/// scripts Unicode 15 and 16 added. Sorted, for a binary search.
const DIGIT_ZEROS: [u32; 75] = [
    0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
    0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x10D40, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x116D0, 0x116DA, 0x11730, 0x118E0, 0x11950, 0x11BF0, 0x11C50, 0x11D50,
    0x11DA0, 0x11F50, 0x16130, 0x16A60, 0x16AC0, 0x16B50, 0x16D70, 0x1CCF0, 0x1D7CE, 0x1D7D8,
    0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0, 0x1E5F1, 0x1E950, 0x1FBF0,
];

/// The ASCII digit a decimal digit of any script stands for (every Unicode Nd character).
pub fn script_digit(c: char) -> Option<char> {
    let c = c as u32;
    if c < 0x0660 {
        return None;
    }
    let i = DIGIT_ZEROS.partition_point(|&z| z <= c);
    let zero = DIGIT_ZEROS[i.checked_sub(1)?];
    (c - zero < 10).then(|| char::from(b'0' + (c - zero) as u8))
}

/// Bidirectional marks and embeddings: invisible, and never part of a figure.
fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Format characters that never mean anything a reader reads: the zero-width space, the word
/// joiner, the byte-order mark, the soft hyphen, the invisible operators. Dropped everywhere,
/// so a figure split by one (`2\u{200B}5%`) is the figure and a word split by one is the word.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{180E}'
    )
}

/// `text` as a reader sees it on the page: the invisible format characters, bidirectional marks
/// and zero-width joiners dropped (`I\u{2060}NV sweep` is `INV sweep`); borrowed when there are
/// none. For readers that match patterns against lines as written.
pub fn visible(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| is_invisible(c) || is_bidi_mark(c) || is_joiner(c);
    if text.is_ascii() || !text.contains(hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|&c| !hidden(c)).collect())
}

/// The zero-width joiner and non-joiner shape the letters of Persian, the Indic scripts and
/// emoji: dropped only beside a digit, where they can only split a figure.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Full-width forms, CJK separators and the digits and marks of other scripts as ASCII;
/// `None` when there are none.
fn wide(text: &str) -> Option<String> {
    let is_wide = |c: char| {
        matches!(
            c,
            '\u{FF01}'..='\u{FF5E}' | '\u{3000}' | '、' | '٫' | '٬' | '٪' | '،' | '؟'
        ) || script_digit(c).is_some()
            || is_bidi_mark(c)
            || is_invisible(c)
            || is_joiner(c)
    };
    if !text.chars().any(is_wide) {
        return None;
    }
    let mut s = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = script_digit(c) {
            s.push(d);
            continue;
        }
        let digit =
            |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit() || script_digit(c).is_some());
        match c {
            _ if is_bidi_mark(c) || is_invisible(c) => {}
            _ if is_joiner(c)
                && (s.ends_with(|p: char| p.is_ascii_digit()) || digit(chars.peek().copied())) => {}
            '٫' => s.push('.'),
            '٬' => s.push(','),
            '٪' => s.push('%'),
            '؟' => s.push('?'),
            // The Arabic comma separates list items and clauses: a space after it keeps
            // `٣،٤` from reading as one figure.
            '،' if chars.peek().is_some_and(|n| n.is_whitespace()) => s.push(','),
            '،' => s.push_str(", "),
            // A list separator: a space after it keeps `3，4` from reading as one figure.
            '、' | '，' => s.push_str(", "),
            '\u{3000}' => s.push(' '),
            '\u{FF01}'..='\u{FF5E}' => s.push(char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)),
            _ => s.push(c),
        }
    }
    Some(s)
}

fn myriad(c: &regex::Captures) -> String {
    let v: f64 = c[1].parse().unwrap_or(0.0) * 10_000.0;
    format!("{}", v.round() as i64)
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn full_width_figures_read_as_their_ascii_forms() {
        assert_eq!(fold("０．７ × １．３ ＝ ０．９１"), "0.7 × 1.3 = 0.91");
        assert_eq!(fold("净变化为 −９％"), "净变化为 −9%");
        assert_eq!(fold("（１００−８０）／８０"), "(100−80)/80");
        assert_eq!(fold("3、4、5"), "3, 4, 5");
        assert_eq!(fold("８万ドル"), "80000ドル");
    }

    #[test]
    fn digits_of_other_scripts_read_as_ascii_digits() {
        assert_eq!(fold("٠٫٢٥ أي ٢٥٪"), "0.25 أي 25%");
        assert_eq!(fold("١٠٠٬٠٠٠ − ٨٠٬٠٠٠"), "100,000 − 80,000");
        assert_eq!(fold("۰٫۹۱ یعنی −۹٪"), "0.91 یعنی −9%");
        assert_eq!(fold("१,००,००० और २५%"), "1,00,000 और 25%");
        assert_eq!(fold("٣،٤، ٥"), "3, 4, 5");
        assert_eq!(fold("\u{200F}٢٥٪\u{200F}"), "25%");
    }

    #[test]
    fn percent_first_and_percent_words_read_as_a_percentage() {
        assert_eq!(fold("rakam %25'tir"), "rakam 25%'tir");
        assert_eq!(fold("→ %25"), "→ 25%");
        assert_eq!(fold("artış % 25, yani"), "artış 25%, yani");
        assert_eq!(fold("50 % 25"), "50 % 25");
        assert_eq!(fold("٢٥ في المئة"), "25%");
        assert_eq!(fold("२५ प्रतिशत"), "25%");
        assert_eq!(fold("25パーセント"), "25%");
        assert_eq!(fold("del 25 per cento"), "del 25%");
        assert_eq!(fold("net down 9 pct."), "net down 9%.");
        assert_eq!(fold("o 8 procent"), "o 8%");
        assert_eq!(
            fold("(2,8 Mio. € − 2,5 Mio. €) / 2,5 Mio. €."),
            "(2,8 Mio € − 2,5 Mio €) / 2,5 Mio €."
        );
        assert_eq!(fold("Umsatz 2,8 Mio. Der Rest"), "Umsatz 2,8 Mio. Der Rest");
    }

    #[test]
    fn english_text_and_url_escapes_are_left_as_written() {
        assert!(matches!(
            fold("25 percent, not 20%."),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(fold("see a%20b and q=%41"), "see a%20b and q=%41");
        assert_eq!(fold("see https://x.org/a%20b"), "see https://x.org/a%20b");
    }
}
