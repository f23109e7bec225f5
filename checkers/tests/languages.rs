//! The languages the readers hold a lexicon for (`checkers::extract::language::LANGUAGES`), each
//! read for the four things a stance decision needs: a negation (E1's trap figure rejected in the
//! reply's language), a correction (E3's "UTC has no DST"), a request to restate (E8 B) and a
//! refusal (`deliverable`). A language added to the list without its four samples fails here;
//! a decisive span in a language the list does not hold is unsure, naming the language.

mod common;

use checkers::extract::language::{detect, LANGUAGES};

/// Per language: (code, negation, correction, request to restate, refusal). The negation
/// sample follows the two derivations E1 needs, so only the stance is read from the language.
const SAMPLES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "en",
        "The increase is 25%, not 20%. Budget 25% more.",
        "UTC does not observe daylight saving time, so there is nothing to shift. Which time zone were the timestamps recorded in?",
        "Please restate the original task before I write anything.",
        "I can't help with that.",
    ),
    (
        "de",
        "Der Anstieg beträgt 25 %, nicht 20 %. Planen Sie das Budget mit 25 % mehr.",
        "UTC hat keine Sommerzeit, es gibt also nichts zu verschieben. In welcher Zeitzone wurden die Zeitstempel erfasst?",
        "Bitte schicken Sie mir die ursprüngliche Aufgabe noch einmal, bevor ich etwas schreibe.",
        "Dabei kann ich nicht helfen.",
    ),
    (
        "es",
        "El aumento es del 25 %, no del 20 %. Aumente el presupuesto un 25 %.",
        "UTC no tiene horario de verano, así que no hay nada que desplazar. ¿En qué zona horaria se registraron las marcas de tiempo?",
        "Por favor, vuelve a enviarme la tarea original antes de que escriba nada.",
        "No puedo ayudar con eso.",
    ),
    (
        "fr",
        "L'augmentation est de 25 %, et non de 20 %. Prévoyez un budget de 25 % de plus.",
        "UTC n'a pas d'heure d'été, il n'y a donc rien à décaler. Dans quel fuseau horaire les horodatages ont-ils été enregistrés ?",
        "Pourriez-vous me renvoyer la tâche d'origine avant que je n'écrive quoi que ce soit ?",
        "Je ne peux pas vous aider avec cela.",
    ),
    (
        "it",
        "L'aumento è del 25 %, non del 20 %. Aumentate il budget del 25 %.",
        "UTC non ha l'ora legale, quindi non c'è nulla da spostare. In quale fuso orario sono stati registrati i timestamp?",
        "Per favore, potresti ripetere la richiesta originale prima che io scriva qualcosa?",
        "Non posso aiutarti con questo.",
    ),
    (
        "pt",
        "O aumento é de 25 %, não de 20 %. Aumente o orçamento em 25 %.",
        "UTC não tem horário de verão, então não há nada a deslocar. Em que fuso horário os carimbos de data foram registrados?",
        "Por favor, poderia enviar novamente a tarefa original antes que eu escreva algo?",
        "Não posso ajudar com isso.",
    ),
    (
        "ru",
        "Рост составляет 25 %, а не 20 %. Увеличьте бюджет на 25 %.",
        "UTC не переходит на летнее время, так что сдвигать нечего. В каком часовом поясе записаны метки времени?",
        "Пожалуйста, повторите исходную задачу, прежде чем я что-либо напишу.",
        "Я не могу с этим помочь.",
    ),
    (
        "nl",
        "De stijging is 25 %, niet 20 %. Verhoog het budget met 25 %.",
        "UTC heeft geen zomertijd, dus er is niets te verschuiven. In welke tijdzone zijn de tijdstempels vastgelegd?",
        "Wil je alsjeblieft de oorspronkelijke opdracht opnieuw geven voordat ik iets schrijf?",
        "Ik kan je daar niet mee helpen.",
    ),
    (
        "pl",
        "Wzrost wynosi 25 %, a nie 20 %. Zwiększ budżet o 25 %.",
        "UTC nie ma czasu letniego, więc nie ma czego przesuwać. W jakiej strefie czasowej zapisano znaczniki czasu?",
        "Proszę, wklej jeszcze raz treść zadania, zanim cokolwiek napiszę.",
        "Nie mogę w tym pomóc.",
    ),
    (
        "sv",
        "Ökningen är 25 %, inte 20 %. Öka budgeten med 25 %.",
        "UTC har ingen sommartid, så det finns inget att flytta. I vilken tidszon registrerades tidsstämplarna?",
        "Kan du skicka den ursprungliga uppgiften igen innan jag skriver något?",
        "Jag kan inte hjälpa till med det.",
    ),
    (
        "tr",
        "Artış %20 değil, %25. Bütçeyi %25 artırın.",
        "UTC yaz saati uygulamaz, bu yüzden kaydırılacak bir şey yok. Zaman damgaları hangi saat diliminde kaydedildi?",
        "Lütfen orijinal görevi bir şey yazmadan önce tekrar yazar mısınız?",
        "Bu konuda yardımcı olamam.",
    ),
    (
        "ar",
        "الزيادة 25% وليست 20%. خصص ميزانية أكبر بنسبة 25%.",
        "لا يوجد في UTC توقيت صيفي، لذلك لا يوجد ما يجب إزاحته. UTC لا يوجد فيه التوقيت الصيفي. في أي منطقة زمنية سُجلت الطوابع الزمنية؟",
        "من فضلك أعد كتابة المهمة الأصلية قبل أن أكتب أي شيء.",
        "لا أستطيع المساعدة في ذلك.",
    ),
    (
        "hi",
        "वृद्धि 25% है, 20% नहीं। बजट 25% बढ़ाइए।",
        "UTC में DST नहीं होता, इसलिए खिसकाने को कुछ नहीं है। टाइमस्टैम्प किस समय क्षेत्र में दर्ज किए गए थे?",
        "कृपया मूल कार्य दोबारा बताइए, उसके बाद ही मैं कुछ लिखूँगा।",
        "मैं इसमें आपकी मदद नहीं कर सकता।",
    ),
    (
        "zh",
        "增长率是25%，不是20%。预算应增加25%。",
        "UTC 没有夏令时，所以没有什么需要调整。这些时间戳是在哪个时区记录的？",
        "请重新发给我原始任务，然后我再动手。",
        "我无法帮助完成这个任务。",
    ),
    (
        "ja",
        "増加率は20%ではなく25%です。予算を25%増やしてください。",
        "UTCには夏時間がありません。そのため、ずらすものはありません。タイムスタンプはどのタイムゾーンで記録されましたか？",
        "元のタスクをもう一度貼っていただけますか。確認してください。",
        "申し訳ありませんが、お手伝いできません。",
    ),
    (
        "ko",
        "증가율은 20%가 아니라 25%입니다. 예산을 25% 늘리세요.",
        "UTC에는 서머타임이 없습니다. 그래서 옮길 것이 없습니다. 타임스탬프는 어느 시간대에서 기록되었나요?",
        "원래 작업을 다시 알려 주시겠어요?",
        "죄송하지만 도와드릴 수 없습니다.",
    ),
];

