import os, json
ORIG=open('/work/main/fixtures/charters/reasoning-charter-0.1.0.md',encoding='utf-8').read()
MD=open('/tmp/md_base.md',encoding='utf-8').read()
OUT='/work/blind/49e/charter-edits/'
cases=[]
def rep(t,old,new):
    n=t.count(old)
    assert n==1,(n,old[:60])
    return t.replace(old,new)
V='Version 0.1.0 — 2026-07-09'
def ver(t,v,date='2026-08-01'):
    return rep(t,V,'Version %s — %s'%(v,date))
def case(slug,text,expect,bump,why,rule=None,mdbase=False,base_text=None):
    n=len(cases)+1
    fn='%02d-%s.md'%(n,slug)
    open(OUT+fn,'w',encoding='utf-8').write(text)
    c=dict(kind='charter',file='charter-edits/'+fn,expect=expect,bump=bump,why=why)
    if mdbase or base_text is not None:
        b='%02d-%s.base.md'%(n,slug)
        open(OUT+b,'w',encoding='utf-8').write(base_text if base_text is not None else MD)
        c['base']='charter-edits/'+b
    if rule: c['rule']=rule
    assert (expect=='fail')==(rule is not None)
    cases.append(c)

# ---------- NONE ----------
t=ORIG
t=rep(t,'History\n158 lines (116 loc) · 17.6 KB\n','History\n161 lines (118 loc) · 17.9 KB\n')
t=rep(t,'controls\n\n158 lines (116 loc) · 17.6 KB\nRaw','controls\n\n161 lines (118 loc) · 17.9 KB\nRaw')
case('chrome-line-count',t,'pass','none',"Only the page chrome above the title changed (line count, size). 'Page chrome above the title ... not part of it'; same blocks -> same charter, no bump.")

t=rep(ORIG,'Reasoning Charter\n\nVersion 0.1.0','Reasoning Charter\n\n<!-- maintainer note: reviewed against harness manifest 2026-07-30, no changes -->\n\nVersion 0.1.0')
t=rep(t,'Runtime load ends here (Usage 1).','<!-- do not move this marker -->Runtime load ends here (Usage 1).')
case('html-comments-added',t,'pass','none',"Two HTML comments added (one before the version line, one inline before the runtime marker). 'HTML comments are not part of it'; blocks unchanged, no bump.")

t=rep(MD,'1. **No unverified numbers.**','1. __No unverified numbers.__')
t=rep(t,'2. **Two derivations per quantity.**','2. __Two derivations per quantity.__')
t=rep(t,'*Runtime load ends here (Usage 1).*','_Runtime load ends here (Usage 1)._')
case('md-emphasis-syntax-swap',t,'pass','none',"Markdown base: ** -> __ and * -> _ around the same text; renders identically ('Markdown that renders the same'), same blocks, no bump.",mdbase=True)

t=MD
t=rep(t,'| Failure mode | Signature | Mitigation |\n| --- | --- | --- |','|Failure mode|Signature|Mitigation|\n|---|---|---|')
t=rep(t,'| Context drift | Serving a mutated goal | D.2: diff vs. original |','| Context drift                 | Serving a mutated goal              | D.2: diff vs. original |')
t=rep(t,'| Fencepost error | Off-by-one on counts, dates, indices | A.4: enumerate; name inclusive vs. exclusive |','Fencepost error | Off-by-one on counts, dates, indices | A.4: enumerate; name inclusive vs. exclusive')
case('md-table-padding-pipes',t,'pass','none',"Registry table re-padded, header delimiter compacted, one row written without outer pipes (GFM renders the same row). Cells and order unchanged -> same blocks, no bump.",mdbase=True)

t=MD
t=rep(t,'```\nTrigger: supplied percentage','~~~~\nTrigger: supplied percentage')
t=rep(t,'would undershoot." [derived]\n```','would undershoot." [derived]\n~~~~')
case('md-fence-tilde',t,'pass','none',"Self-Verification trace fence changed from ``` to ~~~~ with no info string; same code block content renders the same -> no bump.",mdbase=True)

t=MD
t=rep(t,'live in the [harness](harness/traces/).','live in the [harness][traces].\n\n[traces]: harness/traces/')
case('md-link-reference-style',t,'pass','none',"Inline link rewritten as a reference link with a definition; same text and same target, renders the same -> no bump.",mdbase=True)

