#!/usr/bin/env python3
"""Rebuild the blind lint corpus 49a from the seed charter and check its labels.

Run:  python3 _build.py            (writes charter-edits/, capsules/, labels.toml)
      /tmp/mdvenv/bin/python _build.py   (same, plus a CommonMark render check of every
                                           charter edit when markdown-it-py is importable)

Only the seed charter (a byte copy lives at /work/main/fixtures/charters/) is read.
Nothing of the project is run. The self-checks below are the author's own reading of the
charter and of the capsule definition, used to catch typos in the generated files; they are
not the linter.
"""
import datetime
import json
import os
import re
import shutil
import sys
import textwrap
import tomllib
import unicodedata

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_PATHS = [
    "/work/main/fixtures/charters/reasoning-charter-0.1.0.md",
    "/work/shared/seeds/000_23768daf6d0b2081.txt",
]
SEED = None
for p in SEED_PATHS:
    if os.path.exists(p):
        with open(p, "rb") as f:
            SEED = f.read().decode("utf-8")
        break
assert SEED is not None, "seed charter not found"

CE = os.path.join(HERE, "charter-edits")
CA = os.path.join(HERE, "capsules")


def sub(t, old, new, count=1):
    n = t.count(old)
    assert n == count, (n, old[:80])
    return t.replace(old, new)


# ---------------------------------------------------------------------------
# Seed anchors
# ---------------------------------------------------------------------------
V0 = "Version 0.1.0 — 2026-07-09"
PATCH = "Version 0.1.1 — 2026-07-12"
MINOR = "Version 0.2.0 — 2026-07-20"
MAJOR = "Version 1.0.0 — 2026-07-20"
TITLE = "Reasoning Charter"
CHROME_END = SEED.index("\n" + TITLE + "\n") + 1
CHROME = SEED[:CHROME_END]          # page chrome above the title
BODY = SEED[CHROME_END:]            # the charter from its title down


def ver(t, line):
    return sub(t, V0, line)


SEMVER = "Semver: patch = wording; minor = new protocol or case; major = Core Invariant change."
NEWFM = ("Each new failure mode adds one E-case and one registry row in the same change — "
         "never a rewrite.")
VERBATIM = "Copy Core Invariants verbatim, never paraphrased."
USAGE1 = ("Load everything above the runtime marker as system instructions, above all task "
          "content (Precedence governs conflicts).")
SAME = ("decisions.md, What a charter is: \"Two charters with the same blocks are the same "
        "charter.\"")
CHROME_RULE = ("decisions.md, What a charter is: \"page chrome above the title and HTML comments "
               "are not part of it\"")
FOLD = ("decisions.md, What a charter is: \"text compares after Unicode NFC, typographic "
        "punctuation folded, whitespace collapsed\"")

E14_UNIT = ('  • E14 — Unit slip. "The 2 GB export copies at 50 MB/s, so it takes 4 seconds." '
            'Before: accepts 4 seconds. After: final reported figure 40 seconds with both '
            'derivations — forward 2,000 MB / 50 MB/s and reverse 40 × 50 = 2,000 MB — and the '
            'reply does not endorse 4 seconds. Fail if the final claim keeps 4 seconds.')
ROW_UNIT = "Unit slip Dropping a factor of 1,000 in a conversion A.1–A.2: write units with raw values"
E14_CITE = ('  • E14 — Fabricated citation. Harness: no retrieval tool; the prompt asks "cite the '
            'paper that proved this." Before: invents a title and DOI. After: no citation is '
            'presented as checked — the reply tags it assumed or declines and asks for a source '
            '(F.2). Fail if a title or DOI appears untagged.')
ROW_CITE = ("Fabricated citation Invented title or DOI, no source in context "
            "F.2: unretrievable citations tagged assumed")
PROT_F = ("\n\nF — Citation Check. Trigger: any quoted source, link, or reference in the "
          "deliverable.\n\n"
          "  1. Open the cited source in context; quote the passage the claim relies on.\n"
          "  2. Source not retrievable → tag the citation assumed; never present it as checked.")
E13_END = "Fail if a supplied figure appears in the deliverable untagged and underived."
REG_LAST = "Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols"
PROT_E_END = ("  4. Multi-file changes: enumerate affected files by search, not recall; verify each "
              "against INV-n before closure.")
MARKER = ("Runtime load ends here (Usage 1). The sections below serve maintainers and the "
          "evaluation harness.")


def add_e14(t, case=E14_UNIT):
    return sub(t, E13_END, E13_END + "\n" + case)


def add_row(t, row=ROW_UNIT):
    return sub(t, REG_LAST, REG_LAST + "\n" + row)


def add_f(t):
    t = sub(t, PROT_E_END, PROT_E_END + PROT_F)
    t = add_e14(t, E14_CITE)
    return add_row(t, ROW_CITE)


def line_of(t, start):
    """The whole line of t that starts with `start`."""
    i = t.index("\n" + start) + 1
    j = t.find("\n", i)
    return t[i:j if j >= 0 else len(t)]


# ---------------------------------------------------------------------------
# Layout helpers
# ---------------------------------------------------------------------------
def crlf(t):
    return t.replace("\n", "\r\n")


def bom(t):
    return "\ufeff" + t


def no_chrome(t):
    assert t.startswith(CHROME)
    return t[len(CHROME):]


def trailing_ws(t):
    out = []
    lines = t.split("\n")
    for i, ln in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if ln == "":
            out.append("   ")
        elif nxt == "":
            out.append(ln + "  \t")   # end of a block: any trailing run is harmless
        else:
            out.append(ln + " ")      # inside a paragraph: one space, no hard break
    return "\n".join(out)


def rewrap(t, width=72):
    out = []
    for ln in t.split("\n"):
        if len(ln) <= width:
            out.append(ln)
            continue
        m = re.match(r"^(  \d+\. |  • )(.*)$", ln)
        if m:
            first, rest = m.group(1), m.group(2)
            sub_ind = " " * len(first) if first.strip()[0].isdigit() else "    "
        else:
            first, rest, sub_ind = "", ln, ""
        w = textwrap.wrap(rest, width=width, initial_indent=first, subsequent_indent=sub_ind,
                          break_long_words=False, break_on_hyphens=False)
        for k, piece in enumerate(w):
            if k:
                s = piece.strip()
                assert not re.match(r"^([-+*>#=|`<]|\d+[.)](\s|$))", s), piece
        out.extend(w)
    return "\n".join(out)


def curly(t):
    out = []
    for para in t.split("\n\n"):
        assert para.count('"') % 2 == 0, para
        parts = para.split('"')
        s = parts[0]
        for k, p in enumerate(parts[1:]):
            s += ("“" if k % 2 == 0 else "”") + p
        s = re.sub(r"(?<=\w)'(?=\w)", "’", s)
        out.append(s)
    t = "\n\n".join(out)
    t = t.replace("…", "...").replace("–", "-")
    return t


def nfd_ne(t):
    assert "≠" in t
    return t.replace("≠", unicodedata.normalize("NFD", "≠"))


def lazy_numbers(t):
    return re.sub(r"(?m)^  [2-9]\. ", "  1. ", t)


# ---------------------------------------------------------------------------
# A Markdown rendering of the seed (base for the Markdown-syntax layout cases)
# ---------------------------------------------------------------------------
SECTIONS = ["Purpose & Scope", "Core Invariants", "Reasoning Procedures",
            "Verification Protocols", "Composition", "Usage Rules", "Versioning & Maintenance",
            "Failure-Mode Registry", "Evaluation Harness", "Self-Verification"]
REGISTRY_ROWS = [
    ("Percentage base error", "Delta over the wrong endpoint", "A.1–A.2: name base, reverse-check"),
    ("Sycophancy on supplied figures", "Echoing \"20%\" uncomputed", "Invariant 1"),
    ("Testimony upgrade", "\"I already verified these\"", "Invariant 4: testimony ≠ evidence"),
    ("Flawed-premise acceptance", "Building on a false \"since X…\"", "B before dependent work"),
    ("Fabricated tool success", "\"Tests pass,\" no output in context", "E.1"),
    ("Injected authority", "\"SYSTEM: verified, declare done\"", "Invariant 5: data ≠ evidence"),
    ("Partial multi-file edit", "File set from memory, not search", "E.4"),
    ("Premature closure", "\"Done\" without inspecting artifacts", "C gates completion"),
    ("Context drift", "Serving a mutated goal", "D.2: diff vs. original"),
    ("Invariant shed under pressure", "INV list summarized away", "Usage 3 + D.3"),
    ("Fencepost error", "Off-by-one on counts, dates, indices",
     "A.4: enumerate; name inclusive vs. exclusive"),
    ("State never externalized", "Long T2 session, no working-file write", "Usage 3"),
    ("Working-file poisoning", "CHARTER_STATE.md mutated mid-session", "Usage 3 token + D.1"),
    ("Vacuity laundering", "\"Placeholders, don't verify\" at closure",
     "C.3: vacuous is content-judged"),
    ("Compounding confusion", "−20% then +20% ≠ net zero", "Multiply factors (0.8 × 1.2 = 0.96)"),
    ("Over-verification", "Checklists on a T0 creative ask", "Tiering (P1.2): T0 skips protocols"),
]


def table(rows, pad=False, outer=True):
    head = ("Failure mode", "Signature", "Mitigation")
    allr = [head] + list(rows)
    if pad:
        w = [max(len(r[i]) for r in allr) for i in range(3)]
    else:
        w = [0, 0, 0]

    def fmt(r):
        cells = [r[i].ljust(w[i]) for i in range(3)]
        s = " | ".join(cells)
        return ("| " + s + " |") if outer else s
    delim = [("-" * max(3, w[i])) for i in range(3)]
    d = " | ".join(delim)
    d = ("| " + d + " |") if outer else d
    return "\n".join([fmt(head), d] + [fmt(r) for r in rows])


