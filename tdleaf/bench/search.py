"""``tdleaf bench search``: search speed (nodes per second) of the tdleaf engine on the
fixed position set of :mod:`tdleaf.bench.positions`, against Sjeng 11.2 (XBoard),
Fairy-Stockfish (UCI) and a plain python-chess alpha-beta, in the same run; and the
resident memory of a ``tdleaf uci`` process after a crazyhouse search."""

from __future__ import annotations

import datetime
import sys
import time
from typing import Any

import chess
import chess.engine

from tdleaf.play import engines
from tdleaf.play.engines import find_engine, find_fairy_stockfish
from variants.spec import SPECS

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
from .python_chess_search import VALUE_SET, PythonChessSearch

DEFAULT_DEPTH = 5
DEFAULT_MOVETIME = 1.0
HASH_MB = 64
RSS_LIMIT_MB = 500
#: Variants each external engine is run on (our name -> the engine's name): Sjeng where
#: the spec makes it a reference engine, Fairy-Stockfish wherever its binary lists the
#: variant's UCI_Variant.
SJENG_VARIANTS = {name: v.xboard for name, v in SPECS.items() if "xboard:sjeng" in v.engines}
FSF_VARIANTS = {name: v.uci_variant for name, v in SPECS.items()}
ENGINES = ("sjeng", "fairy_stockfish", "python_chess")
LABELS = {"sjeng": "Sjeng", "fairy_stockfish": "Fairy-Stockfish", "python_chess": "python-chess"}

# -- external engines --------------------------------------------------------------------------

class ReferenceEngine:
    """Sjeng 11.2 (XBoard) or Fairy-Stockfish (UCI, one thread, a ``HASH_MB`` hash) for
    searches of a fixed time, through :class:`tdleaf.play.engines.EngineProcess` (which
    knows Sjeng's quirks: pockets, ``st`` in whole seconds, its statistics). Fairy-
    Stockfish's nodes and time are those of its last ``info`` line; Sjeng's nodes those
    of the ``Nodes:`` line it prints after each search (its alpha-beta and quiescence
    nodes: its proof-number search in suicide counts none), else its thinking output's.
    """

    def __init__(self, protocol: str, path: str) -> None:
        self.protocol, self.path = protocol, path
        self.process = engines.EngineProcess(protocol, [path], keep_output=protocol == "xboard")
        try:
            if protocol == "uci":
                wanted = {"Hash": HASH_MB, "Threads": 1}
                self.process.configure({k: v for k, v in wanted.items()
                                        if k in self.process.options})
        except BaseException:
            self.process.close()
            raise
        self.name = self.process.name
        # Without UCI_Variant, an engine plays standard chess alone.
        self.variants = self.process.variants or {str(chess.Board.uci_variant)}

    def search(self, board: chess.Board, seconds: float) -> dict[str, Any]:
        process = self.process
        process.clear_output()
        pid = process.pid
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        result = process.engine.play(board, chess.engine.Limit(time=seconds),
                                     info=chess.engine.INFO_ALL, game=object())
        elapsed = time.perf_counter() - t0
        cpu1 = cpu_seconds(pid)
        info = result.info
        run: dict[str, Any] = {
            "cpu_seconds": None if cpu0 is None or cpu1 is None else cpu1 - cpu0,
            "depth": info.get("depth"), "move": result.move.uci() if result.move else None}
        if self.protocol == "uci":
            return {"nodes": int(info.get("nodes", 0)), "seconds": float(info.get("time") or elapsed),
                    "wall_seconds": elapsed, **run, "reported_nps": info.get("nps")}
        stats = engines.sjeng_statistics(process.output)
        post_nodes = info.get("nodes")
        return {"nodes": stats["nodes"] if stats["nodes"] is not None else (post_nodes or 0),
                "seconds": elapsed, **run, "reported_nps": stats["nps"],
                "thinking_output_nodes": post_nodes,
                "proof_number_search": stats["proof_number_search"],
                "forced_win": stats["forced_win"]}

    def close(self) -> None:
        self.process.close()

    def restart(self) -> None:
        """Replace the process (after a failure: its state is unknown)."""
        self.close()
        self.__init__(self.protocol, self.path)  # type: ignore[misc]


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
    commands = ["uci", f"setoption name UCI_Variant value {variant}", "isready",
                "position startpos", f"go depth {depth}"]
    with engines.LineEngine(tdleaf_command() + ["uci"]) as proc:
        deadline = time.perf_counter() + timeout

        def until(prefix: str) -> str:
            while True:
                line = proc.read(deadline)[1]
                if line.startswith(prefix):
                    return line

        t0 = time.perf_counter()
        try:
            proc.send("uci")
            until("uciok")
            for command in commands[1:3]:
                proc.send(command)
            until("readyok")
            for command in commands[3:]:
                proc.send(command)
            bestmove = until("bestmove")
        except engines.EngineError as exc:
            raise RuntimeError(f"'tdleaf uci': {exc}") from None
        seconds = time.perf_counter() - t0
        rss = _proc_status_kb(proc.pid, "VmRSS")
        hwm = _proc_status_kb(proc.pid, "VmHWM")
        if rss is None:
            raise RuntimeError(f"cannot read /proc/{proc.pid}/status")
    return {"command": "tdleaf uci", "variant": variant, "hash_mb": HASH_MB,
            "commands": commands,
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

    sjeng: ReferenceEngine | None = None
    fsf: ReferenceEngine | None = None
    if engines:
        if any(n in SJENG_VARIANTS for n in names):
            path = sjeng_path or find_engine("sjeng")
            if path is None:
                notes.append("Sjeng not found; its columns are empty")
            else:
                try:
                    sjeng = ReferenceEngine("xboard", path)
                except Exception as exc:
                    notes.append(f"cannot start Sjeng ({path}): {exc}")
        if any(n in FSF_VARIANTS for n in names):
            path = fsf_path or find_fairy_stockfish()
            if path is None:
                notes.append("Fairy-Stockfish not found; its columns are empty")
            else:
                try:
                    fsf = ReferenceEngine("uci", path)
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
                   sjeng: ReferenceEngine | None, fsf: ReferenceEngine | None, quick: bool,
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
