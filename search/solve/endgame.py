"""Endgame tables for the losing variants (suicide, giveaway, antichess), built here by
retrograde analysis, never downloaded.

A table holds every position of one material (at most
:attr:`variants.spec.Variant.endgame_pieces` pieces, both sides on the board, no
castling rights, no en passant capture) with either side to move: its value for the
side to move under best play and its distance in plies, the winner playing the
quickest win and the loser the slowest loss (distance to the end of the game, as the
variants end it: a side without pieces or stalemated). The values are python-chess's:
terminals come from :func:`search.mcts.prior.outcome_value` and moves from the rules'
move generator, both tested against python-chess.

A material's table is built the first time it is asked for, after the tables its
captures and promotions lead to (fewer pieces, or pawns promoted): a forward pass
links every position to its children in the same material and folds the others (and
terminals) into three numbers; then sweep ``k`` finds the positions won or lost in
exactly ``k`` plies, until a sweep finds none and no child elsewhere is further away.
What is left is drawn. A move that gives the opponent an en passant capture is valued
one ply deeper: captures are compulsory, so every reply then changes the material.

The tables know nothing of the half-move clock or repetitions: :meth:`Tables.probe`
answers only where the 75-move rule cannot change the result.

Built tables can be saved in one file per set of rules (:meth:`Tables.save`, what
``tdleaf warmup --tables`` does for all of them) in the ``endgame`` folder of the
per-user data folder (:func:`search.shipped.user_data_dir`), named with the digest of
the sources their values depend on (:func:`table_sources`: the rules, and every file
the builder's compiled code reads, found by walking its calls): a change to them makes
a new file, never a stale answer.
"""

from __future__ import annotations

import functools
import hashlib
import io
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher
from numba.typed import Dict

from variants import Position, core, jitcache, spec
from variants.errors import TdleafError
from variants.position import move_to_uci

from ..files import write_bytes
from ..mcts.prior import outcome_value
from ..shipped import user_data_dir

_ROOT = Path(__file__).resolve().parents[2]   # the folder of the packages

#: Values (int16) for the side to move: ``d + 1`` wins in ``d`` plies, ``-(d + 1)``
#: loses in ``d`` plies, 0 is a draw. While building, UNKNOWN; a square assignment that
#: is no position (two pieces on a square, a pawn on a back rank, like pieces out of
#: order) stays INVALID.
DRAW, UNKNOWN, INVALID = 0, -32768, -32767
#: The 75-move rule: a game ends when the half-move clock reaches it.
CLOCK_LIMIT = 150


@dataclass(frozen=True)
class Probe:
    """A table's answer for the side to move: ``result`` 1 (wins), 0 (draw) or -1
    (loses) and ``plies`` to the end of the game under best play (0 for a draw)."""

    result: int
    plies: int


def decode(v: int) -> Probe:
    """The :class:`Probe` of a stored value."""
    if v == DRAW:
        return Probe(0, 0)
    return Probe(1, v - 1) if v > 0 else Probe(-1, -v - 1)


# --------------------------------------------------------------------------------------
# Materials and indices
# --------------------------------------------------------------------------------------
# A piece's kind is colour * 6 + type - 1 (0..11). A material is its kinds in ascending
# order, packed as a key: the number of pieces in the low 4 bits, then kind + 1 in 4 bits
# each. A position's index: its pieces' squares in the material's order (like pieces by
# ascending square), base 64, times 2, plus the side to move.


def material_key(kinds: list[int]) -> int:
    """The key of a material given as piece kinds (colour * 6 + type - 1)."""
    key = len(kinds)
    for i, k in enumerate(sorted(kinds)):
        key |= (k + 1) << (4 + 4 * i)
    return key


def material_kinds(key: int) -> list[int]:
    """The piece kinds of a material key, ascending."""
    return [((key >> (4 + 4 * i)) & 15) - 1 for i in range(key & 15)]


