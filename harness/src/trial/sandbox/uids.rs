//! The uids sandboxed commands run as when the harness is root: one per live command, leased
//! from a pool that knows which commands still run, across every trial of this process, so no
//! command shares its process limit (counted per uid) with another that is running.

use std::sync::Mutex;

/// The first uid (and gid) of the range: 0x70000000 + (harness pid mod 2^22) × 64 + a slot,
/// far above every account and below 2^31.
pub const UID_BASE: u32 = 0x7000_0000;
/// Slots per harness process: at most this many commands run at once; one more waits.
const SLOTS: u32 = 64;

/// The slots in use (bit n: slot n) and where the next search starts.
static POOL: Mutex<(u64, u32)> = Mutex::new((0, 0));
static FREED: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// A uid held for one command; given back when dropped, after the command's processes are gone.
#[derive(Debug)]
pub struct Lease {
    slot: u32,
}

impl Lease {
    pub fn uid(&self) -> u32 {
        UID_BASE | ((std::process::id() & 0x3f_ffff) << 6) | self.slot
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        pool.0 &= !(1u64 << self.slot);
        drop(pool);
        FREED.notify_waiters();
    }
}

/// A free slot, searching on from the last one given out, so a slot just given back (whose
/// namespace the kernel may still be emptying) is the last to be used again.
fn try_lease() -> Option<Lease> {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    let (used, next) = *pool;
    let slot = (0..SLOTS)
        .map(|i| (next + i) % SLOTS)
        .find(|s| used & (1u64 << s) == 0)?;
    *pool = (used | (1u64 << slot), (slot + 1) % SLOTS);
    Some(Lease { slot })
}

/// A uid no running command holds; waits for one to end when all are taken.
pub async fn lease() -> Lease {
    loop {
        // Registered before the look, so a slot given back in between is not missed.
        let freed = FREED.notified();
        if let Some(l) = try_lease() {
            return l;
        }
        freed.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_slot_is_leased_twice_while_held_and_a_freed_one_is_used_last() {
        let held = lease().await;
        let mut others = Vec::new();
        for _ in 0..SLOTS - 1 {
            others.push(lease().await);
        }
        let mut uids: Vec<u32> = others.iter().map(Lease::uid).collect();
        uids.push(held.uid());
        uids.sort();
        uids.dedup();
        assert_eq!(uids.len(), SLOTS as usize);
        assert!(try_lease().is_none(), "a 65th live command got a uid");
        let freed = others.remove(0).uid();
        let again = lease().await;
        assert_eq!(again.uid(), freed);
        assert_ne!(again.uid(), held.uid());
    }
}