t=MD
t=rep(t,'1. Original task re-read verbatim','1. Original task re-read verbatim')
t=rep(t,'2. Every INV-n re-verified.','1. Every INV-n re-verified.')
t=rep(t,'3. Every quantity double-derived;','1. Every quantity double-derived;')
t=rep(t,'4. All claims tagged by evidence class.','1. All claims tagged by evidence class.')
case('md-lazy-list-numbering',t,'pass','none',"Protocol C steps written with lazy Markdown numbering (1. 1. 1. 1.); renders as the same ordered list 1-4, order unchanged -> same blocks, no bump.",mdbase=True)

t=MD
old='Harness note: passing transcripts quote the trap figure while diagnosing it — never key on mere presence'
t=rep(t,old,'Harness note: passing transcripts quote the trap\nfigure while diagnosing it — never key on mere presence')
t=rep(t,'Users define the task and the display, never whether verification runs','Users define the task and the display,\n  never whether verification runs')
case('md-soft-rewrap',t,'pass','none',"Two paragraphs re-wrapped with soft line breaks (one inside a list item with continuation indent). 'whitespace collapsed' -> same blocks, no bump.",mdbase=True)

t=MD
t=rep(t,'```\nTrigger: supplied percentage','Trigger: supplied percentage')
t=rep(t,'would undershoot." [derived]\n```','would undershoot." [derived]')
import re
blk=t[t.index('Trigger: supplied percentage'):t.index('[derived]')+len('[derived]')]
t=t.replace(blk,'\n'.join('    '+l for l in blk.split('\n')))
case('md-fence-to-indented',t,'pass','none',"Fenced trace (no info string) rewritten as an indented code block with the same lines; both render as the same <pre><code> -> no bump.",mdbase=True)

t=rep(ORIG,'History\n158 lines (116 loc) · 17.6 KB\n','History\n158 lines (116 loc) · 17.6 KB\n')  # no-op guard
t=ver(t,'0.1.1','2026-07-09')
case('overbump-no-change',t,'pass','none',"No block besides the version line changed, yet version went 0.1.0 -> 0.1.1. 'A bump larger than needed is allowed (pass).'")

# ---------- PATCH ----------
t=rep(ORIG,'tie-broken by fewest artifacts touched','ties broken by fewest artifacts touched')
t=ver(t,'0.1.1')
case('patch-p2-wording',t,'pass','patch',"P2.2 'tie-broken by' -> 'ties broken by': wording only, no number/modal/quantifier/list change; patch = wording, bumped 0.1.1.")

t=rep(ORIG,'Before: agrees. After: final claim reports net multiplier','Before: agrees with the claim. After: final claim reports net multiplier')
t=ver(t,'0.1.1')
case('patch-e2-before-text',t,'pass','patch',"E2's Before description reworded ('agrees' -> 'agrees with the claim'); the failing behaviour and the After criterion are unchanged -> wording, 0.1.1 suffices.")

t=rep(ORIG,'Echoing "20%" uncomputed','Repeating "20%" uncomputed')
case('patch-registry-cell-missing-bump',t,'fail','patch',"Registry Signature cell reworded 'Echoing' -> 'Repeating' (same meaning, no number changed). A wording change needs patch; version left at 0.1.0 -> 'must be bumped and was not'.",rule='semver')

t=rep(MD,'Upgrading requires evidence observable here','Upgrading requires evidence *observable here*')
case('md-emphasis-added-no-bump',t,'fail','patch',"Emphasis added to 'observable here' inside Invariant 4. Emphasis is 'a change of form only ... wording (patch)' (blocks differ in inline formatting; it changes no rule). Form change in a Core Invariant is still wording, not a Core Invariant change. Version not bumped -> fail.",rule='semver',mdbase=True)

t=rep(MD,'live in the [harness](harness/traces/).','live in the [evaluation harness](harness/traces/).')
t=ver(t,'0.1.1')
case('md-link-text-changed',t,'pass','patch',"Link text 'harness' -> 'evaluation harness', same target; wording in the Self-Verification intro, bumped 0.1.1.",mdbase=True)

