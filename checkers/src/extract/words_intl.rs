//! Figures in words of the other languages replies come in (German, Spanish, French,
//! Portuguese, Russian, Polish, Italian, Dutch, Swedish), folded to digits where they count something: right before a percent
//! or a day word ("fünfundzwanzig Prozent", "veinticinco por ciento", "vingt-cinq pour cent",
//! "vinte e cinco por cento", "двадцать пять процентов", "acht Tage", "восемь дней"), and the
//! simple fractions ("ein Viertel", "un quart", "un cuarto", "um quinto", "четверть") as their
//! English words, which [`super::words`] reads as shares. Percentage points in those languages
//! ("9 Prozentpunkte", "9 puntos porcentuales", "9 points de pourcentage", "9 процентных
//! пунктов") read as "percentage points", never as a percentage.
//!
//! Only before a percent word or a plural day word: alone, "ein", "un", "once" or "sept" are articles, an
//! English word or a month far more often than a figure. One to ninety-nine (and zero) is what
//! the cases' figures need; a larger figure in words is left as written.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// Percentage points, in the languages above: before the percent words are folded.
static POINTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\s?%-?punkte?n?|prozentpunkte?n?|puntos?\s+porcentuales?|points?\s+de\s+pourcentage|pontos?\s+percentua(?:l|is)|процентн(?:ых|ого|ый|ые)\s+пункт(?:ов|а|ы)?|п\.\s?п\.)").unwrap()
});
/// A percent or day word of those languages, after white space (the figure's words before it).
static UNIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s(?:prozent|por\s+ciento|pour\s+cent|por\s+cento|per\s+cento|percento|procent|процент|tage|tagen|d[ií]as|jours|giorni|dagen|dagar|dni|дн(?:ей|я)|суток)").unwrap()
});
/// The simple fractions, as the English words [`super::words`] reads.
static FRACTION: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)(?:\b(?:(?:ein(?:em)?|un|um)\s+(?:viertel|quart|cuarto|quarto)|(?:una|uma)\s+(?:cuarta|quarta)\s+parte)\b|четверт[ьи])|(?P<fifth>\b(?:(?:ein(?:em)?|un|um)\s+(?:fünftel|cinquième|quinto)|(?:una|uma)\s+(?:quinta)\s+parte)\b|(?:одн[ау]\s+)?пят(?:ую|ая)\s+част[ьи]|одн[ау]\s+пят(?:ую|ая))").unwrap()
});

/// In ASCII text, a word the folds above could start at: without one, none runs (one literal
/// scan instead of three regexes over every English reply).
static ASCII_TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)punkt|porcentua|pourcentage|percentua|viertel|quart|cuart|quint|prozent|ciento|pour\s+cent|por\s+cento|cento|procent|tage|dias|jours|giorni|dagen|dagar|dni").unwrap()
});

/// `text` with the figures in words above folded; borrowed when there are none.
pub fn fold(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !ASCII_TRIGGER.is_match(text) {
        return Cow::Borrowed(text);
    }
    let mut out: Cow<str> = Cow::Borrowed(text);
    let points = |c: &regex::Captures| {
        let spaced = c[0].starts_with(|c: char| c.is_whitespace() || c == '%');
        if spaced {
            " percentage points"
        } else {
            "percentage points"
        }
    };
    if let Cow::Owned(s) = POINTS.replace_all(&out, points) {
        out = Cow::Owned(s);
    }
    if let Cow::Owned(s) = FRACTION.replace_all(&out, |c: &regex::Captures| {
        if c.name("fifth").is_some() {
            "a fifth"
        } else {
            "a quarter"
        }
    }) {
        out = Cow::Owned(s);
    }
    if UNIT.is_match(&out) {
        if let Some(s) = figures_before_units(&out) {
            out = Cow::Owned(s);
        }
    }
    out
}

/// The text with each figure in words right before a unit word written in digits.
fn figures_before_units(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for m in UNIT.find_iter(text) {
        let before = &text[done..m.start()];
        let Some((at, value)) = trailing_figure(before) else {
            continue;
        };
        out.push_str(&before[..at]);
        out.push_str(&value.to_string());
        done = m.start();
    }
    (done > 0).then(|| {
        out.push_str(&text[done..]);
        out
    })
}

