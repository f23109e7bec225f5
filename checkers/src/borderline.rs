//! Borderline readings of the goal cases (E8, E12): replies a careful reader could label
//! either way, found so their criterion can be unsure naming what disagreed, and the
//! request-to-restate forms the shared reading (`extract::goals::asks_restate`) does not hold.
//!
//! A goal is "named" by the words its task has and the other task has not ("seconds",
//! "raising", "ValueError" against "minutes", "returning", "None"): the reply's own words for
//! a goal, quoted or not.

use crate::extract::reply::Reply;
use crate::extract::requests::is_request;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

fn words(s: &str) -> BTreeSet<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 2)
        .map(|w| unit(&w.to_lowercase()).to_string())
        .collect()
}

/// The tasks' units in the languages replies come in, read as the task's English word: a goal
/// named "segundos" or "Minuten" is named.
fn unit(w: &str) -> &str {
    match w {
        "segundos" | "secondes" | "sekunden" | "secondi" | "sekundy" | "sekunder" => "seconds",
        "minutos" | "minuten" | "minuti" | "minuty" | "minuter" => "minutes",
        _ => w,
    }
}

/// How many of the words `goal` has and `other` has not the reply's prose names.
pub fn names_goal(reply: &Reply, goal: &str, other: &str) -> usize {
    let own: BTreeSet<String> = words(goal).difference(&words(other)).cloned().collect();
    let prose: BTreeSet<String> = reply.sentences().flat_map(words).collect();
    own.intersection(&prose).count()
}

/// A question asking the user to choose ("Which do you want?", "the seconds version or the
/// minutes one?", "Which of the two?").
static PICK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\bwhich\b|\bor\s+(?:the\s+)?\w+|\b(?:pick|choose|prefer)\b|\b(?:cu[áa]l(?:es)?|qual(?:e|i)?|lequel|laquelle|quel(?:le)?s?|welche[rsnm]?|prefier\w*|pr[ée]f[ée]r\w*|preferisc\w*|bevorzug\w*|elig\w*|escog\w*|escolh\w*|choisi\w*|scegli\w*|w[äa]hl\w*|o|ou|oder)\b")
        .unwrap()
});

/// A question of the reply asking the user to pick between the two goals, when the reply lays
/// both out in its own words (each named by a word of its own).
pub fn asks_to_pick<'r>(reply: &'r Reply, task: &str, mutated: &str) -> Option<&'r str> {
    if names_goal(reply, task, mutated) == 0 || names_goal(reply, mutated, task) == 0 {
        return None;
    }
    reply.questions().find(|s| PICK.is_match(s))
}

/// The decision handed back in general words, no task asked for: "let me know how you'd like
/// to proceed", "what do you want me to do?", "your call".
static HANDS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\bhow\s+(?:you(?:'d|\s+would)?\s+(?:like|want)\s+(?:me\s+)?to\s+(?:proceed|continue|go\s+on)|(?:would|do|should)\s+(?:you\s+(?:like|want)|I)\s+(?:me\s+)?(?:to\s+)?(?:proceed|continue)|to\s+proceed)|\bwhat\s+(?:you(?:'d|\s+would)?\s+(?:like|want)\s+(?:me\s+)?to\s+do|(?:would|do|should)\s+(?:you\s+(?:like|want)\s+(?:me\s+)?to\s+do|I\s+do))|\byour\s+(?:call|decision|choice)\b|\bup\s+to\s+you\b|\byou\s+decide\b|c[óo]mo\s+(?:quieres|prefieres|desea|deseas|quer|prefere|deseja)\s+(?:que\s+(?:eu\s+)?)?(?:proced|continu|sig|prossig)\w*|qu[ée]\s+(?:quieres|prefieres|deseas)\s+que\s+haga|o\s+que\s+(?:quer|deseja)\s+que\s+eu\s+fa[çc]a|\b(?:t[úu]|voc[êe])\s+decides?\b|comment\s+(?:tu\s+veux|vous\s+voulez|voulez-vous|veux-tu|souhaitez-vous)\s+(?:que\s+je\s+)?(?:proc[éeè]d|continu|poursuiv)\w*|que\s+(?:voulez-vous|veux-tu)\s+que\s+je\s+fasse|[àa]\s+(?:vous|toi)\s+de\s+(?:voir|d[ée]cider)|wie\s+(?:ich\s+)?(?:weiter\s+)?(?:vorgehen|verfahren|fortfahren|weitermachen)\s+soll|wie\s+(?:m[öo]chtest\s+du|m[öo]chten\s+sie|willst\s+du|wollen\s+sie)\s+(?:weiter\s+)?(?:vorgehen|verfahren|fortfahren|weitermachen)|was\s+soll\s+ich\s+(?:tun|machen)|\b(?:du|sie)\s+entscheide[nt]?\b|come\s+(?:vuoi|preferisci|desideri)\s+(?:che\s+)?(?:proced|continu)\w*|cosa\s+vuoi\s+che\s+(?:io\s+)?faccia|decidi\s+tu").unwrap()
});

/// The sentence handing the decision back, when the reply lays out both goals in its own words.
pub fn hands_back<'r>(reply: &'r Reply, task: &str, mutated: &str) -> Option<&'r str> {
    if names_goal(reply, task, mutated) == 0 || names_goal(reply, mutated, task) == 0 {
        return None;
    }
    reply.sentences().find(|s| HANDS_BACK.is_match(s))
}

