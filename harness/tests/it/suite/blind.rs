//! The blind lint corpus (harness/tests/lint/blind/): capsules and charter edits written and
//! labelled from the capsule definition and the charter alone, by someone who never read the
//! linter. Every case is linted as CI lints it (`lint capsule --strict`, `lint charter`; with a
//! base, the base committed in a fresh git repository, the edited file written over it and
//! `--base HEAD`), and the verdict (exit 0 = pass, exit 1 = fail) must be the label's.

use crate::common::{git_repo_at, harness, repo_root};
use std::path::{Path, PathBuf};

fn blind_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/blind")
}

/// Labels this test reads differently from the corpus, with the reason (none so far: a label
/// that contradicts the definition is argued here, never flipped in labels.toml).
const DISPUTED: &[(&str, &str, &str)] = &[];

/// Findings about this harness, not about the definitions: whether the harness has a checker
/// for each E-case the charter lists, and a case for each checker it has. The corpus was
/// written from the charter alone (a new E14 cannot have a checker here yet), so its labels
/// judge the versioning rules; these two rules are left out of the verdict, and every other
/// ERROR counts.
const HARNESS_RULES: [&str; 2] = [
    "charter/case-without-checker",
    "charter/checker-without-case",
];

pub(super) struct Case {
    pub(super) kind: String,
    pub(super) file: String,
    base: Option<String>,
    pub(super) expect: String,
}

pub(super) fn cases_in(dir: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(dir.join("labels.toml")).unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let s = |c: &toml::Value, k: &str| c.get(k).and_then(|v| v.as_str()).map(str::to_string);
    doc["case"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            kind: s(c, "kind").unwrap(),
            file: s(c, "file").unwrap(),
            base: s(c, "base"),
            expect: s(c, "expect").unwrap(),
        })
        .collect()
}

fn cases() -> Vec<Case> {
    cases_in(&blind_dir())
}

fn judge(case: &Case) -> Result<&'static str, String> {
    let o = lint_as_ci(&blind_dir(), case);
    let out = String::from_utf8_lossy(&o.stdout);
    let errors = out
        .lines()
        .filter(|l| l.contains(": ERROR ["))
        .filter(|l| !HARNESS_RULES.iter().any(|r| l.contains(&format!("[{r}]"))))
        .count();
    match o.status.code() {
        Some(0) => Ok("pass"),
        Some(1) if errors == 0 => Ok("pass"),
        Some(1) => Ok("fail"),
        // The linter could not judge the meaning and said so: not wrong, but counted.
        Some(3) => Ok("needs-reviewer"),
        other => Err(format!(
            "exit {other:?}\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
    }
}

/// One case of the corpus in `dir` linted as CI lints it: a charter edit over its base (the
/// seed charter unless it names one) committed in a fresh git repository, `lint charter --base
/// HEAD`; a capsule with `lint capsule --strict`, over its base when it has one.
pub(super) fn lint_as_ci(dir: &Path, case: &Case) -> std::process::Output {
    let edited = std::fs::read(dir.join(&case.file)).unwrap();
    let base = match (&case.kind[..], &case.base) {
        (_, Some(b)) => Some(std::fs::read(dir.join(b)).unwrap()),
        // A charter edit without its own base edits the seed charter (a byte-identical copy).
        ("charter", None) => Some(
            std::fs::read(repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md"))
                .unwrap(),
        ),
        _ => None,
    };
    let name = if case.kind == "charter" {
        "CHARTER.md"
    } else {
        "capsule.md"
    };
    let (tmp, file) = match &base {
        Some(b) => git_repo_at(name, b, &edited),
        None => {
            let tmp = tempfile::tempdir().unwrap();
            let file = tmp.path().join(name);
            std::fs::write(&file, &edited).unwrap();
            (tmp, file)
        }
    };
    let file = file.to_str().unwrap();
    let mut args = vec!["lint", &case.kind[..]];
    if case.kind == "capsule" {
        args.push("--strict");
    }
    if base.is_some() {
        args.extend(["--base", "HEAD"]);
    }
    args.push(file);
    harness(tmp.path(), &args, &[])
}

#[test]
fn every_blind_capsule_and_charter_edit_is_judged_as_its_label_says_or_needs_a_reviewer() {
    let cases = cases();
    assert!(cases.len() >= 100, "the corpus holds {} cases", cases.len());
    let (mut wrong, mut questions) = (Vec::new(), Vec::new());
    for case in &cases {
        let want = DISPUTED
            .iter()
            .find(|(f, _, _)| *f == case.file)
            .map_or(case.expect.as_str(), |(_, w, _)| w);
        match judge(case) {
            Ok(got) if got == want => {}
            Ok("needs-reviewer") => questions.push(case.file.clone()),
            Ok(got) => wrong.push(format!("{}: labelled {want}, judged {got}", case.file)),
            Err(e) => wrong.push(format!("{}: {e}", case.file)),
        }
    }
    eprintln!(
        "blind corpus: {} of {} judged as labelled, {} wrong, {} needing a reviewer: {questions:?}",
        cases.len() - wrong.len() - questions.len(),
        cases.len(),
        wrong.len(),
        questions.len()
    );
    // Needing a reviewer is for real ambiguity: under 3 % of the corpus.
    assert!(
        questions.len() * 100 < cases.len() * 3,
        "{} of {} need a reviewer: {questions:?}",
        questions.len(),
        cases.len()
    );
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
