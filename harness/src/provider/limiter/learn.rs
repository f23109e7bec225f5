//! What a provider charges per token of the harness's estimate, learnt from successive answers:
//! between two answers' remaining counts the bucket lost what the server admitted in between
//! and gained its refill, so (drop + refill) / (estimated tokens sent in between) is the charge
//! per estimated token. Nothing is assumed about how full the bucket was before the first
//! answer; the estimate follows the answers down as well as up. What is admitted by is an upper
//! bound: a request reaches the server some time between its sending and its answer, so the
//! refill in between is credited up to the newer answer's arrival, an uncertainty that shrinks
//! as the tokens between the pair grow; it is padded while few pairs back it.

use std::collections::VecDeque;
use std::time::Instant;

/// Answers kept to pair the newest with: the oldest of them, so the estimated tokens in between
/// dwarf the few requests whose order the server may have swapped.
const WINDOW: usize = 96;
/// The charge per estimated token believed: a provider's count is never this far from bytes / 4.
const RANGE: (f64, f64) = (0.02, 200.0);

/// One answer's mark: when its request was sent and its answer came, the estimated tokens sent
/// up to and with it, and what the server said remained after admitting it.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: Instant,
    answered: Instant,
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
    /// The most the charge per estimated token can be on the same pair: the newer request
    /// reached the server as late as its answer came, the older as early as it was sent.
    upper: Option<f64>,
}

impl Learner {
    /// An answer that came at `answered` said `remaining` after admitting the request sent at
    /// `at`, when `sent` estimated tokens had been sent with it; the bucket refills `rate` a
    /// second. Returns the charge per estimated token to admit by now: its upper bound, padded
    /// while few pairs back it.
    pub fn observe(
        &mut self,
        (at, answered): (Instant, Instant),
        sent: f64,
        remaining: f64,
        rate: f64,
    ) -> Option<f64> {
        let new = Mark {
            at,
            answered: answered.max(at),
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
            let refill = |to: Instant| rate * to.saturating_duration_since(first.at).as_secs_f64();
            let drop = first.remaining - last.remaining;
            let k = (drop + refill(last.at)) / between;
            let hi = (drop + refill(last.answered)) / between;
            if k.is_finite() && k > 0.0 && hi.is_finite() {
                self.scale = Some(k.clamp(RANGE.0, RANGE.1));
                self.upper = Some(hi.max(k).clamp(RANGE.0, RANGE.1));
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

    /// The upper bound with room for the rest of its uncertainty: a quarter more on one pair, a
    /// sixteenth on two, and always half a part in as many answers as it spans, for the request
    /// on either side whose order the server may have swapped with the newest.
    pub fn padded(&self) -> Option<f64> {
        let n = f64::from(self.pairs.max(1));
        let spread = 0.5 / self.marks.len().max(1) as f64;
        self.upper.map(|k| k * (1.0 + 0.25 / (n * n) + spread))
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
            k = l.observe((at, at), 100.0 * f64::from(i + 1), level, 1_000.0);
        }
        let k = k.unwrap();
        assert!((3.0..3.2).contains(&k), "{k}");
        assert!((l.scale().unwrap() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn requests_reaching_the_server_late_are_not_learnt_as_cheaper_than_they_are() {
        // 100 estimated tokens a request, charged 300, sent every 100 ms, the bucket refilling
        // 1,000 a second. The first request reaches the server at once; every later one 300 ms
        // after it was sent (a loaded machine), its answer 300 ms after that. Crediting the
        // refill by send times alone misses 300 tokens of it: 3 - 3 / i per estimated token.
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut l = Learner::default();
        for i in 0..20u64 {
            let delay = if i == 0 { 0 } else { 300 };
            let admitted = 100 * i + delay;
            let level = 40_000.0 + admitted as f64 - 300.0 * (i + 1) as f64;
            let k = l.observe(
                (ms(100 * i), ms(admitted + 300)),
                100.0 * (i + 1) as f64,
                level,
                1_000.0,
            );
            // The first pair (i = 1) shows no charge at all by send times, and is let go.
            if i > 1 {
                let k = k.unwrap();
                assert!(
                    k >= 3.0,
                    "after {} pairs admitted by {k}, under the charge of 3",
                    i
                );
            }
        }
        let central = l.scale().unwrap();
        assert!((2.8..3.0).contains(&central), "{central}");
        // The bound falls as the pair spans more: within a quarter of the charge by 20 answers.
        assert!(l.padded().unwrap() < 3.75, "{:?}", l.padded());
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
            let at = t0 + Duration::from_millis(i as u64);
            let _ = l.observe((at, at), sent, level, 0.0);
        }
        let k = l.scale().unwrap();
        assert!((k - 0.5).abs() < 1e-9, "{k}");
    }
}
