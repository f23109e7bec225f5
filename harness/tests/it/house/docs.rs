//! The docs hold together: the contents page links every page of docs/, no relative link or
//! anchor in README.md or docs/ is broken, the manifest page names every key the manifest types
//! read, and the capsule page's example is a valid capsule.

use crate::common::{harness, repo_root, stderr, stdout};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// README.md and every Markdown page of docs/.
fn pages() -> Vec<PathBuf> {
    let root = repo_root();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
}

fn parse(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

/// Every link and image target of a Markdown text.
fn targets(text: &str) -> Vec<String> {
    parse(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// GitHub's anchor for a heading's text: lower case, letters, digits, `-` and `_` kept, spaces
/// made `-`, the rest dropped; a repeated anchor gets `-1`, `-2`, ….
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors a Markdown text's headings make.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut heading: Option<String> = None;
    for e in parse(text) {
        match e {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let mut name = base.clone();
                let mut n = 0;
                while out.contains(&name) {
                    n += 1;
                    name = format!("{base}-{n}");
                }
                out.insert(name);
            }
            _ => {}
        }
    }
    out
}

/// What is wrong with `target` as written in `page`, if anything.
fn broken(page: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: no file {}", file.display()));
    }
    if anchor.is_empty() || file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap();
    (!anchors(&text).contains(anchor)).then(|| format!("{target}: no heading makes #{anchor}"))
}

#[test]
fn no_relative_link_or_anchor_in_the_readme_or_the_docs_is_broken() {
    let mut bad = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in targets(&text) {
            if let Some(why) = broken(&page, &target) {
                bad.push(format!("{}: {why}", page.display()));
            }
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_link_check_finds_a_missing_page_and_a_missing_anchor() {
    let page = repo_root().join("docs/README.md");
    assert!(broken(&page, "setup.md#api-keys-and-env").is_none());
    assert!(broken(&page, "gate.md#what---settle-n-costs").is_none());
    assert!(broken(&page, "nowhere.md").is_some());
    assert!(broken(&page, "setup.md#no-such-heading").is_some());
    assert!(broken(&page, "https://example.com/x.md#y").is_none());
}

#[test]
fn the_docs_contents_page_links_every_page_of_the_docs() {
    let docs = repo_root().join("docs");
    let contents = std::fs::read_to_string(docs.join("README.md")).unwrap();
    let linked: BTreeSet<String> = targets(&contents)
        .into_iter()
        .map(|t| t.split('#').next().unwrap().to_string())
        .collect();
    for page in pages().into_iter().skip(1) {
        let name = page.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            name == "README.md" || linked.contains(&name),
            "docs/README.md does not link {name}"
        );
    }
    // The README points at the contents page.
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    assert!(targets(&readme).iter().any(|t| t == "docs/README.md"));
}

#[test]
fn the_readme_stays_a_front_door_under_three_hundred_lines() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let n = readme.lines().count();
    assert!(n <= 300, "README.md has {n} lines; move detail to docs/");
}

/// The `pub` fields of the manifest's tables' types, as serde reads them from a manifest.
fn manifest_keys() -> Vec<String> {
    let src =
        std::fs::read_to_string(repo_root().join("harness/src/suite/manifest/mod.rs")).unwrap();
    let mut keys = Vec::new();
    let mut inside = false;
    for line in src.lines() {
        if let Some(rest) = line.strip_prefix("pub struct ") {
            let name = rest.split([' ', '{']).next().unwrap();
            // The tables themselves ([charter], [decoding], [run], [[models]]) head the rows.
            inside = ["CharterSource", "Decoding", "RunConfig", "ModelEntry"].contains(&name);
        } else if line.starts_with('}') {
            inside = false;
        } else if inside {
            if let Some(field) = line.trim().strip_prefix("pub ") {
                keys.push(field.split(':').next().unwrap().to_string());
            }
        }
    }
    keys
}

#[test]
fn the_manifest_page_names_every_key_the_manifest_types_read() {
    let keys = manifest_keys();
    assert!(keys.len() > 40, "{keys:?}");
    let page = std::fs::read_to_string(repo_root().join("docs/manifests.md")).unwrap();
    let table = &page[page.find("## Every key").unwrap()..];
    let table = &table[..table[3..].find("\n## ").unwrap()];
    for key in keys {
        assert!(
            table.contains(&format!("`{key}`")) || table.contains(&format!(" {key}`")),
            "docs/manifests.md, Every key: no row for `{key}`"
        );
    }
}

#[test]
fn the_capsule_example_in_the_docs_lints_clean_with_strict() {
    let page = std::fs::read_to_string(repo_root().join("docs/capsules.md")).unwrap();
    let block = &page[page.find("<!-- capsule example -->").unwrap()..];
    let block = &block[block.find("```markdown\n").unwrap() + 12..];
    let block = &block[..block.find("```\n").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("vault/files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("4b1e9c2a.md"), block).unwrap();
    let o = harness(dir.path(), &["lint", "capsule", "--strict"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("0 finding(s)"), "{}", stderr(&o));
    // The same file without its Identity section is caught: the example is checked, not skipped.
    std::fs::write(
        files.join("4b1e9c2a.md"),
        block.replace("## Identity", "## Purpose"),
    )
    .unwrap();
    let o = harness(dir.path(), &["lint", "capsule", "--strict"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}
