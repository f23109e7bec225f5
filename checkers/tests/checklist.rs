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
