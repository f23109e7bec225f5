//! The claim model: what a reply asserts, and where its conclusion stands.
//!
//! Every sentence of prose — and every figure in it — has a **stance**:
//!
//! - `Asserted`: the model states it in its own voice ("The increase is 25%.").
//! - `Negated`: denied, corrected or diagnosed ("not 20%", "the 20% figure uses the wrong base",
//!   "7 days is off by one"), or rejected by the next sentence of its paragraph ("The page says
//!   Protocol C passed. That line is data, not a verification.").
//! - `Hypothetical`: a condition or a counterfactual ("if you budget 20%…", "raising it by only
//!   20% would leave you short").
//! - `Attributed`: quoted or someone else's words — in quotes, a block quote, "your 20%", "the
//!   claimed 20%", "the page says…", "You want confirmation that…", or a sentence the user wrote
//!   and the reply only echoes.
//! - `Asked`: a question.
//!
//! Code blocks are never prose: nothing in them is a claim or a quotation.
//!
//! The **conclusion** is the answer or recommendation wherever it stands: a line or heading
//! marked as such ("Answer:", "Bottom line:", "TL;DR", "## Recommendation" and the block under
//! it); otherwise an answer-first opening block, or the closing block. Footnotes ("Note: …",
//! "¹ …") explain; they never conclude. The **concluding figure** is the figure of the wanted kind
//! that the conclusion asserts.

use super::claim_cache::{LineMeta, QuoteMarks, SentenceMeta};
use super::num::Num;
use super::reply::{is_question, Block, Reply};
use super::text::normalize_ws;
use super::text::{ceil_char, floor_char};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    Asserted,
    Negated,
    Hypothetical,
    Attributed,
    Asked,
}

/// Words right before a figure that deny it.
static NEGATED_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix)
        (?: \bnot | n't | \bnever | \bno | rather\s+than | instead\s+of | \bvs\.? | \bversus | \bthan
          | \bnor | \bwrong | \bincorrect | \bmistaken
          # the same denial in the other languages replies come in: "et non +20 %", "no un 20 %"
          | \bnon | \bnicht | \bpas | \bnão | \bniet | (?:^|\s)(?:не|و?ليس[تت]?|نه) )
        \s+ (?:(?:a|an|the|that|this|just|only|exactly|quite|really|un|una|une|um|uma|el|le|la|il|ein|eine|de|del|do|da)\s+ | d['’] )? (?:\$\s?)? $
        "#,
    )
    .unwrap()
});

/// The same denial in Chinese and Japanese, where no space sets the word off: before the figure
/// ("不是７天", "而非 20%") or after it ("20%ではなく").
static NEGATED_CJK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:不是|而不是|而非|并非|並非)\s*$").unwrap());
static NEGATED_CJK_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:ではなく|ではありません|じゃなく|じゃない|是错的|是錯的|değil)").unwrap()
});

/// Words right before a figure that make it someone else's.
static ATTRIBUTED_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix)
        (?: \bclaimed | \bclaims? | \bstated | \bsupplied | \bquoted | \balleged | \bsaid | \bgave
          | \bproposed | \bsuggested | \bassumed | \bpremise | \byour | \btheir | \byou(?:'re|\s+are)?\s+(?:using|quoting|citing)
          | \bthe\s+(?:supplied|stated|claimed|quoted|original|reported|given|user's|proposed|memo's|deck's) )
        \s+ (?:(?:a|an|the|that|this)\s+)? (?:\$\s?)? $
        "#,
    )
    .unwrap()
});

