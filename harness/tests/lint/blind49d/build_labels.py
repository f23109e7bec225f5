import json
cc = json.load(open("_charter_cases.json")); kc = json.load(open("_capsule_cases.json"))
out = ["# blind49d labels — decided from the Reasoning Charter 0.1.0 and the charter capsule definition v1.0.3 only.\n"]
for c in cc + kc:
    out.append("[[case]]")
    for k in ["kind", "file", "base", "expect", "rule", "bump", "why"]:
        if k in c:
            out.append(f"{k} = {json.dumps(c[k], ensure_ascii=False)}")
    out.append("")
open("labels.toml", "w", encoding="utf-8").write("\n".join(out))
