//! A text's words as a reader compares wording: case folded, punctuation gone, numbers in
//! words written in digits ("twenty-five" is 25), a unit's synonym read as the unit and "non-"
//! joined to its word (`forms`), comparisons and durations folded (`quantities`).

use super::{forms, quantities};
use regex::Regex;
use std::sync::LazyLock;

static COMPOUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](one|two|three|four|five|six|seven|eight|nine)\b").unwrap()
});
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

const NUMBER_WORDS: [(&str, &str); 26] = [
    ("zero", "0"),
    ("one", "1"),
    ("once", "1"),
    ("two", "2"),
    ("twice", "2"),
    ("three", "3"),
    ("thrice", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("ten", "10"),
    ("eleven", "11"),
    ("twelve", "12"),
    ("thirteen", "13"),
    ("fifteen", "15"),
    ("twenty", "20"),
    ("thirty", "30"),
    ("fifty", "50"),
    // A multiplier: "one thousand" is 1000, "a hundred" 100 (`quantities`).
    ("hundred", "×100"),
    ("thousand", "×1000"),
    ("million", "×1000000"),
    ("half", "0.5"),
    ("single", "1"),
];

/// A text's words as a reader compares wording: case folded, Markdown emphasis and punctuation
/// gone, numbers in words written in digits, `%` kept as a word, a comparison read as its
/// operator and number and a duration in seconds (`quantities`).
pub fn normal_words(text: &str) -> Vec<String> {
    let lower = quantities::symbols(&forms::fold_names(&text.to_lowercase()))
        .replace('%', " percent ")
        .replace("per cent", "percent");
    // "twenty-five" is one number, 25, not 20 and 5.
    let lower = COMPOUND.replace_all(&lower, |c: &regex::Captures| {
        let tens = 20 + 10 * TENS.iter().position(|t| *t == &c[1]).unwrap_or(0);
        let unit = NUMBER_WORDS
            .iter()
            .find(|(w, _)| *w == &c[2])
            .map_or("0", |(_, d)| d);
        (tens + unit.parse::<usize>().unwrap_or(0)).to_string()
    });
    let words = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == ',' || c == '\''))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == ',' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| {
            NUMBER_WORDS
                .iter()
                .find(|(word, _)| *word == w)
                .map_or_else(|| w.to_string(), |(_, d)| d.to_string())
        })
        .collect();
    quantities::fold(words)
}
