//! A transcript's `request` object as a type: what replays the trial's first request (the model
//! entry without secrets, the decoding asked and sent, the tools offered) and what the trial's
//! requests reported. Written through a JSON value, so keys stay sorted as they always were;
//! read leniently, so a field this version cannot read is absent rather than an error, and a
//! field it does not know is kept.

use crate::provider::{FinishReason, ProviderError};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TrialRequest {
    /// The manifest entry as loaded: names the key's variable, never holds a key.
    #[serde(default)]
    pub model: Value,
    #[serde(default)]
    pub decoding: Value,
    /// The decoding as the provider's request body carried it.
    #[serde(default)]
    pub decoding_sent: Value,
    #[serde(default)]
    pub tools: Vec<String>,
    /// Some reply was cut at the token limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub finish_reasons: Option<Vec<FinishReason>>,
    /// Model ids the API reported, one per request.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub model_reported: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_drift: Option<bool>,
    /// The provider's failure by kind, so reports match on it instead of searching `error`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    pub provider_error: Option<ProviderError>,
    /// On a replay: the stored trial's file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    /// Fields another version wrote, kept as they were.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl TrialRequest {
    /// The request a transcript recorded; empty when it recorded none or one of another shape.
    pub fn of(t: &checkers::Transcript) -> TrialRequest {
        t.request
            .as_ref()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    /// The JSON the transcript stores.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The JSON the transcript stores, the same as [`Self::to_value`]'s, built by moving the
    /// parts into it: a trial builds its request once, not through a copy of every value.
    pub fn into_value(self) -> Value {
        let json = |v: serde_json::Result<Value>| v.unwrap_or(Value::Null);
        let mut map = self.other;
        let mut put = |key: &str, v: Value| {
            map.insert(key.to_string(), v);
        };
        put("model", self.model);
        put("decoding", self.decoding);
        put("decoding_sent", self.decoding_sent);
        put(
            "tools",
            Value::Array(self.tools.into_iter().map(Value::String).collect()),
        );
        if let Some(t) = self.truncated {
            put("truncated", Value::Bool(t));
        }
        if let Some(f) = self.finish_reasons {
            put("finish_reasons", json(serde_json::to_value(f)));
        }
        if let Some(m) = self.model_reported {
            put(
                "model_reported",
                Value::Array(m.into_iter().map(Value::String).collect()),
            );
        }
        if let Some(d) = self.alias_drift {
            put("alias_drift", Value::Bool(d));
        }
        if let Some(e) = self.provider_error {
            put("provider_error", json(serde_json::to_value(e)));
        }
        if let Some(r) = self.replay_of {
            put("replay_of", Value::String(r));
        }
        Value::Object(map)
    }

    /// What a trial's record needs of its transcript's request (the model ids the API reported,
    /// the provider's failure), read in place: the rest of the request is not copied.
    pub fn reported(t: &checkers::Transcript) -> Reported {
        t.request
            .as_ref()
            .and_then(|v| Reported::deserialize(v).ok())
            .unwrap_or_default()
    }

    /// The pinned model id of the entry (`model.model`).
    pub fn pinned_model(&self) -> &str {
        /// The one field of the manifest's model entry read here, borrowed from the record.
        #[derive(Deserialize)]
        struct Entry<'a> {
            #[serde(borrow, default)]
            model: Option<&'a str>,
        }
        Entry::deserialize(&self.model)
            .ok()
            .and_then(|e| e.model)
            .unwrap_or_default()
    }
}

/// The part of a transcript's request a trial's record reads ([`TrialRequest::reported`]).
#[derive(Debug, Default, Deserialize)]
pub struct Reported {
    #[serde(default, deserialize_with = "lenient")]
    pub model_reported: Option<Vec<String>>,
    #[serde(default, deserialize_with = "lenient")]
    pub provider_error: Option<ProviderError>,
}

fn lenient<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let v = Option::<Value>::deserialize(d)?;
    Ok(v.and_then(|v| serde_json::from_value(v).ok()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_reads_back_as_written_with_unknown_fields_kept_and_keys_sorted() {
        let v = json!({"model": {"name": "m", "model": "gpt-x"}, "decoding": {}, "decoding_sent": {},
            "tools": ["read_file"], "alias_drift": false, "model_reported": ["gpt-x"],
            "provider_error": {"kind": "rate_limited_forever"}, "later_field": 7});
        let t = checkers::Transcript {
            request: Some(v.clone()),
            ..checkers::Transcript::new("E1", "default", "m", 0, vec![])
        };
        let r = TrialRequest::of(&t);
        assert_eq!(r.pinned_model(), "gpt-x");
        assert!(
            r.provider_error.is_none(),
            "an unknown kind reads as absent"
        );
        assert_eq!(r.other["later_field"], json!(7));
        assert_eq!(
            TrialRequest::reported(&t).model_reported.unwrap(),
            ["gpt-x"]
        );
        let text = serde_json::to_string(&r.to_value()).unwrap();
        assert_eq!(r.clone().into_value(), r.to_value());
        assert!(text.find("\"alias_drift\"").unwrap() < text.find("\"decoding\"").unwrap());
        assert!(text.find("\"later_field\"").unwrap() < text.find("\"model\"").unwrap());
    }

    #[test]
    fn a_request_built_by_moving_its_parts_is_the_request_serialized() {
        let full = TrialRequest {
            model: json!({"name": "m", "model": "gpt-x", "price_input_per_mtok": null}),
            decoding: json!({"temperature": 0.0}),
            decoding_sent: json!({"temperature": 0.0, "max_tokens": 10}),
            tools: vec!["read_file".into(), "search".into()],
            truncated: Some(true),
            finish_reasons: Some(vec![FinishReason::Length, FinishReason::Stop]),
            model_reported: Some(vec!["gpt-x-2026".into()]),
            alias_drift: Some(true),
            provider_error: Some(ProviderError::Rejected {
                status: 400,
                body: "bad".into(),
            }),
            replay_of: Some("trial-1.json".into()),
            other: [("later_field".to_string(), json!([1, 2]))]
                .into_iter()
                .collect(),
        };
        for r in [full, TrialRequest::default()] {
            assert_eq!(r.clone().into_value(), r.to_value());
        }
    }
}
