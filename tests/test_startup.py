"""Start-up of the engine front ends: they answer at once.

* The modules ``tdleaf uci``/``tdleaf xboard`` import before their first protocol line
  import nothing heavy (numba, NumPy, python-chess, the other subcommands): asserted on
  imports, not on seconds, so it holds on any machine.
* python-chess, with its DEFAULT timeouts (2 s for XBoard's first ``feature``, 10 s for
  the handshake), accepts both front ends while every CPU is saturated, and they play.
* Every compiled module, imported first and alone, is stamped by variants/jitcache.py
  (the lazy package imports must not let a function be defined before it is installed).
* ``tdleaf --help`` lists what the command modules register; ``tdleaf warmup`` runs.
* A match player, UCI or XBoard engine whose weights have leaf blocks loads their search,
  which numba compiles apart, before its first move.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import chess
import chess.engine
import pytest

from search.protocol import strength, warm
from tdleaf.bench.common import tdleaf_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("numba", "numpy", "chess", "llvmlite")


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    """The code the front ends load, compiled now: a cold cache takes a minute, and the
    saturated test must time the handshake, not numba."""
    warm.front_end()


def _python(code: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_the_front_end_modules_import_nothing_heavy():
    """What runs before the first protocol line: the command line, the parser with the
    uci/xboard command, both front ends, the data modules (variant names, the ladder),
    and the UCI option table with the ladder's UCI_Elo range."""
    proc = _python("""
        import json, sys
        from tdleaf.cli import build_parser
        for command in ("uci", "xboard"):
            build_parser([command]).parse_args([command])
        import search.protocol.session, search.shipped, search.protocol.strength, search.protocol.uci, search.protocol.xboard
        import variants.spec
        lines = [o.declaration() for o in search.protocol.uci.OPTIONS]
        lines.append(str(variants.spec.canonical_variant("zh")))
        print(json.dumps({"modules": sorted(sys.modules), "lines": lines}))
    """)
    report = json.loads(proc.stdout)
    heavy = [m for m in report["modules"] if m.split(".")[0] in HEAVY]
    assert heavy == [], heavy
    commands = [m for m in report["modules"] if m.startswith("tdleaf.cli.")]
    assert sorted(commands) == ["tdleaf.cli.play", "tdleaf.cli.tools"], commands
    assert any(line.startswith("option name UCI_Elo type spin") for line in report["lines"])
    assert report["lines"][-1] == "crazyhouse"


# The real command, with the imports of its main thread recorded until its first line
# (the warm-up thread imports the heavy modules meanwhile: those are allowed).
_RECORDED_RUN = """
    import json, os, sys, threading
    seen = []

    class Recorder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if threading.current_thread() is threading.main_thread():
                seen.append(name)
            return None

    sys.meta_path.insert(0, Recorder)
    first = {}

    class Stdout:
        def write(self, text):
            if "imports" not in first:
                first["imports"] = list(seen)
                first["line"] = text.splitlines()[0]
            return sys.__stdout__.write(text)

        def flush(self):
            sys.__stdout__.flush()

    sys.stdout = Stdout()
    from tdleaf.cli import main
    status = main(sys.argv[1:])
    sys.stderr.write(json.dumps(first) + "\\n")
    sys.exit(status)
"""


@pytest.mark.parametrize("command,stdin,first_line", [
    ("uci", "uci\nquit\n", "id name tdleaf"),
    ("xboard", "xboard\nprotover 2\nquit\n", "feature done=0"),
])
def test_the_first_line_comes_before_any_heavy_import(command, stdin, first_line):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_RECORDED_RUN), command],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    first = json.loads(proc.stderr.strip().splitlines()[-1])
    assert first["line"] == first_line
    heavy = [m for m in first["imports"] if m.split(".")[0] in HEAVY]
    assert heavy == [], heavy
    other_commands = [m for m in first["imports"]
                      if m.startswith("tdleaf.cli.") and m not in ("tdleaf.cli.play",
                                                                   "tdleaf.cli.tools")]
    assert other_commands == [], other_commands


def _compiled_modules() -> list[str]:
    """Every module of the numba packages that defines a compiled function, in any room:
    found by walking them (as the stamp does), not listed."""
    from variants.jitcache import package_sources

    return [name[:-3].replace("/", ".") for name in package_sources(Path(ROOT))
            if "@njit" in (Path(ROOT) / name).read_text() and not name.endswith("__init__.py")]


@pytest.mark.slow
def test_every_compiled_module_imported_first_is_stamped_by_jitcache():
    """Whichever compiled module a program imports first, every cached numba function of
    it uses the project-wide stamp (jitcache installed before it was defined)."""
    code = """
        import importlib, json, sys
        module = importlib.import_module(sys.argv[1])
        from numba.core.dispatcher import Dispatcher
        from variants import jitcache
        found = {name: isinstance(fn._cache._impl.locator, jitcache._ProjectStamp)
                 for name, fn in vars(module).items()
                 if isinstance(fn, Dispatcher) and fn.py_func.__module__ == module.__name__}
        print(json.dumps(found))
    """
    modules = _compiled_modules()
    assert "search.kernels.attacks" in modules and "variants.movegen" in modules
    counted = 0
    for first in range(0, len(modules), 4):      # four processes at a time
        procs = {m: subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), m], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for m in modules[first:first + 4]}
        for module, proc in procs.items():
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, f"{module}: {err}"
            found = json.loads(out)
            unstamped = [name for name, ok in found.items() if not ok]
            assert unstamped == [], f"{module}: {unstamped}"
            counted += len(found)
    assert counted >= 100, counted       # the check saw the compiled functions


