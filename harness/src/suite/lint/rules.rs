//! A charter's rules as structure, for `lint charter --base`: each rule section's rules
//! (numbered items, bullets, protocol and procedure blocks, paragraphs) paired old with new and
//! compared by what structure can decide: their numbers (in digits or words), their clauses of
//! obligation (never / must / only / every …), and their ranked orders (`a → b → c`, numbered
//! steps). A structural difference is decided; a change of form (emphasis, case, punctuation,
//! a number in words or digits, spelling) is wording; a rule reworded with its structure intact
//! is a question for a reviewer, and so is a rule that cannot be paired at all.

use crate::suite::charter::headings;
use regex::Regex;
use std::sync::LazyLock;

/// The sections whose items are the charter's rules (Core Invariants are compared whole: any
/// change there is a major one).
pub const RULE_SECTIONS: [&str; 6] = [
    "Purpose & Scope",
    "Reasoning Procedures",
    "Procedures",
    "Verification Protocols",
    "Composition",
    "Usage Rules",
];

/// One rule as written: its label within its section, and its text (wrapped lines joined).
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub label: String,
    /// A numbered item: its position is part of its meaning (a ranked list, an ordered step).
    pub numbered: bool,
    pub text: String,
}

/// What happened to one rule between base and head.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The same rule in another form.
    Wording,
    /// A difference of structure, named.
    Decided(String),
    /// Reworded with its numbers, clauses and orders intact, or not pairable: only a person
    /// reading both can say whether it still requires the same.
    Question(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RuleDiff {
    pub label: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub change: Change,
}

static NUMBERED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(\d+)\.\s+(.*)$").unwrap());
static BULLET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*[-*•]\s+(.*)$").unwrap());
/// A protocol or procedure block's head: `A — Arithmetic.`, `**B** Premises:`, `P1 — Decompose`.
static BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*•]\s+)?\**((?:P\d+)|[A-Z])\**(?:\s*[—–:-]\s*|\s+)\**[A-Z][a-z]").unwrap()
});
/// A bullet's lead term (`Scope:`, `Change gate.`), which names it.
static LEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\**([A-Za-z][\w /&'-]{0,40}?)\**\s*[:.]\**\s").unwrap());

/// The rules of every rule section, in order, labelled `Section: block.n`. A procedure or
/// protocol set as a heading of its own (`P1 — Decompose` on a rendered page) belongs to the
/// rule section above it.
pub fn rules(text: &str) -> Vec<Rule> {
    let hs = headings(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut current: Option<&str> = None;
    for (k, (at, title)) in hs.iter().enumerate() {
        let end = hs.get(k + 1).map_or(lines.len(), |(i, _)| *i);
        let body = lines[(*at + 1).min(end)..end].join("\n");
        if let Some(name) = RULE_SECTIONS.iter().find(|s| s.eq_ignore_ascii_case(title)) {
            current = Some(name);
            section_rules(name, &body, String::new(), &mut out);
        } else if let (Some(name), Some(c)) = (current, BLOCK.captures(title)) {
            out.push(Rule {
                label: format!("{name}: {}", &c[1]),
                numbered: false,
                text: title.trim().to_string(),
            });
            section_rules(name, &body, c[1].to_string(), &mut out);
        } else {
            current = None;
        }
    }
    out
}

fn section_rules(name: &str, body: &str, mut block: String, out: &mut Vec<Rule>) {
    let mut para = 0;
    let mut open = false;
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() {
            open = false;
            continue;
        }
        // A rule's text is its words without its list marker: the label carries the number,
        // so a renumbered rule is the same text.
        let label = if let Some(c) = NUMBERED.captures(line) {
            let at = if block.is_empty() { "" } else { "." };
            Some((
                format!("{name}: {block}{at}{}", &c[1]),
                true,
                c[2].trim().to_string(),
            ))
        } else if let Some(c) = BLOCK.captures(line) {
            block = c[1].to_string();
            Some((format!("{name}: {block}"), false, t.to_string()))
        } else if let Some(c) = BULLET.captures(line) {
            let lead = LEAD.captures(&c[1]).map(|l| l[1].trim().to_string());
            para += 1;
            Some((
                format!("{name}: {}", lead.unwrap_or_else(|| format!("item {para}"))),
                false,
                c[1].trim().to_string(),
            ))
        } else if !open {
            para += 1;
            Some((format!("{name}: paragraph {para}"), false, t.to_string()))
        } else {
            None
        };
        match label {
            Some((label, numbered, text)) => out.push(Rule {
                label,
                numbered,
                text,
            }),
            // A wrapped line continues the rule above it.
            None => {
                if let Some(r) = out.last_mut() {
                    r.text.push(' ');
                    r.text.push_str(t);
                }
            }
        }
        open = true;
    }
}

/// Every rule that differs between `base` and `head`, paired, with what structure says of it.
pub fn diff(base: &str, head: &str) -> Vec<RuleDiff> {
    let (old, new) = (rules(base), rules(head));
    let pairs = pair(&old, &new);
    let mut out = Vec::new();
    for &(i, j) in &pairs {
        let (o, n) = (&old[i], &new[j]);
        if o.text != n.text {
            out.push(RuleDiff {
                label: n.label.clone(),
                old: Some(o.text.clone()),
                new: Some(n.text.clone()),
                change: compare(&o.text, &n.text),
            });
        }
    }
    out.extend(reordered(&old, &new, &pairs));
    for (i, o) in old.iter().enumerate() {
        if !pairs.iter().any(|p| p.0 == i) {
            // A numbered rule gone is a rule deleted; other text may have moved into another.
            let change = if o.numbered {
                Change::Decided("a numbered rule was deleted".into())
            } else {
                Change::Question(
                    "no rule of the head pairs with it: deleted, merged into another or rewritten"
                        .into(),
                )
            };
            out.push(RuleDiff {
                label: o.label.clone(),
                old: Some(o.text.clone()),
                new: None,
                change,
            });
        }
    }
    for (j, n) in new.iter().enumerate() {
        if !pairs.iter().any(|p| p.1 == j) {
            out.push(RuleDiff {
                label: n.label.clone(),
                old: None,
                new: Some(n.text.clone()),
                change: Change::Question(
                    "no rule of the base pairs with it: new, or rewritten from another".into(),
                ),
            });
        }
    }
    out
}

/// Old and new rules of the same section paired: identical texts first, then the same label,
/// then the most similar words (at least half shared), each rule at most once.
fn pair(old: &[Rule], new: &[Rule]) -> Vec<(usize, usize)> {
    let section = |r: &Rule| r.label.split(':').next().unwrap_or("").to_string();
    let mut cands: Vec<(u8, f64, usize, usize)> = Vec::new();
    for (i, o) in old.iter().enumerate() {
        for (j, n) in new.iter().enumerate() {
            if section(o) != section(n) {
                continue;
            }
            let sim = similarity(&o.text, &n.text);
            let rank = if o.text == n.text {
                0
            } else if o.label == n.label && sim >= 0.25 {
                1
            } else if sim >= 0.5 {
                2
            } else {
                continue;
            };
            cands.push((rank, -sim, i, j));
        }
    }
    cands.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let (mut used_o, mut used_n) = (vec![false; old.len()], vec![false; new.len()]);
    let mut out = Vec::new();
    for (_, _, i, j) in cands {
        if !used_o[i] && !used_n[j] {
            used_o[i] = true;
            used_n[j] = true;
            out.push((i, j));
        }
    }
    out.sort();
    out
}

/// Numbered rules of one section whose pairs cross: a ranked list or an ordered procedure whose
/// order changed. A section moved whole changes no pair's order within it.
fn reordered(old: &[Rule], new: &[Rule], pairs: &[(usize, usize)]) -> Vec<RuleDiff> {
    let mut out = Vec::new();
    for (a, &(i1, j1)) in pairs.iter().enumerate() {
        for &(i2, j2) in &pairs[a + 1..] {
            let same_block = block_of(&old[i1].label) == block_of(&old[i2].label);
            if old[i1].numbered && old[i2].numbered && same_block && (i1 < i2) != (j1 < j2) {
                out.push(RuleDiff {
                    label: new[j1].label.clone(),
                    old: Some(old[i1].text.clone()),
                    new: Some(new[j1].text.clone()),
                    change: Change::Decided(format!(
                        "the order of {} and {} changed (a ranked or ordered list)",
                        old[i1].label, old[i2].label
                    )),
                });
            }
        }
    }
    out
}

fn block_of(label: &str) -> &str {
    label.rsplit_once('.').map_or(label, |(b, _)| b)
}

/// What structure says of one rule's two texts.
pub fn compare(old: &str, new: &str) -> Change {
    let (o, n) = (Shape::of(old), Shape::of(new));
    if o.numbers != n.numbers {
        return Change::Decided(format!(
            "its numbers changed: {} → {}",
            list(&o.numbers),
            list(&n.numbers)
        ));
    }
    for (k, name) in CLAUSES.iter().enumerate() {
        if o.clauses[k] != n.clauses[k] {
            return Change::Decided(format!(
                "its {} clauses changed: {} → {}",
                name.0, o.clauses[k], n.clauses[k]
            ));
        }
    }
    if o.chains != n.chains {
        return Change::Decided("a ranked order (a → b → c) changed".into());
    }
    if normal_words(old) == normal_words(new)
        || spelling_only(old, new)
        || content_words(old) == content_words(new)
    {
        return Change::Wording;
    }
    Change::Question("reworded; its numbers, ranked orders and obligations are unchanged".into())
}

fn list(ns: &[String]) -> String {
    if ns.is_empty() {
        "none".into()
    } else {
        ns.join(", ")
    }
}

/// The classes of obligation a rule's clauses fall in; a rule keeps its meaning's skeleton
/// while each class keeps its count.
const CLAUSES: [(&str, &str); 5] = [
    (
        "prohibition",
        r"\b(?:never|must not|mustn't|do not|don't|may not|shall not|cannot|forbidden|under no circumstances)\b",
    ),
    (
        "requirement",
        r"\b(?:must|always|required?|shall|mandatory)\b",
    ),
    ("restriction", r"\b(?:only|solely|exclusively)\b"),
    ("universal", r"\b(?:every|each|all|any)\b"),
    ("halt", r"\b(?:stop|stops|halt|halts|block|blocks|none)\b"),
];
static CLAUSE_RES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    CLAUSES
        .iter()
        .map(|(_, p)| Regex::new(p).unwrap())
        .collect()
});
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+(?:[.,]\d+)*").unwrap());
static ARROW: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*(?:→|->|⟶)\s*").unwrap());

