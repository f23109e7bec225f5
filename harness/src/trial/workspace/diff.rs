//! The diff of a trial's workspace against its fixture commit (`workspace.changed`): the tree
//! walked by the harness itself, so no ignore rule and no nested repository hides a file, and
//! no symlink is followed.

use super::{git_err, TrialWorkspace};
use crate::error::{Error, Result};
use crate::trial::confined::{self, Kind, Root};
use checkers::transcript::{FileChange, Workspace};
use git2::{ObjectType, Oid};
use git2::{TreeWalkMode, TreeWalkResult};
use std::collections::BTreeMap;

/// The most of one changed file a transcript records.
const MAX_CHANGE_BYTES: u64 = 1 << 20;

impl TrialWorkspace {
    /// Created, edited and deleted files against the fixture commit, untracked files included,
    /// whatever ignore rules the tree holds.
    pub fn changes(&self) -> Result<Workspace> {
        let base = self.fixture_files()?;
        let before = |id: Oid| -> Result<String> {
            let blob = self.repo.find_blob(id).map_err(|e| git_err("blob", e))?;
            Ok(String::from_utf8_lossy(blob.content()).into_owned())
        };
        let now = self.work_tree_files()?;
        let mut changed = Vec::new();
        for (path, id) in &base {
            match now.get(path) {
                Some(c) if c.id == Some(*id) => {}
                Some(c) => {
                    let before = Some(before(*id)?);
                    if before != c.after {
                        changed.push(FileChange {
                            path: path.clone(),
                            before,
                            after: c.after.clone(),
                        });
                    }
                }
                None => changed.push(FileChange {
                    path: path.clone(),
                    before: Some(before(*id)?),
                    after: None,
                }),
            }
        }
        for (path, c) in now {
            if !base.contains_key(&path) && c.after.is_some() {
                changed.push(FileChange {
                    path,
                    before: None,
                    after: c.after,
                });
            }
        }
        changed.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(Workspace {
            changed,
            after_commands: Vec::new(),
        })
    }

    /// The fixture commit's files, by path, with their blob ids.
    fn fixture_files(&self) -> Result<BTreeMap<String, Oid>> {
        let tree = self
            .repo
            .find_commit(self.base)
            .and_then(|c| c.tree())
            .map_err(|e| git_err("tree", e))?;
        let mut base: BTreeMap<String, Oid> = BTreeMap::new();
        tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            if entry.kind() == Some(ObjectType::Blob) {
                // Shown as the walk shows work-tree names, so the two compare byte for byte.
                let name = confined::show(entry.name_bytes());
                base.insert(format!("{dir}{name}"), entry.id());
            }
            TreeWalkResult::Ok
        })
        .map_err(|e| git_err("tree", e))?;
        Ok(base)
    }

    /// The work tree's files now, by path, walked by the harness (no ignore rule, no symlink
    /// followed).
    fn work_tree_files(&self) -> Result<BTreeMap<String, Current>> {
        let root = Root::open(self.root()).map_err(|e| Error::io(self.root(), e))?;
        let mut now: BTreeMap<String, Current> = BTreeMap::new();
        // The walk each command's record takes too, so the two see the same tree.
        super::effects::walk(&root, &mut |e| {
            if let Some(c) = current(e) {
                now.insert(e.rel.clone(), c);
            }
        })
        .map_err(|e| Error::io(self.root(), e))?;
        Ok(now)
    }
}

/// The diff held to `room`, the bytes of `max_transcript_bytes` (`max`) the transcript has
/// left: whole when it fits, else its first files, with a note for `caps_hit` naming the
/// counts. The bytes it adds come back.
pub fn bounded(changed: &mut Vec<FileChange>, room: u64, max: u64) -> (u64, Option<String>) {
    let (mut used, total) = (0u64, changed.len());
    let mut kept = 0;
    for c in changed.iter() {
        // As written: indented four levels deep, five lines, and the comma after it.
        let more = serde_json::to_vec_pretty(c).map_or(0, |v| v.len() as u64) + 5 * 8 + 2;
        if used + more > room {
            break;
        }
        used += more;
        kept += 1;
    }
    if kept == total {
        return (used, None);
    }
    changed.truncate(kept);
    let note = format!(
        "workspace.changed keeps the first {kept} of {total} changed files (max_transcript_bytes {max})"
    );
    (used, Some(note))
}

