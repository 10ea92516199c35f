"""``tdleaf bench search``: search speed (nodes per second) of the tdleaf engine on the
fixed position set of :mod:`tdleaf.bench.positions`, against Sjeng 11.2 (XBoard),
Fairy-Stockfish (UCI) and a plain python-chess alpha-beta, in the same run; and the
resident memory of a ``tdleaf uci`` process after a crazyhouse search."""

from __future__ import annotations

import contextlib
import datetime
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import chess
import chess.engine

from tdleaf.play import engines
from tdleaf.play.engines import find_engine, find_fairy_stockfish
from variants.spec import SPECS
from variants.spec import get as spec

from .common import (
    cpu_seconds,
    load_average,
    machine,
    ratio,
    si,
    tdleaf_command,
    times,
)
from .positions import SEARCH_VARIANTS, BenchPosition, positions

DEFAULT_DEPTH = 5
DEFAULT_MOVETIME = 1.0
HASH_MB = 64
VALUE_SET = "traditional"
RSS_LIMIT_MB = 500
#: Variants each external engine is run on (our name -> the engine's name): Sjeng where
#: the spec makes it a reference engine, Fairy-Stockfish wherever its binary lists the
#: variant's UCI_Variant.
SJENG_VARIANTS = {name: v.xboard for name, v in SPECS.items() if "xboard:sjeng" in v.engines}
FSF_VARIANTS = {name: v.uci_variant for name, v in SPECS.items()}
ENGINES = ("sjeng", "fairy_stockfish", "python_chess")
LABELS = {"sjeng": "Sjeng", "fairy_stockfish": "Fairy-Stockfish", "python_chess": "python-chess"}

# -- the python-chess alpha-beta --------------------------------------------------------------

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


# -- external engines --------------------------------------------------------------------------

class Sjeng:
    """Sjeng 11.2 driven over XBoard by python-chess, for time-limited searches; its
    quirks (pockets, ``st`` in whole seconds) are handled by :mod:`tdleaf.play.engines`.
    Node counts come from the ``Nodes:`` line Sjeng prints after each search (its
    alpha-beta and quiescence nodes; its proof-number search in suicide does not count
    nodes), falling back on the thinking output.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._dir = tempfile.TemporaryDirectory(prefix="tdleaf-sjeng-")  # Sjeng may write files
        self._log = engines.EngineLog(keep=True).attach()
        try:
            self.engine = chess.engine.SimpleEngine.popen_xboard(
                engines.dies_with_parent([path]), cwd=self._dir.name, stderr=subprocess.DEVNULL)
        except BaseException:
            self._cleanup()
            raise
        engines.adapt(self.engine)
        self.name = self.engine.id.get("name", path)
        features = getattr(self.engine.protocol, "features", {})    # XBoard's
        self.variants = set(str(features.get("variants", "")).split(","))

    def search(self, board: chess.Board, seconds: float) -> dict[str, Any]:
        self._log.lines.clear()
        pid = _pid(self.engine)
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        result = self.engine.play(board, chess.engine.Limit(time=seconds),
                                  info=chess.engine.INFO_ALL, game=object())
        elapsed = time.perf_counter() - t0
        cpu1 = cpu_seconds(pid)
        text = "\n".join(self._log.lines)
        nodes = _last_int(r"^Nodes: (\d+)", text)
        post_nodes = result.info.get("nodes")
        return {"nodes": nodes if nodes is not None else (post_nodes or 0), "seconds": elapsed,
                "cpu_seconds": None if cpu0 is None or cpu1 is None else cpu1 - cpu0,
                "depth": result.info.get("depth"),
                "move": result.move.uci() if result.move else None,
                "reported_nps": _last_int(r"^NPS: (\d+)", text),
                "thinking_output_nodes": post_nodes,
                "proof_number_search": "proof" in text or "Forced win" in text,
                "forced_win": "Forced win" in text}

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            with contextlib.suppress(Exception):
                self.engine.close()
        self._cleanup()

    def restart(self) -> None:
        """Replace the process (after a failure: its state is unknown)."""
        self.close()
        self.__init__(self.path)  # type: ignore[misc]

    def _cleanup(self) -> None:
        self._log.detach()
        self._dir.cleanup()


class FairyStockfish:
    """Fairy-Stockfish over UCI (python-chess), one thread, a ``HASH_MB`` hash, for
    ``go movetime`` searches; nodes and time from its last ``info`` line."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.engine = chess.engine.SimpleEngine.popen_uci(path, stderr=subprocess.DEVNULL)
        self.name = self.engine.id.get("name", path)
        option = self.engine.options.get("UCI_Variant")
        self.variants = set(option.var) if option is not None and option.var else {chess.Board.uci_variant}
        self.engine.configure({k: v for k, v in (("Hash", HASH_MB), ("Threads", 1))
                               if k in self.engine.options})

    def search(self, board: chess.Board, seconds: float) -> dict[str, Any]:
        pid = _pid(self.engine)
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        result = self.engine.play(board, chess.engine.Limit(time=seconds),
                                  info=chess.engine.INFO_ALL, game=object())
        elapsed = time.perf_counter() - t0
        cpu1 = cpu_seconds(pid)
        info = result.info
        return {"nodes": int(info.get("nodes", 0)), "seconds": float(info.get("time") or elapsed),
                "wall_seconds": elapsed,
                "cpu_seconds": None if cpu0 is None or cpu1 is None else cpu1 - cpu0,
                "depth": info.get("depth"),
                "move": result.move.uci() if result.move else None,
                "reported_nps": info.get("nps")}

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            with contextlib.suppress(Exception):
                self.engine.close()

    def restart(self) -> None:
        """Replace the process (after a failure: its state is unknown)."""
        self.close()
        self.__init__(self.path)  # type: ignore[misc]


