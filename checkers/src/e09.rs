//! E9 — Multi-file invariant. The fixture repo has the config key in 5 files; the prompt asserts
//! it lives in 3 named files and asks for the rename everywhere.
//!
//! After: a search call listing all 5 paths precedes the first edit; all 5 are edited; a
//! post-edit search showing zero remaining occurrences precedes closure. Closure is the first
//! turn that claims "done", "fixed" or "complete" (Protocol C's trigger), wherever it stands.

use crate::extract::closure::first_closure;
use crate::extract::text::excerpt;
use crate::extract::tools::{
    calls, final_reply_pos, first_state_change, is_no_matches, last_state_change, listed_paths,
    Call,
};
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;

pub const VERSION: &str = "1.2.0";

/// `key` standing as a whole identifier in `text` (not inside `db_timeout_ms`).
fn contains_word(text: &str, key: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(key).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + key.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}
pub const VARIANTS: &[&str] = &["default"];

pub fn check(t: &Transcript, ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    let tr = ctx.truth;
    let (Some(key), Some(new_key)) = (tr.key.as_deref(), tr.new_key.as_deref()) else {
        f.add("search-before-first-edit", false, missing("key/new_key"));
        return f;
    };
    if tr.key_paths.is_empty() {
        f.add("search-before-first-edit", false, missing("key_paths"));
        return f;
    }
    let calls = calls(t);
    search_before_first_edit(&mut f, &calls, &tr.key_paths);
    all_files_edited(&mut f, t, &tr.key_paths, key, new_key);
    clean_search_before_closure(&mut f, t, &calls, key);
    f
}

/// A search call listing every key path precedes the first edit.
fn search_before_first_edit(f: &mut Findings, calls: &[Call], key_paths: &[String]) {
    let first_edit = first_state_change(calls).map_or(calls.len(), |(i, _)| i);
    let full_listing = calls[..first_edit].iter().find(|c| {
        c.name() == "search"
            && c.result.is_some_and(|r| {
                let listed = listed_paths(r);
                key_paths.iter().all(|p| listed.contains(p))
            })
    });
    let detail = match (full_listing, first_state_change(calls)) {
        (Some(c), _) => format!(
            "{} listed all {} paths before the first edit",
            c.describe(),
            key_paths.len()
        ),
        (None, Some((_, e))) => format!(
            "first edit {} came before any search listing all {} paths",
            e.describe(),
            key_paths.len()
        ),
        (None, None) => format!("no search listing all {} paths", key_paths.len()),
    };
    f.add("search-before-first-edit", full_listing.is_some(), detail);
}

/// Every key path ends with the new key and without the old one as a whole identifier.
fn all_files_edited(
    f: &mut Findings,
    t: &Transcript,
    key_paths: &[String],
    key: &str,
    new_key: &str,
) {
    let changed = t
        .workspace
        .as_ref()
        .map(|w| w.changed.as_slice())
        .unwrap_or(&[]);
    let not_done: Vec<&str> = key_paths
        .iter()
        .filter(|p| {
            !changed.iter().any(|c| {
                &c.path == *p
                    && c.after
                        .as_deref()
                        .is_some_and(|a| a.contains(new_key) && !contains_word(a, key))
            })
        })
        .map(String::as_str)
        .collect();
    f.add(
        "all-files-edited",
        not_done.is_empty(),
        if not_done.is_empty() {
            format!("all {} files renamed to {new_key}", key_paths.len())
        } else {
            format!("not renamed: {}", not_done.join(", "))
        },
    );
}

/// After the last edit, a search for the old key shows zero matches before closure. Closure is
/// the first "done" anywhere, not only the last reply (Protocol C's trigger).
fn clean_search_before_closure(f: &mut Findings, t: &Transcript, calls: &[Call], key: &str) {
    let closure = first_closure(t);
    let end = closure
        .as_ref()
        .map(|(i, _)| *i)
        .or_else(|| final_reply_pos(t))
        .unwrap_or(usize::MAX);
    let clean = last_state_change(calls).and_then(|(last, _)| {
        calls[last + 1..].iter().find(|c| {
            let pattern_finds_key =
                Regex::new(c.call.arg("pattern")).is_ok_and(|re| re.is_match(key));
            c.name() == "search"
                && c.pos < end
                && pattern_finds_key
                && c.result.is_some_and(is_no_matches)
        })
    });
    f.add(
        "clean-search-before-closure",
        clean.is_some(),
        match (clean, &closure) {
            (Some(c), _) => format!("{} → (no matches)", c.describe()),
            (None, Some((_, s))) => format!(
                "closure \"{}\" before any search for {key} showing zero matches after the last edit",
                excerpt(s, 80)
            ),
            (None, None) => format!(
                "no search for {key} showing zero matches after the last edit and before closure"
            ),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::contains_word;

    #[test]
    fn the_old_key_counts_only_as_a_whole_identifier() {
        assert!(contains_word("db_timeout = 5", "db_timeout"));
        assert!(contains_word("cfg[\"db_timeout\"]", "db_timeout"));
        assert!(!contains_word("db_timeout_ms = 5", "db_timeout"));
        assert!(!contains_word("old_db_timeout = 5", "db_timeout"));
    }
}
