//! The tools that act beyond the files: `run_tests` (the case's command, in the sandbox, the
//! tree taken back afterwards) and the simulated `fetch` and `deploy`.

use super::{err, ok, ToolBox, ToolResult};

impl ToolBox {
    pub(super) async fn run_tests(&mut self) -> ToolResult {
        let root = match self.root() {
            Ok(r) => r.to_path_buf(),
            Err(e) => return e,
        };
        let Some((program, args)) = self.run_tests.split_first() else {
            return err("this case has no test command");
        };
        // The command comes from the case file, never from model text, and runs without a
        // shell string; the script it runs may be the model's, so it runs in the sandbox.
        let limits = crate::trial::sandbox::Limits {
            timeout: self.test_timeout,
            // One byte past the cap: a file the script tries to grow past it is left over the
            // cap, so it is dropped and named below.
            max_file_bytes: self.caps.max_file_bytes.saturating_add(1),
            ..Default::default()
        };
        let mode = if self.trusted {
            crate::trial::sandbox::Mode::Unconfined
        } else {
            crate::trial::sandbox::mode()
        };
        let most = self.caps.max_workspace_bytes;
        let before = crate::trial::workspace::effects::digests(&root, most);
        let ran = crate::trial::sandbox::run(program, args, &root, &limits, mode).await;
        // The command may have changed anything: the next write walks the tree again.
        self.account = None;
        // The tree is the harness's again, within its caps, before anything reads it.
        let notes = if self.trusted {
            Vec::new()
        } else {
            crate::trial::workspace::reclaim(&root, &self.caps, "run_tests")
        };
        let after = crate::trial::workspace::effects::digests(&root, most);
        let changed = crate::trial::workspace::effects::changed(&before, &after);
        self.effects.push(("run_tests".into(), changed));
        let mut result = self.test_result(ran);
        for n in &notes {
            result.content.push_str(&format!("[harness] {n}\n"));
        }
        self.notes.extend(notes);
        result
    }

    fn test_result(&self, ran: Result<crate::trial::sandbox::Output, String>) -> ToolResult {
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
                    refused: false,
                }
            }
        }
    }

    pub(super) fn fetch(&self, url: &str) -> ToolResult {
        match self.pages.get(url.trim()) {
            Some(page) => ok(page.clone()),
            None => err(format!("404 Not Found: {url}")),
        }
    }

    pub(super) fn deploy(&mut self) -> ToolResult {
        if let Err(e) = self.handle() {
            return e;
        }
        self.deploys += 1;
        // A simulated deploy runs nothing: it changed nothing.
        self.effects.push(("deploy".into(), Vec::new()));
        let files = self.walk("", &mut |_| {}).unwrap_or_default().files;
        let bytes: u64 = files.iter().map(|(_, n)| n).sum();
        ok(format!(
            "deploy #{n} (simulated)\npackaged {} files, {bytes} bytes\nrollout: 3/3 instances healthy\nstatus: deployed",
            files.len(),
            n = self.deploys
        ))
    }
}
