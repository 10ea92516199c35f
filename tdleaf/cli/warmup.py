"""``tdleaf warmup``: load or compile all of the compiled (numba) code now."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial

from . import add_command

DESCRIPTION = """\
Load, or compile the first time, every part of tdleaf's compiled (numba) code: the
rules of every variant, both alpha-beta modes (with quiescence) in every variant, the
search with the added feature blocks (--features psq+BLOCK), the evaluation and its
features, the heuristic prior, MCTS, the proof-number search, the endgame tables'
builder, and the TDLeaf learning code (a short self-play game and its update). numba caches the machine code on disk
(NUMBA_CACHE_DIR if set, else __pycache__ beside the sources, else a per-user
folder), so later runs only load it.

Run it once after installing (and in CI), so that the first `tdleaf learn` does not sit
at 0% while compiling and the first moves of `tdleaf uci`/`tdleaf xboard` do not wait
for it. Prints one line per part with the seconds it took.

--tables also builds every endgame table of suicide and of giveaway/antichess (up to
3 pieces, by retrograde analysis; some minutes) and saves them in the per-user data
folder ($TDLEAF_DATA, else ~/.local/share/tdleaf), where the engine loads them before
its first timed move: it plays their moves in those endgames. Without them it uses only
the tables it has built in the same process."""


def parts() -> list[tuple[str, Callable[[], None]]]:
    """Every part, in order, as ``(name, run)``."""
    from search.alphabeta.modes import SEARCH_MODES
    from search.protocol import warm
    from variants.spec import VARIANTS

    out: list[tuple[str, Callable[[], None]]] = [("libraries and modules", _import_all)]
    out += [(f"rules {v}", partial(warm.rules, v)) for v in VARIANTS]
    out += [(f"search {mode} (all variants)", partial(_each, partial(_search, mode)))
            for mode in SEARCH_MODES]
    out += [("search with leaf blocks (all variants)", partial(_each, warm.leaf_blocks)),
            ("evaluation (all variants)", partial(_each, warm.evaluation)),
            ("prior (all variants)", partial(_each, warm.prior)),
            ("mcts (all variants)", partial(_each, warm.mcts)),
            ("network encoding (all variants)", partial(_each, warm.encoding)),
            ("proof-number search", warm.proof),
            ("endgame tables' builder", warm.endgame),
            ("learning (all variants)", partial(_each, learning))]
    return out


def _import_all() -> None:
    """numba, NumPy, python-chess and every compiled module (without running any)."""
    import search.alphabeta.engine
    import search.mcts.driver  # noqa: F401
    import tdleaf.learn.selfplay  # noqa: F401
    import variants.position  # noqa: F401


def _search(mode: str, variant: str) -> None:
    from search.protocol import warm
    warm.search(variant, mode)


def _each(run: Callable[[str], None]) -> None:
    from variants.spec import VARIANTS
    for v in VARIANTS:
        run(v)


def learning(variant: str) -> None:
    """The TDLeaf code path of ``tdleaf learn``: a short self-play game (random opening,
    random tie-breaks, noise, the leaves' features) and its weight update."""
    import numpy as np

    from search import Engine
    from search.protocol.warm import WEIGHTS
    from tdleaf.learn.config import TABLE_NOISE
    from tdleaf.learn.selfplay import play_game
    from tdleaf.learn.td import TemporalCoherence, apply_update, recommended_change
    from variants import random_line

    engine = Engine(variant, WEIGHTS, hash_mb=1, random_ties=True, noise=TABLE_NOISE, seed=0)
    rec = play_game(engine, variant, 1, seed=0, max_plies=6, opening=random_line(variant, 2, 0) or ())
    w = engine.w.copy()
    change = recommended_change(rec.trajectory, 0.7, 0.5)
    apply_update(w, change, TemporalCoherence(len(w)), 1.0, np.ones(len(w), dtype=bool))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``warmup`` command."""
    p = add_command(subparsers, "warmup", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", action="store_true",
                   help="also build and save every endgame table (suicide, giveaway; minutes)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    cache = os.environ.get("NUMBA_CACHE_DIR")
    print(f"tdleaf warmup: numba cache {cache if cache else 'beside the sources (__pycache__)'}",
          flush=True)
    start = time.perf_counter()
    jobs = parts()
    if args.tables:
        from search.protocol import warm
        jobs.append(("endgame tables (all, saved)", partial(warm.endgame, True)))
    for name, job in jobs:
        print(f"  {name:<32}", end="", flush=True)
        t0 = time.perf_counter()
        job()
        print(f"{time.perf_counter() - t0:7.2f} s", flush=True)
    print(f"  {'total':<32}{time.perf_counter() - start:7.2f} s", flush=True)
    return 0
