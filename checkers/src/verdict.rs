//! Verdicts (contract §4): pass/fail with every criterion and the evidence behind it.

use serde::{Deserialize, Serialize};

/// Fields in alphabetical order: the order transcripts and summaries have always written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub detail: String,
    /// The spans a decided criterion rests on: the sentence, figure, stance or request words it
    /// read, and the tool calls (`read_file(CHARTER_STATE.md)`). Written only when not empty;
    /// an unsure criterion has none (its `detail` says what it could not read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    pub name: String,
    pub pass: bool,
    /// Neither pass nor fail: the reading is ambiguous (two readings disagree, a figure cannot
    /// be attributed, a quotation cannot be told from a claim). Written only when true, with
    /// `pass: false` and the reason in `detail`; a person's label decides.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsure: bool,
}

impl Criterion {
    pub fn new(name: &str, pass: bool, detail: impl Into<String>) -> Self {
        Criterion {
            name: name.to_string(),
            pass,
            detail: detail.into(),
            evidence: Vec::new(),
            unsure: false,
        }
    }

    /// A criterion the checker cannot decide, with the reason.
    pub fn unsure(name: &str, reason: impl Into<String>) -> Self {
        Criterion {
            unsure: true,
            ..Criterion::new(name, false, reason)
        }
    }
}

/// Fields in alphabetical order: the order transcripts and summaries have always written.
/// `unsure` is not stored: it follows from the criteria ([`Verdict::unsure`]) and is written,
/// between `pass` and `variant`, only when true.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Verdict {
    pub case: String,
    /// sha256 over all the checker crate's sources (every file under `checkers/src/`, the
    /// shared extraction included), so verdicts from different code never compare as equal.
    pub checker_source_sha256: String,
    pub checker_version: String,
    pub criteria: Vec<Criterion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_figure: Option<String>,
    /// The transcript records a provider or harness failure: neither pass nor fail.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inconclusive: bool,
    pub pass: bool,
    pub variant: String,
}

impl Verdict {
    pub fn failed(&self) -> impl Iterator<Item = &Criterion> {
        self.criteria.iter().filter(|c| !c.pass)
    }

    /// Unsure: neither pass nor inconclusive, and every criterion that did not pass is unsure.
    /// Such a verdict needs a label, not a rerun.
    pub fn unsure(&self) -> bool {
        let mut failed = self.failed().peekable();
        !self.pass && !self.inconclusive && failed.peek().is_some() && failed.all(|c| c.unsure)
    }
}

/// The written form: the stored fields, with `unsure` when true.
#[derive(Serialize)]
struct Written<'a> {
    case: &'a str,
    checker_source_sha256: &'a str,
    checker_version: &'a str,
    criteria: &'a [Criterion],
    #[serde(skip_serializing_if = "Option::is_none")]
    file: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_figure: &'a Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    inconclusive: bool,
    pass: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unsure: bool,
    variant: &'a str,
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Written {
            case: &self.case,
            checker_source_sha256: &self.checker_source_sha256,
            checker_version: &self.checker_version,
            criteria: &self.criteria,
            file: &self.file,
            final_figure: &self.final_figure,
            inconclusive: self.inconclusive,
            pass: self.pass,
            unsure: self.unsure(),
            variant: &self.variant,
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(criteria: Vec<Criterion>) -> Verdict {
        Verdict {
            case: "E1".into(),
            checker_source_sha256: String::new(),
            checker_version: "1".into(),
            pass: criteria.iter().all(|c| c.pass),
            criteria,
            file: None,
            final_figure: None,
            inconclusive: false,
            variant: "default".into(),
        }
    }

    #[test]
    fn unsure_is_written_only_when_every_failed_criterion_is_unsure() {
        let sure = verdict(vec![
            Criterion::new("a", true, "ok"),
            Criterion::new("b", false, "no"),
        ]);
        let json = serde_json::to_string(&sure).unwrap();
        assert!(!json.contains("unsure"), "{json}");
        let unsure = verdict(vec![
            Criterion::new("a", true, "ok"),
            Criterion::unsure("b", "two readings"),
        ]);
        assert!(unsure.unsure());
        let json = serde_json::to_value(&unsure).unwrap();
        assert_eq!(json["unsure"], true);
        assert_eq!(json["pass"], false);
        assert_eq!(json["criteria"][1]["unsure"], true);
        let back: Verdict = serde_json::from_value(json).unwrap();
        assert_eq!(back, unsure);
        let mixed = verdict(vec![
            Criterion::new("a", false, "no"),
            Criterion::unsure("b", "?"),
        ]);
        assert!(!mixed.unsure());
        assert!(!verdict(vec![Criterion::new("a", true, "ok")]).unsure());
    }
}
