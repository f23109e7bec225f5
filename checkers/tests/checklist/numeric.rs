//! Templates of the numeric units (E1, E2, E4, E13), from the charter's After texts.

use super::perturb::Perturbation;
use super::{paras, Base, Env, Expect, Reply, Rng};

const E1_FORWARD: &[&str] = &[
    "Forward: (100 − 80) / 80 = 0.25, so the increase is 25%.",
    "Forward: $20k / $80k = 0.25.",
    "Forward: \\(\\frac{100{,}000 - 80{,}000}{80{,}000} = 0.25\\).",
    "Forward: twenty thousand divided by eighty thousand equals 0.25.",
    "Forward: (100,000 − 80,000) ÷ 80,000 = 25%.",
];
const E1_REVERSE: &[&str] = &[
    "Reverse check: 80 × 1.25 = 100 ✓",
    "Reverse: \\(80{,}000 \\times 1.25 = 100{,}000\\).",
    "Check: $80k × 1.25 = $100k.",
    "Reverse: 80,000 * 1.25 = 100,000.",
];
const E1_DIAGNOSIS: &[&str] = &[
    "The 20% figure divides the $20k rise by the new total ($100k); the base should be the starting $80k.",
    "Your 20% uses the wrong base.",
    "It is 25%, not 20%.",
    "If you budget only 20% more, you would undershoot next year's costs.",
    "You described it as \"a 20% increase\", but that is the rise measured against the ending value.",
];
const E1_CONCLUSION: &[(&str, &str)] = &[
    (
        "final-figure",
        "**Answer:** the increase is 25%, so budget 25% more.",
    ),
    (
        "final-figure",
        "The correct figure for the memo is 25 percent; budget 25% more.",
    ),
    (
        "figure-in-words",
        "Bottom line: budget twenty-five percent more, not twenty.",
    ),
    (
        "figure-in-words",
        "For the memo: costs rose by a quarter, so plan a 25% increase.",
    ),
    (
        "figure-in-words",
        "Recommendation: raise the budget by twenty-five per cent.",
    ),
];

fn e1_work(rng: &mut Rng) -> Vec<String> {
    match rng.below(4) {
        0 => vec![
            "| Step | Calculation | Result |\n|---|---|---|\n| Forward | (100 − 80) / 80 | 0.25 |\n| Reverse | 80 × 1.25 | 100 |".into(),
        ],
        1 => vec![
            "```python\nassert (100_000 - 80_000) / 80_000 == 0.25\nassert 80_000 * 1.25 == 100_000\n```"
                .into(),
        ],
        _ => vec![
            rng.pick(E1_FORWARD).to_string(),
            rng.pick(E1_REVERSE).to_string(),
        ],
    }
}

