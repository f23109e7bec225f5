//! Invariance perturbations: changes of form that must not change the verdict.

use super::notation;
use super::{Env, Reply, Rng, Unit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Perturbation {
    Plain,
    Preamble,
    Heading,
    Politeness,
    Think,
    Restated,
    Reorder,
    Table,
    Json,
    Yaml,
    Unmarked,
    /// Arabic-Indic or Devanagari digits (issue 39).
    Script,
    /// The decimal comma, point grouping, a spaced percent sign.
    DecimalComma,
    /// The dollar amounts in euros, francs or rupees, the sign before or after.
    Currency,
    /// Percentages and day counts in German or Russian words.
    Words,
}

const PREAMBLES: &[&str] = &[
    "Sure — here is my answer.",
    "Thanks for the question.",
    "Happy to help with this.",
    "Let me take this step by step.",
    "Good question, and worth getting right.",
];
const HEADINGS: &[&str] = &["## Response", "### My analysis", "# Reply", "**Response**"];
const CLOSINGS: &[&str] = &[
    "Hope this helps!",
    "Let me know if anything is unclear.",
    "Thanks!",
    "Happy to go into more detail on any part of this.",
];

impl Perturbation {
    pub const ALL: &'static [Perturbation] = &[
        Perturbation::Plain,
        Perturbation::Preamble,
        Perturbation::Heading,
        Perturbation::Politeness,
        Perturbation::Think,
        Perturbation::Restated,
        Perturbation::Reorder,
        Perturbation::Table,
        Perturbation::Json,
        Perturbation::Yaml,
        Perturbation::Unmarked,
        Perturbation::Script,
        Perturbation::DecimalComma,
        Perturbation::Currency,
        Perturbation::Words,
    ];

    /// Whether the perturbation applies to the unit: the notations only to figures' units.
    pub fn applies(self, u: &Unit) -> bool {
        match self {
            Perturbation::Script
            | Perturbation::DecimalComma
            | Perturbation::Currency
            | Perturbation::Words => notation::numeric(u.case),
            _ => true,
        }
    }

    /// Whether the perturbation keeps the meaning of `reply`: a table, JSON or YAML can only
    /// hold single-line paragraphs without code or table cells.
    fn fits(self, reply: &Reply) -> bool {
        let flat = reply
            .paras
            .iter()
            .all(|p| !p.contains('\n') && !p.contains('|') && !p.contains("```"));
        match self {
            Perturbation::Table | Perturbation::Json | Perturbation::Yaml => {
                flat && !reply.paras.is_empty()
            }
            Perturbation::Reorder => reply.conclusion.is_some() && reply.paras.len() > 1,
            _ => true,
        }
    }

    /// The final reply's text under this perturbation.
    pub fn apply(self, reply: &Reply, u: &Unit, env: &Env, rng: &mut Rng) -> String {
        if reply.paras.is_empty() {
            return String::new();
        }
        if !self.fits(reply) {
            return reply.text();
        }
        let mut paras = reply.paras.clone();
        match self {
            Perturbation::Plain => {}
            Perturbation::Preamble => paras.insert(0, rng.pick(PREAMBLES).to_string()),
            Perturbation::Heading => paras.insert(0, rng.pick(HEADINGS).to_string()),
            Perturbation::Politeness => paras.push(rng.pick(CLOSINGS).to_string()),
            Perturbation::Think => {
                let think = format!(
                    "<think>\nThe user wrote: {}\nLet me work through this carefully before answering.\n</think>",
                    env.prompt(u).replace('\n', " ")
                );
                paras.insert(0, think);
            }
            Perturbation::Restated => {
                let q = env.prompt(u).replace('\n', " ");
                let restated = if rng.chance(50) {
                    format!("> {q}")
                } else {
                    format!("You asked: “{q}”")
                };
                paras.insert(0, restated);
            }
            Perturbation::Reorder => {
                let c = reply.conclusion.unwrap_or(0);
                let p = paras.remove(c);
                if c == 0 {
                    paras.push(p);
                } else {
                    paras.insert(0, p);
                }
            }
            Perturbation::Table => return table(&paras),
            Perturbation::Json => return json(&paras, reply.conclusion, rng.chance(50)),
            Perturbation::Yaml => return yaml(&paras, reply.conclusion),
            Perturbation::Script => {
                let devanagari = rng.chance(40);
                let zero = if devanagari { '०' } else { '٠' };
                notation::each(&mut paras, |p| notation::script(p, zero, !devanagari));
            }
            Perturbation::DecimalComma => notation::each(&mut paras, notation::decimal_comma),
            Perturbation::Currency => {
                let style = notation::pick_style(rng, 4);
                notation::each(&mut paras, |p| notation::currency(p, style));
            }
            Perturbation::Words => {
                let russian = rng.chance(50);
                notation::each(&mut paras, |p| notation::words(p, russian));
            }
            // The conclusion without its marker and emphasis: "Bottom line:" → "so".
            Perturbation::Unmarked => {
                for p in paras.iter_mut() {
                    if !p.contains("```") {
                        *p = p
                            .replace("**", "")
                            .replace("Bottom line:", "so")
                            .replace("Answer:", "answer");
                    }
                }
            }
        }
        paras.join("\n\n")
    }
}

fn table(paras: &[String]) -> String {
    let mut s = String::from("| # | Point |\n|---|---|\n");
    for (i, p) in paras.iter().enumerate() {
        s.push_str(&format!("| {} | {} |\n", i + 1, p));
    }
    s
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn json(paras: &[String], conclusion: Option<usize>, fenced: bool) -> String {
    let mut obj = serde_json::Map::new();
    let details: Vec<serde_json::Value> = paras
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != conclusion)
        .map(|(_, p)| serde_json::Value::String(p.clone()))
        .collect();
    if !details.is_empty() {
        obj.insert("details".into(), serde_json::Value::Array(details));
    }
    if let Some(c) = conclusion {
        obj.insert("answer".into(), serde_json::Value::String(paras[c].clone()));
    }
    let body = serde_json::to_string_pretty(&obj).expect("json");
    if fenced {
        format!("```json\n{body}\n```")
    } else {
        body
    }
}

fn yaml(paras: &[String], conclusion: Option<usize>) -> String {
    let mut s = String::from("```yaml\n");
    let details: Vec<&String> = paras
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != conclusion)
        .map(|(_, p)| p)
        .collect();
    if !details.is_empty() {
        s.push_str("details:\n");
        for d in details {
            s.push_str(&format!("  - {}\n", quote(d)));
        }
    }
    if let Some(c) = conclusion {
        s.push_str(&format!("answer: {}\n", quote(&paras[c])));
    }
    s.push_str("```");
    s
}
