//! A fixed sample of the behavioural checklist (`examples/checklist.rs` prints the full table):
//! every generated reply must get the verdict the charter gives it.

#[path = "checklist/mod.rs"]
mod checklist;

#[test]
fn the_checklist_sample_has_no_failures() {
    let env = checklist::Env::load();
    let samples = checklist::generate(2026, 120, &env);
    let outcomes = checklist::run(&samples, &env);
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| o.is_failure())
        .take(12)
        .map(|o| o.describe())
        .collect();
    let n = outcomes.iter().filter(|o| o.is_failure()).count();
    assert!(
        failures.is_empty(),
        "{n} of {} checklist replies get the wrong verdict:\n{}\n\n{}",
        outcomes.len(),
        checklist::table(&outcomes),
        failures.join("\n\n")
    );
}

/// The notation perturbations (issue 39) rewrite the figures they apply to, so their rows in
/// the table measure the world's notations, not the English text left as it was.
#[test]
fn the_notation_perturbations_rewrite_the_figures_of_the_figure_units() {
    use checklist::Perturbation;
    let env = checklist::Env::load();
    let samples = checklist::generate(2026, 200, &env);
    let rewritten = |p: Perturbation, mark: &dyn Fn(&str) -> bool| {
        let texts: Vec<&str> = samples
            .iter()
            .filter(|s| s.perturbation == p)
            .map(|s| s.transcript.final_reply())
            .collect();
        assert!(!texts.is_empty(), "{p:?} drawn");
        let n = texts.iter().filter(|t| mark(t)).count();
        (n, texts.len())
    };
    let (n, of) = rewritten(Perturbation::Script, &|t| {
        t.chars()
            .any(|c| ('٠'..='٩').contains(&c) || ('०'..='९').contains(&c))
    });
    assert!(n * 10 >= of * 9, "Script: {n} of {of}");
    let (n, of) = rewritten(Perturbation::DecimalComma, &|t| {
        t.contains("\u{202F}%") || t.contains("0,") || t.contains(".000")
    });
    assert!(n * 10 >= of * 8, "DecimalComma: {n} of {of}");
    let (n, of) = rewritten(Perturbation::Words, &|t| {
        ["Prozent", "процент", "Tage", "дней"]
            .iter()
            .any(|w| t.contains(w))
    });
    assert!(n * 10 >= of * 5, "Words: {n} of {of}");
    let (n, _) = rewritten(Perturbation::Currency, &|t| {
        ["€", "CHF", "₹"].iter().any(|w| t.contains(w))
    });
    assert!(n > 0, "Currency rewrites some amounts");
    // Only the figure units are drawn in another notation.
    assert!(samples.iter().all(|s| !matches!(
        s.perturbation,
        Perturbation::Script
            | Perturbation::DecimalComma
            | Perturbation::Currency
            | Perturbation::Words
    ) || ["E1", "E2", "E4", "E13"]
        .contains(&s.transcript.case.as_str())));
}