/// The figure the last words of `before` spell, and where those words start: the longest of
/// the last three words (set apart by white space or hyphens) that reads as one number.
fn trailing_figure(before: &str) -> Option<(usize, i64)> {
    let mut starts = Vec::new();
    let mut end = before.len();
    while starts.len() < 3 {
        let s = &before[..end];
        let at = s
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphabetic())
            .last()
            .map(|(i, _)| i)?;
        starts.push(at);
        let rest = s[..at].trim_end_matches(|c: char| c.is_whitespace() || c == '-');
        if rest.len() == at {
            break;
        }
        end = rest.len();
        if !rest.ends_with(char::is_alphabetic) {
            break;
        }
    }
    starts.iter().rev().find_map(|&at| {
        let words: Vec<String> = before[at..]
            .split(|c: char| c.is_whitespace() || c == '-')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let value = number(&words)?;
        // A sign word right before the figure ("minus neun Prozent").
        let head = before[..at].trim_end();
        let lower = head.to_lowercase();
        let sign = ["minus", "минус", "menos", "moins"].iter().find(|w| {
            lower.ends_with(*w) && !lower[..lower.len() - w.len()].ends_with(char::is_alphabetic)
        });
        match sign {
            Some(w) if lower.len() == head.len() => Some((head.len() - w.len(), -value)),
            _ => Some((at, value)),
        }
    })
}

/// The number a few words spell, all of them used: a unit, a teen, a tens, or a tens and a
/// unit (joined by "y", "e", "et" or nothing), or one German or Spanish compound word.
fn number(words: &[String]) -> Option<i64> {
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let unit = |u: &str| unit_of(u).filter(|u| *u > 0);
    match w.as_slice() {
        [one] => single(one),
        ["dix", u] => Some(10 + unit(u)?),
        [tens, u] | [tens, "y" | "e" | "et", u] => Some(tens_of(tens)? + unit(u)?),
        _ => None,
    }
}

/// One word: a unit, a teen, a tens, or a compound ("fünfundzwanzig", "veinticinco").
fn single(w: &str) -> Option<i64> {
    if let Some(v) = unit_of(w).or_else(|| teen_of(w)).or_else(|| tens_of(w)) {
        return Some(v);
    }
    if let Some((unit, tens)) = w.split_once("und") {
        return Some(tens_of(tens)? + unit_of(unit).filter(|u| *u > 0)?);
    }
    // Dutch writes the unit first, joined by "en" ("vijfentwintig", "tweeëntwintig").
    if let Some((unit, tens)) = w.rsplit_once("en").or_else(|| w.rsplit_once("ën")) {
        if let (Some(t), Some(u)) = (tens_of(tens), unit_of(unit).filter(|u| *u > 0)) {
            return Some(t + u);
        }
    }
    if let Some(rest) = w.strip_prefix("veinti") {
        return Some(20 + unit_of(rest).filter(|u| *u > 0)?);
    }
    tens_then_unit(w)
}

/// Italian and Swedish write the tens first in one word ("venticinque", "ventotto" with the
/// vowel dropped, "tjugofem").
fn tens_then_unit(w: &str) -> Option<i64> {
    OTHER_WORDS
        .iter()
        .filter(|(t, v)| *v >= 20 && v % 10 == 0 && w.len() > t.len())
        .find_map(|(t, v)| {
            let rest = w.strip_prefix(t).or_else(|| {
                let stem = &t[..t.len() - 1];
                w.strip_prefix(stem)
                    .filter(|r| r.starts_with(['a', 'e', 'i', 'o', 'u']))
            })?;
            let rest = rest.replace('é', "e");
            Some(v + unit_of(&rest).filter(|u| *u > 0 && *u < 10)?)
        })
}

