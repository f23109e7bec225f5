//! `harness ci take`: the pull request's charter and capsules as files, from one commit. The
//! plan job resolves the pull request to its head commit; every later job is given that commit,
//! checks that it is still the pull request's head (else stops: the run for the new head
//! decides), and writes the charter and the regular files under vault/files from it as git
//! blobs — the work tree stays the base branch's, so no file of the pull request's runs or
//! configures anything. The key of the gate's inputs is computed here, from those files.

use super::{annotate, output, summary};
use crate::error::{Error, Result};
use crate::exit;
use std::path::{Component, Path, PathBuf};

/// Where a pull request's capsules live.
const CAPSULES: &str = "vault/files";
/// What a pull request may change but the gate never takes from it.
const NOT_TAKEN: [&str; 7] = [
    "manifests",
    ".github",
    ".cargo",
    "rust-toolchain",
    "rust-toolchain.toml",
    "results",
    ".env",
];

pub struct Take {
    /// The pull request's number; none on a push (the work tree is the pushed commit).
    pub pr: Option<u64>,
    /// The commit the plan job resolved; none in the plan job itself.
    pub sha: Option<String>,
    /// The branch the pull request goes into.
    pub base_ref: String,
    pub matrix: PathBuf,
    /// Name, for a maintainer, the files the pull request changes that the gate never takes.
    pub report: bool,
    /// The workflow's token, for the one fetch.
    pub token: Option<String>,
}

pub fn run(t: &Take) -> Result<u8> {
    // A `.env` is the base's or nobody's: the harness reads one, so none is left in the tree.
    let _ = std::fs::remove_file(".env");
    if !t.matrix.exists() {
        annotate("error", &format!(
            "{} has no {}: a maintainer merges the manifest first; a pull request is never gated with its own",
            t.base_ref, t.matrix.display()
        ));
        return Ok(exit::USAGE);
    }
    let sha = match t.pr {
        None => rev_parse("HEAD")?,
        Some(n) => match take_pr(t, n)? {
            Some(sha) => sha,
            None => return Ok(exit::INCONCLUSIVE),
        },
    };
    let key = key(t)?;
    output(&[("sha", &sha), ("key", &key)])?;
    outln!("testing commit {sha}; the key of the gate's inputs: {key}");
    Ok(exit::OK)
}

/// Fetch the pull request's head, check it is the plan's commit, take its files. None when
/// the pull request moved on (said as an error in the log).
fn take_pr(t: &Take, n: u64) -> Result<Option<String>> {
    let head = fetch_head(n, t.token.as_deref())?;
    if let Some(want) = t.sha.as_deref().filter(|w| *w != head) {
        annotate("error", &format!(
            "pull request #{n} moved during this run: its head is now {head}, this run tests {want}; \
             nothing is stored for either, and the run for the new head decides it"
        ));
        return Ok(None);
    }
    let charter = charter_path(&t.matrix)?;
    take_files(&head, &charter)?;
    if t.report {
        report_changes(&t.base_ref, &head)?;
    }
    Ok(Some(head))
}

/// The key of the inputs as this job has them: the charter just written, the base's manifest,
/// the suite and this harness; on a pull request, the base's gate policy too.
fn key(t: &Take) -> Result<String> {
    let key = crate::run::key::inputs_key(&t.matrix, None)?;
    if t.pr.is_none() {
        return Ok(key);
    }
    let base = format!("origin/{}", t.base_ref);
    let policy = crate::regate::base::base_policy(&t.matrix, &base)?;
    Ok(crate::run::key::with_policy(&key, policy))
}

