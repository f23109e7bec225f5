//! The tool set offered to models, executed inside a trial's workspace. Paths are confined to the
//! workspace: absolute paths and `..` are refused as tool errors, and every file is opened
//! through a handle of the workspace root with no symlink anywhere in its path (see
//! [`crate::trial::confined`]), so a name swapped for a link never leads a tool out. After every
//! sandboxed command the tree is taken back ([`crate::trial::workspace::reclaim`]) before a tool reads it.

use crate::suite::case::Variant;
use crate::trial::confined::{self, Kind, Root};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

mod commands;
mod files;

/// Output lines a `search` or `list_files` returns before it says it was cut.
const MAX_LINES: usize = 400;

/// A tool's answer; `is_error` marks a refusal or failure shown to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub content: String,
    pub is_error: bool,
    /// The tool refused because a size cap would be passed (recorded in the transcript).
    pub capped: bool,
    /// The tool refused (a path out of the workspace, through a link, a tool not offered, a
    /// cap), as opposed to failing.
    pub refused: bool,
}

impl ToolResult {
    /// The status a transcript records on the tool message.
    pub fn status(&self) -> checkers::transcript::ToolStatus {
        use checkers::transcript::ToolStatus;
        if self.refused || self.capped {
            ToolStatus::Refused
        } else if self.is_error {
            ToolStatus::Error
        } else {
            ToolStatus::Ok
        }
    }
}

fn refused(content: impl Into<String>) -> ToolResult {
    ToolResult {
        refused: true,
        ..err(content)
    }
}

fn ok(content: impl Into<String>) -> ToolResult {
    ToolResult {
        content: content.into(),
        is_error: false,
        capped: false,
        refused: false,
    }
}
fn err(content: impl Into<String>) -> ToolResult {
    ToolResult {
        content: format!("error: {}", content.into()),
        is_error: true,
        capped: false,
        refused: false,
    }
}

/// Size caps on what a model can make the harness store (`[run]` in the manifest).
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    pub max_file_bytes: u64,
    pub max_tool_result_bytes: u64,
    pub max_workspace_bytes: u64,
    pub max_files: u64,
    pub max_transcript_bytes: u64,
    /// Seconds of working time (outside provider calls) a trial may take.
    pub max_trial_secs: u64,
    pub max_tool_calls: u64,
}

impl Default for Caps {
    fn default() -> Self {
        let run = crate::suite::manifest::RunConfig::default();
        Caps::from(&run)
    }
}

impl From<&crate::suite::manifest::RunConfig> for Caps {
    fn from(run: &crate::suite::manifest::RunConfig) -> Self {
        Caps {
            max_file_bytes: run.max_file_bytes,
            max_tool_result_bytes: run.max_tool_result_bytes,
            max_workspace_bytes: run.max_workspace_bytes,
            max_files: run.max_files,
            max_transcript_bytes: run.max_transcript_bytes,
            max_trial_secs: run.max_trial_secs,
            max_tool_calls: run.max_tool_calls,
        }
    }
}

/// A refused or failed open of `rel`, as the model sees it.
fn io_err(rel: &str, e: std::io::Error) -> ToolResult {
    if confined::is_link_refusal(&e) {
        refused(format!(
            "{rel}: the path goes through a symlink; links are never followed"
        ))
    } else {
        err(format!("{rel}: {e}"))
    }
}

/// What a walk of the workspace found: regular files with their sizes, and links (never
/// entered), each in path order.
#[derive(Default)]
struct Walked {
    files: Vec<(String, u64)>,
    links: Vec<String>,
}

