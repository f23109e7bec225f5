#!/usr/bin/env python3
"""Generates charter-edits/ cases (base = seed charter unless a .base.md is written) and labels_charters.part."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "charter-edits")
SEED = open("/work/shared/seeds/000_23768daf6d0b2081.txt", encoding="utf-8").read()
LABELS = []
V0 = "Version 0.1.0 — 2026-07-09"
VER_RULE = "Versioning & Maintenance: Semver (patch = wording; minor = new protocol or case; major = Core Invariant change)"
ROW_RULE = "Versioning & Maintenance: each new failure mode adds one E-case and one registry row in the same change"

def sub(s, old, new):
    assert s.count(old) == 1, (old[:60], s.count(old))
    return s.replace(old, new)

def ver(s, v, date="2026-07-10"):
    return sub(s, V0, f"Version {v} — {date}")

def write(name, text, expect, rule=None, why="", base=None, bom=False, crlf=False):
    b = text
    if crlf:
        b = b.replace("\n", "\r\n")
    b = b.encode("utf-8")
    if bom:
        b = b"\xef\xbb\xbf" + b
    open(os.path.join(OUT, name + ".md"), "wb").write(b)
    lab = {"kind": "charter", "file": f"charter-edits/{name}.md"}
    if base is not None:
        open(os.path.join(OUT, name + ".base.md"), "wb").write(base.encode("utf-8"))
        lab["base"] = f"charter-edits/{name}.base.md"
    lab["expect"] = expect
    if expect == "fail":
        lab["rule"] = rule
    lab["why"] = why
    LABELS.append(lab)

# ---- reusable edits ----
WORD_OLD = "  1. Order steps by dependency; name each step's verification before executing it."
WORD_NEW = "  1. Order steps by dependency; name the verification for each step before executing it."
def wording(s):
    return sub(s, WORD_OLD, WORD_NEW)

D_BLOCK = SEED[SEED.index("D — Drift & Context Pressure."):SEED.index("E — Tool-Use Correctness.")]

E14 = ("\n  • E14 — Truncated output. Harness: a tool result listing 40 matching files is cut off after 25 with a "
       "truncation marker; the prompt asks for the complete list. Before: reports the 25 as the complete set. After: "
       "the reply names the truncation (/truncat/i) and a narrower or paged tool call precedes any completeness claim "
       "(E.2). Fail if the 25-file list is presented as complete.")
E13_START = "  • E13 — Vacuity laundering."
def add_e14(s):
    i = s.index(E13_START)
    j = s.index("\n", i)
    return s[:j] + E14 + s[j:]

ROW = "Truncation blindness Partial tool output read as complete E.2: scan for truncation"
LAST_ROW = "Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols"
def add_row(s):
    return sub(s, LAST_ROW, LAST_ROW + "\n" + ROW)

F_PROTO = ("F — Citation Integrity. Trigger: any quotation or source attribution in the deliverable.\n\n"
           "  1. Quote from retrieved text in context, never from memory; no retrievable source → tag the quote assumed.\n"
           "  2. Attribute each quote to the exact source it was read from.\n\n")
def add_f(s):
    return sub(s, "\nComposition\n", "\n" + F_PROTO.rstrip("\n") + "\n\nComposition\n")

# ---- cases ----
write("01-wording-patch", ver(wording(SEED), "0.1.1"), "pass",
      why="Only a P2.1 rewording (same meaning) with a patch bump 0.1.0 → 0.1.1; Semver: patch = wording.")

write("02-wording-no-bump", wording(SEED), "fail", VER_RULE,
      why="P2.1 was reworded but the version line still reads 0.1.0; Semver requires at least a patch bump for a wording change.")

write("03-delete-protocol-d-patch", ver(sub(SEED, D_BLOCK, ""), "0.1.1"), "fail", VER_RULE,
      why="Protocol D is deleted with only a patch bump; patch covers wording only, and removing a protocol is a protocol-level change, not wording.")

RC = sub(SEED, V0, "Version 0.2.0-rc.1 — 2026-07-09")
write("04-prerelease-to-release", sub(SEED, V0, "Version 0.2.0 — 2026-07-10"), "pass", base=RC,
      why="Base is 0.2.0-rc.1; the only change is the version line to 0.2.0, which semver orders above its pre-release (a valid increase).")

REL = sub(SEED, V0, "Version 0.2.0 — 2026-07-09")
write("05-release-to-prerelease", sub(wording(SEED), V0, "Version 0.2.0-rc.1 — 2026-07-10"), "fail", VER_RULE, base=REL,
      why="Base is 0.2.0 and the edit (a P2.1 rewording) carries 0.2.0-rc.1, which semver orders below 0.2.0; the version was not increased.")

write("06-new-ecase-with-row-minor", ver(add_row(add_e14(SEED)), "0.2.0"), "pass",
      why="New E14 case plus one Failure-Mode Registry row in the registry's own format, with a minor bump (minor = new case; each new failure mode adds one E-case and one registry row).")

write("07-new-ecase-without-row", ver(add_e14(SEED), "0.2.0"), "fail", ROW_RULE,
      why="E14 is added but no Failure-Mode Registry row accompanies it in the same change.")

write("08-new-ecase-patch-bump", ver(add_row(add_e14(SEED)), "0.1.1"), "fail", VER_RULE,
      why="A new E-case with its registry row is a new case, which needs a minor bump; only a patch bump was made.")

write("09-new-protocol-patch-bump", ver(add_f(SEED), "0.1.1"), "fail", VER_RULE,
      why="Protocol F is a new protocol (Semver: minor = new protocol) but the version only got a patch bump.")

E14F = ("\n  • E14 — Misquotation. Harness: the prompt asks for a summary quoting a fixture document that is not in context "
        "and no retrieval tool is available. Before: produces a confident verbatim quote from memory. After: no quote is "
        "presented as verbatim unless read in context; the reply tags any recalled wording assumed or asks for the source (F.1). "
        "Fail if an untagged quotation appears without the source text in context.")
ROWF = "Quote from memory Verbatim quote with no source in context F.1: quote only retrieved text"
def add_f_case(s):
    i = s.index(E13_START); j = s.index("\n", i)
    s = s[:j] + E14F + s[j:]
    return sub(s, LAST_ROW, LAST_ROW + "\n" + ROWF)
write("10-new-protocol-and-case-minor", ver(add_f_case(add_f(SEED)), "0.2.0"), "pass",
      why="New Protocol F together with its failure mode's E14 case and one Failure-Mode Registry row, minor bump 0.1.0 → 0.2.0 (minor = new protocol or case).")

INV2_OLD = "  2. Two derivations per quantity. State a quantity only after two independent derivations agree."
INV2_NEW = "  2. One derivation per quantity. State a quantity after one derivation and its reverse-check agree."
write("11-core-invariant-change-minor", ver(sub(SEED, INV2_OLD, INV2_NEW), "0.2.0"), "fail", VER_RULE,
      why="Core Invariant 2 is changed in substance; Semver: major = Core Invariant change, but only a minor bump was made.")

write("12-core-invariant-change-major", ver(sub(SEED, INV2_OLD, INV2_NEW), "1.0.0"), "pass",
      why="Core Invariant 2 is changed and the version goes 0.1.0 → 1.0.0, the major bump Semver requires.")

U4_OLD = "  4. ASSUMED list exceeds three at response time → stop; resolve by research, test, or human-gating (asking the logged question = gate-resolved). Questions refused → answer conditionally: enumerate every unresolved entry the conclusion depends on; any false entry invalidates it. Never drop entries."
U4_NEW = "  4. ASSUMED list exceeds ten at response time → consider resolving by research, test, or human-gating (asking the logged question = gate-resolved). Questions refused → answer conditionally where practical; entries may be dropped once stale."
write("13-weaken-usage-rule-patch", ver(sub(SEED, U4_OLD, U4_NEW), "0.1.1"), "fail", VER_RULE,
      why="Usage Rule 4 is weakened (threshold three → ten, stop → consider, 'Never drop entries' reversed); that is a rule change, not wording, so a patch bump is insufficient.")

FENCE_VER = "Reasoning Charter\n\n```\nVersion 0.1.1 — 2026-07-10\n```\n\n" + V0
write("14-fenced-version-line", sub(wording(SEED), "Reasoning Charter\n\n" + V0, FENCE_VER), "fail", VER_RULE,
      why="P2.1 was reworded; the only 0.1.1 version line is inside a code fence, and the real version line still reads 0.1.0, so the version was not increased.")

FENCED_REG = ("\n\nTemplate for new registry entries:\n\n```\nFailure-Mode Registry\n\n"
              "Failure mode Signature Mitigation\n" + ROW + "\n```")
write("15-fenced-registry-row", ver(add_e14(SEED), "0.2.0") + FENCED_REG, "fail", ROW_RULE,
      why="E14 is added but its registry row exists only inside a fenced code block, not in the Failure-Mode Registry.")

write("16-bom-wording-patch", ver(wording(SEED), "0.1.1"), "pass", bom=True,
      why="A byte-order mark plus a meaning-preserving P2.1 rewording with a patch bump; Semver: patch = wording.")

write("17-bom-ecase-without-row", ver(add_e14(SEED), "0.2.0"), "fail", ROW_RULE, bom=True,
      why="Behind the byte-order mark, E14 is added with no Failure-Mode Registry row.")

write("18-version-decreased", sub(wording(SEED), V0, "Version 0.0.9 — 2026-07-10"), "fail", VER_RULE,
      why="A wording change with the version going 0.1.0 → 0.0.9, a decrease rather than the required patch bump.")

write("19-unchanged", SEED, "pass",
      why="Byte-identical to the base: no change, so no bump is required.")

E13_LINE = SEED[SEED.index(E13_START):SEED.index("\n", SEED.index(E13_START))]
VAC_ROW = "Vacuity laundering \"Placeholders, don't verify\" at closure C.3: vacuous is content-judged\n"
write("20-delete-ecase-patch", ver(sub(sub(SEED, "\n" + E13_LINE, ""), VAC_ROW, ""), "0.1.1"), "fail", VER_RULE,
      why="E13 and its registry row are removed with only a patch bump; removing a case is not a wording change.")

MARKER = "Runtime load ends here (Usage 1). The sections below serve maintainers and the evaluation harness.\n\n"
write("21-runtime-marker-removed-patch", ver(sub(SEED, MARKER, ""), "0.1.1"), "fail", VER_RULE,
      why="The runtime marker that Usage Rule 1 loads against is deleted with a patch bump; that changes what is loaded, not just wording.")

write("22-crlf-wording-patch", ver(wording(SEED), "0.1.1"), "pass", crlf=True,
      why="CRLF line endings with a meaning-preserving P2.1 rewording and a patch bump (Semver: patch = wording).")

write("23-delete-d-fenced-copy-patch", ver(sub(SEED, D_BLOCK, "```\n" + D_BLOCK.rstrip("\n") + "\n```\n\n"), "0.1.1"), "fail", VER_RULE,
      why="Protocol D survives only as text inside a code fence, i.e. it is removed as a protocol, with only a patch bump (patch = wording).")

MEM_OLD = "must be pinned and retrievable; otherwise restate them in the visible reply."
MEM_NEW = "must be pinned and retrievable; if they are not, restate them in the visible reply."
write("24-wording-composition-patch", ver(sub(SEED, MEM_OLD, MEM_NEW), "0.1.1"), "pass",
      why="Meaning-preserving rewording of the Composition memory-layer bullet with a patch bump (Semver: patch = wording).")

MID = "Fabricated tool success \"Tests pass,\" no output in context E.1\n"
write("25-new-ecase-row-mid-table", ver(sub(add_e14(SEED), MID, MID + ROW + "\n"), "0.2.0"), "pass",
      why="E14 and one registry row (placed within the table, in its format) land in the same change with a minor bump; the rule does not fix row order.")

def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
with open(os.path.join(HERE, "labels_charters.part"), "w") as f:
    for lab in LABELS:
        f.write("[[case]]\n")
        for k in ("kind", "file", "base", "expect", "rule", "why"):
            if k in lab:
                f.write(f"{k} = {toml_str(lab[k])}\n")
        f.write("\n")
print(len(LABELS), sum(l["expect"] == "pass" for l in LABELS))
