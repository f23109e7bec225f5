import json
OUT = "/work/blind/49c/capsules"
cases = []
FM = """uid: 3f9a2c71
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
    - channels/vela-argus.md
status: active
boot_protocol: playbook
created: 2026-05-20
created_by: vela-v46
modified: 2026-06-01
modified_by: vela-v47"""
BODY = """# Vela — Charter

## Identity

You are Vela, the Chief of Staff of the Crew of the Argo. You keep the crew's priorities, hand-offs and open questions in order so that every other agent can work on one thing at a time.

Role: Chief of Staff — the crew's coordinator of priorities and hand-offs.

Lineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V46).

## Scope

Vela reads the agent folders and the channels she is party to, and writes only her own folder and the argus channel.

## Operating Notes

- Open every session by reading the newest status card.
- Hand-offs are written, never spoken: one line per open question, in the channel.
"""
def doc(fm, body=BODY):
    return "---\n" + fm + "\n---\n\n" + body

def rep(text, pairs):
    for old, new in pairs:
        n = text.count(old); assert n == 1, (old, n)
        text = text.replace(old, new)
    return text

def case(slug, text, expect, why, rule=None, base=None):
    n = len(cases) + 1
    name = f"{n:02d}-{slug}"
    open(f"{OUT}/{name}.md", "w", encoding="utf-8").write(text)
    c = dict(kind="capsule", file=f"capsules/{name}.md", expect=expect, why=why)
    if base is not None:
        open(f"{OUT}/{name}.base.md", "w", encoding="utf-8").write(base)
        c["base"] = f"capsules/{name}.base.md"
    if rule: c["rule"] = rule
    cases.append(c)

D = doc(FM)
# ---------------- §7 / §8 / frontmatter ----------------
case("valid-unquoted", D, "pass", "All §2 required fields present and typed: uid 8-hex, type charter, agent_class executive, boot_protocol playbook, status active, capability_scope with reads + writes lists, created/modified dates + *_by strings; exactly one \"## Identity\" with name, role and lineage (§4). Passes §7.1–7.7.")
FMQ = """# Vela's charter (commissioned 2026-05-20)
status: "active"
type: "charter"   # not "document" (§8)
uid: '3f9a2c71'
agent_name: "vela"
role: 'Chief of Staff'
agent_class: "executive"
boot_protocol: 'playbook'
capability_scope:
  writes: ["agents/vela/", "channels/vela-argus.md"]
  reads: ["agents/vela/", "channels/vela-*.md"]
created_by: "vela-v46"
created: 2026-05-20
modified_by: "vela-v47"
modified: 2026-06-01
"""
case("quoted-reordered-commented", doc(FMQ.rstrip("\n")), "pass", "Same charter with quoted YAML values (single and double), keys in another order, YAML comments, and flow-style lists (dates left unquoted). Key order and quoting do not matter to §2; every value still parses to the right type (the uid '3f9a2c71' is a string either way) and enum values match §7.2–7.4.")
case("missing-role", doc(rep(FM, [("role: Chief of Staff\n", "")])), "fail", "`role` removed from frontmatter. §2 \"valid charter if + only if its frontmatter declares all of these fields\"; §7.1 \"All required frontmatter fields (§2) are present\".", rule="capsule §7.1")
case("capability-scope-as-list", doc(rep(FM, [("capability_scope:\n  reads:\n    - agents/vela/\n    - channels/vela-*.md\n    - 99ed55fd\n  writes:\n    - agents/vela/\n    - channels/vela-argus.md",
                                            "capability_scope:\n  - agents/vela/\n  - channels/vela-argus.md")])),
     "fail", "capability_scope is a YAML list, not an object with reads/writes: wrong type for an \"object\" field (§2) and §7.5 \"capability_scope: object has both reads: + writes: sub-fields\".", rule="capsule §7.5")
case("old-scope-name", doc(rep(FM, [("capability_scope:\n", "scope:\n")])), "fail", "The reads/writes object is under the old name `scope`; §2 says it was \"Renamed from scope in v1.72\" to capability_scope, so the required capability_scope is missing (§7.1).", rule="capsule §7.1")
case("empty-reads-writes", doc(rep(FM, [("capability_scope:\n  reads:\n    - agents/vela/\n    - channels/vela-*.md\n    - 99ed55fd\n  writes:\n    - agents/vela/\n    - channels/vela-argus.md",
                                      "capability_scope:\n  reads: []\n  writes: []")])),
     "pass", "Boundary of §7.5: both sub-fields present as empty lists — \"each a list; may be empty\". Passes.")
