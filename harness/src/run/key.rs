//! `harness key`: the key of a gate's inputs (charter runtime text, manifest, case suite,
//! harness version), so a stored gate is reused when nothing that decides it changed.

use crate::error::{Error, Result};
use crate::suite::init::VERSION;
use sha2::{Digest, Sha256};
use std::path::Path;

/// What decides a gate: the charter's runtime text (the system prompt), the manifest, the case
/// suite and the harness version. Equal keys mean an equal gate, so a stored one is reused.
pub fn inputs_key(matrix: &Path, suite: Option<&Path>) -> Result<String> {
    let loaded = crate::suite::manifest::load(&crate::suite::manifest::resolve(matrix))?;
    let charter = crate::suite::charter::load(&loaded.manifest.charter.source, loaded.dir())
        .map_err(|e| loaded.at_charter(e))?;
    key_of(&charter.sha256, &loaded.path, suite)
}

/// The key of a gate of the charter whose runtime text hashes to `charter_sha256`, run with the
/// manifest at `manifest` and `suite` (a base rerun's charter is not the manifest's).
pub fn key_of(charter_sha256: &str, manifest: &Path, suite: Option<&Path>) -> Result<String> {
    let manifest_bytes =
        crate::files::read::read_bytes(manifest, crate::files::read::Kind::Manifest)?;
    let suite_sha = match suite {
        Some(dir) => {
            let mut h = Sha256::new();
            let mut files =
                crate::files::files_under(&[dir.join("cases"), dir.join("fixtures")], |_| true)?;
            files.sort();
            for f in files {
                h.update(
                    f.strip_prefix(dir)
                        .unwrap_or(&f)
                        .to_string_lossy()
                        .as_bytes(),
                );
                h.update(std::fs::read(&f).map_err(|e| Error::io_op("read", &f, e))?);
            }
            format!("{:x}", h.finalize())
        }
        None => crate::suite::embedded::sha256().to_string(),
    };
    let mut h = Sha256::new();
    for part in [
        charter_sha256.as_bytes(),
        &Sha256::digest(&manifest_bytes)[..],
        suite_sha.as_bytes(),
        VERSION.as_bytes(),
    ] {
        h.update(part);
        h.update([0]);
    }
    Ok(format!("{:x}", h.finalize())[..32].to_string())
}

/// The key of a gate decided under the base's `[run] gate`: all-pass leaves `key` as it is
/// (gates stored before the policy existed stay valid), another policy is mixed in.
pub fn with_policy(key: &str, policy: crate::suite::manifest::GatePolicy) -> String {
    if policy.is_all_pass() {
        return key.to_string();
    }
    let mut h = Sha256::new();
    for part in [key, "gate", policy.as_str()] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    format!("{:x}", h.finalize())[..32].to_string()
}
