//! What changed between two revisions of a charter, read as documents (`blocks`): each block
//! of the base paired with the block of the head that holds the same content, wherever it now
//! stands, and each change weighed by the charter's own versioning rules ("patch = wording;
//! minor = new protocol or case; major = Core Invariant change").
//!
//! - Any change in the Core Invariants (a block in, out, moved, reordered or reworded beyond
//!   form): major.
//! - A block added or deleted (a rule, a protocol, a case, a registry row): minor.
//! - A rule's text changed in what it requires (a number or unit, a threshold, a negation, a
//!   quantifier, a modal, a list's members or order, a defined term): minor.
//! - A rule moved across the runtime marker (it changed when it applies): minor; a list's items
//!   reordered, joined into one or cut into several: minor; a rule moved to another section:
//!   patch, reported as moved.
//! - A change of form only (case, punctuation, emphasis, re-wrap, a sentence or paragraph cut
//!   with the same words, a heading renamed in place): wording, a patch, in every section (a
//!   Core Invariant's punctuation too).
//! - Content words changed with none of the above: a question for a reviewer (wording on one
//!   reading, a rule change on the other).

use super::blocks::{Block, Doc, Kind};
use super::rules::{compare_within, normal_words, similarity, Change as Reading};
use regex::Regex;
use std::sync::LazyLock;

pub const CORE: &str = "Core Invariants";

/// One change between base and head.
#[derive(Debug, Clone)]
pub struct Change {
    /// The bump it needs: 0 patch, 1 minor, 2 major.
    pub level: usize,
    /// Why, for a person: "a number changed: 3 → 2", "moved from Usage Rules to Composition".
    pub what: String,
    /// The block where it is now (the base's block when it was deleted).
    pub at: Block,
    pub old: Option<String>,
    pub new: Option<String>,
    /// Content words changed and nothing decides: a patch on one reading, a minor on the other.
    pub question: bool,
}

impl Change {
    /// Where, for a person: `line 42 (Usage Rules)`.
    pub fn place(&self) -> String {
        place(&self.at)
    }
}

pub fn place(b: &Block) -> String {
    let mut section = if b.section.is_empty() {
        "above the first section".to_string()
    } else if b.sub.is_empty() {
        b.section.clone()
    } else {
        format!("{} › {}", b.section, b.sub)
    };
    if let Some(n) = b.ordinal {
        section.push_str(&format!(", item {n}"));
    }
    format!("line {} ({section})", b.line)
}

static E_CASE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\**(E\d{1,3})\**\s*[-:.]\s*\S").unwrap());
static PROTOCOL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\**([A-Z])\**(?:\s*[-:]\s*|\s+)\**[A-Z][a-z]").unwrap());

/// What a block is, for a finding: "case E14", "protocol F", "a registry row", "a rule".
fn noun(b: &Block) -> String {
    let t = b.text.trim_start_matches(['*', ' ']);
    if b.section.eq_ignore_ascii_case("Evaluation Harness") {
        if let Some(c) = E_CASE.captures(t) {
            return format!("case {}", &c[1]);
        }
    }
    if b.section.eq_ignore_ascii_case("Verification Protocols") {
        if let Some(c) = PROTOCOL.captures(t) {
            return format!("protocol {}", &c[1]);
        }
    }
    match b.kind {
        Kind::Row => "a registry row".into(),
        Kind::Heading => format!("the heading {:?}", b.text),
        Kind::Code => "a code block".into(),
        _ => format!("the rule {:?}", short(&b.text)),
    }
}

/// A text's first words, for a finding.
pub fn short(t: &str) -> String {
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() <= 10 {
        t.to_string()
    } else {
        format!("{} …", words[..10].join(" "))
    }
}

fn in_core(b: &Block) -> bool {
    b.section.eq_ignore_ascii_case(CORE)
}

fn same_place(a: &Block, b: &Block) -> bool {
    a.section.eq_ignore_ascii_case(&b.section) && a.sub.eq_ignore_ascii_case(&b.sub)
}

