//! Bad input, concurrency and faults, one table a class: no panic, no hang, no lost or mixed
//! runs, and exit codes that say what happened.

use crate::common;
use common::{
    example_charter, harness, merge, offline_run, repo_root, stderr, stdout, write_offline_manifest,
};
use std::path::Path;

fn manifest_with(extra_run: &str, model_extra: &str) -> String {
    let charter = example_charter();
    format!(
        "[charter]\nsource = {charter:?}\n\n[run]\n{extra_run}\n\n\
         [[models]]\nname = \"a\"\nrole = \"frontier\"\nprovider = \"scripted\"\nmodel = \"scripted/a-v1\"\nscript = \"compliant\"\n{model_extra}\n\n\
         [[models]]\nname = \"b\"\nrole = \"weakest\"\nprovider = \"scripted\"\nmodel = \"scripted/b-v1\"\nscript = \"naive\"\n"
    )
}

#[test]
fn every_bad_manifest_value_is_refused_at_load_naming_the_file_and_nothing_is_written() {
    let table: [(&str, &str, &str, &str); 11] = [
        ("trials = 1000000000", "", "trials", "billion trials"),
        ("trials = 0", "", "trials", "no trials"),
        (
            "",
            "max_concurrency = 9223372036854775807",
            "max_concurrency",
            "huge concurrency",
        ),
        (
            "test_timeout_secs = 0",
            "",
            "test_timeout_secs",
            "zero timeout",
        ),
        ("max_file_bytes = 0", "", "max_file_bytes", "zero cap"),
        (
            "",
            "decoding = { temperature = 5.0 }",
            "temperature",
            "per-model temperature",
        ),
        (
            "",
            "decoding = { max_tokens = 0 }",
            "max_tokens",
            "per-model max_tokens",
        ),
        (
            "",
            "price_input_per_mtok = -1.0",
            "price_input_per_mtok",
            "negative price",
        ),
        ("", "name = \"x\"", "duplicate key", "duplicate name key"),
        ("budget_usd = -5", "", "budget_usd", "negative budget"),
        ("max_steps = 100000", "", "max_steps", "huge max_steps"),
    ];
    for (run, model, needle, what) in table {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m.toml");
        std::fs::write(&m, manifest_with(run, model)).unwrap();
        let out = dir.path().join("out");
        let o = harness(
            &repo_root(),
            &[
                "run",
                "--matrix",
                m.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("m.toml"), "{what}: {}", stderr(&o));
        assert!(!out.join("run.json").exists(), "{what}: run.json written");
    }
    // Names that cannot name a results folder: too long, a NUL, a path.
    for name in [
        "x".repeat(300),
        "a\\u0000b".to_string(),
        "../up".to_string(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m.toml");
        std::fs::write(
            &m,
            manifest_with("", "").replacen("name = \"a\"", &format!("name = \"{name}\""), 1),
        )
        .unwrap();
        let o = harness(&repo_root(), &["run", "--matrix", m.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("name"), "{}", stderr(&o));
    }
    // A manifest that is not UTF-8 names the line.
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    let mut bytes = b"# one\n# two\n".to_vec();
    bytes.extend([0xff, 0xfe, b'\n']);
    std::fs::write(&m, bytes).unwrap();
    let o = harness(&repo_root(), &["run", "--matrix", m.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 3"), "{}", stderr(&o));
}

#[test]
fn the_walker_survives_symlink_loops_fifos_and_one_file_named_three_ways() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(
        &run,
        &[
            "--case",
            "E1",
            "--model",
            "scripted-compliant",
            "--trials",
            "1",
        ],
    );
    let unit = run.join("transcripts/scripted-compliant/E1-default");
    std::os::unix::fs::symlink(".", unit.join("loop1")).unwrap();
    std::os::unix::fs::symlink("..", unit.join("loop2")).unwrap();
    let fifo = unit.join("trial-9.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let started = std::time::Instant::now();
    let o = harness(
        &repo_root(),
        &["check", "--json", run.to_str().unwrap()],
        &[],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let verdicts = stdout(&o).lines().count();
    assert_eq!(verdicts, 1, "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let file = unit.join("trial-1.json");
    let abs = file.to_str().unwrap().to_string();
    let o = harness(
        &unit,
        &["check", "--json", "trial-1.json", "./trial-1.json", &abs],
        &[],
    );
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
}

#[test]
fn two_runs_started_together_in_one_folder_never_both_run() {
    for i in 0..40 {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("R");
        let spawn = || {
            std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
                .args([
                    "run",
                    "--matrix",
                    "manifests/offline.toml",
                    "--case",
                    "E1",
                    "--trials",
                    "1",
                    "--out",
                ])
                .arg(&out)
                .current_dir(repo_root())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let accepted = [&a, &b]
            .iter()
            .filter(|o| o.status.code() != Some(2))
            .count();
        assert_eq!(accepted, 1, "pair {i}: {} / {}", stderr(&a), stderr(&b));
        let refused = if a.status.code() == Some(2) { &a } else { &b };
        let msg = stderr(refused);
        assert!(
            msg.contains("is running in this folder") || msg.contains("already holds files"),
            "pair {i}: {msg}"
        );
    }
}

#[test]
fn resume_reloads_its_manifest_and_refuses_another() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(&run, &["--case", "E1"]);
    // --resume alone: the recorded manifest.
    let o = harness(
        &repo_root(),
        &["run", "--resume", run.to_str().unwrap()],
        &[],
    );
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert!(stderr(&o).contains("already completed"), "{}", stderr(&o));
    // Another manifest (other models) with the same charter: refused.
    let m = tmp.path().join("other.toml");
    write_offline_manifest(
        &m,
        &[("name = \"scripted-naive\"", "name = \"someone-else\"")],
    );
    let o = harness(
        &repo_root(),
        &[
            "run",
            "--matrix",
            m.to_str().unwrap(),
            "--resume",
            run.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("other models"), "{}", stderr(&o));
}

#[test]
fn transcripts_are_validated_before_any_checker_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let base = serde_json::json!({
        "case": "E1", "variant": "default", "seeded": 2,
        "messages": [{"role": "system", "content": "x"}, {"role": "user", "content": "y"},
                     {"role": "assistant", "content": "25%"}]
    });
    let table: [(&str, serde_json::Value, &str); 5] = [
        (
            "evil format",
            serde_json::json!({"format": "evil/transcript/v99"}),
            "format",
        ),
        (
            "future format",
            serde_json::json!({"format": "charter-harness/transcript/v2"}),
            "v2 is newer",
        ),
        (
            "seeded past the end",
            serde_json::json!({"seeded": 40}),
            "seeded",
        ),
        (
            "workspace null on a workspace case",
            serde_json::json!({"case": "E9", "workspace": null}),
            "workspace",
        ),
        (
            "tool result without id",
            serde_json::json!({"messages": [{"role": "tool", "content": "x"}], "seeded": 0}),
            "tool_call_id",
        ),
    ];
    for (what, patch, needle) in table {
        let mut t = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            t[k] = v.clone();
        }
        let f = tmp.path().join("t.json");
        std::fs::write(&f, t.to_string()).unwrap();
        let o = harness(&repo_root(), &["check", f.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stdout(&o));
        assert!(stderr(&o).contains(needle), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("t.json"), "{what}: {}", stderr(&o));
    }
}

#[test]
fn exit_codes_tell_the_harness_failing_from_the_gate_failing() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    offline_run(&run, &["--case", "E1"]);
    // A report that cannot be written: exit 4, and the verdict was printed first.
    std::fs::remove_file(run.join("report.html")).unwrap();
    std::fs::create_dir(run.join("report.html")).unwrap();
    std::fs::write(run.join("report.html/x"), "").unwrap();
    let o = harness(&repo_root(), &["gate", run.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stdout(&o).contains("Gate:"), "{}", stdout(&o));
    // merge R R: refused, and M is not left behind.
    let m = tmp.path().join("M");
    let other = tmp.path().join("run2");
    offline_run(&other, &["--case", "E1"]);
    let o = merge(&[&other, &other], &m);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!m.exists(), "merge left {} behind", m.display());
    // A closed stdout ends quietly.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} check --json {} | head -1 >/dev/null",
            env!("CARGO_BIN_EXE_harness"),
            other.display()
        ))
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn the_folders_of_a_run_that_died_are_removed_at_the_next_start() {
    let root = if Path::new("/dev/shm").is_dir() {
        Path::new("/dev/shm").to_path_buf()
    } else {
        std::env::temp_dir()
    };
    // A pid that cannot be alive (beyond pid_max's ceiling).
    let stale = root.join("charter-harness-p4194399-test");
    std::fs::create_dir_all(stale.join("inner")).unwrap();
    let live = root.join(format!("charter-harness-p{}-test", std::process::id()));
    std::fs::create_dir_all(&live).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    offline_run(&tmp.path().join("run"), &["--case", "E1", "--trials", "1"]);
    assert!(!stale.exists(), "the dead run's folder is still there");
    assert!(live.exists(), "a live process's folder was removed");
    std::fs::remove_dir_all(&live).unwrap();
}

#[test]
fn a_reply_of_numbers_four_times_longer_costs_about_four_times_the_work_to_check_not_sixteen() {
    // Before: E1 and E13 were quadratic (0.25 MB took 11.8 s in a release build). Absolute
    // times belong to the release benchmarks (docs/benchmarks.md); this guards the shape by the
    // readers' own count of their work (`checkers::work`), which a loaded machine does not
    // change: linear growth gives about 4x for 4x the text, quadratic 16x; the bound is 6x.
    let suite = harness::suite::Suite::load(&repo_root()).unwrap();
    let reply = |count: usize| -> String {
        (0u64..)
            .map(|i| format!("{} ", i * 7919 % 100_003))
            .take(count)
            .collect()
    };
    let (small, large) = (reply(15_000), reply(60_000));
    for case in ["E1", "E13", "E2", "E4"] {
        let c = suite.case(case).unwrap();
        let transcript = |text: &str| -> checkers::Transcript {
            serde_json::from_value(serde_json::json!({
                "case": case, "variant": "default", "seeded": 1,
                "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": text}]
            }))
            .unwrap()
        };
        let ctx = checkers::CheckContext {
            truth: &c.truth,
            core_invariants: None,
        };
        let work = |t: &checkers::Transcript| {
            let before = checkers::work::count();
            checkers::check(t, &ctx).unwrap();
            checkers::work::count() - before
        };
        let (w_small, w_large) = (work(&transcript(&small)), work(&transcript(&large)));
        assert!(w_small > 0, "{case}: no work counted");
        assert!(
            w_large <= w_small * 6,
            "{case}: {w_large} units of work for {} bytes against {w_small} for {} bytes",
            large.len(),
            small.len()
        );
    }
}

#[test]
fn a_merge_that_cannot_move_into_place_leaves_no_staging_folder_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let (s1, s2) = (tmp.path().join("s1"), tmp.path().join("s2"));
    for (dir, shard) in [(&s1, "1/2"), (&s2, "2/2")] {
        let o = offline_run(dir, &["--case", "E1", "--trials", "1", "--shard", shard]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    }
    // --out names a dangling link: no folder there, so the merge is built aside, and the
    // rename into place fails (a folder cannot replace a link).
    let out = tmp.path().join("merged");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &out).unwrap();
    let o = merge(&[&s1, &s2], &out);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("could not move the merged run into"),
        "{}",
        stderr(&o)
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".merge-"))
        .collect();
    assert!(left.is_empty(), "staging left beside --out: {left:?}");
}
