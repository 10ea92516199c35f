"""Issue 64, item 3: what a 4-piece endgame table would cost with today's builder
(search.solve.endgame), measured on one material and scaled to all of them. The 3-piece
tables of suicide's rules must be built (`tdleaf warmup --tables`): a 4-piece table's
captures lead there. Fixed work; run from the repository root:

    python runs/pns/tables-4piece/measure.py > runs/pns/tables-4piece/measure.txt
"""
import resource
import time

import numpy as np

from search.solve.endgame import DRAW, Tables, all_materials, material_key, material_name

tables = Tables("suicide")
print(f"3-piece tables loaded: {tables.load()}")
tables.limit = 4                     # the builder takes any limit; the shipped one is 3
key = material_key([1, 2, 9, 11])    # white knight and bishop against black rook and king
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
tables.build(key)
seconds = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
val = tables.tables[key]
valid = val != -32767
print(f"material {material_name(key)}: {val.size:,} slots, {int(valid.sum()):,} positions, "
      f"built in {seconds:.0f} s, peak memory {rss / 2**20:.2f} GiB (before: {rss0 / 2**20:.2f})")
print(f"  the side to move wins {np.mean(val[valid] > 0):.1%}, draws "
      f"{np.mean(val[valid] == DRAW):.1%}, loses {np.mean(val[valid] < 0):.1%}; "
      f"longest win {int(val.max()) - 1} plies")
four = len(all_materials(4)) - len(all_materials(3))
print(f"4-piece materials with both sides on the board: {four}; at this one's cost, "
      f"{four * seconds / 3600:.0f} CPU-hours and {four * val.nbytes / 2**30:.0f} GiB of "
      f"int16 values a set of rules (two sets: suicide; giveaway and antichess)")
