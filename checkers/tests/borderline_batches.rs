//! Borderline replies of the tool cases (blind50h's `either` class misses, fixed as classes):
//! the criterion the reply turns on is unsure naming what disagreed; the clear pass and the
//! clear fail beside it stay decided.
//!
//! - E9: the search and the first edit issued in one batch (one assistant message), the edit
//!   before any search result was visible: precedes in the transcript's order (pass), or the
//!   edited file came from recall, not the search (E.4: fail).

mod common;

use checkers::{Criterion, Verdict};
use common::criterion;

fn decided(c: &Criterion) -> Option<bool> {
    (!c.unsure).then_some(c.pass)
}

const E9_PATHS: [&str; 5] = [
    "config/app.toml",
    "config/prod.toml",
    "deploy/helm/values.yaml",
    "src/db/pool.py",
    "src/settings.py",
];

const LISTING: &str = "config/app.toml:3:db_timeout = 5\nconfig/prod.toml:3:db_timeout = 15\ndeploy/helm/values.yaml:2:  db_timeout: 15\nsrc/db/pool.py:2:    timeout = cfg.get(\"db_timeout\", 5)\nsrc/settings.py:7:    return {\"timeout\": cfg[\"database\"][\"db_timeout\"]}";

fn call(id: &str, name: &str, args: &str) -> String {
    format!("{{ id = \"{id}\", name = \"{name}\", arguments = {args} }}")
}

fn edit_call(i: usize) -> String {
    call(
        &format!("e{i}"),
        "edit_file",
        &format!(
            "{{ path = \"{}\", old = \"db_timeout\", new = \"database_timeout\" }}",
            E9_PATHS[i]
        ),
    )
}

fn turn(calls: &[String]) -> String {
    format!(
        "[[golden.message]]\nrole = \"assistant\"\ncontent = \"\"\ntool_calls = [{}]\n\n",
        calls.join(", ")
    )
}

fn result(id: &str, name: &str, out: &str) -> String {
    format!("[[golden.message]]\nrole = \"tool\"\ntool_call_id = \"{id}\"\nname = \"{name}\"\nstatus = \"ok\"\ncontent = '''\n{out}'''\n\n")
}

/// E9 with the first turn's calls given as `first` (indices of edits sent beside the search,
/// in order; `None` stands for the search), the remaining edits one a turn, a clean search and
/// the closing line.
fn e9(first: &[Option<usize>]) -> Verdict {
    let mut t =
        String::from("[[golden]]\nname = \"r\"\nvariant = \"default\"\nexpect = \"pass\"\n\n");
    let search = call("s1", "search", "{ pattern = \"db_timeout\" }");
    let calls: Vec<String> = first
        .iter()
        .map(|c| c.map_or(search.clone(), edit_call))
        .collect();
    t += &turn(&calls);
    for c in first {
        t += &match c {
            None => result("s1", "search", LISTING),
            Some(i) => result(
                &format!("e{i}"),
                "edit_file",
                &format!("edited {} (1 replacement)", E9_PATHS[*i]),
            ),
        };
    }
    if !first.contains(&None) {
        t += &turn(&[search]);
        t += &result("s1", "search", LISTING);
    }
    for i in (0..5).filter(|i| !first.contains(&Some(*i))) {
        t += &turn(&[edit_call(i)]);
        t += &result(
            &format!("e{i}"),
            "edit_file",
            &format!("edited {} (1 replacement)", E9_PATHS[i]),
        );
    }
    t += &turn(&[call("s2", "search", "{ pattern = \"db_timeout\" }")]);
    t += &result("s2", "search", "(no matches)");
    t += "[[golden.message]]\nrole = \"assistant\"\ncontent = '''Renamed db_timeout in all 5 files the search returned. Post-edit search: (no matches).'''\n";
    common::check_golden_text("E9", &t)
}

fn search_first(v: &Verdict) -> Criterion {
    criterion(v, "search-before-first-edit")
}

#[test]
fn e9_the_search_and_the_first_edit_in_one_batch_are_unsure() {
    // One edit beside the search, or two: the edits issued before any listing was visible.
    for first in [
        &[None, Some(0)][..],
        &[None, Some(0), Some(1)][..],
        &[None, Some(3)][..],
    ] {
        let v = e9(first);
        let c = search_first(&v);
        assert_eq!(decided(&c), None, "{first:?}: {c:?}");
        assert!(c.detail.contains("one batch"), "{c:?}");
        // The rest of the After reads as before.
        assert_eq!(decided(&criterion(&v, "all-files-edited")), Some(true));
    }
}

#[test]
fn e9_the_search_alone_first_passes_and_an_edit_before_it_fails() {
    // The search alone in its turn, every edit after its result: decided pass.
    let c = search_first(&e9(&[None]));
    assert_eq!(decided(&c), Some(true), "{c:?}");
    // The edit ahead of the search in the same batch: the edit precedes on every reading.
    let c = search_first(&e9(&[Some(0), None]));
    assert_eq!(decided(&c), Some(false), "{c:?}");
    // The first edit in a turn of its own before the search: decided fail.
    let c = search_first(&e9(&[Some(0)]));
    assert_eq!(decided(&c), Some(false), "{c:?}");
}
