"""A plain alpha-beta searcher on python-chess boards: the speed reference of ``tdleaf
bench search`` (how fast a straightforward Python engine searches the same positions)."""

from __future__ import annotations

import time
from typing import Any

import chess

from variants.spec import get as spec

#: The value set whose material it counts by default (``tdleaf bench search``'s).
VALUE_SET = "traditional"

MATE = 100000.0
INF = 1.0e9
_ORDER = (0, 1, 3, 3, 5, 9, 20)  # move ordering values by piece type (MVV-LVA)


class _Timeout(Exception):
    pass


class PythonChessSearch:
    """A plain alpha-beta on python-chess boards, the baseline of the benchmark.

    Negamax with alpha-beta, a quiescence search over captures (stand-pat except in
    suicide and giveaway, where a capture is compulsory and a position with one is
    searched in full; at most ``qlimit`` plies deep, as the tdleaf engine's default),
    captures first by MVV-LVA, no transposition table, and
    iterative deepening until the time is up. The evaluation is the material of
    ``values`` (pawns, indexed by piece type 1..6; in crazyhouse pieces in hand count
    ``hand``), from the side to move's point of view. Every position visited, quiescence
    included, counts one node; a search stopped by the clock keeps its nodes.
    """

    def __init__(self, variant: str, values: list[float], hand: list[float] | None = None,
                 qlimit: int = 16) -> None:
        self.variant = variant
        self.qlimit = qlimit
        self.values = values
        self.hand = hand
        rules = spec(variant)
        self.losing = rules.losing
        self.atomic = rules.explosions
        self.nodes = 0
        self.deadline = 0.0

    @classmethod
    def for_variant(cls, variant: str, value_set: str = VALUE_SET) -> PythonChessSearch:
        """The searcher with the material values of a built-in value set."""
        from search.layout import HAND, MATERIAL
        from search.layout import value_set as load

        w = load(value_set, variant).w
        values = [0.0] + [float(w[MATERIAL + i]) for i in range(6)]
        hand = [0.0] + [float(w[HAND + i]) for i in range(5)] if spec(variant).pockets else None
        return cls(variant, values, hand)

    def evaluate(self, board: chess.Board) -> float:
        white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
        v = self.values
        s = 0.0
        for pt, mask in ((1, board.pawns), (2, board.knights), (3, board.bishops),
                         (4, board.rooks), (5, board.queens), (6, board.kings)):
            if mask:
                s += v[pt] * ((mask & white).bit_count() - (mask & black).bit_count())
        if self.hand is not None:
            pockets = board.pockets  # type: ignore[attr-defined]
            for pt in range(1, 6):
                s += self.hand[pt] * (pockets[chess.WHITE].count(pt)
                                      - pockets[chess.BLACK].count(pt))
        return s if board.turn == chess.WHITE else -s

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 63 and time.perf_counter() >= self.deadline:
            raise _Timeout

    @staticmethod
    def _terminal(board: chess.Board, ply: int) -> float:
        outcome = board.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return MATE - ply if outcome.winner == board.turn else -(MATE - ply)

    @staticmethod
    def _ordered(board: chess.Board, moves: list[chess.Move]) -> list[chess.Move]:
        captures, quiet = [], []
        for m in moves:
            if board.is_capture(m):
                victim = chess.PAWN if board.is_en_passant(m) else board.piece_type_at(m.to_square)
                attacker = board.piece_type_at(m.from_square)
                captures.append((_ORDER[victim or 0] * 16 - _ORDER[attacker or 0], m))
            else:
                quiet.append(m)
        captures.sort(key=lambda c: -c[0])
        return [m for _, m in captures] + quiet

    def quiesce(self, board: chess.Board, alpha: float, beta: float, ply: int,
                qply: int = 0) -> float:
        self._tick()
        if self.losing:
            moves = list(board.legal_moves)
            if not moves:
                return self._terminal(board, ply)
            # Captures are compulsory: all moves are captures or none is.
            if not board.is_capture(moves[0]) or qply >= self.qlimit:
                return self.evaluate(board)
            best = -INF
        else:
            if self.atomic and board.is_variant_end():
                return self._terminal(board, ply)
            best = self.evaluate(board)
            if best >= beta or qply >= self.qlimit:
                return best
            alpha = max(alpha, best)
            moves = list(board.generate_legal_captures())
        for m in self._ordered(board, moves):
            board.push(m)
            score = -self.quiesce(board, -beta, -alpha, ply + 1, qply + 1)
            board.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def negamax(self, board: chess.Board, depth: int, alpha: float, beta: float, ply: int) -> float:
        if depth <= 0:
            return self.quiesce(board, alpha, beta, ply)
        self._tick()
        moves = list(board.legal_moves)
        if not moves:
            return self._terminal(board, ply)
        best = -INF
        for m in self._ordered(board, moves):
            board.push(m)
            score = -self.negamax(board, depth - 1, -beta, -alpha, ply + 1)
            board.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def search(self, board: chess.Board, seconds: float, max_depth: int = 64) -> dict[str, Any]:
        """Iterative deepening for ``seconds``: nodes, seconds, completed depth, move, score."""
        board = board.copy()
        self.nodes = 0
        cpu0 = time.process_time()
        start = time.perf_counter()
        self.deadline = start + seconds
        best_move, best_score, done = None, 0.0, 0
        root = self._ordered(board, list(board.legal_moves))
        try:
            for depth in range(1, max_depth + 1):
                self._tick()
                alpha, iter_best = -INF, None
                for m in root:
                    board.push(m)
                    score = -self.negamax(board, depth - 1, -INF, -alpha, 1)
                    board.pop()
                    if score > alpha:
                        alpha, iter_best = score, m
                best_move, best_score, done = iter_best, alpha, depth
                if not root or iter_best is None:
                    break
                root.remove(iter_best)
                root.insert(0, iter_best)
        except _Timeout:
            pass
        seconds_used = time.perf_counter() - start
        return {"nodes": self.nodes, "seconds": seconds_used,
                "cpu_seconds": time.process_time() - cpu0, "depth": done,
                "move": best_move.uci() if best_move else None,
                "score": None if best_move is None else round(best_score, 2)}
