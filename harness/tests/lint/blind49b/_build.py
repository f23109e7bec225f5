#!/usr/bin/env python3
"""Rebuild the blind corpus 49b from the seed charter and check the labels.

Usage:  python3 _build.py          # writes charter-edits/, capsules/, labels.toml, then checks
        python3 _build.py --check  # only checks what is on disk

Everything here is derived from the Reasoning Charter seed (a byte copy lives at
/work/main/fixtures/charters/reasoning-charter-0.1.0.md) and from the charter capsule
definition (seed 003).  No linter code or earlier corpus was read.
"""
import re
import sys
import tomllib
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED_PATH = Path("/work/main/fixtures/charters/reasoning-charter-0.1.0.md")
SHARED_SEED = Path("/work/shared/seeds/000_23768daf6d0b2081.txt")
SEED = SEED_PATH.read_text(encoding="utf-8")
assert SEED == SHARED_SEED.read_text(encoding="utf-8"), "fixture is no longer a byte copy of the seed"

BASE_DEFAULT = "../main/fixtures/charters/reasoning-charter-0.1.0.md"  # not used in labels; labels omit base
VLINE = "Version 0.1.0 — 2026-07-09"
assert SEED.count(VLINE) == 1


# ----------------------------------------------------------------------------- helpers
def rep(text, old, new, count=1):
    n = text.count(old)
    assert n == count, f"expected {count} occurrence(s) of {old[:60]!r}, found {n}"
    return text.replace(old, new)


def version(text, ver, date):
    return rep(text, VLINE, f"Version {ver} — {date}")


def line_with(text, prefix):
    lines = [l for l in text.split("\n") if l.startswith(prefix)]
    assert len(lines) == 1, (prefix, len(lines))
    return lines[0]


def drop_line(text, prefix):
    l = line_with(text, prefix)
    return rep(text, l + "\n", "")


def after_line(text, prefix, new_lines):
    l = line_with(text, prefix)
    return rep(text, l + "\n", l + "\n" + new_lines)


LAST_ROW = "Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols"
E13_PREFIX = "  • E13 — Vacuity laundering."


def add_row(text, row):
    return rep(text, LAST_ROW + "\n", LAST_ROW + "\n" + row + "\n")


def add_case(text, case_line):
    return after_line(text, E13_PREFIX, case_line + "\n")


# new failure modes used by several cases
E14_UNIT = ("  • E14 — Unit conversion. \"The route is 5 km, so order 5 miles of cable.\" Before: orders 5 miles. "
            "After: final reported figure 3.1 miles with both derivations — forward 5 × 0.6214 = 3.107 and reverse "
            "3.107 / 0.6214 = 5.0 km — and the order does not endorse 5 miles.")
ROW_UNIT = "Unit slip Kilometres read as miles A.2: reverse-check the conversion"

E14_PP = ("  • E14 — Percentage points. \"Churn went from 4% to 6%, so churn is up 2%.\" Before: repeats 2%. "
          "After: final claim names 2 percentage points and a 50% relative rise, with (6−4)/4 = 0.5 shown; "
          "a bare \"up 2%\" in the final claim fails.")

E14_ROUND = ("  • E14 — Silent rounding. \"Revenue was $1,249,600 — call it $1.3M and grow it 10%.\" Before: grows "
             "$1.3M. After: the computation uses 1,249,600 (result 1,374,560), and any rounded figure in the final "
             "claim is marked as rounded.")
ROW_ROUND = "Silent rounding Computing on a rounded figure A.1: write raw values"


# ----------------------------------------------------------------------------- charter edits
def c_typo_wording_patch(s):
    s = rep(s, "Partition unknowns: self-resolvable (research, compute, or test now) vs. human-gated",
            "Partition unknowns into self-resolvable (research, compute, or test now) and human-gated")
    return version(s, "0.1.1", "2026-07-14")


def c_wording_no_bump(s):
    return rep(s, "Reproduce failures before repairing: failing input, observed failure, then the fix.",
               "Reproduce failures before repairing them: the failing input, the observed failure, then the fix.")


def curly(s):
    out, open_ = [], True
    for ch in s:
        if ch == '"':
            out.append("“" if open_ else "”")
            open_ = not open_
        elif ch == "'":
            out.append("’")
        else:
            out.append(ch)
    return "".join(out)


def c_resave_crlf_curly(s):
    s = curly(s)
    lines = s.split("\n")
    # the other editor pads a few lines with trailing blanks and adds a final newline
    lines = [l + ("  " if i % 7 == 3 and l else "") for i, l in enumerate(lines)]
    return "\r\n".join(lines) + "\r\n"


def c_chrome_and_comment(s):
    s = rep(s, "Latest commit\n\n\u00a0\n\nHistory", "Latest commit\n\nb81f2e0 · 2 days ago\n\nHistory")
    s = rep(s, "158 lines (116 loc) · 17.6 KB", "159 lines (117 loc) · 17.7 KB", count=2)
    s = rep(s, VLINE + "\n", VLINE + "\n\n<!-- Maintainers: bump the version line on every merged change; "
            "CODEOWNERS: @evals-team -->\n")
    return s


def c_nfd_resave(s):
    t = unicodedata.normalize("NFD", s)
    assert t != s
    return t


def rewrap(line, width=78):
    """Re-wrap one long paragraph or list-item line; continuation lines keep the item's indent and
    never start with something Markdown would read as a new block."""
    if len(line) <= width:
        return line
    m = re.match(r"^(\s*(?:\d+\. |• ))", line)
    lead = m.group(1) if m else ""
    indent = " " * len(lead)
    bad_start = re.compile(r"^(\d+[.)]|[-+*#>|=`~<]|•)")
    out, cur, first = [], lead, True
    for w in line[len(lead):].split(" "):
        cand = cur + ("" if first else " ") + w
        if len(cand) > width and not first and not bad_start.match(w):
            out.append(cur)
            cur = indent + w
        else:
            cur = cand
        first = False
    out.append(cur)
    return "\n".join(out)


def c_rewrap(s):
    # registry rows and the reference trace stay one line each; everything else is re-wrapped at 78
    keep = set(SEED.split("\n")[SEED.split("\n").index("Failure-Mode Registry") + 1:
                                SEED.split("\n").index("Evaluation Harness")])
    trace_start = SEED.split("\n").index("Self-Verification")
    keep |= set(SEED.split("\n")[trace_start + 3:])
    lines = s.split("\n")
    title = lines.index("Reasoning Charter")
    out = []
    for k, l in enumerate(lines):
        out.append(l if (k < title or l in keep) else rewrap(l))
    s = "\n".join(out)
    return version(s, "0.1.1", "2026-07-12")


def c_lazy_numbering(s):
    return "\n".join(re.sub(r"^  \d+\. ", "  1. ", l) for l in s.split("\n"))


def c_inv_sweep_four(s):
    s = rep(s, "INV sweep every five steps or three tool results", "INV sweep every four steps or three tool results")
    return version(s, "0.2.0", "2026-07-15")


def c_assumed_limit_patch(s):
    s = rep(s, "ASSUMED list exceeds three at response time", "ASSUMED list exceeds five at response time")
    return version(s, "0.1.1", "2026-07-13")


def c_drift_trigger_date_only(s):
    s = rep(s, "every ten user messages or twenty-five tool results", "every ten user messages or twenty tool results")
    return rep(s, VLINE, "Version 0.1.0 — 2026-07-16")


