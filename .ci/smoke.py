"""Smoke test of an installed wheel, run by .ci/run with the python of a fresh virtual
environment that has only the wheel (and its dependencies) installed, from a folder
outside the checkout:

    cd "$(mktemp -d)" && /path/to/venv/bin/python /path/to/checkout/.ci/smoke.py

It checks what a user who ran ``pip install tdleaf-*.whl`` gets: the packages come from
the environment, not from a checkout; the shipped data is there; the default evaluations
are the learnt sets, read from the installed package data; ``tdleaf warmup``; a short
UCI game in crazyhouse through python-chess; a tiny ``tdleaf learn``; ``tdleaf bench
prior`` on the shipped positions; every module imports. Exit status 0 when all pass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

WORK = Path(tempfile.mkdtemp(prefix="tdleaf-smoke-"))
# An empty per-user data folder: only the package's data may be read.
os.environ["TDLEAF_DATA"] = str(WORK / "user-data")
LEARNT = ("chess", "crazyhouse", "suicide", "atomic")


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        sys.exit(1)


def installed() -> Path:
    """The installed search package, which must be the environment's, not a checkout's."""
    import search

    here = Path(str(search.__file__)).resolve().parent
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    check(here.parent == site, f"search is imported from the environment ({here})")
    for top in ("variants", "tdleaf", "plots"):
        mod = __import__(top)
        check(Path(str(mod.__file__)).resolve().parent.parent == site, f"{top} too")
    return here


def shipped_data(package: Path) -> None:
    from search import shipped

    data = shipped.package_data_dir()
    check(data.resolve() == package / "data", f"package data is {data}")
    names = ["manifest.json", "ladder.json", "prior.json"] + \
        [f"prior_{v}.epd" for v in ("chess", "crazyhouse", "suicide", "giveaway", "atomic",
                                    "kingofthehill", "3check", "racingkings", "horde")]
    for sets in shipped.manifest()["variants"].values():
        for entry in sets["sets"].values():
            names += [entry["weights"], entry["summary"]]
    missing = [n for n in names if not (data / n).is_file()]
    check(not missing, f"the wheel carries the {len(names)} data files ({missing or 'all'})")


def default_weights(package: Path) -> None:
    from search import shipped
    from search.layout import default_weights, load_weights

    for v in LEARNT:
        kind = shipped.default_name(v)      # psq; atomic, crazyhouse: feature blocks
        w = default_weights(v)
        src = w.source or ""
        where = f"(package data: {package / 'data' / 'reference' / v / kind / 'weights.json'})"
        check(w.meta.get("value_set") != "traditional" and src == f"learnt-{kind} {where}",
              f"default_weights({v!r}) is learnt-{kind} from the package: {src}")
    w = load_weights("learnt", "chess")
    check(w.source is not None and "package data" in w.source, "load_weights('learnt', 'chess')")


def warmup() -> None:
    """`tdleaf warmup`, as an installer would run it: compiles every numba function into
    the installed package's cache."""
    tdleaf = Path(sys.executable).parent / "tdleaf"
    proc = subprocess.run([str(tdleaf), "warmup"], check=False, capture_output=True, text=True,
                          timeout=1800)
    check(proc.returncode == 0, f"tdleaf warmup exits 0 ({proc.stderr.strip()[-300:]})")


def uci_game() -> None:
    import chess
    import chess.engine
    import chess.variant

    tdleaf = Path(sys.executable).parent / "tdleaf"
    check(tdleaf.exists(), f"the tdleaf script is installed ({tdleaf})")
    engine = chess.engine.SimpleEngine.popen_uci([str(tdleaf), "uci"])
    try:
        # python-chess sends "setoption name UCI_Variant value crazyhouse" for this board
        board = chess.variant.CrazyhouseBoard()
        for _ in range(8):
            move = engine.play(board, chess.engine.Limit(depth=2)).move
            check(move is not None and move in board.legal_moves,
                  f"crazyhouse move {board.fullmove_number}: {move} is legal")
            assert move is not None
            board.push(move)
            if board.is_game_over():
                break
    finally:
        engine.quit()


def tiny_learn() -> None:
    out = WORK / "learn"
    tdleaf = Path(sys.executable).parent / "tdleaf"
    proc = subprocess.run([str(tdleaf), "learn", "--variant", "atomic", "--runs", "1",
                           "--games", "2", "--depth", "1", "--out", str(out)],
                          check=False, capture_output=True, text=True, timeout=1800)
    check(proc.returncode == 0, f"tdleaf learn exits 0 ({proc.stderr.strip()[-300:]})")
    data = json.loads((out / "weights.json").read_text())
    check(data.get("variant") == "atomic" and set(data.get("material", {})) == set("PNBRQK"),
          f"tdleaf learn wrote {out / 'weights.json'}")


def bench_prior() -> None:
    """`tdleaf bench prior` reads its labelled positions from the package data."""
    tdleaf = Path(sys.executable).parent / "tdleaf"
    proc = subprocess.run([str(tdleaf), "bench", "prior", "--variant", "atomic", "--depth", "0",
                           "--no-mcts", "--json"], check=False, capture_output=True, text=True,
                          timeout=1800)
    check(proc.returncode == 0, f"tdleaf bench prior exits 0 ({proc.stderr.strip()[-300:]})")
    (result,) = json.loads(proc.stdout)["results"]
    check(result["positions"] == 2000, "tdleaf bench prior read the 2,000 shipped atomic positions")


def every_module() -> None:
    """Every module of the four packages imports from the wheel: a room the wheel left
    out, or a module that reads the checkout, fails here."""
    import importlib
    import pkgutil

    failed, count = [], 0
    for top in ("variants", "search", "tdleaf", "plots"):
        pkg = importlib.import_module(top)
        for info in pkgutil.walk_packages(pkg.__path__, f"{top}."):
            if info.name.endswith(".__main__"):
                continue
            count += 1
            try:
                importlib.import_module(info.name)
            except Exception as exc:  # noqa: BLE001 - every failure is reported
                failed.append(f"{info.name}: {type(exc).__name__}: {exc}")
    check(not failed and count > 100, f"every module imports ({count}; failed: {failed})")


def main() -> int:
    check(not (Path.cwd() / "search").exists(), f"run outside the checkout (cwd {Path.cwd()})")
    package = installed()
    every_module()
    shipped_data(package)
    default_weights(package)
    warmup()
    uci_game()
    tiny_learn()
    bench_prior()
    check(not any((WORK / "user-data").rglob("*")), "nothing written to the user data folder")
    shutil.rmtree(WORK)
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