case("writes-missing", doc(rep(FM, [("  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n", "")])), "fail", "capability_scope has reads but no writes: §7.5 \"has both reads: + writes: sub-fields\".", rule="capsule §7.5")
case("reads-is-string", doc(rep(FM, [("  reads:\n    - agents/vela/\n    - channels/vela-*.md\n    - 99ed55fd\n", "  reads: agents/vela/\n")])), "fail", "capability_scope.reads is a scalar string, not a list: §7.5 \"(each a list; may be empty)\".", rule="capsule §7.5")
case("agent-class-session-agent", doc(rep(FM, [("agent_class: executive", "agent_class: session-agent")])), "fail", "§7.2 \"agent_class: value is one of executive | director\"; §8 forbids other values (\"sa.* must use session-agent.capsule\").", rule="capsule §7.2")
FMDIR = rep(FM, [("uid: 3f9a2c71", "uid: 0b7d4e19"), ("agent_name: vela", "agent_name: d.pm"), ("agent_class: executive", "agent_class: director"), ("role: Chief of Staff", "role: Program Manager"),
                 ("boot_protocol: playbook", "boot_protocol: commissioned"), ("created_by: vela-v46", "created_by: argus-a71"), ("modified_by: vela-v47", "modified_by: argus-a72")])
BDIR = BODY.replace("Vela — Charter", "d.pm — Charter").replace("You are Vela, the Chief of Staff of the Crew of the Argo. You keep the crew's priorities, hand-offs and open questions in order so that every other agent can work on one thing at a time.",
        "You are d.pm, the Program Manager of the Crew of the Argo, commissioned once by the principal per ADR-022.").replace("Role: Chief of Staff — the crew's coordinator of priorities and hand-offs.", "Role: Program Manager — keeps the release plan and its milestones honest.").replace(
        "Lineage: see agents/vela/vela-activation.md and the activation registry for prior generations (V1 → V46).", "Lineage: directors have no per-generation lineage; see agents/d.pm/d.pm-activation.md for the commissioning record.").replace("Vela reads", "d.pm reads").replace(" she is ", " it is ").replace(" her own ", " its own ")
