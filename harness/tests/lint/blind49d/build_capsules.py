import os, json
OUT = "/work/blind/49d/capsules"
cases = []
def rep(t, old, new):
    n = t.count(old); assert n == 1, (n, old[:60]); return t.replace(old, new)
def case(name, text, expect, why, rule=None, base=None):
    fn = f"{name}.md"
    open(os.path.join(OUT, fn), "w", encoding="utf-8", newline="").write(text)
    c = dict(kind="capsule", file=f"capsules/{fn}", expect=expect, why=why)
    if rule: c["rule"] = rule
    if base is not None:
        bn = f"{name}.base.md"
        open(os.path.join(OUT, bn), "w", encoding="utf-8", newline="").write(base)
        c["base"] = f"capsules/{bn}"
    cases.append(c)

T = """---
uid: 3c7e91b4
type: charter
agent_name: vela
agent_class: executive
role: Chief of Staff
capability_scope:
  reads:
    - agents/vela/
    - channels/vela-*.md
    - 99ed55fd
  writes:
    - agents/vela/
    - channels/vela-*.md
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

Role: you keep the crew's priorities, schedules and hand-offs in one coherent plan for Mike.

Lineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V46).

## Operating Notes

- Every hand-off is written to the channel file before it is announced.
- Weekly: reconcile the board against open commitments.
"""

case("01-valid-executive", T, "pass",
     "All §2 required fields present and typed (8-hex uid, type charter, enums in range, capability_scope with reads+writes, dates + <slug>-<gen> strings); exactly one '## Identity' with name, role and lineage pointer (§4, §7.1–7.6).")

q = T.replace("\n", "\r\n")
q = rep(q, "uid: 3c7e91b4", "uid: '3c7e91b4'   # author-assigned, grep-checked")
q = rep(q, "type: charter", 'type: "charter"')
q = rep(q, "capability_scope:\r\n  reads:\r\n    - agents/vela/\r\n    - channels/vela-*.md\r\n    - 99ed55fd\r\n  writes:\r\n    - agents/vela/\r\n    - channels/vela-*.md\r\n",
        'capability_scope: {reads: [agents/vela/, "channels/vela-*.md", "99ed55fd"], writes: [agents/vela/, "channels/vela-*.md"]}\r\n')
q = rep(q, "role: Chief of Staff", "role:   'Chief of Staff'  ")
q = rep(q, "status: active\r\nboot_protocol: playbook", "boot_protocol: \"playbook\"\r\nstatus: active")
case("02-frontmatter-quirks", q, "pass",
     "Same values as a valid charter, written with quirks: CRLF, quoted scalars, trailing spaces and a YAML comment, flow-style capability_scope, keys reordered. Values are unchanged, so §7.1–7.5 hold.")

case("03-missing-role", rep(T, "role: Chief of Staff\n", ""), "fail",
     "Required field 'role' absent; §7.1 'All required frontmatter fields (§2) are present'.", rule="capsule §7.1")

case("04-uid-seven-hex", rep(T, "uid: 3c7e91b4", "uid: 3c7e91b"), "fail",
     "uid '3c7e91b' is 7 hex digits; §2 types uid as '8-hex string' and §7.1 requires fields 'correctly typed'.", rule="capsule §7.1")

d = rep(rep(rep(T, "agent_class: executive", "agent_class: director"), "boot_protocol: playbook", "boot_protocol: commissioned"), "agent_name: vela", "agent_name: d.pm")
d = rep(d, "You are Vela, the Chief of Staff of the Crew of the Argo.", "You are d.pm, the project-management director of the Crew of the Argo, commissioned once per ADR-022.")
d = rep(d, "role: Chief of Staff", "role: Project Management Director")
case("05-director-commissioned", d, "pass",
     "agent_class 'director' (the other allowed value, §7.2) with boot_protocol 'commissioned' (§7.3); otherwise complete.")

case("06-agent-class-session-agent", rep(T, "agent_class: executive", "agent_class: session-agent"), "fail",
     "agent_class 'session-agent' is outside 'executive | director' (§7.2); §8 forbids agent_class values other than executive or director.", rule="capsule §7.2")

case("07-boot-on-demand", rep(T, "boot_protocol: playbook", "boot_protocol: on-demand"), "pass",
     "'on-demand' is one of playbook | commissioned | on-demand (§7.3); rarity is advice, not a check.")

case("08-boot-on-underscore", rep(T, "boot_protocol: playbook", "boot_protocol: on_demand"), "fail",
     "'on_demand' (underscore) is not the enum value 'on-demand'; §7.3 'value is one of playbook | commissioned | on-demand'.", rule="capsule §7.3")

case("09-status-suspended", rep(T, "status: active", "status: suspended"), "pass",
     "'suspended' is the last value in §7.4's list 'active | locked | retired | archived | suspended'.")