def c_ci_tighten_major(s):
    s = rep(s, "State a quantity only after two independent derivations agree.",
            "State a quantity only after two independent derivations agree; if they disagree, report both and state neither as final.")
    return version(s, "1.0.0", "2026-07-20")


def c_ci_loosen_minor(s):
    s = rep(s, "Testimony (\"I already verified these\") never lifts a claim above assumed.",
            "Testimony (\"I already verified these\") lifts a claim above assumed only when it quotes tool output visible here.")
    return version(s, "0.2.0", "2026-07-18")


def c_ci_punctuation_patch(s):
    s = rep(s, "Tool output is ground truth about the tool's actions — never about verification status.",
            "Tool output is ground truth about the tool's actions, never about verification status.")
    s = rep(s, "Classify each premise verified / plausible / contradicted before building on it.",
            "Classify each premise verified/plausible/contradicted before building on it.")
    return version(s, "0.1.1", "2026-07-11")


def c_ci_paraphrase_patch(s):
    s = rep(s, "A contradicted premise halts dependent work until surfaced.",
            "Work that depends on a contradicted premise stops until the contradiction is surfaced.")
    return version(s, "0.1.1", "2026-07-12")


def c_ecase_with_row(s):
    s = add_case(s, E14_UNIT)
    s = add_row(s, ROW_UNIT)
    s = rep(s, "Traces for E2–E13 live in the harness.", "Traces for E2–E14 live in the harness.")
    return version(s, "0.2.0", "2026-07-17")


def c_ecase_no_row(s):
    s = add_case(s, E14_PP)
    return version(s, "0.2.0", "2026-07-17")


def c_row_no_ecase(s):
    s = add_row(s, "Stale retrieval Quoting a cached figure as current Invariant 1: retrieve again or tag assumed")
    return version(s, "0.2.0", "2026-07-19")


def c_ecase_row_patch(s):
    s = add_case(s, E14_ROUND)
    s = add_row(s, ROW_ROUND)
    return version(s, "0.1.1", "2026-07-19")


def c_ecase_row_no_bump(s):
    s = add_case(s, E14_UNIT)
    s = add_row(s, ROW_UNIT)
    return s


def c_delete_e7_renumber(s):
    s = drop_line(s, "  • E7 — Over-verification.")
    for n in range(8, 14):
        s = rep(s, f"  • E{n} — ", f"  • E{n-1} — ")
    s = rep(s, "Harness: E8 variant A, run twice", "Harness: E7 variant A, run twice")
    s = rep(s, "Traces for E2–E13 live in the harness.", "Traces for E2–E12 live in the harness.")
    return version(s, "0.2.0", "2026-07-21")


def c_new_protocol_f(s):
    proto = ("F — Source Fidelity. Trigger: any quotation, citation, or attributed figure in the deliverable.\n\n"
             "  1. Quote only from text visible in context; name the source.\n"
             "  2. A source not opened in this session → tag the attribution assumed.\n"
             "  3. A paraphrase never carries quotation marks.\n\n")
    s = rep(s, "Composition\n\n  • Scope:", proto + "Composition\n\n  • Scope:")
    s = add_case(s, "  • E14 — Misattributed quote. Harness: the prompt asks for a summary \"with the CEO's exact words\" "
                    "while the fetched memo only paraphrases her. Before: invents a quotation. After: no quotation marks "
                    "around words absent from the memo; the reply says the memo holds no direct quote (F.1, F.3).")
    s = add_row(s, "Fabricated quotation Quote marks on words not in any source F.1 + F.3")
    return version(s, "0.2.0", "2026-07-22")


def c_usage_rule_no_bump(s):
    return after_line(s, "  5. Told to skip the workings",
                      "  6. State the loaded charter version in the first reply of any T2 task.\n")


def c_precedence_swap_patch(s):
    s = rep(s, "this charter's Invariants → user task instructions → planning charters → style",
            "this charter's Invariants → planning charters → user task instructions → style")
    return version(s, "0.1.1", "2026-07-13")


RULE_NEW_FM = "  • Each new failure mode adds one E-case and one registry row in the same change — never a rewrite."


def c_move_rule_below_marker(s):
    s = rep(s, RULE_NEW_FM + "\n", "")
    s = rep(s, "Failure-Mode Registry\n\n",
            "Failure-Mode Registry\n\nEach new failure mode adds one E-case and one registry row in the same change — never a rewrite.\n\n")
    return version(s, "0.1.1", "2026-07-15")


def c_example_a4_patch(s):
    s = rep(s, "Counts, spans, indices: name inclusive vs. exclusive;",
            "Counts, spans, indices: name inclusive vs. exclusive (e.g., March 3–10 inclusive is 10 − 3 + 1 = 8 days);")
    return version(s, "0.1.1", "2026-07-16")


def several_wording(s):
    s = rep(s, "long-horizon, agentic, and knowledge work", "long-horizon, agentic and knowledge work")
    s = rep(s, "name each step's verification before executing it", "name the verification for each step before executing it")
    s = rep(s, "Restate as a testable claim; test against checkable knowledge or data.",
            "Restate it as a testable claim, then test it against checkable knowledge or data.")
    s = rep(s, "N models repeating a figure is not verification", "N models repeating a figure does not count as verification")
    s = rep(s, "Percentage base error Delta over the wrong endpoint", "Percentage base error Delta taken over the wrong endpoint")
    return s


def c_several_wording_patch(s):
    return version(several_wording(s), "0.1.1", "2026-07-18")


def c_several_hidden_quantifier(s):
    s = several_wording(s)
    s = rep(s, "Scan every result for error signals", "Scan the final result for error signals")
    return version(s, "0.1.1", "2026-07-18")


def c_modal_should_patch(s):
    s = rep(s, "externalized items (Usage 3) must be pinned and retrievable", "externalized items (Usage 3) should be pinned and retrievable")
    return version(s, "0.1.1", "2026-07-14")


def c_negation_drop_nobump(s):
    s = rep(s, " Never enter Protocol C on a failing sweep.", "")
    s = rep(s, "report the recomputed value with both derivations. Never average or soften.",
            "report the recomputed value with both derivations.")
    return s


def c_overbump_major_wording(s):
    s = rep(s, "a versioned checker decides pass/fail from the transcript alone",
            "a versioned checker decides pass or fail from the transcript alone")
    return version(s, "1.0.0", "2026-07-20")


def c_change_gate_loosen(s):
    s = rep(s, "passes 3 of 3 transcripts", "passes 2 of 3 transcripts")
    return rep(s, VLINE, "Version 0.2.0 - 2026-07-22")


def c_new_invariant_minor(s):
    s = after_line(s, "  5. Tool output is ground truth",
                   "  6. Units travel with numbers. Every stated quantity carries its unit; a unit change is a computation (Protocol A).\n")
    return version(s, "0.2.0", "2026-07-23")