/// Cut `text` to `max` bytes on a character boundary, with a marker saying so.
pub fn cap_text(text: String, max: u64, what: &str) -> (String, bool) {
    let max = max as usize;
    if text.len() <= max {
        return (text, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let total = text.len();
    (
        format!("{}\n[{what} cut at {max} bytes of {total}]", &text[..end]),
        true,
    )
}

/// The tools of one trial.
pub struct ToolBox {
    root: Option<PathBuf>,
    /// A handle of the root every file is opened through.
    handle: Option<Root>,
    /// What the harness cut, dropped or removed since the episode last asked (for `caps_hit`).
    notes: Vec<String>,
    offered: Vec<String>,
    run_tests: Vec<String>,
    pages: BTreeMap<String, String>,
    test_timeout: Duration,
    deploys: u32,
    caps: Caps,
    /// Commands run unconfined: only for the suite's own history steps (no model wrote them).
    trusted: bool,
    /// The workspace's regular files and their sizes, walked once and then kept up to date by
    /// each write; dropped after every command (which may have changed anything).
    account: Option<Account>,
    /// What each command changed in the workspace, since the episode last asked.
    effects: Vec<(String, Vec<checkers::transcript::PathDigest>)>,
}

/// The running account of a workspace's files (paths as bytes) and their total size.
#[derive(Default)]
pub(crate) struct Account {
    pub(crate) sizes: std::collections::HashMap<Vec<u8>, u64>,
    pub(crate) bytes: u64,
}

impl Account {
    fn set(&mut self, path: &str, size: u64) {
        let old = self.sizes.insert(path.as_bytes().to_vec(), size);
        self.bytes = self.bytes - old.unwrap_or(0) + size;
    }
}

impl ToolBox {
    pub fn new(variant: &Variant, root: Option<&Path>, test_timeout: Duration) -> ToolBox {
        let root = root.map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.to_path_buf()));
        ToolBox {
            handle: root.as_deref().and_then(|r| Root::open(r).ok()),
            notes: Vec::new(),
            root,
            offered: variant.tools.clone(),
            run_tests: variant.run_tests.clone(),
            pages: variant.pages.clone(),
            test_timeout,
            deploys: 0,
            caps: Caps::default(),
            trusted: false,
            account: None,
            effects: Vec::new(),
        }
    }

    /// For replaying a case file's own history on its own fixture: nothing a model wrote runs,
    /// so the commands need no sandbox (and pay for none).
    pub fn trusted(mut self) -> ToolBox {
        self.trusted = true;
        self
    }

    pub fn with_caps(mut self, caps: Caps) -> ToolBox {
        self.caps = caps;
        self
    }

    /// What the harness cut, dropped or removed since the last call of this (for `caps_hit`).
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The commands run since the last call of this, each with what it changed.
    pub fn take_effects(&mut self) -> Vec<(String, Vec<checkers::transcript::PathDigest>)> {
        std::mem::take(&mut self.effects)
    }

    /// The running account, walked now if the last command made it stale.
    fn account(&mut self) -> &mut Account {
        if self.account.is_none() {
            let mut a = Account::default();
            if let Ok(root) = self.handle() {
                let _ = root.walk("", &|_| false, &mut |e| {
                    if e.kind == Kind::File && e.rel != ".git" {
                        a.sizes.insert(e.raw.clone(), e.stat.st_size as u64);
                        a.bytes += e.stat.st_size as u64;
                    }
                    true
                });
            }
            self.account = Some(a);
        }
        self.account.as_mut().expect("set above")
    }

    pub async fn call(&mut self, name: &str, args: &Value) -> ToolResult {
        if !self.offered.iter().any(|t| t == name) {
            return refused(format!(
                "tool {name:?} is not available here (available: {})",
                self.offered.join(", ")
            ));
        }
        let arg = |k: &str| args.get(k).and_then(Value::as_str);
        match name {
            "list_files" => self.list_files(arg("path").unwrap_or("")),
            "read_file" => match arg("path") {
                Some(p) => self.read_file(p),
                None => err("read_file needs a string `path`"),
            },
            "search" => match arg("pattern") {
                Some(p) => self.search(p, arg("path").unwrap_or("")),
                None => err("search needs a string `pattern`"),
            },
            "write_file" => match (arg("path"), arg("content")) {
                (Some(p), Some(c)) => self.write_file(p, c),
                _ => err("write_file needs string `path` and `content`"),
            },
            "edit_file" => match (arg("path"), arg("old"), arg("new")) {
                (Some(p), Some(o), Some(n)) => self.edit_file(p, o, n),
                _ => err("edit_file needs string `path`, `old` and `new`"),
            },
            "run_tests" => self.run_tests().await,
            "fetch" => match arg("url") {
                Some(u) => self.fetch(u),
                None => err("fetch needs a string `url`"),
            },
            "deploy" => self.deploy(),
            _ => err(format!("unknown tool {name:?}")),
        }
    }

    fn root(&self) -> Result<&Path, ToolResult> {
        self.root
            .as_deref()
            .ok_or_else(|| err("this case has no workspace"))
    }

    fn handle(&self) -> Result<&Root, ToolResult> {
        self.handle
            .as_ref()
            .ok_or_else(|| err("this case has no workspace"))
    }

    /// `rel` as a path inside the workspace, with the handle every open goes through.
    fn beneath_root(&self, rel: &str) -> Result<(String, &Root), ToolResult> {
        let path = self.relative(rel)?;
        Ok((path, self.handle()?))
    }

    /// A model-given path as a path relative to the workspace root, or a refusal. Links are
    /// not looked at here: every open refuses them itself.
    pub fn relative(&self, rel: &str) -> Result<String, ToolResult> {
        self.handle()?;
        let p = Path::new(rel);
        if p.is_absolute() || rel.starts_with('~') {
            return Err(refused(format!(
                "path {rel:?} is absolute; paths are relative to the workspace root"
            )));
        }
        if p.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::Prefix(_) | Component::RootDir
            )
        }) {
            return Err(refused(format!("path {rel:?} leaves the workspace")));
        }
        if p.components().any(|c| c.as_os_str() == ".git") {
            return Err(refused(format!(
                "path {rel:?}: .git is not part of the workspace"
            )));
        }
        let parts: Vec<String> = p
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        Ok(parts.join("/"))
    }

    /// Regular files and links under `start` (a folder or a file), `.git` left out, no link
    /// entered; `read` is called with each regular file's folder and name.
    fn walk(
        &self,
        start: &str,
        read: &mut dyn FnMut(&confined::Entry<'_>),
    ) -> std::io::Result<Walked> {
        let Ok(root) = self.handle() else {
            return Ok(Walked::default());
        };
        let mut walked = Walked::default();
        root.walk(start, &|name| name == ".git", &mut |e| {
            match e.kind {
                Kind::File => {
                    walked.files.push((e.rel.clone(), e.stat.st_size as u64));
                    read(e);
                }
                Kind::Link => walked.links.push(e.rel.clone()),
                Kind::Dir | Kind::Special(_) | Kind::Unreadable => {}
            }
            true
        })?;
        walked.files.sort();
        walked.links.sort();
        Ok(walked)
    }
}

fn cap(lines: Vec<String>, what: &str) -> ToolResult {
    if lines.len() > MAX_LINES {
        let more = lines.len() - MAX_LINES;
        let mut out = lines[..MAX_LINES].join("\n");
        out.push_str(&format!("\n[truncated: {more} more {what}]"));
        ok(out)
    } else {
        ok(lines.join("\n"))
    }
}
