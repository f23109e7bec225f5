//! The language a reply is written in, and whether the readers hold a lexicon for it.
//!
//! A stance, negation, correction or request is decided only in a language of [`LANGUAGES`]:
//! the one list the readers hold words for (a negation, a correction, a request to restate and
//! a refusal each, tested in `tests/languages.rs`; docs/cases-and-checkers.md prints it from
//! here). A reply written in another language or script is read no further for those words:
//! the criteria that need them are unsure ("reads Hebrew; no lexicon"), never failed for want
//! of an English word.
//!
//! Detection is cheap and bounded: the script by Unicode ranges over the letters of the reply's
//! prose (code blocks left out), and among Latin-script languages the one whose common short
//! words (stopwords) the prose uses most. A reply mostly in English with a quotation in
//! another language reads as English.

use std::collections::HashMap;

/// A language the readers hold a lexicon for: its ISO 639-1 code and its English name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Language {
    pub code: &'static str,
    pub name: &'static str,
}

/// The languages the readers decide stances, negations, corrections and requests in.
pub const LANGUAGES: &[Language] = &[
    Language {
        code: "en",
        name: "English",
    },
    Language {
        code: "de",
        name: "German",
    },
    Language {
        code: "es",
        name: "Spanish",
    },
    Language {
        code: "fr",
        name: "French",
    },
    Language {
        code: "it",
        name: "Italian",
    },
    Language {
        code: "pt",
        name: "Portuguese",
    },
    Language {
        code: "nl",
        name: "Dutch",
    },
    Language {
        code: "pl",
        name: "Polish",
    },
    Language {
        code: "sv",
        name: "Swedish",
    },
    Language {
        code: "tr",
        name: "Turkish",
    },
    Language {
        code: "ru",
        name: "Russian",
    },
    Language {
        code: "ar",
        name: "Arabic",
    },
    Language {
        code: "hi",
        name: "Hindi",
    },
    Language {
        code: "zh",
        name: "Chinese",
    },
    Language {
        code: "ja",
        name: "Japanese",
    },
    Language {
        code: "ko",
        name: "Korean",
    },
];

/// What a text was read as: a language (or, with no way to name one, a script) and whether the
/// readers hold its lexicon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub name: String,
    pub supported: bool,
}

impl Detected {
    /// The reason an unsure criterion gives: "reads Hebrew; no lexicon".
    pub fn no_lexicon(&self) -> String {
        format!("reads {}; no lexicon", self.name)
    }
}

/// The scripts told apart by Unicode ranges, each with the language its replies are in (or the
/// script's own name where several languages share it).
fn script_of(c: char) -> Option<&'static str> {
    let u = c as u32;
    Some(match u {
        0x0041..=0x005A | 0x0061..=0x007A | 0x00C0..=0x024F | 0x1E00..=0x1EFF => "Latin",
        0x0370..=0x03FF | 0x1F00..=0x1FFF => "Greek",
        0x0400..=0x052F => "Cyrillic",
        0x0530..=0x058F => "Armenian",
        0x0590..=0x05FF => "Hebrew",
        0x0600..=0x06FF | 0x0750..=0x077F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => "Arabic",
        0x0900..=0x097F => "Devanagari",
        0x0980..=0x09FF => "Bengali",
        0x0A00..=0x0A7F => "Gurmukhi",
        0x0A80..=0x0AFF => "Gujarati",
        0x0B80..=0x0BFF => "Tamil",
        0x0C00..=0x0C7F => "Telugu",
        0x0C80..=0x0CFF => "Kannada",
        0x0D00..=0x0D7F => "Malayalam",
        0x0E00..=0x0E7F => "Thai",
        0x0E80..=0x0EFF => "Lao",
        0x1000..=0x109F => "Myanmar",
        0x10A0..=0x10FF => "Georgian",
        0x1200..=0x139F => "Ethiopic",
        0x1780..=0x17FF => "Khmer",
        0x3040..=0x30FF | 0x31F0..=0x31FF => "Kana",
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => "Han",
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => "Hangul",
        _ => return None,
    })
}

