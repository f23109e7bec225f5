//! The label writer keeps the labels file readable (issue 41, 7): `label` and `label --decide`
//! check what the readers check (the 64 MiB cap, the line form, a bounded note) before they
//! append, and refuse with the file named, leaving it as it was.

use crate::common;
use common::{harness, offline_run, stderr};
use std::path::{Path, PathBuf};

/// A finished offline E1 run in `dir` and one of its transcripts.
fn a_transcript(dir: &Path) -> PathBuf {
    let run = dir.join("run");
    let o = offline_run(&run, &["--case", "E1", "--trials", "1"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    run.join("transcripts/scripted-compliant/E1-default/trial-1.json")
}

/// `harness label T --pass` (with `--decide` when `decide`) into `labels`, in `cwd`.
fn label(
    cwd: &Path,
    t: &Path,
    labels: &Path,
    decide: bool,
    extra: &[&str],
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut args = vec![
        "label",
        t.to_str().unwrap(),
        "--pass",
        "--labels",
        labels.to_str().unwrap(),
    ];
    if decide {
        args.push("--decide");
    }
    args.extend(extra);
    harness(cwd, &args, env)
}

fn assert_refused(o: &std::process::Output, file: &Path, want: &str, before: &[u8]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&file.display().to_string()) && err.contains(want),
        "wants {want:?}: {err}"
    );
    assert_eq!(
        std::fs::read(file).unwrap(),
        before,
        "the labels file was changed"
    );
}

#[test]
fn both_label_writers_refuse_to_append_to_a_file_the_readers_refuse_or_past_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let t = a_transcript(dir.path());
    for decide in [false, true] {
        let file = dir.path().join(format!("bad-{decide}.jsonl"));
        // A line the readers reject: after it, run, gate, check and show would stop.
        let bad = b"{\"case\": \"E1\"\nnot a label\n".to_vec();
        std::fs::write(&file, &bad).unwrap();
        let o = label(dir.path(), &t, &file, decide, &[], &[]);
        assert_refused(&o, &file, "line", &bad);

        // A file the next label would take past the cap.
        let file = dir.path().join(format!("full-{decide}.jsonl"));
        std::fs::write(&file, "").unwrap();
        let o = label(dir.path(), &t, &file, decide, &[], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let one = std::fs::read(&file).unwrap();
        let cap = (one.len() + one.len() / 2).to_string();
        let o = label(
            dir.path(),
            &t,
            &file,
            decide,
            &[],
            &[("HARNESS_MAX_LABELS_BYTES", &cap)],
        );
        assert_refused(&o, &file, "HARNESS_MAX_LABELS_BYTES", &one);
    }
}

#[test]
fn a_label_note_past_its_bound_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let t = a_transcript(dir.path());
    let note = "n".repeat(64 << 10);
    for decide in [false, true] {
        let file = dir.path().join(format!("notes-{decide}.jsonl"));
        std::fs::write(&file, "").unwrap();
        let o = label(dir.path(), &t, &file, decide, &["--note", &note], &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}", &err[..err.len().min(500)]);
        assert!(
            err.contains("--note") && err.contains("bytes"),
            "{}",
            &err[..err.len().min(500)]
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            b"",
            "the labels file was changed"
        );
        let o = label(
            dir.path(),
            &t,
            &file,
            decide,
            &["--note", "short and clear"],
            &[],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}
