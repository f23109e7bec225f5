//! A hostile model writes the reply: whatever its shape, every checker reads it in bounded
//! time and stack and returns a verdict. Each test is an attack — a reply built to recurse a
//! reader off its stack or to make reading cost the square of its length — at the size the
//! harness lets a reply reach (`max_reply_bytes`, 256 KiB), then a seeded mutation campaign
//! over the goldens of every case.

mod common;

use checkers::golden::Golden;
use checkers::{CheckContext, Message, Role, Transcript, Verdict};
use std::time::{Duration, Instant};

/// The harness's default `max_reply_bytes`.
const REPLY_BYTES: usize = 256 * 1024;

/// The stack a checker may be given: a test thread's, and a tokio worker's (2 MiB).
const STACK: usize = 2 << 20;

/// A hang guard, not a speed bound: a check that takes this long on a loaded 2-core machine
/// never ends in practice. The attacks below took from seconds to minutes (or aborted the
/// process) before their bounds; that each reads in linear time is shown by the work the
/// readers count (`checkers::work`), which a busy machine does not change: here at an eighth of
/// a quarter reply and at a quarter, and in `work.rs` from 128 KiB to 1 MiB. Timings live in
/// `examples/linear_bench.rs` and docs/benchmarks.md.
const SLOW: Duration = Duration::from_secs(120);

/// `reply` as the last assistant turn of the first passing golden of every case, each checked
/// on a thread with [`STACK`] bytes of stack: the work each case counted, by case.
fn check_everywhere(reply: &str) -> Vec<(&'static str, u64)> {
    let reply = reply.to_string();
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            checkers::CASE_IDS
                .iter()
                .map(|case| {
                    let before = checkers::work::count();
                    let took = timed(&with_reply(&first_golden(case), case, &reply), case).1;
                    assert!(took < SLOW, "{case}: hung for {took:?}");
                    (*case, checkers::work::count() - before)
                })
                .collect()
        })
        .unwrap()
        .join()
        .expect("a checker panicked")
}

/// `unit` repeated to an eighth of [`filled`]'s length and to its whole: for eight times the
/// text no case counts more than ten times the work (a reading that costs the square of its
/// length counts 64 times), a reply's bytes at least.
fn assert_linear(unit: &str) {
    let whole = filled(unit);
    let eighth = &whole[..whole.len() / 8 / unit.len() * unit.len()];
    let floor = whole.len() as u64 / 8;
    for ((case, a), (_, b)) in check_everywhere(eighth)
        .into_iter()
        .zip(check_everywhere(&whole))
    {
        let (a, b) = (a.max(floor / 8), b.max(floor / 8));
        assert!(
            b <= 10 * a,
            "{unit:?} as {case}: work {a} → {b} for eight times the text"
        );
    }
}

fn first_golden(case: &str) -> Golden {
    common::goldens(case)
        .into_iter()
        .find(|g| g.expect == checkers::golden::Expect::Pass)
        .unwrap_or_else(|| panic!("{case} has no passing golden"))
}

/// The golden's transcript with its last assistant turn's text replaced by `reply`.
fn with_reply(g: &Golden, case: &str, reply: &str) -> Transcript {
    let mut t = g.transcript(case);
    match t
        .messages
        .iter_mut()
        .rev()
        .find(|m| m.role == Role::Assistant)
    {
        Some(m) => m.content = reply.to_string(),
        None => t.messages.push(Message::new(Role::Assistant, reply)),
    }
    t
}

/// The verdict on `t` as `case`, and how long it took.
fn timed(t: &Transcript, case: &str) -> (Verdict, Duration) {
    let truth = common::truth(case);
    let core = common::core_invariants(case);
    let ctx = CheckContext {
        truth: &truth,
        core_invariants: core.as_deref(),
    };
    let start = Instant::now();
    let v = checkers::check(t, &ctx).unwrap_or_else(|e| panic!("{case}: {e}"));
    (v, start.elapsed())
}

/// `unit` repeated to fill a quarter of the largest reply: enough for a reading that costs the
/// square of its length to take a minute unoptimised.
fn filled(unit: &str) -> String {
    unit.repeat(REPLY_BYTES / 4 / unit.len())
}

#[test]
fn a_reply_of_brackets_nested_a_hundred_thousand_deep_does_not_overflow_the_stack() {
    // `((((…1…))))`, bare and in a ```json fence: the expression reader recursed once per
    // bracket and aborted the whole process (a stack overflow is no panic to catch).
    let half = REPLY_BYTES / 2 - 8;
    for reply in [
        format!("{}1{}", "(".repeat(half), ")".repeat(half)),
        format!("```json\n{}{}\n```", "[".repeat(half), "]".repeat(half)),
    ] {
        check_everywhere(&reply);
    }
}

