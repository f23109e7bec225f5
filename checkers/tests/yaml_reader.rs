//! The lenient YAML reader (`extract::structured_yaml`) against a real YAML parser's events
//! (yaml-rust2): on the documents models write as answers, every scalar the parser reports —
//! keys and values, in document order — is in what the lenient reader reads, in the same order.
//! The lenient reader adds what the parser drops (comments, in parentheses; a unit its key names)
//! and never loses or reorders what the parser keeps.

use checkers::extract::structured_yaml;
use yaml_rust2::parser::Parser;
use yaml_rust2::Event;

/// The scalars of a document, as the real parser gives them, white space collapsed.
fn parser_scalars(doc: &str) -> Vec<String> {
    let mut p = Parser::new_from_str(doc);
    let mut out = Vec::new();
    loop {
        match p.next_token().expect("valid YAML") {
            (Event::StreamEnd, _) => break,
            (Event::Scalar(s, ..), _) => out.push(as_read(normalize(&s))),
            _ => {}
        }
    }
    out
}

/// An answer key is read as "Answer: …" whatever its words (`final_answer`, `verdict`, …).
fn as_read(s: String) -> String {
    const ANSWER_KEYS: [&str; 8] = [
        "final answer",
        "conclusion",
        "recommendation",
        "bottom line",
        "verdict",
        "final",
        "result",
        "tl;dr",
    ];
    if ANSWER_KEYS.contains(&s.as_str()) {
        "answer".into()
    } else {
        s
    }
}

fn normalize(s: &str) -> String {
    s.replace(['_', '-'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

const DOCS: &[&str] = &[
    "answer: 25%\nbase: $80k\nforward: (100 - 80) / 80 = 0.25\nreverse: 80 x 1.25 = 100\n",
    "final_answer: \"25%\"\nnotes:\n  - the 20% divides by the new total\n  - 'budget 25% more'\n",
    "summary: >\n  Costs rose 25%,\n  not 20%.\nworking: |\n  (100 - 80) / 80 = 0.25\n  80 * 1.25 = 100\nrecommendation: budget 25% more   # not 20%\n",
    "figures:\n  - name: churn\n    value: 4.1%\n    evidence: assumed\n  - name: revenue growth\n    value: 12%\n    evidence: derived\ndepends_on:\n  - churn 4.1%\n  - CAC $310\n",
    "---\nnet_multiplier: 0.91\nnet_change: \"-9%\"\nverdict: not even\n",
    "day_count: 8\ndays:\n  - March 3\n  - March 4\n  - March 10\nformula: 10 - 3 + 1 = 8\n",
];

#[test]
fn every_scalar_the_real_parser_reads_the_lenient_reader_reads_in_the_same_order() {
    for doc in DOCS {
        let read = structured_yaml::values(doc, 0).unwrap_or_else(|| panic!("not read: {doc}"));
        let text = normalize(
            &read
                .iter()
                .map(|v| v.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        let mut at = 0;
        for s in parser_scalars(doc) {
            match text[at..].find(&s) {
                Some(i) => at += i + s.len(),
                None => panic!("{s:?} missing or out of order in {text:?} (from {doc:?})"),
            }
        }
    }
}

#[test]
fn the_raw_span_of_each_piece_is_where_the_parser_found_it() {
    // Each piece's span holds the text the parser read there: the comparison can fail.
    let doc = DOCS[0];
    let read = structured_yaml::values(doc, 0).unwrap();
    let scalars = parser_scalars(doc);
    for (v, value) in read.iter().zip(scalars.chunks(2).map(|kv| &kv[1])) {
        assert!(
            normalize(&doc[v.raw.clone()]).contains(value.as_str()),
            "{:?}",
            v
        );
    }
}
