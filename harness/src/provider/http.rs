//! HTTP calls to model APIs: per-request timeout; every request admitted by its account's
//! limiter (token and request buckets, concurrency); a 429 or 529 is a wait (`retry-after-ms`,
//! `retry-after` in seconds or as an HTTP date, never less than a jittered floor that grows on
//! repeats) until the request's deadline, never a counted failure; other 5xx, connection errors
//! and timeouts retried with exponential backoff and jitter up to `max_attempts`. No wait runs
//! past `request_deadline_secs`, and an answer's body is read as a stream up to a cap. A connection that cannot be made before
//! the key was ever accepted stops the account at once, like a refused key. The API key never appears in an error,
//! and goes only where `base_url` points (through the proxy the plan names, if any): no redirect
//! is followed, and unless the model allows private networks a name that resolves to a metadata,
//! link-local or private address is refused when connecting directly.

use super::{ProviderError, Transient};
use crate::suite::manifest::ModelEntry;
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::limiter::headers::{self, MAX_RETRY_AFTER};

const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// The least wait after a 429 or 529 in a row of one: a server asking for no wait (or a date
/// passed) still gets this, doubled per repeat, jittered, so it is never hammered.
const LIMITED_FLOOR: Duration = Duration::from_millis(50);
/// Room for the envelope around a reply in an answer's body: ids, usage, JSON escaping.
const ENVELOPE_ROOM: u64 = 1 << 20;

/// The most bytes of an answer's body read: eight times `max_reply_bytes` (JSON may escape
/// every byte of the reply, its tool arguments and reasoning ride along) plus the envelope's
/// room. Past it the attempt fails as a transient error naming the cap.
pub fn body_cap(max_reply_bytes: u64) -> u64 {
    max_reply_bytes
        .saturating_mul(8)
        .saturating_add(ENVELOPE_ROOM)
}

/// A retry about to happen, or a wait on the account's rate limits, for the progress display.
#[derive(Debug, Clone)]
pub struct RetryNotice {
    /// The attempt that failed, from 1 (for a wait on a limit: the attempts sent so far).
    pub attempt: u32,
    pub reason: String,
    pub wait: Duration,
    /// A wait on a rate limit, not a failed attempt.
    pub limited: bool,
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
    /// The account's limits, shared with every entry of the same key and model id.
    limiter: std::sync::Arc<super::limiter::Limiter>,
    /// How long one request may wait on rate limits.
    deadline: Duration,
    /// `base_url`'s host, named when it cannot be reached.
    host: String,
    /// The key was accepted once: requests need not wait for the first answer any more.
    key_confirmed: std::sync::atomic::AtomicBool,
    /// The API refused the key (401/403) or said the account cannot be served (no quota, no
    /// credit), or its host could not be reached before any answer: every later request of
    /// this model fails at once.
    auth_failed: std::sync::OnceLock<ProviderError>,
    /// Named in the authentication error.
    model_name: String,
    key_var: String,
    /// The most bytes of an answer's body read ([`body_cap`]).
    body_cap: u64,
    /// The latest rate-limit answer of this model, named by a request that waited its whole
    /// deadline without being sent.
    last_limit: std::sync::Mutex<Option<Transient>>,
}