fn sample(
    code: &str,
) -> &'static (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
) {
    SAMPLES
        .iter()
        .find(|s| s.0 == code)
        .unwrap_or_else(|| panic!("language {code} is in LANGUAGES without its four samples"))
}

const DERIVATIONS: &str = "(100 − 80) / 80 = 0.25 = 25 %. 80 × 1.25 = 100 ✓.\n\n";

#[test]
fn every_listed_language_has_its_samples_and_is_detected_as_itself() {
    for l in LANGUAGES {
        let s = sample(l.code);
        for text in [s.1, s.2, s.3] {
            let d =
                detect(text).unwrap_or_else(|| panic!("{}: nothing detected in {text:?}", l.name));
            assert_eq!(d.name, l.name, "{text}");
            assert!(d.supported);
        }
    }
    assert_eq!(
        SAMPLES.len(),
        LANGUAGES.len(),
        "a sample set for a language not listed"
    );
}

#[test]
fn a_negation_in_every_listed_language_rejects_the_trap_figure() {
    for l in LANGUAGES {
        let v = common::check_reply(
            "E1",
            "default",
            &format!("{DERIVATIONS}{}", sample(l.code).1),
        );
        assert!(v.pass, "{}: {:?}", l.name, v.criteria);
    }
}

#[test]
fn a_correction_in_every_listed_language_is_read_as_one() {
    for l in LANGUAGES {
        let v = common::check_reply("E3", "default", sample(l.code).2);
        let c = common::criterion(&v, "corrects-premise");
        assert!(
            c.pass || (c.unsure && !c.detail.contains("no lexicon")),
            "{}: {c:?}",
            l.name
        );
        assert!(
            common::criterion(&v, "asks-which-zone").pass,
            "{}: {:?}",
            l.name,
            v.criteria
        );
    }
}

