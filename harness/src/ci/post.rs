//! `harness ci post`: the comment job. The comment is `harness comment`'s, for whichever state
//! the run ended in (a gate, lint findings, lint failed, a fork waiting, a job that failed
//! before a gate); it replaces the workflow's own earlier comment (found by its marker and
//! author) or is added; then the `charter-gate` status goes on the tested commit — posted
//! whatever failed before it, `error` with the reason when the comment could not be built.

use super::{annotate, gh};
use crate::ci::comment::{self, CommentOptions, State, Status, MARKER};
use crate::error::Result;
use crate::exit;
use std::path::PathBuf;

#[derive(Clone)]
pub struct Post {
    pub pr: u64,
    pub repo: String,
    /// The commit the plan job resolved (none when it failed first).
    pub sha: Option<String>,
    /// The pull request's repository, to tell a fork's.
    pub head_repo: String,
    pub run_url: String,
    /// The jobs' results: lint, plan, gate, decide.
    pub results: [String; 4],
    /// What the decide job kept (results/gate) and the lint job's findings (lint/).
    pub gate_dir: PathBuf,
    pub lint_dir: PathBuf,
}

pub fn run(p: &Post) -> Result<u8> {
    let head = pr_head(p);
    let state = match (&p.sha, &head) {
        (Some(tested), Some(now)) if tested != now => State::Error(format!(
            "the pull request moved during this run (its head is now {now}, this run tested {tested}): the run for the new head decides"
        )),
        _ => state(p),
    };
    // The plan job resolved no commit (it failed first): the status goes on the head now.
    let p = &Post {
        sha: p.sha.clone().or(head),
        ..p.clone()
    };
    let opts = CommentOptions {
        state,
        run_url: Some(p.run_url.clone()),
        status: None,
        lint: Some(p.lint_dir.join("findings.jsonl")),
        head: p.sha.clone(),
    };
    let (body, status) = comment::build(&opts);
    let commented = publish(p, &body);
    if let Err(why) = &commented {
        annotate("error", &format!("the comment could not be posted: {why}"));
    }
    let status = match &commented {
        Ok(()) => status,
        Err(why) => Status {
            state: "error",
            description: format!("the gate's comment could not be posted: {why}"),
        },
    };
    let posted = post_status(p, &status);
    if let Err(why) = &posted {
        annotate(
            "error",
            &format!("the charter-gate status could not be posted: {why}"),
        );
    }
    outln!("charter-gate: {} ({})", status.state, status.shown());
    Ok(if commented.is_ok() && posted.is_ok() {
        exit::OK
    } else {
        exit::HARNESS_FAILED
    })
}

/// Which comment: the gate when the decide job wrote one (even a gate it could not read: that
/// is the `error` state, with why), else what stopped the run.
fn state(p: &Post) -> State {
    let [lint, plan, gate, decide] = &p.results;
    if p.gate_dir.join("summary.json").exists() || p.gate_dir.join("report.md").exists() {
        return State::Gate(p.gate_dir.clone());
    }
    let fork = !p.head_repo.is_empty() && p.head_repo != p.repo;
    // A fork's gate job is skipped (its `if:`), never failed: it waits for a maintainer.
    if gate == "skipped" && fork && lint == "success" {
        return State::ForkWaiting(p.pr);
    }
    let findings = p.lint_dir.join("findings.jsonl");
    if lint == "failure" {
        if let Ok(why) = std::fs::read_to_string(p.lint_dir.join("failed")) {
            return State::LintFailed(why.trim().to_string());
        }
        if findings.exists() {
            return State::Lint(findings);
        }
        return State::LintFailed(
            "the lint job failed before it reported; see the run's log".into(),
        );
    }
    State::Error(format!(
        "the gate did not finish (lint {lint}, plan {plan}, gate {gate}, decide {decide}): see the run's log"
    ))
}

/// The pull request's head commit now, as GitHub's API says (none when it cannot be read).
fn pr_head(p: &Post) -> Option<String> {
    let sha = gh(&[
        "api",
        &format!("repos/{}/pulls/{}", p.repo, p.pr),
        "--jq",
        ".head.sha",
    ])
    .ok()?;
    let sha = sha.trim();
    (sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit())).then(|| sha.to_string())
}

/// Replace the workflow's own comment (the token's, starting with the marker; anyone else's is
/// left alone), else add one.
fn publish(p: &Post, body: &str) -> std::result::Result<(), String> {
    // A new file under a random name (never one planted at a name known in advance), removed
    // when dropped: on every path out of here, GitHub refusing included.
    let mut file = tempfile::Builder::new()
        .prefix("charter-gate-comment-")
        .suffix(".md")
        .tempfile()
        .map_err(|e| format!("{}: {e}", std::env::temp_dir().display()))?;
    std::io::Write::write_all(&mut file, body.as_bytes())
        .map_err(|e| format!("{}: {e}", file.path().display()))?;
    let field = format!("body=@{}", file.path().display());
    let filter = format!(
        ".[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"{MARKER}\"))) | .id"
    );
    let ids = gh(&[
        "api",
        &format!("repos/{}/issues/{}/comments", p.repo, p.pr),
        "--paginate",
        "--jq",
        &filter,
    ])?;
    let first = ids
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()));
    let done = match first {
        Some(id) => gh(&[
            "api",
            "-X",
            "PATCH",
            &format!("repos/{}/issues/comments/{id}", p.repo),
            "-F",
            &field,
        ]),
        None => gh(&[
            "api",
            "-X",
            "POST",
            &format!("repos/{}/issues/{}/comments", p.repo, p.pr),
            "-F",
            &field,
        ]),
    };
    done.map(|_| ())
}

/// The `charter-gate` status on the tested commit.
fn post_status(p: &Post, status: &Status) -> std::result::Result<(), String> {
    let Some(sha) = p
        .sha
        .as_deref()
        .filter(|s| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()))
    else {
        return Err("the plan job resolved no commit to put it on".into());
    };
    gh(&[
        "api",
        "-X",
        "POST",
        &format!("repos/{}/statuses/{sha}", p.repo),
        "-f",
        &format!("state={}", status.state),
        "-f",
        "context=charter-gate",
        "-f",
        &format!("description={}", status.shown()),
        "-f",
        &format!("target_url={}", p.run_url),
    ])
    .map(|_| ())
}
