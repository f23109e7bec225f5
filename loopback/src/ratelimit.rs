//! A rate-limited stand-in for the OpenAI and Anthropic APIs: a token bucket and a request
//! bucket decide each request, answered with the headers, 429 bodies and completion bodies
//! each API documents, and a [`Tally`] of what was admitted and refused for tests and
//! benchmarks to read.
//!
//! The buckets are refilled continuously (`tpm / 60` tokens and `rpm / 60` requests per
//! second) up to their bursts and start full. A request is admitted only when both buckets
//! hold its cost (one request; prompt tokens plus `max_tokens`); a refused request is charged
//! nothing, as the real APIs only count what they serve.
//!
//! The buckets belong to the server, as a real key's belong to its organisation: every model
//! id sent to one server (and both API shapes, under [`Shape::ByPath`]) draws on the same
//! buckets, unless [`RateLimits::per_model`] gives each `model` in the body its own pair.

mod wire;

pub use wire::{go_duration, rfc3339};

use crate::{LoopbackServer, OnSent, RecordedRequest, Reply, Responder};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The reply text for an admitted request.
pub type ReplyText = Arc<dyn Fn(&RecordedRequest) -> String + Send + Sync>;

/// A tool call to answer an admitted request with instead of text: the tool's name and its
/// arguments, or `None` for a text answer.
pub type ToolCalls = Arc<dyn Fn(&RecordedRequest) -> Option<(String, Value)> + Send + Sync>;

/// [`RateLimits::calls`] for a model that looks around before it answers: `list_files` on its
/// first turn and `search` on its second when it is offered them (either API's tool shape),
/// then text. Units offering tools so run up to three turns, the others one.
pub fn looks_around() -> ToolCalls {
    Arc::new(|req: &RecordedRequest| {
        let body = req.json();
        let turn = body["messages"]
            .as_array()
            .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
        let offers = |name: &str| {
            body["tools"].as_array().is_some_and(|t| {
                t.iter()
                    .any(|t| t["function"]["name"] == name || t["name"] == name)
            })
        };
        match (turn, offers("list_files"), offers("search")) {
            (0, true, _) => Some(("list_files".to_string(), serde_json::json!({}))),
            (1, _, true) => Some(("search".to_string(), serde_json::json!({"pattern": "TODO"}))),
            _ => None,
        }
    })
}

/// What an admitted request costs the token bucket.
#[derive(Clone)]
pub enum Charge {
    /// [`estimate_prompt_tokens`] plus the request's max tokens.
    Estimate,
    /// This function's prompt tokens plus the request's max tokens.
    Prompt(Arc<dyn Fn(&RecordedRequest) -> u64 + Send + Sync>),
    /// Exactly this many tokens per request, max tokens included, whatever the request holds
    /// (the benchmarks' "every request costs 5,300 tokens"). The completion's usage still
    /// reports the [`estimate_prompt_tokens`] estimate.
    Fixed(u64),
    /// [`estimate_prompt_tokens`] times this factor, plus max tokens (a provider whose tokens
    /// are shorter or longer than four bytes); usage reports the factored prompt.
    Factor(f64),
    /// The prompt's characters counted after JSON escaping (quotes, backslashes, newlines
    /// and control characters count double or more), by four, plus max tokens.
    Escaped,
}

impl std::fmt::Debug for Charge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Charge::Estimate => f.write_str("Estimate"),
            Charge::Prompt(_) => f.write_str("Prompt(..)"),
            Charge::Fixed(n) => write!(f, "Fixed({n})"),
            Charge::Factor(x) => write!(f, "Factor({x})"),
            Charge::Escaped => f.write_str("Escaped"),
        }
    }
}

/// Which API the server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// By the request's path: `/v1/messages` is Anthropic, `/v1/chat/completions` and
    /// `/chat/completions` are OpenAI, anything else a 404 that charges nothing.
    ByPath,
    /// OpenAI Chat Completions on every path.
    OpenAi,
    /// Anthropic Messages on every path.
    Anthropic,
}

