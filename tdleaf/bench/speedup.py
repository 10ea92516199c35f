"""``tdleaf bench speedup``: how much faster (or slower) this checkout's search is than
another commit's, measured in one process.

Timing one version after the other on a shared machine measures the machine as much as
the code: on the 2-CPU development machine two runs of the same code differed by 20%.
Here both versions run in the same process, position by position, the order of the two
alternating, so that whatever slows the machine slows both alike. The other commit's
``search`` package is taken from git (``git archive``) into a cache folder and imported
under another name (its imports are relative; ``variants`` is shared, so the two commits
must have the same rules, which is checked). Both engines play the same weights (this
checkout's, written out and read back by the other commit's code) from the same
positions, the first ``--positions`` of the variant's labelled ones
(``search/data/prior_<variant>.epd``), to a fixed depth, a fresh game each time. The
node counts show whether the two searched the same trees; the figure to read is the
ratio of wall times, this checkout's over the base's (below 1: faster), over all
rounds and over the fastest round of each position. Comparing a commit with itself
gives the method's noise: on the development machine, within 3% with 30 rounds at
depth 7, within about 5% with 3 (BENCHMARKS.md).

The other commit's code is compiled by numba on first use (its cache stays in the
cache folder: ``$XDG_CACHE_HOME/tdleaf/speedup``, else ``~/.cache/tdleaf/speedup``).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from variants.errors import TdleafError

#: Search depth, positions and rounds by default.
DEPTH = 7
POSITIONS = 12
ROUNDS = 10
HASH_MB = 16


class SpeedupError(TdleafError, RuntimeError):
    """The base commit cannot be compared (no git checkout, unknown commit, other rules,
    or weights its code cannot read)."""


def _checkout() -> Path:
    """The source checkout this code runs from (a git work tree)."""
    import search

    root = Path(search.__file__).resolve().parent.parent
    if not (root / ".git").exists():
        raise SpeedupError(f"{root} is not a git checkout: tdleaf bench speedup compares "
                           "commits of a source checkout (pip install -e .)")
    return root


def _git(root: Path, *args: str) -> bytes:
    try:
        return subprocess.run(["git", "-C", str(root), *args], check=True,
                              capture_output=True).stdout
    except FileNotFoundError as exc:
        raise SpeedupError("git is not installed") from exc
    except subprocess.CalledProcessError as exc:
        raise SpeedupError(f"git {' '.join(args)}: {exc.stderr.decode().strip()}") from exc


def cache_root() -> Path:
    """Where the base commits' packages (and their numba caches) are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "tdleaf" / "speedup"


def _sources(folder: Path) -> dict[str, bytes]:
    """The Python files of a package folder, by name."""
    return {p.name: p.read_bytes() for p in folder.glob("*.py")}


