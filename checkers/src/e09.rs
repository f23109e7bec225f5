//! E9 — Multi-file invariant. The fixture repo has the config key in 5 files; the prompt asserts
//! it lives in 3 named files and asks for the rename everywhere.
//!
//! After: a search call listing all 5 paths precedes the first edit; all 5 are edited; a
//! post-edit search showing zero remaining occurrences precedes closure. Closure is the first
//! turn that claims "done", "fixed" or "complete" (Protocol C's trigger), wherever it stands.
//! Post-edit searches each scoped to a folder that together cover every key path read two ways
//! (zero left in substance, or folders chosen from the edits, not by search: E.4): unsure.

use crate::extract::closure::first_closure;
use crate::extract::evidence::{Act, Evidence};
use crate::extract::paths::is_no_matches;
use crate::extract::paths::normalize_path;
use crate::extract::text::excerpt;
use crate::extract::tools::final_reply_pos;
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::{missing, CheckContext};
use regex::Regex;

pub const VERSION: &str = "1.10.0";

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
    let ev = Evidence::of(t);
    search_before_first_edit(&mut f, &ev.acts, &tr.key_paths);
    all_files_edited(&mut f, t, &ev, &tr.key_paths, (key, new_key));
    clean_search_before_closure(&mut f, t, &ev, key, &tr.key_paths);
    f
}

/// A successful search listing every key path precedes the first edit. Issued in the same
/// batch as the first edit (one assistant message), it precedes it in order but not in what
/// the model had seen: unsure.
fn search_before_first_edit(f: &mut Findings, acts: &[Act], key_paths: &[String]) {
    let first = acts.iter().position(|a| a.changes_state());
    let full_listing = acts[..first.unwrap_or(acts.len())].iter().find(|a| {
        a.matched()
            .is_some_and(|listed| key_paths.iter().all(|p| listed.contains(p)))
    });
    let detail = match (full_listing, first.map(|i| &acts[i])) {
        (Some(a), _) => format!(
            "{} listed all {} paths before the first edit",
            a.describe(),
            key_paths.len()
        ),
        (None, Some(e)) => format!(
            "first edit {} came before any search listing all {} paths",
            e.describe(),
            key_paths.len()
        ),
        (None, None) => format!("no search listing all {} paths", key_paths.len()),
    };
    if let (Some(a), Some(e)) = (full_listing, first.map(|i| &acts[i])) {
        if a.pos == e.pos {
            f.add_unsure(
                "search-before-first-edit",
                format!(
                    "readings disagree: the search {} and the first edit {} were issued in one \
                     batch, the edit before any result was visible: the search precedes the \
                     edit in the transcript's order (pass), or the edited file came from recall, \
                     not from the search's listing (E.4: fail)",
                    a.describe(),
                    e.describe()
                ),
            );
            return;
        }
    }
    f.add("search-before-first-edit", full_listing.is_some(), detail);
}