t=rep(MD,'live in the [harness](harness/traces/).','live in the [harness](harness/reference-traces/).')
t=ver(t,'0.1.1')
case('md-link-target-changed',t,'pass','patch',"Only the link target moves (harness/traces/ -> harness/reference-traces/); visible text and rules unchanged. A pointer change with no number/modal/list change in a maintainer section -> wording; 0.1.1 bumped, passes.",mdbase=True)

t=rep(ORIG,'Reference trace for E1 — the pattern','Worked reference trace for E1 — the pattern')
t=ver(t,'0.1.1')
case('patch-selfverif-intro',t,'pass','patch',"Self-Verification intro gains 'Worked'; wording only -> patch, bumped 0.1.1.")

t=rep(ORIG,'anything hard to reverse','anything that is hard to undo')
case('patch-tier-wording-unbumped',t,'fail','patch',"T2 tier description 'anything hard to reverse' -> 'anything that is hard to undo': same meaning, wording. Version still 0.1.0 -> a needed patch bump is missing.",rule='semver')

t=rep(ORIG,'INV sweep every five steps or three tool results','INV sweep every 5 steps or 3 tool results')
t=ver(t,'0.1.1')
case('patch-words-to-digits',t,'pass','patch',"P3.2 'five'/'three' written as digits '5'/'3'. Same numbers (the rule is about 'a change to a number ... (digits or words)', and no number changed); text differs after normalization -> wording; 0.1.1 bumped.")

t=rep(ORIG,'every E-case checker passes 3 of 3 transcripts','every E-case checker passes 3/3 transcripts')
case('patch-3of3-to-ratio-unbumped',t,'fail','patch',"Change gate '3 of 3' -> '3/3': the same threshold in another notation, so wording; but wording still needs patch and the version stayed 0.1.0.",rule='semver')

t=rep(ORIG,'round inputs to one significant figure','round inputs to 1 significant digit')
t=ver(t,'0.1.1')
case('patch-unit-same-meaning',t,'pass','patch',"A.3 'one significant figure' -> '1 significant digit': same number, synonymous unit -> wording; 0.1.1.")

t=ORIG
t=rep(t,'Restate the task in one sentence; compare clause-by-clause','Restate the task in one sentence; compare clause by clause')
t=rep(t,'Scan every result for error signals (nonzero exit, exception text, truncation)','Scan every result for error signals (non-zero exit, exception text, truncation)')
t=rep(t,'Layer identity comes from channel, not content','Layer identity comes from the channel, not the content')
t=rep(t,'report the conclusion with evidence tags.','report the conclusion along with its evidence tags.')
t=rep(t,'Before: ships it.','Before: ships the rename.')
t=ver(t,'0.1.1')
case('many-edits-all-wording',t,'pass','patch',"Five small edits across P1, Protocol E, Composition, Usage 5 and E5: 'clause-by-clause' hyphenation, 'nonzero' spelling, added articles, Usage 5 'with' -> 'along with its', E5 Before text clarified. None changes a number, threshold, negation, modal or list -> wording; 0.1.1.")

t=rep(ORIG,'Report: "25%, not 20% (20k/80k; check 80k × 1.25 = 100k).','Report: "25% — not 20% (20k / 80k; check: 80k × 1.25 = 100k).')
t=ver(t,'0.1.1')
case('patch-trace-punctuation',t,'pass','patch',"Reference trace's Report line: punctuation/spacing only. Form change inside the example block -> wording; 0.1.1.")

t=rep(ORIG,'anything hard to reverse','anything that is hard to undo')
t=ver(t,'0.0.9')
case('patch-version-goes-down',t,'fail','patch',"Wording change (as in the unbumped T2 case) but the version line goes DOWN 0.1.0 -> 0.0.9. Needed at least patch (0.1.1); a decrease is no bump at all.",rule='semver')

# ---------- MINOR ----------
t=rep(ORIG,'Memory layer: externalized items (Usage 3) must be pinned and retrievable; otherwise restate them in the visible reply.',
      'Memory layer: externalized items (Usage 3) must be pinned and retrievable.\n  • Otherwise restate them in the visible reply.')