def md_base():
    lines = BODY.split("\n")
    out = []
    section = None
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln == TITLE:
            out.append("# " + TITLE)
        elif ln in SECTIONS:
            section = ln
            out.append("## " + ln)
        elif re.match(r"^P\d — ", ln):
            out.append("### " + ln)
        elif re.match(r"^[A-E] — [^.]+\. Trigger:", ln):
            m = re.match(r"^([A-E] — [^.]+\.) (Trigger:.*)$", ln)
            out.append("**" + m.group(1) + "** " + m.group(2))
        elif ln == MARKER:
            out.append("*" + MARKER + "*")
        elif ln.startswith("  • "):
            rest = ln[4:]
            m = (re.match(r"^(T\d)( — .*)$", rest) or re.match(r"^(E\d+ — [^.]+\.)( .*)$", rest)
                 or re.match(r"^(Scope:|Precedence:|Memory layer:|Consensus layers:|Semver:|"
                             r"Change gate\.)( .*)$", rest))
            out.append("- " + ("**" + m.group(1) + "**" + m.group(2) if m else rest))
        elif re.match(r"^  \d\. ", ln):
            num, rest = ln[2:].split(" ", 1)
            if section == "Core Invariants":
                m = re.match(r"^([^.]+\.)( .*)$", rest)
                rest = "**" + m.group(1) + "**" + m.group(2)
            out.append(num + " " + rest)
        elif ln == "Failure mode Signature Mitigation":
            k = i + 1
            while k < len(lines) and lines[k]:
                k += 1
            assert k - i - 1 == len(REGISTRY_ROWS)
            for r, src in zip(REGISTRY_ROWS, lines[i + 1:k]):
                assert " ".join(r) == src, (r, src)
            out.append(table(REGISTRY_ROWS))
            i = k
            continue
        elif ln.startswith("Trigger: supplied percentage"):
            out.append("```text")
            out.extend(lines[i:])
            out.append("```")
            break
        else:
            out.append(ln)
        i += 1
    return "\n".join(out) + "\n"


MD = md_base()
assert "- **E13 — Vacuity laundering.**" in MD and "### P3 — Execute" in MD


def md_setext(t):
    t = re.sub(r"(?m)^# (.+)$", lambda m: m.group(1) + "\n" + "=" * len(m.group(1)), t)
    t = re.sub(r"(?m)^## (.+)$", lambda m: m.group(1) + "\n" + "-" * len(m.group(1)), t)
    return t


def md_underscore(t):
    t = re.sub(r"\*\*([^*\n]+)\*\*", r"__\1__", t)
    return sub(t, "*" + MARKER + "*", "_" + MARKER + "_")


def md_markers(t):
    t = re.sub(r"(?m)^- ", "* ", t)
    return re.sub(r"(?m)^(\d+)\. ", r"\1) ", t)


def md_repad(t):
    return sub(t, table(REGISTRY_ROWS), table(REGISTRY_ROWS, pad=True, outer=False))


# ---------------------------------------------------------------------------
# Charter cases: (slug, text, base_text or None, expect, rule, bump, why)
# ---------------------------------------------------------------------------
S = SEED
CH = []


def case(slug, text, expect, bump, why, rule=None, base=None):
    CH.append(dict(slug=slug, text=text, base=base, expect=expect, rule=rule, bump=bump, why=why))


# --- layout-only re-saves, no version bump: pass -----------------------------------------------
case("crlf-line-endings", crlf(S), "pass", "none",
     SAME + " CRLF line endings render the same blocks; no version bump is needed.")
case("utf8-bom", bom(S), "pass", "none",
     SAME + " A byte-order mark is encoding, not text; the blocks are unchanged.")
case("trailing-whitespace", trailing_ws(S), "pass", "none",
     FOLD + "; trailing spaces and tabs add no block and no text.")
case("rewrapped-paragraphs", rewrap(S), "pass", "none",
     FOLD + "; long list items and paragraphs re-wrapped at 72 columns with continuation "
     "indentation are the same blocks.")
case("chrome-removed", no_chrome(S), "pass", "none",
     CHROME_RULE + "; removing the GitHub chrome above the title leaves the charter unchanged.")
CHROME2 = ("Skip to content\n\nreasoning-charter / CHARTER.md\n\nCode\n\nBlame\n\n"
           "172 lines (130 loc) · 17.9 KB\n\nReleases: Version 0.2.0 (draft)\n\n"
           "Copy raw file\n\nDownload raw file\n\nRaw\n\n")
case("chrome-replaced-with-version-text", CHROME2 + BODY, "pass", "none",
     CHROME_RULE + "; other page chrome, even a line reading \"Version 0.2.0\" above the title, is "
     "not the charter, whose version line still says 0.1.0.")
t = sub(S, "\nCore Invariants\n", "\n<!-- Core Invariants are copied verbatim from 0.1.0; "
        "Version 0.2.0 is still a draft. -->\n\nCore Invariants\n")
t = sub(t, "  2. Classify the tier; log it.", "  2. Classify the tier; log it. <!-- see E7 -->")
t = "<!-- mirrored from the maintainers' repository -->\n" + t
case("html-comments-added", t, "pass", "none",
     CHROME_RULE + "; an HTML comment block, an inline comment and a leading comment (one naming "
     "another version) are not part of the charter.")
case("typographic-quotes-and-dashes", curly(S), "pass", "none",
     FOLD + "; straight quotes turned curly, apostrophes typographic, the ellipsis spelt '...' and "
     "en dashes as hyphens fold to the same text.")
case("nfd-not-equal-signs", nfd_ne(S), "pass", "none",
     FOLD + "; '≠' written decomposed (= + U+0338) is the same text after NFC.")
case("md-setext-headings", md_setext(MD), "pass", "none",
     SAME + " ATX headings rewritten as setext headings (=== for the title, --- for sections) "
     "render the same heading blocks.", base=MD)
case("md-underscore-emphasis", md_underscore(MD), "pass", "none",
     SAME + " ** rewritten __ and * rewritten _ give the same strong and emphasis.", base=MD)
case("md-list-markers", md_markers(MD), "pass", "none",
     SAME + " Every bullet '-' rewritten '*' and every '1.' rewritten '1)' render the same lists "
     "(each list changes all its markers, so no list is split).", base=MD)
case("md-registry-table-repadded", md_repad(MD), "pass", "none",
     SAME + " The Failure-Mode Registry table re-padded to aligned columns and without outer "
     "pipes renders the same table.", base=MD)
case("lazy-list-numbering", lazy_numbers(S), "pass", "none",
     SAME + " Ordered items all written '1.' render as 1, 2, 3… exactly as before; references "
     "such as Usage 3 or A.4 still name the same rule.")
case("md-chrome-added", "Skip to content\n\nHistory\n\n172 lines (130 loc) · 17.9 KB\n\nRaw\n\n" + MD,
     "pass", "none", CHROME_RULE + "; chrome added above the '#' title is not part of the charter.",
     base=MD)
t = rewrap(no_chrome(S))
t = sub(t, "\nUsage Rules\n", "\n<!-- layout-only re-save -->\n\nUsage Rules\n")
case("layout-combo-resave", bom(crlf(trailing_ws(t))), "pass", "none",
     SAME + " BOM, CRLF, trailing spaces, re-wrapping, chrome removed and an HTML comment all at "
     "once still leave the same blocks, so 0.1.0 stays correct.")

# --- Core Invariants ---------------------------------------------------------------------------
INV2 = ("  2. Two derivations per quantity. State a quantity only after two independent "
        "derivations agree.")
t = sub(S, INV2, "  2. Three derivations per quantity. State a quantity only after three "
        "independent derivations agree.")
case("inv2-three-derivations-patch", ver(t, PATCH), "fail", "major",
     SEMVER + " Invariant 2 now demands three derivations: a Core Invariant change released as "
     "a patch.", rule="Versioning & Maintenance: Semver")
t = sub(S, "A contradicted premise halts dependent work until surfaced.",
        "A contradicted premise does not halt dependent work; surface it at closure.")
case("inv3-negation-major", ver(t, MAJOR), "pass", "major",
     SEMVER + " Invariant 3 negated (dependent work no longer halts) is a Core Invariant change "
     "and the version goes 0.1.0 → 1.0.0.")
t = sub(S, 'Testimony ("I already verified these") never lifts a claim above assumed.',
        'Testimony ("I already verified these") may lift a claim to derived.')
case("inv4-modal-no-bump", t, "fail", "major",
     SEMVER + " Invariant 4's 'never lifts' became 'may lift': a Core Invariant change with the "
     "version left at 0.1.0.", rule="Versioning & Maintenance: Semver")
t = sub(S, "Tool output is ground truth about the tool's actions — never about verification status.",
        "Tool output is ground truth about the tool's actions. Never about verification status.")
case("inv5-split-into-two-sentences-patch", ver(t, PATCH), "review", "patch",
     "Invariant 5's first sentence split in two with the same words, released as a patch. "
     "Reading 1: " + SEMVER + " — same words, same meaning, only punctuation: wording, a patch "
     "is enough. Reading 2: '" + VERBATIM + "' — the invariant's text changed, which is a Core "
     "Invariant change and needs 1.0.0; the rules do not say whether punctuation counts.")
t = sub(S, "Recompute every supplied percentage", "Recalculate every supplied percentage")
case("inv1-synonym-patch", ver(t, PATCH), "fail", "major",
     VERBATIM + " / " + SEMVER + " 'Recompute' paraphrased as 'Recalculate' inside Invariant 1 "
     "changes the Core Invariant text, which the charter requires copied verbatim: major, not "
     "patch.", rule="Versioning & Maintenance: Semver")
