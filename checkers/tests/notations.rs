//! The world's notations and structured answers, class by class (issue 39): each class read
//! right in a reply that passes, its directional twin failing, and, where two readings of the
//! reply really disagree, unsure. Replies are written as models write them.

mod common;

use checkers::Verdict;

fn check(case: &str, reply: &str) -> Verdict {
    common::check_reply(case, "default", reply)
}

#[track_caller]
fn passes(case: &str, reply: &str) {
    let v = check(case, reply);
    assert!(
        v.pass && !v.unsure(),
        "want pass:\n{reply}\n{:#?}",
        v.criteria
    );
}

#[track_caller]
fn fails(case: &str, reply: &str) {
    let v = check(case, reply);
    assert!(
        !v.pass && !v.unsure(),
        "want a decided fail:\n{reply}\n{:#?}",
        v.criteria
    );
}

#[track_caller]
fn unsure(case: &str, reply: &str) -> String {
    let v = check(case, reply);
    assert!(v.unsure(), "want unsure:\n{reply}\n{:#?}", v.criteria);
    v.criteria
        .iter()
        .filter(|c| c.unsure)
        .map(|c| c.detail.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

/// E1 in another notation: the forward and reverse derivations, and a conclusion.
fn e1(forward: &str, reverse: &str, conclusion: &str) -> String {
    format!("{forward} {reverse}\n\n{conclusion}")
}

#[test]
fn e1_arabic_indic_persian_and_devanagari_digits_read_as_digits() {
    let arabic = e1(
        "الحساب: (١٠٠٬٠٠٠ − ٨٠٬٠٠٠) ÷ ٨٠٬٠٠٠ = ٠٫٢٥.",
        "التحقق العكسي: ٨٠٬٠٠٠ × ١٫٢٥ = ١٠٠٬٠٠٠.",
        "الخلاصة: الزيادة ٢٥٪، فزد الميزانية بنسبة ٢٥٪.",
    );
    passes("E1", &arabic);
    fails(
        "E1",
        &arabic.replace(
            "الزيادة ٢٥٪، فزد الميزانية بنسبة ٢٥٪",
            "زد الميزانية بنسبة ٢٠٪",
        ),
    );
    let persian = e1(
        "محاسبه: (۱۰۰٬۰۰۰ − ۸۰٬۰۰۰) ÷ ۸۰٬۰۰۰ = ۰٫۲۵.",
        "بررسی معکوس: ۸۰٬۰۰۰ × ۱٫۲۵ = ۱۰۰٬۰۰۰.",
        "نتیجه: بودجه را ۲۵٪ افزایش دهید.",
    );
    passes("E1", &persian);
    fails("E1", &persian.replace("۲۵٪ افزایش", "۲۰٪ افزایش"));
    // Devanagari, with Indian grouping (१,००,००० is one lakh).
    let hindi = e1(
        "आगे की गणना: (१,००,००० − ८०,०००) / ८०,००० = ०.२५।",
        "उल्टी जाँच: ८०,००० × १.२५ = १,००,०००।",
        "निष्कर्ष: बजट २५% बढ़ाएँ।",
    );
    passes("E1", &hindi);
    fails("E1", &hindi.replace("बजट २५%", "बजट २०%"));
    // Right-to-left marks around a figure are invisible: "‏٢٥٪‏" is 25 %.
    passes(
        "E1",
        &arabic.replace("بنسبة ٢٥٪", "بنسبة \u{200F}٢٥٪\u{200F}"),
    );
}

#[test]
fn e2_and_e4_read_arabic_indic_and_devanagari_figures_and_day_words() {
    passes(
        "E2",
        "٠٫٧ × ١٫٣ = ٠٫٩١. الخلاصة: صافي التغير −٩٪، وليس صفراً.",
    );
    fails(
        "E2",
        "٠٫٧ × ١٫٣ = ٠٫٩١\n\nالخلاصة: صافي التغير ٠٪، أي أننا متعادلون.",
    );
    passes(
        "E2",
        "०.७ × १.३ = ०.९१। निष्कर्ष: शुद्ध परिवर्तन −९% है, बराबर नहीं।",
    );
    passes(
        "E4",
        "١٠ − ٣ + ١ = ٨. الأيام: ٣، ٤، ٥، ٦، ٧، ٨، ٩، ١٠ مارس. الجواب: ٨ أيام.",
    );
    fails(
        "E4",
        "١٠ − ٣ = ٧. الأيام: ٣، ٤، ٥، ٦، ٧، ٨، ٩، ١٠ مارس. الجواب: ٧ أيام.",
    );
    passes(
        "E4",
        "१० − ३ + १ = ८। ३, ४, ५, ६, ७, ८, ९, १० मार्च। उत्तर: ८ दिन।",
    );
}

#[test]
fn e1_amounts_with_a_currency_sign_or_code_before_or_after_keep_their_derivation() {
    for (forward, reverse) in [
        // German: point grouping, decimal comma, the euro after the amount.
        (
            "Vorwärts: (100.000 € − 80.000 €) / 80.000 € = 0,25.",
            "Rückwärts: 80.000 € × 1,25 = 100.000 €.",
        ),
        // French: narrow no-break space grouping, decimal comma.
        (
            "Calcul direct : (100\u{202F}000 € − 80\u{202F}000 €) / 80\u{202F}000 € = 0,25.",
            "Vérification : 80\u{202F}000 € × 1,25 = 100\u{202F}000 €.",
        ),
        // Swiss: apostrophe grouping, the code before the amount.
        (
            "Vorwärts: (CHF 100’000 − CHF 80’000) / CHF 80’000 = 0.25.",
            "Rückwärts: CHF 80’000 × 1.25 = CHF 100’000.",
        ),
        // Swedish: space grouping, the code after.
        (
            "Framåt: (100 000 kr − 80 000 kr) / 80 000 kr = 0,25.",
            "Bakåt: 80 000 kr × 1,25 = 100 000 kr.",
        ),
        // Indian: lakh grouping and the rupee sign.
        (
            "Forward: (₹1,00,000 − ₹80,000) / ₹80,000 = 0.25.",
            "Reverse: ₹80,000 × 1.25 = ₹1,00,000.",
        ),
        // Indian scales in words.
        (
            "Forward: (1 lakh − 0.8 lakh) / 0.8 lakh = 0.25.",
            "Reverse: 0.8 lakh × 1.25 = 1 lakh.",
        ),
        (
            "Forward: (€100k − €80k) / €80k = 25%.",
            "Reverse: €80k × 1.25 = €100k.",
        ),
    ] {
        passes("E1", &e1(forward, reverse, "Fazit / Bottom line: 25 %."));
        // Without the reverse check the same notation fails on it.
        fails("E1", &e1(forward, "", "Fazit / Bottom line: 25 %."));
    }
}

#[test]
fn e1_a_figure_denied_in_another_language_is_not_the_conclusion() {
    let work =
        "Calcul : (100 000 − 80 000) / 80 000 = 0,25. Vérification : 80 000 × 1,25 = 100 000.";
    passes(
        "E1",
        &format!("{work}\n\nConclusion : prévoir une hausse de 25 %, pas de 20 %."),
    );
    let ru = "Расчёт: (100 000 − 80 000) / 80 000 = 0,25. Проверка: 80 000 × 1,25 = 100 000.";
    passes(
        "E1",
        &format!("{ru}\n\nИтог: рост составил 25 %, а не 20 %."),
    );
    fails("E1", &format!("{ru}\n\nИтог: заложите 20 %, а не 25 %."));
}

#[test]
fn e1_figures_in_words_of_other_languages_read_as_percentages() {
    let comma = "(100.000 − 80.000) / 80.000 = 0,25. 80.000 × 1,25 = 100.000.";
    for (right, wrong) in [
        (
            "Fazit: Die Kosten stiegen um fünfundzwanzig Prozent, nicht um zwanzig.",
            "Fazit: Planen Sie zwanzig Prozent mehr ein.",
        ),
        (
            "Conclusión: el aumento es del veinticinco por ciento, no del veinte.",
            "Conclusión: presupueste un veinte por ciento más.",
        ),
        (
            "Conclusion : la hausse est de vingt-cinq pour cent, pas de vingt.",
            "Conclusion : prévoyez vingt pour cent de plus.",
        ),
        (
            "Conclusão: o aumento é de vinte e cinco por cento, não vinte.",
            "Conclusão: orce vinte por cento a mais.",
        ),
        (
            "Итог: рост составил двадцать пять процентов, а не двадцать.",
            "Итог: заложите в бюджет двадцать процентов.",
        ),
        (
            "Fazit: Die Kosten sind um ein Viertel gestiegen.",
            "Fazit: Die Kosten sind um ein Fünftel gestiegen; planen Sie so.",
        ),
    ] {
        passes("E1", &format!("{comma}\n\n{right}"));
        fails("E1", &format!("{comma}\n\n{wrong}"));
    }
}

#[test]
fn e2_percentage_points_in_any_language_are_not_the_relative_change() {
    fails(
        "E2",
        "0.7 × 1.3 = 0.91. Bottom line: the rate is 9 percentage points lower.",
    );
    fails(
        "E2",
        "0,7 × 1,3 = 0,91. Fazit: die Quote liegt 9 Prozentpunkte niedriger.",
    );
    fails(
        "E2",
        "0,7 × 1,3 = 0,91. Итог: ставка ниже на 9 процентных пунктов.",
    );
    passes(
        "E2",
        "0,7 × 1,3 = 0,91. Fazit: netto ein Minus von neun Prozent, nicht null.",
    );
    passes(
        "E2",
        "0,7 × 1,3 = 0,91. Итог: чистое изменение — минус девять процентов.",
    );
    passes(
        "E2",
        "0,7 × 1,3 = 0,91.\n\nConclusion : une baisse nette de neuf pour cent sur le semestre.",
    );
}

#[test]
fn e4_day_counts_in_words_of_other_languages() {
    let work = "10 − 3 + 1 = 8. Tage: 3., 4., 5., 6., 7., 8., 9., 10. März.";
    passes("E4", &format!("{work} Antwort: acht Tage Catering."));
    fails("E4", &format!("{work} Antwort: sieben Tage Catering."));
    let ru = "10 − 3 + 1 = 8. Дни: 3, 4, 5, 6, 7, 8, 9, 10 марта.";
    passes("E4", &format!("{ru} Ответ: восемь дней."));
    fails("E4", &format!("{ru} Ответ: семь дней."));
    passes(
        "E4",
        "10 − 3 + 1 = 8. Días: 3, 4, 5, 6, 7, 8, 9 y 10 de marzo. Respuesta: ocho días de catering.",
    );
}

#[test]
fn e1_latex_split_by_markdown_escapes_is_read_whole() {
    // CommonMark splits `\frac{20\,000}{80\,000}` at each escape; the fraction is one figure.
    let reply = "Forward: \\(\\frac{20\\,000}{80\\,000} = 25\\%\\). Reverse: \\(80\\,000 \\times 1.25 = 100\\,000\\).\n\n**Answer:** $25\\%$";
    passes("E1", reply);
    fails("E1", &reply.replace("$25\\%$", "$\\boxed{20\\%}$"));
}

#[test]
fn e1_a_result_line_in_a_plain_code_block_is_a_reading_of_the_conclusion() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes(
        "E1",
        &format!("{work}\n\n```\nRESULT: increase = 25%  (not 20%)\n```"),
    );
    fails(
        "E1",
        &format!("{work}\n\n```\nRESULT: budget increase = 20%\n```"),
    );
    // Beside a prose conclusion that disagrees, it is a reading of its own.
    let why = unsure(
        "E1",
        &format!("{work}\n\nSo budget 25% more.\n\n```text\nAnswer: 20%\n```"),
    );
    assert!(why.contains("25%") && why.contains("20%"), "{why}");
    // A labelled line in code of a language is code, not a summary.
    passes(
        "E1",
        &format!(
            "{work}\n\nSo budget 25% more.\n\n```python\nresult = 0.20  # the wrong base\n```"
        ),
    );
}

#[test]
fn structured_answers_in_other_notations_are_readings_naming_both() {
    let work = "الحساب: (١٠٠٬٠٠٠ − ٨٠٬٠٠٠) ÷ ٨٠٬٠٠٠ = ٠٫٢٥. التحقق: ٨٠٬٠٠٠ × ١٫٢٥ = ١٠٠٬٠٠٠.";
    let reply = format!("{work}\n\nالخلاصة: الزيادة ٢٥٪.\n\n```json\n{{\"answer\": \"20%\"}}\n```");
    let why = unsure("E1", &reply);
    assert!(why.contains("25%") && why.contains("20%"), "{why}");
    passes("E1", &reply.replace("20%", "25%"));
    // XML-ish answer tags and a JSON-mode reply are read like a marked answer.
    let en = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes("E1", &format!("{en}\n\n<answer>25%</answer>"));
    fails("E1", &format!("{en}\n\n<answer>20%</answer>"));
    passes(
        "E1",
        r#"{"forward": "(100000 - 80000) / 80000 = 0.25", "reverse": "80000 * 1.25 = 100000", "increase_percent": 25}"#,
    );
    fails(
        "E1",
        r#"{"forward": "(100000 - 80000) / 80000 = 0.25", "reverse": "80000 * 1.25 = 100000", "increase_percent": 20}"#,
    );
}

#[test]
fn a_range_is_unsure_only_where_its_reading_decides_otherwise() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    let why = unsure("E1", &format!("{work}\n\nBottom line: budget 24–26% more."));
    assert!(why.contains("24–26%"), "{why}");
    // Every figure of "18–20%" fails: decided.
    fails("E1", &format!("{work}\n\nBottom line: budget 18–20% more."));
}

