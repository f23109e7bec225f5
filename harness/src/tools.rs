//! The contract §2 tool set, executed inside a trial's workspace. Paths are confined to the
//! workspace: absolute paths and `..` are refused as tool errors, and every file is opened
//! through a handle of the workspace root with no symlink anywhere in its path (see
//! [`crate::beneath`]), so a name swapped for a link never leads a tool out. After every
//! sandboxed command the tree is taken back ([`crate::workspace::reclaim`]) before a tool reads it.

use crate::beneath::{self, Kind, Root};
use crate::case::Variant;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// Output lines a `search` or `list_files` returns before it says it was cut.
const MAX_LINES: usize = 400;

/// A tool's answer; `is_error` marks a refusal or failure shown to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub content: String,
    pub is_error: bool,
    /// The tool refused because a size cap would be passed (recorded in the transcript).
    pub capped: bool,
}

fn ok(content: impl Into<String>) -> ToolResult {
    ToolResult {
        content: content.into(),
        is_error: false,
        capped: false,
    }
}
fn err(content: impl Into<String>) -> ToolResult {
    ToolResult {
        content: format!("error: {}", content.into()),
        is_error: true,
        capped: false,
    }
}

/// Size caps on what a model can make the harness store (`[run]` in the manifest).
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    pub max_file_bytes: u64,
    pub max_tool_result_bytes: u64,
    pub max_workspace_bytes: u64,
}

impl Default for Caps {
    fn default() -> Self {
        let run = crate::manifest::RunConfig::default();
        Caps::from(&run)
    }
}

impl From<&crate::manifest::RunConfig> for Caps {
    fn from(run: &crate::manifest::RunConfig) -> Self {
        Caps {
            max_file_bytes: run.max_file_bytes,
            max_tool_result_bytes: run.max_tool_result_bytes,
            max_workspace_bytes: run.max_workspace_bytes,
        }
    }
}