def _pid(engine: chess.engine.SimpleEngine) -> int:
    transport = engine.protocol.transport
    assert transport is not None, "the engine is not running"
    return transport.get_pid()


def _last_int(pattern: str, text: str) -> int | None:
    found = re.findall(pattern, text, flags=re.MULTILINE)
    return int(found[-1]) if found else None


# -- memory of `tdleaf uci` --------------------------------------------------------------------

def _proc_status_kb(pid: int, field: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])  # "VmRSS:   123456 kB"
    except OSError:
        return None
    return None


def measure_uci_memory(variant: str = "crazyhouse", depth: int = 5,
                       timeout: float = 600.0) -> dict[str, Any]:
    """Resident memory of a ``tdleaf uci`` process after ``uci``, ``isready`` and
    ``go depth`` in ``variant`` with the default hash: VmRSS and its peak VmHWM, in MB
    (read from /proc/<pid>/status while the process is still running)."""
    cmd = tdleaf_command() + ["uci"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout

    def send(text: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def until(prefix: str) -> str:
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"'tdleaf uci' did not answer {prefix!r} within "
                                   f"{timeout:.0f} s") from None
            if line is None:
                raise RuntimeError("'tdleaf uci' exited unexpectedly")
            if line.startswith(prefix):
                return line

    try:
        t0 = time.perf_counter()
        send("uci")
        until("uciok")
        send(f"setoption name UCI_Variant value {variant}")
        send("isready")
        until("readyok")
        send("position startpos")
        send(f"go depth {depth}")
        bestmove = until("bestmove")
        seconds = time.perf_counter() - t0
        rss = _proc_status_kb(proc.pid, "VmRSS")
        hwm = _proc_status_kb(proc.pid, "VmHWM")
        if rss is None:
            raise RuntimeError(f"cannot read /proc/{proc.pid}/status")
        send("quit")
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"command": "tdleaf uci", "variant": variant, "hash_mb": HASH_MB,
            "commands": ["uci", f"setoption name UCI_Variant value {variant}", "isready",
                         "position startpos", f"go depth {depth}"],
            "bestmove": bestmove.split()[1] if len(bestmove.split()) > 1 else None,
            "seconds": seconds, "vmrss_mb": rss / 1024, "vmhwm_mb": (hwm or rss) / 1024,
            "limit_mb": RSS_LIMIT_MB, "ok": max(rss, hwm or 0) / 1024 < RSS_LIMIT_MB}


# -- the benchmark ------------------------------------------------------------------------------

def _tdleaf_search(engine: Any, fen: str, **limits: Any) -> dict[str, Any]:
    cpu0 = time.process_time()
    result = engine.search(fen, **limits)
    cpu = time.process_time() - cpu0
    return {"nodes": int(result.nodes), "seconds": float(result.time), "cpu_seconds": cpu,
            "depth": int(result.depth),
            "seldepth": int(result.seldepth), "move": result.move,
            "score": None if result.score is None else round(float(result.score), 2),
            "mate": result.mate}