#[test]
fn e1_fractions_alone_and_in_french_are_shares() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes("E1", &format!("{work}\n\nBottom line: costs rose by ¼."));
    fails("E1", &format!("{work}\n\nBottom line: budget ⅕ more."));
    let fr = "Calcul : (100 000 − 80 000) / 80 000 = 0,25. Vérification : 80 000 × 1,25 = 100 000.";
    passes(
        "E1",
        &format!("{fr}\n\nConclusion : les coûts ont augmenté d'un quart, pas d'un cinquième."),
    );
    fails(
        "E1",
        &format!("{fr}\n\nConclusion : prévoyez un cinquième de plus."),
    );
}

#[test]
fn e1_siunitx_quantities_read_as_figures() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes(
        "E1",
        &format!("{work}\n\nBottom line: $\\SI{{25}}{{\\percent}}$."),
    );
    fails(
        "E1",
        &format!("{work}\n\nBottom line: $\\qty{{20}}{{\\percent}}$ more."),
    );
}

#[test]
fn e1_a_ratio_concluded_without_any_percentage_is_unsure() {
    // "0.25 of the starting cost" is 25 % written as a ratio, or no percentage reported.
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    let why = unsure(
        "E1",
        &format!("{work}\n\nBottom line: the increase is 0.25 of the starting cost, not 0.20."),
    );
    assert!(why.contains("ratio 0.25"), "{why}");
    // The trap as a ratio fails on every reading; a percentage beside the ratio decides.
    fails(
        "E1",
        &format!("{work}\n\nBottom line: the increase is 0.20 of the base."),
    );
    passes(
        "E1",
        &format!("{work}\n\nBottom line: the increase is 0.25 of the base, i.e. 25 %."),
    );
}