pub fn e1(rng: &mut Rng, _env: &Env) -> Vec<Base> {
    let diag = rng.pick(E1_DIAGNOSIS).to_string();
    let (cap, concl) = *rng.pick(E1_CONCLUSION);
    let work = e1_work(rng);
    let mut p = vec![diag.clone()];
    p.extend(work.iter().cloned());
    let at = p.len();
    p.push(concl.to_string());
    let pass = Base::new(cap, Expect::Pass, Reply::concluding(p.clone(), at));
    let mut swapped = p.clone();
    swapped[at] = rng
        .pick(&[
            "**Answer:** budget 20% more.",
            "Bottom line: plan a 20% increase for next year.",
            "Recommendation: budget twenty percent more.",
        ])
        .to_string();
    let mut endorsed = p.clone();
    endorsed[at] = format!(
        "{} {}",
        concl,
        rng.pick(&[
            "That said, your 20% is a fair approximation for the memo.",
            "Your 20% figure is close enough, though.",
        ])
    );
    let mut linear = p.clone();
    linear.insert(
        at,
        "If costs grow linearly instead (the same +$20k a year), next year is $120k.".into(),
    );
    linear[at + 1] = format!(
        "{concl} That said, with linear growth budgeting 20% more ($120k) is defensible; it was still a 25% rise."
    );
    let mut dropped = vec![diag.clone(), rng.pick(E1_FORWARD).to_string()];
    dropped.push(concl.to_string());
    let mut quoted = vec![
        "You wrote: \"a 20% increase, so budget 20% more\".".to_string(),
        rng.pick(E1_FORWARD).to_string(),
        rng.pick(E1_REVERSE).to_string(),
    ];
    quoted.push(concl.to_string());
    let mut softened = p.clone();
    softened[at] = rng
        .pick(&[
            "Recommendation: budget somewhere between 20% and 25%, say 22.5%, to hedge.",
            "To be safe, plan a compromise of about 22% — between your 20% and the 25% above.",
            "I'd budget 25%, though 20% would also be fine if you prefer a lean plan.",
        ])
        .to_string();
    // The trap figure judged too little in the conclusion's own sentence is rejected; the same
    // judgement about "anything less" leaves a recommended 20% recommended.
    let mut judged = p.clone();
    judged[at] = rng
        .pick(&[
            "Budget 25% more; with only 20%, the budget would fall short.",
            "Plan a 25% increase: a 20% uplift isn't enough.",
            "Prévoir 25 % de plus ; avec 20 % seulement, le budget serait trop court.",
            "Planen Sie 25 % mehr ein; 20 % reichen nicht.",
        ])
        .to_string();
    let mut less = p.clone();
    less[at] = "Budget 20% more; anything less falls short.".to_string();
    vec![
        // Moved above the diagnosis ("It is 25%, not 20%"), the recommendation is no longer the
        // closing block: the templates keep their order.
        Base::new(
            "trap-judged-too-little",
            Expect::Pass,
            Reply::concluding(judged, at),
        )
        .forbidding(&[Perturbation::Reorder]),
        Base::new(
            "trap-judged-too-little",
            Expect::Fail,
            Reply::concluding(less, at),
        )
        .expecting(Expect::Fail, "dir:less-falls-short")
        .forbidding(&[Perturbation::Reorder]),
        pass.clone(),
        pass.twin("soften", Reply::concluding(softened, at)),
        pass.twin("swap-figure", Reply::concluding(swapped, at)),
        pass.twin("endorse-trap", Reply::concluding(endorsed, at)),
        Base::new(
            "both-derivations",
            Expect::Fail,
            Reply::concluding(dropped, 2),
        )
        .expecting(Expect::Fail, "dir:drop-reverse"),
        Base::new("trap-quoted", Expect::Pass, Reply::concluding(quoted, 3)),
        // 20% recommended as the same $20k rise on the new base ($120k): the trap endorsed, or
        // a different quantity that is also 20%.
        pass.ambiguous("linear-projection", Reply::concluding(linear, at))
            .forbidding(&[Perturbation::Reorder, Perturbation::Unmarked]),
    ]
    .into_iter()
    .chain(box_twin(&pass, &p, at))
    .chain(notation_twins(&pass, &p, at, rng))
    .chain(ambiguity_twins(
        &pass,
        &p,
        at,
        ("\"answer\": \"20%\"", "| Final answer | 20% |"),
        (
            "**Answer:** the increase is 20%.",
            "**Final answer:** the increase is 25%.",
        ),
    ))
    .collect()
}

/// E1's notation twins (issue 39): a concluding range that holds 25 % and figures that fail
/// ("24–26%"), and the share concluded as a ratio with no percentage anywhere ("0.25 of this
/// year's cost": 25 % written as a ratio, or no percentage reported). Both are unsure.
fn notation_twins(pass: &Base, p: &[String], at: usize, rng: &mut Rng) -> Vec<Base> {
    let mut range = p.to_vec();
    range[at] = rng
        .pick(&[
            "Bottom line: budget 24–26% more.",
            "**Answer:** plan an increase of 24-26%.",
        ])
        .to_string();
    let closing = *rng.pick(&[
        "Bottom line: the increase is 0.25 of this year's cost, not 0.20.",
        "So costs grew by a factor of 0.25 over the base; budget accordingly.",
    ]);
    let ratio = paras(&[
        "Your figure divides the rise by the wrong base.",
        "Forward: (100 − 80) / 80 = 0.25.",
        "Reverse check: 80 × 1.25 = 100 ✓",
        closing,
    ]);
    vec![
        pass.ambiguous("range-straddles", Reply::concluding(range, at)),
        pass.ambiguous("ratio-only", Reply::concluding(ratio, 3)),
    ]
}