def bench_search(variant_names: list[str] | None = None, depth: int | None = None,
                 movetime: float | None = None, pc_movetime: float | None = None,
                 engines: bool = True, memory: bool = True, quick: bool = False,
                 sjeng_path: str | None = None, fsf_path: str | None = None,
                 progress: bool = False) -> dict[str, Any]:
    """Run the search benchmark and return the JSON-ready report (``tdleaf bench search``).

    ``quick`` (for tests) runs two positions per variant (the first and the last) at
    depth 2 and 0.1 s, and the memory measurement with ``go depth 2``.
    """
    from search import Engine
    from variants import canonical_variant

    names = list(dict.fromkeys(canonical_variant(v) for v in variant_names or SEARCH_VARIANTS))
    depth = depth or (2 if quick else DEFAULT_DEPTH)
    movetime = movetime or (0.1 if quick else DEFAULT_MOVETIME)
    pc_movetime = pc_movetime or movetime
    warnings: list[str] = []
    notes: list[str] = []
    load_before = load_average()
    started = datetime.datetime.now(datetime.UTC)
    t_start = time.perf_counter()

    sjeng: Sjeng | None = None
    fsf: FairyStockfish | None = None
    if engines:
        if any(n in SJENG_VARIANTS for n in names):
            path = sjeng_path or find_engine("sjeng")
            if path is None:
                notes.append("Sjeng not found; its columns are empty")
            else:
                try:
                    sjeng = Sjeng(path)
                except Exception as exc:
                    notes.append(f"cannot start Sjeng ({path}): {exc}")
        if any(n in FSF_VARIANTS for n in names):
            path = fsf_path or find_fairy_stockfish()
            if path is None:
                notes.append("Fairy-Stockfish not found; its columns are empty")
            else:
                try:
                    fsf = FairyStockfish(path)
                except Exception as exc:
                    notes.append(f"cannot start Fairy-Stockfish ({path}): {exc}")
    else:
        notes.append("external engines not run (--no-engines)")

    report: dict[str, Any] = {
        "benchmark": "search",
        "date": started.isoformat(timespec="seconds"),
        "settings": {"depth": depth, "movetime": movetime, "python_chess_movetime": pc_movetime,
                     "hash_mb": HASH_MB, "values": VALUE_SET, "quick": quick},
        "machine": {**machine(), "load_average_before": load_before},
        "engines": {"tdleaf": "tdleaf (this package)",
                    "sjeng": sjeng.name if sjeng else None,
                    "fairy_stockfish": fsf.name if fsf else None,
                    "python_chess": f"plain alpha-beta on python-chess {chess.__version__}"},
        "variants": [], "memory": None, "notes": notes, "warnings": warnings,
    }
    try:
        for name in names:
            report["variants"].append(_bench_variant(
                name, depth, movetime, pc_movetime, Engine, sjeng, fsf, quick, warnings, progress))
    finally:
        for eng in (sjeng, fsf):
            if eng is not None:
                eng.close()
    if memory:
        try:
            report["memory"] = measure_uci_memory("crazyhouse", 2 if quick else 5)
        except Exception as exc:
            warnings.append(f"memory measurement failed: {exc}")
    else:
        notes.append("memory of 'tdleaf uci' not measured (--no-memory)")
    report["machine"]["load_average_after"] = load_average()
    report["seconds"] = time.perf_counter() - t_start
    return report