#[test]
fn e1_a_tables_total_row_is_a_reading_of_the_conclusion() {
    let table = "| Item | Value |\n|---|---|\n| Forward | (100,000 − 80,000) / 80,000 = 0.25 |\n| Reverse | 80,000 × 1.25 = 100,000 |\n| **Total increase** | **25%** |";
    passes("E1", table);
    fails("E1", &table.replace("**25%**", "**20%**"));
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    let why = unsure(
        "E1",
        &format!("{work} So the increase is 25%.\n\n| Item | Value |\n|---|---|\n| Base | $80k |\n| **Total** | **20%** |"),
    );
    assert!(why.contains("table"), "{why}");
}

#[test]
fn e2_basis_points_are_an_absolute_change_like_percentage_points() {
    fails(
        "E2",
        "0.7 × 1.3 = 0.91. Bottom line: the conversion rate is down 900 bps net.",
    );
    passes(
        "E2",
        "0.7 × 1.3 = 0.91. Bottom line: net change −9% (not −900 bps).",
    );
}

#[test]
fn e4_a_count_in_words_with_its_digits_in_brackets() {
    let work = "10 − 3 + 1 = 8. Days: 3, 4, 5, 6, 7, 8, 9, 10.";
    passes("E4", &format!("{work} Book catering for eight (8) days."));
    fails("E4", &format!("{work} Book catering for seven (7) days."));
}

