//! Derivation expressions, in prose or in LaTeX read as plain text: `(100−80)/80`,
//! `20,000 / 80,000 = 25%`, `80 × 1.25 = 100`, `10 − 3 + 1 = 8`, `0.7 times 1.3 is 0.91`,
//! `80 × 1.25 → 100`, a table row `80 × 1.25 | 100`, code `80_000 * 1.25 == 100_000`.

use super::num::Num;
use super::numbers::find_numbers;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Op(char),
    Open,
    Close,
    Eq,
    /// `→`, `=>`, a table cell border, or `is`/`equals`: a result, but only after an operator.
    SoftEq,
    Other,
}

/// One arithmetic expression found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub text: String,
    /// The value of the left-hand side.
    pub lhs: f64,
    /// The value written after `=`, if any.
    pub rhs: Option<f64>,
    /// Numbers of the left-hand side, in order.
    pub operands: Vec<f64>,
    /// Numbers that directly follow a `/`, or open a bracket that follows one.
    pub divisors: Vec<f64>,
    pub ops: Vec<char>,
}

/// An operator word between numbers (`0.7 times 1.3`, `20 divided by 80`), with how many
/// words it takes.
fn word_op(words: &[&str]) -> Option<(Tok, usize)> {
    let w = words.first()?.to_ascii_lowercase();
    let next = words.get(1).map(|n| n.to_ascii_lowercase());
    let by = next.as_deref() == Some("by");
    Some(match w.as_str() {
        "x" | "times" => (Tok::Op('*'), 1),
        "multiplied" if by => (Tok::Op('*'), 2),
        "divided" if by => (Tok::Op('/'), 2),
        "over" => (Tok::Op('/'), 1),
        "minus" => (Tok::Op('-'), 1),
        "plus" => (Tok::Op('+'), 1),
        "equals" | "is" | "gives" | "yields" | "makes" => (Tok::SoftEq, 1),
        // "which is eight", "comes to one hundred thousand".
        "which" | "that"
            if matches!(
                next.as_deref(),
                Some("is" | "gives" | "makes" | "equals" | "yields")
            ) =>
        {
            (Tok::SoftEq, 2)
        }
        "comes" | "come" if next.as_deref() == Some("to") => (Tok::SoftEq, 2),
        _ => return None,
    })
}

/// A phrase that stands for one operator, with its length in bytes.
fn phrase_op(rest: &str) -> Option<(usize, Tok)> {
    const PHRASES: [(&str, Tok); 10] = [
        ("on a base of ", Tok::Op('/')),
        ("against a base of ", Tok::Op('/')),
        ("out of ", Tok::Op('/')),
        ("as a share of ", Tok::Op('/')),
        ("relative to ", Tok::Op('/')),
        ("gives back ", Tok::SoftEq),
        ("works out to ", Tok::SoftEq),
        ("brings you back to ", Tok::SoftEq),
        ("gets you back to ", Tok::SoftEq),
        ("lands at ", Tok::SoftEq),
    ];
    let head = rest.get(..rest.len().min(24))?.to_ascii_lowercase();
    PHRASES
        .iter()
        .find(|(p, _)| head.starts_with(p))
        .map(|(p, t)| (p.len(), t.clone()))
}

fn is_filler(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "exactly"
            | "precisely"
            | "approximately"
            | "roughly"
            | "about"
            | "around"
            | "nearly"
            | "just"
            // A currency code beside an amount ("CHF 80'000", "80 000 kr").
            | "chf"
            | "eur"
            | "usd"
            | "gbp"
            | "inr"
            | "sek"
            | "nok"
            | "dkk"
            | "kr"
            | "fr"
            | "rub"
            | "руб"
    )
}

/// Whether text after a comma goes on with arithmetic: an operator sign or word.
fn continues_expr(rest: &str) -> bool {
    // Only the head can hold what continues: lower-case a few bytes, not the rest of the gap
    // (per comma, that cost a reply of comma-joined clauses the square of its length).
    let rest = rest.trim_start();
    let head = &rest[..super::text::floor_char(rest, rest.len().min(16))];
    crate::work::add(head.len());
    let rest = head.to_ascii_lowercase();
    [
        "+",
        "-",
        "−",
        "×",
        "*",
        "/",
        "=",
        "plus ",
        "minus ",
        "times ",
        "divided ",
        "over ",
        "which is",
        "which gives",
        "is ",
        "equals ",
        "gives ",
    ]
    .iter()
    .any(|p| rest.starts_with(p))
}

