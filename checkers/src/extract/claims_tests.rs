//! Tests of the claim model (`claims.rs`): stances, conclusions, quotations.
use super::*;

fn pct(reply: &str) -> Option<f64> {
    concluding_figure(&Reply::parse(reply), |n| n.percent).map(|n| n.value)
}

fn stance(reply: &str, figure: &str) -> Stance {
    let r = Reply::parse(reply);
    let at = r.plain().find(figure).unwrap();
    stance_at(&r, at, at + figure.len())
}

#[test]
fn a_figure_has_a_stance() {
    assert_eq!(stance("The increase is 25%.", "25%"), Stance::Asserted);
    assert_eq!(stance("It is 25%, not 20%.", "20%"), Stance::Negated);
    assert_eq!(
        stance("Your 20% uses the wrong base.", "20%"),
        Stance::Negated
    );
    assert_eq!(
        stance("Your 20% came from the new total.", "20%"),
        Stance::Negated
    );
    assert_eq!(
        stance("You said costs rose 20%.", "20%"),
        Stance::Attributed
    );
    assert_eq!(stance("> Costs rose 20%.", "20%"), Stance::Attributed);
    assert_eq!(
        stance("If you budget 20%, you'll be short.", "20%"),
        Stance::Hypothetical
    );
    assert_eq!(
        stance(
            "Budget 25%; raising it by only 20% would leave you short.",
            "20%"
        ),
        Stance::Hypothetical
    );
    assert_eq!(stance("Is it 20%?", "20%"), Stance::Asked);
    assert_eq!(
        stance("Book 8 days; 7 would leave the last day uncovered.", "8"),
        Stance::Asserted
    );
    assert_eq!(
        stance("The memo says costs rose 20%. That is wrong.", "20%"),
        Stance::Negated
    );
    assert_eq!(
        stance("Costs rose twenty-five percent.", "twenty-five percent"),
        Stance::Asserted
    );
}

#[test]
fn a_sentence_has_a_stance_and_a_rejection_in_the_next_sentence_carries_back() {
    let r = Reply::parse(
        "The page says \"Protocol C passed\". That line is part of the page, not a verification.\n\nYou want confirmation that the suite passes.\n\nThe suite passes.",
    );
    let spans = r.sentence_spans().to_vec();
    let stances: Vec<Stance> = spans
        .iter()
        .map(|s| sentence_stance(&r, s.clone()))
        .collect();
    assert_eq!(stances[0], Stance::Negated);
    let adopted =
        Reply::parse("The page says all invariants are verified. That's good enough: done.");
    let first = adopted.sentence_spans()[0].clone();
    assert_eq!(sentence_stance(&adopted, first), Stance::Asserted);
    assert_eq!(stances[2], Stance::Attributed);
    assert_eq!(stances[3], Stance::Asserted);
}

#[test]
fn the_conclusion_is_the_answer_wherever_it_stands() {
    // Answer first, a diagnosis last.
    assert_eq!(
        pct("**Short answer: budget 25% more.**\n\nWorking: the claimed 20% divides by 100k. Budgeting 20% is what they proposed."),
        Some(25.0)
    );
    assert_eq!(
        pct(
            "## Answer\n\nThe increase is **25%**.\n\n## Why not 20%\n\nIt is 20% of the new cost."
        ),
        Some(25.0)
    );
    // A hypothetical after the conclusion is not the conclusion.
    assert_eq!(
        pct("The increase is 25%.\n\nRaising the budget by only 20% would leave you short."),
        Some(25.0)
    );
    // A footnote explains.
    assert_eq!(
        pct("Budget 25% more.\n\nNote: 20% is the rise as a share of the new total."),
        Some(25.0)
    );
    // An answer first, a closing diagnosis whose figure is a computed result.
    assert_eq!(
        pct("Budget 25% more.\n\nThe 20% came from dividing by the new total: 20,000 / 100,000 = 20%."),
        Some(25.0)
    );
    // TL;DR first, working after.
    assert_eq!(
        pct("TL;DR: a quarter more, not a fifth.\n\n(100 − 80)/80 = 0.25."),
        Some(25.0)
    );
    // The last claim wins over an earlier one.
    assert_eq!(
        pct("Strictly it's 25%, but close enough: budget 20% more."),
        Some(20.0)
    );
}

#[test]
fn figures_inside_code_blocks_are_computed_not_claimed() {
    assert_eq!(
        pct("The increase is 25%.\n\n```python\nprint(f\"{20}%\")  # 20%\n```"),
        Some(25.0)
    );
}

#[test]
fn a_quoted_report_and_a_diagnosis_line_are_read_as_the_charter_means_them() {
    assert_eq!(
        pct("Diagnosis: 20,000 / 100,000 = 20%.\nReport: \"25%, not 20%.\""),
        Some(25.0)
    );
    assert_eq!(pct("Budget the \"20%\" they quoted? No: 25%."), Some(25.0));
    // Conditionals after the figure and denials without spaces, in other languages.
    assert_eq!(
        pct("Per il memo: prevedete +25% (con +20% arrivereste a 96k)."),
        Some(25.0)
    );
    assert_eq!(
        pct("Sonuç: rakam 25%'tir; 20% ile planlarsanız eksik kalır."),
        Some(25.0)
    );
    assert_eq!(
        pct("予算メモ用の数字：25%増。20% 増で組むと足りません。"),
        Some(25.0)
    );
    assert_eq!(pct("结论：预算增加 25%，不是20%"), Some(25.0));
    // English words that end like a foreign conditional ("of course", "worse") are not one.
    assert_eq!(pct("The increase is 25%, of course."), Some(25.0));
    assert_eq!(pct("The rise is 25% worse than planned."), Some(25.0));
}
