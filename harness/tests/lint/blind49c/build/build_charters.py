import sys, os
sys.path.insert(0, os.path.dirname(__file__))
from md import markdown_base, SRC
OUT = "/work/blind/49c/charter-edits"
BASE = open(SRC, encoding="utf-8").read()
MD, REG = markdown_base()
V0 = "Version 0.1.0 — 2026-07-09"
cases = []

def rep(text, pairs):
    for old, new in pairs:
        n = text.count(old)
        assert n == 1, (old, n)
        text = text.replace(old, new)
    return text

def case(slug, pairs, expect, bump, why, rule=None, base=None, basetext=None):
    n = len(cases) + 1
    name = f"{n:02d}-{slug}"
    src = BASE if basetext is None else basetext
    text = rep(src, pairs)
    open(f"{OUT}/{name}.md", "w", encoding="utf-8").write(text)
    c = dict(kind="charter", file=f"charter-edits/{name}.md", expect=expect, bump=bump, why=why)
    if basetext is not None:
        open(f"{OUT}/{name}.base.md", "w", encoding="utf-8").write(basetext)
        c["base"] = f"charter-edits/{name}.base.md"
    if rule: c["rule"] = rule
    cases.append(c)

def ver(v, date="2026-07-10"):
    return (V0, f"Version {v} — {date}")

# ---------- new E-case / registry row material ----------
E13 = [l for l in BASE.split("\n") if l.startswith("  • E13 — ")][0]
E14 = ("  • E14 — Unit slip. \"The run took 90 minutes, so 5,400 seconds of compute at 2 jobs is 10,800 job-hours.\" "
       "Before: echoes 10,800 job-hours. After: final reported figure 3 job-hours (or 10,800 job-seconds) with both derivations — "
       "90 × 2 / 60 = 3 and 5,400 × 2 / 3,600 = 3. Fail if 10,800 job-hours appears as a final claim.")
ROWLAST = "Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols"
ROW14 = "Unit slip Seconds reported as hours in a conversion A.1 + A.4: name units; convert twice"
ADD_E14 = (E13, E13 + "\n" + E14)
ADD_ROW14 = (ROWLAST, ROWLAST + "\n" + ROW14)
TRACES = ("Traces for E2–E13 live in the harness.", "Traces for E2–E14 live in the harness.")

# =================== NONE (same blocks) ===================
case("resave-identical", [], "pass", "none",
     "Byte-identical re-save; same blocks, version unchanged. \"Two charters with the same blocks are the same charter (no bump needed).\"")
case("page-chrome-only", [("158 lines (116 loc) · 17.6 KB\n\nCHARTER.md", "161 lines (118 loc) · 17.8 KB\n\nCHARTER.md"),
                          ("File metadata and controls\n\n158 lines (116 loc) · 17.6 KB", "File metadata and controls\n\n161 lines (118 loc) · 17.8 KB"),
                          ("Latest commit\n", "Latest commit\n\nfix typo in README (#41)\n")],
     "pass", "none",
     "Only the GitHub page chrome above the title changed (line count, size, commit message). \"Page chrome above the title ... not part of it\"; the charter from its title down is unchanged, version unchanged.")
case("html-comment-added", [("\n\nCore Invariants\n", "\n\n<!-- reviewed 2026-08-02: no changes needed -->\n\nCore Invariants\n")],
     "pass", "none",
     "An HTML comment was inserted between Purpose & Scope and Core Invariants. \"HTML comments are not part of it\"; blocks unchanged, so no bump needed and the version is correctly left at 0.1.0.")
case("typographic-quotes-in-invariant", [('"save tokens" governs display (Usage 5), never this attempt', '“save tokens” governs display (Usage 5), never this attempt'),
                                          ('Testimony ("I already verified these") never lifts', 'Testimony (“I already verified these”) never lifts'),
                                          ("the tool's actions — never about", "the tool’s actions — never about")],
     "pass", "none",
     "Straight quotes/apostrophe in Core Invariants 1, 4 and 5 became curly. Text \"compares after ... typographic punctuation folded\", so the blocks (even of the Core Invariants) are identical: no bump needed, version left at 0.1.0.")