def test_the_variant_names_are_one_list():
    import variants
    from variants import position, spec
    assert tuple(position._VARIANTS) == spec.VARIANTS == variants.VARIANTS
    assert variants.canonical_variant is spec.canonical_variant


def test_help_lists_what_the_command_modules_register():
    from tdleaf import cli
    full = cli.build_parser()             # every module registered
    listed = cli.build_parser(["uci"])    # one module registered, the others listed
    for parser in (full, listed):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = [(c.dest, c.help) for c in sub._choices_actions]
        assert helps == [(name, help_line) for name, _, help_line in cli.COMMANDS]


def test_uci_help_lists_every_declared_option(capsys):
    from search.protocol.uci import OPTIONS
    from tdleaf.cli import main
    with pytest.raises(SystemExit) as exc:
        main(["uci", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in OPTIONS:
        assert f"\n  {option.name} " in out, option.name
    assert "UCI_LimitStrength" in out and "UCI_Elo" in out
    lo, hi = strength.offered_range()
    assert f"{lo}..{hi}" in out


@pytest.fixture
def busy_cpus():
    """Two busy processes per CPU, counting the other pytest-xdist workers' tests as one
    each, killed afterwards."""
    others = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) - 1
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(max(1, 2 * (os.cpu_count() or 2) - others))]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


@pytest.mark.slow
@pytest.mark.xdist_group("machine")     # not beside the Ray tests
def test_python_chess_accepts_both_front_ends_on_a_saturated_machine(busy_cpus):
    """The handshake with python-chess's default timeouts, every CPU busy twice over;
    then each front end plays a legal move."""
    board = chess.Board()
    board.push_uci("e2e4")
    for protocol, popen in (("uci", chess.engine.SimpleEngine.popen_uci),
                            ("xboard", chess.engine.SimpleEngine.popen_xboard)):
        command = [*tdleaf_command(), protocol]
        engine = popen(command, cwd=ROOT)      # python-chess's default timeouts
        try:
            result = engine.play(board, chess.engine.Limit(depth=2))
            assert result.move is not None and result.move in board.legal_moves, (command, result)
        finally:
            engine.quit()


@pytest.mark.slow
def test_tdleaf_warmup_runs_every_part():
    from tdleaf.cli.warmup import parts
    names = [name for name, _ in parts()]
    for needed in ("rules chess", "rules atomic", "search selective (all variants)",
                   "search plain (all variants)", "evaluation (all variants)",
                   "prior (all variants)", "mcts (all variants)", "learning (all variants)",
                   "endgame tables' builder"):
        assert needed in names
    proc = subprocess.run([*tdleaf_command(), "warmup"], capture_output=True, text=True,
                          cwd=ROOT, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for name in names + ["total"]:
        line = next((text for text in lines if text.strip().startswith(name)), None)
        assert line is not None and line.rstrip().endswith(" s"), (name, proc.stdout)


@pytest.mark.parametrize("front_end", [pytest.param("match", marks=pytest.mark.slow), "uci",
                                       pytest.param("xboard", marks=pytest.mark.slow)])
def test_a_player_with_leaf_blocks_loads_their_search_before_its_first_move(front_end, tmp_path):
    """numba compiles the search with leaf blocks apart from the classic one: a match
    player (the UCI engine at ``isready``, the XBoard engine at ``variant``) loads it at
    start, so the first move's clock pays for no compile. Checked in a fresh process, on
    the compiled dispatcher."""
    proc = _python(f"""
        import numpy as np
        from search.layout import Weights, feature_layout, value_set
        from search.alphabeta import negamax as alphabeta
        layout = feature_layout("atomic", "psq+mobility")
        w = np.zeros(layout.size)
        w[:value_set("traditional", "atomic").w.size] = value_set("traditional", "atomic").w
        Weights("atomic", w, {{}}, layout=layout).save({str(tmp_path / "w.json")!r})
        before = len(alphabeta.search_root.signatures)
        if {front_end!r} == "uci":
            import io
            from search.protocol.uci import main
            main(io.StringIO("setoption name UCI_Variant value atomic\\n"
                             "setoption name Weights value {tmp_path / "w.json"}\\n"
                             "isready\\n"), io.StringIO())
        elif {front_end!r} == "xboard":
            import io
            from search.protocol.xboard import main
            main(io.StringIO("xboard\\nprotover 2\\nnew\\nvariant atomic\\nping 1\\n"),
                 io.StringIO(), weights={str(tmp_path / "w.json")!r})
        else:
            from tdleaf.play.players import make_player
            make_player({str(tmp_path / "w.json")!r}).start("atomic")
        print(before, len(alphabeta.search_root.signatures))
        """)
    before, after = map(int, proc.stdout.split())
    assert (before, after) == (0, 2), proc.stdout    # the classic search and the leaf one
