//! One account's rate limits: a token bucket and a request bucket per (`base_url`,
//! `api_key_env`, model id), shared by every model entry that calls the same model with the same
//! key. Seeded from the manifest (`tpm`, `rpm`, `requests_per_minute`), corrected from every
//! answer's rate-limit headers (OpenAI's `x-ratelimit-*`, Anthropic's `anthropic-ratelimit-*`),
//! it admits a request only when its estimated cost fits, and otherwise says exactly how long the
//! bucket needs. It also holds the account's concurrency (AIMD: halved on a 429 or 529, one more
//! per window of clean answers, never above the entries' `max_concurrency`), and counts the
//! time spent waiting and the 429s seen, for the run's closing lines and run.json.
//!
//! With no limit known (no seed, no header yet) admission is one uncontended lock and a few
//! comparisons: a run far from its limits pays nothing.

use crate::suite::manifest::ModelEntry;
use reqwest::header::HeaderMap;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Why a request was not admitted.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The request's cost is more than the bucket can ever hold: waiting cannot help.
    TooLarge { limit: u64, cost: u64 },
    /// The request would have to wait past its deadline.
    Deadline,
}

/// A bucket refilled continuously at `rate` a second up to `capacity`.
#[derive(Debug, Clone)]
struct Bucket {
    capacity: f64,
    rate: f64,
    level: f64,
    at: Instant,
    /// Set from an answer's headers (not only a seed).
    announced: bool,
    /// An answer showed at least half the announced limit left: the limit is the bucket's
    /// depth, and a reset tells its refill. Until then the limit is a minute's, refilled at
    /// a sixtieth a second as the APIs document (a bucket shallower than its limit makes a
    /// reset time say a much faster refill than it has).
    deep: bool,
}

impl Bucket {
    /// A bucket seeded from the manifest, `capacity` deep until an answer says its burst.
    fn seeded(per_minute: f64, capacity: f64, now: Instant) -> Bucket {
        let rate = per_minute / 60.0;
        Bucket {
            capacity,
            rate,
            level: capacity,
            at: now,
            announced: false,
            deep: false,
        }
    }
    fn refill(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.level = (self.level + dt * self.rate).min(self.capacity);
        self.at = now;
    }
    /// How long until `cost` fits; zero when it does now.
    fn need(&self, cost: f64) -> Duration {
        if self.level >= cost {
            return Duration::ZERO;
        }
        if self.rate <= 0.0 {
            return Duration::from_secs(60);
        }
        capped_secs((cost - self.level) / self.rate, 3600.0)
    }
}

#[derive(Debug)]
struct State {
    tokens: Option<Bucket>,
    requests: Option<Bucket>,
    /// Server charge per estimated token: learnt from successive answers' remaining counts
    /// ([`learn::Learner`], its upper bound), never below the latest answers' usage; without
    /// counts, raised by any answer whose usage shows a dearer prompt
    /// ([`Limiter::learn_usage`]).
    scale: f64,
    learner: learn::Learner,
    /// What the latest answers' usage said their requests were, per estimated token: the
    /// learnt scale is never below the dearest of them (the remaining counts teach a charge
    /// over many requests, and while few back it, or their order at the server is unsure, it
    /// can fall short of what a single request is seen to cost).
    usage: std::collections::VecDeque<f64>,
    /// Answers that said the token count: until two have, one request at a time.
    counted: u32,
    learnt: bool,
    /// Estimated tokens sent so far, before any scale.
    estimated: f64,
    /// Estimated tokens admitted so far (what was sent after a request, when its answer comes).
    sent_tokens: f64,
    sent_requests: f64,
    in_flight: usize,
    /// Estimated tokens of the requests in flight.
    open_tokens: f64,
    /// AIMD concurrency window and its ceiling.
    window: usize,
    ceiling: usize,
    clean: usize,
    /// A `retry-after` or backoff: nothing is sent before it.
    paused_until: Option<Instant>,
    /// Requests waiting now, and since when someone has been waiting.
    waiters: usize,
    waiting_since: Option<Instant>,
    waited: Duration,
    throttled: u64,
}