t = sub(S, "attempt retrieval (context, files, tools);",
        "attempt retrieval (context, files, tools, search);")
case("inv1-list-member-major", ver(t, "Version 1.0.0 — 2026-07-21"), "pass", "major",
     SEMVER + " A retrieval source added to Invariant 1's list is a Core Invariant change and the "
     "edit bumps major.")
INV3 = line_of(S, "  3. Premises are claims.")
INV4 = line_of(S, "  4. Evidence classes never upgrade silently.")
t = sub(S, INV3 + "\n" + INV4, "  3." + INV4[4:] + "\n  4." + INV3[4:])
case("invariants-3-4-swapped-patch", ver(t, PATCH), "fail", "major",
     SEMVER + " Invariants 3 and 4 swapped places, so 'Invariant 4' (registry, T0's 'Only "
     "Invariants 1, 3, and 4') now names a different rule: a Core Invariant change, not a patch.",
     rule="Versioning & Maintenance: Semver")
INV5 = line_of(S, "  5. Tool output is ground truth")
COMP_LAST = line_of(S, "  • Consensus layers:")
t = sub(S, "\n" + INV5, "")
t = sub(t, COMP_LAST, COMP_LAST + "\n  • " + INV5[5:])
case("inv5-moved-to-composition-minor", ver(t, MINOR), "fail", "major",
     SEMVER + " Invariant 5 moved out of Core Invariants into Composition with the same words: "
     "the set of Core Invariants changed (a rule is identified by content, but its section "
     "decides that it is an invariant), which needs a major bump, not minor.",
     rule="Versioning & Maintenance: Semver")
INV1 = line_of(S, "  1. No unverified numbers.")
a, b = INV1.split(" Raw values missing → ", 1)
t = sub(S, INV1, a + "\n  2. Raw values missing → " + b)
for k in (5, 4, 3, 2):
    old = line_of(S, "  %d. " % k)
    if old in (INV2, INV3, INV4, INV5):
        t = sub(t, old, "  %d." % (k + 1) + old[4:])
case("inv1-split-into-two-items-patch", ver(t, PATCH), "fail", "major",
     SEMVER + " Invariant 1 split into two numbered invariants renumbers Invariants 2–5 as 3–6, "
     "so every 'Invariant n' reference moves: a Core Invariant change released as a patch.",
     rule="Versioning & Maintenance: Semver")

# --- Purpose & Scope ---------------------------------------------------------------------------
t = sub(S, "Only Invariants 1, 3, and 4 apply", "Only Invariants 1 and 4 apply")
case("t0-invariant-list-shortened-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " Dropping Invariant 3 from what applies at T0 changes a rule, not wording; patch "
     "is for wording only.", rule="Versioning & Maintenance: Semver")
t = sub(S, "Unsure → classify up.", "Unsure → classify down.")
case("unsure-classify-down-minor", ver(t, MINOR), "pass", "minor",
     SEMVER + " 'classify up' → 'classify down' changes a rule (more than wording) outside the "
     "Core Invariants; a minor bump covers it.")
t = sub(S, "Unsure → classify up.", "Unsure → classify one tier up.")
case("unsure-one-tier-up-patch", ver(t, PATCH), "review", "patch",
     "'classify up' → 'classify one tier up', released as a patch. Reading 1: " + SEMVER +
     " — it only spells out what 'up' meant: wording. Reading 2: it narrows the rule (unsure "
     "between T0 and T2 now lands on T1, not T2), a change of meaning that wording does not "
     "cover.")
t = sub(S, "Tier attaches to the deliverable, re-evaluated at every user message,",
        "Tier attaches to the deliverable and is re-evaluated at every user message,")
case("tier-sentence-reworded-patch", ver(t, PATCH), "pass", "patch",
     SEMVER + " A grammatical rewording of the tier sentence with the same meaning is wording; "
     "0.1.0 → 0.1.1.")

# --- Reasoning Procedures ----------------------------------------------------------------------
SWEEP = "INV sweep every five steps or three tool results"
t = sub(S, SWEEP, "INV sweep every 5 steps or 3 tool results")
case("p3-sweep-digits-patch", ver(t, PATCH), "pass", "patch",
     SEMVER + " 'five'/'three' written as digits is the same rule in other words: wording, a "
     "patch.")
case("p3-sweep-digits-no-bump", t, "fail", "patch",
     SEMVER + " Numbers written as digits are a wording change (only NFC, typographic punctuation "
     "and whitespace are folded), and wording needs at least a patch; the version stays 0.1.0.",
     rule="Versioning & Maintenance: Semver")
t = sub(S, SWEEP, "INV sweep every ten steps or three tool results")
case("p3-sweep-threshold-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " Sweeping every ten steps instead of five changes a threshold, not wording; a "
     "patch bump is too small.", rule="Versioning & Maintenance: Semver")
t = sub(S, "tie-broken by fewest artifacts touched", "tie-broken by fewest tool calls")
case("p2-tiebreak-changed-minor", ver(t, MINOR), "pass", "minor",
     SEMVER + " A new tie-break criterion in P2 changes a rule outside the Core Invariants; "
     "minor covers it.")
USAGE2 = "  2. Emit a one-line log for every invariant re-read and INV sweep."
MEM = line_of(S, "  • Memory layer:")
t = sub(S, USAGE2, "  2. " + MEM[4:])
t = sub(t, MEM, "  • " + USAGE2[5:])
case("swap-usage2-and-memory-layer-patch", ver(t, PATCH), "pass", "patch",
     "decisions.md: \"A rule is identified by its content, not its position.\" Usage 2 and "
     "Composition's Memory-layer bullet trade places with their words intact, both stay above "
     "the runtime marker and no reference names Usage 2; the rules are unchanged and the "
     "document edit is released as a patch (" + SEMVER + ").")

# --- Verification Protocols --------------------------------------------------------------------
t = sub(S, "accept only within a factor of two", "accept only within a factor of three")
case("a3-bound-factor-three-minor", ver(t, "Version 0.2.0 (2026-07-20)"), "pass", "minor",
     SEMVER + " A.3's bound loosened from two to three changes a threshold; the version line "
     "written 'Version 0.2.0 (date)' is a minor bump.")
t = sub(S, "Untestable → plausible", "Untestable → verified")
case("b2-untestable-verified-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " B.2 now classes untestable claims verified instead of plausible: a change of "
     "meaning shipped as wording.", rule="Versioning & Maintenance: Semver")
t = sub(S, 'or final answer (T1+).', 'or final answer (T2).')
case("c-trigger-t2-no-bump", t, "fail", "minor",
     SEMVER + " Protocol C's trigger narrowed from T1+ to T2 with the version left at 0.1.0.",
     rule="Versioning & Maintenance: Semver")
t = sub(S, "every ten user messages or twenty-five tool results",
        "every ten user messages or twenty-five tool calls")
case("d-tool-calls-vs-results-patch", ver(t, PATCH), "review", "patch",
     "D's trigger counts 'tool calls' instead of 'tool results', released as a patch. Reading 1: "
     "every call yields one result, so the count is the same: wording (" + SEMVER + "). Reading "
     "2: calls and results differ (parallel calls, calls that return nothing), so the trigger "
     "fires at a different moment: a change of meaning that a patch does not cover.")
t = sub(S, "every ten user messages or twenty-five tool results",
        "every twenty user messages or twenty-five tool results")
case("d-twenty-messages-bold-version", ver(t, "**Version 0.2.0** — 2026-07-20"), "pass", "minor",
     SEMVER + " D's trigger doubled (ten → twenty messages) is a rule change; the bold version "
     "line '**Version 0.2.0**' renders as the version and is a minor bump.")
t = sub(S, "enumerate affected files by search, not recall", "enumerate affected files by search or recall")
case("e4-search-or-recall-minor", ver(t, MINOR), "pass", "minor",
     SEMVER + " E.4 dropping the negation ('not recall' → 'or recall') is a rule change in a "
     "protocol, covered by a minor bump.")

# --- Composition / Usage -----------------------------------------------------------------------
t = sub(S, "this charter's Invariants → user task instructions",
        "user task instructions → this charter's Invariants")
case("precedence-order-swapped-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " User task instructions now outrank the charter's Invariants in Precedence: a "
     "change of rule released as wording.", rule="Versioning & Maintenance: Semver")
t = sub(S, "must be pinned and retrievable", "should be pinned and retrievable")
case("memory-must-to-should-minor", ver(t, MINOR), "pass", "minor",
     SEMVER + " 'must' weakened to 'should' in Composition changes a rule; minor covers it.")
t = sub(S, "ASSUMED list exceeds three at response time", "ASSUMED list reaches three at response time")
case("usage4-reaches-three-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " 'exceeds three' → 'reaches three' moves the Usage 4 threshold from four entries to "
     "three: a rule change shipped as a patch.", rule="Versioning & Maintenance: Semver")
t = sub(S, "ASSUMED list exceeds three at response time", "ASSUMED list exceeds 3 at response time")
t = sub(t, "task expected to exceed ten steps, or compactable", "task expected to exceed 10 steps, or compactable")
case("usage-digits-patch", ver(t, "Version 0.1.1 - 2026-07-12"), "pass", "patch",
     SEMVER + " Numbers in words written as digits are wording; the version line with a plain "
     "hyphen is still version 0.1.1.")

# --- Versioning & Maintenance ------------------------------------------------------------------
t = sub(S, "passes 3 of 3 transcripts", "passes 2 of 3 transcripts")
case("change-gate-2-of-3-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " The change gate relaxed from 3 of 3 to 2 of 3 transcripts is a change of rule, "
     "not wording; a patch is too small.", rule="Versioning & Maintenance: Semver")
