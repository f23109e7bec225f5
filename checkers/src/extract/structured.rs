//! What the reader sees of a reply that is not plain Markdown prose: a reasoning block
//! (`<think>`, `<thinking>`, `<reasoning>`) is the model's scratch work, not its answer, and no
//! criterion reads it (nor `Message.reasoning`, the providers' separate field); a reply that is one JSON
//! object or one YAML document (bare, or the only thing in a ```json / ```yaml fence) is an
//! answer written as data, read as the prose it says.
//!
//! Data is read in document order, keys giving their values context: `"memo_figure": "25%"`
//! reads "memo figure: 25%", an object of scalars one line (`name: churn; value: 4.1%;
//! evidence: assumed`), an array a list introduced by its key (`conditional on:` then its
//! items), an answer key (`answer`, `recommendation`, `verdict`, …) "Answer: …", and a multi-line
//! string under a code key (`code`, `python`, …) a code block. Both are decided on the raw text,
//! with byte spans back into it, before the Markdown parser runs ([`super::reply`]).

use super::structured_value::line;
use super::structured_value::{words, Shape, Value};
use std::ops::Range;

/// The tags that open the model's scratch work in its content.
const REASONING_TAGS: [&str; 3] = ["<think>", "<thinking>", "<reasoning>"];

/// The stretches of `raw` outside reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`), in
/// order, without the lines that only open or close an answer wrapper (`<answer>`,
/// `</final_answer>`, `<response>`, …): on a line of its own such a tag would start a CommonMark
/// HTML block and hide the answer it wraps. An unclosed reasoning block hides the rest.
pub fn visible(raw: &str) -> Vec<Range<usize>> {
    let regions = outside_reasoning(raw);
    if !raw.contains('<') {
        return regions;
    }
    regions
        .into_iter()
        .flat_map(|r| without_wrapper_lines(raw, r))
        .collect()
}

/// A line that only opens or closes an answer wrapper, as models write them.
fn is_wrapper_line(line: &str) -> bool {
    let t = line.trim();
    let Some(inner) = t.strip_prefix('<').and_then(|t| t.strip_suffix('>')) else {
        return false;
    };
    // One tag alone: `<answer>25%</answer>` is a paragraph, read as it is.
    if inner.contains(['<', '>']) {
        return false;
    }
    let name = inner.trim_start_matches('/');
    let name = name.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    matches!(
        name.to_ascii_lowercase().replace('-', "_").as_str(),
        "answer"
            | "final_answer"
            | "finalanswer"
            | "final"
            | "response"
            | "output"
            | "result"
            | "solution"
            | "conclusion"
            | "reply"
    )
}

/// `r` split around its answer-wrapper lines.
fn without_wrapper_lines(raw: &str, r: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = r.start;
    let mut at = r.start;
    for line in raw[r.clone()].split_inclusive('\n') {
        let end = at + line.len();
        if is_wrapper_line(line) {
            if at > from {
                out.push(from..at);
            }
            from = end;
        }
        at = end;
    }
    if r.end > from {
        out.push(from..r.end);
    }
    out
}

