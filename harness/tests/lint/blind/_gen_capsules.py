#!/usr/bin/env python3
"""Generates capsules/ cases and their labels (labels_capsules.part)."""
import os, re
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "capsules")
LABELS = []

FM = """uid: a1b2c3d4
type: charter
agent_name: argus
agent_class: executive
role: Chief Architect
capability_scope:
  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
status: active
boot_protocol: playbook
created: 2026-05-17
created_by: argus-a69
modified: 2026-06-07
modified_by: argus-a103
"""

IDENT = """## Identity

You are Argus, the Chief Architect of the Crew of the Argo. As Chief Architect you own the system design and the capsule definitions that govern the vault. See agents/argus/argus-activation.md and the activation registry for prior generations (lineage A1 through A103).
"""

BODY = """# Argus — Charter

""" + IDENT + """
## Scope

Argus reads the whole vault and writes only its own agent folder and its channels.

## Operating Notes

Verify before you claim; log every lock-break request.
"""

def doc(fm, body):
    return "---\n" + fm + "---\n\n" + body

def sub(s, old, new, count=1):
    assert s.count(old) == count, (old, s.count(old))
    return s.replace(old, new)

def write(name, text, expect, rule=None, why="", base=None, bom=False, crlf=False):
    def enc(t):
        if crlf:
            t = t.replace("\r\n", "\n").replace("\n", "\r\n")
        b = t.encode("utf-8")
        return (b"\xef\xbb\xbf" + b) if bom else b
    path = os.path.join(OUT, name + ".md")
    with open(path, "wb") as f:
        f.write(enc(text))
    lab = {"kind": "capsule", "file": "capsules/" + name + ".md"}
    if base is not None:
        bpath = os.path.join(OUT, name + ".base.md")
        with open(bpath, "wb") as f:
            f.write(base.encode("utf-8"))
        lab["base"] = "capsules/" + name + ".base.md"
    lab["expect"] = expect
    if expect == "fail":
        assert rule
        lab["rule"] = rule
    lab["why"] = why
    LABELS.append(lab)

VALID = doc(FM, BODY)

# ---------------- single-file PASS cases ----------------
write("01-valid-minimal", VALID, "pass",
      why="All §2 required fields present and typed, enums valid (§7 checks 1-5), one '## Identity' H2 (§7 check 6) containing name, role and lineage pointer (§4).")

DIR_FM = """uid: 5d0c1f2e
type: charter
agent_name: d.pm
agent_class: director
role: Product Manager
capability_scope:
  reads:
    - vault/files/
    - agents/d.pm/
  writes:
    - agents/d.pm/
status: locked
boot_protocol: commissioned
created: 2026-04-02
created_by: mike-a01
modified: 2026-05-20
modified_by: argus-a70
locked_at: 2026-04-02
locked_by: mike-a01
"""
DIR_BODY = """## Identity

You are d.pm, the Product Manager of the crew. As Product Manager you turn the principal's intent into ordered, shippable work. Lineage: a director commissioned once per ADR-022 with no per-generation lineage; see agents/d.pm/d.pm-activation.md for the commission record.
"""
write("02-valid-director-locked", doc(DIR_FM, DIR_BODY), "pass",
      why="Director with boot_protocol commissioned and status locked, locked_at paired with locked_by (§7 checks 2-4, 7; §3 locked pair), Identity section per §4.")

write("03-valid-numbered-identity", sub(VALID, "## Identity", "## 1. Identity"), "pass",
      why="§4/§7 check 6 regex ^##\\s+(?:\\d+\\.\\s+)?Identity$ explicitly accepts '## 1. Identity'.")

write("04-valid-uppercase-identity", sub(VALID, "## Identity", "## IDENTITY"), "pass",
      why="§4 lists '## IDENTITY' as accepted; the regex is case-insensitive (§7 check 6).")

write("05-valid-multi-digit-uppercase", sub(VALID, "## Identity", "## 12. IDENTITY"), "pass",
      why="§4: 'any numbered-prefix ## N. Identity variant' is accepted, case-insensitive.")

FENCED_EXTRA = BODY + """
## Authoring Notes

A charter must carry an Identity section shaped like this example:

```markdown
## Identity

You are <Name>, the <Role>. See <lineage path> for prior generations.
```
"""
write("06-valid-fenced-extra-identity", doc(FM, FENCED_EXTRA), "pass",
      why="The second '## Identity' is inside a fenced code block, so it is not an H2 section; the body has exactly one Identity H2 (§7 check 6).")

