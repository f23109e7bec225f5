//! Binding the suite to the charter under test, once per run, before any model is called.
//!
//! - Fixture files are templates: `{{core_invariants}}` becomes the charter's Core Invariants
//!   section verbatim, `{{task}}` and `{{mutated_task}}` the case's ground-truth texts. A state
//!   file therefore holds what the charter under test says, whatever edit it carries.
//! - Integrity tokens in seeded turns (`{{integrity_token:PATH}}`) are computed over the rendered
//!   bytes of that file, for the case at hand.
//! - A history's tool calls are run on the rendered fixture in order, each step that changes a
//!   file is committed (fixed author and date), and each call's real result is seeded after it:
//!   what the history claims happened is in the repository a model inspects.

use crate::error::{Error, Result};
use crate::suite::case::Case;
use crate::suite::{expand_tokens, integrity_token, Suite};
use crate::trial::tools::ToolBox;
use crate::trial::workspace::{commit_all, copy_tree, init_repo, tempdir};
use checkers::transcript::Role;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A suite bound to one charter; the prepared fixtures live as long as it does.
pub struct Prepared {
    pub suite: Suite,
    _dir: Option<tempfile::TempDir>,
}

/// The template variables of one case.
fn vars<'a>(case: &'a Case, core_invariants: &'a str) -> [(&'static str, &'a str); 3] {
    [
        ("{{core_invariants}}", core_invariants),
        ("{{task}}", case.truth.task.as_deref().unwrap_or("")),
        (
            "{{mutated_task}}",
            case.truth.mutated_task.as_deref().unwrap_or(""),
        ),
    ]
}

fn render(text: &str, vars: &[(&str, &str)]) -> String {
    vars.iter()
        .fold(text.to_string(), |t, (k, v)| t.replace(k, v))
}

fn is_template(dir: &Path) -> bool {
    crate::files::files_under(&[dir.to_path_buf()], |_| true)
        .unwrap_or_default()
        .iter()
        .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("{{")))
}

/// Render every text file under `dir` in place.
fn render_tree(dir: &Path, vars: &[(&str, &str)]) -> Result<()> {
    for f in crate::files::files_under(&[dir.to_path_buf()], |_| true)? {
        if let Ok(text) = std::fs::read_to_string(&f) {
            if text.contains("{{") {
                std::fs::write(&f, render(&text, vars)).map_err(|e| Error::io(&f, e))?;
            }
        }
    }
    Ok(())
}

/// Integrity tokens in a variant's seeded turns, over the rendered bytes of the file of the
/// suite (under `suite_root`) each names; an error names the case file.
fn expand_integrity_tokens(
    variant: &mut crate::suite::case::Variant,
    suite_root: &Path,
    case_vars: &[(&str, &str)],
    case_file: &Path,
) -> Result<()> {
    for m in variant.seed.iter_mut() {
        if !m.content.contains("{{integrity_token:") {
            continue;
        }
        m.content = expand_tokens(&m.content, |rel| {
            let path = crate::files::read::within(suite_root, rel, "integrity token")
                .map_err(|e| e.to_string())?;
            let text = crate::files::read::read_text(&path, crate::files::read::Kind::Scripted)
                .map_err(|e| format!("{e} (the integrity token names a file of the suite)"))?;
            Ok(integrity_token(&render(&text, case_vars)))
        })
        .map_err(|e| Error::input(format!("{}: {e}", case_file.display())))?;
    }
    Ok(())
}

/// Bind `suite` to a charter's Core Invariants. `test_timeout` bounds a history's test runs.
pub fn bind(suite: &Suite, core_invariants: &str, test_timeout: Duration) -> Result<Prepared> {
    let mut bound = suite.clone();
    let mut dir: Option<tempfile::TempDir> = None;
    let mut prepared: HashMap<(PathBuf, String), PathBuf> = HashMap::new();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(e.to_string()))?;
    for case in bound.cases.iter_mut() {
        let snapshot = case.clone();
        let case_vars = vars(&snapshot, core_invariants);
        let vars_key = case_vars
            .iter()
            .map(|(_, v)| *v)
            .collect::<Vec<_>>()
            .join("\u{0}");
        for variant in case.variants.iter_mut() {
            expand_integrity_tokens(variant, &suite.root, &case_vars, &snapshot.file)?;
            let has_steps = variant.seed.iter().any(|m| !m.tool_calls.is_empty());
            let Some(fixture) = variant.fixture.clone() else {
                continue;
            };
            if !has_steps && !is_template(&fixture) {
                continue;
            }
            let key = (fixture.clone(), format!("{}\u{0}{}", vars_key, variant.id));
            let root = match dir.as_ref() {
                Some(d) => d.path().to_path_buf(),
                None => dir
                    .insert(tempdir("charter-harness-prepared-")?)
                    .path()
                    .to_path_buf(),
            };
            if let Some(done) = prepared.get(&key).filter(|_| !has_steps) {
                variant.fixture = Some(done.clone());
                continue;
            }
            let out = root.join(prepared.len().to_string());
            std::fs::create_dir_all(&out).map_err(|e| Error::io_op("create folder", &out, e))?;
            copy_tree(&fixture, &out)?;
            render_tree(&out, &case_vars)?;
            let out = if has_steps {
                replay_cached(&rt, variant, out, test_timeout)?
            } else {
                out
            };
            prepared.insert(key, out.clone());
            variant.fixture = Some(out);
        }
    }
    Ok(Prepared {
        suite: bound,
        _dir: dir,
    })
}