#[test]
fn a_reply_of_latex_fractions_nested_thousands_deep_does_not_overflow_the_stack() {
    // `$\frac{\frac{\frac{…}{2}}{2}}{2}$`: the LaTeX reader recursed once per fraction.
    let n = REPLY_BYTES / 10;
    check_everywhere(&format!("${}1{}$", r"\frac{".repeat(n), "}{2}".repeat(n)));
    check_everywhere(&format!("{}x{}", r"\text{".repeat(n), "}".repeat(n)));
}

#[test]
fn a_reply_of_thousands_of_latex_groups_left_open_is_read_in_linear_time() {
    // `\text{\text{\text{…` never closed: each group was scanned to the end of the reply for
    // its `}` and, not found, the next one was scanned again (found by the campaign below).
    for unit in [r"\text{", r"\frac{", r"\text{x} {"] {
        assert_linear(unit);
    }
}

#[test]
fn a_reply_of_thousands_of_think_blocks_is_read_in_one_pass() {
    // Every block searched the rest of the reply again for the two tags it never holds: 16,000
    // blocks took seconds per checker, optimised, and 4,000 still take seconds unoptimised.
    assert_linear("<think>a</think>");
}

#[test]
fn a_reply_of_one_sum_that_never_ends_is_read_in_linear_time() {
    // `1+1+…+` with no last operand: each start failed at the end of the reply and the next
    // start read it all again: 70 s for one checker at 256 KiB, optimised.
    for unit in ["1+", "(100-80)/80*"] {
        assert_linear(unit);
    }
}

#[test]
fn a_reply_of_one_line_of_thousands_of_figures_is_read_in_linear_time() {
    // `25% 25% …` as one line and one sentence: every figure's stance reread its whole line
    // (is it a diagnosis line?) and its sentence (how many quotes are open before the figure?
    // where does the sentence restating the user speak for itself?): 5 s to 23 s for the
    // slowest checker at 256 KiB, optimised; half that reply still takes seconds unoptimised.
    // Bare figures, quoted ones, a curly quote left open before each, a sentence that opens by
    // restating the user, and E1's trap figure (each one's sentence and clause reread, and the
    // rest of the reply searched for a correction: 65 s optimised).
    for unit in [
        "25% ",
        "\"25%\" ",
        "\u{201c}25% ",
        "you said 25% and ",
        "a 20% rise, ",
    ] {
        assert_linear(unit);
    }
}

#[test]
fn a_transcript_of_twenty_thousand_tool_calls_is_paired_with_its_results_in_one_pass() {
    // A transcript handed to `harness check` (64 MiB allowed): one turn of 20,000 calls, then
    // their results. Each call scanned every later message for its result: 100,000 calls took
    // 30 s to 95 s per checker, optimised. Eight times the calls, at most ten times the work.
    for case in ["E5", "E9"] {
        let (a, b) = (tool_calls_work(case, 2_500), tool_calls_work(case, 20_000));
        assert!(
            b <= 10 * a,
            "{case}: work {a} → {b} for eight times the calls"
        );
    }
}

/// The work `case` counts checking its first passing golden with one turn of `n` tool calls
/// and their results before its last reply.
fn tool_calls_work(case: &str, n: usize) -> u64 {
    let g = first_golden(case);
    let mut t = g.transcript(case);
    let last = t.messages.pop();
    let mut turn = Message::new(Role::Assistant, "");
    for i in 0..n {
        turn.tool_calls.push(checkers::ToolCall {
            id: format!("c{i}"),
            name: ["search", "read_file", "edit_file"][i % 3].into(),
            arguments: serde_json::json!({"path": format!("src/a{i}.py"), "pattern": "x"}),
        });
    }
    t.messages.push(turn);
    for i in 0..n {
        let mut result = Message::new(Role::Tool, format!("src/a{i}.py:1:x"));
        result.tool_call_id = Some(format!("c{i}"));
        t.messages.push(result);
    }
    t.messages.extend(last);
    let before = checkers::work::count();
    let took = timed(&t, case).1;
    assert!(took < SLOW, "{case}: hung for {took:?}");
    checkers::work::count() - before
}

/// Pieces spliced into replies and tool arguments: the shapes of the attacks above and of
/// the readers' syntax (brackets, LaTeX, reasoning tags, fences, tables, quotes, footnotes,
/// numbers of every notation), and characters that are not what they look like.
const TOKENS: [&str; 40] = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    r"\frac{",
    r"\text{",
    "<think>",
    "</think>",
    "<reasoning>",
    "```",
    "```json\n",
    "```yaml\n",
    "$",
    "$$",
    "|",
    "|---|",
    "> ",
    "- ",
    "1. ",
    "# ",
    "1+",
    "25%",
    "= ",
    "0.25",
    "1e309",
    "99999999999999999999",
    "−",
    "×",
    "/",
    "\u{202e}",
    "\u{0}",
    "\r\n",
    "**",
    "`",
    "[^1]",
    "&#x41;",
    "INV: ",
    "\n\n",
];