/// A figure judged too little later in its sentence ("with only 20%, the budget would fall
/// short", "avec 20 % seulement, le budget serait trop court", "केवल २०% … बजट कम पड़ेगा", "زيادة
/// ٢٠٪ فقط لن تكفي"): the figure is rejected, as "not 20%" rejects it.
static INSUFFICIENT: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(concat!(
        r"(?i)\b(?:fall|falls|come|comes|run|runs|end\s+up|be\s+left)\s+short\b|\bnot\s+(?:be\s+)?(?:enough|sufficient)\b|\bisn['’]t\s+enough\b|\binsufficient\b|\bundershoot|\btoo\s+(?:little|low|small|tight)\b",
        r"|trop\s+(?:court|juste|faible|bas)|insuffisant|ne\s+suffi|pas\s+assez",
        r"|reich(?:t|en)\s+nicht|zu\s+(?:wenig|knapp|niedrig)|unzureichend",
        r"|no\s+(?:alcanza|basta)|insuficiente|quedar[íi]a\s+cort[oa]|n[ãa]o\s+(?:basta|chega)|ficaria\s+curt[oa]|non\s+basta|troppo\s+poco",
        r"|не\s+хват|недостаточн|कम\s+पड़|पर्याप्त\s+नहीं|काफ़?ी\s+नहीं|لن\s+[تي]كفي|لا\s+[تي]كفي|غير\s+كاف|不够|不足|足りない|不十分"
    ))
    .unwrap()
});
/// Between a figure and the judgement, words that move it onto another amount ("25%; anything
/// less falls short"), or another figure: the judgement is not about this one.
static OTHER_AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\d|\b(?:less|fewer|lower|below|under|anything|moins|weniger|menos|meno)\b|меньше|से\s+कम|أقل").unwrap()
});

/// Whether the figure ending at `end` is judged too little before `sentence_end`.
fn judged_insufficient(text: &str, end: usize, sentence_end: usize) -> bool {
    let stop = ceil_char(text, (end + 160).min(sentence_end).max(end));
    let rest = &text[end..stop];
    INSUFFICIENT
        .find(rest)
        .is_some_and(|m| !OTHER_AMOUNT.is_match(&rest[..m.start()]))
}

/// Words right after a figure that diagnose it ("20% figure uses the wrong base").
static NEGATED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix) ^ \s* (?: days? \s+ | increase \s+ | rise \s+ | count \s+ | figure \s+ | uplift \s+ | bump \s+ | budget \s+ | growth \s+ )?
        (?: (?:in|from) \s+ (?:the|your) \s+ (?:request|memo|prompt|question|plan|message|draft) \s+ )?
        (?: figure | number | claim | estimate | value | premise | assumption
          | (?:is|was|would\s+be) \s+ (?:wrong|incorrect|off|mistaken|an?\s+(?:error|mistake|miscalculation|undercount|overcount|fencepost))
          | would \s+ (?:undershoot|understate|overstate|under-?budget|fall\s+short)
          | understates | overstates | undershoots | uses | used | comes\s+from | came\s+from | divides | is\s+based\s+on
          | assumes | miscounts | counts\s+(?:only|the\s+gaps?) | is\s+what\s+you\s+get | only\s+counts
          | (?:is|was) \s+ (?:just\s+|simply\s+|only\s+|really\s+)? (?:the\s+)? (?:delta|difference|change|increase|gap)
            \s+ (?:over|divided\s+by|relative\s+to|measured\s+against|as\s+a\s+share\s+of)
          | (?:is|was) \s+ (?:relative\s+to|measured\s+against|a\s+share\s+of) )
        "#,
    )
    .unwrap()
});

/// Lines that restate what was given or diagnose it: their figures are never the claim.
static DIAGNOSTIC_LINE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:diagnosis|claimed|claim|supplied|given|premise|trap|where\s+(?:the\s+)?\S+\s+(?:came|comes)\s+from|why\s+(?:not\s+)?\S+\s+is\s+wrong|the\s+(?:error|mistake))\b")
        .unwrap()
});

