"""The ABAB's ratios: per variant and over all five, tdleaf's nodes a second in the
fixed-time searches (1 s a position) after over before, per pair, their geometric mean
and its 95% interval (t over the pairs' log ratios); the fixed-depth node counts of each
pair must be equal (the same searches). Usage: python summary.py FOLDER (before-I.json(.gz),
after-I.json(.gz))."""
import glob
import gzip
import json
import math
import statistics as st
import sys

T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        d = json.load(fh)
    return {v["variant"]: (v["summary"]["tdleaf_time"]["nodes"], v["summary"]["tdleaf_time"]["seconds"],
                           v["summary"]["tdleaf_depth"]["nodes"]) for v in d["variants"]}


folder = sys.argv[1]
pairs = [(load(b), load(b.replace("before-", "after-")))
         for b in sorted(glob.glob(f"{folder}/before-*.json*"))]
variants = list(pairs[0][0])
print(f"{len(pairs)} pairs; nps = nodes / seconds of tdleaf's fixed-time searches")
for v in variants + ["all"]:
    rows = []
    for b, a in pairs:
        if v == "all":
            rows.append(tuple(sum(x[0] for x in r.values()) / sum(x[1] for x in r.values())
                              for r in (b, a)))
        else:
            assert b[v][2] == a[v][2], f"{v}: the fixed-depth searches differ"
            rows.append((b[v][0] / b[v][1], a[v][0] / a[v][1]))
    logs = [math.log(a / b) for b, a in rows]
    m, half = st.mean(logs), T95[len(logs)] * st.stdev(logs) / math.sqrt(len(logs))
    print(f"{v:12} before {st.mean(b for b, _ in rows) / 1e6:.3f}M after "
          f"{st.mean(a for _, a in rows) / 1e6:.3f}M ratio {math.exp(m):.3f} "
          f"[{math.exp(m - half):.3f}, {math.exp(m + half):.3f}] pairs "
          + " ".join(f"{a / b:.3f}" for b, a in rows))
