//! The run's verdict spool: every trial's full verdict, appended to an unnamed temporary file as
//! the trial ends and read back one at a time by the reports that print verdicts whole. Trial
//! records keep only what the gate needs, so a run's memory does not grow with its trials.

use checkers::Verdict;
use std::io::Write;
use std::sync::{Arc, Mutex};

pub struct Spool {
    /// The file, buffered, and the offset the next verdict is written at.
    inner: Mutex<(std::io::BufWriter<std::fs::File>, u64)>,
    /// Criterion names and lists of them, once each: thousands of failed trials share a
    /// handful of names and ways to fail.
    names: Mutex<std::collections::HashSet<Arc<str>>>,
    lists: Mutex<std::collections::HashSet<Arc<[Arc<str>]>>>,
}

/// Where one verdict lies in its spool.
#[derive(Clone)]
pub struct VerdictRef {
    spool: Arc<Spool>,
    at: u64,
    len: u32,
}

impl std::fmt::Debug for VerdictRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VerdictRef({}+{})", self.at, self.len)
    }
}

impl Spool {
    pub fn new() -> crate::error::Result<Arc<Spool>> {
        // Unnamed, on the disk's temp folder (not memory-backed /dev/shm): gone when the
        // process ends, however it ends.
        let file = tempfile::tempfile().map_err(|e| {
            crate::error::Error::Internal(format!("cannot create the verdict spool: {e}"))
        })?;
        Ok(Arc::new(Spool {
            inner: Mutex::new((std::io::BufWriter::with_capacity(1 << 16, file), 0)),
            names: Mutex::default(),
            lists: Mutex::default(),
        }))
    }

    /// The shared copy of the failed criteria's names, in order.
    pub fn failed_names(&self, verdict: &Verdict) -> Arc<[Arc<str>]> {
        let list: Vec<Arc<str>> = verdict.failed().map(|c| self.intern(&c.name)).collect();
        let mut lists = self.lists.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(l) = lists.get(&list[..]) {
            return l.clone();
        }
        let l: Arc<[Arc<str>]> = list.into();
        lists.insert(l.clone());
        l
    }

    /// The shared copy of a criterion name.
    pub fn intern(&self, name: &str) -> Arc<str> {
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = names.get(name) {
            return n.clone();
        }
        let n: Arc<str> = Arc::from(name);
        names.insert(n.clone());
        n
    }

    pub fn put(self: &Arc<Spool>, verdict: &Verdict) -> crate::error::Result<VerdictRef> {
        let bytes = serde_json::to_vec(verdict)
            .map_err(|e| crate::error::Error::Internal(e.to_string()))?;
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let at = inner.1;
        inner
            .0
            .write_all(&bytes)
            .map_err(|e| crate::error::Error::Internal(format!("verdict spool: {e}")))?;
        inner.1 += bytes.len() as u64;
        Ok(VerdictRef {
            spool: self.clone(),
            at,
            len: bytes.len() as u32,
        })
    }
}

impl VerdictRef {
    /// The verdict as the checker made it.
    pub fn get(&self) -> Verdict {
        use std::os::unix::fs::FileExt;
        let mut buf = vec![0; self.len as usize];
        let read = {
            let mut inner = self.spool.inner.lock().unwrap_or_else(|p| p.into_inner());
            inner
                .0
                .flush()
                .and_then(|_| inner.0.get_ref().read_exact_at(&mut buf, self.at))
        };
        // The spool is this process's own unnamed file: failing to read it back is a bug or a
        // dying disk, not bad input.
        read.ok()
            .and_then(|_| serde_json::from_slice(&buf).ok())
            .expect("the verdict spool reads back what was written")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers::Criterion;

    fn verdict(pass: bool, detail: &str) -> Verdict {
        Verdict {
            case: "E1".into(),
            checker_source_sha256: "x".into(),
            checker_version: "1.0.0".into(),
            criteria: vec![
                Criterion::new("final-figure", pass, detail),
                Criterion::new("forward-derivation", false, "none"),
            ],
            file: None,
            final_figure: None,
            inconclusive: false,
            pass,
            variant: "default".into(),
        }
    }

    #[test]
    fn a_spooled_verdict_reads_back_whole_after_later_ones_were_written() {
        let spool = Spool::new().unwrap();
        let first = spool.put(&verdict(false, "20% (want 25%)")).unwrap();
        let later: Vec<VerdictRef> = (0..1000)
            .map(|i| {
                spool
                    .put(&verdict(i % 2 == 0, &format!("detail {i}")))
                    .unwrap()
            })
            .collect();
        assert_eq!(first.get(), verdict(false, "20% (want 25%)"));
        assert_eq!(later[999].get(), verdict(false, "detail 999"));
        assert_eq!(later[10].get(), verdict(true, "detail 10"));
    }

    #[test]
    fn trials_failing_the_same_way_share_one_list_of_names() {
        let spool = Spool::new().unwrap();
        let a = spool.failed_names(&verdict(false, "a"));
        let b = spool.failed_names(&verdict(false, "b"));
        let other = spool.failed_names(&verdict(true, "c"));
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*a[0], "final-figure");
        assert_eq!(other.len(), 1);
        assert!(Arc::ptr_eq(&a[1], &other[0]));
    }
}