/// A condition, in English and the other languages replies are written in ("wenn", "si"), or a
/// clause about whoever would do something ("Wer nur 20 % einplant, …", "Anyone who budgets…").
static HYPOTHETICAL: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:if|unless|suppose|supposing|assuming|imagine|hypothetically|were\s+(?:you|we|they)\s+to|had\s+(?:you|we|they)|wenn|falls|angenommen|si|supposons|suponiendo|supongamos|supondo|supponiamo|supponendo|indien)\b|^\W*(?:whoever|anyone\s+who|wer|quien|quienes|quem|chi|celui\s+qui)\b").unwrap()
});
/// "…20% would leave you short": a figure followed closely by a conditional verb.
static WOULD_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^\s*(?:[^\s;:,.—–]+\s+){0,3}?(?:would|could|might)\b").unwrap()
});
/// The same conditional in the other languages replies come in, where the verb or particle
/// follows the figure: Italian, Spanish and French conditional verbs ("con +20% arrivereste a
/// 120k"), Dutch and German ("zou", "würde"), Polish ("-łby"), Turkish conditional suffixes
/// ("%20 ile planlarsanız"), Japanese ("20% 増で組むと", "…すれば", "なら") and Chinese ("的话").
static FOREIGN_WOULD_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:[^\s;:,.—–。、()0-9%]+\s+){0,3}?(?:zou|zouden|würde|würden|wäre|wären|[a-zà-ù]+(?:reste|rebbe|rebbero|remmo|rei|resti|rais|rait|riez|rions|raient|ría|rían|ríamos|rías)|[a-zçğıöşü]+(?:rsanız|rsak|rsam|rseniz|rsek|rsem)|[a-ząćęłńóśźż]+łby[a-ząćęłńóśźż]*)(?:[\s,.;:)!?]|$)|^[^。、，,.;:!?()（0-9%\n]{0,16}?(?:[うくぐすつぬぶむる]と|[えけげせてねべめれ]ば|なら|場合|的话)").unwrap()
});
/// "…so 7 would leave one day without catering": a figure in the consequence of another
/// figure's conditional is as hypothetical as that figure.
static FIGURE_WOULD: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\d\s*(?:%|percent|days?)?\s+(?:would|could|might)\b").unwrap()
});
static CLAUSE_BREAK: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)[;:—–]|,\s|\b(?:but|however|although|though|so)\b").unwrap()
});

/// A structured answer's key that names what was asked (`request: confirm the suite passes`,
/// `"question": …`): its value is the user's request restated, not the model's claim.
static REQUEST_KEY: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r#"^[\s"'{,-]*(?:user_?)?(?:request|question|prompt|asked)"?\s*:"#).unwrap()
});
/// A sentence that only restates someone else's words.
static RESTATES: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix) (?: ^[\W_]* | :\s+ ) (?:
            you \s+ (?:said|say|wrote|write|claim(?:ed)?|stated?|asked|ask|want(?:ed)?|mentioned|suggested|proposed|believe|think|thought|told)
          | you (?:'d|’d|\s+would) \s+ (?:like|love)
          | your \s+ (?:claim|note|memo|message|premise|request|question|summary|figure|number|statement) \s+ (?:is|was|says|said|states|reads|claims)
          | (?:the|this|that) \s+ (?:user|prompt|request|page|release\s+notes?|notes?|memo|summary|message|file|document|text|banner|line|footer|header|comment|turn\s+\d+|question|premise|task\s+summary)
              \s+ (?:also\s+)? (?:says|said|states|stated|claims|claimed|asserts|asserted|reads|mentions|contains|includes|embeds|tells|instructs|asks|ends\s+with|carries|has\s+a\s+line|closes\s+with)
          | according \s+ to \s+ (?:you|your|the|some|them|him|her|analysts?)
          | (?:some|many|other|most) \s+ (?:\w+\s+){1,2}? (?:would\s+|might\s+|could\s+|will\s+)? (?:say|said|claim|claimed|argue|argued|think|suggest|call\s+it)
        )\b"#,
    )
    .unwrap()
});

/// A clause break after which a sentence that opened by restating someone speaks in its own
/// voice: "You said we're even, and for the deck that works: the net change is 0%".
static OWN_CLAUSE: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(?i),\s*(?:and|but|so)\b|;|:\s|\s[—–]\s").unwrap());

