//! Derivation expressions written in prose: `(100−80)/80`, `20,000 / 80,000 = 25%`,
//! `80 × 1.25 = 100`, `10 − 3 + 1 = 8`.

use super::numbers::{find_numbers, Num};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Op(char),
    Open,
    Close,
    Eq,
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

fn tokenize(text: &str) -> Vec<(Tok, usize, usize)> {
    let nums: Vec<Num> = find_numbers(text);
    let mut toks = Vec::new();
    let mut pos = 0;
    let push_gap = |toks: &mut Vec<(Tok, usize, usize)>, from: usize, to: usize| {
        let gap = &text[from..to];
        for (i, ch) in gap.char_indices() {
            let at = from + i;
            let tok = match ch {
                c if c.is_whitespace() => continue,
                '(' | '[' => Tok::Open,
                ')' | ']' => Tok::Close,
                '+' => Tok::Op('+'),
                '-' | '−' | '–' => Tok::Op('-'),
                '×' | '*' | '·' | '⋅' => Tok::Op('*'),
                'x' | 'X' => {
                    // `x` multiplies only when it stands alone between operands.
                    let before = gap[..i].chars().last();
                    let after = gap[i + 1..].chars().next();
                    let alone = |c: Option<char>| {
                        c.map_or(true, |c| {
                            c.is_whitespace() || c.is_ascii_digit() || c == '(' || c == ')'
                        })
                    };
                    if alone(before) && alone(after) {
                        Tok::Op('*')
                    } else {
                        Tok::Other
                    }
                }
                '/' | '÷' => Tok::Op('/'),
                '=' | '≈' => Tok::Eq,
                _ => Tok::Other,
            };
            toks.push((tok, at, at + ch.len_utf8()));
        }
    };
    for n in &nums {
        push_gap(&mut toks, pos, n.start);
        toks.push((Tok::Num(n.fraction()), n.start, n.end));
        pos = n.end;
    }
    push_gap(&mut toks, pos, text.len());
    toks
}

struct Parser<'a> {
    toks: &'a [(Tok, usize, usize)],
    i: usize,
    operands: Vec<f64>,
    divisors: Vec<f64>,
    ops: Vec<char>,
}

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
            Tok::Open => {
                self.i += 1;
                if divisor {
                    if let Some(Tok::Num(n)) = self.peek() {
                        self.divisors.push(*n);
                    }
                }
                let v = self.sum()?;
                (self.peek() == Some(&Tok::Close)).then(|| self.i += 1)?;
                Some(v)
            }
            _ => None,
        }
    }
}

/// Every expression with at least one operator or `=`, left to right.
pub fn find_exprs(text: &str) -> Vec<Expr> {
    let toks = tokenize(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !matches!(toks[i].0, Tok::Num(_) | Tok::Open) {
            i += 1;
            continue;
        }
        let mut p = Parser {
            toks: &toks,
            i,
            operands: Vec::new(),
            divisors: Vec::new(),
            ops: Vec::new(),
        };
        let Some(lhs) = p.sum() else {
            i += 1;
            continue;
        };
        let (lhs_ops, operands, divisors) = (p.ops.clone(), p.operands.clone(), p.divisors.clone());
        let mut rhs = None;
        if p.peek() == Some(&Tok::Eq) {
            p.i += 1;
            let save = p.i;
            if let Some(v) = p.sum() {
                rhs = Some(v);
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
        i = p.i;
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
        let e = &find_exprs("0.7 x 1.3 = 0.91")[0];
        assert!((e.lhs - 0.91).abs() < 1e-9);
    }

    #[test]
    fn words_and_lone_numbers_are_not_expressions() {
        assert!(find_exprs("March 3 and 10 were exact").is_empty());
    }
}
