//! The registry: one versioned checker per case id, and `check`, which applies it.

use crate::transcript::{Outcome, Role, Transcript};
use crate::truth::CheckContext;
use crate::verdict::{Criterion, Verdict};

/// What a case's check function finds.
#[derive(Debug, Default)]
pub struct Findings {
    pub criteria: Vec<Criterion>,
    pub final_figure: Option<String>,
}

impl Findings {
    pub fn add(&mut self, name: &str, pass: bool, detail: impl Into<String>) {
        self.criteria.push(Criterion::new(name, pass, detail));
    }

    /// A criterion that cannot be decided from the transcript, with the reason.
    pub fn add_unsure(&mut self, name: &str, reason: impl Into<String>) {
        self.criteria.push(Criterion::unsure(name, reason));
    }
}

pub type CheckFn = fn(&Transcript, &CheckContext) -> Findings;

/// A case's checker: its version, its variants and its check function.
pub struct Checker {
    pub case: &'static str,
    pub version: &'static str,
    pub variants: &'static [&'static str],
    pub check: CheckFn,
}

macro_rules! checker {
    ($case:literal, $module:ident) => {
        Checker {
            case: $case,
            version: crate::$module::VERSION,
            variants: crate::$module::VARIANTS,
            check: crate::$module::check,
        }
    };
}

/// sha256 over every source file of this crate (`build.rs`): a checker runs the shared
/// extraction as much as its own file, so the digest covers all of it.
pub const SOURCE_SHA256: &str = env!("CHECKERS_SOURCE_SHA256");

/// The one list of cases: each id with its checker's module. [`CHECKERS`] and [`CASE_IDS`]
/// are made from it, and every count of cases the harness states is their length.
macro_rules! registry {
    ($(($id:literal, $module:ident)),* $(,)?) => {
        /// Every case's checker, in case order.
        pub static CHECKERS: [Checker; [$($id),*].len()] = [$(checker!($id, $module)),*];
        /// The case ids this harness checks, in order: its contract with a charter.
        pub const CASE_IDS: [&str; [$($id),*].len()] = [$($id),*];
    };
}

registry![
    ("E1", e01),
    ("E2", e02),
    ("E3", e03),
    ("E4", e04),
    ("E5", e05),
    ("E6", e06),
    ("E7", e07),
    ("E8", e08),
    ("E9", e09),
    ("E10", e10),
    ("E11", e11),
    ("E12", e12),
    ("E13", e13),
];

/// The cases as messages name their range: `E1 … E13`.
pub fn case_range() -> String {
    format!("{} … {}", CASE_IDS[0], CASE_IDS[CASE_IDS.len() - 1])
}

impl Checker {
    /// The digest of all the checker code this case runs: the crate's sources.
    pub fn source_sha256(&self) -> &'static str {
        SOURCE_SHA256
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    UnknownCase(String),
    UnknownVariant {
        case: String,
        variant: String,
        known: Vec<String>,
    },
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::UnknownCase(c) => {
                write!(f, "unknown case {c:?} (cases are {})", case_range())
            }
            CheckError::UnknownVariant {
                case,
                variant,
                known,
            } => {
                write!(
                    f,
                    "case {case} has no variant {variant:?} (variants: {})",
                    known.join(", ")
                )
            }
        }
    }
}
impl std::error::Error for CheckError {}

/// The canonical case id for `E8`, `e8` or `E08`.
pub fn normalize_case_id(id: &str) -> Option<&'static str> {
    let digits = id.strip_prefix(['E', 'e'])?;
    let n: usize = digits.parse().ok()?;
    CASE_IDS
        .get(n.checked_sub(1)?)
        .copied()
        .filter(|_| !digits.starts_with('+'))
}

pub fn checker_for(case: &str) -> Result<&'static Checker, CheckError> {
    let id = normalize_case_id(case).ok_or_else(|| CheckError::UnknownCase(case.to_string()))?;
    Ok(CHECKERS
        .iter()
        .find(|c| c.case == id)
        .expect("every case id has a checker"))
}

/// Check one transcript. An `error` transcript gets an inconclusive verdict, never pass or fail.
pub fn check(t: &Transcript, ctx: &CheckContext) -> Result<Verdict, CheckError> {
    read(t, ctx, true)
}

