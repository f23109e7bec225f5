//! The case suite built into the binary: `cases/`, `fixtures/` and `manifests/` as they were
//! when the harness was built, so an installed binary needs no checkout beside it. The suite
//! is written once per content hash to a cache folder and read from there like any suite.

use crate::error::{Error, Result};
use include_dir::{include_dir, Dir};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static CASES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../cases");
static FIXTURES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../fixtures");
static MANIFESTS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../manifests");

fn parts() -> [(&'static str, &'static Dir<'static>); 3] {
    [
        ("cases", &CASES),
        ("fixtures", &FIXTURES),
        ("manifests", &MANIFESTS),
    ]
}

fn files(dir: &'static Dir<'static>, out: &mut Vec<&'static include_dir::File<'static>>) {
    out.extend(dir.files());
    for d in dir.dirs() {
        files(d, out);
    }
}

/// sha256 over every embedded path and its bytes: names the suite this binary carries.
pub fn sha256() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut h = Sha256::new();
        for (name, dir) in parts() {
            let mut all = Vec::new();
            files(dir, &mut all);
            all.sort_by_key(|f| f.path());
            for f in all {
                h.update(name.as_bytes());
                h.update(f.path().to_string_lossy().as_bytes());
                h.update([0]);
                h.update(f.contents());
            }
        }
        format!("{:x}", h.finalize())
    })
}

pub fn cache_root() -> PathBuf {
    if let Some(d) = crate::files::settings::var_os("CHARTER_HARNESS_CACHE") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("charter-harness");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h).join(".cache/charter-harness");
    }
    std::env::temp_dir().join("charter-harness-cache")
}

/// The embedded suite on disk: written on first use (atomically, by a rename), then reused.
pub fn root() -> Result<PathBuf> {
    static ROOT: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    ROOT.get_or_init(|| extract().map_err(|e| e.to_string()))
        .clone()
        .map_err(Error::input)
}

fn extract() -> Result<PathBuf> {
    let base = cache_root();
    let dest = base.join(format!("suite-{}", &sha256()[..16]));
    if dest.join("cases").is_dir() && dest.join("fixtures").is_dir() {
        return Ok(dest);
    }
    std::fs::create_dir_all(&base)
        .map_err(|e| cache_err("create the suite cache folder", &base, e))?;
    let tmp = tempfile::Builder::new()
        .prefix(".suite-")
        .tempdir_in(&base)
        .map_err(|e| cache_err("unpack the built-in suite in", &base, e))?;
    for (name, dir) in parts() {
        let mut all = Vec::new();
        files(dir, &mut all);
        for f in all {
            let path = tmp.path().join(name).join(f.path());
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| cache_err("create folder", parent, e))?;
            }
            std::fs::write(&path, f.contents()).map_err(|e| cache_err("write", &path, e))?;
        }
    }
    // The unpacked copy is kept only once renamed into place; otherwise dropping it removes it.
    match std::fs::rename(tmp.path(), &dest) {
        Ok(()) => {
            let _ = tmp.keep();
            Ok(dest)
        }
        // Another process wrote the same suite first: use it.
        Err(_) if dest.join("cases").is_dir() => Ok(dest),
        Err(e) => Err(cache_err("move the unpacked suite to", &dest, e)),
    }
}

/// A file error in the suite cache: the variable that moves it is the next step.
fn cache_err(op: &'static str, path: &Path, e: std::io::Error) -> Error {
    Error::io_op(op, path, e)
        .next("set CHARTER_HARNESS_CACHE to a folder you may write, or pass --suite DIR")
}

/// An embedded manifest by name (`offline`, `pinned`), written with the suite.
pub fn manifest(name: &str) -> Option<PathBuf> {
    let file = format!("{name}.toml");
    MANIFESTS.get_file(&file)?;
    root().ok().map(|r| r.join("manifests").join(file))
}

/// The names of the manifests built into the binary (`offline`, …), for `--matrix NAME`.
pub fn manifest_names() -> Vec<String> {
    MANIFESTS
        .files()
        .filter_map(|f| f.path().file_stem())
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}

/// Whether `p` is inside the embedded suite's cache folder.
pub fn is_embedded(p: &Path) -> bool {
    root().is_ok_and(|r| p.starts_with(r))
}

/// A path as a person in the current folder would type it: relative when it is under it; a
/// file of the built-in suite as such.
pub fn shown(p: &Path) -> String {
    if is_embedded(p) {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        return format!("{name} (built in)");
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let canonical = std::fs::canonicalize(&cwd).unwrap_or(cwd.clone());
    [cwd, canonical]
        .iter()
        .find_map(|c| p.strip_prefix(c).ok().filter(|r| !r.as_os_str().is_empty()))
        .map_or(p.display().to_string(), |r| r.display().to_string())
}