fn outside_reasoning(raw: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    // Where each tag next opens, looked for again only once `at` has passed it: a tag the
    // reply never holds is not searched for at every block (thousands of blocks, one pass).
    let mut next = REASONING_TAGS.map(|tag| raw.find(tag));
    while let Some((start, tag_end, name)) = next_open(raw, at, &mut next) {
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

/// The first reasoning tag opening at or after `at`: its start, its end and its name; `next`
/// holds where each tag was last found and is brought up to `at`.
fn next_open(
    raw: &str,
    at: usize,
    next: &mut [Option<usize>; 3],
) -> Option<(usize, usize, &'static str)> {
    for (found, tag) in next.iter_mut().zip(REASONING_TAGS) {
        if found.is_some_and(|i| i < at) {
            *found = raw[at..].find(tag).map(|i| at + i);
        }
    }
    next.iter()
        .zip(REASONING_TAGS)
        .filter_map(|(found, tag)| found.map(|i| (i, i + tag.len(), &tag[1..tag.len() - 1])))
        .min_by_key(|x| x.0)
}

fn find_open(s: &str) -> Option<(usize, usize, &'static str)> {
    REASONING_TAGS
        .iter()
        .filter_map(|tag| {
            s.find(tag)
                .map(|i| (i, i + tag.len(), &tag[1..tag.len() - 1]))
        })
        .min_by_key(|x| x.0)
}

/// The text of `raw` a reader sees: everything outside its reasoning blocks, in order.
pub fn reply_text(raw: &str) -> std::borrow::Cow<'_, str> {
    // The common case, no reasoning tag at all, costs one scan and no copy.
    if !raw.contains('<') || find_open(raw).is_none() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let parts: Vec<&str> = visible(raw).into_iter().map(|r| &raw[r]).collect();
    std::borrow::Cow::Owned(parts.concat())
}

/// The pieces of a reply that is one JSON object or YAML document, or `None` for prose.
pub fn answer_values(raw: &str, region: Range<usize>) -> Option<Vec<Value>> {
    let text = &raw[region.clone()];
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let base = region.start + lead;
    // One JSON object, or one array of them (a JSON-mode reply of steps).
    if body.starts_with('{') && body.ends_with('}')
        || body.starts_with("[{") && body.ends_with("}]")
    {
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
        "yaml" | "yml" => super::structured_yaml::values(inner, inner_base),
        _ => None,
    }
}

/// A JSON object the reply was cut off in (`{"answer": "25%", "note": "the 20% div`), closed
/// where it stops: the open string ended, a dangling key or comma dropped, the open brackets
/// closed. `None` unless it then parses as an object.
pub fn closed_json(cut: &str) -> Option<String> {
    if !cut.starts_with('{') || cut.len() > 100_000 {
        return None;
    }
    let (mut stack, mut in_str, mut escaped) = (Vec::new(), false, false);
    for c in cut.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_str => escaped = true,
            '"' => in_str = !in_str,
            '{' | '[' if !in_str => stack.push(if c == '{' { '}' } else { ']' }),
            '}' | ']' if !in_str => {
                stack.pop();
            }
            _ => {}
        }
    }
    let mut s = cut.to_string();
    if in_str {
        s.push('"');
    }
    // A key with no value yet, or a trailing comma or colon: drop back to the last whole member.
    let whole = s.trim_end().trim_end_matches([',', ':']).len();
    s.truncate(whole);
    stack.iter().rev().for_each(|c| s.push(*c));
    let parsed = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&s);
    parsed.is_ok().then_some(s)
}

/// A parsed JSON node, in document order, with its span in the body.
enum Node {
    Scalar(String, Range<usize>, bool),
    List(Vec<Node>, Range<usize>),
    Map(Vec<(String, Node)>, Range<usize>),
}

struct Json<'a> {
    s: &'a str,
    at: usize,
}