/// One reading of `t`; with `past_token`, also the reading past an end-of-turn token where the
/// model wrote on (never past it twice).
fn read(t: &Transcript, ctx: &CheckContext, past_token: bool) -> Result<Verdict, CheckError> {
    let checker = checker_for(&t.case)?;
    if !checker.variants.contains(&t.variant.as_str()) {
        return Err(CheckError::UnknownVariant {
            case: checker.case.to_string(),
            variant: t.variant.clone(),
            known: checker.variants.iter().map(|v| v.to_string()).collect(),
        });
    }
    let mut verdict = Verdict {
        case: checker.case.to_string(),
        variant: t.variant.clone(),
        checker_version: checker.version.to_string(),
        checker_source_sha256: checker.source_sha256().to_string(),
        pass: false,
        inconclusive: false,
        criteria: Vec::new(),
        final_figure: None,
        file: None,
    };
    if t.outcome == Outcome::Error {
        verdict.inconclusive = true;
        let why = t.error.as_deref().unwrap_or("no detail recorded");
        verdict.criteria.push(Criterion::new(
            "completed",
            false,
            format!("inconclusive: the episode did not finish ({why})"),
        ));
        return Ok(verdict);
    }
    let findings = (checker.check)(t, ctx);
    verdict.criteria.push(deliverable(t));
    verdict.criteria.extend(findings.criteria);
    verdict
        .criteria
        .extend(crate::claimed::check(checker.case, t));
    crate::understood::apply(checker.case, t, &mut verdict.criteria);
    crate::spans::record(t, &mut verdict.criteria);
    if let Some(whole) = past_token.then(|| past_end_of_turn(t)).flatten() {
        // The reply was read up to its end-of-turn token; what the model wrote on past it is a
        // leftover on one reading and part of the reply as sent on the other.
        let other = read(&whole, ctx, false)?;
        unsure_where_readings_differ(&mut verdict.criteria, &other.criteria);
    }
    verdict.pass = verdict.criteria.len() > 1 && verdict.criteria.iter().all(|c| c.pass);
    verdict.final_figure = findings.final_figure;
    Ok(verdict)
}

/// Every case first asks whether the reply does any work at all: a reply that is empty, a bare
/// "Done.", a refusal or the prompt echoed fails whatever else it leaves out. A refusal the
/// provider reported fails it by name, whatever its text says.
fn deliverable(t: &Transcript) -> Criterion {
    let refused = t.replies().filter_map(|m| m.refusal.as_ref()).last();
    let degenerate = match refused {
        Some(r) => Some(format!("the model refused: {}", r.describe())),
        None => crate::extract::degenerate::why_degenerate(t),
    };
    Criterion::new(
        "deliverable",
        degenerate.is_none(),
        degenerate.unwrap_or_else(|| {
            "the reply does work (not empty, a bare acknowledgement, a refusal or the prompt echoed)".into()
        }),
    )
}

/// Where the reading up to the end-of-turn token and the reading past it decide a criterion
/// differently, it is unsure, naming the token; one they decide alike stays decided.
fn unsure_where_readings_differ(criteria: &mut [Criterion], past: &[Criterion]) {
    for c in criteria.iter_mut().filter(|c| !c.unsure) {
        let differs = past
            .iter()
            .find(|o| o.name == c.name)
            .is_some_and(|o| o.pass != c.pass && !o.unsure);
        if differs {
            let (cut, on) = if c.pass {
                ("pass", "fail")
            } else {
                ("fail", "pass")
            };
            *c = Criterion::unsure(
                &c.name,
                format!(
                    "readings disagree: the reply ends at its end-of-turn token, as its template marks it ({cut}: {}), or it goes on past the token with what the model wrote there ({on})",
                    c.detail
                ),
            );
        }
    }
}

/// The transcript with every assistant message read past its end-of-turn token
/// ([`crate::extract::leftovers::past_end_of_turn`]), when any message has text there.
fn past_end_of_turn(t: &Transcript) -> Option<Transcript> {
    let mut whole = t.clone();
    let mut any = false;
    for m in whole
        .messages
        .iter_mut()
        .filter(|m| m.role == Role::Assistant)
    {
        if let Some(w) = crate::extract::leftovers::past_end_of_turn(&m.content) {
            m.content = w;
            any = true;
        }
    }
    any.then_some(whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_ids_are_accepted_in_every_spelling_the_contract_allows() {
        assert_eq!(normalize_case_id("e8"), Some("E8"));
        assert_eq!(normalize_case_id("E08"), Some("E8"));
        assert_eq!(normalize_case_id("E13"), Some("E13"));
        assert_eq!(normalize_case_id("E14"), None);
        assert_eq!(normalize_case_id("E0"), None);
        assert!(checker_for("E99").is_err());
    }

    #[test]
    fn every_checker_is_registered_under_its_own_case() {
        for (c, id) in CHECKERS.iter().zip(CASE_IDS) {
            assert_eq!(c.case, id);
            assert!(!c.variants.is_empty());
            assert_eq!(c.source_sha256().len(), 64);
        }
    }
}