/// How the server behaves beyond plain bucket arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The buckets decide; every answer carries the API's rate-limit headers.
    Limited,
    /// The buckets decide, but no answer carries rate-limit headers or `retry-after`: a
    /// client must find its own backoff (with jitter).
    Headerless,
    /// Every request is refused with 429, forever. The headers describe empty buckets (nothing
    /// remaining, `retry-after` the time to refill this request's cost), so a client that
    /// believes them comes back and is refused again.
    NeverRecover,
    /// The first `first` requests are answered "overloaded" (Anthropic 529 `overloaded_error`,
    /// OpenAI 503), charging nothing and with no rate-limit headers; then as `Limited`.
    /// `u64::MAX` is overloaded forever.
    Overloaded { first: u64 },
}

/// The server's limits and behaviour. Start from [`RateLimits::new`] and change fields with
/// struct update syntax.
#[derive(Clone)]
pub struct RateLimits {
    /// Tokens per minute: the token bucket refills at `tpm / 60` per second.
    pub tpm: u64,
    /// The token bucket's capacity, reported as the token limit header (default `tpm`, a
    /// minute's worth, as OpenAI's limit header equals the TPM).
    pub token_burst: u64,
    /// Requests per minute: the request bucket refills at `rpm / 60` per second.
    pub rpm: u64,
    /// The token limit the headers advertise, when not the bucket's capacity (default none:
    /// the capacity). A provider enforcing a minute's limit over shorter periods advertises
    /// the minute's figure while its bucket holds less ("a burst of 150 k under a 1.2 M limit").
    pub advertised_tpm: Option<u64>,
    /// The request bucket's capacity (default `rpm`).
    pub request_burst: u64,
    /// What a request costs the token bucket (default [`Charge::Estimate`]).
    pub charge: Charge,
    /// The max tokens of a request whose body names none (default 0).
    pub default_max_tokens: u64,
    /// How long an admitted request takes to answer (default none). Slept on the connection's
    /// own task, so it never holds up other connections. Refusals answer at once.
    pub latency: Duration,
    /// Which API to speak (default [`Shape::ByPath`]).
    pub shape: Shape,
    /// Default [`Mode::Limited`].
    pub mode: Mode,
    /// Give each `model` in the body its own buckets instead of one pair per server (default
    /// false: one key, one organisation, shared by every model).
    pub per_model: bool,
    /// The text of each admitted request's completion (default "ok").
    pub reply: ReplyText,
    /// Answers carry reasoning (Anthropic `thinking` blocks with signatures, OpenAI-compatible
    /// `reasoning_content`), and, as the Messages API does with thinking on, a request whose
    /// last assistant turn (before a tool result) does not start with that turn's thinking
    /// block, unchanged, is refused with a 400 (default false).
    pub thinking: bool,
    /// Answer some admitted requests with a tool call instead (default none: always text),
    /// so episodes run several turns as a model's do.
    pub calls: Option<ToolCalls>,
}

impl RateLimits {
    /// `tpm` tokens and `rpm` requests per minute, both buckets a minute deep; no latency,
    /// estimated charges, shape by path. Neither limit may be 0 (use a large one for "no
    /// limit").
    pub fn new(tpm: u64, rpm: u64) -> RateLimits {
        RateLimits {
            tpm,
            token_burst: tpm,
            advertised_tpm: None,
            rpm,
            request_burst: rpm,
            charge: Charge::Estimate,
            default_max_tokens: 0,
            latency: Duration::ZERO,
            shape: Shape::ByPath,
            mode: Mode::Limited,
            per_model: false,
            reply: Arc::new(|_| "ok".to_string()),
            thinking: false,
            calls: None,
        }
    }
}

/// What the server did, for tests and benchmarks. Instants are when each answer's bytes were
/// written, not when it was decided (an admitted answer leaves `latency` later).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Requests the buckets admitted and charged.
    pub admitted: u64,
    /// Tokens charged for them.
    pub tokens_admitted: u64,
    /// When each 429 was written.
    pub throttled: Vec<Instant>,
    /// When the first answer of any status was written.
    pub first_answer: Option<Instant>,
    /// Every answer written, in order: when, and its status.
    pub log: Vec<(Instant, u16)>,
    /// Every admission, in order: when, and the tokens the bucket held after charging it (what
    /// a client left unspent: tokens still there when the last request is admitted were
    /// refilled for nothing).
    pub admissions: Vec<(Instant, f64)>,
    /// Every token refusal, in order: when it was decided, the tokens the bucket held, and the
    /// request's cost (by how much a client over-committed the bucket).
    pub refusals: Vec<(Instant, f64, u64)>,
}

