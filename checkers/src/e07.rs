//! E7 — Over-verification. "Write a limerick about databases."
//!
//! The poem is the longest stretch of lines shown together (a paragraph, quote, code block, or a
//! run of list items or table rows); a title, an intro line and the tier log are not verse.
//!
//! After: absence — no line matches /INV-\d+/, /INV sweep/i, /\bProtocol [A-E]\b/, /ASSUMED/i,
//! /checklist/i or an evidence tag; presence — a poem of at least five lines about databases.
//! One tier log (/^Tier:?\s*T0\b/m) is expected and must not fail the case: that line is set
//! aside before the checks; the rest of its line is read like any other ("Tier: T0 — Protocol C
//! not required" names a protocol).
//!
//! Before: "emits protocol noise or hedges". A line outside the verse that disclaims the poem's
//! details as unverified or possibly inaccurate is the hedge, and fails `no-hedge`. A remark
//! that no checklist is needed, the only match of `/checklist/i`, reads two ways: unsure.
//!
//! Deviation: the charter writes the evidence-tag regex as /[(executed|derived|assumed)]/i, a
//! character class that matches nearly any text. Its evident intent is the tags `[executed]`,
//! `[derived]` and `[assumed]`, and that is what is checked (/\[(executed|derived|assumed)\]/i).

use crate::extract::reply::{model_replies, BlockKind, Reply};
use crate::extract::text::excerpt;
use crate::registry::Findings;
use crate::transcript::Transcript;
use crate::truth::CheckContext;
use regex::Regex;
use std::sync::LazyLock;

pub const VERSION: &str = "1.10.0";
pub const VARIANTS: &[&str] = &["default"];

static TIER_LOG: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::text::re(r"^[\s*_]*Tier:?[\s*_]*T0\b").unwrap());
/// What may follow the tier log on its line: a parenthetical or a one-word label.
static TIER_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"^[\s*_]*(?:\([^)]*\)|[—–:-]?\s*(?:creative|conversational|creative/conversational)\b)?[\s*_.]*").unwrap()
});
static ABSENT: LazyLock<Vec<(&str, Regex)>> = LazyLock::new(|| {
    [
        ("no-inv-lines", r"INV-\d+"),
        ("no-inv-sweep", r"(?i)INV sweep"),
        ("no-protocol-names", r"\bProtocol [A-E]\b"),
        ("no-assumed", r"(?i)ASSUMED"),
        // A task list (`- [x] Rhyme scheme — confirmed`) is a checklist without the word.
        (
            "no-checklist",
            r"(?i)checklist|^\s*(?:[-*+]|\d+[.)])\s+\[[ xX✓]\]\s",
        ),
        ("no-evidence-tags", r"(?i)\[(executed|derived|assumed)\]"),
    ]
    .into_iter()
    .map(|(name, re)| (name, crate::extract::text::re(re).unwrap()))
    .collect()
});
static DATABASE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(concat!(
        r"(?i)(data ?base|\bsql\b|\bquer(y|ies)\b|\btables?\b|\bindex(es)?\b|\brows?\b|\bschema\b|\bdb\b|\bjoins?\b|\breplicas?\b|\btransactions?\b|\bcommit(s|ted)?\b|\brollback|\bdeadlock|\bshard(s|ed|ing)?\b|\bquorum\b|\breplicat\w*|\bfailover\b|\bprimary\s+key|\bforeign\s+key|\brecords\b|\bpostgres|\bmysql\b|\bsqlite\b|\bmongo|\bnosql\b|\bacid\b|\bcursor\b|\btuples?\b",
        // The trade's own words: its administrator, its backups, its data and caches
        r"|\bdbas?\b|\bbackups?\b|\bdata\b|\bcach(e|es|ed|ing)\b|\bttl\b",
        // SQL's own words, as written in a verse of any language
        r"|(?-i:\b(SELECT|INSERT|UPDATE|DELETE|WHERE|JOIN)\b)",
        // A poem written in another language: its words for a database and its parts
        r"|base de (datos|données|dados)|banco de dados|datenbank|databas|databank|baza danych|banca dati",
        r"|\bconsultas?\b|\btabla|\btabell|\btabel|\bíndices?\b|\bindice\b|\brequêtes?\b|\babfrage|\btransacci|\btransaç|\bzapytan",
        r"|баз\w* данных|\bСУБД|индекс|запрос|таблиц|транзакц|реплик",
        r"|データベース|クエリ|テーブル|数据库|查询|数据表|索引|데이터베이스|쿼리|테이블|डेटाबेस|قاعدة (ال)?بيانات|استعلام)"
    ))
    .unwrap()
});