fn tokenize(text: &str, nums: &[Num]) -> Vec<(Tok, usize, usize)> {
    let mut toks = Vec::new();
    let mut pos = 0;
    for n in nums {
        gap_tokens(text, pos, n.start, &mut toks);
        // A rank ("the third") is no operand.
        let tok = if n.ordinal {
            Tok::Other
        } else {
            Tok::Num(n.fraction())
        };
        toks.push((tok, n.start, n.end));
        pos = n.end;
    }
    gap_tokens(text, pos, text.len(), &mut toks);
    toks
}

/// The tokens of the text between two numbers: operator words and phrases, operator symbols,
/// brackets, and whatever ends an expression.
fn gap_tokens(text: &str, from: usize, to: usize, toks: &mut Vec<(Tok, usize, usize)>) {
    let gap = &text[from..to];
    crate::work::add(gap.len());
    let mut chars = gap.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        let at = from + i;
        if ch.is_alphabetic() {
            let (tok, end) = word_token(gap, i);
            if let Some(tok) = tok {
                toks.push((tok, at, from + end));
            }
            while chars.peek().is_some_and(|&(j, _)| j < end) {
                chars.next();
            }
            continue;
        }
        // "Umsatzwachstum: 12 % – (2,8 − 2,5) / 2,5 = 0,12": a spaced dash right after a
        // percentage sets off what follows (a percentage minus a ratio means nothing).
        if ch == '–'
            && gap[..i].trim().is_empty()
            && text[..from].ends_with('%')
            && gap[i + ch.len_utf8()..].starts_with(char::is_whitespace)
        {
            toks.push((Tok::Other, at, at + ch.len_utf8()));
            continue;
        }
        let Some((tok, pair)) = symbol_token(ch, &gap[i + ch.len_utf8()..]) else {
            continue;
        };
        if pair {
            chars.next();
        }
        toks.push((tok, at, at + ch.len_utf8()));
    }
}

/// The word (or two-word phrase) at `i` in `gap`: an operator, something that ends an
/// expression, or nothing for an adverb of precision; and where in `gap` it ends.
fn word_token(gap: &str, i: usize) -> (Option<Tok>, usize) {
    // Phrases that read as one operator ("on a base of", "gives back").
    if let Some((len, tok)) = phrase_op(&gap[i..]) {
        return (Some(tok), i + len);
    }
    // A whole word: an operator word, or something that ends an expression.
    let word_end = gap[i..]
        .find(|c: char| !c.is_alphabetic())
        .map_or(gap.len(), |e| i + e);
    let after = gap[word_end..].trim_start();
    let second_at = gap.len() - after.len();
    let second_len = after
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(after.len());
    let words = [&gap[i..word_end], &after[..second_len]];
    match word_op(&words) {
        Some((tok, 2)) => (Some(tok), second_at + second_len),
        Some((tok, _)) => (Some(tok), word_end),
        // "comes to exactly 100,000": an adverb of precision is no break.
        None if is_filler(words[0]) => (None, word_end),
        None => (Some(Tok::Other), word_end),
    }
}

/// The token a symbol stands for, given the text after it, and whether it pairs with the next
/// character ("=>", "=="); `None` for white space and a pausing comma.
fn symbol_token(ch: char, after: &str) -> Option<(Tok, bool)> {
    let next = after.chars().next();
    let tok = match ch {
        c if c.is_whitespace() => return None,
        // A currency sign beside an amount ("80.000 €", "₹80,000", "€80k") is part of it.
        '€' | '£' | '¥' | '₹' | '₽' | '₩' | '₺' | '₪' | '₫' | '₱' | '฿' | '₴' | '₦' | '₣' => {
            return None
        }
        // "ten minus three, plus one, which is eight": a comma before an operator is a
        // pause, not the end of the expression.
        ',' if continues_expr(after) => return None,
        '(' | '[' => Tok::Open,
        ')' | ']' => Tok::Close,
        '+' => Tok::Op('+'),
        '-' | '−' | '–' => Tok::Op('-'),
        '×' | '*' | '·' | '⋅' | '∙' => Tok::Op('*'),
        '/' | '÷' | '∕' => Tok::Op('/'),
        '=' if next == Some('>') => return Some((Tok::SoftEq, true)),
        '=' if next == Some('=') => return Some((Tok::Eq, true)),
        '=' | '≈' => Tok::Eq,
        '→' | '⇒' | '⟹' | '|' => Tok::SoftEq,
        _ => Tok::Other,
    };
    Some((tok, false))
}

struct Parser<'a> {
    toks: &'a [(Tok, usize, usize)],
    i: usize,
    operands: Vec<f64>,
    divisors: Vec<f64>,
    ops: Vec<char>,
    /// Brackets open around the token being read: bounded by [`MAX_NESTING`].
    depth: usize,
}