/// A fixture with a history, replayed once per machine: the result (the repository with its
/// commits, and every call's result) depends only on the rendered fixture, the history and the
/// harness version, so it is kept in the cache folder under their hash and reused.
fn replay_cached(
    rt: &tokio::runtime::Runtime,
    variant: &mut crate::suite::case::Variant,
    rendered: PathBuf,
    test_timeout: Duration,
) -> Result<PathBuf> {
    let key = history_key(&rendered, &variant.seed)?;
    let base = crate::suite::embedded::cache_root();
    let dest = base.join(format!("history-{}", &key[..16]));
    let (tree, results_file) = (dest.join("tree"), dest.join("results.json"));
    let fill = |variant: &mut crate::suite::case::Variant, results: &[String]| {
        let mut it = results.iter();
        for m in variant.seed.iter_mut().filter(|m| m.role == Role::Tool) {
            if let Some(r) = it.next() {
                m.content = r.clone();
            }
        }
    };
    if let Ok(text) = std::fs::read_to_string(&results_file) {
        if let Ok(results) = serde_json::from_str::<Vec<String>>(&text) {
            fill(variant, &results);
            return Ok(tree);
        }
    }
    replay_steps(rt, variant, &rendered, test_timeout)?;
    let results: Vec<String> = variant
        .seed
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| m.content.clone())
        .collect();
    match publish_history(&base, &rendered, &results, &dest) {
        Ok(()) => Ok(tree),
        // Another run published it first, or the cache is not writable: use what exists.
        Err(_) if results_file.is_file() => Ok(tree),
        Err(_) => Ok(rendered),
    }
}

/// A history's cache key: the harness version, the rendered fixture's files (names and bytes)
/// and the seeded turns, hashed.
fn history_key(rendered: &Path, seed: &[checkers::transcript::Message]) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    let mut files = crate::files::files_under(&[rendered.to_path_buf()], |_| true)?;
    files.sort();
    for f in &files {
        h.update(
            f.strip_prefix(rendered)
                .unwrap_or(f)
                .to_string_lossy()
                .as_bytes(),
        );
        h.update([0]);
        h.update(std::fs::read(f).map_err(|e| Error::io_op("read", f, e))?);
    }
    h.update(serde_json::to_vec(seed).map_err(|e| Error::Internal(e.to_string()))?);
    Ok(format!("{:x}", h.finalize()))
}

/// Publish a replayed history in the cache atomically: staged beside it, the results file in
/// last, then the folder renamed to `dest`.
fn publish_history(
    base: &Path,
    rendered: &Path,
    results: &[String],
    dest: &Path,
) -> std::io::Result<()> {
    std::fs::create_dir_all(base)?;
    let tmp = tempfile::Builder::new()
        .prefix(".history-")
        .tempdir_in(base)?;
    let staged = tmp.path().join("h");
    copy_all(rendered, &staged.join("tree"))?;
    std::fs::write(
        staged.join("results.json"),
        serde_json::to_vec(results).unwrap_or_default(),
    )?;
    std::fs::rename(&staged, dest)
}

/// Copy a tree, `.git` included (the cache may be on another file system).
fn copy_all(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let dst = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_all(&e.path(), &dst)?;
        } else {
            std::fs::copy(e.path(), dst)?;
        }
    }
    Ok(())
}

/// Run a history's tool calls on the prepared fixture, commit each step that changes a file,
/// and fill each call's seeded result.
fn replay_steps(
    rt: &tokio::runtime::Runtime,
    variant: &mut crate::suite::case::Variant,
    dir: &Path,
    test_timeout: Duration,
) -> Result<()> {
    let repo = init_repo(dir)?;
    commit_all(&repo, "fixture: before the session", 0)?;
    // The history and the fixture both come from the case suite, not from a model.
    let mut toolbox = ToolBox::new(variant, Some(dir), test_timeout).trusted();
    let mut step = 0i64;
    let mut i = 0;
    while i < variant.seed.len() {
        let calls = variant.seed[i].tool_calls.clone();
        if calls.is_empty() {
            i += 1;
            continue;
        }
        step += 1;
        let mut changed = false;
        for (k, call) in calls.iter().enumerate() {
            let result = rt.block_on(toolbox.call(&call.name, &call.arguments));
            if result.is_error {
                return Err(Error::input(format!(
                    "history step {step} ({}): {} failed on the fixture: {}",
                    variant.seed[i].content.lines().next().unwrap_or(""),
                    call.name,
                    result.content
                )));
            }
            changed |= checkers::extract::paths::is_state_changing(&call.name);
            let slot = &mut variant.seed[i + 1 + k];
            debug_assert_eq!(slot.role, Role::Tool);
            slot.content = result.content;
        }
        if changed {
            let message = variant.seed[i]
                .content
                .lines()
                .next()
                .unwrap_or("step")
                .to_string();
            commit_all(&repo, &message, step * 60)?;
        }
        i += 1 + calls.len();
    }
    Ok(())
}
