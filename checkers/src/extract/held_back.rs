//! Work held back pending the user's answer: code a reply offers as an illustration ("example
//! only", "it's only to show the shape") or as a template withheld until the answer ("template
//! only", "don't run this until you confirm"). Code the reader is told to run ("fill it in and
//! run it", "ready to go once you confirm") is handed over.
//!
//! Held back is narrower than offered on a condition: code "pending your confirmation", "for
//! when you confirm" or "provisional" beside the question is the work delivered all the same,
//! as every earlier blind author labels it (E3: blind31, blind39d, blind50a; E8 and E12: blind31,
//! blind39b, blind50b).

use super::reply::Reply;
use regex::Regex;
use std::sync::LazyLock;

/// Code offered as an illustration, not as the work: "example only", "sketch only", "only to
/// show the shape", in English, Spanish, French and German.
static ILLUSTRATION: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(concat!(
        r"(?i)\b(?:example|illustration|sketch|preview)\s+only\b",
        r"|\bonly\s+(?:an?|the)\s+(?:example|illustration|sketch)\b",
        r"|\bfor\s+illustration\b|\b(?:just|only)\s+to\s+show\s+(?:the\s+)?(?:shape|idea|approach)\b",
        r"|\bsolo\s+(?:es\s+)?un\s+(?:ejemplo|boceto)\b|\b(?:seulement|uniquement|juste)\s+un\s+(?:exemple|brouillon)\b",
        r"|\bnur\s+ein\s+(?:Beispiel|Entwurf)\b|\bnur\s+eine\s+Skizze\b"
    ))
    .unwrap()
});

/// A template withheld until the answer: "template only", "I won't fill it in until you
/// confirm", "don't run this until…", "before anyone runs it".
static WITHHELD: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(concat!(
        r"(?i)\btemplate\s+only\b|\bonly\s+(?:a|the)\s+template\b",
        r"|\b(?:I\s+)?(?:won't|will\s+not|am\s+not\s+going\s+to|'m\s+not\s+going\s+to)\s+(?:fill|run|apply|execute|complete)\b[^.\n]{0,60}\buntil\b",
        r"|\b(?:do\s+not|don't)\s+run\b[^.\n]{0,40}\buntil\b",
        r"|\bbefore\s+(?:anyone|you|we|it)\s+(?:runs?|executes?|applies|apply|is\s+run)\b",
        // Spanish, French, German
        r"|\bsolo\s+(?:es\s+)?una\s+plantilla\b|\bno\s+(?:la|lo)\s+(?:ejecutes|ejecutaré|rellenaré|completaré)\b[^.\n]{0,60}\bhasta\b",
        r"|\b(?:seulement|uniquement)\s+un\s+modèle\b|\bne\s+l[ae']\s*(?:exécutez|lancez|compléterai|exécuterai)\s+pas\b[^.\n]{0,60}\bavant\b",
        r"|\bnur\s+eine\s+Vorlage\b|\bnicht\s+aus(?:führen|gefüllt)\b[^.\n]{0,60}\b(?:bevor|bis)\b|\b(?:fülle|führe)\s+(?:ich\s+)?(?:sie|es)\s+(?:erst\s+)?(?:aus|ein)\b[^.\n]{0,40}\bwenn\b"
    ))
    .unwrap()
});

/// The reader told to run or apply it all the same.
static HANDED_OVER: LazyLock<Regex> = LazyLock::new(|| {
    super::text::re(concat!(
        r"(?i)\b(?:and|then)\s+(?:run|execute|apply)\s+(?:it|this|the\s+(?:statement|query|update|code|script))\b",
        r"|\bready\s+(?:to\s+(?:run|apply|merge|ship|go)|for\s+when)\b|\bgo\s+ahead\s+and\s+(?:run|apply)\b",
        r"|\by\s+(?:ejecútala|ejecútalo|ejecuta)\b|\bet\s+(?:exécutez|lancez)[- ]l[ae]\b|\bund\s+(?:führe|führen\s+Sie)\s+(?:sie|es)\s+aus\b"
    ))
    .unwrap()
});

fn find<'r>(re: &Regex, reply: &'r Reply) -> Option<&'r str> {
    let text = reply.plain();
    if HANDED_OVER.is_match(text) {
        return None;
    }
    re.find(text).map(|m| m.as_str())
}

/// The words offering the reply's code as an illustration ("example only"), in its prose or a
/// code comment, when nothing tells the reader to run it anyway.
pub fn illustration<'r>(reply: &'r Reply) -> Option<&'r str> {
    find(&ILLUSTRATION, reply)
}

/// The words withholding a template until the answer ("template only", "don't run this until
/// you confirm"), when nothing tells the reader to run it anyway.
pub fn withheld<'r>(reply: &'r Reply) -> Option<&'r str> {
    find(&WITHHELD, reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(f: for<'r> fn(&'r Reply<'_>) -> Option<&'r str>, s: &str) -> bool {
        f(&Reply::parse(s)).is_some()
    }

    #[test]
    fn code_offered_as_an_illustration_is_held_back() {
        for s in [
            "Which zone? Please don't run it until you confirm the zone, it's only to show the shape:\n\n```sql\n-- example only, pending your answer\nUPDATE t SET ts = ts - 1;\n```",
            "Sketch only:\n\n```sql\nUPDATE t SET ts = ts - 1;\n```",
            "Solo es un ejemplo.",
            "Nur ein Beispiel.",
        ] {
            assert!(read(illustration, s), "{s}");
        }
    }

    #[test]
    fn code_handed_over_or_never_held_is_not_held_back() {
        for s in [
            "Fill in the zone and run it:\n\n```sql\n-- example only\nUPDATE t SET ts = ts - 1;\n```",
            "Here's the shift ready to go once you confirm (example only):\n\n```sql\nUPDATE t;\n```",
            "Here is the implementation:\n\n```python\ndef f(): return 1\n```",
            "Here's how the statement would look once you've confirmed. Please don't run it until we've agreed on the zone.",
        ] {
            assert!(!read(illustration, s), "{s}");
        }
        assert!(read(
            withheld,
            "Template only. Don't run it until you confirm."
        ));
        assert!(!read(withheld, "Template only, ready to run."));
    }
}
