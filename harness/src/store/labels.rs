//! Labels that decide unsure verdicts. A checker that cannot tell (two readings disagree, a
//! figure cannot be attributed) says "unsure"; a person's label decides, and it lives committed
//! in the charter repository, `labels/labels.jsonl`, one JSON object a line, keyed by case,
//! variant, checker version and the sha256 of the reply, so a rerun in CI that meets the same
//! reply finds it. The manifest's `[run] unsure = "fail"` lets a team decide without people.

use crate::error::{Error, Result};
use crate::suite::manifest::UnsurePolicy;
use checkers::{Transcript, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where a charter repository keeps its deciding labels, from its root (the current folder).
pub const DECIDING_LABELS: &str = "labels/labels.jsonl";

/// One deciding label as a line of `labels/labels.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecidingLabel {
    pub case: String,
    pub variant: String,
    pub checker_version: String,
    /// sha256 of the reply ([`reply_sha256`]).
    pub reply_sha256: String,
    /// `pass` or `fail`.
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What a deciding label is found by: case, variant, checker version and [`reply_sha256`].
pub type LabelKey = (String, String, String, String);

/// The labels and the policy that decide unsure verdicts for a command.
#[derive(Debug, Default)]
pub struct Deciding {
    labels: HashMap<LabelKey, bool>,
    policy: UnsurePolicy,
    source: Option<PathBuf>,
}

impl Deciding {
    /// No labels, unsure stays unsure.
    pub fn none() -> Deciding {
        Deciding::default()
    }

    /// The labels in `file` (absent: none) under `policy`.
    pub fn load(file: &Path, policy: UnsurePolicy) -> Result<Deciding> {
        let mut labels = HashMap::new();
        for l in read(file)? {
            // A later line overrides an earlier one: a person changed their mind.
            let pass = l.label == "pass";
            labels.insert((l.case, l.variant, l.checker_version, l.reply_sha256), pass);
        }
        Ok(Deciding {
            labels,
            policy,
            source: Some(file.to_path_buf()),
        })
    }

    /// An unsure verdict decided by a label, or by the policy; any other verdict as it is.
    /// What decided it is written into each criterion it decided.
    pub fn apply(&self, t: &Transcript, v: &mut Verdict) {
        if !v.unsure() {
            return;
        }
        let (pass, why) = match (self.labels.get(&key_of(t, v)), self.policy) {
            (Some(&pass), _) => (
                pass,
                format!(
                    "decided by the label in {}",
                    self.source
                        .as_deref()
                        .map_or(DECIDING_LABELS.into(), |p| p.display().to_string())
                ),
            ),
            (None, UnsurePolicy::Fail) => {
                (false, "failed by the manifest's unsure = \"fail\"".into())
            }
            (None, UnsurePolicy::Label) => return,
        };
        for c in v.criteria.iter_mut().filter(|c| c.unsure) {
            c.unsure = false;
            c.pass = pass;
            c.detail = format!("{} — unsure; {why}", c.detail);
        }
        v.pass = v.criteria.iter().all(|c| c.pass);
    }
}

/// Every label in `file` in order (absent: none), each checked: a line that is not a label, or
/// a label neither "pass" nor "fail", is an error naming the file and the line.
fn read(file: &Path) -> Result<Vec<DecidingLabel>> {
    let text = match std::fs::symlink_metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        _ => crate::files::read::read_text(file, crate::files::read::Kind::Labels)?,
    };
    let mut out = Vec::new();
    // Tolerates lines run together (`{…}{…}`) by an older appender: read as a stream.
    let stream = serde_json::Deserializer::from_str(&text).into_iter::<DecidingLabel>();
    for (n, l) in stream.enumerate() {
        let l = l.map_err(|e| {
            Error::input(format!(
                "{}, line {}: {e} (each line is one label: case, variant, checker_version, reply_sha256, label)",
                file.display(),
                e.line()
            ))
        })?;
        if l.label != "pass" && l.label != "fail" {
            return Err(Error::input(format!(
                "{}: label {} is {:?}; want \"pass\" or \"fail\"",
                file.display(),
                n + 1,
                l.label
            )));
        }
        out.push(l);
    }
    Ok(out)
}

