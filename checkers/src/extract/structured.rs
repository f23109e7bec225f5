//! What the reader sees of a reply that is not plain Markdown prose: a thinking block
//! (`<think>…</think>`) is the model's scratch work, not its answer; a reply that is one JSON
//! object or one YAML document (bare, or the only thing in a ```json / ```yaml fence) is an
//! answer written as data, read as the prose its string values say.
//!
//! Both are decided on the raw text, with byte spans back into it, before the Markdown parser
//! runs ([`super::reply`]).

use std::ops::Range;

/// One value of a structured answer: its text as prose and where it stands in the raw reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub text: String,
    pub raw: Range<usize>,
}

/// Keys that mark their value as the answer.
const ANSWER_KEYS: [&str; 8] = [
    "answer",
    "final_answer",
    "conclusion",
    "recommendation",
    "bottom_line",
    "verdict",
    "final",
    "result",
];

/// The stretches of `raw` outside thinking blocks (`<think>`, `<thinking>`), in order. An
/// unclosed block hides the rest of the reply.
pub fn visible(raw: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = find_open(&raw[at..]) {
        let (start, tag_end, name) = (at + open.0, at + open.1, open.2);
        if start > at {
            out.push(at..start);
        }
        let close = format!("</{name}>");
        match raw[tag_end..].find(&close) {
            Some(c) => at = tag_end + c + close.len(),
            None => return out,
        }
    }
    if at < raw.len() {
        out.push(at..raw.len());
    }
    out
}

fn find_open(s: &str) -> Option<(usize, usize, &'static str)> {
    ["<think>", "<thinking>"]
        .iter()
        .filter_map(|tag| {
            s.find(tag)
                .map(|i| (i, i + tag.len(), &tag[1..tag.len() - 1]))
        })
        .min_by_key(|x| x.0)
}

/// The values of a reply that is one JSON object or YAML document, or `None` for prose.
pub fn answer_values(raw: &str, region: Range<usize>) -> Option<Vec<Value>> {
    let text = &raw[region.clone()];
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let base = region.start + lead;
    if body.starts_with('{') && body.ends_with('}') {
        return json_values(body, base);
    }
    let first = body.lines().next()?;
    let info = first.strip_prefix("```")?.trim().to_ascii_lowercase();
    let inner_end = body.len().checked_sub(3)?;
    if !body.ends_with("```") || inner_end <= first.len() {
        return None;
    }
    let inner = &body[first.len()..inner_end];
    if inner.contains("```") {
        return None;
    }
    let inner_base = base + first.len();
    match info.as_str() {
        "json" => {
            let lead = inner.len() - inner.trim_start().len();
            json_values(inner.trim(), inner_base + lead)
        }
        "yaml" | "yml" => yaml_values(inner, inner_base),
        _ => None,
    }
}

fn prose_of(key: Option<&str>, value: &str) -> String {
    let value = value.replace("**", "").replace('`', "");
    match key {
        Some(k) if ANSWER_KEYS.contains(&k.to_ascii_lowercase().as_str()) => {
            format!("Answer: {value}")
        }
        _ => value,
    }
}

/// String values of a JSON object (keys set aside), and numbers with their key.
fn json_values(body: &str, base: usize) -> Option<Vec<Value>> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(body).ok()?;
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut key: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                let lit: String = serde_json::from_str(&body[i..=end]).ok()?;
                let next = body[end + 1..].trim_start();
                if next.starts_with(':') {
                    key = Some(lit);
                } else if !lit.trim().is_empty() {
                    let text = prose_of(key.as_deref(), &lit);
                    out.push(Value {
                        text,
                        raw: base + i..base + end + 1,
                    });
                }
                i = end + 1;
            }
            b'-' | b'0'..=b'9' => {
                let end = body[i..]
                    .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
                    .map_or(body.len(), |e| i + e);
                if let Some(k) = &key {
                    out.push(Value {
                        text: format!("{}: {}", k.replace('_', " "), &body[i..end]),
                        raw: base + i..base + end,
                    });
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The index of the quote closing the string literal opened at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Scalar values of a YAML document: `key: value`, `- value`, and block scalars (`key: |`).
fn yaml_values(inner: &str, base: usize) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let mut offset = 0;
    let mut block: Option<(Option<String>, usize, String, Range<usize>)> = None;
    let mut shaped = false;
    for line in inner.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let l = line.trim_end();
        let indent = l.len() - l.trim_start().len();
        if let Some((_, ind, text, range)) = block.as_mut() {
            if l.trim().is_empty() || indent > *ind {
                text.push_str(l.trim());
                text.push('\n');
                range.end = base + at + l.len();
                continue;
            }
        }
        if let Some((k, _, t, r)) = block.take() {
            out.push(Value {
                text: prose_of(k.as_deref(), t.trim_end()),
                raw: r,
            });
        }
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') || t == "---" {
            continue;
        }
        let (key, value) = match t.strip_prefix("- ") {
            Some(v) => (None, v),
            None => match t.split_once(':') {
                Some((k, v)) if !k.contains(' ') || k.starts_with('"') => {
                    (Some(k.trim_matches('"').to_string()), v.trim_start())
                }
                _ => return None,
            },
        };
        shaped = true;
        let start = base + at + (l.len() - value.len());
        if value == "|" || value == ">" || value.starts_with("|-") || value.starts_with(">-") {
            block = Some((key, indent, String::new(), start..start + value.len()));
        } else if !value.is_empty() {
            out.push(Value {
                text: prose_of(key.as_deref(), &scalar(value)),
                raw: start..start + value.len(),
            });
        }
    }
    if let Some((k, _, t, r)) = block {
        out.push(Value {
            text: prose_of(k.as_deref(), t.trim_end()),
            raw: r,
        });
    }
    (shaped && !out.is_empty()).then_some(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_is_not_the_answer() {
        let raw = "<think>\nmaybe 20%?\n</think>\n\nIt is 25%.";
        let v = visible(raw);
        assert_eq!(v.len(), 1);
        assert_eq!(raw[v[0].clone()].trim(), "It is 25%.");
        assert!(visible("<think>never closed").is_empty());
    }

    #[test]
    fn json_and_yaml_answers_read_as_their_values() {
        let raw = "```json\n{\"details\": [\"0.7 × 1.3 = 0.91\"], \"answer\": \"Net −9%\"}\n```";
        let v = answer_values(raw, 0..raw.len()).unwrap();
        assert_eq!(v[1].text, "Answer: Net −9%");
        assert_eq!(&raw[v[0].raw.clone()], "\"0.7 × 1.3 = 0.91\"");
        let raw = "```yaml\ndetails:\n  - \"UTC has no DST.\"\nanswer: \"Which zone?\"\n```";
        let v = answer_values(raw, 0..raw.len()).unwrap();
        assert_eq!(v[0].text, "UTC has no DST.");
        assert_eq!(v[1].text, "Answer: Which zone?");
        let code = "```python\nprint(1)\n```";
        assert!(answer_values(code, 0..code.len()).is_none());
        assert!(answer_values("Plain prose.", 0..12).is_none());
    }
}