/// The structure of one rule's text.
struct Shape {
    numbers: Vec<String>,
    clauses: Vec<usize>,
    /// Ranked orders (three items or more), each item's words.
    chains: Vec<Vec<String>>,
}

impl Shape {
    fn of(text: &str) -> Shape {
        let words = normal_words(text).join(" ");
        let mut numbers: Vec<String> = NUMBER
            .find_iter(&words)
            .map(|m| m.as_str().replace(',', ""))
            .collect();
        numbers.sort();
        // "must not" is a prohibition, not also a requirement.
        let plain = CLAUSE_RES[0].replace_all(&words, " ⊘ ");
        let clauses = CLAUSE_RES
            .iter()
            .enumerate()
            .map(|(k, re)| {
                let hay = if k == 0 { &words[..] } else { &plain[..] };
                re.find_iter(hay).count()
            })
            .collect();
        let chains = text
            .split(['.', ';'])
            .filter(|s| ARROW.find_iter(s).count() >= 2)
            .map(|s| {
                ARROW
                    .split(s)
                    .map(|item| normal_words(item).join(" "))
                    .collect()
            })
            .collect();
        Shape {
            numbers,
            clauses,
            chains,
        }
    }
}

static COMPOUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](one|two|three|four|five|six|seven|eight|nine)\b").unwrap()
});
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

