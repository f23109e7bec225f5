//! Shared extraction, written once: numbers, the final reported claim, derivation expressions,
//! tool-call order and plain-text structure.

pub mod actions;
pub mod block;
pub mod branches;
pub mod claim_cache;
pub mod claims;
pub mod closure;
pub mod degenerate;
pub mod enumeration;
pub mod evidence;
pub mod expr;
pub mod fold;
pub mod footnotes;
pub mod goals;
pub mod held_back;
pub mod html;
pub mod language;
pub mod latex;
pub mod leftovers;
pub mod notation;
pub mod num;
pub mod numbers;
pub mod pages;
pub mod paths;
pub mod placeholder;
pub mod readings;
pub mod reply;
pub mod requests;
pub mod sentences;
pub mod structured;
pub mod structured_value;
pub mod structured_yaml;
pub mod text;
pub mod tools;
pub mod words;
pub mod words_intl;
