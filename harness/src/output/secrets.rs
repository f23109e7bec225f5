//! Key values the harness must never write: every configured API key read from the
//! environment is registered here, and every text the harness writes or prints that came from a
//! model or a server passes through [`redact`] — before any truncation, so a cut never leaves a
//! partial key behind. The run folder's files are redacted once more as they are written.

use std::sync::RwLock;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());
pub const MASK: &str = "[redacted]";

/// Remember a key value (shorter values are not secrets worth masking and would mangle text).
pub fn register(value: &str) {
    let v = value.trim();
    if v.len() < 8 {
        return;
    }
    if let Ok(mut s) = SECRETS.write() {
        if !s.iter().any(|x| x == v) {
            s.push(v.to_string());
            // Longest first, so a key that contains another is masked whole.
            s.sort_by_key(|x| std::cmp::Reverse(x.len()));
        }
    }
}

/// Remember the values of environment variables named like keys (`*_API_KEY`, `*_TOKEN`,
/// `*_SECRET`), so output is masked even where no manifest names the key.
pub fn register_from_env() {
    for (name, value) in std::env::vars_os() {
        let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
            continue;
        };
        if named_like_a_key(name) {
            register(value);
        }
    }
}

/// Whether a variable's name says it holds a key (`*_API_KEY`, `*_TOKEN`, `*_SECRET`).
pub fn named_like_a_key(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["_API_KEY", "_TOKEN", "_SECRET"]
        .iter()
        .any(|s| upper.ends_with(s))
}

/// `text` with every registered key masked: as written, as JSON would escape it, and wherever
/// decoding spells one — JSON and C escapes (`\u0073`, `\x73`, `\/`, `\\`), percent-encoding
/// (`%73`), HTML character references (`&#115;`), invisible characters between its letters,
/// up to three layers deep (an escape of an escape). A server that echoes a key in an error
/// body chooses its spelling; a reader decodes it at a glance.
pub fn redact(text: &str) -> String {
    let Ok(secrets) = SECRETS.read() else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for s in secrets.iter() {
        if out.contains(s.as_str()) {
            out = out.replace(s.as_str(), MASK);
        }
        let escaped = serde_json::to_string(s).unwrap_or_default();
        let escaped = escaped.trim_matches('"');
        if escaped != s && out.contains(escaped) {
            out = out.replace(escaped, MASK);
        }
    }
    if secrets.is_empty() || !may_spell(&out) {
        return out;
    }
    mask_spelled(&out, &secrets)
}

/// Whether `text` holds anything decoding would change: one pass over its bytes, so the text
/// that holds no escape (nearly all of it; JSON's `\n` and `\"` are not decoded) costs no more.
fn may_spell(text: &str) -> bool {
    let b = text.as_bytes();
    let hex = |i: usize| b.get(i).is_some_and(u8::is_ascii_hexdigit);
    let escape = b.iter().enumerate().any(|(i, &c)| match c {
        b'\\' => match b.get(i + 1) {
            Some(b'u') => (2..6).all(|k| hex(i + k)),
            Some(b'x') => hex(i + 2) && hex(i + 3),
            Some(b'/') => true,
            Some(b'\\') => matches!(b.get(i + 2), Some(b'u' | b'x' | b'/' | b'\\')),
            _ => false,
        },
        b'%' => hex(i + 1) && hex(i + 2),
        b'&' => b.get(i + 1) == Some(&b'#'),
        _ => false,
    });
    escape || (!text.is_ascii() && text.chars().any(invisible))
}

const LAYERS: usize = 3;

fn is_escape_start(b: u8) -> bool {
    matches!(b, b'\\' | b'%' | b'&')
}