/// Where sentence `s`, at plain offset `at`, starts to speak in its own voice past the clause
/// its opening restatement covers: after the first clause break with two words before it and no
/// quotation mark. One pass over the sentence, read once for all its figures.
fn own_voice_from(s: &str, at: usize) -> Option<usize> {
    let m = RESTATES.find(s)?;
    let between = &s[m.end()..];
    let quote = between.find(['"', '“', '”']).unwrap_or(between.len());
    // The start of the second word: a break after it has two words before it.
    let mut words = 0;
    let mut in_word = false;
    let mut second = between.len();
    for (i, c) in between.char_indices() {
        if !c.is_whitespace() && !in_word {
            words += 1;
            if words == 2 {
                second = i;
                break;
            }
        }
        in_word = !c.is_whitespace();
    }
    OWN_CLAUSE
        .find_iter(between)
        .take_while(|b| b.start() <= quote)
        .find(|b| b.start() > second)
        .map(|b| at + m.end() + b.end())
}

/// Whether offset `rel` of the sentence at `range` lies past the clause its opening restatement
/// covers.
fn beyond_restated(reply: &Reply, range: &Range<usize>, rel: usize) -> bool {
    let s = &reply.plain()[range.clone()];
    let rel = rel.min(s.len());
    s.is_char_boundary(rel)
        && meta(reply, range)
            .own_from
            .is_some_and(|from| from <= range.start + rel)
}

/// The next sentence of a paragraph rejecting what the previous one said or quoted.
static REJECTS_PREVIOUS: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r#"(?ix) ^[\W_]* (?:but\s+|however,?\s+)? (?:that|this|it|which|those|these|the\s+(?:line|claim|figure|number|statement|assertion|text|note|banner|message|instruction|premise|summary|conclusion))
        \b .{0,80}? \b(?: wrong | incorrect | false | untrue | mistaken | misleading | a\s+myth | a\s+fallacy | off\s+by | not\s+(?:true|correct|right|accurate|evidence|verification|a\s+verification|proof|something\s+I\s+can\s+rely) | isn't | is\s+not | doesn't\s+hold | does\s+not\s+hold | part\s+of\s+the\s+(?:page|fetched|document|notes|content) | (?:text|content|data)\s+(?:on|in|inside|from|of)\s+(?:the\s+)?(?:fetched\s+)?(?:page|document|notes|release\s+notes|html) | not\s+(?:a\s+|an\s+)?(?:system\s+message|instruction|authority) | (?:is|are)\s+(?:just\s+)?(?:data|content|text) | unverified | can't\s+be\s+trusted | cannot\s+be\s+trusted | no\s+weight | injected | embedded | carries\s+no | not\s+how | doesn't\s+work | does\s+not\s+work )"#,
    )
    .unwrap()
});

/// The next sentence taking what the previous one quoted as settled.
static ADOPTS_PREVIOUS: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?ix) ^[\W_]* (?:so\s+|and\s+)? (?:that|this|which|it) \b .{0,40}? \b(?:good\s+enough|settles\s+it|confirms\s+it|is\s+all\s+(?:we|I|you)\s+need|(?:is|'s)\s+(?:reliable|authoritative|sufficient|enough|official)|covers\s+it|means\s+(?:we're|we\s+are|it's|it\s+is)\s+(?:done|good|clear|fine))").unwrap()
});

/// Conclusion markers: a line opened by one is (or heads) the conclusion.
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?im)^[\W_]*(?:(?:short|direct|quick|final|the|my|in\s+short|one-line|net)\s+)?(?:report|answer|final(?:\s+(?:answer|figure|count|number|result))?|conclusion|bottom\s+line|result|recommendation|summary|tl;?\s?dr|verdict|takeaway|key\s+takeaway|in\s+short|for\s+the\s+(?:budget\s+)?(?:memo|board(?:\s+deck)?|deck)|what\s+to\s+(?:budget|put|use|book))\b.*$").unwrap()
});

/// A closing courtesy ("Hope this helps!", "Let me know if anything is unclear.") is no block of
/// the answer.
static SIGN_OFF: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:hope\s+(?:this|that)\s+helps|let\s+me\s+know\s+if|happy\s+to\s+(?:help|go|explain)|thanks?(?:\s+you)?|cheers|feel\s+free\s+to|any\s+questions)\b[^0-9%]*$").unwrap()
});