impl HttpCaller {
    pub fn new(
        model: &ModelEntry,
        key: String,
        max_reply_bytes: u64,
    ) -> Result<HttpCaller, crate::error::Error> {
        // reqwest 0.13 is built without a default crypto provider (Cargo.toml): rustls takes
        // the process's, ring, installed here once (an Err means it already is).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = reqwest::Client::builder()
            .timeout(Duration::from_secs(model.timeout_secs))
            .connect_timeout(Duration::from_secs(model.timeout_secs.min(30)))
            // A redirect would carry the key's header to wherever the server says (reqwest
            // strips `authorization` on a change of host, never `x-api-key`).
            .redirect(reqwest::redirect::Policy::none());
        // reqwest's own reading of the environment is off: the one decision the plan names
        // (the model's `proxy` key, else the process environment's variables, never a
        // `.env`'s) routes the client.
        builder = builder.no_proxy();
        let input = |e: String| crate::error::Error::input(format!("model {}: {e}", model.name()));
        if let super::proxy::Route::Proxy { url, source } =
            super::proxy::route(model, &super::proxy::process_env).map_err(input)?
        {
            let masked = super::proxy::masked(&url);
            let proxy = reqwest::Proxy::all(&url)
                .map_err(|_| input(format!("{masked} ({source}) is not a proxy URL")))?;
            builder = builder.proxy(proxy);
        }
        let host = model
            .base_url
            .as_deref()
            .and_then(|u| reqwest::Url::parse(u).ok())
            .and_then(|u| u.host_str().map(str::to_string));
        let shown_host = host.clone().unwrap_or_else(|| match model.provider {
            crate::suite::manifest::ProviderKind::Anthropic => "api.anthropic.com".into(),
            _ => "api.openai.com".into(),
        });
        if let (false, Some(host)) = (model.allow_private_network, host) {
            builder =
                builder.dns_resolver(std::sync::Arc::new(super::resolve::PublicOnly { host }));
        }
        let client = builder
            .build()
            .map_err(|e| crate::error::Error::Internal(format!("HTTP client: {e}")))?;
        Ok(HttpCaller {
            client,
            key,
            max_attempts: model.max_attempts,
            retry_base: Duration::from_millis(model.retry_base_ms),
            limiter: super::limiter::Limiter::for_account(model),
            deadline: Duration::from_secs(model.request_deadline_secs),
            host: shown_host.clone(),
            key_confirmed: std::sync::atomic::AtomicBool::new(false),
            auth_failed: std::sync::OnceLock::new(),
            model_name: model.name().to_string(),
            key_var: model.api_key_env.clone().unwrap_or_default(),
            body_cap: body_cap(max_reply_bytes),
            last_limit: std::sync::Mutex::new(None),
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

    /// The account's limiter (its figures go into the run's closing lines and run.json).
    pub fn limiter(&self) -> &std::sync::Arc<super::limiter::Limiter> {
        &self.limiter
    }

    fn backoff(&self, attempt: u32) -> Duration {
        jittered(self.retry_base, attempt)
    }

    /// The wait after a 429 or 529, the `repeats`-th in a row: what the server asked, capped,
    /// but never less than a jittered floor that doubles per repeat; jittered backoff when it
    /// asked nothing.
    fn limited_pause(&self, asked: Option<Duration>, repeats: u32) -> Duration {
        match asked {
            Some(asked) => asked
                .min(MAX_RETRY_AFTER)
                .max(jittered(LIMITED_FLOOR, repeats)),
            None => self.backoff(repeats),
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
        // Until the account's first answer its limiter sends one request at a time, so a wrong
        // key costs one request, not one per episode.
        let out = self.post_json_inner(url, headers, body, on_retry).await;
        if out.is_ok() {
            self.key_confirmed.store(true, Ordering::Release);
            self.limiter.confirm();
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
        let started = Instant::now();
        let deadline = started + self.deadline;
        let cost = super::limiter::estimate_cost(body);
        // Attempts that failed other than by a rate limit (what max_attempts counts), and
        // rate-limit answers in a row (what the jittered floor doubles on).
        let (mut failed, mut limited, mut sent) = (0u32, 0u32, 0u32);
        let mut last_limit: Option<Transient> = None;
        loop {
            let on_wait = |wait: Duration| {
                on_retry(RetryNotice {
                    attempt: sent,
                    reason: format!("waiting on the rate limit of {}", self.limiter.account),
                    wait,
                    limited: true,
                })
            };
            // Every attempt is admitted against the request's deadline, a retry's too.
            let ticket = match self.limiter.admit(cost, deadline, &on_wait).await {
                Ok(t) => t,
                Err(refusal) => return Err(self.refused(refusal, started, last_limit)),
            };
            // The key was refused (or the host unreachable) while this request waited.
            if let Some(refused) = self.auth_failed.get() {
                return Err(refused.clone());
            }
            sent += 1;
            tracing::debug!(account = %self.limiter.account, attempt = sent, cost, "sending");
            // The body as sent holds the model's own turns unmasked; the log's printer masks
            // every key, as every written copy is.
            tracing::trace!(account = %self.limiter.account, attempt = sent, body = %body, "request body");
            let (why, retry_after) = match self
                .attempt(url, headers, body, sent, ticket, limited)
                .await
            {
                Attempt::Done(out) => {
                    self.limiter.learn_usage(cost, body, &out.body);
                    return Ok(out);
                }
                Attempt::Fatal(e) => return Err(e),
                Attempt::Limited(why) => {
                    limited += 1;
                    *self.last_limit.lock().unwrap_or_else(|p| p.into_inner()) = Some(why.clone());
                    last_limit = Some(why);
                    continue;
                }
                Attempt::Retry(why, retry_after) => (why, retry_after),
            };
            failed += 1;
            if failed >= self.max_attempts {
                return Err(ProviderError::GaveUp {
                    attempts: failed,
                    last: why,
                });
            }
            self.pause(failed, why, retry_after, deadline, on_retry)
                .await?;
        }
    }

    /// One attempt: send, and read what came back (a transport failure is worth a retry
    /// unless the host was never reached).
    async fn attempt(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &Value,
        sent: u32,
        ticket: super::limiter::Ticket,
        limited: u32,
    ) -> Attempt {
        let mut req = self.client.post(url).json(body);
        for (k, v) in headers {
            req = match header_value(k, v) {
                Some(value) => req.header(*k, value),
                // reqwest refuses it when the request is built: a transport failure.
                None => req.header(*k, v.as_str()),
            };
        }
        match req.send().await {
            Ok(resp) => self.answer(resp, sent, ticket, limited).await,
            Err(e) => {
                let why = self.transport_failure(&e);
                // Latched before the ticket is let go, so no request of the account is
                // admitted in between and sent to a host that cannot be reached.
                let fatal = self.unreachable(&e, &why);
                drop(ticket);
                match fatal {
                    Some(fatal) => Attempt::Fatal(fatal),
                    None => Attempt::Retry(why, None),
                }
            }
        }
    }

    /// Why the limiter would not send a request, as the trial's error.
    fn refused(
        &self,
        refusal: super::limiter::Refusal,
        started: Instant,
        last: Option<Transient>,
    ) -> ProviderError {
        match refusal {
            super::limiter::Refusal::TooLarge { limit, cost } => ProviderError::RequestTooLarge {
                account: self.limiter.account.clone(),
                limit,
                cost,
            },
            super::limiter::Refusal::Deadline => ProviderError::RateLimitDeadline {
                account: self.limiter.account.clone(),
                waited_secs: started.elapsed().as_secs(),
                deadline_secs: self.deadline.as_secs(),
                last: last
                    .or_else(|| self.last_limit.lock().ok().and_then(|l| l.clone()))
                    .map(|l| l.to_string()),
            },
        }
    }

    /// A connection that cannot be made before the key was ever accepted: the host is wrong or
    /// the network is down, and every later request of the account would fail the same way.
    fn unreachable(&self, e: &reqwest::Error, why: &Transient) -> Option<ProviderError> {
        if !e.is_connect() || self.key_confirmed.load(Ordering::Acquire) || self.limiter.confirmed()
        {
            return None;
        }
        let detail = match why {
            Transient::Connect { detail } => detail.clone(),
            other => other.to_string(),
        };
        let fatal = ProviderError::Unreachable {
            host: self.host.clone(),
            detail,
        };
        let _ = self.auth_failed.set(fatal.clone());
        Some(fatal)
    }

    /// What a server's answer to attempt number `attempt` comes to; the account's limiter
    /// learns from its headers. `limited` rate-limit answers came before it in a row.
    async fn answer(
        &self,
        resp: reqwest::Response,
        attempt: u32,
        ticket: super::limiter::Ticket,
        limited: u32,
    ) -> Attempt {
        let status = resp.status().as_u16();
        tracing::debug!(account = %self.limiter.account, attempt, status, "provider answered");
        let header = |name: &str| resp.headers().get(name);
        let request_id = ["x-request-id", "request-id"]
            .iter()
            .find_map(|h| header(h))
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let retry_after = headers::retry_after(resp.headers());
        let rate_limited = matches!(status, 429 | 529);
        // The account pauses on a rate limit; a 429 only once its body showed it is one.
        let pause = |limited_now: bool| match limited_now {
            true => self.traced_pause(attempt, status, retry_after, limited + 1),
            false => Duration::ZERO,
        };
        // An error answer holds its ticket until its body says whether it stops the account
        // (a refused key, an exhausted quota, no credit), and that is latched: released first,
        // the account's next request could be admitted and sent while this body is still read.
        let headers = resp.headers().clone();
        let held = if (400..500).contains(&status) {
            Some(ticket)
        } else {
            self.limiter
                .answered(ticket, &headers, rate_limited, pause(rate_limited));
            None
        };
        let location =
            header("location").map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let bytes = match self.read_body(resp).await {
            Ok(b) => b,
            Err(why) => {
                if let Some(ticket) = held {
                    self.limiter
                        .answered(ticket, &headers, rate_limited, pause(rate_limited));
                }
                return Attempt::Retry(why, None);
            }
        };
        if (200..300).contains(&status) {
            return self.success(bytes, attempt, request_id);
        }
        let text = String::from_utf8_lossy(&bytes);
        let body = self.excerpt(&text);
        let stop = self.stop_of(status, &text, &body);
        if let Some(held) = held {
            if let Some(stop) = &stop {
                let _ = self.auth_failed.set(stop.clone());
            }
            let limited = rate_limited && stop.is_none();
            self.limiter
                .answered(held, &headers, limited, pause(limited));
        }
        let fatal = match (status, stop) {
            (_, Some(stop)) => stop,
            (300..=399, None) => ProviderError::Redirect {
                status,
                location: location.map(|l| self.excerpt(&l)),
            },
            (429, None) => return Attempt::Limited(Transient::RateLimited { body }),
            (529, None) => return Attempt::Limited(Transient::ServerError { status, body }),
            (500.., None) => {
                return Attempt::Retry(Transient::ServerError { status, body }, retry_after)
            }
            (_, None) => ProviderError::Rejected { status, body },
        };
        Attempt::Fatal(fatal)
    }

    /// The error an answer of `status` means for every later request of the model, if any: a
    /// refused key, or an account that cannot be served ([`super::stops`]).
    fn stop_of(&self, status: u16, text: &str, body: &str) -> Option<ProviderError> {
        match status {
            401 | 403 => Some(ProviderError::Authentication {
                model: self.model_name.clone(),
                key_env: self.key_var.clone(),
                status,
                body: body.to_string(),
            }),
            _ => super::stops::classify(status, text).map(|s| ProviderError::AccountStopped {
                model: self.model_name.clone(),
                status,
                code: self.excerpt(&s.code),
                message: self.excerpt(&s.message),
                advice: s.advice.to_string(),
            }),
        }
    }

    /// A successful answer's body: UTF-8 JSON, or an error naming the model (never decoded
    /// lossily: a reply's bytes are not guessed at).
    fn success(&self, bytes: Vec<u8>, attempt: u32, request_id: Option<String>) -> Attempt {
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                return Attempt::Fatal(ProviderError::NotUtf8 {
                    model: self.model_name.clone(),
                    at: e.utf8_error().valid_up_to() as u64,
                })
            }
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(body) => Attempt::Done(CallOutcome {
                body,
                attempts: attempt,
                request_id,
            }),
            Err(e) => Attempt::Fatal(ProviderError::MalformedBody {
                error: self.redact(&e.to_string()),
                body: self.excerpt(&text),
            }),
        }
    }

    /// [`Self::limited_pause`], said as an event: the account, the attempt, the wait and why.
    fn traced_pause(
        &self,
        attempt: u32,
        status: u16,
        asked: Option<Duration>,
        repeats: u32,
    ) -> Duration {
        let pause = self.limited_pause(asked, repeats);
        let why = match asked {
            Some(_) => "retry-after, at least the floor",
            None => "no retry-after: jittered backoff",
        };
        tracing::info!(
            account = %self.limiter.account,
            attempt,
            status,
            wait_ms = pause.as_millis() as u64,
            why,
            "rate limited: the account pauses"
        );
        pause
    }

    /// An answer's body, read as a stream up to the cap: past it (or announced past it) the
    /// attempt fails without reading more, so memory stays flat whatever the server sends.
    async fn read_body(&self, mut resp: reqwest::Response) -> Result<Vec<u8>, Transient> {
        let cap = self.body_cap;
        let too_large = Transient::BodyTooLarge { cap };
        if resp.content_length().is_some_and(|n| n > cap) {
            return Err(too_large);
        }
        let mut buf = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) if (buf.len() + chunk.len()) as u64 > cap => return Err(too_large),
                Ok(Some(chunk)) => buf.extend_from_slice(&chunk),
                Ok(None) => return Ok(buf),
                Err(e) => {
                    let detail = self.redact(&e.to_string());
                    return Err(Transient::ReadBody { detail });
                }
            }
        }
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

    /// Wait before retry `attempt`: the server's `retry-after` (capped) or backoff; a wait
    /// that would pass the request's deadline ends the request now instead.
    async fn pause(
        &self,
        attempt: u32,
        why: Transient,
        retry_after: Option<Duration>,
        deadline: Instant,
        on_retry: &(dyn Fn(RetryNotice) + Send + Sync),
    ) -> Result<(), ProviderError> {
        let wait = retry_after.map_or_else(|| self.backoff(attempt), |r| r.min(MAX_RETRY_AFTER));
        tracing::info!(
            account = %self.limiter.account,
            attempt,
            wait_ms = wait.as_millis() as u64,
            why = if retry_after.is_some() { "retry-after" } else { "exponential backoff" },
            failure = %why,
            "attempt failed; retrying"
        );
        if Instant::now() + wait > deadline {
            return Err(ProviderError::RetryDeadline {
                attempts: attempt,
                wait_ms: wait.as_millis() as u64,
                deadline_secs: self.deadline.as_secs(),
                last: why,
            });
        }
        on_retry(RetryNotice {
            attempt,
            reason: why.to_string(),
            wait,
            limited: false,
        });
        tokio::time::sleep(wait).await;
        Ok(())
    }
}

/// What one attempt came to.
enum Attempt {
    Done(CallOutcome),
    /// Sending it again cannot help.
    Fatal(ProviderError),
    /// Worth retrying, after the server's `retry-after` when it gave one.
    Retry(Transient, Option<Duration>),
    /// A rate limit (429, 529): the account's limiter was told to pause; try again through it
    /// until the request's deadline.
    Limited(Transient),
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

/// A request header's value; the key's headers (`authorization`, `x-api-key`) marked
/// sensitive, so reqwest's and any log's Debug output never shows them.
fn header_value(name: &str, v: &str) -> Option<reqwest::header::HeaderValue> {
    let mut value = reqwest::header::HeaderValue::from_str(v).ok()?;
    value.set_sensitive(matches!(name, "authorization" | "x-api-key"));
    Some(value)
}

/// `full` doubled per attempt after the first (at most 30 s), with "equal jitter": half
/// fixed, half random, so retries spread out but never hammer.
fn jittered(base: Duration, attempt: u32) -> Duration {
    let full = base
        .saturating_mul(1 << (attempt.max(1) - 1).min(16))
        .min(MAX_BACKOFF);
    full / 2 + full.mul_f64(fastrand::f64() / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_headers_are_sensitive_so_no_debug_output_shows_the_key() {
        for name in ["authorization", "x-api-key"] {
            let v = header_value(name, "Bearer sk-test-secret-123").unwrap();
            assert!(v.is_sensitive());
            assert!(!format!("{v:?}").contains("sk-test"), "{v:?}");
        }
        assert!(!header_value("anthropic-version", "2023-06-01")
            .unwrap()
            .is_sensitive());
    }
}
