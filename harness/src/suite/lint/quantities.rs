//! Quantities as a reader compares them, over a rule's words (numbers already in digits): a
//! comparison with its number read as one operator and that number ("at least five", "five or
//! more", "no fewer than 5", "≥ 5" are all `cmpge 5`), and a duration read in seconds ("10
//! minutes", "600 seconds", "a ten-minute", "10 min" are all `600 seconds`). The same quantity
//! said in other words is then the same words; a changed operator ("at least" → "more than") or
//! value ("10 minutes" → "10 seconds") stays a change.

/// The canonical words of the four comparisons, as `rules` counts them.
pub const AT_LEAST: &str = "cmpge";
pub const AT_MOST: &str = "cmple";
pub const MORE_THAN: &str = "cmpgt";
pub const LESS_THAN: &str = "cmplt";

/// Symbols written for a comparison, as the canonical word (before the text is cut into words,
/// which drops symbols). `>` and `<` only before a number: `->` is an arrow.
pub fn symbols(text: &str) -> String {
    static GT_LT: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"([<>])\s*(\d)").unwrap());
    let t = text
        .replace(['≥', '⩾'], &format!(" {AT_LEAST} "))
        .replace(">=", &format!(" {AT_LEAST} "))
        .replace(['≤', '⩽'], &format!(" {AT_MOST} "))
        .replace("<=", &format!(" {AT_MOST} "));
    GT_LT
        .replace_all(&t, |c: &regex::Captures| {
            let op = if &c[1] == ">" { MORE_THAN } else { LESS_THAN };
            format!(" {op} {}", &c[2])
        })
        .into_owned()
}

/// `#` stands for a number, `*` for any one word that is not a number (a unit: "five *lines* or
/// more"). Longest first where one phrase holds another ("no more than" before "more than").
const PHRASES: [(&str, &str); 56] = [
    ("no fewer than #", AT_LEAST),
    ("no less than #", AT_LEAST),
    ("not fewer than #", AT_LEAST),
    ("not less than #", AT_LEAST),
    ("at least #", AT_LEAST),
    ("a minimum of #", AT_LEAST),
    ("minimum of #", AT_LEAST),
    ("# or more", AT_LEAST),
    ("# or greater", AT_LEAST),
    ("# or higher", AT_LEAST),
    ("# or above", AT_LEAST),
    ("# * or more", AT_LEAST),
    ("# * or greater", AT_LEAST),
    ("# * at least", AT_LEAST),
    ("# * at minimum", AT_LEAST),
    ("no more than #", AT_MOST),
    ("not more than #", AT_MOST),
    ("no greater than #", AT_MOST),
    ("not greater than #", AT_MOST),
    ("not exceeding #", AT_MOST),
    ("not to exceed #", AT_MOST),
    ("at most #", AT_MOST),
    ("a maximum of #", AT_MOST),
    ("maximum of #", AT_MOST),
    ("up to #", AT_MOST),
    ("within #", AT_MOST),
    ("# or fewer", AT_MOST),
    ("# or less", AT_MOST),
    ("# or lower", AT_MOST),
    ("# or below", AT_MOST),
    ("# * or fewer", AT_MOST),
    ("# * or less", AT_MOST),
    ("# * at most", AT_MOST),
    ("# * at maximum", AT_MOST),
    ("more than #", MORE_THAN),
    ("greater than #", MORE_THAN),
    ("in excess of #", MORE_THAN),
    ("exceeding #", MORE_THAN),
    ("over #", MORE_THAN),
    ("above #", MORE_THAN),
    ("exceeds #", MORE_THAN),
    ("exceed #", MORE_THAN),
    ("fewer than #", LESS_THAN),
    ("less than #", LESS_THAN),
    ("below #", LESS_THAN),
    ("under #", LESS_THAN),
    // Without a number: the same bound in other words ("at minimum the frontier model").
    ("at the very least", AT_LEAST),
    ("at the least", AT_LEAST),
    ("at least", AT_LEAST),
    ("at a minimum", AT_LEAST),
    ("at minimum", AT_LEAST),
    ("at the very most", AT_MOST),
    ("at the most", AT_MOST),
    ("at most", AT_MOST),
    ("at a maximum", AT_MOST),
    ("at maximum", AT_MOST),
];

fn is_number(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit())
        && w.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// The phrase at `words[at..]`, if one is there: its length, the operator, the number and the
/// word standing for `*`.
fn phrase_at(
    words: &[String],
    at: usize,
) -> Option<(usize, &'static str, Option<String>, Option<String>)> {
    PHRASES.iter().find_map(|(p, op)| {
        let parts: Vec<&str> = p.split(' ').collect();
        let got = words.get(at..at + parts.len())?;
        let (mut num, mut unit) = (None, None);
        for (want, w) in parts.iter().zip(got) {
            match *want {
                "#" if is_number(w) => num = Some(w.clone()),
                "*" if !is_number(w) => unit = Some(w.clone()),
                want if want == w => {}
                _ => return None,
            }
        }
        (num.is_some() == p.contains('#')).then_some((parts.len(), *op, num, unit))
    })
}