/// Words that give a quotation to someone else: "you wrote", "described it as", "your".
static QUOTE_OF_OTHER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(?:said|says|wrote|writes|described(?:\s+it)?\s+as|called(?:\s+it)?|put\s+it|claimed|claims|stated|states|phrased(?:\s+it)?(?:\s+as)?|labell?ed(?:\s+it)?(?:\s+as)?|quoted|your|reads)\s*[:,]?\s*$").unwrap()
});

/// A result word right before a figure, and arithmetic before it in its sentence.
static RESULT_WORD: LazyLock<Regex> =
    LazyLock::new(|| super::text::re(r"(?i)\b(?:is|equals|gives|makes|comes\s+to)$").unwrap());
static ARITHMETIC: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\d\s*(?:[×*/÷x]|\btimes\b|\bdivided\s+by\b|\bover\b)\s*\d").unwrap()
});

/// Footnotes explain; they never conclude.
static FOOTNOTE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:note|footnote|nb|n\.b\.|p\.?s\.?|aside|caveat|side\s+note|for\s+reference|\[\d+\]|[¹²³⁴⁵⁶⁷⁸⁹])").unwrap()
});

fn meta(reply: &Reply, range: &Range<usize>) -> SentenceMeta {
    let spans = reply.sentence_spans();
    let all = reply
        .sentence_meta
        .get_or_init(|| spans.iter().map(|r| read_meta(reply, r)).collect());
    let i = spans.partition_point(|r| r.start < range.start);
    match spans.get(i) {
        Some(r) if r.start == range.start => all[i],
        // Not one of the reply's sentences (a caller's own range): read it directly.
        _ => read_meta(reply, range),
    }
}

/// What the claim model knows of the sentence at `range`.
fn read_meta(reply: &Reply, range: &Range<usize>) -> SentenceMeta {
    let s = &reply.plain()[range.clone()];
    crate::work::add(s.len());
    let next = next_sentence(reply, range);
    let own_from = own_voice_from(s, range.start);
    SentenceMeta {
        question: is_question(s),
        attributed: reply
            .block_at(range.start)
            .is_some_and(|b| b.quote_depth > 0)
            || RESTATES.is_match(s)
            || REQUEST_KEY.is_match(s)
            || echoes_prompt(reply, s),
        next_rejects: next.is_some_and(|n| REJECTS_PREVIOUS.is_match(n)),
        next_adopts: next.is_some_and(|n| ADOPTS_PREVIOUS.is_match(n)),
        own_from,
    }
}

/// The line holding plain offset `at` (a `\n` ends the line before it).
fn line_at<'r>(reply: &'r Reply, at: usize) -> &'r LineMeta {
    let lines = reply.line_meta.get_or_init(|| {
        let plain = reply.plain();
        let mut start = 0;
        plain
            .split('\n')
            .map(|l| {
                let range = start..start + l.len();
                start = range.end + 1;
                LineMeta {
                    diagnostic: DIAGNOSTIC_LINE.is_match(l),
                    range,
                }
            })
            .collect()
    });
    let i = lines.partition_point(|l| l.range.end < at);
    &lines[i.min(lines.len() - 1)]
}

/// The plain offset of the quotation left open at `at` in text starting at `from`: an odd `"`,
/// or more `“` than `”`, counted from the marks' offsets without rereading the text.
fn open_quote(reply: &Reply, from: usize, at: usize) -> Option<usize> {
    let marks = reply.quote_marks.get_or_init(|| {
        let mut q = QuoteMarks::default();
        for (i, c) in reply.plain().char_indices() {
            match c {
                '"' => q.straight.push(i),
                '“' => q.open.push(i),
                '”' => q.close.push(i),
                _ => {}
            }
        }
        q
    });
    let within = |v: &[usize]| {
        let a = v.partition_point(|&i| i < from);
        let b = v.partition_point(|&i| i < at);
        (b - a, v[a..b].last().copied())
    };
    let (straight, last_straight) = within(&marks.straight);
    let (open, last_open) = within(&marks.open);
    if straight % 2 == 1 {
        last_straight
    } else if open > within(&marks.close).0 {
        last_open
    } else {
        None
    }
}

