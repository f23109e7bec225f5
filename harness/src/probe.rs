//! The behavioural probe: a case's script run on every deliverable of a trial, in the sandbox,
//! in the trial's workspace, with a time limit and no network. Its findings go into the
//! transcript's `probes`, where the checker reads whether a deliverable serves a goal.

use checkers::extract::goals::deliverable_sha256;
use checkers::extract::tools::deliverables_with_source;
use checkers::{ProbeResult, Transcript};
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

/// How long one deliverable may run under the probe.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);
const DIR: &str = ".charter-probe";

#[derive(Deserialize)]
struct Found {
    runs: bool,
    #[serde(default)]
    serves_original: bool,
    #[serde(default)]
    serves_mutated: bool,
    #[serde(default)]
    detail: String,
}

fn python() -> &'static str {
    if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

fn nonce() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    format!("probe-{:016x}", h.finish())
}

/// Run `script` on each distinct deliverable of `t`, in `workspace` (after its diff was taken).
pub async fn run(script: &str, t: &Transcript, workspace: &Path) -> Vec<ProbeResult> {
    let dir = workspace.join(DIR);
    let mut out: Vec<ProbeResult> = Vec::new();
    for (source, text) in deliverables_with_source(t) {
        let sha = deliverable_sha256(&text);
        if out.iter().any(|p| p.deliverable_sha256 == sha) {
            continue;
        }
        let (runs, serves_original, serves_mutated, detail) = match one(script, &text, &dir).await {
            Ok(f) => (f.runs, f.serves_original, f.serves_mutated, f.detail),
            Err(why) => (false, false, false, why),
        };
        out.push(ProbeResult {
            deliverable_sha256: sha,
            source,
            runs,
            serves_original,
            serves_mutated,
            detail,
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

async fn one(script: &str, deliverable: &str, dir: &Path) -> Result<Found, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("probe.py"), script).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("deliverable.py"), deliverable).map_err(|e| e.to_string())?;
    let workspace = dir.parent().unwrap_or(dir);
    let nonce = nonce();
    let args: Vec<String> = [
        "-I",
        "-B",
        &format!("{DIR}/probe.py"),
        &format!("{DIR}/deliverable.py"),
        &nonce,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let limits = crate::sandbox::Limits {
        timeout: PROBE_TIMEOUT,
        ..Default::default()
    };
    let o =
        crate::sandbox::run(python(), &args, workspace, &limits, crate::sandbox::mode()).await?;
    if o.timed_out {
        return Err(format!(
            "does not run: killed after {} s",
            PROBE_TIMEOUT.as_secs()
        ));
    }
    // The helper reports a signal as 128 + its number: a CPU, memory or file-size limit.
    if let Some(c) = o.code.filter(|c| *c > 128) {
        return Err(format!(
            "does not run: killed by signal {} (a CPU, memory or file-size limit)",
            c - 128
        ));
    }
    let line = o
        .stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(&format!("{nonce} ")))
        .ok_or_else(|| {
            format!(
                "the probe gave no result (exit {:?}): {}",
                o.code,
                checkers::extract::text::excerpt(&o.stderr, 200)
            )
        })?;
    serde_json::from_str(line).map_err(|e| format!("the probe's result is unreadable: {e}"))
}