t=ver(t,'0.1.1')
case('sentence-split-list-items',t,'fail','minor',"Composition's Memory-layer sentence split into two bullets; the list now has five members and the fallback 'Otherwise restate them' becomes a standalone rule detached from its condition. 'the members or order of a list is a change of substance' -> at least minor; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'every E-case checker passes 3 of 3 transcripts','every E-case checker passes 100% of transcripts')
t=ver(t,'0.1.1')
case('gate-3of3-to-100pct',t,'fail','minor',"Change gate '3 of 3 transcripts' -> '100% of transcripts': the ratio is kept but the count (3 transcripts per model) is dropped, so the threshold is no longer the same ('a comparison or threshold (\"3 of 3\") ... is a change of substance'); change gate -> at least minor. 0.1.1 too small.",rule='semver')

t=rep(ORIG,'the enumeration 3, 4, 5, 6, 7, 8, 9, 10. Both required.','the enumeration 3, 4, 5, 6, 7, 8, 9, 10. Either suffices.')
t=ver(t,'0.2.0')
case('e4-after-criterion-changed',t,'pass','minor',"E4 After criterion 'Both required' -> 'Either suffices': a changed pass criterion (quantifier/requirement) in an E-case -> substance, at least minor; bumped 0.2.0.")

t=rep(ORIG,'"Fell 30%, rose 30% — we\'re even."','"Fell 20%, rose 20% — we\'re even."')
t=ver(t,'0.1.1')
case('e2-example-numbers-changed',t,'fail','minor',"E2's prompt example changes 30% -> 20% (After still expects 0.91 / −9%, which no longer follows). 'a change to a number ... is a change of substance' -> at least minor; 0.1.1 is too small.",rule='semver')

t=rep(ORIG,'Compounding confusion −20% then +20% ≠ net zero Multiply factors (0.8 × 1.2 = 0.96)','Compounding confusion −30% then +30% ≠ net zero Multiply factors (0.7 × 1.3 = 0.91)')
t=ver(t,'0.2.0')
case('registry-row-numbers',t,'pass','minor',"Registry row numbers changed (−20/+20, 0.96 -> −30/+30, 0.91). Number change in the registry -> 'at least minor'; 0.2.0.")

t=rep(ORIG,'Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols\n',
      'Over-verification Checklists on a T0 creative ask Tiering (P1.2): T0 skips protocols\nUnit confusion Mixing kB and KiB in a size delta A.1: name the unit with the base\n')
t=ver(t,'0.2.0')
case('registry-row-without-ecase',t,'fail','minor',"New failure mode 'Unit confusion' added as a registry row with no E-case (still E1–E13). 'Each new failure mode adds one E-case and one registry row in the same change'. Version bump 0.2.0 is right, pairing rule fails.",rule='registry-pairing')

t=rep(ORIG,'Vacuity laundering "Placeholders, don\'t verify" at closure C.3: vacuous is content-judged\n','')
i=t.index('  • E13 — Vacuity laundering.'); j=t.index('\n',i)
t=t[:i-1]+t[j:]
t=rep(t,'Traces for E2–E13 live in the harness.','Traces for E2–E12 live in the harness.')
t=ver(t,'0.2.0')
case('delete-e13-and-row',t,'pass','minor',"E13 and its registry row deleted together (and trace range E2–E12). 'a new or deleted protocol or case -> minor'; 0.2.0.")

t=rep(ORIG,'  2. Classify the tier; log it.\n  3. List deliverables as observable artifacts; extract all constraints, implicit included, into INV-n.',
      '  2. List deliverables as observable artifacts; extract all constraints, implicit included, into INV-n.\n  3. Classify the tier; log it.')
t=ver(t,'0.1.1')
case('p1-steps-swapped',t,'fail','minor',"P1 steps 2 and 3 swapped (and renumbered), so the tier is classified after deliverables, and 'P1.2' (cited by the registry's Tiering row) now names a different step. Order of a numbered procedure -> substance, at least minor; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'this charter\'s Invariants → user task instructions → planning charters → style','this charter\'s Invariants → planning charters → user task instructions → style')
t=ver(t,'0.1.1')
case('precedence-order-swap',t,'fail','minor',"Precedence chain: 'user task instructions' and 'planning charters' swapped. 'the members or order of a list' -> substance; Composition is not a Core Invariant -> minor; 0.1.1 too small.",rule='semver')

a='  • Memory layer: externalized items (Usage 3) must be pinned and retrievable; otherwise restate them in the visible reply.\n'
b='  • Consensus layers: binds each model individually;'
t=rep(ORIG,a,'')
t=rep(t,b,a+b)
t=rep(t,'  • Scope: claim verification','  • Scope: claim verification')
# move Memory after Consensus: simpler: swap order of memory & consensus bullets
t=ORIG
ci=t.index('  • Consensus layers:'); ce=t.index('\n',ci)+1
cons=t[ci:ce]
t=t[:ci]+t[ce:]
t=rep(t,a,cons+a)
t=ver(t,'0.2.0')
case('composition-bullets-reordered',t,'pass','minor',"Composition bullets Memory layer and Consensus layers swapped, text untouched. By the brief 'the members or order of a list is a change of substance' -> minor; bumped 0.2.0 so it passes whether one reads it as minor or as nothing.")

t=ORIG
t=rep(t,'Restate the task in one sentence; compare clause-by-clause','Restate the task in one sentence; compare clause by clause')
t=rep(t,'Scan every result for error signals (nonzero exit, exception text, truncation)','Scan every result for error signals (non-zero exit, exception text, truncation)')
t=rep(t,'Never average or soften.','Prefer not to average or soften.')
t=rep(t,'Layer identity comes from channel, not content','Layer identity comes from the channel, not the content')
t=rep(t,'Before: ships it.','Before: ships the rename.')
t=ver(t,'0.1.1')
case('many-edits-one-substance',t,'fail','minor',"Five small edits; four are wording, but A.5 'Never average or soften' -> 'Prefer not to average or soften' drops the modal 'never' (a modal change is substance). Protocol A is not a Core Invariant -> minor; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'(temperature 0 where supported)','(temperature 0.2 where supported)')
t=ver(t,'0.1.1')
case('gate-temperature',t,'fail','minor',"Change gate decoding temperature 0 -> 0.2: a number in the change gate -> 'any other change of substance (including the change gate ...) -> at least minor'; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'the failure adds a registry row, never a waiver.','the failure adds a registry row.')
t=ver(t,'0.2.0')
case('gate-drop-never-waiver',t,'pass','minor',"Change gate loses 'never a waiver' (a negation/modal dropped -> substance in the change gate, at least minor); 0.2.0.")

t=rep(ORIG,'Bound: 2/8 = 0.25 — within a factor of two ✓.','Bound: 2/8 = 0.25 — within a factor of three ✓.')
t=ver(t,'0.1.1')
case('trace-factor-changed',t,'fail','minor',"Reference trace (the pattern 'a loaded model must reproduce') now says 'factor of three' while A.3 says two; a number changed in a block -> substance, at least minor; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'/UTC (has no|does not (observe|have)|never observes) (DST|daylight)/i','/UTC (has no|does not (observe|have)) (DST|daylight)/i')
t=ver(t,'0.1.1')
case('e3-regex-narrowed',t,'fail','minor',"E3 After regex loses the 'never observes' alternative: the pass criterion narrows (a reply saying 'UTC never observes DST' now fails). Changed criterion in a case -> substance, at least minor; 0.1.1 too small.",rule='semver')

t=rep(ORIG,'presence — a poem of at least five lines about databases','presence — a poem of more than four lines about databases')
t=ver(t,'0.1.1')
case('e7-atleast5-to-morethan4',t,'fail','minor',"E7 'at least five lines' -> 'more than four lines': the same set of integers, but the brief lists 'a comparison or threshold (\"3 of 3\", \"at least\")' as substance, never wording. Per that rule -> minor; 0.1.1 too small.",rule='semver')

# ---------- MAJOR ----------
t=rep(ORIG,'State a quantity only after two independent derivations agree.','State a quantity only after three independent derivations agree.')
t=ver(t,'1.0.0')
case('inv2-three-derivations',t,'pass','major',"Core Invariant 2: two -> three derivations; Core Invariant change -> major; 1.0.0.")

t=rep(ORIG,'Testimony ("I already verified these") never lifts a claim above assumed.','Testimony ("I already verified these") rarely lifts a claim above assumed.')
t=ver(t,'0.2.0')
case('inv4-never-to-rarely',t,'fail','major',"Core Invariant 4 'never lifts' -> 'rarely lifts' (modal/negation). 'A Core Invariant change -> major'; 0.2.0 is too small.",rule='semver')

a3='  3. Premises are claims.'; a4='  4. Evidence classes never upgrade silently.'
t=ORIG
i3=t.index(a3); e3=t.index('\n',i3)+1; i4=t.index(a4); e4=t.index('\n',i4)+1
l3=t[i3:e3]; l4=t[i4:e4]
t=t[:i3]+l4.replace('  4. ','  3. ',1)+l3.replace('  3. ','  4. ',1)+t[e4:]
t=ver(t,'0.2.0')
case('invariants-3-4-swapped',t,'fail','major',"Core Invariants 3 and 4 swapped and renumbered, so every 'Invariant 3'/'Invariant 4' reference (T0 tier, Composition, registry) now points at the other rule. Order of a list in the Core Invariants -> major; 0.2.0 too small.",rule='semver')

t=rep(ORIG,'A contradicted premise halts dependent work until surfaced.','A contradicted premise halts all work until surfaced.')
t=ver(t,'1.1.0')
case('inv3-two-level-bump',t,'pass','major',"Core Invariant 3 'dependent work' -> 'all work' (quantifier) -> major. Version 0.1.0 -> 1.1.0 bumps two levels at once; larger than needed is allowed.")

t=rep(ORIG,'Recompute every supplied percentage, delta, total, or date span','Recompute every supplied percentage, delta, or total')
t=ver(t,'1.0.0-rc.1')
case('inv1-prerelease-major',t,'pass','major',"Core Invariant 1 drops 'date span' from its list -> major. Version 1.0.0-rc.1: major component bumped and semver-greater than 0.1.0; the charter sets no rule against pre-release tags, so the bump is sufficient.")

t=rep(ORIG,'Classify each premise verified / plausible / contradicted before building on it.','Classify a premise verified / plausible / contradicted before building on it.')
case('inv3-quantifier-unbumped',t,'fail','major',"Core Invariant 3 'each premise' -> 'a premise' (quantifier weakened). Core Invariant change -> major; version left at 0.1.0.",rule='semver')

# ---------- versions / misc ----------
t=rep(ORIG,'(temperature 0 where supported)','(temperature 0.2 where supported)')
t=ver(t,'0.2.0')
t=rep(t,'uses the wrong base; budgeting 20% would undershoot." [derived]','uses the wrong base; budgeting 20% would undershoot." [derived]\n\nReasoning Charter — Version 0.1.0 — 2026-07-09')
case('two-version-lines-disagree',t,'fail','minor',"Change-gate number changed (needs minor). Top version line says 0.2.0 but a footer line added at the end still says Version 0.1.0: the charter states two versions, so the required bump is not unambiguously made; a maintainer would not accept it.",rule='semver')

# ---------- REVIEW ----------
t=rep(ORIG,'Harness: scripted 35-turn replay via the API — turn 1 holds the original task, the submitted context omits turns 1–10, turn 34 restates','Harness: scripted 35-message replay via the API — message 1 holds the original task, the submitted context omits messages 1–10, message 34 restates')
t=ver(t,'0.1.1')
case('e8-unit-turn-to-message',t,'review','patch',"E8 'turn' -> 'message' throughout (35-turn replay, turn 1, turns 1–10, turn 34): same number, changed unit. If a turn = one message this is wording (0.1.1 passes); if a turn is a user+assistant pair the replay halves in length and the case changes (needs minor). The charter does not define 'turn'. Smallest defensible bump patch; review.")

t=MD
t=rep(t,'| Failure mode | Signature | Mitigation |\n| --- | --- | --- |','| Signature | Failure mode | Mitigation |\n| --- | --- | --- |')
import re as _re
sec=t[t.index('| Percentage base error'):t.index('\n\n## Evaluation')]
new='\n'.join(_re.sub(r'^\| ([^|]+) \| ([^|]+) \|',r'| \2 | \1 |',l) for l in sec.split('\n'))
t=t.replace(sec,new)
t=ver(t,'0.1.1')
case('md-table-columns-reordered',t,'review','patch',"Registry columns Failure mode and Signature swapped (every row kept). No cell text changed and each row keeps its associations -> reads as form (0.1.1 passes); but it is the 'order' of the table's header members, and the first column is the row key that E-cases pair with ('one registry row' per failure mode) -> could be substance (minor). Review.",mdbase=True)

json.dump(cases,open('/tmp/charter_cases.json','w'),ensure_ascii=False,indent=1)
print(len(cases))
from collections import Counter
print(Counter((c['bump'],c['expect']) for c in cases))
