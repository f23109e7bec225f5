//! Decoding leftovers a model's serving stack can leave in a reply: chat-template tokens
//! (`<|im_end|>`, `<|eot_id|>`, `<|endoftext|>`, `</s>`, `[/INST]`, `<|assistant|>`), a role
//! prefix ("assistant:"), a turn the model went on to imitate after its end-of-turn token, and
//! the whole reply emitted twice. They are removed before anything is read (the reply is the
//! text before the first end-of-turn token, after any opening template or role prefix, once), so
//! no figure is ever read out of a leftover. What is removed is the reader's view only: the
//! transcript keeps the reply as the model sent it.

/// Tokens that end a turn: whatever follows is not this reply (another turn imitated, the
/// prompt echoed, or the reply again).
const END_OF_TURN: [&str; 10] = [
    "<|im_end|>",
    "<|eot_id|>",
    "<|endoftext|>",
    "<|end_of_text|>",
    "<|end|>",
    "<end_of_turn>",
    "</s>",
    "<|im_start|>",
    "<|start_header_id|>",
    "[INST]",
];

/// Openings a template leaves before the reply's first word.
const OPENINGS: [&str; 9] = [
    "<|im_start|>assistant",
    "<|start_header_id|>assistant<|end_header_id|>",
    "<|assistant|>",
    "<start_of_turn>model",
    "<|begin_of_text|>",
    "<s>",
    "[/INST]",
    "assistant:",
    "Assistant:",
];

/// The reply without its decoding leftovers: a sub-slice of `raw`, so every offset into it is
/// still an offset into what the model wrote.
pub fn reply_text(raw: &str) -> &str {
    let mut s = raw.trim_start();
    // Openings, in any order and repeated ("<s>[/INST] assistant: …").
    'open: loop {
        for o in OPENINGS {
            if let Some(rest) = s.strip_prefix(o) {
                s = rest.trim_start();
                continue 'open;
            }
        }
        break;
    }
    // A reply that starts with the prompt's template (`[INST] … [/INST] reply`): the reply is
    // what follows its close.
    if s.starts_with("[INST]") {
        if let Some(i) = s.find("[/INST]") {
            s = s[i + "[/INST]".len()..].trim_start();
        }
    }
    let end = END_OF_TURN
        .iter()
        .filter_map(|t| s.find(t))
        .min()
        .unwrap_or(s.len());
    let s = s[..end].trim_end();
    once(s)
}

/// The reply with every template token taken as a paragraph break instead of its end: what the
/// model wrote on past its end-of-turn token, read as part of the reply. `None` when that adds
/// nothing to [`reply_text`] (no token, or only the same reply again): then the two readings
/// are one. Used to tell whether cutting at the token decided a verdict.
pub fn past_end_of_turn(raw: &str) -> Option<String> {
    // Every token holds `<` or `[`: a reply with neither has none, and costs one scan.
    if !raw.contains(['<', '[']) {
        return None;
    }
    let cut = reply_text(raw);
    let mut whole = raw.to_string();
    for t in OPENINGS.iter().take(7).chain(END_OF_TURN.iter()) {
        whole = whole.replace(t, "\n\n");
    }
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    // Only text beyond the cut reply, and not the reply once more: read the same way, the two
    // differ.
    (words(reply_text(&whole)) != words(cut)).then_some(whole)
}

/// A reply emitted twice in a row (the same text, white space between) read once. The first
/// copy must end as a reply ends (a line break, or a sentence's end before the space): a text
/// that only repeats a phrase ("25% 25% …") is not a reply twice.
fn once(s: &str) -> &str {
    for sep in 1..=4usize {
        let Some(len) = s.len().checked_sub(sep) else {
            break;
        };
        if len % 2 != 0 || len < 80 {
            continue;
        }
        let h = len / 2;
        if !s.is_char_boundary(h) || !s.is_char_boundary(h + sep) {
            continue;
        }
        let gap = &s[h..h + sep];
        let ends = gap.contains('\n') || s[..h].ends_with(['.', '!', '?', '。']);
        if ends && gap.chars().all(char::is_whitespace) && s[..h] == s[h + sep..] {
            return &s[..h];
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{past_end_of_turn, reply_text};

    #[test]
    fn a_reply_with_no_template_token_has_nothing_past_one() {
        assert_eq!(
            past_end_of_turn("Costs grew 25%, not 20%. Budget 25% more."),
            None
        );
        assert_eq!(past_end_of_turn("Costs grew [25%] <b>here</b>."), None);
        assert!(past_end_of_turn("Costs grew 25%.<|im_end|>\nuser: and 20%?").is_some());
    }

    #[test]
    fn template_tokens_and_role_prefixes_are_not_the_reply() {
        assert_eq!(
            reply_text("<|im_start|>assistant\nCosts grew 25%.<|im_end|>"),
            "Costs grew 25%."
        );
        assert_eq!(
            reply_text("assistant: Costs grew 25%.</s>"),
            "Costs grew 25%."
        );
        assert_eq!(
            reply_text("<s>[INST] How much? [/INST] Costs grew 25%."),
            "Costs grew 25%."
        );
        assert_eq!(
            reply_text("Costs grew 25%.<|eot_id|><|start_header_id|>user<|end_header_id|>\n20%?"),
            "Costs grew 25%."
        );
        assert_eq!(reply_text("Costs grew 25%."), "Costs grew 25%.");
    }

    #[test]
    fn a_reply_emitted_twice_is_read_once() {
        let once = "Costs grew 25% from 80,000 to 100,000; budget 25% more for next year.";
        assert_eq!(reply_text(&format!("{once}\n\n{once}")), once);
        assert_eq!(reply_text(&format!("{once} {once}")), once);
        // A short reply said twice may be meant ("No. No."), and a repeated phrase is no reply.
        assert_eq!(reply_text("No. No."), "No. No.");
        let phrase = "a 20% rise, ".repeat(64);
        assert_eq!(reply_text(&phrase), phrase.trim_end());
    }
}
