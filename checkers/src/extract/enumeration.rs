//! Enumerations: every member of a sequence written out, in order — on one line
//! (`3, 4, 5, 6, 7, 8, 9, 10`) or one member a line (list items, table rows, dates one per line:
//! `- March 3`, `| 1 | Mar 3 |`, `3rd`).

use super::num::Num;
use super::reply::Reply;
use std::ops::Range;

/// A whole number (percentages left out) as an integer, if the number is one.
fn integer(n: &Num) -> Option<i64> {
    (!n.percent && n.value.fract() == 0.0 && n.value.abs() < 1e12).then_some(n.value as i64)
}

/// The plain-text range of the first place that enumerates `wanted` in order.
pub fn find(reply: &Reply, wanted: &[i64]) -> Option<Range<usize>> {
    if wanted.is_empty() {
        return None;
    }
    // The reply's numbers, found once, grouped by the line they stand on.
    let nums = reply.numbers();
    let mut k = 0;
    let lines: Vec<(usize, &str, Vec<i64>)> = reply
        .lines()
        .map(|(at, l)| {
            let end = at + l.len();
            let mut ints = Vec::new();
            while k < nums.len() && nums[k].start < end {
                if nums[k].start >= at {
                    ints.extend(integer(&nums[k]));
                }
                k += 1;
            }
            (at, l, ints)
        })
        .collect();
    // All on one line, consecutive.
    if let Some((at, l, _)) = lines
        .iter()
        .find(|(_, _, ints)| ints.windows(wanted.len()).any(|w| w == wanted))
    {
        return Some(*at..*at + l.len());
    }
    // One member a line, on consecutive lines.
    (0..lines.len()).find_map(|i| {
        let run = lines.get(i..i + wanted.len())?;
        run.iter()
            .zip(wanted)
            .all(|((_, _, ints), w)| ints.contains(w))
            .then(|| {
                let (first, _, _) = run[0];
                let (last_at, last, _) = run[run.len() - 1];
                first..last_at + last.len()
            })
    })
}

/// The plain-text range of a sequence written with its middle elided (`3, 4, …, 10`,
/// `3, 4, 5 ... 10`): it starts at the first member, counts up by one, breaks at an ellipsis
/// and ends at the last. Whether that lists the members or hides them is for a reader to say.
pub fn find_elided(reply: &Reply, wanted: &[i64]) -> Option<Range<usize>> {
    let (&first, &last) = (wanted.first()?, wanted.last()?);
    let plain = reply.plain();
    let ints: Vec<(i64, usize, usize)> = reply
        .numbers()
        .iter()
        .filter_map(|n| integer(n).map(|v| (v, n.start, n.end)))
        .collect();
    ints.iter().enumerate().find_map(|(i, &(v, start, _))| {
        if v != first {
            return None;
        }
        // The run counting up from the first member.
        let mut k = i;
        while ints.get(k + 1).is_some_and(|n| n.0 == ints[k].0 + 1) {
            k += 1;
        }
        let (next, gap) = (ints.get(k + 1)?, &plain[ints[k].2..ints.get(k + 1)?.1]);
        let elided = gap.len() <= 8 && (gap.contains('…') || gap.contains("..."));
        (elided && next.0 == last && ints[k].0 < last - 1 && !gap.contains('\n'))
            .then_some(start..next.2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> bool {
        find(&Reply::parse(text), &[3, 4, 5, 6, 7, 8, 9, 10]).is_some()
    }

    #[test]
    fn an_enumeration_on_one_line_or_one_member_a_line_is_found() {
        assert!(found("Days: 3, 4, 5, 6, 7, 8, 9, 10."));
        let list: String = (3..=10)
            .map(|d| format!("{}. March {d}\n", d - 2))
            .collect();
        assert!(found(&list));
        let table: String = (3..=10)
            .map(|d| format!("| {} | Mar {d} |\n", d - 2))
            .collect();
        assert!(found(&format!("| # | Date |\n|---|---|\n{table}")));
        let ordinals: String = ["3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"]
            .iter()
            .map(|d| format!("- the {d}\n"))
            .collect();
        assert!(found(&ordinals));
    }

    #[test]
    fn an_elided_sequence_is_found_as_elided_and_a_gap_is_not() {
        let elided = |t: &str| find_elided(&Reply::parse(t), &[3, 4, 5, 6, 7, 8, 9, 10]).is_some();
        assert!(elided("listing them, 3, 4, …, 10 gives eight dates"));
        assert!(elided("\"enumeration\": \"3, 4, ..., 10\""));
        assert!(elided("3 … 10"));
        assert!(!elided("Days: 3, 4, 6, 7, 8, 9, 10."));
        assert!(!elided("from 3 to 10"));
        assert!(!elided("3, 4, …, 9"));
    }

    #[test]
    fn a_gap_or_an_elision_is_not_an_enumeration() {
        assert!(!found("Days: 3, 4, …, 10."));
        assert!(!found("Days: 3, 4, 5, 6, 8, 9, 10."));
        let list: String = [3, 4, 5, 7, 8, 9, 10]
            .iter()
            .map(|d| format!("- March {d}\n"))
            .collect();
        assert!(!found(&list));
    }
}