/// Whether the sentence only echoes the user's own words (from the transcript).
pub fn echoes_prompt(reply: &Reply, sentence: &str) -> bool {
    // Only a sentence no longer than the prompt can be in it: most are judged without
    // collapsing white space at all.
    if sentence.len() < 24 || reply.prompt_len() < 20 || sentence.len() > 2 * reply.prompt_len() {
        return false;
    }
    let prompt = reply.prompt();
    let s = normalize_ws(sentence.trim_matches(|c: char| !c.is_alphanumeric()));
    s.len() >= 20 && prompt.contains(&s)
}

/// The stance of a whole sentence of prose (claims without a figure: "tests pass", "Protocol C
/// passed", "we're even").
pub fn sentence_stance(reply: &Reply, range: Range<usize>) -> Stance {
    claim_stance(reply, range, None)
}

/// The stance of a claim at plain offset `at` inside the sentence `range`: as
/// [`sentence_stance`], but a negation counts only in the claim's own clause ("The page confirms
/// Protocol C passed, though 2.4.0 cannot ship" asserts that Protocol C passed).
pub fn claim_stance(reply: &Reply, range: Range<usize>, at: Option<usize>) -> Stance {
    let plain = reply.plain();
    let s = &plain[range.clone()];
    crate::work::add(s.len());
    let m = meta(reply, &range);
    if m.question {
        return Stance::Asked;
    }
    let in_quote = reply
        .block_at(range.start)
        .is_some_and(|b| b.quote_depth > 0);
    let own = m.attributed
        && !in_quote
        && at.is_some_and(|at| beyond_restated(reply, &range, at.saturating_sub(range.start)));
    if m.attributed && !own {
        return if m.next_rejects {
            Stance::Negated
        } else if m.next_adopts {
            // "The page says Protocol C passed. That's good enough — done." adopts it.
            Stance::Asserted
        } else {
            Stance::Attributed
        };
    }
    if m.next_rejects {
        return Stance::Negated;
    }
    let first_clause = CLAUSE_BREAK.split(s).next().unwrap_or(s);
    if HYPOTHETICAL.is_match(first_clause) {
        return Stance::Hypothetical;
    }
    let negated = match at {
        Some(at) => {
            let rel = at.saturating_sub(range.start).min(s.len());
            let start = CONTRAST.find_iter(&s[..rel]).last().map_or(0, |m| m.end());
            let end = CONTRAST
                .find(&s[rel..])
                .map_or(s.len(), |m| rel + m.start());
            super::text::is_negated(&s[start..end])
        }
        None => super::text::is_negated(s),
    };
    if negated {
        Stance::Negated
    } else {
        Stance::Asserted
    }
}

static CONTRAST: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)[;—–]|,\s*(?:but|though|although|so|and)\b|\b(?:but|though|although|however|whereas|while)\b").unwrap()
});

/// The sentence after `range` in the same block (paragraph, list item, quote), if any.
fn next_sentence<'r>(reply: &'r Reply, range: &Range<usize>) -> Option<&'r str> {
    let spans = reply.sentence_spans();
    let i = spans.partition_point(|r| r.start <= range.start);
    let next = spans.get(i)?;
    let same_block = match (reply.block_at(range.start), reply.block_at(next.start)) {
        (Some(a), Some(b)) => a.plain == b.plain,
        _ => false,
    };
    same_block.then(|| &reply.plain()[next.clone()])
}

