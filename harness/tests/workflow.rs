//! The gate in a real charter repository: a temporary repository with git history gets the
//! workflow `harness init` writes, and its jobs' `run:` steps are executed in order (a small
//! stand-in for GitHub Actions: `uses:` steps for checkout, the action, cache and artifacts are
//! emulated; everything else runs in bash with the built binary on PATH), against a loopback
//! model server speaking the real APIs. No checkout of this repository, no `--suite`.

mod common;

use common::model_server::{encode, Turn};
use common::repo_root;
use loopback::{LoopbackServer, RecordedRequest};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use yaml_rust2::{Yaml, YamlLoader};

const KEY: &str = "sk-test-workflow-3b1d";
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
        let core = harness::charter::section(&system, "Core Invariants").unwrap_or_default();
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
}

/// A charter repository on `main` set up by `harness init`, its models pointed at `url`.
fn charter_repo(url: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    let charter =
        std::fs::read_to_string(repo_root().join("fixtures/charters/example-charter.md")).unwrap();
    std::fs::write(root.join("CHARTER.md"), charter).unwrap();
    let o = common::harness(root, &["init"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    // The loopback server stands in for both vendors' APIs.
    let m = root.join("manifests/pinned.toml");
    let text = std::fs::read_to_string(&m)
        .unwrap()
        .replace("https://api.anthropic.com", url)
        .replace("https://api.openai.com/v1", &format!("{url}/v1"));
    std::fs::write(&m, text).unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    git(root, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
    dir
}

// ---------------------------------------------------------------- the Actions stand-in

struct Actions {
    /// actions/cache: key → stored folder, shared by every workflow run of the test.
    cache: PathBuf,
    bin_dir: PathBuf,
}

struct JobResult {
    result: &'static str,
    outputs: HashMap<String, String>,
}

struct RunOutcome {
    /// Exit code of the decide job's failing step, or 0.
    decide_code: i32,
    summary: String,
    jobs: HashMap<String, &'static str>,
}

fn s(y: &Yaml) -> String {
    match y {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        _ => String::new(),
    }
}

impl Actions {
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

    /// `if:` conditions: comparisons joined by && and ||, with always() and parentheses.
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
        if c == "always()" {
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

    /// Run one workflow for `event` on the repository as it is, returning the decide job.
    fn run(
        &self,
        workflow: &Path,
        repo: &Path,
        event: &str,
        secrets: &[(&str, &str)],
    ) -> RunOutcome {
        let doc =
            &YamlLoader::load_from_str(&std::fs::read_to_string(workflow).unwrap()).unwrap()[0];
        let scratch = tempfile::tempdir().unwrap();
        let artifacts = scratch.path().join("artifacts");
        let summary_file = scratch.path().join("summary.md");
        let mut ctx: HashMap<String, String> = HashMap::new();
        ctx.insert("github.event_name".into(), event.into());
        ctx.insert(
            "github.base_ref".into(),
            if event == "pull_request" {
                "main".into()
            } else {
                String::new()
            },
        );
        ctx.insert(
            "github.event.repository.default_branch".into(),
            "main".into(),
        );
        ctx.insert("github.repository".into(), "org/charter".into());
        ctx.insert(
            "github.event.pull_request.head.repo.full_name".into(),
            "org/charter".into(),
        );
        for (k, v) in secrets {
            ctx.insert(format!("secrets.{k}"), v.to_string());
        }
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
            let runs = if cond.is_empty() {
                needs_ok
            } else {
                self.condition(&cond, &ctx)
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
            for (index, shard) in shards.iter().enumerate() {
                // Each job (each matrix leg) gets a fresh runner: a copy of the repository.
                let work = scratch.path().join(format!("{name}-{index}"));
                Self::copy(repo, &work);
                let mut jctx = ctx.clone();
                jctx.insert("matrix.shard".into(), shard.clone());
                jctx.insert("strategy.job-index".into(), index.to_string());
                let Yaml::Array(steps) = &job["steps"] else {
                    panic!("no steps")
                };
                for step in steps {
                    let scond = s(&step["if"]);
                    if !scond.is_empty() && !self.condition(&scond, &jctx) {
                        continue;
                    }
                    let id = s(&step["id"]);
                    let with = |k: &str| self.substitute(&s(&step["with"][k]), &jctx);
                    let mut step_outputs: HashMap<String, String> = HashMap::new();
                    let uses = s(&step["uses"]);
                    let code = if uses.starts_with("actions/checkout")
                        || uses.starts_with("charter-harness/")
                    {
                        0
                    } else if uses.starts_with("actions/cache/restore") {
                        let stored = self.cache.join(with("key"));
                        let hit = stored.is_dir();
                        step_outputs.insert("cache-hit".into(), hit.to_string());
                        if hit && with("lookup-only") != "true" {
                            Self::copy(&stored, &work.join(with("path")));
                        }
                        0
                    } else if uses.starts_with("actions/cache/save") {
                        let stored = self.cache.join(with("key"));
                        if !stored.exists() {
                            Self::copy(&work.join(with("path")), &stored);
                        }
                        0
                    } else if uses.starts_with("actions/upload-artifact") {
                        let from = work.join(with("path"));
                        if from.exists() {
                            Self::copy(&from, &artifacts.join(with("name")));
                        }
                        0
                    } else if uses.starts_with("actions/download-artifact") {
                        for a in std::fs::read_dir(&artifacts).unwrap().flatten() {
                            Self::copy(&a.path(), &work.join(with("path")));
                        }
                        0
                    } else if !uses.is_empty() {
                        panic!("no stand-in for {uses}")
                    } else {
                        let script = self.substitute(&s(&step["run"]), &jctx);
                        let out_file = scratch.path().join(format!("out-{name}-{index}-{id}"));
                        std::fs::write(&out_file, "").unwrap();
                        let mut cmd = std::process::Command::new("bash");
                        cmd.args(["-e", "-c", &script])
                            .current_dir(&work)
                            .env(
                                "PATH",
                                format!(
                                    "{}:{}",
                                    self.bin_dir.display(),
                                    std::env::var("PATH").unwrap()
                                ),
                            )
                            .env("GITHUB_OUTPUT", &out_file)
                            .env(
                                "GITHUB_STEP_SUMMARY",
                                if name == "decide" {
                                    summary_file.clone()
                                } else {
                                    scratch.path().join(format!("summary-{name}.md"))
                                },
                            )
                            .env("GITHUB_ACTIONS", "true")
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
                    if code != 0 {
                        result = "failure";
                        if name == "decide" {
                            decide_code = code;
                        }
                        break;
                    }
                }
                if let Yaml::Hash(outs) = &job["outputs"] {
                    for (k, v) in outs {
                        outputs.insert(s(k), self.substitute(&s(v), &jctx));
                    }
                }
            }
            results.insert(name, JobResult { result, outputs });
        }
        RunOutcome {
            decide_code,
            summary: std::fs::read_to_string(&summary_file).unwrap_or_default(),
            jobs: results.iter().map(|(k, v)| (k.clone(), v.result)).collect(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charter_repository_goes_from_init_to_a_correct_gate_verdict_on_each_pull_request() {
    let scripts = Arc::new(Scripts::load());
    let s2 = scripts.clone();
    let server = LoopbackServer::start(Arc::new(move |r: &RecordedRequest, _| {
        encode(r, &s2.reply(r), "test-model")
    }))
    .await;
    let repo = charter_repo(&server.url());
    let root = repo.path().to_path_buf();
    let state = tempfile::tempdir().unwrap();
    let actions = Actions {
        cache: state.path().join("cache"),
        bin_dir: Path::new(env!("CARGO_BIN_EXE_harness"))
            .parent()
            .unwrap()
            .to_path_buf(),
    };
    std::fs::create_dir_all(&actions.cache).unwrap();
    let workflow = root.join(".github/workflows/charter-gate.yml");
    let secrets = [("ANTHROPIC_API_KEY", KEY), ("OPENAI_API_KEY", KEY)];
    let run = |event: &'static str| {
        let (a, w, r) = (&actions, workflow.clone(), root.clone());
        let secrets = secrets;
        tokio::task::block_in_place(move || a.run(&w, &r, event, &secrets))
    };

    // The base branch's own gate, stored for identical inputs.
    let base = run("push");
    assert_eq!(base.decide_code, 0, "{}", base.summary);
    assert!(base.summary.contains("PASS"), "{}", base.summary);

    let charter = std::fs::read_to_string(root.join("CHARTER.md")).unwrap();
    // 1. A wording edit with a patch bump: the gate passes.
    git(&root, &["checkout", "-qb", "pr-wording"]);
    std::fs::write(
        root.join("CHARTER.md"),
        charter.replace("Version 0.1.0", "Version 0.1.1").replace(
            "When unsure, pick the higher tier.",
            "When unsure, choose the higher tier.",
        ),
    )
    .unwrap();
    git(&root, &["commit", "-qam", "wording"]);
    let pass = run("pull_request");
    assert_eq!(pass.decide_code, 0, "{}", pass.summary);
    assert_eq!(pass.jobs["gate"], "success");
    assert!(
        pass.summary.contains("Against the base"),
        "{}",
        pass.summary
    );
    assert!(pass.summary.contains("PASS"), "{}", pass.summary);
    assert!(!pass.summary.contains("Reusing"), "{}", pass.summary);

    // 2. Dropping "derive twice" (a major bump, so the lints pass): E1 regresses on both models.
    git(&root, &["checkout", "-q", "main"]);
    git(&root, &["checkout", "-qb", "pr-regress"]);
    let weakened = charter.replace("Version 0.1.0", "Version 1.0.0").replace(
        "2. **Derive twice.** A quantity is stated only after two independent derivations agree.\n",
        "",
    );
    assert!(!weakened.contains(MARKER));
    std::fs::write(root.join("CHARTER.md"), weakened).unwrap();
    git(&root, &["commit", "-qam", "drop derive twice"]);
    let regress = run("pull_request");
    assert_eq!(regress.decide_code, 1, "{}", regress.summary);
    let top = regress
        .summary
        .find("Against the base")
        .expect("base comparison in the summary");
    let gate = regress.summary.find("# Charter gate").unwrap();
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

    // 3. A capsule-only edit: the runtime text, manifest, suite and harness are the base's, so
    //    the base's stored gate is reused and no model is called.
    git(&root, &["checkout", "-q", "main"]);
    git(&root, &["checkout", "-qb", "pr-capsule"]);
    std::fs::create_dir_all(root.join("vault/files")).unwrap();
    std::fs::copy(
        repo_root().join("harness/tests/lint/capsule/good.md"),
        root.join("vault/files/good.md"),
    )
    .unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "capsule"]);
    let before = server.requests().len();
    let reused = run("pull_request");
    assert_eq!(reused.decide_code, 0, "{}", reused.summary);
    assert_eq!(reused.jobs["gate"], "skipped");
    assert!(
        reused.summary.contains("Reusing the stored gate"),
        "{}",
        reused.summary
    );
    assert_eq!(
        server.requests().len(),
        before,
        "a reused gate calls no model"
    );
}
