//! Files the harness writes and walks, below every layer that names a file: atomic writes that
//! mask keys and never write through a planted link (a run folder, marked by its lock file or
//! its run.json, holds no links), a run's reports written in order from (path, body) pairs
//! (`write_files`; the CI's step summary, not the harness's, appended), opens that follow no
//! link at the name, and the sorted walk of a folder.

pub mod held;
pub mod limits;
pub mod read;
pub mod root;
pub mod settings;

use crate::error::{Error, Result};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write JSON through a temp file in the same folder and rename it into place, so a reader
/// (or a killed run) never sees a half-written file.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    // Serialized first, then one write (an unbuffered writer would make a syscall per token),
    // into the thread's buffer of the last write: a run writes thousands of transcripts of
    // much the same size, and a new buffer would grow by copying for each.
    thread_local! {
        static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut bytes = BUFFER.take();
    bytes.clear();
    serde_json::to_writer_pretty(&mut bytes, value)
        .map_err(|e| Error::Internal(format!("{}: {e}", path.display())))?;
    bytes.push(b'\n');
    let written = write_atomic(path, &bytes);
    // Kept unless a rare large document made it large.
    if bytes.capacity() <= 1 << 20 {
        BUFFER.set(bytes);
    }
    written
}

/// The lock file a run holds in its folder while it runs (see `run_folder::lock_for_run`).
pub const LOCK_FILE: &str = ".lock";

/// The record every run folder holds from its start (`store::record::RunRecord`): with the lock
/// file, what marks a folder as a run folder (a finished run keeps no lock file).
pub const RUN_RECORD: &str = "run.json";

/// Whether `dir` is a run folder: one a run holds (its lock file) or has recorded (run.json).
fn is_run_folder(dir: &Path) -> bool {
    [LOCK_FILE, RUN_RECORD]
        .iter()
        .any(|f| dir.join(f).symlink_metadata().is_ok())
}

/// Open a file the harness keeps writing to (a run folder's lock, a labels file) without
/// following a symlink at its name (`O_NOFOLLOW`), and only if it is a regular file: a link
/// planted there would have the harness, often root, write wherever it points, and a FIFO
/// would hang it. New files are created as usual (`create` in `opts`).
pub fn open_no_follow(path: &Path, opts: &mut std::fs::OpenOptions) -> Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            Error::input(format!(
                "{}: is a symlink; the harness does not write through links (remove it, or choose another folder)",
                path.display()
            ))
        } else {
            Error::io(path, e)
        }
    })?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::input(format!(
            "{}: is not a regular file; the harness writes only to regular files (remove it)",
            path.display()
        )));
    }
    // Blocking again for the writes that follow.
    blocking_again(&file);
    Ok(file)
}

/// Clear `O_NONBLOCK` on a file opened with it (to check it without hanging on a FIFO) once it
/// is known to be a regular file.
pub(crate) fn blocking_again(file: &std::fs::File) {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor the caller owns.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
}

/// Write bytes through a temp file in the same folder, renamed into place. Every configured key
/// is masked on the way: nothing the harness writes may carry one, whatever text brought it.
/// The temp file is created new (`O_EXCL`, which follows no link) and the rename replaces
/// whatever stands at `path`, a planted symlink included, without writing through it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let masked;
    let bytes = match std::str::from_utf8(bytes) {
        Ok(text) if crate::output::secrets::any() => {
            masked = crate::output::secrets::redact(text);
            masked.as_bytes()
        }
        _ => bytes,
    };
    let mut tmp = temp_beside(path)?;
    tmp.file()
        .write_all(bytes)
        .map_err(|e| Error::io(path, e))?;
    tmp.publish(path)
}

/// What [`write_files`] writes at a path: text made whole; bytes a renderer streams (a report
/// of any size in small memory, through [`write_atomic_with`]); or text appended to a file the
/// harness does not own (the GitHub step summary), with what the append is called in an error.
pub enum Body<'a> {
    Whole(String),
    Streamed(Box<Fill<'a>>),
    Appended(String, &'static str),
}

/// What streams a file's bytes into its writer.
pub type Fill<'a> = dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + 'a;

/// Write each file in its order, atomically (an appended one appended); the first that cannot
/// be written stops the rest.
pub fn write_files(files: Vec<(PathBuf, Body)>) -> Result<()> {
    for (path, body) in files {
        match body {
            Body::Whole(text) => write_atomic(&path, text.as_bytes())?,
            Body::Streamed(fill) => write_atomic_with(&path, fill)?,
            Body::Appended(text, op) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()))
                .map_err(|e| Error::io_op(op, &path, e))?,
        }
    }
    Ok(())
}

/// Write a file atomically from a writer, for documents too large to hold in memory: streamed
/// through a buffer to a temp file beside `path`, keys masked line by line, then renamed.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let mut tmp = temp_beside(path)?;
    let mut out = MaskLines {
        line: Vec::new(),
        inner: std::io::BufWriter::with_capacity(1 << 16, tmp.file()),
    };
    fill(&mut out)
        .and_then(|_| out.finish())
        .map_err(|e| Error::io(path, e))?;
    drop(out);
    tmp.publish(path)
}

/// A temp file beside the file it will become: in a run folder this process holds, created
/// through the folder's descriptor ([`held`]); elsewhere by name, after the walk for links.
enum Temp {
    Held(held::Temp),
    Named(tempfile::NamedTempFile),
}

