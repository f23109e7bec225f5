//! `harness init` sets a charter repository up for the gate: the pinned manifest, the workflow
//! (pinned to this release's action) and the `.gitignore` lines.

use crate::error::{Error, Result};
use std::path::Path;

/// The release this binary is; the workflow pins the action to it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this release was built from, set at build time by release.yml
/// (`CHARTER_HARNESS_RELEASE_COMMIT`, the tag's commit): the workflow `init` writes pins the
/// harness's own action by it. A binary built from source has none (or not a full SHA).
pub fn release_commit() -> Option<&'static str> {
    option_env!("CHARTER_HARNESS_RELEASE_COMMIT")
        .filter(|c| c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Where this project's action lives: `harness init` writes it unless `--action` says otherwise.
pub const HOME: &str = "charter-harness/charter-harness";

/// The action a workflow installs the harness with: `OWNER/REPO@REF`, REF a release tag or a
/// full commit SHA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRef {
    pub repository: String,
    pub git_ref: String,
    /// The release tag a commit stands for, written in the `uses:` line's comment.
    pub tag: Option<String>,
}

impl ActionRef {
    /// This release of this project's action: pinned by the commit the release was built from,
    /// the tag in a comment; by the tag when this binary was built from source.
    pub fn home() -> ActionRef {
        Self::home_at(release_commit())
    }

    fn home_at(commit: Option<&str>) -> ActionRef {
        let tag = format!("v{VERSION}");
        match commit {
            Some(c) => ActionRef {
                repository: HOME.to_string(),
                git_ref: c.to_string(),
                tag: Some(tag),
            },
            None => ActionRef {
                repository: HOME.to_string(),
                git_ref: tag,
                tag: None,
            },
        }
    }

    /// The `uses:` line's comment: the tag a commit stands for, or how to pin a tag.
    fn comment(&self) -> String {
        match (&self.tag, self.is_commit()) {
            (Some(t), true) => format!(" # {t}"),
            (_, true) => " # pinned by commit".to_string(),
            _ => format!(
                " # a tag, not a commit: pin it with harness init --force --action {}@<the commit of {}>",
                self.repository, self.git_ref
            ),
        }
    }

    /// Said when `init` writes a tag: how to pin it by commit.
    pub fn warning(&self) -> Option<String> {
        (!self.is_commit()).then(|| {
            format!(
                "warning: the workflow uses {self} by tag, not by commit (a release binary pins its own action by the release's commit; this one was built from source, or --action named a tag), and a tag can be moved: pin it with `harness init --force --action {}@SHA`, SHA the commit of {} (git ls-remote https://github.com/{} {})",
                self.repository, self.git_ref, self.repository, self.git_ref
            )
        })
    }

    /// Parse `OWNER/REPO@REF`. The parts go into YAML and a shell's arguments, so only the
    /// characters GitHub allows in owner and repository names and git in refs are accepted.
    pub fn parse(text: &str) -> Result<ActionRef> {
        let shape = regex::Regex::new(
            r"^([A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100})@([A-Za-z0-9][A-Za-z0-9._/-]{0,199})$",
        )
        .expect("valid regex");
        let bad = || {
            Error::input(format!(
                "--action {text:?}: expected OWNER/REPO@REF, REF a release tag (v{VERSION}) or a commit SHA \
                 (letters, digits, '.', '_', '-', '/')"
            ))
        };
        let c = shape.captures(text).ok_or_else(bad)?;
        let git_ref = c[2].to_string();
        if git_ref.contains("..") || git_ref.ends_with('/') || git_ref.ends_with(".lock") {
            return Err(bad());
        }
        Ok(ActionRef {
            repository: c[1].to_string(),
            git_ref,
            tag: None,
        })
    }

    fn is_commit(&self) -> bool {
        self.git_ref.len() == 40 && self.git_ref.bytes().all(|b| b.is_ascii_hexdigit())
    }
}

impl std::fmt::Display for ActionRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.repository, self.git_ref)
    }
}

