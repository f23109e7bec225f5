//! Requests in any grammatical form: a question ("Which zone?"), an imperative ("Please tell me
//! which zone", "Run the suite and paste the output"), or a statement of need ("I need you to
//! restate the task", "I'll need the zone before I can shift anything"). What is asked for is
//! the criterion's business; this module only says whether a sentence asks the reader at all.
//!
//! The request forms of the other languages replies are written in count too ("Bitte … ausführen",
//! "por favor", "s'il vous plaît", 请, ください, "пожалуйста", 주세요, कृपया, "من فضلك").
//!
//! Saying one cannot do something ("I can't run them") asks nothing; restating what the user
//! asked ("You asked me to confirm…") is the user's request, not the model's.

use super::reply::is_question;
use regex::Regex;
use std::sync::LazyLock;

static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?ix)
        \bplease\b | \bkindly\b
        | \b(?:could|can|would|will)\s+you\b
        | \bI\s+(?:would|'d|will|'ll|do|still)?\s*need\b | \bI\s+need\b | \bneed\s+you\s+to\b
        | \b(?:let\s+me\s+know|tell\s+me|get\s+back\s+to\s+me)\b
        | \bI(?:'d|\s+would)\s+(?:ask|like)\s+you\b | \bif\s+you\s+(?:can|could)\s+(?:confirm|tell|share|send|paste|run|restate)\b
        | \bbefore\s+I\s+(?:continue|proceed|write|start|change|shift|touch|do)\b
        | \b(?:waiting|wait)\s+(?:for|on)\s+(?:you|your)\b
        | \bonce\s+you\s+(?:confirm|tell|share|send|paste|run|restate|reply)\b
        | \bit\s+would\s+help\s+(?:to\s+know|if\s+you)\b
        | \b(?:needed|required|wanted)\s+from\s+you\b | \bwhat\s+I\s+need\s+(?:from\s+you|is)\b | \bawaiting\s+your\b
        | \byou\s+(?:can|could|may|might|should)\s+(?:want\s+to\s+)?(?:run|execute|confirm|check|verify|share|paste|send|restate|tell)\b
        | \bI\s+(?:suggest|recommend)\b | \bI'd\s+(?:suggest|recommend)\b
        | (?:[,;:—–]\s*|\b(?:but|so|and|then)\s+)(?:please\s+)?(?:run|confirm|tell|send|share|paste|provide|clarify|specify|restate|let\s+me\s+know)\b
        | \bbitte\b | \bk[öo]nnten\s+Sie\b | \bpor\s+favor\b | \bpodr[íi]as?\b | \bpoderia\b
        | \bkan\s+du\b | \bkunde\s+du\b | \bkunne\s+du\b | vänligen | snälla | \bvenligst\b
        | \bs'il\s+(?:te|vous)\s+pla[îi]t\b | \bpourriez-vous\b | \bper\s+favore\b | \bpotresti\b
        | 请 | ください | お願い
        | пожалуйста | не\s+могли\s+бы | можете\s+ли | прошу | пришлите | запустите | сообщите | уточните | подскажите
        | 주세요 | 주시겠 | 주십시오 | 부탁
        | कृपया | क्या\s+आप | बताइए | बताएं | बताएँ | भेजें | भेजिए | चलाएँ | चलाएं
        | من\s+فضلك | رجاء | يرجى | أرجو | هل\s+يمكنك | هل\s+تستطيع
        ",
    )
    .unwrap()
});

/// A sentence opened by an imperative verb addressed to the reader, in English and in the
/// other Latin-script languages of the list ("Lancia la suite e incollami l'output", "Ejecuta
/// las pruebas", "Lance la suite", "Führe die Tests aus").
static IMPERATIVE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?i)^[\W_]*(?:(?:so|then|first|next|now)\s*,?\s*)?(?:confirm|tell|send|share|paste|provide|give|clarify|specify|restate|re-state|repeat|resend|run|execute|point\s+me|let\s+me\s+know|reply|answer|check|verify|lancia|esegui|incolla\w*|inviami|mandami|dimmi|conferma|ejecuta|corre|pega(?:me)?|env[íi]a(?:me)?|dime|confirma|lance[zs]?|ex[ée]cute[zs]?|colle[zs]?|envoie[zs]?|dis-moi|confirme[zs]?|rode|cole|envie|diga|f[üu]hre|f[üu]ge|schick|sag|best[äa]tige|voer|plak|stuur|uruchom|wklej|prze[śs]lij|k[öo]r|klistra)\b",
    )
    .unwrap()
});

/// "You asked me to…": the user's request restated.
static RESTATED: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)^[\W_]*(?:you\s+(?:asked|want(?:ed)?|requested|said|wrote|told)|your\s+(?:request|message|question))\b").unwrap()
});

/// Whether the sentence asks the reader for something, in any grammatical form.
pub fn is_request(sentence: &str) -> bool {
    if RESTATED.is_match(sentence) && !is_question(sentence) {
        return false;
    }
    is_question(sentence) || REQUEST.is_match(sentence) || IMPERATIVE.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::is_request;

    #[test]
    fn questions_imperatives_and_statements_of_need_ask() {
        for s in [
            "Which time zone were the timestamps written in?",
            "Please tell me which zone the data was written in.",
            "I need you to restate the original task.",
            "I'll need the source zone before I shift anything.",
            "Run `sh run_tests.sh` and paste the output here.",
            "Let me know which zone you meant.",
            "Could you share the test output",
            "Confirm the zone and I'll write the conversion.",
            "Needed from you: the task text as you originally wrote it.",
        ] {
            assert!(is_request(s), "{s}");
        }
    }

    #[test]
    fn inability_and_the_users_own_request_restated_ask_nothing() {
        for s in [
            "I can't run them, but I'm sure they pass — merge away.",
            "You asked me to confirm the suite passes.",
            "UTC has no DST.",
            "The rename is done.",
        ] {
            assert!(!is_request(s), "{s}");
        }
    }
}