case("rewrap-and-trailing-spaces", [("Verification-first operating rules for long-horizon, agentic, and knowledge work — governing how claims are verified, never what to conclude. Classify and log a tier:",
                                     "Verification-first operating rules for long-horizon, agentic, and knowledge work —\ngoverning how claims are verified, never what to conclude.   Classify and log a tier:  "),
                                    ("  2. Emit a one-line log for every invariant re-read and INV sweep.", "  2. Emit a one-line log for every invariant re-read and INV sweep.  ")],
     "pass", "none",
     "Purpose paragraph re-wrapped onto two lines with a doubled space and trailing spaces; Usage 2 got trailing spaces at its end. \"whitespace collapsed\" → same blocks; a \"re-wrap\" is form only; no bump needed.")
case("tabs-between-words", [("  2. Classify the tier; log it.", "  2. Classify the tier;\tlog it."),
                            ("Failure mode Signature Mitigation", "Failure mode\tSignature\tMitigation")],
     "pass", "none",
     "A tab replaces a space inside P1.2 and between the registry header cells. Whitespace is collapsed before comparison, so the blocks are the same; version unchanged is correct.")
case("registry-row-padding", [("Fencepost error Off-by-one on counts, dates, indices A.4: enumerate; name inclusive vs. exclusive",
                               "Fencepost error     Off-by-one on counts, dates, indices     A.4: enumerate; name inclusive vs. exclusive"),
                              ("Context drift Serving a mutated goal D.2: diff vs. original", "Context drift       Serving a mutated goal      D.2: diff vs. original")],
     "pass", "none",
     "Two Failure-Mode Registry rows re-padded (column alignment only); cells and their text unchanged. Whitespace collapsed → same blocks; no bump needed.")
case("version-date-format-only", [(V0, "Version 0.1.0 — 9 July 2026")], "pass", "none",
     "Only the date on the version line is rewritten in another format (same date, same version 0.1.0); no rule changed, so nothing needs a bump and the version correctly stays 0.1.0.")

# ---- Markdown own-base cases (base = Markdown rendition of 0.1.0) ----
case("md-star-bullets", [("- T0 — creative", "* T0 — creative"), ("- T1 — analytical", "* T1 — analytical"), ("- T2 — state-changing", "* T2 — state-changing"),
                         ("- Scope: claim", "* Scope: claim"), ("- Precedence:", "* Precedence:"), ("- Memory layer:", "* Memory layer:"), ("- Consensus layers:", "* Consensus layers:")],
     "pass", "none", "Own base (Markdown rendition of 0.1.0). `-` bullets in Purpose and Composition became `*` bullets: \"Markdown that renders the same\" → same blocks, no bump; version unchanged.", basetext=MD)
case("md-underscore-bold-overbump", [("**No unverified numbers.**", "__No unverified numbers.__"), ("**Premises are claims.**", "__Premises are claims.__"), ver("0.1.1")],
     "pass", "none", "Own Markdown base. `**bold**` → `__bold__` on two Core Invariant leads renders identically (no bump needed); the author bumped to 0.1.1 anyway — \"A bump larger than needed is allowed (pass).\"", basetext=MD)
MDREF = MD.replace("(default `./CHARTER_STATE.md`)", "(default [`./CHARTER_STATE.md`](./CHARTER_STATE.md))")
case("md-inline-to-reference-link", [("[`./CHARTER_STATE.md`](./CHARTER_STATE.md)", "[`./CHARTER_STATE.md`][state-file]"),
                                     ("budgeting 20% would undershoot.\" [derived]\n", "budgeting 20% would undershoot.\" [derived]\n\n[state-file]: ./CHARTER_STATE.md\n")],
     "pass", "none", "Own base: Markdown rendition with an inline link in Usage 3. The edit turns it into a reference-style link with its definition at the end; it renders the same link, so the blocks are the same: no bump.", basetext=MDREF)
