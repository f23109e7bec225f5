//! Every file a suite names goes through the bounded reader and is named in its error (issue
//! 41, 8): a `reads-charter.toml` that is a FIFO, a link to /dev/zero or a folder is refused by
//! name, never taken for absent; a manifest's charter path that holds a NUL or names nothing is
//! refused naming the manifest's file and line.

use super::readers::bounded;
use crate::common::{repo_root, stderr};
use std::path::{Path, PathBuf};

/// A copy of the repository's suite (cases/ and fixtures/) in `dir`.
fn suite_copy(dir: &Path) -> PathBuf {
    let suite = dir.join("suite");
    std::fs::create_dir(&suite).unwrap();
    for part in ["cases", "fixtures"] {
        let ok = std::process::Command::new("cp")
            .args(["-a"])
            .arg(repo_root().join(part))
            .arg(&suite)
            .status()
            .unwrap();
        assert!(ok.success());
    }
    suite
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn a_reads_charter_file_that_is_a_fifo_a_link_to_dev_zero_or_a_folder_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_copy(dir.path());
    let marker = suite.join("fixtures/scripted/charter-reading/reads-charter.toml");
    type Plant<'a> = (&'a str, &'a dyn Fn(&Path));
    let plants: [Plant; 3] = [
        ("fifo", &|p| mkfifo(p)),
        ("dev-zero", &|p| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
        ("folder", &|p| std::fs::create_dir(p).unwrap()),
    ];
    for (what, plant) in plants {
        let _ = std::fs::remove_file(&marker);
        let _ = std::fs::remove_dir(&marker);
        plant(&marker);
        let out = dir.path().join(format!("out-{what}"));
        let args = [
            "run",
            "--matrix",
            "manifests/offline.toml",
            "--suite",
            suite.to_str().unwrap(),
            "--case",
            "E1",
            "--trials",
            "1",
            "--out",
            out.to_str().unwrap(),
        ];
        let o = bounded(&repo_root(), &args, &[]).unwrap_or_else(|| panic!("{what}: hung"));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains(&marker.display().to_string()),
            "{what}: the error must name {}: {err}",
            marker.display()
        );
    }
}

#[test]
fn a_charter_path_with_a_nul_or_naming_nothing_is_refused_at_the_manifests_line() {
    let dir = tempfile::tempdir().unwrap();
    for (what, source) in [
        ("nul", r#""exa\u0000mple.md""#),
        ("missing", r#""no-such-charter.md""#),
    ] {
        let manifest = dir.path().join(format!("{what}.toml"));
        std::fs::write(
            &manifest,
            format!(
                "# a manifest\n\n[charter]\nsource = {source}\n\n[[models]]\nname = \"a\"\nrole = \"frontier\"\nprovider = \"scripted\"\nmodel = \"scripted/a\"\nscript = \"compliant\"\n\n[[models]]\nname = \"b\"\nrole = \"weakest\"\nprovider = \"scripted\"\nmodel = \"scripted/b\"\nscript = \"naive\"\n"
            ),
        )
        .unwrap();
        let out = dir.path().join(format!("out-{what}"));
        let args = [
            "run",
            "--matrix",
            manifest.to_str().unwrap(),
            "--case",
            "E1",
            "--out",
            out.to_str().unwrap(),
        ];
        let o = bounded(&repo_root(), &args, &[]).unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains(&format!("{}, line 4", manifest.display())) && err.contains("charter"),
            "{what}: the error must name the manifest's file and line: {err}"
        );
    }
}
