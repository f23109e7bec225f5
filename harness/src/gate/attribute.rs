//! Why a unit's verdict changed between base and head: the criteria that flipped (with the
//! evidence each rests on) and the hunks of the charter diff that touch a rule the unit's case
//! names, or the note that none does. One function, read by the terminal, the reports,
//! summary.json and the pull-request comment alike.

use super::change::{Attribution, Flipped, Hunk, UnitChange};
use super::{Gate, Unit};
use crate::store::trial::TrialStatus;

/// The longest evidence excerpt kept per flipped criterion, in characters.
const EXCERPT_CHARS: usize = 240;
/// A hunk's lines shown at most, and each line's characters: a charter is the pull request's.
const HUNK_LINES: usize = 40;
const LINE_CHARS: usize = 200;
/// What is said when no hunk touches a rule of the unit's case.
pub const WHOLE_CHARTER: &str = "no rule of this unit changed: the charter as a whole changed";

/// The hunks of the diff from `base` to `head` (two charters' runtime texts), each with the
/// rules it touches: removed lines map through the base's rules, added lines through the head's.
pub fn charter_hunks(base: &str, head: &str) -> Vec<Hunk> {
    use similar::ChangeTag;
    let diff = similar::TextDiff::from_lines(base, head);
    let (base_rules, head_rules) = (
        crate::suite::rules::rule_of_lines(base),
        crate::suite::rules::rule_of_lines(head),
    );
    let mut out = Vec::new();
    for group in diff.grouped_ops(2) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o, n) = (first.old_range().start, first.new_range().start);
        let header = format!(
            "@@ -{},{} +{},{} @@",
            o + 1,
            last.old_range().end - o,
            n + 1,
            last.new_range().end - n
        );
        let (mut rules, mut lines) = (Vec::<String>::new(), Vec::<String>::new());
        for op in &group {
            for c in diff.iter_changes(op) {
                let rule = match c.tag() {
                    ChangeTag::Delete => c.old_index().and_then(|i| base_rules.get(i)),
                    ChangeTag::Insert => c.new_index().and_then(|i| head_rules.get(i)),
                    ChangeTag::Equal => None,
                };
                if let Some(Some(r)) = rule {
                    if !rules.contains(r) {
                        rules.push(r.clone());
                    }
                }
                let text: String = c
                    .value()
                    .trim_end_matches(['\n', '\r'])
                    .chars()
                    .take(LINE_CHARS)
                    .collect();
                lines.push(format!("{}{text}", c.tag()));
            }
        }
        if lines.len() > HUNK_LINES {
            let more = lines.len() - HUNK_LINES;
            lines.truncate(HUNK_LINES);
            lines.push(format!("… {more} more line(s)"));
        }
        out.push(Hunk {
            header,
            rules,
            diff: lines.join("\n"),
        });
    }
    out
}

/// Attribute every unit whose status differs: its flipped criteria and the hunks touching a
/// rule its case names (`rules_of(case)`).
pub fn attribute(
    changes: &mut [UnitChange],
    head: &Gate,
    base: &Gate,
    hunks: &[Hunk],
    rules_of: &dyn Fn(&str) -> Vec<String>,
) {
    for c in changes.iter_mut().filter(|c| c.differs()) {
        let (Some(h), Some(b)) = (
            head.unit(&c.model, &c.case, &c.variant),
            base.unit(&c.model, &c.case, &c.variant),
        ) else {
            continue;
        };
        let rules = rules_of(&c.case);
        let touching = touching(hunks, &rules);
        c.attribution = Some(Attribution {
            flipped: flipped(b, h),
            whole_charter: touching.is_empty(),
            hunks: touching,
            rules,
        });
    }
}

/// The hunks that touch one of `rules`.
fn touching(hunks: &[Hunk], rules: &[String]) -> Vec<Hunk> {
    hunks
        .iter()
        .filter(|h| h.rules.iter().any(|r| rules.contains(r)))
        .cloned()
        .collect()
}