/// What `init` writes into the workflow.
#[derive(Debug, Clone)]
pub struct Options {
    pub action: ActionRef,
    /// The branch whose pushes store the gate (the repository's default branch).
    pub branch: String,
    /// The charter's path from the repository root (`CHARTER.md` unless `--charter` says).
    pub charter: String,
}

/// The charter `init` sets the gate up for unless told: `CHARTER.md` at the root.
pub const CHARTER: &str = "CHARTER.md";

/// Check a charter path for the manifest and the workflow's path filters: relative, inside the
/// repository, of the characters that mean nothing in a filter pattern, TOML or YAML.
pub fn check_charter(path: &str) -> Result<()> {
    let plain = regex::Regex::new(r"^[A-Za-z0-9_][A-Za-z0-9._/-]*$").expect("valid regex");
    let inside = path
        .split('/')
        .all(|p| !p.is_empty() && p != "." && p != "..");
    if plain.is_match(path) && inside {
        Ok(())
    } else {
        Err(Error::input(format!(
            "--charter {path:?}: a path inside the repository, from its root, of letters, digits, \
             '.', '_', '-' and '/' (e.g. docs/charter.md)"
        )))
    }
}

/// Check a branch name for the workflow's `branches:` filter: a git branch name made of the
/// characters that mean nothing in GitHub's filter patterns or YAML.
pub fn check_branch(name: &str) -> Result<()> {
    let plain = regex::Regex::new(r"^[A-Za-z0-9][A-Za-z0-9._/-]*$").expect("valid regex");
    if plain.is_match(name)
        && git2::Branch::name_is_valid(name).unwrap_or(false)
        && !name.ends_with('/')
    {
        Ok(())
    } else {
        Err(Error::input(format!(
            "--branch {name:?}: the workflow's branch filter takes a git branch name of letters, \
             digits, '.', '_', '-' and '/'"
        )))
    }
}

/// The repository's default branch as `init` can see it: where `origin/HEAD` points, else the
/// branch checked out (even before its first commit), else `main`. Returns the branch and how
/// it was found.
pub fn default_branch(root: &Path) -> (String, &'static str) {
    let Ok(repo) = git2::Repository::discover(root) else {
        return ("main".into(), "no git repository here; the usual default");
    };
    let target = |name: &str| {
        repo.find_reference(name)
            .ok()
            .and_then(|r| r.symbolic_target().ok().flatten().map(str::to_string))
    };
    if let Some(b) = target("refs/remotes/origin/HEAD")
        .and_then(|t| t.strip_prefix("refs/remotes/origin/").map(str::to_string))
    {
        return (b, "origin/HEAD");
    }
    if let Some(b) = target("HEAD").and_then(|t| t.strip_prefix("refs/heads/").map(str::to_string))
    {
        return (b, "the branch checked out");
    }
    ("main".into(), "HEAD is detached; the usual default")
}

