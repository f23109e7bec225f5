//! One rule's two texts compared by what they require: their numbers (in digits or words) and
//! the units they count, their operators (prohibitions, negations, modals, quantifiers,
//! comparisons and thresholds, restrictions, halts), the charter's defined terms, their ranked
//! orders (`a → b → c`), and words added to or dropped from them (a list's members, a
//! condition). A difference in any of these is decided; a change of form (emphasis, case,
//! punctuation, a number in words or digits, spelling, function words) is wording; content words
//! changed with none of the above is a question for a reviewer.

use super::forms;
pub use super::words::normal_words;
use regex::Regex;
use std::sync::LazyLock;

/// What happened to one rule between base and head.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The same rule in another form.
    Wording,
    /// A difference in what it requires, named.
    Decided(String),
    /// Reworded with its numbers, operators and orders intact: only a person reading both can
    /// say whether it still requires the same.
    Question(String),
}

/// What the texts of one rule say of it.
pub fn compare(old: &str, new: &str) -> Change {
    compare_within(old, new, &[])
}

/// What the texts of one rule say of it, `known` the base charter's words (`normal_words`): a
/// name made the one the charter gives the same thing elsewhere is wording (`forms`).
pub fn compare_within(old: &str, new: &str, known: &[String]) -> Change {
    let (o, n) = (Shape::of(old), Shape::of(new));
    if o.numbers != n.numbers {
        // Only the numbers that differ: "3 of 3" → "2 of 3" is 3 → 2.
        let seconds = [old, new]
            .iter()
            .any(|t| normal_words(t).iter().any(|w| w == "seconds"));
        return Change::Decided(format!(
            "a number changed: {} → {}{}",
            list(&without(&o.numbers, &n.numbers)),
            list(&without(&n.numbers, &o.numbers)),
            if seconds {
                " (durations read in seconds)"
            } else {
                ""
            }
        ));
    }
    for (k, (name, _)) in OPERATORS.iter().enumerate() {
        if o.ops[k] != n.ops[k] {
            return Change::Decided(format!(
                "its {name} changed: {} → {}",
                list(&o.ops[k]),
                list(&n.ops[k])
            ));
        }
    }
    if o.terms != n.terms {
        return Change::Decided(format!(
            "a defined term changed: {} → {}",
            list(&o.terms),
            list(&n.terms)
        ));
    }
    // A unit respelled ("one sentance" → "one sentence") is the same unit: a typo fixed.
    let known_stems: Vec<String> = known.iter().map(|w| stem(w)).collect();
    if let Some(unit) = o.units.iter().find(|u| {
        !n.stems.contains(*u) && !n.units.iter().any(|v| forms::respelled(u, v, &known_stems))
    }) {
        return Change::Decided(format!("a number's unit changed: {unit:?} is gone"));
    }
    if o.chains != n.chains {
        return Change::Decided("a ranked order (a → b → c) changed".into());
    }
    if same_words(old, new, known) {
        return Change::Wording;
    }
    if let Some(words) = only_added_or_dropped(old, new) {
        return Change::Decided(format!(
            "words were added or dropped ({words}): a list's members or a condition"
        ));
    }
    Change::Question(
        "content words changed; its numbers, operators, terms and orders did not".into(),
    )
}

/// The same words in another form: spelling, function words, a word's other form or its
/// hyphens, a pronoun for the thing it names, or the charter's own fuller name (`forms`).
fn same_words(old: &str, new: &str, known: &[String]) -> bool {
    let (o, n) = (normal_words(old), normal_words(new));
    o == n
        || spelling_only(old, new, known)
        || content_words(old) == content_words(new)
        || forms::same_joined(&o, &n)
        || forms::named_again(&o, &n, minor)
        || forms::named_in_full(&o, &n, known, minor)
        || forms::kind_named(&o, &n)
}

/// A word that carries no rule of its own.
fn minor(w: &str) -> bool {
    FUNCTION_WORDS.contains(&w) || GRAMMAR_WORDS.contains(&w)
}

/// `a` less each of `b`'s items once.
fn without(a: &[String], b: &[String]) -> Vec<String> {
    let mut rest = b.to_vec();
    let mut out = Vec::new();
    for x in a {
        match rest.iter().position(|y| y == x) {
            Some(k) => {
                rest.remove(k);
            }
            None => out.push(x.clone()),
        }
    }
    out
}

fn list(ns: &[String]) -> String {
    if ns.is_empty() {
        "none".into()
    } else {
        ns.join(", ")
    }
}