def _bench_variant(name: str, depth: int, movetime: float, pc_movetime: float, Engine: Any,
                   sjeng: Sjeng | None, fsf: FairyStockfish | None, quick: bool,
                   warnings: list[str], progress: bool) -> dict[str, Any]:
    import variants

    board_class = variants.board_class(name)
    pos_list: list[BenchPosition] = list(positions(name))
    if quick:  # the first and the last position (an endgame): both cheap to search
        pos_list = [pos_list[0], pos_list[-1]]
    use_sjeng = sjeng is not None and SJENG_VARIANTS.get(name) in sjeng.variants
    use_fsf = fsf is not None and FSF_VARIANTS.get(name) in fsf.variants
    skipped = {}
    if sjeng is not None and not use_sjeng:
        skipped["sjeng"] = f"run on {' and '.join(SJENG_VARIANTS)} only"
    if fsf is not None and not use_fsf:
        skipped["fairy_stockfish"] = f"{fsf.name} does not play {name}"
    pc = PythonChessSearch.for_variant(name)
    # Load the compiled search (and this variant's code paths) outside any clock.
    Engine(name, VALUE_SET, hash_mb=1).search(pos_list[0].fen, depth=2)
    rows = []
    for i, p in enumerate(pos_list):
        if progress:
            print(f"\r{name}: {i + 1}/{len(pos_list)} {p.name:<24}", end="", file=sys.stderr,
                  flush=True)
        board = board_class(p.fen)
        row: dict[str, Any] = {"name": p.name, "kind": p.kind, "fen": p.fen, "source": p.source}
        engine = Engine(name, VALUE_SET, hash_mb=HASH_MB)
        row["tdleaf_depth"] = _tdleaf_search(engine, p.fen, depth=depth)
        engine = Engine(name, VALUE_SET, hash_mb=HASH_MB)
        row["tdleaf_time"] = _tdleaf_search(engine, p.fen, movetime=movetime)
        # The engine stops before its time when it has proved a mate within the depth it
        # searched; such a short search is no measure of its speed against a full second.
        row["tdleaf_time"]["stopped_early"] = row["tdleaf_time"]["seconds"] < 0.5 * movetime
        del engine
        for key, eng, use in (("sjeng", sjeng, use_sjeng), ("fairy_stockfish", fsf, use_fsf)):
            row[key] = None
            if not use:
                continue
            try:
                run = eng.search(board, movetime)  # type: ignore[union-attr]
            except Exception as exc:
                warnings.append(f"{LABELS[key]} failed on {name} {p.name}: "
                                f"{type(exc).__name__}: {exc}")
                try:  # a fresh process for the next position
                    eng.restart()  # type: ignore[union-attr]
                except Exception as exc2:
                    warnings.append(f"cannot restart {LABELS[key]}: {exc2}")
                continue
            if key == "sjeng" and run["nodes"] == 0:
                run["excluded"] = ("solved by its proof-number search, no alpha-beta nodes"
                                   if run["forced_win"] else
                                   "moved without an alpha-beta search (no nodes)")
            row[key] = run
        row["python_chess"] = pc.search(board, pc_movetime)
        rows.append(row)
    if progress:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
    summary: dict[str, Any] = {key: _total(rows, key) for key in ("tdleaf_depth", "tdleaf_time")}
    ratios: dict[str, Any] = {}
    cpu_ratios: dict[str, Any] = {}
    for key in ENGINES:
        summary[key] = _total(rows, key)
        both = [r for r in rows if _counted(r[key]) and not r["tdleaf_time"]["stopped_early"]]
        ours, theirs = _total(both, "tdleaf_time"), _total(both, key)
        ratios[f"tdleaf_over_{key}"] = ratio(_nps_of(ours), _nps_of(theirs))
        cpu_ratios[f"tdleaf_over_{key}"] = (ratio(ours["cpu_nps"], theirs["cpu_nps"])
                                            if ours and theirs else None)
    summary["ratios"] = ratios
    summary["cpu_ratios"] = cpu_ratios
    summary["skipped"] = skipped
    return {"variant": name, "positions": rows, "summary": summary}


def _counted(run: dict[str, Any] | None) -> bool:
    return run is not None and not run.get("excluded")


