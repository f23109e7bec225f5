//! HTTP calls to model APIs: per-request timeout, retries with exponential backoff and jitter on
//! 429, 5xx (529 included), connection errors and timeouts, `retry-after` honoured (seconds or
//! HTTP date), and an optional requests-per-minute limit. The API key never appears in an error,
//! and goes only where `base_url` points: no redirect is followed, and unless the model allows
//! private networks a name that resolves to a metadata, link-local or private address is refused.

use super::{ProviderError, Transient};
use crate::suite::manifest::ModelEntry;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::Mutex;

/// The longest `retry-after` honoured; a server asking for more gets this.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// A retry about to happen, for the progress display.
#[derive(Debug, Clone)]
pub struct RetryNotice {
    /// The attempt that failed, from 1.
    pub attempt: u32,
    pub reason: String,
    pub wait: Duration,
}

/// A successful call: the JSON body and what it took.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    pub body: Value,
    pub attempts: u32,
    pub request_id: Option<String>,
}

pub struct HttpCaller {
    client: reqwest::Client,
    key: String,
    max_attempts: u32,
    retry_base: Duration,
    /// Earliest time of the next request under the requests-per-minute limit.
    next_slot: Option<(Mutex<Instant>, Duration)>,
    jitter_state: AtomicU64,
    /// The key was accepted once: requests need not wait for the first answer any more.
    key_confirmed: std::sync::atomic::AtomicBool,
    /// The API refused the key (401/403): every later request of this model fails at once.
    auth_failed: std::sync::OnceLock<ProviderError>,
    /// Until the key is confirmed, one request at a time: a wrong key costs one request, not
    /// one per episode.
    first: Mutex<()>,
    /// Named in the authentication error.
    model_name: String,
    key_var: String,
}