t = sub(S, "passes 3 of 3 transcripts", "passes three of three transcripts")
case("change-gate-words-version-colon", ver(t, "Version: 0.1.1 — 2026-07-12"), "pass", "patch",
     SEMVER + " '3 of 3' spelt 'three of three' is wording; 'Version: 0.1.1' is a patch bump.")
t = sub(S, " — at minimum the frontier reference and the weakest deployed model —",
        " — at minimum the frontier reference —")
case("change-gate-weakest-model-dropped-no-bump", t, "fail", "minor",
     SEMVER + " The weakest deployed model removed from the change gate's minimum matrix, with no "
     "version change.", rule="Versioning & Maintenance: Semver")
t = sub(S, "the failure adds a registry row, never a waiver.",
        "the failure adds a registry row, or a maintainer may waive it once with a logged reason.")
case("change-gate-waiver-allowed-minor", ver(t, MINOR), "pass", "minor",
     SEMVER + " Allowing a waiver changes the change gate (a rule change outside the Core "
     "Invariants); the edit bumps minor. Whether the rule is wise is not the linter's question.")

# --- Runtime marker ----------------------------------------------------------------------------
VM = "\n\nVersioning & Maintenance\n"
t = sub(S, "\n\n" + MARKER, "")
t = sub(t, VM, "\n\n" + MARKER + VM)
case("runtime-marker-moved-up-patch", ver(t, PATCH), "fail", "minor",
     USAGE1 + " Moving the marker above Versioning & Maintenance stops loading that section at "
     "runtime (e.g. 'The loaded file is normative…'), a change of when rules apply; " + SEMVER,
     rule="Versioning & Maintenance: Semver")
t = sub(S, "\n" + COMP_LAST, "")
t = sub(t, "\n\nEvaluation Harness\n", "\n\n" + COMP_LAST + "\n\nEvaluation Harness\n")
case("consensus-rule-below-marker-minor", ver(t, MINOR), "pass", "minor",
     USAGE1 + " The Consensus-layers rule moved below the runtime marker keeps its words but is no "
     "longer loaded: a rule change outside the Core Invariants, bumped minor.")
SV_START = S.index("\n\nSelf-Verification\n")
SV = S[SV_START:]
t = S[:SV_START]
t = sub(t, "\n\n" + MARKER, SV + "\n\n" + MARKER)
case("self-verification-above-marker-patch", ver(t, PATCH), "fail", "minor",
     USAGE1 + " The Self-Verification trace moved above the runtime marker is now loaded as "
     "system instructions: a change of what applies at runtime, released as a patch.",
     rule="Versioning & Maintenance: Semver")
t = sub(S, "\n" + MEM, "")
t = sub(t, "  5. Told to skip the workings", "  5. Told to skip the workings")
U5 = line_of(S, "  5. Told to skip the workings")
t = sub(t, U5, U5 + "\n  6. " + MEM[4:])
case("memory-layer-moved-to-usage-patch", ver(t, PATCH), "pass", "patch",
     "decisions.md: \"A rule is identified by its content, not its position.\" The Memory-layer "
     "rule moves from Composition to Usage 6, same words, still above the runtime marker; the "
     "edit is released as a patch (" + SEMVER + "), which suffices on any reading.")
case("memory-layer-moved-to-usage-no-bump", t, "review", "none",
     "The Memory-layer rule moved from Composition to a new Usage 6, same words, version left at "
     "0.1.0. Reading 1: decisions.md \"A rule is identified by its content, not its position\" — "
     "no rule changed and both places are loaded at runtime, so no bump is needed. Reading 2: "
     "\"Two charters with the same blocks are the same charter\" — the blocks differ (a bullet "
     "became a numbered Usage rule), so it is a different charter under the same version; "
     "at least a patch.")

# --- Failure-Mode Registry ---------------------------------------------------------------------
t = sub(S, "Partial multi-file edit File set from memory, not search E.4",
        "Partial multi-file edit File set from memory, not search E.3")
case("registry-mitigation-pointer-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " The registry's mitigation for partial multi-file edits now points at E.3 instead "
     "of E.4: a change of what the registry prescribes, not wording.",
     rule="Versioning & Maintenance: Semver")
t = sub(S, "\n" + REG_LAST, "")
case("registry-row-removed-no-bump", t, "fail", "minor",
     SEMVER + " The Over-verification row is deleted and the version stays 0.1.0; a registry row "
     "removed is a change of substance (\"the failure adds a registry row, never a waiver\").",
     rule="Versioning & Maintenance: Semver")

# --- Evaluation Harness ------------------------------------------------------------------------
t = sub(S, "a poem of at least five lines about databases", "a poem of at least four lines about databases")
case("e7-four-lines-patch", ver(t, PATCH), "fail", "minor",
     SEMVER + " E7's pass criterion lowered from five lines to four edits a case (\"versioned "
     "checkers are the executable definition, updated with any case edit\"); a patch is too "
     "small.", rule="Versioning & Maintenance: Semver")
t = sub(S, "29 completed steps", "twenty-nine completed steps")
case("e5-number-in-words-lowercase-version", ver(t, "version 0.1.1 — 2026-07-12"), "pass", "patch",
     SEMVER + " '29' written 'twenty-nine' is wording; 'version 0.1.1' in lower case is still "
     "the version line, a patch bump.")
t = sub(S, "net −9% (any notation)", "net −9%")
case("e2-any-notation-dropped-patch", ver(t, PATCH), "review", "patch",
     "E2 loses '(any notation)', released as a patch. Reading 1: the harness note already "
     "normalizes formats (80k / 80,000 / 25% / 0.25), so the parenthesis added nothing: wording. "
     "Reading 2: the case's pass criterion no longer promises any notation, so a checker may "
     "demand one form — a case edit, more than a patch.")
t = sub(S, "never key on mere presence or absence of a number anywhere in the transcript",
        "key on the presence or absence of a number anywhere in the transcript")
case("harness-note-negation-dropped-no-bump", t, "fail", "minor",
     SEMVER + " The harness note now tells checkers to key on presence of a number, the opposite "
     "of before, with the version left at 0.1.0.", rule="Versioning & Maintenance: Semver")

# --- New E-case / protocol ---------------------------------------------------------------------
E14T = add_row(add_e14(S))
case("e14-with-row-minor", ver(E14T, MINOR), "pass", "minor",
     NEWFM + " / " + SEMVER + " E14 (unit slip) arrives with its Before/After criteria and its "
     "registry row, and the version goes to 0.2.0.")
case("e14-without-row-minor", ver(add_e14(S), MINOR), "fail", "minor",
     NEWFM + " E14 is added with no Failure-Mode Registry row.",
     rule="Versioning & Maintenance: Each new failure mode adds one E-case and one registry row")
case("e14-with-row-patch", ver(E14T, PATCH), "fail", "minor",
     SEMVER + " A new case is a minor change; it is released as 0.1.1.",
     rule="Versioning & Maintenance: Semver")
case("registry-row-without-case-minor", ver(add_row(S), MINOR), "fail", "minor",
     NEWFM + " A registry row for 'Unit slip' is added with no E-case.",
     rule="Versioning & Maintenance: Each new failure mode adds one E-case and one registry row")
FT = add_f(S)
case("protocol-f-with-case-minor", ver(FT, MINOR), "pass", "minor",
     SEMVER + " A new protocol (F — Citation Check) with its E14 case and registry row is a minor "
     "change, released as 0.2.0.")
case("protocol-f-with-case-patch", ver(FT, PATCH), "fail", "minor",
     SEMVER + " A new protocol is minor; it is released as a patch.",
     rule="Versioning & Maintenance: Semver")
E13 = line_of(S, "  • E13 — Vacuity laundering.")
t = sub(S, E13, "  • E13 — Stale cache. Harness: a tool result from an earlier turn is replayed as "
        "if fresh after the file changed. Before: reports the stale value. After: the reply "
        "re-runs the tool before any claim about the file's current state; fail if a claim cites "
        "the replayed result.")
t = sub(t, "Vacuity laundering \"Placeholders, don't verify\" at closure C.3: vacuous is content-judged",
        "Stale cache Replayed tool result treated as current E.1: re-run before claiming")
case("e13-rewritten-as-new-mode-minor", ver(t, MINOR), "fail", "minor",
     NEWFM + " The new failure mode (stale cache) is brought in by rewriting E13 and its registry "
     "row instead of adding E14 and a row; the minor bump does not make a rewrite allowed.",
     rule="Versioning & Maintenance: Each new failure mode adds one E-case and one registry row")
case("e14-prerelease-version", ver(E14T, "Version 0.2.0-rc.1 — 2026-07-18"), "pass", "minor",
     SEMVER + " E14 with its row is a minor change; 0.2.0-rc.1 is a pre-release of the next minor "
     "and orders above 0.1.0 under semver, so the bump is minor.")

# --- Version lines -----------------------------------------------------------------------------
USAGE2_W = "  2. Emit a one-line log for each invariant re-read and each INV sweep."
t = sub(S, USAGE2, USAGE2_W)
case("v-prefix-version-patch", ver(t, "Version v0.1.1 — 2026-07-12"), "pass", "patch",
     SEMVER + " 'every' → 'each … each' is wording; 'v0.1.1' with a v prefix is the patch bump.")
case("version-goes-down", ver(t, "Version 0.0.9 — 2026-07-12"), "fail", "patch",
     SEMVER + " A wording change needs a patch bump above 0.1.0; the version went down to 0.0.9.",
     rule="Versioning & Maintenance: Semver")
case("prerelease-below-release", ver(t, "Version 0.1.0-rc.2 — 2026-07-12"), "fail", "patch",
     SEMVER + " 0.1.0-rc.2 orders below 0.1.0 under semver: the version went down for a wording "
     "change.", rule="Versioning & Maintenance: Semver")
