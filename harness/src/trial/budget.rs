//! The run's spending limit (`[run] budget_usd`): a request that could take spending past it is
//! not sent, and its trial ends inconclusive, to be finished later with `--resume`.

use crate::suite::manifest::ModelEntry;
use std::sync::atomic::{AtomicU64, Ordering};

/// Prices of one model, USD per million tokens.
#[derive(Debug, Clone, Copy, Default)]
pub struct Prices {
    pub input: f64,
    pub output: f64,
    pub cache_read: f64,
    pub cache_write: f64,
}

impl Prices {
    pub fn of(m: &ModelEntry) -> Prices {
        let input = m.price_input_per_mtok.unwrap_or(0.0);
        Prices {
            input,
            output: m.price_output_per_mtok.unwrap_or(0.0),
            cache_read: m.price_cache_read_per_mtok.unwrap_or(input * 0.1),
            cache_write: m.price_cache_write_per_mtok.unwrap_or(input * 1.25),
        }
    }
    /// Uncached input and output at list price (the worst case a budget reserves).
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (self.input * input_tokens as f64 + self.output * output_tokens as f64) / 1e6
    }
    /// What a request cost as the API reported it: `input` uncached tokens, `read` and `write`
    /// tokens of the prompt cache, `output` tokens.
    pub fn cost_cached(&self, u: &crate::provider::Usage) -> f64 {
        (self.input * u.input_tokens as f64
            + self.cache_read * u.cache_read_tokens as f64
            + self.cache_write * u.cache_write_tokens as f64
            + self.output * u.output_tokens as f64)
            / 1e6
    }
}

/// Spending so far against the limit, shared by every trial of a run.
#[derive(Debug)]
pub struct Budget {
    limit_usd: f64,
    /// Spent, in millionths of a dollar.
    spent_micro: AtomicU64,
    /// Committed to requests in flight, in millionths of a dollar.
    reserved_micro: AtomicU64,
}

fn micro(usd: f64) -> u64 {
    (usd * 1e6).ceil().max(0.0) as u64
}

impl Budget {
    pub fn new(limit_usd: f64) -> Budget {
        Budget {
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
        let b = Budget::new(1.0);
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