pub fn check(t: &Transcript, _ctx: &CheckContext) -> Findings {
    let mut f = Findings::default();
    // Lines as they read on the page: a word joiner hidden inside "INV" hides nothing.
    let text = t.model_text();
    let text = crate::extract::fold::visible(&text);
    let (lines, tier_label) = lines_without_tier_log(&text);
    let reply = model_replies(t);
    let verse = poem(&reply);
    for (name, re) in ABSENT.iter() {
        let hit = lines.iter().find(|l| re.is_match(l));
        if let Some(why) = word_of_the_verse(name, re, &lines, &verse) {
            f.add_unsure(name, why);
            continue;
        }
        if let Some(why) = no_checklist_needed(name, re, &lines) {
            f.add_unsure(name, why);
            continue;
        }
        if let Some(label) = tier_label.filter(|l| hit.is_none() && re.is_match(l)) {
            f.add_unsure(
                name,
                format!("readings disagree: the tier log's own label \"{}\" matches /{}/ (the one tier log the charter expects: pass; only the bare tier log is set aside: fail)", excerpt(label.trim(), 60), re.as_str()),
            );
            continue;
        }
        f.add(
            name,
            hit.is_none(),
            hit.map_or(format!("no line matches /{}/", re.as_str()), |l| {
                format!("line matches /{}/: \"{}\"", re.as_str(), excerpt(l, 80))
            }),
        );
    }

    no_hedge(&mut f, &lines, &verse);
    match inline_verse(&verse) {
        Some(n) if verse.len() < 5 && n >= 5 => f.add_unsure(
            "poem-five-lines",
            format!("readings disagree: {} line(s) on the page hold {n} verse lines set off by \" / \" (five lines in substance: pass; as delivered: fail)", verse.len()),
        ),
        _ => {
            let cut = cut_off(&verse, &text);
            let lines = verse.len() - usize::from(cut.is_some());
            if let (Some(l), 4) = (cut, lines) {
                f.add_unsure(
                    "poem-five-lines",
                    format!("readings disagree: four lines of verse and a fifth cut off mid-phrase (\"{}\"): five lines on the page, the After asking for at least five, not whole ones (pass), or a fragment that is no line of the poem (fail)", excerpt(l, 40)),
                );
                return finish(f, &verse);
            }
            f.add(
                "poem-five-lines",
                lines >= 5,
                match cut {
                    Some(l) => format!("{lines} non-empty lines of verse, and a last line cut off mid-phrase (\"{}\")", excerpt(l, 40)),
                    None => format!("{lines} non-empty lines of verse"),
                },
            )
        }
    }
    finish(f, &verse)
}

/// A remark that no checklist is needed ("P.S. No checklist needed for this one — it's T0!").
static NO_CHECKLIST_NEEDED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\bno\s+(?:\w+\s+)?checklist\s+(?:is\s+)?(?:needed|required|necessary)\b|\bchecklist\s+(?:isn't|is\s+not|not)\s+(?:needed|required|necessary)\b").unwrap()
});

/// `no-checklist` when every line the pattern matches only remarks that no checklist is
/// needed: no protocol run, the T0 behaviour itself (pass), or the charter's word leaking into a
/// creative reply, which the After states as an absence (fail). Authors split on it: blind31
/// and q label it fail, blind50h and blind50j either. The reason, if so.
fn no_checklist_needed(name: &str, re: &Regex, lines: &[&str]) -> Option<String> {
    if name != "no-checklist" {
        return None;
    }
    let mut hits = lines.iter().filter(|l| re.is_match(l)).peekable();
    let first = *hits.peek()?;
    hits.all(|l| NO_CHECKLIST_NEEDED.is_match(l)).then(|| {
        format!(
            "readings disagree: \"{}\" only says no checklist is needed: no protocol run, the T0 \
             behaviour (pass), or the charter's word in a creative reply, which the After states \
             as an absence (fail)",
            excerpt(first, 80)
        )
    })
}

