//! The limiter's arithmetic: answers read in any order, seeded buckets, usage that says a
//! prompt was dearer than estimated, and the headers' time formats.

use super::*;

fn openai_headers(limit: u64, remaining: u64, reset: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in [
        ("x-ratelimit-limit-tokens", limit.to_string()),
        ("x-ratelimit-remaining-tokens", remaining.to_string()),
        ("x-ratelimit-reset-tokens", reset.to_string()),
    ] {
        h.insert(k, v.parse().unwrap());
    }
    h
}

fn map(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(*k, v.parse().unwrap());
    }
    h
}

fn level(l: &Limiter) -> f64 {
    l.lock().tokens.as_ref().unwrap().level
}

/// A limiter past its one-at-a-time start (two answers): a 10,000-token bucket refilling 1,000
/// a second, 9,900 left, estimates charged as sent.
fn learnt() -> (Arc<Limiter>, Instant) {
    let l = Arc::new(Limiter::new("m at host ($K)".into()));
    let started = Instant::now();
    for left in [10_000, 9_900] {
        let t = l.try_admit(100.0, started).ok().unwrap();
        l.answered(
            t,
            &openai_headers(10_000, left, "100ms"),
            false,
            Duration::ZERO,
        );
    }
    l.lock().scale = 1.0;
    l.lock().tokens.as_mut().unwrap().level = 9_900.0;
    (l, started)
}

#[test]
fn answers_read_in_another_order_than_the_server_admitted_them_never_let_the_account_overspend() {
    // Eight requests of 1,000 sent together. Requests reach a server in no fixed order,
    // and answers come back in any order: each answer's remaining count includes some of
    // the others and not others. After every answer the limiter must think no more is
    // left than the server has, and after the last it must not think less (no stall).
    let orders: [(&str, Vec<usize>, Vec<usize>); 3] = [
        (
            "admitted in reverse, answered as admitted",
            (0..8).rev().collect(),
            (0..8).rev().collect(),
        ),
        (
            "admitted as sent, answered in reverse",
            (0..8).collect(),
            (0..8).rev().collect(),
        ),
        (
            "admitted and answered interleaved",
            vec![3, 0, 7, 1, 6, 2, 5, 4],
            vec![5, 2, 0, 7, 4, 1, 6, 3],
        ),
    ];
    for (what, admitted, answered) in orders {
        let (l, started) = learnt();
        let tickets: Vec<Option<Ticket>> = (0..8)
            .map(|_| l.try_admit(1_000.0, Instant::now()).ok())
            .collect();
        let mut tickets = tickets;
        let mut server = 9_900u64;
        let mut remaining = [0u64; 8];
        for &i in &admitted {
            server -= 1_000;
            remaining[i] = server;
        }
        for &i in &answered {
            let t = tickets[i].take().unwrap();
            l.answered(
                t,
                &openai_headers(10_000, remaining[i], "8.1s"),
                false,
                Duration::ZERO,
            );
            let refilled = started.elapsed().as_secs_f64() * 1_000.0 + 1.0;
            assert!(
                level(&l) <= server as f64 + refilled,
                "{what}: after the answer to request {i} the limiter counts {} tokens left; the server has {server}",
                level(&l)
            );
        }
        assert!(
            level(&l) >= server as f64 - 1.0,
            "{what}: every answer is in, the server has {server} left, the limiter counts only {}",
            level(&l)
        );
    }
}

#[test]
fn a_bucket_seeded_from_the_manifest_takes_the_first_answers_count() {
    // tpm = 1,200,000 seeds a bucket one second deep (20,000), counted full; the first
    // request's estimate (1,500) is a third of what the server charged (5,000). Clamped
    // into what the answer allows, the guess would keep the refill since sending, which
    // includes however long the request took to reach the server.
    let l = Arc::new(Limiter::new("m at host ($K)".into()));
    let started = Instant::now();
    l.lock().tokens = Some(Bucket::seeded(1_200_000.0, 20_000.0, started));
    let t = l.try_admit(1_500.0, started).ok().unwrap();
    std::thread::sleep(Duration::from_millis(30));
    l.answered(
        t,
        &openai_headers(20_000, 15_000, "250ms"),
        false,
        Duration::ZERO,
    );
    assert!(level(&l) <= 15_000.0 + 1.0, "{}", level(&l));
}

