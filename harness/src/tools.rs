//! The contract §2 tool set, executed inside a trial's workspace. Paths are confined to the
//! workspace: absolute paths, `..` and symlinks that lead out are refused as tool errors.

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

/// A path a tool may read: a regular file, never a FIFO or device a script made (a read would
/// hang or never end), never followed through a link.
fn regular_file(rel: &str, path: &Path) -> Result<(), ToolResult> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(err(format!("{rel}: not a regular file"))),
        Err(e) => Err(err(format!("{rel}: {e}"))),
    }
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
        ToolBox {
            root: root.map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.to_path_buf())),
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

    /// Resolve a model-given path inside the workspace, or refuse it.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, ToolResult> {
        let root = self.root()?;
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
        let joined = root.join(p);
        // The deepest part that exists decides where symlinks lead.
        let existing = joined
            .ancestors()
            .find(|a| a.symlink_metadata().is_ok())
            .unwrap_or(root);
        let real = std::fs::canonicalize(existing).map_err(|e| err(format!("{rel}: {e}")))?;
        if !real.starts_with(root) {
            return Err(err(format!(
                "path {rel:?} leads out of the workspace through a symlink"
            )));
        }
        let rest = joined.strip_prefix(existing).unwrap_or(Path::new(""));
        Ok(if rest.as_os_str().is_empty() {
            real
        } else {
            real.join(rest)
        })
    }

    fn rel(&self, p: &Path) -> String {
        let root = self.root.as_deref().unwrap_or(Path::new(""));
        p.strip_prefix(root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    }

    fn files_under(&self, start: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![start.to_path_buf()];
        while let Some(p) = stack.pop() {
            if p.is_file() {
                out.push(p);
                continue;
            }
            let Ok(rd) = std::fs::read_dir(&p) else {
                continue;
            };
            for e in rd.flatten() {
                let path = e.path();
                if e.file_name() == ".git" {
                    continue;
                }
                let Ok(kind) = e.file_type() else { continue };
                // Symlinks are not followed: a link out of the workspace must not be walked.
                if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_file() {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    fn list_files(&self, rel: &str) -> ToolResult {
        let dir = match self.resolve(rel) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if !dir.exists() {
            return err(format!("{rel}: no such folder"));
        }
        let files: Vec<String> = self.files_under(&dir).iter().map(|p| self.rel(p)).collect();
        cap(files, "files")
    }

    fn read_file(&self, rel: &str) -> ToolResult {
        let path = match self.resolve(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        // Only a regular file is read, and never more than the result cap: a FIFO or a device a
        // test script made would hang or never end.
        if let Err(e) = regular_file(rel, &path) {
            return e;
        }
        use std::io::Read;
        let mut bytes = Vec::new();
        let read = std::fs::File::open(&path).and_then(|f| {
            f.take(self.caps.max_tool_result_bytes + 1)
                .read_to_end(&mut bytes)
        });
        match read {
            Ok(_) => ok(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => err(format!("{rel}: {e}")),
        }
    }

    /// Bytes of regular files in the workspace, `except` left out.
    fn workspace_bytes(&self, except: &Path) -> u64 {
        let Ok(root) = self.root() else { return 0 };
        self.files_under(root)
            .iter()
            .filter(|f| f.as_path() != except)
            .filter_map(|f| f.symlink_metadata().ok())
            .map(|m| m.len())
            .sum()
    }

    /// Refuse a write of `len` bytes to `path` that passes a cap.
    fn check_write(&self, rel: &str, path: &Path, len: u64) -> Result<(), ToolResult> {
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
        let start = match self.resolve(rel) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let mut hits = Vec::new();
        for f in self.files_under(&start) {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            for (i, line) in text.lines().enumerate() {
                if re.is_match(line) {
                    hits.push(format!("{}:{}:{}", self.rel(&f), i + 1, line));
                }
            }
        }
        if hits.is_empty() {
            ok("(no matches)")
        } else {
            cap(hits, "matches")
        }
    }

    fn write_file(&self, rel: &str, content: &str) -> ToolResult {
        let path = match self.resolve(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        if let Err(e) = self.check_write(rel, &path, content.len() as u64) {
            return e;
        }
        if let Some(parent) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(parent) {
                return err(format!("{rel}: {e}"));
            }
        }
        match std::fs::write(&path, content) {
            Ok(()) => ok(format!("wrote {} bytes to {rel}", content.len())),
            Err(e) => err(format!("{rel}: {e}")),
        }
    }

    fn edit_file(&self, rel: &str, old: &str, new: &str) -> ToolResult {
        if old.is_empty() {
            return err("edit_file: `old` is empty");
        }
        let path = match self.resolve(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        if let Err(e) = regular_file(rel, &path) {
            return e;
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => return err(format!("{rel}: {e}")),
        };
        let n = text.matches(old).count();
        if n == 0 {
            return err(format!("{rel}: `old` text not found"));
        }
        let edited = text.replace(old, new);
        if let Err(e) = self.check_write(rel, &path, edited.len() as u64) {
            return e;
        }
        match std::fs::write(&path, edited) {
            Ok(()) => ok(format!("replaced {n} occurrence(s) in {rel}")),
            Err(e) => err(format!("{rel}: {e}")),
        }
    }

    async fn run_tests(&self) -> ToolResult {
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
            ..Default::default()
        };
        let mode = if self.trusted {
            crate::sandbox::Mode::Unconfined
        } else {
            crate::sandbox::mode()
        };
        match crate::sandbox::run(program, args, &root, &limits, mode).await {
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
        let root = match self.root() {
            Ok(r) => r.to_path_buf(),
            Err(e) => return e,
        };
        self.deploys += 1;
        let files = self.files_under(&root);
        let bytes: u64 = files
            .iter()
            .filter_map(|f| f.metadata().ok())
            .map(|m| m.len())
            .sum();
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
    async fn a_path_through_a_symlinked_folder_out_is_refused_and_one_inside_is_allowed() {
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
        let r = tb.call("read_file", &json!({"path": "dir-in/a.txt"})).await;
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
    async fn search_and_listing_never_walk_a_symlink_out() {
        let (_top, ws) = layout();
        let mut tb = toolbox(&ws);
        let found = tb
            .call("search", &json!({"pattern": "secret|inside"}))
            .await;
        assert_eq!(found.content, "inner/a.txt:1:inside");
        let listed = tb.call("list_files", &json!({})).await;
        assert_eq!(listed.content, "inner/a.txt");
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