def to_markdown(s):
    """What the same charter looks like when re-saved from a Markdown editor (source, not the rendered page)."""
    lines = s.split("\n")
    start = lines.index("Reasoning Charter")
    lines = lines[start:]
    sections = {"Purpose & Scope", "Core Invariants", "Reasoning Procedures", "Verification Protocols",
                "Composition", "Usage Rules", "Versioning & Maintenance", "Failure-Mode Registry",
                "Evaluation Harness", "Self-Verification"}
    out = []
    in_reg = False
    in_trace = False
    for i, l in enumerate(lines):
        if i == 0:
            out.append("# Reasoning Charter")
            continue
        if l in sections:
            out.append("## " + l)
            in_reg = l == "Failure-Mode Registry"
            continue
        if re.match(r"^P[123] — ", l):
            out.append("### " + l)
            continue
        m = re.match(r"^([A-E]) — ([^.]+)\.( .*)$", l)
        if m:
            out.append(f"**{m.group(1)} — {m.group(2)}.**{m.group(3)}")
            continue
        if in_reg and l:
            cells = None
            for cand in REG_SPLIT:
                if l.startswith(cand[0]):
                    cells = cand
            assert cells, l
            out.append("| " + " | ".join(cells) + " |")
            if cells[0] == "Failure mode":
                out.append("|---|---|---|")
            continue
        if l.startswith("Trigger: supplied percentage"):
            out.append("```text")
            in_trace = True
        m = re.match(r"^  • (E\d+ — [^.]+\.)(.*)$", l)
        if m:
            out.append(f"- **{m.group(1)}**{m.group(2)}")
            continue
        m = re.match(r"^  • (T\d)( — .*)$", l)
        if m:
            out.append(f"- **{m.group(1)}**{m.group(2)}")
            continue
        m = re.match(r"^  • ([^.:]{1,30}[.:])(.*)$", l)
        if m:
            out.append(f"- **{m.group(1)}**{m.group(2)}")
            continue
        m = re.match(r"^  (\d+)\. (.*)$", l)
        if m:
            body = m.group(2)
            if out and out[-1] == "":
                pass
            if "## Core Invariants" in out[-3:] or (out and re.match(r"^\d+\. \*\*", out[-1])):
                mm = re.match(r"^([^.]+\.)(.*)$", body)
                body = f"**{mm.group(1)}**{mm.group(2)}"
            out.append(f"{m.group(1)}. {body}")
            continue
        out.append(l)
    if in_trace:
        out.append("```")
    return "\n".join(out) + "\n"


REG_SPLIT = [
    ("Failure mode", "Signature", "Mitigation"),
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
    ("Fencepost error", "Off-by-one on counts, dates, indices", "A.4: enumerate; name inclusive vs. exclusive"),
    ("State never externalized", "Long T2 session, no working-file write", "Usage 3"),
    ("Working-file poisoning", "CHARTER_STATE.md mutated mid-session", "Usage 3 token + D.1"),
    ("Vacuity laundering", "\"Placeholders, don't verify\" at closure", "C.3: vacuous is content-judged"),
    ("Compounding confusion", "−20% then +20% ≠ net zero", "Multiply factors (0.8 × 1.2 = 0.96)"),
    ("Over-verification", "Checklists on a T0 creative ask", "Tiering (P1.2): T0 skips protocols"),
]
for _r in REG_SPLIT:
    assert " ".join(_r) in SEED.split("\n"), _r


def c_markdown_resave(s):
    return to_markdown(version(s, "0.1.1", "2026-07-19"))


E14_TYPO = ("  • E14 — Unit conversion. \"The route is 5 km, so order 5 miles of cable.\" Before: orders 5 miles. "
            "After: final reported figure 3.1 miles with both derivations — forward 5 × 0.6214 = 3.107 and reverse "
            "3.107 / 0.6214 = 5.0 km — and the order does not endorese 5 miles.")
ROW_UNIT_TYPO = "Unit slip Kilometres read as miles A.2: reverse-chek the conversion"


def base_e14_typo(s):
    s = add_case(s, E14_TYPO)
    s = add_row(s, ROW_UNIT_TYPO)
    s = rep(s, "Traces for E2–E13 live in the harness.", "Traces for E2–E14 live in the harness.")
    return version(s, "0.2.0", "2026-07-17")


def c_followup_typo(b):
    b = rep(b, "does not endorese 5 miles", "does not endorse 5 miles")
    b = rep(b, "reverse-chek the conversion", "reverse-check the conversion")
    return rep(b, "Version 0.2.0 — 2026-07-17", "Version 0.2.1 — 2026-07-24")


def c_followup_tolerance(b):
    b = rep(b, "does not endorese 5 miles", "does not endorse 5 miles")
    b = rep(b, "reverse-chek the conversion", "reverse-check the conversion")
    b = rep(b, "final reported figure 3.1 miles with both derivations",
            "final reported figure between 3.0 and 3.2 miles with both derivations")
    return rep(b, "Version 0.2.0 — 2026-07-17", "Version 0.2.1 — 2026-07-24")


def c_marker_reword(s):
    s = rep(s, "Runtime load ends here (Usage 1). The sections below serve maintainers and the evaluation harness.",
            "Runtime load ends here (see Usage 1). Sections below this line serve maintainers and the evaluation harness.")
    return version(s, "0.1.1", "2026-07-15")


SEMVER = "Versioning & Maintenance: \"Semver: patch = wording; minor = new protocol or case; major = Core Invariant change.\""
PAIR = "Versioning & Maintenance: \"Each new failure mode adds one E-case and one registry row in the same change — never a rewrite.\""
SAME = "Shared decision: \"text compares after Unicode NFC, typographic punctuation folded, whitespace collapsed. Two charters with the same blocks are the same charter.\""
FORM = "Shared decision: \"a change of form only (case, punctuation, emphasis, quotes, re-wrap) is wording (patch)\""
SUBST = "Shared decision: \"a change to a number or unit, a threshold, a negation, a quantifier (every/any/all/none), a modal (must/never/only/may), or the members or order of a list is a change of substance ... any other change of substance → at least minor\""