/// The labels in `file` keyed by a checker version that is no longer its case's current one
/// (or by a case no checker has), each with its place in the file (1-based) and the current
/// version. Labels are keyed by checker version because a new checker may read a reply
/// differently: these decide nothing now, and `harness label` names them.
pub fn stale(file: &Path) -> Result<Vec<(usize, DecidingLabel, Option<&'static str>)>> {
    Ok(read(file)?
        .into_iter()
        .enumerate()
        .filter_map(|(n, l)| {
            let now = checkers::checker_for(&l.case).ok().map(|c| c.version);
            (now != Some(l.checker_version.as_str())).then_some((n + 1, l, now))
        })
        .collect())
}

/// The lines `harness label` prints for the stale labels of `file`: none when there are none.
pub fn stale_report(file: &Path) -> Result<Vec<String>> {
    let stale = stale(file)?;
    if stale.is_empty() {
        return Ok(Vec::new());
    }
    let n = stale.len();
    let mut out = vec![format!(
        "{n} stale label{} in {}: keyed by a checker version that is no longer current, {} no verdict (label the replies again if a check meets them unsure):",
        if n == 1 { "" } else { "s" },
        file.display(),
        if n == 1 { "it decides" } else { "they decide" }
    )];
    for (at, l, now) in stale {
        let now = now.map_or("no such case".to_string(), |v| format!("now {v}"));
        out.push(format!(
            "  label {at}: {}/{} checker {} ({now}), reply {}, {}",
            l.case,
            l.variant,
            l.checker_version,
            l.reply_sha256.get(..12).unwrap_or(&l.reply_sha256),
            l.label
        ));
    }
    Ok(out)
}

/// sha256 of the reply a verdict judged: every message after the seeded prefix (the model's
/// turns, its tool calls and their results), one JSON value a message, so the same reply gets
/// the same label in any run and a different one never does.
pub fn reply_sha256(t: &Transcript) -> String {
    let mut h = Sha256::new();
    for m in t.episode() {
        let calls = serde_json::to_string(&m.tool_calls).unwrap_or_default();
        h.update(format!("{:?}\u{0}{}\u{0}{calls}\u{0}", m.role, m.content).as_bytes());
    }
    format!("{:x}", h.finalize())
}

/// The longest note a label keeps, in bytes: a note says why, it is no place for a document.
pub const MAX_NOTE_BYTES: usize = 4096;

/// A label's note within [`MAX_NOTE_BYTES`], else refused before anything is written.
pub fn check_note(note: Option<&str>) -> Result<()> {
    match note {
        Some(n) if n.len() > MAX_NOTE_BYTES => Err(Error::input(format!(
            "--note is {} bytes; a label's note holds at most {MAX_NOTE_BYTES} bytes (say why in a line or two)",
            n.len()
        ))),
        _ => Ok(()),
    }
}

/// Whether `adding` more bytes keep `file` within the labels file cap the readers hold it to;
/// refused with the file, the sizes and the setting named when they would not.
pub fn check_room(file: &Path, adding: u64) -> Result<()> {
    use crate::files::read::Kind;
    let now = std::fs::symlink_metadata(file).map_or(0, |m| m.len());
    let cap = Kind::Labels.limit();
    if now.saturating_add(adding) > cap {
        return Err(Error::input(format!(
            "{}: {now} bytes, and {adding} more would pass the {} cap of {cap} bytes that every reader holds it to; \
             nothing was written — start another file with --labels, or raise the cap with {}=BYTES",
            file.display(),
            Kind::Labels.name(),
            Kind::Labels.setting()
        )));
    }
    Ok(())
}

/// Deciding labels for `transcripts` (all `pass` or all `fail`), appended to `file`: each keyed
/// by the transcript's case and variant, the current checker's version for its case, and its
/// reply. The number written.
pub fn decide(
    transcripts: &[PathBuf],
    pass: bool,
    note: Option<&str>,
    file: &Path,
) -> Result<usize> {
    check_note(note)?;
    let mut labels = Vec::new();
    for path in transcripts {
        let t = crate::store::read_transcript(path)?;
        let checker = checkers::checker_for(&t.case)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        labels.push(DecidingLabel {
            case: checker.case.to_string(),
            variant: t.variant.clone(),
            checker_version: checker.version.to_string(),
            reply_sha256: reply_sha256(&t),
            label: if pass { "pass" } else { "fail" }.into(),
            note: note.map(str::to_string),
        });
    }
    append(file, &labels)?;
    Ok(labels.len())
}

