//! The shapes of reply a hostile model can send to make reading cost the square of its length,
//! each as one unit repeated to any size: the work-counting test (`work.rs`) and the timing
//! example (`examples/linear_bench.rs`) read the same replies.

/// A generator: its name and the unit it repeats.
pub const SHAPES: [(&str, &str); 18] = [
    // Vulgar fractions, alone and after a whole number: each lone one was inserted into the
    // figures in place.
    ("fractions", "costs rose ¼ and then 1 ½ or ¾; "),
    // Powers of ten and mixed numbers: each folded pair was drained from the figures in place.
    ("scientific notation", "2.5 × 10^4 and 3 × 10⁻² and 1 1/4; "),
    // One long sentence mentioning E13's supplied figures again and again.
    ("mentions in one sentence", "12% and 4.1% and $310 and "),
    // One sentence of comma-joined clauses: each comma's rest of the sentence was lower-cased
    // to see whether an operator follows it.
    ("comma clauses", "revenue rose, churn fell, and so, "),
    (
        "comma clauses with figures",
        "revenue rose 12%, churn is 4.1%, ",
    ),
    // One sentence calling figures placeholders again and again, quotes open before each.
    (
        "vacuity words in one sentence",
        "\"placeholder\" and dummy ",
    ),
    // The hostile corpus's shapes (hostile_replies.rs).
    ("sum that never ends", "1+"),
    ("expression that never ends", "(100-80)/80*"),
    ("latex groups left open", r"\text{"),
    ("think blocks", "<think>a</think>"),
    ("bare figures on one line", "25% "),
    ("quoted figures", "\"25%\" "),
    ("curly quote left open", "\u{201c}25% "),
    ("restating the user", "you said 25% and "),
    ("trap figure", "a 20% rise, "),
    ("figures in words", "twenty-five percent and a quarter, "),
    // One sentence of conditional branches, the trap in every other one (extract/branches.rs,
    // each branch judged by E1 and E10).
    (
        "conditional branches",
        "if a, use 25%; if b, 20% can ship; ",
    ),
    // Asides that hedge, one a line (E7's no-hedge, looked up against the verse).
    ("hedging asides", "(Note: not verified.)\n"),
];

/// `unit` repeated to `bytes` (whole units, at most `bytes`).
pub fn filled(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len())
}