impl Temp {
    fn file(&mut self) -> &mut std::fs::File {
        match self {
            Temp::Held(t) => &mut t.file,
            Temp::Named(t) => t.as_file_mut(),
        }
    }

    /// Rename the finished temp file into place. A temp file made by name is private (0600);
    /// what the harness writes is an ordinary file (0644).
    fn publish(self, path: &Path) -> Result<()> {
        match self {
            Temp::Held(t) => t.publish(path),
            Temp::Named(tmp) => {
                use std::os::unix::fs::PermissionsExt;
                let _ = tmp
                    .as_file()
                    .set_permissions(std::fs::Permissions::from_mode(0o644));
                tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
                Ok(())
            }
        }
    }
}

/// A temp file in `path`'s folder (created if missing), so the rename that publishes it is
/// atomic.
fn temp_beside(path: &Path) -> Result<Temp> {
    if let Some(held) = held::temp_beside(path) {
        return held.map(Temp::Held);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    refuse_links_below_run_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    tempfile::NamedTempFile::new_in(dir)
        .map(Temp::Named)
        .map_err(|e| Error::io(dir, e))
}

/// Folders of a run folder (`transcripts/<model>/<unit>`) must be folders, not links: a link
/// planted there (in a folder resumed, or copied from elsewhere) would have the harness write a
/// transcript wherever it points. The run folder is the nearest one holding a `.lock` or a
/// `run.json`; its own path, and any folder outside a run folder, is the user's to choose. (A
/// run folder this process holds is written through its descriptor instead: [`held`].)
fn refuse_links_below_run_dir(dir: &Path) -> Result<()> {
    let mut below = Vec::new();
    for a in dir.ancestors().take(4) {
        if is_run_folder(a) {
            for d in below {
                let d: &Path = d;
                if d.symlink_metadata()
                    .is_ok_and(|m| m.file_type().is_symlink())
                {
                    return Err(Error::input(format!(
                        "{}: is a symlink inside the run folder {}; the harness does not write through links (remove it)",
                        d.display(),
                        a.display()
                    )));
                }
            }
            return Ok(());
        }
        below.push(a);
    }
    Ok(())
}

/// Masks keys a line at a time: a key holds no newline, so no key spans two lines.
struct MaskLines<W: Write> {
    line: Vec<u8>,
    inner: W,
}

impl<W: Write> MaskLines<W> {
    fn flush_line(&mut self) -> std::io::Result<()> {
        match std::str::from_utf8(&self.line) {
            Ok(text) if crate::output::secrets::any() => self
                .inner
                .write_all(crate::output::secrets::redact(text).as_bytes())?,
            _ => self.inner.write_all(&self.line)?,
        }
        self.line.clear();
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        self.flush_line()?;
        self.inner.flush()
    }
}

impl<W: Write> Write for MaskLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|b| *b == b'\n') {
            self.line.extend_from_slice(&rest[..=i]);
            self.flush_line()?;
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every file at or under `paths` that `keep` accepts, sorted; `.git` folders are not entered.
/// A path that does not exist is an error naming it.
pub fn files_under(paths: &[PathBuf], keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>> {
    // Regular files only, found without following a symlink into a folder (a link to `.` would
    // loop, a FIFO would hang a read), each once however it was named (`a`, `./a`, `/abs/a`).
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut take = |path: PathBuf, out: &mut Vec<PathBuf>| {
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(canonical) {
            out.push(path);
        }
    };
    for p in paths {
        let meta = std::fs::metadata(p)
            .map_err(|_| Error::input(format!("{}: no such file or folder", p.display())))?;
        if meta.is_file() {
            take(p.clone(), &mut out);
            continue;
        }
        if !meta.is_dir() {
            errln!("warning: {}: not a regular file; skipped", p.display());
            continue;
        }
        let mut stack = vec![p.clone()];
        while let Some(d) = stack.pop() {
            let entries = std::fs::read_dir(&d).map_err(|e| {
                Error::input(format!(
                    "could not read folder {}: {} — check its permissions",
                    d.display(),
                    crate::error::reason(&e)
                ))
            })?;
            for e in entries.flatten() {
                let path = e.path();
                let Ok(kind) = e.file_type() else { continue };
                if kind.is_dir() {
                    if e.file_name() != ".git" {
                        stack.push(path);
                    }
                } else if kind.is_file() {
                    if keep(&path) {
                        take(path, &mut out);
                    }
                } else if keep(&path) && !kind.is_symlink() {
                    errln!("warning: {}: not a regular file; skipped", path.display());
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_run_folder_marked_by_its_run_json_refuses_a_planted_folder_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::os::unix::fs::symlink(outside.path(), run.join("transcripts")).unwrap();
        // Not (yet) a run folder: the folder and its links are the user's to choose.
        write_atomic(&run.join("transcripts/a.json"), b"{}").unwrap();
        std::fs::remove_file(outside.path().join("a.json")).unwrap();
        // Finished: no lock file, its run.json marks it.
        std::fs::write(run.join(RUN_RECORD), "{}").unwrap();
        let e = write_atomic(&run.join("transcripts/m/trial-1.json"), b"{}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a symlink inside the run folder"), "{e}");
        assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none());
    }
}
