//! The one way the harness reads an input file: it follows the links a user made
//! (`results/latest`), opens what they point at without blocking (a FIFO cannot hang it) and
//! close-on-exec, checks on the open descriptor that it is a regular file under the cap for its
//! kind, and reads at most cap + 1 bytes, so `/dev/zero`, a pipe, a folder or a huge file is
//! refused with the file, the cap and the setting named, before anything is allocated for it.

use crate::error::{reason, Error, Result};
use std::io::Read;
use std::path::Path;

/// What an input file is; each kind has its own cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Manifest,
    Charter,
    Case,
    Transcript,
    Labels,
    Capsule,
    /// A scripted model reply, a probe or a fixture page a case names.
    Scripted,
    RunJson,
    SummaryJson,
}

const MIB: u64 = 1024 * 1024;

impl Kind {
    /// The largest file of this kind the harness reads, in bytes.
    pub fn cap(self) -> u64 {
        match self {
            Kind::Manifest | Kind::Case | Kind::RunJson => MIB,
            Kind::Charter | Kind::Capsule | Kind::Scripted => 4 * MIB,
            Kind::SummaryJson => 16 * MIB,
            // A transcript holds every reply and tool result of a trial.
            Kind::Transcript => 64 * MIB,
            // One line per label, over many runs.
            Kind::Labels => 64 * MIB,
        }
    }
    /// The environment variable that raises the cap (its old `HARNESS_*` name is read too, for
    /// one release: `files::settings`).
    pub fn setting(self) -> &'static str {
        match self {
            Kind::Manifest => "CHARTER_HARNESS_MAX_MANIFEST_BYTES",
            Kind::Charter => "CHARTER_HARNESS_MAX_CHARTER_BYTES",
            Kind::Case => "CHARTER_HARNESS_MAX_CASE_BYTES",
            Kind::Transcript => "CHARTER_HARNESS_MAX_TRANSCRIPT_BYTES",
            Kind::Labels => "CHARTER_HARNESS_MAX_LABELS_BYTES",
            Kind::Capsule => "CHARTER_HARNESS_MAX_CAPSULE_BYTES",
            Kind::Scripted => "CHARTER_HARNESS_MAX_SCRIPTED_BYTES",
            Kind::RunJson => "CHARTER_HARNESS_MAX_RUN_JSON_BYTES",
            Kind::SummaryJson => "CHARTER_HARNESS_MAX_SUMMARY_JSON_BYTES",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Manifest => "manifest",
            Kind::Charter => "charter",
            Kind::Case => "case file",
            Kind::Transcript => "transcript",
            Kind::Labels => "labels file",
            Kind::Capsule => "capsule",
            Kind::Scripted => "scripted reply",
            Kind::RunJson => "run.json",
            Kind::SummaryJson => "summary.json",
        }
    }
    /// The cap in force: the setting when it holds a number of bytes, else the default.
    pub fn limit(self) -> u64 {
        crate::files::settings::var(self.setting())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| self.cap())
    }
}

/// Read an input file of `kind` as UTF-8 text (a byte-order mark is kept for the reader to see).
pub fn read_text(path: &Path, kind: Kind) -> Result<String> {
    let bytes = read_bytes(path, kind)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::input(format!(
            "{}, line {line}: not UTF-8 text (byte {at})",
            path.display()
        ))
    })
}

/// Read an input file of `kind` as bytes, bounded by its cap.
pub fn read_bytes(path: &Path, kind: Kind) -> Result<Vec<u8>> {
    let bytes = read_capped(path, kind).inspect_err(|e| {
        tracing::debug!(path = %path.display(), kind = kind.name(), "refused: {e}");
    })?;
    tracing::debug!(path = %path.display(), kind = kind.name(), bytes = bytes.len(), "read");
    Ok(bytes)
}

fn read_capped(path: &Path, kind: Kind) -> Result<Vec<u8>> {
    let file = open_regular(path, kind)?;
    let cap = kind.limit();
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(path, &e))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(path, kind, cap));
    }
    Ok(bytes)
}

/// Whether anything stands at `path`, a link (even a dangling one) included: a file a suite
/// names that is there in any form goes to [`read_text`], which reads it or refuses it by name,
/// instead of being taken for absent.
pub fn present(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Whether `path` names something (a link followed) that exists.
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

/// Open `path` following links, non-blocking and close-on-exec, and check on the descriptor
/// that it is a regular file no larger than the cap.
fn open_regular(path: &Path, kind: Kind) -> Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = opts.open(path).map_err(|e| unreadable(path, &e))?;
    let meta = file.metadata().map_err(|e| unreadable(path, &e))?;
    if meta.is_dir() {
        return Err(Error::input(format!(
            "could not read {}: it is a folder, not a {} — name a file",
            path.display(),
            kind.name()
        )));
    }
    if !meta.is_file() {
        return Err(Error::input(format!(
            "could not read {}: not a regular file (a device, pipe or socket); a {} must be a regular file",
            path.display(),
            kind.name()
        )));
    }
    let cap = kind.limit();
    if meta.len() > cap {
        return Err(too_big(path, kind, cap));
    }
    super::blocking_again(&file);
    Ok(file)
}

fn too_big(path: &Path, kind: Kind, cap: u64) -> Error {
    Error::input(format!(
        "could not read {}: larger than the {} cap of {cap} bytes — shorten it, or raise the cap with {}=BYTES",
        path.display(),
        kind.name(),
        kind.setting()
    ))
}

/// An input that cannot be opened or read is bad input; the hint fits the error.
fn unreadable(path: &Path, e: &std::io::Error) -> Error {
    use std::io::ErrorKind as K;
    let next = match e.kind() {
        K::NotFound => " — check the path",
        K::IsADirectory => " — name a file",
        K::PermissionDenied => " — check the file's permissions",
        _ => "",
    };
    Error::input(format!(
        "could not read {}: {}{next}",
        path.display(),
        reason(e)
    ))
}

/// `base` joined with `rel`, a path a suite names (`script = "..."`, a probe, a page): only
/// plain names, so it stays inside the suite; `..`, an absolute path or a prefix is refused
/// with `what` named.
pub fn within(base: &Path, rel: &str, what: &str) -> Result<std::path::PathBuf> {
    use std::path::Component;
    let ok = !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !ok {
        return Err(Error::input(format!(
            "{what} {:?}: must name a file or folder inside {} (no \"..\", no absolute path)",
            crate::error::one_line(rel),
            base.display()
        )));
    }
    Ok(base.join(rel))
}