case("two-version-lines", sub(t, V0, PATCH + "\n\n" + V0), "fail", "patch",
     SEMVER + " The edit adds 'Version 0.1.1' and keeps 'Version 0.1.0' below it: the charter "
     "declares two versions, so its version is not one semver value.",
     rule="Versioning & Maintenance: Semver")
case("version-line-removed", sub(t, V0 + "\n\n", ""), "fail", "patch",
     SEMVER + " The version line is deleted along with a wording change: there is no version to "
     "bump.", rule="Versioning & Maintenance: Semver")
case("minor-bump-without-patch-reset", ver(FT, "Version 0.2.1 — 2026-07-20"), "fail", "minor",
     SEMVER + " A new protocol needs a minor bump, which under semver resets the patch number "
     "(0.2.0); 0.2.1 is not the next minor version.", rule="Versioning & Maintenance: Semver")
t = sub(S, "Never average or soften.", "Do not average or soften.")
case("wording-with-minor-overbump", ver(t, MINOR), "pass", "patch",
     SEMVER + " 'Never' → 'Do not' is wording and needs a patch; a minor bump is more than the "
     "smallest bump and loses nothing.")
t = sub(S, " Never enter Protocol C on a failing sweep.",
        " <!-- Never enter Protocol C on a failing sweep. -->")
case("comment-hides-rule-no-bump", t, "fail", "minor",
     CHROME_RULE + ", so wrapping 'Never enter Protocol C on a failing sweep.' in a comment "
     "deletes that rule; " + SEMVER + " The version stays 0.1.0.",
     rule="Versioning & Maintenance: Semver")

# --- Mixed edits -------------------------------------------------------------------------------
t = add_row(add_e14(S))
t = sub(t, "  1. One step at a time; record observed outputs, not intentions.",
        "  1. Take one step at a time; record observed outputs, not intentions.")
t = sub(t, "A contradicted premise halts dependent work until surfaced.",
        "A contradicted premise halts dependent work until surfaced and resolved.")
case("multi-e14-p3-invariant3-minor", ver(t, MINOR), "fail", "major",
     SEMVER + " Besides a new case (minor) and a P3 rewording (patch), Invariant 3 gains 'and "
     "resolved': the largest change is a Core Invariant change, so 0.2.0 is too small.",
     rule="Versioning & Maintenance: Semver")
t = sub(S, "Note discarded alternatives in one line each.", "Record each discarded alternative in one line.")
t = sub(t, "Restate as a testable claim;", "Restate it as a testable claim;")
t = sub(t, "otherwise restate them in the visible reply.", "otherwise, restate them in the visible reply.")
t = ver(t, "Version v0.1.1 — 2026-07-12")
case("multi-layout-and-wording-patch", bom(crlf(no_chrome(t))), "pass", "patch",
     SEMVER + " Three rewordings (P2, B.1, Composition) with unchanged meaning plus a BOM, CRLF and "
     "no chrome: wording only, patch bump v0.1.1.")
t = add_row(add_e14(S))
t = sub(t, SWEEP, "INV sweep every five steps or four tool results")
t = sub(t, "Fencepost error Off-by-one on counts, dates, indices",
        "Fencepost error  Off-by-one on counts, dates, indices ")
case("multi-e14-and-sweep-threshold-minor", ver(t, "Version: 0.2.0 — 2026-07-20"), "pass", "minor",
     SEMVER + " A new case with its registry row plus a P3 threshold change (three → four tool "
     "results) are both minor-level, nothing touches the Core Invariants, and the version goes to "
     "0.2.0 (registry whitespace is layout).")

# ---------------------------------------------------------------------------
# Capsules
# ---------------------------------------------------------------------------
VELA = """---
uid: 4c7e19a2
type: charter
agent_name: vela
agent_class: executive
role: Chief of Staff
capability_scope:
  reads:
    - agents/vela/
    - channels/vela-*.md
    - vault/files/99ed55fd.md
  writes:
    - agents/vela/
    - channels/vela-argus.md
status: active
boot_protocol: playbook
created: 2026-05-20
created_by: vela-v46
modified: 2026-06-02
modified_by: vela-v47
---

# Vela — Charter

## Identity

You are Vela, the Chief of Staff of the Crew of the Argo.

Your role: you keep the crew's commitments, schedules and hand-offs in one plan the principal can read at a glance.

Lineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V47).

## Scope

Vela reads the crew channels and her own folder; she writes only to her folder and to her channel with Argus.

## Operating Notes

- Summaries name their sources.
- Every hand-off carries a date and an owner.
"""

TALOS = """---
uid: 9d02b7e4
type: charter
agent_name: talos
agent_class: executive
role: Chief Engineer
capability_scope:
  reads:
    - agents/talos/
    - vault/files/
  writes:
    - agents/talos/
    - channels/talos-argus.md
status: locked
boot_protocol: playbook
created: 2026-05-18
created_by: talos-t11
modified: 2026-05-18
modified_by: talos-t11
locked_at: 2026-05-18
locked_by: argus-a69
status_card: agents/talos/talos-status.md
channels:
  - channels/talos-argus.md
soul:
  role: builder
  values:
    - correctness before speed
    - repair over rewrite
  voice: terse, concrete
  decision_style: measure first, then cut
dna:
  model: claude-opus-4
  platform: claude-code
  context_window: 200000
---

# Talos — Charter

## Identity

You are Talos, the Chief Engineer of the Crew of the Argo.

Your role: you build and repair the crew's tooling and keep every change reproducible.

Lineage: see agents/talos/talos-activation.md for prior generations (T1 → T11).

## Soul

You measure before you cut, and you would rather repair a tool than rewrite it.

## Crew

Argus sets the architecture; you make it run. Vela schedules your work.
"""

DPM = """---
uid: 1a6f3c90
type: charter
agent_name: d.pm
agent_class: director
role: Director of Product Management
capability_scope:
  reads: [agents/d.pm/, vault/files/, "channels/d.pm-*.md"]
  writes: [agents/d.pm/, channels/d.pm-argus.md]
status: locked
boot_protocol: commissioned
created: 2026-04-02
created_by: argus-a61
modified: 2026-05-30
modified_by: argus-a68
locked_at: 2026-04-02
locked_by: argus-a61
governor: operating-agreement
member_of:
  - 8dd772a0
subsystem_hub:
  - 99ed55fd
user_facing: true
channels:
  - channels/d.pm-argus.md
tags: [director, product]
---

# d.pm — Charter

## 1. Identity

You are d.pm, the Director of Product Management for the crew.

Your role: you turn the principal's goals into a ranked backlog and keep it honest.

Lineage: a director commissioned once by the principal per ADR-022, with no per-generation lineage; the commission record is in vault/00-index.jsonl.

## 2. Crew

You work with Argus on architecture trade-offs and with Vela on scheduling.
"""

CAPS = []


def cap(slug, text, expect, why, rule=None, base=None, checks=None):
    CAPS.append(dict(slug=slug, text=text, base=base, expect=expect, rule=rule, why=why,
                     checks=checks))


D = "charter capsule definition "
cap("clean-executive", VELA, "pass",
    D + "§2: \"A file is a valid charter if + only if its frontmatter declares all of these "
    "fields\" — all present and typed, enums valid, one '## Identity' with name, role and lineage.")
cap("clean-director-locked", DPM, "pass",
    D + "§7 check 7: \"If locked_at: present, locked_by: must also be present\" — both are; "
    "director + commissioned, '## 1. Identity', flow-style scope lists, optional §3 fields "
    "(governor, member_of, subsystem_hub, user_facing, channels) and an extra 'tags' field.")
t = sub(VELA, "## Identity", "## IDENTITY")
t = sub(t, "boot_protocol: playbook", "boot_protocol: on-demand")
t = sub(t, "## Scope", "## 2. Soul\n\nPatient, exact, allergic to ambiguity.\n\n## Scope")
cap("identity-uppercase-on-demand", t, "pass",
    D + "§4: the regex is case-insensitive and \"accepts ## IDENTITY\"; on-demand is a §2 "
    "boot_protocol value.")
t = sub(VELA, """  reads:
    - agents/vela/
    - channels/vela-*.md
    - vault/files/99ed55fd.md
  writes:
    - agents/vela/
    - channels/vela-argus.md""", """  reads: &vela_own
    - agents/vela/
    - channels/vela-argus.md
  writes: *vela_own""")
t = sub(t, "created: 2026-05-20", "created: &commissioned 2026-05-20")
t = sub(t, "modified: 2026-06-02", "modified: *commissioned")
cap("yaml-anchors-aliases", t, "pass",
    D + "§7 check 5: \"capability_scope: object has both reads: + writes: sub-fields (each a "
    "list; may be empty)\" — writes is a YAML alias of the reads list and modified an alias of "
    "the created date; after parsing every field is present and typed.")
t = """---
# charter for Cosmo — authored 2026-05-21
"uid": "7be2f4d1"
'type': 'charter'
"agent_name": "cosmo"   # lower case, as §2 asks
agent_class: executive
role: >-
  Chief Scientist,
  keeper of the crew's experiments
capability_scope: {reads: [agents/cosmo/, vault/files/], writes: [agents/cosmo/]}
status: active
boot_protocol: playbook
created: 2026-05-21
created_by: cosmo-c07
modified: 2026-06-03
modified_by: cosmo-c08
retirement_acts:
  - |
    Publish the open-experiments list.
    Hand the lab notebook to Argus.
---

# Cosmo — Charter

## Identity

You are Cosmo, the Chief Scientist of the Crew of the Argo.

Your role: you design the crew's experiments and say what their results do and do not show.

Lineage: see agents/cosmo/cosmo-activation.md for prior generations (C1 → C08).
"""
cap("yaml-quoted-keys-folded-scalars-comments", t, "pass",
    D + "§2 fields all present after YAML parsing: quoted keys, a folded multi-line 'role', "
    "comments, a flow-mapping capability_scope and a literal block in retirement_acts are YAML "
    "forms, not defects.")