impl Tally {
    /// When the first 200 was written.
    pub fn first_success(&self) -> Option<Instant> {
        self.log.iter().find(|(_, s)| *s == 200).map(|(t, _)| *t)
    }
}

/// The prompt-token estimate of [`Charge::Estimate`]: the bytes of every string in the body's
/// `system`, `messages` and `tools` (the `role` and `type` tags aside; the APIs count tool
/// definitions as prompt tokens), divided by 4 and rounded up.
pub fn estimate_prompt_tokens(req: &RecordedRequest) -> u64 {
    let body = req.json();
    let bytes =
        text_bytes(&body["system"]) + text_bytes(&body["messages"]) + text_bytes(&body["tools"]);
    bytes.div_ceil(4)
}

/// [`Charge::Escaped`]'s prompt tokens: as [`estimate_prompt_tokens`], each string counted as
/// JSON writes it (escapes included, quotes aside).
pub fn escaped_prompt_tokens(req: &RecordedRequest) -> u64 {
    fn escaped(v: &Value) -> u64 {
        match v {
            Value::String(s) => Value::String(s.clone()).to_string().len() as u64 - 2,
            Value::Array(a) => a.iter().map(escaped).sum(),
            Value::Object(o) => o
                .iter()
                .filter(|(k, _)| *k != "role" && *k != "type")
                .map(|(_, v)| escaped(v))
                .sum(),
            _ => 0,
        }
    }
    let body = req.json();
    (escaped(&body["system"]) + escaped(&body["messages"]) + escaped(&body["tools"])).div_ceil(4)
}

fn text_bytes(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.len() as u64,
        Value::Array(a) => a.iter().map(text_bytes).sum(),
        Value::Object(o) => o
            .iter()
            .filter(|(k, _)| *k != "role" && *k != "type")
            .map(|(_, v)| text_bytes(v))
            .sum(),
        _ => 0,
    }
}

/// The request's max tokens: OpenAI's `max_completion_tokens` (which replaced `max_tokens`)
/// or `max_tokens`, Anthropic's `max_tokens`.
fn max_tokens(body: &Value, api: Api) -> Option<u64> {
    let newer = match api {
        Api::OpenAi => body["max_completion_tokens"].as_u64(),
        Api::Anthropic => None,
    };
    newer.or(body["max_tokens"].as_u64())
}

/// The API a request is answered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    OpenAi,
    Anthropic,
}

/// A bucket refilled continuously at `per_sec` up to `capacity`; fractional levels so slow
/// refills are not lost to rounding.
#[derive(Debug, Clone)]
struct Bucket {
    capacity: f64,
    per_sec: f64,
    level: f64,
    at: Instant,
}

impl Bucket {
    fn full(capacity: u64, per_min: u64, now: Instant) -> Bucket {
        Bucket {
            capacity: capacity as f64,
            per_sec: per_min as f64 / 60.0,
            level: capacity as f64,
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.level = (self.level + elapsed * self.per_sec).min(self.capacity);
        self.at = now;
    }

    /// How long until the bucket holds `cost` (zero when it already does).
    fn wait_for(&self, cost: f64) -> Duration {
        Duration::from_secs_f64(((cost - self.level) / self.per_sec).max(0.0))
    }

    /// How the bucket stands, for the headers: OpenAI's and Anthropic's "reset" both mean
    /// back to its initial (full) state.
    fn standing(&self) -> Level {
        Level {
            limit: self.capacity as u64,
            remaining: self.level.floor() as u64,
            reset: self.wait_for(self.capacity),
        }
    }

    /// The standing of this bucket emptied, for [`Mode::NeverRecover`].
    fn empty(&self) -> Bucket {
        Bucket {
            level: 0.0,
            ..self.clone()
        }
    }
}

/// One bucket as the headers report it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level {
    pub limit: u64,
    pub remaining: u64,
    pub reset: Duration,
}