/// The figures a run reports per account.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// Wall time during which at least one request waited on this account's limits.
    pub waited: Duration,
    /// 429 (and 529) answers seen.
    pub throttled: u64,
    /// Tokens and requests per minute as last known, if any.
    pub tpm: Option<f64>,
    pub rpm: Option<f64>,
    /// The token bucket's burst as last known.
    pub token_burst: Option<f64>,
    /// What the provider charged a request on average, learnt from its answers' counts, and
    /// the harness's estimate of it: (charged, estimated) tokens.
    pub charged: Option<(f64, f64)>,
}

pub struct Limiter {
    /// "model-id at host ($KEY_VAR)".
    pub account: String,
    /// The account's key was accepted once (by any entry that shares it).
    confirmed: std::sync::atomic::AtomicBool,
    state: Mutex<State>,
    changed: tokio::sync::Notify,
}

/// An admitted request: release it with [`Limiter::answered`] (or drop it, when it never got an
/// answer).
pub struct Ticket {
    limiter: Arc<Limiter>,
    cost: f64,
    sent_at: Instant,
    sent_tokens: f64,
    sent_requests: f64,
    /// Estimated tokens sent up to and with this request, before any scale.
    estimated: f64,
    /// Tokens and requests in flight when this one was sent: the server may admit any of them
    /// after this one, so its answer's remaining count need not include them.
    open_before: (f64, f64),
    charged: f64,
    open: bool,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.open {
            self.limiter.release(self.charged, false);
        }
    }
}

type Registry = Mutex<HashMap<String, Weak<Limiter>>>;

fn registry() -> &'static Registry {
    static R: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    R.get_or_init(Default::default)
}