/// Common short words of the Latin-script languages replies come in: the language whose words
/// a text uses most is the one it is written in.
const STOPWORDS: &[(&str, &str)] = &[
    ("English", "the and is are of to not that this with you it be for was have as on which no before can"),
    ("German", "der die das und ist nicht ein eine mit ich sie auf den zu es wir dem sich auch bitte kein keine noch dabei"),
    ("Spanish", "el la los las y es que un una con por para del está son pero como más se lo de en no hay nada"),
    ("French", "le la les et est pas une des du que pour avec sur ce je vous il au sont mais de en ne n d l qu"),
    ("Italian", "il la gli e è che un una per con del della sono non ma questo alla anche lo di in ci c"),
    ("Portuguese", "o a os as e é não que um uma com para do da em você são mas isso foi de no há"),
    ("Dutch", "de het een en is niet van dat met voor ik je zijn op ook maar dit wordt er geen"),
    ("Indonesian", "yang dan ini itu tidak dengan untuk dari adalah ke di akan belum bisa kita pada"),
    ("Polish", "i w nie się to jest na że z do jak ale czy dla od są tak wynosi więc proszę zanim mogę tym jeszcze raz ma"),
    ("Turkish", "ve bir bu için değil ile çok olarak da ama daha gibi olan lütfen yok hangi şey önce"),
    ("Swedish", "och att det som är inte en på för med jag har den till av ingen så finns inget kan du något"),
    ("Vietnamese", "và của là không có được các những cho một này với"),
    // Latin-script languages the readers hold no lexicon for: told apart so that a reply in
    // one is unsure naming it, never read for English words it does not hold.
    ("Czech", "není jsou jsem jsme také protože nebo který která které když pouze jen jako podle tedy proto však pro při což je se že už tak to ale na z do od v"),
    ("Slovak", "sú som sme tiež pretože alebo ktorý ktorá ktoré keď iba len ako podľa teda preto však pre pri čo je sa že už tak to ale na z do od v"),
    ("Romanian", "și este nu în că cu pe care sunt mai pentru din să sau această acest fi"),
    ("Hungarian", "és az hogy nem egy van is meg ez csak már kell vagy mert azt ezt mint volt lesz nincs"),
    ("Finnish", "ja on ei että ovat tai mutta kun myös ole vain joka tämä oli olla jos niin kuin"),
    ("Danish", "og er ikke af jeg også meget hvad hvis skal blev være"),
    ("Norwegian", "og er ikke av jeg også veldig hva hvis skal ble være ikkje"),
    ("Croatian", "nije što kao ili jer koji koja koje samo biti su je da se"),
    ("Catalan", "amb però és els aquest aquesta perquè molt també són pel dels"),
    ("Tagalog", "ang ng mga ay hindi ito para kung siya"),
];
fn stopwords() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static MAP: std::sync::LazyLock<HashMap<&'static str, Vec<&'static str>>> =
        std::sync::LazyLock::new(|| {
            let mut m: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
            for (lang, words) in STOPWORDS {
                for w in words.split(' ') {
                    m.entry(w).or_default().push(lang);
                }
            }
            m
        });
    &MAP
}

/// The language of a Latin-script text: the one whose stopwords it uses most (a word shared by
/// several languages counts for each); English when no other scores higher.
fn latin_language(text: &str) -> &'static str {
    // Each word counts 12 shared among the languages it belongs to: a word only one language
    // has weighs most.
    let mut score: HashMap<&str, usize> = HashMap::new();
    let mut rest = text;
    while let Some(at) = rest.find(char::is_alphabetic) {
        let len = rest[at..]
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(rest.len() - at);
        let (w, after) = (&rest[at..at + len], &rest[at + len..]);
        rest = after;
        // An elided article or pronoun ("d'", "l'", "n'", "c'") only before its apostrophe: alone,
        // "n" and "d" are a formula's variables.
        if ELIDED.contains(&w) && !after.starts_with(['\'', '’']) {
            continue;
        }
        let w = w.to_lowercase();
        if let Some(langs) = stopwords().get(w.as_str()) {
            for l in langs {
                *score.entry(l).or_default() += 12 / langs.len();
            }
        }
    }
    let english = score.get("English").copied().unwrap_or(0);
    let best = STOPWORDS
        .iter()
        .map(|(l, _)| (*l, score.get(l).copied().unwrap_or(0)))
        .filter(|&(_, s)| s > english && s >= 12)
        .max_by_key(|&(_, s)| s)
        .map(|(l, _)| l);
    // Thirty words of prose and not one common word of any language the list knows: another
    // language, not English.
    let words = || {
        text.split(|c: char| !c.is_alphabetic())
            .filter(|w| w.len() > 1)
    };
    match best {
        Some(l) => l,
        None if score.is_empty() && words().nth(29).is_some() => UNLISTED_LATIN,
        None => "English",
    }
}

/// The stopwords that are an elided letter.
const ELIDED: [&str; 4] = ["d", "l", "n", "c"];

/// The name given to Latin-script prose in no language the stopwords tell.
const UNLISTED_LATIN: &str = "a Latin-script language the readers do not list";

