"""Shared helpers of the engine tests (tests/test_search.py, test_evaluate.py, test_protocols.py).

python-chess 1.11.2 is the oracle: forced wins are verified by brute force on
python-chess boards, PVs are replayed on python-chess boards, and the reference
evaluation is recomputed here from python-chess's piece placement and pockets.
Everything is seeded (string seeds hash with SHA-512, independent of PYTHONHASHSEED).
"""

from __future__ import annotations

import os
import queue
import random
import subprocess
import threading
import time
from functools import cache
from pathlib import Path
from typing import Self

import chess
import chess.variant
import numpy as np

from variants import board_class, spec

VARIANTS = ("chess", "crazyhouse", "suicide", "giveaway", "antichess", "atomic")
ANTI = ("suicide", "giveaway", "antichess")
MATE = 100000.0
N_FEATURES = 12 + 6 * 64          # material(6) + hand(6) + psq(6 x 64), see search.layout


def new_board(variant: str, fen: str | None = None) -> chess.Board:
    cls = board_class(variant)
    return cls() if fen is None else cls(fen)


# --------------------------------------------------------------------------------------
# Seeded random positions
# --------------------------------------------------------------------------------------


def _quiet_history_free(board: chess.Board) -> bool:
    """A playable position the engine scores without draw rules getting in the way."""
    return (board.outcome() is None and any(board.legal_moves)
            and not board.is_insufficient_material() and board.halfmove_clock < 60)


@cache
def random_positions(variant: str, seed: str, n: int, lo: int = 4, hi: int = 50) -> tuple[str, ...]:
    """``n`` FENs reached by seeded uniform random play of lo..hi plies from the start.

    Returned as FENs so the boards built from them have no move history (the engine
    then has no repetitions to find). Positions where the game is over, or that are
    insufficient material, are skipped.
    """
    rng = random.Random(f"{variant}:{seed}")
    out: list[str] = []
    attempts = 0
    while len(out) < n:
        attempts += 1
        assert attempts < 50 * n, "random play keeps ending games"
        board = new_board(variant)
        plies = rng.randint(lo, hi)
        for _ in range(plies):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        fen = board.fen()
        fresh = new_board(variant, fen)
        if _quiet_history_free(fresh) and fen not in out:
            out.append(fen)
    return tuple(out)


# --------------------------------------------------------------------------------------
# Brute-force forced wins (python-chess)
# --------------------------------------------------------------------------------------


def _immediate_candidates(board: chess.Board, variant: str):
    """Moves that may end the game at once in favour of the mover (a superset)."""
    moves = list(board.legal_moves)
    if variant in ("chess", "crazyhouse"):
        return [m for m in moves if board.gives_check(m)]
    if variant == "atomic":
        return [m for m in moves if board.gives_check(m) or board.is_capture(m)]
    return moves


def _won_by(board: chess.Board, us: bool) -> bool | None:
    """True: ``us`` has won; False: the game is over otherwise; None: game goes on."""
    o = board.outcome()
    if o is None:
        return None
    return o.winner == us


def attacker_wins(board: chess.Board, variant: str, plies: int) -> bool:
    """Side to move can force a win within ``plies`` plies (brute force)."""
    if plies <= 0:
        return False
    us = board.turn
    for m in _immediate_candidates(board, variant):
        board.push(m)
        won = _won_by(board, us)
        board.pop()
        if won:
            return True
    if plies == 1:
        return False
    return any(forces_win(board, variant, m, plies) for m in list(board.legal_moves))


def forces_win(board: chess.Board, variant: str, move: chess.Move, plies: int) -> bool:
    """Playing ``move`` wins within ``plies`` plies against every defence."""
    us = board.turn
    board.push(move)
    try:
        won = _won_by(board, us)
        if won is not None:
            return won
        if plies <= 1:
            return False
        for reply in list(board.legal_moves):
            board.push(reply)
            try:
                won = _won_by(board, us)
                if won is False:
                    return False
                if won is None and not attacker_wins(board, variant, plies - 2):
                    return False
            finally:
                board.pop()
        return True
    finally:
        board.pop()


def shortest_win(fen: str, variant: str, max_plies: int) -> int | None:
    """Fewest plies in which the side to move forces a win (None: not within max_plies)."""
    board = new_board(variant, fen)
    for p in range(1, max_plies + 1):
        if attacker_wins(board, variant, p):
            return p
    return None


def winning_moves(fen: str, variant: str, plies: int) -> set[str]:
    """Every first move that forces a win within ``plies`` plies."""
    board = new_board(variant, fen)
    return {m.uci() for m in list(board.legal_moves) if forces_win(board, variant, m, plies)}


def mate_moves(plies: int) -> int:
    """UCI 'mate N' of a win in ``plies`` plies (the engine's convention)."""
    return (plies + 1) // 2


# --------------------------------------------------------------------------------------
# Reference evaluation (independent of search.evaluate)
# --------------------------------------------------------------------------------------


def _black_square(sq: int, mirror: str) -> int:
    """The table entry a black piece on ``sq`` reads, by the spec's ``mirror``."""
    if mirror == "file":            # racing kings: a black piece on d1 reads White's e1
        return chess.square(7 - chess.square_file(sq), chess.square_rank(sq))
    return chess.square_mirror(sq)  # by rank, or Black's own table in Black's view


