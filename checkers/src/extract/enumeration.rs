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
