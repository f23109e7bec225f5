//! Human labels and calibration: the loop that keeps checkers honest once real models run.
//!
//! `harness label` records a person's verdict for a stored transcript in a `labels.jsonl`
//! (beside the transcript, or a file named on the command line). `harness calibrate` re-checks
//! every labelled transcript — and every golden of a golden suite, whose `expect` is a label —
//! with the current checkers and reports agreement, false passes and false fails per case and
//! checker version, listing each disagreement with the criterion that decided it.

use crate::error::{Error, Result};
use crate::files::files_under;
use crate::store::read_transcript;
use crate::suite::Suite;
use checkers::golden::{self, Expect};
use checkers::{Transcript, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const LABELS_FILE: &str = "labels.jsonl";

/// One line of a labels file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The transcript, relative to the labels file's folder.
    pub transcript: String,
    /// `pass` or `fail`: what a careful reader of the charter decides.
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// sha256 of the transcript file when it was labelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_sha256: Option<String>,
}

fn sha256_file(path: &Path) -> Result<String> {
    let bytes = crate::files::read::read_bytes(path, crate::files::read::Kind::Transcript)?;
    Ok(format!("{:x}", Sha256::digest(bytes)))
}

/// Append a label for each transcript. `labels` names the labels file; by default each
/// transcript's own folder holds one. Every transcript is read first, so a bad path writes
/// nothing.
pub fn label(
    transcripts: &[PathBuf],
    pass: bool,
    note: Option<&str>,
    labels: Option<&Path>,
) -> Result<usize> {
    crate::store::labels::check_note(note)?;
    let mut lines: Vec<(PathBuf, Label)> = Vec::new();
    for t in transcripts {
        read_transcript(t)?;
        if let Some(f) = labels {
            refuse_non_labels(f)?;
        }
        let file = match labels {
            Some(f) => f.to_path_buf(),
            None => t.parent().unwrap_or(Path::new(".")).join(LABELS_FILE),
        };
        let base = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let rel = relative(t, base);
        lines.push((
            file,
            Label {
                transcript: rel,
                label: if pass { "pass" } else { "fail" }.into(),
                note: note.map(str::to_string),
                transcript_sha256: Some(sha256_file(t)?),
            },
        ));
    }
    check_targets(&lines)?;
    // Labels sit beside transcripts that may come from anywhere: never through a link. Every
    // file is opened before any is written, so a refused one writes nothing.
    let mut open: BTreeMap<&Path, std::fs::File> = BTreeMap::new();
    for (file, _) in &lines {
        if !open.contains_key(file.as_path()) {
            let f = crate::files::open_no_follow(
                file,
                std::fs::OpenOptions::new()
                    .read(true)
                    .create(true)
                    .append(true),
            )?;
            open.insert(file, f);
        }
    }
    for (file, l) in &lines {
        let line = serde_json::to_string(l).map_err(|e| Error::Internal(e.to_string()))?;
        if let Some(f) = open.get_mut(file.as_path()) {
            // A last line without its newline (written by hand or by another tool) would take
            // this label onto it: start on a line of its own.
            let lead = if ends_mid_line(f) { "\n" } else { "" };
            writeln!(f, "{lead}{line}").map_err(|e| Error::io(file, e))?;
        }
    }
    Ok(lines.len())
}

/// Every labels file about to be appended to is one the readers read now (every line a label)
/// and will read after (within the cap with its new lines), checked before any is written.
fn check_targets(lines: &[(PathBuf, Label)]) -> Result<()> {
    let mut adding: BTreeMap<&Path, u64> = BTreeMap::new();
    for (file, l) in lines {
        let line = serde_json::to_string(l).map_err(|e| Error::Internal(e.to_string()))?;
        *adding.entry(file.as_path()).or_default() += line.len() as u64 + 2;
    }
    for (file, more) in adding {
        // A link is refused by the opener, naming it; what it points at is never read.
        let there = file.symlink_metadata();
        if there.is_ok_and(|m| !m.file_type().is_symlink()) {
            let text = crate::files::read::read_text(file, crate::files::read::Kind::Labels)?;
            labels_in(file, &text)?;
            crate::store::labels::check_room(file, more)?;
        }
    }
    Ok(())
}

/// The labels of a labels file's text; a line that is not a label,
/// or a label neither pass nor fail, refused with the file and line.
fn labels_in(file: &Path, text: &str) -> Result<Vec<Label>> {
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let ls = parse_labels_line(line).map_err(|e| {
            Error::input(format!(
                "{}, line {}: not a label: {}",
                file.display(),
                n + 1,
                crate::error::one_line(&e.to_string())
            ))
        })?;
        for l in ls {
            if l.label != "pass" && l.label != "fail" {
                return Err(Error::input(format!(
                    "{}, line {}: label must be pass or fail, not {:?}",
                    file.display(),
                    n + 1,
                    crate::error::one_line(&l.label)
                )));
            }
            out.push(l);
        }
    }
    Ok(out)
}

