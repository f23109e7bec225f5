//! A test that skips what it checks says so where `cargo test` shows it, not in captured output
//! that only `--nocapture` reveals (issue 34, problem 6).

use std::process::Command;

/// Skips, when asked to by the test below, as the browser and lint tests do.
#[test]
fn a_skipping_probe() {
    if std::env::var_os("CHARTER_HARNESS_SKIP_PROBE").is_some() {
        crate::common::skipped("the probe's check did not run (asked to skip)");
    }
}

#[test]
fn a_skipped_check_is_visible_in_cargo_tests_output_without_nocapture() {
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["house::skips::a_skipping_probe", "--exact"])
        .env("CHARTER_HARNESS_SKIP_PROBE", "1")
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{all}");
    assert!(
        all.contains(
            "SKIPPED in house::skips::a_skipping_probe: the probe's check did not run (asked to skip)"
        ),
        "{all}"
    );
}
