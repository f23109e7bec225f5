//! LaTeX math as plain arithmetic: `\frac{a}{b}` → `(a)/(b)`, `\times` → `×`, `80{,}000` →
//! `80,000`, `25\%` → `25%`, `\text{days}` → `days`, so a derivation in math reads exactly like
//! one in prose.

use std::ops::Range;

/// Plain text for LaTeX source (math content, or prose that carries LaTeX commands).
/// Text without a backslash, brace or `&` is returned unchanged.
pub fn to_plain(src: &str) -> String {
    if !src.contains(['\\', '{', '}', '&']) {
        return src.to_string();
    }
    let mut out = String::with_capacity(src.len());
    convert(src, &mut out, &Braces::of(src), 0);
    out
}

/// Whether a text event at `next` goes straight on from one at `prev` in `raw` (or after the
/// backslash of an escape: CommonMark starts `\,` `\%` `\(` events after it).
pub fn adjoins(raw: &str, prev: &Range<usize>, next: &Range<usize>) -> bool {
    next.start == prev.end
        || next.start == prev.end + 1 && raw.as_bytes().get(prev.end) == Some(&b'\\')
}

/// CommonMark splits LaTeX at its escapes (`\frac{20\,000}{80\,000}` is five text events): a
/// run of adjoining text events in which a command's brace group is cut, as one text (the math
/// delimiters `\(` `\)` dropped) with its span; `None` when the run reads event by event.
pub fn cut_run<T: AsRef<str>>(
    raw: &str,
    run: &[(T, Range<usize>)],
) -> Option<(String, Range<usize>)> {
    let cut = |t: &str| t.matches('{').count() != t.matches('}').count();
    let latex = run.len() > 1
        && run.iter().any(|(t, _)| t.as_ref().contains('\\'))
        && run.iter().any(|(t, _)| cut(t.as_ref()));
    if !latex {
        return None;
    }
    let mut merged = String::new();
    for (t, range) in run {
        let t = t.as_ref();
        let escaped = range.start > 0 && raw.as_bytes()[range.start - 1] == b'\\';
        match t.strip_prefix(['(', ')', '[', ']']) {
            Some(rest) if escaped => merged.push_str(rest),
            _ => merged.push_str(t),
        }
    }
    Some((merged, run[0].1.start..run[run.len() - 1].1.end))
}

/// Where each `{` of a source closes, found in one pass: a brace group is then looked up, not
/// scanned for, so a reply of thousands of `\text{` left open costs no more than its length.
struct Braces {
    /// The address of the source's first byte: a slice of it finds its offset from this.
    base: usize,
    /// The offset of every `{` that closes, with the offset of its `}`.
    close: std::collections::HashMap<usize, usize>,
}

impl Braces {
    fn of(src: &str) -> Braces {
        let (mut open, mut close) = (Vec::new(), std::collections::HashMap::new());
        for (i, b) in src.bytes().enumerate() {
            match b {
                b'{' => open.push(i),
                b'}' => {
                    if let Some(o) = open.pop() {
                        close.insert(o, i);
                    }
                }
                _ => {}
            }
        }
        Braces {
            base: src.as_ptr() as usize,
            close,
        }
    }
}

/// Groups opened inside one another past this read as text: no formula a reader follows nests
/// so deep, and a reply of thousands of `\frac{` must not recurse the reader off its stack.
const MAX_NESTING: usize = 32;

/// What a command stands for, when it is a symbol.
fn symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "times" => "×",
        "cdot" | "ast" => "·",
        "div" => "÷",
        "approx" | "simeq" | "sim" | "cong" => "≈",
        "ne" | "neq" => "≠",
        "le" | "leq" => "≤",
        "ge" | "geq" => "≥",
        "pm" => "±",
        "to" | "rightarrow" | "Rightarrow" | "implies" | "longrightarrow" | "Longrightarrow" => {
            " → "
        }
        "checkmark" => "✓",
        "quad" | "qquad" | "enspace" | "thinspace" | "medspace" | "thickspace" => " ",
        "percent" => "%",
        "left" | "right" | "bigl" | "bigr" | "Bigl" | "Bigr" | "big" | "Big" | "displaystyle"
        | "textstyle" | "limits" | "nolimits" => "",
        "dots" | "ldots" | "cdots" => "…",
        "lbrace" => "{",
        "rbrace" => "}",
        _ => return None,
    })
}

/// Commands whose one argument is shown as it is.
fn shows_argument(name: &str) -> bool {
    matches!(
        name,
        "text"
            | "textrm"
            | "textbf"
            | "textit"
            | "textsf"
            | "texttt"
            | "mathrm"
            | "mathbf"
            | "mathit"
            | "mathsf"
            | "mathtt"
            | "operatorname"
            | "boxed"
            | "bm"
            | "boldsymbol"
            | "emph"
            | "underline"
            | "overline"
            | "mbox"
            | "hbox"
            | "underbrace"
            | "overbrace"
            | "color"
    )
}

/// The brace group starting at `s` (which must start with `{` and be a slice of the source
/// `braces` was made from): its inside and the rest.
fn group<'a>(s: &'a str, braces: &Braces) -> Option<(&'a str, &'a str)> {
    let at = (s.as_ptr() as usize).checked_sub(braces.base)?;
    let i = braces.close.get(&at)?.checked_sub(at)?;
    Some((s.get(1..i)?, s.get(i + 1..)?))
}

