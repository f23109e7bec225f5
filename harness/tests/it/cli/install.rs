//! `scripts/install.sh` (issue 53, item 1): a charter author installs a release without Rust.
//! Each test builds a release archive as release.yml names it, serves it and its `.sha256`
//! from the loopback server, and runs the script against it as a user would.

use crate::common::repo_root;
use loopback::{LoopbackServer, Reply};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The release target the script picks on this machine (release.yml's names).
fn target() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "x86_64-unknown-linux-musl",
        ("linux", "aarch64") => "aarch64-unknown-linux-musl",
        ("macos", "aarch64") => "aarch64-apple-darwin",
        ("macos", "x86_64") => "x86_64-apple-darwin",
        other => panic!("no release target for {other:?}"),
    }
}

fn tag() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// `harness-TAG-TARGET.tar.gz` holding `binary` as `harness` (and a man/ folder, as a
/// release's does), made in `dir` with tar; its bytes and name.
fn release_archive(dir: &Path, binary: &Path) -> (Vec<u8>, String) {
    let name = format!("harness-{}-{}.tar.gz", tag(), target());
    let stage = dir.join("stage");
    std::fs::create_dir_all(stage.join("man")).unwrap();
    std::fs::copy(binary, stage.join("harness")).unwrap();
    std::fs::write(stage.join("man/harness.1"), ".TH harness 1\n").unwrap();
    let archive = dir.join(&name);
    let o = std::process::Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(&stage)
        .args(["harness", "man"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (std::fs::read(&archive).unwrap(), name)
}

/// This build's harness: what a release archive holds.
fn this_build() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_harness"))
}

/// A small stand-in for the binary, where a test is about what the script refuses (the debug
/// build is large to compress).
fn stand_in(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let f = dir.join("stand-in");
    std::fs::write(&f, "#!/bin/sh\necho stand-in\n").unwrap();
    f
}

/// A `.sha256` as release.yml writes it: `HASH  NAME`.
fn checksum_line(bytes: &[u8], name: &str) -> String {
    format!("{}  {name}\n", harness::suite::charter::sha256_hex(bytes))
}

/// A release server: `/releases/download/TAG/NAME` and `NAME.sha256`, 404 for anything else.
async fn serve(archive: Vec<u8>, name: String, sha256: String) -> LoopbackServer {
    let prefix = format!("/releases/download/{}/", tag());
    LoopbackServer::start(Arc::new(move |req, _| {
        let Some(file) = req.path.strip_prefix(&prefix) else {
            return Reply::raw(404, "Not Found");
        };
        if file == name {
            Reply::Stream {
                status: 200,
                chunk: archive.clone(),
                times: Some(1),
            }
        } else if file == format!("{name}.sha256") {
            Reply::raw(200, &sha256)
        } else {
            Reply::raw(404, "Not Found")
        }
    }))
    .await
}

/// `sh scripts/install.sh ARGS` with the releases at `server`, as a user runs it.
async fn install(server: &LoopbackServer, home: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg(repo_root().join("scripts/install.sh"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env(
            "CHARTER_HARNESS_RELEASES_URL",
            format!("{}/releases/download", server.url()),
        );
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_install_script_installs_a_release_whose_checksum_matches_and_it_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let (archive, name) = release_archive(tmp.path(), &this_build());
    let sha = checksum_line(&archive, &name);
    let server = serve(archive, name.clone(), sha).await;
    let to: PathBuf = tmp.path().join("bin");
    let o = install(&server, tmp.path(), &["--to", to.to_str().unwrap()]).await;
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("checksum verified"), "{err}");
    assert!(
        err.contains("is not on PATH"),
        "the folder is not on PATH here:\n{err}"
    );
    let installed = to.join("harness");
    let v = std::process::Command::new(&installed)
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        text(&v.stdout).trim(),
        format!("harness {}", env!("CARGO_PKG_VERSION"))
    );
    // Only the binary is installed, and nothing is left beside it.
    let left: Vec<String> = std::fs::read_dir(&to)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["harness"]);
    // It asked for exactly the archive for this machine and the checksum beside it.
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    let base = format!("/releases/download/{}/{name}", tag());
    assert_eq!(paths, [base.clone(), format!("{base}.sha256")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archive_whose_checksum_does_not_match_is_refused_and_nothing_is_installed() {
    let tmp = tempfile::tempdir().unwrap();
    let (archive, name) = release_archive(tmp.path(), &stand_in(tmp.path()));
    // The .sha256 of other bytes: the archive is not what the release published.
    let sha = checksum_line(b"the archive the release published", &name);
    let server = serve(archive, name, sha).await;
    let to = tmp.path().join("bin");
    let o = install(&server, tmp.path(), &["--to", to.to_str().unwrap()]).await;
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(err.contains("nothing was installed"), "{err}");
    assert!(!to.exists(), "the install folder was not even made");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_release_without_an_archive_or_a_checksum_installs_nothing_and_says_which() {
    let tmp = tempfile::tempdir().unwrap();
    let (archive, name) = release_archive(tmp.path(), &stand_in(tmp.path()));
    let sha = checksum_line(&archive, &name);
    let server = serve(archive, name, sha).await;
    let to = tmp.path().join("bin");
    // A release this server does not have.
    let o = install(
        &server,
        tmp.path(),
        &["--to", to.to_str().unwrap(), "--version", "v9.9.9"],
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("could not download"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stderr).contains("v9.9.9"), "{}", text(&o.stderr));
    assert!(!to.exists());
    // A .sha256 that holds no hash is no check at all.
    let again = tmp.path().join("again");
    let (archive, name) = release_archive(&again, &stand_in(&again));
    let server = serve(archive, name, "<html>rate limited</html>\n".into()).await;
    let o = install(&server, tmp.path(), &["--to", to.to_str().unwrap()]).await;
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("does not hold a SHA-256"),
        "{}",
        text(&o.stderr)
    );
    assert!(!to.exists());
}

#[test]
fn the_install_script_defaults_to_this_release_and_shellcheck_finds_nothing_in_it() {
    let script = std::fs::read_to_string(repo_root().join("scripts/install.sh")).unwrap();
    assert!(
        script.contains(&format!("\ndefault_version={}\n", tag())),
        "scripts/install.sh installs {} by default (the workspace version)",
        tag()
    );
    assert!(script.starts_with("#!/bin/sh\n"), "POSIX sh, not bash");
    let Some(shellcheck) = crate::common::required_tool("shellcheck", "apt-get install shellcheck")
    else {
        return;
    };
    let o = std::process::Command::new(shellcheck)
        .args(["-s", "sh"])
        .arg(repo_root().join("scripts/install.sh"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stdout));
}

#[test]
fn binstall_the_install_script_the_action_and_release_yml_name_one_archive() {
    let read = |p: &str| std::fs::read_to_string(repo_root().join(p)).unwrap();
    // release.yml makes harness-$TAG-$TARGET.tar.gz with its .sha256 beside it.
    let release = read(".github/workflows/release.yml");
    assert!(release.contains(r#"name="harness-$TAG-$TARGET.tar.gz""#));
    assert!(release.contains(r#"sha256sum "$name" > "$name.sha256""#));
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "aarch64-apple-darwin",
        "x86_64-apple-darwin",
    ] {
        assert!(release.contains(&format!("target: {target}")), "{target}");
        assert!(read("scripts/install.sh").contains(&format!("target={target}")));
    }
    assert!(read("scripts/install.sh").contains(r#"name="harness-$version-$target.tar.gz""#));
    assert!(read("action.yml").contains(r#"name="harness-$TAG-$TARGET.tar.gz""#));
    // cargo binstall's template, expanded, is the same archive at the project's releases.
    let manifest: toml::Table = read("harness/Cargo.toml").parse().unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let workspace: toml::Table = read("Cargo.toml").parse().unwrap();
    let repo = workspace["workspace"]["package"]["repository"]
        .as_str()
        .unwrap();
    let version = env!("CARGO_PKG_VERSION");
    let url = binstall["pkg-url"]
        .as_str()
        .unwrap()
        .replace("{ repo }", repo)
        .replace("{ version }", version)
        .replace("{ target }", "x86_64-unknown-linux-musl");
    assert_eq!(
        url,
        format!("{repo}/releases/download/v{version}/harness-v{version}-x86_64-unknown-linux-musl.tar.gz")
    );
    assert_eq!(
        binstall["bin-dir"].as_str(),
        Some("{ bin }{ binary-ext }"),
        "the binary is at the archive's root"
    );
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
}

#[test]
fn the_release_ships_a_man_page_for_every_command_help_lists_taken_from_the_cli() {
    let h = |args: &[&str]| crate::common::harness(&repo_root(), args, &[]);
    let listed = text(&h(&["man", "--list"]).stdout);
    let listed: Vec<&str> = listed.lines().collect();
    // `harness --help`'s command list, but clap's own `help`.
    let help = text(&h(&["--help"]).stdout);
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert_eq!(listed, commands);
    assert!(listed.contains(&"comment"), "{listed:?}");
    for cmd in &listed {
        let o = h(&["man", cmd]);
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        assert!(text(&o.stdout).starts_with(".ie"), "{cmd}: a roff page");
    }
    let release =
        std::fs::read_to_string(repo_root().join(".github/workflows/release.yml")).unwrap();
    assert!(
        release.contains(r#""$bin" man --list"#),
        "release.yml takes the list from the CLI"
    );
    assert!(
        !release.contains("for cmd in run "),
        "no hand list of commands"
    );
}