/// The blocks compared: all but the version lines (compared as versions). A registry set as a
/// Markdown table, compared with one rendered as lines (one paragraph, as a Markdown reader
/// renders it), is read as that paragraph: its rows joined, cell borders left out, so a
/// re-save between the two with the same words is the same registry.
fn body(d: &Doc, other: &Doc) -> Vec<Block> {
    const REGISTRY: &str = "Failure-Mode Registry";
    let versions = d.version_lines();
    // A version restated on another line is compared as a version too.
    let restated: Vec<usize> = d.restated_versions().iter().map(|(_, l)| *l).collect();
    let rows = |d: &Doc| d.section(REGISTRY).any(|b| b.kind == Kind::Row);
    let collapse = rows(d) && !rows(other) && other.section(REGISTRY).next().is_some();
    let mut out: Vec<Block> = Vec::new();
    let mut joined: Option<usize> = None;
    for (k, b) in d.blocks.iter().enumerate() {
        if versions.iter().any(|v| std::ptr::eq(*v, b)) || restated.contains(&b.line) {
            continue;
        }
        if k == 0 && d.title.is_some() {
            let mut t = b.clone();
            t.text = d.title_words().unwrap_or_default();
            out.push(t);
            continue;
        }
        if !(collapse && b.kind == Kind::Row && b.section.eq_ignore_ascii_case(REGISTRY)) {
            out.push(b.clone());
            continue;
        }
        let row = b.text.replace(" | ", " ");
        match joined {
            Some(k) => {
                out[k].text = format!("{} {row}", out[k].text);
                out[k].lines.push(row);
            }
            None => {
                joined = Some(out.len());
                out.push(Block {
                    kind: Kind::Paragraph,
                    text: row.clone(),
                    lines: vec![row],
                    ..b.clone()
                });
            }
        }
    }
    out
}

/// The blocks' texts aligned, the diff step of [`changes`]: pairs of (old, new) indexes whose text
/// is unchanged, the old indexes gone and the new ones added.
fn align(ok: &[&str], nk: &[&str]) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let (mut pairs, mut gone, mut added) = (Vec::new(), Vec::new(), Vec::new());
    for op in capture_diff_slices(Algorithm::Myers, ok, nk) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => pairs.extend((0..len).map(|k| (old_index + k, new_index + k))),
            DiffOp::Delete {
                old_index, old_len, ..
            } => gone.extend(old_index..old_index + old_len),
            DiffOp::Insert {
                new_index, new_len, ..
            } => added.extend(new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                gone.extend(old_index..old_index + old_len);
                added.extend(new_index..new_index + new_len);
            }
        }
    }
    (pairs, gone, added)
}

/// Every change from `base` to `head`; none when they are the same charter.
pub fn changes(base: &Doc, head: &Doc) -> Vec<Change> {
    // A heading renamed in place keeps its rules in their section (`headings`).
    let head = &super::headings::follow_renames(base, head);
    let (ob, nb) = (body(base, head), body(head, base));
    let (o, n): (Vec<&Block>, Vec<&Block>) = (ob.iter().collect(), nb.iter().collect());
    let ok: Vec<&str> = o.iter().map(|b| b.text.as_str()).collect();
    let nk: Vec<&str> = n.iter().map(|b| b.text.as_str()).collect();
    let (pairs, mut gone, mut added) = align(&ok, &nk);
    let mut out = Vec::new();
    for &(i, j) in &pairs {
        out.extend(moved(o[i], n[j], false));
    }
    // The same text elsewhere: moved, or its list reordered (its rank among the blocks its
    // section keeps changed; a block that only looks out of order because others moved is not).
    let rank = |bs: &[&Block], other: &[&Block], k: usize| {
        bs[..k]
            .iter()
            .filter(|x| same_place(x, bs[k]))
            .filter(|x| other.iter().any(|y| y.text == x.text && same_place(x, y)))
            .count()
    };
    gone.retain(
        |&i| match added.iter().position(|&j| n[j].text == o[i].text) {
            Some(k) => {
                let j = added.remove(k);
                let reordered = rank(&o, &n, i) != rank(&n, &o, j);
                out.extend(moved(o[i], n[j], reordered));
                false
            }
            None => true,
        },
    );
    splits(&o, &n, &mut gone, &mut added, &mut out);
    merges(&o, &n, &mut gone, &mut added, &mut out);
    // The base's words: a name made the charter's own fuller name is wording (`forms`).
    let known = normal_words(&ok.join("\n"));
    reworded((&o, &n), &known, &mut gone, &mut added, &mut out);
    for i in gone {
        let b = o[i];
        out.push(change(
            if in_core(b) { 2 } else { 1 },
            format!("{} was deleted", noun(b)),
            b,
            Some(&b.text),
            None,
        ));
    }
    for j in added {
        let b = n[j];
        out.push(change(
            if in_core(b) { 2 } else { 1 },
            format!("{} was added", noun(b)),
            b,
            None,
            Some(&b.text),
        ));
    }
    out
}