impl Json<'_> {
    fn ws(&mut self) {
        while self.s[self.at..].starts_with(|c: char| c.is_whitespace()) {
            self.at += 1;
        }
    }
    fn node(&mut self) -> Option<Node> {
        self.ws();
        let start = self.at;
        match *self.s.as_bytes().get(self.at)? {
            b'{' => self.map(start),
            b'[' => self.list(start),
            b'"' => self.string(start),
            _ => self.bare(start),
        }
    }

    /// An object from its `{` at `start`: its entries in order, keys as written.
    fn map(&mut self, start: usize) -> Option<Node> {
        self.at += 1;
        let mut entries = Vec::new();
        loop {
            self.ws();
            if self.s[self.at..].starts_with('}') {
                self.at += 1;
                return Some(Node::Map(entries, start..self.at));
            }
            let Node::Scalar(key, _, true) = self.node()? else {
                return None;
            };
            self.ws();
            self.s[self.at..].starts_with(':').then_some(())?;
            self.at += 1;
            entries.push((key, self.node()?));
            self.ws();
            if self.s[self.at..].starts_with(',') {
                self.at += 1;
            }
        }
    }

    /// An array from its `[` at `start`.
    fn list(&mut self, start: usize) -> Option<Node> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.s[self.at..].starts_with(']') {
                self.at += 1;
                return Some(Node::List(items, start..self.at));
            }
            items.push(self.node()?);
            self.ws();
            if self.s[self.at..].starts_with(',') {
                self.at += 1;
            }
        }
    }

    /// A string from its `"` at `start`, unescaped; its span covers the quotes.
    fn string(&mut self, start: usize) -> Option<Node> {
        let bytes = self.s.as_bytes();
        let mut i = start + 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        let text: String = serde_json::from_str(self.s.get(start..=i)?).ok()?;
        self.at = i + 1;
        Some(Node::Scalar(text, start..self.at, true))
    }

    /// A number, `true`, `false` or `null` at `start`, as written.
    fn bare(&mut self, start: usize) -> Option<Node> {
        let end = self.s[start..]
            .find(|c: char| c == ',' || c == '}' || c == ']' || c.is_whitespace())
            .map_or(self.s.len(), |e| start + e);
        (end > start).then_some(())?;
        self.at = end;
        Some(Node::Scalar(
            self.s[start..end].to_string(),
            start..end,
            false,
        ))
    }
}

fn json_values(body: &str, base: usize) -> Option<Vec<Value>> {
    match serde_json::from_str::<serde_json::Value>(body).ok()? {
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => {}
        _ => return None,
    }
    let root = Json { s: body, at: 0 }.node()?;
    let mut out = Vec::new();
    emit(&root, None, 0, base, &mut out);
    (!out.is_empty()).then_some(out)
}

/// An object of scalars reads as one line: `name: churn; value: 4.1%; evidence: assumed`.
fn flat(entries: &[(String, Node)]) -> Option<String> {
    let parts: Option<Vec<String>> = entries
        .iter()
        .map(|(k, v)| match v {
            Node::Scalar(s, _, _) if !s.contains('\n') => Some(format!("{}: {s}", words(k))),
            _ => None,
        })
        .collect();
    parts.map(|p| p.join("; "))
}

fn emit(node: &Node, key: Option<&str>, depth: usize, base: usize, out: &mut Vec<Value>) {
    let raw = |r: Range<usize>| base + r.start..base + r.end;
    match node {
        Node::Scalar(s, r, _) => {
            if s.trim().is_empty() {
                return;
            }
            let (shape, text) = line(key, s);
            out.push(Value {
                shape,
                text,
                raw: raw(r.clone()),
            });
        }
        Node::Map(entries, r) => match flat(entries).filter(|_| depth > 0) {
            Some(text) => out.push(Value {
                shape: Shape::Item,
                text: key.map_or(text.clone(), |k| format!("{}: {text}", words(k))),
                raw: raw(r.clone()),
            }),
            None => {
                if let Some(k) = key {
                    out.push(Value {
                        shape: Shape::Line,
                        text: format!("{}:", words(k)),
                        raw: raw(r.clone()),
                    });
                }
                for (k, v) in entries {
                    emit(v, Some(k), depth + 1, base, out);
                }
            }
        },
        Node::List(items, r) => emit_list(items, r, key, depth, base, out),
    }
}

