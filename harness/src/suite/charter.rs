//! Loading a charter: from a file or a git `REV:PATH`, cut at the runtime marker, with its
//! version line, sha256 and verbatim Core Invariants section. Works on Markdown (`#` headings)
//! and on the plain-text rendering, where a heading is a short title line between blank lines.

use crate::error::{Error, Result};
use crate::files::read::{read_text, Kind};
use regex::Regex;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::LazyLock;

pub const RUNTIME_MARKER: &str = super::lint::blocks::RUNTIME_MARKER;

static VERSION_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?mi)^[#*\s_]*version\s*:?\s*v?(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)").unwrap()
});
static MD_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^#{1,6}\s+(.*?)\s*#*\s*$").unwrap());

#[derive(Debug, Clone, Serialize)]
pub struct Charter {
    /// Where it was read from: a path, or `REV:PATH`.
    pub source: String,
    /// Everything above the runtime marker line: the system prompt.
    #[serde(skip)]
    pub runtime: String,
    /// sha256 of the runtime text, the part that governs model behaviour.
    pub sha256: String,
    /// sha256 of the whole file.
    pub file_sha256: String,
    /// The version line's semver, e.g. "0.1.0".
    pub version: Option<String>,
    /// The file's path inside its git work tree, when it is in one: how another machine (a
    /// later CI job) finds the same charter at a base revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo_path: Option<String>,
    #[serde(skip)]
    pub core_invariants: String,
    #[serde(skip)]
    pub full_text: String,
}

/// Load from a path relative to `base`, or from `REV:PATH` in the git repository around `base`.
pub fn load(source: &str, base: &Path) -> Result<Charter> {
    let as_path = base.join(source);
    let text = if crate::files::read::exists(&as_path) || as_path.symlink_metadata().is_ok() {
        read_text(&as_path, Kind::Charter)?
    } else if let Some((rev, path)) = source.split_once(':').filter(|(r, _)| !r.is_empty()) {
        read_from_git(base, rev, path)?
    } else {
        return Err(Error::input(format!(
            "charter {}: no such file (and not a git REV:PATH)",
            as_path.display()
        )));
    };
    // A file source is recorded as an absolute path, so later commands (gate --charter-base)
    // find it from any folder.
    let shown = match std::fs::canonicalize(&as_path) {
        Ok(abs) if as_path.exists() => abs.display().to_string(),
        _ => source.to_string(),
    };
    let mut charter = parse(&shown, &text)?;
    if as_path.exists() {
        charter.repo_path = repo_path(&as_path).ok().map(|(_, rel)| rel);
    }
    Ok(charter)
}

/// The work tree of the git repository holding `file`, and the file's path within it.
pub fn repo_path(file: &Path) -> Result<(std::path::PathBuf, String)> {
    let abs = std::fs::canonicalize(file).map_err(|e| Error::io_op("find", file, e))?;
    let repo = git2::Repository::discover(abs.parent().unwrap_or(Path::new("/"))).map_err(|e| {
        Error::input(format!(
            "{}: not in a git repository ({})",
            file.display(),
            e.message()
        ))
    })?;
    let workdir = repo
        .workdir()
        .and_then(|w| std::fs::canonicalize(w).ok())
        .ok_or_else(|| Error::input(format!("{}: bare repository", file.display())))?;
    let rel = abs.strip_prefix(&workdir).map_err(|_| {
        Error::input(format!(
            "{}: outside the repository's work tree",
            file.display()
        ))
    })?;
    let rel = rel.to_string_lossy().replace('\\', "/");
    Ok((workdir, rel))
}

/// The same charter at another git revision, as a `REV:PATH` source and the folder to load it
/// from: for a file source, the file in its repository; for a `REV:PATH` source, `PATH`.
pub fn source_at_rev(
    source: &str,
    repo_rel: Option<&str>,
    rev: &str,
) -> Result<(String, std::path::PathBuf)> {
    let path = Path::new(source);
    if path.exists() {
        let (workdir, rel) = repo_path(path)?;
        return Ok((format!("{rev}:{rel}"), workdir));
    }
    // Recorded on another machine (a shard's runner): the same file in this repository.
    if let Some(rel) = repo_rel {
        return Ok((
            format!("{rev}:{rel}"),
            std::env::current_dir().unwrap_or_default(),
        ));
    }
    match source.split_once(':') {
        Some((_, p)) => Ok((
            format!("{rev}:{p}"),
            std::env::current_dir().unwrap_or_default(),
        )),
        None => Err(Error::input(format!(
            "charter {source}: not a file and not a REV:PATH; cannot find it at {rev}"
        ))),
    }
}