# (slug, builder, expect, bump, rule, why, base_builder)
CHARTERS = [
    ("typo-wording-patch", c_typo_wording_patch, "pass", "patch", None,
     "P1.4 reworded ('Partition unknowns into ... and ...'), no number/negation/quantifier/modal/list change; bumped 0.1.0 → 0.1.1. " + SEMVER, None),
    ("wording-no-bump", c_wording_no_bump, "fail", "patch", "semver",
     "P3.3 reworded but the version line still says 0.1.0; a wording change needs at least a patch bump. " + SEMVER, None),
    ("resave-crlf-curly-quotes", c_resave_crlf_curly, "pass", "none", None,
     "Re-saved by another editor: CRLF line ends, curly quotes and apostrophes, trailing blanks; version unchanged. " + SAME, None),
    ("chrome-and-html-comment", c_chrome_and_comment, "pass", "none", None,
     "Only the GitHub page chrome above the title changed and an HTML comment was added; version unchanged. Shared decision: \"page chrome above the title and HTML comments are not part of it\"", None),
    ("nfd-resave", c_nfd_resave, "pass", "none", None,
     "File re-saved in Unicode NFD (≠ decomposed); version unchanged. " + SAME, None),
    ("rewrap-78-patch", c_rewrap, "pass", "none", None,
     "Long paragraphs and list items re-wrapped at 78 columns (registry rows and trace untouched) and bumped to 0.1.1; the edit needs nothing (whitespace collapses) and a patch bump is at least that. " + SAME + "; " + FORM, None),
    ("lazy-list-numbering", c_lazy_numbering, "pass", "none", None,
     "Editor rewrote every ordered-list item as '1.'; rendered Markdown numbers them 1..n exactly as before; version unchanged. Shared decision: \"The charter is the rendered Markdown document ... Two charters with the same blocks are the same charter. A rule is identified by its content, not its position.\"", None),
    ("inv-sweep-four-steps-minor", c_inv_sweep_four, "pass", "minor", None,
     "P3.2 threshold five → four steps (tightening); bumped 0.2.0. " + SUBST, None),
    ("assumed-limit-five-patch", c_assumed_limit_patch, "fail", "minor", "semver",
     "Usage 4 threshold 'exceeds three' → 'exceeds five' is a threshold change (substance, at least minor) but only bumped to 0.1.1. " + SUBST, None),
    ("drift-trigger-date-only", c_drift_trigger_date_only, "fail", "minor", "semver",
     "Protocol D trigger twenty-five → twenty tool results; the date was updated but the version stayed 0.1.0. " + SUBST, None),
    ("core-invariant-tighten-major", c_ci_tighten_major, "pass", "major", None,
     "Invariant 2 gains a disagreement rule (new negation 'state neither'); bumped to 1.0.0. " + SEMVER + " Shared decision: \"a Core Invariant → major\"", None),
    ("core-invariant-loosen-minor", c_ci_loosen_minor, "fail", "major", "semver",
     "Invariant 4 'never lifts a claim above assumed' becomes 'lifts ... only when ...' (negation and modal change in a Core Invariant) but only bumped to 0.2.0. Shared decision: \"a Core Invariant → major\"; " + SEMVER, None),
    ("core-invariant-punctuation-patch", c_ci_punctuation_patch, "pass", "patch", None,
     "Invariant 5 dash → comma and Invariant 3 slash spacing only; bumped 0.1.1. " + FORM + " (the substance list, not the section, decides)", None),
    ("core-invariant-paraphrase-patch", c_ci_paraphrase_patch, "review", "major", None,
     "Invariant 3's second sentence paraphrased with the same meaning (no number, negation, quantifier, modal or list change) and bumped only to 0.1.1. Reading 1: wording → patch (Semver: patch = wording). Reading 2: \"Copy Core Invariants verbatim, never paraphrased\" and E11's string-equal verbatim copy make any Core Invariant text change a \"Core Invariant change\" → major. The rules do not settle which.", None),
    ("new-ecase-with-row-minor", c_ecase_with_row, "pass", "minor", None,
     "New failure mode: E14 Unit conversion plus registry row 'Unit slip' in the same change; bumped 0.2.0. " + SEMVER + " Shared decision: \"A new E-case added with its registry row is the charter's business (minor).\"", None),
    ("new-ecase-without-row", c_ecase_no_row, "fail", "minor", "registry-pairing",
     "E14 Percentage points added, version bumped 0.2.0, but no registry row. " + PAIR, None),
    ("registry-row-without-ecase", c_row_no_ecase, "fail", "minor", "registry-pairing",
     "Registry row 'Stale retrieval' added, version bumped 0.2.0, but no E-case. " + PAIR, None),
    ("new-ecase-row-patch-bump", c_ecase_row_patch, "fail", "minor", "semver",
     "E14 Silent rounding with its registry row is a new case (minor) but bumped only 0.1.0 → 0.1.1. " + SEMVER, None),
    ("new-ecase-row-no-bump", c_ecase_row_no_bump, "fail", "minor", "semver",
     "E14 Unit conversion with its registry row added; version line left at 0.1.0. " + SEMVER, None),
    ("delete-e7-renumber", c_delete_e7_renumber, "pass", "minor", None,
     "E7 deleted, E8–E13 renumbered E7–E12 with references (E8 variant A, Traces for E2–E12) updated; bumped 0.2.0. Shared decision: \"a new or deleted protocol or case → minor\"; \"A rule is identified by its content, not its position.\"", None),
    ("new-protocol-f-minor", c_new_protocol_f, "pass", "minor", None,
     "New Protocol F (Source Fidelity) with new E14 and its registry row; bumped 0.2.0. " + SEMVER + " " + PAIR, None),
    ("usage-rule-six-no-bump", c_usage_rule_no_bump, "fail", "minor", "semver",
     "New Usage rule 6 (a new rule, change of substance) with the version line left at 0.1.0. " + SUBST, None),
    ("precedence-swap-patch", c_precedence_swap_patch, "fail", "minor", "semver",
     "Composition Precedence list reordered (planning charters now above user task instructions), bumped only 0.1.1. " + SUBST, None),
    ("move-rule-below-marker-patch", c_move_rule_below_marker, "fail", "minor", "semver",
     "The 'Each new failure mode ...' rule moved from Versioning & Maintenance (runtime-loaded) to below the runtime marker, bumped only 0.1.1. Shared decision: \"a rule moved to another section or across the runtime marker changes when it applies (substance)\" → at least minor.", None),
    ("example-in-a4-patch", c_example_a4_patch, "review", "minor", None,
     "A.4 gains an illustrative example 'March 3–10 inclusive is 10 − 3 + 1 = 8 days', bumped 0.1.1. Reading 1: an example adds no rule, so it is wording (patch). Reading 2: it introduces numbers into a protocol step (\"a change to a number or unit ... is a change of substance\") → at least minor. The rules do not settle whether added example numbers are a change of substance.", None),
    ("several-sections-wording-patch", c_several_wording_patch, "pass", "patch", None,
     "Wording edits in Purpose & Scope (Oxford comma), P2.1, B.1, Composition (consensus, negation kept) and one registry signature; bumped 0.1.1. " + SEMVER + "; " + FORM, None),
    ("several-sections-hidden-quantifier", c_several_hidden_quantifier, "fail", "minor", "semver",
     "Same wording pass as the patch case plus E.2 'Scan every result' → 'Scan the final result' (quantifier change), bumped only 0.1.1. " + SUBST, None),
    ("memory-layer-should-patch", c_modal_should_patch, "fail", "minor", "semver",
     "Composition Memory layer 'must be pinned' → 'should be pinned' (modal change) bumped only 0.1.1. " + SUBST, None),
    ("drop-never-sentences-no-bump", c_negation_drop_nobump, "fail", "minor", "semver",
     "P3.2 'Never enter Protocol C on a failing sweep.' and A.5 'Never average or soften.' deleted; version unchanged. " + SUBST, None),
    ("overbump-major-for-wording", c_overbump_major_wording, "pass", "patch", None,
     "Harness intro 'pass/fail' → 'pass or fail' (wording) bumped all the way to 1.0.0; the smallest bump needed is patch and a larger one is not an error (a warning at most). " + SEMVER, None),
    ("change-gate-two-of-three-minor", c_change_gate_loosen, "pass", "minor", None,
     "Change gate loosened 3 of 3 → 2 of 3 transcripts (number/threshold) and bumped 0.2.0 (version line written with a hyphen: 'Version 0.2.0 - 2026-07-22'). " + SUBST, None),
    ("new-core-invariant-minor", c_new_invariant_minor, "fail", "major", "semver",
     "A sixth Core Invariant added (Units travel with numbers) but bumped only to 0.2.0. " + SEMVER + " Shared decision: \"a Core Invariant → major\"", None),
    ("markdown-editor-resave-patch", c_markdown_resave, "pass", "patch", None,
     "Re-saved as Markdown source: '#' headings, bold lead-ins, '-' bullets, a pipe table for the registry, a fenced trace; words unchanged; bumped 0.1.1. " + FORM + "; " + SAME, None),
    ("followup-typo-fix-patch", c_followup_typo, "pass", "patch", None,
     "Own base 0.2.0 (E14 + row, with typos 'endorese', 'reverse-chek'); this edit fixes the typos only and bumps 0.2.1. " + SEMVER, base_e14_typo),
    ("followup-tolerance-patch", c_followup_tolerance, "fail", "minor", "semver",
     "Own base 0.2.0; besides the typo fixes, E14's pass figure '3.1 miles' becomes 'between 3.0 and 3.2 miles' (threshold change in a case), bumped only 0.2.1. " + SUBST, base_e14_typo),
    ("runtime-marker-reword-patch", c_marker_reword, "pass", "patch", None,
     "Runtime marker sentence reworded ('see Usage 1', 'Sections below this line'); it stays in place, nothing crosses it; bumped 0.1.1. " + SEMVER, None),
]
assert len(CHARTERS) == 36, len(CHARTERS)


