//! `harness init` sets a charter repository up for the gate; `harness key` names a gate's inputs
//! so a stored gate can be reused when nothing that decides it changed.

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The release this binary is; the workflow pins the action to it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What decides a gate: the charter's runtime text (the system prompt), the manifest, the case
/// suite and the harness version. Equal keys mean an equal gate, so a stored one is reused.
pub fn inputs_key(matrix: &Path, suite: Option<&Path>) -> Result<String> {
    let loaded = crate::manifest::load(&crate::manifest::resolve(matrix))?;
    let charter = crate::charter::load(&loaded.manifest.charter.source, loaded.dir())?;
    let manifest_bytes =
        std::fs::read(&loaded.path).map_err(|e| Error::io_op("read", &loaded.path, e))?;
    let suite_sha = match suite {
        Some(dir) => {
            let mut h = Sha256::new();
            let mut files =
                crate::store::files_under(&[dir.join("cases"), dir.join("fixtures")], |_| true)?;
            files.sort();
            for f in files {
                h.update(
                    f.strip_prefix(dir)
                        .unwrap_or(&f)
                        .to_string_lossy()
                        .as_bytes(),
                );
                h.update(std::fs::read(&f).map_err(|e| Error::io_op("read", &f, e))?);
            }
            format!("{:x}", h.finalize())
        }
        None => crate::embedded::sha256().to_string(),
    };
    let mut h = Sha256::new();
    for part in [
        charter.sha256.as_bytes(),
        &Sha256::digest(&manifest_bytes)[..],
        suite_sha.as_bytes(),
        VERSION.as_bytes(),
    ] {
        h.update(part);
        h.update([0]);
    }
    Ok(format!("{:x}", h.finalize())[..32].to_string())
}

