//! The checkers' source digest: sha256 over every file under `src/` (path and bytes, in path
//! order), so a verdict names all the code that made it — the shared extraction included, not
//! one case's file.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("src/ entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    // Read when the script runs, not baked in when it is compiled: a build script compiled
    // for one checkout and reused from a shared target folder must digest this checkout.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = root.as_path();
    let src = root.join("src");
    println!("cargo:rerun-if-changed=src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut h = Sha256::new();
    for p in &all {
        let rel = p.strip_prefix(root).expect("under the crate");
        // Path separators written as `/`, so the digest is the same on every platform.
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        println!("cargo:rerun-if-changed={}", p.display());
        h.update(name.as_bytes());
        h.update([0]);
        h.update(std::fs::read(p).expect("source file readable"));
        h.update([0]);
    }
    println!("cargo:rustc-env=CHECKERS_SOURCE_SHA256={:x}", h.finalize());
}