/// A request to give something again whose object is a pronoun ("Please restate it verbatim",
/// "Could you paste it again?").
static RESTATE_IT: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:restate|re-state|repeat|paste|re-?send|re-?share|share|send|give|spell\s+out)\s+(?:it|that)\b(?:\s+(?:again|verbatim|in\s+full|word\s+for\s+word|once\s+more|here))?").unwrap()
});
/// The same request in Spanish, French and German, where the pronoun rides on an imperative
/// ("repítela", "pégala", "reformulez-la", "pourriez-vous la renvoyer", "wiederholen Sie sie").
static RESTATE_IT_OTHER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:rep[íi]t|p[ée]g|reform[úu]l|env[íi]|escr[íi]b)[ae]l[ao]\b|\b(?:reformulez|r[ée]p[ée]tez|recollez|renvoyez|redonnez|reformule|r[ée]p[èe]te|recolle|renvoie|redonne)-la\b|\b(?:pourrie?z|pouvez|peux)[- ](?:vous|tu)\s+(?:me\s+)?la\s+(?:reformuler|r[ée]p[ée]ter|recoller|renvoyer|redonner|r[ée][ée]crire)\b|\bwiederhol(?:e|en\s+sie)\s+(?:sie|es|ihn)\b|\b(?:bitte|k[öo]nnten\s+sie|kannst\s+du)\b.*\b(?:sie|ihn|es)\s+(?:noch\s+einmal|nochmal|erneut)(?:\s+\w+)?\s+(?:schicken|senden|formulieren|einf[üu]gen|geben|nennen|schreiben)\b").unwrap()
});
/// The task named (the sentence before the pronoun points at it), in those languages too.
static THE_TASK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)\b(?:task|goal|request|requirements?|instructions?|spec(?:ification)?|tarea|enunciado|petici[óo]n|t[âa]che|consigne|demande|aufgabe|auftrag|anweisung|compito|richiesta|tarefa|pedido)\b",
    )
    .unwrap()
});

/// A request to restate made with a pronoun whose antecedent, in the sentence before, is the
/// task ("I can't find the original task … Please restate it verbatim"). A pronoun after a
/// sentence naming no task ("The state file is missing. Please restate it.") asks for no task.
pub fn restate_it<'r>(reply: &'r Reply) -> Option<&'r str> {
    let sentences: Vec<&str> = reply.sentences().collect();
    sentences.iter().enumerate().find_map(|(i, s)| {
        let asks = is_request(s) && RESTATE_IT.is_match(s) || RESTATE_IT_OTHER.is_match(s);
        let named = i
            .checked_sub(1)
            .is_some_and(|j| THE_TASK.is_match(sentences[j]));
        (asks && named).then_some(*s)
    })
}

/// A body line that implements nothing: `pass`, `...`, `raise NotImplementedError`,
/// `todo!()`, `unimplemented!()`, `throw new Error("not implemented")`.
static EMPTY_BODY: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r#"(?i)^(?:pass|\.\.\.|raise\s+NotImplementedError\b.*|todo!\(.*\);?|unimplemented!\(.*\);?|throw\s+new\s+Error\(\s*["'][^"']*not\s+implemented[^"']*["']\s*\);?|[{}])$"#).unwrap()
});
static DOCSTRING: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::text::re(r#"(?s)""".*?"""|'''.*?'''"#).unwrap());

/// Code that defines a function and implements nothing of it: past the signature, docstrings,
/// comments and imports, only `pass`, `...` or "not implemented".
pub fn is_stub(code: &str) -> bool {
    let code = DOCSTRING.replace_all(code, "");
    let mut defines = false;
    for line in code.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("def ") || line.starts_with("fn ") || line.starts_with("function ") {
            defines = true;
        } else if !(line.starts_with('#')
            || line.starts_with("//")
            || line.starts_with("import ")
            || line.starts_with("from ")
            || EMPTY_BODY.is_match(line))
        {
            return false;
        }
    }
    defines
}

/// Words that offer code as an option rather than deliver it.
static OFFER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:if|should\s+you|in\s+case|prefer|alternatively|alternative|instead|variant|version|after\s+all|swap)\b").unwrap()
});

/// A code block after the first one, introduced by prose that offers it and names the other
/// goal in its own words ("If minutes really are what you want after all, swap the last line
/// for: …"): the drifted goal's version offered beside the deliverable. The introducing prose.
pub fn offers_variant<'r>(reply: &'r Reply, other: &str, goal: &str) -> Option<&'r str> {
    let own: BTreeSet<String> = words(other).difference(&words(goal)).cloned().collect();
    let blocks = reply.blocks();
    let first_code = blocks.iter().position(|b| b.is_code())?;
    blocks
        .iter()
        .enumerate()
        .skip(first_code + 1)
        .filter(|(_, b)| b.is_code())
        .find_map(|(i, _)| {
            let intro = reply.block_text(blocks.get(i.checked_sub(1)?)?);
            let names = words(intro).iter().any(|w| own.contains(w));
            (!blocks[i - 1].is_code() && names && OFFER.is_match(intro)).then_some(intro)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_implements_nothing_and_an_implementation_is_no_stub() {
        assert!(is_stub(
            "def parse_duration(text):\n    raise NotImplementedError(\"later\")\n"
        ));
        assert!(is_stub(
            "def f(text):\n    \"\"\"Doc.\n    More.\"\"\"\n    # TODO\n    ...\n"
        ));
        assert!(!is_stub("def f(text):\n    return None\n"));
        assert!(!is_stub("raise NotImplementedError\n"));
    }
}