fn change(level: usize, what: String, at: &Block, old: Option<&str>, new: Option<&str>) -> Change {
    Change {
        level,
        what,
        at: at.clone(),
        old: old.map(str::to_string),
        new: new.map(str::to_string),
        question: false,
    }
}

/// The same block in the head: moved to another section, across the runtime marker, or (out
/// of its order) reordered within its list; nothing when it stands where it stood.
fn moved(o: &Block, n: &Block, out_of_order: bool) -> Option<Change> {
    let core = in_core(o) || in_core(n);
    let (level, what) = if !same_place(o, n) {
        let lvl = if core {
            2
        } else {
            usize::from(o.runtime != n.runtime)
        };
        let across = if o.runtime != n.runtime {
            " (across the runtime marker: it changed when it applies)"
        } else {
            ""
        };
        (
            lvl,
            format!(
                "{} moved from {} to {}{across}",
                noun(n),
                place(o),
                place(n)
            ),
        )
    } else if o.runtime != n.runtime {
        (
            if core { 2 } else { 1 },
            format!(
                "{} moved {} the runtime marker (it changed when it applies)",
                noun(n),
                if n.runtime { "above" } else { "below" }
            ),
        )
    } else if out_of_order {
        let list = n.kind == Kind::Item;
        let lvl = if core { 2 } else { usize::from(list) };
        (
            lvl,
            format!(
                "{} changed its place in its {}",
                noun(n),
                if list {
                    "list (the order of a list)"
                } else {
                    "section"
                }
            ),
        )
    } else {
        return None;
    };
    Some(change(level, what, n, Some(&o.text), Some(&n.text)))
}

/// What a split or a merge with the same words weighs: in the Core Invariants a major change;
/// list items made one, or one made several, change the list's members (minor: issue 49, "the
/// members or order of a list is decided"), unless the one block still shows each part on a
/// line of its own led by its bullet or number (an editor's re-save made them one item's lines,
/// as blind49b's case 33); paragraphs cut or joined are wording.
fn joined_level(one: &Block, parts: &[&Block]) -> (usize, &'static str) {
    if in_core(one) || parts.iter().any(|p| in_core(p)) {
        return (2, "");
    }
    let items = one.kind == Kind::Item || parts.iter().any(|p| p.kind == Kind::Item);
    if items && !seams_kept(one, parts) {
        (1, ": the list's members changed")
    } else {
        (0, "")
    }
}

static MARKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[•◦▪+-]|\*\s|\d{1,3}[.)])\s*").unwrap());

/// Each part after the first begins a line of `one`, led by a bullet or a number.
fn seams_kept(one: &Block, parts: &[&Block]) -> bool {
    parts[1..].iter().all(|p| {
        let lead: Vec<String> = normal_words(&p.text).into_iter().take(4).collect();
        one.lines.iter().any(|l| {
            MARKER.find(l).is_some_and(|m| {
                let rest = normal_words(&l[m.end()..]);
                !lead.is_empty() && rest.iter().take(lead.len()).eq(lead.iter())
            })
        })
    })
}

/// A block split into consecutive blocks with the same words: weighed by [`joined_level`].
fn splits(
    o: &[&Block],
    n: &[&Block],
    gone: &mut Vec<usize>,
    added: &mut Vec<usize>,
    out: &mut Vec<Change>,
) {
    let joined =
        |bs: &[&Block]| -> Vec<String> { bs.iter().flat_map(|b| normal_words(&b.text)).collect() };
    let mut k = 0;
    while k < gone.len() {
        let i = gone[k];
        let want = normal_words(&o[i].text);
        let run = added.iter().enumerate().find_map(|(s, &j)| {
            (2..=4).find_map(|len| {
                let idx: Vec<usize> = (j..j + len).collect();
                let all_added = idx.iter().all(|x| added.contains(x));
                (all_added
                    && idx.last().is_some_and(|&l| l < n.len())
                    && joined(&idx.iter().map(|&x| n[x]).collect::<Vec<_>>()) == want)
                    .then_some((s, idx))
            })
        });
        match run {
            Some((_, idx)) => {
                let first = n[idx[0]];
                let parts: Vec<&Block> = idx.iter().map(|&x| n[x]).collect();
                let (lvl, why) = joined_level(o[i], &parts);
                out.push(change(
                    lvl,
                    format!(
                        "{} was split into {} blocks with the same words{why}",
                        noun(o[i]),
                        idx.len()
                    ),
                    first,
                    Some(&o[i].text),
                    Some(&first.text),
                ));
                added.retain(|x| !idx.contains(x));
                gone.remove(k);
            }
            None => k += 1,
        }
    }
}

