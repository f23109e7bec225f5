//! The charter repository's workflow as commands (`harness ci …`): each step of the workflow
//! `harness init` writes is one command here, so the file a maintainer reviews holds no shell of
//! its own. What a step hands to later steps goes to `$GITHUB_OUTPUT`; what a person reads, to
//! the log and `$GITHUB_STEP_SUMMARY`. Every path or text from the pull request is printed on
//! one line ([`crate::output::one_line`]): no line of the log starts a workflow command.

pub mod comment;
pub mod decide;
pub mod jobs;
pub mod post;
pub mod pr_files;

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Append `name=value` lines for later steps (`$GITHUB_OUTPUT`; nothing outside Actions). The
/// values are the harness's own (commit ids, keys, run ids, flags), one line each.
pub fn output(pairs: &[(&str, &str)]) -> Result<()> {
    let text: String = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}\n", crate::output::one_line(v)))
        .collect();
    append_env_file("GITHUB_OUTPUT", &text)
}

/// Append Markdown to the job's step summary (`$GITHUB_STEP_SUMMARY`).
pub fn summary(text: &str) -> Result<()> {
    append_env_file("GITHUB_STEP_SUMMARY", &crate::output::printable(text))
}

fn append_env_file(var: &str, text: &str) -> Result<()> {
    let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let path = Path::new(&path);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io_op("open", path, e))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Error::io_op("write", path, e))
}

/// A workflow command for the log (`::error::…`, `::warning title=…::…`): the message on one
/// line, `%`, CR and LF escaped as the runner reads them.
pub fn annotate(level: &str, text: &str) {
    let data = crate::output::one_line(text).replace('%', "%25");
    outln!("::{level}::{data}");
}

/// [`harness`] with the runner's workflow commands stopped while it prints: `run`, `merge` and
/// `gate` print what models replied and the charter's hunks, and a reply (which a pull
/// request's charter can ask for) may hold a line break and `::error::…`. The token that
/// resumes them is random, so nothing printed in between can resume them early.
///
/// The command's stderr goes to this stdout: the runner reads the two streams each on its own,
/// so a line on stderr could be read after the token that resumes commands, and be one.
pub fn harness_quoted(args: &[&str]) -> Result<u8> {
    use std::io::Write;
    use std::os::fd::AsFd;
    let token = token()?;
    outln!("::stop-commands::{token}");
    let _ = std::io::stdout().flush();
    let stdout = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| Error::io_op("duplicate", Path::new("stdout"), e))?;
    let code = run_harness(args, Some(std::process::Stdio::from(stdout)));
    outln!("::{token}::");
    code
}

/// 16 random bytes as hex.
fn token() -> Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let random = Path::new("/dev/urandom");
    std::fs::File::open(random)
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| Error::io_op("read", random, e))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// This harness, run again with `args` (its output is the step's log); its exit code.
pub fn harness(args: &[&str]) -> Result<u8> {
    run_harness(args, None)
}

/// [`harness`], its stderr to `stderr` when given.
fn run_harness(args: &[&str], stderr: Option<std::process::Stdio>) -> Result<u8> {
    let exe = std::env::current_exe().map_err(|e| Error::io_op("find", Path::new("harness"), e))?;
    let mut cmd = std::process::Command::new(&exe);
    cmd.args(args);
    if let Some(stderr) = stderr {
        cmd.stderr(stderr);
    }
    let status = cmd.status().map_err(|e| Error::io_op("run", &exe, e))?;
    // A signal is no exit code: the harness could not finish.
    Ok(status
        .code()
        .map_or(crate::exit::HARNESS_FAILED, |c| c as u8))
}

/// `gh ARGS`: its standard output, or why it failed (the caller decides what that means).
pub fn gh(args: &[&str]) -> std::result::Result<String, String> {
    let o = std::process::Command::new("gh")
        .args(args)
        .output()
        .map_err(|e| format!("gh: {e}"))?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    } else {
        Err(format!(
            "gh {}: {}",
            args.first().copied().unwrap_or(""),
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

/// [`harness`] with its standard output appended to `file` (the JSON a later step reads).
pub fn harness_into(args: &[&str], file: &Path) -> Result<u8> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io_op("create", dir, e))?;
    }
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| Error::io_op("open", file, e))?;
    let exe = std::env::current_exe().map_err(|e| Error::io_op("find", Path::new("harness"), e))?;
    let status = std::process::Command::new(&exe)
        .args(args)
        .stdout(out)
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| Error::io_op("run", &exe, e))?;
    Ok(status
        .code()
        .map_or(crate::exit::HARNESS_FAILED, |c| c as u8))
}