write("07-valid-bom", VALID, "pass", bom=True,
      why="Same content as a fully valid charter (§7 checks 1-7, §4); a UTF-8 byte-order mark does not change the front matter or body.")

write("08-valid-crlf", VALID, "pass", crlf=True,
      why="Same content as a fully valid charter with CRLF line endings; the line-ending convention changes no field value or heading text (§7, §4).")

EMPTY = sub(FM, """  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", """  reads: []
  writes: []
""")
write("09-valid-empty-scope-lists", doc(EMPTY, BODY), "pass",
      why="§7 check 5: reads and writes are each a list and 'may be empty'.")

OPT_FM = FM + """soul:
  role: architect of the vault
  values: [verification, honesty]
  voice: terse
  decision_style: evidence-first
dna:
  model: frontier-large
  platform: cli
  context_window: 200000
  capabilities: [tools, code]
channels:
  - channels/argus-vela.md
retirement_acts:
  - hand over open lock-breaks
governor: operating-agreement
member_of:
  - 99ed55fd
subsystem_hub:
  - 8dd772a0
user_facing: true
status_card: agents/argus/argus-status.md
"""
write("10-valid-optional-fields", doc(OPT_FM, BODY), "pass",
      why="All extra fields are §3 optional fields (soul, dna, channels, retirement_acts, governor, member_of, subsystem_hub, user_facing, status_card); 'absence is not a defect' and presence is allowed.")

SUSP = sub(sub(FM, "boot_protocol: playbook", "boot_protocol: on-demand"), "status: active", "status: suspended")
write("11-valid-on-demand-suspended", doc(SUSP, BODY), "pass",
      why="on-demand is a §7 check 3 value and suspended a §7 check 4 value.")

RET = sub(FM, "status: active", "status: retired")
write("12-valid-retired-conformant", doc(RET, BODY), "pass",
      why="status retired is a §7 check 4 value; the charter also satisfies checks 1-7 and §4, so check 8's relaxation has nothing to relax.")

QUOTED = sub(sub(sub(sub(sub(FM, "uid: a1b2c3d4", 'uid: "a1b2c3d4"'),
    "agent_class: executive", "agent_class: 'executive'"),
    "boot_protocol: playbook", 'boot_protocol: "playbook"'),
    "status: active", "status: 'active'"),
    "role: Chief Architect", 'role: "Chief Architect"')
write("13-valid-yaml-quoting", doc(QUOTED, BODY), "pass",
      why="YAML single/double quoting yields the same string values; uid is an 8-hex string and the enums are valid (§7 checks 1-4).")

SA = """---
uid: b7e2a119
type: session-agent
name: sa.skeptic-039
created: 2026-05-17
created_by: argus-a69
---

# Skeptic session agent

Ephemeral reviewer; governed by session-agent.capsule, not the charter capsule. No identity section is required here.
"""
write("14-out-of-scope-session-agent", SA, "pass",
      why="§7 applies 'For every file with type: charter'; a type: session-agent file without charter-shaped frontmatter matches no §8 pattern (§10: the capsules govern disjoint file types).")

CAPDEF = """---
uid: 8f3c9e1b
name: activation
type: capsule-definition
extends: core
version: 1.0.0
author: argus
created: 2026-05-17
modified: 2026-05-17
status: locked
---

# activation — Capsule Definition v1.0

## 1. Purpose

Defines activation entries. This file defines a capsule; it is not itself a charter.
"""
write("15-out-of-scope-capsule-definition", CAPDEF, "pass",
      why="type is capsule-definition, not charter, so §7 checks do not apply; no §8 pattern (document/agent-charter typing, charter-shaped agent_class) is present.")

FLOW = sub(FM, """capability_scope:
  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", """capability_scope: {reads: [vault/files/, agents/argus/], writes: [agents/argus/, "channels/argus-*.md"]}
""")
write("16-valid-flow-style-scope", doc(FLOW, BODY), "pass",
      why="capability_scope written in YAML flow style is still an object with reads and writes lists (§7 check 5).")

LATE = """# Argus — Charter

## Soul

Evidence before assertion.

## Crew

Works with Vela and Metis.

""" + IDENT.replace("## Identity", "## 2. Identity") + """
### Voice

Terse.
"""
write("17-valid-identity-not-first", doc(FM, LATE), "pass",
      why="§4/§7 check 6 require exactly one matching H2 anywhere in the body; optional H2s (§5) may precede it and an H3 subsection does not count as a second H2.")

write("18-valid-tilde-fence-extra", doc(FM, BODY + "\n## Template\n\n~~~\n## Identity\nYou are <Name>, the <Role>.\n~~~\n"), "pass",
      why="The '## Identity' line inside a ~~~ fenced code block is code, not an H2; exactly one real Identity H2 remains (§7 check 6).")

# ---------------- single-file FAIL cases ----------------
def drop(fm, line):
    return sub(fm, line + "\n", "")

write("20-missing-role", doc(drop(FM, "role: Chief Architect"), BODY), "fail", "§7 check 1",
      "role is a §2 required field and is absent.")
write("21-missing-capability-scope", doc(sub(FM, """capability_scope:
  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", ""), BODY), "fail", "§7 check 1",
      "capability_scope is a §2 required field and is absent.")