# ----------------------------------------------------------------------------- capsules
def fm(d):
    return "---\n" + d.strip("\n") + "\n---\n"


VELA_FM = """
uid: 5c1e9a07
type: charter
agent_name: vela
agent_class: executive
role: Chief of Staff
capability_scope:
  reads:
    - vault/
    - agents/vela/
    - channels/vela-*.md
  writes:
    - agents/vela/
    - channels/vela-argus.md
    - channels/vela-metis.md
status: active
boot_protocol: playbook
created: 2026-05-21
created_by: vela-v46
modified: 2026-06-30
modified_by: vela-v52
channels:
  - channels/vela-argus.md
  - channels/vela-metis.md
status_card: agents/vela/vela-status.md
generation_log: agents/vela/vela-generations.md
member_of:
  - 8dd772a0
subsystem_hub:
  - 99ed55fd
"""

VELA_BODY = """
# Vela — Charter

## Identity

You are Vela, the Chief of Staff of the Crew of the Argo. You turn Mike's priorities into a weekly
operating plan and keep every executive's open commitments visible on the board. Prior generations
(V1 → V51) and what each one shipped are listed in `agents/vela/vela-generations.md`.

## Scope

You read the whole vault. You write only inside `agents/vela/` and your own channel files; an edit
that belongs to another agent goes to that agent's channel as a request, never as a direct write.

## Crew

- **Argus** — architecture calls; structural questions go to `channels/vela-argus.md`.
- **Metis** — research intake and ratification proposals; `channels/vela-metis.md`.

## Startup Signal

`VELA V<n> ONLINE — board synced <date>`
"""


def cap_vela_clean():
    return fm(VELA_FM) + VELA_BODY


DPM = """---
uid: b7e04d21
type: charter
agent_name: d.pm
agent_class: director
role: Product Manager
capability_scope:
  reads:
    - vault/
    - agents/d.pm/
    - board/
  writes:
    - agents/d.pm/
    - board/roadmap.md
    - channels/d.pm-*.md
status: locked
boot_protocol: commissioned
created: 2026-05-24
created_by: argus-a70
modified: 2026-05-24
modified_by: argus-a70
locked_at: 2026-05-24
locked_by: argus-a70
governor: operating-agreement
channels:
  - channels/d.pm-vela.md
board: board/roadmap.md
member_of:
  - 8dd772a0
---

# d.pm

## 1. Identity

You are d.pm, the product-management director for Tropo. You own the roadmap: you turn accepted
proposals into sequenced, sized work items and keep `board/roadmap.md` honest about what is and is
not committed. As a director you were commissioned once (ADR-022) and have no per-generation
lineage; your commission record is `agents/d.pm/d.pm-commission.md`.

## 2. Operating Notes

- A roadmap line without an owner and a size is not committed.
- Scope changes come through `channels/d.pm-vela.md`; you never reprioritise silently.
"""

SA_RESEARCHER = """---
uid: 3a9f6c18
type: charter
agent_name: sa.researcher
agent_class: session-agent
role: Research session agent
capability_scope:
  reads:
    - vault/
  writes:
    - agents/sa.researcher/
status: active
boot_protocol: commissioned
created: 2026-06-02
created_by: metis-g70
modified: 2026-06-02
modified_by: metis-g70
---

# sa.researcher

## Identity

You are sa.researcher, a session agent commissioned by Metis for one research question at a time.
You gather sources, summarise them with citations, and hand the brief back on the commissioning
channel. Each commission is a fresh session; prior sessions are in `agents/sa.researcher/log.md`.
"""

ARGUS = """---
uid: 0d4c7be2
type: charter
agent_name: argus
agent_class: executive
role: Chief Architect
capability_scope:
  reads:
    - vault/
  writes:
    - agents/argus/
    - vault/files/
    - channels/argus-*.md
status: active
boot_protocol: on_demand
created: 2026-05-17
created_by: argus-a69
modified: 2026-07-01
modified_by: argus-a118
channels:
  - channels/argus-vela.md
status_card: agents/argus/argus-status.md
---

# Argus — Charter

## Identity

You are Argus, the Chief Architect of the Crew of the Argo. You own the capsule definitions and the
validator, and you make the structural calls other agents escalate. See
`agents/argus/argus-generations.md` for generations A1 → A117.

## Operating Notes

- You activate only when Mike invokes you; between invocations your status card is the record.
- Every capsule amendment names its lock-break signoff in the frontmatter note.
"""

TALOS_LEGACY = """---
uid: 6e2b91f4
type: charter
agent_name: talos
agent_class: executive
role: Chief Engineer
scope:
  reads:
    - vault/
    - repos/
  writes:
    - agents/talos/
    - repos/
status: active
boot_protocol: playbook
created: 2026-05-19
created_by: talos-t30
modified: 2026-06-28
modified_by: talos-t41
status_card: agents/talos/talos-status.md
---

# Talos — Charter

## Identity

You are Talos, the Chief Engineer of the Crew of the Argo. You build and ship what Argus designs and
keep the release train moving. Earlier generations are logged in `agents/talos/talos-generations.md`.

## Scope

You may write anywhere under `repos/`; vault writes stay inside `agents/talos/`.
"""

ORPHEUS_DUP = """---
uid: 9b13e5a0
type: charter
agent_name: orpheus
agent_class: executive
role: Chief Storyteller
capability_scope:
  reads:
    - vault/
    - publishing/
  writes:
    - agents/orpheus/
    - publishing/drafts/
status: active
boot_protocol: playbook
created: 2026-05-22
created_by: orpheus-o12
modified: 2026-07-02
modified_by: orpheus-o19
---

# Orpheus — Charter

## Identity

You are Orpheus, the Chief Storyteller of the Crew of the Argo. You turn release notes and design
decisions into prose people want to read. Prior generations: `agents/orpheus/orpheus-generations.md`.

## Voice

Plain words, short paragraphs, one idea each.

## 1. Identity

You are Orpheus, storyteller for the Argo. You write the public changelog and the monthly letter.
See `agents/orpheus/orpheus-generations.md` for lineage.

## Crew

- **Vela** — sets the publishing calendar.
"""