impl HttpCaller {
    pub fn new(model: &ModelEntry, key: String) -> Result<HttpCaller, crate::error::Error> {
        let mut builder = reqwest::Client::builder()
            .timeout(Duration::from_secs(model.timeout_secs))
            .connect_timeout(Duration::from_secs(model.timeout_secs.min(30)))
            // A redirect would carry the key's header to wherever the server says (reqwest
            // strips `authorization` on a change of host, never `x-api-key`).
            .redirect(reqwest::redirect::Policy::none());
        // No proxy from the environment (a `.env` or a CI step's HTTP_PROXY would receive the
        // key's header); only the one the manifest names for this model.
        builder = match model.proxy.as_deref() {
            None => builder.no_proxy(),
            Some(p) => builder
                .no_proxy()
                .proxy(reqwest::Proxy::all(p).map_err(|e| {
                    crate::error::Error::input(format!("model {}: proxy: {e}", model.name()))
                })?),
        };
        let host = model
            .base_url
            .as_deref()
            .and_then(|u| reqwest::Url::parse(u).ok())
            .and_then(|u| u.host_str().map(str::to_string));
        if let (false, Some(host)) = (model.allow_private_network, host) {
            builder = builder.dns_resolver(std::sync::Arc::new(PublicOnly { host }));
        }
        let client = builder
            .build()
            .map_err(|e| crate::error::Error::Internal(format!("HTTP client: {e}")))?;
        Ok(HttpCaller {
            client,
            key,
            max_attempts: model.max_attempts,
            retry_base: Duration::from_millis(model.retry_base_ms),
            next_slot: model.requests_per_minute.map(|rpm| {
                (
                    Mutex::new(Instant::now()),
                    Duration::from_secs_f64(60.0 / rpm as f64),
                )
            }),
            jitter_state: AtomicU64::new(
                0x9E37_79B9_7F4A_7C15
                    ^ SystemTime::now()
                        .duration_since(SystemTime::UNIX_EPOCH)
                        .map_or(1, |d| d.as_nanos() as u64),
            ),
            key_confirmed: std::sync::atomic::AtomicBool::new(false),
            auth_failed: std::sync::OnceLock::new(),
            first: Mutex::new(()),
            model_name: model.name().to_string(),
            key_var: model.api_key_env.clone().unwrap_or_default(),
        })
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    /// Text safe to record: this key and every other configured one are masked.
    pub fn redact(&self, text: &str) -> String {
        let masked = crate::output::secrets::redact(text);
        if self.key.is_empty() {
            masked
        } else {
            masked.replace(&self.key, crate::output::secrets::MASK)
        }
    }

    /// An error body for the record: masked first, then cut, so a cut never halves a key.
    fn excerpt(&self, text: &str) -> String {
        let clean = self.redact(text);
        let short: String = clean.chars().take(300).collect();
        let more = if clean.chars().count() > 300 {
            "…"
        } else {
            ""
        };
        format!("{short}{more}")
    }

    /// A random fraction in [0, 1) for jitter (xorshift; quality is not a concern here).
    fn jitter(&self) -> f64 {
        let mut x = self.jitter_state.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.jitter_state.store(x, Ordering::Relaxed);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let full = self
            .retry_base
            .saturating_mul(1 << (attempt - 1).min(16))
            .min(MAX_BACKOFF);
        // "Equal jitter": half fixed, half random, so retries spread out but never hammer.
        full / 2 + full.mul_f64(self.jitter() / 2.0)
    }

    async fn wait_for_slot(&self) {
        if let Some((next, gap)) = &self.next_slot {
            let mut next = next.lock().await;
            let now = Instant::now();
            let at = (*next).max(now);
            *next = at + *gap;
            drop(next);
            tokio::time::sleep_until(at.into()).await;
        }
    }

    /// POST a JSON body, retrying what is worth retrying. A refused key stops this model: the
    /// first 401 or 403 fails every later request at once, without sending it.
    pub async fn post_json(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &Value,
        on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
    ) -> Result<CallOutcome, ProviderError> {
        if let Some(refused) = self.auth_failed.get() {
            return Err(refused.clone());
        }
        if self.key_confirmed.load(Ordering::Acquire) {
            return self.post_json_inner(url, headers, body, on_retry).await;
        }
        let first = self.first.lock().await;
        if let Some(refused) = self.auth_failed.get() {
            return Err(refused.clone());
        }
        // Requests that queued behind the first one go together once it confirmed the key,
        // instead of one at a time behind the lock.
        if self.key_confirmed.load(Ordering::Acquire) {
            drop(first);
            return self.post_json_inner(url, headers, body, on_retry).await;
        }
        let out = self.post_json_inner(url, headers, body, on_retry).await;
        if out.is_ok() {
            self.key_confirmed.store(true, Ordering::Release);
        }
        out
    }

    async fn post_json_inner(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &Value,
        on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
    ) -> Result<CallOutcome, ProviderError> {
        let mut attempt = 1;
        loop {
            self.wait_for_slot().await;
            let mut req = self.client.post(url).json(body);
            for (k, v) in headers {
                req = req.header(*k, v);
            }
            let (why, retry_after) = match req.send().await {
                Ok(resp) => match self.answer(resp, attempt).await {
                    Attempt::Done(out) => return Ok(out),
                    Attempt::Fatal(e) => return Err(e),
                    Attempt::Retry(why, retry_after) => (why, retry_after),
                },
                Err(e) => (self.transport_failure(&e), None),
            };
            if attempt >= self.max_attempts {
                return Err(ProviderError::GaveUp {
                    attempts: self.max_attempts,
                    last: why,
                });
            }
            self.pause(attempt, &why, retry_after, on_retry).await;
            attempt += 1;
        }
    }

    /// What a server's answer to attempt number `attempt` comes to.
    async fn answer(&self, resp: reqwest::Response, attempt: u32) -> Attempt {
        let status = resp.status().as_u16();
        let header = |name: &str| resp.headers().get(name);
        let request_id = ["x-request-id", "request-id"]
            .iter()
            .find_map(|h| header(h))
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let retry_after = header("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let location =
            header("location").map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let text = match resp.text().await {
            Ok(t) => t,
            Err(e) => {
                let detail = self.redact(&e.to_string());
                return Attempt::Retry(Transient::ReadBody { detail }, None);
            }
        };
        if (200..300).contains(&status) {
            return match serde_json::from_str::<Value>(&text) {
                Ok(body) => Attempt::Done(CallOutcome {
                    body,
                    attempts: attempt,
                    request_id,
                }),
                Err(e) => Attempt::Fatal(ProviderError::MalformedBody {
                    error: self.redact(&e.to_string()),
                    body: self.excerpt(&text),
                }),
            };
        }
        let body = self.excerpt(&text);
        let fatal = match status {
            401 | 403 => {
                let refused = ProviderError::Authentication {
                    model: self.model_name.clone(),
                    key_env: self.key_var.clone(),
                    status,
                    body,
                };
                let _ = self.auth_failed.set(refused.clone());
                refused
            }
            300..=399 => ProviderError::Redirect {
                status,
                location: location.map(|l| self.excerpt(&l)),
            },
            429 => return Attempt::Retry(Transient::RateLimited { body }, retry_after),
            500.. => return Attempt::Retry(Transient::ServerError { status, body }, retry_after),
            _ => ProviderError::Rejected { status, body },
        };
        Attempt::Fatal(fatal)
    }

    /// A request that got no answer: why, with the causes reqwest gives (a refused address, a
    /// TLS failure). reqwest's error text names the URL, never headers; redacted all the same.
    fn transport_failure(&self, e: &reqwest::Error) -> Transient {
        let mut why = e.to_string();
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            why.push_str(&format!(": {c}"));
            cause = c.source();
        }
        let detail = self.redact(&why);
        if e.is_timeout() {
            Transient::Timeout { detail }
        } else if e.is_connect() {
            Transient::Connect { detail }
        } else {
            Transient::Connection { detail }
        }
    }

    async fn pause(
        &self,
        attempt: u32,
        why: &Transient,
        retry_after: Option<Duration>,
        on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
    ) {
        let wait = retry_after.map_or_else(|| self.backoff(attempt), |r| r.min(MAX_RETRY_AFTER));
        on_retry(RetryNotice {
            attempt,
            reason: why.to_string(),
            wait,
        });
        tokio::time::sleep(wait).await;
    }
}

/// What one attempt came to.
enum Attempt {
    Done(CallOutcome),
    /// Sending it again cannot help.
    Fatal(ProviderError),
    /// Worth retrying, after the server's `retry-after` when it gave one.
    Retry(Transient, Option<Duration>),
}

/// POST `body` and parse the answer with `parse`; a body that does not parse is an error
/// carrying a short, key-free excerpt of it.
pub async fn call(
    http: &HttpCaller,
    url: &str,
    headers: &[(&str, String)],
    body: &Value,
    on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
    parse: fn(&Value) -> Result<super::ModelReply, String>,
) -> Result<super::ModelReply, ProviderError> {
    let out = http.post_json(url, headers, body, on_retry).await?;
    let mut reply = parse(&out.body).map_err(|e| ProviderError::UnexpectedReply {
        error: http.redact(&e),
        body: http.excerpt(&out.body.to_string()),
    })?;
    reply.attempts = out.attempts;
    reply.request_id = out.request_id.or(reply.request_id);
    // What the server says about the reply is printed (alias drift) and written: as untrusted
    // as the reply's text, which the episode masks. A finish reason either API names is a word
    // of the harness's own.
    let finish = match reply.finish_reason.as_mut() {
        Some(super::FinishReason::Other(v)) => Some(v),
        _ => None,
    };
    for field in [
        reply.model_reported.as_mut(),
        reply.request_id.as_mut(),
        reply.system_fingerprint.as_mut(),
        finish,
    ]
    .into_iter()
    .flatten()
    {
        *field = http.redact(field);
    }
    Ok(reply)
}

/// Name resolution for a model without `allow_private_network`: `base_url`'s host gets only
/// public and loopback addresses, so a name that points at a metadata service or a private
/// network gets no key. Other names (an HTTPS proxy's, set in the environment) resolve as usual.
struct PublicOnly {
    host: String,
}

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        let guarded = host.eq_ignore_ascii_case(self.host.trim_end_matches('.'))
            || host.eq_ignore_ascii_case(&self.host);
        Box::pin(async move {
            let all: Vec<std::net::SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if !guarded {
                let addrs: reqwest::dns::Addrs = Box::new(all.into_iter());
                return Ok(addrs);
            }
            let addrs: reqwest::dns::Addrs = Box::new(public_only(&host, all)?.into_iter());
            Ok(addrs)
        })
    }
}