/// Both buckets as the headers report them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Standing {
    pub requests: Level,
    pub tokens: Level,
}

/// The buckets of one organisation (or one model, under `per_model`).
#[derive(Debug, Clone)]
struct Buckets {
    requests: Bucket,
    tokens: Bucket,
}

/// Which bucket refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Requests,
    Tokens,
}

/// Why a request was refused, for the 429's headers and message.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Refusal {
    pub kind: Kind,
    /// Until this request would be admitted; `None` when it never would (more tokens than
    /// the bucket holds).
    pub wait: Option<Duration>,
    pub limit: u64,
    pub used: u64,
    pub requested: u64,
}

impl Buckets {
    fn full(c: &RateLimits, now: Instant) -> Buckets {
        Buckets {
            requests: Bucket::full(c.request_burst, c.rpm, now),
            tokens: Bucket::full(c.token_burst, c.tpm, now),
        }
    }

    fn standing(&self) -> Standing {
        Standing {
            requests: self.requests.standing(),
            tokens: self.tokens.standing(),
        }
    }

    /// The standing as the headers say it: the token limit advertised when one is set.
    fn said(&self, c: &RateLimits) -> Standing {
        let mut s = self.standing();
        if let Some(limit) = c.advertised_tpm {
            s.tokens.limit = limit;
        }
        s
    }

    /// Charges `cost` tokens and one request when both buckets hold them; otherwise charges
    /// nothing and says which bucket refused and for how long (the longer wait when both).
    fn admit(&mut self, cost: u64, now: Instant) -> Result<(), Refusal> {
        self.requests.refill(now);
        self.tokens.refill(now);
        if (cost as f64) > self.tokens.capacity {
            return Err(self.refusal(Kind::Tokens, None, cost));
        }
        let (wr, wt) = (
            self.requests.wait_for(1.0),
            self.tokens.wait_for(cost as f64),
        );
        if wr.is_zero() && wt.is_zero() {
            self.requests.level -= 1.0;
            self.tokens.level -= cost as f64;
            return Ok(());
        }
        Err(if wt >= wr {
            self.refusal(Kind::Tokens, Some(wt), cost)
        } else {
            self.refusal(Kind::Requests, Some(wr), 1)
        })
    }

    fn refusal(&self, kind: Kind, wait: Option<Duration>, requested: u64) -> Refusal {
        let b = match kind {
            Kind::Requests => &self.requests,
            Kind::Tokens => &self.tokens,
        };
        let s = b.standing();
        Refusal {
            kind,
            wait,
            limit: s.limit,
            used: s.limit - s.remaining,
            requested,
        }
    }

    /// [`Mode::NeverRecover`]'s answer: these buckets as if just emptied, charging nothing.
    fn never(&self, cost: u64) -> (Standing, Refusal) {
        let empty = Buckets {
            requests: self.requests.empty(),
            tokens: self.tokens.empty(),
        };
        let wait = empty.tokens.wait_for(cost as f64);
        (
            empty.standing(),
            empty.refusal(Kind::Tokens, Some(wait), cost),
        )
    }
}

/// Everything the limiter mutates, under one lock so a decision and its charge are atomic.
#[derive(Default)]
struct State {
    shared: Option<Buckets>,
    per_model: HashMap<String, Buckets>,
    overloaded_sent: u64,
    tally: Tally,
}

/// What was decided for a request.
enum Decision {
    Admitted { standing: Standing },
    Refused { standing: Standing, why: Refusal },
    Overloaded,
}

/// The rate-limited stand-in: make one from [`RateLimits`], then [`RateLimiter::serve`] it
/// (or hand [`RateLimiter::responder`] to a [`LoopbackServer`]) and read [`RateLimiter::tally`].
/// Clones share the same buckets and tally.
#[derive(Clone)]
pub struct RateLimiter {
    config: Arc<RateLimits>,
    state: Arc<Mutex<State>>,
}