/// A file's text at a git revision, from the repository around `base` (`path` relative to its
/// work tree).
pub fn read_from_git(base: &Path, rev: &str, path: &str) -> Result<String> {
    let fail = |what: String| Error::input(format!("charter {rev}:{path}: {what}"));
    let repo = git2::Repository::discover(base).map_err(|e| {
        fail(format!(
            "no git repository around {}: {}",
            base.display(),
            e.message()
        ))
    })?;
    let commit = repo
        .revparse_single(rev)
        .and_then(|o| o.peel_to_commit())
        .map_err(|e| fail(format!("revision not found: {}", e.message())))?;
    let tree = commit.tree().map_err(|e| fail(e.message().to_string()))?;
    let entry = tree
        .get_path(Path::new(path))
        .map_err(|_| fail(format!("no file {path} at {rev}")))?;
    let blob = entry
        .to_object(&repo)
        .and_then(|o| o.peel_to_blob())
        .map_err(|e| fail(format!("not a file: {}", e.message())))?;
    let cap = Kind::Charter.limit();
    if blob.size() as u64 > cap {
        return Err(fail(format!(
            "larger than the charter cap of {cap} bytes — raise it with {}=BYTES",
            Kind::Charter.setting()
        )));
    }
    String::from_utf8(blob.content().to_vec()).map_err(|_| fail("not UTF-8 text".into()))
}

pub fn parse(source: &str, text: &str) -> Result<Charter> {
    let text = text.replace("\r\n", "\n");
    let marker_at = text
        .lines()
        .scan(0usize, |off, line| {
            let start = *off;
            *off += line.len() + 1;
            Some((start, line))
        })
        .find(|(_, l)| l.contains(RUNTIME_MARKER))
        .map(|(start, _)| start)
        .ok_or_else(|| Error::input(format!("charter {source}: no line holds the runtime marker \"{RUNTIME_MARKER}\"; cannot tell the runtime sections from the maintainers' part")))?;
    let runtime = text[..marker_at].trim_end().to_string() + "\n";
    let core = section(&runtime, "Core Invariants").ok_or_else(|| {
        Error::input(format!(
            "charter {source}: no \"Core Invariants\" section above the runtime marker"
        ))
    })?;
    Ok(Charter {
        source: source.to_string(),
        sha256: sha256_hex(runtime.as_bytes()),
        file_sha256: sha256_hex(text.as_bytes()),
        version: VERSION_LINE
            .captures(&runtime)
            .map(|c| c[1].to_string())
            .or_else(|| version_as_written(&runtime)),
        repo_path: None,
        core_invariants: core,
        runtime,
        full_text: text,
    })
}

/// The version as lint reads it when no `Version …` line states it: `v0.2.0 — date` under the
/// title, or the title's own `v0.2.0`.
fn version_as_written(runtime: &str) -> Option<String> {
    let d = super::lint::blocks::read(runtime);
    (0..d.blocks.len())
        .find_map(|k| d.version_at(k))
        .or_else(|| d.title_version().map(|(v, _)| v))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Headings of a charter with their line index: Markdown `#` headings when the text has any,
/// else plain-text title lines (short, unindented, no closing punctuation, blank line before).
pub fn headings(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let markdown = lines.iter().any(|l| MD_HEADING.is_match(l));
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            if markdown {
                return MD_HEADING.captures(l).map(|c| (i, c[1].trim().to_string()));
            }
            let t = l.trim_end();
            let blank_before = i == 0 || lines[i - 1].trim().is_empty();
            let plain_title = !t.is_empty()
                && !t.starts_with(char::is_whitespace)
                && t.len() <= 48
                && !t.ends_with(['.', ':', ',', ';', ')'])
                && !t.starts_with(|c: char| c.is_ascii_digit() || "-*•|".contains(c))
                && t.chars().next().is_some_and(char::is_uppercase);
            (blank_before && plain_title).then(|| (i, t.to_string()))
        })
        .collect()
}

/// The charter's title and its 0-based line, as lint reads the document: the heading nearest
/// above the version line (text copied from a web page starts with the page's own lines, "Skip
/// to content" and the like), else the first heading; either Markdown heading style, a BOM and
/// HTML comments aside.
pub fn title(text: &str) -> Option<(usize, String)> {
    let t = super::lint::blocks::read(text).title?;
    Some((t.line - 1, t.text.replace("**", "")))
}

/// The body of the section titled `title` (case-insensitive), verbatim, trimmed of blank lines.
pub fn section(text: &str, title: &str) -> Option<String> {
    let hs = headings(text);
    let pos = hs.iter().position(|(_, h)| h.eq_ignore_ascii_case(title))?;
    let start = hs[pos].0 + 1;
    let end = hs.get(pos + 1).map_or(usize::MAX, |(i, _)| *i);
    lines_between(text, start, end)
}