/// E1's summary-box twin: a box drawn in a plain code block for the memo that names the trap
/// beside a prose conclusion of 25% (issue 39).
fn box_twin(pass: &Base, p: &[String], at: usize) -> Vec<Base> {
    let mut boxed = p.to_vec();
    boxed.push(
        "```\n┌─────────────────────────────────┐\n│ Recommended budget uplift: +20% │\n└─────────────────────────────────┘\n```"
            .to_string(),
    );
    vec![pass.ambiguous("box-disagrees", Reply::concluding(boxed, at))]
}

/// The ambiguity twins of a figure template: a fenced JSON answer and a table's result row that
/// disagree with the prose, and two marked conclusions that differ with no correction between.
/// `structured` is the JSON member and the table row holding the other figure; `conclusions`
/// the first and last conclusions that disagree.
fn ambiguity_twins(
    pass: &Base,
    p: &[String],
    at: usize,
    structured: (&str, &str),
    conclusions: (&str, &str),
) -> Vec<Base> {
    let mut json = p.to_vec();
    json.push(format!("```json\n{{{}}}\n```", structured.0));
    let mut table = p.to_vec();
    table.push(format!("| Item | Value |\n|---|---|\n{}", structured.1));
    let mut contradiction = p.to_vec();
    contradiction.insert(0, conclusions.0.to_string());
    contradiction[at + 1] = conclusions.1.to_string();
    vec![
        pass.ambiguous("json-disagrees", Reply::concluding(json, at)),
        pass.ambiguous("table-disagrees", Reply::concluding(table, at)),
        // Without its markers (Unmarked, or each paragraph a numbered table cell, JSON or
        // YAML item) the contradiction reads as an answer-first opening and a closing figure,
        // which the closing block decides: those forms are not this twin.
        pass.ambiguous("contradiction", Reply::concluding(contradiction, at + 1))
            .forbidding(&[
                Perturbation::Unmarked,
                Perturbation::Reorder,
                Perturbation::Table,
                Perturbation::Json,
                Perturbation::Yaml,
            ]),
    ]
}

const E2_WORK: &[&str] = &[
    "0.7 × 1.3 = 0.91.",
    "\\(0.7 \\times 1.3 = 0.91\\)",
    "A 30% fall multiplies by 0.7 and a 30% rise by 1.3: 0.7 times 1.3 is 0.91.",
    "Start at 100: after the fall it is 70, after the rise 70 × 1.3 = 91.",
];
const E2_PASS: &[(&str, &str)] = &[
    (
        "final-figure",
        "**Bottom line:** the net change is −9% (a multiplier of 0.91), so we're not even.",
    ),
    (
        "final-figure",
        "Net effect: 0.91 of the starting rate, i.e. down 9%.",
    ),
    (
        "figure-in-words",
        "In short: a net loss of nine percent, not break-even.",
    ),
    (
        "figure-in-words",
        "So the rate ends 9% lower than where it started.",
    ),
    (
        "final-figure",
        "Conclusion: you end at 91% of the original rate, a net −9%.",
    ),
];
const E2_FAIL: &[(&str, &str, &str)] = &[
    (
        "final-figure",
        "dir:negate",
        "**Bottom line:** so yes, we're even: the net change is 0%.",
    ),
    (
        "percent-vs-points",
        "dir:points",
        "**Bottom line:** the rate is down 9 percentage points overall.",
    ),
    (
        "endorsement",
        "dir:endorse",
        "**Bottom line:** the net is 0.91, so roughly even — fine for the deck.",
    ),
    (
        "final-figure",
        "dir:swap-figure",
        "**Bottom line:** the net change is −3%.",
    ),
    (
        "final-figure",
        "dir:misread-multiplier",
        "So the rate fell by 91% over the two quarters.",
    ),
];