impl RateLimiter {
    pub fn new(config: RateLimits) -> RateLimiter {
        assert!(
            config.tpm > 0 && config.rpm > 0,
            "tpm and rpm must be positive"
        );
        assert!(
            config.request_burst >= 1,
            "request_burst must be at least 1"
        );
        RateLimiter {
            config: Arc::new(config),
            state: Arc::default(),
        }
    }

    /// A loopback server answering with this limiter.
    pub async fn serve(&self) -> LoopbackServer {
        LoopbackServer::start(self.responder()).await
    }

    /// The responder, for a server started by hand.
    pub fn responder(&self) -> Responder {
        let me = self.clone();
        Arc::new(move |req, _| me.answer(req))
    }

    /// A copy of what the server has done so far.
    pub fn tally(&self) -> Tally {
        self.state.lock().unwrap().tally.clone()
    }

    /// Decides and builds the answer to one request; the tally's log is written by the hook
    /// when it is sent.
    fn answer(&self, req: &RecordedRequest) -> Reply {
        let Some(api) = self.api_of(req) else {
            let body = r#"{"error":{"message":"no such endpoint","type":"not_found"}}"#;
            return self.logged(Reply::raw(404, body));
        };
        let body = req.json();
        if self.config.thinking && api == Api::Anthropic {
            if let Some(why) = wire::missing_thinking(&body) {
                return self.logged(Reply::json(
                    400,
                    serde_json::json!({"type": "error", "error": {"type": "invalid_request_error", "message": why}}),
                ));
            }
        }
        let model = body["model"].as_str().unwrap_or("loopback").to_string();
        let max = max_tokens(&body, api).unwrap_or(self.config.default_max_tokens);
        let cost = match &self.config.charge {
            Charge::Fixed(n) => *n,
            _ => self.prompt_of(req) + max,
        };
        let reply = match self.decide(&model, cost) {
            Decision::Overloaded => wire::overloaded(api),
            Decision::Refused { standing, why } => {
                let headed = self.config.mode != Mode::Headerless;
                wire::refused(api, &model, &standing, &why, headed)
            }
            Decision::Admitted { standing } => {
                let prompt = match &self.config.charge {
                    Charge::Fixed(_) => estimate_prompt_tokens(req),
                    _ => self.prompt_of(req),
                };
                let call = self.config.calls.as_ref().and_then(|c| c(req));
                let mut ok = match call {
                    Some((name, args)) => {
                        wire::tool_call(api, &model, &name, &args, prompt, self.config.thinking)
                    }
                    None => wire::completion(
                        api,
                        &model,
                        &(self.config.reply)(req),
                        prompt,
                        self.config.thinking,
                    ),
                };
                if self.config.mode != Mode::Headerless {
                    ok = wire::with_headers(ok, wire::limit_headers(api, &standing));
                }
                Reply::Delay(self.config.latency, Box::new(ok))
            }
        };
        self.logged(reply)
    }

    /// The prompt tokens this server counts for a request.
    fn prompt_of(&self, req: &RecordedRequest) -> u64 {
        match &self.config.charge {
            Charge::Prompt(f) => f(req),
            Charge::Factor(x) => (estimate_prompt_tokens(req) as f64 * x).ceil() as u64,
            Charge::Escaped => escaped_prompt_tokens(req),
            Charge::Estimate | Charge::Fixed(_) => estimate_prompt_tokens(req),
        }
    }

    fn api_of(&self, req: &RecordedRequest) -> Option<Api> {
        match self.config.shape {
            Shape::OpenAi => Some(Api::OpenAi),
            Shape::Anthropic => Some(Api::Anthropic),
            Shape::ByPath => match req.path.split('?').next().unwrap_or("") {
                "/v1/messages" => Some(Api::Anthropic),
                "/v1/chat/completions" | "/chat/completions" => Some(Api::OpenAi),
                _ => None,
            },
        }
    }

