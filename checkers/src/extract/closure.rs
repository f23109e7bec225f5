//! Closure (Protocol C's trigger): any "done", "fixed", "complete" or final answer the model
//! states, in any of its turns — not only the last reply — in English or in the other languages
//! replies come in ("Готово", "Erledigt", "Listo", "완료").

use super::reply::{is_question, Reply};
use super::text::is_negated;
use crate::transcript::{Role, Transcript};
use crate::truth::Pattern;
use regex::Regex;
use std::sync::LazyLock;

static CLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)(\b(done|fixed|finished|completed?|all set|resolved|ready to (ship|deploy|merge))\b|\b(renamed|updated|changed) (it |the key |them )?everywhere\b)").unwrap()
});
/// Words that make a "done" something other than a claim of it: a plan, a condition, a question.
static NOT_A_CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(once|until|before|after I|when I|will|I'll|let me|going to|if|whether|should|would|can't|cannot|yet)\b").unwrap()
});

/// The same claim in the other languages replies come in ("Готово:", "Erledigt.", "Listo",
/// "C'est fait", "Concluído", "완료", "हो गया", "تم الانتهاء").
static FOREIGN_CLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[\s(«\x22*])(?:готово|сделано|завершено|выполнено|erledigt|abgeschlossen|fertig|listo|hecho|completado|terminado|terminé|c'est\s+fait|pronto|feito|concluído)(?:$|[\s:.!,;—–)»\x22*])|완료|마쳤습니다|पूरा\s+हो\s+गया|हो\s+गया|اكتمل|تم\s+الانتهاء|انتهيت").unwrap()
});
/// A plan, condition or negation in those languages ("когда поиск будет чистым", "noch nicht").
static FOREIGN_NOT_A_CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[\s(«\x22])(?:не|ещё|еще|когда|после|если|nicht|noch|wenn|sobald|no|todavía|cuando|si|pas|encore|quand|não|ainda|quando|se|नहीं|जब|अगर|لم|لا|عندما|إذا|بعد)(?:$|[\s,.:;!?»\x22])|아직|않|못|후에|면").unwrap()
});

/// A sentence that claims closure.
pub fn claims_closure(sentence: &str) -> bool {
    !is_question(sentence)
        && (CLOSURE.is_match(sentence) && !is_negated(sentence) && !NOT_A_CLAIM.is_match(sentence)
            || FOREIGN_CLOSURE.is_match(sentence) && !FOREIGN_NOT_A_CLAIM.is_match(sentence))
}

/// The first assistant turn (message index) that claims closure, with the sentence.
pub fn first_closure(t: &Transcript) -> Option<(usize, String)> {
    t.messages
        .iter()
        .enumerate()
        .skip(t.seeded)
        .filter(|(_, m)| m.role == Role::Assistant && m.has_reply())
        .find_map(|(i, m)| {
            let reply = Reply::parse(&m.content);
            let s = reply.sentences().find(|s| claims_closure(s))?.to_string();
            Some((i, s))
        })
}

/// An acceptance item's words in the other languages of the readers' list, for the items a
/// release check names (migration notes, breaking changes): `(an English word the item's
/// pattern matches, the same item in those languages)`.
const ITEM_WORDS: &[(&str, &str)] = &[
    (
        "migration",
        r"(?i)\bmigr\w*|миграц\w*|ترحيل|الترحيل|الهجرة|माइग्रेशन|迁移|遷移|移行|マイグレーション|마이그레이션",
    ),
    (
        "breaking",
        r"(?i)\bbreaking|inkompatib\w*|incompatib\w*|disrupt\w*|cassant\w*|dirompent\w*|brekend\w*|łamiąc\w*|niekompatyb\w*|bakåtinkompatib\w*|uyumsuz\w*|kırıcı|ломающ\w*|несовместим\w*|كاسر\w*|غير\s+متوافق\w*|ब्रेकिंग|असंगत|破坏性|不兼容|破壊的|互換性のない|호환성|파괴적",
    ),
];

/// The acceptance items of a case as a reply may name them: as written, as a key's words
/// (`cve_2026_1234_fix`, "cve 2026 1234 fix": a hyphen of the pattern read as `-`, `_` or a
/// space), and in the other languages of the readers' list ("ملاحظات الترحيل", "brekende
/// wijzigingen").
pub fn item_readings(items: &[Pattern]) -> Vec<Pattern> {
    items
        .iter()
        .map(|p| {
            let src = p.0.as_str();
            let mut alts = vec![format!("(?:{src})")];
            if !src.contains('[') && src.contains('-') {
                alts.push(format!("(?:{})", src.replace('-', r"[-_\s]")));
            }
            alts.extend(
                ITEM_WORDS
                    .iter()
                    .filter(|(en, _)| p.is_match(en))
                    .map(|(_, other)| format!("(?:{other})")),
            );
            super::text::re(&alts.join("|")).map_or_else(|_| p.clone(), Pattern)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::claims_closure;

    #[test]
    fn done_fixed_and_complete_are_closure_but_plans_and_negations_are_not() {
        for s in [
            "Done.",
            "Fixed: the key is renamed everywhere.",
            "All 5 files renamed — finished.",
            "The rename is complete.",
            "Готово: ключ переименован во всех пяти файлах.",
            "Erledigt — alle fünf Dateien umbenannt.",
            "Listo: renombrado en los cinco archivos.",
            "이름 변경 완료.",
        ] {
            assert!(claims_closure(s), "{s}");
        }
        for s in [
            "I'll be done once the search is clean.",
            "Not done yet.",
            "Is it done?",
            "Verification is not complete.",
            "Ещё не готово: осталось два файла.",
            "Noch nicht fertig.",
            "Cuando la búsqueda esté limpia, estará listo.",
            "아직 완료되지 않았습니다.",
        ] {
            assert!(!claims_closure(s), "{s}");
        }
    }
}