/// Characters a reader does not see (Unicode's default-ignorable code points): a key with them
/// between its letters still reads whole. Variation selectors and the tag characters
/// (U+E0000–U+E0FFF) included: a renderer shows nothing for them after a letter.
fn invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}' | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{ffa0}' | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// The character an escape at `at(0)` spells and how many characters the escape takes.
fn unescape(at: impl Fn(usize) -> Option<char>) -> Option<(char, usize)> {
    let number = |from: usize, radix: u32, max: usize| {
        let mut v: u32 = 0;
        let mut k = from;
        while let Some(d) = at(k).and_then(|c| c.to_digit(radix)) {
            v = v.checked_mul(radix)?.checked_add(d)?;
            k += 1;
            if k - from > max {
                return None;
            }
        }
        (k > from).then_some((v, k))
    };
    // Exactly n hex digits, whatever follows.
    let hex_at = |from: usize, n: usize| {
        (0..n).try_fold(0u32, |v, k| Some(v * 16 + at(from + k)?.to_digit(16)?))
    };
    match at(0)? {
        '\\' => match at(1)? {
            'u' => Some((char::from_u32(hex_at(2, 4)?)?, 6)),
            'x' => Some((char::from_u32(hex_at(2, 2)?)?, 4)),
            '/' => Some(('/', 2)),
            // An escaped backslash matters only before another escape (`\\u0073`); JSON's
            // `\\frac` stays as it is, so LaTeX in a transcript costs no decoding.
            '\\' if matches!(at(2), Some('u' | 'x' | '/' | '\\')) => Some(('\\', 2)),
            _ => None,
        },
        '%' => {
            let v = hex_at(1, 2)?;
            (v < 0x80).then(|| (char::from(v as u8), 3))
        }
        '&' if at(1)? == '#' => {
            let (radix, from) = if matches!(at(2)?, 'x' | 'X') {
                (16, 3)
            } else {
                (10, 2)
            };
            let (v, end) = number(from, radix, 8)?;
            (at(end)? == ';').then_some(())?;
            Some((char::from_u32(v)?, end + 1))
        }
        _ => None,
    }
}

/// One layer of decoding, cheaply: whether any key shows in it is all that is asked first.
fn decode_text(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if is_escape_start(b[i]) {
            if let Some((c, n)) = unescape(|k| b.get(i + k).map(|&x| x as char)) {
                if !invisible(c) {
                    out.push(c);
                }
                i += n;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap_or_default();
        if !invisible(c) {
            out.push(c);
        }
        i += c.len_utf8().max(1);
    }
    out
}

/// A decoded character and the byte range of `text` it came from.
#[derive(Clone, Copy)]
struct Piece {
    c: char,
    start: usize,
    end: usize,
}

fn decode_pieces(input: &[Piece]) -> Vec<Piece> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let (c, n) = unescape(|k| input.get(i + k).map(|p| p.c)).unwrap_or((input[i].c, 1));
        if !invisible(c) {
            out.push(Piece {
                c,
                start: input[i].start,
                end: input[i + n - 1].end,
            });
        }
        i += n;
    }
    out
}

/// `text` with every key that a decoding of it spells masked where it stands.
fn mask_spelled(text: &str, secrets: &[String]) -> String {
    let mut layer = text.to_string();
    let mut found = false;
    for _ in 0..LAYERS {
        let next = decode_text(&layer);
        if next == layer {
            break;
        }
        found |= secrets.iter().any(|s| next.contains(s.as_str()));
        layer = next;
    }
    if !found {
        return text.to_string();
    }
    let mut pieces: Vec<Piece> = text
        .char_indices()
        .map(|(i, c)| Piece {
            c,
            start: i,
            end: i + c.len_utf8(),
        })
        .collect();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for _ in 0..LAYERS {
        pieces = decode_pieces(&pieces);
        let mut spelled = String::with_capacity(pieces.len());
        let mut piece_at = Vec::with_capacity(pieces.len());
        for (k, p) in pieces.iter().enumerate() {
            spelled.push(p.c);
            piece_at.extend(std::iter::repeat_n(k, p.c.len_utf8()));
        }
        for s in secrets {
            for (at, m) in spelled.match_indices(s.as_str()) {
                let (first, last) = (piece_at[at], piece_at[at + m.len() - 1]);
                ranges.push((pieces[first].start, pieces[last].end));
            }
        }
    }
    ranges.sort();
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for (start, end) in ranges {
        if end <= done {
            continue;
        }
        if start >= done {
            out.push_str(&text[done..start]);
            out.push_str(MASK);
        }
        done = end;
    }
    out.push_str(&text[done..]);
    out
}