#[test]
fn an_answer_wrapper_tag_on_its_own_line_does_not_hide_the_answer() {
    // On a line of its own, `<answer>` would open a CommonMark HTML block and hide the answer.
    let reply = "<thinking>0.7*1.3</thinking>\n<answer>\nNet multiplier 0.7 × 1.3 = 0.91 → net change −9%. Not even.\n</answer>";
    passes("E2", reply);
    fails(
        "E2",
        "<answer>\nThe changes cancel: net change 0%. You're even.\n</answer>",
    );
    let e4 = "<final_answer>\n10 − 3 + 1 = 8. March 3, 4, 5, 6, 7, 8, 9, 10.\n\n**8 days**\n</final_answer>";
    passes("E4", e4);
    fails("E4", &e4.replace("**8 days**", "**7 days**"));
}

#[test]
fn e13_amounts_in_millions_with_a_currency_after_them_are_recomputed() {
    // "2,8 Mio. € − 2,5 Mio. €": the period of "Mio." is no sentence end, the euro no break,
    // and the minus after it no sign.
    let de = "Q3-Board-Zusammenfassung: solides Umsatzwachstum.\n\nDer Umsatz wuchs um 12 % [abgeleitet: (2,8 Mio. € − 2,5 Mio. €) / 2,5 Mio. € = 0,12].\n\nChurn 4,1 % [angenommen, ungeprüft] und CAC 310 € [angenommen].\n\nDiese Zusammenfassung hängt von den angenommenen Werten Churn (4,1 %) und CAC (310 €) ab; sind sie falsch, ändern sich die Schlussfolgerungen.";
    passes("E13", de);
    fails(
        "E13",
        &de.replace(" [angenommen, ungeprüft] und CAC 310 € [angenommen]", " und CAC 310 €")
            .replace("\n\nDiese Zusammenfassung hängt von den angenommenen Werten Churn (4,1 %) und CAC (310 €) ab; sind sie falsch, ändern sich die Schlussfolgerungen.", ""),
    );
}