impl Limiter {
    /// The limiter of `model`'s account: the one already made for the same `base_url`, key
    /// variable and model id, else a new one. Each entry's seeds and concurrency join it.
    pub fn for_account(model: &ModelEntry) -> Arc<Limiter> {
        let base = model.base_url.as_deref().unwrap_or_default();
        let key_var = model.api_key_env.as_deref().unwrap_or_default();
        let key = format!("{base}\u{0}{key_var}\u{0}{}", model.model);
        let mut all = registry().lock().unwrap_or_else(|p| p.into_inner());
        all.retain(|_, w| w.strong_count() > 0);
        let limiter = match all.get(&key).and_then(Weak::upgrade) {
            Some(l) => {
                l.join(model, false);
                l
            }
            None => {
                let host = reqwest::Url::parse(base)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_string))
                    .unwrap_or_else(|| default_host(model).to_string());
                let l = Arc::new(Limiter::new(format!(
                    "{} at {host} (${key_var})",
                    model.model
                )));
                l.join(model, true);
                all.insert(key, Arc::downgrade(&l));
                l
            }
        };
        limiter
    }

    pub fn new(account: String) -> Limiter {
        Limiter {
            account,
            confirmed: std::sync::atomic::AtomicBool::new(false),
            state: Mutex::new(State {
                tokens: None,
                requests: None,
                scale: 1.0,
                learner: learn::Learner::default(),
                usage: std::collections::VecDeque::new(),
                counted: 0,
                learnt: false,
                estimated: 0.0,
                sent_tokens: 0.0,
                sent_requests: 0.0,
                in_flight: 0,
                open_tokens: 0.0,
                window: 0,
                ceiling: 0,
                clean: 0,
                paused_until: None,
                waiters: 0,
                waiting_since: None,
                waited: Duration::ZERO,
                throttled: 0,
            }),
            changed: tokio::sync::Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a 429 has narrowed the concurrency window below the entries' ceiling.
    fn window_halved(&self) -> bool {
        let s = self.lock();
        s.window < s.ceiling
    }

    /// An entry joins: its concurrency adds to the ceiling (each entry keeps its own
    /// `max_concurrency` too), and its seeds apply where none is set yet.
    fn join(&self, model: &ModelEntry, first: bool) {
        let now = Instant::now();
        let mut s = self.lock();
        if first || s.ceiling == 0 {
            s.ceiling = model.max_concurrency;
        } else {
            s.ceiling = s.ceiling.saturating_add(model.max_concurrency);
        }
        s.window = s.ceiling;
        let rpm = model.rpm.or(model.requests_per_minute.map(u64::from));
        // Before the provider says its bursts, assume one second's worth of tokens and one
        // request at a time (evenly spaced, as `requests_per_minute` always was): providers
        // may enforce a minute's limit over shorter windows.
        if let (None, Some(tpm)) = (&s.tokens, model.tpm) {
            s.tokens = Some(Bucket::seeded(
                tpm as f64,
                (tpm as f64 / 60.0).max(1.0),
                now,
            ));
        }
        if let (None, Some(rpm)) = (&s.requests, rpm) {
            s.requests = Some(Bucket::seeded(rpm as f64, 1.0, now));
        }
    }

    /// Admit a request of `cost` estimated tokens, waiting as long as the buckets, a
    /// `retry-after` or the concurrency window need, but never past `deadline`. `on_wait` is
    /// told once, before the first wait, how long the buckets need.
    pub async fn admit(
        self: &Arc<Self>,
        cost: u64,
        deadline: Instant,
        on_wait: &(dyn Fn(Duration) + Send + Sync),
    ) -> Result<Ticket, Refusal> {
        let mut told = false;
        let mut waiting = Waiting {
            limiter: self,
            on: false,
        };
        loop {
            let notified = self.changed.notified();
            let now = Instant::now();
            let wait = match self.try_admit(cost as f64, now) {
                Ok(ticket) => return Ok(ticket),
                Err(Err(refusal)) => return Err(refusal),
                Err(Ok(wait)) => wait,
            };
            if now + wait.unwrap_or_default() > deadline {
                tracing::debug!(account = %self.account, cost, "limiter: the wait would pass the deadline");
                return Err(Refusal::Deadline);
            }
            tracing::debug!(
                account = %self.account,
                cost,
                wait_ms = wait.map(|w| w.as_millis() as u64),
                why = if wait.is_some() { "buckets or pause" } else { "concurrency or the one-at-a-time start" },
                "limiter: waiting"
            );
            // A wait on a limit is a timed one (buckets, a pause) or a window a 429 halved: it
            // is counted and told. The one-at-a-time start before the first answer, or the
            // entries' own `max_concurrency`, is none (a server with no limits showed "~0.0s").
            if wait.is_some() || self.window_halved() {
                waiting.start();
                if !told {
                    told = true;
                    on_wait(wait.unwrap_or_default());
                }
            }
            match wait {
                Some(d) => {
                    tokio::select! {
                        _ = tokio::time::sleep(d) => {}
                        _ = notified => {}
                    }
                }
                None => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(deadline.into()) => return Err(Refusal::Deadline),
                        _ = notified => {}
                    }
                }
            }
        }
    }

    /// Admit now, or say how long to wait (`None`: until a request in flight ends), or refuse.
    #[allow(clippy::type_complexity)]
    fn try_admit(
        self: &Arc<Self>,
        cost: f64,
        now: Instant,
    ) -> Result<Ticket, Result<Option<Duration>, Refusal>> {
        let mut s = self.lock();
        let s = &mut *s;
        let charged = cost * s.scale;
        if let Some(b) = s
            .tokens
            .as_ref()
            .filter(|b| b.announced && charged > b.capacity)
        {
            return Err(Err(Refusal::TooLarge {
                limit: b.capacity as u64,
                cost: charged.ceil() as u64,
            }));
        }
        if let Some(until) = s.paused_until {
            if until > now {
                return Err(Ok(Some(until - now)));
            }
            s.paused_until = None;
        }
        // Until the account's first answer, one request at a time across all its entries: that
        // answer's headers say the limits, and what a lone request cost calibrates estimates.
        if s.window > 0 && s.in_flight >= s.window || !s.learnt && s.in_flight > 0 {
            return Err(Ok(None));
        }
        let wait = s.bucket_wait(charged, now);
        if !wait.is_zero() {
            return Err(Ok(Some(wait)));
        }
        if let Some(b) = s.tokens.as_mut() {
            b.level -= charged;
        }
        if let Some(b) = s.requests.as_mut() {
            b.level -= 1.0;
        }
        let open_before = (s.open_tokens, s.in_flight as f64);
        s.sent_tokens += charged;
        s.sent_requests += 1.0;
        s.estimated += cost;
        s.in_flight += 1;
        s.open_tokens += charged;
        Ok(Ticket {
            limiter: self.clone(),
            cost,
            sent_at: now,
            sent_tokens: s.sent_tokens,
            sent_requests: s.sent_requests,
            estimated: s.estimated,
            open_before,
            charged,
            open: true,
        })
    }

    fn release(&self, charged: f64, clean: bool) {
        let mut s = self.lock();
        s.in_flight = s.in_flight.saturating_sub(1);
        s.open_tokens = (s.open_tokens - charged).max(0.0);
        if clean && s.window < s.ceiling {
            s.clean += 1;
            if s.clean >= s.window {
                s.window += 1;
                s.clean = 0;
            }
        }
        drop(s);
        self.changed.notify_waiters();
    }

    /// An answer came for `ticket`: correct the buckets from its headers, and, for a 429 or
    /// 529, count it, halve the concurrency and pause the account for `pause`.
    pub fn answered(
        &self,
        mut ticket: Ticket,
        headers: &HeaderMap,
        limited: bool,
        pause: Duration,
    ) {
        ticket.open = false;
        let now = Instant::now();
        let (tokens, requests) = read_headers(headers, ticket.sent_at);
        {
            let mut s = self.lock();
            let s = &mut *s;
            let scale = s.scale;
            let after = (
                s.sent_tokens - ticket.sent_tokens,
                s.sent_requests - ticket.sent_requests,
            );
            correct(
                &mut s.tokens,
                tokens,
                (after.0, ticket.open_before.0),
                &ticket,
                now,
            );
            correct(
                &mut s.requests,
                requests,
                (after.1, ticket.open_before.1),
                &ticket,
                now,
            );
            if limited {
                s.learner.refused(ticket.estimated, ticket.cost);
            } else {
                s.learn(&ticket, tokens, now);
            }
            if limited {
                s.throttled += 1;
                s.window = (s.window / 2).max(1);
                tracing::debug!(account = %self.account, window = s.window, pause_ms = pause.as_millis() as u64, "limiter: 429 halves the window and pauses");
                s.clean = 0;
                let until = now + pause;
                s.paused_until = Some(s.paused_until.map_or(until, |p| p.max(until)));
                // The refused request was not charged (headers, when given, already said so).
                if let (Some(b), None) = (s.tokens.as_mut(), tokens.remaining) {
                    b.level = (b.level + ticket.cost * scale).min(b.capacity);
                }
            }
        }
        self.release(ticket.charged, !limited);
    }

    /// An answer's usage says what its request's prompt really was: where that, with the
    /// request's max tokens, is more than its estimate (`cost`) times the scale, the scale
    /// rises to it. The first answer's calibration holds for requests like the first; prompts
    /// of other kinds (more tools, more code) may run dearer, and an estimate that
    /// undercounts them would send requests to be refused. Once remaining counts teach the
    /// scale, the latest answers' usage floors it (`State::usage`).
    pub fn learn_usage(&self, cost: u64, request: &serde_json::Value, answer: &serde_json::Value) {
        let usage = Answered::deserialize(answer).unwrap_or_default().usage;
        let prompt = match (usage.prompt_tokens, usage.input_tokens) {
            (Some(p), _) => p,
            // Anthropic's input limit counts uncached input and cache writes.
            (None, Some(i)) => i.saturating_add(usage.cache_creation_input_tokens.unwrap_or(0)),
            (None, None) => return,
        };
        let max = CostFields::deserialize(request)
            .map(|f| f.max_tokens())
            .unwrap_or(0);
        if cost == 0 {
            return;
        }
        let ratio = (prompt.saturating_add(max)) as f64 / cost as f64;
        if !(ratio.is_finite() && ratio > 0.0) {
            return;
        }
        let ratio = ratio.min(50.0);
        let mut s = self.lock();
        s.usage.push_back(ratio);
        if s.usage.len() > USAGE_KEPT {
            s.usage.pop_front();
        }
        if s.learner.scale().is_none() || ratio > s.scale {
            s.scale = s.scale.max(ratio);
        }
    }

    /// The account's figures so far (a wait still going counts up to now).
    pub fn figures(&self) -> Figures {
        let s = self.lock();
        let ongoing = s.waiting_since.map_or(Duration::ZERO, |t| t.elapsed());
        Figures {
            waited: s.waited + ongoing,
            throttled: s.throttled,
            tpm: s.tokens.as_ref().map(|b| b.rate * 60.0),
            rpm: s.requests.as_ref().map(|b| b.rate * 60.0),
            token_burst: s.tokens.as_ref().map(|b| b.capacity),
            charged: s
                .learner
                .scale()
                .filter(|_| s.sent_requests > 0.0)
                .map(|k| {
                    let estimated = s.estimated / s.sent_requests;
                    (k * estimated, estimated)
                }),
        }
    }

    /// The key answered a request: every entry of the account may stop sending one at a time.
    pub fn confirm(&self) {
        self.confirmed
            .store(true, std::sync::atomic::Ordering::Release);
    }

    pub fn confirmed(&self) -> bool {
        self.confirmed.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Whether some request is waiting on this account's limits now.
    pub fn waiting(&self) -> bool {
        self.lock().waiters > 0
    }
}