/// The operators a rule's requirement rests on, by class: each phrase read as its canonical
/// word, so "must not" is one prohibition and not also a requirement and a negation. Classes
/// are read in this order, each phrase consumed by the first class that reads it.
const OPERATORS: [(&str, &[(&str, &str)]); 7] = [
    (
        "prohibition",
        &[(
            r"\b(?:never|must not|mustn't|do not|don't|may not|shall not|cannot|can't|forbidden|under no circumstances)\b",
            "never",
        )],
    ),
    (
        "comparison or threshold",
        &[
            (
                r"\b(?:at (?:the )?(?:very )?least|no fewer than|no less than|or more|minimum|min|cmpge)\b",
                "at least",
            ),
            (
                r"\b(?:at (?:the )?(?:very )?most|no more than|or fewer|or less|up to|maximum|max|within|cmple)\b",
                "at most",
            ),
            (
                r"\b(?:exceeds?|exceeding|more than|greater than|above|beyond|over|cmpgt)\b",
                "more than",
            ),
            (
                r"\b(?:less than|fewer than|below|under|cmplt)\b",
                "less than",
            ),
            (r"\b(?:reach(?:es)?|exactly|equals?)\b", "exactly"),
        ],
    ),
    (
        "negation",
        &[(
            r"\b(?:not|no longer|no|nor|neither|without|otherwise|unless|except)\b",
            "not",
        )],
    ),
    (
        "quantifier",
        &[
            (r"\b(?:every|each)\b", "every"),
            (r"\ball\b", "all"),
            (r"\bany\b", "any"),
            (r"\b(?:none|nothing|no one)\b", "none"),
            (r"\bsome\b", "some"),
            (r"\bboth\b", "both"),
            (r"\beither\b", "either"),
        ],
    ),
    (
        "modal",
        &[
            (
                r"\b(?:must|shall|always|required?|requires|mandatory|has to|have to|needs to|need to)\b",
                "must",
            ),
            (r"\b(?:should|ought)\b", "should"),
            (r"\b(?:may|can|could|optional|optionally)\b", "may"),
        ],
    ),
    (
        "restriction",
        &[(r"\b(?:only|solely|exclusively)\b", "only")],
    ),
    (
        "halt",
        &[(r"\b(?:stops?|halts?|blocks?|aborts?)\b", "stop")],
    ),
];
static OPERATOR_RES: LazyLock<Vec<Vec<(Regex, &'static str)>>> = LazyLock::new(|| {
    OPERATORS
        .iter()
        .map(|(_, ps)| {
            ps.iter()
                .map(|(p, w)| (Regex::new(p).unwrap(), *w))
                .collect()
        })
        .collect()
});

/// Words the charter defines: evidence classes, tiers' directions, bump levels, verdicts.
const TERMS: [&str; 16] = [
    "verified",
    "plausible",
    "contradicted",
    "executed",
    "derived",
    "assumed",
    "up",
    "down",
    "patch",
    "minor",
    "major",
    "pass",
    "fail",
    "inclusive",
    "exclusive",
    "verbatim",
];
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+(?:[.,]\d+)*").unwrap());
static ARROW: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*(?:→|->|⟶)\s*").unwrap());

/// The structure of one rule's text.
struct Shape {
    numbers: Vec<String>,
    /// Per operator class, its canonical words, sorted.
    ops: Vec<Vec<String>>,
    terms: Vec<String>,
    /// The word after each number ("ten *messages*"), stemmed.
    units: Vec<String>,
    /// Every word, stemmed.
    stems: Vec<String>,
    /// Ranked orders (three items or more), each item's words.
    chains: Vec<Vec<String>>,
}

fn stem(w: &str) -> String {
    w.trim_end_matches("'s").trim_end_matches('s').to_string()
}

impl Shape {
    fn of(text: &str) -> Shape {
        let words = normal_words(text);
        let joined = words.join(" ");
        let mut numbers: Vec<String> = NUMBER
            .find_iter(&joined)
            .map(|m| m.as_str().replace(',', ""))
            .collect();
        numbers.sort();
        let mut rest = joined.clone();
        let ops = OPERATOR_RES
            .iter()
            .zip(OPERATORS.iter().map(|(name, _)| name))
            .map(|(class, name)| {
                let mut found = Vec::new();
                for (re, word) in class {
                    found.extend(re.find_iter(&rest).map(|_| word.to_string()));
                    rest = re.replace_all(&rest, " ⊘ ").into_owned();
                }
                found.sort();
                // A quantifier or modal said twice ("every x and every y") says it once.
                if !matches!(*name, "prohibition" | "negation") {
                    found.dedup();
                }
                found
            })
            .collect();
        let mut terms: Vec<String> = words
            .iter()
            .filter(|w| TERMS.contains(&w.as_str()))
            .cloned()
            .collect();
        terms.sort();
        let units = words
            .windows(2)
            .filter(|p| {
                NUMBER.is_match(&p[0]) && p[0].chars().all(|c| c.is_ascii_digit() || c == '.')
            })
            .map(|p| stem(&p[1]))
            .filter(|u| u.len() > 2 && !FUNCTION_WORDS.contains(&u.as_str()) && !NUMBER.is_match(u))
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
            ops,
            terms,
            units,
            stems: words.iter().map(|w| stem(w)).collect(),
            chains,
        }
    }
}

