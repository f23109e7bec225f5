//! A YAML answer read as prose, in document order ([`super::structured`]): `key: value` lines,
//! list items, block scalars (`|` keeps lines, `>` folds them into one), and a list item that is
//! a mapping read as one line (`name: churn; value: 4.1%; evidence: assumed`). Comments are part
//! of what the reader sees and stay, in parentheses.

use super::structured_value::{line, words, Shape, Value};
use std::ops::Range;

/// One line of the document: its indentation, whether it opens a list item, and its content.
struct Line<'a> {
    indent: usize,
    item: bool,
    text: &'a str,
    raw: Range<usize>,
}

fn lines(inner: &str, base: usize) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for l in inner.split_inclusive('\n') {
        let at = base + offset;
        offset += l.len();
        let t = l.trim_end();
        let indent = t.len() - t.trim_start().len();
        let body = t.trim_start();
        let (item, text) = match body.strip_prefix("- ") {
            Some(rest) => (true, rest.trim_start()),
            None => (false, body),
        };
        out.push(Line {
            indent: indent + if item { body.len() - text.len() } else { 0 },
            item,
            text,
            raw: at + indent..at + t.len(),
        });
    }
    out
}

/// `key: value` with its comment moved into parentheses; `None` for a line with no key.
fn split_key(text: &str) -> Option<(&str, String)> {
    // A quoted key is a whole quoted string followed by a colon; a quoted scalar has none.
    if let Some(rest) = text.strip_prefix('"') {
        let end = rest.find('"')?;
        let v = rest[end + 1..].strip_prefix(':')?;
        return Some((&rest[..end], with_comment(v.trim())));
    }
    let (k, v) = text.split_once(':')?;
    if k.is_empty() || k.contains(' ') || !(v.is_empty() || v.starts_with(' ')) {
        return None;
    }
    Some((k, with_comment(v.trim())))
}

fn with_comment(v: &str) -> String {
    let quoted = v.starts_with('"') || v.starts_with('\'');
    match v.find(" #").filter(|_| !quoted) {
        Some(i) => format!("{} ({})", scalar(v[..i].trim()), v[i + 2..].trim()),
        None => scalar(v),
    }
}

fn scalar(v: &str) -> String {
    if v.starts_with('"') && v.ends_with('"') && v.len() >= 2 {
        serde_json::from_str(v).unwrap_or_else(|_| v[1..v.len() - 1].to_string())
    } else if v.starts_with('\'') && v.ends_with('\'') && v.len() >= 2 {
        v[1..v.len() - 1].replace("''", "'")
    } else {
        v.to_string()
    }
}

/// A block scalar under `key` (`|` keeps its lines, `>` folds them): the lines indented below
/// `l` from `ls[*i]`, which is left after them.
fn block_scalar(ls: &[Line], i: &mut usize, l: &Line, key: &str, value: &str) -> Value {
    let (mut text, mut raw) = (String::new(), l.raw.clone());
    let sep = if value.starts_with('>') { " " } else { "\n" };
    while *i < ls.len() && (ls[*i].text.is_empty() || ls[*i].indent > l.indent) {
        text.push_str(ls[*i].text);
        text.push_str(sep);
        raw.end = ls[*i].raw.end;
        *i += 1;
    }
    let (shape, text) = line(Some(key), text.trim_end());
    Value { shape, text, raw }
}

/// A list item that is a mapping: its keys on one line, the item's first key `key: value` and
/// the keys aligned with it from `ls[*i]`, which is left after them.
fn mapping_item(ls: &[Line], i: &mut usize, l: &Line, key: &str, value: &str) -> Value {
    let mut parts = vec![format!("{}: {value}", words(key))];
    let mut raw = l.raw.clone();
    while *i < ls.len() && !ls[*i].item && ls[*i].indent == l.indent {
        let Some((k, v)) = split_key(ls[*i].text) else {
            break;
        };
        parts.push(format!("{}: {v}", words(k)));
        raw.end = ls[*i].raw.end;
        *i += 1;
    }
    Value {
        shape: Shape::Item,
        text: parts.join("; "),
        raw,
    }
}

/// The pieces of a YAML document, or `None` when it is not one.
pub fn values(inner: &str, base: usize) -> Option<Vec<Value>> {
    let ls = lines(inner, base);
    let mut out = Vec::new();
    let mut i = 0;
    while i < ls.len() {
        let l = &ls[i];
        i += 1;
        if l.text.is_empty() || l.text.starts_with('#') || l.text == "---" {
            continue;
        }
        let Some((key, value)) = split_key(l.text) else {
            if !l.item {
                return None;
            }
            out.push(Value {
                shape: Shape::Item,
                text: with_comment(l.text),
                raw: l.raw.clone(),
            });
            continue;
        };
        if matches!(value.as_str(), "|" | ">" | "|-" | ">-" | "|+" | ">+") {
            out.push(block_scalar(&ls, &mut i, l, key, &value));
        } else if l.item {
            out.push(mapping_item(&ls, &mut i, l, key, &value));
        } else if value.is_empty() {
            out.push(Value {
                shape: Shape::Line,
                text: format!("{}:", words(key)),
                raw: l.raw.clone(),
            });
        } else {
            let (shape, text) = line(Some(key), &value);
            out.push(Value {
                shape,
                text,
                raw: l.raw.clone(),
            });
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_reads_in_order_with_mappings_folded_and_comments_kept() {
        let doc = "paragraph: >\n  Churn was 4.1% and\n  CAC was $310 [assumed].\nfigures:\n  - name: churn\n    value: 4.1%\n    evidence: assumed   # user-reported\ndepends_on:\n  - \"churn 4.1%\"\nanswer: \"Which zone?\"\n";
        let v = values(doc, 0).unwrap();
        let texts: Vec<&str> = v.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "paragraph: Churn was 4.1% and CAC was $310 [assumed].",
                "figures:",
                "name: churn; value: 4.1%; evidence: assumed (user-reported)",
                "depends on:",
                "churn 4.1%",
                "Answer: Which zone?"
            ]
        );
        assert!(values("just a sentence, not yaml\n", 0).is_none());
    }
}