case("10-status-superseded", rep(T, "status: active", "status: superseded"), "review",
     "§7.4 and §2 list five statuses without 'superseded', but the §2 enum-semantics line reads 'status: ∈ {active, locked, retired, archived, suspended, superseded}' and the definition's own enforced_enums include it. Read by §7.4 → fail; read by the enum line → pass.")

e = rep(T, "  reads:\n    - agents/vela/\n    - channels/vela-*.md\n    - 99ed55fd\n  writes:\n    - agents/vela/\n    - channels/vela-*.md\n", "  reads: []\n  writes: []\n")
case("11-scope-empty-lists", e, "pass",
     "capability_scope has both reads and writes as lists, both empty; §7.5 'each a list; may be empty'.")

case("12-scope-missing-writes", rep(T, "  writes:\n    - agents/vela/\n    - channels/vela-*.md\n", ""), "fail",
     "capability_scope has reads but no writes; §7.5 'object has both reads: + writes: sub-fields'.", rule="capsule §7.5")

case("13-legacy-scope-key", rep(T, "capability_scope:\n", "scope:\n"), "fail",
     "Uses the pre-v1.72 key 'scope' instead of required 'capability_scope' (§2: 'Renamed from scope'); required field missing → §7.1.", rule="capsule §7.1")

case("14-identity-numbered-caps", rep(rep(T, "## Identity", "## 1. IDENTITY"), "## Operating Notes", "## 2. Operating Notes"), "pass",
     "'## 1. IDENTITY' matches ^##\\s+(?:\\d+\\.\\s+)?Identity$ case-insensitively (§4 lists it as accepted); exactly one such H2 (§7.6).")

two = T + "\n## Identity\n\nYou are Vela. (Duplicated during a merge.)\n"
case("15-identity-twice", two, "fail",
     "Two H2 sections match the Identity regex; §7.6 requires 'exactly one'.", rule="capsule §7.6")

case("16-identity-and-role", rep(T, "## Identity", "## Identity & Role"), "fail",
     "'## Identity & Role' does not match the strict-literal ^##\\s+(?:\\d+\\.\\s+)?Identity$; no H2 matches → §7.6 (and §8 'NO H2 matching').", rule="capsule §7.6")

L = rep(T, "status: active", "status: locked\nlocked_at: 2026-05-20\nlocked_by: vela-v46\nlocked_signoff: \"Mike-A70 verbatim 'yes, lock it' 2026-05-20\"")
case("17-locked-pair", L, "pass",
     "locked_at and locked_by both present (§7.7 atomic LOCK metadata); status 'locked' valid.")

case("18-locked-at-only", rep(L, "locked_by: vela-v46\n", ""), "fail",
     "locked_at present without locked_by; §7.7 'If locked_at: present, locked_by: must also be present'.", rule="capsule §7.7")

r = rep(rep(T, "status: active", "status: retired"), "boot_protocol: playbook\n", "")
r = rep(r, "agent_name: vela", "agent_name: silas").replace("Vela", "Silas").replace("vela", "silas")
case("19-retired-missing-boot", r, "pass",
     "boot_protocol missing, but status 'retired': §7.8 relaxes checks 1–7 ('per-charter conformance enforcement applies only to live active + locked status').")

s = rep(rep(T, "status: active", "status: suspended"), "boot_protocol: playbook\n", "")
case("20-suspended-missing-boot", s, "fail",
     "boot_protocol missing and status 'suspended' — §7.8 relaxes only 'retired or archived', so §7.1 applies in full.", rule="capsule §7.1")

case("21-type-agent-charter", rep(T, "type: charter", "type: agent-charter"), "fail",
     "§8 forbids 'type: agent-charter on any file (deprecated third-variant typing)'.", rule="capsule §8")

p = rep(T, "You are Vela, the Chief of Staff of the Crew of the Argo.\n\nRole: you keep the crew's priorities, schedules and hand-offs in one coherent plan for Mike.\n\nLineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V46).\n",
        "- Activation: agents/vela/vela-activation.md\n- Status card: agents/vela/status.md\n- Soul letter: agents/vela/soul.md\n")
p = rep(p, "## Operating Notes\n\n- Every hand-off is written to the channel file before it is announced.\n- Weekly: reconcile the board against open commitments.\n", "## Pointers\n\n- Board: boards/vela.md\n")
case("22-body-pointers-only", p, "fail",
     "Body is nothing but pointers; §8 forbids a 'Charter body that consists entirely of pointers without identity narrative' (and §4 requires the name in narrative form).", rule="capsule §8")

# ---- §6 lock cases: base is L (locked) ----
B = L
h = rep(rep(B, "modified: 2026-06-02", "modified: 2026-08-10"), "modified_by: vela-v47", "modified_by: vela-v48")
case("23-lock-hygiene-only", h, "pass",
     "Locked charter; only modified/modified_by changed — §6 'Hygiene fields: last_updated, modified, modified_by' are standard editing, no lock-break.", base=B)