/// The files `init` writes, relative to the repository root.
pub fn files() -> [(&'static str, String); 2] {
    [
        ("manifests/pinned.toml", PINNED.to_string()),
        (
            ".github/workflows/charter-gate.yml",
            workflow(&format!("v{VERSION}")),
        ),
    ]
}

/// Write the gate's files into `root`; refuse to overwrite any without `force`. Returns what it
/// wrote, in order.
pub fn init(root: &Path, force: bool) -> Result<Vec<String>> {
    let files = files();
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
        crate::store::write_atomic(&root.join(rel), text.as_bytes())?;
        wrote.push(rel.to_string());
    }
    let ignore = root.join(".gitignore");
    let existing = std::fs::read_to_string(&ignore).unwrap_or_default();
    if !existing
        .lines()
        .any(|l| l.trim() == "results/" || l.trim() == "/results/")
    {
        let sep = if existing.is_empty() || existing.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        crate::store::write_atomic(&ignore, format!("{existing}{sep}results/\n").as_bytes())?;
        wrote.push(".gitignore (results/)".into());
    }
    Ok(wrote)
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

/// The charter repository's workflow, using this release's action.
pub fn workflow(action_ref: &str) -> String {
    WORKFLOW.replace("{{ACTION_REF}}", action_ref)
}

const WORKFLOW: &str = r#"# The change gate for this charter repository, written by `harness init`.
# Needs repository secrets ANTHROPIC_API_KEY and OPENAI_API_KEY (the variables
# manifests/pinned.toml names). Every job installs the same pinned harness through its action.
# Pull requests from forks get no secrets: a maintainer runs the gate for one with
# "Run workflow" (workflow_dispatch) and the pull request's number.
name: charter-gate

on:
  pull_request:
    paths: ["CHARTER.md", "vault/files/**", "manifests/**"]
  push:
    branches: [main]
    paths: ["CHARTER.md", "vault/files/**", "manifests/**"]
  workflow_dispatch:
    inputs:
      pr:
        description: "Pull request number to gate (for one from a fork)"
        required: true

permissions:
  contents: read

env:
  PR_REF: ${{ github.event_name == 'workflow_dispatch' && format('refs/pull/{0}/head', inputs.pr) || '' }}
  BASE_REF: ${{ github.base_ref || github.event.repository.default_branch }}

jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ env.PR_REF }}
          fetch-depth: 0
      - uses: charter-harness/charter-harness@{{ACTION_REF}}
      - name: Lint the charter
        run: harness lint charter CHARTER.md --base "origin/$BASE_REF"
      - name: Lint the capsules
        run: harness lint capsule vault/files --strict --base "origin/$BASE_REF"

  plan:
    needs: lint
    runs-on: ubuntu-latest
    outputs:
      key: ${{ steps.key.outputs.key }}
      reuse: ${{ steps.cache.outputs.cache-hit }}
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ env.PR_REF }}
      - uses: charter-harness/charter-harness@{{ACTION_REF}}
      - name: Name the gate's inputs (runtime text, manifest, suite, harness version)
        id: key
        run: echo "key=$(harness key --matrix manifests/pinned.toml)" >> "$GITHUB_OUTPUT"
      - name: Look for a stored gate with the same inputs
        id: cache
        uses: actions/cache/restore@v4
        with:
          path: results/stored
          key: charter-gate-${{ steps.key.outputs.key }}
          lookup-only: true

  gate:
    needs: plan
    if: needs.plan.outputs.reuse != 'true'
    runs-on: ubuntu-latest
    timeout-minutes: 120
    strategy:
      fail-fast: false
      matrix:
        shard: ["1/2", "2/2"]
    steps:
      - name: Refuse to run without secrets (pull request from a fork)
        if: github.event_name == 'pull_request' && github.event.pull_request.head.repo.full_name != github.repository
        run: |
          echo "This pull request comes from a fork, so the model keys are not available to it." >> "$GITHUB_STEP_SUMMARY"
          echo "A maintainer can run the gate for it: Actions → charter-gate → Run workflow, with its number." >> "$GITHUB_STEP_SUMMARY"
          exit 1
      - uses: actions/checkout@v4
        with:
          ref: ${{ env.PR_REF }}
      - uses: charter-harness/charter-harness@{{ACTION_REF}}
      - name: Run this shard
        env:
          ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}
          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
          SHARD: ${{ matrix.shard }}
        # A shard decides nothing (its step summary says only how many units it ran); bad
        # input (exit 2) or the harness failing (exit 4) still fails the job.
        run: |
          set +e
          harness run --matrix manifests/pinned.toml --shard "$SHARD" --out "results/shard-${SHARD%%/*}"
          code=$?
          if [ "$code" -eq 2 ] || [ "$code" -eq 4 ]; then exit "$code"; fi
          exit 0
      - uses: actions/upload-artifact@v4
        with:
          name: shard-${{ strategy.job-index }}
          path: results/

  decide:
    needs: [plan, gate]
    if: always() && needs.plan.result == 'success' && (needs.gate.result == 'success' || needs.gate.result == 'skipped')
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ env.PR_REF }}
          fetch-depth: 0
      - uses: charter-harness/charter-harness@{{ACTION_REF}}
      - name: Restore the stored gate
        if: needs.plan.outputs.reuse == 'true'
        uses: actions/cache/restore@v4
        with:
          path: results/stored
          key: charter-gate-${{ needs.plan.outputs.key }}
      - name: Collect the shards
        if: needs.plan.outputs.reuse != 'true'
        uses: actions/download-artifact@v4
        with:
          path: results
          merge-multiple: true
      - name: Decide (regressions and failures shared with the base first in the step summary)
        env:
          ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}
          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
          REUSE: ${{ needs.plan.outputs.reuse }}
          KEY: ${{ needs.plan.outputs.key }}
        run: |
          if [ "$REUSE" = "true" ]; then
            echo "Reusing the stored gate for identical inputs (key $KEY): the runtime text, manifest, suite and harness version are unchanged, so no model was called." >> "$GITHUB_STEP_SUMMARY"
            cp -r results/stored results/gate
          else
            harness merge results/shard-1 results/shard-2 --out results/gate --quiet-summary || true
          fi
          if [ "${{ github.event_name }}" = "push" ]; then
            harness gate results/gate
          else
            harness gate results/gate --charter-base "origin/$BASE_REF"
          fi
      - name: Store this gate for identical inputs
        if: needs.plan.outputs.reuse != 'true'
        run: rm -rf results/stored && cp -r results/gate results/stored
      - uses: actions/cache/save@v4
        if: needs.plan.outputs.reuse != 'true'
        with:
          path: results/stored
          key: charter-gate-${{ needs.plan.outputs.key }}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: charter-gate-results
          path: results/gate
"#;