#[test]
fn without_token_headers_a_prompt_dearer_than_its_estimate_raises_the_scale_and_a_cheaper_one_does_not_lower_it(
) {
    // A provider that sends no token counts (a manifest's tpm seeds the bucket): an answer
    // whose usage says a 1,000-token estimate (200 of them max_tokens) was 1,000 prompt
    // tokens: every later request is charged 1.2 times its estimate.
    let l = Arc::new(Limiter::new("m at host ($K)".into()));
    l.lock().tokens = Some(Bucket::seeded(600_000.0, 10_000.0, Instant::now()));
    let t = l.try_admit(100.0, Instant::now()).ok().unwrap();
    l.answered(t, &HeaderMap::new(), false, Duration::ZERO);
    let request = serde_json::json!({"max_tokens": 200});
    l.learn_usage(
        1_000,
        &request,
        &serde_json::json!({"usage": {"prompt_tokens": 1_000}}),
    );
    assert_eq!(l.lock().scale, 1.2);
    l.learn_usage(
        1_000,
        &request,
        &serde_json::json!({"usage": {"prompt_tokens": 10}}),
    );
    assert_eq!(
        l.lock().scale,
        1.2,
        "a cheaper prompt keeps the dearer scale"
    );
    // Anthropic counts uncached input and cache writes against its input limit.
    l.learn_usage(
        1_000,
        &request,
        &serde_json::json!({"usage": {"input_tokens": 600, "cache_creation_input_tokens": 700, "cache_read_input_tokens": 5_000}}),
    );
    assert_eq!(l.lock().scale, 1.5);
    let before = level(&l);
    let _t = l.try_admit(1_000.0, Instant::now()).ok().unwrap();
    assert!(
        (before - level(&l) - 1_500.0).abs() < 20.0,
        "{before} -> {}",
        level(&l)
    );
}

#[test]
fn an_answer_showing_less_left_than_counted_lowers_the_count() {
    // Another client on the same key spent 5,000: the answer says so, and the limiter
    // believes it rather than its own count.
    let (l, started) = learnt();
    let t = l.try_admit(1_000.0, Instant::now()).ok().unwrap();
    l.answered(
        t,
        &openai_headers(10_000, 3_900, "6.1s"),
        false,
        Duration::ZERO,
    );
    let refilled = started.elapsed().as_secs_f64() * 1_000.0 + 1.0;
    assert!(level(&l) <= 3_900.0 + refilled, "{}", level(&l));
    assert!(level(&l) >= 3_899.0, "{}", level(&l));
}

#[test]
fn go_durations_and_rfc3339_times_read_as_the_apis_write_them() {
    let ms = |n| Some(Duration::from_millis(n));
    assert_eq!(parse_go_duration("1s"), ms(1000));
    assert_eq!(parse_go_duration("250ms"), ms(250));
    assert_eq!(parse_go_duration("6m0s"), ms(360_000));
    assert_eq!(parse_go_duration("1h2m3.5s"), ms(3_723_500));
    assert_eq!(parse_go_duration("soon"), None);
    assert_eq!(parse_go_duration("1m30.5s"), ms(90_500));
    assert_eq!(parse_go_duration("17.142s"), ms(17_142));
    assert_eq!(parse_go_duration("0s"), ms(0));
    let t = parse_rfc3339("2026-12-01T15:32:00Z").unwrap();
    assert_eq!(t.as_second(), 1_796_139_120);
    let off = parse_rfc3339("2026-12-01T16:32:00.5+01:00").unwrap();
    assert_eq!(
        off.duration_since(t),
        jiff::SignedDuration::from_millis(500)
    );
}

#[test]
fn every_retry_after_value_is_data_none_panics_and_waits_are_capped() {
    use headers::{parse_retry_after, retry_after, MAX_RETRY_AFTER};
    // Absurd seconds are capped; negative, NaN and infinite ones are ignored.
    assert_eq!(parse_retry_after("1e30"), Some(MAX_RETRY_AFTER));
    assert_eq!(parse_retry_after("1e300"), Some(MAX_RETRY_AFTER));
    for ignored in ["-5", "NaN", "nan", "inf", "-inf", "soon", ""] {
        assert_eq!(parse_retry_after(ignored), None, "{ignored}");
    }
    assert_eq!(parse_retry_after("0"), Some(Duration::ZERO));
    assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
    // HTTP dates: one passed is no wait, one in 9999 the cap, one 30 s ahead about 30 s.
    assert_eq!(
        parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT"),
        Some(Duration::ZERO)
    );
    assert_eq!(
        parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
        Some(Duration::ZERO)
    );
    assert_eq!(
        parse_retry_after("Tue, 01 Jun 9999 00:00:00 GMT"),
        Some(MAX_RETRY_AFTER)
    );
    assert_eq!(
        parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT"),
        Some(MAX_RETRY_AFTER)
    );
    assert_eq!(parse_retry_after("Fri, 32 Dec 9999 23:59:59 GMT"), None);
    let soon = jiff::fmt::rfc2822::DateTimePrinter::new()
        .timestamp_to_rfc9110_string(
            &(jiff::Timestamp::now() + jiff::SignedDuration::from_secs(30)),
        )
        .unwrap();
    let d = parse_retry_after(&soon).unwrap();
    assert!(
        d > Duration::from_secs(28) && d <= Duration::from_secs(30),
        "{soon}: {d:?}"
    );
    // retry-after-ms first, to the millisecond; an unreadable one falls back to retry-after.
    let ms = |v: &str, s: &str| retry_after(&map(&[("retry-after-ms", v), ("retry-after", s)]));
    assert_eq!(ms("107", "1"), Some(Duration::from_millis(107)));
    assert_eq!(ms("1e300", "1"), Some(MAX_RETRY_AFTER));
    assert_eq!(ms("-5", "2"), Some(Duration::from_secs(2)));
    assert_eq!(ms("NaN", "inf"), None);
    assert_eq!(ms("inf", "1e30"), Some(MAX_RETRY_AFTER));
    assert_eq!(retry_after(&map(&[])), None);
}