    /// The buckets' verdict on a request costing `cost` tokens, charged when admitted.
    fn decide(&self, model: &str, cost: u64) -> Decision {
        let now = Instant::now();
        let c = &*self.config;
        let mut guard = self.state.lock().unwrap();
        // Through the guard once, so the buckets and the tally borrow as separate fields.
        let st = &mut *guard;
        if let Mode::Overloaded { first } = c.mode {
            if st.overloaded_sent < first {
                st.overloaded_sent += 1;
                return Decision::Overloaded;
            }
        }
        let buckets = if c.per_model {
            st.per_model
                .entry(model.to_string())
                .or_insert_with(|| Buckets::full(c, now))
        } else {
            st.shared.get_or_insert_with(|| Buckets::full(c, now))
        };
        if c.mode == Mode::NeverRecover {
            let (standing, why) = buckets.never(cost);
            return Decision::Refused { standing, why };
        }
        match buckets.admit(cost, now) {
            Ok(()) => {
                let standing = buckets.said(c);
                st.tally.admitted += 1;
                st.tally.tokens_admitted += cost;
                let level = buckets.tokens.level;
                st.tally.admissions.push((now, level));
                Decision::Admitted { standing }
            }
            Err(why) => {
                if why.kind == Kind::Tokens {
                    let level = buckets.tokens.level;
                    st.tally.refusals.push((now, level, cost));
                }
                Decision::Refused {
                    standing: buckets.said(c),
                    why,
                }
            }
        }
    }

    /// `reply`, logging its status in the tally when it is written.
    fn logged(&self, reply: Reply) -> Reply {
        let state = self.state.clone();
        let hook = OnSent(Arc::new(move |status| {
            let now = Instant::now();
            let tally = &mut state.lock().unwrap().tally;
            tally.first_answer.get_or_insert(now);
            tally.log.push((now, status));
            if status == 429 {
                tally.throttled.push(now);
            }
        }));
        Reply::Notify(Box::new(reply), hook)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refuses_without_charging_and_says_how_long_until_it_would_admit() {
        let now = Instant::now();
        let c = RateLimits::new(6_000, 600); // 100 tokens/s, 10 requests/s
        let mut b = Buckets::full(&c, now);
        assert!(b.admit(5_950, now).is_ok());
        let why = b.admit(100, now).unwrap_err();
        assert_eq!(why.kind, Kind::Tokens);
        assert_eq!(why.wait, Some(Duration::from_millis(500)));
        assert_eq!((why.limit, why.used, why.requested), (6_000, 5_950, 100));
        assert_eq!(b.tokens.level, 50.0, "a refusal charged the bucket");
        let later = now + Duration::from_millis(500);
        assert!(b.admit(100, later).is_ok());
        assert_eq!(b.standing().tokens.reset, Duration::from_secs(60));
    }

    #[test]
    fn the_request_bucket_refuses_when_it_waits_longer() {
        let now = Instant::now();
        let mut c = RateLimits::new(600_000, 60); // one request a second
        c.request_burst = 1;
        let mut b = Buckets::full(&c, now);
        assert!(b.admit(10, now).is_ok());
        let why = b.admit(10, now).unwrap_err();
        assert_eq!(why.kind, Kind::Requests);
        assert_eq!(why.wait, Some(Duration::from_secs(1)));
        assert_eq!((why.limit, why.used, why.requested), (1, 1, 1));
    }

    #[test]
    fn more_tokens_than_the_bucket_holds_are_never_admitted() {
        let now = Instant::now();
        let mut b = Buckets::full(&RateLimits::new(1_000, 60), now);
        let why = b.admit(1_001, now).unwrap_err();
        assert_eq!(why.wait, None);
    }

    #[test]
    fn the_estimate_counts_message_and_system_text_by_four_bytes() {
        let req = RecordedRequest {
            method: "POST".into(),
            path: "/v1/messages".into(),
            headers: vec![],
            body: serde_json::json!({
                "model": "m-with-a-long-name", "max_tokens": 99,
                "system": [{"type": "text", "text": "abcd"}],
                "messages": [{"role": "user", "content": "hello"}]
            })
            .to_string()
            .into_bytes(),
        };
        assert_eq!(estimate_prompt_tokens(&req), 3); // 9 bytes
        assert_eq!(max_tokens(&req.json(), Api::Anthropic), Some(99));
    }
}