/// The public and loopback addresses among those `host` resolved to; none is an error naming
/// why, and the fix.
fn public_only(
    host: &str,
    all: Vec<std::net::SocketAddr>,
) -> Result<Vec<std::net::SocketAddr>, String> {
    let (public, refused): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|a| crate::suite::manifest::private_address(a.ip()).is_none());
    match refused.first() {
        Some(a) if public.is_empty() => {
            let why = crate::suite::manifest::private_address(a.ip()).unwrap_or_default();
            Err(format!("{host} resolves to {}, {why}; the key is not sent there unless the model's entry sets allow_private_network = true", a.ip()))
        }
        _ => Ok(public),
    }
}

/// `retry-after` as seconds or an HTTP date.
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(secs) = v.parse::<f64>() {
        return (secs >= 0.0 && secs.is_finite()).then(|| Duration::from_secs_f64(secs));
    }
    let at = httpdate::parse_http_date(v).ok()?;
    Some(
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_resolving_only_to_metadata_or_private_addresses_is_refused() {
        let at = |ip: &str| std::net::SocketAddr::new(ip.parse().unwrap(), 0);
        let err = public_only("evil.example", vec![at("169.254.169.254")]).unwrap_err();
        assert!(
            err.contains("169.254.169.254") && err.contains("allow_private_network = true"),
            "{err}"
        );
        assert!(public_only("lan.example", vec![at("10.1.2.3"), at("fd00::1")]).is_err());
        // Mixed answers keep only what may get a key; loopback and public names pass.
        assert_eq!(
            public_only("mixed.example", vec![at("10.1.2.3"), at("93.184.216.34")]).unwrap(),
            vec![at("93.184.216.34")]
        );
        assert_eq!(
            public_only("localhost", vec![at("127.0.0.1"), at("::1")]).unwrap(),
            vec![at("127.0.0.1"), at("::1")]
        );
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        let soon = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        let d = parse_retry_after(&soon).unwrap();
        assert!(
            d > Duration::from_secs(28) && d <= Duration::from_secs(30),
            "{d:?}"
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }
}