const NUMBER_WORDS: [(&str, &str); 24] = [
    ("zero", "0"),
    ("one", "1"),
    ("once", "1"),
    ("two", "2"),
    ("twice", "2"),
    ("three", "3"),
    ("thrice", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("ten", "10"),
    ("eleven", "11"),
    ("twelve", "12"),
    ("thirteen", "13"),
    ("fifteen", "15"),
    ("twenty", "20"),
    ("thirty", "30"),
    ("fifty", "50"),
    ("hundred", "100"),
    ("half", "0.5"),
    ("single", "1"),
];

/// A text's words as a reader compares wording: case folded, Markdown emphasis and punctuation
/// gone, numbers in words written in digits, `%` kept as a word.
pub fn normal_words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase().replace('%', " percent ");
    // "twenty-five" is one number, 25, not 20 and 5.
    let lower = COMPOUND.replace_all(&lower, |c: &regex::Captures| {
        let tens = 20 + 10 * TENS.iter().position(|t| *t == &c[1]).unwrap_or(0);
        let unit = NUMBER_WORDS
            .iter()
            .find(|(w, _)| *w == &c[2])
            .map_or("0", |(_, d)| d);
        (tens + unit.parse::<usize>().unwrap_or(0)).to_string()
    });
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == ',' || c == '\''))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == ',' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| {
            NUMBER_WORDS
                .iter()
                .find(|(word, _)| *word == w)
                .map_or_else(|| w.to_string(), |(_, d)| d.to_string())
        })
        .collect()
}