/// Words a grammatical rewording adds or drops on its own ("attaches, re-evaluated" →
/// "attaches and is re-evaluated"; "unsure → classify up" → "when unsure, classify up": a
/// condition the arrow already said).
const GRAMMAR_WORDS: [&str; 19] = [
    "and", "but", "then", "so", "which", "who", "there", "was", "were", "has", "have", "had",
    "been", "being", "also", "will", "when", "whenever", "if",
];

/// The words added or dropped when nothing was replaced and at least one of them is a content
/// word: a member of a list, a qualifier, a condition.
fn only_added_or_dropped(old: &str, new: &str) -> Option<String> {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let (o, n) = (normal_words(old), normal_words(new));
    let mut spans: Vec<&[String]> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &o, &n) {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => spans.push(&o[old_index..old_index + old_len]),
            DiffOp::Insert {
                new_index, new_len, ..
            } => spans.push(&n[new_index..new_index + new_len]),
            DiffOp::Replace { .. } => return None,
        }
    }
    // One content word alone ("clearly") may be emphasis; two or more are a member or a
    // condition.
    let content = |span: &[String]| {
        span.iter()
            .filter(|w| {
                !FUNCTION_WORDS.contains(&w.as_str()) && !GRAMMAR_WORDS.contains(&w.as_str())
            })
            .count()
    };
    spans.iter().any(|s| content(s) >= 2).then(|| {
        spans
            .iter()
            .map(|s| s.join(" "))
            .collect::<Vec<_>>()
            .join(" … ")
    })
}

/// Words that carry no rule of their own: a rephrasing that only moves content words around
/// them ("each step's verification" → "the verification for each step") keeps every word that
/// could carry a requirement, and every clause class is already counted equal.
const FUNCTION_WORDS: [&str; 28] = [
    "a", "an", "the", "of", "for", "to", "in", "on", "at", "by", "with", "along", "from", "as",
    "is", "are", "be", "it", "its", "this", "that", "these", "those", "them", "their", "into",
    "vs", "versus",
];

/// A text's words with each phrase of an operator class read as the class's word ("do not" and
/// "never" are `never`, "shall" and "needs to" are `must`, "halts" is `stop`): one operator said
/// in other words is the same words. Negations ("unless", "without", "except") and permissions
/// ("may", "can") keep their own words: their phrasings differ in scope.
fn canonical(text: &str) -> String {
    let mut rest = normal_words(text).join(" ");
    for (class, (name, _)) in OPERATOR_RES.iter().zip(OPERATORS.iter()) {
        if *name == "negation" {
            continue;
        }
        for (re, word) in class {
            if *word != "may" {
                let as_one = format!(" {} ", word.replace(' ', "_"));
                rest = re.replace_all(&rest, as_one.as_str()).into_owned();
            }
        }
    }
    rest
}

/// The content words of a text, possessives read as their noun and each word as its root, sorted.
/// An operator once ("each x and each y" says "each" once), "each" read as "every", and the
/// words a grammatical rewording adds on its own left out; any other word as often as it is
/// said ("each model" → "each deployed model" adds a word the rule says elsewhere).
fn content_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = canonical(text)
        .split_whitespace()
        .map(|w| w.trim_end_matches("'s").trim_end_matches("’s").to_string())
        .map(|w| if w == "each" { "every".to_string() } else { w })
        .filter(|w| !FUNCTION_WORDS.contains(&w.as_str()) && !GRAMMAR_WORDS.contains(&w.as_str()))
        // A word's forms are one word ("ties" and "tie"): its root.
        .map(|w| forms::root(&w))
        .collect();
    words.sort();
    let operator = |w: &str| {
        OPERATORS
            .iter()
            .flat_map(|(_, ps)| ps.iter())
            .any(|(_, word)| word.replace(' ', "_") == w)
    };
    words.dedup_by(|a, b| a == b && operator(a));
    words
}