case("director-commissioned", doc(FMDIR, BDIR), "pass", "Director-class charter: agent_class director (§7.2), boot_protocol commissioned (§7.3), other fields valid, Identity section names the agent, role and lineage pointer. Passes.")
case("director-on-demand", doc(rep(FMDIR, [("boot_protocol: commissioned", "boot_protocol: on-demand")]), BDIR), "pass", "Director with boot_protocol on-demand. §2 describes on-demand as an executive sub-pattern, but §7.3 only checks \"value is one of playbook | commissioned | on-demand\" — an unusual choice, not a violation.")
case("boot-protocol-underscore", doc(rep(FM, [("boot_protocol: playbook", "boot_protocol: on_demand")])), "fail", "boot_protocol \"on_demand\" (underscore) is not one of the §7.3 values \"playbook | commissioned | on-demand\".", rule="capsule §7.3")
case("status-superseded", doc(rep(FM, [("status: active", "status: superseded")])), "review", "status: superseded. §7.4 and the §2 table list active | locked | retired | archived | suspended (superseded absent → fail §7.4), but §2's enum-semantics line reads \"status: ∈ {active, locked, retired, archived, suspended, superseded}\" and the definition's own enforced_enums include superseded (→ pass). The definition contradicts itself.")
case("suspended-missing-created-by", doc(rep(FM, [("status: active", "status: suspended"), ("created_by: vela-v46\n", "")])), "fail", "status suspended, created_by missing. §7.8 relaxes checks 1–7 only \"If status: retired or status: archived\"; suspended is not relaxed, so §7.1 applies: required field missing.", rule="capsule §7.1")
case("retired-missing-created-by", doc(rep(FM, [("status: active", "status: retired"), ("created_by: vela-v46\n", "")])), "pass", "Same gap but status retired: §7.8 \"If status: retired or status: archived, checks 1-7 are RELAXED at WARN-only\" — retired charters \"preserve original substrate as honest historical record\". Not a failure (at most a warning).")
case("archived-old-scope-name", doc(rep(FM, [("status: active", "status: archived"), ("capability_scope:\n", "scope:\n")])), "pass", "Archived charter that still uses the pre-v1.72 `scope` name (capability_scope missing). §7.8 relaxes checks 1–7 for archived charters; enforcement \"applies only to live active + locked status\". Passes (warning at most).")
case("identity-numbered-uppercase", doc(FM, BODY.replace("## Identity", "## 12. IDENTITY")), "pass", "Heading \"## 12. IDENTITY\" matches ^##\\s+(?:\\d+\\.\\s+)?Identity$ case-insensitively (multi-digit prefix allowed: \"any numbered-prefix ## N. Identity variant\"). §7.6 passes.")
case("identity-lowercase", doc(FM, BODY.replace("## Identity", "## identity")), "pass", "\"## identity\" — the regex is case-insensitive (§4, §7.6). Passes.")
case("identity-numbered-exact", doc(FM, BODY.replace("## Identity", "## 1. Identity")), "pass", "\"## 1. Identity\" — exactly the accepted numbered form (§4 list); one space after the dot satisfies \\s+. Compare the \"## 1.Identity\" case. §7.6 passes.")
case("identity-no-space-after-dot", doc(FM, BODY.replace("## Identity", "## 1.Identity")), "fail", "\"## 1.Identity\": the regex needs whitespace after the number's dot (\\d+\\.\\s+), so no H2 matches — one character past the accepted \"## 1. Identity\". §7.6 / §8 \"NO H2 matching\".", rule="capsule §7.6")
case("identity-as-h3", doc(FM, BODY.replace("## Identity", "### Identity")), "fail", "Identity is an H3 (\"### Identity\"); §4 requires \"exactly one H2 section\" matching the regex; no H2 matches (^##\\s+ does not match ###).", rule="capsule §7.6")
case("identity-twice", doc(FM, BODY.replace("## Operating Notes", "## Identity\n\nVela is also the crew's note-taker.\n\n## Operating Notes")), "fail", "Two H2 \"## Identity\" sections; §7.6 \"Body contains exactly one H2 section matching\" — two is one past the limit.", rule="capsule §7.6")
case("locked-at-without-locked-by", doc(rep(FM, [("status: active", "status: locked\nlocked_at: 2026-05-20")])), "fail", "locked_at present, locked_by absent: §7.7 \"If locked_at: present, locked_by: must also be present (atomic LOCK metadata)\".", rule="capsule §7.7")
case("locked-by-without-locked-at", doc(rep(FM, [("status: active", "status: locked\nlocked_by: mike-a70")])), "fail", "locked_by without locked_at. §7.7's check is written one way, but §3 defines them as an \"atomic pair, REQUIRED once charter is LOCKED\", and status is locked — so locked_at is missing.", rule="capsule §7.7")
case("status-locked-no-lock-fields", doc(rep(FM, [("status: active", "status: locked")])), "fail", "status locked with neither locked_at nor locked_by: §3 \"locked_at + locked_by — atomic pair, REQUIRED once charter is LOCKED ... (these fields transition from optional to required at the moment of LOCK signoff)\".", rule="capsule §3")
case("status-locked-complete", doc(rep(FM, [("status: active", "status: locked\nlocked_at: 2026-05-20\nlocked_by: mike-a70")])), "pass", "status locked with both locked_at and locked_by (§3 pair, §7.7). Passes.")
case("type-agent-charter", doc(rep(FM, [("type: charter", "type: agent-charter")])), "fail", "§8 forbids \"type: agent-charter on any file (deprecated third-variant typing)\"; the required literal type \"charter\" (§2) is also missing.", rule="capsule §8")
case("type-document", doc(rep(FM, [("type: charter", "type: document")])), "fail", "§8 forbids \"type: document on any file containing charter-shaped frontmatter (use type: charter)\" — this frontmatter is charter-shaped.", rule="capsule §8")
case("uid-nine-hex", doc(rep(FM, [("uid: 3f9a2c71", "uid: 3f9a2c71e")])), "fail", "uid has 9 hex characters; §2 \"uid | 8-hex string\" — one past the limit; §7.1 \"correctly typed\".", rule="capsule §7.1")
case("uid-unquoted-digits", doc(rep(FM, [("uid: 3f9a2c71", "uid: 20260520")])), "fail", "uid: 20260520 unquoted — eight characters that are all hex digits, but YAML reads an integer, not a string; §2 requires an \"8-hex string\" and §7.1 \"correctly typed\". Quoting it ('20260520') would pass.", rule="capsule §7.1")
POINTER = """# Vela — Charter

## Identity

See vault/files/3f9a2c71.md.

## Scope

See capability_scope in the frontmatter.
"""
case("pointer-only-identity", doc(FM, POINTER), "fail", "The Identity section is a bare pointer — no name in narrative form, no role sentence (§4 \"MUST contain at minimum\"); §8 forbids a \"Charter body that consists entirely of pointers without identity narrative\".", rule="capsule §8")
case("user-facing-optional", doc(rep(FM, [("modified_by: vela-v47", "modified_by: vela-v47\nuser_facing: true\ngovernor: \"operating-agreement\"\nmember_of:\n  - 8dd772a0")])), "pass", "Adds the optional §3 fields user_facing (boolean, v1.0.3), governor and member_of; \"absence is not a defect\" and their presence breaks no check. Passes.")

