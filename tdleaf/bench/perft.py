"""``tdleaf bench perft``: times the rules (leaves per second) against python-chess and
Fairy-Stockfish on a fixed position set, checks that the three agree on the counts, and
measures numba start-up."""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Any

import chess

from tdleaf.play.engines import EngineError, LineEngine, find_fairy_stockfish
from variants.spec import SPECS

from .common import machine, ratio, si, tdleaf_command, times

#: Per variant: (extra plies for tdleaf and Fairy-Stockfish, [(name, FEN, python-chess depth)]).
#: python-chess takes about 1-3 s per set; tdleaf and Fairy-Stockfish search ``extra``
#: plies deeper for a stable time. Rates are leaves per second, comparable across depths.
POSITIONS: dict[str, tuple[int, list[tuple[str, str, int]]]] = {
    "chess": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
        ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
        ("cpw-pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        ("cpw-pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
        ("cpw-pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ]),
    "crazyhouse": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 4),
        ("zh-middlegame", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 3),
        ("zh-promoted", "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1", 4),
        ("zh-midgame", "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1", 3),
        ("fried-liver-drops", "r1bq2nr/pppp1kpp/4b3/4n3/3QP3/8/PPP2PPP/RNB2RK1[BPPnp] b - - 2 8", 2),
    ]),
    "suicide": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
        ("kings-out", "rn1q1b1r/p1pk1ppp/5n2/8/3P4/6K1/PPP2P1P/RNBQ3R b - - 0 9", 4),
        ("open-middlegame", "rnb2bnr/pp1pqkpp/8/8/4P1P1/5N2/PPPP1K1P/RNBQ3R w - - 1 8", 4),
    ]),
    "giveaway": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
        ("castling", "rnbqk2r/ppp1bppp/3ppn2/8/8/1P2PN2/P1PPBPPP/RNBQK2R w KQkq - 0 5", 4),
        ("forced-capture", "rnbqk2r/pppp1ppp/5n2/4p3/2P5/P1P5/1P2PPPP/R1BQKBNR w KQkq - 1 5", 4),
    ]),
    "antichess": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 4),
        ("e3-b5-middlegame", "r2qkbnr/p1pn1ppp/8/8/3P4/5P2/PPP2P1P/RNBQK2R b - - 0 7", 4),
        ("pawn-middlegame", "1nbqk1nr/3pp1bp/p4p2/p1p5/2P1PP2/1P4P1/P2P3P/RN1QK1NR w - - 0 9", 4),
    ]),
    "atomic": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
        ("programfox-1", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1", 3),
        ("programfox-2", "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1", 3),
        ("nxc6-middlegame", "rnb1kbnr/pp4pp/5p2/q2pp3/8/2N1P3/PPPP1PPP/R1BQK2R b KQkq - 2 6", 3),
        ("castled", "rnb1k2r/pp3ppp/4pn2/q2p4/1b6/2N1P3/PPPP1PPP/R1BQ1RK1 b kq - 4 7", 3),
    ]),
    "kingofthehill": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
        ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
        ("near-hill", "r1b1k1n1/2pp4/ppn5/4p1Q1/PP2P3/R3P2p/5P1P/2N1KB1R w K - 2 19", 3),
    ]),
    # The next three: python-chess's examples/perft/<variant>.perft positions.
    "3check": (1, [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", 4),
        ("3check-kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1 0 1", 3),
        ("3check-castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 0 1", 3),
    ]),
    "racingkings": (1, [
        ("racingkings-start", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 3),
        ("occupied-goal", "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1", 5),
        ("near-discovered-check", "8/8/1rk4K/8/8/8/2bnNBR1/qrbnNBRQ b - - 0 1", 3),
    ]),
    "horde": (1, [
        ("horde-start", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", 4),
        ("horde-open-flank", "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1", 4),
        ("horde-en-passant", "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1", 4),
    ]),
}

