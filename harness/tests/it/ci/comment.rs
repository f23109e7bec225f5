//! `harness comment` in the states the workflow posts when nothing can be trusted: a summary.json
//! cut short still gives an `error` status with the reason, and lint findings naming a file with
//! a line break, a mention and a link stay inert.

use crate::common::{harness, stdout};
use serde_json::Value;

fn status(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("status.json")).unwrap()).unwrap()
}

#[test]
fn a_truncated_summary_json_still_posts_an_error_status_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(run.join("summary.json"), "{\"exit_code\": 1, \"verd").unwrap();
    std::fs::write(run.join("report.md"), "# Charter gate\n").unwrap();
    let o = harness(
        dir.path(),
        &["comment", "run", "--status", "status.json"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "the posting step goes on");
    let s = status(dir.path());
    assert_eq!(s["state"], "error");
    assert!(
        s["description"].as_str().unwrap().contains("summary.json"),
        "{s}"
    );
    let body = stdout(&o);
    assert!(
        body.starts_with("<!-- charter-harness-gate -->\n**The comment could not be built**"),
        "{body}"
    );
}

#[test]
fn lint_findings_with_a_line_break_a_mention_and_a_link_in_a_file_name_stay_inert() {
    let dir = tempfile::tempdir().unwrap();
    let finding = serde_json::json!({
        "file": "capsules/evil\n::error::owned @octocat [x](http://evil.example).md",
        "line": 3, "rule": "capsule/identity", "kind": "needs-reviewer",
        "message": "Identity may state the role in other words: <img src=x>",
        "fix": "reword owner/repo#1"
    });
    std::fs::write(dir.path().join("lint.jsonl"), format!("{finding}\n")).unwrap();
    let o = harness(
        dir.path(),
        &["comment", "--lint", "lint.jsonl", "--status", "status.json"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    let body = stdout(&o);
    assert!(
        !body.lines().any(|l| l.starts_with("::")),
        "no line starts a workflow command: {body}"
    );
    use pulldown_cmark::{Event, Parser, Tag};
    for e in Parser::new(&body) {
        match e {
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => panic!("live link: {body}"),
            Event::Html(h) | Event::InlineHtml(h)
                if !h.starts_with("<!-- charter-harness-gate") =>
            {
                panic!("live HTML {h}: {body}")
            }
            Event::Text(t) => assert!(
                !t.contains("@octocat") && !t.contains("owner/repo#1"),
                "live text {t}: {body}"
            ),
            _ => {}
        }
    }
    let s = status(dir.path());
    assert_eq!(s["state"], "success");
    assert_eq!(s["description"], "lint: 1 finding(s) need a reviewer");
}

#[test]
fn a_path_that_is_not_a_run_or_a_findings_file_exits_2_naming_it_in_every_state() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    std::fs::write(dir.path().join("lint.jsonl"), "").unwrap();
    for args in [
        vec!["comment", "empty"],
        vec!["comment", "no-such-run"],
        vec!["comment", "lint.jsonl"],
        vec!["comment", "--lint", "no-such.jsonl"],
        vec!["comment", "--lint", "empty"],
        vec!["comment", "empty", "--with-lint", "lint.jsonl"],
    ] {
        let mut with_status = args.clone();
        with_status.extend(["--status", "status.json"]);
        let o = harness(dir.path(), &with_status, &[]);
        let err = crate::common::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let named = ["empty", "no-such-run", "lint.jsonl", "no-such.jsonl"]
            .iter()
            .any(|p| err.contains(&format!("{p}: not a")));
        assert!(named, "{args:?} names the path: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}: no comment printed");
        assert_eq!(status(dir.path())["state"], "error", "{args:?}");
    }
}