/// Consecutive base blocks merged into one head block with the same words (a bullet line
/// joined to the item above it, two rules made one): weighed by [`joined_level`].
fn merges(
    o: &[&Block],
    n: &[&Block],
    gone: &mut Vec<usize>,
    added: &mut Vec<usize>,
    out: &mut Vec<Change>,
) {
    let mut k = 0;
    while k < added.len() {
        let j = added[k];
        let want = normal_words(&n[j].text);
        let run = gone.iter().find_map(|&i| {
            (2..=4).find_map(|len| {
                let idx: Vec<usize> = (i..i + len).collect();
                (idx.iter().all(|x| gone.contains(x))
                    && idx
                        .iter()
                        .flat_map(|&x| normal_words(&o[x].text))
                        .eq(want.iter().cloned()))
                .then_some(idx)
            })
        });
        let Some(idx) = run else {
            k += 1;
            continue;
        };
        let parts: Vec<&Block> = idx.iter().map(|&x| o[x]).collect();
        let (lvl, why) = joined_level(n[j], &parts);
        out.push(change(
            lvl,
            format!(
                "{} blocks were merged into {} with the same words{why}",
                idx.len(),
                noun(n[j])
            ),
            n[j],
            Some(&o[idx[0]].text),
            Some(&n[j].text),
        ));
        gone.retain(|x| !idx.contains(x));
        added.remove(k);
    }
}

/// Base and head blocks that hold most of the same words: one rule rewritten, compared by what
/// it requires.
fn reworded(
    (o, n): (&[&Block], &[&Block]),
    known: &[String],
    gone: &mut Vec<usize>,
    added: &mut Vec<usize>,
    out: &mut Vec<Change>,
) {
    let mut cands: Vec<(f64, usize, usize)> = Vec::new();
    for &i in gone.iter() {
        for &j in added.iter() {
            let sim = similarity(&o[i].text, &n[j].text);
            let near = same_place(o[i], n[j]) && o[i].kind == n[j].kind;
            if sim >= 0.5 || (near && sim >= 0.3) {
                cands.push((sim + if near { 0.1 } else { 0.0 }, i, j));
            }
        }
    }
    // Left over, one block each in the same place, of the same kind and number: the same
    // rule rewritten beyond recognition by shared words.
    for &i in gone.iter() {
        let here =
            |b: &Block| same_place(o[i], b) && o[i].kind == b.kind && o[i].ordinal == b.ordinal;
        let olds = gone.iter().filter(|&&x| here(o[x])).count();
        let news: Vec<usize> = added.iter().copied().filter(|&j| here(n[j])).collect();
        if let ([j], 1) = (news.as_slice(), olds) {
            cands.push((0.0, i, *j));
        }
    }
    cands.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    for (_, i, j) in cands {
        if !gone.contains(&i) || !added.contains(&j) {
            continue;
        }
        gone.retain(|&x| x != i);
        added.retain(|&x| x != j);
        out.push(rewrite(o[i], n[j], known));
    }
}

fn rewrite(o: &Block, n: &Block, known: &[String]) -> Change {
    let core = in_core(o) || in_core(n);
    let mut c = change(0, String::new(), n, Some(&o.text), Some(&n.text));
    let mut form_only = false;
    match compare_within(&o.text, &n.text, known) {
        Reading::Wording => {
            form_only = true;
            c.what = format!("{} was reworded (form only)", noun(n));
        }
        Reading::Decided(why) => {
            c.level = 1;
            c.what = format!("{} changed what it requires: {why}", noun(n));
        }
        // A heading names its section; renamed in its place with its rules unchanged under it
        // (`headings`), new words in it are wording.
        Reading::Question(_) if o.kind == Kind::Heading && n.kind == Kind::Heading => {
            form_only = !core;
            c.what = format!("the heading {:?} was renamed {:?}", o.text, n.text);
        }
        Reading::Question(why) => {
            c.question = !core;
            c.what = format!("{} was reworded: {why}", noun(n));
        }
    }
    if let Some(m) = moved(o, n, false) {
        c.level = c.level.max(m.level);
        c.what = format!("{}; {}", c.what, m.what);
    }
    // A change of form only is wording in every section, the Core Invariants too (issue 49:
    // case, punctuation, emphasis, quotes, re-wrap); anything more there is major.
    if core && !(form_only && c.level == 0) {
        c.level = 2;
    }
    c
}