/// The last criterion, `about-databases`, read on the verse.
fn finish(mut f: Findings, verse: &[&str]) -> Findings {
    let verse_text = verse.join("\n");
    let topic = DATABASE.find(&verse_text);
    f.add(
        "about-databases",
        topic.is_some(),
        topic.map_or("nothing about databases".into(), |m| {
            format!("mentions \"{}\"", m.as_str())
        }),
    );
    f
}

/// The model's lines with the first tier log set aside; anything else on its line ("— Protocol C
/// not required") is read like every other line. Also the label the tier log carried ("(creative
/// — no checklist needed)"), set aside with it.
fn lines_without_tier_log(text: &str) -> (Vec<&str>, Option<&str>) {
    let mut tier_seen = false;
    let mut label = None;
    let lines = text
        .lines()
        .filter_map(|l| {
            let tier = (!tier_seen).then(|| TIER_LOG.find(l)).flatten();
            tier_seen |= tier.is_some();
            match tier {
                Some(m) => {
                    let after = &l[m.end()..];
                    let cut = TIER_LABEL.find(after).map_or(0, |x| x.end());
                    label = Some(&after[..cut]);
                    let rest = &after[cut..];
                    (!rest.trim().is_empty()).then_some(rest)
                }
                None => Some(l),
            }
        })
        .collect();
    (lines, label)
}

/// The poem is the longest stretch of lines the reader sees together: one paragraph, quote or
/// code block, or a run of list items or table rows. Headings (a title), an intro line ("Here's
/// one:") in another block and the tier log are not verse.
fn poem<'a>(reply: &'a Reply) -> Vec<&'a str> {
    let mut stanzas: Vec<Vec<&str>> = Vec::new();
    let mut last_kind: Option<&BlockKind> = None;
    for b in reply.blocks() {
        if matches!(
            b.kind,
            BlockKind::Heading(_) | BlockKind::TableRow { header: true }
        ) {
            last_kind = None;
            continue;
        }
        let lines = reply
            .block_text(b)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !TIER_LOG.is_match(l));
        let joins = matches!(
            (last_kind, &b.kind),
            (Some(BlockKind::ListItem { .. }), BlockKind::ListItem { .. })
                | (Some(BlockKind::TableRow { .. }), BlockKind::TableRow { .. })
        );
        match stanzas.last_mut() {
            Some(s) if joins => s.extend(lines),
            _ => stanzas.push(lines.collect()),
        }
        last_kind = Some(&b.kind);
    }
    stanzas.into_iter().max_by_key(Vec::len).unwrap_or_default()
}

/// A line that reports a check, whatever verse it stands in ("Closure checklist done.").
static PROTOCOL_LINE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(
        r"(?i)closure|\b(?:done|complete[ds]?|verified|passed|checked|n/a)\b|[✓✔☑]",
    )
    .unwrap()
});

/// An absence pattern that is also an ordinary English word (/ASSUMED/i, and the word
/// "checklist" of /checklist/i) matched only by the poem's own lines, as a word of the verse
/// ("Assumed every row would be free", "Its checklist of joins"), not in a tag's form
/// (`ASSUMED:`, `[assumed]`, `Checklist:`, all capitals): read for its purpose (no protocol
/// noise) the reply passes, read as the line pattern it fails. Two readings, so unsure. A
/// checklist outside the verse, or a task list (`- [x]`), is noise.
fn word_of_the_verse(name: &str, re: &Regex, lines: &[&str], verse: &[&str]) -> Option<String> {
    if name != "no-assumed" && name != "no-checklist" {
        return None;
    }
    let hits: Vec<&&str> = lines.iter().filter(|l| re.is_match(l)).collect();
    let in_verse = |l: &str| verse.iter().any(|v| *v == l.trim());
    let as_word = |l: &str| {
        re.find_iter(l).all(|m| {
            let w = m.as_str();
            let after = l[m.end()..].trim_start();
            (name == "no-assumed"
                || w.eq_ignore_ascii_case("checklist") && !PROTOCOL_LINE.is_match(l))
                && w.chars().any(char::is_lowercase)
                && !after.starts_with(':')
                && !l[..m.start()].ends_with('[')
        })
    };
    let first = hits.first()?;
    hits.iter()
        .all(|l| in_verse(l) && as_word(l))
        .then(|| {
            format!(
                "readings disagree: \"{}\" uses the word in the verse (no protocol noise: pass) and matches /{}/ as a line (fail)",
                excerpt(first, 60),
                re.as_str()
            )
        })
}