/// A work-tree entry as the diff sees it: its blob id when it is a regular file or a link (to
/// compare with the fixture's), and its text as the transcript records it.
struct Current {
    id: Option<Oid>,
    after: Option<String>,
}

/// A walked entry as the diff records it: a regular file's text (its head when long), a symlink
/// as `symlink → TARGET` (never followed: a link to /etc/hostname or /dev/zero is not read), and
/// nothing for anything else (a FIFO, a device, a file with another name).
fn current(e: &confined::Entry<'_>) -> Option<Current> {
    match e.kind {
        Kind::Link => {
            let target = rustix::fs::readlinkat(e.dir, e.name, Vec::new()).ok()?;
            let target = target.as_bytes();
            Some(Current {
                id: Oid::hash_object(ObjectType::Blob, target).ok(),
                after: Some(format!("symlink → {}", String::from_utf8_lossy(target))),
            })
        }
        Kind::File => {
            let Ok((bytes, st)) = confined::read_entry(e.dir, e.name, u64::MAX) else {
                return Some(Current {
                    id: None,
                    after: None,
                });
            };
            // A sandboxed script may write many files up to the file-size limit; the transcript
            // keeps the head of each, enough for any checker, and says how much was cut.
            let size = st.st_size as u64;
            let head = &bytes[..bytes.len().min(MAX_CHANGE_BYTES as usize)];
            let mut text = String::from_utf8_lossy(head).into_owned();
            if size > MAX_CHANGE_BYTES {
                text.push_str(&format!("\n[… cut at {MAX_CHANGE_BYTES} bytes of {size}]"));
            }
            Some(Current {
                id: Oid::hash_object(ObjectType::Blob, &bytes).ok(),
                after: Some(text),
            })
        }
        // Left by a script and too deep to remove: the checkers see that it is there.
        k if k == confined::TOO_DEEP => Some(Current {
            id: None,
            after: Some("[a folder nested too deep to read]".into()),
        }),
        // Never a silent skip: what the harness could not see is in the diff, named.
        Kind::Unreadable => Some(Current {
            id: None,
            after: Some(format!(
                "[the harness could not read this: {}]",
                e.error.as_deref().unwrap_or("")
            )),
        }),
        Kind::Dir | Kind::Special(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_reports_created_edited_and_deleted_files() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("keep.txt"), "same\n").unwrap();
        std::fs::write(fixture.path().join("edit.txt"), "old\n").unwrap();
        std::fs::create_dir(fixture.path().join("sub")).unwrap();
        std::fs::write(fixture.path().join("sub/gone.txt"), "bye\n").unwrap();
        let (_store, ws) = TrialWorkspace::create(fixture.path()).unwrap();
        std::fs::write(ws.root().join("edit.txt"), "new\n").unwrap();
        std::fs::remove_file(ws.root().join("sub/gone.txt")).unwrap();
        std::fs::create_dir(ws.root().join("made")).unwrap();
        std::fs::write(ws.root().join("made/new.txt"), "hi\n").unwrap();
        let changed = ws.changes().unwrap().changed;
        let summary: Vec<(&str, Option<&str>, Option<&str>)> = changed
            .iter()
            .map(|c| (c.path.as_str(), c.before.as_deref(), c.after.as_deref()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("edit.txt", Some("old\n"), Some("new\n")),
                ("made/new.txt", None, Some("hi\n")),
                ("sub/gone.txt", Some("bye\n"), None)
            ]
        );
    }

    #[test]
    fn a_huge_written_file_is_recorded_as_its_head_and_its_size() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("a.txt"), "a\n").unwrap();
        let (_store, ws) = TrialWorkspace::create(fixture.path()).unwrap();
        let size = MAX_CHANGE_BYTES as usize * 3;
        std::fs::write(ws.root().join("big.txt"), "x".repeat(size)).unwrap();
        let changed = ws.changes().unwrap().changed;
        let after = changed[0].after.as_deref().unwrap();
        assert!(after.len() < MAX_CHANGE_BYTES as usize + 100);
        assert!(
            after.ends_with(&format!("bytes of {size}]")),
            "{}",
            &after[after.len() - 60..]
        );
    }
}