/// The language a script's letters name: one language where the script is one language's,
/// told apart by letters of their own where two share it.
fn language_of_script(script: &str, text: &str) -> &'static str {
    let has = |set: &str| text.chars().any(|c| set.contains(c));
    match script {
        "Cyrillic" if has("іїєґІЇЄҐ") => "Ukrainian",
        "Cyrillic" if has("ђћџљњЂЋЏЉЊ") => "Serbian",
        "Cyrillic" => "Russian",
        "Greek" => "Greek",
        "Hebrew" => "Hebrew",
        "Arabic" if has("پچژگ") => "Persian",
        "Arabic" if has("ٹڈڑںے") => "Urdu",
        "Arabic" => "Arabic",
        "Devanagari" => "Hindi",
        "Kana" => "Japanese",
        "Han" => "Chinese",
        "Hangul" => "Korean",
        "Armenian" => "Armenian",
        "Bengali" => "Bengali",
        "Gurmukhi" => "Punjabi",
        "Gujarati" => "Gujarati",
        "Tamil" => "Tamil",
        "Telugu" => "Telugu",
        "Kannada" => "Kannada",
        "Malayalam" => "Malayalam",
        "Thai" => "Thai",
        "Lao" => "Lao",
        "Myanmar" => "Burmese",
        "Georgian" => "Georgian",
        "Ethiopic" => "Amharic",
        "Khmer" => "Khmer",
        _ => "an unknown script",
    }
}

/// The prose of `text`: fenced code blocks and inline code left out (a query or a program is
/// not the language the reply speaks).
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let mut inline = false;
            for c in line.chars() {
                if c == '`' {
                    inline = !inline;
                } else if !inline {
                    out.push(c);
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The language `text` is written in, or `None` when it holds no letters to tell.
pub fn detect(text: &str) -> Option<Detected> {
    let prose = prose(text);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for c in prose.chars().filter(|c| c.is_alphabetic()) {
        if let Some(s) = script_of(c) {
            *counts.entry(s).or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    if total == 0 {
        return None;
    }
    // Han and Kana together are Japanese; Hangul with Han is Korean.
    if counts.get("Kana").is_some_and(|&k| k * 20 >= total) {
        let han = counts.remove("Han").unwrap_or(0);
        *counts.entry("Kana").or_default() += han;
    }
    let (&script, _) = counts.iter().max_by_key(|(s, n)| (**n, **s))?;
    let name = if script == "Latin" {
        latin_language(&prose)
    } else {
        language_of_script(script, &prose)
    };
    Some(Detected {
        supported: LANGUAGES.iter().any(|l| l.name == name),
        name: name.to_string(),
    })
}

/// The language of `text` when the readers hold no lexicon for it.
pub fn unsupported(text: &str) -> Option<Detected> {
    detect(text).filter(|d| !d.supported)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> String {
        detect(text).unwrap().name
    }

    #[test]
    fn scripts_are_told_by_their_unicode_ranges() {
        assert_eq!(
            name("UTC אינו עובר לשעון קיץ, ולכן אין מה להזיז."),
            "Hebrew"
        );
        assert_eq!(name("UTC не переходит на летнее время."), "Russian");
        assert_eq!(name("Це база даних, і вона працює."), "Ukrainian");
        assert_eq!(
            name("UTCには夏時間がありません。どのタイムゾーンですか？"),
            "Japanese"
        );
        assert_eq!(name("UTC 没有夏令时。请问是哪个时区？"), "Chinese");
        assert_eq!(name("Η μεταβολή είναι αμελητέα."), "Greek");
        assert_eq!(name("این تغییر ناچیز است و گزارش آماده است"), "Persian");
    }

    #[test]
    fn latin_script_languages_are_told_by_their_common_words() {
        assert_eq!(name("The net change is a fall of 9%, not zero."), "English");
        assert_eq!(
            name("Die Änderung ist nicht null, sondern ein Rückgang um 9 % und das ist wichtig."),
            "German"
        );
        assert_eq!(
            name(
                "Ringkasan ini bergantung pada dua angka yang belum diverifikasi dan itu penting."
            ),
            "Indonesian"
        );
        assert_eq!(
            name("El cambio no es cero: es una caída del 9 % y la base es la del inicio."),
            "Spanish"
        );
    }

    #[test]
    fn code_and_an_english_frame_around_a_quotation_read_as_english() {
        let text = "The user wrote «Η μεταβολή είναι αμελητέα» but the net change is -9%, and that is the answer for the budget.\n```\nπ = 3.14\n```";
        assert_eq!(name(text), "English");
        assert!(detect(text).unwrap().supported);
        assert_eq!(
            unsupported("Η μεταβολή είναι αμελητέα.")
                .unwrap()
                .no_lexicon(),
            "reads Greek; no lexicon"
        );
    }
}