/// A refused or failed open of `rel`, as the model sees it.
fn io_err(rel: &str, e: std::io::Error) -> ToolResult {
    if beneath::is_link_refusal(&e) {
        err(format!(
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

/// A tool offered to the model: name, description, JSON-schema parameters.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: Value,
}

pub fn spec(name: &str) -> Option<ToolSpec> {
    let s = |name, description, parameters| {
        Some(ToolSpec {
            name,
            description,
            parameters,
        })
    };
    let obj = |props: Value, required: &[&str]| json!({"type": "object", "properties": props, "required": required});
    match name {
        "list_files" => s("list_files", "List files under a folder of the workspace, one path per line.", obj(json!({"path": {"type": "string", "description": "folder relative to the workspace root; default the root"}}), &[])),
        "read_file" => s("read_file", "Read a text file of the workspace.", obj(json!({"path": {"type": "string"}}), &["path"])),
        "search" => s("search", "Search file contents with a regular expression, like grep -rnE. Returns path:line:text per match, or (no matches).", obj(json!({"pattern": {"type": "string"}, "path": {"type": "string", "description": "folder or file to search; default the root"}}), &["pattern"])),
        "write_file" => s("write_file", "Create or overwrite a file with the given content.", obj(json!({"path": {"type": "string"}, "content": {"type": "string"}}), &["path", "content"])),
        "edit_file" => s("edit_file", "Replace every occurrence of `old` with `new` in a file. Fails if `old` does not occur.", obj(json!({"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}}), &["path", "old", "new"])),
        "run_tests" => s("run_tests", "Run the project's test suite and return its output.", obj(json!({}), &[])),
        "fetch" => s("fetch", "Fetch a web page by URL and return its text.", obj(json!({"url": {"type": "string"}}), &["url"])),
        "deploy" => s("deploy", "Deploy the current workspace and return the deploy log.", obj(json!({}), &[])),
        _ => None,
    }
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

    pub async fn call(&mut self, name: &str, args: &Value) -> ToolResult {
        if !self.offered.iter().any(|t| t == name) {
            return err(format!(
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

    /// A model-given path as a path relative to the workspace root, or a refusal. Links are
    /// not looked at here: every open refuses them itself.
    pub fn relative(&self, rel: &str) -> Result<String, ToolResult> {
        self.handle()?;
        let p = Path::new(rel);
        if p.is_absolute() || rel.starts_with('~') {
            return Err(err(format!(
                "path {rel:?} is absolute; paths are relative to the workspace root"
            )));
        }
        if p.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::Prefix(_) | Component::RootDir
            )
        }) {
            return Err(err(format!("path {rel:?} leaves the workspace")));
        }
        if p.components().any(|c| c.as_os_str() == ".git") {
            return Err(err(format!(
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
        read: &mut dyn FnMut(&beneath::Entry<'_>),
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
                Kind::Dir | Kind::Special(_) => {}
            }
            true
        })?;
        walked.files.sort();
        walked.links.sort();
        Ok(walked)
    }

    fn list_files(&self, rel: &str) -> ToolResult {
        let dir = match self.relative(rel) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let walked = match self.walk(&dir, &mut |_| {}) {
            Ok(w) => w,
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                return err(format!("{rel}: no such folder"))
            }
            Err(e) => return io_err(rel, e),
        };
        let mut lines: Vec<String> = walked.files.into_iter().map(|(p, _)| p).collect();
        // Links are named, never entered: the model knows they are there and cannot use them.
        lines.extend(
            walked
                .links
                .into_iter()
                .map(|l| format!("{l} (symlink, not followed)")),
        );
        lines.sort();
        cap(lines, "files")
    }

    fn read_file(&self, rel: &str) -> ToolResult {
        let path = match self.relative(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        // Only a regular file with one name is read, and never more than the result cap: a FIFO
        // or a device a test script made would hang or never end, a hard link may be outside.
        let root = match self.handle() {
            Ok(r) => r,
            Err(e) => return e,
        };
        match root.read(&path, self.caps.max_tool_result_bytes + 1) {
            Ok(bytes) => ok(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => io_err(rel, e),
        }
    }

    /// Bytes of regular files in the workspace, `except` left out.
    fn workspace_bytes(&self, except: &str) -> u64 {
        self.walk("", &mut |_| {})
            .map(|w| {
                w.files
                    .iter()
                    .filter(|(p, _)| p != except)
                    .map(|(_, n)| n)
                    .sum()
            })
            .unwrap_or(0)
    }

    /// Refuse a write of `len` bytes to `path` that passes a cap.
    fn check_write(&self, rel: &str, path: &str, len: u64) -> Result<(), ToolResult> {
        let capped = |e: ToolResult| ToolResult { capped: true, ..e };
        if len > self.caps.max_file_bytes {
            return Err(capped(err(format!(
                "{rel}: {len} bytes is more than the {} bytes a file may hold here",
                self.caps.max_file_bytes
            ))));
        }
        if self.workspace_bytes(path) + len > self.caps.max_workspace_bytes {
            return Err(capped(err(format!(
                "{rel}: the workspace would pass its {} bytes",
                self.caps.max_workspace_bytes
            ))));
        }
        Ok(())
    }

    fn search(&self, pattern: &str, rel: &str) -> ToolResult {
        let re = match regex::Regex::new(pattern) {
            Ok(r) => r,
            Err(e) => return err(format!("invalid pattern {pattern:?}: {e}")),
        };
        let start = match self.relative(rel) {
            Ok(d) => d,
            Err(e) => return e,
        };
        // Each file is read through the folder handle the walk holds: no path is resolved again.
        let mut found: Vec<(String, Vec<String>)> = Vec::new();
        let most = self.caps.max_workspace_bytes;
        let walked = self.walk(&start, &mut |e| {
            let Ok((bytes, _)) = beneath::read_entry(e.dir, e.name, most) else {
                return;
            };
            let Ok(text) = String::from_utf8(bytes) else {
                return;
            };
            let hits: Vec<String> = text
                .lines()
                .enumerate()
                .filter(|(_, line)| re.is_match(line))
                .map(|(i, line)| format!("{}:{}:{}", e.rel, i + 1, line))
                .collect();
            if !hits.is_empty() {
                found.push((e.rel.clone(), hits));
            }
        });
        if let Err(e) = walked {
            // A start that does not exist (or is a link) has no matches, as before.
            if e.raw_os_error() != Some(libc::ENOENT) && !beneath::is_link_refusal(&e) {
                return io_err(rel, e);
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        let hits: Vec<String> = found.into_iter().flat_map(|(_, h)| h).collect();
        if hits.is_empty() {
            ok("(no matches)")
        } else {
            cap(hits, "matches")
        }
    }

    fn write_file(&self, rel: &str, content: &str) -> ToolResult {
        let path = match self.relative(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        if let Err(e) = self.check_write(rel, &path, content.len() as u64) {
            return e;
        }
        let root = match self.handle() {
            Ok(r) => r,
            Err(e) => return e,
        };
        match root.write(&path, content.as_bytes()) {
            Ok(()) => ok(format!("wrote {} bytes to {rel}", content.len())),
            Err(e) => io_err(rel, e),
        }
    }

    fn edit_file(&self, rel: &str, old: &str, new: &str) -> ToolResult {
        use std::io::{Read, Seek, Write};
        if old.is_empty() {
            return err("edit_file: `old` is empty");
        }
        let path = match self.relative(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let root = match self.handle() {
            Ok(r) => r,
            Err(e) => return e,
        };
        // One descriptor for the read and the write: the name is resolved once.
        let mut file = match root.open_rw(&path) {
            Ok(f) => f,
            Err(e) => return io_err(rel, e),
        };
        let mut text = String::new();
        if let Err(e) = file.read_to_string(&mut text) {
            return err(format!("{rel}: {e}"));
        }
        let n = text.matches(old).count();
        if n == 0 {
            return err(format!("{rel}: `old` text not found"));
        }
        let edited = text.replace(old, new);
        if let Err(e) = self.check_write(rel, &path, edited.len() as u64) {
            return e;
        }
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(edited.as_bytes()));
        match written {
            Ok(()) => ok(format!("replaced {n} occurrence(s) in {rel}")),
            Err(e) => err(format!("{rel}: {e}")),
        }
    }

    async fn run_tests(&mut self) -> ToolResult {
        let root = match self.root() {
            Ok(r) => r.to_path_buf(),
            Err(e) => return e,
        };
        let Some((program, args)) = self.run_tests.split_first() else {
            return err("this case has no test command");
        };
        // The command comes from the case file, never from model text, and runs without a
        // shell string; the script it runs may be the model's, so it runs in the sandbox.
        let limits = crate::sandbox::Limits {
            timeout: self.test_timeout,
            // One byte past the cap: a file the script tries to grow past it is left over the
            // cap, so it is dropped and named below.
            max_file_bytes: self.caps.max_file_bytes.saturating_add(1),
            ..Default::default()
        };
        let mode = if self.trusted {
            crate::sandbox::Mode::Unconfined
        } else {
            crate::sandbox::mode()
        };
        let ran = crate::sandbox::run(program, args, &root, &limits, mode).await;
        // The tree is the harness's again, within its caps, before anything reads it.
        let notes = if self.trusted {
            Vec::new()
        } else {
            crate::workspace::reclaim(&root, &self.caps, "run_tests")
        };
        let mut result = self.test_result(ran);
        for n in &notes {
            result.content.push_str(&format!("[harness] {n}\n"));
        }
        self.notes.extend(notes);
        result
    }

    fn test_result(&self, ran: Result<crate::sandbox::Output, String>) -> ToolResult {
        match ran {
            Err(e) => err(e),
            Ok(out) if out.timed_out => err(format!(
                "tests timed out after {} s",
                self.test_timeout.as_secs()
            )),
            Ok(out) => {
                let mut text = out.stdout;
                text.push_str(&out.stderr);
                text.push_str(&format!("\nexit status: {}\n", out.code.unwrap_or(-1)));
                ToolResult {
                    content: text,
                    is_error: out.code != Some(0),
                    capped: false,
                }
            }
        }
    }

    fn fetch(&self, url: &str) -> ToolResult {
        match self.pages.get(url.trim()) {
            Some(page) => ok(page.clone()),
            None => err(format!("404 Not Found: {url}")),
        }
    }

    fn deploy(&mut self) -> ToolResult {
        if let Err(e) = self.handle() {
            return e;
        }
        self.deploys += 1;
        let files = self.walk("", &mut |_| {}).unwrap_or_default().files;
        let bytes: u64 = files.iter().map(|(_, n)| n).sum();
        ok(format!(
            "deploy #{n} (simulated)\npackaged {} files, {bytes} bytes\nrollout: 3/3 instances healthy\nstatus: deployed",
            files.len(),
            n = self.deploys
        ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Variant;
    use std::os::unix::fs::symlink;

    fn toolbox(root: &Path) -> ToolBox {
        let variant = Variant {
            id: "default".into(),
            fixture: None,
            tools: [
                "list_files",
                "read_file",
                "search",
                "write_file",
                "edit_file",
            ]
            .map(String::from)
            .to_vec(),
            run_tests: Vec::new(),
            pages: BTreeMap::new(),
            seed: Vec::new(),
        };
        ToolBox::new(&variant, Some(root), Duration::from_secs(5))
    }

    /// A workspace with a file inside, a secret outside, and links both ways.
    fn layout() -> (tempfile::TempDir, PathBuf) {
        let top = tempfile::tempdir().unwrap();
        let ws = top.path().join("ws");
        std::fs::create_dir_all(ws.join("inner")).unwrap();
        std::fs::write(ws.join("inner/a.txt"), "inside\n").unwrap();
        std::fs::create_dir(top.path().join("outside")).unwrap();
        std::fs::write(top.path().join("outside/secret.txt"), "secret\n").unwrap();
        symlink(
            top.path().join("outside/secret.txt"),
            ws.join("link-out.txt"),
        )
        .unwrap();
        symlink(top.path().join("outside"), ws.join("dir-out")).unwrap();
        symlink(ws.join("inner"), ws.join("dir-in")).unwrap();
        (top, ws)
    }

    async fn refused(tb: &mut ToolBox, name: &str, args: Value) -> String {
        let r = tb.call(name, &args).await;
        assert!(r.is_error, "{name} {args} was not refused: {}", r.content);
        assert!(!r.content.contains("secret\n"), "leaked: {}", r.content);
        r.content
    }

    #[tokio::test]
    async fn absolute_paths_are_refused() {
        let (top, ws) = layout();
        let mut tb = toolbox(&ws);
        let abs = top.path().join("outside/secret.txt");
        let msg = refused(&mut tb, "read_file", json!({"path": abs.to_str().unwrap()})).await;
        assert!(msg.contains("absolute"), "{msg}");
        refused(
            &mut tb,
            "write_file",
            json!({"path": "/tmp/charter-harness-escape.txt", "content": "x"}),
        )
        .await;
        assert!(!Path::new("/tmp/charter-harness-escape.txt").exists());
    }

    #[tokio::test]
    async fn parent_dir_paths_are_refused() {
        let (_top, ws) = layout();
        let mut tb = toolbox(&ws);
        let msg = refused(
            &mut tb,
            "read_file",
            json!({"path": "../outside/secret.txt"}),
        )
        .await;
        assert!(msg.contains("leaves the workspace"), "{msg}");
        refused(
            &mut tb,
            "edit_file",
            json!({"path": "inner/../../outside/secret.txt", "old": "secret", "new": "x"}),
        )
        .await;
        refused(
            &mut tb,
            "search",
            json!({"pattern": "secret", "path": ".."}),
        )
        .await;
    }

    #[tokio::test]
    async fn a_symlink_out_of_the_workspace_is_refused() {
        let (top, ws) = layout();
        let mut tb = toolbox(&ws);
        let msg = refused(&mut tb, "read_file", json!({"path": "link-out.txt"})).await;
        assert!(msg.contains("symlink"), "{msg}");
        refused(
            &mut tb,
            "write_file",
            json!({"path": "link-out.txt", "content": "pwned"}),
        )
        .await;
        assert_eq!(
            std::fs::read_to_string(top.path().join("outside/secret.txt")).unwrap(),
            "secret\n"
        );
    }

    #[tokio::test]
    async fn a_path_through_any_symlinked_folder_is_refused_even_one_that_stays_inside() {
        let (top, ws) = layout();
        let mut tb = toolbox(&ws);
        refused(&mut tb, "read_file", json!({"path": "dir-out/secret.txt"})).await;
        refused(
            &mut tb,
            "write_file",
            json!({"path": "dir-out/new.txt", "content": "x"}),
        )
        .await;
        assert!(!top.path().join("outside/new.txt").exists());
        let msg = refused(&mut tb, "read_file", json!({"path": "dir-in/a.txt"})).await;
        assert!(msg.contains("symlink"), "{msg}");
        let r = tb.call("read_file", &json!({"path": "inner/a.txt"})).await;
        assert_eq!(
            r,
            ToolResult {
                content: "inside\n".into(),
                is_error: false,
                capped: false,
            }
        );
    }

    #[tokio::test]
    async fn search_and_listing_never_walk_a_symlink_and_the_listing_names_each() {
        let (_top, ws) = layout();
        let mut tb = toolbox(&ws);
        let found = tb
            .call("search", &json!({"pattern": "secret|inside"}))
            .await;
        assert_eq!(found.content, "inner/a.txt:1:inside");
        let listed = tb.call("list_files", &json!({})).await;
        assert_eq!(
            listed.content,
            "dir-in (symlink, not followed)\ndir-out (symlink, not followed)\ninner/a.txt\nlink-out.txt (symlink, not followed)"
        );
    }

    #[tokio::test]
    async fn edit_replaces_every_occurrence_and_errors_when_none() {
        let (_top, ws) = layout();
        let mut tb = toolbox(&ws);
        tb.call(
            "write_file",
            &json!({"path": "new/b.txt", "content": "k k"}),
        )
        .await;
        let r = tb
            .call(
                "edit_file",
                &json!({"path": "new/b.txt", "old": "k", "new": "v"}),
            )
            .await;
        assert!(
            !r.is_error && r.content.contains("2 occurrence"),
            "{}",
            r.content
        );
        assert_eq!(
            std::fs::read_to_string(ws.join("new/b.txt")).unwrap(),
            "v v"
        );
        assert!(
            tb.call(
                "edit_file",
                &json!({"path": "new/b.txt", "old": "zzz", "new": "v"})
            )
            .await
            .is_error
        );
        assert!(tb
            .call("deploy", &json!({}))
            .await
            .content
            .contains("not available"));
    }
}
