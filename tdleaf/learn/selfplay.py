"""One self-play game, recorded for learning: the moves, the result, how often each piece
stood on each square (and each leaf block's feature was not zero), and for TDLeaf the PV
leaf of every search (:func:`play_game`). Every learner plays through
:func:`play_moves`, which lets it see each search's result before its move is played
(the bootstrapping learners update there)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import chess
import chess.pgn
import numpy as np

from search import Engine
from search.alphabeta.engine import SearchResult
from search.alphabeta.negamax import MATE_BOUND
from search.evaluate import leaf_features
from search.layout import SQUARE_XOR, separate_colours
from variants import Position, board_class, core, spec

from .td import Trajectory


@dataclass
class GameRecord:
    """A self-play game as the learners and the run's books see it."""

    moves: list[str]
    result: float                 # 1 White won, 0.5 draw, 0 Black won
    termination: str
    trajectory: Trajectory        # TDLeaf's PV leaves (empty for the other learners)
    visits: np.ndarray            # (6, 64) piece-type x square, White's view
    nodes: int
    #: Black's pieces apart, in Black's view (sq ^ 56), where the colours have separate
    #: values (horde); None elsewhere (Black's are in ``visits``).
    visits_black: np.ndarray | None = None
    #: Per entry of the layout's leaf blocks (``layout.size - layout.leaf_start``): the
    #: positions of the game where its feature was not zero.
    block_visits: np.ndarray | None = None


def count_visits(pos: Position, visits: np.ndarray, visits_black: np.ndarray | None = None,
                 ) -> None:
    """Add the pieces of ``pos`` to ``visits`` (piece type x square), each on the table
    entry it reads (:func:`search.layout.black_view`): White's on their square, Black's
    mirrored as the variant mirrors its tables (by rank; by file in racing kings) or,
    with ``visits_black`` (variants with separate values per colour), added there in
    Black's own view."""
    st, bb = pos.st, pos.bb
    white = int(bb[core.OCC])
    xor = SQUARE_XOR[spec.by_code(pos.code).mirror]
    black = visits if visits_black is None else visits_black
    for sq in range(64):
        t = int(st[sq])
        if t:
            if white >> sq & 1:
                visits[t - 1, sq] += 1
            else:
                black[t - 1, sq ^ xor] += 1


def game_over(pos: Position, keys: dict[int, int], max_plies: int) -> tuple[float, str] | None:
    """Result of the game at ``pos`` (White's view), or None while it goes on.

    Ends on python-chess's outcome, and also on what a player would claim (threefold
    repetition, 50 moves) and on a ply cap, all as draws."""
    outcome = pos.outcome()
    if outcome is not None:
        result = 0.5 if outcome.winner is None else (1.0 if outcome.winner else 0.0)
        return result, outcome.termination.name.lower()
    if keys.get(pos.key, 0) >= 3:
        return 0.5, "threefold_repetition"
    if core.halfmove_draw(pos.st, 100):
        return 0.5, "fifty_moves"
    if len(pos.move_stack) >= max_plies:
        return 0.5, "ply_limit"
    return None


def play_moves(engine: Engine, variant: str, depth: int, seed: int, max_plies: int,
               on_search: Callable[[SearchResult], None], *, start_fen: str | None = None,
               opening: Sequence[str] = (), leaf: bool = True) -> GameRecord:
    """The self-play game loop of every learner: ``engine`` against itself from the start
    (or ``start_fen``) at fixed depth, after the UCI moves of ``opening``, which are part
    of the game (its PGN, repetitions, the ply cap) but are neither searched nor learnt
    from. ``on_search`` sees each search's result before its move is played (``leaf``:
    with the PV leaf's features). The record's trajectory is empty: see
    :func:`play_game`."""
    engine.new_game(seed)
    pos = Position.from_fen(start_fen, variant)
    keys: dict[int, int] = {}     # occurrences of each position, for threefold repetition
    for mv in opening:
        keys[pos.key] = keys.get(pos.key, 0) + 1
        pos.push_uci(mv)
    visits = np.zeros((6, 64), dtype=np.int64)
    visits_black = np.zeros((6, 64), dtype=np.int64) if separate_colours(variant) else None
    layout = engine.weights.layout
    block_visits = np.zeros(layout.size - layout.leaf_start, dtype=np.int64)
    leaf_x = np.zeros(layout.size)      # only the leaf blocks' entries are written
    nodes = 0
    while True:
        count_visits(pos, visits, visits_black)
        if block_visits.size:
            leaf_features(pos.bb, pos.st, engine.table, leaf_x)
            block_visits += leaf_x[layout.leaf_start:] != 0
        keys[pos.key] = keys.get(pos.key, 0) + 1
        over = game_over(pos, keys, max_plies)
        if over is not None:
            result, termination = over
            break
        r = engine.search(pos, depth=depth, leaf=leaf)
        nodes += r.nodes
        assert r.move is not None       # the game is not over: the search found a move
        on_search(r)
        pos.push_uci(r.move)
    n = len(engine.w)
    empty = Trajectory(np.zeros((0, n)), np.zeros(0), np.zeros(0, bool), np.zeros(0), result)
    return GameRecord(pos.move_stack, result, termination, empty, visits, nodes, visits_black,
                      block_visits)


def play_game(engine: Engine, variant: str, depth: int, seed: int, max_plies: int = 400,
              start_fen: str | None = None, opening: Sequence[str] = ()) -> GameRecord:
    """:func:`play_moves` for TDLeaf: the record's trajectory holds the PV leaf of every
    search (features, score, whether it ends the game)."""
    n = len(engine.w)
    feats, scores, terminal, values = [], [], [], []

    def leaf(r: SearchResult) -> None:
        # The PV leaf's features in the engine's layout, leaf blocks included: the
        # gradient of a weight is its feature's value there (tdleaf.learn.td).
        x = r.leaf_features
        assert len(x) == n
        feats.append(x)
        if r.leaf_terminal:
            terminal.append(True)
            values.append(1.0 if r.leaf_score > MATE_BOUND else 0.0 if r.leaf_score < -MATE_BOUND else 0.5)
            scores.append(0.0)
        else:
            terminal.append(False)
            values.append(0.0)
            scores.append(float(np.dot(engine.w, x)))

    rec = play_moves(engine, variant, depth, seed, max_plies, leaf, start_fen=start_fen,
                     opening=opening)
    rec.trajectory = Trajectory(
        features=np.array(feats).reshape(-1, n), scores=np.array(scores, dtype=np.float64),
        terminal=np.array(terminal, dtype=bool), terminal_values=np.array(values),
        result=rec.result)
    return rec


def game_pgn(record: GameRecord, variant: str, headers: dict[str, str]) -> str:
    """The game as PGN text (with the python-chess Variant tag)."""
    board = board_class(variant)()
    for mv in record.moves:
        board.push_uci(mv)
    game = chess.pgn.Game.from_board(board)
    for k, v in headers.items():
        game.headers[k] = v
    game.headers["Result"] = {1.0: "1-0", 0.0: "0-1"}.get(record.result, "1/2-1/2")
    game.headers["Termination"] = record.termination
    return str(game) + "\n\n"
