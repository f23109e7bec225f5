//! What a provider's answer headers say about its limits and waits: OpenAI's `x-ratelimit-*`
//! (resets as Go durations), Anthropic's `anthropic-ratelimit-*` (resets as RFC 3339 times),
//! `retry-after` (seconds or an HTTP date) and `retry-after-ms`, read with jiff. Every value is
//! data from a server that may be broken or hostile: a count that is negative, not finite or
//! absurdly large, a duration or time that does not parse, is ignored; a wait is capped. No
//! header value can panic the reader.

use jiff::{SignedDuration, Timestamp};
use reqwest::header::HeaderMap;
use std::time::{Duration, Instant};

/// The largest token or request count believed: more is a broken header, ignored.
const MAX_COUNT: f64 = 1e12;
/// The longest reset believed (a day); a longer one is read as this.
const MAX_RESET: Duration = Duration::from_secs(86_400);
/// The longest `retry-after` honoured; a server asking for more gets this.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);

/// What one answer said about one bucket.
#[derive(Debug, Clone, Copy, Default)]
pub struct Announced {
    pub limit: Option<f64>,
    pub remaining: Option<f64>,
    /// Time until the bucket is full again, measured from when the request was sent.
    pub reset: Option<Duration>,
}

fn text<'h>(h: &'h HeaderMap, name: &str) -> Option<&'h str> {
    h.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

/// A count as a header gives it: finite, not negative, not absurd.
fn count(v: &str) -> Option<f64> {
    let n = v.parse::<f64>().ok()?;
    (n.is_finite() && (0.0..=MAX_COUNT).contains(&n)).then_some(n)
}

/// The token and request figures of an answer's headers, either family.
pub fn read_headers(h: &HeaderMap, sent_at: Instant) -> (Announced, Announced) {
    let num = |name: &str| text(h, name).and_then(count);
    let openai = |kind: &str| Announced {
        limit: num(&format!("x-ratelimit-limit-{kind}")),
        remaining: num(&format!("x-ratelimit-remaining-{kind}")),
        reset: text(h, &format!("x-ratelimit-reset-{kind}")).and_then(parse_go_duration),
    };
    let anthropic = |kind: &str| Announced {
        limit: num(&format!("anthropic-ratelimit-{kind}-limit")),
        remaining: num(&format!("anthropic-ratelimit-{kind}-remaining")),
        reset: text(h, &format!("anthropic-ratelimit-{kind}-reset"))
            .and_then(parse_rfc3339)
            // From when the request was sent: a reset that comes with a late answer is not
            // read as a faster refill.
            .map(|at| (until(at) + sent_at.elapsed()).min(MAX_RESET)),
    };
    let pick = |a: Announced, b: Announced| if a.limit.is_some() { a } else { b };
    let tokens = pick(
        openai("tokens"),
        pick(anthropic("tokens"), anthropic("input-tokens")),
    );
    let requests = pick(openai("requests"), anthropic("requests"));
    (tokens, requests)
}

/// A Go duration as OpenAI's reset headers print one (`1s`, `250ms`, `6m0s`, `1h2m3.5s`), at
/// most a day; a negative or unreadable one is none.
pub fn parse_go_duration(v: &str) -> Option<Duration> {
    let d = v.trim().parse::<SignedDuration>().ok()?;
    Duration::try_from(d).ok().map(|d| d.min(MAX_RESET))
}

/// An RFC 3339 time (`2026-12-01T15:32:00Z`, fractions and offsets allowed).
pub fn parse_rfc3339(v: &str) -> Option<Timestamp> {
    v.trim().parse::<Timestamp>().ok()
}

/// From now until `at`: zero when it has passed.
fn until(at: Timestamp) -> Duration {
    Duration::try_from(at.duration_since(Timestamp::now())).unwrap_or(Duration::ZERO)
}

/// Seconds as a wait: finite and not negative, else none; at most [`MAX_RETRY_AFTER`].
fn wait_secs(secs: f64) -> Option<Duration> {
    if !(secs.is_finite() && secs >= 0.0) {
        return None;
    }
    Duration::try_from_secs_f64(secs.min(MAX_RETRY_AFTER.as_secs_f64())).ok()
}

/// `retry-after` as seconds or an HTTP date (a date passed is a wait of zero), capped.
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(secs) = v.parse::<f64>() {
        return wait_secs(secs);
    }
    // Read as a civil time in UTC, which reaches the last second of 9999 (a timestamp stops
    // short of it, leaving room for any offset).
    let at = jiff::civil::DateTime::strptime("%a, %d %b %Y %H:%M:%S GMT", v).ok()?;
    let now = jiff::tz::Offset::UTC.to_datetime(Timestamp::now());
    let wait = Duration::try_from(at.duration_since(now)).unwrap_or(Duration::ZERO);
    Some(wait.min(MAX_RETRY_AFTER))
}

/// The wait an answer asks for: `retry-after-ms` to the millisecond, else `retry-after` in
/// seconds or as an HTTP date; capped at [`MAX_RETRY_AFTER`], none when neither reads.
pub fn retry_after(h: &HeaderMap) -> Option<Duration> {
    text(h, "retry-after-ms")
        .and_then(|v| v.parse::<f64>().ok())
        .and_then(|ms| wait_secs(ms / 1000.0))
        .or_else(|| text(h, "retry-after").and_then(parse_retry_after))
}