/// `git fetch` of `refs/pull/N/head` with the token for this one command (the checkout keeps
/// no credentials); the commit it names.
fn fetch_head(n: u64, token: Option<&str>) -> Result<String> {
    let mut git = std::process::Command::new("git");
    git.args(["fetch", "-q", "--no-tags", "origin"])
        .arg(format!("+refs/pull/{n}/head:refs/remotes/pull/head"));
    if let Some(token) = token.filter(|t| !t.is_empty()) {
        let auth = base64(format!("x-access-token:{token}").as_bytes());
        git.env("GIT_CONFIG_COUNT", "1")
            .env("GIT_CONFIG_KEY_0", "http.https://github.com/.extraheader")
            .env("GIT_CONFIG_VALUE_0", format!("AUTHORIZATION: basic {auth}"));
    }
    let o = git
        .output()
        .map_err(|e| Error::io_op("run", Path::new("git"), e))?;
    if !o.status.success() {
        return Err(Error::input(format!(
            "git fetch refs/pull/{n}/head: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )));
    }
    rev_parse("refs/remotes/pull/head")
}

fn rev_parse(rev: &str) -> Result<String> {
    let repo = open()?;
    let c = repo
        .revparse_single(rev)
        .and_then(|o| o.peel_to_commit())
        .map_err(|e| Error::input(format!("git: {rev}: {}", e.message())))?;
    Ok(c.id().to_string())
}

fn open() -> Result<git2::Repository> {
    git2::Repository::open(".")
        .map_err(|e| Error::input(format!("git: the work tree here: {}", e.message())))
}

/// The manifest's charter as a path from the repository root (`manifests/../CHARTER.md` is
/// `CHARTER.md`); one outside the repository is refused.
pub fn charter_path(matrix: &Path) -> Result<String> {
    let loaded = crate::suite::manifest::load(&crate::suite::manifest::resolve(matrix))?;
    let mut parts: Vec<String> = Vec::new();
    for c in loaded
        .dir()
        .join(&loaded.manifest.charter.source)
        .components()
    {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir if parts.pop().is_some() => {}
            Component::CurDir => {}
            _ => {
                return Err(Error::input(format!(
                    "{}: charter.source {:?} is outside the repository; the workflow takes the charter from the pull request by its path in the repository",
                    loaded.path.display(),
                    loaded.manifest.charter.source
                )))
            }
        }
    }
    Ok(parts.join("/"))
}

/// How many files and folders the gate takes from a pull request, and how deep its folders go:
/// a tree is the pull request's to shape, and it is bounded before anything is written.
const MAX_ENTRIES: usize = 10_000;
const MAX_DEPTH: usize = 32;

/// What is left to take: entries, and the folders' depth below the top.
struct Budget {
    entries: usize,
    depth: usize,
}

/// Replace the charter and vault/files with the pull request's, read from `sha` as blobs.
fn take_files(sha: &str, charter: &str) -> Result<()> {
    let repo = open()?;
    let tree = repo
        .revparse_single(sha)
        .and_then(|o| o.peel_to_tree())
        .map_err(|e| Error::input(format!("git: {sha}: {}", e.message())))?;
    let _ = std::fs::remove_file(charter);
    let _ = std::fs::remove_dir_all(CAPSULES);
    let mut budget = Budget {
        entries: MAX_ENTRIES,
        depth: 0,
    };
    for (top, kind) in [
        (charter, crate::files::read::Kind::Charter),
        (CAPSULES, crate::files::read::Kind::Capsule),
    ] {
        if let Ok(entry) = tree.get_path(Path::new(top)) {
            take_entry(&repo, PathBuf::from(top), &entry, kind, &mut budget)?;
        }
    }
    Ok(())
}

/// One more entry at `path`, within the budget; else why not.
fn spend(budget: &mut Budget, shown: &str) -> Result<()> {
    if budget.entries == 0 {
        return Err(Error::input(format!(
            "the pull request holds more than {MAX_ENTRIES} files and folders under its charter and {CAPSULES}: \
             nothing past {shown} is taken, and the gate does not run"
        )));
    }
    budget.entries -= 1;
    Ok(())
}

/// The blob's size from its header (the object is not read), within `kind`'s cap.
fn blob_within_cap(
    repo: &git2::Repository,
    id: git2::Oid,
    kind: crate::files::read::Kind,
    shown: &str,
) -> Result<()> {
    let size = repo
        .odb()
        .and_then(|odb| odb.read_header(id))
        .map_err(|e| Error::input(format!("git: {shown}: {}", e.message())))?
        .0 as u64;
    let cap = kind.limit();
    if size > cap {
        return Err(Error::input(format!(
            "the pull request holds {shown} of {size} bytes, over the {} cap of {cap} bytes ({}): not taken, and the gate does not run",
            kind.name(),
            kind.setting()
        )));
    }
    Ok(())
}

/// One tree entry: a folder walked, a regular file written, anything else left out and said.
fn take_entry(
    repo: &git2::Repository,
    path: PathBuf,
    entry: &git2::TreeEntry,
    kind: crate::files::read::Kind,
    budget: &mut Budget,
) -> Result<()> {
    let shown = crate::output::one_line(&path.to_string_lossy());
    let bad = |what: &str| Error::input(format!("the pull request holds {what}: {shown}"));
    spend(budget, &shown)?;
    match (entry.kind(), entry.filemode()) {
        (Some(git2::ObjectType::Tree), _) if budget.depth >= MAX_DEPTH => {
            Err(bad(&format!("folders nested deeper than {MAX_DEPTH}")))
        }
        (Some(git2::ObjectType::Tree), _) => {
            let object = entry
                .to_object(repo)
                .map_err(|_| bad("an unreadable tree"))?;
            let tree = object.as_tree().ok_or_else(|| bad("an unreadable tree"))?;
            for e in tree.iter() {
                let name = e.name_bytes();
                if unsafe_name(name) {
                    return Err(bad("a path git should not hold"));
                }
                use std::os::unix::ffi::OsStrExt;
                budget.depth += 1;
                let taken = take_entry(
                    repo,
                    path.join(std::ffi::OsStr::from_bytes(name)),
                    &e,
                    kind,
                    budget,
                );
                budget.depth -= 1;
                taken?;
            }
            Ok(())
        }
        (Some(git2::ObjectType::Blob), 0o100644 | 0o100755) => {
            blob_within_cap(repo, entry.id(), kind, &shown)?;
            let blob = repo
                .find_blob(entry.id())
                .map_err(|_| bad("an unreadable file"))?;
            write_file(&path, blob.content())
        }
        (_, mode) => {
            annotate(
                "warning",
                &format!(
                "{shown} in the pull request is not a regular file (git mode {mode:o}): left out"
            ),
            );
            Ok(())
        }
    }
}

/// A tree entry's name git never writes: a crafted tree could hold one to write outside the
/// folder, or (`.git`) to plant a repository of its own, which the lint's `--base` would read a
/// capsule's base text from.
fn unsafe_name(name: &[u8]) -> bool {
    name.is_empty()
        || name == b"."
        || name == b".."
        || name.contains(&b'/')
        || name.eq_ignore_ascii_case(b".git")
}

/// A taken file written at `path`, its folders made first.
fn write_file(path: &Path, content: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io_op("create", dir, e))?;
    }
    std::fs::write(path, content).map_err(|e| Error::io_op("write", path, e))
}

