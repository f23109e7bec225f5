//! What a provider charges per token of the harness's estimate, learnt from successive answers:
//! between two answers' remaining counts the bucket lost what the server admitted in between
//! and gained its refill, so (drop + refill) / (estimated tokens sent in between) is the charge
//! per estimated token. Nothing is assumed about how full the bucket was before the first
//! answer; the estimate follows the answers down as well as up, and is padded while few pairs
//! back it.

use std::collections::VecDeque;
use std::time::Instant;

/// Answers kept to pair the newest with: the oldest of them, so the estimated tokens in between
/// dwarf the few requests whose order the server may have swapped.
const WINDOW: usize = 96;
/// The charge per estimated token believed: a provider's count is never this far from bytes / 4.
const RANGE: (f64, f64) = (0.02, 200.0);

/// One answer's mark: when its request was sent, the estimated tokens sent up to and with it,
/// and what the server said remained after admitting it.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: Instant,
    sent: f64,
    remaining: f64,
}

#[derive(Debug, Default)]
pub struct Learner {
    marks: VecDeque<Mark>,
    /// Requests refused (429) that were sent after the oldest mark: where in the estimated
    /// tokens sent each was, and its estimate. The server charged them nothing.
    refused: VecDeque<(f64, f64)>,
    /// Pairs of answers the estimate rests on.
    pairs: u32,
    /// The charge per estimated token, unpadded, once a pair gave one.
    scale: Option<f64>,
}

impl Learner {
    /// An answer said `remaining` after admitting the request sent at `at`, when `sent`
    /// estimated tokens had been sent with it; the bucket refills `rate` a second. Returns the
    /// charge per estimated token to admit by now, padded while few pairs back it.
    pub fn observe(&mut self, at: Instant, sent: f64, remaining: f64, rate: f64) -> Option<f64> {
        let new = Mark {
            at,
            sent,
            remaining,
        };
        // Answers come back in any order; a mark is kept in the order requests were sent.
        let i = self.marks.partition_point(|m| m.sent < sent);
        self.marks.insert(i, new);
        if self.marks.len() > WINDOW {
            self.marks.pop_front();
        }
        let (first, last) = (*self.marks.front()?, *self.marks.back()?);
        while self.refused.front().is_some_and(|r| r.0 <= first.sent) {
            self.refused.pop_front();
        }
        let unpaid: f64 = self
            .refused
            .iter()
            .filter(|r| r.0 <= last.sent)
            .map(|r| r.1)
            .sum();
        let between = last.sent - first.sent - unpaid;
        if between > 0.0 && rate.is_finite() {
            let secs = last.at.saturating_duration_since(first.at).as_secs_f64();
            let charged = first.remaining - last.remaining + rate * secs;
            let k = charged / between;
            if k.is_finite() && k > 0.0 {
                self.scale = Some(k.clamp(RANGE.0, RANGE.1));
                self.pairs += 1;
            }
        }
        self.padded()
    }

    /// A request sent when `sent` estimated tokens had been sent with it, of estimate `cost`,
    /// was refused: the server charged nothing for it.
    pub fn refused(&mut self, sent: f64, cost: f64) {
        let i = self.refused.partition_point(|r| r.0 < sent);
        self.refused.insert(i, (sent, cost));
    }

    /// The estimate with room for its uncertainty: a quarter more on one pair, a sixteenth on
    /// two, and always half a part in as many answers as it spans, for the request on either
    /// side whose order the server may have swapped with the newest.
    pub fn padded(&self) -> Option<f64> {
        let n = f64::from(self.pairs.max(1));
        let spread = 0.5 / self.marks.len().max(1) as f64;
        self.scale.map(|k| k * (1.0 + 0.25 / (n * n) + spread))
    }

    /// The charge per estimated token as last learnt, unpadded.
    pub fn scale(&self) -> Option<f64> {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_flat_charge_is_learnt_from_drops_and_refills_whatever_the_bucket_held_first() {
        // 100 estimated tokens a request, the server charging 300, refilling 1,000 a second;
        // the bucket held 40,000 (not its limit) before the first answer.
        let t0 = Instant::now();
        let mut l = Learner::default();
        let mut level = 40_000.0;
        let mut k = None;
        for i in 0..20u32 {
            let at = t0 + Duration::from_millis(100 * u64::from(i));
            if i > 0 {
                level += 100.0; // 0.1 s of refill
            }
            level -= 300.0;
            k = l.observe(at, 100.0 * f64::from(i + 1), level, 1_000.0);
        }
        let k = k.unwrap();
        assert!((3.0..3.2).contains(&k), "{k}");
        assert!((l.scale().unwrap() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn the_estimate_falls_as_well_as_rises() {
        let t0 = Instant::now();
        let mut l = Learner::default();
        let mut level = 100_000.0;
        let mut sent = 0.0;
        // 100 estimated tokens a request, charged 500 for a while, then 50 for longer than
        // the window.
        for (i, cost) in [500.0; 40].iter().chain([50.0; 120].iter()).enumerate() {
            level -= cost;
            sent += 100.0;
            let _ = l.observe(t0 + Duration::from_millis(i as u64), sent, level, 0.0);
        }
        let k = l.scale().unwrap();
        assert!((k - 0.5).abs() < 1e-9, "{k}");
    }
}