write("22-missing-created-by", doc(drop(FM, "created_by: argus-a69"), BODY), "fail", "§7 check 1",
      "§2 requires created + created_by; created_by is absent.")
write("23-missing-modified", doc(drop(FM, "modified: 2026-06-07"), BODY), "fail", "§7 check 1",
      "§2 requires modified + modified_by; modified is absent.")
write("24-uid-not-hex", doc(sub(FM, "uid: a1b2c3d4", "uid: argus001"), BODY), "fail", "§7 check 1",
      "§2 types uid as an 8-hex string; 'argus001' contains non-hex characters.")
write("25-uid-wrong-length", doc(sub(FM, "uid: a1b2c3d4", "uid: a1b2c3d"), BODY), "fail", "§7 check 1",
      "§2 types uid as an 8-hex string; 'a1b2c3d' has 7 characters.")
write("26-nonexistent-date", doc(sub(FM, "created: 2026-05-17", "created: 2026-02-30"), BODY), "fail", "§7 check 1",
      "§2 types created as a date; 2026-02-30 is not a calendar date, so the field is not correctly typed.")
write("27-agent-class-pipeline", doc(sub(FM, "agent_class: executive", "agent_class: pipeline"), BODY), "fail", "§7 check 2",
      "agent_class must be executive or director; 'pipeline' is valid only in activation entries (§10).")
write("28-agent-class-session-agent", doc(sub(FM, "agent_class: executive", "agent_class: session-agent"), BODY), "fail", "§8",
      "§8 forbids agent_class values other than executive or director (also §7 check 2).")
write("29-boot-protocol-underscore", doc(sub(FM, "boot_protocol: playbook", "boot_protocol: on_demand"), BODY), "fail", "§7 check 3",
      "boot_protocol must be playbook | commissioned | on-demand; 'on_demand' is none of them.")
write("30-status-draft", doc(sub(FM, "status: active", "status: draft"), BODY), "fail", "§7 check 4",
      "status must be one of active | locked | retired | archived | suspended; 'draft' is not.")
write("31-scope-missing-writes", doc(sub(FM, """  writes:
    - agents/argus/
    - channels/argus-*.md
""", ""), BODY), "fail", "§7 check 5",
      "capability_scope must have both reads: and writes: sub-fields; writes is missing.")
write("32-scope-reads-not-list", doc(sub(FM, """  reads:
    - vault/files/
    - agents/argus/
""", """  reads: vault/files/
"""), BODY), "fail", "§7 check 5",
      "reads: and writes: must each be a list; reads is a scalar string.")
write("33-legacy-scope-field", doc(sub(FM, "capability_scope:", "scope:"), BODY), "fail", "§7 check 1",
      "§2 renamed scope to capability_scope; the required capability_scope field is absent.")
write("34-no-identity-section", doc(FM, sub(BODY, IDENT + "\n", "")), "fail", "§7 check 6",
      "The body has no H2 matching the Identity regex (also §8 'Charter body with NO H2 matching').")
write("35-two-identity-sections", doc(FM, BODY + "\n## 2. Identity\n\nYou are Argus, the Chief Architect. See agents/argus/argus-activation.md for prior generations.\n"), "fail", "§7 check 6",
      "Body must contain exactly one matching H2; it contains two ('## Identity' and '## 2. Identity').")
write("36-h3-identity-only", doc(FM, sub(BODY, "## Identity", "### Identity")), "fail", "§7 check 6",
      "'### Identity' is an H3 and does not match ^##\\s+(?:\\d+\\.\\s+)?Identity$; no H2 Identity exists.")