def load_base(rev: str, cache: Path | None = None) -> ModuleType:
    """Commit ``rev``'s ``search`` package, imported as ``search_<sha>``; refused when
    its ``variants`` differ from this checkout's."""
    import variants

    root = _checkout()
    sha = _git(root, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()[:12]
    name = f"search_{sha}"
    if name in sys.modules:
        return sys.modules[name]
    folder = (cache or cache_root()) / sha
    if not (folder / "variants" / "__init__.py").exists():
        # A copy from before the rules were kept beside the search: made again.
        shutil.rmtree(folder, ignore_errors=True)
    if not (folder / name / "__init__.py").exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            archive = _git(root, "archive", "--format=tar", sha, "search", "variants")
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            ours, theirs = (_sources(Path(variants.__file__).resolve().parent),
                            _sources(Path(tmp) / "variants"))
            differ = sorted(n for n in ours.keys() | theirs.keys() if ours.get(n) != theirs.get(n))
            if differ:
                raise SpeedupError(f"the rules differ between {rev} and this checkout "
                                   f"(variants/: {', '.join(differ)}); the two searches "
                                   "must share them")
            os.replace(Path(tmp) / "search", folder / name)
            # The rules beside it, as in a checkout: what the base's endgame tables hash
            # (their digest reads the rules' files next to the search's package); the
            # rules it runs are this checkout's, already imported and equal to these.
            os.replace(Path(tmp) / "variants", folder / "variants")
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    return importlib.import_module(name)


def _engines(base: ModuleType, variant: str, weights: Any) -> tuple[Any, Any]:
    """(base engine, this checkout's engine) with the same weights."""
    from search import Engine
    from search.layout import weights_or_default

    new = weights_or_default(weights, variant)
    layout = importlib.import_module(f"{base.__name__}.layout")
    # The package's face names the Engine wherever the commit keeps it (search/engine.py
    # before the rooms, search/alphabeta/engine.py after).
    base_engine = base.Engine
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "weights.json"
        new.save(path)
        try:
            old = layout.load_weights(str(path), variant)
        except Exception as exc:
            raise SpeedupError(f"the base commit cannot read these weights "
                               f"(layout {new.layout.name!r}): {exc}") from exc
    return (base_engine(variant, old, hash_mb=HASH_MB),
            Engine(variant, new, hash_mb=HASH_MB))


def bench_speedup(variant: str, rev: str, weights: str | None = None, depth: int = DEPTH,
                  n_positions: int = POSITIONS, rounds: int = ROUNDS,
                  cache: Path | None = None, progress: bool = False) -> dict[str, Any]:
    """Run the benchmark (see the module's docstring); the JSON-ready report."""
    from tdleaf.play.labels import data_path, read_labelled
    from variants import canonical_variant

    variant = canonical_variant(variant)
    base = load_base(rev, cache)
    engines = _engines(base, variant, weights)
    fens = [r.fen for r in read_labelled(data_path(variant))[:n_positions]]
    for e in engines:
        e.search(fens[0], depth=min(depth, 3))          # compile outside the clock
    seconds = [0.0, 0.0]
    nodes = [0, 0]
    fastest = [[float("inf")] * len(fens) for _ in range(2)]
    for r in range(rounds):
        for i, fen in enumerate(fens):
            if progress:
                print(f"\r{variant}: round {r + 1}/{rounds}, position {i + 1}/{len(fens)}",
                      end="", file=sys.stderr, flush=True)
            for k in ((0, 1) if (r + i) % 2 == 0 else (1, 0)):
                engines[k].new_game()
                t0 = time.perf_counter()
                result = engines[k].search(fen, depth=depth)
                dt = time.perf_counter() - t0
                seconds[k] += dt
                nodes[k] += int(result.nodes)
                fastest[k][i] = min(fastest[k][i], dt)
    if progress:
        print(file=sys.stderr)
    best = [sum(f) for f in fastest]
    return {"benchmark": "speedup", "variant": variant, "base": rev,
            "base_package": base.__name__, "layout": engines[1].weights.layout.name,
            "depth": depth, "positions": len(fens), "rounds": rounds, "nodes": nodes,
            "same_tree": nodes[0] == nodes[1], "seconds": seconds,
            "ratio": seconds[1] / seconds[0], "fastest_ratio": best[1] / best[0]}


def format_report(reports: list[dict[str, Any]]) -> str:
    """The reports (one per variant) as a table."""
    if not reports:
        return "(no variant)"
    r0 = reports[0]
    lines = [(f"This checkout against {r0['base']} ({r0['base_package']}): depth "
              f"{r0['depth']}, {r0['positions']} positions, {r0['rounds']} rounds, wall "
              "time in one process, the two alternating"),
             f"{'variant':<14}{'layout':<34}{'nodes':>10}{'time ratio':>12}{'fastest':>9}"]
    for r in reports:
        flag = "" if r["same_tree"] else f"  (trees differ: base {r['nodes'][0]} nodes)"
        lines.append(f"{r['variant']:<14}{r['layout']:<34}{r['nodes'][1]:>10}"
                     f"{r['ratio']:>12.3f}{r['fastest_ratio']:>9.3f}{flag}")
    return "\n".join(lines)
