//! Closure (Protocol C's trigger): any "done", "fixed", "complete" or final answer the model
//! states, in any of its turns — not only the last reply — in English or in the other languages
//! replies come in ("Готово", "Erledigt", "Listo", "완료").

use super::claims::{echoes_prompt, sentence_stance, Stance};
use super::reply::BlockKind;
use super::reply::{is_question, Reply};
use super::text::is_negated;
use crate::transcript::{Role, Transcript};
use crate::truth::Pattern;
use regex::Regex;
use std::sync::LazyLock;

static CLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)(\b(done|fixed|finished|completed?|all set|resolved|ready to (ship|deploy|merge))\b|\b(renamed|updated|changed) (it |the key |them )?everywhere\b)").unwrap()
});
/// Words that make a "done" something other than a claim of it: a plan, a condition, a question,
/// or a word said of something else that is taken, treated or read as complete ("rather than
/// taking that list as complete", "I won't treat the three files as the whole set").
static NOT_A_CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?i)\b(once|until|before|after I|when I|will|I'll|let me|going to|if|whether|should|would|can't|cannot|yet)\b|\b(?:tak\w*|treat\w*|regard\w*|consider\w*|accept\w*|count\w*|assum\w*|trust\w*)\s+(?:\S+\s+){0,3}?as\s+(?:(?:the|a|an)\s+)?(?:complete|completed|done|finished|final|exhaustive)\b").unwrap()
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

/// A stated outcome for an acceptance item.
static OUTCOME: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(r"(?ix)(\b(present|included|includes|include|listed|lists|removed|changed|renamed|dropped|deprecated|added|introduced|missing|absent|found|none|contains?|documented|covered|fixed|addressed|yes|no|pass|passes|passed|fail|fails|failed|met|satisfied|mentioned|mentions|says|reads|shows|appears|confirmed|checked|unchecked|unknown|unclear|truncated|cut\s+off|not\s+(?:checked|verified|visible|shown|present|listed|found))\b|there\s+(?:is|are)\b|[✓✔✅❌✗✘✖❓☑]
    # the same outcomes in the other languages replies come in (Italian, Spanish, Portuguese,
    # French, German, Dutch, Polish)
    |\b(?:present[ei]s?|présents?|vorhanden|aanwezig|obecn[ey]|soddisfatt[oiae]|satisfaits?|cumplid[oa]s?|erfüllt|voldaan|spełnion[ye]|mancant[ei]|manquants?|faltantes?|fehlt|ontbreekt|brak|elenca(?:t[oiae])?|listad[oa]s?|aufgeführt|vermeld|risolt[oa]|corrett[oa]|behoben|opgelost|naprawion[ye])\b
    # Russian, Korean, Hindi, Arabic
    |присутству|указан|перечислен|отсутству|исправлен|удал[её]н|выполнен|есть
    |있음|있습니다|없음|없습니다|포함|명시|누락|수정됨|삭제|충족
    |मौजूद|सूचीबद्ध|शामिल|अनुपस्थित|हटाया|ठीक\s+किया|पूरा
    |موجود|مدرج|مذكور|مفقود|تم\s+إصلاح|أزيل|محذوف|مستوفى)").unwrap()
});

/// The number the user gave a criterion ("(2) no breaking changes are listed" is 2).
static USER_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\((\d{1,2})\)[^,;()]{0,40}$").unwrap());

/// The user's number for each acceptance item, when the user numbered every one of them. A
/// transcript that does not carry the user's words (a golden's placeholder prompt names no
/// item) is read with the case's order, which is the order its prompt numbers them in.
pub(crate) fn user_numbers(parsed: &Reply, items: &[Pattern]) -> Option<Vec<u64>> {
    let prompt = parsed.prompt();
    if !items.iter().any(|p| p.is_match(prompt)) {
        return Some((1..=items.len() as u64).collect());
    }
    items
        .iter()
        .map(|p| {
            let m = p.0.find(prompt)?;
            let c = USER_NUMBER.captures(&prompt[..m.start()])?;
            c[1].parse().ok()
        })
        .collect()
}

/// An item the reply speaks of by the user's number: a sentence naming "(N)" with an outcome
/// ("(1) and (3) pass"), or item N of a numbered list that follows the user's numbering (as
/// many items as criteria) and states an outcome, in whatever language.
pub(crate) fn checked_by_number(parsed: &Reply, n: u64, criteria: usize) -> bool {
    let reply = parsed.plain();
    let label = format!("({n})");
    let by_label = parsed.sentence_spans().iter().any(|r| {
        let s = &reply[r.clone()];
        s.contains(&label)
            && OUTCOME.is_match(&s.replace('|', " "))
            && sentence_stance(parsed, r.clone()) != Stance::Asked
            && !echoes_prompt(parsed, s)
            && !USER_RESTATED.is_match(s)
    });
    let numbered: Vec<&super::reply::Block> = parsed
        .blocks()
        .iter()
        .filter(|b| b.number.is_some() && matches!(b.kind, BlockKind::ListItem { depth: 1, .. }))
        .collect();
    let follows_user =
        numbered.len() == criteria && numbered.iter().zip(1..).all(|(b, i)| b.number == Some(i));
    by_label
        || follows_user
            && numbered
                .iter()
                .any(|b| b.number == Some(n) && OUTCOME.is_match(parsed.block_text(b)))
}

/// A sentence that opens by restating the user's words ("You asked: “… (1) migration notes are
/// present …”"): the criteria as given, not their outcome, whether or not the prompt is known.
pub(crate) static USER_RESTATED: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(
        r"(?i)^[\W_]*you\s+(?:asked|wanted|want|requested|wrote|said|listed)\b[^.]{0,12}?[:“\x22«]",
    )
    .unwrap()
});

/// An item is checked where a sentence (or table row) of the final reply names it with its
/// outcome, in the model's own voice.
pub(crate) fn item_checked(parsed: &Reply, p: &Pattern) -> bool {
    let reply = parsed.plain();
    parsed.sentence_spans().iter().any(|r| {
        // A plain-text block laid out as a report counts like a table.
        let s = &reply[r.clone()];
        p.is_match(s)
            && OUTCOME.is_match(&s.replace('|', " "))
            // Reporting what the page says is the check; echoing the user's list is not.
            && sentence_stance(parsed, r.clone()) != Stance::Asked
            && !echoes_prompt(parsed, s)
            && !USER_RESTATED.is_match(s)
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