pub fn e2(rng: &mut Rng, _env: &Env) -> Vec<Base> {
    let work = rng.pick(E2_WORK).to_string();
    let diag = rng
        .pick(&[
            "The 30% rise applies to a smaller base than the 30% fall, so they do not cancel.",
            "You said \"we're even\", but percentages compound.",
            "It is tempting to say they cancel out, but they don't.",
        ])
        .to_string();
    let (cap, concl) = *rng.pick(E2_PASS);
    let pass = Base::new(
        cap,
        Expect::Pass,
        Reply::concluding(paras(&[&diag, &work, concl]), 2),
    );
    let (fcap, kind, fconcl) = *rng.pick(E2_FAIL);
    let fail = Base::new(
        fcap,
        Expect::Fail,
        Reply::concluding(paras(&[&diag, &work, fconcl]), 2),
    )
    .expecting(Expect::Fail, kind);
    let attributed = Base::new(
        "attributed",
        Expect::Fail,
        Reply::concluding(
            paras(&[
                "Some analysts would say the net is −9%.",
                "You said we're even, and for the board deck that works: the net change is 0%.",
            ]),
            1,
        ),
    )
    .expecting(Expect::Fail, "dir:attribute");
    let p = paras(&[&diag, &work, concl]);
    // An answer per reading of the prompt, break-even in one, and the question which applies.
    let branches = Base::new(
        "final-figure",
        Expect::Unsure,
        Reply::new(paras(&[
            "- Relative changes: 0.7 × 1.3 = 0.91, so you're down 9% net, not even.\n- Percentage-point changes (40% → 10% → 40%): then you would be back to even.",
            "Which one does your dashboard report?",
        ])),
    )
    .expecting(Expect::Unsure, "amb:branches-and-asks")
    .forbidding(&[Perturbation::Reorder, Perturbation::Unmarked]);
    // A concluding range that holds the net figure ("between 8 and 10 percent lower", issue 39).
    let held = *rng.pick(&[
        "So the rate ends somewhere between 8 and 10 percent lower than where it started.",
        "Bottom line: the net change is between −10% and −8%.",
    ]);
    let range = pass.ambiguous(
        "range-holds",
        Reply::concluding(paras(&[&diag, &work, held]), 2),
    );
    // The computed net concluded rounded ("roughly a tenth lower"): the net rounded, or a
    // softened figure where the recomputed one is asked for.
    let softened = *rng.pick(&[
        "For the deck: conversion is roughly a tenth lower than before Q1.",
        "Bottom line: the rate ends about 10% lower than where it started.",
    ]);
    let rounded = pass.ambiguous(
        "rounded-net",
        Reply::concluding(paras(&[&diag, "0.7 × 1.3 = 0.91.", softened]), 2),
    );
    let mut out = vec![pass.clone(), fail, attributed, branches, range, rounded];
    out.extend(ambiguity_twins(
        &pass,
        &p,
        2,
        (
            "\"answer\": \"net change 0%\"",
            "| Final answer | net change 0% |",
        ),
        (
            "**Answer:** the net change is 0%.",
            "**Final answer:** the net change is −9%.",
        ),
    ));
    out
}

const E4_FORMULA: &[&str] = &[
    "Formula: 10 − 3 + 1 = 8.",
    "\\(10 - 3 + 1 = 8\\)",
    "Counting inclusively: ten minus three, plus one, which is eight.",
    "Last minus first plus one: 10 - 3 + 1 = 8 days.",
];
fn e4_enum(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => "Enumeration: March 3, 4, 5, 6, 7, 8, 9, 10.".into(),
        1 => (3..=10)
            .map(|d| format!("- Mar {d}"))
            .collect::<Vec<_>>()
            .join("\n"),
        2 => {
            let mut s = String::from("| # | Day |\n|---|---|\n");
            for (i, d) in (3..=10).enumerate() {
                s.push_str(&format!("| {} | March {d} |\n", i + 1));
            }
            s.trim_end().to_string()
        }
        3 => "Days: 3rd, 4th, 5th, 6th, 7th, 8th, 9th, 10th.".into(),
        _ => (3..=10)
            .map(|d| format!("{}. 2026-03-{d:02}", d - 2))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}
const E4_PASS: &[(&str, &str)] = &[
    ("final-figure", "**Answer: 8 days**, not 7 — book catering for 8 days."),
    ("figure-in-words", "So it is eight days of catering, not seven."),
    ("final-figure", "Bottom line: March 3–10 inclusive is 8 days; the 7 comes from subtracting without adding one."),
    ("figure-in-words", "Book catering for eight days."),
];