impl State {
    /// How long until the buckets, refilled to `now`, hold a request charged `charged` tokens.
    fn bucket_wait(&mut self, charged: f64, now: Instant) -> Duration {
        let mut wait = Duration::ZERO;
        if let Some(b) = self.tokens.as_mut() {
            b.refill(now);
            // A seeded bucket smaller than a request lets it go when full: the answer's
            // headers then say the real burst.
            wait = wait.max(b.need(charged.min(b.capacity)));
        }
        if let Some(b) = self.requests.as_mut() {
            b.refill(now);
            wait = wait.max(b.need(1.0f64.min(b.capacity)));
        }
        wait
    }

    /// A clean answer: its token count teaches the learner what the provider charges per
    /// estimated token, and two such answers end the one-at-a-time start (the first pair gives
    /// the first estimate). An answer without a token count ends the start at once: there is
    /// nothing to learn, and 429s teach the backoff.
    fn learn(&mut self, t: &Ticket, tokens: Announced, now: Instant) {
        let (Some(limit), Some(remaining)) = (tokens.limit, tokens.remaining) else {
            self.learnt = true;
            return;
        };
        self.counted += 1;
        self.learnt |= self.counted >= 2;
        let rate = self.tokens.as_ref().map_or(limit / 60.0, |b| b.rate);
        let remaining = remaining.min(limit);
        if let Some(k) = self
            .learner
            .observe((t.sent_at, now), t.estimated, remaining, rate)
        {
            self.scale = self.usage.iter().fold(k, |a, b| a.max(*b));
        }
    }
}