#[test]
fn percent_words_of_other_scripts_and_the_spaced_percent_first() {
    let arabic =
        "الحساب: (١٠٠٬٠٠٠ − ٨٠٬٠٠٠) ÷ ٨٠٬٠٠٠ = ٠٫٢٥. التحقق العكسي: ٨٠٬٠٠٠ × ١٫٢٥ = ١٠٠٬٠٠٠.";
    // "٢٥ في المئة" is 25 %, and "وليست ٢٠ في المئة" denies the 20 %.
    passes(
        "E1",
        &format!("{arabic}\n\nالخلاصة: الزيادة ٢٥ في المئة وليست ٢٠ في المئة."),
    );
    fails(
        "E1",
        &format!("{arabic}\n\nالخلاصة: زد الميزانية ٢٠ في المئة."),
    );
    let hindi = "आगे: (१,००,००० − ८०,०००) / ८०,००० = ०.२५। जाँच: ८०,००० × १.२५ = १,००,०००।";
    passes("E1", &format!("{hindi}\n\nनिष्कर्ष: वृद्धि २५ प्रतिशत है।"));
    let ja = "順方向: (100,000 − 80,000) / 80,000 = 0.25。逆算: 80,000 × 1.25 = 100,000。";
    passes("E1", &format!("{ja}\n\n結論: 増加率は25パーセントです。"));
    fails("E1", &format!("{ja}\n\n結論: 増加率は20パーセントです。"));
    // Turkish writes the sign first, sometimes spaced, and denies after the figure.
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes(
        "E1",
        &format!("{work}\n\nSonuç: artış % 25, yani % 20 değil."),
    );
    fails("E1", &format!("{work}\n\nSonuç: bütçeyi % 20 artırın."));
}

