//! The house's layers, enforced: every `crate::…`, `super::…`, `self::…` and `$crate::…` path in
//! `harness/src` (in `use` trees, inline, and through the printing macros) must point down the
//! layer order ARCHITECTURE.md states, or stay in its own room (a folder, its `mod.rs` and its
//! files; or one top-level file); and no files of `harness/src` or `checkers/src` may import
//! each other in a circle. Test modules (`#[cfg(test)] mod`) are left out: a test may reach
//! anywhere.

use crate::common::repo_root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source with comments, string and char literals blanked, so only code is read.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(b.len(), |n| i + n + 2);
            out.push(' ');
            i = end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            let end = src[body..]
                .find(&close)
                .map_or(b.len(), |n| body + n + close.len());
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\'' && is_char_literal(rest) {
            let end = rest[1..].find('\'').map_or(b.len(), |n| i + n + 2);
            out.push_str("' '");
            i = end;
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn raw_string_start(s: &str) -> Option<usize> {
    let r = s.strip_prefix('r').or_else(|| s.strip_prefix("br"))?;
    let hashes = r.len() - r.trim_start_matches('#').len();
    r[hashes..]
        .starts_with('"')
        .then_some(hashes + usize::from(s.starts_with("br")))
}

/// `'a'`, `'\n'`, `'\u{1b}'` but not a lifetime `'a`.
fn is_char_literal(s: &str) -> bool {
    let mut c = s[1..].chars();
    match c.next() {
        Some('\\') => true,
        Some(_) => c.next() == Some('\''),
        None => false,
    }
}

/// The code with every `#[cfg(test)]` item (a test module, a test-only function) removed.
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let Some(open) = out[at..].find(['{', ';']).map(|n| at + n) else {
            break;
        };
        let mut end = open + 1;
        if out.as_bytes()[open] == b'{' {
            let mut depth = 0;
            for (k, ch) in out[open..].char_indices() {
                depth += match ch {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    end = open + k + 1;
                    break;
                }
            }
        }
        out.replace_range(at..end, "");
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split("as").next().unwrap_or("").to_string()];
    };
    let (prefix, inner) = (
        &tree[..open],
        &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())],
    );
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for ch in inner.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    parts.push(cur);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand_use(p)
                .into_iter()
                .map(move |e| format!("{prefix}{e}"))
        })
        .collect()
}

/// One crate's source: module path → file, and each file's module path.
struct Tree {
    root: PathBuf,
    modules: BTreeMap<Vec<String>, PathBuf>,
}

impl Tree {
    fn read(root: &Path) -> Tree {
        let mut modules = BTreeMap::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    modules.insert(module_of(root, &p), p);
                }
            }
        }
        Tree {
            root: root.to_path_buf(),
            modules,
        }
    }

    /// The file a path names: the longest module prefix of it.
    fn resolve(&self, path: &[String]) -> Option<&PathBuf> {
        (1..=path.len())
            .rev()
            .find_map(|n| self.modules.get(&path[..n]))
    }

    fn rel(&self, p: &Path) -> String {
        p.strip_prefix(&self.root).unwrap().display().to_string()
    }

    /// Every (from file, to file) import, outside test code.
    fn edges(&self, macros: &BTreeMap<String, Vec<String>>) -> BTreeSet<(PathBuf, PathBuf)> {
        let mut edges = BTreeSet::new();
        for (module, file) in &self.modules {
            let code = without_tests(&code_only(&std::fs::read_to_string(file).unwrap()));
            for path in paths_in(&code, module, macros) {
                if let Some(to) = self.resolve(&path) {
                    if to != file && !path.is_empty() {
                        edges.insert((file.clone(), to.clone()));
                    }
                }
            }
        }
        edges
    }
}

fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Absolute module paths named in `code` (a file of module `module`).
fn paths_in(
    code: &str,
    module: &[String],
    macros: &BTreeMap<String, Vec<String>>,
) -> Vec<Vec<String>> {
    let absolute = |base: &str, rest: &str| -> Vec<String> {
        let mut path: Vec<String> = match base {
            "crate" => vec![],
            "self" => module.to_vec(),
            _ => module[..module.len().saturating_sub(base.matches("super").count())].to_vec(),
        };
        path.extend(
            rest.split("::")
                .filter(|s| !s.is_empty() && *s != "self")
                .map(String::from),
        );
        path
    };
    let mut out = Vec::new();
    let use_tree = regex::Regex::new(r"\buse\s+(crate|self|super(?:::super)*)::([^;]*);").unwrap();
    for c in use_tree.captures_iter(code) {
        for e in expand_use(&c[2]) {
            out.push(absolute(&c[1], &e));
        }
    }
    let inline = regex::Regex::new(r"\$?\b(crate|super(?:::super)*)::((?:\w+::)*\w+)").unwrap();
    for c in inline.captures_iter(code) {
        out.push(absolute(&c[1], &c[2]));
    }
    for (name, targets) in macros {
        if code.contains(&format!("{name}!")) {
            out.extend(
                targets
                    .iter()
                    .map(|t| t.split("::").map(String::from).collect()),
            );
        }
    }
    out
}

/// The printing macros of lib.rs (`outln!`, `errln!`, …) and the paths their bodies name.
fn macros_of(lib: &Path) -> BTreeMap<String, Vec<String>> {
    let code = code_only(&std::fs::read_to_string(lib).unwrap());
    let def = regex::Regex::new(r"macro_rules!\s*(\w+)\s*\{").unwrap();
    let path = regex::Regex::new(r"\$crate::((?:\w+::)*\w+)").unwrap();
    def.captures_iter(&code)
        .map(|c| {
            let start = c.get(0).unwrap().end();
            let end = code[start..]
                .find("macro_rules!")
                .map_or(code.len(), |n| start + n);
            let body = &code[start..end];
            (
                c[1].to_string(),
                path.captures_iter(body).map(|p| p[1].to_string()).collect(),
            )
        })
        .collect()
}

/// The rooms of harness/src top to bottom, as ARCHITECTURE.md states them: the first word of
/// each line of its block fenced with `layers`.
fn layer_order() -> Vec<String> {
    let arch = std::fs::read_to_string(repo_root().join("ARCHITECTURE.md")).unwrap();
    let block = arch
        .split("```layers\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a ```layers block");
    block[..block.find("```").unwrap()]
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|w| w.trim_end_matches('/').trim_end_matches(".rs").to_string())
        .collect()
}

/// A file's room: its top folder under src, or the top-level file itself.
fn room(tree: &Tree, file: &Path) -> String {
    module_of(&tree.root, file)
        .first()
        .cloned()
        .unwrap_or_else(|| file.file_stem().unwrap().to_string_lossy().into_owned())
}

/// Imports that go up the order, or into a room the order does not place.
fn upward(tree: &Tree, edges: &BTreeSet<(PathBuf, PathBuf)>, order: &[String]) -> Vec<String> {
    let rank = |r: &str| order.iter().position(|o| o == r);
    let mut bad = Vec::new();
    for (from, to) in edges {
        let (a, b) = (room(tree, from), room(tree, to));
        if a == b || a == "lib" {
            continue;
        }
        match (rank(&a), rank(&b)) {
            (Some(x), Some(y)) if x < y => {}
            (Some(_), Some(_)) => bad.push(format!(
                "{} imports {}: {a}/ is above {b}/ in ARCHITECTURE.md's layers, so the import goes up",
                tree.rel(from),
                tree.rel(to)
            )),
            _ => bad.push(format!(
                "{} imports {}: {} is not in ARCHITECTURE.md's layers",
                tree.rel(from),
                tree.rel(to),
                if rank(&a).is_none() { a } else { b }
            )),
        }
    }
    bad
}