#: tdleaf repeats a perft until this much time has passed and reports the mean.
MIN_SECONDS = 0.5
#: Fairy-Stockfish's UCI_Variant name for each of ours (used only if the binary lists it).
FSF_VARIANTS = {name: v.uci_variant for name, v in SPECS.items()}

# -- the three perfts -----------------------------------------------------------------------

def python_chess_perft(board: chess.Board, depth: int) -> int:
    """Leaves of the legal move tree with python-chess, bulk counted at depth 1."""
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


class FairyStockfish:
    """Fairy-Stockfish driven over raw UCI lines (python-chess has no ``go perft``)."""

    def __init__(self, path: str, timeout: float = 600.0) -> None:
        self.path, self.timeout = path, timeout
        self.process = LineEngine([path])
        self.name, self.variants = path, set()
        self.process.send("uci")
        for line in self.process.until(lambda s: s == "uciok", 30):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
            if line.startswith("option name UCI_Variant "):
                self.variants = set(re.findall(r"\bvar (\S+)", line))

    def perft(self, variant: str, fen: str, depth: int) -> tuple[int, float]:
        """``(leaves, seconds)`` of ``go perft depth`` in a position of ``variant``."""
        engine = self.process
        engine.send(f"setoption name UCI_Variant value {variant}")
        engine.send(f"position fen {fen}")
        engine.send("isready")
        engine.until(lambda s: s == "readyok", 30)
        t0 = time.perf_counter()
        engine.send(f"go perft {depth}")
        last = engine.until(lambda s: s.startswith("Nodes searched:"), self.timeout)[-1]
        seconds = time.perf_counter() - t0
        return int(last.split(":")[1]), seconds

    def close(self) -> None:
        """Ask the engine to quit, and kill it if it does not."""
        self.process.close()


# -- start-up ---------------------------------------------------------------------------------

def _timed_run(cmd: list[str], env: dict[str, str] | None = None) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise EngineError(f"{' '.join(cmd)} failed ({proc.returncode}): {tail}")
    return seconds


def measure_startup() -> dict[str, Any]:
    """Cold compile (a fresh ``NUMBA_CACHE_DIR``) and warm start of the CLI, in seconds."""
    variant = "chess"           # the one every start-up measurement uses
    code = f"import variants; variants.perft({variant!r}, None, 1)"
    with tempfile.TemporaryDirectory(prefix="tdleaf-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _timed_run([sys.executable, "-c", code], env)
        cold_cached = _timed_run([sys.executable, "-c", code], env)
    cmd = tdleaf_command() + ["perft", "--variant", variant, "--depth", "1"]
    _timed_run(cmd)  # make sure the default cache is warm
    warm = sorted(_timed_run(cmd) for _ in range(3))[1]
    return {"cold_compile_seconds": cold, "cached_import_seconds": cold_cached,
            "warm_start_seconds": warm, "warm_start_command": "tdleaf " + " ".join(cmd[-5:])}


# -- the benchmark ------------------------------------------------------------------------------

def bench_perft(variant_names: list[str] | None = None, depth: int | None = None,
                engines: bool = True, startup: bool = True, quick: bool = False,
                fsf_path: str | None = None, progress: bool = False) -> dict[str, Any]:
    """Run the perft benchmark and return the JSON-ready report (see ``tdleaf bench perft``).

    ``depth`` forces one depth everywhere; ``quick`` runs two positions per variant at
    depth 2 (for tests). Count disagreements are listed under ``"warnings"``.
    """
    import variants

    names = list(dict.fromkeys(variants.canonical_variant(v) for v in variant_names
                               or [v for v in POSITIONS if v in SPECS]))
    if quick:
        depth = 2 if depth is None else depth
    warnings: list[str] = []
    fsf = None
    if engines:
        path = fsf_path or find_fairy_stockfish()
        if path is None:
            warnings.append("Fairy-Stockfish not found; its columns are empty")
        else:
            try:
                fsf = FairyStockfish(path)
            except (OSError, EngineError) as exc:
                warnings.append(f"cannot start Fairy-Stockfish: {exc}")
    report: dict[str, Any] = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
        "fairy_stockfish": fsf.name if fsf else None,
        "quick": quick, "variants": [], "warnings": warnings, "startup": None,
    }
    try:
        for name in names:
            report["variants"].append(_bench_variant(name, depth, quick, fsf, warnings, progress))
    finally:
        if fsf is not None:
            fsf.close()
    if startup and not quick:
        if progress:
            print("measuring cold compile and warm start ...", file=sys.stderr)
        try:
            report["startup"] = measure_startup()
        except EngineError as exc:
            warnings.append(f"start-up measurement failed: {exc}")
    report["agree"] = all(v["agree"] for v in report["variants"])
    return report