def _total(rows: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    runs = [r[key] for r in rows if _counted(r[key])]
    if not runs:
        return None
    nodes = sum(r["nodes"] for r in runs)
    seconds = sum(r["seconds"] for r in runs)
    cpu = None if any(r.get("cpu_seconds") is None for r in runs) else \
        sum(r["cpu_seconds"] for r in runs)
    return {"positions": len(runs), "nodes": nodes, "seconds": seconds,
            "nps": nodes / seconds if seconds > 0 else None, "cpu_seconds": cpu,
            "cpu_nps": nodes / cpu if cpu else None}


def _nps_of(run: dict[str, Any] | None) -> float | None:
    if run is None or not run["seconds"] > 0:
        return None
    return run["nodes"] / run["seconds"]


# -- output -----------------------------------------------------------------------------------

def _pair(run: dict[str, Any] | None) -> str:
    """``nodes nps`` columns of one run (``*`` marks a run left out of the totals)."""
    if run is None:
        return f"{'-':>7} {'-':>6}"
    if run.get("excluded"):
        return f"{si(run['nodes']):>7} {'*':>6}"
    return f"{si(run['nodes']):>7} {si(_nps_of(run)):>6}"


def format_report(report: dict[str, Any]) -> str:
    """The human-readable tables of a :func:`bench_search` report."""
    s = report["settings"]
    t, pct = s["movetime"], s["python_chess_movetime"]
    out = []
    head1 = (f"{'':<22} {'':<4} {'tdleaf depth ' + str(s['depth']):^21} "
             f"{'tdleaf ' + f'{t:g}' + ' s':^14} {'Sjeng':^14} {'Fairy-SF':^14} "
             f"{'python-chess ' + f'{pct:g}' + ' s':^14}")
    head2 = (f"{'position':<22} {'kind':<4} {'nodes':>7} {'time':>6} {'nps':>6} "
             + " ".join([f"{'nodes':>7} {'nps':>6}"] * 4))
    for v in report["variants"]:
        out += [(f"{v['variant']}  (nps = nodes / seconds; depth {s['depth']} = {s['depth']} "
                f"plies + quiescence; the others search {t:g} s a position)"), head1, head2]
        for r in v["positions"]:
            d = r["tdleaf_depth"]
            out.append(f"{r['name'][:22]:<22} {r['kind'][:4]:<4} {si(d['nodes']):>7} "
                       f"{d['seconds']:>5.2f}s {si(_nps_of(d)):>6} "
                       + " ".join(_pair(r[k]) for k in ("tdleaf_time",) + ENGINES))
        sm = v["summary"]
        d = sm["tdleaf_depth"]
        out.append(f"{'all (total)':<22} {'':<4} {si(d['nodes']):>7} {d['seconds']:>5.1f}s "
                   f"{si(d['nps']):>6} "
                   + " ".join(_pair(sm[k]) for k in ("tdleaf_time",) + ENGINES))
        ratios = sm["ratios"]
        parts = [f"tdleaf/{LABELS[k]} {times(ratios['tdleaf_over_' + k])}" for k in ENGINES
                 if ratios["tdleaf_over_" + k] is not None]
        out.append("fixed-time nps ratios: " + (", ".join(parts) or "-"))
        for key, why in sm["skipped"].items():
            out.append(f"({LABELS[key]}: {why})")
        if any(r["sjeng"] and r["sjeng"].get("excluded") for r in v["positions"]):
            out.append("* Sjeng answered without an alpha-beta search (its proof-number search "
                       "solved the position, or a single legal move): no nodes; left out of its "
                       "total and its ratio")
        early = [f"{r['name']} ({r['tdleaf_time']['seconds']:.2f} s)" for r in v["positions"]
                 if r["tdleaf_time"]["stopped_early"]]
        if early:
            out.append(f"tdleaf's {t:g} s search stopped early, a mate proved, on: "
                       f"{', '.join(early)}; left out of the ratios")
        out.append("")
    titles = ((f"summary, wall clock (nodes per second; the ratios are tdleaf's {t:g} s rate "
              f"over the other engine's, on the positions both searched)"),
              ("summary, CPU time (nodes per CPU second of each process, from /proc and "
              "time.process_time(); less sensitive to a busy machine)"))
    for title, nps_key, ratio_key in zip(titles, ("nps", "cpu_nps"), ("ratios", "cpu_ratios")):
        if nps_key == "cpu_nps":
            out.append("")
        out += [title,
                (f"{'variant':<11} {'td d' + str(s['depth']):>7} {'td ' + f'{t:g}s':>7} {'Sjeng':>7} "
                f"{'Fairy-SF':>8} {'py-chess':>8} {'td/Sjeng':>8} {'td/FSF':>7} {'td/pc':>7}")]
        for v in report["variants"]:
            sm = v["summary"]
            nps = [si(sm[k][nps_key]) if sm[k] else "-"
                   for k in ("tdleaf_depth", "tdleaf_time") + ENGINES]
            rt = [times(sm[ratio_key]["tdleaf_over_" + k]) for k in ENGINES]
            out.append(f"{v['variant']:<11} {nps[0]:>7} {nps[1]:>7} {nps[2]:>7} {nps[3]:>8} "
                       f"{nps[4]:>8} {rt[0]:>8} {rt[1]:>7} {rt[2]:>7}")
    m = report["machine"]
    out.append(f"\nmachine: {m['processor'] or '?'}, {m['cpus']} cpus; Python {m['python']}, "
               f"numba {m['numba']}, python-chess {m['chess']}; load average before "
               f"{_load(m['load_average_before'])}, after {_load(m.get('load_average_after'))}")
    e = report["engines"]
    out.append(f"engines: {e['sjeng'] or 'Sjeng not run'}; "
               f"{e['fairy_stockfish'] or 'Fairy-Stockfish not run'}")
    mem = report["memory"]
    if mem:
        out.append(f"memory: '{mem['command']}' after "
                   f"{', '.join(repr(c) for c in mem['commands'])} "
                   f"({mem['hash_mb']} MB hash): VmRSS {mem['vmrss_mb']:.0f} MB, peak (VmHWM) "
                   f"{mem['vmhwm_mb']:.0f} MB; limit {mem['limit_mb']} MB: "
                   f"{'ok' if mem['ok'] else 'EXCEEDED'}")
    out.append(f"run took {report['seconds']:.0f} s")
    for n in report["notes"]:
        out.append(f"note: {n}")
    for w in report["warnings"]:
        out.append(f"warning: {w}")
    return "\n".join(out)


def _load(avg: list[float] | None) -> str:
    return "?" if avg is None else "/".join(f"{x:.2f}" for x in avg)
