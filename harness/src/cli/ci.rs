//! `harness ci …`: the steps of the workflow `harness init` writes, one command each. Hidden
//! from `harness --help` (a maintainer never types them); `harness ci --help` lists them.
//! Each reads what the workflow gives it from the environment the workflow sets.

use crate::ci;
use crate::error::{Error, Result};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CiArgs {
    #[command(subcommand)]
    step: CiStep,
    /// The pull request's number (empty on a push).
    #[arg(long, env = "PR", global = true)]
    pr: Option<String>,
    /// The branch the pull request goes into (or the branch pushed).
    #[arg(long, env = "BASE_REF", global = true, default_value = "main")]
    base_ref: String,
    /// OWNER/REPO (Actions sets GITHUB_REPOSITORY).
    #[arg(long, env = "GITHUB_REPOSITORY", global = true, default_value = "")]
    repo: String,
    /// The manifest (the base branch's).
    #[arg(long, global = true, default_value = "manifests/pinned.toml")]
    matrix: PathBuf,
}

#[derive(Subcommand)]
enum CiStep {
    /// Take the pull request's charter and capsules from one commit as git blobs (the plan job
    /// resolves it; later jobs pass --sha and stop if the pull request moved); print and output
    /// `sha` and the gate's `key` computed from those files.
    Take {
        /// The commit the plan job resolved.
        #[arg(long, env = "SHA")]
        sha: Option<String>,
        /// Name the files the pull request changes that the gate never takes from it.
        #[arg(long)]
        report: bool,
        #[arg(long, env = "GH_TOKEN", hide_env_values = true)]
        token: Option<String>,
    },
    /// Lint the charter and the capsules against the base into lint/ (exit 3 is let through).
    Lint,
    /// Whether a gate with this key is stored: the cache's hit, else earlier runs' artifacts.
    Stored {
        #[arg(long, env = "KEY")]
        key: String,
        #[arg(long, env = "CACHE_HIT", default_value = "false")]
        cache_hit: String,
    },
    /// Let the sandbox create user namespaces where AppArmor restricts them (Ubuntu 24.04):
    /// `sudo sysctl` only when the setting is on.
    Userns {
        #[arg(
            long,
            hide = true,
            default_value = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
        )]
        setting: PathBuf,
    },
    /// Run one shard (K/N) of the gate into results/shard-K.
    Shard {
        #[arg(long, env = "SHARD")]
        shard: String,
    },
    /// Merge the shards (or restore the stored gate), decide, and keep what may be reused.
    Decide {
        /// The key this job computed (its take step's).
        #[arg(long, env = "KEY")]
        key: String,
        /// The plan job's key.
        #[arg(long, env = "PLAN_KEY")]
        plan_key: String,
        #[arg(long, env = "REUSE", default_value = "false")]
        reuse: String,
        #[arg(long, env = "FROM", default_value = "")]
        from: String,
    },
    /// Post `harness comment`'s comment and the charter-gate status.
    Post {
        #[arg(long, env = "SHA")]
        sha: Option<String>,
        #[arg(long, env = "HEAD_REPO", default_value = "")]
        head_repo: String,
        /// The run's page (default: from GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID).
        #[arg(long)]
        run_url: Option<String>,
        /// The jobs' results, in order: lint, plan, gate, decide.
        #[arg(long, env = "RESULTS", default_value = "")]
        results: String,
    },
}

pub(super) fn run(args: CiArgs) -> Result<u8> {
    let pr = parse_pr(args.pr.as_deref())?;
    let matrix = args.matrix.to_string_lossy().into_owned();
    match args.step {
        CiStep::Take { sha, report, token } => ci::pr_files::run(&ci::pr_files::Take {
            pr,
            sha: sha.filter(|s| !s.is_empty()),
            base_ref: args.base_ref,
            matrix: args.matrix,
            report,
            token,
        }),
        CiStep::Lint => {
            let charter = ci::pr_files::charter_path(&args.matrix)?;
            ci::jobs::lint(&charter, &args.base_ref)
        }
        CiStep::Stored { key, cache_hit } => {
            ci::jobs::stored(&key, cache_hit == "true", &args.repo)
        }
        CiStep::Userns { setting } => ci::jobs::userns(&setting),
        CiStep::Shard { shard } => ci::jobs::shard(&matrix, &shard),
        // A pull request is decided against its base; a push is not.
        CiStep::Decide {
            key,
            plan_key,
            reuse,
            from,
        } => ci::decide::run(&ci::decide::Decide {
            key,
            plan_key,
            reuse: reuse == "true",
            from,
            repo: args.repo,
            base_ref: pr.is_some().then_some(args.base_ref),
            matrix,
        }),
        CiStep::Post {
            sha,
            head_repo,
            run_url,
            results,
        } => {
            let mut r = results.split_whitespace().map(str::to_string);
            let mut next = || r.next().unwrap_or_else(|| "unknown".into());
            ci::post::run(&ci::post::Post {
                pr: pr.ok_or_else(|| {
                    Error::input("harness ci post: no pull request (PR is empty)")
                })?,
                repo: args.repo,
                sha: sha.filter(|s| !s.is_empty()),
                head_repo,
                run_url: run_url.unwrap_or_else(run_page),
                results: [next(), next(), next(), next()],
                gate_dir: PathBuf::from(ci::decide::GATE_DIR),
                lint_dir: PathBuf::from(ci::jobs::LINT_DIR),
            })
        }
    }
}

/// The pull request's number; empty is a push.
fn parse_pr(pr: Option<&str>) -> Result<Option<u64>> {
    match pr.map(str::trim).filter(|p| !p.is_empty()) {
        None => Ok(None),
        Some(p) => p.parse().map(Some).map_err(|_| {
            Error::input(format!(
                "PR {:?}: not a pull request number",
                crate::output::one_line(p)
            ))
        }),
    }
}

/// The workflow run's page, from what Actions sets in every step's environment.
fn run_page() -> String {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    format!(
        "{}/{}/actions/runs/{}",
        var("GITHUB_SERVER_URL"),
        var("GITHUB_REPOSITORY"),
        var("GITHUB_RUN_ID")
    )
}
