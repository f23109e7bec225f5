//! The one reader of a capsule's YAML front matter (lint and anything else that reads front
//! matter). Anchors and aliases are YAML and read as such, but an alias can expand without
//! bound (a 400-byte "billion laughs"), so a scan of the parser's events counts every node as it
//! would expand, before any value is built, and refuses more than `MAX_EVENTS` nodes or nesting
//! deeper than `MAX_DEPTH`. A byte-order mark is read as one: the text after it is the document.

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

/// How deep front-matter collections may nest (the definition's deepest is two).
pub const MAX_DEPTH: usize = 16;
/// How many YAML nodes front matter may hold.
pub const MAX_EVENTS: usize = 50_000;

/// A Markdown file split into YAML frontmatter and body.
pub struct Doc<'a> {
    pub front_text: &'a str,
    pub front: Yaml,
    /// Line number (1-based) of the body's first line.
    pub body_start: usize,
    pub body: &'a str,
    /// The file began with a UTF-8 byte-order mark.
    pub bom: bool,
}

/// Split `text`; `Ok(None)` when it has no frontmatter, `Err((line, problem))` when the YAML
/// does not parse or breaks a limit.
pub fn parse(text: &str) -> Result<Option<Doc<'_>>, (usize, String)> {
    let (bom, text) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok(None);
    };
    let end = rest
        .find("\n---\n")
        .or_else(|| rest.find("\n---\r\n"))
        .or_else(|| rest.strip_suffix("\n---").map(|r| r.len()))
        .or_else(|| rest.strip_suffix("\n---\r").map(|r| r.len()));
    let Some(end) = end else {
        return Err((1, "frontmatter opened with --- but never closed".into()));
    };
    let front_text = &rest[..end + 1];
    let front = load(front_text).map_err(|(line, e)| (line + 1, e))?;
    let after = (end + 1 + 4).min(rest.len());
    let after = if rest[end + 1..].starts_with("---\r\n") {
        (end + 1 + 5).min(rest.len())
    } else {
        after
    };
    let body = &rest[after..];
    let body_start = text[..text.len() - body.len()].lines().count() + 1;
    Ok(Some(Doc {
        front_text,
        front,
        body_start,
        body,
        bom,
    }))
}

/// Load YAML text as one document, refusing deep nesting and huge node counts, aliases
/// included as what they expand to, before building anything. Lines in errors are 1-based
/// within `text`.
pub fn load(text: &str) -> Result<Yaml, (usize, String)> {
    let mut parser = Parser::new_from_str(text);
    // Per open collection: its anchor and its size so far, aliases counted as expanded.
    let mut open: Vec<(usize, usize)> = vec![(0, 0)];
    let mut sizes: std::collections::HashMap<usize, usize> = Default::default();
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            (
                e.marker().line(),
                format!("frontmatter is not valid YAML: {e}"),
            )
        })?;
        let line = mark.line();
        let node = match &event {
            Event::Alias(id) => Some((
                0,
                *sizes.get(id).ok_or((
                    line,
                    "frontmatter uses a YAML alias (*name) to no anchor before it".to_string(),
                ))?,
            )),
            Event::Scalar(_, _, a, _) => Some((*a, 1)),
            Event::SequenceStart(a, _) | Event::MappingStart(a, _) => {
                open.push((*a, 1));
                if open.len() > MAX_DEPTH + 1 {
                    return Err((
                        line,
                        format!("frontmatter nests deeper than {MAX_DEPTH} levels"),
                    ));
                }
                None
            }
            Event::SequenceEnd | Event::MappingEnd => open.pop(),
            Event::StreamEnd => break,
            _ => None,
        };
        if let Some((anchor, size)) = node {
            if anchor != 0 {
                sizes.insert(anchor, size);
            }
            let parent = open.last_mut().map_or(0, |p| {
                p.1 = p.1.saturating_add(size);
                p.1
            });
            if parent > MAX_EVENTS || size > MAX_EVENTS {
                return Err((
                    line,
                    format!("frontmatter holds more than {MAX_EVENTS} YAML nodes (anchors and aliases counted as they expand)"),
                ));
            }
        }
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        (
            e.marker().line(),
            format!("frontmatter is not valid YAML: {e}"),
        )
    })?;
    Ok(docs.into_iter().next().unwrap_or(Yaml::Null))
}

/// Two YAML values equal as values: mappings compared as sets of keys (their order in the file
/// is not their value), sequences and scalars as written.
pub fn same(a: &Yaml, b: &Yaml) -> bool {
    match (a, b) {
        (Yaml::Hash(x), Yaml::Hash(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Yaml::Array(x), Yaml::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        _ => a == b,
    }
}

/// Whether `s` is a calendar date `YYYY-MM-DD` (a day the month has; 29 February in leap years).
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let t = &s[r];
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_expanding_without_bound_and_deep_nesting_are_refused_before_anything_is_built() {
        let mut laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n".to_string();
        for k in 1..10 {
            let refs = vec![format!("*a{}", k - 1); 10].join(", ");
            laughs.push_str(&format!("a{k}: &a{k} [{refs}]\n"));
        }
        assert!(load(&laughs).unwrap_err().1.contains("as they expand"));
        let small = load("r: &r [x, y]\nw: *r\n").unwrap();
        assert_eq!(small["w"], small["r"]);
        assert!(load("a: *b\n").is_err());
        let deep = format!("a: {}{}\n", "[".repeat(40), "]".repeat(40));
        assert!(load(&deep).unwrap_err().1.contains("deeper"));
        assert!(load("a: {b: [1, 2]}\n").is_ok());
    }

    #[test]
    fn dates_are_calendar_dates_and_values_compare_without_key_order() {
        assert!(is_date("2024-02-29") && !is_date("2026-02-30") && !is_date("2026-13-01"));
        let a = load("s: {reads: [x], writes: [y]}\n").unwrap();
        let b = load("s:\n  writes: [y]\n  reads:\n    - x\n").unwrap();
        assert!(same(&a, &b) && a != b);
    }
}