/// Each comparison with its number as `op number` (a unit between them kept after the number).
fn comparisons(words: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        match phrase_at(&words, i) {
            Some((len, op, num, unit)) => {
                out.push(op.to_string());
                out.extend(num);
                out.extend(unit);
                i += len;
            }
            None => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// Seconds in one of a duration's unit, by the words people write for it.
fn seconds_in(unit: &str) -> Option<f64> {
    Some(match unit {
        "ms" | "msec" | "millisecond" | "milliseconds" => 0.001,
        "sec" | "secs" | "second" | "seconds" => 1.0,
        "min" | "mins" | "minute" | "minutes" => 60.0,
        "hr" | "hrs" | "hour" | "hours" => 3600.0,
        "day" | "days" => 86_400.0,
        "week" | "weeks" => 604_800.0,
        _ => return None,
    })
}

fn shown(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Every duration in seconds: `10 minutes` → `600 seconds`; `an hour`, `every hour` → `3600
/// seconds` (one of the unit).
fn durations(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        let Some(per) = seconds_in(&w) else {
            out.push(w);
            continue;
        };
        let before = out.last().cloned();
        match before {
            Some(n) if is_number(&n) => match n.replace(',', "").parse::<f64>() {
                Ok(v) => {
                    out.pop();
                    out.push(shown(v * per));
                    out.push("seconds".into());
                }
                Err(_) => out.push(w),
            },
            Some(a) if a == "a" || a == "an" => {
                out.pop();
                // "half an hour": a fraction before "an" counts the unit.
                let part = out
                    .last()
                    .filter(|n| is_number(n))
                    .and_then(|n| n.parse::<f64>().ok())
                    .filter(|v| *v < 1.0);
                if part.is_some() {
                    out.pop();
                }
                out.push(shown(part.unwrap_or(1.0) * per));
                out.push("seconds".into());
            }
            Some(e) if matches!(e.as_str(), "every" | "each" | "per") => {
                out.push(shown(per));
                out.push("seconds".into());
            }
            _ => out.push(w),
        }
    }
    out
}

/// "3 out of 3" is "3 of 3".
fn out_of(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let counted = k > 0 && is_number(&words[k - 1]);
        if w == "out" && counted && words.get(k + 1).is_some_and(|n| n == "of") {
            continue;
        }
        out.push(w.clone());
    }
    out
}

/// A multiplier word (`×1000` for "thousand") times the number before it ("one thousand",
/// "5 thousand"), else its own value ("a thousand" is 1000).
fn multipliers(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        let Some(by) = w.strip_prefix('×').and_then(|m| m.parse::<f64>().ok()) else {
            out.push(w);
            continue;
        };
        let before = out
            .last()
            .filter(|n| is_number(n))
            .and_then(|n| n.replace(',', "").parse::<f64>().ok());
        if before.is_some() {
            out.pop();
        }
        out.push(shown(before.unwrap_or(1.0) * by));
    }
    out
}

/// A rule's words with its quantities read as one reader would compare them.
pub fn fold(words: Vec<String>) -> Vec<String> {
    comparisons(durations(out_of(multipliers(words))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(t: &str) -> String {
        fold(t.split(' ').map(str::to_string).collect()).join(" ")
    }

    #[test]
    fn a_comparison_in_other_words_is_one_operator_and_its_number() {
        for t in [
            "at least 5 lines",
            "5 or more lines",
            "no fewer than 5 lines",
            "5 lines or more",
            "a minimum of 5 lines",
        ] {
            assert_eq!(f(t), "cmpge 5 lines", "{t}");
        }
        for t in [
            "at most 5 lines",
            "5 or fewer lines",
            "no more than 5 lines",
            "up to 5 lines",
            "5 lines or fewer",
        ] {
            assert_eq!(f(t), "cmple 5 lines", "{t}");
        }
        assert_eq!(f("more than 5 lines"), "cmpgt 5 lines");
        assert_eq!(
            f("passes 3 out of 3 transcripts"),
            "passes 3 of 3 transcripts"
        );
        assert_eq!(f("fewer than 5 lines"), "cmplt 5 lines");
        assert_eq!(
            f("at minimum the frontier"),
            f("at the very least the frontier")
        );
    }

    #[test]
    fn a_duration_in_other_units_is_the_same_seconds_and_a_changed_one_is_not() {
        assert_eq!(f("10 minutes of time"), f("600 seconds of time"));
        assert_eq!(f("1 hour"), f("60 minutes"));
        assert_eq!(f("an hour"), f("60 minutes"));
        assert_eq!(f("0.5 an hour"), f("30 minutes"));
        assert_eq!(f("2 a day"), "2 86400 seconds");
        assert_eq!(f("within 10 minutes"), f("600 seconds or less"));
        assert_ne!(f("10 minutes"), f("10 seconds"));
    }

    #[test]
    fn symbols_are_the_comparison_words() {
        assert_eq!(
            symbols("≥5 and >= 5 and >5 but a -> b"),
            " cmpge 5 and  cmpge  5 and  cmpgt 5 but a -> b"
        );
    }
}
