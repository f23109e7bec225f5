//! `harness ci lint`, `ci stored`, `ci userns` and `ci shard`: the lint job, the plan job's look
//! for a stored gate among earlier runs, and the gate job's shard with its sandbox's set-up.

use super::{annotate, gh, harness, harness_into, harness_quoted, output};
use crate::error::{Error, Result};
use crate::exit;
use std::path::Path;

/// Where the lint job keeps its findings for the comment job.
pub const LINT_DIR: &str = "lint";

/// Lint the charter and the capsules against the base: a decided finding (exit 1) fails the
/// job; exit 3, the worst finding needs a reviewer, lets the gate run (the findings go to the
/// comment, and a maintainer's approval settles them). The findings as JSON Lines go to
/// lint/findings.jsonl; an exit that is no finding's (2, 4) is said in lint/failed.
pub fn lint(charter: &str, base_ref: &str) -> Result<u8> {
    let dir = Path::new(LINT_DIR);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| Error::io_op("create", dir, e))?;
    let base = format!("origin/{base_ref}");
    let mut worst = exit::OK;
    for what in [
        vec!["lint", "charter", charter, "--base", &base],
        vec![
            "lint",
            "capsule",
            "vault/files",
            "--strict",
            "--base",
            &base,
        ],
    ] {
        let code = harness(&what)?;
        let mut json = what.clone();
        json.push("--json");
        harness_into(&json, &dir.join("findings.jsonl"))?;
        match code {
            exit::OK => {}
            // A decided finding outranks a question for a reviewer.
            exit::NEEDS_REVIEWER if worst == exit::OK => worst = code,
            exit::NEEDS_REVIEWER => {}
            exit::GATE_FAILED => worst = code,
            other => {
                let why = format!(
                    "harness {} {}: exit {other}; see the lint job's log",
                    what[0], what[1]
                );
                std::fs::write(dir.join("failed"), &why)
                    .map_err(|e| Error::io_op("write", dir, e))?;
                annotate("error", &why);
                return Ok(other);
            }
        }
    }
    if worst == exit::NEEDS_REVIEWER {
        annotate(
            "notice title=charter lint",
            "a finding needs a reviewer; it is in the pull-request comment",
        );
        return Ok(exit::OK);
    }
    Ok(worst)
}

/// Whether an earlier run stored a gate under `key`: the cache (the step before looked), else
/// an unexpired artifact of a run on this repository's own branches — a fork's pull request
/// can add a workflow of its own, which could upload anything under the name.
pub fn stored(key: &str, cache_hit: bool, repo: &str) -> Result<u8> {
    if cache_hit {
        output(&[("reuse", "true"), ("from", "cache")])?;
        return Ok(exit::OK);
    }
    let filter = "[.artifacts[] | select(.expired | not) | select(.workflow_run.head_repository_id == .workflow_run.repository_id)][0].workflow_run.id // empty";
    let found = gh(&[
        "api",
        "-X",
        "GET",
        &format!("repos/{repo}/actions/artifacts"),
        "-f",
        &format!("name=charter-gate-{key}"),
        "-f",
        "per_page=100",
        "--jq",
        filter,
    ]);
    let run_id = match found {
        Ok(id) => id.trim().to_string(),
        Err(why) => {
            annotate(
                "warning",
                &format!("could not list earlier runs' artifacts ({why}); the gate runs"),
            );
            String::new()
        }
    };
    let id_ok = !run_id.is_empty() && run_id.bytes().all(|b| b.is_ascii_digit());
    if id_ok {
        output(&[("reuse", "true"), ("from", &run_id)])?;
    } else {
        output(&[("reuse", "false"), ("from", "")])?;
    }
    Ok(exit::OK)
}

/// One shard of the gate (`K/N`) into results/shard-K. A shard decides nothing (the decide job
/// merges them): 0, 1 and 3 are its units' results; 2 and anything else stop the job.
pub fn shard(matrix: &str, shard: &str) -> Result<u8> {
    let n = shard.split_once('/').map_or("", |(k, _)| k);
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::input(format!("--shard {shard:?}: expected K/N")));
    }
    let dir = format!("results/shard-{n}");
    output(&[("dir", &dir), ("name", &format!("shard-{n}"))])?;
    // Nothing of a results/ folder but this shard's own is uploaded; none is left to mix in.
    let _ = std::fs::remove_dir_all("results");
    let code = harness_quoted(&["run", "--matrix", matrix, "--shard", shard, "--out", &dir])?;
    match code {
        exit::OK | exit::GATE_FAILED | exit::INCONCLUSIVE => Ok(exit::OK),
        exit::USAGE => {
            annotate("error", "harness run: bad input (exit 2): the manifest, the charter or the cases; see the log");
            Ok(code)
        }
        other => {
            annotate(
                "error",
                &format!("harness run could not finish (exit {other}); see the log"),
            );
            Ok(other)
        }
    }
}

/// Ubuntu 24.04 restricts unprivileged user namespaces through AppArmor, which the trials'
/// sandbox needs: where the setting is readable and on, `sudo sysctl` turns it off.
pub fn userns(setting: &Path) -> Result<u8> {
    let on = std::fs::read_to_string(setting).is_ok_and(|v| v.trim() != "0");
    if !on {
        return Ok(exit::OK);
    }
    let ok = std::process::Command::new("sudo")
        .args([
            "sysctl",
            "-w",
            "kernel.apparmor_restrict_unprivileged_userns=0",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(exit::OK)
    } else {
        annotate("error", "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 failed: the sandbox cannot run here");
        Ok(exit::HARNESS_FAILED)
    }
}