/// The files `init` writes, relative to the repository root.
pub fn files(opts: &Options) -> [(&'static str, String); 2] {
    [
        (
            "manifests/pinned.toml",
            PINNED.replace("../CHARTER.md", &format!("../{}", opts.charter)),
        ),
        (".github/workflows/charter-gate.yml", workflow(opts)),
    ]
}

/// The lines `init` makes sure `.gitignore` holds: run folders, and `.env`, where keys may sit
/// on a developer's machine (the harness reads it).
const IGNORED: [(&str, &str); 2] = [("results/", "/results/"), (".env", "/.env")];

/// Write the gate's files into `root`; refuse to overwrite any without `force`. Returns what it
/// wrote, in order.
pub fn init(root: &Path, opts: &Options, force: bool) -> Result<Vec<String>> {
    check_branch(&opts.branch)?;
    check_charter(&opts.charter)?;
    let files = files(opts);
    if !force {
        if let Some((rel, _)) = files.iter().find(|(rel, _)| root.join(rel).exists()) {
            return Err(Error::input(format!(
                "{}: already exists; nothing was written (--force overwrites)",
                root.join(rel).display()
            )));
        }
    }
    let mut wrote = Vec::new();
    for (rel, text) in &files {
        crate::files::write_atomic(&root.join(rel), text.as_bytes())?;
        wrote.push(rel.to_string());
    }
    let ignore = root.join(".gitignore");
    let mut text = std::fs::read_to_string(&ignore).unwrap_or_default();
    let mut added = Vec::new();
    for (line, rooted) in IGNORED {
        if !text.lines().any(|l| l.trim() == line || l.trim() == rooted) {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(line);
            text.push('\n');
            added.push(line);
        }
    }
    if !added.is_empty() {
        crate::files::write_atomic(&ignore, text.as_bytes())?;
        wrote.push(format!(".gitignore ({})", added.join(", ")));
    }
    Ok(wrote)
}

/// `harness init`: write the gate's files into `root` and say what they do and what is next.
/// `action` is `OWNER/REPO@REF` (default: this release's); `branch` defaults to the
/// repository's default branch; `charter` to `CHARTER.md`.
pub fn run(
    root: &Path,
    action: Option<&str>,
    branch: Option<String>,
    charter: Option<String>,
    force: bool,
) -> Result<()> {
    let action = match action {
        Some(a) => ActionRef::parse(a)?,
        None => ActionRef::home(),
    };
    let (branch, how) = match branch {
        Some(b) => (b, "--branch"),
        None => default_branch(root),
    };
    let opts = Options {
        action,
        branch,
        charter: charter.unwrap_or_else(|| CHARTER.to_string()),
    };
    for f in init(root, &opts, force)? {
        outln!("wrote {f}");
    }
    if let Some(w) = opts.action.warning() {
        errln!("{w}");
    }
    if !root.join(&opts.charter).is_file() {
        errln!(
            "note: no charter at {}: the manifest and the workflow gate {}; write the charter there, or run init again with --charter PATH (and --force) for one elsewhere",
            root.join(&opts.charter).display(),
            opts.charter
        );
    }
    outln!(
        "the workflow installs {} and stores the gate on pushes to {} ({how})",
        opts.action,
        opts.branch
    );
    outln!(
        "next: add the secrets ANTHROPIC_API_KEY and OPENAI_API_KEY to the repository, and commit {} and these files",
        opts.charter
    );
    Ok(())
}

const PINNED: &str = r#"# The pinned model matrix for the charter's change gate: the frontier reference and the
# weakest deployed model, at temperature 0 where the model supports it. Written by `harness init`.
# Keys come from the environment variables named here (repository secrets in CI), never from
# this file. Paths are relative to this file: the charter is ../CHARTER.md.

[charter]
source = "../CHARTER.md"

[decoding]
temperature = 0
max_tokens = 4096
seed = 7

[run]
trials = 3
max_steps = 40
# A request that could take spending past this is not sent; the run stops inconclusive.
budget_usd = 25

# Prices are USD per million tokens: the vendors' list prices for these pinned models as
# published when they were pinned (checked 2026-11-30). Update them with the models.
[[models]]
name = "frontier"
role = "frontier"
provider = "anthropic"
model = "claude-opus-4-1-20250805"
base_url = "https://api.anthropic.com"
api_key_env = "ANTHROPIC_API_KEY"
temperature_supported = false   # the current Messages API version takes no sampling parameters
max_concurrency = 4
price_input_per_mtok = 15.0
price_output_per_mtok = 75.0
price_cache_read_per_mtok = 1.50
price_cache_write_per_mtok = 18.75   # the 5-minute cache the harness's breakpoints use

[[models]]
name = "weakest"
role = "weakest"
provider = "openai"
model = "gpt-4o-mini-2024-07-18"
base_url = "https://api.openai.com/v1"
api_key_env = "OPENAI_API_KEY"
max_concurrency = 4
price_input_per_mtok = 0.15
price_output_per_mtok = 0.60
price_cache_read_per_mtok = 0.075    # OpenAI bills cached input of this model at half price
"#;

/// The actions the workflow uses, each pinned by the full commit SHA of the release in the
/// comment (read from the action's repository: the tag's commit), all on GitHub's Node 24 runtime.
const CHECKOUT: &str = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1";
const CACHE_RESTORE: &str =
    "actions/cache/restore@27d5ce7f107fe9357f9df03efb73ab90386fccae # v5.0.5";
const CACHE_SAVE: &str = "actions/cache/save@27d5ce7f107fe9357f9df03efb73ab90386fccae # v5.0.5";
const UPLOAD: &str = "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0";
const DOWNLOAD: &str =
    "actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1";

/// The charter repository's workflow.
pub fn workflow(opts: &Options) -> String {
    let a = &opts.action;
    let install = format!(
        "      - uses: {a}{}\n        with: {{ repository: {}, ref: {} }}",
        a.comment(),
        a.repository,
        a.git_ref
    );
    // Every job but the comment's: the base branch (or the pushed commit) and the harness.
    let prepare = format!(
        "      - uses: {CHECKOUT}\n        with: {{ fetch-depth: 0, persist-credentials: false }}\n{install}"
    );
    WORKFLOW
        .replace("{{PREPARE}}", &prepare)
        .replace("{{INSTALL}}", &install)
        .replace("{{CHARTER}}", &opts.charter)
        .replace("{{BRANCH}}", &opts.branch)
        .replace("{{CHECKOUT}}", CHECKOUT)
        .replace("{{CACHE_RESTORE}}", CACHE_RESTORE)
        .replace("{{CACHE_SAVE}}", CACHE_SAVE)
        .replace("{{UPLOAD}}", UPLOAD)
        .replace("{{DOWNLOAD}}", DOWNLOAD)
}

/// The workflow, run on `pull_request_target`: see the comment at its top.
const WORKFLOW: &str = include_str!("init/charter-gate.yml");

/// The harness's own small example charter (fixtures/charters/example-charter.md): what
/// `harness init --example` writes for a user with no charter yet.
pub const EXAMPLE_CHARTER: &str = include_str!("../../../fixtures/charters/example-charter.md");

/// `harness init --example`: the example charter written at `charter` (default CHARTER.md),
/// said on stdout, then [`run`]. Nothing is written when the charter's file exists (without
/// `force`) or when `init` refuses: the charter written is then removed again.
pub fn run_with_example(
    root: &Path,
    action: Option<&str>,
    branch: Option<String>,
    charter: Option<String>,
    force: bool,
) -> Result<()> {
    let rel = charter.clone().unwrap_or_else(|| CHARTER.to_string());
    check_charter(&rel)?;
    let file = root.join(&rel);
    if file.exists() && !force {
        return Err(Error::input(format!(
            "{}: already exists; nothing was written (--example writes the example charter there; --force overwrites)",
            file.display()
        )));
    }
    let existed = file.exists();
    crate::files::write_atomic(&file, EXAMPLE_CHARTER.as_bytes())?;
    outln!(
        "wrote {rel}: the harness's example charter (\"Example Reasoning Charter\", version 0.1.0), to try the gate on before you write your own; `harness run --matrix offline` tests it with no key"
    );
    let done = run(root, action, branch, charter, force);
    if done.is_err() && !existed {
        let _ = std::fs::remove_file(&file);
        errln!("removed {rel} again: init wrote nothing");
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(branch: &str) -> Options {
        Options {
            action: ActionRef::home(),
            branch: branch.into(),
            charter: CHARTER.into(),
        }
    }

    #[test]
    fn an_action_reference_is_owner_repo_at_a_ref_and_nothing_else() {
        let a = ActionRef::parse("someone/harness-fork@v1.2.3").unwrap();
        assert_eq!(
            (a.repository.as_str(), a.git_ref.as_str()),
            ("someone/harness-fork", "v1.2.3")
        );
        let sha = ActionRef::parse("o/r@0123456789abcdef0123456789abcdef01234567").unwrap();
        assert!(sha.is_commit() && !a.is_commit());
        for bad in [
            "o/r",
            "o@v1",
            "o/r@",
            "o/r/x@v1",
            "o/r@v1 # x",
            "o/r@$(id)",
            "o/r@v1\nrun: x",
            "o/r@../v1",
            "-o/r@v1",
        ] {
            assert!(ActionRef::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_branch_name_for_the_filter_is_a_plain_git_branch_name() {
        for good in ["main", "master", "release/2.x", "trunk_1"] {
            check_branch(good).unwrap();
        }
        for bad in [
            "", "a b", "!main", "ma*in", "feat+x", "x..y", "x/", "\"x\"", "-x",
        ] {
            assert!(check_branch(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_default_branch_is_origin_head_else_the_branch_checked_out_else_main() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(default_branch(dir.path()).0, "main");
        let repo = git2::Repository::init(dir.path()).unwrap();
        repo.set_head("refs/heads/trunk").unwrap();
        assert_eq!(
            default_branch(dir.path()),
            ("trunk".into(), "the branch checked out")
        );
        repo.reference_symbolic(
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/master",
            true,
            "",
        )
        .unwrap();
        assert_eq!(default_branch(dir.path()), ("master".into(), "origin/HEAD"));
    }

    #[test]
    fn init_ignores_results_and_dotenv_once_keeping_what_gitignore_held() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".gitignore"), "target/\n/results/").unwrap();
        let wrote = init(dir.path(), &opts("main"), false).unwrap();
        assert!(
            wrote.contains(&".gitignore (.env)".to_string()),
            "{wrote:?}"
        );
        let text = std::fs::read_to_string(dir.path().join(".gitignore")).unwrap();
        assert_eq!(text, "target/\n/results/\n.env\n");
        init(dir.path(), &opts("main"), true).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join(".gitignore")).unwrap(),
            text
        );
        let fresh = tempfile::tempdir().unwrap();
        init(fresh.path(), &opts("main"), false).unwrap();
        assert_eq!(
            std::fs::read_to_string(fresh.path().join(".gitignore")).unwrap(),
            "results/\n.env\n"
        );
    }

    #[test]
    fn init_refuses_a_branch_the_filter_cannot_hold_before_writing_anything() {
        let dir = tempfile::tempdir().unwrap();
        assert!(init(dir.path(), &opts("feat+x"), false).is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn the_workflow_names_the_branch_and_the_action_and_pins_every_other_action_by_sha() {
        let o = Options {
            action: ActionRef::parse("someone/fork@v9.9.9").unwrap(),
            branch: "trunk".into(),
            charter: CHARTER.into(),
        };
        let w = workflow(&o);
        assert!(w.contains("    branches: [\"trunk\"]\n"));
        assert!(!w.replace("${{", "").contains("{{"), "a placeholder left");
        assert_eq!(
            w.matches("uses: someone/fork@v9.9.9 # a tag, not a commit: pin it with harness init --force --action someone/fork@<the commit of v9.9.9>\n").count(),
            5
        );
        assert_eq!(
            w.matches("with: { repository: someone/fork, ref: v9.9.9 }\n")
                .count(),
            5
        );
        let pinned =
            regex::Regex::new(r"^actions/[a-z/-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$").unwrap();
        for line in w
            .lines()
            .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses: "))
        {
            assert!(
                line.starts_with("someone/fork@") || pinned.is_match(line),
                "not pinned by SHA: {line}"
            );
        }
    }

    #[test]
    fn a_release_binary_pins_every_action_its_own_included_by_a_commit_with_the_tag_in_a_comment() {
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let o = Options {
            action: ActionRef::home_at(Some(sha)),
            branch: "main".into(),
            charter: CHARTER.into(),
        };
        let w = workflow(&o);
        let pinned =
            regex::Regex::new(r"^[a-z-]+/[a-z/-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$").unwrap();
        let uses: Vec<&str> = w
            .lines()
            .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses: "))
            .collect();
        assert!(uses.len() > 10);
        for line in uses {
            assert!(pinned.is_match(line), "not pinned by commit: {line}");
        }
        assert!(w.contains(&format!("uses: {HOME}@{sha} # v{VERSION}\n")));
        assert!(w.contains(&format!("with: {{ repository: {HOME}, ref: {sha} }}\n")));
        assert_eq!(o.action.warning(), None);
        // Built from source: the tag, a comment and a warning saying how to pin it.
        let tag = ActionRef::home_at(None);
        assert_eq!(tag.git_ref, format!("v{VERSION}"));
        assert!(tag
            .warning()
            .unwrap()
            .contains("--action charter-harness/charter-harness@SHA"));
    }
}