/// One argument: a brace group, or a single character (`\frac12`).
fn argument<'a>(s: &'a str, braces: &Braces) -> Option<(&'a str, &'a str)> {
    let s = s.trim_start();
    if s.starts_with('{') {
        group(s, braces)
    } else {
        let c = s.chars().next()?;
        Some((&s[..c.len_utf8()], &s[c.len_utf8()..]))
    }
}

fn convert(mut s: &str, out: &mut String, braces: &Braces, depth: usize) {
    while let Some(c) = s.chars().next() {
        let rest = &s[c.len_utf8()..];
        match c {
            '\\' => s = command(rest, out, braces, depth),
            // `{,}` is how LaTeX writes a thousands comma.
            '{' if rest.starts_with(",}") => {
                out.push(',');
                s = &rest[2..];
            }
            '{' | '}' => s = rest,
            '&' => {
                out.push(' ');
                s = rest;
            }
            '~' => {
                out.push(' ');
                s = rest;
            }
            _ => {
                out.push(c);
                s = rest;
            }
        }
    }
}

/// A one-character control symbol: `\,` `\;` `\!` `\ ` are spacing, `\%` `\$` `\{` literal.
fn control_symbol<'a>(rest: &'a str, out: &mut String) -> &'a str {
    let Some(c) = rest.chars().next() else {
        return rest;
    };
    let after = &rest[c.len_utf8()..];
    match c {
        // A thin space between digit groups (`80\,000`) is a thousands separator.
        ',' | ';' | ':' | '!' | ' ' => {
            let digit_before = out.chars().last().is_some_and(|d| d.is_ascii_digit());
            let digit_after = after.chars().next().is_some_and(|d| d.is_ascii_digit());
            if !(digit_before && digit_after) && c != '!' {
                out.push(' ');
            }
        }
        '\\' => out.push('\n'),
        '(' | ')' | '[' | ']' => out.push(' '),
        _ => out.push(c),
    }
    after
}

/// siunitx's `\SI{25}{\percent}`, `\qty{80}{\kilo\dollar}`: the value, then its unit.
fn quantity<'a>(after: &'a str, out: &mut String, braces: &Braces, depth: usize) -> &'a str {
    let Some((value, r)) = argument(after, braces) else {
        return after;
    };
    convert(value, out, braces, depth + 1);
    let Some((unit, r)) = argument(r, braces) else {
        return r;
    };
    let mut u = String::new();
    convert(unit, &mut u, braces, depth + 1);
    if u.trim() != "%" {
        out.push(' ');
    }
    out.push_str(u.trim());
    r
}

/// Handle the text after a backslash, `depth` groups deep; return what is left to convert.
fn command<'a>(rest: &'a str, out: &mut String, braces: &Braces, depth: usize) -> &'a str {
    let name_len = rest
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map_or(rest.len(), |(i, _)| i);
    if name_len == 0 {
        return control_symbol(rest, out);
    }
    let (name, after) = rest.split_at(name_len);
    let nests = depth < MAX_NESTING;
    match name {
        "frac" | "dfrac" | "tfrac" | "cfrac" if nests => {
            if let Some((num, r)) = argument(after, braces) {
                if let Some((den, r)) = argument(r, braces) {
                    out.push('(');
                    convert(num, out, braces, depth + 1);
                    out.push_str(")/(");
                    convert(den, out, braces, depth + 1);
                    out.push(')');
                    return r;
                }
            }
            after
        }
        "begin" | "end" => argument(after, braces).map_or(after, |(_, r)| r),
        // siunitx: `\SI{25}{\percent}`, `\qty{80}{\kilo\dollar}`, `\num{80000}`.
        "SI" | "qty" if nests => quantity(after, out, braces, depth),
        "num" if nests => argument(after, braces).map_or(after, |(value, r)| {
            convert(value, out, braces, depth + 1);
            r
        }),
        _ if nests && shows_argument(name) => match argument(after, braces) {
            Some((arg, r)) if after.trim_start().starts_with('{') => {
                convert(arg, out, braces, depth + 1);
                r
            }
            _ => after,
        },
        _ => {
            match symbol(name) {
                Some(sym) => out.push_str(sym),
                // An unknown command reads as its name (`\alpha` → `alpha`).
                None => out.push_str(name),
            }
            after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::to_plain;

    #[test]
    fn fractions_products_and_separators_read_as_arithmetic() {
        assert_eq!(
            to_plain(r"\frac{100{,}000 - 80{,}000}{80{,}000} = 0.25"),
            "(100,000 - 80,000)/(80,000) = 0.25"
        );
        assert_eq!(
            to_plain(r"80\,000 \times 1.25 = 100\,000"),
            "80000 × 1.25 = 100000"
        );
        assert_eq!(to_plain(r"\dfrac{20}{80} = 25\%"), "(20)/(80) = 25%");
        assert_eq!(to_plain(r"0.7 \cdot 1.3 \approx 0.91"), "0.7 · 1.3 ≈ 0.91");
    }

    #[test]
    fn text_and_sizing_commands_leave_their_content() {
        assert_eq!(
            to_plain(r"\left( \frac{a}{b} \right) = 8 \text{ days}"),
            "( (a)/(b) ) = 8  days"
        );
        assert_eq!(to_plain(r"\boxed{25\%}"), "25%");
        assert_eq!(to_plain(r"x \neq 20\%"), "x ≠ 20%");
        assert_eq!(to_plain(r"\SI{25}{\percent}"), "25%");
        assert_eq!(
            to_plain(r"\qty{8}{days} and \num{80000}"),
            "8 days and 80000"
        );
    }

    #[test]
    fn text_without_latex_is_unchanged() {
        assert_eq!(to_plain("costs $80k → $100k"), "costs $80k → $100k");
    }
}
