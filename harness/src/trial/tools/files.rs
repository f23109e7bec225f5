//! The file tools (`list_files`, `read_file`, `search`, `write_file`, `edit_file`): every path
//! confined to the workspace, every file opened through the root's handle, every write held
//! to the size caps.

use super::{cap, err, io_err, ok, ToolBox, ToolResult};
use crate::trial::confined;

impl ToolBox {
    pub(super) fn list_files(&self, rel: &str) -> ToolResult {
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

    pub(super) fn read_file(&self, rel: &str) -> ToolResult {
        // Only a regular file with one name is read, and never more than the result cap: a FIFO
        // or a device a test script made would hang or never end, a hard link may be outside.
        let (path, root) = match self.beneath_root(rel) {
            Ok(pr) => pr,
            Err(e) => return e,
        };
        match root.read(&path, self.caps.max_tool_result_bytes + 1) {
            Ok(bytes) => ok(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => io_err(rel, e),
        }
    }

    /// Refuse a write of `len` bytes to `path` that passes a cap: the file's size, the
    /// workspace's bytes and its file count, from the running account (one walk per command,
    /// not one per write).
    fn check_write(&mut self, rel: &str, path: &str, len: u64) -> Result<(), ToolResult> {
        let capped = |e: ToolResult| ToolResult {
            capped: true,
            refused: true,
            ..e
        };
        if len > self.caps.max_file_bytes {
            return Err(capped(err(format!(
                "{rel}: {len} bytes is more than the {} bytes a file may hold here",
                self.caps.max_file_bytes
            ))));
        }
        let caps = self.caps;
        let account = self.account();
        let old = account.sizes.get(path.as_bytes()).copied();
        if account.bytes - old.unwrap_or(0) + len > caps.max_workspace_bytes {
            return Err(capped(err(format!(
                "{rel}: the workspace would pass its {} bytes",
                caps.max_workspace_bytes
            ))));
        }
        if old.is_none() && account.sizes.len() as u64 >= caps.max_files {
            return Err(capped(err(format!(
                "{rel}: the workspace would pass its {} files (max_files)",
                caps.max_files
            ))));
        }
        Ok(())
    }

    pub(super) fn search(&self, pattern: &str, rel: &str) -> ToolResult {
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
            let Ok((bytes, _)) = confined::read_entry(e.dir, e.name, most) else {
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
            if e.raw_os_error() != Some(libc::ENOENT) && !confined::is_link_refusal(&e) {
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

    pub(super) fn write_file(&mut self, rel: &str, content: &str) -> ToolResult {
        let path = match self.relative(rel) {
            Ok(p) => p,
            Err(e) => return e,
        };
        if let Err(e) = self.check_write(rel, &path, content.len() as u64) {
            return e;
        }
        let written = match self.handle() {
            Ok(root) => root.write(&path, content.as_bytes()),
            Err(e) => return e,
        };
        match written {
            Ok(()) => {
                self.account().set(&path, content.len() as u64);
                ok(format!("wrote {} bytes to {rel}", content.len()))
            }
            Err(e) => io_err(rel, e),
        }
    }

    pub(super) fn edit_file(&mut self, rel: &str, old: &str, new: &str) -> ToolResult {
        use std::io::{Read, Seek, Write};
        if old.is_empty() {
            return err("edit_file: `old` is empty");
        }
        let (path, root) = match self.beneath_root(rel) {
            Ok(pr) => pr,
            Err(e) => return e,
        };
        // One descriptor for the read and the write: the name is resolved once.
        let mut file = match root.open_rw(&path) {
            Ok(f) => f,
            Err(e) => return io_err(rel, e),
        };
        // Never more than a file may hold is read.
        let most = self.caps.max_file_bytes;
        let mut text = String::new();
        if let Err(e) = (&mut file).take(most + 1).read_to_string(&mut text) {
            return err(format!("{rel}: {e}"));
        }
        if text.len() as u64 > most {
            return err(format!(
                "{rel}: larger than max_file_bytes ({most}); not edited"
            ));
        }
        let n = text.matches(old).count();
        if n == 0 {
            return err(format!("{rel}: `old` text not found"));
        }
        // The result's size from the counts, before anything is built: a one-byte `old` on a
        // large file with a long `new` asks for more than any cap.
        let size = (n as u128) * (new.len() as u128) + (text.len() - n * old.len()) as u128;
        let size = u64::try_from(size).unwrap_or(u64::MAX);
        if let Err(e) = self.check_write(rel, &path, size) {
            return e;
        }
        let edited = text.replace(old, new);
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(edited.as_bytes()));
        match written {
            Ok(()) => {
                self.account().set(&path, size);
                ok(format!("replaced {n} occurrence(s) in {rel}"))
            }
            Err(e) => err(format!("{rel}: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::case::Variant;
    use serde_json::{json, Value};
    use std::os::unix::fs::symlink;
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    fn toolbox(root: &Path) -> ToolBox {
        let variant = Variant::offering(&[
            "list_files",
            "read_file",
            "search",
            "write_file",
            "edit_file",
        ]);
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
                refused: false,
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