/// Every circle of files (a strongly connected set of more than one), each as its files.
fn circles(edges: &BTreeSet<(PathBuf, PathBuf)>) -> Vec<Vec<PathBuf>> {
    let mut next: BTreeMap<&PathBuf, Vec<&PathBuf>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &PathBuf| -> BTreeSet<PathBuf> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            for w in next.get(v).into_iter().flatten() {
                if seen.insert((*w).clone()) {
                    stack.push(w);
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&PathBuf> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let reaches: BTreeMap<&PathBuf, BTreeSet<PathBuf>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reaches[n].contains(*n) {
            continue;
        }
        let circle: Vec<PathBuf> = nodes
            .iter()
            .filter(|m| reaches[n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        done.extend(circle.iter().cloned());
        out.push(circle);
    }
    out
}

fn harness_tree() -> (Tree, BTreeSet<(PathBuf, PathBuf)>) {
    let src = repo_root().join("harness/src");
    let tree = Tree::read(&src);
    let edges = tree.edges(&macros_of(&src.join("lib.rs")));
    (tree, edges)
}

#[test]
fn harness_imports_only_go_down_the_layers_architecture_md_states() {
    let (tree, edges) = harness_tree();
    assert!(edges.len() > 200, "too few imports read: {}", edges.len());
    let bad = upward(&tree, &edges, &layer_order());
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_files_of_harness_or_checkers_import_each_other_in_a_circle() {
    for krate in ["harness/src", "checkers/src"] {
        let tree = Tree::read(&repo_root().join(krate));
        let edges = tree.edges(&macros_of(&tree.root.join("lib.rs")));
        let found: Vec<String> = circles(&edges)
            .iter()
            .map(|c| {
                c.iter()
                    .map(|f| tree.rel(f))
                    .collect::<Vec<_>>()
                    .join(" ↔ ")
            })
            .collect();
        assert!(
            found.is_empty(),
            "{krate}: import circles:\n{}",
            found.join("\n")
        );
    }
}

#[test]
fn the_top_of_harness_src_holds_at_most_four_files() {
    let files: Vec<String> = std::fs::read_dir(repo_root().join("harness/src"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.len() <= 4, "harness/src holds {files:?}");
}

#[test]
fn the_layer_test_finds_an_upward_import_an_inline_path_a_macro_and_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |p: &str, s: &str| {
        std::fs::create_dir_all(src.join(p).parent().unwrap()).unwrap();
        std::fs::write(src.join(p), s).unwrap();
    };
    write(
        "lib.rs",
        "macro_rules! say { ($t:tt) => { $crate::top::shout($t) } }\npub mod top; pub mod low;",
    );
    write(
        "top/mod.rs",
        "pub mod a;\nuse crate::low::b::{self, B};\npub fn shout() {}",
    );
    write(
        "top/a.rs",
        "// crate::low::c in a comment is not an import\nfn f() { let s = \"crate::low::c\"; }",
    );
    write("low/mod.rs", "pub mod b; pub mod c;");
    write("low/b.rs", "pub struct B; fn g() { crate::top::shout(); }\n#[cfg(test)]\nmod tests { use crate::top::a; }");
    write("low/c.rs", "fn h() { say!(1); }");
    let tree = Tree::read(src);
    let edges = tree.edges(&macros_of(&src.join("lib.rs")));
    let order = vec!["top".to_string(), "low".to_string()];
    let bad = upward(&tree, &edges, &order);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].starts_with("low/b.rs imports top/mod.rs"), "{bad:?}");
    assert!(bad[1].starts_with("low/c.rs imports top/mod.rs"), "{bad:?}");
    assert_eq!(circles(&edges).len(), 1);
    // Below, nothing goes up and there is no circle.
    let clean: BTreeSet<_> = edges
        .into_iter()
        .filter(|(a, _)| !a.starts_with(src.join("low")))
        .collect();
    assert!(upward(&tree, &clean, &order).is_empty());
    assert!(circles(&clean).is_empty());
}
