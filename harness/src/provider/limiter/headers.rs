//! What the providers' rate-limit headers say: OpenAI's `x-ratelimit-*` (resets as Go
//! durations) and Anthropic's `anthropic-ratelimit-*` (resets as RFC 3339 times), read into one
//! [`Announced`] per bucket.

use reqwest::header::HeaderMap;
use std::time::{Duration, Instant, SystemTime};

/// What one answer said about one bucket.
#[derive(Debug, Clone, Copy, Default)]
pub struct Announced {
    pub limit: Option<f64>,
    pub remaining: Option<f64>,
    /// Time until the bucket is full again, measured from when the request was sent.
    pub reset: Option<Duration>,
}

/// The token and request figures of an answer's headers, either family.
pub fn read_headers(h: &HeaderMap, sent_at: Instant) -> (Announced, Announced) {
    let text = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let num = |name: &str| text(name).and_then(|v| v.parse::<f64>().ok());
    let openai = |kind: &str| Announced {
        limit: num(&format!("x-ratelimit-limit-{kind}")),
        remaining: num(&format!("x-ratelimit-remaining-{kind}")),
        reset: text(&format!("x-ratelimit-reset-{kind}")).and_then(parse_go_duration),
    };
    let anthropic = |kind: &str| Announced {
        limit: num(&format!("anthropic-ratelimit-{kind}-limit")),
        remaining: num(&format!("anthropic-ratelimit-{kind}-remaining")),
        reset: text(&format!("anthropic-ratelimit-{kind}-reset"))
            .and_then(parse_rfc3339)
            .map(|at| {
                // From when the request was sent: a reset that comes with a late answer is not
                // read as a faster refill.
                let from_now = at.duration_since(SystemTime::now()).unwrap_or_default();
                from_now + sent_at.elapsed()
            }),
    };
    let pick = |a: Announced, b: Announced| if a.limit.is_some() { a } else { b };
    let tokens = pick(
        openai("tokens"),
        pick(anthropic("tokens"), anthropic("input-tokens")),
    );
    let requests = pick(openai("requests"), anthropic("requests"));
    (tokens, requests)
}

/// A Go duration as OpenAI's reset headers print one: `1s`, `250ms`, `6m0s`, `1h2m3.5s`.
pub fn parse_go_duration(v: &str) -> Option<Duration> {
    let mut rest = v.trim();
    if rest.is_empty() {
        return None;
    }
    let mut secs = 0.0f64;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let n: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let per = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        secs += n * per;
        rest = &rest[unit_len..];
    }
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

/// An RFC 3339 time (`2026-12-01T15:32:00Z`, fractions and offsets allowed).
pub fn parse_rfc3339(v: &str) -> Option<SystemTime> {
    let v = v.trim();
    let (date, time) = v.split_once(['T', 't', ' '])?;
    let mut d = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let (clock, offset) = match time.find(['Z', 'z', '+', '-']) {
        Some(i) => time.split_at(i),
        None => return None,
    };
    let mut c = clock.splitn(3, ':');
    let (hh, mm): (i64, i64) = (c.next()?.parse().ok()?, c.next()?.parse().ok()?);
    let ss: f64 = c.next()?.parse().ok()?;
    let off = match offset {
        "Z" | "z" => 0,
        o => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let (oh, om) = o[1..].split_once(':')?;
            sign * (oh.parse::<i64>().ok()? * 3600 + om.parse::<i64>().ok()? * 60)
        }
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let secs = days_from_civil(y, m, day) * 86_400 + hh * 3600 + mm * 60 - off;
    let t = SystemTime::UNIX_EPOCH
        .checked_add(Duration::from_secs(u64::try_from(secs).ok()?))?
        .checked_add(Duration::from_secs_f64(ss.clamp(0.0, 61.0)))?;
    Some(t)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}
