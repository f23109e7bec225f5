import json
OUT='/work/blind/49e/capsules/'
cases=[]
def rep(t,old,new):
    n=t.count(old); assert n==1,(n,old[:60]); return t.replace(old,new)
FM='''---
uid: 5b1e07c2
type: charter
agent_name: vela
agent_class: executive
role: Chief of Staff
capability_scope:
  reads:
    - agents/vela/
    - channels/vela-*.md
  writes:
    - agents/vela/
    - channels/vela-argus.md
status: active
boot_protocol: playbook
created: 2026-05-20
created_by: vela-v46
modified: 2026-05-20
modified_by: vela-v46
channels:
  - channels/vela-argus.md
status_card: agents/vela/vela-status.md
---
'''
BODY='''
# Vela — Charter

## Identity

You are Vela, the Chief of Staff of the Crew of the Argo. You keep the crew's commitments, calendars and hand-offs in order so that the captain's decisions land.

Role: coordinate cross-agent work and keep every open commitment owned and dated.

See agents/vela/vela-activation.md and the activation registry for prior generations (V1–V45).

## Operating Notes

- Escalate to Argus on architectural questions; to Mike on anything that changes scope.
'''
BASE=FM+BODY
LOCKED=rep(BASE,'status: active\n','status: locked\nlocked_at: 2026-05-21\nlocked_by: vela-v46\nlocked_signoff: "Mike-A70 verbatim \'yes, lock it\' 2026-05-21"\n')
LOCKED=rep(LOCKED,'status_card: agents/vela/vela-status.md\n','status_card: agents/vela/vela-status.md\nsoul:\n  role: steward\n  values: [follow-through, candour]\n  voice: plain\n  decision_style: checklist-first\n')
def case(slug,text,expect,why,rule=None,base=None):
    n=len(cases)+1
    fn='%02d-%s.md'%(n,slug)
    open(OUT+fn,'w',encoding='utf-8').write(text)
    c=dict(kind='capsule',file='capsules/'+fn,expect=expect,why=why)
    if base is not None:
        b='%02d-%s.base.md'%(n,slug); open(OUT+b,'w',encoding='utf-8').write(base); c['base']='capsules/'+b
    if rule: c['rule']=rule
    assert (expect=='fail')==(rule is not None)
    cases.append(c)

