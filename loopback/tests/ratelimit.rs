//! The rate-limited stand-in over real TCP: burst then 429 with the bucket's own retry time,
//! refill, both APIs' header families parsed back, the headerless, never-recovering and
//! overloaded modes, shared and per-model buckets, and latency that does not serialize.

use loopback::ratelimit::{Charge, Mode, RateLimiter, RateLimits, Shape};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const OPENAI: &str = "/v1/chat/completions";
const ANTHROPIC: &str = "/v1/messages";

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn num(&self, name: &str) -> u64 {
        let v = self.header(name).unwrap_or_else(|| panic!("no {name}"));
        v.parse().unwrap_or_else(|_| panic!("{name}: {v}"))
    }
    fn has_limit_headers(&self) -> bool {
        self.headers.iter().any(|(k, _)| {
            k.starts_with("x-ratelimit")
                || k.starts_with("anthropic-ratelimit")
                || k == "retry-after"
        })
    }
}

/// One HTTP/1.1 POST on its own connection, read back by content-length.
async fn post(addr: SocketAddr, path: &str, body: &Value) -> Answer {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: loopback\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(format!("{head}{body}").as_bytes())
        .await
        .unwrap();
    let mut buf = Vec::new();
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 4096];
        let n = s.read(&mut chunk).await.unwrap();
        assert!(n > 0, "connection closed before the head");
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(buf[..end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let answer = Answer {
        status,
        headers,
        body: Value::Null,
    };
    let len = answer.num("content-length") as usize;
    while buf.len() < end + len {
        let mut chunk = [0u8; 4096];
        let n = s.read(&mut chunk).await.unwrap();
        assert!(n > 0, "connection closed before the body");
        buf.extend_from_slice(&chunk[..n]);
    }
    Answer {
        body: serde_json::from_slice(&buf[end..end + len]).unwrap(),
        ..answer
    }
}

fn chat(model: &str, text: &str) -> Value {
    json!({"model": model, "messages": [{"role": "user", "content": text}]})
}

/// A Go duration (`1h2m3.5s`, `250ms`) parsed back.
fn parse_go(s: &str) -> Duration {
    let mut total = 0.0;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest.find(|c: char| c.is_ascii_alphabetic()).unwrap();
        let value: f64 = rest[..n].parse().unwrap();
        let unit_len = rest[n..].find(|c: char| !c.is_ascii_alphabetic());
        let unit = &rest[n..n + unit_len.unwrap_or(rest.len() - n)];
        total += value
            * match unit {
                "h" => 3600.0,
                "m" => 60.0,
                "s" => 1.0,
                "ms" => 0.001,
                other => panic!("unit {other} in {s}"),
            };
        rest = &rest[n + unit.len()..];
    }
    Duration::from_secs_f64(total)
}

/// An RFC 3339 UTC timestamp (`2026-12-01T15:30:12Z`) parsed back.
fn parse_rfc3339(s: &str) -> SystemTime {
    assert_eq!(s.len(), 20, "{s}");
    assert!(s.ends_with('Z') && &s[10..11] == "T", "{s}");
    let n = |r: std::ops::Range<usize>| s[r].parse::<i64>().unwrap();
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19);
    UNIX_EPOCH + Duration::from_secs(secs as u64)
}

fn ms(d: Duration) -> i64 {
    d.as_millis() as i64
}

/// OpenAI's 429 body for the token bucket.
fn assert_openai_tokens_error(body: &Value, model: &str, limit: u64, requested: u64) {
    let error = &body["error"];
    assert_eq!(error["type"], "tokens");
    assert_eq!(error["code"], "rate_limit_exceeded");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("Rate limit reached for {model}"))
            && message.contains(&format!("on tokens per min (TPM): Limit {limit}, Used "))
            && message.contains(&format!(", Requested {requested}. Please try again in ")),
        "{message}"
    );
}

