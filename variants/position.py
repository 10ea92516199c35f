"""The Python face of the rules: variant names, :class:`Position`, FEN, UCI, perft.

python-chess is used here only as the bridge to the outside world (parsing and
validating FENs, handing boards to other tools); every rule runs in :mod:`variants.core`.
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass

import chess
import chess.variant
import numpy as np

from . import core
from .errors import (
    IllegalMoveError,
    ImpossiblePositionError,
    ImpossiblePositionWarning,
    InvalidFenError,
    UnknownVariantError,
    VariantError,
)
from .spec import SPECS, canonical_variant


def _import_class(path: str) -> type[chess.Board]:
    """The python-chess board class named by a spec's ``board_class``."""
    module, _, name = path.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, chess.Board)):
        raise TypeError(f"{path} is not a python-chess board class")
    return cls


#: Variant name (those of :data:`variants.spec.VARIANTS`, in that order) -> (rules code,
#: python-chess board class), from the variant descriptions.
_VARIANTS: dict[str, tuple[int, type[chess.Board]]] = {
    name: (v.code, _import_class(v.board_class)) for name, v in SPECS.items()}

_TERMINATIONS = {
    core.T_CHECKMATE: chess.Termination.CHECKMATE,
    core.T_STALEMATE: chess.Termination.STALEMATE,
    core.T_INSUFFICIENT: chess.Termination.INSUFFICIENT_MATERIAL,
    core.T_SEVENTYFIVE: chess.Termination.SEVENTYFIVE_MOVES,
    core.T_FIVEFOLD: chess.Termination.FIVEFOLD_REPETITION,
    core.T_FIFTY: chess.Termination.FIFTY_MOVES,
    core.T_THREEFOLD: chess.Termination.THREEFOLD_REPETITION,
    core.T_VARIANT_WIN: chess.Termination.VARIANT_WIN,
    core.T_VARIANT_LOSS: chess.Termination.VARIANT_LOSS,
    core.T_VARIANT_DRAW: chess.Termination.VARIANT_DRAW,
}
_SYMBOLS = " pnbrqk"

#: python-chess ``status()`` flags of positions that cannot be played. Where a variant's
#: status reports them (chess, crazyhouse, atomic), its rules need one king a side: with
#: none, check and mate mean nothing; with two, which one is "the" king? And a side to
#: move that gives check (opposite_check) could take the king, a move no rule defines.
#: Every other flag (impossible_check, too_many_checkers, pawns_on_backrank,
#: invalid_ep_square, bad_castling_rights, too_many_*) only says that no game reaches
#: the position: python-chess still generates its moves, and so does this package.
_UNPLAYABLE = (chess.STATUS_EMPTY | chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING
               | chess.STATUS_TOO_MANY_KINGS | chess.STATUS_OPPOSITE_CHECK)

#: The most pieces a side may have (in crazyhouse, on the board and in both pockets, as
#: captures change sides): every pseudo-legal move of a node must fit in the move buffer,
#: core.MAX_MOVES (27 moves a piece at most, 5 kinds of drops, castling, en passant).
MAX_PIECES = 36


def _flag_names(status: chess.Status) -> list[str]:
    return [(f.name or "").lower() for f in chess.Status if f and f in status]


def position_problems(board: chess.Board) -> tuple[list[str], list[str]]:
    """``(unplayable, impossible)``: what keeps a python-chess board of one of our
    variants from being played, and what only makes it impossible to reach.

    ``unplayable`` names the ``status()`` flags in :data:`_UNPLAYABLE` and three
    problems of this package's own: a king in a crazyhouse pocket (python-chess lists
    its drops and then refuses to play them), an en-passant capture that would take a
    king (chess and crazyhouse: a king capture; the crazyhouse pocket would get a king)
    and more than :data:`MAX_PIECES` pieces a side. ``impossible`` names every other
    flag: such positions are played exactly as python-chess plays them.
    """
    status = board.status()
    unplayable = _flag_names(status & _UNPLAYABLE)
    impossible = _flag_names(status & ~_UNPLAYABLE)
    if isinstance(board, chess.variant.CrazyhouseBoard):
        if any(pocket.count(chess.KING) for pocket in board.pockets):
            unplayable.append("a king in a pocket")
        pieces = chess.popcount(board.occupied) + sum(len(p) for p in board.pockets)
    else:
        pieces = max(chess.popcount(c) for c in board.occupied_co)
    if pieces > MAX_PIECES:
        unplayable.append(f"more than {MAX_PIECES} pieces a side")
    if (type(board) in (chess.Board, chess.variant.CrazyhouseBoard) and board.ep_square
            and any(board.generate_pseudo_legal_ep())):
        captured = board.ep_square + (-8 if board.turn == chess.WHITE else 8)
        if board.kings & chess.BB_SQUARES[captured]:
            unplayable.append(f"en passant on {chess.square_name(board.ep_square)} "
                              "would capture a king")
    return unplayable, impossible