# PASS
case('valid-active-executive',BASE,'pass',"All §2 required fields present and typed; enums valid (§7.2–7.4); capability_scope has reads+writes lists (§7.5); exactly one '## Identity' H2 with name, role and lineage pointer (§4, §7.6).")
case('valid-locked-with-pair',LOCKED,'pass',"status locked with both locked_at and locked_by (§7.7 atomic pair; §3 'REQUIRED once charter is LOCKED'). Optional soul object allowed (§3).")
t=rep(BASE,'## Identity\n','## 3. IDENTITY\n')
t=rep(t,'# Vela — Charter\n','# Vela — Charter\n\n## 1. Soul\n\nSteady, plain-spoken, allergic to undated promises.\n\n## 2. Lineage\n\nV1–V45; see the activation registry.\n')
case('valid-numbered-uppercase-identity',t,'pass',"Identity heading is '## 3. IDENTITY' after two other numbered H2s. §4 regex ^##\\s+(?:\\d+\\.\\s+)?Identity$ is case-insensitive and accepts the numbered prefix ('## 1. IDENTITY' listed as accepted); still exactly one match (§7.6).")
t=rep(BASE,'  reads:\n    - agents/vela/\n    - channels/vela-*.md\n  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n','  reads: []\n  writes: []\n')
case('valid-empty-scope-lists',t,'pass',"capability_scope reads: [] and writes: [] — §7.5 'has both reads: + writes: sub-fields (each a list; may be empty)'. Unusual but valid.")
t=rep(BASE,'uid: 5b1e07c2\ntype: charter\nagent_name: vela\nagent_class: executive\n','uid: 0d3c9a41\ntype: charter\nagent_name: silas\nagent_class: executive\n')
t=rep(t,'role: Chief of Staff\n','role: Publisher\n')
t=rep(t,'boot_protocol: playbook\n','boot_protocol: on-demand\n')
t=rep(t,'status: active\n','status: retired\n')
t=t.replace('Vela','Silas').replace('vela','silas')
t=rep(t,'You are Silas, the Chief of Staff of the Crew of the Argo.','You are Silas, once the Publisher of the Crew of the Argo; the publishing role has wound down.')
t=rep(t,"You keep the crew's commitments","You kept the crew's publications")
case('valid-retired-on-demand',t,'pass',"Retired executive (status: retired, boot_protocol on-demand, Identity narrative in the past tense). All §7.1–7.7 checks hold anyway; retired is a listed status (§7.4) and §7.8 only relaxes further. Unusual but valid.")
t=rep(BASE,'boot_protocol: playbook\n','boot_protocol: playbook   \n')
case('valid-unquoted-trailing-space',t,'pass',"boot_protocol: playbook followed by trailing spaces, unquoted. YAML plain scalars drop trailing whitespace, so the value is exactly 'playbook' (§7.3 passes). Contrast with the quoted case.")
t=BASE
t=rep(t,'uid: 5b1e07c2\n','uid: 9e41d0b7\n')
t=rep(t,'agent_name: vela\nagent_class: executive\nrole: Chief of Staff\n','agent_name: d.pm\nagent_class: director\nrole: Product Manager\n')
t=rep(t,'boot_protocol: playbook\n','boot_protocol: commissioned\n')
t=rep(t,'status: active\n','status: locked\nlocked_by: mike-a01\nlocked_at: 2026-05-22\n')
t=rep(t,'## Identity\n\nYou are Vela, the Chief of Staff of the Crew of the Argo. You keep the crew\'s commitments, calendars and hand-offs in order so that the captain\'s decisions land.\n\nRole: coordinate cross-agent work and keep every open commitment owned and dated.\n\nSee agents/vela/vela-activation.md and the activation registry for prior generations (V1–V45).',
 '## identity\n\nYou are d.pm, the product-management director of the Crew of the Argo.\n\nRole: own the release plan and its acceptance criteria.\n\nLineage: commissioned once per ADR-022; no per-generation lineage (see sa/CAPSULE.md).')
t=t.replace('agents/vela/','agents/d.pm/').replace('channels/vela-','channels/d.pm-').replace('vela-v46','mike-a01').replace('vela-status','d.pm-status').replace('# Vela — Charter','# d.pm — Charter')
assert 'vela' not in t.lower().replace('# vela — charter','')
case('valid-director-lowercase-heading',t,'pass',"Director charter: agent_class director, boot_protocol commissioned, locked_by listed before locked_at, status locked, heading '## identity' (lower case; regex is case-insensitive). Lineage pointer states there is none per ADR-022 — still a lineage summary (§4). Unusual but valid.")

t=rep(BASE,'status_card: agents/vela/vela-status.md\n','status_card: agents/vela/vela-status.md\nuser_facing: true\nsubsystem_hub:\n  - 99ed55fd\nmember_of: []\nlast_updated: 2026-05-20\n')
t=rep(t,'## Operating Notes\n','## Identity Notes\n\nNaming history: "Vela" since V12.\n\n## Operating Notes\n')
case('valid-optional-fields-identity-notes',t,'pass',"Optional fields user_facing (v1.0.3), subsystem_hub, an empty member_of list and hygiene last_updated are all allowed (§3: 'absence is not a defect'; extra optional fields are not forbidden). A second H2 '## Identity Notes' does not match ^##\\s+(?:\\d+\\.\\s+)?Identity$ (text after 'Identity'), so exactly one Identity H2 remains (§7.6).")