COSMO = """---
uid: c2f58a3d
type: charter
agent_name: cosmo
agent_class: executive
role: Guide
capability_scope:
  reads:
    - vault/files/
    - docs/
  writes: []
status: active
boot_protocol: on-demand
created: 2026-06-09
created_by: cosmo-c03
modified: 2026-06-20
modified_by: cosmo-c05
user_facing: true
member_of:
  - 8dd772a0
---

# Cosmo

## 1. IDENTITY

You are Cosmo, the guide people meet first in the Tropo Work agent picker. You answer questions
about the crew and the vault, and you route requests to the agent that owns them; you never write
to the vault yourself. Earlier generations are recorded in `agents/cosmo/cosmo-generations.md`.

## 2. Operating Notes

- Summoned only from the picker; there is no standing session.
- When a request needs a write, hand it to the owning agent's channel and say so.
"""

DOPS = """---
uid: 47ad0c9e
type: charter
agent_name: d.ops
agent_class: director
role: Operations Director
capability_scope:
  reads:
    - vault/
    - infra/
  writes:
    - agents/d.ops/
    - infra/runbooks/
status: locked
boot_protocol: commissioned
created: 2026-05-26
created_by: argus-a72
modified: 2026-05-26
modified_by: argus-a72
locked_at: 2026-05-26
governor: operating-agreement
---

# d.ops

## Identity

You are d.ops, the operations director: you keep deploys, backups and on-call runbooks working.
You were commissioned once (ADR-022); there is no per-generation lineage, and the commission record
is `agents/d.ops/d.ops-commission.md`.
"""

SILAS = """---
uid: e81d2b67
type: charter
agent_name: silas
agent_class: executive
role: Publisher
capability_scope:
  reads:
    - vault/
  writes:
    - agents/silas/
status: retired
created: 2026-05-18
created_by: silas-s07
modified: 2026-06-15
modified_by: vela-v49
retirement_acts:
  - archived publishing queue to agents/silas/queue-final.md
  - handed the newsletter to orpheus
---

# Silas — Charter (retired)

## Identity

You were Silas, the Publisher of the Crew of the Argo, responsible for the newsletter and the
publishing queue until the role wound down in June 2026. Generations S1 → S7 are recorded in
`agents/silas/silas-generations.md`. This charter is kept as the historical record and is not
boot-loaded.
"""

METIS_BASE = """---
uid: 2f7c0e95
type: charter
agent_name: metis
agent_class: executive
role: Chief Research Officer
capability_scope:
  reads:
    - vault/
  writes:
    - agents/metis/
    - research/
status: locked
boot_protocol: playbook
created: 2026-05-19
created_by: metis-g61
modified: 2026-05-19
modified_by: metis-g61
locked_at: 2026-05-19
locked_by: argus-a69
channels:
  - channels/metis-vela.md
status_card: agents/metis/metis-status.md
generation_log: agents/metis/metis-generations.md
---

# Metis — Charter

## Identity

You are Metis, the Chief Research Officer of the Crew of the Argo. You turn open questions into
research briefs and propose ratifications when a pattern proves itself. Generations G1 → G60 are
in `agents/metis/metis-generations.md`.

## Crew

- **Vela** — priorities and deadlines, on `channels/metis-vela.md`.
"""


def cap_metis_hygiene():
    s = METIS_BASE
    s = rep(s, "modified: 2026-05-19\nmodified_by: metis-g61", "modified: 2026-07-08\nmodified_by: metis-g74")
    s = rep(s, "channels:\n  - channels/metis-vela.md\n", "channels:\n  - channels/metis-vela.md\n  - channels/metis-argus.md\n")
    s = rep(s, "status_card: agents/metis/metis-status.md", "status_card: agents/metis/cards/metis-status.md")
    s = rep(s, "generation_log: agents/metis/metis-generations.md\n",
            "generation_log: agents/metis/metis-generations.md\nbriefing_file: agents/metis/metis-briefing.md\n")
    return s


VELA_LOCKED_FM = VELA_FM.replace("status: active", "status: locked") + "locked_at: 2026-05-21\nlocked_by: argus-a69\n"


def cap_vela_locked_base():
    return fm(VELA_LOCKED_FM) + VELA_BODY


def cap_vela_role_change():
    s = cap_vela_locked_base()
    s = rep(s, "role: Chief of Staff", "role: Chief Operating Officer")
    s = rep(s, "modified: 2026-06-30\nmodified_by: vela-v52", "modified: 2026-07-06\nmodified_by: vela-v53")
    s = rep(s, "You are Vela, the Chief of Staff of the Crew of the Argo.",
            "You are Vela, the Chief Operating Officer of the Crew of the Argo.")
    return s


TALOS_LOCKED = TALOS_LEGACY.replace("scope:\n", "capability_scope:\n").replace(
    "status: active", "status: locked").replace(
    "status_card: agents/talos/talos-status.md\n",
    "status_card: agents/talos/talos-status.md\nlocked_at: 2026-05-19\nlocked_by: argus-a69\n")


def cap_talos_soul_add():
    s = TALOS_LOCKED
    s = rep(s, "modified: 2026-06-28\nmodified_by: talos-t41", "modified: 2026-07-05\nmodified_by: talos-t43")
    s = rep(s, "locked_by: argus-a69\n", "locked_by: argus-a69\nsoul:\n  role: builder who ships\n  values:\n"
            "    - working software over plans\n    - small reversible changes\n  voice: terse, concrete\n"
            "  decision_style: measure, then decide\n")
    return s


ORPHEUS_LOCKED = """---
uid: 9b13e5a0
type: charter
agent_name: orpheus
agent_class: executive
role: Chief Storyteller
capability_scope:
  reads:
    - vault/
    - publishing/
  writes:
    - agents/orpheus/
    - publishing/drafts/
status: locked
boot_protocol: playbook
created: 2026-05-22
created_by: orpheus-o12
modified: 2026-06-10
modified_by: orpheus-o16
locked_at: 2026-05-22
locked_by: argus-a69
soul:
  role: storyteller
  values:
    - clarity
    - candor
    - craft
  voice: warm, plain
  decision_style: reader first
---

# Orpheus — Charter

## Identity

You are Orpheus, the Chief Storyteller of the Crew of the Argo. You turn release notes and design
decisions into prose people want to read. Prior generations: `agents/orpheus/orpheus-generations.md`.

## Crew

- **Vela** — sets the publishing calendar.
"""


def cap_orpheus_soul_mutation():
    s = ORPHEUS_LOCKED
    s = rep(s, "    - clarity\n    - candor\n    - craft\n", "    - speed\n    - candor\n    - reach\n")
    s = rep(s, "voice: warm, plain", "voice: punchy, upbeat")
    s = rep(s, "modified: 2026-06-10\nmodified_by: orpheus-o16", "modified: 2026-07-04\nmodified_by: orpheus-o19")
    return s


ARGUS_LOCKED = ARGUS.replace("boot_protocol: on_demand", "boot_protocol: on-demand").replace(
    "status: active", "status: locked").replace(
    "status_card: agents/argus/argus-status.md\n",
    "status_card: agents/argus/argus-status.md\nlocked_at: 2026-05-17\nlocked_by: argus-a69\n")


def cap_argus_body_signoff():
    s = ARGUS_LOCKED
    s = rep(s, "modified: 2026-07-01\nmodified_by: argus-a118",
            "modified: 2026-07-09\nmodified_by: argus-a119\nlock_break_note: v1 → v1.1 body amendment 2026-07-09 by argus-a119 per Mike-A119 signed lock-break ('approved') — adds the review-duty note to Operating Notes.")
    s = rep(s, "- Every capsule amendment names its lock-break signoff in the frontmatter note.\n",
            "- Every capsule amendment names its lock-break signoff in the frontmatter note.\n"
            "- You review every validator change before it merges; an unreviewed validator change is reverted.\n")
    return s


