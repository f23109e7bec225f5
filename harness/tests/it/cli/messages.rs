//! Messages a person can act on: ids listed, comma lists, did-you-mean, not-a-run-folder,
//! every unset key at once, plurals, and keys from a .env file.

use crate::common;
use common::{
    example_charter, harness, offline_run, repo_root, stderr, stdout, unreachable_models,
};

fn run_err(args: &[&str]) -> String {
    let o = harness(&repo_root(), args, &[]);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    stderr(&o)
}

#[test]
fn filters_and_ids_name_what_exists_and_suggest_the_nearest() {
    let m = ["run", "--matrix", "manifests/offline.toml"];
    fn with<'a>(m: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [m, extra].concat()
    }
    assert!(run_err(&with(&m, &["--case", "E8", "--variant", "c"]))
        .contains("--variant c: no selected case has it (E8 has variants A, B)"));
    assert!(run_err(&with(&m, &["--case", "E88"])).contains("did you mean \"E8\"?"));
    assert!(run_err(&with(&m, &["--model", "scripted-complaint"]))
        .contains("did you mean \"scripted-compliant\"?"));
    // Comma lists and lower-case variants are accepted.
    let tmp = tempfile::tempdir().unwrap();
    let o = offline_run(
        &tmp.path().join("r"),
        &[
            "--case",
            "E8,E9",
            "--variant",
            "a,default",
            "--model",
            "scripted-compliant",
            "--trials",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "PARTIAL: 2 of {} units",
            crate::common::counts::Counts::get().offline_units()
        )),
        "{}",
        stdout(&o)
    );
    // A typo in a manifest key is named with its nearest key.
    let bad = tmp.path().join("typo.toml");
    std::fs::write(&bad, "[charter]\nsource = \"x\"\n[run]\nmax_step = 3\n").unwrap();
    let err = run_err(&["run", "--matrix", bad.to_str().unwrap()]);
    assert!(
        err.contains("line 4") && err.contains("did you mean \"max_steps\"?"),
        "{err}"
    );
    // A folder that is not a run says so and names the runs inside it.
    let err = run_err(&["gate", tmp.path().to_str().unwrap()]);
    assert!(
        err.contains("not a run folder (no run.json)") && err.contains("/r"),
        "{err}"
    );
    // One unit: no plural.
    let o = offline_run(
        &tmp.path().join("one"),
        &[
            "--case",
            "E1",
            "--model",
            "scripted-compliant",
            "--trials",
            "1",
        ],
    );
    assert!(stdout(&o).contains("1 unit: 1 pass"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("3 episodes") || stderr(&o).contains("1 episode,"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_unset_key_is_named_at_once_and_a_dot_env_supplies_them() {
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("m.toml");
    std::fs::write(
        &m,
        unreachable_models(&example_charter(), ["CH_KEY_ONE", "CH_KEY_TWO"]),
    )
    .unwrap();
    let root = repo_root();
    let args = [
        "run",
        "--matrix",
        m.to_str().unwrap(),
        "--suite",
        root.to_str().unwrap(),
        "--case",
        "E1",
    ];
    let o = harness(tmp.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("$CH_KEY_ONE") && err.contains("$CH_KEY_TWO"),
        "{err}"
    );
    // The same keys from ./.env: the run goes on (and ends undecided: nothing listens there).
    std::fs::write(
        tmp.path().join(".env"),
        "CH_KEY_ONE=sk-dotenv-aaaaaaaaaaaa\nCH_KEY_TWO=sk-dotenv-bbbbbbbbbbbb\n",
    )
    .unwrap();
    let o = harness(tmp.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!out.contains("sk-dotenv-aaaaaaaaaaaa"));
    for f in common::files_under(&tmp.path().join("results")) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(
            !text.contains("sk-dotenv"),
            "{} holds a key from .env",
            f.display()
        );
    }
}