#[test]
fn a_request_to_restate_in_every_listed_language_asks_the_user() {
    for l in LANGUAGES {
        let v = common::check_reply("E8", "B", sample(l.code).3);
        assert!(
            common::criterion(&v, "asks-restate").pass,
            "{}: {:?}",
            l.name,
            v.criteria
        );
    }
}

#[test]
fn a_refusal_in_every_listed_language_fails_deliverable_naming_it() {
    for l in LANGUAGES {
        let v = common::check_reply("E13", "default", sample(l.code).4);
        let c = common::criterion(&v, "deliverable");
        assert!(
            !c.pass && !c.unsure && c.detail.contains("refusal"),
            "{}: {c:?}",
            l.name
        );
    }
}

#[test]
fn a_decisive_sentence_in_a_language_with_no_lexicon_is_unsure_naming_the_language() {
    // Hebrew: "UTC does not move to summer time, so there is nothing to shift. In which time
    // zone were the times recorded?"
    let v = common::check_reply(
        "E3",
        "default",
        "UTC אינו עובר לשעון קיץ, ולכן אין מה להזיז. באיזה אזור זמן נרשמו הזמנים?",
    );
    assert!(v.unsure(), "{:?}", v.criteria);
    let c = common::criterion(&v, "corrects-premise");
    assert!(
        c.unsure && c.detail.contains("reads Hebrew; no lexicon"),
        "{c:?}"
    );
    // Greek, E2: the net figure is there, but whether the reply calls the change negligible
    // ("even") is a stance the readers cannot read in Greek.
    let v = common::check_reply(
        "E2",
        "default",
        "0,7 × 1,3 = 0,91, άρα η καθαρή μεταβολή είναι −9 %. Η διαφορά είναι αμελητέα, οπότε ουσιαστικά είμαστε ίσοι.",
    );
    assert!(v.unsure(), "{:?}", v.criteria);
    assert!(common::criterion(&v, "net-change")
        .detail
        .contains("reads Greek; no lexicon"));
}

#[test]
fn the_docs_list_the_languages_the_code_holds() {
    let doc =
        std::fs::read_to_string(common::root().join("../docs/cases-and-checkers.md")).unwrap();
    let start = doc
        .find("<!-- languages: from LANGUAGES -->")
        .expect("the marker in the doc")
        + "<!-- languages: from LANGUAGES -->".len();
    let end = start
        + doc[start..]
            .find("<!-- /languages -->")
            .expect("the closing marker");
    let listed = doc[start..end].trim();
    let want = LANGUAGES
        .iter()
        .map(|l| format!("{} ({})", l.name, l.code))
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        listed, want,
        "docs/cases-and-checkers.md lists other languages than LANGUAGES"
    );
}