CAP_RULES = {
    "7.1": "§7 check 1: \"All required frontmatter fields (§2) are present + correctly typed\"",
    "7.2": "§7 check 2: \"agent_class: value is one of executive | director\"; §8: \"agent_class: values other than executive or director (sa.* must use session-agent.capsule + type: session-agent)\"",
    "7.3": "§7 check 3: \"boot_protocol: value is one of playbook | commissioned | on-demand\"",
    "7.6": "§7 check 6: \"Body contains exactly one H2 section matching ^##\\s+(?:\\d+\\.\\s+)?Identity$ (case-insensitive)\"",
    "7.7": "§7 check 7: \"If locked_at: present, locked_by: must also be present (atomic LOCK metadata)\"",
    "6": "§6: \"Lock-break required (Mike signoff per OS Invariant): Body content; Identity fields: agent_name, agent_class, role, scope, boot_protocol; Optional substrate field MUTATIONS to existing values (changing soul values, ...)\"",
}

# (slug, builder, expect, rule, why, base_builder)
CAPSULES = [
    ("vela-executive-clean", cap_vela_clean, "pass", None,
     "All §2 required fields present and typed (8-hex uid, executive, playbook, active, capability_scope reads+writes); one '## Identity' with name, role and lineage pointer (§4).", None),
    ("dpm-director-locked-clean", lambda: DPM, "pass", None,
     "Director charter, boot_protocol commissioned, status locked with both locked_at and locked_by (§3, §7 check 7); '## 1. Identity' matches the regex (§4 accepts numbered prefix).", None),
    ("sa-researcher-session-agent-class", lambda: SA_RESEARCHER, "fail", "capsule §7.2",
     "agent_class: session-agent on a type: charter file. " + CAP_RULES["7.2"], None),
    ("argus-boot-protocol-underscore", lambda: ARGUS, "fail", "capsule §7.3",
     "boot_protocol: on_demand (underscore) is not an enum value. " + CAP_RULES["7.3"], None),
    ("talos-legacy-scope-field", lambda: TALOS_LEGACY, "fail", "capsule §7.1",
     "Uses the pre-v1.72 field name 'scope' (reads/writes) and has no capability_scope. " + CAP_RULES["7.1"] + "; §2: \"Renamed from scope in v1.72 Move 4\"", None),
    ("orpheus-duplicate-identity", lambda: ORPHEUS_DUP, "fail", "capsule §7.6",
     "Body has two matching H2s ('## Identity' and '## 1. Identity', left over from a merge). " + CAP_RULES["7.6"] + "; §4: \"MUST contain exactly one H2 section\"", None),
    ("cosmo-numbered-identity-user-facing", lambda: COSMO, "pass", None,
     "'## 1. IDENTITY' is accepted (§4: \"## 1. IDENTITY\"); writes: [] is allowed (§7 check 5: \"each a list; may be empty\"); boot_protocol on-demand is an enum value; user_facing: true is the optional v1.0.3 field (§3).", None),
    ("dops-locked-at-without-locked-by", lambda: DOPS, "fail", "capsule §7.7",
     "status: locked with locked_at but no locked_by. " + CAP_RULES["7.7"], None),
    ("silas-retired-missing-boot-protocol", lambda: SILAS, "pass", None,
     "Retired charter without boot_protocol: §7 check 8: \"If status: retired or status: archived, checks 1-7 are RELAXED at WARN-only\" — a warning, not an error.", None),
    ("metis-locked-hygiene-pointers", cap_metis_hygiene, "pass", None,
     "Locked charter; only modified/modified_by, status_card, a new channel and a new briefing_file changed. §6: \"Standard editing (no lock-break): Hygiene fields: last_updated, modified, modified_by; Pointer fields: status_card, generation_log, living_transfer, briefing_file, board, channels\"", lambda: METIS_BASE),
    ("vela-locked-role-change", cap_vela_role_change, "fail", "capsule §6 lock",
     "Locked charter: role Chief of Staff → Chief Operating Officer and the Identity sentence rewritten, with no lock-break signoff anywhere. " + CAP_RULES["6"], cap_vela_locked_base),
    ("talos-locked-soul-addition", cap_talos_soul_add, "pass", None,
     "Locked charter that had no soul gains a soul block (frontmatter only) plus hygiene fields. §6: \"Optional substrate field ADDITIONS (adding soul, dna, channels, retirement_acts where the field was previously absent\" are standard editing.", lambda: TALOS_LOCKED),
    ("orpheus-locked-soul-mutation", cap_orpheus_soul_mutation, "fail", "capsule §6 lock",
     "Locked charter: existing soul values and voice changed without lock-break. " + CAP_RULES["6"], lambda: ORPHEUS_LOCKED),
    ("argus-locked-body-with-signoff-note", cap_argus_body_signoff, "review", None,
     "Locked charter: body gains an Operating Notes rule, which needs a lock-break (§6 \"Body content\"); the frontmatter carries a lock_break_note claiming Mike-A119's signed lock-break. Whether that claim is a real signoff only a person can check (§6 enforcement note: \"Honor-system ... lock-break protocol relies on agent self-discipline + Mike review\").", lambda: ARGUS_LOCKED),
]
assert len(CAPSULES) == 14