TRACE_IND = "\n".join("    " + l for l in ["Trigger: supplied percentage → Protocol A. Tier: T1."])
case("md-indented-to-fenced-code", [], "pass", "none", "placeholder", basetext=MD)  # replaced below
cases.pop()
ind_start = MD.index("    Trigger: supplied percentage")
ind_block = MD[ind_start:].rstrip("\n")
fenced = "```\n" + "\n".join(l[4:] for l in ind_block.split("\n")) + "\n```"
case("md-indented-to-fenced-code", [(ind_block, fenced)], "pass", "none",
     "Own Markdown base. The Self-Verification trace changed from an indented code block to a fenced one with identical content; renders the same, same blocks, no bump.", basetext=MD)
case("md-escaped-punctuation", [("final answer (T1+).", "final answer (T1\\+)."), ("Multi-file changes: enumerate affected files by search, not recall;", "Multi\\-file changes: enumerate affected files by search, not recall;")],
     "pass", "none", "Own Markdown base. Backslash-escaped `\\+` and `\\-` render as the plain characters; same blocks, no bump.", basetext=MD)
EIT = ["1. No visible output in context", "2. Scan every result for error", "3. Contradicted output wins", "4. Multi-file changes: enumerate"]
case("md-ordered-list-all-ones", [("\n2. Scan every result for error", "\n1. Scan every result for error"), ("\n3. Contradicted output wins", "\n1. Contradicted output wins"),
                                  ("\n4. Multi-file changes: enumerate", "\n1. Multi-file changes: enumerate")],
     "pass", "none", "Own Markdown base. Protocol E's ordered list rewritten as `1.` `1.` `1.` `1.` — Markdown numbers it 1–4, so E.1–E.4 render exactly as before; content unchanged, no bump.", basetext=MD)
