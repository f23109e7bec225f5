//! Words in another form that say the same: a word's inflections and derivations share a root
//! ("ties"/"tie", "renaming"/"rename", "manager"/"management"), a compound written with a
//! hyphen, a space or joined is one word ("non-zero"/"nonzero"), a pronoun replaced by the thing
//! the rule already names ("ships it" → "ships the rename"), a thing called by the charter's own
//! fuller name ("the harness" → "the evaluation harness"), and a unit by its synonym ("one
//! significant figure" → "1 significant digit"). What these say is read as the same; a number,
//! an operator or a content word that is new to the text is not one of them.

use regex::Regex;
use std::sync::LazyLock;

/// A word's root: the endings of its inflections and common derivations cut, so the forms of
/// one word compare equal. Roots of fewer than four letters are the word itself, less a plural
/// `s`.
pub fn root(w: &str) -> String {
    let w = w.trim_end_matches("'s").trim_end_matches("’s");
    const ENDINGS: [&str; 10] = [
        "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e",
    ];
    for end in ENDINGS {
        if let Some(r) = w.strip_suffix(end) {
            let r = r.strip_suffix('e').unwrap_or(r);
            if r.chars().count() >= 4 {
                return r.to_string();
            }
        }
    }
    // A short word's plural: "ties" is "tie".
    match w.strip_suffix('s') {
        Some(r) if r.chars().count() >= 3 && !r.ends_with('s') => r.to_string(),
        _ => w.to_string(),
    }
}

/// Synonyms of a unit, each read as the first: the same quantity in another name.
const UNIT_SYNONYMS: [(&str, &str); 2] = [
    (r"\bsignificant digits\b", "significant figures"),
    (r"\bsignificant digit\b", "significant figure"),
];
static UNIT_SYNONYM_RES: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    UNIT_SYNONYMS
        .iter()
        .map(|(p, w)| (Regex::new(p).unwrap(), *w))
        .collect()
});

/// "non-" joined to its word: "non-zero" is "nonzero", one word and no number.
static NON: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bnon-(\p{L})").unwrap());

/// Lower-cased text with a unit's synonym read as the unit and "non-" joined to its word.
pub fn fold_names(lower: &str) -> String {
    let mut t = NON.replace_all(lower, "non$1").into_owned();
    for (re, w) in UNIT_SYNONYM_RES.iter() {
        t = re.replace_all(&t, *w).into_owned();
    }
    t
}

/// The same letters with the spaces and hyphens between them moved: "clause-by-clause" and
/// "clause by clause", "re-run" and "rerun".
pub fn same_joined(o: &[String], n: &[String]) -> bool {
    o.concat() == n.concat()
}

/// Words that stand for a thing named elsewhere in the text.
const PRONOUNS: [&str; 9] = [
    "it", "them", "they", "this", "that", "these", "those", "one", "ones",
];

/// Each change replaces a pronoun (with or without function words around it) by a noun the
/// text already names in some form, or the reverse ("ships it" → "ships the rename" where the
/// rule says "renaming"), or adds or drops a phrase opened by a function word that names only
/// what the text names elsewhere ("agrees" → "agrees with the claim"). `minor(w)` tells a word
/// that carries no rule of its own.
pub fn named_again(o: &[String], n: &[String], minor: impl Fn(&str) -> bool) -> bool {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let pronoun_only = |s: &[String]| {
        s.iter().any(|w| PRONOUNS.contains(&w.as_str()))
            && s.iter().all(|w| PRONOUNS.contains(&w.as_str()) || minor(w))
    };
    // The named words' roots all stand in the text outside the changed span.
    let named = |s: &[String], text: &[String], skip: std::ops::Range<usize>| {
        let roots: Vec<String> = text
            .iter()
            .enumerate()
            .filter(|(k, _)| !skip.contains(k))
            .map(|(_, w)| root(w))
            .collect();
        s.iter()
            .filter(|w| !minor(w))
            .all(|w| roots.contains(&root(w)))
    };
    // Function words alone, or a phrase opened by one that names what the text names
    // elsewhere: "agrees" → "agrees with the claim" where the rule quotes the claim. A bare
    // word before a noun ("each deployed model") is no complement: it narrows.
    let complement = |text: &[String], at: usize, len: usize| {
        let s = &text[at..at + len];
        s.iter().all(|w| minor(w))
            || (s.first().is_some_and(|w| minor(w)) && named(s, text, at..at + len))
    };
    let ops = capture_diff_slices(Algorithm::Myers, o, n);
    let mut any = false;
    for op in ops {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Insert {
                new_index, new_len, ..
            } if complement(n, new_index, new_len) => any = true,
            DiffOp::Delete {
                old_index, old_len, ..
            } if complement(o, old_index, old_len) => any = true,
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let (os, ns) = (
                    &o[old_index..old_index + old_len],
                    &n[new_index..new_index + new_len],
                );
                let ok = (pronoun_only(os) && named(ns, o, old_index..old_index + old_len))
                    || (pronoun_only(ns) && named(os, n, new_index..new_index + new_len));
                if !ok {
                    return false;
                }
                any = true;
            }
            _ => return false,
        }
    }
    any
}