def _bench_variant(name: str, depth: int | None, quick: bool, fsf: FairyStockfish | None,
                   warnings: list[str], progress: bool) -> dict[str, Any]:
    import variants

    extra, positions = POSITIONS[name]
    if quick:
        positions = positions[:2]
    fsf_name = FSF_VARIANTS.get(name)
    use_fsf = fsf is not None and fsf_name in fsf.variants
    if fsf is not None and not use_fsf:
        warnings.append(f"{fsf.name} does not play {name}")
    variants.perft(name, None, 2)  # load the compiled code before timing
    rows = []
    for label, fen, pc_depth in positions:
        fen = variants.board_class(name)(fen).fen()
        pc_d = pc_depth if depth is None else depth
        our_d = pc_d + extra if depth is None else depth
        if progress:
            print(f"{name} {label}: depth {pc_d}/{our_d} ...", file=sys.stderr)
        t0 = time.perf_counter()
        pc_nodes = python_chess_perft(variants.board_class(name)(fen), pc_d)
        pc_s = time.perf_counter() - t0
        ours_same = variants.perft(name, fen, pc_d)
        ours, ours_s, runs = _timed_repeat(lambda fen=fen, d=our_d: variants.perft(name, fen, d),
                                           0.0 if quick else MIN_SECONDS)
        row: dict[str, Any] = {
            "name": label, "fen": fen,
            "tdleaf": {"depth": our_d, "nodes": ours, "seconds": ours_s, "runs": runs},
            "tdleaf_at_python_chess_depth": ours_same,
            "python_chess": {"depth": pc_d, "nodes": pc_nodes, "seconds": pc_s},
            "fairy_stockfish": None,
            "agree_python_chess": ours_same == pc_nodes, "agree_fairy_stockfish": None,
        }
        if not row["agree_python_chess"]:
            warnings.append(f"{name} {label} depth {pc_d}: tdleaf {ours_same} != "
                            f"python-chess {pc_nodes} ({fen})")
        if use_fsf:
            assert fsf is not None and fsf_name is not None
            try:
                n, s = fsf.perft(fsf_name, fen, our_d)
            except EngineError as exc:
                warnings.append(f"Fairy-Stockfish failed on {name} {label}: {exc}")
            else:
                row["fairy_stockfish"] = {"depth": our_d, "nodes": n, "seconds": s}
                row["agree_fairy_stockfish"] = n == ours
                if n != ours:
                    warnings.append(f"{name} {label} depth {our_d}: tdleaf {ours} != "
                                    f"Fairy-Stockfish {n} ({fen})")
        rows.append(row)
    totals = {key: _rate(rows, key) for key in ("tdleaf", "python_chess", "fairy_stockfish")}
    totals["tdleaf_over_python_chess"] = ratio(totals["tdleaf"], totals["python_chess"])
    totals["tdleaf_over_fairy_stockfish"] = ratio(totals["tdleaf"], totals["fairy_stockfish"])
    agree = all(r["agree_python_chess"] and r["agree_fairy_stockfish"] is not False for r in rows)
    return {"variant": name, "positions": rows, "nodes_per_second": totals, "agree": agree}


def _timed_repeat(fn: Any, min_seconds: float, max_runs: int = 50) -> tuple[int, float, int]:
    """Call ``fn`` until ``min_seconds`` have passed: (its result, mean seconds, runs)."""
    total, runs = 0.0, 0
    while runs < max_runs and (runs == 0 or total < min_seconds):
        t0 = time.perf_counter()
        result = fn()
        total += time.perf_counter() - t0
        runs += 1
    return result, total / runs, runs