def oracle_features(board: chess.Board) -> np.ndarray:
    """The linear features from python-chess's view of a position, White's point of view:
    material counts (P..K), pocket counts (P..Q, crazyhouse), piece-square counts with
    Black's squares mirrored as the variant's spec says (``mirror``: vertically; left-right
    in racing kings); where the colours have separate values (horde), Black's counts in
    its own blocks after them (material 396.., tables 402.., Black's view)."""
    mirror = spec.by_uci(board.uci_variant or "chess").mirror
    own = mirror == "colour"
    x = np.zeros(N_FEATURES + 6 + 6 * 64 if own else N_FEATURES)
    for sq, piece in board.piece_map().items():
        t = piece.piece_type - 1
        if piece.color == chess.WHITE:
            x[t] += 1
            x[12 + 64 * t + sq] += 1
        else:
            mat, tab = (N_FEATURES, N_FEATURES + 6) if own else (0, 12)
            x[mat + t] -= 1
            x[tab + 64 * t + _black_square(sq, mirror)] -= 1
    if isinstance(board, chess.variant.CrazyhouseBoard):
        for t in range(1, 6):
            x[6 + t - 1] = board.pockets[chess.WHITE].count(t) - board.pockets[chess.BLACK].count(t)
    return x


def oracle_eval(board: chess.Board, w: np.ndarray) -> float:
    """The reference evaluation: :func:`oracle_features` times the first entries of ``w``
    (a layout's leaf blocks, after them, are left out)."""
    x = oracle_features(board)
    return float(x @ w[:x.size])


def random_weight_vector(rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """Random material, hand and piece-square weights (all N_FEATURES entries)."""
    w = rng.normal(0.0, 0.3 * scale, N_FEATURES)
    w[:6] = rng.uniform(-10, 10, 6) * scale
    w[6:12] = rng.uniform(-5, 5, 6) * scale
    return w


# --------------------------------------------------------------------------------------
# Line-oriented engine subprocess (protocol robustness tests)
# --------------------------------------------------------------------------------------

#: Generous: the first start may have to load the numba cache. A hang still fails.
REPLY_TIMEOUT = float(os.environ.get("TDLEAF_TEST_TIMEOUT", "120"))


class LineEngine:
    """An engine subprocess fed raw bytes on stdin, its stdout read line by line."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=full_env,
                                     cwd=os.path.dirname(os.path.dirname(__file__)))
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.log: list[str] = []
        self.stderr = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err_reader = threading.Thread(target=self._read_err, daemon=True)
        self._err_reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send(self, data: str | bytes) -> None:
        """Send one line (a newline is appended) or raw bytes (sent as they are)."""
        if isinstance(data, str):
            data = (data + "\n").encode()
        self.log.append(f"> {data!r}")
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise AssertionError(self.describe("engine closed its input")) from None

    def expect(self, predicate, what: str, timeout: float = REPLY_TIMEOUT) -> str:
        """Wait for a stdout line satisfying ``predicate``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(self.describe(f"timed out waiting for {what}"))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.proc.wait(timeout=10)
                self._err_reader.join(timeout=10)
                raise AssertionError(self.describe(f"engine exited while waiting for {what}"))
            self.log.append(f"< {line}")
            if predicate(line):
                return line

    def describe(self, message: str) -> str:
        tail = "\n".join(self.log[-25:])
        err = self.stderr.decode("utf-8", "replace")[-3000:]
        return f"{message}; exit code {self.proc.poll()}\n--- last lines ---\n{tail}\n--- stderr ---\n{err}"

    def quit(self, command: str = "quit", timeout: float = 30) -> int:
        """Send ``command`` and wait for a clean exit; returns the exit code."""
        self.send(command)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(self.describe(f"engine did not exit within {timeout} s of {command!r}"))
        self._err_reader.join(timeout=10)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.kill()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


def assert_scores_are_w_dot_x(pos, layout, w: np.ndarray) -> np.ndarray:
    """The feature vector ``x`` of a position (variants.Position) in ``layout``, after
    checking that the compiled evaluation with every block is ``w . x`` and that the
    leaf blocks' share of it (what the search adds at a node) is ``w . x`` over them."""
    import pytest

    from search.evaluate import evaluate_layout, feature_vector, leaf_score

    x = feature_vector(pos.bb, pos.st, layout)
    assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(
        float(w @ x), abs=1e-9)
    leaf = slice(layout.leaf_start, layout.size)
    assert leaf_score(pos.bb, pos.st, w, layout.table) == pytest.approx(
        float(w[leaf] @ x[leaf]), abs=1e-12)
    return x


def few_labelled(folder: str | os.PathLike[str], variant: str, n: int) -> Path:
    """The first ``n`` labelled positions of ``variant``'s shipped
    ``prior_<variant>.epd``, copied into ``folder``: as a per-user data folder's (read
    before the package's), ``tdleaf bench prior`` then fits on ``n`` positions, not the
    2,000 shipped, for tests of what it saves rather than of what it measures."""
    from search import shipped
    from tdleaf.play.labels import epd_name, read_labelled, write_epd

    source = shipped.package_data_dir() / epd_name(variant)
    Path(folder).mkdir(parents=True, exist_ok=True)
    target = Path(folder) / source.name
    write_epd(read_labelled(source)[:n], target, f"the first {n} positions of {source}")
    return target
