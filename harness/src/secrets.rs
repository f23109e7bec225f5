//! Key values the harness must never write: every configured API key read from the
//! environment is registered here, and every text the harness writes or prints that came from a
//! model or a server passes through [`redact`] — before any truncation, so a cut never leaves a
//! partial key behind. The run folder's files are redacted once more as they are written.

use std::sync::RwLock;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());
pub const MASK: &str = "[redacted]";

/// Remember a key value (shorter values are not secrets worth masking and would mangle text).
pub fn register(value: &str) {
    let v = value.trim();
    if v.len() < 8 {
        return;
    }
    if let Ok(mut s) = SECRETS.write() {
        if !s.iter().any(|x| x == v) {
            s.push(v.to_string());
            // Longest first, so a key that contains another is masked whole.
            s.sort_by_key(|x| std::cmp::Reverse(x.len()));
        }
    }
}

/// Remember the values of environment variables named like keys (`*_API_KEY`, `*_TOKEN`,
/// `*_SECRET`), so output is masked even where no manifest names the key.
pub fn register_from_env() {
    for (name, value) in std::env::vars_os() {
        let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
            continue;
        };
        let upper = name.to_ascii_uppercase();
        if ["_API_KEY", "_TOKEN", "_SECRET"]
            .iter()
            .any(|s| upper.ends_with(s))
        {
            register(value);
        }
    }
}

/// `text` with every registered key masked, as written and as JSON would escape it.
pub fn redact(text: &str) -> String {
    let Ok(secrets) = SECRETS.read() else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for s in secrets.iter() {
        if out.contains(s.as_str()) {
            out = out.replace(s.as_str(), MASK);
        }
        let escaped = serde_json::to_string(s).unwrap_or_default();
        let escaped = escaped.trim_matches('"');
        if escaped != s && out.contains(escaped) {
            out = out.replace(escaped, MASK);
        }
    }
    out
}

/// Whether any secret is registered (callers skip work when none is).
pub fn any() -> bool {
    SECRETS.read().is_ok_and(|s| !s.is_empty())
}

/// Mask keys in every string of a JSON value.
pub fn redact_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            let r = redact(s);
            if r != *s {
                *s = r;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(redact_json),
        serde_json::Value::Object(o) => o.values_mut().for_each(redact_json),
        _ => {}
    }
}

/// `text` cut to `max` characters after masking, with a marker when cut.
pub fn redacted_excerpt(text: &str, max: usize) -> String {
    let clean = redact(text);
    if clean.chars().count() <= max {
        clean
    } else {
        let cut: String = clean.chars().take(max).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_masked_before_a_cut_so_no_part_of_it_survives() {
        register("sk-test-ABCDEFGHIJKLMNOPQRS");
        let body = format!("{}sk-test-ABCDEFGHIJKLMNOPQRS tail", "x".repeat(290));
        let cut = redacted_excerpt(&body, 300);
        assert!(!cut.contains("sk-test-ABCDEFGHI"), "{cut}");
        assert!(!cut.contains("ABCDEFGH"), "{cut}");
        assert!(redact("key=sk-test-ABCDEFGHIJKLMNOPQRS!").contains(MASK));
    }
}