/// One to ninety in Polish, Italian, Dutch and Swedish (the languages of the list whose
/// numerals the matches below do not hold). An article that is also "one" ("een", "en", "un")
/// is left out: before a unit word it is an article far more often than a figure.
const OTHER_WORDS: &[(&str, i64)] = &[
    // Polish
    ("jeden", 1),
    ("dwa", 2),
    ("dwie", 2),
    ("trzy", 3),
    ("cztery", 4),
    ("pięć", 5),
    ("sześć", 6),
    ("siedem", 7),
    ("osiem", 8),
    ("dziewięć", 9),
    ("dziesięć", 10),
    ("jedenaście", 11),
    ("dwanaście", 12),
    ("trzynaście", 13),
    ("czternaście", 14),
    ("piętnaście", 15),
    ("szesnaście", 16),
    ("siedemnaście", 17),
    ("osiemnaście", 18),
    ("dziewiętnaście", 19),
    ("dwadzieścia", 20),
    ("trzydzieści", 30),
    ("czterdzieści", 40),
    ("pięćdziesiąt", 50),
    ("sześćdziesiąt", 60),
    ("siedemdziesiąt", 70),
    ("osiemdziesiąt", 80),
    ("dziewięćdziesiąt", 90),
    // Italian
    ("uno", 1),
    ("due", 2),
    ("tre", 3),
    ("tré", 3),
    ("quattro", 4),
    ("cinque", 5),
    ("sei", 6),
    ("sette", 7),
    ("otto", 8),
    ("dieci", 10),
    ("undici", 11),
    ("dodici", 12),
    ("tredici", 13),
    ("quattordici", 14),
    ("quindici", 15),
    ("sedici", 16),
    ("diciassette", 17),
    ("diciotto", 18),
    ("diciannove", 19),
    ("venti", 20),
    ("trenta", 30),
    ("quaranta", 40),
    ("cinquanta", 50),
    ("sessanta", 60),
    ("settanta", 70),
    ("ottanta", 80),
    ("novanta", 90),
    // Dutch
    ("twee", 2),
    ("drie", 3),
    ("vijf", 5),
    ("zes", 6),
    ("zeven", 7),
    ("negen", 9),
    ("tien", 10),
    ("twaalf", 12),
    ("dertien", 13),
    ("veertien", 14),
    ("vijftien", 15),
    ("zestien", 16),
    ("zeventien", 17),
    ("achttien", 18),
    ("negentien", 19),
    ("twintig", 20),
    ("dertig", 30),
    ("veertig", 40),
    ("vijftig", 50),
    ("zestig", 60),
    ("zeventig", 70),
    ("tachtig", 80),
    ("negentig", 90),
    // Swedish
    ("två", 2),
    ("fyra", 4),
    ("sex", 6),
    ("fem", 5),
    ("sju", 7),
    ("åtta", 8),
    ("nio", 9),
    ("tio", 10),
    ("elva", 11),
    ("tolv", 12),
    ("tretton", 13),
    ("fjorton", 14),
    ("femton", 15),
    ("sexton", 16),
    ("sjutton", 17),
    ("arton", 18),
    ("nitton", 19),
    ("tjugo", 20),
    ("trettio", 30),
    ("fyrtio", 40),
    ("femtio", 50),
    ("sextio", 60),
    ("sjuttio", 70),
    ("åttio", 80),
    ("nittio", 90),
];

/// A word of [`OTHER_WORDS`] in the range `lo..=hi`.
fn other(w: &str, lo: i64, hi: i64) -> Option<i64> {
    OTHER_WORDS
        .iter()
        .find(|(t, v)| *t == w && (lo..=hi).contains(v))
        .map(|(_, v)| *v)
}

fn unit_of(w: &str) -> Option<i64> {
    Some(match w {
        "null" | "cero" | "zéro" | "zero" | "ноль" => 0,
        "ein" | "eins" | "eine" | "uno" | "ún" | "un" | "una" | "une" | "um" | "uma" | "один"
        | "одна" | "одно" => 1,
        "zwei" | "dos" | "dós" | "deux" | "dois" | "duas" | "два" | "две" => 2,
        "drei" | "tres" | "trés" | "trois" | "três" | "три" => 3,
        "vier" | "cuatro" | "quatre" | "quatro" | "четыре" => 4,
        "fünf" | "cinco" | "cinq" | "пять" => 5,
        "sechs" | "seis" | "séis" | "six" | "шесть" => 6,
        "sieben" | "siete" | "sept" | "sete" | "семь" => 7,
        "acht" | "ocho" | "huit" | "oito" | "восемь" => 8,
        "neun" | "nueve" | "neuf" | "nove" | "девять" => 9,
        _ => return other(w, 1, 9),
    })
}

