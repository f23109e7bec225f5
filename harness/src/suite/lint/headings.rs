//! A heading renamed in its place: the base's heading and the head's stand between the same
//! blocks, so the rules under it are the same rules in the same section. The head is read with
//! the base's section names for the blocks under a renamed heading, so its rules compare as
//! unchanged and in place (not every rule moved to another section), and only the heading
//! itself is a change, weighed as one.

use super::blocks::{Doc, Kind};

/// The head, its blocks under each heading renamed in place filed under the base's section
/// (and sub-heading) names; the headings themselves keep their new text.
pub fn follow_renames(base: &Doc, head: &Doc) -> Doc {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let bt: Vec<&str> = base.blocks.iter().map(|b| b.text.as_str()).collect();
    let ht: Vec<&str> = head.blocks.iter().map(|b| b.text.as_str()).collect();
    let mut pairs = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &bt, &ht) {
        if let DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } = op
        {
            let hb: Vec<usize> = (old_index..old_index + old_len)
                .filter(|&i| base.blocks[i].kind == Kind::Heading)
                .collect();
            let hh: Vec<usize> = (new_index..new_index + new_len)
                .filter(|&j| head.blocks[j].kind == Kind::Heading)
                .collect();
            if hb.len() == hh.len() {
                pairs.extend(hb.into_iter().zip(hh));
            }
        }
    }
    let mut out = head.clone();
    for (i, j) in pairs {
        let (was, now) = (&base.blocks[i], &head.blocks[j]);
        // Everything from the heading to the next section of the head is under it.
        let (section, sub) = (now.section.clone(), now.sub.clone());
        for b in out.blocks[j..]
            .iter_mut()
            .take_while(|b| b.section == section)
        {
            b.section = was.section.clone();
            if b.sub == sub {
                b.sub = was.sub.clone();
            }
        }
    }
    out
}