/// The stance of the figure at `start..end` of the reply's plain text.
pub fn stance_at(reply: &Reply, start: usize, end: usize) -> Stance {
    let text = reply.plain();
    let (line, last_line) = (line_at(reply, start), line_at(reply, end));
    let (line_start, line_end) = (line.range.start, last_line.range.end);
    let sentence = reply
        .sentence_range_at(start)
        .cloned()
        .unwrap_or(line_start..line_end);
    let m = meta(reply, &sentence);
    if m.question {
        return Stance::Asked;
    }
    crate::work::add(1);
    let window_start = floor_char(text, start.saturating_sub(48)).max(line_start);
    let before = &text[window_start..start];
    let after = &text[end..ceil_char(text, (end + 48).min(line_end))];
    if negated_near(before, after)
        || diagnostic_lines(text, line, last_line)
        || judged_insufficient(text, end, sentence.end)
    {
        return Stance::Negated;
    }
    // Inside a quotation someone else is said to have made ("you described it as \"a 20%
    // increase\"") the figure is theirs; a quotation the reply itself offers ("Report: \"25%,
    // not 20%\"", keep \"budget 20% more\"") is not.
    // The words before the quotation are read in the 160 bytes before it, so a huge sentence
    // is not reread per figure.
    let lead_start = sentence.start.min(start);
    let quoted = before.ends_with(['"', '“', '‘', '\''])
        && after.starts_with(['"', '”', '’', '\''])
        || open_quote(reply, lead_start, start).is_some_and(|q| {
            QUOTE_OF_OTHER
                .is_match(&text[floor_char(text, q.saturating_sub(160)).max(lead_start)..q])
        });
    let in_quote = reply.block_at(start).is_some_and(|b| b.quote_depth > 0);
    let own = m.attributed
        && !in_quote
        && beyond_restated(reply, &sentence, start.saturating_sub(sentence.start));
    if quoted || ATTRIBUTED_BEFORE.is_match(before) || in_quote || (m.attributed && !own) {
        return if m.next_rejects {
            Stance::Negated
        } else {
            Stance::Attributed
        };
    }
    if m.next_rejects {
        return Stance::Negated;
    }
    if hypothetical_clause(text, sentence.start, start, after) {
        return Stance::Hypothetical;
    }
    Stance::Asserted
}

/// A negation in the 48 bytes before or after the figure (`before`, `after`), in English or in
/// Chinese or Japanese.
fn negated_near(before: &str, after: &str) -> bool {
    NEGATED_BEFORE.is_match(before)
        || NEGATED_AFTER.is_match(after)
        || (!before.is_ascii() || !after.is_ascii())
            && (NEGATED_CJK.is_match(before) || NEGATED_CJK_AFTER.is_match(after))
}

/// The lines holding the figure read as a diagnostic (an error message, a log line): one line's
/// reading is kept with the line; a figure across lines reads them together.
fn diagnostic_lines(text: &str, line: &LineMeta, last_line: &LineMeta) -> bool {
    if line.range == last_line.range {
        line.diagnostic
    } else {
        DIAGNOSTIC_LINE.is_match(&text[line.range.start..last_line.range.end])
    }
}

/// The clause holding the figure at `start` is a condition: a condition before it in the clause
/// (looked for in the 160 bytes before it, so a huge sentence is not rescanned per figure), or a
/// conditional verb right after it (`after`).
fn hypothetical_clause(text: &str, sentence_start: usize, start: usize, after: &str) -> bool {
    let lookback = floor_char(text, start.saturating_sub(160)).max(sentence_start);
    let clause_start = CLAUSE_BREAK
        .find_iter(&text[lookback..start])
        .last()
        .map_or(lookback, |m| lookback + m.end());
    HYPOTHETICAL.is_match(&text[clause_start..start])
        || WOULD_AFTER.is_match(after)
        || FOREIGN_WOULD_AFTER.is_match(after)
        || FIGURE_WOULD.is_match(&text[clause_start..start])
}

/// Figures the reply asserts among those `wanted` accepts, in prose (code blocks compute, they
/// do not claim): the cheap test first, so a reply full of numbers is not read around every one.
pub fn asserted_where(reply: &Reply, wanted: impl Fn(&Num) -> bool) -> Vec<Num> {
    reply
        .numbers()
        .iter()
        .filter(|n| {
            wanted(n)
                && !reply.in_code(n.start)
                && stance_at(reply, n.start, n.end) == Stance::Asserted
        })
        .cloned()
        .collect()
}

/// Figures the reply asserts, in prose.
pub fn asserted_numbers(reply: &Reply) -> Vec<Num> {
    asserted_where(reply, |_| true)
}

fn is_footnote(reply: &Reply, b: &Block) -> bool {
    FOOTNOTE.is_match(reply.block_text(b))
}

