//! The suite inside the binary: runs, checks and gates from any folder, with no checkout beside
//! it, and refuses a transcript made with another case file.

use crate::common;
use common::{harness, stderr, stdout};

#[test]
fn the_offline_matrix_runs_and_is_checked_from_a_folder_with_no_checkout() {
    let cwd = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let env = [("CHARTER_HARNESS_CACHE", cache.path().to_str().unwrap())];
    let o = harness(
        cwd.path(),
        &[
            "run", "--matrix", "offline", "--case", "E1", "--trials", "1",
        ],
        &env,
    );
    // scripted-naive fails E1: the gate fails, and the run folder is in the current folder.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let results = cwd.path().join("results");
    let run = std::fs::read_dir(&results)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(run.join("run.json").is_file());

    let elsewhere = tempfile::tempdir().unwrap();
    let o = harness(elsewhere.path(), &["check", run.to_str().unwrap()], &env);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains(" pass, "), "{}", stdout(&o));
    let o = harness(elsewhere.path(), &["gate", run.to_str().unwrap()], &env);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    // A transcript made with another E1.toml is refused, naming the file.
    let file = run.join("transcripts/scripted-compliant/E1-default/trial-1.json");
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(t["case_sha256"].is_string());
    t["case_sha256"] = serde_json::json!("0".repeat(64));
    std::fs::write(&file, serde_json::to_string(&t).unwrap()).unwrap();
    for cmd in ["check", "show", "gate"] {
        let o = harness(elsewhere.path(), &[cmd, run.to_str().unwrap()], &env);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("made with a different cases/E1.toml"),
            "{cmd}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_suite_cache_folder_that_cannot_be_replaced_leaves_no_unpacked_copy_beside_it() {
    let cwd = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let env = [("CHARTER_HARNESS_CACHE", cache.path().to_str().unwrap())];
    let o = harness(cwd.path(), &["cases"], &env);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let suite = std::fs::read_dir(cache.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("suite-")
        })
        .expect("the unpacked suite");
    // Damaged: its cases/ gone, so it is unpacked again, and cannot be renamed over it.
    std::fs::remove_dir_all(suite.join("cases")).unwrap();
    let o = harness(cwd.path(), &["cases"], &env);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("could not move the unpacked suite to"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(cache.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".suite-"))
        .collect();
    assert!(
        left.is_empty(),
        "unpacked copies left in the cache: {left:?}"
    );
}