#[test]
fn every_rate_limit_header_value_is_data_counts_and_resets_out_of_bounds_are_ignored_or_capped() {
    // Counts that are negative, not finite or absurd are ignored; so are resets that do
    // not parse, are negative, or are a NaN or a bad date; a huge one is capped at a day.
    let sent = Instant::now();
    for bad in ["-5", "NaN", "inf", "1e30", "1e300", "lots"] {
        let h = map(&[
            ("x-ratelimit-limit-tokens", bad),
            ("x-ratelimit-remaining-tokens", bad),
            ("x-ratelimit-reset-tokens", bad),
        ]);
        let (t, _) = read_headers(&h, sent);
        assert!(
            t.limit.is_none() && t.remaining.is_none() && t.reset.is_none(),
            "{bad}"
        );
    }
    assert_eq!(parse_go_duration("-5s"), None);
    assert_eq!(
        parse_go_duration("99999999h"),
        Some(Duration::from_secs(86_400))
    );
    for reset in [
        "NaN",
        "2026-13-45T99:99:99Z",
        "-5",
        "tomorrow",
        "9999-12-31T23:59:59Z",
    ] {
        let h = map(&[
            ("anthropic-ratelimit-tokens-limit", "1000"),
            ("anthropic-ratelimit-tokens-remaining", "10"),
            ("anthropic-ratelimit-tokens-reset", reset),
        ]);
        let (t, _) = read_headers(&h, sent);
        assert_eq!(
            (t.limit, t.remaining, t.reset),
            (Some(1000.0), Some(10.0), None),
            "{reset}"
        );
    }
    let far = map(&[
        ("anthropic-ratelimit-tokens-limit", "1000"),
        ("anthropic-ratelimit-tokens-remaining", "10"),
        ("anthropic-ratelimit-tokens-reset", "9999-06-01T00:00:00Z"),
    ]);
    assert_eq!(
        read_headers(&far, sent).0.reset,
        Some(Duration::from_secs(86_400))
    );
}

#[test]
fn a_reset_of_a_nanosecond_is_not_read_as_a_refill_faster_than_a_second() {
    let l = Arc::new(Limiter::new("m at host ($K)".into()));
    let t = l.try_admit(100.0, Instant::now()).ok().unwrap();
    l.answered(
        t,
        &openai_headers(10_000, 5_000, "1ns"),
        false,
        Duration::ZERO,
    );
    let rate = l.lock().tokens.as_ref().unwrap().rate;
    assert!(rate <= 10_000.0, "{rate}");
}

#[test]
fn a_429_halves_the_concurrency_and_clean_answers_grow_it_back_one_per_window_up_to_the_ceiling() {
    let (l, _) = learnt();
    {
        let mut s = l.lock();
        s.ceiling = 8;
        s.window = 8;
    }
    let window = |l: &Limiter| l.lock().window;
    let answer = |limited: bool| {
        let t = l.try_admit(1.0, Instant::now()).ok().unwrap();
        l.answered(t, &HeaderMap::new(), limited, Duration::ZERO);
    };
    for expected in [4, 2, 1, 1] {
        answer(true);
        assert_eq!(window(&l), expected);
    }
    // One more per window of clean answers: 1 clean answer to reach 2, then 2 to reach 3.
    answer(false);
    assert_eq!(window(&l), 2);
    answer(false);
    assert_eq!(window(&l), 2);
    answer(false);
    assert_eq!(window(&l), 3);
    for _ in 0..100 {
        answer(false);
    }
    assert_eq!(window(&l), 8, "never above the entries' max_concurrency");
}

#[test]
fn the_learnt_scale_is_never_below_what_the_latest_answers_usage_showed_and_falls_with_it() {
    // Remaining counts that drop 100 for every 100 estimated tokens teach a charge of 1; the
    // answers' usage says each request was 110. Admitting by the remaining counts alone
    // undercharges every request that costs what its usage says.
    let l = Arc::new(Limiter::new("m at host ($K)".into()));
    let started = Instant::now();
    let answer = |i: u64, prompt: u64| {
        let t = l.try_admit(100.0, started).ok().unwrap();
        let left = 50_000 - 100 * (i + 1);
        l.answered(
            t,
            &openai_headers(60_000, left, "1s"),
            false,
            Duration::ZERO,
        );
        l.learn_usage(
            100,
            &serde_json::json!({}),
            &serde_json::json!({"usage": {"prompt_tokens": prompt}}),
        );
    };
    for i in 0..20 {
        answer(i, 110);
    }
    let scale = l.lock().scale;
    assert!(
        scale >= 1.1,
        "admitted by {scale}, under the 1.1 each answer showed"
    );
    // The prompts get cheaper: once the dear answers are no longer among the latest, the
    // scale falls back to what the counts teach.
    for i in 20..20 + USAGE_KEPT as u64 + 2 {
        answer(i, 100);
    }
    let scale = l.lock().scale;
    assert!((1.0..1.05).contains(&scale), "{scale}");
}