#[tokio::test]
async fn a_burst_is_admitted_then_429_says_when_the_bucket_will_hold_the_request() {
    // 1,000 tokens a second; three 1,000-token requests empty the bucket.
    let limiter = RateLimiter::new(RateLimits {
        token_burst: 3_000,
        charge: Charge::Fixed(1_000),
        ..RateLimits::new(60_000, 60_000)
    });
    let server = limiter.serve().await;
    let t1 = Instant::now();
    let first = post(server.addr, OPENAI, &chat("gpt-x", "hi")).await;
    let t1_back = Instant::now();
    assert_eq!(first.status, 200);
    assert_eq!(first.num("x-ratelimit-remaining-tokens"), 2_000);
    for _ in 0..2 {
        assert_eq!(
            post(server.addr, OPENAI, &chat("gpt-x", "hi")).await.status,
            200
        );
    }
    let t4 = Instant::now();
    let refused = post(server.addr, OPENAI, &chat("gpt-x", "hi")).await;
    let t4_back = Instant::now();
    assert_eq!(refused.status, 429);
    // Refilled since the first charge at 1 token/ms, so this one waits 1,000 ms less that.
    let (lo, hi) = (1_000 - ms(t4_back - t1), 1_000 - ms(t4 - t1_back));
    let retry_ms = refused.num("retry-after-ms") as i64;
    assert!(
        (lo - 2..=hi + 2).contains(&retry_ms),
        "retry-after-ms {retry_ms} outside {lo}..={hi}"
    );
    assert_eq!(refused.num("retry-after"), 1);
    assert_eq!(refused.num("x-ratelimit-limit-tokens"), 3_000);
    assert_eq!(refused.num("x-ratelimit-limit-requests"), 60_000);
    let remaining = refused.num("x-ratelimit-remaining-tokens") as i64;
    assert!(
        (1_000 - hi - 2..=1_000 - lo + 2).contains(&remaining),
        "{remaining}"
    );
    // Back to full: the 3,000 tokens missing at 1 token/ms.
    let reset = ms(parse_go(
        refused.header("x-ratelimit-reset-tokens").unwrap(),
    ));
    assert!(
        (3_000 - remaining - 2..=3_000 - remaining + 2).contains(&reset),
        "{reset}"
    );
    let reset_requests = parse_go(refused.header("x-ratelimit-reset-requests").unwrap());
    assert!(
        reset_requests <= Duration::from_millis(4),
        "{reset_requests:?}"
    );

    assert_openai_tokens_error(&refused.body, "gpt-x", 3_000, 1_000);

    // The bucket holds the request once retry-after-ms has passed, and is empty again after.
    tokio::time::sleep(Duration::from_millis(retry_ms as u64)).await;
    assert_eq!(
        post(server.addr, OPENAI, &chat("gpt-x", "hi")).await.status,
        200
    );
    assert_eq!(
        post(server.addr, OPENAI, &chat("gpt-x", "hi")).await.status,
        429
    );

    let tally = limiter.tally();
    assert_eq!((tally.admitted, tally.tokens_admitted), (4, 4_000));
    assert_eq!(tally.throttled.len(), 2);
    let statuses: Vec<u16> = tally.log.iter().map(|(_, s)| *s).collect();
    assert_eq!(statuses, [200, 200, 200, 429, 200, 429]);
    assert_eq!(tally.first_answer, Some(tally.log[0].0));
    assert_eq!(tally.throttled[0], tally.log[3].0);
}

