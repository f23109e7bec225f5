//! Prompt-cache warm-up: for each model and unit whose requests share a cacheable prefix, one
//! episode goes first and its first reply writes the cache; the unit's other episodes (its
//! siblings) start their first request only after that, so they read the prefix instead of
//! each writing it again. Other units' episodes fill the model's slots meanwhile.

use crate::case::Variant;
use crate::manifest::{ModelEntry, ProviderKind};
use std::sync::Arc;

/// OpenAI caches a prompt's prefix by itself from this many tokens on; shorter prompts gain
/// nothing from waiting.
const OPENAI_MIN_CACHED_TOKENS: usize = 1024;

/// Whether this model's requests for this unit share a prefix the API will cache.
pub fn caches(model: &ModelEntry, system: &str, variant: &Variant) -> bool {
    if !model.prompt_cache {
        return false;
    }
    match model.provider {
        ProviderKind::Anthropic => true,
        ProviderKind::Openai => {
            // Four characters a token, the same estimate the plan prints.
            let chars = system.len() + variant.seed.iter().map(|m| m.content.len()).sum::<usize>();
            chars / 4 >= OPENAI_MIN_CACHED_TOKENS
        }
        ProviderKind::Scripted => false,
    }
}

/// What one episode does for the cache.
#[derive(Clone, Default)]
pub enum CacheRole {
    /// No shared prefix to wait for.
    #[default]
    None,
    /// The unit's first episode: opens the latch after its first reply.
    WarmUp(Arc<Latch>),
    /// Waits for the unit's warm-up before its first request.
    Sibling(Arc<Latch>),
}

/// Warm-ups first: the dispatch order with each caching unit's first trial moved ahead of every
/// sibling (a stable partition, so the longest-first order holds within each part). A sibling
/// dispatched before its warm-up would hold a place in flight while it waits.
pub fn warm_ups_first(order: Vec<(usize, u32)>, caching: &[bool]) -> Vec<(usize, u32)> {
    let mut seen = vec![false; caching.len()];
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for (ui, trial) in order {
        if caching[ui] && !seen[ui] {
            seen[ui] = true;
            first.push((ui, trial));
        } else {
            rest.push((ui, trial));
        }
    }
    first.extend(rest);
    first
}

/// A gate that opens once and stays open: siblings of a unit wait on it until the unit's
/// warm-up episode has had its first reply, so the prompt cache that reply wrote is there for
/// them to read.
#[derive(Default)]
pub struct Latch {
    open: std::sync::atomic::AtomicBool,
    notify: tokio::sync::Notify,
}

impl Latch {
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

/// Opens its latch when dropped: after the warm-up's first reply, or however the episode ends
/// before one (an unprepared workspace, a provider failure), so no sibling waits forever.
pub struct OpensOnDrop(pub std::sync::Arc<Latch>);

impl Drop for OpensOnDrop {
    fn drop(&mut self) {
        self.0.open();
    }
}