def material_name(key: int) -> str:
    """A material as white's pieces, ``v``, black's, kings first (``KQvR``)."""
    sides = ["", ""]
    for k in sorted(material_kinds(key), key=lambda k: -(k % 6)):
        sides[k // 6] += "PNBRQK"[k % 6]
    return f"{sides[0]}v{sides[1]}"


@njit(cache=True)
def board_key(bb, st, limit):
    """The material key of a position with at most ``limit`` pieces (else -1)."""
    occ = bb[core.OCC] | bb[core.OCC + 1]
    n = core.popcount(occ)
    if n > limit:
        return np.int64(-1)
    kinds = np.empty(8, np.int64)
    i = 0
    while occ:
        sq = core.lsb(occ)
        occ &= occ - np.uint64(1)
        c = 0 if bb[core.OCC] & core.SQ[sq] else 1
        k = c * 6 + st[sq] - 1
        j = i                                    # insertion sort
        while j > 0 and kinds[j - 1] > k:
            kinds[j] = kinds[j - 1]
            j -= 1
        kinds[j] = k
        i += 1
    key = np.int64(n)
    for j in range(n):
        key |= (kinds[j] + 1) << (4 + 4 * j)
    return key


@njit(cache=True)
def board_index(bb, st, key):
    """A position's index in the table of material ``key`` (which must be its own)."""
    n = key & 15
    used = np.uint64(0)
    idx = np.int64(0)
    for i in range(n):
        k = ((key >> (4 + 4 * i)) & 15) - 1
        c, t = k // 6, k % 6 + 1
        bits = bb[t - 1] & bb[core.OCC + c] & ~used
        sq = core.lsb(bits)
        used |= core.SQ[sq]
        idx = idx * 64 + sq
    return idx * 2 + st[core.TURN]


@njit(cache=True)
def _set_up(bb, st, code, key, index):
    """The position of ``index`` in material ``key`` (rules ``code``) into ``bb, st``;
    False when the index is no position."""
    n = key & 15
    bb[:] = 0
    st[:] = 0
    st[core.VARIANT] = code
    st[core.EP] = -1
    st[core.FULLMOVE] = 1
    st[core.TURN] = index & 1
    rest = index >> 1
    last_kind, last_sq = -1, -1
    for i in range(n - 1, -1, -1):
        sq = rest & 63
        rest >>= 6
        k = ((key >> (4 + 4 * i)) & 15) - 1
        c, t = k // 6, k % 6 + 1
        if st[sq] != 0:
            return False
        if t == core.PAWN and (sq < 8 or sq >= 56):
            return False
        if k == last_kind and sq >= last_sq:    # like pieces: ascending squares only
            return False
        core.put_piece(bb, st, sq, t, c, False)
        last_kind, last_sq = k, sq
    bb[core.HASH] = core.compute_hash(bb, st)
    return True


@njit(cache=True)
def _stored(bb, st, limit, tables, moves, sbb, sst):
    """(value, -1) of a position without an en passant capture outside the table being
    built: a terminal's, or its table's; (UNKNOWN, its material) if that is missing."""
    _n, terminal, v = outcome_value(bb, st, moves, sbb, sst)
    if terminal:
        return np.int16(1 if v > 0 else (-1 if v < 0 else 0)), np.int64(-1)
    key = board_key(bb, st, limit)
    if key not in tables:
        return np.int16(UNKNOWN), key
    return tables[key][board_index(bb, st, key)], np.int64(-1)


@njit(cache=True)
def _value(bb, st, limit, tables, moves, sbb, sst):
    """As :func:`_stored`, but with an en passant capture open, one ply of search over
    the (compulsory) captures, each of which changes the material."""
    if not core.has_legal_ep(bb, st, sbb, sst):
        return _stored(bb, st, limit, tables, moves, sbb, sst)
    n = core.gen_legal(bb, st, moves, sbb, sst)
    cbb = np.empty(core.NBB, np.uint64)
    cst = np.empty(core.NST, np.int64)
    best = np.int16(UNKNOWN)
    for j in range(n):
        core.copy_make(bb, st, cbb, cst, moves[j])
        c, missing = _stored(cbb, cst, limit, tables, moves[n:], sbb, sst)
        if c == UNKNOWN:
            return c, missing
        mine = _negate(c)
        if best == UNKNOWN or _better(mine, best):
            best = mine
    return best, np.int64(-1)


@njit(cache=True)
def _negate(c):
    """The value of a position for its mover from a child's value for the child's."""
    if c < 0:
        return np.int16(-c + 1)           # the child loses in d: a win in d + 1
    if c > 0:
        return np.int16(-(c + 1))         # the child wins in d: a loss in d + 1
    return np.int16(0)


@njit(cache=True)
def _better(a, b):
    """Whether value ``a`` is better than ``b`` for the side to move."""
    if a > 0:
        return b <= 0 or a < b           # a win; a quicker one
    if a == 0:
        return b < 0
    return b < 0 and a < b               # both losses: the slower one


@njit(cache=True)
def _link(code, key, limit, tables):
    """The forward pass over material ``key``: each position's value where it is
    terminal, its children in the table (``first``/``edges``, like a CSR matrix) and,
    folded from the children elsewhere, the quickest win they offer (``ext_win``: k
    of "win in k"), the slowest loss (``ext_loss``) and whether one is drawn
    (``ext_draw``). Returns the key of a missing table instead when one is missing."""
    size = np.int64(2) << (6 * (key & 15))
    val = np.empty(size, np.int16)
    val[:] = INVALID
    first = np.zeros(size + 1, np.int64)
    ext_win = np.zeros(size, np.int16)
    ext_loss = np.zeros(size, np.int16)
    ext_draw = np.zeros(size, np.bool_)
    edges = np.empty(size * 4, np.int32)
    ne = 0
    bb = np.empty(core.NBB, np.uint64)
    st = np.empty(core.NST, np.int64)
    cbb = np.empty(core.NBB, np.uint64)
    cst = np.empty(core.NST, np.int64)
    sbb = np.empty(core.NBB, np.uint64)
    sst = np.empty(core.NST, np.int64)
    moves = np.empty(4 * core.MAX_MOVES, np.int64)
    for i in range(size):
        first[i] = ne
        if not _set_up(bb, st, code, key, i):
            continue
        n, terminal, v = outcome_value(bb, st, moves, sbb, sst)
        if terminal:
            val[i] = 1 if v > 0 else (-1 if v < 0 else 0)
            continue
        val[i] = UNKNOWN
        if ne + n > edges.shape[0]:
            grown = np.empty(2 * edges.shape[0] + n, np.int32)
            grown[:ne] = edges[:ne]
            edges = grown
        for j in range(n):
            core.copy_make(bb, st, cbb, cst, moves[j])
            if board_key(cbb, cst, limit) == key and not core.has_legal_ep(cbb, cst, sbb, sst):
                edges[ne] = board_index(cbb, cst, key)
                ne += 1
                continue
            c, missing = _value(cbb, cst, limit, tables, moves[n:], sbb, sst)
            if c == UNKNOWN:
                return missing, val, first, edges, ext_win, ext_loss, ext_draw
            if c < 0:
                k = -c                            # the child loses in k - 1: a win in k
                if ext_win[i] == 0 or k < ext_win[i]:
                    ext_win[i] = k
            elif c > 0:
                ext_loss[i] = max(ext_loss[i], c)  # the child wins in c - 1: a loss in c
            else:
                ext_draw[i] = True
    first[size] = ne
    return np.int64(-1), val, first, edges[:ne], ext_win, ext_loss, ext_draw


@njit(cache=True)
def _sweep(val, first, edges, ext_win, ext_loss, ext_draw):
    """Retrograde sweeps: sweep ``k`` gives the positions won or lost in exactly ``k``
    plies their values; those left at the end are draws. Returns the sweeps made."""
    size = val.shape[0]
    far = np.int64(0)                             # the furthest child elsewhere
    for i in range(size):
        far = max(far, np.int64(ext_win[i]), np.int64(ext_loss[i]))
    k = np.int64(1)
    while True:
        changed = False
        for i in range(size):
            if val[i] != UNKNOWN:
                continue
            win = ext_win[i] == k
            if not win:
                for e in range(first[i], first[i + 1]):
                    if val[edges[e]] == -k:       # a child lost in k - 1 plies
                        win = True
                        break
            if win:
                val[i] = k + 1
                changed = True
                continue
            if ext_draw[i] or ext_win[i]:            # a child elsewhere is no win for them
                continue
            worst = np.int64(ext_loss[i])
            lost = True
            for e in range(first[i], first[i + 1]):
                c = val[edges[e]]
                if c <= 0:                       # unknown, drawn, or lost: not a loss
                    lost = False
                    break
                worst = max(worst, np.int64(c))
            if lost and worst == k:
                val[i] = -(k + 1)
                changed = True
        if not changed and k > far:
            break
        k += 1
    for i in range(size):
        if val[i] == UNKNOWN:
            val[i] = DRAW
    return k


@njit(cache=True)
def probe_value(bb, st, limit, tables):
    """The stored value of a position (UNKNOWN: not in a built table)."""
    if bb[core.CASTLING]:
        return np.int16(UNKNOWN)
    key = board_key(bb, st, limit)
    if key < 0 or key not in tables:
        return np.int16(UNKNOWN)
    sbb = np.empty(core.NBB, np.uint64)
    sst = np.empty(core.NST, np.int64)
    if core.has_legal_ep(bb, st, sbb, sst):
        return np.int16(UNKNOWN)
    return tables[key][board_index(bb, st, key)]


def new_tables() -> Any:
    """An empty numba dictionary of tables: material key -> values by index."""
    return Dict.empty(key_type=types.int64, value_type=types.int16[::1])


# --------------------------------------------------------------------------------------
# The Python side
# --------------------------------------------------------------------------------------


class TableError(TdleafError, ValueError):
    """A variant without endgame tables, or a material beyond them."""


class Tables:
    """The endgame tables of one set of rules, built as they are asked for and kept for
    the process (:func:`tables`)."""

    def __init__(self, variant: str) -> None:
        v = spec.get(variant)
        if not v.endgame_pieces:
            raise TableError(f"{v.name} has no endgame tables (the losing variants have)")
        self.code = v.code
        self.limit = v.endgame_pieces
        self.tables = new_tables()
        #: Seconds each material's table took to build (its own, not its dependencies').
        self.build_seconds: dict[int, float] = {}
        self._lock = threading.RLock()
        self._read: set[Path] = set()        # the files loaded (each once a process)

    def build(self, key: int) -> None:
        """Build material ``key``'s table and, first, the tables it leads to."""
        kinds = material_kinds(key)
        if not 2 <= len(kinds) <= self.limit or len({k // 6 for k in kinds}) < 2:
            raise TableError(f"no table for {material_name(key)}: 2 to {self.limit} pieces, "
                             "both sides on the board")
        with self._lock:
            while key not in self.tables:
                t0 = time.perf_counter()
                missing, val, first, edges, ew, el, ed = _link(self.code, key, self.limit,
                                                               self.tables)
                if missing >= 0:                 # a capture or promotion's table first
                    self.build(int(missing))
                    continue
                _sweep(val, first, edges, ew, el, ed)
                self.tables[key] = val
                self.build_seconds[key] = time.perf_counter() - t0

    def build_all(self, progress: Any = None) -> None:
        """Every table: each material of 2 to ``limit`` pieces with both sides on board
        (``progress(done, total)`` after each)."""
        keys = all_materials(self.limit)
        for i, key in enumerate(keys):
            self.build(key)
            if progress is not None:
                progress(i + 1, len(keys))

    @property
    def path(self) -> Path:
        """The file these rules' tables are saved in."""
        return user_data_dir() / "endgame" / f"rules{self.code}-{self.limit}-{sources_digest()[:16]}.npz"

    def save(self) -> Path:
        """Write every built table to :attr:`path` (atomically)."""
        buf = io.BytesIO()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            np.savez_compressed(buf, **{str(k): v for k, v in self.tables.items()})
        return write_bytes(self.path, buf.getvalue())

    def load(self) -> int:
        """Read the tables saved at :attr:`path`, if any and not read yet in this
        process; returns how many. A file that cannot be read is a :class:`TableError`."""
        path = self.path
        if path in self._read or not path.exists():
            return 0
        try:
            with np.load(path) as saved:
                loaded = {int(k): np.ascontiguousarray(saved[k], np.int16) for k in saved.files}
        except (OSError, ValueError, zipfile.BadZipFile) as exc:
            raise TableError(f"{path}: not a file of endgame tables ({exc}); delete it to "
                             "build them again") from None
        with self._lock:
            for k, v in loaded.items():
                if v.shape != (2 << (6 * (k & 15)),):
                    raise TableError(f"{path}: table {k} has the wrong size; delete the file")
                self.tables[k] = v
            self._read.add(path)
        return len(loaded)

    def value(self, position: Position, build: bool = True) -> int | None:
        """The stored value of ``position`` (None: not a table position: too many pieces,
        castling rights or an en passant capture), building its table if ``build``."""
        key = int(board_key(position.bb, position.st, self.limit))
        if key < 0 or position.bb[core.CASTLING] or len({k // 6 for k in material_kinds(key)}) < 2:
            return None
        if key not in self.tables:
            if not build:
                return None
            self.build(key)
        v = int(probe_value(position.bb, position.st, self.limit, self.tables))
        return None if v == UNKNOWN else v

    def probe(self, position: Position, build: bool = True) -> Probe | None:
        """The result and distance for the side to move, or None where the table cannot
        tell: not a table position, or a win the 75-move rule may yet turn into a draw
        (the half-move clock plus the distance reaches the limit)."""
        v = self.value(position, build)
        if v is None:
            return None
        p = decode(v)
        if p.result and int(position.st[core.HALFMOVE]) + p.plies >= CLOCK_LIMIT:
            return None
        return p

    def best_move(self, position: Position, build: bool = True) -> tuple[str, Probe] | None:
        """A move keeping the table's result (the quickest win, the slowest loss), with
        the position's :class:`Probe`; None where :meth:`probe` is."""
        here = self.probe(position, build)
        if here is None:
            return None
        best: tuple[str, int] | None = None
        bufs = (np.empty(4 * core.MAX_MOVES, np.int64), np.empty(core.NBB, np.uint64),
                np.empty(core.NST, np.int64))
        cbb, cst = np.empty(core.NBB, np.uint64), np.empty(core.NST, np.int64)
        for m in position.legal_move_codes():
            core.copy_make(position.bb, position.st, cbb, cst, int(m))
            while True:
                c, missing = _value(cbb, cst, self.limit, self.tables, *bufs)
                if c != UNKNOWN:
                    break
                self.build(int(missing))
            mine = int(_negate(c))
            if best is None or _better(mine, best[1]):
                best = (move_to_uci(int(m)), mine)
        assert best is not None
        return best[0], here


    def line(self, position: Position, limit: int = 100) -> list[str]:
        """The tables' line from ``position`` (best moves, built tables only) until the
        game ends, a table cannot tell, or ``limit`` plies."""
        pos, out = position.copy(), list[str]()
        while len(out) < limit and pos.outcome() is None:
            found = self.best_move(pos, build=False)
            if found is None:
                break
            out.append(found[0])
            pos.push_uci(found[0])
        return out


def table_sources() -> list[str]:
    """The files a table's values depend on, as ``"package/file.py"`` names: every file
    of the rules (``variants``, walked whole) and every file the builder's compiled code
    reads (this module's compiled functions followed down their calls: the outcomes of
    search/mcts/prior.py, ...), found by walking, not named here."""
    compiled = [obj for obj in globals().values()
                if isinstance(obj, Dispatcher) and obj.py_func.__module__ == __name__]
    return sorted(set(jitcache.package_sources(_ROOT, ("variants",)))
                  | set(jitcache.reached_sources(compiled)))


@functools.lru_cache(maxsize=4)
def sources_digest(root: Path | None = None) -> str:
    """SHA-256 over :func:`table_sources` (read under ``root``, by default the
    installed packages' folder); of the rules' spec, its rule fields alone, so that
    tuning the search keeps the tables."""
    base = _ROOT if root is None else root
    h = hashlib.sha256()
    for name in table_sources():
        h.update(f"{name}\0".encode())
        h.update(spec.rules_text().encode() if name == "variants/spec.py"
                 else (base / name).read_bytes())
    return h.hexdigest()


def all_materials(limit: int) -> list[int]:
    """Every material of 2 to ``limit`` pieces with both sides on the board, fewest
    pieces first."""
    out: set[int] = set()

    def grow(kinds: list[int]) -> None:
        if len(kinds) >= 2 and len({k // 6 for k in kinds}) == 2:
            out.add(material_key(kinds))
        if len(kinds) < limit:
            for k in range(kinds[-1] if kinds else 0, 12):
                grow(kinds + [k])

    grow([])
    return sorted(out, key=lambda k: (k & 15, k))


_TABLES: dict[int, Tables] = {}


def tables(variant: str) -> Tables:
    """The process's tables for ``variant``'s rules (suicide; giveaway and antichess
    share theirs)."""
    v = spec.get(variant)
    if v.code not in _TABLES:
        _TABLES[v.code] = Tables(variant)
    return _TABLES[v.code]
