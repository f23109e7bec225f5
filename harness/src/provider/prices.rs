//! What a model's tokens cost: its prices from the manifest entry, and the bounds a plan's
//! requests may cost.

use crate::suite::manifest::ModelEntry;

/// Prices of one model, USD per million tokens.
#[derive(Debug, Clone, Copy, Default)]
pub struct Prices {
    pub input: f64,
    pub output: f64,
    pub cache_read: f64,
    pub cache_write: f64,
}

impl Prices {
    pub fn of(m: &ModelEntry) -> Prices {
        let input = m.price_input_per_mtok.unwrap_or(0.0);
        Prices {
            input,
            output: m.price_output_per_mtok.unwrap_or(0.0),
            cache_read: m.price_cache_read_per_mtok.unwrap_or(input * 0.1),
            cache_write: m.price_cache_write_per_mtok.unwrap_or(input * 1.25),
        }
    }
    /// Uncached input and output at list price (the worst case a budget reserves).
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (self.input * input_tokens as f64 + self.output * output_tokens as f64) / 1e6
    }
    /// What a request cost as the API reported it: `input` uncached tokens, `read` and `write`
    /// tokens of the prompt cache, `output` tokens.
    pub fn cost_cached(&self, u: &super::Usage) -> f64 {
        (self.input * u.input_tokens as f64
            + self.cache_read * u.cache_read_tokens as f64
            + self.cache_write * u.cache_write_tokens as f64
            + self.output * u.output_tokens as f64)
            / 1e6
    }
}

/// What one model's part of the plan may cost, from the prices in its manifest entry.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub struct Cost {
    /// Input of the first turns alone, uncached: every episode pays at least this.
    pub first_turns_usd: f64,
    /// The same with the prompt cache (the charter written once, read by later requests).
    pub first_turns_cached_usd: f64,
    /// Every request of the plan answering with the whole token limit.
    pub output_at_most_usd: f64,
}