# FAIL §7
t=rep(BASE,'agent_class: executive\n','agent_class: Executive\n')
case('agent-class-wrong-case',t,'fail',"agent_class 'Executive' (capital E) on an active charter. §7.2 'value is one of executive | director'; the enum is a literal (only the §4 heading regex is declared case-insensitive).",rule='capsule §7.2')
t=rep(BASE,'boot_protocol: playbook\n','boot_protocol: "playbook "\n')
case('boot-protocol-quoted-trailing-space',t,'fail',"boot_protocol: \"playbook \" — the quoted scalar keeps the trailing space, so the value is not one of playbook | commissioned | on-demand (§7.3).",rule='capsule §7.3')
t=rep(BASE,'created: 2026-05-20\n','created: 20/05/2026\n')
case('created-date-other-format',t,'fail',"created: 20/05/2026 — not a date (YAML reads it as a string); §2 types created as 'date' and §7.1 requires fields 'present + correctly typed'.",rule='capsule §7.1')
t=rep(BASE,'status: active\nboot_protocol: playbook\n','status: active\nboot_protocol: playbook\nstatus: retired\n')
case('duplicated-status-key',t,'fail',"status appears twice (active, then retired). Duplicate mapping keys are invalid YAML, and the two values disagree, so status is not a single valid enum value: §7.1/§7.4 cannot be satisfied (retired would even switch §7.8 relaxation on).",rule='capsule §7.1')
t=rep(BASE,'  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n','')
case('scope-missing-writes',t,'fail',"capability_scope has reads but no writes sub-field (§7.5 'has both reads: + writes:').",rule='capsule §7.5')
t=rep(BASE,'  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n','  writes:\n')
case('scope-writes-null',t,'fail',"capability_scope.writes present with no value: YAML null, not an (empty) list. §7.5 'each a list; may be empty' allows [] but not null.",rule='capsule §7.5')
t=rep(BASE,'## Operating Notes\n','## 2. Identity\n\nYou are Vela (generation V46).\n\n## Operating Notes\n')
case('two-identity-sections',t,'fail',"Two H2s match the Identity regex ('## Identity' and '## 2. Identity'); §4/§7.6 require exactly one.",rule='capsule §7.6')
t=rep(BASE,'## Identity\n','## Identity:\n')
case('identity-heading-colon',t,'fail',"Heading '## Identity:' — the regex ends 'Identity$', so the colon fails it; no H2 matches (§7.6; §8 'Charter body with NO H2 matching').",rule='capsule §7.6')
t=rep(BASE,'## Identity\n','### Identity\n')
case('identity-as-h3',t,'fail',"Identity is an H3 ('### Identity'); §7.6 needs an H2 matching ^##\\s+... — '###' fails since \\s+ must follow '##'.",rule='capsule §7.6')
t=rep(BASE,'status: active\n','status: locked\nlocked_at: 2026-05-21\n')
case('locked-at-without-by',t,'fail',"locked_at present, locked_by absent (§7.7 'If locked_at: present, locked_by: must also be present').",rule='capsule §7.7')
t=rep(BASE,'type: charter\n','type: agent-charter\n')
case('type-agent-charter',t,'fail',"type: agent-charter — §8 forbidden ('deprecated third-variant typing').",rule='capsule §8')

# REVIEW
t=rep(BASE,'status: active\n','status: superseded\n')
case('status-superseded',t,'review',"status: superseded. §2's table and §7.4 list active|locked|retired|archived|suspended (no superseded), but §2's enum-semantics line and the capsule's own enforced_enums include superseded. Whether §7.4 fails depends on which list governs; review.")

