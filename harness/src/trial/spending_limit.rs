//! The run's spending limit (`[run] budget_usd`): a request that could take spending past it is
//! not sent, and its trial ends inconclusive, to be finished later with `--resume`.

use std::sync::atomic::{AtomicU64, Ordering};

/// Spending so far against the limit, shared by every trial of a run.
#[derive(Debug)]
pub struct SpendingLimit {
    limit_usd: f64,
    /// Spent, in millionths of a dollar.
    spent_micro: AtomicU64,
    /// Committed to requests in flight, in millionths of a dollar.
    reserved_micro: AtomicU64,
}

fn micro(usd: f64) -> u64 {
    (usd * 1e6).ceil().max(0.0) as u64
}

impl SpendingLimit {
    pub fn new(limit_usd: f64) -> SpendingLimit {
        SpendingLimit {
            limit_usd,
            spent_micro: AtomicU64::new(0),
            reserved_micro: AtomicU64::new(0),
        }
    }

    pub fn spent_usd(&self) -> f64 {
        self.spent_micro.load(Ordering::SeqCst) as f64 / 1e6
    }

    /// Reserve the most a request could cost; `Err` says why it may not be sent.
    pub fn reserve(&self, worst_case_usd: f64) -> Result<u64, String> {
        let want = micro(worst_case_usd);
        let limit = micro(self.limit_usd);
        let mut reserved = self.reserved_micro.load(Ordering::SeqCst);
        loop {
            let committed = self.spent_micro.load(Ordering::SeqCst) + reserved;
            if committed + want > limit {
                return Err(format!(
                    "budget: ${:.4} of ${:.2} spent or committed; the next request could cost up to ${worst_case_usd:.4}, so it was not sent (inconclusive; finish with --resume)",
                    committed as f64 / 1e6,
                    self.limit_usd
                ));
            }
            match self.reserved_micro.compare_exchange(
                reserved,
                reserved + want,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => return Ok(want),
                Err(now) => reserved = now,
            }
        }
    }

    /// Replace a reservation by what the request really cost (zero if it failed).
    pub fn settle(&self, reservation: u64, actual_usd: f64) {
        self.reserved_micro.fetch_sub(reservation, Ordering::SeqCst);
        self.spent_micro
            .fetch_add(micro(actual_usd), Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_that_could_pass_the_limit_is_refused_before_it_is_sent() {
        let b = SpendingLimit::new(1.0);
        let r = b.reserve(0.6).unwrap();
        assert!(b.reserve(0.6).is_err(), "0.6 reserved + 0.6 would pass 1.0");
        b.settle(r, 0.1);
        assert!((b.spent_usd() - 0.1).abs() < 1e-9);
        let r2 = b.reserve(0.6).unwrap();
        b.settle(r2, 0.6);
        let err = b.reserve(0.5).unwrap_err();
        assert!(err.contains("--resume"), "{err}");
    }
}
