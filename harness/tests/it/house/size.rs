//! The size limits a reader can hold in their head: no source file over 700 lines, no function
//! over 80, in every crate's `src/` (tests and examples are exempt: a table of cases is long by
//! nature). rustfmt's layout makes a function's end the first `}` at its own indentation.

use crate::common::repo_root;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 700;
const MAX_FN_LINES: usize = 80;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for krate in ["harness", "checkers", "loopback"] {
        rust_files(&repo_root().join(krate).join("src"), &mut out);
    }
    out.sort();
    out
}

/// (name, first line, length in lines) of every function whose body opens on its signature's
/// last line.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let Some(at) = t.find("fn ") else { continue };
        let head = &t[..at];
        let is_fn = head.split_whitespace().all(|w| {
            matches!(w, "pub" | "async" | "const" | "unsafe" | "extern") || w.starts_with("pub(")
        });
        if !is_fn || t.starts_with("//") {
            continue;
        }
        let name: String = t[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if t.trim_end().ends_with('}') {
            continue; // a one-line function
        }
        // Skip declarations without a body (trait methods ending in `;`).
        let Some(open) = (i..lines.len())
            .find(|&j| lines[j].trim_end().ends_with('{') || lines[j].trim_end().ends_with(';'))
        else {
            continue;
        };
        if lines[open].trim_end().ends_with(';') {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        if let Some(end) = (open + 1..lines.len()).find(|&j| lines[j].trim_end() == close) {
            out.push((name, i + 1, end - i + 1));
        }
    }
    out
}

#[test]
fn no_source_file_is_over_700_lines_and_no_function_over_80() {
    let mut over = Vec::new();
    let files = sources();
    assert!(files.len() > 50, "found only {} source files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f.strip_prefix(repo_root()).unwrap().display().to_string();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            over.push(format!("{rel}: {n} lines (limit {MAX_FILE_LINES})"));
        }
        for (name, line, len) in functions(&text) {
            if len > MAX_FN_LINES {
                over.push(format!(
                    "{rel}:{line}: fn {name} is {len} lines (limit {MAX_FN_LINES})"
                ));
            }
        }
    }
    assert!(
        over.is_empty(),
        "over the size limits:\n{}",
        over.join("\n")
    );
}

#[test]
fn the_function_measure_finds_a_long_function_and_its_length() {
    let body: String = (0..81).map(|i| format!("    let x{i} = {i};\n")).collect();
    let text = format!("impl A {{\n    pub(crate) fn short() {{}}\n}}\nfn long(\n    a: u8,\n) -> u8 {{\n{body}}}\n");
    let found = functions(&text);
    let long = found.iter().find(|f| f.0 == "long").unwrap();
    assert_eq!((long.1, long.2), (4, 85));
}