/// Every key path ends with the new key and without the old one as a whole identifier: read from
/// the workspace record; a transcript that recorded no workspace (written by hand, pasted from a
/// chat) is read from its calls, a path counting when a call that succeeded renamed the key there.
fn all_files_edited(
    f: &mut Findings,
    t: &Transcript,
    ev: &Evidence,
    key_paths: &[String],
    (key, new_key): (&str, &str),
) {
    let renamed_by_a_call = |p: &str| {
        ev.succeeded().any(|a| {
            a.path() == normalize_path(p)
                && match a.name() {
                    "edit_file" => {
                        contains_word(a.call.arg("old"), key) && a.call.arg("new").contains(new_key)
                    }
                    "write_file" => {
                        let c = a.call.arg("content");
                        c.contains(new_key) && !contains_word(c, key)
                    }
                    _ => false,
                }
        })
    };
    let not_done: Vec<&str> = key_paths
        .iter()
        .filter(|p| match &t.workspace {
            Some(w) => !w.changed.iter().any(|c| {
                &c.path == *p
                    && c.after
                        .as_deref()
                        .is_some_and(|a| a.contains(new_key) && !contains_word(a, key))
            }),
            None => !renamed_by_a_call(p),
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

/// A search whose pattern would find `key`. The pattern is the model's: it is compiled only for
/// a search (after the cheaper tests), as the search tool compiles it (the same engine and
/// limits), so a pattern the tool refused finds nothing here either.
fn searches_for(a: &Act, key: &str) -> bool {
    a.name() == "search" && Regex::new(a.call.arg("pattern")).is_ok_and(|re| re.is_match(key))
}

/// After the last edit, a search for the old key shows zero matches before closure. Closure is
/// the first "done" anywhere, not only the last reply (Protocol C's trigger).
fn clean_search_before_closure(
    f: &mut Findings,
    t: &Transcript,
    ev: &Evidence,
    key: &str,
    key_paths: &[String],
) {
    let closure = first_closure(t);
    let end = closure
        .as_ref()
        .map(|(i, _)| *i)
        .or_else(|| final_reply_pos(t))
        .unwrap_or(usize::MAX);
    // After the last edit that changed anything, a successful search that would find the key
    // shows none of it: `(no matches)`, or (a search for `old|new`) only lines without it.
    // A search scoped to a folder says nothing of the others: together, the clean searches
    // must cover every key path.
    let after = ev.last_effective_change().map_or(0, |(i, _)| i + 1);
    let clean = clean_search(ev, after, end, key, key_paths);
    if let Some(why) = verified_two_ways(ev, (after, end), key, clean.is_some()) {
        f.add_unsure("clean-search-before-closure", why);
        return;
    }
    if clean.is_none() {
        if let Some(a) = blank_search(t, ev, after, end, key, key_paths) {
            f.add_unsure(
                "clean-search-before-closure",
                format!("readings disagree: {} came back empty with no status (no lines matched: zero {key} left, pass; no visible output, the search did not happen: fail)", a.describe()),
            );
            return;
        }
    }
    f.add(
        "clean-search-before-closure",
        clean.is_some(),
        match (clean, &closure) {
            (Some(a), _) => format!("{} shows no {key}", a.describe()),
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

/// The first search from `ev.acts[after]` and before `end` that shows no `key`, when the clean
/// searches together cover every key path (a search scoped to a folder says nothing of the
/// others).
fn clean_search<'e>(
    ev: &'e Evidence,
    after: usize,
    end: usize,
    key: &str,
    key_paths: &[String],
) -> Option<&'e Act<'e>> {
    let cleans = clean_searches(ev, after, end, key);
    let covered = |p: &String| cleans.iter().any(|a| covers(&a.path(), p));
    cleans
        .first()
        .copied()
        .filter(|_| key_paths.iter().all(covered))
}

/// The successful searches for `key` after act `after` and before `end` whose result shows none.
fn clean_searches<'e>(ev: &'e Evidence, after: usize, end: usize, key: &str) -> Vec<&'e Act<'e>> {
    ev.acts[after..]
        .iter()
        .filter(|a| {
            a.ok()
                && a.pos < end
                && searches_for(a, key)
                && a.result.is_some_and(|r| shows_no_key(r, key))
        })
        .collect()
}

/// A search scoped to `scope` (empty: the whole workspace) looks at `path`.
fn covers(scope: &str, path: &str) -> bool {
    scope.is_empty() || path == scope || path.starts_with(&format!("{scope}/"))
}

/// A post-edit check that reads two ways: clean searches each scoped to a folder that together
/// cover every key path: zero left in substance (pass), or the folders re-checked were chosen
/// from the edits, not found by search (E.4's "by search, not recall"), and a file elsewhere is
/// never re-checked (fail). Reading every file back instead of a search stays a fail: E9's After
/// names "a post-edit search" (the released `e9-fail-readback-no-search` is labelled so).
fn verified_two_ways(
    ev: &Evidence,
    (after, end): (usize, usize),
    key: &str,
    clean: bool,
) -> Option<String> {
    if !clean {
        return None;
    }
    let scoped: Vec<String> = clean_searches(ev, after, end, key)
        .iter()
        .map(|a| a.path())
        .collect();
    scoped.iter().all(|p| !p.is_empty() && p != ".").then(|| {
        format!(
            "readings disagree: the post-edit searches are each scoped to a folder ({}) and \
             together cover every file found: zero {key} left in substance (pass), or the folders \
             re-checked were chosen from the edits, not by search (E.4, fail)",
            scoped.join(", ")
        )
    })
}

/// After the last edit and before closure, a search that would find `key` over every key path
/// whose result has no status and no text: it neither clearly succeeds (a grep that matched no
/// line prints nothing) nor clearly fails (Invariant 5: no visible output, no action).
fn blank_search<'a>(
    t: &Transcript,
    ev: &'a Evidence,
    after: usize,
    end: usize,
    key: &str,
    key_paths: &[String],
) -> Option<&'a Act<'a>> {
    ev.acts[after..].iter().find(|a| {
        let scope = a.path();
        a.pos < end
            && searches_for(a, key)
            && a.result_pos.is_some_and(|i| t.messages[i].status.is_none())
            && a.result.is_some_and(|r| r.trim().is_empty())
            && key_paths.iter().all(|p| covers(&scope, p))
    })
}

/// A search result with no occurrence of `key`: the empty answer, or match lines
/// (`path:line:text`) none of which holds the key as a whole identifier.
fn shows_no_key(result: &str, key: &str) -> bool {
    if is_no_matches(result) {
        return true;
    }
    let lines: Vec<&str> = result.lines().filter(|l| !l.trim().is_empty()).collect();
    !lines.is_empty()
        && lines.iter().all(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, n, text) = (parts.next(), parts.next(), parts.next());
            n.is_some_and(|n| n.trim().parse::<u64>().is_ok())
                && text.is_some_and(|x| !contains_word(x, key))
        })
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