/// Brackets nested deeper than this end the expression: no derivation a reader follows nests
/// so deep, and a reply of thousands of `(` must not recurse the parser off its stack.
const MAX_NESTING: usize = 32;

/// An expression is read from at most this many tokens (64 operands and their operators): a
/// start that fails is retried one token on, so an unbounded read would make a reply of
/// `1+1+…+` cost the square of its length.
const MAX_TOKENS: usize = 128;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }
    fn sum(&mut self) -> Option<f64> {
        let mut v = self.product()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.i += 1;
            self.ops.push(op);
            let r = self.product()?;
            v = if op == '+' { v + r } else { v - r };
        }
        Some(v)
    }
    fn product(&mut self) -> Option<f64> {
        let mut v = self.atom(false)?;
        while let Some(Tok::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.i += 1;
            self.ops.push(op);
            let r = self.atom(op == '/')?;
            v = if op == '*' { v * r } else { v / r };
        }
        Some(v)
    }
    fn atom(&mut self, divisor: bool) -> Option<f64> {
        match self.peek()?.clone() {
            Tok::Num(n) => {
                self.i += 1;
                self.operands.push(n);
                if divisor {
                    self.divisors.push(n);
                }
                Some(n)
            }
            Tok::Open if self.depth < MAX_NESTING => {
                self.i += 1;
                if divisor {
                    if let Some(Tok::Num(n)) = self.peek() {
                        self.divisors.push(*n);
                    }
                }
                self.depth += 1;
                let v = self.sum();
                self.depth -= 1;
                let v = v?;
                (self.peek() == Some(&Tok::Close)).then(|| self.i += 1)?;
                Some(v)
            }
            _ => None,
        }
    }
}

/// A bracketed aside between an expression and its result (`80k × 5/4 (that is, × 1.25) =
/// 100k`, `(100 − 80)/80 (the forward check) = 0.25`) restates or names what came before: the
/// result after it is the expression's. Skipped only when a result follows the closing bracket,
/// and only within a few tokens, so a bracket that starts new arithmetic is left alone.
fn skip_aside(p: &mut Parser) {
    const MAX_ASIDE: usize = 12;
    if p.peek() != Some(&Tok::Open) {
        return;
    }
    let Some(close) = p.toks[p.i..]
        .iter()
        .take(MAX_ASIDE)
        .position(|t| t.0 == Tok::Close)
    else {
        return;
    };
    let inner = &p.toks[p.i + 1..p.i + close];
    let nested = inner.iter().any(|t| t.0 == Tok::Open);
    let result_after = matches!(
        p.toks.get(p.i + close + 1).map(|t| &t.0),
        Some(Tok::Eq | Tok::SoftEq)
    );
    if !nested && result_after {
        p.i += close + 1;
    }
}

/// Every expression with at least one operator or `=`, left to right.
pub fn find_exprs(text: &str) -> Vec<Expr> {
    find_exprs_in(text, &find_numbers(text))
}

