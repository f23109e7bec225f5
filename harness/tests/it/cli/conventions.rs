//! The conventions users expect (issue 42): one `CHARTER_HARNESS_*` prefix, arguments that are
//! not UTF-8, logs, completions, `--json`, one colour path, quiet, dry runs, pipes.

use crate::common::{harness, repo_root, stderr};

#[test]
fn a_cap_set_under_its_old_harness_name_still_holds_and_says_the_new_name_once() {
    let old = [("HARNESS_MAX_MANIFEST_BYTES", "10")];
    let o = harness(
        &repo_root(),
        &["key", "--matrix", "manifests/offline.toml"],
        &old,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "the old name still caps:\n{err}");
    assert!(
        err.contains("CHARTER_HARNESS_MAX_MANIFEST_BYTES"),
        "the refusal names the new setting:\n{err}"
    );
    let warning = "warning: HARNESS_MAX_MANIFEST_BYTES is deprecated";
    assert_eq!(err.matches(warning).count(), 1, "{err}");
    assert!(
        err.contains("set CHARTER_HARNESS_MAX_MANIFEST_BYTES instead"),
        "{err}"
    );
    // The new name wins over the old, and then nothing is deprecated.
    let both = [
        ("HARNESS_MAX_MANIFEST_BYTES", "10"),
        ("CHARTER_HARNESS_MAX_MANIFEST_BYTES", "1000000"),
    ];
    let o = harness(
        &repo_root(),
        &["key", "--matrix", "manifests/offline.toml"],
        &both,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("deprecated"), "{}", stderr(&o));
}

/// Run `harness` with OS-string arguments (a path that is not UTF-8).
fn harness_os(cwd: &std::path::Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .expect("harness runs")
}

#[test]
fn a_path_that_is_not_utf8_gets_a_clear_error_or_the_right_result_from_every_command_never_a_panic()
{
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = std::ffi::OsStr::from_bytes(b"a\xffb");
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    // A path that does not exist: each command says so, naming it, and exits 2 (`lint
    // capsule` notes that a missing folder holds no capsules, as it does for any name).
    for (args, code) in [
        (vec![os("show"), bad], 2),
        (vec![os("check"), bad], 2),
        (vec![os("lint"), os("charter"), bad], 2),
        (vec![os("lint"), os("capsule"), bad], 0),
    ] {
        let o = harness_os(dir.path(), &args);
        let err = stderr(&o);
        assert_ne!(o.status.code(), Some(101), "{args:?} panicked:\n{err}");
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
        assert_eq!(o.status.code(), Some(code), "{args:?}:\n{err}");
        assert!(
            err.contains("a\u{fffd}b"),
            "{args:?} names the path:\n{err}"
        );
    }
    // A run folder whose name is not UTF-8 is written, and show and check read it back.
    let out = dir.path().join(bad);
    let run = harness_os(
        &repo_root(),
        &[
            os("run"),
            os("--matrix"),
            os("offline"),
            os("--case"),
            os("E1"),
            os("--trials"),
            os("1"),
            os("-o"),
            out.as_os_str(),
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(out.join("summary.json").is_file(), "{}", stderr(&run));
    for cmd in ["show", "check"] {
        let o = harness_os(&repo_root(), &[os(cmd), out.as_os_str()]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{cmd}: {}",
            stderr(&o)
        );
        assert!(!o.stdout.is_empty(), "{cmd} printed nothing");
    }
}