/// Words shared, over the words of both (0 … 1).
pub fn similarity(a: &str, b: &str) -> f64 {
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
/// removed. A letter changed in a word the charter uses outside this rule (`known`, the base's
/// words) into one it never uses is another word ("steps" → "stops"); a letter changed in a
/// word found only here ("sentance" → "sentence"), or into a word the charter uses, fixes a
/// typo; two letters swapped, or one added or dropped, is a typo either way ("tier" → "teir").
fn spelling_only(old: &str, new: &str, known: &[String]) -> bool {
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
                let used = |hay: &[String], w: &String| hay.iter().filter(|x| *x == w).count();
                // Letters changed in place, not two adjacent letters swapped.
                let substituted = a.chars().count() == b.chars().count()
                    && strsim::damerau_levenshtein(a, b) == strsim::levenshtein(a, b);
                a.chars().count() >= 4
                    && strsim::normalized_damerau_levenshtein(a, b) >= 0.75
                    && (!substituted || used(known, a) <= used(&o, a) || used(known, b) > 0)
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
    fn a_grammatical_and_or_a_distributed_each_is_wording() {
        assert_eq!(
            compare(
                "Tier attaches to the deliverable, re-evaluated at every user message.",
                "Tier attaches to the deliverable and is re-evaluated at every user message."
            ),
            Change::Wording
        );
        assert_eq!(
            compare(
                "Emit a one-line log for every invariant re-read and INV sweep.",
                "Emit a one-line log for each invariant re-read and each INV sweep."
            ),
            Change::Wording
        );
    }

    #[test]
    fn a_condition_said_with_when_instead_of_an_arrow_is_wording() {
        assert_eq!(
            compare("Unsure → classify up.", "When unsure, classify up."),
            Change::Wording
        );
        assert!(matches!(
            compare("Unsure → classify up.", "When unsure, classify down."),
            Change::Decided(_)
        ));
    }

    #[test]
    fn a_comparison_or_a_duration_in_other_words_is_wording_and_a_changed_one_is_decided() {
        let poem = "presence — a poem of at least five lines about databases.";
        for same in [
            "presence — a poem of five or more lines about databases.",
            "presence — a poem of no fewer than 5 lines about databases.",
        ] {
            assert_eq!(compare(poem, same), Change::Wording, "{same}");
            assert_eq!(compare(same, poem), Change::Wording, "{same}");
        }
        let changed = compare(
            poem,
            "presence — a poem of more than five lines about databases.",
        );
        assert!(
            matches!(&changed, Change::Decided(w) if w.contains("comparison")),
            "{changed:?}"
        );
        let drift = "or 10 minutes of elapsed session time";
        assert_eq!(
            compare(drift, "or 600 seconds of elapsed session time"),
            Change::Wording
        );
        assert!(matches!(
            compare(drift, "or 10 seconds of elapsed session time"),
            Change::Decided(w) if w.contains("600 → 10")
        ));
    }

    #[test]
    fn a_compound_number_word_is_one_number() {
        assert_eq!(
            compare("every twenty-five tool results", "every 25 tool results"),
            Change::Wording
        );
        assert_eq!(
            compare(
                "a factor of 1,000 in a conversion",
                "a factor of one thousand in a conversion"
            ),
            Change::Wording
        );
        assert!(matches!(
            compare(
                "a factor of 1,000 in a conversion",
                "a factor of ten thousand in a conversion"
            ),
            Change::Decided(_)
        ));
        assert_eq!(
            compare("25% of runs", "25 per cent of runs"),
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
    fn an_operator_said_another_way_is_wording_and_another_operator_is_decided() {
        // "Never" and "do not" are one prohibition, "must" and "shall" one requirement.
        assert_eq!(
            compare(
                "Never average or soften the figures.",
                "Do not average or soften the figures."
            ),
            Change::Wording
        );
        assert_eq!(
            compare(
                "Each step must name its check.",
                "Each step shall name its check."
            ),
            Change::Wording
        );
        assert_eq!(
            compare("You must verify first.", "You need to verify first."),
            Change::Wording
        );
        assert!(matches!(
            compare("You must verify first.", "You may verify first."),
            Change::Decided(_)
        ));
        // A negation's phrasings differ in scope: a reviewer reads them.
        assert!(matches!(
            compare("Stop unless it passes.", "Stop except when it passes."),
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
    fn a_word_in_another_form_is_wording_and_a_word_the_rule_says_elsewhere_added_is_not() {
        for (a, b) in [
            (
                "Scan for signals (nonzero exit).",
                "Scan for signals (non-zero exit).",
            ),
            (
                "Round to one significant figure.",
                "Round to 1 significant digit.",
            ),
            (
                "Tie-broken by fewest steps.",
                "Ties broken by fewest steps.",
            ),
            ("Compare clause-by-clause.", "Compare clause by clause."),
        ] {
            assert_eq!(compare(a, b), Change::Wording, "{a} → {b}");
            assert_eq!(compare(b, a), Change::Wording, "{b} → {a}");
        }
        assert!(matches!(
            compare(
                "Scan for signals (nonzero exit).",
                "Scan for signals (zero exit)."
            ),
            Change::Decided(_)
        ));
        // "deployed" is said elsewhere in the rule; added before "model" it narrows "each".
        assert!(matches!(
            compare(
                "Each model passes; the weakest deployed model too.",
                "Each deployed model passes; the weakest deployed model too."
            ),
            Change::Question(_)
        ));
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