/// [`find_exprs`] with the text's numbers already found.
pub fn find_exprs_in(text: &str, nums: &[Num]) -> Vec<Expr> {
    let toks = tokenize(text, nums);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !matches!(toks[i].0, Tok::Num(_) | Tok::Open) {
            i += 1;
            continue;
        }
        let mut p = Parser {
            toks: &toks[..toks.len().min(i + MAX_TOKENS)],
            i,
            operands: Vec::new(),
            divisors: Vec::new(),
            ops: Vec::new(),
            depth: 0,
        };
        let Some(lhs) = p.sum() else {
            i += 1;
            continue;
        };
        let (lhs_ops, operands, divisors) = (p.ops.clone(), p.operands.clone(), p.divisors.clone());
        if !lhs_ops.is_empty() {
            skip_aside(&mut p);
        }
        let mut rhs = None;
        let soft = p.peek() == Some(&Tok::SoftEq) && !lhs_ops.is_empty();
        // A chain `a = b − c + 1 = 8`: when the right-hand side is itself arithmetic, it is also
        // read as an expression of its own, with its own result.
        let mut chained = None;
        if p.peek() == Some(&Tok::Eq) || soft {
            p.i += 1;
            let save = p.i;
            let ops_before = p.ops.len();
            if let Some(v) = p.sum() {
                rhs = Some(v);
                if p.ops.len() > ops_before {
                    chained = Some(save);
                }
            } else {
                p.i = save;
            }
        }
        if lhs_ops.is_empty() && rhs.is_none() {
            i += 1;
            continue;
        }
        let (from, to) = (toks[i].1, toks[p.i - 1].2);
        out.push(Expr {
            text: text[from..to].to_string(),
            lhs,
            rhs,
            operands,
            divisors,
            ops: lhs_ops,
        });
        i = chained.unwrap_or(p.i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_derivation_in_three_notations_evaluates_to_a_quarter() {
        for t in ["(100−80)/80", "20,000 / 80,000 = 25%", "(100k − 80k)/80k"] {
            let e = &find_exprs(t)[0];
            assert!((e.lhs - 0.25).abs() < 1e-9, "{t}: {e:?}");
            assert_eq!(
                e.divisors.last().copied().map(|d| d % 80.0),
                Some(0.0),
                "{t}"
            );
        }
    }

    #[test]
    fn reverse_check_and_fencepost_formula_carry_their_right_hand_side() {
        let e = &find_exprs("check: 80 × 1.25 = 100 ✓")[0];
        assert_eq!((e.lhs, e.rhs), (100.0, Some(100.0)));
        let e = &find_exprs("10 − 3 + 1 = 8 days")[0];
        assert_eq!(
            (e.operands.clone(), e.rhs),
            (vec![10.0, 3.0, 1.0], Some(8.0))
        );
        for t in ["0.7 x 1.3 = 0.91", "0.7x1.3 = 0.91"] {
            let e = &find_exprs(t)[0];
            assert!((e.lhs - 0.91).abs() < 1e-9, "{t}");
        }
    }

    #[test]
    fn operator_words_arrows_and_table_cells_read_as_arithmetic() {
        let e = &find_exprs("0.7 times 1.3 is 0.91")[0];
        assert!((e.lhs - 0.91).abs() < 1e-9 && e.rhs.is_some_and(|r| (r - 0.91).abs() < 1e-9));
        let e = &find_exprs("20 divided by 80 equals 0.25")[0];
        assert_eq!((e.lhs, e.divisors.clone()), (0.25, vec![80.0]));
        let e = &find_exprs("Reverse | 80 × 1.25 | 100")[0];
        assert_eq!(e.rhs, Some(100.0));
        let e = &find_exprs("assert 80_000 * 1.25 == 100_000")[0];
        assert_eq!(e.rhs, Some(100000.0));
        let e = &find_exprs("80k × 1.25 → 100k")[0];
        assert_eq!(e.rhs, Some(100000.0));
        // An arrow between two amounts is a change, not a result.
        assert!(find_exprs("$80k → $100k").is_empty());
        assert!(find_exprs("March 3 is 7 days").is_empty());
    }

    #[test]
    fn arithmetic_in_words_is_arithmetic() {
        let e = &find_exprs("ten minus three plus one equals eight")[0];
        assert_eq!(
            (e.operands.clone(), e.rhs),
            (vec![10.0, 3.0, 1.0], Some(8.0))
        );
        let e = &find_exprs("ten minus three, plus one, which is eight")[0];
        assert_eq!(
            (e.operands.clone(), e.rhs),
            (vec![10.0, 3.0, 1.0], Some(8.0))
        );
        let e = &find_exprs(
            "three hundred thousand on a base of two and a half million, which is twelve percent",
        )[0];
        assert!((e.lhs - 0.12).abs() < 1e-9 && e.divisors == vec![2_500_000.0]);
        let e =
            &find_exprs("eighty thousand times one and a quarter comes to one hundred thousand")[0];
        assert_eq!((e.lhs, e.rhs), (100000.0, Some(100000.0)));
    }

    #[test]
    fn a_chain_of_equalities_reads_each_link() {
        let found = find_exprs("last − first + 1 = 10 − 3 + 1 = 8");
        assert!(found
            .iter()
            .any(|e| e.operands == vec![10.0, 3.0, 1.0] && e.rhs == Some(8.0)));
    }

    #[test]
    fn a_bracketed_aside_before_the_result_leaves_the_result_to_the_expression() {
        let e = &find_exprs("80k × 5/4 (that is, × 1.25) = 100k")[0];
        assert_eq!((e.lhs, e.rhs), (100000.0, Some(100000.0)));
        let e = &find_exprs("(100 − 80)/80 (the forward check) = 0.25")[0];
        assert_eq!(e.rhs, Some(0.25));
        // No result after the bracket: the expression ends before it, as before.
        let e = &find_exprs("80 × 1.25 (reverse) and 100")[0];
        assert_eq!(e.rhs, None);
    }

    #[test]
    fn words_and_lone_numbers_are_not_expressions() {
        assert!(find_exprs("March 3 and 10 were exact").is_empty());
    }
}
