//! What one command did to the workspace (`transcript.workspace.after_commands`): the tree's
//! files with their digests before and after it, compared, so criteria about files read the
//! workspace, not the calls' arguments.

use crate::trial::beneath::{self, Kind, Root};
use checkers::transcript::PathDigest;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Every path of the tree (`.git` left out; names shown as [`beneath::show`] does) with a
/// digest of what it is: a regular file's content, a link's target, or the kind of anything
/// else (so a FIFO in a file's place is a change too).
pub type Digests = BTreeMap<String, String>;

fn sha(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// The tree's digests now; `most` bounds what is read of one file.
pub fn digests(root: &Path, most: u64) -> Digests {
    let mut out = Digests::new();
    let Ok(handle) = Root::open(root) else {
        return out;
    };
    let _ = handle.walk("", &|n| n == ".git", &mut |e| {
        let digest = match e.kind {
            Kind::Dir => return true,
            Kind::File => match beneath::read_entry(e.dir, e.name, most) {
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
        false
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