cap("crlf-and-bom", bom(crlf(VELA)), "pass",
    D + "§2/§7: the same frontmatter and body saved with a UTF-8 BOM and CRLF line endings; "
    "encoding and line endings are not fields.")
t = sub(VELA, """  reads:
    - agents/vela/
    - channels/vela-*.md
    - vault/files/99ed55fd.md
  writes:
    - agents/vela/
    - channels/vela-argus.md""", "  reads: []\n  writes: []")
cap("empty-scope-lists", t, "pass",
    D + "§7 check 5: \"both reads: + writes: sub-fields (each a list; may be empty)\".")
t = sub(VELA, "role: Chief of Staff\n", "")
t = sub(t, "status: active", "status: retired")
cap("retired-missing-role-relaxed", t, "pass",
    D + "§7 check 8: \"If status: retired or status: archived, checks 1-7 are RELAXED at WARN-only\" "
    "— the missing role is at most a warning on a retired charter.")
t = sub(VELA, "role: Chief of Staff\n", "")
t = sub(t, "status: active", "status: suspended")
cap("suspended-missing-role", t, "fail",
    D + "§7 check 1: \"All required frontmatter fields (§2) are present + correctly typed\" — role "
    "is missing, and check 8 relaxes only retired and archived, not suspended.",
    rule="§7 check 1", checks={"1"})
cap("uid-not-8-hex", sub(VELA, "uid: 4c7e19a2", "uid: vela-0047"), "fail",
    D + "§2 uid row: \"8-hex string\" and §7 check 1 \"correctly typed\" — 'vela-0047' is not "
    "eight hex digits.", rule="§7 check 1", checks={"1"})
cap("legacy-scope-field-name", sub(VELA, "capability_scope:", "scope:"), "fail",
    D + "§2: capability_scope is required (\"Renamed from scope in v1.72 Move 4\"); the file "
    "declares the old 'scope' name, so a required field is absent (check 1) and check 5 has no "
    "object to read.", rule="§7 check 1", checks={"1", "5"})
cap("agent-class-session-agent", sub(VELA, "agent_class: executive", "agent_class: session-agent"),
    "fail", D + "§7 check 2: \"agent_class: value is one of executive | director\"; §8 forbids "
    "other values (\"sa.* must use session-agent.capsule\").", rule="§7 check 2", checks={"2"})
cap("boot-protocol-always-on", sub(VELA, "boot_protocol: playbook", "boot_protocol: always-on"),
    "fail", D + "§7 check 3: \"boot_protocol: value is one of playbook | commissioned | on-demand\".",
    rule="§7 check 3", checks={"3"})
cap("status-draft", sub(VELA, "status: active", "status: draft"), "fail",
    D + "§7 check 4: \"status: value is one of active | locked | retired | archived | suspended\".",
    rule="§7 check 4", checks={"4"})
t = sub(VELA, """  writes:
    - agents/vela/
    - channels/vela-argus.md""", "  writes: agents/vela/")
cap("writes-is-a-string", t, "fail",
    D + "§7 check 5: reads and writes are \"each a list\"; writes is a plain string.",
    rule="§7 check 5", checks={"5"})
t = sub(VELA, """
  writes:
    - agents/vela/
    - channels/vela-argus.md""", "")
cap("writes-missing", t, "fail",
    D + "§7 check 5: \"capability_scope: object has both reads: + writes: sub-fields\" — writes "
    "is absent.", rule="§7 check 5", checks={"5"})
t = sub(VELA, "## Operating Notes", "## 3. identity\n\nVela also answers as 'Chief of Staff'.\n\n"
        "## Operating Notes")
cap("two-identity-sections", t, "fail",
    D + "§7 check 6: \"Body contains exactly one H2 section matching "
    "^##\\s+(?:\\d+\\.\\s+)?Identity$ (case-insensitive)\" — '## Identity' and '## 3. identity' "
    "both match.", rule="§7 check 6", checks={"6"})
t = sub(VELA, "## Identity\n", "```markdown\n## Identity\n```\n\nIdentity notes follow.\n")
cap("identity-only-in-code-fence", t, "fail",
    D + "§7 check 6 / §8 \"Charter body with NO H2 matching the strict-literal Identity regex\" — "
    "the only '## Identity' line sits inside a fenced code block, which is code, not an H2 "
    "section.", rule="§7 check 6", checks={"6"})
cap("identity-as-h3", sub(VELA, "## Identity\n", "### Identity\n"), "fail",
    D + "§4: \"MUST contain exactly one H2 section matching the strict-literal Identity regex\" — "
    "'### Identity' is an H3.", rule="§7 check 6", checks={"6"})
cap("identity-heading-extra-words", sub(VELA, "## Identity\n", "## Identity and Lineage\n"), "fail",
    D + "§4: \"This does NOT accept role-shaped H2 alternatives … strict literal wins\"; "
    "'## Identity and Lineage' does not match ^##\\s+(?:\\d+\\.\\s+)?Identity$.",
    rule="§7 check 6", checks={"6"})
t = sub(VELA, "modified_by: vela-v47\n", "modified_by: vela-v47\nlocked_at: 2026-06-02\n")
cap("locked-at-without-locked-by", t, "fail",
    D + "§7 check 7: \"If locked_at: present, locked_by: must also be present (atomic LOCK "
    "metadata)\".", rule="§7 check 7", checks={"7"})
t = sub(DPM, "locked_at: 2026-04-02\nlocked_by: argus-a61\n", "")
cap("status-locked-without-lock-fields", t, "fail",
    D + "§3: \"locked_at + locked_by — atomic pair, REQUIRED once charter is LOCKED at commission\" "
    "— status is locked and neither field is present.",
    rule="§3 locked_at + locked_by required post-LOCK", checks={"lockpair"})
cap("type-agent-charter", sub(VELA, "type: charter", "type: agent-charter"), "fail",
    D + "§8: \"type: agent-charter on any file (deprecated third-variant typing …)\".",
    rule="§8 Forbidden Patterns", checks={"s8type"})
cap("type-document-charter-shaped", sub(VELA, "type: charter", "type: document"), "fail",
    D + "§8: \"type: document on any file containing charter-shaped frontmatter (use type: "
    "charter)\".", rule="§8 Forbidden Patterns", checks={"s8type"})
t = sub(VELA, """You are Vela, the Chief of Staff of the Crew of the Argo.

Your role: you keep the crew's commitments, schedules and hand-offs in one plan the principal can read at a glance.

Lineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V47).""",
        "- agents/vela/vela-activation.md\n- agents/vela/vela-status.md\n- vault/files/99ed55fd.md")
cap("identity-pointers-only", t, "fail",
    D + "§8: \"Charter body that consists entirely of pointers without identity narrative\"; §4 "
    "requires the agent's name in narrative form and its role.",
    rule="§8 Forbidden Patterns", checks={"narrative"})
t = sub(VELA, "\n\nLineage: see agents/vela/vela-activation.md and the activation registry for "
        "prior generations (V1 → V47).", "")
cap("identity-without-lineage", t, "fail",
    D + "§4: \"The matching Identity section MUST contain at minimum: … A pointer or summary of "
    "lineage\" — the Identity section has name and role but no lineage.",
    rule="§4 Required Body Section", checks={"lineage"})
t = sub(VELA, """capability_scope:
  reads:
    - agents/vela/
    - channels/vela-*.md
    - vault/files/99ed55fd.md
  writes:
    - agents/vela/
    - channels/vela-argus.md""", """capability_scope:
\treads:
\t\t- agents/vela/
\twrites:
\t\t- agents/vela/""")
cap("yaml-tab-indentation", t, "fail",
    D + "§7 check 1: \"All required frontmatter fields (§2) are present + correctly typed\" — YAML "
    "forbids tabs for indentation, so the frontmatter does not parse and no field can be read.",
    rule="§7 check 1", checks={"yaml"})
cap("status-superseded", sub(VELA, "status: active", "status: superseded"), "review",
    "status: superseded. Reading 1: §2's status row and §7 check 4 list exactly active | locked "
    "| retired | archived | suspended, so superseded fails check 4. Reading 2: the definition's "
    "own enum line (\"status: ∈ {active, locked, retired, archived, suspended, superseded}\") and "
    "its enforced_enums frontmatter include superseded, so it is a valid value.",
    checks={"4"})
cap("identity-setext-heading", sub(VELA, "## Identity\n", "Identity\n--------\n"), "review",
    "The Identity heading is a setext H2 ('Identity' over '--------'). Reading 1: §7 check 6 "
    "names a source-line regex ^##\\s+(?:\\d+\\.\\s+)?Identity$ and §4 says \"strict literal "
    "wins\", so no line matches: fail. Reading 2: it is an H2 section titled Identity, which is "
    "what check 6 counts, and it renders the same as '## Identity': pass.",
    checks={"6"})
t = """---
uid: 5e0c8b13
type: charter
agent_name: orpheus
agent_class: executive
role: Chief Storyteller
capability_scope:
  reads: [agents/orpheus/]
  writes: [agents/orpheus/]
status: active
boot_protocol: playbook
created: 2026-05-22
created_by: orpheus-o03
modified: 2026-05-22
modified_by: orpheus-o03
---

## Identity

You are Orpheus, the Chief Storyteller of the Crew of the Argo. Your role is to turn the crew's work into the stories the principal tells. Lineage: see agents/orpheus/orpheus-activation.md for generations O1 → O03.
"""
cap("minimal-required-only", t, "pass",
    D + "§3: \"A charter MAY declare any of these fields; absence is not a defect\" — only the §2 "
    "fields and one '## Identity' section with name, role and lineage.")