/// Whether any secret is registered (callers skip work when none is).
pub fn any() -> bool {
    SECRETS.read().is_ok_and(|s| !s.is_empty())
}

/// Mask keys in every string of a JSON value.
pub fn redact_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            let r = redact(s);
            if r != *s {
                *s = r;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(redact_json),
        serde_json::Value::Object(o) => o.values_mut().for_each(redact_json),
        _ => {}
    }
}

/// `text` cut to `max` characters after masking, with a marker when cut.
pub fn redacted_excerpt(text: &str, max: usize) -> String {
    let clean = redact(text);
    if clean.chars().count() <= max {
        clean
    } else {
        let cut: String = clean.chars().take(max).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_masked_before_a_cut_so_no_part_of_it_survives() {
        register("sk-test-ABCDEFGHIJKLMNOPQRS");
        let body = format!("{}sk-test-ABCDEFGHIJKLMNOPQRS tail", "x".repeat(290));
        let cut = redacted_excerpt(&body, 300);
        assert!(!cut.contains("sk-test-ABCDEFGHI"), "{cut}");
        assert!(!cut.contains("ABCDEFGH"), "{cut}");
        assert!(redact("key=sk-test-ABCDEFGHIJKLMNOPQRS!").contains(MASK));
    }

    #[test]
    fn a_key_with_variation_selectors_or_tag_characters_between_its_letters_is_masked() {
        // Characters no renderer shows: the key reads whole on the page, so it is masked.
        register("sk-ignorable-0123456789abc");
        for mark in [
            "\u{fe0f}",
            "\u{e0041}",
            "\u{e0020}",
            "\u{34f}",
            "\u{180e}",
            "\u{61c}",
            "\u{2065}",
            "\u{e0101}",
        ] {
            let spelled = "sk-ignorable-0123456789abc"
                .chars()
                .map(|c| format!("{c}{mark}"))
                .collect::<String>();
            let text = format!("before {spelled} after");
            assert!(
                !redact(&text).contains("0{mark}1"),
                "{mark:?}: {}",
                redact(&text)
            );
            assert!(redact(&text).contains(MASK), "{mark:?}");
        }
    }

    #[test]
    fn a_key_spelled_with_escapes_is_masked_where_it_stands() {
        register("sk-spelled-0123456789abc");
        for spelled in [
            "\\u0073k-spelled-0123456789abc",
            "\\\\u0073k-spelled-0123456789abc",
            "%73k-spelled-0123456789abc",
            "%73%6B%2d%73pelled-0123456789abc",
            "&#115;k-spelled-&#x30;123456789abc",
            "\\x73k-spelled-0123456789abc",
            "s\u{200b}k-spelled-0123456789abc",
            "%5Cu0073k-spelled-0123456789abc",
        ] {
            let text = format!("before {spelled} after");
            assert_eq!(redact(&text), format!("before {MASK} after"), "{spelled}");
        }
        // LaTeX in JSON asks for no decoding; escapes that spell no key are left as they are.
        assert!(!may_spell(r#"{"t":"\\frac{a}{b} \\n 100% \"q\" & co"}"#));
        assert!(may_spell(r#"\\u0073"#) && may_spell("%73") && may_spell("a\u{200b}b"));
        let plain = "a\\u0041 %41 &#65; \\n 100% &amp; \\";
        assert_eq!(redact(plain), plain);
    }
}
