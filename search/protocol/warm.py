"""Loading the engine's compiled code before it is timed.

numba compiles a function at its first call and caches the machine code on disk
(``__pycache__`` or ``NUMBA_CACHE_DIR``): the first run on a machine compiles for a
minute or more, later runs load the cache in about a second. Either must happen
outside a clock. Each function here runs one kind of compiled code once; a second call
in the same process costs little (the code is loaded). The front ends run
:func:`front_end` in a background thread at start; ``tdleaf warmup`` runs them all.

Importing this module loads nothing: each function imports what it runs.
"""

from __future__ import annotations

#: The value set the warm-up searches with: built in, so no file is read.
WEIGHTS = "traditional"


def rules(variant: str = "chess", perft_depth: int = 2) -> None:
    """The rules of ``variant``: move generation, making and unmaking moves, FEN,
    outcomes (repetition claims included) and, with ``perft_depth`` > 0, perft."""
    from variants import Position, perft

    pos = Position.start(variant)
    first = pos.legal_moves()[0]
    pos.push_uci(first)
    pos.outcome(claim_draw=True)
    Position.from_fen(pos.fen(), variant).legal_moves()
    pos.pop()
    if perft_depth > 0:
        perft(variant, None, perft_depth)


def search(variant: str = "chess", mode: str = "selective", depth: int = 2) -> None:
    """One alpha-beta search (with quiescence, the evaluation and the leaf's features)
    in ``mode`` from the start position of ``variant``."""
    from ..alphabeta.engine import Engine, ensure_compiled

    ensure_compiled()
    Engine(variant, WEIGHTS, hash_mb=1, search=mode).search(None, depth=depth)


def leaf_blocks(variant: str = "chess", depth: int = 2) -> None:
    """The search with every registered leaf block (``--features psq+BLOCK...``): numba
    compiles it apart from the classic search, which has no leaf-block code at all."""
    from ..alphabeta.engine import search_with_leaf_blocks

    search_with_leaf_blocks(variant, depth)


def evaluation(variant: str = "chess") -> None:
    """The evaluation called from Python: the full and incremental evaluation and the
    feature vectors (dense and sparse) that learning reads."""
    import numpy as np

    from variants import Position

    from ..evaluation.value_sets import value_set
    from ..kernels.classic import evaluate, evaluate_delta
    from ..kernels.dispatch import feature_vector, sparse_features

    w = np.ascontiguousarray(value_set(WEIGHTS, variant).w, dtype=np.float64)
    parent = Position.start(variant)
    child = parent.copy()
    child.push_uci(child.legal_moves()[0])
    evaluate(child.bb, child.st, w)
    evaluate_delta(parent.bb, parent.st, child.bb, child.st, w)
    feature_vector(child.bb, child.st)
    sparse_features(child.bb, child.st)


def prior(variant: str = "chess") -> None:
    """The heuristic prior (policy and value of a batch of positions)."""
    from ..mcts.prior import HeuristicPrior

    HeuristicPrior(variant, WEIGHTS).batch([None])


def encoding(variant: str = "chess") -> None:
    """The network encoding: planes and move indices of the start position."""
    from variants import Position

    from ..mcts import encoding as enc
    pos = Position.start(variant)
    enc.planes(pos)
    enc.legal_indices(pos)


def mcts(variant: str = "chess", playouts: int = 16) -> None:
    """A few MCTS playouts over the heuristic prior."""
    from ..mcts.driver import MCTS

    MCTS(variant, weights=WEIGHTS).search(None, playouts=playouts)


def proof() -> None:
    """The proof-number search (:func:`search.solve.pns.load`)."""
    from ..solve.pns import load

    load()


def endgame(build_all: bool = False) -> None:
    """The endgame tables' code (:mod:`search.solve.endgame`), by building the smallest table;
    with ``build_all``, every table of every set of rules that has them, saved where
    the engine loads them before its first timed move."""
    from variants.spec import VARIANTS, get

    from ..solve.endgame import material_key, tables

    for v in VARIANTS:
        if get(v).endgame_pieces:
            t = tables(v)
            if build_all:                    # saved as it goes: a kill loses little
                t.load()
                t.build_all(lambda done, _total, t=t: done % 48 == 0 and t.save())
                t.save()
            else:
                # K v k runs every compiled function of the builder (numba compiles a
                # function with all it calls); KP v k would add the tables a promotion
                # leads to, about 50 s of building and nothing more to load.
                t.build(material_key([5, 11]))


def front_end() -> None:
    """What ``tdleaf uci`` and ``tdleaf xboard`` need before their first timed move:
    the rules of positions and moves, and the alpha-beta search (both modes run the
    same compiled code)."""
    rules("chess", perft_depth=0)
    from ..alphabeta.engine import ensure_compiled

    ensure_compiled()
