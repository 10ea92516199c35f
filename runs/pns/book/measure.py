"""Does the book change the engine's moves? (issue 64 item 4)

For every position of a built book (search.solve.book) with a proof in it, the engine without
its book (the default values, a fresh game each position) chooses a move at each time
limit; the record says whether that move is one the book proves to lose, and, where the
book has a proved win, whether the engine's move wins too (proved again with a tree of
the book's size). Run from the repository root:

    python runs/pns/book/measure.py suicide runs/pns/book/suicide.json 0.1 1 > runs/pns/book/measure-suicide.json
"""

import json
import sys
import time

from search.alphabeta.engine import Engine
from search.solve.book import read_book
from search.solve.pns import PROVED, ProofSearch
from variants import Position


def main() -> None:
    variant, path, *limits = sys.argv[1:]
    book = read_book(path)
    engine = Engine(variant)
    engine.own_book = False
    engine.load_compiled()
    prover = ProofSearch(book.nodes)
    rows = []
    for key, entry in sorted(book.entries.items()):
        row = {"key": key, "wins": entry.wins, "losses": entry.losses}
        for limit in limits:
            engine.new_game()
            pos = Position.from_fen(key + " 0 1", variant)
            r = engine.search(pos, movetime=float(limit), leaf=False)
            won = None
            if entry.wins:
                after = pos.copy()
                after.push_uci(r.move)
                won = r.move in entry.wins or prover.solve(after, target="other").status == PROVED
            row[limit] = {"move": r.move, "refuted": r.move in entry.losses, "wins": won,
                          "time": round(r.time, 3)}
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    summary = {}
    for limit in limits:
        lost = [r for r in rows if r["losses"]]
        won = [r for r in rows if r["wins"]]
        summary[limit] = {
            "positions with refuted moves": len(lost),
            "engine plays a refuted move": sum(r[limit]["refuted"] for r in lost),
            "positions with a proved win": len(won),
            "engine's move wins (proved)": sum(bool(r[limit]["wins"]) for r in won),
        }
    json.dump({"variant": variant, "book": path, "limits": limits, "summary": summary,
               "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