/// Whether the open file's last byte is not a newline (an empty file is not).
fn ends_mid_line(f: &std::fs::File) -> bool {
    use std::os::unix::fs::FileExt;
    let len = f.metadata().map_or(0, |m| m.len());
    let mut last = [0u8; 1];
    len > 0 && f.read_at(&mut last, len - 1).is_ok() && last[0] != b'\n'
}

/// `label --labels FILE` appends to FILE: refuse one that is not a labels file (a transcript,
/// a run.json), so a slip of the argument cannot append into a transcript.
fn refuse_non_labels(file: &Path) -> Result<()> {
    if file.symlink_metadata().is_err() {
        return Ok(());
    }
    let text = crate::files::read::read_text(file, crate::files::read::Kind::Labels)?;
    let whole = serde_json::from_str::<serde_json::Value>(&text).ok();
    let format = whole
        .as_ref()
        .and_then(|v| v.get("format"))
        .and_then(|f| f.as_str())
        .unwrap_or_default();
    let labels_like = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|l| parse_labels_line(l).is_ok());
    if format.starts_with("charter-harness/") || !labels_like {
        let what = if format.is_empty() {
            "not a labels file (one JSON label per line)".to_string()
        } else {
            format!("a {format} file, not a labels file")
        };
        return Err(Error::input(format!(
            "{}: {what}; label appends only to a labels file — name another with --labels",
            file.display()
        )));
    }
    Ok(())
}

/// The labels on one line of a labels file: one, or several run together (`{…}{…}`) as older
/// harnesses appended them after a last line without its newline.
fn parse_labels_line(line: &str) -> std::result::Result<Vec<Label>, serde_json::Error> {
    serde_json::Deserializer::from_str(line)
        .into_iter::<Label>()
        .collect()
}

/// `path` relative to `base` when it lies under it, else absolute.
fn relative(path: &Path, base: &Path) -> String {
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (p, b) = (abs(path), abs(base));
    p.strip_prefix(&b)
        .map(|r| r.display().to_string())
        .unwrap_or_else(|_| p.display().to_string())
}

/// One labelled transcript re-checked.
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    /// Where it came from: a transcript path, or `golden-file#name`.
    pub source: String,
    pub case: String,
    pub variant: String,
    pub checker_version: String,
    pub label: String,
    pub verdict: String,
    /// The criterion that decided a disagreement (the first failed one on a false fail).
    pub deciding: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Judged {
    pub fn agrees(&self) -> bool {
        self.label == self.verdict
    }
}

fn judge(
    source: String,
    t: &Transcript,
    suite: &Suite,
    core: Option<&str>,
    label: &str,
    note: Option<String>,
) -> Result<Option<Judged>> {
    let case = suite
        .case(&t.case)
        .ok_or_else(|| Error::input(format!("{source}: unknown case {:?}", t.case)))?;
    let v: Verdict = crate::suite::case::recheck(t, case, core, &source)?;
    if v.inconclusive {
        return Ok(None);
    }
    let verdict = match (v.pass, v.unsure()) {
        (true, _) => "pass",
        (false, true) if label == "unsure" => "unsure",
        (false, _) => "fail",
    };
    let deciding = (label != verdict).then(|| match v.failed().next() {
        Some(c) => format!("{}: {}", c.name, c.detail),
        None => "every criterion passed".to_string(),
    });
    Ok(Some(Judged {
        source,
        case: v.case,
        variant: v.variant,
        checker_version: v.checker_version,
        label: label.to_string(),
        verdict: verdict.to_string(),
        deciding,
        note,
    }))
}