# ---------------- §6 lock cases ----------------
LFM = rep(FM, [("status: active", "status: locked\nlocked_at: 2026-05-20\nlocked_by: mike-a70")])
LBASE = doc(LFM)
case("lock-hygiene-only", doc(rep(LFM, [("modified: 2026-06-01", "modified: 2026-08-02"), ("modified_by: vela-v47", "modified_by: vela-v49")])), "pass",
     "Locked base; the edit changes only modified and modified_by — \"Standard editing (no lock-break): Hygiene fields: last_updated, modified, modified_by\".", base=LBASE)
case("lock-retirement-acts-and-status-card-added", doc(rep(LFM, [("modified: 2026-06-01", "modified: 2026-08-02"), ("modified_by: vela-v47", "modified_by: vela-v49\nretirement_acts:\n  - hand open questions to argus\n  - archive the channel\nstatus_card: agents/vela/vela-status.md")])), "pass",
     "retirement_acts added where absent (\"Optional substrate field ADDITIONS\") and a status_card pointer added (\"Pointer fields\"), plus hygiene dates: all \"Standard editing (no lock-break)\".", base=LBASE)
case("lock-role-changed-no-break", doc(rep(LFM, [("role: Chief of Staff", "role: Chief of Operations"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "fail",
     "role changed on a locked charter with no lock-break recorded; §6 \"Lock-break required (Mike signoff per OS Invariant): ... Identity fields: agent_name, agent_class, role, scope, boot_protocol\".", rule="capsule §6 lock", base=LBASE)
case("lock-role-changed-mike-break", doc(rep(LFM, [("role: Chief of Staff", "role: Chief of Operations"), ("modified: 2026-06-01", "modified: 2026-08-02"), ("modified_by: vela-v47", "modified_by: vela-v49\nlock_break: \"Mike-A121 signed lock-break ('approved') 2026-08-02 — role Chief of Staff → Chief of Operations\"")]),
                                         BODY.replace("the Chief of Staff of the Crew", "the Chief of Operations of the Crew").replace("Role: Chief of Staff —", "Role: Chief of Operations —")), "pass",
     "role (and the matching Identity body sentences) changed with a recorded Mike signoff — \"Lock-break required (Mike signoff per OS Invariant)\" is met, in the same form the definition itself records its own amendments (\"per Mike-A103 signed lock-break ('approved')\").", base=LBASE)
case("lock-role-changed-self-approved", doc(rep(LFM, [("role: Chief of Staff", "role: Chief of Operations"), ("modified: 2026-06-01", "modified: 2026-08-02"), ("modified_by: vela-v47", "modified_by: vela-v49\nlock_break: \"vela-v49 self-approved lock-break 2026-08-02 — role rename\"")])), "fail",
     "role changed with a lock-break signed by the agent itself, not Mike. §6 requires \"Mike signoff per OS Invariant\"; a self-approval is not a lock-break.", rule="capsule §6 lock", base=LBASE)
case("lock-body-typo-fix", doc(LFM, BODY.replace("so that every other agent can work on one thing at a time.", "so that every other agent can work on one thing at once.")), "fail",
     "Only a body sentence in Identity reworded, no lock-break. §6 lists \"Body content\" first under \"Lock-break required\" — no size exemption.", rule="capsule §6 lock", base=LBASE)
case("lock-soul-added", doc(rep(LFM, [("modified_by: vela-v47", "modified_by: vela-v49\nsoul:\n  role: steward of hand-offs\n  values: [clarity, follow-through]\n  voice: brief, warm\n  decision_style: writes it down first"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "pass",
     "soul added where it was absent: \"Optional substrate field ADDITIONS (adding soul, dna, channels, retirement_acts where the field was previously absent)\" are standard editing, no lock-break.", base=LBASE)
SOULFM = rep(LFM, [("modified_by: vela-v47", "modified_by: vela-v47\nsoul:\n  role: steward of hand-offs\n  values: [clarity, follow-through]\n  voice: brief, warm\n  decision_style: writes it down first")])
case("lock-soul-values-mutated", doc(rep(SOULFM, [("values: [clarity, follow-through]", "values: [speed, follow-through]"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "fail",
     "Base already has soul; the edit changes soul.values with no lock-break. §6 \"Optional substrate field MUTATIONS to existing values (changing soul values ...)\" require a lock-break.", rule="capsule §6 lock", base=doc(SOULFM))
CHFM = rep(LFM, [("modified_by: vela-v47", "modified_by: vela-v47\nchannels:\n  - channels/vela-argus.md")])
case("lock-channels-pointer-moved", doc(rep(CHFM, [("channels:\n  - channels/vela-argus.md", "channels:\n  - channels/vela-argus.md\n  - channels/vela-metis.md"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "pass",
     "channels (a pointer field) gains a second channel; §6 lists channels among \"Pointer fields\" under \"Standard editing (no lock-break)\" — \"mutable as substrate moves\".", base=doc(CHFM))
case("lock-capability-scope-widened", doc(rep(LFM, [("    - channels/vela-argus.md\n", "    - channels/vela-argus.md\n    - agents/\n"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "fail",
     "capability_scope.writes gains \"agents/\" (every agent's folder) with no lock-break. §6 lists scope among identity fields (capability_scope is its v1.72 name) and \"lock-break is required for anything that changes ... WHAT they govern\".", rule="capsule §6 lock", base=LBASE)
LFMQ = rep(LFM, [("role: Chief of Staff\n", ""), ("status: locked\n", "status: \"locked\"\nrole: \"Chief of Staff\"\n"), ("modified: 2026-06-01", "modified: 2026-08-02")])
case("lock-requoted-reordered", doc(LFMQ), "pass",
     "role and status re-quoted and moved (same values), plus modified updated. No identity field's value changed, so no lock-break is needed; quoting and key order are not mutations.", base=LBASE)
case("lock-boot-protocol-changed-no-break", doc(rep(LFM, [("boot_protocol: playbook", "boot_protocol: on-demand"), ("modified: 2026-06-01", "modified: 2026-08-02")])), "fail",
     "boot_protocol playbook → on-demand on a locked charter without a lock-break; boot_protocol is an identity field under §6 \"Lock-break required\".", rule="capsule §6 lock", base=LBASE)
case("lock-body-changed-mike-break", doc(rep(LFM, [("modified: 2026-06-01", "modified: 2026-08-02"), ("modified_by: vela-v47", "modified_by: vela-v49\nlock_break: \"Mike-A121 signed lock-break ('yes, proceed') 2026-08-02 — Operating Notes: add hand-off deadline\"")]),
                                         BODY.replace("- Hand-offs are written, never spoken: one line per open question, in the channel.\n", "- Hand-offs are written, never spoken: one line per open question, in the channel.\n- Hand-offs close within one session.\n")), "pass",
     "Body (Operating Notes) changed under a recorded Mike lock-break ('yes, proceed'); §6 body content needs a lock-break and has one.", base=LBASE)

def tq(s): return json.dumps(s, ensure_ascii=False)
with open("/work/blind/49c/build/capsule_labels.toml", "w", encoding="utf-8") as f:
    for c in cases:
        f.write("[[case]]\n")
        for k in ("kind", "file", "base", "expect", "rule", "why"):
            if k in c: f.write(f"{k} = {tq(c[k])}\n")
        f.write("\n")
from collections import Counter
print(len(cases), Counter(c["expect"] for c in cases), sum(1 for c in cases if "base" in c))
