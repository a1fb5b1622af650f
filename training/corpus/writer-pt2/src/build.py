# Serialises hand-written source lines "labels|platform|topic|text" to JSONL.
# labels: comma-separated short codes, "-" = hard negative (no labels), "o" = ordinary (no labels).
import json, sys, os, glob
CODES = {"t":"toxicity","ts":"toxicity_severe","h":"hate","v":"violence","sx":"sexual","sh":"self_harm",
         "sp":"spam","pr":"self_promotion","pf":"profanity","fl":"flirtation"}
ORDER = list(CODES.values())
PLAT = {"chat","forum","marketplace","game","dating","comments","social","review"}
here = os.path.dirname(os.path.abspath(__file__))
for src in sorted(glob.glob(os.path.join(here, "*.txt"))):
    out = []
    for n, raw in enumerate(open(src, encoding="utf-8"), 1):
        raw = raw.rstrip("\n")
        if not raw.strip() or raw.startswith("#"): continue
        parts = raw.split("|", 3)
        if len(parts) != 4: sys.exit(f"{src}:{n}: bad line {raw!r}")
        lab, plat, topic, text = (p.strip() for p in parts)
        if plat not in PLAT: sys.exit(f"{src}:{n}: bad platform {plat}")
        if lab in ("-", "o"):
            labels, kind = [], ("hard_negative" if lab == "-" else "ordinary")
        else:
            ls = set(CODES[c] for c in lab.split(","))
            if "toxicity_severe" in ls: ls.add("toxicity")
            labels, kind = [p for p in ORDER if p in ls], "harmful"
        out.append(json.dumps({"text": text, "labels": labels, "lang": "pt", "platform": plat, "kind": kind, "topic": topic}, ensure_ascii=False))
    name = os.path.splitext(os.path.basename(src))[0] + ".jsonl"
    open(os.path.join(here, "..", name), "w", encoding="utf-8").write("\n".join(out) + "\n")
    print(name, len(out))