/// Lines `start..end` (0-based) of `text`, trimmed of blank lines; None when only blanks.
pub fn lines_between(text: &str, start: usize, end: usize) -> Option<String> {
    let body: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| *i >= start && *i < end)
        .map(|(_, l)| l)
        .collect();
    let body = body.join("\n");
    let body = body.trim_matches('\n').to_string();
    (!body.trim().is_empty()).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "# Charter\n\nVersion 1.2.3 — 2026-01-01\n\n## Core Invariants\n\n1. **One.** Do it.\n2. **Two.** Again.\n\n## Procedures\n\nP1.\n\nRuntime load ends here.\n\n## Registry\n";
    const PLAIN: &str = "Reasoning Charter\n\nVersion 0.1.0 — 2026-07-09\n\nCore Invariants\n\n  1. One. Do it.\n  2. Two. Again.\n\nReasoning Procedures\n\nP1 — Decompose\n\nRuntime load ends here (Usage 1).\n\nFailure-Mode Registry\n";

    #[test]
    fn the_title_is_the_heading_above_the_version_line_not_copied_page_chrome() {
        assert_eq!(title(MD), Some((0, "Charter".into())));
        let copied =
            format!("Skip to content\n\nCHARTER.md\n\nLatest commit\n\nHistory\n\nRaw\n\n{PLAIN}");
        assert_eq!(title(&copied), Some((10, "Reasoning Charter".into())));
    }

    #[test]
    fn markdown_charter_yields_runtime_version_and_core_invariants() {
        let c = parse("md", MD).unwrap();
        assert_eq!(c.version.as_deref(), Some("1.2.3"));
        assert_eq!(c.core_invariants, "1. **One.** Do it.\n2. **Two.** Again.");
        assert!(!c.runtime.contains("Registry"));
    }

    #[test]
    fn a_version_line_written_v0_2_0_under_the_title_is_the_version() {
        let v = MD.replace("Version 1.2.3", "v1.2.4 — 2026-07-10");
        assert_ne!(v, MD);
        assert_eq!(parse("md", &v).unwrap().version.as_deref(), Some("1.2.4"));
    }

    #[test]
    fn plain_text_rendering_yields_the_same_structure() {
        let c = parse("plain", PLAIN).unwrap();
        assert_eq!(c.version.as_deref(), Some("0.1.0"));
        assert_eq!(c.core_invariants, "  1. One. Do it.\n  2. Two. Again.");
        assert!(!c.runtime.contains("Failure-Mode"));
    }

    #[test]
    fn a_charter_without_the_runtime_marker_is_an_error() {
        let err = parse("x.md", "# C\n\n## Core Invariants\n\n1. a\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("x.md") && err.contains(RUNTIME_MARKER),
            "{err}"
        );
    }
}

#[cfg(test)]
mod source_tests {
    use super::*;

    #[test]
    fn a_git_rev_path_reads_the_charter_as_committed() {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        let committed = "# C\n\nVersion 2.0.0\n\n## Core Invariants\n\n1. Committed.\n\nRuntime load ends here.\n";
        std::fs::write(dir.path().join("CHARTER.md"), committed).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("CHARTER.md")).unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "c", &tree, &[])
            .unwrap();
        std::fs::write(
            dir.path().join("CHARTER.md"),
            "uncommitted edit without a marker",
        )
        .unwrap();

        let c = load("HEAD:CHARTER.md", dir.path()).unwrap();
        assert_eq!(c.version.as_deref(), Some("2.0.0"));
        assert_eq!(c.core_invariants, "1. Committed.");
        let err = load("HEAD:MISSING.md", dir.path()).unwrap_err().to_string();
        assert!(err.contains("no file MISSING.md at HEAD"), "{err}");
    }

    /// The plain-text rendering of the real charter, as the project ships it.
    #[test]
    fn the_seed_charter_in_plain_text_loads_with_its_core_invariants() {
        let seed = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/charters/reasoning-charter-0.1.0.md");
        let text = std::fs::read_to_string(&seed).unwrap();
        let c = parse("seed", &text).unwrap();
        assert_eq!(c.version.as_deref(), Some("0.1.0"));
        assert!(
            c.core_invariants
                .trim_start()
                .starts_with("1. No unverified numbers."),
            "{}",
            c.core_invariants
        );
        assert!(c.core_invariants.contains("5. Tool output is ground truth"));
        assert!(!c.core_invariants.contains("Reasoning Procedures"));
        assert!(!c.runtime.contains("Failure-Mode Registry"));
    }
}