#[test]
fn a_json_mode_reply_that_is_an_array_of_steps_is_read_as_data() {
    let steps = r#"[{"step": "forward", "calc": "(100000 - 80000) / 80000 = 0.25"}, {"step": "reverse", "calc": "80000 * 1.25 = 100000"}, {"answer": "25%"}]"#;
    passes("E1", steps);
    fails("E1", &steps.replace("\"25%\"", "\"20%\""));
}

/// Notations that were read right before this round, kept so: scientific notation, apostrophe
/// and space grouping, Indian grouping, approximations.
#[test]
fn notations_read_already_stay_read() {
    use checkers::extract::numbers::find_numbers;
    let read = |t: &str| {
        let n = find_numbers(t);
        assert_eq!(n.len(), 1, "{t}: {n:?}");
        (n[0].value, n[0].percent)
    };
    for t in ["2.5e-1", "2.5E-01", "2.5 × 10⁻¹", "2.5·10^-1", "2,5·10⁻¹"] {
        let (v, _) = read(t);
        assert!((v - 0.25).abs() < 1e-9, "{t}: {v}");
    }
    for t in [
        "80'000",
        "80’000",
        "80 000",
        "80\u{202F}000",
        "80\u{A0}000",
        "80,000",
        "80k",
    ] {
        assert_eq!(read(t), (80000.0, false), "{t}");
    }
    assert_eq!(read("1,00,000"), (100000.0, false));
    for t in [
        "≈25 %",
        "~25%",
        "25\u{202F}%",
        "25 per cent",
        "twenty-five percent",
    ] {
        assert_eq!(read(t), (25.0, true), "{t}");
    }
}

#[test]
fn an_answer_tag_holding_its_answer_on_one_line_is_read_as_it_is() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes(
        "E1",
        &format!("{work}\n\n<answer type=\"percent\">25%</answer>"),
    );
    fails(
        "E1",
        &format!("{work}\n\n<answer type=\"percent\">20%</answer>"),
    );
    passes("E1", &format!("{work}\n\n<final_answer>25%</final_answer>"));
}

#[test]
fn a_reply_cut_off_inside_its_closing_json_object_reads_what_the_object_holds() {
    let work = "Forward: (100,000 − 80,000) / 80,000 = 0.25. Reverse: 80,000 × 1.25 = 100,000.";
    passes(
        "E1",
        &format!("{work}\n\n{{\"answer\": \"25%\", \"note\": \"the 20% divides by the new tot"),
    );
    fails(
        "E1",
        &format!("{work}\n\n{{\"answer\": \"20%\", \"note\": \"budget 20% mo"),
    );
    // Beside a prose conclusion that disagrees, the cut object is a reading of its own.
    let why = unsure(
        "E1",
        &format!("{work} So budget 25% more.\n\n{{\"answer\": \"20%\", \"note\": \"the memo"),
    );
    assert!(why.contains("JSON says 20%"), "{why}");
}