/// The key of the label that would decide `v`, the verdict of `t`.
pub fn key_of(t: &Transcript, v: &Verdict) -> LabelKey {
    (
        v.case.clone(),
        v.variant.clone(),
        v.checker_version.clone(),
        reply_sha256(t),
    )
}

/// The command that decides an unsure trial, as printed beside it: a line that runs as shown
/// (it labels the reply pass; `--fail` in place of `--pass` labels it fail).
pub fn label_command(transcript: &Path) -> String {
    let path = crate::suite::embedded::shown(transcript);
    format!(
        "harness label --decide --pass {}  # or --fail",
        crate::output::shell_word(&path)
    )
}

/// Unsure trials grouped by the label that decides them (the same reply under the same
/// checker version takes one label, whatever the model or trial), in first-seen order. An item
/// without a key (its transcript could not be read) stands alone.
pub fn by_label<T>(items: impl IntoIterator<Item = (Option<LabelKey>, T)>) -> Vec<Vec<T>> {
    let mut groups: Vec<Vec<T>> = Vec::new();
    let mut index: HashMap<LabelKey, usize> = HashMap::new();
    for (key, item) in items {
        match key {
            Some(k) if index.contains_key(&k) => groups[index[&k]].push(item),
            Some(k) => {
                index.insert(k, groups.len());
                groups.push(vec![item]);
            }
            None => groups.push(vec![item]),
        }
    }
    groups
}

