//! HTML tables in a reply (`<table><tr><th>…</th><td>…</td></tr></table>`), read as the rows
//! and cells a Markdown table would give: models write them where a Markdown table would do,
//! and a reader that drops HTML drops the whole answer. Tags inside a cell are dropped and the
//! common entities decoded; a cell must be closed (`</td>`). A block holding no table is read as
//! its text, line by line ([`element_text`]): an answer given only as XML is still an answer.

use regex::Regex;
use std::sync::LazyLock;

/// At most this many rows of one table are read: a reply cannot make the reader quadratic.
const MAX_ROWS: usize = 500;

static ROW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<tr\b[^>]*>(.*?)</tr\s*>").unwrap());
static CELL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<(td|th)\b[^>]*>(.*?)</t[dh]\s*>").unwrap());
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]*>").unwrap());

/// One row: whether every cell is a header cell, and the cells' text.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub header: bool,
    pub cells: Vec<String>,
}

/// The rows of the HTML tables in `html`, in order; empty when it holds none.
pub fn table_rows(html: &str) -> Vec<Row> {
    if !html.contains("<tr") && !html.contains("<TR") {
        return Vec::new();
    }
    ROW.captures_iter(html)
        .take(MAX_ROWS)
        .filter_map(|row| {
            let mut header = true;
            let cells: Vec<String> = CELL
                .captures_iter(&row[1])
                .map(|c| {
                    header &= c[1].eq_ignore_ascii_case("th");
                    cell_text(&c[2])
                })
                .collect();
            (!cells.is_empty()).then_some(Row { header, cells })
        })
        .collect()
}

/// A cell's text: tags dropped, entities decoded, white space collapsed.
fn cell_text(inner: &str) -> String {
    let text = TAG.replace_all(inner, " ");
    super::text::normalize_ws(&decode_entities(&text))
}

static COMMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<!--.*?-->").unwrap());

/// The text of an HTML or XML block that holds no table (`<answer>25%</answer>`, a poem as
/// `<poem><line>…</line>…</poem>`): each line with its tags dropped and the common entities
/// decoded, empty lines left out; comments are not text. `None` when no text remains.
pub fn element_text(html: &str) -> Option<String> {
    let html = COMMENT.replace_all(html, "");
    let lines: Vec<String> = html
        .lines()
        .map(|l| super::text::normalize_ws(&decode_entities(&TAG.replace_all(l, " "))))
        .filter(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The entities HTML writers use for text (`&amp;` last, so `&amp;lt;` stays `&lt;`).
pub(crate) fn decode_entities(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_html_table_reads_as_rows_of_cells() {
        let rows = table_rows(
            "<table>\n<tr><th>Criterion</th><th>Met?</th></tr>\n<tr><td>(2) no breaking changes</td><td><b>no</b> &amp; listed</td></tr>\n</table>",
        );
        assert_eq!(
            rows,
            vec![
                Row {
                    header: true,
                    cells: vec!["Criterion".into(), "Met?".into()]
                },
                Row {
                    header: false,
                    cells: vec!["(2) no breaking changes".into(), "no & listed".into()]
                },
            ]
        );
        assert!(table_rows("<p>no table</p>").is_empty());
    }
}