/// A small deterministic generator (xorshift64*): a failing case is found again from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A char boundary of `s` drawn at random.
fn boundary(s: &str, rng: &mut Rng) -> usize {
    let mut i = rng.below(s.len() + 1);
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `text` after one to six mutations: a token spliced in, a token repeated up to 2,000
/// times, a token nested around a stretch, a stretch repeated or cut; kept under 64 KiB.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + rng.below(6) {
        let (a, b) = (boundary(&s, rng), boundary(&s, rng));
        let (a, b) = (a.min(b), a.max(b));
        let tok = TOKENS[rng.below(TOKENS.len())];
        let times = 1 + rng.below(2000);
        match rng.below(5) {
            0 => s.insert_str(a, tok),
            1 => s.insert_str(a, &tok.repeat(times)),
            2 => {
                let close = TOKENS[rng.below(TOKENS.len())];
                let inner = s[a..b].to_string();
                let n = times.min(500);
                s.replace_range(
                    a..b,
                    &format!("{}{inner}{}", tok.repeat(n), close.repeat(n)),
                );
            }
            3 => {
                let stretch = s[a..b].repeat(1 + rng.below(8));
                s.insert_str(b, &stretch);
            }
            _ => s.replace_range(a..b, ""),
        }
        if s.len() > REPLY_BYTES / 4 {
            let mut cut = REPLY_BYTES / 4;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
        }
    }
    s
}

/// One golden's transcript mutated: its last reply's text, or one string argument of one of
/// its tool calls, or a changed file's new text.
fn mutated(g: &Golden, case: &str, rng: &mut Rng) -> Transcript {
    let mut t = g.transcript(case);
    let mut targets: Vec<&mut String> = Vec::new();
    for m in t.messages.iter_mut().filter(|m| m.role == Role::Assistant) {
        targets.push(&mut m.content);
        for call in &mut m.tool_calls {
            if let Some(args) = call.arguments.as_object_mut() {
                targets.extend(args.values_mut().filter_map(|v| match v {
                    serde_json::Value::String(s) => Some(s),
                    _ => None,
                }));
            }
        }
    }
    if let Some(w) = &mut t.workspace {
        targets.extend(w.changed.iter_mut().filter_map(|c| c.after.as_mut()));
    }
    let at = rng.below(targets.len());
    if let Some(text) = targets.into_iter().nth(at) {
        *text = mutate(text, rng);
    }
    t
}

#[test]
fn mutated_goldens_of_every_case_neither_panic_nor_hang() {
    // CHECKERS_FUZZ_RUNS and CHECKERS_FUZZ_SEED run a longer or another campaign;
    // CHECKERS_FUZZ_DUMP names a folder to write each slow transcript to.
    let runs: usize = std::env::var("CHECKERS_FUZZ_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1300);
    let seed: u64 = std::env::var("CHECKERS_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x39c4_e11e);
    let findings = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || campaign(runs, seed))
        .unwrap()
        .join()
        .unwrap();
    assert!(findings.is_empty(), "seed {seed}:\n{}", findings.join("\n"));
}

/// `runs` mutated transcripts, a hundred per case in turn; what panicked or hung ([`SLOW`]).
fn campaign(runs: usize, seed: u64) -> Vec<String> {
    let goldens: Vec<(&str, Vec<Golden>)> = checkers::CASE_IDS
        .iter()
        .map(|case| (*case, common::goldens(case)))
        .collect();
    let mut rng = Rng(seed.max(1));
    let mut findings = Vec::new();
    for run in 0..runs {
        let (case, gs) = &goldens[(run / 100) % goldens.len()];
        let g = &gs[rng.below(gs.len())];
        let t = mutated(g, case, &mut rng);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| timed(&t, case))) {
            Err(_) => findings.push(format!("run {run}: {case} {}: panicked", g.name)),
            Ok((_, took)) if took > SLOW => {
                if let Ok(dir) = std::env::var("CHECKERS_FUZZ_DUMP") {
                    std::fs::write(
                        format!("{dir}/run{run}.json"),
                        serde_json::to_string(&t).unwrap(),
                    )
                    .unwrap();
                }
                findings.push(format!("run {run}: {case} {}: {took:?}", g.name))
            }
            Ok(_) => {}
        }
    }
    findings
}