/// A list: scalars under a key read as one line ("figures: 1, 2, 3"); anything else as a heading
/// line for the key and a value per item.
fn emit_list(
    items: &[Node],
    r: &Range<usize>,
    key: Option<&str>,
    depth: usize,
    base: usize,
    out: &mut Vec<Value>,
) {
    let raw = base + r.start..base + r.end;
    let scalars: Option<Vec<&str>> = items
        .iter()
        .map(|i| match i {
            Node::Scalar(s, _, false) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    if let (Some(k), Some(nums)) = (key, scalars.filter(|s| !s.is_empty())) {
        out.push(Value {
            shape: Shape::Line,
            text: format!("{}: {}", words(k), nums.join(", ")),
            raw,
        });
        return;
    }
    if let Some(k) = key {
        out.push(Value {
            shape: Shape::Line,
            text: format!("{}:", words(k)),
            raw,
        });
    }
    for i in items {
        emit(i, None, depth + 1, base, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_wrapper_on_its_own_line_does_not_hide_what_it_wraps() {
        let raw = "<answer>\nNet change −9%.\n</answer>";
        let seen: Vec<&str> = visible(raw).into_iter().map(|r| &raw[r]).collect();
        assert_eq!(seen, ["Net change −9%.\n"]);
        let attrs = "<final_answer type=\"pct\">\n25%\n</final_answer>\n";
        assert_eq!(visible(attrs).len(), 1);
        // HTML and tags inside a line are left to the Markdown reader.
        assert_eq!(visible("<div>\nx\n</div>").len(), 1);
        assert_eq!(visible("<div>\nx\n</div>")[0], 0..14);
        assert_eq!(visible("<answer>25%</answer>")[0], 0..20);
        let attr = "x\n<answer type=\"pct\">25%</answer>\n";
        assert_eq!(visible(attr).len(), 1);
        assert_eq!(visible(attr)[0], 0..attr.len());
    }

    #[test]
    fn an_object_the_reply_was_cut_off_in_is_closed_where_it_stops() {
        assert_eq!(
            closed_json(r#"{"answer": "25%", "note": "the 20% div"#).as_deref(),
            Some(r#"{"answer": "25%", "note": "the 20% div"}"#)
        );
        assert_eq!(
            closed_json(r#"{"steps": [{"a": 1}, {"b": 2"#).as_deref(),
            Some(r#"{"steps": [{"a": 1}, {"b": 2}]}"#)
        );
        assert_eq!(
            closed_json(r#"{"answer": "25%","#).as_deref(),
            Some(r#"{"answer": "25%"}"#)
        );
        // A key cut before its value cannot be closed into an object: no reading.
        assert_eq!(closed_json(r#"{"answer": "25%", "note""#), None);
        assert_eq!(closed_json("not json"), None);
    }

    #[test]
    fn thinking_is_not_the_answer() {
        let raw = "<think>\nmaybe 20%?\n</think>\n\nIt is 25%.";
        let v = visible(raw);
        assert_eq!(v.len(), 1);
        assert_eq!(raw[v[0].clone()].trim(), "It is 25%.");
        assert!(visible("<think>never closed").is_empty());
        let xml = "<reasoning>20%?</reasoning>\n<thinking>no</thinking>It is 25%.";
        assert_eq!(reply_text(xml).trim(), "It is 25%.");
        assert_eq!(reply_text("plain <b>25%</b>"), "plain <b>25%</b>");
    }

    #[test]
    fn json_answers_read_as_keyed_prose_in_document_order() {
        let raw = "```json\n{\"details\": [\"0.7 × 1.3 = 0.91\"], \"answer\": \"Net −9%\", \"day_count\": 8, \"figures\": [{\"name\": \"churn\", \"value\": \"4.1%\"}], \"code\": \"def f():\\n    return 1\\n\"}\n```";
        let v = answer_values(raw, 0..raw.len()).unwrap();
        let texts: Vec<&str> = v.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "details:",
                "0.7 × 1.3 = 0.91",
                "Answer: Net −9%",
                "day count: 8 days",
                "figures:",
                "name: churn; value: 4.1%",
                "def f():\n    return 1\n"
            ]
        );
        assert_eq!(v[6].shape, Shape::Code);
        assert_eq!(&raw[v[1].raw.clone()], "\"0.7 × 1.3 = 0.91\"");
        let code = "```python\nprint(1)\n```";
        assert!(answer_values(code, 0..code.len()).is_none());
        assert!(answer_values("Plain prose.", 0..12).is_none());
    }
}
