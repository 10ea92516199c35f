"""Issue 64: the engine after the issue against the baseline, game by game on the same
openings and colours (both matches against Sjeng 11.2 at 1 s a move; disputed games left
out of both). Run from the repository root after gunzipping both games.pgn.gz (-k)."""
from pathlib import Path

from tdleaf.play import stats
from tdleaf.play.match import stored_outcome
from tdleaf.play.pgn import read_games


def scores(path):
    return {o.index: o.a_score for o in map(stored_outcome, read_games(Path(path))) if not o.disputed}

before = scores("runs/pns/sjeng-baseline/games.pgn")
after = scores("runs/pns/sjeng-after/games.pgn")
both = sorted(set(before) & set(after))
better = sum(after[i] > before[i] for i in both)
worse = sum(after[i] < before[i] for i in both)
print(f"games scored in both: {len(both)}; after scored {sum(after[i] for i in both):g}, "
      f"before {sum(before[i] for i in both):g}")
print(f"after better in {better}, worse in {worse}, equal in {len(both) - better - worse}; "
      f"sign test p = {stats.sign_test_p(better, worse):.3g}")
