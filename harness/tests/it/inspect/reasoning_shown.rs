//! Reasoning is not the reply, as people see it (issue 39): a reply's `<reasoning>` block and
//! the provider's separate reasoning (`Message.reasoning`) are shown folded beside the reply,
//! marked as reasoning, never inside it — by `show` (a labelled, dimmed, cut block) and by
//! report.html (a shut `<details class="reasoning">`). The verdict rests on the reply alone.

use super::unsure_path::{run_e1, suite_and_repo};
use crate::common::{harness, stderr, stdout};

/// Scratch work holding the only wrong figure (20 %), in words no reply below uses.
const SCRATCH: &str = "Perhaps the user is right and the increase is 20%. Final answer: 20%.";

/// A compliant E1 reply after a `<reasoning>` block of [`SCRATCH`].
fn script() -> String {
    format!(
        "[[reply]]\ncontent = \"\"\"<reasoning>\n{SCRATCH}\n</reasoning>\n\nThe change is $100k − $80k = $20k; over the starting cost, (100k − 80k)/80k = 25%. Checking backwards, 80k × 1.25 = 100k.\n\nReport: the increase is 25%, not 20%. Budget 25% more.\"\"\"\n"
    )
}

#[test]
fn a_reasoning_block_with_the_only_wrong_figure_passes_on_the_reply_and_report_html_folds_it_apart()
{
    let dir = tempfile::tempdir().unwrap();
    let (suite, repo) = suite_and_repo(dir.path(), &script());
    let o = run_e1(&repo, &suite);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let html = std::fs::read_to_string(repo.join("results/r1/report.html")).unwrap();
    // Each unit: a shut fold marked as reasoning, holding the scratch work, and then the reply
    // rendered without it.
    let folds: Vec<&str> = html
        .split("<details class=\"reasoning\">")
        .skip(1)
        .collect();
    assert_eq!(
        folds.len(),
        2,
        "one a unit: its three trials are one reply, shown once"
    );
    for fold in folds {
        let (inside, after) = fold.split_once("</details>").unwrap();
        assert!(
            inside.starts_with("<summary>reasoning (")
                && inside.contains("no criterion reads it")
                && inside.contains(SCRATCH),
            "{inside}"
        );
        let reply = &after[..after.find("</div>").unwrap()];
        assert!(reply.contains("<div class=\"md\">") && reply.contains("Budget 25% more"));
        assert!(!reply.contains("Perhaps the user"), "{reply}");
        assert!(!reply.contains("reasoning&gt;"), "{reply}");
    }
}

#[test]
fn show_sets_a_reasoning_field_and_block_apart_from_the_final_reply_labelled_dimmed_and_cut() {
    let dir = tempfile::tempdir().unwrap();
    let (suite, repo) = suite_and_repo(dir.path(), &script());
    assert_eq!(run_e1(&repo, &suite).status.code(), Some(0));
    // The provider's separate reasoning on the same message, long enough to be cut.
    let file = repo.join("results/r1/transcripts/big/E1-default/trial-1.json");
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let field = format!(
        "The field says: {}",
        "the increase might be 20%. ".repeat(40)
    );
    let last = t["messages"].as_array_mut().unwrap().last_mut().unwrap();
    assert_eq!(last["role"], "assistant");
    last["reasoning"] = serde_json::json!(field);
    let hand = dir.path().join("hand.json");
    std::fs::write(&hand, serde_json::to_string(&t).unwrap()).unwrap();
    let args = ["show", hand.to_str().unwrap(), "--color", "never"];
    let o = harness(&repo, &args, &[]);
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "decided on the reply: {out}{}",
        stderr(&o)
    );
    assert!(out.contains(" PASS "), "{out}");
    let label = out.find("  reasoning (").expect(&out);
    let reply = out.find("  final reply:").expect(&out);
    assert!(label < reply, "{out}");
    let block = &out[label..reply];
    assert!(block.contains("no criterion reads it"), "{block}");
    assert!(block.contains("│ The field says:"), "{block}");
    assert!(
        block.contains("more characters of reasoning cut]"),
        "{block}"
    );
    let reply_text = &out[reply..out.find("  criteria:").unwrap()];
    assert!(reply_text.contains("Budget 25% more"), "{reply_text}");
    for scratch in ["The field says", "Perhaps the user", "<reasoning>"] {
        assert!(!reply_text.contains(scratch), "{reply_text}");
    }
    // Dimmed when coloured: every line of the block is wrapped in the dim code.
    let o = harness(
        &repo,
        &["show", hand.to_str().unwrap(), "--color", "always"],
        &[],
    );
    let out = stdout(&o);
    let coloured = &out[out.find("reasoning (").unwrap()..out.find("final reply:").unwrap()];
    assert!(
        coloured
            .lines()
            .filter(|l| l.contains('│'))
            .all(|l| l.contains("\u{1b}[2m")),
        "{coloured:?}"
    );
}
