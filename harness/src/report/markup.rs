//! HTML writing for the pages the harness writes (report.html, `compare --html`): one page
//! shell, elements opened and closed in one place, text and attribute values always escaped;
//! raw text only for constants and for the Markdown this module renders inert.
//!
//! Not a templating crate: report.html is pinned byte for byte (`harness/tests/it/report/report_bytes.rs`), and
//! maud writes `'` as itself and control characters as they are, where the page has `&apos;`
//! and U+FFFD, and it writes no line break between tags: every value would need a wrapper and
//! every break a literal, which is this module again inside a macro.

use super::xml_escape as esc;

/// Text longer than this is folded: a runaway reply must not put megabytes inline.
pub const FOLD: usize = 20_000;

/// A page being written. Callers may stream it: write out [`Html::take`] between parts.
#[derive(Default)]
pub struct Html(String);

impl Html {
    pub fn new() -> Html {
        Html::default()
    }

    /// `<!DOCTYPE html>` through `<body>`: a self-contained page, its style and script inline.
    pub fn page_start(&mut self, title: &str, style: &str, script: Option<&str>) -> &mut Self {
        self.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">")
            .leaf("title", &[], title)
            .raw("<style>")
            .raw(style)
            .raw("</style>");
        if let Some(script) = script {
            self.raw("<script>").raw(script).raw("</script>");
        }
        self.raw("</head><body>\n")
    }

    pub fn page_end(&mut self) -> &mut Self {
        self.raw("</body></html>\n")
    }

    /// `<tag a="v" …>`, the values escaped.
    pub fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs {
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            self.0.push_str(&esc(value));
            self.0.push('"');
        }
        self.0.push('>');
        self
    }

    /// `<details …>`, open or folded.
    pub fn details(&mut self, attrs: &[(&str, &str)], open: bool) -> &mut Self {
        self.open("details", attrs);
        if open {
            self.0.pop();
            self.0.push_str(" open>");
        }
        self
    }

    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// An element around what `body` writes.
    pub fn el(
        &mut self,
        tag: &str,
        attrs: &[(&str, &str)],
        body: impl FnOnce(&mut Html),
    ) -> &mut Self {
        self.open(tag, attrs);
        body(self);
        self.close(tag)
    }

    /// An element holding text.
    pub fn leaf(&mut self, tag: &str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// `<details><summary>…</summary>` around what `body` writes.
    pub fn fold(&mut self, summary: &str, body: impl FnOnce(&mut Html)) -> &mut Self {
        self.raw("<details>").leaf("summary", &[], summary);
        body(self);
        self.close("details")
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.0.push_str(&esc(text));
        self
    }

    /// Text, escaped and cut at [`FOLD`] bytes with a note of what was cut.
    pub fn folded(&mut self, text: &str) -> &mut Self {
        if text.len() <= FOLD {
            return self.text(text);
        }
        let cut = floor_boundary(text, FOLD);
        self.text(&text[..cut]);
        self.0.push_str(&format!(
            "\n[… {} more bytes: see the transcript file]",
            text.len() - cut
        ));
        self
    }

    /// A reply rendered as Markdown, inert: raw HTML shows as text, links and images are
    /// dropped (their text stays), so a model cannot put a script or a remote resource in
    /// the page.
    pub fn markdown(&mut self, text: &str) -> &mut Self {
        use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
        let text = &text[..floor_boundary(text, FOLD.min(text.len()))];
        // The renderer escapes markup but passes controls, bidi overrides and U+FFFE/U+FFFF
        // through: each character goes through the page's own rule first.
        let text = super::xml_chars(text);
        let events = Parser::new_ext(
            &text,
            Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
        )
        .filter_map(|e| match e {
            Event::Html(h) | Event::InlineHtml(h) => Some(Event::Text(h)),
            Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => None,
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
            other => Some(other),
        });
        pulldown_cmark::html::push_html(&mut self.0, events);
        self
    }

    /// Markup written as it is: constants of the page, never text from a run.
    pub fn raw(&mut self, markup: &str) -> &mut Self {
        self.0.push_str(markup);
        self
    }

    /// A line break between blocks, for a page that reads in a diff.
    pub fn nl(&mut self) -> &mut Self {
        self.0.push('\n');
        self
    }

    /// What was written since the last take.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.0)
    }
}

/// The largest char boundary at or below `i`.
pub fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::Html;

    fn markdown(text: &str) -> String {
        Html::new().markdown(text).take()
    }

    #[test]
    fn a_reply_renders_as_markdown_with_its_html_and_links_inert() {
        let out = markdown(
            "**25%**\n\n```python\ndef f():\n    return 1\n```\n\n<script>alert(1)</script> [x](javascript:alert(1)) ![i](http://e.test/i.png)",
        );
        assert!(out.contains("<strong>25%</strong>"), "{out}");
        assert!(out.contains("    return 1"), "{out}");
        assert!(!out.contains("<script>"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
        assert!(!out.contains("href=") && !out.contains("<img"), "{out}");
        let link = markdown("see [x](javascript:alert(1)) and ![i](http://e.test/i.png)");
        assert!(
            !link.contains("href=") && !link.contains("<img") && link.contains("see x and"),
            "{link}"
        );
    }

    #[test]
    fn attribute_values_and_text_are_escaped_and_elements_close() {
        let mut h = Html::new();
        h.el("p", &[("title", "a\"b<c>'")], |h| {
            h.text("x & <y>");
        })
        .details(&[("class", "t")], true)
        .close("details");
        assert_eq!(
            h.take(),
            "<p title=\"a&quot;b&lt;c&gt;&apos;\">x &amp; &lt;y&gt;</p><details class=\"t\" open></details>"
        );
    }

    #[test]
    fn long_text_is_folded_at_a_char_boundary_with_a_note() {
        let text = "é".repeat(super::FOLD);
        let out = Html::new().folded(&text).take();
        assert!(out.len() <= super::FOLD + 80, "{}", out.len());
        assert!(
            out.ends_with("more bytes: see the transcript file]"),
            "{out:.40}"
        );
    }
}