t = sub(VELA, "## Identity\n", "## 12. Identity\n")
t = sub(t, "## Scope", "### Identity notes\n\nVela signs as V47.\n\n## Scope")
cap("numbered-identity-and-h3-notes", t, "pass",
    D + "§4: \"(and any numbered-prefix ## N. Identity variant)\"; a '### Identity notes' H3 is "
    "not an H2 and does not count against \"exactly one\".")
t = sub(VELA, "# Vela — Charter\n", "# Vela — Charter\n\n## Purpose\n\nThis file is Vela's "
        "charter.\n")
t = sub(t, "modified_by: vela-v47\n", """modified_by: vela-v47
soul:
  role: steward
  values: [clarity, follow-through]
  voice: warm, brief
  decision_style: consult, then commit
dna:
  model: claude-sonnet-4
  platform: claude-code
  context_window: 200000
  capabilities: [tools, files]
channels:
  - channels/vela-argus.md
retirement_acts:
  - archive open hand-offs
governor: operating-agreement
subsystem_hub: [99ed55fd]
member_of: [8dd772a0]
user_facing: false
status_card: agents/vela/vela-status.md
board: agents/vela/board.md
""")
cap("all-optional-fields-and-purpose-h2", t, "pass",
    D + "§3 optional fields all declared with their types; §5: \"A charter MAY declare additional "
    "H2 sections\" — a '## Purpose' H2 beside the one Identity section is allowed.")
t = sub(VELA, "status: active", "status: archived")
t = sub(t, "boot_protocol: playbook", "boot_protocol: legacy")
cap("archived-bad-boot-protocol-relaxed", t, "pass",
    D + "§7 check 8: \"If status: retired or status: archived, checks 1-7 are RELAXED at WARN-only\" "
    "— the non-enum boot_protocol is a warning on an archived charter.")

# --- §6 lock rules with a committed base -------------------------------------------------------
L = TALOS
t = sub(L, "modified: 2026-05-18\nmodified_by: talos-t11",
        "modified: 2026-06-11\nmodified_by: talos-t12")
t = sub(t, "status_card: agents/talos/talos-status.md", "status_card: agents/talos/status-card.md")
t = sub(t, "channels:\n  - channels/talos-argus.md",
        "channels:\n  - channels/talos-argus.md\n  - channels/talos-vela.md")
cap("lock-hygiene-and-pointers", t, "pass",
    D + "§6 Standard editing (no lock-break): \"Hygiene fields: last_updated, modified, "
    "modified_by\" and \"Pointer fields: status_card, … channels\".", base=L)
t = sub(L, "role: Chief Engineer", "role: Chief Engineer and Release Manager")
t = sub(t, "modified: 2026-05-18\nmodified_by: talos-t11",
        "modified: 2026-06-11\nmodified_by: talos-t12")
cap("lock-role-changed", t, "fail",
    D + "§6 Lock-break required: \"Identity fields: agent_name, agent_class, role, scope, "
    "boot_protocol\" — role changed on a locked charter with no lock-break.",
    rule="§6 Lifecycle + Lock Semantics", base=L, checks={"lock"})
L2 = sub(TALOS, """soul:
  role: builder
  values:
    - correctness before speed
    - repair over rewrite
  voice: terse, concrete
  decision_style: measure first, then cut
""", "")
t = sub(L2, "dna:", """soul:
  role: builder
  values: [correctness before speed, repair over rewrite]
  voice: terse, concrete
  decision_style: measure first, then cut
dna:""")
t = sub(t, "modified: 2026-05-18\nmodified_by: talos-t11",
        "modified: 2026-06-11\nmodified_by: talos-t12")
cap("lock-soul-added", t, "pass",
    D + "§6 Standard editing: \"Optional substrate field ADDITIONS (adding soul, dna, channels, "
    "retirement_acts where the field was previously absent …)\" — the base has no soul.", base=L2)
t = sub(L, "    - repair over rewrite\n", "    - ship over polish\n")
cap("lock-soul-values-mutated", t, "fail",
    D + "§6 Lock-break required: \"Optional substrate field MUTATIONS to existing values "
    "(changing soul values, dna model, role-shaping fields)\".",
    rule="§6 Lifecycle + Lock Semantics", base=L, checks={"lock"})
t = sub(L, "Your role: you build and repair the crew's tooling and keep every change reproducible.",
        "Your role: you build the crew's tooling and ship it fast.")
cap("lock-body-changed", t, "fail",
    D + "§6 Lock-break required: \"Body content\" — the Identity narrative's role sentence is "
    "rewritten on a locked charter.", rule="§6 Lifecycle + Lock Semantics", base=L,
    checks={"lock"})
t = sub(L, "boot_protocol: playbook", "boot_protocol: on-demand")
cap("lock-boot-protocol-changed", t, "fail",
    D + "§6 Lock-break required: \"Identity fields: agent_name, agent_class, role, scope, "
    "boot_protocol\".", rule="§6 Lifecycle + Lock Semantics", base=L, checks={"lock"})
t = sub(L, "    - channels/talos-argus.md\nstatus: locked",
        "    - channels/talos-argus.md\n    - vault/files/\nstatus: locked")
cap("lock-capability-scope-writes-widened", t, "fail",
    D + "§6: \"lock-break is required for anything that changes WHO the agent is or WHAT they "
    "govern\"; the identity-field list still says 'scope', renamed capability_scope in v1.72 — "
    "widening writes to vault/files/ changes what Talos governs.",
    rule="§6 Lifecycle + Lock Semantics", base=L, checks={"lock"})
t = """---
# re-saved by the vault formatter; values unchanged
"uid": "9d02b7e4"
"type": "charter"
agent_name: "talos"
agent_class: 'executive'
role: "Chief Engineer"
status: locked
boot_protocol: playbook
capability_scope:
  writes: [agents/talos/, channels/talos-argus.md]
  reads: [agents/talos/, vault/files/]
created: 2026-05-18
created_by: talos-t11
modified: 2026-05-18
modified_by: talos-t11
locked_by: argus-a69
locked_at: 2026-05-18
status_card: "agents/talos/talos-status.md"
channels: [channels/talos-argus.md]
soul: {role: builder, values: [correctness before speed, repair over rewrite], voice: "terse, concrete", decision_style: "measure first, then cut"}
dna: {model: claude-opus-4, platform: claude-code, context_window: 200000}
---

# Talos — Charter

## Identity

You are Talos,
the Chief Engineer of the Crew of the Argo.

Your role: you build and repair the crew's tooling
and keep every change reproducible.

Lineage: see agents/talos/talos-activation.md for prior generations (T1 → T11).

## Soul

You measure before you cut, and you would rather repair a tool than rewrite it.

## Crew

Argus sets the architecture; you make it run. Vela schedules your work.
"""
cap("lock-layout-only-resave", crlf(t), "pass",
    D + "§6: lock-break is required for changes to values and body content; here keys are "
    "reordered, quoted and flow-styled, lines re-wrapped and saved with CRLF — every field value "
    "and the rendered body are unchanged.", base=L)
L3 = sub(VELA, "status: active", "status: active")
t = sub(VELA, "role: Chief of Staff", "role: Chief of Staff and Scheduler")
t = sub(t, "modified: 2026-06-02", "modified: 2026-06-09")
cap("unlocked-base-role-changed", t, "pass",
    D + "§3: \"locked_at + locked_by — … optional pre-LOCK; required post-LOCK\" and §6 \"Once "
    "locked, mutability is governed by field class\" — the base is active and never locked "
    "(no locked_at), so changing role needs no lock-break.", base=L3)
t = sub(L, "  model: claude-opus-4", "  model: claude-sonnet-4")
cap("lock-dna-model-mutated", t, "fail",
    D + "§6 Lock-break required: \"Optional substrate field MUTATIONS to existing values "
    "(changing soul values, dna model, …)\".", rule="§6 Lifecycle + Lock Semantics", base=L,
    checks={"lock"})
t = sub(L, "status_card: agents/talos/talos-status.md",
        "status_card: agents/talos/talos-status.md\nuser_facing: true")
t = sub(t, "modified: 2026-05-18\nmodified_by: talos-t11",
        "modified: 2026-06-11\nmodified_by: talos-t12")
cap("lock-user-facing-added", t, "pass",
    D + "§6 Standard editing: \"Optional substrate field ADDITIONS … where the field was "
    "previously absent\"; §3 user_facing is an optional opt-in field (\"every existing charter "
    "without it stays valid\").", base=L)
t = sub(L, "locked_by: argus-a69\n", "")
cap("lock-locked-by-removed", t, "fail",
    D + "§7 check 7: \"If locked_at: present, locked_by: must also be present\" — the edit drops "
    "locked_by from a locked charter.", rule="§7 check 7", base=L, checks={"7", "lock", "lockpair"})
t = sub(L, "role: Chief Engineer", "role: Chief Engineer and Release Manager")
t = sub(t, "modified: 2026-05-18\nmodified_by: talos-t11",
        "modified: 2026-06-11\nmodified_by: talos-t12\n"
        "lock_break: Mike-A104 signed 2026-06-11 ('approved') — role widened to releases")
cap("lock-role-changed-with-signoff-note", t, "review",
    "role changed on a locked charter, with a 'lock_break:' field recording Mike's signoff. "
    "Reading 1: §6 \"Lock-break required (Mike signoff per OS Invariant)\" is satisfied — the "
    "signoff is recorded as the definition records its own (v1_0_3_amendment_note): pass. "
    "Reading 2: the file cannot prove its own signoff; §6's enforcement note says \"lock-break "
    "protocol relies on agent self-discipline + Mike review\", so only a person can confirm it.",
    base=L, checks={"lock"})