def _rate(rows: list[dict[str, Any]], key: str) -> float | None:
    runs = [r[key] for r in rows if r[key] is not None]
    if len(runs) < len(rows) or not runs:
        return None
    seconds = sum(r["seconds"] for r in runs)
    return sum(r["nodes"] for r in runs) / seconds if seconds > 0 else None


# -- output -----------------------------------------------------------------------------------

def format_report(report: dict[str, Any]) -> str:
    """The human-readable tables of a :func:`bench_perft` report."""
    out = []
    head = (f"{'position':<18} {'depth':>5} {'leaves':>12} {'tdleaf':>8} {'py-chess':>8} "
            f"{'fairy-sf':>8} {'td/pc':>7} {'td/fsf':>7}  counts")
    for v in report["variants"]:
        out += [(f"{v['variant']}  (leaves/s; depth = python-chess/tdleaf; "
                f"leaves = tdleaf's count)"), head]
        for r in v["positions"]:
            td, pc, fs = (_nps(r[k]) for k in ("tdleaf", "python_chess", "fairy_stockfish"))
            agree = r["agree_python_chess"] and r["agree_fairy_stockfish"] is not False
            checked = "pc+fsf" if r["agree_fairy_stockfish"] is not None else "pc"
            out.append(f"{r['name']:<18} {r['python_chess']['depth']:>2}/{r['tdleaf']['depth']:<2} "
                       f"{r['tdleaf']['nodes']:>12,} {si(td):>8} {si(pc):>8} {si(fs):>8} "
                       f"{times(ratio(td, pc)):>7} {times(ratio(td, fs)):>7}  "
                       f"{'agree (' + checked + ')' if agree else 'MISMATCH'}")
        t = v["nodes_per_second"]
        out.append(f"{'all':<18} {'':>5} {'':>12} {si(t['tdleaf']):>8} {si(t['python_chess']):>8} "
                   f"{si(t['fairy_stockfish']):>8} {times(t['tdleaf_over_python_chess']):>7} "
                   f"{times(t['tdleaf_over_fairy_stockfish']):>7}  "
                   f"{'agree' if v['agree'] else 'MISMATCH'}")
        out.append("")
    out += ["summary (leaves/s)",
            (f"{'variant':<12} {'tdleaf':>8} {'py-chess':>8} {'fairy-sf':>8} "
            f"{'td/pc':>7} {'td/fsf':>7}  counts")]
    for v in report["variants"]:
        t = v["nodes_per_second"]
        out.append(f"{v['variant']:<12} {si(t['tdleaf']):>8} {si(t['python_chess']):>8} "
                   f"{si(t['fairy_stockfish']):>8} {times(t['tdleaf_over_python_chess']):>7} "
                   f"{times(t['tdleaf_over_fairy_stockfish']):>7}  "
                   f"{'agree' if v['agree'] else 'MISMATCH'}")
    m = report["machine"]
    out.append(f"\nmachine: {m['processor'] or '?'}, {m['cpus']} cpus; Python {m['python']}, "
               f"numba {m['numba']}, python-chess {m['chess']}")
    out.append(f"Fairy-Stockfish: {report['fairy_stockfish'] or 'not run'}")
    s = report["startup"]
    if s:
        out += [(f"cold compile (fresh NUMBA_CACHE_DIR, import + perft depth 1): "
                f"{s['cold_compile_seconds']:.1f} s"),
                f"same, second run (cache warm): {s['cached_import_seconds']:.2f} s",
                f"warm start of '{s['warm_start_command']}': {s['warm_start_seconds']:.2f} s"]
    for w in report["warnings"]:
        out.append(f"warning: {w}")
    return "\n".join(out)


def _nps(run: dict[str, Any] | None) -> float | None:
    return run["nodes"] / run["seconds"] if run and run["seconds"] > 0 else None
