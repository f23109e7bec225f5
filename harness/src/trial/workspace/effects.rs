//! What one command did to the workspace (`transcript.workspace.after_commands`): the tree's
//! files with their digests before and after it, compared, so criteria about files read the
//! workspace, not the calls' arguments. Each record counts against `max_transcript_bytes`
//! ([`bounded`]).

use crate::trial::confined::{self, Entry, Kind, Root};
use checkers::transcript::{CommandEffect, PathDigest};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Every path of the tree ([`walk`]'s; names shown as [`confined::show`] does) with a digest
/// of what it is: a regular file's content, a link's target, or the kind of anything else (so
/// a FIFO in a file's place is a change too).
pub type Digests = BTreeMap<String, String>;

fn sha(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// The one walk both records take (`workspace.changed` and each command's record): every
/// entry of the tree, folders entered, nested `.git` folders included, leaving out only the
/// top-level `.git` file git puts in the tree (the link to the trial's git dir outside it).
pub fn walk(root: &Root, visit: &mut dyn FnMut(&Entry<'_>)) -> std::io::Result<()> {
    root.walk("", &|_| false, &mut |e| {
        if !(e.rel == ".git" && e.kind == Kind::File) {
            visit(e);
        }
        true
    })
}

/// The tree's digests now; `most` bounds what is read of one file.
pub fn digests(root: &Path, most: u64) -> Digests {
    let mut out = Digests::new();
    let Ok(handle) = Root::open(root) else {
        return out;
    };
    let _ = walk(&handle, &mut |e| {
        let digest = match e.kind {
            Kind::Dir => return,
            Kind::File => match confined::read_entry(e.dir, e.name, most) {
                Ok((bytes, _)) => sha(&bytes),
                Err(err) => sha(format!("unreadable: {err}").as_bytes()),
            },
            Kind::Link => {
                let target = rustix::fs::readlinkat(e.dir, e.name, Vec::new())
                    .map(|t| t.into_bytes())
                    .unwrap_or_default();
                sha(&[b"symlink:".as_slice(), &target].concat())
            }
            Kind::Special(what) => sha(what.as_bytes()),
            Kind::Unreadable => sha(b"unreadable"),
        };
        out.insert(e.rel.clone(), digest);
    });
    out
}

/// What changed from `before` to `after`: paths added or changed with their digest after,
/// paths gone with none, in path order.
pub fn changed(before: &Digests, after: &Digests) -> Vec<PathDigest> {
    let mut out = Vec::new();
    for (path, d) in after {
        if before.get(path) != Some(d) {
            out.push(PathDigest {
                path: path.clone(),
                sha256: Some(d.clone()),
            });
        }
    }
    for path in before.keys() {
        if !after.contains_key(path) {
            out.push(PathDigest {
                path: path.clone(),
                sha256: None,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Bytes `entry` takes in the transcript as it is written (indented JSON: its three lines five
/// levels deep, and the comma and newline after it).
fn entry_bytes(entry: &PathDigest) -> u64 {
    serde_json::to_vec_pretty(entry).map_or(0, |v| v.len() as u64) + 3 * 10 + 2
}

/// A command's record held to `room`, the bytes of `max_transcript_bytes` (`max`) the
/// transcript has left: whole when it fits, else its first entries, with a note for
/// `caps_hit` naming the command, its message and the counts. The bytes it adds come back.
pub fn bounded(
    mut effect: CommandEffect,
    room: u64,
    max: u64,
) -> (CommandEffect, u64, Option<String>) {
    // The record's own fields (`message`, `command`, `changed`, indented) and a comma.
    let mut used = 128 + effect.command.len() as u64;
    let total = effect.changed.len();
    let mut kept = 0;
    for entry in &effect.changed {
        let more = entry_bytes(entry);
        if used + more > room {
            break;
        }
        used += more;
        kept += 1;
    }
    if kept == total {
        return (effect, used, None);
    }
    effect.changed.truncate(kept);
    let note = format!(
        "{} (message {}): the command record keeps the first {kept} of {total} changed paths \
         (max_transcript_bytes {max})",
        effect.command, effect.message
    );
    (effect, used, Some(note))
}