/// Every labelled transcript and golden under `dirs`, re-checked.
pub fn calibrate(dirs: &[PathBuf], suite: &Suite) -> Result<Vec<Judged>> {
    let files = files_under(dirs, |p| {
        p.file_name().is_some_and(|n| n == LABELS_FILE)
            || (p.extension().is_some_and(|x| x == "toml") && golden_case(p).is_some())
    })?;
    let mut out = Vec::new();
    for file in files {
        if let Some(case) = golden_case(&file) {
            let text = crate::files::read::read_text(&file, crate::files::read::Kind::Case)?;
            let stem = file.file_stem().unwrap_or_default().to_string_lossy();
            let goldens = golden::parse(&text, &stem)
                .map_err(|e| Error::input(format!("{}: {e}", file.display())))?;
            let core = crate::files::read::read_text(
                &file.with_file_name("core-invariants.md"),
                crate::files::read::Kind::Case,
            )
            .ok();
            for g in goldens {
                // "A careful reader could say either": agreement is an unsure verdict.
                let label = match g.expect {
                    Expect::Pass => "pass",
                    Expect::Fail => "fail",
                    Expect::Either => "unsure",
                };
                let source = format!("{}#{}", file.display(), g.name);
                let t = g.transcript(case);
                out.extend(judge(
                    source,
                    &t,
                    suite,
                    core.as_deref().map(str::trim),
                    label,
                    None,
                )?);
            }
            continue;
        }
        out.extend(judge_labels_file(&file, suite)?);
    }
    if out.is_empty() {
        return Err(Error::input(format!(
            "no labelled transcripts ({LABELS_FILE}) or goldens under {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(out)
}

/// The labels of one labels file, each transcript re-checked.
fn judge_labels_file(file: &Path, suite: &Suite) -> Result<Vec<Judged>> {
    let mut out = Vec::new();
    let text = crate::files::read::read_text(file, crate::files::read::Kind::Labels)?;
    let base = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    for l in labels_in(file, &text)? {
        let path = base.join(&l.transcript);
        let t = read_transcript(&path)?;
        let source = path.display().to_string();
        out.extend(judge(source, &t, suite, None, &l.label, l.note)?);
    }
    Ok(out)
}

/// A golden file sits in a folder named for its case (`golden/E4/styles.toml`).
fn golden_case(p: &Path) -> Option<&'static str> {
    let dir = p.parent()?.file_name()?.to_str()?;
    checkers::registry::normalize_case_id(dir).filter(|c| *c == dir)
}

/// Agreement per case and checker version.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Tally {
    pub labelled: usize,
    pub agree: usize,
    pub false_passes: usize,
    pub false_fails: usize,
}

pub fn tallies(judged: &[Judged]) -> BTreeMap<(String, String), Tally> {
    let mut out: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for j in judged {
        let key = (j.case.clone(), j.checker_version.clone());
        let t = out.entry(key).or_default();
        t.labelled += 1;
        match (j.label.as_str(), j.verdict.as_str()) {
            (l, v) if l == v => t.agree += 1,
            ("fail", "pass") => t.false_passes += 1,
            _ => t.false_fails += 1,
        }
    }
    out
}

fn percent(n: usize, of: usize) -> String {
    if of == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / of as f64)
    }
}

/// The human report: a table per case and checker version, then every disagreement.
pub fn render(judged: &[Judged]) -> String {
    let mut out = String::from("case  checker  labelled  agreement  false passes  false fails\n");
    let sort = |c: &str| checkers::CASE_IDS.iter().position(|x| *x == c);
    let mut rows: Vec<_> = tallies(judged).into_iter().collect();
    rows.sort_by_key(|((c, v), _)| (sort(c), v.clone()));
    for ((case, version), t) in &rows {
        out.push_str(&format!(
            "{case:<5} {version:<8} {:>8}  {:>9}  {:>12}  {:>11}\n",
            t.labelled,
            percent(t.agree, t.labelled),
            t.false_passes,
            t.false_fails
        ));
    }
    let agree = judged.iter().filter(|j| j.agrees()).count();
    out.push_str(&format!(
        "all   {:<8} {:>8}  {:>9}  {:>12}  {:>11}\n",
        "",
        judged.len(),
        percent(agree, judged.len()),
        judged
            .iter()
            .filter(|j| j.label == "fail" && j.verdict == "pass")
            .count(),
        judged
            .iter()
            .filter(|j| j.label == "pass" && j.verdict == "fail")
            .count(),
    ));
    let bad: Vec<&Judged> = judged.iter().filter(|j| !j.agrees()).collect();
    if !bad.is_empty() {
        out.push_str(&format!("\nDisagreements ({}):\n", bad.len()));
        for j in bad {
            out.push_str(&format!(
                "  {}/{} labelled {}, checker {} says {}: {}\n    {}\n",
                j.case,
                j.variant,
                j.label.to_uppercase(),
                j.checker_version,
                j.verdict.to_uppercase(),
                j.deciding.as_deref().unwrap_or(""),
                j.source
            ));
            if let Some(n) = &j.note {
                out.push_str(&format!("    note: {n}\n"));
            }
        }
    }
    out
}

/// What `harness calibrate` re-checks, and how it prints.
pub struct CalibrateOptions {
    /// Folders holding labels.jsonl files or golden files.
    pub dirs: Vec<PathBuf>,
    /// One JSON object per labelled transcript, then a summary object.
    pub json: bool,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
}

/// `harness calibrate`: re-check, print agreement and every disagreement; 0 on full
/// agreement, 1 on any disagreement.
pub fn run(opts: &CalibrateOptions) -> Result<u8> {
    let root = crate::suite::locate(opts.suite.as_deref())?;
    let suite = Suite::load(&root)?;
    let judged = calibrate(&opts.dirs, &suite)?;
    if opts.json {
        for j in &judged {
            crate::output::json::out_doc(crate::output::json::CALIBRATE, j);
        }
        let summary: Vec<_> = tallies(&judged)
            .into_iter()
            .map(|((case, version), t)| serde_json::json!({"case": case, "checker_version": version, "tally": t}))
            .collect();
        crate::output::json::out_doc(
            crate::output::json::CALIBRATE,
            &serde_json::json!({ "summary": summary }),
        );
    } else {
        // Reasons quote model text: no terminal escapes, no key values.
        out!("{}", render(&judged));
    }
    Ok(if judged.iter().all(|j| j.agrees()) {
        crate::exit::OK
    } else {
        crate::exit::GATE_FAILED
    })
}