/// Name the files the pull request changes that the gate never takes from it (a warning and
/// the step summary): a maintainer reviews them; they take effect once merged.
fn report_changes(base_ref: &str, sha: &str) -> Result<()> {
    let o = std::process::Command::new("git")
        .args(["diff", "--name-status"])
        .arg(format!("origin/{base_ref}...{sha}"))
        .arg("--")
        .args(NOT_TAKEN)
        .output()
        .map_err(|e| Error::io_op("run", Path::new("git"), e))?;
    let changed = String::from_utf8_lossy(&o.stdout);
    if !o.status.success() || changed.trim().is_empty() {
        return Ok(());
    }
    annotate("warning title=Not used by the gate", &format!(
        "This pull request changes files the gate never takes from a pull request (manifests/, .github/, ...). \
         It is gated with those of {base_ref}; a maintainer reviews the change, which takes effect once merged."
    ));
    let lines: Vec<String> = changed.lines().map(crate::output::one_line).collect();
    summary(&format!(
        "### Files the gate does not take from a pull request: for a maintainer to review\n\n\
         This pull request changes the files below. The gate ran with the workflow, manifests (models, \
         base_url, key variables) and harness of `{base_ref}`, never these; they take effect once merged.\n\n{}\n",
        crate::report::comparison::fenced(&lines.join("\n"), "")
    ))
}

/// Standard base64 with padding (git's basic authorization header).
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | *b as u32) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(
            super::base64(b"x-access-token:abc"),
            "eC1hY2Nlc3MtdG9rZW46YWJj"
        );
        assert_eq!(super::base64(b"ab"), "YWI=");
        assert_eq!(super::base64(b"a"), "YQ==");
    }
}
