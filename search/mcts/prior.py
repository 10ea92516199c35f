"""The heuristic prior of a neural MCTS: a probability for every legal move and a value.

For a position, every legal move is played and the position after it is searched with
the engine's own machinery (:func:`search.alphabeta.negamax`): quiescence at
``depth=0``, ``depth`` more plies plus quiescence when asked. The scores (pawns, for the
side to move) go through a softmax with a temperature::

    policy(m) = exp(s_m / T) / sum_k exp(s_k / T)

and the value of the position is its best move's score, converted to [-1, 1]:

* ``value="squash"`` (the default) is the learning's squash ``P = 1 / (1 + exp(-omega
  s))`` (:func:`tdleaf.learn.td.squash`, omega 0.5 per pawn), read as an expected score
  and mapped to [-1, 1]: ``v = 2 P - 1 = tanh(omega s / 2)``. A pawn up is v = 0.24, a
  minor piece 0.64, a queen 0.98.
* ``value="crazyara"`` is CrazyAra's centipawn conversion (its Eq. 8 inverted), ``v =
  sign(cp) (1 - 1.2^(-|cp| / 100))`` with cp = 100 s: a pawn up is 0.17, a minor piece
  0.42, a queen 0.81.

A move that ends the game is scored exactly (python-chess's ``outcome()`` after it: a
win ``MATE - 1``, a draw 0); a mate seen inside the shallow search is a win (loss) in so
many plies. For the softmax, scores are clipped to +-(W - 1) pawns and wins/losses put
at +-W, shorter wins (longer losses) first; their value is +-1. ``W``, the win's logit,
is 100 pawns unless one was fitted with the temperature: then a win counts that much
more than an even move, and a win the search sees but the label engine did not play
costs the fit a bounded amount (BENCHMARKS.md). A position whose game is
over (checkmate, stalemate, a variant win or loss, insufficient material, the 75-move
rule, fivefold repetition for a position with history) has an empty policy and its exact
value: 1 won, 0 drawn, -1 lost for the side to move.

The temperature ``T`` and the win's logit ``W`` are fitted (``tdleaf bench prior
--fit``) by maximum likelihood of the moves Fairy-Stockfish plays at a fixed depth on
positions from engine games; the fitted values are stored per variant, value set and
depth in ``prior.json`` (shipped in ``search/data``; a refit is saved to the per-user
data folder, read first: see :mod:`search.shipped`) and, for learned weights, in
``weights.json``'s ``meta.prior_temperature`` and ``meta.prior_win_logit``
(:func:`fitted_temperature`, :func:`fitted_win_logit`). A temperature stored without a
win logit (fitted before there was one) is used with ``W`` = 100.

Everything per move runs in one numba call for a whole batch of positions
(:func:`prior_batch_arrays`); :func:`prior` and :func:`prior_batch` wrap it with UCI text.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import numpy as np
from numba import njit

from variants import Position, canonical_variant, core, spec
from variants.nrt import unmanaged
from variants.position import move_to_uci

from .. import shipped
from ..alphabeta import negamax as ab
from ..alphabeta.state import TT_ENTRY, Eval, Line, Memory, Rows
from ..evaluation.load import default_weights, weights_or_default
from ..evaluation.weights import Weights
from ..kernels.classic import evaluate, evaluate_delta

#: The file of the fitted temperatures of the built-in value sets, relative to
#: search/data (the per-user data folder's copy first: search.shipped).
TEMPERATURES_FILE = "prior.json"
#: The temperature used when none was fitted for the weights and depth (pawns).
DEFAULT_TEMPERATURE = 1.0
DEFAULT_OMEGA = 0.5
VALUE_MODES = ("squash", "crazyara")
POLICY_MODES = ("search", "uniform")
TT_SIZE = 1 << 15
#: Quiescence plies at most. The engine's default is 16; 8 bounds the capture chains of
#: suicide and giveaway (30-50 times faster there, the same scores in ~90% of positions)
#: and of crazyhouse's check evasions (4 times faster), which a prior called at every
#: MCTS node needs more than the last bit of depth.
DEFAULT_QLIMIT = 8

#: A win's logit when none was fitted (pawns): above any ordinary score, which the
#: softmax clips a pawn below the win logit; a loss's is its negative.
WIN_LOGIT = 100.0
#: The smallest win logit: ordinary scores are clipped a pawn below it.
MIN_WIN_LOGIT = 2.0

# ---------------------------------------------------------------------------------------
# numba
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def outcome_value(bb, st, moves, sbb, sst):
    """(number of legal moves, terminal, value for the side to move) of a position.

    ``terminal`` is python-chess's ``outcome()`` without repetitions (checkmate,
    stalemate, variant end, insufficient material, 75-move rule); ``value`` is then 1,
    0 or -1, and the number of legal moves 0 or whatever remains (insufficient material
    can end a game with moves left). Otherwise ``moves[:n]`` holds the legal moves."""
    term, winner = core.outcome_code(bb, st, moves, sbb, sst)
    if term != core.T_NONE:
        if winner < 0:
            return 0, True, 0.0
        return 0, True, 1.0 if winner == st[core.TURN] else -1.0
    n = core.gen_legal(bb, st, moves, sbb, sst)
    return n, False, 0.0


@njit(cache=True)
def child_outcome(bb, st, moves, sbb, sst):
    """(terminal, value for the side to move) as :func:`outcome_value`, but cheaper: the
    full outcome is only worked out when a quick test says the game may be over."""
    maybe = core.is_variant_end(bb, st) or core.is_insufficient_material(bb, st)
    if not maybe and core.halfmove_draw(st, 150):
        maybe = True
    if not maybe and not core.has_legal_move(bb, st, moves, sbb, sst):
        maybe = True
    if not maybe:
        return False, 0.0
    _n, terminal, value = outcome_value(bb, st, moves, sbb, sst)
    return terminal, value


@njit(cache=True)
def logit_score(s, win=WIN_LOGIT):
    """A search score (pawns, mates as ``MATE - plies``) as the softmax sees it: ordinary
    scores clipped to +-(``win`` - 1) (the 99 pawns of ``win`` = 100), wins and losses
    at +-``win`` plus a fraction of a pawn that puts shorter wins first."""
    if s > ab.MATE_BOUND:
        plies = ab.MATE - s
        return win + (ab.MAXPLY - plies) / ab.MAXPLY
    if s < -ab.MATE_BOUND:
        plies = ab.MATE + s
        return -win - (ab.MAXPLY - plies) / ab.MAXPLY
    clip = win - 1.0
    return min(clip, max(-clip, s))


@njit(cache=True)
def logits_of(scores, win=WIN_LOGIT):
    """:func:`logit_score` of each score of an array (fitting the win's logit)."""
    out = np.empty(scores.shape[0], dtype=np.float64)
    for i in range(scores.shape[0]):
        out[i] = logit_score(scores[i], win)
    return out


@njit(cache=True)
def score_value(s, mode, omega):
    """A score (pawns, side to move) as a value in [-1, 1] (mode 0 squash, 1 CrazyAra)."""
    if s > ab.MATE_BOUND:
        return 1.0
    if s < -ab.MATE_BOUND:
        return -1.0
    if mode == 0:
        return math.tanh(0.5 * omega * s)
    a = 1.0 - 1.2 ** (-abs(s))
    return a if s >= 0 else -a


@njit(cache=True, nogil=True)
def prior_batch_arrays(in_bbs, in_sts, npos, depth, policy, out, rows, mem, line, ctl, ev):
    """The prior of positions ``in_bbs[:npos]``, ``in_sts[:npos]`` in one call.

    ``out`` = (n, moves, scores, probs, values, terminal): for position p, ``n[p]`` legal
    moves ``moves[p, :n]`` (gen_legal order), their search scores ``scores[p, :n]``
    (pawns, mover's view), the policy ``probs[p, :n]``, the value ``values[p]`` and
    ``terminal[p]`` (the game is over: no moves, exact value). ``policy`` = (temperature,
    win, value mode, omega, uniform): ``uniform`` gives every move the same probability
    (the value is still searched); ``win`` is the win's logit (:func:`logit_score`).
    ``rows``, ``mem``, ``line``, ``ctl``, ``ev``: the search's work space, grouped as
    :mod:`search.alphabeta.state` says (``ctl[C_QLIMIT]`` set).
    """
    rows, mem, line, ev = ab._unmanaged_state(rows, mem, line, ev)
    ctl = unmanaged(ctl)
    for p in range(npos):
        _prior_of(in_bbs[p], in_sts[p], p, depth, policy, out, rows, mem, line, ctl, ev)
    return npos


@njit(cache=True)
def _prior_of(in_bb, in_st, p, depth, policy, out, rows, mem, line, ctl, ev):
    """Row ``p`` of :func:`prior_batch_arrays`'s ``out``: the prior of one position."""
    temperature, win, value_mode, omega, uniform = policy
    out_n, out_moves, out_scores, out_probs, out_values, out_terminal = out
    bbs, sts, moves = rows.bbs, rows.sts, rows.moves
    bbs[0, :] = in_bb
    sts[0, :] = in_st
    n, terminal, tv = outcome_value(bbs[0], sts[0], moves[0], bbs[1], sts[1])
    out_terminal[p] = terminal
    out_n[p] = n
    if terminal:
        out_values[p] = tv
        return
    best = _move_scores(n, depth, out_moves[p], out_scores[p], rows, mem, line, ctl, ev)
    out_values[p] = score_value(best, value_mode, omega)
    probs = out_probs[p]
    if uniform:
        for i in range(n):
            probs[i] = 1.0 / n
        return
    # Softmax of the clipped scores.
    top = -ab.INF
    for i in range(n):
        x = logit_score(out_scores[p, i], win) / temperature
        probs[i] = x
        top = max(top, x)
    total = 0.0
    for i in range(n):
        e = math.exp(probs[i] - top)
        probs[i] = e
        total += e
    for i in range(n):
        probs[i] /= total


@njit(cache=True)
def _move_scores(n, depth, out_moves, out_scores, rows, mem, line, ctl, ev):
    """The search score of each of the root's ``n`` legal moves (``rows.moves[0]``), a
    fresh search per position (a batch gives what single calls give); the best."""
    bbs, sts, evals, moves = rows.bbs, rows.sts, rows.evals, rows.moves
    bb, st = bbs[0], sts[0]
    for i in range(mem.tt.shape[0]):
        mem.tt[i].key = 0
    mem.killers[:, :] = 0
    mem.history[:, :] = 0
    evals[0] = evaluate(bb, st, ev.w)
    line.keys[0] = core.position_key(bb, st, bbs[1], sts[1])
    ctl[ab.C_HIST_LEN] = 0
    ctl[ab.C_STOP] = 0
    # Non-literal arguments for the recursive negamax (see search.alphabeta.negamax).
    one = depth - depth + 1
    best = -ab.INF
    for i in range(n):
        m = moves[0, i]
        out_moves[i] = m
        core.copy_make(bb, st, bbs[1], sts[1], m)
        cterm, cv = child_outcome(bbs[1], sts[1], moves[1], bbs[2], sts[2])
        if cterm:
            # The game ends: exact (cv is the opponent's value).
            score = ab.MATE - 1.0 if cv < 0 else (-(ab.MATE - 1.0) if cv > 0 else 0.0)
        else:
            evals[1] = evals[0] + evaluate_delta(bb, st, bbs[1], sts[1], ev.w)
            score = -ab.negamax(one, depth, -ab.INF, ab.INF, one, rows, mem, line, ctl, ev)
        out_scores[i] = score
        best = max(best, score)
    return best


# ---------------------------------------------------------------------------------------
# Temperatures
# ---------------------------------------------------------------------------------------


def _load_table() -> dict[str, Any]:
    try:
        data = shipped.read_json(TEMPERATURES_FILE)
    except shipped.ShippedDataError:
        return {}
    return data if isinstance(data, dict) else {}


def fitted_temperature(variant: str, weights: Weights | None = None, depth: int = 0) -> float | None:
    """The fitted softmax temperature (pawns) for these weights and depth, or None.

    Looked up in ``weights.meta["prior_temperature"][str(depth)]`` first (learned weights
    carry their own), then in ``prior.json`` (the user's copy first) under the variant
    and the weights' value set (``meta["value_set"]``)."""
    return _fitted(variant, weights, depth, "prior_temperature", "temperature")


def fitted_win_logit(variant: str, weights: Weights | None = None, depth: int = 0) -> float | None:
    """The win's logit (pawns) fitted with the temperature for these weights and depth, or
    None (then :data:`WIN_LOGIT`): ``meta["prior_win_logit"]``, then ``prior.json``'s
    ``win_logit``, as :func:`fitted_temperature` looks them up."""
    return _fitted(variant, weights, depth, "prior_win_logit", "win_logit")


def _fitted(variant: str, weights: Weights | None, depth: int, meta_key: str,
            table_key: str) -> float | None:
    variant = canonical_variant(variant)
    if weights is None:
        weights = default_weights(variant)
    meta = weights.meta or {}
    own = meta.get(meta_key)
    if isinstance(own, dict) and str(depth) in own:
        return float(own[str(depth)])
    name = meta.get("value_set")
    if name is None:
        return None
    table = _load_table().get(table_key, {})
    key = spec.rules_family(variant)     # one fit per rule set
    entry = table.get(key, {}).get(name, {}).get(str(depth))
    return None if entry is None else float(entry)


def save_temperature(variant: str, value_set_name: str, depth: int, temperature: float,
                     info: dict[str, Any] | None = None,
                     path: str | os.PathLike[str] | None = None,
                     win_logit: float | None = None) -> Path:
    """Store a fitted temperature (and the win's logit fitted with it) of a built-in value
    set in ``prior.json``: at ``path``, or without one in the per-user data folder (never
    in the package), with every fit of the table read now; returns the file written."""
    data = _read_table(path) if path is not None else _load_table()
    data.setdefault("about", "Softmax temperatures (pawns) of the heuristic prior, fitted by "
                             "maximum likelihood of Fairy-Stockfish's moves: tdleaf bench "
                             "prior --fit --save. variant -> value set -> depth.")
    key = spec.rules_family(variant)
    data.setdefault("temperature", {}).setdefault(key, {}).setdefault(value_set_name, {})[
        str(depth)] = round(float(temperature), 4)
    wins = data.setdefault("win_logit", {}).setdefault(key, {}).setdefault(value_set_name, {})
    if win_logit is None:
        wins.pop(str(depth), None)        # a temperature fitted without one
    else:
        wins[str(depth)] = round(float(win_logit), 4)
    if info:
        data.setdefault("fit", {}).setdefault(key, {}).setdefault(value_set_name, {})[
            str(depth)] = info
    return shipped.save_json(TEMPERATURES_FILE, data, path)


def _read_table(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The table in ``path``, or the one read by default when that file does not exist yet."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return _load_table()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise shipped.ShippedDataError(f"{path}: not a prior temperature file: {exc}") from None
    return data if isinstance(data, dict) else {}


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------


@dataclass
class PriorArrays:
    """The raw prior of a batch: per position, moves (encoded, gen_legal order), scores,
    probabilities, value and whether the game is over there."""

    n: np.ndarray            # (npos,) number of moves
    moves: np.ndarray        # (npos, MAX) encoded moves
    scores: np.ndarray       # (npos, MAX) pawns, mover's view (mates: +-(MATE - plies))
    probs: np.ndarray        # (npos, MAX)
    values: np.ndarray       # (npos,) in [-1, 1], side to move
    terminal: np.ndarray     # (npos,) bool

    def policy(self, p: int) -> dict[str, float]:
        k = int(self.n[p])
        return {move_to_uci(int(m)): float(x) for m, x in zip(self.moves[p, :k], self.probs[p, :k])}

    def move_scores(self, p: int) -> dict[str, float]:
        k = int(self.n[p])
        return {move_to_uci(int(m)): float(x) for m, x in zip(self.moves[p, :k], self.scores[p, :k])}


class HeuristicPrior:
    """The prior as an evaluator: ``prior(positions) -> (policies, values)``.

    ``positions`` are :class:`variants.Position` (or python-chess boards, FENs). Each
    policy is a NumPy array of probabilities aligned with ``position.legal_moves()``
    (empty when the game is over); values are in [-1, 1] for the side to move.
    :meth:`arrays` gives the raw batch (encoded moves, scores) without Python per move.

    ``temperature=None`` takes the fitted one (:func:`fitted_temperature`), else 1 pawn;
    ``win_logit=None`` the one fitted with it (:func:`fitted_win_logit`), else
    :data:`WIN_LOGIT`.
    ``policy="uniform"`` keeps the searched value but gives every move the same
    probability (the baseline of the prior's worth in play).
    """

    def __init__(self, variant: str, weights: Weights | str | None = None, depth: int = 0,
                 temperature: float | None = None, *, value: str = "squash",
                 omega: float = DEFAULT_OMEGA, policy: str = "search", qlimit: int = DEFAULT_QLIMIT,
                 win_logit: float | None = None) -> None:
        self.variant = canonical_variant(variant)
        weights = weights_or_default(weights, self.variant)
        self.weights = weights
        self.w = np.ascontiguousarray(weights.w, dtype=np.float64)
        # The layout's leaf blocks (the goal blocks, mobility) are scored at the search's
        # leaves, as the engine scores them; None compiles the classic search.
        table = np.ascontiguousarray(weights.layout.table, dtype=np.int64)
        self._table = table if table.size else None
        if depth < 0:
            raise ValueError(f"prior depth must be >= 0, got {depth}")
        self.depth = int(depth)
        if temperature is None:
            temperature = fitted_temperature(self.variant, weights, self.depth)
            self.temperature_source = "fitted" if temperature is not None else "default"
            if temperature is None:
                temperature = DEFAULT_TEMPERATURE
        else:
            self.temperature_source = "given"
        if not temperature > 0:
            raise ValueError(f"temperature must be > 0, got {temperature}")
        self.temperature = float(temperature)
        if win_logit is None:
            win_logit = fitted_win_logit(self.variant, weights, self.depth)
        if win_logit is None:
            win_logit = WIN_LOGIT
        if not win_logit >= MIN_WIN_LOGIT:
            raise ValueError(f"win_logit must be >= {MIN_WIN_LOGIT:g}, got {win_logit}")
        self.win_logit = float(win_logit)
        if value not in VALUE_MODES:
            raise ValueError(f"value must be one of {VALUE_MODES}, got {value!r}")
        if policy not in POLICY_MODES:
            raise ValueError(f"policy must be one of {POLICY_MODES}, got {policy!r}")
        self.value_mode = value
        self.policy_mode = policy
        self.omega = float(omega)
        # The search's work space, grouped as search.alphabeta.state says.
        m = ab.MAXPLY + 4
        self._rows = Rows(np.zeros((m, core.NBB), dtype=np.uint64),
                          np.zeros((m, core.NST), dtype=np.int64), np.zeros(m, dtype=np.float64),
                          np.zeros((m, core.MAX_MOVES), dtype=np.int64),
                          np.zeros((m, core.MAX_MOVES), dtype=np.int64))
        self._memory = Memory(np.zeros(TT_SIZE, dtype=TT_ENTRY), np.zeros((m, 2), dtype=np.int64),
                              np.zeros((2, 4096 + 7 * 64), dtype=np.int64))
        self._line = Line(np.zeros((m, m), dtype=np.int64), np.zeros(m, dtype=np.int64),
                          np.zeros(m + 4, dtype=np.uint64))
        self._ctl = np.zeros(ab.N_CTL, dtype=np.int64)
        self._ctl[ab.C_QLIMIT] = qlimit
        self._eval = Eval(self.w, self._table, 0.0)

    # -- raw -----------------------------------------------------------------------

    def arrays(self, bbs: np.ndarray, sts: np.ndarray) -> PriorArrays:
        """The prior of positions given as stacked ``bb``/``st`` rows (one numba call)."""
        bbs = np.ascontiguousarray(bbs, dtype=np.uint64).reshape(-1, core.NBB)
        sts = np.ascontiguousarray(sts, dtype=np.int64).reshape(-1, core.NST)
        npos = bbs.shape[0]
        width = core.MAX_MOVES
        out_n = np.zeros(npos, dtype=np.int64)
        out_moves = np.empty((npos, width), dtype=np.int64)
        out_scores = np.empty((npos, width), dtype=np.float64)
        out_probs = np.empty((npos, width), dtype=np.float64)
        out_values = np.zeros(npos, dtype=np.float64)
        out_terminal = np.zeros(npos, dtype=np.bool_)
        policy = (self.temperature, self.win_logit, VALUE_MODES.index(self.value_mode),
                  self.omega, self.policy_mode == "uniform")
        out = (out_n, out_moves, out_scores, out_probs, out_values, out_terminal)
        prior_batch_arrays(bbs, sts, npos, self.depth, policy, out, self._rows, self._memory,
                           self._line, self._ctl, self._eval)
        return PriorArrays(out_n, out_moves, out_scores, out_probs, out_values, out_terminal)

    # -- positions -----------------------------------------------------------------

    def positions(self, items: Iterable[Position | chess.Board | str | None]) -> list[Position]:
        return [to_position(x, self.variant) for x in items]

    def batch(self, items: Iterable[Position | chess.Board | str | None]) -> tuple[PriorArrays, list[Position]]:
        """The raw prior of any positions, with fivefold repetition of positions that carry
        a history applied (terminal, value 0)."""
        pos = self.positions(items)
        if not pos:
            z = np.zeros(0, dtype=np.int64)
            return PriorArrays(z, np.zeros((0, 1), np.int64), np.zeros((0, 1)), np.zeros((0, 1)),
                               np.zeros(0), np.zeros(0, bool)), pos
        bbs = np.stack([p.bb for p in pos])
        sts = np.stack([p.st for p in pos])
        arr = self.arrays(bbs, sts)
        for i, p in enumerate(pos):
            if p._history and not arr.terminal[i] and p._repetitions(p.key) + 1 >= 5:
                arr.terminal[i], arr.n[i], arr.values[i] = True, 0, 0.0
        return arr, pos

    def __call__(self, positions: Sequence[Position]) -> tuple[list[np.ndarray], np.ndarray]:
        arr, _ = self.batch(positions)
        return [arr.probs[i, :int(arr.n[i])].copy() for i in range(len(arr.n))], arr.values.copy()


def to_position(x: Position | chess.Board | str | None, variant: str) -> Position:
    """A :class:`Position` of ``variant`` from a Position, a python-chess board (its moves
    replayed, so repetitions are known) or a FEN (None: the start position)."""
    if isinstance(x, Position):
        p = x
    elif isinstance(x, chess.Board):
        if x.move_stack:
            # Not x.root(): in python-chess 1.11 a crazyhouse root shares the pockets of
            # the current position. Taking the moves back restores them.
            start = x.copy()
            while start.move_stack:
                start.pop()
            p = Position.from_fen(start.fen(), variant)
            for mv in x.move_stack:
                p.push_uci(mv.uci())
        else:
            p = Position.from_fen(x.fen(), variant)
    else:
        p = Position.from_fen(x, variant)
    if not spec.get(p.variant).same_rules(spec.get(variant)):
        raise ValueError(f"position is {p.variant}, prior is for {canonical_variant(variant)}")
    return p


_CACHE: dict[tuple, HeuristicPrior] = {}


def _evaluator(variant: str, weights: Weights | str | None, depth: int,
               temperature: float | None, value: str, omega: float) -> HeuristicPrior:
    key = (canonical_variant(variant), id(weights) if isinstance(weights, Weights) else weights,
           depth, temperature, value, omega)
    ev = _CACHE.get(key)
    if ev is None or (isinstance(weights, Weights) and ev.weights is not weights):
        if len(_CACHE) > 32:
            _CACHE.clear()
        ev = _CACHE[key] = HeuristicPrior(variant, weights, depth, temperature, value=value,
                                          omega=omega)
    return ev


def prior(variant: str, fen_or_board: Position | chess.Board | str | None = None,
          weights: Weights | str | None = None, depth: int = 0,
          temperature: float | None = None, *, value: str = "squash",
          omega: float = DEFAULT_OMEGA) -> tuple[dict[str, float], float]:
    """``(policy, value)`` of one position: ``policy`` maps every legal move (UCI, drops
    as ``N@f3``) to its probability; ``value`` is in [-1, 1] for the side to move.

    ``weights``: a :class:`Weights`, a ``weights.json`` path or a value-set name (default:
    the variant's default weights). ``depth``: plies searched after each move before
    quiescence (0: quiescence only). ``temperature`` in pawns (None: the fitted one).
    ``value``: ``"squash"`` (``tanh(omega s / 2)``) or ``"crazyara"``. A finished game
    gives ``({}, exact value)``."""
    arr, _ = _evaluator(variant, weights, depth, temperature, value, omega).batch([fen_or_board])
    return arr.policy(0), float(arr.values[0])


def prior_batch(variant: str, positions: Iterable[Position | chess.Board | str | None],
                weights: Weights | str | None = None, depth: int = 0,
                temperature: float | None = None, *, value: str = "squash",
                omega: float = DEFAULT_OMEGA) -> list[tuple[dict[str, float], float]]:
    """:func:`prior` of many positions; the searches run in one numba call."""
    arr, pos = _evaluator(variant, weights, depth, temperature, value, omega).batch(positions)
    return [(arr.policy(i), float(arr.values[i])) for i in range(len(pos))]