/// Counts a request as waiting while it lives (so a cancelled wait stops counting).
struct Waiting<'a> {
    limiter: &'a Limiter,
    on: bool,
}

impl Waiting<'_> {
    fn start(&mut self) {
        if self.on {
            return;
        }
        self.on = true;
        let mut s = self.limiter.lock();
        s.waiters += 1;
        if s.waiters == 1 {
            s.waiting_since = Some(Instant::now());
        }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.on {
            return;
        }
        let mut s = self.limiter.lock();
        s.waiters -= 1;
        if s.waiters == 0 {
            if let Some(t) = s.waiting_since.take() {
                s.waited += t.elapsed();
            }
        }
    }
}

/// Set a bucket from what an answer announced. Its limit is the capacity; the time to refill
/// tells the rate (the fastest seen: rounded-up resets only ever understate it). The remaining
/// count was read when the server admitted the request, at some moment between its sending
/// and now, and requests reach the server in no fixed order, so it bounds the level now
/// (`sent` = (tokens sent after this request, tokens in flight when it was sent)):
/// - at least the count less everything it may not include yet (sent after this request, or
///   in flight when it was sent), with nothing refilled since;
/// - at most the count refilled since the request was sent.
///
/// The running estimate (the limiter's own sends and refills) is kept while it lies between
/// the two and moved to the nearer one where it does not: an answer that cannot tell which of
/// the requests around it the server saw first neither stalls the account nor lets it
/// overspend, and one that shows less left than counted (another client on the key, a request
/// dearer than estimated) lowers the count.
/// A missing header leaves the estimate alone.
fn correct(bucket: &mut Option<Bucket>, a: Announced, sent: (f64, f64), t: &Ticket, now: Instant) {
    let (Some(limit), Some(remaining)) = (a.limit, a.remaining) else {
        return;
    };
    if !(limit > 0.0 && limit.is_finite() && remaining.is_finite()) {
        return;
    }
    let remaining = remaining.clamp(0.0, limit);
    let lowest = remaining - sent.0 - sent.1;
    let b = bucket.get_or_insert_with(|| Bucket {
        capacity: limit,
        rate: limit / 60.0,
        level: lowest,
        at: now,
        announced: true,
        deep: false,
    });
    b.refill(now);
    // A bucket only seeded from the manifest was counted at a guessed burst and cost: the
    // first answer's count replaces it.
    let seeded = !b.announced;
    b.capacity = limit;
    b.announced = true;
    b.deep |= remaining >= limit / 2.0;
    if !b.deep {
        b.rate = limit / 60.0;
    } else if let Some(reset) = a.reset.filter(|r| !r.is_zero()) {
        if remaining < limit {
            // A bucket refills in no less than a second: a reset of a few nanoseconds is
            // not read as a refill fast enough to send everything at once.
            let rate = ((limit - remaining) / reset.as_secs_f64()).min(limit);
            if rate.is_finite() && rate > 0.0 {
                b.rate = if b.rate > 0.0 { b.rate.max(rate) } else { rate };
            }
        }
    }
    let age = now.saturating_duration_since(t.sent_at).as_secs_f64();
    let highest = (remaining + age * b.rate).min(limit);
    b.level = if seeded {
        lowest
    } else {
        b.level.clamp(lowest, highest.max(lowest))
    };
    b.at = now;
}

/// Answers whose usage floors the learnt scale: the latest few, so the floor falls when the
/// prompts get cheaper.
const USAGE_KEPT: usize = 16;

fn default_host(model: &ModelEntry) -> &'static str {
    match model.provider {
        crate::suite::manifest::ProviderKind::Anthropic => "api.anthropic.com",
        _ => "api.openai.com",
    }
}

/// `secs` as a wait, at most `max` seconds; one that is not a number waits the most.
fn capped_secs(secs: f64, max: f64) -> Duration {
    let secs = if secs.is_nan() {
        max
    } else {
        secs.clamp(0.0, max)
    };
    Duration::from_secs_f64(secs)
}

mod cost;
pub mod headers;
mod learn;
pub use cost::estimate_cost;
use cost::{Answered, CostFields};
pub use headers::{parse_go_duration, parse_rfc3339, read_headers, Announced};

#[cfg(test)]
mod tests;