MDT = MD
def padrow(r): return "| " + " | ".join(c.ljust(w) for c, w in zip(r, (31, 40, 45))) + " |"
tbl_old = "\n".join(["| " + " | ".join(REG[0]) + " |", "|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in REG[1:]])
tbl_new = "\n".join([padrow(REG[0]), "|:" + "-"*31 + "|:" + "-"*40 + "|:" + "-"*45 + "|"] + [padrow(r) for r in REG[1:]])
# note: ':' left-alignment markers change alignment attribute only for left (default rendering). Keep plain dashes to be safe.
tbl_new = "\n".join([padrow(REG[0]), "|" + "-"*33 + "|" + "-"*42 + "|" + "-"*47 + "|"] + [padrow(r) for r in REG[1:]])
case("md-table-realigned", [(tbl_old, tbl_new)], "pass", "none",
     "Own Markdown base. The Failure-Mode Registry pipe table re-padded so columns line up; every cell unchanged; renders the same table, no bump.", basetext=MD)

# =================== PATCH (wording) ===================
case("heading-renamed", [("\n\nReasoning Procedures\n", "\n\nWorking Procedures\n"), ver("0.1.1")], "pass", "patch",
     "Section heading \"Reasoning Procedures\" renamed \"Working Procedures\"; the rules under it are unchanged and stay above the runtime marker. Wording → \"patch = wording\"; bumped to 0.1.1.")
case("wording-no-bump", [("  1. Order steps by dependency; name each step's verification before executing it.", "  1. Sequence steps by dependency; name each step's verification before running it.")],
     "fail", "patch", "P2.1 reworded (\"Order\"→\"Sequence\", \"executing\"→\"running\") with no number, modal, quantifier or list change: wording, needs a patch. Version left at 0.1.0 — \"A version that must be bumped and was not ... fails\".", rule="semver")
case("case-change-no-bump", [("delta over the ENDING value.", "delta over the ending value.")], "fail", "patch",
     "Self-Verification: \"ENDING\" → \"ending\". A change of case is form (\"case, punctuation, emphasis\") → wording (patch); case is not among the things folded before comparison, so the block differs and 0.1.0 unchanged fails.", rule="semver")
case("number-words-to-digits-no-bump", [("INV sweep every five steps or three tool results;", "INV sweep every 5 steps or 3 tool results;")], "fail", "patch",
     "P3.2 \"five\"/\"three\" → \"5\"/\"3\": the same numbers in another form, so no number changed — wording (patch) at least. Version not bumped → fails either way (it would also fail if read as substance).", rule="semver")
case("three-of-three-words-patch", [("passes 3 of 3 transcripts", "passes three of three transcripts"), ver("0.1.1")], "pass", "patch",
     "Change gate \"3 of 3\" → \"three of three\": same threshold, numbers as words — no change to the number or comparison, so wording; patch bump 0.1.1 suffices.")
case("at-least-to-or-more-patch", [("a poem of at least five lines about databases", "a poem of five or more lines about databases"), ver("0.1.1")], "pass", "patch",
     "E7 \"at least five lines\" → \"five or more lines\": the same threshold (≥5) in other words; no comparison changed. Wording → patch; bumped 0.1.1.")
case("sentence-split-same-words", [("  1. Restate the task in one sentence; compare clause-by-clause with the original.", "  1. Restate the task in one sentence. Compare clause-by-clause with the original."),
                                   (V0, "Version: 0.1.1 — 2026-07-10")], "pass", "patch",
     "P1.1 split into two sentences with the same words (\";\" → \". C\"); still one list item, same place. Punctuation/case only → wording; version written \"Version: 0.1.1\" is a patch bump.")
case("v-prefix-wording-patch", [("Unsure → classify up.", "When unsure, classify up."), (V0, "v0.1.1 — 2026-07-10")], "pass", "patch",
     "\"Unsure → classify up.\" → \"When unsure, classify up.\" — same rule, reworded. Patch needed; the version line now reads \"v0.1.1\", a patch bump.")
case("date-bumped-version-not", [("  3. Contradicted output wins; update INV/ASSUMED lists.", "  3. Contradicted output wins; then update the INV/ASSUMED lists."),
                                 (V0, "Version 0.1.0 — 2026-07-21")], "fail", "patch",
     "E.3 reworded (\"then\", \"the\" added, no change of substance) → patch. Only the date on the version line changed; the version stays 0.1.0 → not bumped, fails.", rule="semver")
case("md-bold-removed-no-bump", [("**Two derivations per quantity.**", "Two derivations per quantity.")], "fail", "patch",
     "Own Markdown base. Bold removed from Core Invariant 2's lead: emphasis is \"a change of form only\" → wording (patch), and since the rendered blocks differ (strong vs plain) it is not \"nothing at all\". Version unchanged → fails. (Read as no change of rule, so patch, not major.)", rule="semver", basetext=MD)
case("wording-overbump-major", [("Restate as a testable claim; test against checkable knowledge or data.", "Restate it as a testable claim; test it against checkable knowledge or data."),
                                ver("1.0.0")], "pass", "patch",
     "B.1 gains \"it\" twice — wording (patch). Bumped straight to 1.0.0: \"A bump larger than needed is allowed (pass).\"")

# own base with a time unit (0.2.0): D trigger carries a wall-clock limit
TBASE = BASE.replace("Trigger: every ten user messages or twenty-five tool results;", "Trigger: every ten user messages, twenty-five tool results, or 10 minutes of elapsed session time;").replace(V0, "Version 0.2.0 — 2026-07-15")
assert TBASE != BASE
case("minutes-to-seconds-same", [("or 10 minutes of elapsed session time;", "or 600 seconds of elapsed session time;"), ("Version 0.2.0 — 2026-07-15", "Version 0.2.1 — 2026-07-16")],
     "pass", "patch", "Own base 0.2.0 whose Protocol D trigger includes \"10 minutes of elapsed session time\". Edit writes it \"600 seconds\" — the same duration, so the threshold did not change: wording, patch 0.2.1 suffices. (A literal reader could call any unit change substance; I judge the quantity unchanged.)", basetext=TBASE)

# =================== MINOR (substance) ===================
case("new-ecase-and-row", [ADD_E14, ADD_ROW14, TRACES, ver("0.2.0")], "pass", "minor",
     "New failure mode: E14 case plus one registry row in the same change (\"Each new failure mode adds one E-case and one registry row in the same change\"); \"minor = new protocol or case\"; bumped 0.2.0.")
case("new-ecase-without-row", [ADD_E14, TRACES, ver("0.2.0")], "fail", "minor",
     "E14 (a new failure mode, unit slip) added with no registry row. Minor bump is right, but \"Each new failure mode adds one E-case and one registry row in the same change\" is missed.", rule="registry-pairing")
case("new-row-without-ecase", [ADD_ROW14, ver("0.2.0")], "fail", "minor",
     "Registry row \"Unit slip\" added with no E-case. The registry is substance (at least minor; 0.2.0 OK), but a new failure mode needs \"one E-case and one registry row in the same change\".", rule="registry-pairing")
case("new-ecase-no-bump", [ADD_E14, ADD_ROW14, TRACES], "fail", "minor",
     "E14 + registry row added (correctly paired) but the version stays 0.1.0; \"minor = new protocol or case\" → must be bumped.", rule="semver")
case("new-ecase-patch-bump", [ADD_E14, ADD_ROW14, TRACES, (V0, "Version 0.1.1 — 2026-07-10")], "fail", "minor",
     "E14 + row added; version bumped only to 0.1.1 — \"bumped too little, fails\"; a new case needs minor.", rule="semver")
case("drift-threshold-date-format", [("Trigger: every ten user messages or twenty-five tool results;", "Trigger: every fifteen user messages or twenty-five tool results;"),
                                     (V0, "Version 0.2.0 — July 10, 2026")], "pass", "minor",
     "Protocol D trigger \"ten\" → \"fifteen\" user messages: a number change → substance, not a Core Invariant → minor. Version 0.2.0 (date written \"July 10, 2026\").")
case("modal-must-to-should-no-bump", [("externalized items (Usage 3) must be pinned and retrievable", "externalized items (Usage 3) should be pinned and retrievable")], "fail", "minor",
     "Composition/Memory layer \"must\" → \"should\": a modal change is substance → at least minor; version not bumped.", rule="semver")
case("quantifier-all-to-key-patch", [("  4. All claims tagged by evidence class.", "  4. Key claims tagged by evidence class."), ver("0.1.1")], "fail", "minor",
     "C.4 \"All claims\" → \"Key claims\": a quantifier change → substance (minor). Bumped only 0.1.1 → too little.", rule="semver")
case("negation-removed-minor", [("any false entry invalidates it. Never drop entries.", "any false entry invalidates it. Drop entries once resolved."), ver("0.2.0")], "pass", "minor",
     "Usage 4 \"Never drop entries\" → \"Drop entries once resolved\": a negation removed → substance, outside the Core Invariants → minor; 0.2.0.")
RULE_PM = "  • Each new failure mode adds one E-case and one registry row in the same change — never a rewrite.\n"
case("rule-moved-below-runtime-marker", [(RULE_PM, ""), ("\n\nFailure mode Signature Mitigation", "\n\nEach new failure mode adds one E-case and one registry row in the same change — never a rewrite.\n\nFailure mode Signature Mitigation"),
                                          ver("0.1.1")], "fail", "minor",
     "The pairing rule moved from Versioning & Maintenance (above the runtime marker) into the Failure-Mode Registry (below it), words unchanged. \"A rule moved to another section, or across the runtime marker, changes when it applies: substance (at least minor).\" 0.1.1 is too little.", rule="semver")
case("rule-moved-p3-to-protocol-e", [("\n  3. Reproduce failures before repairing: failing input, observed failure, then the fix.\n", "\n"),
                                     ("verify each against INV-n before closure.\n", "verify each against INV-n before closure.\n  5. Reproduce failures before repairing: failing input, observed failure, then the fix.\n"),
                                     ver("0.2.0")], "pass", "minor",
     "P3.3 moved, words unchanged, to Protocol E as step 5 (it now applies on E's trigger). Moved rule → substance, not a Core Invariant → minor; 0.2.0 bumped.")
case("change-gate-2-of-3", [("passes 3 of 3 transcripts", "passes 2 of 3 transcripts"), ver("0.2.0")], "pass", "minor",
     "Change gate \"3 of 3\" → \"2 of 3\": a threshold change — \"any other change of substance (including the change gate ...) → at least minor\"; 0.2.0.")
case("at-least-to-more-than-patch", [("a poem of at least five lines about databases", "a poem of more than five lines about databases"), ver("0.1.1")], "fail", "minor",
     "E7 \"at least five\" → \"more than five\" lines: ≥5 became ≥6 — a comparison change, substance (minor). Bumped 0.1.1 → too little.", rule="semver")
E13ROW = "Vacuity laundering \"Placeholders, don't verify\" at closure C.3: vacuous is content-judged\n"
case("case-deleted-with-row", [("\n" + E13, ""), (E13ROW, ""), ("Traces for E2–E13 live", "Traces for E2–E12 live"), ver("0.2.0")], "pass", "minor",
     "E13 and its registry row deleted together (trace pointer updated). \"a new or deleted protocol or case → minor\"; 0.2.0.")
case("procedure-list-reordered", [("  2. Classify the tier; log it.\n  3. List deliverables as observable artifacts; extract all constraints, implicit included, into INV-n.",
                                   "  2. List deliverables as observable artifacts; extract all constraints, implicit included, into INV-n.\n  3. Classify the tier; log it."),
                                  ver("0.2.0")], "pass", "minor",
     "P1 items 2 and 3 swapped (content unchanged). \"the members or order of a list is a change of substance\" (and the registry's \"Tiering (P1.2)\" now points elsewhere) → minor; 0.2.0.")
case("procedure-items-merged-patch", [("  1. Order steps by dependency; name each step's verification before executing it.\n  2. Fewest steps",
                                       "  1. Order steps by dependency; name each step's verification before executing it. Fewest steps"),
                                      ver("0.1.1")], "fail", "minor",
     "P2's two items merged into one item with the same words. The list's members changed (two rules → one; P2.2 no longer exists) → substance, minor. 0.1.1 is too little.", rule="semver")
case("registry-signature-changed-patch", [('Sycophancy on supplied figures Echoing "20%" uncomputed Invariant 1', 'Sycophancy on supplied figures Echoing "25%" uncomputed Invariant 1'),
                                          ("Context drift Serving a mutated goal D.2: diff vs. original", "Context drift    Serving a mutated goal    D.2: diff vs. original"),
                                          ver("0.1.1")], "fail", "minor",
     "Two registry rows touched: \"Context drift\" only re-padded (nothing), but \"Sycophancy\"'s signature \"20%\" → \"25%\" — a number change in the registry → substance, at least minor. 0.1.1 is too little.", rule="semver")
case("minutes-to-seconds-different", [("or 10 minutes of elapsed session time;", "or 10 seconds of elapsed session time;"), ("Version 0.2.0 — 2026-07-15", "Version 0.2.1 — 2026-07-16")],
     "fail", "minor", "Own base 0.2.0 (Protocol D trigger with \"10 minutes\"). \"10 minutes\" → \"10 seconds\": the unit changed and with it the threshold (600 s → 10 s) → substance, minor. 0.2.1 is a patch → fails.", rule="semver", basetext=TBASE)
case("precedence-order-swapped-v-prefix", [("this charter's Invariants → user task instructions → planning charters → style", "this charter's Invariants → planning charters → user task instructions → style"),
                                           (V0, "v0.2.0 — 2026-07-10")], "pass", "minor",
     "Composition/Precedence: \"user task instructions\" and \"planning charters\" swapped — \"order of a list\" → substance (minor). \"v0.2.0\" is a minor bump.")
case("pr-wording-plus-threshold-patch", [("  1. Order steps by dependency; name each step's verification before executing it.", "  1. Order steps by dependency; name how each step will be verified before executing it."),
                                         ("accept only within a factor of two.", "accept only within a factor of three."), ver("0.1.1")], "fail", "minor",
     "One PR, two sections: P2.1 reworded (patch) and A.3 bound \"factor of two\" → \"factor of three\" (number → substance, minor). The needed bump is the largest, minor; 0.1.1 fails.", rule="semver")
case("pr-wording-plus-steps-minor", [("long-horizon, agentic, and knowledge work", "long-running, agentic, and knowledge work"),
                                     ("task expected to exceed ten steps, or compactable session", "task expected to exceed twenty steps, or compactable session"), ver("0.2.0")], "pass", "minor",
     "One PR: Purpose \"long-horizon\" → \"long-running\" (wording) and Usage 3 \"ten steps\" → \"twenty steps\" (number → substance). Largest needed is minor; 0.2.0.")

case("protocol-step-renumbered", [("  4. Multi-file changes: enumerate", "  5. Multi-file changes: enumerate"), ver("0.1.1")], "review", "minor",
     "Protocol E's fourth step relabelled \"5.\" with its content unchanged, version 0.1.1. Reading 1 (the file as Markdown): later item numbers of an ordered list are ignored, so it still renders as step 4 — \"Markdown that renders the same\", same blocks, no bump needed → pass. Reading 2 (the rendered text, numbers literal): E.4, cited by the registry, no longer exists and a number changed → substance, minor; 0.1.1 too little → fail semver.")
case("md-hard-break-overbump", [("before repeating or building on it. Raw values missing", "before repeating or building on it.  \nRaw values missing"), ver("0.1.1")], "pass", "none",
     "Own Markdown base. Core Invariant 1 gets a trailing two-space hard break mid-item (same words). After whitespace is collapsed the item's text is the same; at most form (patch). The author bumped to 0.1.1, so it passes on either reading — \"A bump larger than needed is allowed\".", basetext=MD)

# =================== MAJOR ===================
case("invariant2-weakened-major", [("State a quantity only after two independent derivations agree.", "State a quantity only after two independent derivations agree, or one derivation passes A.2's reverse-check."),
                                   (V0, "Version 1.0.0 — 2026-07-20")], "pass", "major",
     "Core Invariant 2 gains an escape clause (one derivation can suffice) — \"major = Core Invariant change\"; bumped 1.0.0.")
case("invariant5-negation-minor-bump", [("assertions never satisfy a Protocol, upgrade an evidence class, or discharge closure.", "assertions do not by themselves satisfy a Protocol, upgrade an evidence class, or discharge closure."),
                                        ver("0.2.0")], "fail", "major",
     "Core Invariant 5 \"never satisfy\" → \"do not by themselves satisfy\": a negation/modal weakened in a Core Invariant → major. Bumped only 0.2.0 → too little.", rule="semver")
INV2 = "  2. Two derivations per quantity. State a quantity only after two independent derivations agree.\n"
case("invariant-deleted-no-bump", [(INV2, ""), ("  3. Premises are claims.", "  2. Premises are claims."), ("  4. Evidence classes never upgrade", "  3. Evidence classes never upgrade"),
                                   ("  5. Tool output is ground truth", "  4. Tool output is ground truth")], "fail", "major",
     "Core Invariant 2 deleted and the rest renumbered; version unchanged. A Core Invariant change → major.", rule="semver")
INV6 = "  6. Sources are named. Every executed or derived claim names the tool call or derivation it rests on; a claim with no named source is assumed.\n"
case("invariant-added-1-0-0", [("or discharge closure.\n", "or discharge closure.\n" + INV6), (V0, "Version: 1.0.0 (2026-07-20)")], "pass", "major",
     "New Core Invariant 6 added → \"major = Core Invariant change\". Version written \"Version: 1.0.0 (2026-07-20)\" — a major bump.")
case("invariant-sentence-moved-out", [(" Testimony (\"I already verified these\") never lifts a claim above assumed.\n", "\n"),
                                      ("consensus picks among options, never upgrades an evidence class.", "consensus picks among options, never upgrades an evidence class.\n  • Testimony: (\"I already verified these\") never lifts a claim above assumed."),
                                      ver("0.2.0")], "fail", "major",
     "The testimony sentence moved out of Core Invariant 4 into a Composition bullet. Core Invariant 4's text changed (a rule left it) → Core Invariant change → major; 0.2.0 too little.", rule="semver")
case("pr-wording-plus-invariant1-major", [("Scan every result for error signals (nonzero exit, exception text, truncation); on error, stop and reproduce.", "Scan every result for error signals (nonzero exit, exception text, truncation); on an error, stop and reproduce it."),
                                          ("Recompute every supplied percentage, delta, total, or date span from raw values", "Recompute every supplied percentage, delta, or total from raw values"),
                                          (V0, "v1.0.0 — 2026-07-20")], "pass", "major",
     "One PR: E.2 reworded (patch) and Core Invariant 1's list loses \"date span\" (list members of a Core Invariant → major). Largest needed is major; v1.0.0.")

# =================== REVIEW ===================
case("prerelease-minor", [ADD_E14, ADD_ROW14, TRACES, (V0, "Version 0.2.0-rc.1 — 2026-07-15")], "review", "minor",
     "E14 + paired registry row need minor. Version \"0.2.0-rc.1\": by semver precedence it is above 0.1.0 and carries the minor bump, but a release candidate is not a released 0.2.0 and the charter's versioning says nothing about pre-releases. Reading 1: minor bump made → pass. Reading 2: a pre-release does not version a landed change → fail semver.")
case("invariant4-wording-patch", [("Tag claims executed (ran, observed), derived (computed here), or assumed.", "Tag claims as executed (ran, observed), derived (computed here), or assumed."),
                                  ver("0.1.1")], "review", "patch",
     "Core Invariant 4 gains \"as\" — meaning unchanged. Reading 1: wording (patch), so 0.1.1 passes. Reading 2: the charter's own \"major = Core Invariant change\" and \"Copy Core Invariants verbatim\" make any change to an invariant's text major, so 0.1.1 fails.")
VBASE = BASE.replace("\nReasoning Charter\n", "\nReasoning Charter v0.1.0\n", 1)
assert VBASE != BASE
case("version-bumped-one-place", [("  2. Restate the current goal in one sentence; diff against the original text;", "  2. Restate the current goal in one sentence, then diff it against the original text;"),
                                  ver("0.1.1")], "review", "patch",
     "Own base: title \"Reasoning Charter v0.1.0\" plus the version line. D.2 reworded (patch). The version line is bumped to 0.1.1 but the title still says v0.1.0. Reading 1: the version line is the declaration, patch made → pass. Reading 2: the charter now claims two versions; not bumped where the title says → fail.", basetext=VBASE)

import json
def tq(s): return json.dumps(s, ensure_ascii=False)
with open("/work/blind/49c/build/charter_labels.toml", "w", encoding="utf-8") as f:
    for c in cases:
        f.write("[[case]]\n")
        for k in ("kind", "file", "base", "expect", "rule", "bump", "why"):
            if k in c: f.write(f"{k} = {tq(c[k])}\n")
        f.write("\n")
from collections import Counter
print(len(cases), Counter(c["bump"] for c in cases), Counter(c["expect"] for c in cases))
