//! What an episode waits for and opens so that a prompt cache is written once: the warm-up
//! (run/warmup.rs) hands out the roles, the episode keeps them.

use std::sync::Arc;

/// What one episode does for the cache: the latch it waits for before its first request, and
/// the latches its first reply opens.
#[derive(Clone, Default)]
pub struct CacheRole {
    pub waits_for: Option<Arc<CacheWritten>>,
    pub opens: Vec<Arc<CacheWritten>>,
}

/// A gate that opens once and stays open: episodes wait on it until a warm-up episode has had
/// its first reply, so the prompt cache that reply wrote is there for them to read.
#[derive(Default)]
pub struct CacheWritten {
    open: std::sync::atomic::AtomicBool,
    notify: tokio::sync::Notify,
}

impl CacheWritten {
    pub fn open(&self) {
        self.open.store(true, std::sync::atomic::Ordering::Release);
        self.notify.notify_waiters();
    }

    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            // Registered before the check, so an open() between the check and the await wakes us.
            notified.as_mut().enable();
            if self.open.load(std::sync::atomic::Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }
}

/// Opens its latches when dropped: after the warm-up's first reply, or however the episode
/// ends before one (an unprepared workspace, a provider failure), so no sibling waits forever.
pub struct OpensOnDrop(pub Vec<Arc<CacheWritten>>);

impl Drop for OpensOnDrop {
    fn drop(&mut self) {
        for latch in &self.0 {
            latch.open();
        }
    }
}