def board_class(variant: str) -> type[chess.Board]:
    """The python-chess board class that defines a variant's rules."""
    return _VARIANTS[canonical_variant(variant)][1]


def variant_code(variant: str) -> int:
    """The numeric code :mod:`variants.core` uses for a variant."""
    return _VARIANTS[canonical_variant(variant)][0]


def starting_fen(variant: str) -> str:
    """The start position of a variant, as python-chess writes it."""
    return board_class(variant)().fen()


def move_to_uci(m: int) -> str:
    """UCI text of an encoded move (``e2e4``, ``e7e8q``, ``N@f3``)."""
    frm, to, piece, flags = m & 63, (m >> 6) & 63, (m >> 12) & 7, m >> 16
    if flags & core.F_DROP:
        return f"{_SYMBOLS[piece].upper()}@{chess.SQUARE_NAMES[to]}"
    promo = _SYMBOLS[piece] if piece else ""
    return f"{chess.SQUARE_NAMES[frm]}{chess.SQUARE_NAMES[to]}{promo}"


@dataclass
class _Frame:
    bb: np.ndarray
    st: np.ndarray
    key: int
    move: int


class Position:
    """A position of one variant, with its history (for repetitions and :meth:`pop`).

    Build one with :meth:`from_fen`, :meth:`from_board` or :meth:`start`. The arrays
    :attr:`bb` and :attr:`st` are the numba representation the engine searches on.
    """

    def __init__(self, variant: str, bb: np.ndarray, st: np.ndarray, root_fen: str) -> None:
        self.variant = canonical_variant(variant)
        self.bb = bb
        self.st = st
        self.root_fen = root_fen
        self._sbb = np.zeros(core.NBB, dtype=np.uint64)
        self._sst = np.zeros(core.NST, dtype=np.int64)
        self._buf = np.zeros(core.MAX_MOVES, dtype=np.int64)
        self._history: list[_Frame] = []
        #: python-chess ``status()`` problems of the FEN this game started from, and a
        #: line saying so (see :meth:`from_fen`); empty for a possible position.
        self.problems: tuple[str, ...] = ()
        self.warning = ""

    # -- construction --------------------------------------------------------------

    @classmethod
    def start(cls, variant: str = "chess") -> Position:
        """The start position of ``variant``."""
        return cls.from_board(board_class(variant)())

    @classmethod
    def from_fen(cls, fen: str | None = None, variant: str = "chess", *, strict: bool = False,
                 validate: bool = True, warn: bool = True) -> Position:
        """Parse a FEN (X-FEN with ``[pockets]`` and ``~`` in crazyhouse).

        Raises :class:`InvalidFenError` on malformed text and
        :class:`ImpossiblePositionError` on positions that cannot be played (no king
        where the variant needs one, ...: see :func:`position_problems`). A position
        python-chess's ``status()`` calls impossible but that can be played (a check no
        game can reach, a pawn on its back rank, ...) is accepted and played exactly as
        python-chess plays it: its problems are in :attr:`problems` and an
        :class:`ImpossiblePositionWarning` is issued (unless ``warn`` is false). With
        ``strict``, such a position is refused too (any ``status()`` problem). With
        ``validate`` false no check is made at all but the limit on pieces.
        """
        variant = canonical_variant(variant)
        cls_ = board_class(variant)
        if fen is None:
            return cls.start(variant)
        if not isinstance(fen, str):
            raise InvalidFenError(f"a FEN must be a string, got {type(fen).__name__}")
        try:
            board = cls_(fen)
        except (ValueError, IndexError, AssertionError) as exc:
            raise InvalidFenError(f"invalid {variant} FEN {fen!r}: {exc}") from None
        problems: list[str] = []
        if validate:
            unplayable, problems = position_problems(board)
            if strict:
                unplayable += problems
            if unplayable:
                raise ImpossiblePositionError(
                    f"impossible {variant} position {fen!r}: {', '.join(unplayable)}")
        pos = cls.from_board(board, variant)
        if problems:
            pos.problems = tuple(problems)
            pos.warning = (f"impossible {variant} position {fen!r} accepted "
                           f"({', '.join(problems)}): played as python-chess plays it")
            if warn:
                warnings.warn(ImpossiblePositionWarning(pos.warning), stacklevel=2)
        return pos

    @classmethod
    def from_board(cls, board: chess.Board, variant: str | None = None) -> Position:
        """Convert a python-chess board (its current position; the history is not kept)."""
        if variant is None:
            variant = next((n for n, (_, c) in _VARIANTS.items() if type(board) is c), None)
            if variant is None:
                raise UnknownVariantError(f"unsupported board class {type(board).__name__}")
        variant = canonical_variant(variant)
        pieces = chess.popcount(board.occupied)
        if isinstance(board, chess.variant.CrazyhouseBoard):
            pieces += sum(len(p) for p in board.pockets)
        else:
            pieces = max(chess.popcount(c) for c in board.occupied_co)
        if pieces > MAX_PIECES:   # the move buffer could overflow: never allowed
            raise ImpossiblePositionError(
                f"impossible {variant} position {board.fen()!r}: more than {MAX_PIECES} "
                "pieces a side")
        bb = np.zeros(core.NBB, dtype=np.uint64)
        st = np.zeros(core.NST, dtype=np.int64)
        st[core.VARIANT] = variant_code(variant)
        for t, mask in enumerate((board.pawns, board.knights, board.bishops, board.rooks,
                                  board.queens, board.kings)):
            bb[t] = mask
            for sq in chess.scan_forward(mask):
                st[sq] = t + 1
        bb[core.OCC] = board.occupied_co[chess.WHITE]
        bb[core.OCC + 1] = board.occupied_co[chess.BLACK]
        bb[core.PROMOTED] = board.promoted & board.occupied
        bb[core.CASTLING] = board.clean_castling_rights()
        st[core.TURN] = core.WHITE if board.turn == chess.WHITE else core.BLACK
        st[core.EP] = -1 if board.ep_square is None else board.ep_square
        st[core.HALFMOVE] = board.halfmove_clock
        st[core.FULLMOVE] = board.fullmove_number
        if isinstance(board, chess.variant.CrazyhouseBoard):
            for c, color in ((0, chess.WHITE), (1, chess.BLACK)):
                for t in range(1, 6):
                    st[core.POCKET + 6 * c + t] = board.pockets[color].count(t)
        if isinstance(board, chess.variant.ThreeCheckBoard):
            st[core.CHECKS] = board.remaining_checks[chess.WHITE]
            st[core.CHECKS + 1] = board.remaining_checks[chess.BLACK]
        bb[core.HASH] = core.compute_hash(bb, st)
        return cls(variant, bb, st, board.fen())

    def copy(self) -> Position:
        """An independent copy, history included."""
        other = Position(self.variant, self.bb.copy(), self.st.copy(), self.root_fen)
        other._history = [_Frame(f.bb.copy(), f.st.copy(), f.key, f.move) for f in self._history]
        other.problems, other.warning = self.problems, self.warning
        return other

    # -- state ---------------------------------------------------------------------

    @property
    def code(self) -> int:
        return int(self.st[core.VARIANT])

    @property
    def turn(self) -> bool:
        """``chess.WHITE`` (True) or ``chess.BLACK`` (False), as in python-chess."""
        return self.st[core.TURN] == core.WHITE

    @property
    def key(self) -> int:
        """Repetition key: equal exactly when python-chess's transposition keys are."""
        return int(core.position_key(self.bb, self.st, self._sbb, self._sst))

    @property
    def move_stack(self) -> list[str]:
        return [move_to_uci(f.move) for f in self._history]

    def remaining_checks(self, white: bool) -> int:
        """Three-check: the checks ``white`` (or black) still has to give to win."""
        return int(self.st[core.CHECKS + (0 if white else 1)])

    def has_insufficient_material(self, white: bool) -> bool:
        """python-chess's ``has_insufficient_material`` for white (or black)."""
        return bool(core.has_insufficient_material(self.bb, self.st, 0 if white else 1))

    def pocket(self, white: bool) -> dict[str, int]:
        """Pieces in hand (crazyhouse) by symbol."""
        c = 0 if white else 1
        return {_SYMBOLS[t]: int(self.st[core.POCKET + 6 * c + t]) for t in range(1, 6)}

    # -- moves ---------------------------------------------------------------------

    def legal_move_codes(self) -> np.ndarray:
        n = core.gen_legal(self.bb, self.st, self._buf, self._sbb, self._sst)
        return self._buf[:n].copy()

    def legal_moves(self) -> list[str]:
        """The legal moves in UCI (drops as ``N@f3``)."""
        return [move_to_uci(int(m)) for m in self.legal_move_codes()]

    def parse_uci(self, uci: str) -> int:
        """The encoded legal move for a UCI string; raises IllegalMoveError."""
        text = str(uci).strip()
        codes = self.legal_move_codes()
        for m in codes:
            if move_to_uci(int(m)) == text:
                return int(m)
        # Accept python-chess's king-takes-rook spelling of castling (e1h1).
        for m in codes:
            if (m >> 16) & core.F_CASTLE:
                frm, to = int(m) & 63, (int(m) >> 6) & 63
                rook = (frm & 56) + (0 if to < frm else 7)
                if text == chess.SQUARE_NAMES[frm] + chess.SQUARE_NAMES[rook]:
                    return int(m)
        try:
            chess.Move.from_uci(text)
        except ValueError:
            raise IllegalMoveError(f"malformed UCI move {uci!r}") from None
        raise IllegalMoveError(f"illegal move {uci!r} in {self.variant} position {self.fen()}")

    def push(self, move: int) -> None:
        """Play an encoded move (trusted to be legal; see :meth:`push_uci`)."""
        self._history.append(_Frame(self.bb.copy(), self.st.copy(), self.key, int(move)))
        core.apply_move(self.bb, self.st, np.int64(move))

    def push_uci(self, uci: str) -> int:
        """Play a move given in UCI; raises IllegalMoveError if it is not legal."""
        m = self.parse_uci(uci)
        self.push(m)
        return m

    def pop(self) -> str:
        """Take back the last move and return it in UCI."""
        if not self._history:
            raise IndexError("pop from a position without history")
        frame = self._history.pop()
        self.bb, self.st = frame.bb, frame.st
        return move_to_uci(frame.move)

    # -- outcome -------------------------------------------------------------------

    def is_check(self) -> bool:
        return bool(core.checkers_mask(self.bb, self.st))

    def _repetitions(self, key: int) -> int:
        return sum(1 for f in self._history if f.key == key)

    def repetitions(self) -> int:
        """How often this position occurred before in its game (same pieces, side to
        move, castling rights, en passant and pockets)."""
        return self._repetitions(self.key)

    def outcome(self, *, claim_draw: bool = False) -> chess.Outcome | None:
        """The game result exactly as python-chess's ``outcome()`` would give it."""
        term, winner = core.outcome_code(self.bb, self.st, self._buf, self._sbb, self._sst)
        if term == core.T_NONE:
            key = self.key
            if self._repetitions(key) + 1 >= 5:
                term = core.T_FIVEFOLD
            elif claim_draw:
                if self._can_claim_fifty():
                    term = core.T_FIFTY
                elif self._can_claim_threefold(key):
                    term = core.T_THREEFOLD
        if term == core.T_NONE:
            return None
        return chess.Outcome(_TERMINATIONS[int(term)],
                             None if winner < 0 else winner == core.WHITE)

    def _has_moves(self) -> bool:
        return core.gen_legal(self.bb, self.st, self._buf, self._sbb, self._sst) > 0

    def _can_claim_fifty(self) -> bool:
        if self.code == core.CRAZYHOUSE:
            return False
        clock = int(self.st[core.HALFMOVE])
        if clock >= 100 and self._has_moves():
            return True
        if clock >= 99:
            for m in self.legal_move_codes():
                self.push(int(m))
                try:
                    if self.st[core.HALFMOVE] >= 100 and self._has_moves():
                        return True
                finally:
                    self.pop()
        return False

    def _can_claim_threefold(self, key: int) -> bool:
        keys = [f.key for f in self._history] + [key]
        if keys.count(key) >= 3:
            return True
        for m in self.legal_move_codes():
            self.push(int(m))
            try:
                if keys.count(self.key) >= 2:
                    return True
            finally:
                self.pop()
        return False

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position has occurred ``count`` times (python-chess's
        ``is_repetition``: this occurrence included, the same side to move)."""
        return self._repetitions(self.key) + 1 >= count

    def is_fifty_moves(self) -> bool:
        """python-chess's ``is_fifty_moves``: 50 moves without capture or pawn move, and
        a legal move left (never in crazyhouse, whose python-chess board has no such rule)."""
        return (self.code != core.CRAZYHOUSE and int(self.st[core.HALFMOVE]) >= 100
                and self._has_moves())

    @property
    def fullmove_number(self) -> int:
        return int(self.st[core.FULLMOVE])

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    # -- text ----------------------------------------------------------------------

    def board_fen(self) -> str:
        promoted_marks = self.code == core.CRAZYHOUSE
        white = int(self.bb[core.OCC])
        prom = int(self.bb[core.PROMOTED])
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                sq = rank * 8 + file
                t = int(self.st[sq])
                if not t:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                sym = _SYMBOLS[t]
                row += sym.upper() if white >> sq & 1 else sym
                if promoted_marks and prom >> sq & 1:
                    row += "~"
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def _castling_xfen(self) -> str:
        rights = int(self.bb[core.CASTLING])
        rooks = int(self.bb[core.ROOK - 1])
        out = []
        for c in (core.WHITE, core.BLACK):
            king = int(core.king_square(self.bb, c))
            if king < 0:
                continue
            backrank = 0xFF if c == core.WHITE else 0xFF << 56
            ours = int(self.bb[core.OCC + c])
            for sq in reversed(list(chess.scan_forward(rights & backrank))):
                a_side = sq % 8 < king % 8
                others = ours & rooks & backrank & ~(1 << sq)
                if any((o % 8 < sq % 8) == a_side for o in chess.scan_forward(others)):
                    ch = chess.FILE_NAMES[sq % 8]
                else:
                    ch = "q" if a_side else "k"
                out.append(ch.upper() if c == core.WHITE else ch)
        return "".join(out) or "-"

    def fen(self) -> str:
        """The FEN, character for character as python-chess's ``board.fen()``."""
        board = self.board_fen()
        if self.code == core.CRAZYHOUSE:
            pockets = ""
            for c in (0, 1):
                for t in range(5, 0, -1):
                    sym = _SYMBOLS[t].upper() if c == 0 else _SYMBOLS[t]
                    pockets += sym * int(self.st[core.POCKET + 6 * c + t])
            board += f"[{pockets}]"
        ep = "-"
        if core.has_legal_ep(self.bb, self.st, self._sbb, self._sst):
            ep = chess.SQUARE_NAMES[int(self.st[core.EP])]
        fields = [board, "w" if self.turn else "b", self._castling_xfen(), ep]
        if self.code == core.THREECHECK:   # python-chess writes them floored at 0
            fields.append(f"{max(self.remaining_checks(True), 0)}+"
                          f"{max(self.remaining_checks(False), 0)}")
        return " ".join([*fields, str(int(self.st[core.HALFMOVE])),
                         str(int(self.st[core.FULLMOVE]))])

    def to_board(self) -> chess.Board:
        """The python-chess board of this game: its start position and every move played."""
        board = board_class(self.variant)(self.root_fen)
        for uci in self.move_stack:
            board.push_uci(uci)
        return board

    def __repr__(self) -> str:
        return f"Position({self.variant!r}, {self.fen()!r})"


def perft(variant: str, fen: str | None, depth: int, *, strict: bool = False,
          warn: bool = True) -> int:
    """Number of leaf nodes of the legal move tree of depth ``depth`` (bulk counted).
    ``strict`` and ``warn`` as in :meth:`Position.from_fen`."""
    if depth < 0:
        raise VariantError(f"perft depth must be >= 0, got {depth}")
    pos = Position.from_fen(fen, variant, strict=strict, warn=warn)
    return int(core.perft(pos.bb, pos.st, int(depth)))


def divide(variant: str, fen: str | None, depth: int, *, strict: bool = False,
           warn: bool = True) -> dict[str, int]:
    """Perft split by root move: ``{uci: leaves}``."""
    if depth < 1:
        raise VariantError(f"divide needs depth >= 1, got {depth}")
    pos = Position.from_fen(fen, variant, strict=strict, warn=warn)
    moves, counts = core.perft_divide(pos.bb, pos.st, int(depth))
    return {move_to_uci(int(m)): int(c) for m, c in zip(moves, counts)}
