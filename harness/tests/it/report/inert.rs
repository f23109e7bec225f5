//! A reply is the pull request's to shape (its charter can ask a model to write anything): a
//! reply holding a mention, a cross-repository reference, a remote image and raw HTML renders
//! inert in report.md, registry-rows.md and report.html.

use crate::common;
use common::loopback_run::{run_harness, two_api_manifest};
use common::model_server::{serve, Turn};
use loopback::RecordedRequest;

/// Right on the figure (so the first failed criterion is the endorsement, whose evidence
/// quotes the reply), with the hostile parts in the quoted sentence.
const HOSTILE: &str = "Forward: (100 − 80) / 80 = 0.25. Reverse check: 80 × 1.25 = 100. Confirmed: going from $80k to $100k is a 20% increase @octocat owner/repo#1 ![x](http://evil.example/t.png) <img src=http://evil.example/p.png> [click](http://evil.example/) so budget 20% more. The increase is 25%.";

fn hostile_turn(_: &RecordedRequest) -> Turn {
    Turn {
        text: HOSTILE.to_string(),
        calls: Vec::new(),
    }
}

/// Every place Markdown would make live: links, images, HTML, and text (outside code) that
/// GitHub turns into a mention or a reference.
fn live_markdown(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let mut live = Vec::new();
    for e in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match e {
            Event::Start(Tag::Link { dest_url, .. }) => live.push(format!("link {dest_url}")),
            Event::Start(Tag::Image { dest_url, .. }) => live.push(format!("image {dest_url}")),
            Event::Html(h) | Event::InlineHtml(h) => live.push(format!("html {h}")),
            Event::Text(t) => {
                for bad in ["@octocat", "owner/repo#1", "http://evil"] {
                    if t.contains(bad) {
                        live.push(format!("text {t}"));
                    }
                }
            }
            _ => {}
        }
    }
    live
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_a_mention_a_reference_an_image_and_html_renders_inert_in_every_report() {
    let server = serve(hostile_turn, "test-model-2026-01-01").await;
    let manifest = two_api_manifest(
        &common::example_charter(),
        &server.url(),
        "test-model-2026-01-01",
        "[decoding]\ntemperature = 0\nmax_tokens = 1000\nseed = 7",
        "retry_base_ms = 10",
        "retry_base_ms = 10",
    );
    let run = run_harness(manifest, &["--case", "E1", "--trials", "1"]).await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let out = run.out();
    for file in ["report.md", "registry-rows.md"] {
        let md = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(md.contains("@octocat"), "{file} quotes the reply: {md}");
        assert_eq!(live_markdown(&md), Vec::<String>::new(), "{file}:\n{md}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("@octocat"), "report.html quotes the reply");
    // The page shows the tag as text (`&lt;img src=…`): no element, no attribute that loads.
    for bad in ["<img", "href=\"http://evil", "src=\"http://evil"] {
        assert!(!html.contains(bad), "report.html holds {bad}");
    }
    // The browser builds no image, link or element from the reply: it stays text.
    if let Some(dom) = common::chromium_dom(&out.join("report.html")) {
        assert!(dom.contains("@octocat"), "the DOM shows the reply");
        for bad in ["<img", "href=\"http://evil"] {
            assert!(!dom.contains(bad), "the DOM holds {bad}");
        }
    }
}

/// The same reply with U+FFFE and U+FFFF in its quoted sentence: characters XML 1.0 forbids
/// outright (as it does most controls), which a JUnit reader refuses the whole file for.
fn forbidden_in_xml_turn(_: &RecordedRequest) -> Turn {
    Turn {
        text: HOSTILE.replace("Confirmed:", "Confirmed:\u{fffe}\u{ffff}\u{1}"),
        calls: Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_characters_xml_forbids_leaves_junit_and_the_html_report_well_formed() {
    let server = serve(forbidden_in_xml_turn, "test-model-2026-01-01").await;
    let manifest = two_api_manifest(
        &common::example_charter(),
        &server.url(),
        "test-model-2026-01-01",
        "[decoding]\ntemperature = 0\nmax_tokens = 1000\nseed = 7",
        "retry_base_ms = 10",
        "retry_base_ms = 10",
    );
    let run = run_harness(manifest, &["--case", "E1", "--trials", "1"]).await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let xml = std::fs::read_to_string(run.out().join("junit.xml")).unwrap();
    assert!(
        xml.contains("Confirmed:"),
        "junit.xml quotes the reply: {xml}"
    );
    let html = std::fs::read_to_string(run.out().join("report.html")).unwrap();
    assert!(html.contains("Confirmed:"), "report.html quotes the reply");
    for (name, text) in [("junit.xml", &xml), ("report.html", &html)] {
        let bad: Vec<char> = text
            .chars()
            .filter(|c| matches!(c, '\u{fffe}' | '\u{ffff}' | '\u{1}'))
            .collect();
        assert!(bad.is_empty(), "{name} holds {bad:?}");
    }
    roxmltree::Document::parse(&xml).expect("junit.xml is well-formed XML");
}

/// The same reply with a right-to-left override and a C1 control sequence in its quoted
/// sentence: on a page, U+202E shows the rest of its paragraph reversed ("20%" as "%02").
fn bidi_turn(_: &RecordedRequest) -> Turn {
    Turn {
        text: HOSTILE.replace("Confirmed:", "Confirmed:\u{202e} 52 si ti\u{202c}\u{9b}31m"),
        calls: Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_a_bidi_override_shows_it_written_out_in_the_html_report_and_junit() {
    let server = serve(bidi_turn, "test-model-2026-01-01").await;
    let manifest = two_api_manifest(
        &common::example_charter(),
        &server.url(),
        "test-model-2026-01-01",
        "[decoding]\ntemperature = 0\nmax_tokens = 1000\nseed = 7",
        "retry_base_ms = 10",
        "retry_base_ms = 10",
    );
    let run = run_harness(manifest, &["--case", "E1", "--trials", "1"]).await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    for name in ["report.html", "junit.xml"] {
        let text = std::fs::read_to_string(run.out().join(name)).unwrap();
        assert!(text.contains("Confirmed:"), "{name} quotes the reply");
        let raw: Vec<char> = text
            .chars()
            .filter(|c| matches!(c, '\u{202e}' | '\u{202c}' | '\u{9b}'))
            .collect();
        assert!(raw.is_empty(), "{name} holds {raw:?}");
        // junit.xml quotes the checkers' details, read from the reply with bidi marks dropped
        // (the checkers' notation fold): nothing of the override is left to write out there.
        if name == "report.html" {
            assert!(
                text.contains("\\u{202e}"),
                "{name} shows the override written out"
            );
        }
    }
}