#[tokio::test]
async fn the_buckets_refill_continuously() {
    // 100 tokens and 1 request a second.
    let limiter = RateLimiter::new(RateLimits {
        charge: Charge::Fixed(100),
        ..RateLimits::new(6_000, 60)
    });
    let server = limiter.serve().await;
    let first = post(server.addr, OPENAI, &chat("m", "")).await;
    let t1 = Instant::now();
    assert_eq!(first.num("x-ratelimit-remaining-tokens"), 5_900);
    assert_eq!(first.num("x-ratelimit-remaining-requests"), 59);
    assert_eq!(first.header("x-ratelimit-reset-tokens"), Some("1s"));
    assert_eq!(first.header("x-ratelimit-reset-requests"), Some("1s"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = post(server.addr, OPENAI, &chat("m", "")).await;
    let waited = ms(Instant::now() - t1);
    // 5,900 + 0.1 token/ms since, less 100.
    let remaining = second.num("x-ratelimit-remaining-tokens") as i64;
    assert!(
        (5_800 + 28..=5_800 + waited / 10 + 2).contains(&remaining),
        "{remaining} after {waited} ms"
    );
    // The reset is the time to refill what is missing (10 ms a token), however long the
    // machine took between the two requests.
    let reset = parse_go(second.header("x-ratelimit-reset-tokens").unwrap());
    let missing = Duration::from_millis((6_000 - remaining) as u64 * 10);
    assert!(
        reset.abs_diff(missing) <= Duration::from_millis(150)
            && reset < Duration::from_millis(2_000),
        "{reset:?} to refill {missing:?}"
    );
}

#[tokio::test]
async fn anthropic_answers_carry_its_header_families_and_error_shape() {
    let limiter = RateLimiter::new(RateLimits::new(6_000, 60));
    let server = limiter.serve().await;
    // 40 bytes of text (10 tokens) plus max_tokens 90: 100 tokens.
    let body = |max: u64| {
        json!({"model": "claude-x", "max_tokens": max, "system": "0123456789abcdef",
               "messages": [{"role": "user", "content": [{"type": "text", "text": "0123456789abcdefghijklmn"}]}]})
    };
    let before = SystemTime::now();
    let ok = post(server.addr, ANTHROPIC, &body(90)).await;
    let after = SystemTime::now();
    assert_eq!(ok.status, 200);
    assert_eq!(ok.body["type"], "message");
    assert_eq!(ok.body["role"], "assistant");
    assert_eq!(ok.body["model"], "claude-x");
    assert_eq!(ok.body["stop_reason"], "end_turn");
    assert_eq!(ok.body["content"][0], json!({"type": "text", "text": "ok"}));
    assert_eq!(
        ok.body["usage"],
        json!({"input_tokens": 10, "output_tokens": 1})
    );
    for family in ["tokens", "input-tokens", "output-tokens"] {
        let h = |k: &str| format!("anthropic-ratelimit-{family}-{k}");
        assert_eq!(ok.num(&h("limit")), 6_000);
        assert_eq!(ok.num(&h("remaining")), 5_900);
        // Full again in one second (100 tokens at 100/s), rounded up to a whole second.
        let reset = parse_rfc3339(ok.header(&h("reset")).unwrap());
        let (earliest, latest) = (
            before + Duration::from_secs(1),
            after + Duration::from_secs(2),
        );
        assert!(reset >= earliest && reset <= latest, "{family}");
    }
    assert_eq!(ok.num("anthropic-ratelimit-requests-limit"), 60);
    assert_eq!(ok.num("anthropic-ratelimit-requests-remaining"), 59);
    assert!(ok.header("x-ratelimit-limit-tokens").is_none());

    // 6,000 tokens asked of the ~5,900 left: refused for the second it takes to refill 100.
    let refused = post(server.addr, ANTHROPIC, &body(5_990)).await;
    assert_eq!(refused.status, 429);
    assert_eq!(refused.body["type"], "error");
    assert_eq!(refused.body["error"]["type"], "rate_limit_error");
    assert!(refused.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("6000 tokens per minute"));
    assert!(refused.num("anthropic-ratelimit-tokens-remaining") < 6_000);
    assert_eq!(refused.num("retry-after"), 1);
    assert!(refused.header("retry-after-ms").is_none());
    assert_eq!(limiter.tally().tokens_admitted, 100);
}

#[tokio::test]
async fn headerless_mode_refuses_with_no_hint_at_all() {
    let limiter = RateLimiter::new(RateLimits {
        mode: Mode::Headerless,
        ..RateLimits::new(1_000_000, 1)
    });
    let server = limiter.serve().await;
    let ok = post(server.addr, OPENAI, &chat("m", "x")).await;
    assert_eq!(ok.status, 200);
    assert!(!ok.has_limit_headers());
    for path in [OPENAI, ANTHROPIC] {
        let no = post(server.addr, path, &chat("m", "x")).await;
        assert_eq!(no.status, 429);
        assert!(!no.has_limit_headers(), "{:?}", no.headers);
        assert!(no.header("retry-after-ms").is_none());
    }
    assert_eq!(limiter.tally().throttled.len(), 2);
}

#[tokio::test]
async fn never_recover_mode_refuses_every_request_with_empty_bucket_headers() {
    let limiter = RateLimiter::new(RateLimits {
        mode: Mode::NeverRecover,
        charge: Charge::Fixed(500),
        ..RateLimits::new(60_000, 600)
    });
    let server = limiter.serve().await;
    for i in 0..4 {
        if i == 2 {
            tokio::time::sleep(Duration::from_millis(600)).await;
        }
        let no = post(server.addr, OPENAI, &chat("m", "x")).await;
        assert_eq!(no.status, 429);
        assert_eq!(no.num("x-ratelimit-remaining-tokens"), 0);
        assert_eq!(no.num("x-ratelimit-remaining-requests"), 0);
        assert_eq!(no.num("retry-after-ms"), 500);
        assert_eq!(no.header("x-ratelimit-reset-tokens"), Some("1m0s"));
    }
    let tally = limiter.tally();
    assert_eq!((tally.admitted, tally.throttled.len()), (0, 4));
    assert_eq!(tally.first_success(), None);
}

#[tokio::test]
async fn two_model_ids_share_one_servers_buckets_unless_per_model() {
    let limits = RateLimits {
        charge: Charge::Fixed(1_000),
        token_burst: 2_000,
        ..RateLimits::new(60, 1_000)
    };
    let shared = RateLimiter::new(limits.clone()).serve().await;
    let seq = |server: &loopback::LoopbackServer, models: &'static [&'static str]| {
        let addr = server.addr;
        async move {
            let mut out = Vec::new();
            for m in models {
                out.push(post(addr, OPENAI, &chat(m, "x")).await.status);
            }
            out
        }
    };
    assert_eq!(seq(&shared, &["a", "b", "a"]).await, [200, 200, 429]);
    let apart = RateLimiter::new(RateLimits {
        per_model: true,
        ..limits
    })
    .serve()
    .await;
    assert_eq!(
        seq(&apart, &["a", "a", "a", "b", "b", "b"]).await,
        [200, 200, 429, 200, 200, 429]
    );
}

#[tokio::test]
async fn latency_delays_each_answer_without_serializing_connections() {
    let limiter = RateLimiter::new(RateLimits {
        latency: Duration::from_millis(2_000),
        reply: std::sync::Arc::new(|r| format!("echo {}", r.json()["model"])),
        ..RateLimits::new(1_000_000, 1_000)
    });
    let server = limiter.serve().await;
    let start = Instant::now();
    let addr = server.addr;
    let calls = (0..8).map(|i| async move {
        post(addr, "/chat/completions", &chat(&format!("m{i}"), "x")).await
    });
    let answers = futures_join(calls.collect()).await;
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(2_000), "{took:?}");
    // Serialized, one request would be in flight at a time. Counted from the server's own
    // record (admitted, then answered), not timed: a loaded machine slows both the same.
    let tally = limiter.tally();
    let in_flight_at = |t: Instant| {
        let admitted = tally.admissions.iter().filter(|(a, _)| *a <= t).count();
        admitted.saturating_sub(tally.log.iter().filter(|(l, _)| *l <= t).count())
    };
    let peak = tally
        .admissions
        .iter()
        .map(|(a, _)| in_flight_at(*a))
        .max()
        .unwrap_or(0);
    assert!(
        peak >= 2,
        "serialized: at most {peak} request in flight at once"
    );
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a.status, 200);
        assert_eq!(a.body["object"], "chat.completion");
        assert_eq!(a.body["model"], format!("m{i}"));
        let choice = &a.body["choices"][0];
        assert_eq!(choice["message"]["role"], "assistant");
        assert_eq!(choice["message"]["content"], format!("echo \"m{i}\""));
        assert_eq!(choice["finish_reason"], "stop");
        assert_eq!(a.body["usage"]["total_tokens"], 1 + 3);
    }
    let tally = limiter.tally();
    assert!(tally.first_answer.unwrap() - start >= Duration::from_millis(300));
    assert_eq!(tally.admitted, 8);
}