# LOCK §6
t=rep(LOCKED,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-11\nmodified_by: vela-v47\n')
t=rep(t,'status_card: agents/vela/vela-status.md\n','status_card: agents/vela/status/vela-status.md\n')
case('lock-hygiene-pointer-edit',t,'pass',"Locked charter; only modified/modified_by (hygiene) and status_card (pointer) changed — §6 'Standard editing (no lock-break)'.",base=LOCKED)
t=rep(LOCKED,'role: Chief of Staff\n','role: Chief Operating Officer\n')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-12\nmodified_by: vela-v47\n')
case('lock-role-changed-no-signoff',t,'fail',"Locked charter; role changed with no Mike lock-break signoff recorded. §6: identity fields (agent_name, agent_class, role, scope, boot_protocol) need 'Lock-break required (Mike signoff per OS Invariant)'.",rule='capsule §6 lock',base=LOCKED)
t=rep(LOCKED,'role: Chief of Staff\n','role: Chief Operating Officer\n')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-12\nmodified_by: vela-v47\nlock_break_signoff: "Mike-A104 signed lock-break verbatim \'approved — vela takes ops\' 2026-06-12"\namendment_note: "role Chief of Staff -> Chief Operating Officer per Mike-A104 signed lock-break"\n')
t=rep(t,'You are Vela, the Chief of Staff of the Crew of the Argo.','You are Vela, the Chief Operating Officer of the Crew of the Argo.')
case('lock-role-changed-with-signoff',t,'pass',"Same identity-field change (role, and the body sentence naming it) but with a recorded Mike lock-break signoff and amendment note, the pattern this capsule itself uses ('per Mike-A103 signed lock-break'). §6 requirement met.",base=LOCKED)
base=rep(LOCKED,'soul:\n  role: steward\n  values: [follow-through, candour]\n  voice: plain\n  decision_style: checklist-first\n','')
t=rep(base,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-13\nmodified_by: vela-v47\n')
t=rep(t,'status_card: agents/vela/vela-status.md\n','status_card: agents/vela/vela-status.md\ndna:\n  model: frontier-2026-05\n  platform: claude-code\n')
case('lock-dna-added',t,'pass',"Locked charter without dna; dna added where previously absent. §6 'Optional substrate field ADDITIONS (adding soul, dna, ... where the field was previously absent)' are standard editing.",base=base)
t=rep(LOCKED,'  values: [follow-through, candour]\n','  values: [speed, candour]\n')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-14\nmodified_by: vela-v47\n')
case('lock-soul-values-mutated',t,'fail',"Locked charter; existing soul.values changed (follow-through -> speed) without signoff. §6 'Optional substrate field MUTATIONS to existing values (changing soul values ...)' require lock-break.",rule='capsule §6 lock',base=LOCKED)
t=rep(LOCKED,'See agents/vela/vela-activation.md and the activation registry for prior generations (V1–V45).','See agents/vela/vela-activation.md and the activation registry for prior generations (V1–V46).')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-15\nmodified_by: vela-v47\nlock_break_signoff: "vela-v47 self-approved (routine lineage refresh) 2026-06-15"\n')
case('lock-body-edit-self-signoff',t,'fail',"Locked charter; body text edited (lineage range) with a 'signoff' from the agent itself. §6: 'Body content' needs 'Lock-break required (Mike signoff ...)'; a self-approval is not Mike's signoff.",rule='capsule §6 lock',base=LOCKED)
t=rep(LOCKED,'channels:\n  - channels/vela-argus.md\n','channels:\n  - channels/vela-argus.md\n  - channels/vela-metis.md\n')
t=rep(t,'boot_protocol: playbook\n','boot_protocol: on-demand\n')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-16\nmodified_by: vela-v47\n')
case('lock-channels-plus-boot-protocol',t,'fail',"Locked charter; a channel added (pointer field, routine) but boot_protocol also changed playbook -> on-demand, an identity field, with no Mike signoff (§6).",rule='capsule §6 lock',base=LOCKED)
t=rep(LOCKED,'channels:\n  - channels/vela-argus.md\n','channels:\n  - channels/vela-argus.md\n  - channels/vela-metis.md\n')
t=rep(t,'  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n','  writes:\n    - agents/vela/\n    - channels/vela-argus.md\n    - channels/vela-metis.md\n')
t=rep(t,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-17\nmodified_by: vela-v47\n')
case('lock-channel-and-scope-write',t,'fail',"Locked charter; channels gains vela-metis.md (routine pointer edit) but capability_scope.writes also gains that path. capability_scope is the renamed 'scope' identity field (§2: 'Renamed from scope'), i.e. WHAT the agent governs -> §6 lock-break required; none recorded.",rule='capsule §6 lock',base=LOCKED)

base=LOCKED
t=rep(base,'modified: 2026-05-20\nmodified_by: vela-v46\n','modified: 2026-06-18\nmodified_by: vela-v47\nretirement_acts:\n  - hand open commitments to argus\n  - archive status card\n')
case('lock-retirement-acts-added',t,'pass',"Locked charter gains retirement_acts where the field was absent, plus hygiene modified/modified_by. §6 lists retirement_acts among 'Optional substrate field ADDITIONS' -> standard editing, no lock-break.",base=base)

json.dump(cases,open('/tmp/cap_cases.json','w'),ensure_ascii=False,indent=1)
from collections import Counter
print(len(cases),Counter(c['expect'] for c in cases))
