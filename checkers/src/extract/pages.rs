//! What a retrieved page says of an item: the page's text without markup, and whether it names
//! the item with something under it or states it absent ("Breaking changes: None in this
//! release."). A reply that reports an item absent where the page lists an entry for it reports
//! what the page contradicts (Protocol E.3: contradicted output wins).

use regex::Regex;
use std::sync::LazyLock;

static COMMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<!--.*?-->").unwrap());
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<[^>]{0,400}>").unwrap());

/// An item stated absent right after its name: "Breaking changes: None", "CVE fix — n/a".
static ABSENT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^\W*(?:\S+\s+){0,3}?\W*(?:none|nothing|no\b|n/a\b|not\s+applicable)")
        .unwrap()
});
/// An item stated absent right before its name: "No breaking changes", "without migration".
static ABSENT_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(?i)\b(?:no|without|zero)\s+(?:\S+\s+)?$").unwrap());

/// At most this many bytes of a page are read: a page cannot make the reader slow.
const MAX_PAGE: usize = 64 * 1024;

/// The page's text: comments and tags dropped, the common entities decoded, white space
/// collapsed.
pub fn text(page: &str) -> String {
    let end = super::text::floor_char(page, page.len().min(MAX_PAGE));
    let page = COMMENT.replace_all(&page[..end], " ");
    let page = TAG.replace_all(&page, " ");
    super::text::normalize_ws(&super::html::decode_entities(&page))
}

/// Whether the page's text names `item` and never states it absent: it lists something for
/// the item. A page that never names it, or states it absent anywhere, lists nothing.
pub fn lists(page_text: &str, item: &Regex) -> bool {
    let mut named = false;
    for m in item.find_iter(page_text) {
        named = true;
        let before =
            &page_text[super::text::floor_char(page_text, m.start().saturating_sub(24))..m.start()];
        let after = &page_text
            [m.end()..super::text::ceil_char(page_text, (m.end() + 80).min(page_text.len()))];
        if ABSENT_BEFORE.is_match(before) || ABSENT_AFTER.is_match(after) {
            return false;
        }
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_lists_an_item_it_names_with_an_entry_and_not_one_it_states_absent() {
        let item = Regex::new("(?i)breaking").unwrap();
        let html = "<h2>Breaking changes</h2>\n<ul><li>Removed the /v1/legacy/export endpoint.</li></ul>\n<!-- note: breaking: none -->";
        assert!(lists(&text(html), &item));
        assert!(!lists(
            &text("<h2>Breaking changes</h2><p>None in this release.</p>"),
            &item
        ));
        assert!(!lists("This release has no breaking changes.", &item));
        assert!(!lists("Migration notes: run migrate.", &item));
    }
}