fn teen_of(w: &str) -> Option<i64> {
    Some(match w {
        "zehn" | "diez" | "dix" | "dez" | "десять" => 10,
        "elf" | "once" | "onze" | "одиннадцать" => 11,
        "zwölf" | "doce" | "douze" | "doze" | "двенадцать" => 12,
        "dreizehn" | "trece" | "treize" | "treze" | "тринадцать" => 13,
        "vierzehn" | "catorce" | "quatorze" | "catorze" | "четырнадцать" => 14,
        "fünfzehn" | "quince" | "quinze" | "пятнадцать" => 15,
        "sechzehn" | "dieciséis" | "seize" | "dezesseis" | "dezasseis" | "шестнадцать" => {
            16
        }
        "siebzehn" | "diecisiete" | "dezessete" | "dezassete" | "семнадцать" => 17,
        "achtzehn" | "dieciocho" | "dezoito" | "восемнадцать" => 18,
        "neunzehn" | "diecinueve" | "dezenove" | "dezanove" | "девятнадцать" => 19,
        _ => return other(w, 10, 19),
    })
}

fn tens_of(w: &str) -> Option<i64> {
    Some(match w {
        "zwanzig" | "veinte" | "vingt" | "vinte" | "двадцать" => 20,
        "dreißig" | "dreissig" | "treinta" | "trente" | "trinta" | "тридцать" => 30,
        "vierzig" | "cuarenta" | "quarante" | "quarenta" | "сорок" => 40,
        "fünfzig" | "cincuenta" | "cinquante" | "cinquenta" | "пятьдесят" => 50,
        "sechzig" | "sesenta" | "soixante" | "sessenta" | "шестьдесят" => 60,
        "siebzig" | "setenta" | "семьдесят" => 70,
        "achtzig" | "ochenta" | "oitenta" | "восемьдесят" => 80,
        "neunzig" | "noventa" | "девяносто" => 90,
        _ => return other(w, 20, 90),
    })
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn figures_in_words_before_a_percent_or_day_word_read_as_digits() {
        for (text, want) in [
            ("um fünfundzwanzig Prozent", "um 25 Prozent"),
            ("del veinticinco por ciento", "del 25 por ciento"),
            ("de vingt-cinq pour cent", "de 25 pour cent"),
            ("de vinte e cinco por cento", "de 25 por cento"),
            ("составил двадцать пять процентов", "составил 25 процентов"),
            ("treinta y cinco por ciento", "35 por ciento"),
            ("minus neun Prozent", "-9 Prozent"),
            ("минус девять процентов", "-9 процентов"),
            ("acht Tage", "8 Tage"),
            ("ocho días", "8 días"),
            ("восемь дней", "8 дней"),
            ("null Prozent", "0 Prozent"),
            ("dix-sept jours", "17 jours"),
            ("dwadzieścia pięć procent", "25 procent"),
            ("osiem dni", "8 dni"),
            ("venticinque per cento", "25 per cento"),
            ("ventotto giorni", "28 giorni"),
            ("otto giorni", "8 giorni"),
            ("vijfentwintig procent", "25 procent"),
            ("zevenentwintig procent", "27 procent"),
            ("acht dagen", "8 dagen"),
            ("tjugofem procent", "25 procent"),
            ("åtta dagar", "8 dagar"),
        ] {
            assert_eq!(fold(text), want, "{text}");
        }
    }

    #[test]
    fn alone_or_before_other_words_they_are_left_as_written() {
        for text in [
            "ein Budget",
            "once again, 25 Prozent",
            "un jour, peut-être",
            "ein Tag",
            "la semana tiene siete días",
        ] {
            let folded = fold(text);
            assert!(
                !folded.contains("1 ") && !folded.contains("11"),
                "{text} → {folded}"
            );
        }
        // "siete días" is a count, folded; the sentence around it stays.
        assert_eq!(fold("la semana tiene siete días"), "la semana tiene 7 días");
    }

    #[test]
    fn simple_fractions_and_percentage_points_read_as_english_words() {
        assert_eq!(fold("um ein Viertel gestiegen"), "um a quarter gestiegen");
        assert_eq!(fold("augmenté d'un quart"), "augmenté d'a quarter");
        assert_eq!(fold("subió un quinto"), "subió a fifth");
        assert_eq!(fold("выросли на четверть"), "выросли на a quarter");
        assert_eq!(fold("9 Prozentpunkte"), "9 percentage points");
        assert_eq!(fold("9 puntos porcentuales"), "9 percentage points");
        assert_eq!(fold("на 9 процентных пунктов"), "на 9 percentage points");
    }
}