write("37-identity-trailing-colon", doc(FM, sub(BODY, "## Identity", "## Identity:")), "fail", "§7 check 6",
      "The strict-literal regex ends at 'Identity$'; '## Identity:' does not match.")
FENCED_ONLY = sub(BODY, IDENT, "```markdown\n" + IDENT + "```\n")
write("38-fenced-identity-only", doc(FM, FENCED_ONLY), "fail", "§7 check 6",
      "The only '## Identity' line is inside a fenced code block, so the body has no Identity H2 section.")
write("39-role-heading-instead", doc(FM, sub(BODY, "## Identity", "## Role")), "fail", "§7 check 6",
      "§4: role-shaped alternatives such as '## Role' are NOT accepted; no Identity H2 exists.")
write("40-locked-at-without-locked-by", doc(sub(FM, "status: active", "status: locked") + "locked_at: 2026-05-17\n", BODY), "fail", "§7 check 7",
      "locked_at is present but locked_by is absent (atomic LOCK metadata).")
NO_ROLE = """## Identity

You are Argus of the Crew of the Argo. See agents/argus/argus-activation.md and the activation registry for prior generations (lineage A1 through A103).
"""
write("41-identity-without-role", doc(FM, sub(BODY, IDENT, NO_ROLE)), "fail", "§4",
      "§4: the Identity section must contain the agent's role; this one never states it (no 'Chief Architect' or other role description).")
NAME_IN_PATH = """## Identity

You are the Chief Architect of the Crew of the Argo, owning the system design and the capsule definitions. See agents/argus/argus-activation.md for prior generations.
"""
write("42-identity-name-only-in-path", doc(FM, sub(BODY, IDENT, NAME_IN_PATH)), "fail", "§4",
      "§4 requires the agent's name in narrative form; 'argus' appears only inside the file path agents/argus/argus-activation.md.")
NO_LINEAGE = """## Identity

You are Argus, the Chief Architect of the Crew of the Argo. As Chief Architect you own the system design and the capsule definitions that govern the vault.
"""
write("43-identity-without-lineage", doc(FM, sub(BODY, IDENT, NO_LINEAGE)), "fail", "§4",
      "§4 requires a pointer or summary of lineage in the Identity section; none is present.")
POINTERS = """## Identity

- agents/argus/argus-activation.md
- vault/files/a1b2c3d4.md
- channels/argus-vela.md
"""
write("44-pointers-only-body", doc(FM, POINTERS), "fail", "§8",
      "§8 forbids a charter body that consists entirely of pointers without identity narrative (also fails §4 name/role).")
write("45-type-document-charter-shaped", doc(sub(FM, "type: charter", "type: document"), BODY), "fail", "§8",
      "§8 forbids type: document on a file containing charter-shaped frontmatter (use type: charter).")
write("46-type-agent-charter", doc(sub(FM, "type: charter", "type: agent-charter"), BODY), "fail", "§8",
      "§8 forbids type: agent-charter on any file (deprecated third-variant typing).")
write("47-bom-invalid-status", doc(sub(FM, "status: active", "status: draft"), BODY), "fail", "§7 check 4", bom=True,
      why="A byte-order mark does not hide the front matter; status 'draft' is not an allowed value.")
write("48-crlf-missing-boot-protocol", doc(drop(FM, "boot_protocol: playbook"), BODY), "fail", "§7 check 1", crlf=True,
      why="CRLF line endings aside, boot_protocol, a §2 required field, is absent.")
write("49-h1-identity", doc(FM, sub(BODY, "## Identity", "# Identity")), "fail", "§7 check 6",
      "'# Identity' is an H1 and does not match the ^## regex; no Identity H2 exists.")
write("50-identity-no-space", doc(FM, sub(BODY, "## Identity", "##Identity")), "fail", "§7 check 6",
      "The regex requires whitespace after '##' (^##\\s+); '##Identity' does not match.")
write("51-tilde-fenced-identity-only", doc(FM, sub(BODY, IDENT, "~~~\n" + IDENT + "~~~\n")), "fail", "§7 check 6",
      "The only Identity heading is inside a ~~~ fenced code block; the body has no Identity H2.")
write("52-number-without-dot", doc(FM, sub(BODY, "## Identity", "## 1 Identity")), "fail", "§7 check 6",
      "The numbered prefix must be '\\d+\\.' followed by whitespace; '## 1 Identity' does not match the regex.")
write("53-agent-name-not-string", doc(sub(FM, "agent_name: argus", "agent_name: [argus]"), BODY), "fail", "§7 check 1",
      "§2 types agent_name as a string; it is a list.")
