//! `harness merge`: the run folders of sharded jobs combined into one run folder, then gated.
//! The merged folder appears whole or not at all.

use crate::error::{Error, Result};
use crate::regate::GateOptions;
use crate::store;
use std::path::{Path, PathBuf};

/// What `harness merge` combines, and where.
pub struct MergeOptions {
    /// The shards' run folders.
    pub dirs: Vec<PathBuf>,
    /// The merged run folder (must not exist or be empty).
    pub out: PathBuf,
    /// Append report.md to `$GITHUB_STEP_SUMMARY`.
    pub step_summary: bool,
    /// A custom case suite (default: `$CHARTER_HARNESS_SUITE`, else the built-in one).
    pub suite: Option<PathBuf>,
}

/// Merge the shards into `opts.out` and gate it; the gate's exit code.
pub fn merge(opts: &MergeOptions) -> Result<u8> {
    if opts.out.exists()
        && std::fs::read_dir(&opts.out)
            .map_err(|e| Error::io_op("read", &opts.out, e))?
            .next()
            .is_some()
    {
        return Err(Error::input(format!(
            "{}: already holds files; merge into a new folder",
            opts.out.display()
        )));
    }
    let merged = crate::store::run_folder::merged_record(&opts.dirs)?;
    // Everything goes into a temp folder beside the destination, renamed into place only when
    // complete: a failed merge leaves nothing behind.
    let parent = match opts.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| merge_err("create folder", &parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(".merge-")
        .tempdir_in(&parent)
        .map_err(|e| merge_err("create the merge's staging folder in", &parent, e))?;
    copy_transcripts(&opts.dirs, staging.path())?;
    merged.write(&staging.path().join("run.json"))?;
    if opts.out.exists() {
        std::fs::remove_dir(&opts.out)
            .map_err(|e| merge_err("replace the empty folder", &opts.out, e))?;
    }
    // Kept only once renamed into place: a rename that fails drops the staging folder too.
    std::fs::rename(staging.path(), &opts.out)
        .map_err(|e| merge_err("move the merged run into", &opts.out, e))?;
    let _ = staging.keep();
    crate::regate::gate(&GateOptions {
        run_dir: opts.out.clone(),
        suite: opts.suite.clone(),
        base: None,
        step_summary: opts.step_summary,
    })
}

/// Every shard's transcripts into `staging/transcripts`; a transcript in two shards is an error.
fn copy_transcripts(dirs: &[PathBuf], staging: &Path) -> Result<()> {
    for dir in dirs {
        let base = dir.join("transcripts");
        for f in store::transcript_files(std::slice::from_ref(&base))? {
            let rel = f.strip_prefix(&base).unwrap_or(&f);
            let to = staging.join("transcripts").join(rel);
            if to.exists() {
                return Err(Error::input(format!(
                    "{}: {} is in two shards",
                    dir.display(),
                    rel.display()
                )));
            }
            std::fs::create_dir_all(to.parent().unwrap())
                .map_err(|e| merge_err("create folder", &to, e))?;
            std::fs::copy(&f, &to).map_err(|e| merge_err("copy", &f, e))?;
        }
    }
    Ok(())
}

fn merge_err(op: &'static str, p: &Path, e: std::io::Error) -> Error {
    Error::io_op(op, p, e).next("choose another with --out DIR")
}