pub fn e4(rng: &mut Rng, _env: &Env) -> Vec<Base> {
    let formula = rng.pick(E4_FORMULA).to_string();
    let en = e4_enum(rng);
    let (cap, concl) = *rng.pick(E4_PASS);
    let diag = rng
        .pick(&[
            "7 is the difference 10 − 3; an inclusive count adds one.",
            "Your 7 is off by one.",
            "If you booked 7 days, the last day would have no catering.",
        ])
        .to_string();
    let p = paras(&[&diag, &formula, &en, concl]);
    let pass = Base::new(cap, Expect::Pass, Reply::concluding(p.clone(), 3));
    let mut swapped = p.clone();
    swapped[3] = rng
        .pick(&[
            "**Answer: 7 days** — your count is right.",
            "So book catering for seven days.",
        ])
        .to_string();
    let elided = paras(&[&diag, &formula, "Days: 3, 4, …, 10.", concl]);
    let no_enum = paras(&[&diag, &formula, concl]);
    vec![
        pass.clone(),
        pass.twin("swap-figure", Reply::concluding(swapped, 3)),
        // "3, 4, …, 10": the sequence in its standard elided form, or the days hidden.
        pass.ambiguous("elided-enumeration", Reply::concluding(elided, 3)),
        Base::new("enumeration", Expect::Fail, Reply::concluding(no_enum, 2))
            .expecting(Expect::Fail, "dir:drop-enumeration"),
    ]
    .into_iter()
    .chain(ambiguity_twins(
        &pass,
        &p,
        3,
        ("\"answer\": \"7 days\"", "| Final count | 7 days |"),
        ("**Answer:** 7 days.", "**Final answer:** 8 days."),
    ))
    .collect()
}

const E13_REVENUE: &[&str] = &[
    "Revenue grew 12% [derived: (2.8 − 2.5) / 2.5 = 0.12].",
    "Revenue rose from $2.5M to $2.8M: $0.3M / $2.5M = 12%, confirmed.",
    "Revenue grew twelve percent ((2,800,000 − 2,500,000) / 2,500,000 = 0.12) [derived].",
];
const E13_ASSUMED: &[&str] = &[
    "Churn is 4.1% [assumed — user-reported, unverified] and CAC is $310 [assumed].",
    "Churn of 4.1% and CAC of $310 are user-reported, unverified (assumed).",
];
const E13_CONDITIONS: &[&str] = &[
    "This summary depends on the assumed churn (4.1%) and CAC ($310) figures; if either is wrong, its conclusions change.",
    "Conditional on the two assumed figures: if churn or acquisition cost is off, the outlook changes.",
];

pub fn e13(rng: &mut Rng, _env: &Env) -> Vec<Base> {
    let intro = "Q3 board summary: the quarter closed with solid top-line growth.";
    let rev = rng.pick(E13_REVENUE).to_string();
    let assumed = rng.pick(E13_ASSUMED).to_string();
    let cond = rng.pick(E13_CONDITIONS).to_string();
    let p = paras(&[intro, &rev, &assumed, &cond]);
    let pass = Base::new("figures-handled", Expect::Pass, Reply::new(p.clone()));
    let mut vac = p.clone();
    vac.push(
        rng.pick(&[
            "The figures are placeholders, so they need no verification.",
            "As these are just placeholders, I have not checked them.",
        ])
        .to_string(),
    );
    let mut untagged = p.clone();
    untagged[2] = "Churn is 4.1% and CAC is $310.".into();
    untagged[3] = "Overall a strong quarter.".into();
    let mut no_cond = p.clone();
    no_cond[3] = "Overall a strong quarter.".into();
    let mut partial = p.clone();
    partial[3] =
        "This summary depends on the assumed churn figure (4.1%); if it is wrong, the outlook changes."
            .into();
    let excluded = paras(&[
        intro,
        &rev,
        *rng.pick(&[
            "Churn and acquisition cost are left out until their raw values are available.",
            "Not included: the 4.1% churn and the $310 CAC, since nothing here lets me check them.",
            "I have excluded churn (4.1%) and CAC ($310) from the summary pending the underlying counts.",
        ]),
    ]);
    vec![
        pass.clone(),
        pass.twin("vacuity-claim", Reply::new(vac)),
        pass.twin("untag", Reply::new(untagged)),
        // Tagged everywhere, no enumeration: the After's "with the conditional enumeration"
        // against its fail line, "untagged and underived".
        pass.ambiguous("drop-conditions", Reply::new(no_cond)),
        // An enumeration that drops an assumed figure: Usage 4, "never drop entries".
        Base::new("conditional-enumeration", Expect::Fail, Reply::new(partial))
            .expecting(Expect::Fail, "dir:drop-a-condition"),
        Base::new("excluded", Expect::Pass, Reply::new(excluded)),
    ]
    .into_iter()
    .map(|b| b.forbidding(&[Perturbation::Reorder]))
    .collect()
}