/// Trials named for a person, one unit's trials together:
/// `big E1/default trials 1, 2, 3; small E1/default trial 1`.
pub fn trial_names<'a>(
    trials: impl IntoIterator<Item = (&'a str, &'a str, &'a str, u32)>,
) -> String {
    let mut units: Vec<(String, Vec<String>)> = Vec::new();
    for (model, case, variant, trial) in trials {
        let unit = format!("{model} {case}/{variant}");
        match units.last_mut() {
            Some((u, ts)) if *u == unit => ts.push(trial.to_string()),
            _ => units.push((unit, vec![trial.to_string()])),
        }
    }
    units
        .iter()
        .map(|(u, ts)| {
            let s = if ts.len() == 1 { "" } else { "s" };
            format!("{u} trial{s} {}", ts.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Append deciding labels to `file`, each on a line of its own (a file whose last line has no
/// newline gets one first), never through a link; only to a file the readers read now and
/// will read after it (every line a label, within the cap).
pub fn append(file: &Path, labels: &[DecidingLabel]) -> Result<()> {
    use std::io::{Read, Seek, Write};
    let mut lines = String::new();
    for l in labels {
        lines.push_str(&serde_json::to_string(l).map_err(|e| Error::Internal(e.to_string()))?);
        lines.push('\n');
    }
    // A link is refused by the opener below, naming it; what it points at is never read.
    let there = std::fs::symlink_metadata(file);
    if there.is_ok_and(|m| !m.file_type().is_symlink()) {
        Deciding::load(file, UnsurePolicy::Label)?;
        check_room(file, lines.len() as u64 + 1)?;
    }
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let mut f = crate::files::open_no_follow(
        file,
        std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true),
    )?;
    let mut text = String::new();
    let len = f
        .seek(std::io::SeekFrom::End(0))
        .map_err(|e| Error::io(file, e))?;
    if len > 0 {
        f.seek(std::io::SeekFrom::End(-1))
            .map_err(|e| Error::io(file, e))?;
        f.read_to_string(&mut text)
            .map_err(|e| Error::io(file, e))?;
    }
    let mut out = if len > 0 && text != "\n" {
        "\n".to_string()
    } else {
        String::new()
    };
    out.push_str(&lines);
    f.write_all(out.as_bytes()).map_err(|e| Error::io(file, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers::{Criterion, Message, Role};

    fn unsure_verdict() -> Verdict {
        let mut v: Verdict = serde_json::from_value(serde_json::json!({
            "case": "E1", "variant": "default", "checker_version": "9.9.9",
            "checker_source_sha256": "x", "criteria": [], "pass": false}))
        .unwrap();
        v.criteria = vec![
            Criterion::new("deliverable", true, "a reply"),
            Criterion::unsure("final-figure", "two figures conclude"),
        ];
        v
    }

    fn transcript(reply: &str) -> Transcript {
        Transcript::new(
            "E1",
            "default",
            "m",
            0,
            vec![Message::new(Role::Assistant, reply)],
        )
    }

    #[test]
    fn a_label_for_the_same_reply_and_checker_version_decides_and_nothing_else_does() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("labels/labels.jsonl");
        let t = transcript("25% or 20%");
        let label = DecidingLabel {
            case: "E1".into(),
            variant: "default".into(),
            checker_version: "9.9.9".into(),
            reply_sha256: reply_sha256(&t),
            label: "pass".into(),
            note: None,
        };
        append(&file, std::slice::from_ref(&label)).unwrap();
        let d = Deciding::load(&file, UnsurePolicy::Label).unwrap();
        let mut v = unsure_verdict();
        d.apply(&t, &mut v);
        assert!(v.pass && !v.unsure(), "{v:?}");
        // Another reply, or another checker version, is not decided by it.
        let mut v = unsure_verdict();
        d.apply(&transcript("25% or 20%!"), &mut v);
        assert!(v.unsure());
        let mut v = unsure_verdict();
        v.checker_version = "9.9.10".into();
        d.apply(&t, &mut v);
        assert!(v.unsure());
    }

    #[test]
    fn the_fail_policy_decides_an_unlabelled_unsure_verdict_as_a_fail() {
        let d = Deciding {
            policy: UnsurePolicy::Fail,
            ..Deciding::none()
        };
        let mut v = unsure_verdict();
        d.apply(&transcript("x"), &mut v);
        assert!(!v.pass && !v.unsure());
        assert!(v.criteria[1].detail.contains("unsure = \"fail\""));
    }

    #[test]
    fn an_append_after_a_last_line_without_newline_starts_a_new_line_and_old_joined_lines_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("labels.jsonl");
        let one = r#"{"case":"E1","variant":"default","checker_version":"1","reply_sha256":"a","label":"pass"}"#;
        std::fs::write(&file, format!("{one}{one}")).unwrap();
        let l: DecidingLabel = serde_json::from_str(one).unwrap();
        append(&file, &[l]).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert_eq!(
            Deciding::load(&file, UnsurePolicy::Label)
                .unwrap()
                .labels
                .len(),
            1
        );
    }

    #[test]
    fn labels_of_an_old_checker_version_or_an_unknown_case_are_stale_and_named_the_current_are_not()
    {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("labels.jsonl");
        let now = checkers::checker_for("E1").unwrap().version;
        let label = |case: &str, version: &str| DecidingLabel {
            case: case.into(),
            variant: "default".into(),
            checker_version: version.into(),
            reply_sha256: "53db0edcd54faa8abb20".into(),
            label: "fail".into(),
            note: None,
        };
        let labels = [
            label("E1", now),
            label("E1", "0.0.1"),
            label("E99", "1.0.0"),
        ];
        append(&file, &labels).unwrap();
        let found: Vec<(usize, String)> = stale(&file)
            .unwrap()
            .into_iter()
            .map(|(at, l, _)| (at, l.checker_version))
            .collect();
        assert_eq!(found, [(2, "0.0.1".into()), (3, "1.0.0".into())]);
        let lines = stale_report(&file).unwrap();
        assert!(lines[0].starts_with("2 stale labels in "), "{lines:?}");
        assert_eq!(
            lines[1],
            format!("  label 2: E1/default checker 0.0.1 (now {now}), reply 53db0edcd54f, fail")
        );
        assert!(lines[2].contains("E99/default checker 1.0.0 (no such case)"));
        // A file of current labels, or none at all, names nothing.
        let current = dir.path().join("current.jsonl");
        append(&current, &labels[..1]).unwrap();
        assert!(stale_report(&current).unwrap().is_empty());
        assert!(stale_report(&dir.path().join("absent.jsonl"))
            .unwrap()
            .is_empty());
    }
}