/// Criteria that fail on one side and on no trial of the other, the head's first.
pub fn flipped(base: &Unit, head: &Unit) -> Vec<Flipped> {
    let (fb, fh) = (base.failed_criteria(), head.failed_criteria());
    let mut out = Vec::new();
    for (side, unit, failed, other) in [("head", head, &fh, &fb), ("base", base, &fb, &fh)] {
        for name in failed.iter().filter(|n| !other.contains(n)) {
            let found = unit
                .trials
                .iter()
                .filter(|t| t.status == TrialStatus::Fail)
                .find_map(|t| {
                    let v = t.verdict.get();
                    v.criteria
                        .into_iter()
                        .find(|c| !c.pass && c.name == *name)
                        .map(|c| (t.trial, c.detail))
                });
            if let Some((trial, detail)) = found {
                out.push(Flipped {
                    criterion: name.clone(),
                    fails_on: side,
                    trial,
                    evidence: excerpt(&detail),
                });
            }
        }
    }
    out
}

/// One line of at most [`EXCERPT_CHARS`] characters: a model's text, bounded before use.
fn excerpt(detail: &str) -> String {
    let flat: String = detail
        .chars()
        .take(EXCERPT_CHARS * 4)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

/// The rules present on both sides whose text changed between the base's charter runtime text
/// and the head's, where they stand (`line 42 (Usage Rules)`): lint's comparison of the two
/// documents (`suite::lint::versioning`), the same one `lint charter --base` weighs.
pub fn reworded_rules(base: &str, head: &str) -> Vec<String> {
    use crate::suite::lint::{blocks, versioning};
    versioning::changes(&blocks::read(base), &blocks::read(head))
        .into_iter()
        .filter(|c| matches!((&c.old, &c.new), (Some(o), Some(n)) if o != n))
        .map(|c| c.place())
        .collect()
}

/// What the offline gate cannot see: rules reworded while every charter-reading scripted model
/// (`readers`) answers as it did on the base. Those models read a rule by its presence, not its
/// meaning, so only real models can show the effect of the new wording. None when no rule was
/// reworded, no reader ran, or a reader's unit changed.
pub fn presence_note(
    reworded: &[String],
    readers: &[String],
    changes: &[super::change::UnitChange],
) -> Option<String> {
    let moved = changes
        .iter()
        .any(|u| readers.contains(&u.model) && u.differs());
    if reworded.is_empty() || readers.is_empty() || moved {
        return None;
    }
    let shown: Vec<&str> = reworded.iter().take(5).map(String::as_str).collect();
    let more = reworded.len().saturating_sub(shown.len());
    Some(format!(
        "Note: this change rewords {} rule(s) ({}{}) and the offline charter-reading model{} ({}) answer{} as on the base: the offline models read rules by presence, not meaning, so only real models can show the effect of this wording.",
        reworded.len(),
        shown.join("; "),
        if more > 0 { format!("; and {more} more") } else { String::new() },
        if readers.len() == 1 { "" } else { "s" },
        readers.join(", "),
        if readers.len() == 1 { "s" } else { "" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deleting_protocol_a_gives_one_hunk_that_touches_protocol_a() {
        let base = "# Verification Protocols\n- A Arithmetic: name the base\n- B Bounds: check\n";
        let head = "# Verification Protocols\n- B Bounds: check\n";
        let hunks = charter_hunks(base, head);
        assert_eq!(hunks.len(), 1);
        assert_eq!(hunks[0].rules, vec!["Protocol A".to_string()]);
        assert!(
            hunks[0].diff.contains("-- A Arithmetic"),
            "{}",
            hunks[0].diff
        );
        assert!(
            hunks[0].header.starts_with("@@ -1,3 +1,2 @@"),
            "{}",
            hunks[0].header
        );
    }

    #[test]
    fn a_hunk_touching_only_another_rule_attributes_nothing_to_this_unit() {
        let base = "# Usage Rules\n1. First rule.\n2. Second rule.\n3. Third rule.\n";
        let head = "# Usage Rules\n1. First rule.\n2. Second rule.\n3. Third rule, reworded.\n";
        let hunks = charter_hunks(base, head);
        assert_eq!(hunks[0].rules, vec!["Usage 3".to_string()]);
        assert!(touching(&hunks, &["Protocol A".to_string()]).is_empty());
        assert_eq!(touching(&hunks, &["Usage 3".to_string()]).len(), 1);
    }

    #[test]
    fn evidence_is_one_bounded_line() {
        let long = format!("a\nb{}", "x".repeat(1000));
        let e = excerpt(&long);
        assert!(
            !e.contains('\n') && e.chars().count() == EXCERPT_CHARS + 1,
            "{e}"
        );
    }
}