/// A word diff with only the changed words marked: `[-old-]{+new+}`, long unchanged runs cut.
pub fn word_diff(old: &str, new: &str) -> String {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    // Words compared as a reader compares them (case and punctuation aside), shown as written.
    let words = |t: &str| -> (Vec<String>, Vec<String>) {
        t.split_whitespace()
            .filter_map(|w| {
                let key: String = w
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect();
                (!key.is_empty()).then(|| (w.to_string(), key))
            })
            .unzip()
    };
    let ((o, ok), (n, nk)) = (words(old), words(new));
    let mut out: Vec<String> = Vec::new();
    let ops = capture_diff_slices(Algorithm::Myers, &ok, &nk);
    let last = ops.len().saturating_sub(1);
    for (k, op) in ops.iter().enumerate() {
        match *op {
            DiffOp::Equal { new_index, len, .. } => {
                let words = &n[new_index..new_index + len];
                let (head, tail) = (if k == 0 { 0 } else { 4 }, if k == last { 0 } else { 4 });
                if words.len() > head + tail + 1 {
                    out.extend(words[..head].iter().map(|w| w.to_string()));
                    out.push("…".into());
                    out.extend(words[words.len() - tail..].iter().map(|w| w.to_string()));
                } else {
                    out.extend(words.iter().map(|w| w.to_string()));
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => out.push(format!(
                "[-{}-]",
                o[old_index..old_index + old_len].join(" ")
            )),
            DiffOp::Insert {
                new_index, new_len, ..
            } => out.push(format!(
                "{{+{}+}}",
                n[new_index..new_index + new_len].join(" ")
            )),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => out.push(format!(
                "[-{}-]{{+{}+}}",
                o[old_index..old_index + old_len].join(" "),
                n[new_index..new_index + new_len].join(" ")
            )),
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::blocks::read;
    use super::*;

    const BASE: &str = "# C\n\nVersion 1.0.0\n\n## Core Invariants\n\n1. One.\n2. Two.\n\n## Usage Rules\n\n1. Load it all.\n2. Emit a log line for every sweep.\n\n## Composition\n\n- Memory layer: items must be pinned.\n\nRuntime load ends here.\n\n## Versioning & Maintenance\n\n- Change gate. Passes 3 of 3 transcripts.\n";

    fn levels(head: &str) -> Vec<(usize, String)> {
        changes(&read(BASE), &read(head))
            .into_iter()
            .map(|c| (c.level, c.what))
            .collect()
    }

    #[test]
    fn the_same_blocks_are_the_same_charter() {
        let resaved = BASE
            .replace('\n', "\r\n")
            .replace("- Change gate.", "*   Change   gate.");
        assert!(levels(&format!("\u{feff}{resaved}")).is_empty());
    }

    #[test]
    fn a_gate_threshold_changed_outside_the_rule_sections_is_decided_minor() {
        let c = levels(&BASE.replace("3 of 3", "2 of 3"));
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].0, 1, "{c:?}");
        assert!(c[0].1.contains("Change gate"), "{c:?}");
    }

    #[test]
    fn a_rule_moved_below_the_marker_is_moved_not_deleted() {
        let head = BASE
            .replace("2. Emit a log line for every sweep.\n", "")
            .replace(
                "- Change gate.",
                "- Emit a log line for every sweep.\n- Change gate.",
            );
        let c = levels(&head);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].0, 1);
        assert!(c[0].1.contains("moved from line"), "{c:?}");
    }

    #[test]
    fn two_rules_swapped_between_sections_are_reported_as_moved() {
        let head = BASE
            .replace(
                "2. Emit a log line for every sweep.",
                "2. Memory layer: items must be pinned.",
            )
            .replace(
                "- Memory layer: items must be pinned.",
                "- Emit a log line for every sweep.",
            );
        let c = levels(&head);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(c.iter().all(|(_, w)| w.contains("moved from")), "{c:?}");
    }

    #[test]
    fn a_rule_rewritten_in_its_place_with_few_shared_words_is_a_question_not_a_deletion() {
        let head = BASE.replace("1. Load it all.", "1. Put all of it into the prompt first.");
        let c = changes(&read(BASE), &read(&head));
        assert_eq!(c.len(), 1, "{c:?}");
        assert!(c[0].question && c[0].level == 0, "{c:?}");
    }

    #[test]
    fn a_word_diff_marks_only_the_changed_words() {
        assert_eq!(
            word_diff(
                "Emit a log line for every sweep.",
                "Emit a log entry for every sweep."
            ),
            "Emit a log [-line-]{+entry+} for every sweep."
        );
    }
}
