//! Bad input stops a run before any model is called: exit 2, a message naming the file and the
//! line or variable, and nothing written to results.

use crate::common;

use common::{harness, offline_run, repo_root, stderr};
use std::path::Path;

const GOOD: &str = r#"
[charter]
source = "CHARTER"

[[models]]
name = "a"
role = "frontier"
provider = "scripted"
model = "scripted/compliant-v1"
script = "compliant"

[[models]]
name = "b"
role = "weakest"
provider = "scripted"
model = "scripted/naive-v1"
script = "naive"
"#;

/// Write `manifest` (with CHARTER replaced by the example charter's path) and run it.
fn run_manifest(manifest: &str, env: &[(&str, &str)]) -> (i32, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let charter = common::example_charter();
    let text = manifest.replace("CHARTER", charter.to_str().unwrap());
    let path = dir.path().join("m.toml");
    std::fs::write(&path, text).unwrap();
    let out = dir.path().join("out");
    let suite = repo_root();
    let o = harness(
        Path::new("/"),
        &[
            "run",
            "--matrix",
            path.to_str().unwrap(),
            "--suite",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        env,
    );
    (o.status.code().unwrap_or(-1), stderr(&o), out.exists())
}

#[test]
fn the_good_manifest_runs() {
    let (code, err, wrote) = run_manifest(GOOD, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(wrote);
}

#[test]
fn a_missing_weakest_role_is_named() {
    let (code, err, wrote) =
        run_manifest(&GOOD.replace("role = \"weakest\"", "role = \"other\""), &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("m.toml") && err.contains("no model has role = \"weakest\""),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn an_unknown_key_is_an_error_with_its_line() {
    let (code, err, wrote) = run_manifest(
        &GOOD.replace("script = \"naive\"", "script = \"naive\"\ntemprature = 0"),
        &[],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("m.toml, line 18") && err.contains("unknown field `temprature`"),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn a_wrong_type_is_an_error_with_its_line() {
    let (code, err, wrote) = run_manifest(&format!("{GOOD}\n[run]\ntrials = \"three\"\n"), &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("m.toml, line 20") && err.contains("invalid type"),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn a_duplicate_model_name_points_at_both_lines() {
    let (code, err, wrote) = run_manifest(&GOOD.replace("name = \"b\"", "name = \"a\""), &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("m.toml, line 13") && err.contains("duplicate") && err.contains("line 6"),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn an_unset_api_key_variable_is_named_and_its_value_never_shown() {
    let real = GOOD.replace(
        "provider = \"scripted\"\nmodel = \"scripted/naive-v1\"\nscript = \"naive\"",
        "provider = \"openai\"\nmodel = \"gpt-4o-mini-2024-07-18\"\napi_key_env = \"CH_TEST_OPENAI_KEY\"",
    );
    let (code, err, wrote) = run_manifest(&real, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("$CH_TEST_OPENAI_KEY") && err.contains("not set"),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn a_charter_without_the_runtime_marker_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let charter = dir.path().join("no-marker.md");
    std::fs::write(
        &charter,
        "# C\n\nVersion 1.0.0\n\n## Core Invariants\n\n1. Check.\n",
    )
    .unwrap();
    let (code, err, wrote) = run_manifest(
        &GOOD.replace("\"CHARTER\"", &format!("{:?}", charter.to_str().unwrap())),
        &[],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("no-marker.md") && err.contains("Runtime load ends here"),
        "{err}"
    );
    assert!(!wrote);
}

#[test]
fn an_existing_run_folder_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
    let o = offline_run(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already holds files"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("keep.txt")).unwrap(),
        "mine"
    );
}