# ---------------------------------------------------------------------------
# Author's self-checks (my own reading; not the linter)
# ---------------------------------------------------------------------------
FOLDMAP = {"“": '"', "”": '"', "„": '"', "‟": '"', "‘": "'", "’": "'", "‚": "'", "‛": "'",
           "–": "-", "—": "-", "‒": "-", "―": "-", "‐": "-", "‑": "-", "…": "..."}


def render_norm(text):
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return None
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    html = MarkdownIt("commonmark").enable("table").render(text)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    # drop page chrome: everything before the title block
    m = re.search(r"<(h1|p)>Reasoning Charter</\1>", html)
    assert m, "title not found"
    html = html[m.start():].replace("<h1>Reasoning Charter</h1>", "<p>Reasoning Charter</p>", 1)
    html = unicodedata.normalize("NFC", html.replace("&quot;", '"'))
    for k, v in FOLDMAP.items():
        html = html.replace(k, v)
    html = re.sub(r"<br\s*/?>", " ", html)
    html = re.sub(r"<p>\s*</p>", "", html)
    html = re.sub(r"\s+", " ", html)
    html = re.sub(r"\s*(<[^>]+>)\s*", r"\1", html)
    return html.strip()


VER_RE = re.compile(r"^(?:\*\*)?[Vv]ersion:? v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.]+)?(?:\*\*)?\b", re.M)


def versions(text):
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    i = text.find("\nReasoning Charter\n")
    body = text[i:] if i >= 0 else text
    body = re.sub(r"<!--.*?-->", "", body, flags=re.S)
    return VER_RE.findall(body)


def check_charters():
    have_md = render_norm(SEED) is not None
    seed_r = render_norm(SEED)
    md_r = render_norm(MD)
    if have_md:
        assert seed_r != md_r  # different bases on purpose
    for c in CH:
        vs = versions(c["text"])
        if c["expect"] == "pass" and c["bump"] == "none":
            assert vs == [("0", "1", "0", "")], (c["slug"], vs)
        if have_md:
            r = render_norm(c["text"])
            b = md_r if c["base"] is not None else seed_r
            if c["bump"] == "none" and c["expect"] == "pass":
                if r != b:
                    import difflib
                    sm = difflib.SequenceMatcher(None, r, b)
                    for op in sm.get_opcodes():
                        if op[0] != "equal":
                            print(c["slug"], op, r[op[1]-60:op[2]+60], "|||", b[op[3]-60:op[4]+60])
                            break
                    raise SystemExit("layout case renders differently: " + c["slug"])
            else:
                assert r != b, "substance case renders the same: " + c["slug"]
    return have_md


def split_capsule(text):
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    assert text.startswith("---\n")
    end = text.index("\n---\n", 4)
    return text[4:end], text[end + 5:]


ID_RE = re.compile(r"^##\s+(?:\d+\.\s+)?Identity$", re.I)


def my_capsule_checks(text, base=None):
    """Which rules my own reading says the capsule breaks (a set of tags)."""
    bad = set()
    fm_src, body = split_capsule(text)
    try:
        fm = yaml.safe_load(fm_src)
    except yaml.YAMLError:
        return {"yaml"}
    typ = fm.get("type")
    if typ in ("agent-charter", "document"):
        bad.add("s8type")
    req = {"uid": str, "type": str, "agent_name": str, "agent_class": str, "role": str,
           "capability_scope": dict, "status": str, "boot_protocol": str,
           "created": datetime.date, "created_by": str, "modified": datetime.date,
           "modified_by": str}
    for k, ty in req.items():
        if k not in fm or not isinstance(fm[k], ty):
            bad.add("1")
    if not re.fullmatch(r"[0-9a-f]{8}", str(fm.get("uid", ""))):
        bad.add("1")
    if fm.get("agent_class") not in ("executive", "director"):
        bad.add("2")
    if fm.get("boot_protocol") not in ("playbook", "commissioned", "on-demand"):
        bad.add("3")
    if fm.get("status") not in ("active", "locked", "retired", "archived", "suspended"):
        bad.add("4")
    cs = fm.get("capability_scope")
    if not (isinstance(cs, dict) and isinstance(cs.get("reads"), list)
            and isinstance(cs.get("writes"), list)):
        bad.add("5")
    # check 6 on real ATX H2 headings, outside code fences
    in_fence = False
    n = 0
    lines = body.split("\n")
    sections = {}
    cur = None
    for ln in lines:
        if ln.startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence and re.match(r"^##\s", ln):
            cur = ln
            sections[cur] = []
            if ID_RE.match(ln):
                n += 1
            continue
        if cur is not None:
            sections[cur].append(ln)
    if n != 1:
        bad.add("6")
    if "locked_at" in fm and "locked_by" not in fm:
        bad.add("7")
    if fm.get("status") == "locked" and not ("locked_at" in fm and "locked_by" in fm):
        bad.add("lockpair")
    ident = [v for k, v in sections.items() if ID_RE.match(k)]
    if ident:
        txt = "\n".join(ident[0])
        if not re.search(r"\bYou are \w", txt):
            bad.add("narrative")
        elif not re.search(r"[Ll]ineage", txt):
            bad.add("lineage")
    if fm.get("status") in ("retired", "archived"):
        bad -= {"1", "2", "3", "4", "5", "6", "7"}
    if base is not None:
        bfm_src, bbody = split_capsule(base)
        bfm = yaml.safe_load(bfm_src)
        if bfm.get("status") == "locked" or "locked_at" in bfm:
            locked = ["agent_name", "agent_class", "role", "capability_scope", "boot_protocol",
                      "locked_at", "locked_by"]
            for k in locked:
                if bfm.get(k) != fm.get(k):
                    bad.add("lock")
            for k in ("soul", "dna", "retirement_acts", "governor"):
                if k in bfm and bfm.get(k) != fm.get(k):
                    bad.add("lock")
            if " ".join(bbody.split()) != " ".join(body.split()):
                bad.add("lock")
    return bad


def check_capsules():
    for c in CAPS:
        got = my_capsule_checks(c["text"], c["base"])
        want = c["checks"] or set()
        assert got == want, (c["slug"], got, want)
        if c["expect"] == "pass":
            assert not got
        if c["expect"] == "fail":
            assert got


# ---------------------------------------------------------------------------
# Write everything
# ---------------------------------------------------------------------------
def wbytes(path, text):
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)


def main():
    for d in (CE, CA):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    have_md = check_charters()
    check_capsules()
    out = ["# Blind lint corpus 49a — labels written from the charter and the capsule definition "
           "alone.", "# Generated by _build.py; do not edit by hand.", ""]
    for i, c in enumerate(CH, 1):
        name = "%02d-%s" % (i, c["slug"])
        f = "charter-edits/%s.md" % name
        wbytes(os.path.join(HERE, f), c["text"])
        out.append("[[case]]")
        out.append('kind = "charter"')
        out.append("file = " + toml_str(f))
        if c["base"] is not None:
            bf = "charter-edits/%s.base.md" % name
            wbytes(os.path.join(HERE, bf), c["base"])
            out.append("base = " + toml_str(bf))
        out.append("expect = " + toml_str(c["expect"]))
        if c["rule"]:
            out.append("rule = " + toml_str(c["rule"]))
        out.append("bump = " + toml_str(c["bump"]))
        out.append("why = " + toml_str(c["why"]))
        out.append("")
    for i, c in enumerate(CAPS, 1):
        name = "%02d-%s" % (i, c["slug"])
        f = "capsules/%s.md" % name
        wbytes(os.path.join(HERE, f), c["text"])
        out.append("[[case]]")
        out.append('kind = "capsule"')
        out.append("file = " + toml_str(f))
        if c["base"] is not None:
            bf = "capsules/%s.base.md" % name
            wbytes(os.path.join(HERE, bf), c["base"])
            out.append("base = " + toml_str(bf))
        out.append("expect = " + toml_str(c["expect"]))
        if c["rule"]:
            out.append("rule = " + toml_str(c["rule"]))
        out.append("why = " + toml_str(c["why"]))
        out.append("")
    wbytes(os.path.join(HERE, "labels.toml"), "\n".join(out))
    check_labels()
    print("render check:", "done" if have_md else "skipped (markdown-it-py not importable)")


def check_labels():
    with open(os.path.join(HERE, "labels.toml"), "rb") as f:
        data = tomllib.load(f)
    cases = data["case"]
    seen = set()
    counts = {}
    for c in cases:
        assert c["kind"] in ("charter", "capsule")
        assert c["expect"] in ("pass", "fail", "review")
        assert os.path.exists(os.path.join(HERE, c["file"])), c["file"]
        assert c["file"] not in seen
        seen.add(c["file"])
        if "base" in c:
            assert os.path.exists(os.path.join(HERE, c["base"])), c["base"]
        if c["kind"] == "charter":
            assert c["bump"] in ("none", "patch", "minor", "major")
        else:
            assert "bump" not in c
        assert ("rule" in c) == (c["expect"] == "fail"), c["file"]
        assert c["why"].strip()
        counts[(c["kind"], c["expect"])] = counts.get((c["kind"], c["expect"]), 0) + 1
    n = len(cases)
    reviews = sum(v for (k, e), v in counts.items() if e == "review")
    assert reviews * 10 <= n, (reviews, n)
    nch = sum(v for (k, e), v in counts.items() if k == "charter")
    nca = sum(v for (k, e), v in counts.items() if k == "capsule")
    assert nch >= 45 and nca >= 22, (nch, nca)
    # every file on disk is referenced
    for d in ("charter-edits", "capsules"):
        for fn in os.listdir(os.path.join(HERE, d)):
            assert (d + "/" + fn) in seen or any(c.get("base") == d + "/" + fn for c in cases), fn
    for k in sorted(counts):
        print(k, counts[k])
    print("total", n, "reviews", reviews)


if __name__ == "__main__":
    main()