write("54-scope-is-list", doc(sub(FM, """capability_scope:
  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", """capability_scope:
  - vault/files/
  - agents/argus/
"""), BODY), "fail", "§7 check 5",
      "capability_scope must be an object with reads: and writes: sub-fields; here it is a plain list.")
write("55-missing-uid", doc(drop(FM, "uid: a1b2c3d4"), BODY), "fail", "§7 check 1",
      "uid is a §2 required field and is absent.")
write("56-my-identity-heading", doc(FM, sub(BODY, "## Identity", "## My Identity")), "fail", "§7 check 6",
      "'## My Identity' does not match the strict-literal regex ^##\\s+(?:\\d+\\.\\s+)?Identity$.")

# ---------------- lineage (§6) pairs ----------------
LFM = sub(FM, "status: active", "status: locked") + "locked_at: 2026-05-17\nlocked_by: argus-a69\n"
LBASE = doc(LFM, BODY)
def bump(fm):
    return sub(sub(fm, "modified: 2026-06-07", "modified: 2026-07-01"), "modified_by: argus-a103", "modified_by: argus-a110")

write("60-lock-hygiene-only", doc(bump(LFM), BODY), "pass", base=LBASE,
      why="§6: modified and modified_by are hygiene fields editable without lock-break; nothing else changed.")
SWAP = sub(LFM, """  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", """  writes:
    - agents/argus/
    - channels/argus-*.md
  reads:
    - vault/files/
    - agents/argus/
""")
write("61-lock-scope-keys-reordered", doc(bump(SWAP), BODY), "pass", base=LBASE,
      why="capability_scope (the §6 'scope' identity field) has the same reads/writes values; only the mapping key order differs, so its value is unchanged.")
LFLOW = sub(LFM, """  reads:
    - vault/files/
    - agents/argus/
  writes:
    - agents/argus/
    - channels/argus-*.md
""", """  reads: [vault/files/, agents/argus/]
  writes: [agents/argus/, "channels/argus-*.md"]
""")
write("62-lock-lists-flow-vs-block", doc(bump(LFLOW), BODY), "pass", base=LBASE,
      why="The reads/writes lists have identical values in flow style; the locked capability_scope value did not change (§6).")
LQ = sub(sub(sub(LFM, "role: Chief Architect", 'role: "Chief Architect"'), "agent_name: argus", "agent_name: 'argus'"),
         "boot_protocol: playbook", 'boot_protocol: "playbook"')
write("63-lock-quoting-variants", doc(bump(LQ), BODY), "pass", base=LBASE,
      why="Quoted and unquoted YAML scalars are the same string values, so the §6 identity fields role, agent_name and boot_protocol are unchanged.")
write("64-lock-add-soul", doc(bump(LFM) + """soul:
  role: architect of the vault
  values: [verification, honesty]
  voice: terse
  decision_style: evidence-first
""", BODY), "pass", base=LBASE,
      why="§6: adding soul where the field was previously absent is an optional-substrate ADDITION, standard editing without lock-break.")
PTR_BASE = doc(LFM + "channels:\n  - channels/argus-vela.md\nstatus_card: agents/argus/status.md\n", BODY)
write("65-lock-pointer-change", doc(bump(LFM) + "channels:\n  - channels/argus-vela.md\n  - channels/argus-metis.md\nstatus_card: agents/argus/argus-status.md\n", BODY), "pass", base=PTR_BASE,
      why="§6: channels and status_card are pointer fields, mutable without lock-break.")
write("66-lock-role-changed", doc(bump(sub(LFM, "role: Chief Architect", "role: Architect")), BODY), "fail", "§6", base=LBASE,
      why="role is a §6 identity field; changing 'Chief Architect' to 'Architect' requires a lock-break.")
write("67-lock-agent-name-changed", doc(bump(sub(LFM, "agent_name: argus", "agent_name: argo")), BODY), "fail", "§6", base=LBASE,
      why="agent_name is a §6 identity field; argus -> argo requires a lock-break.")
write("68-lock-boot-protocol-changed", doc(bump(sub(LFM, "boot_protocol: playbook", "boot_protocol: on-demand")), BODY), "fail", "§6", base=LBASE,
      why="boot_protocol is a §6 identity field; playbook -> on-demand requires a lock-break.")
write("69-lock-scope-path-added", doc(bump(sub(LFM, "    - channels/argus-*.md\n", "    - channels/argus-*.md\n    - vault/files/\n")), BODY), "fail", "§6", base=LBASE,
      why="capability_scope (renamed from the §6 identity field 'scope', §2) gains a writes path: WHAT the agent governs changed, requiring a lock-break.")
SOUL = """soul:
  role: architect of the vault
  values: [verification, honesty]
  voice: terse
  decision_style: evidence-first
"""
SOUL_BASE = doc(LFM + SOUL, BODY)
write("70-lock-soul-mutated", doc(bump(LFM) + sub(SOUL, "[verification, honesty]", "[speed, honesty]"), BODY), "fail", "§6", base=SOUL_BASE,
      why="§6: changing soul values is an optional-substrate MUTATION of an existing value and requires a lock-break.")
write("71-lock-body-changed", doc(bump(LFM), sub(BODY, "Crew of the Argo", "Crew of the Nautilus")), "fail", "§6", base=LBASE,
      why="§6: body content of a locked charter requires a lock-break; the Identity narrative was edited.")
write("72-lock-agent-class-changed", doc(bump(sub(LFM, "agent_class: executive", "agent_class: director")), BODY), "fail", "§6", base=LBASE,
      why="agent_class is a §6 identity field; executive -> director requires a lock-break.")
DNA = "dna:\n  model: frontier-large\n  platform: cli\n"
write("73-lock-dna-model-changed", doc(bump(LFM) + sub(DNA, "frontier-large", "frontier-small"), BODY), "fail", "§6", base=doc(LFM + DNA, BODY),
      why="§6 names 'dna model' changes as optional-substrate MUTATIONS requiring a lock-break.")
SOUL_SWAP = """soul:
  decision_style: evidence-first
  voice: terse
  values: [verification, honesty]
  role: architect of the vault
"""
write("74-lock-soul-keys-reordered", doc(bump(LFM) + SOUL_SWAP, BODY), "pass", base=SOUL_BASE,
      why="The soul mapping has the same keys and values in a different order; no soul value was mutated (§6).")
write("75-lock-body-section-added", doc(bump(LFM), BODY + "\n## Crew\n\nWorks with Vela and Metis.\n"), "fail", "§6", base=LBASE,
      why="§6: body content is lock-break-required; a new H2 section was added to the locked body.")
write("76-lock-folded-scalar-role", doc(bump(sub(LFM, "role: Chief Architect", "role: >-\n  Chief Architect")), BODY), "pass", base=LBASE,
      why="A YAML folded block scalar '>-' yielding 'Chief Architect' is the same role value, so the §6 identity field is unchanged.")
write("77-lock-scope-list-value-changed", doc(bump(sub(LFLOW, "reads: [vault/files/, agents/argus/]", "reads: [vault/files/]")), BODY), "fail", "§6", base=LBASE,
      why="capability_scope.reads lost agents/argus/; the lists differ by value, so the §6 identity field 'scope' changed without lock-break.")

write("19-valid-archived-conformant", doc(sub(FM, "status: active", "status: archived"), BODY), "pass",
      why="archived is a §7 check 4 value and the charter satisfies checks 1-7 and §4.")
write("78-lock-add-dna-and-retirement-acts", doc(bump(LFM) + DNA + "retirement_acts:\n  - hand over open lock-breaks\n", BODY), "pass", base=LBASE,
      why="§6: adding dna and retirement_acts where previously absent is an optional-substrate ADDITION (standard editing).")
write("79-lock-unchanged", LBASE, "pass", base=LBASE,
      why="The proposed file is identical to the locked base; no §6 field class changed.")

write("57-valid-bom-and-crlf", VALID, "pass", bom=True, crlf=True,
      why="A fully valid charter (§7 checks 1-7, §4) stored with a UTF-8 byte-order mark and CRLF line endings; neither changes any field value or heading.")
write("80-lock-add-channels", doc(bump(LFM) + "channels:\n  - channels/argus-vela.md\n", BODY), "pass", base=LBASE,
      why="§6: channels is a pointer field and adding it where previously absent is an optional-substrate ADDITION; standard editing without lock-break.")

def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
with open(os.path.join(os.path.dirname(OUT), "labels_capsules.part"), "w") as f:
    for lab in LABELS:
        f.write("[[case]]\n")
        for k in ("kind", "file", "base", "expect", "rule", "why"):
            if k in lab:
                f.write(f"{k} = {toml_str(lab[k])}\n")
        f.write("\n")
print(len(LABELS), sum(l["expect"] == "pass" for l in LABELS))