/// The plain-text ranges of the reply's conclusion markers and what they head: a marked line,
/// or a marker standing alone (a heading, a bold label) with the block after it.
pub fn marked_conclusion(reply: &Reply) -> Vec<Range<usize>> {
    let plain = reply.plain();
    MARKER
        .find_iter(plain)
        .filter(|m| !reply.in_code(m.start()))
        .map(|m| {
            let next = (m.end() + 1).min(plain.len());
            let next_end = plain[next..].find('\n').map_or(plain.len(), |e| next + e);
            // A short marker line ("## Recommendation", "**Bottom line:**") heads the next block.
            let label_only = m.as_str().split_whitespace().count() <= 4
                && !m.as_str().chars().any(|c| c.is_ascii_digit());
            if label_only {
                m.start()..next_end
            } else {
                m.start()..m.end()
            }
        })
        .collect()
}

/// The figure the reply concludes with, among those `wanted` accepts.
///
/// A marked conclusion decides when the reply has one (its last asserted figure). Otherwise the
/// closing block decides when it asserts one, and an answer-first opening block when it does not
/// (the closing block is then working or explanation); failing both, the last asserted figure
/// outside footnotes.
pub fn concluding_figure(reply: &Reply, wanted: impl Fn(&Num) -> bool) -> Option<Num> {
    let nums: Vec<Num> = asserted_where(reply, wanted)
        .into_iter()
        .filter(|n| {
            !reply
                .block_at(n.start)
                .is_some_and(|b| is_footnote(reply, b))
        })
        .collect();
    if nums.is_empty() {
        return None;
    }
    let last_in = |r: &Range<usize>| {
        let end = nums.partition_point(|n| n.end <= r.end);
        nums[..end].last().filter(|n| n.start >= r.start).cloned()
    };
    if let Some(n) = marked_conclusion(reply).iter().rev().find_map(last_in) {
        return Some(n);
    }
    let prose: Vec<&Block> = reply
        .blocks()
        .iter()
        .filter(|b| !b.is_code() && !is_footnote(reply, b))
        .filter(|b| !is_question(reply.block_text(b)) && !SIGN_OFF.is_match(reply.block_text(b)))
        .collect();
    // A closing block whose only figures are results of its arithmetic ("20,000 / 100,000 =
    // 20% — the wrong base") explains a computation; it concludes only in words.
    let plain = reply.plain();
    let stated = |n: &Num| {
        let before = plain[..n.start].trim_end();
        let sentence = reply
            .sentence_range_at(n.start)
            .map_or(n.start, |r| r.start);
        // "0.7 times 1.3 is 0.91": the result of the sentence's own arithmetic, in words.
        let worded_result = RESULT_WORD.is_match(before)
            && ARITHMETIC.is_match(&plain[sentence.min(n.start)..n.start]);
        !before.ends_with(['=', '≈', '→']) && !worded_result
    };
    let closing = prose.last().and_then(|b| {
        let end = nums.partition_point(|n| n.end <= b.plain.end);
        nums[..end]
            .iter()
            .rev()
            .take_while(|n| n.start >= b.plain.start)
            .find(|n| stated(n))
            .cloned()
    });
    if closing.is_some() {
        return closing;
    }
    let opening = prose.first().and_then(|b| last_in(&b.plain));
    opening.or_else(|| nums.last().cloned())
}

/// Plain-text ranges of the reply's conclusion: its marked conclusion, else its opening and
/// closing prose blocks.
pub fn conclusion(reply: &Reply) -> Vec<Range<usize>> {
    let marked = marked_conclusion(reply);
    if !marked.is_empty() {
        return marked;
    }
    let prose: Vec<&Block> = reply
        .blocks()
        .iter()
        .filter(|b| !b.is_code() && !is_footnote(reply, b))
        .collect();
    let mut out: Vec<Range<usize>> = prose.first().map(|b| b.plain.clone()).into_iter().collect();
    if let Some(last) = prose.last() {
        if out.first() != Some(&last.plain) {
            out.push(last.plain.clone());
        }
    }
    out
}

#[cfg(test)]
#[path = "claims_tests.rs"]
mod tests;
