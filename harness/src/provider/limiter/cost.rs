//! What the limiter reads of the JSON it sends and receives, as typed records: a request's
//! text bytes and max tokens (its estimated cost), an answer's usage.

use serde::Deserialize;

/// Conservative prompt tokens of a request body (a token per 4 bytes of every string in
/// `system` and `messages`, the tool definitions included) plus its max tokens.
pub fn estimate_cost(body: &serde_json::Value) -> u64 {
    let Ok(f) = CostFields::deserialize(body) else {
        return 0;
    };
    let prompt = f.system.0 + f.messages.0 + f.tools.0;
    prompt.div_ceil(4).saturating_add(f.max_tokens())
}

/// What the limiter reads of a request body it sends.
#[derive(Deserialize)]
pub(super) struct CostFields {
    #[serde(default)]
    system: TextBytes,
    #[serde(default)]
    messages: TextBytes,
    #[serde(default)]
    tools: TextBytes,
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    max_tokens: Option<u64>,
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    max_completion_tokens: Option<u64>,
}

impl CostFields {
    /// OpenAI's `max_completion_tokens` (which replaced `max_tokens`), else `max_tokens`.
    pub(super) fn max_tokens(&self) -> u64 {
        self.max_completion_tokens.or(self.max_tokens).unwrap_or(0)
    }
}

/// The bytes of every string value in a JSON tree (object keys aside), counted as it is read,
/// nothing copied.
#[derive(Default)]
struct TextBytes(u64);

impl<'de> Deserialize<'de> for TextBytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextBytesVisitor)
    }
}

struct TextBytesVisitor;

impl<'de> serde::de::Visitor<'de> for TextBytesVisitor {
    type Value = TextBytes;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, v: &str) -> Result<TextBytes, E> {
        Ok(TextBytes(v.len() as u64))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<TextBytes, A::Error> {
        let mut n = 0u64;
        while let Some(TextBytes(b)) = a.next_element()? {
            n = n.saturating_add(b);
        }
        Ok(TextBytes(n))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<TextBytes, A::Error> {
        let mut n = 0u64;
        while let Some((_, TextBytes(b))) = a.next_entry::<serde::de::IgnoredAny, TextBytes>()? {
            n = n.saturating_add(b);
        }
        Ok(TextBytes(n))
    }
    fn visit_bool<E>(self, _: bool) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
    fn visit_i64<E>(self, _: i64) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
    fn visit_u64<E>(self, _: u64) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
    fn visit_f64<E>(self, _: f64) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
    fn visit_unit<E>(self) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
    fn visit_none<E>(self) -> Result<TextBytes, E> {
        Ok(TextBytes(0))
    }
}

/// What the limiter reads of an answer: its usage, each field read leniently.
#[derive(Deserialize, Default)]
pub(super) struct Answered {
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    pub(super) usage: AnsweredUsage,
}

#[derive(Deserialize, Default)]
pub(super) struct AnsweredUsage {
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    pub(super) prompt_tokens: Option<u64>,
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    pub(super) input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "crate::provider::lenient")]
    pub(super) cache_creation_input_tokens: Option<u64>,
}