/// Words that carry no rule of their own: a rephrasing that only moves content words around
/// them ("each step's verification" → "the verification for each step") keeps every word that
/// could carry a requirement, and every clause class is already counted equal.
const FUNCTION_WORDS: [&str; 24] = [
    "a", "an", "the", "of", "for", "to", "in", "on", "at", "by", "with", "from", "as", "is", "are",
    "be", "it", "its", "this", "that", "these", "those", "them", "their",
];

/// The content words of a text, possessives read as their noun, sorted.
fn content_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = normal_words(text)
        .into_iter()
        .map(|w| w.trim_end_matches("'s").trim_end_matches("’s").to_string())
        .filter(|w| !FUNCTION_WORDS.contains(&w.as_str()))
        .collect();
    words.sort();
    words
}

/// Words shared, over the words of both (0 … 1).
fn similarity(a: &str, b: &str) -> f64 {
    use std::collections::BTreeSet;
    let (a, b): (BTreeSet<String>, BTreeSet<String>) = (
        normal_words(a).into_iter().collect(),
        normal_words(b).into_iter().collect(),
    );
    let union = a.union(&b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(&b).count() as f64 / union as f64
}

/// Every changed word is a respelling of the word it replaces (a typo fixed), nothing added or
/// removed.
fn spelling_only(old: &str, new: &str) -> bool {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let (o, n) = (normal_words(old), normal_words(new));
    capture_diff_slices(Algorithm::Myers, &o, &n)
        .iter()
        .all(|op| match *op {
            DiffOp::Equal { .. } => true,
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len == new_len => (0..old_len).all(|k| {
                let (a, b) = (&o[old_index + k], &n[new_index + k]);
                a.chars().count() >= 4 && strsim::normalized_damerau_levenshtein(a, b) >= 0.75
            }),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_written_as_a_word_is_the_same_number() {
        assert_eq!(
            compare(
                "INV sweep every five steps or three tool results.",
                "INV sweep every 5 steps or 3 tool results."
            ),
            Change::Wording
        );
    }

    #[test]
    fn the_same_content_words_rearranged_around_function_words_are_wording() {
        assert_eq!(
            compare(
                "Order steps by dependency; name each step's verification before executing it.",
                "Order steps by dependency; name the verification for each step before executing it."
            ),
            Change::Wording
        );
        // "not" is not a function word: a reviewer reads this one.
        assert!(matches!(
            compare(
                "otherwise restate them in the visible reply.",
                "if they are not, restate them in the visible reply."
            ),
            Change::Question(_)
        ));
    }

    #[test]
    fn a_compound_number_word_is_one_number() {
        assert_eq!(
            compare("every twenty-five tool results", "every 25 tool results"),
            Change::Wording
        );
    }

    #[test]
    fn a_changed_threshold_or_a_dropped_never_is_decided() {
        assert!(matches!(
            compare(
                "ASSUMED list exceeds three at response time.",
                "ASSUMED list exceeds five at response time."
            ),
            Change::Decided(_)
        ));
        assert!(matches!(
            compare("Never average or soften.", "Average or soften if needed."),
            Change::Decided(_)
        ));
        assert!(matches!(
            compare("You must verify.", "You must not verify."),
            Change::Decided(_)
        ));
    }

    #[test]
    fn a_prohibition_said_another_way_keeps_its_structure() {
        // "Never" and "do not" are both prohibitions: the linter cannot call this a rule change.
        assert!(matches!(
            compare(
                "Never average or soften the figures.",
                "Do not average or soften the figures."
            ),
            Change::Question(_)
        ));
    }

    #[test]
    fn emphasis_case_and_a_fixed_typo_are_wording() {
        assert_eq!(
            compare("**Verify** each premise.", "verify each premise"),
            Change::Wording
        );
        assert_eq!(
            compare("Verfy each premise first.", "Verify each premise first."),
            Change::Wording
        );
    }

    #[test]
    fn a_precedence_order_reordered_is_decided() {
        assert!(matches!(
            compare(
                "Precedence: safety → tools → charter → user.",
                "Precedence: safety → charter → tools → user."
            ),
            Change::Decided(_)
        ));
    }
}
