//! Unsure verdicts for the person who settles them: each unsure criterion of each trial waiting
//! for a label, with the two readings that disagree (one line each), where its transcript is in
//! the run folder (the run's artifact on GitHub) and the exact `harness label` command. Text a
//! model wrote goes in code spans.

use crate::report::comparison::code;
use std::fmt::Write;

/// The heading of report.md's section (the comment finds it to link the run's artifact).
pub const HEADING: &str = "## Unsure verdicts (each needs a label)";

/// A checker's reason split into why and the readings that disagree, in the shapes the
/// checkers write: `readings disagree: WHY: A, or B` gives `(WHY, [A, B])`; `readings disagree:
/// A, B` (or `the prose concludes 25%, the fenced JSON says 20% (want 25%)`) gives `(readings
/// disagree (want 25%), [A, B])`; any other reason is all why, no readings.
pub fn readings(detail: &str) -> (String, Vec<String>) {
    let prefixed = detail.strip_prefix("readings disagree: ");
    let rest = prefixed.unwrap_or(detail);
    if let Some(or) = rest.find(", or ") {
        if let Some(colon) = rest[..or].rfind(": ") {
            let (a, b) = (&rest[colon + 2..or], &rest[or + 5..]);
            return (
                rest[..colon].to_string(),
                vec![a.trim().to_string(), b.trim().to_string()],
            );
        }
    }
    // A trailing "(want …)" belongs to the criterion, not to the last reading.
    let (body, want) = match rest.rfind(" (want ") {
        Some(i) if rest.ends_with(')') => (&rest[..i], &rest[i..]),
        _ => (rest, ""),
    };
    let parts: Vec<&str> = body.split(", ").map(str::trim).collect();
    let named = parts.iter().all(|p| p.starts_with("the "));
    if parts.len() >= 2 && (prefixed.is_some() || named) {
        return (
            format!("readings disagree{want}"),
            parts.iter().map(|p| p.to_string()).collect(),
        );
    }
    (rest.to_string(), Vec::new())
}

/// The transcript of a unit's trial, relative to its run folder.
pub fn transcript_path(model: &str, case: &str, variant: &str, trial: u32) -> String {
    format!("transcripts/{model}/{case}-{variant}/trial-{trial}.json")
}

/// One unsure criterion of one trial: why, the readings that disagree, where its transcript
/// is in the run folder and the command that settles it.
pub struct UnsureReading {
    pub case: String,
    pub variant: String,
    pub model: String,
    pub trial: u32,
    pub criterion: String,
    pub why: String,
    pub readings: Vec<String>,
    pub transcript: String,
    pub settle: String,
}

/// report.md's section listing every unsure criterion of the undecided units; empty when none.
pub fn markdown(unsure: &[UnsureReading]) -> String {
    let mut out = String::new();
    for r in unsure {
        let _ = writeln!(
            out,
            "- **{}/{}** on {}, trial {}, criterion **{}**: {}",
            r.case,
            r.variant,
            code(&r.model),
            r.trial,
            r.criterion,
            code(&r.why)
        );
        for (i, reading) in r.readings.iter().enumerate() {
            let _ = writeln!(out, "  - reading {}: {}", i + 1, code(reading));
        }
        let _ = writeln!(
            out,
            "  - transcript: {} in the run folder (on GitHub: the run's artifact `charter-gate-results`)\n  - settle it: {}",
            code(&r.transcript),
            code(&r.settle)
        );
    }
    if out.is_empty() {
        return out;
    }
    format!(
        "\n{HEADING}\n\nThe checker read these replies two ways; a person decides. Read the transcript, run the command with `--pass` or `--fail`, commit `labels/labels.jsonl` (to the base branch for a pull request), then gate again: the labelled verdict decides without calling a model.\n\n{out}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_way_reason_gives_its_two_readings_one_line_each() {
        let (why, r) = readings("readings disagree: the reply concludes the ratio 0.25 and no percentage: 25% written as a ratio, or no percentage reported");
        assert_eq!(why, "the reply concludes the ratio 0.25 and no percentage");
        assert_eq!(r, ["25% written as a ratio", "no percentage reported"]);
        let (why, r) = readings("the prose concludes 25%, the fenced JSON says 20% (want 25%)");
        assert_eq!(why, "readings disagree (want 25%)");
        assert_eq!(r, ["the prose concludes 25%", "the fenced JSON says 20%"]);
        let (why, r) = readings("a figure cannot be attributed");
        assert_eq!(
            (why.as_str(), r.len()),
            ("a figure cannot be attributed", 0)
        );
    }
}