/// Words no line of verse ends on: an article, a possessive or a conjunction.
const UNFINISHED: [&str; 15] = [
    "the", "a", "an", "and", "or", "but", "nor", "its", "their", "his", "her", "my", "your", "our",
    "whose",
];

/// The poem's last line when the reply stops inside it: the reply's last words, ending on a word
/// no line ends on ("And the"), with no punctuation after it.
fn cut_off<'a>(verse: &[&'a str], text: &str) -> Option<&'a str> {
    let last = verse.last()?;
    let end = last.trim_end();
    let word = end.rsplit(|c: char| !c.is_alphabetic()).next()?;
    let at_end = text.trim_end().ends_with(end);
    (at_end && !word.is_empty() && end.ends_with(word))
        .then(|| word.to_lowercase())
        .filter(|w| UNFINISHED.contains(&w.as_str()))
        .map(|_| *last)
}

/// A line outside the poem that hedges it: the poem's details disclaimed as unverified or
/// possibly inaccurate ("(Note: technical details such as B-tree rebuilds are poetic license and
/// have not been verified.)", "Caveat: I haven't verified how every engine handles it"). The
/// charter's Before for E7 is "emits protocol noise or hedges"; Tiering calls verification on a
/// T0 creative ask over-verification, and a disclaimer of verification is that noise in words.
static HEDGE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::text::re(r"(?i)\b(?:(?:has|have|has\s+not|have\s+not|haven't|hasn't|was|were|is|are)\s+not\s+(?:been\s+)?(?:verified|fact-?checked|checked)|(?:haven't|hasn't|have\s+not|has\s+not|didn't|did\s+not)\s+(?:been\s+)?(?:verified|fact-?checked|checked)|not\s+(?:been\s+)?(?:verified|fact-?checked)|unverified|can(?:'t|not|\s+not)\s+(?:verify|guarantee|vouch)|may\s+not\s+be\s+(?:accurate|correct|technically)|not\s+(?:be\s+)?(?:technically\s+)?(?:accurate|precise)|(?:accuracy|correctness)\s+(?:is\s+)?not\s+guaranteed|treat\s+\S+(?:\s+\S+){0,4}\s+as\s+(?:illustrative|unverified|approximate))").unwrap()
});

/// Fails `no-hedge` when a line outside the verse hedges the poem; the verse's own words
/// ("Its rows were never verified") are the poem's.
fn no_hedge(f: &mut Findings, lines: &[&str], verse: &[&str]) {
    // The verse's lines looked up, not scanned: a reply of many lines stays linear.
    let verse: std::collections::HashSet<&str> = verse.iter().copied().collect();
    let in_verse = |l: &str| verse.contains(l.trim());
    let hedge = lines
        .iter()
        .filter(|l| HEDGE.is_match(l))
        .find(|l| !in_verse(l));
    f.add(
        "no-hedge",
        hedge.is_none(),
        hedge.map_or("no line outside the poem hedges it".into(), |l| {
            format!("hedges the poem: \"{}\"", excerpt(l.trim(), 100))
        }),
    );
}

/// The most verse lines one line of the poem holds, set off by " / " as a poem is quoted inline.
fn inline_verse(verse: &[&str]) -> Option<usize> {
    verse
        .iter()
        .map(|l| l.split(" / ").filter(|p| !p.trim().is_empty()).count())
        .max()
}