/// Words added to (or dropped from) a definite name that make it the name the charter already
/// gives the same thing elsewhere: "the harness" → "the evaluation harness" where the charter
/// says "the evaluation harness". Only before the noun and after "the": "every model" → "every
/// deployed model" narrows a quantifier, and "the harness" → "the harness manifest" names
/// another thing. `known` is the base charter's words; the fuller name must stand in it outside
/// the rule. `minor(w)` tells a word that carries no rule of its own.
pub fn named_in_full(
    o: &[String],
    n: &[String],
    known: &[String],
    minor: impl Fn(&str) -> bool,
) -> bool {
    let count = |hay: &[String], phrase: &[String]| {
        hay.windows(phrase.len().max(1))
            .filter(|w| *w == phrase)
            .count()
    };
    // The span and the noun after it, after "the", a phrase the charter uses outside this rule
    // (`known` holds the base's rule `o` too).
    let fuller = |long: &[String], at: usize, len: usize| {
        let span = &long[at..at + len];
        if span.iter().all(|w| minor(w)) {
            return true;
        }
        at > 0
            && long[at - 1] == "the"
            && at + len < long.len()
            && count(known, &long[at..at + len + 1]) > count(o, &long[at..at + len + 1])
    };
    only_spans_added_or_dropped(o, n, fuller)
}

/// The kinds of thing the charter numbers, each with the shape of its identifiers (as
/// `normal_words` writes them): "case E1", "Protocol C", "P2", "Invariant 3".
type IdShape = fn(&str) -> bool;
const KINDS: [(&str, IdShape); 7] = [
    ("case", is_case_id),
    ("cases", is_case_id),
    ("protocol", is_protocol_id),
    ("procedure", is_procedure_id),
    ("step", is_procedure_id),
    ("invariant", is_number),
    ("inv", is_number),
];

fn is_case_id(w: &str) -> bool {
    w.strip_prefix('e')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}
fn is_procedure_id(w: &str) -> bool {
    w.strip_prefix('p')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}
fn is_protocol_id(w: &str) -> bool {
    (w.len() == 1 && w.chars().all(|c| c.is_ascii_lowercase())) || is_procedure_id(w)
}
fn is_number(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
}

/// A kind's name written before (or dropped from before) an identifier of that kind, and
/// nothing else changed: "the trace for E1" → "the trace for case E1", "P2" → "Procedure P2".
/// The identifier names the same thing with or without it; a kind before an identifier of
/// another shape ("step E1") is not this.
pub fn kind_named(o: &[String], n: &[String]) -> bool {
    let named = |long: &[String], at: usize, len: usize| {
        len == 1
            && long.get(at + 1).is_some_and(|id| {
                KINDS
                    .iter()
                    .any(|(kind, shape)| long[at] == *kind && shape(id))
            })
    };
    only_spans_added_or_dropped(o, n, named)
}

/// Words only added or dropped, never replaced, and each span so `ok` (the longer text, the
/// span's start and length); at least one.
fn only_spans_added_or_dropped(
    o: &[String],
    n: &[String],
    ok: impl Fn(&[String], usize, usize) -> bool,
) -> bool {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let mut any = false;
    for op in capture_diff_slices(Algorithm::Myers, o, n) {
        let fits = match op {
            DiffOp::Equal { .. } => true,
            DiffOp::Insert {
                new_index, new_len, ..
            } => ok(n, new_index, new_len),
            DiffOp::Delete {
                old_index, old_len, ..
            } => ok(o, old_index, old_len),
            DiffOp::Replace { .. } => false,
        };
        if !fits {
            return false;
        }
        any |= !matches!(op, DiffOp::Equal { .. });
    }
    any
}

/// `old` is a misspelling of `new`: one letter added, dropped, changed or two swapped in a word
/// of five letters or more, or two swapped in a word of four, and `new` a word the charter uses
/// (`known_stems`, its words' stems), so "sentance" → "sentence" and "setps" → "steps" are
/// typos fixed, while "steps" → "stops" (a letter changed in a short word) is another word.
pub fn respelled(old: &str, new: &str, known_stems: &[String]) -> bool {
    let len = old.chars().count();
    let swapped = || {
        let (a, b): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
        a.len() == b.len() && {
            let diff: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
            diff.len() == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]]
        }
    };
    old != new
        && len >= 4
        && strsim::damerau_levenshtein(old, new) == 1
        && (len >= 5 || swapped())
        && known_stems.iter().any(|k| k == new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &str) -> Vec<String> {
        t.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_words_forms_share_its_root() {
        assert_eq!(root("ties"), root("tie"));
        assert_eq!(root("renaming"), root("rename"));
        assert_eq!(root("manager"), root("management"));
        assert_ne!(root("manager"), root("manual"));
    }

    #[test]
    fn a_pronoun_replaced_by_a_noun_the_rule_names_is_the_same_thing() {
        let o = words("propose a fix renaming an endpoint before ships it after");
        let n = words("propose a fix renaming an endpoint before ships the rename after");
        let minor = |w: &str| matches!(w, "a" | "an" | "the");
        assert!(named_again(&o, &n, minor));
        assert!(named_again(&n, &o, minor));
        let other = words("propose a fix renaming an endpoint before ships the tests after");
        assert!(!named_again(&o, &other, minor));
    }

    #[test]
    fn a_name_made_the_charters_own_fuller_name_is_the_same_name() {
        let known = words("serve the evaluation harness . live in the harness manifest");
        let minor = |w: &str| matches!(w, "in" | "the");
        let (o, n) = (
            words("live in the harness"),
            words("live in the evaluation harness"),
        );
        assert!(named_in_full(&o, &n, &known, minor));
        assert!(named_in_full(
            &n,
            &o,
            &[known.clone(), n.clone()].concat(),
            minor
        ));
        for other in [
            "live in the archived harness",
            "live in the harness manifest",
        ] {
            assert!(!named_in_full(&o, &words(other), &known, minor), "{other}");
        }
        let every = words("every model answers");
        let known = words("the deployed model");
        assert!(!named_in_full(
            &every,
            &words("every deployed model answers"),
            &known,
            minor
        ));
    }
}
