//! JUnit XML: one test case per unit and trial, failures from the failed criteria, errors for
//! inconclusive trials, in the common schema CI systems read.

use crate::events::{TrialRecord, TrialStatus};
use std::fmt::Write;

pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 forbids most control characters even when escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

pub fn render(records: &[TrialRecord]) -> String {
    let status = |r: &TrialRecord| TrialStatus::of(&r.verdict);
    let failures = records
        .iter()
        .filter(|r| status(r) == TrialStatus::Fail)
        .count();
    let errors = records
        .iter()
        .filter(|r| status(r) == TrialStatus::Inconclusive)
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"charter-gate\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\">", records.len());
    let mut models: Vec<&str> = records.iter().map(|r| r.model.as_str()).collect();
    models.dedup();
    models.sort();
    models.dedup();
    for model in models {
        let mine: Vec<&TrialRecord> = records.iter().filter(|r| r.model == model).collect();
        let f = mine
            .iter()
            .filter(|r| status(r) == TrialStatus::Fail)
            .count();
        let e = mine
            .iter()
            .filter(|r| status(r) == TrialStatus::Inconclusive)
            .count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"{e}\" skipped=\"0\">",
            xml_escape(model),
            mine.len()
        );
        for r in mine {
            let secs = r
                .transcript
                .timing
                .as_ref()
                .and_then(|t| t.get("duration_ms"))
                .and_then(|v| v.as_u64())
                .unwrap_or(0) as f64
                / 1000.0;
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}/{} trial {}\" time=\"{secs:.3}\"",
                xml_escape(&format!("{}.{}", model, r.case)),
                r.case,
                xml_escape(&r.variant),
                r.trial
            );
            match status(r) {
                TrialStatus::Pass => out.push_str("/>\n"),
                TrialStatus::Fail => {
                    let failed: Vec<String> = r
                        .verdict
                        .failed()
                        .map(|c| format!("{}: {}", c.name, c.detail))
                        .collect();
                    let first = r
                        .verdict
                        .failed()
                        .next()
                        .map(|c| c.name.as_str())
                        .unwrap_or("failed");
                    let _ = write!(out, ">\n      <failure message=\"{}\" type=\"criterion\">{}</failure>\n    </testcase>\n", xml_escape(first), xml_escape(&failed.join("\n")));
                }
                TrialStatus::Inconclusive => {
                    let why = r.transcript.error.as_deref().unwrap_or("inconclusive");
                    let _ = write!(out, ">\n      <error message=\"inconclusive\" type=\"provider\">{}</error>\n    </testcase>\n", xml_escape(why));
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