/// Runs the futures concurrently on their own tasks, answers in order.
async fn futures_join<F>(futures: Vec<F>) -> Vec<Answer>
where
    F: std::future::Future<Output = Answer> + Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn overloaded_mode_answers_529_then_lets_the_buckets_decide() {
    let limiter = RateLimiter::new(RateLimits {
        mode: Mode::Overloaded { first: 2 },
        ..RateLimits::new(100_000, 100)
    });
    let server = limiter.serve().await;
    let first = post(server.addr, ANTHROPIC, &chat("c", "x")).await;
    assert_eq!(first.status, 529);
    assert_eq!(first.body["error"]["type"], "overloaded_error");
    assert!(!first.has_limit_headers());
    assert_eq!(post(server.addr, OPENAI, &chat("c", "x")).await.status, 503);
    assert_eq!(
        post(server.addr, ANTHROPIC, &chat("c", "x")).await.status,
        200
    );
    assert_eq!(limiter.tally().admitted, 1);
}

#[tokio::test]
async fn max_tokens_fields_count_and_unknown_paths_are_404_uncharged() {
    let limiter = RateLimiter::new(RateLimits {
        shape: Shape::ByPath,
        default_max_tokens: 7,
        ..RateLimits::new(100_000, 100)
    });
    let server = limiter.serve().await;
    let with = |field: &str| json!({"model": "m", field: 50, "messages": [{"role": "user", "content": "abcd"}]});
    for body in [
        with("max_completion_tokens"),
        with("max_tokens"),
        chat("m", "abcd"),
    ] {
        assert_eq!(post(server.addr, OPENAI, &body).await.status, 200);
    }
    assert_eq!(
        post(server.addr, "/v1/embeddings", &chat("m", "abcd"))
            .await
            .status,
        404
    );
    let tally = limiter.tally();
    // One prompt token each, plus 50, 50 and the default 7.
    assert_eq!((tally.admitted, tally.tokens_admitted), (3, 51 + 51 + 8));
    assert_eq!(tally.log.last().unwrap().1, 404);
}