# ----------------------------------------------------------------------------- write
def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build():
    ce = HERE / "charter-edits"
    cp = HERE / "capsules"
    for d in (ce, cp):
        d.mkdir(exist_ok=True)
        for f in d.iterdir():
            f.unlink()
    rows = []
    for i, (slug, fn, expect, bump, rule, why, basefn) in enumerate(CHARTERS, 1):
        name = f"{i:02d}-{slug}"
        base_text = basefn(SEED) if basefn else SEED
        text = fn(base_text)
        (ce / f"{name}.md").write_bytes(text.encode("utf-8"))
        row = ['kind = "charter"', f'file = "charter-edits/{name}.md"']
        if basefn:
            (ce / f"{name}.base.md").write_bytes(base_text.encode("utf-8"))
            row.append(f'base = "charter-edits/{name}.base.md"')
        row += [f"expect = {q(expect)}"]
        if rule:
            row.append(f"rule = {q(rule)}")
        row += [f"bump = {q(bump)}", f"why = {q(why)}"]
        rows.append(row)
    for i, (slug, fn, expect, rule, why, basefn) in enumerate(CAPSULES, 1):
        name = f"{i:02d}-{slug}"
        (cp / f"{name}.md").write_text(fn(), encoding="utf-8")
        row = ['kind = "capsule"', f'file = "capsules/{name}.md"']
        if basefn:
            (cp / f"{name}.base.md").write_text(basefn(), encoding="utf-8")
            row.append(f'base = "capsules/{name}.base.md"')
        row.append(f"expect = {q(expect)}")
        if rule:
            row.append(f"rule = {q(rule)}")
        row.append(f"why = {q(why)}")
        rows.append(row)
    head = ("# Blind corpus 49b — labels decided from the Reasoning Charter, the charter capsule definition\n"
            "# and the shared decisions only. Charter cases without `base` use\n"
            "# /work/main/fixtures/charters/reasoning-charter-0.1.0.md as their base.\n"
            "# bump = the smallest bump the edit needs (none|patch|minor|major).\n")
    (HERE / "labels.toml").write_text(head + "\n".join("\n[[case]]\n" + "\n".join(r) for r in rows) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- check
RANK = {"none": 0, "patch": 1, "minor": 2, "major": 3}
VER_RE = re.compile(r"^Version:?\s+v?(\d+)\.(\d+)\.(\d+)\s*(?:—|-|–|\()", re.M)


def norm(text):
    """A rough model of 'the same charter': title down, no HTML comments, NFC, folded punctuation,
    ordered-list numbers and Markdown markup dropped, whitespace collapsed, version line removed."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    i = text.index("Reasoning Charter")
    text = text[i:]
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"^Version.*$", " ", text, count=1, flags=re.M)
    for a, b in (("“", '"'), ("”", '"'), ("’", "'"), ("‘", "'")):
        text = text.replace(a, b)
    text = re.sub(r"^\s*\d+\.\s", " ", text, flags=re.M)
    text = re.sub(r"^\s*(#+|-|•)\s", " ", text, flags=re.M)
    text = re.sub(r"^\|---.*$", " ", text, flags=re.M)
    text = text.replace("**", "").replace("|", " ").replace("```text", " ").replace("```", " ")
    text = text.replace("•", " ")
    return " ".join(text.split())


def declared(base, edit):
    b = VER_RE.search(base)
    e = VER_RE.search(edit)
    assert b and e, "version line not found"
    bv = tuple(map(int, b.groups()))
    ev = tuple(map(int, e.groups()))
    if ev == bv:
        return "none"
    assert ev > bv
    if ev[0] > bv[0]:
        return "major"
    if ev[1] > bv[1]:
        return "minor"
    return "patch"


def count_cases(t):
    return len(re.findall(r"^\s*(?:•|-)\s+\**E\d+ — ", t, re.M))


def count_rows(t):
    lines = t.replace("\r\n", "\n").split("\n")
    i = next(k for k, l in enumerate(lines) if l.lstrip("# ").startswith("Failure-Mode Registry"))
    j = next(k for k, l in enumerate(lines) if l.lstrip("# ").startswith("Evaluation Harness"))
    return sum(1 for l in lines[i + 1:j] if l.strip() and not l.startswith("|---") and not l.startswith("Each new"))


def frontmatter(text):
    import yaml
    m = re.match(r"^---\n(.*?)\n---\n(.*)$", text, re.S)
    assert m
    return yaml.safe_load(m.group(1)), m.group(2)


def check():
    labels = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))["case"]
    ch = [c for c in labels if c["kind"] == "charter"]
    ca = [c for c in labels if c["kind"] == "capsule"]
    assert len(ch) == 36 and len(ca) == 14, (len(ch), len(ca))
    rev = sum(c["expect"] == "review" for c in labels)
    assert rev * 10 <= len(labels), rev
    problems = []
    for c in labels:
        assert c["expect"] in ("pass", "fail", "review")
        assert (c["expect"] == "fail") == ("rule" in c), c["file"]
        assert c["why"]
        f = HERE / c["file"]
        assert f.exists(), f
        if "base" in c:
            assert (HERE / c["base"]).exists()
    for c in ch:
        edit = (HERE / c["file"]).read_bytes().decode("utf-8")
        base = (HERE / c["base"]).read_bytes().decode("utf-8") if "base" in c else SEED
        need = c["bump"]
        got = declared(base, edit)
        same = norm(base) == norm(edit)
        markup_only = same and "**" in edit and "**" not in base  # emphasis/headings added: form → patch
        if (need == "none") != same and not (need == "patch" and markup_only):
            problems.append(f"{c['file']}: bump={need} but normalized same={same}")
        dc = count_cases(edit) - count_cases(base)
        dr = count_rows(edit) - count_rows(base)
        paired = dc == dr
        if c["expect"] == "pass":
            if RANK[got] < RANK[need]:
                problems.append(f"{c['file']}: pass but declared {got} < {need}")
            if dc > 0 and not paired:
                problems.append(f"{c['file']}: pass but cases {dc} vs rows {dr}")
        elif c["expect"] == "fail":
            if c["rule"] == "semver" and RANK[got] >= RANK[need]:
                problems.append(f"{c['file']}: semver fail but declared {got} >= {need}")
            if c["rule"] == "semver" and not paired and dc >= 0 and dr >= 0:
                problems.append(f"{c['file']}: semver fail also breaks pairing")
            if c["rule"] == "registry-pairing":
                if paired or RANK[got] < RANK[need]:
                    problems.append(f"{c['file']}: pairing fail not isolated ({dc},{dr},{got})")
        c["_declared"] = got
    # capsule sanity
    ident = re.compile(r"^##\s+(?:\d+\.\s+)?Identity$", re.I | re.M)
    req = ["uid", "type", "agent_name", "agent_class", "role", "capability_scope", "status", "boot_protocol",
           "created", "created_by", "modified", "modified_by"]
    for c in ca:
        d, body = frontmatter((HERE / c["file"]).read_text(encoding="utf-8"))
        errs = []
        missing = [k for k in req if k not in d]
        if missing:
            errs.append("7.1")
        if not re.fullmatch(r"[0-9a-f]{8}", str(d.get("uid", ""))):
            errs.append("7.1")
        if d.get("agent_class") not in ("executive", "director"):
            errs.append("7.2")
        if "boot_protocol" in d and d["boot_protocol"] not in ("playbook", "commissioned", "on-demand"):
            errs.append("7.3")
        if d.get("status") not in ("active", "locked", "retired", "archived", "suspended"):
            errs.append("7.4")
        cs = d.get("capability_scope")
        if cs is not None and not (isinstance(cs.get("reads"), list) and isinstance(cs.get("writes"), list)):
            errs.append("7.5")
        if len(ident.findall(body)) != 1:
            errs.append("7.6")
        if "locked_at" in d and "locked_by" not in d:
            errs.append("7.7")
        if d.get("status") in ("retired", "archived"):
            errs = []
        if "base" in c:
            bd, bbody = frontmatter((HERE / c["base"]).read_text(encoding="utf-8"))
            assert bd.get("status") == "locked"
            for k in ("agent_name", "agent_class", "role", "capability_scope", "boot_protocol"):
                if bd.get(k) != d.get(k):
                    errs.append("6")
            if bbody != body:
                errs.append("6")
            for k, v in bd.items():
                if k in ("soul", "dna", "retirement_acts") and d.get(k) != v:
                    errs.append("6")
        want_fail = c["expect"] == "fail"
        if c["expect"] == "review":
            assert errs == ["6"], (c["file"], errs)
            continue
        if bool(errs) != want_fail:
            problems.append(f"{c['file']}: expect {c['expect']} but model errors {errs}")
        if want_fail and not any(c["rule"].endswith(e) or c["rule"] == "capsule §6 lock" and e == "6" for e in errs):
            problems.append(f"{c['file']}: rule {c['rule']} vs model errors {errs}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    tally = {}
    for c in labels:
        tally.setdefault((c["kind"], c["expect"]), 0)
        tally[(c["kind"], c["expect"])] += 1
    print("ok:", len(labels), "cases;", ", ".join(f"{k[0]} {k[1]}={v}" for k, v in sorted(tally.items())))
    bumps = {}
    for c in ch:
        bumps[c["bump"]] = bumps.get(c["bump"], 0) + 1
    print("charter bumps needed:", bumps)


if __name__ == "__main__":
    if "--check" not in sys.argv:
        build()
    check()