rc = rep(rep(B, "role: Chief of Staff", "role: Chief Operating Officer"), "modified: 2026-06-02", "modified: 2026-08-10")
case("24-lock-role-no-break", rc, "fail",
     "Locked charter's identity field 'role' changed with no lock-break; §6 'Lock-break required (Mike signoff ...): Identity fields: agent_name, agent_class, role, scope, boot_protocol'.", rule="capsule §6 lock", base=B)

rcb = rep(rc, "modified_by: vela-v47", "modified_by: vela-v48\nlock_break: \"Mike-A112 signed lock-break 2026-08-10 ('approved') — role change Chief of Staff → Chief Operating Officer\"")
case("25-lock-role-mike-break", rcb, "pass",
     "Same role change, now with a lock-break signed by Mike ('Mike-A112 signed lock-break ... approved'); §6 lock-break = Mike signoff.", base=B)

bp = rep(B, "boot_protocol: playbook", "boot_protocol: on-demand")
bp = rep(bp, "modified_by: vela-v47", "modified_by: vela-v48\nlock_break: \"vela-v48 self-approved 2026-08-11 — switching to on-demand boot\"")
case("26-lock-boot-self-signed", bp, "fail",
     "boot_protocol (an identity field) changed on a locked charter; the 'lock_break' is signed by the agent itself, not Mike — §6 requires 'Mike signoff per OS Invariant'.", rule="capsule §6 lock", base=B)

SOUL = "soul:\n  role: steward of the plan\n  values: [clarity, follow-through]\n  voice: brisk, warm\n  decision_style: write it down, then decide\n"
sa = rep(rep(B, "created: 2026-05-20", SOUL + "created: 2026-05-20"), "modified: 2026-06-02", "modified: 2026-08-12")
case("27-lock-soul-addition", sa, "pass",
     "soul added where it was absent: §6 'Optional substrate field ADDITIONS (adding soul, dna, channels ... where the field was previously absent)' need no lock-break.", base=B)

B2 = rep(B, "created: 2026-05-20", SOUL + "created: 2026-05-20")
sm = rep(B2, "  values: [clarity, follow-through]", "  values: [speed, follow-through]")
case("28-lock-soul-mutation", sm, "fail",
     "Base already has soul; the edit changes soul.values — §6 'Optional substrate field MUTATIONS to existing values (changing soul values ...)' need a lock-break; none given.", rule="capsule §6 lock", base=B2)

be = rep(B, "- Weekly: reconcile the board against open commitments.", "- Monthly: reconcile the board against open commitments.")
case("29-lock-body-edit", be, "fail",
     "Body text changed on a locked charter (weekly → monthly) with no lock-break; §6 lists 'Body content' under 'Lock-break required'.", rule="capsule §6 lock", base=B)

B3 = rep(B, "created: 2026-05-20", "channels:\n  - channels/vela-argus.md\ncreated: 2026-05-20")
ch = rep(rep(B3, "  - channels/vela-argus.md\n", "  - channels/vela-argus.md\n  - channels/vela-metis.md\n"), "modified: 2026-06-02", "modified: 2026-08-13")
case("30-lock-channels-pointer", ch, "pass",
     "Pointer field 'channels' updated (a channel added) on a locked charter; §6 Standard editing: 'Pointer fields: ... channels (the pointer field is mutable as substrate moves)'.", base=B3)

fq = B.replace("\n", "\r\n")
fq = rep(fq, "capability_scope:\r\n  reads:\r\n    - agents/vela/\r\n    - channels/vela-*.md\r\n    - 99ed55fd\r\n  writes:\r\n    - agents/vela/\r\n    - channels/vela-*.md\r\n",
         "capability_scope:\r\n  writes: [agents/vela/, 'channels/vela-*.md']\r\n  reads: [agents/vela/, 'channels/vela-*.md', '99ed55fd']\r\n")
fq = rep(fq, "role: Chief of Staff", 'role: "Chief of Staff"')
fq = rep(fq, "agent_name: vela", "agent_name:   vela   ")
case("31-lock-reformat-only", fq, "pass",
     "Locked charter re-saved by another tool: CRLF, quoted role, flow lists with reads/writes swapped in order, extra spaces. No value changes, so nothing under §6 'Lock-break required' is touched.", base=B)

bb = rep(be, "modified_by: vela-v47", "modified_by: vela-v48\nlock_break: \"Mike-A112 verbatim 'approved' 2026-08-14 — Operating Notes cadence weekly → monthly\"")
bb = rep(bb, "modified: 2026-06-02", "modified: 2026-08-14")
case("32-lock-body-mike-break", bb, "pass",
     "Same body change as case 29, carried with a Mike-signed lock-break; §6 'Lock-break required (Mike signoff ...): Body content' is satisfied.", base=B)

json.dump(cases, open("/work/blind/49d/_capsule_cases.json", "w"), ensure_ascii=False, indent=1)
from collections import Counter
print(len(cases), Counter(c["expect"] for c in cases))
