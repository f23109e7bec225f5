//! The harness's environment settings by name: every one is `CHARTER_HARNESS_*`. The names of
//! release 0.2 without the `CHARTER_` part (`HARNESS_MAX_*_BYTES`; `HARNESS_*` is also the
//! prefix of another vendor's widely installed `harness` CLI) are still read for one release,
//! with one deprecation line on stderr naming the new name.

use std::collections::HashSet;
use std::ffi::OsString;
use std::sync::Mutex;

/// The prefix of every setting.
pub const PREFIX: &str = "CHARTER_HARNESS_";

/// The settings that had a `HARNESS_*` name before, read under it until the next release.
const RENAMED: &[&str] = &[
    "CHARTER_HARNESS_MAX_MANIFEST_BYTES",
    "CHARTER_HARNESS_MAX_CHARTER_BYTES",
    "CHARTER_HARNESS_MAX_CASE_BYTES",
    "CHARTER_HARNESS_MAX_TRANSCRIPT_BYTES",
    "CHARTER_HARNESS_MAX_LABELS_BYTES",
    "CHARTER_HARNESS_MAX_CAPSULE_BYTES",
    "CHARTER_HARNESS_MAX_SCRIPTED_BYTES",
    "CHARTER_HARNESS_MAX_RUN_JSON_BYTES",
    "CHARTER_HARNESS_MAX_SUMMARY_JSON_BYTES",
];

/// The old name of a renamed setting (`HARNESS_MAX_CASE_BYTES`), if it had one.
pub fn old_name(name: &str) -> Option<&'static str> {
    RENAMED
        .iter()
        .find(|n| **n == name)
        .map(|n| &n["CHARTER_".len()..])
}

/// The value of setting `name` (a `CHARTER_HARNESS_*` name); an empty value counts as unset.
/// The new name wins; the old one is read with a deprecation line, once per process.
pub fn var_os(name: &str) -> Option<OsString> {
    debug_assert!(name.starts_with(PREFIX), "{name}");
    if let Some(v) = std::env::var_os(name).filter(|v| !v.is_empty()) {
        return Some(v);
    }
    let old = old_name(name)?;
    let v = std::env::var_os(old).filter(|v| !v.is_empty())?;
    warn_once(old, name);
    Some(v)
}

/// [`var_os`] as text, when it is UTF-8.
pub fn var(name: &str) -> Option<String> {
    var_os(name).and_then(|v| v.into_string().ok())
}

fn warn_once(old: &str, new: &str) {
    static SAID: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if said
        .get_or_insert_with(HashSet::new)
        .insert(old.to_string())
    {
        errln!("warning: {old} is deprecated and will stop working in the next release; set {new} instead");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_renamed_settings_have_an_old_name() {
        assert_eq!(
            super::old_name("CHARTER_HARNESS_MAX_CASE_BYTES"),
            Some("HARNESS_MAX_CASE_BYTES")
        );
        assert_eq!(super::old_name("CHARTER_HARNESS_SUITE"), None);
    }
}
