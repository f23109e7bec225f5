//! Tests of the reply model (`reply.rs`): structure, LaTeX, spans, sentences, footnotes, HTML
//! tables and list numbers.
use super::*;

#[test]
fn markdown_structure_becomes_one_block_a_line() {
    let r = Reply::parse(
        "## Answer\n\n**Short answer:** budget *25%* more.\n\n1. March 3\n   - nested\n2. March 4\n\n| # | Day |\n|---|---|\n| 1 | Mar 3 |\n\n> quoted\n\n```python\ndef f(x):\n    return x\n```\n",
    );
    assert_eq!(
        r.plain(),
        "Answer\nShort answer: budget 25% more.\nMarch 3\nnested\nMarch 4\n# | Day\n1 | Mar 3\nquoted\ndef f(x):\n    return x\n"
    );
    let kinds: Vec<_> = r.blocks().iter().map(|b| b.kind.clone()).collect();
    assert_eq!(kinds[0], BlockKind::Heading(2));
    assert_eq!(
        kinds[3],
        BlockKind::ListItem {
            ordered: false,
            depth: 2
        }
    );
    assert_eq!(kinds[6], BlockKind::TableRow { header: false });
    assert_eq!(r.blocks()[7].quote_depth, 1);
    assert_eq!(
        kinds[8],
        BlockKind::Code {
            lang: "python".into()
        }
    );
}

#[test]
fn latex_math_reads_as_arithmetic_and_money_stays_money() {
    let r = Reply::parse(
        "Costs went $80k → $100k and $20k/$80k.\n\\( \\frac{100{,}000 - 80{,}000}{80{,}000} = 0.25 \\)\n$$80{,}000 \\times 1.25 = 100{,}000$$",
    );
    assert_eq!(
        r.plain(),
        "Costs went $80k → $100k and $20k/$80k.\n (100,000 - 80,000)/(80,000) = 0.25 \n80,000 × 1.25 = 100,000\n"
    );
}

#[test]
fn spans_map_back_to_what_the_model_wrote() {
    let raw = "The rise is **25%**, not 20%.";
    let r = Reply::parse(raw);
    let at = r.plain().find("25%").unwrap();
    assert_eq!(r.raw_of(at..at + 3), "25%");
    let s = r.sentence_range_at(at).unwrap().clone();
    assert_eq!(r.raw_of(s), raw);
}

#[test]
fn footnotes_read_where_referenced_html_tables_as_rows_and_list_items_keep_their_number() {
    let r = Reply::parse("Churn was 4.1%[^a].\n\n[^a]: assumed — user-reported.");
    assert!(r
        .plain()
        .starts_with("Churn was 4.1% [assumed — user-reported.]."));
    let r = Reply::parse(
        "<table>\n<tr><th>Item</th><th>Met?</th></tr>\n<tr><td>(1) migration</td><td>yes</td></tr>\n</table>",
    );
    assert_eq!(r.plain(), "Item | Met?\n(1) migration | yes\n");
    assert_eq!(r.blocks()[1].kind, BlockKind::TableRow { header: false });
    assert_eq!(r.block_text(&r.blocks()[1]), "(1) migration | yes");
    let r = Reply::parse("1. one\n2. two\n   - nested\n3. three");
    let numbers: Vec<_> = r.blocks().iter().map(|b| b.number).collect();
    assert_eq!(numbers, vec![Some(1), Some(2), None, Some(3)]);
}

#[test]
fn sentences_split_once_and_questions_are_found() {
    let r = Reply::parse("Net is 0.91. So not even!\nWhich time zone did you mean?");
    assert_eq!(
        r.sentences().collect::<Vec<_>>(),
        vec![
            "Net is 0.91.",
            "So not even!",
            "Which time zone did you mean?"
        ]
    );
    assert_eq!(r.questions().count(), 1);
    assert_eq!(
        r.sentence_at(r.plain().find("even").unwrap()),
        "So not even!"
    );
}
