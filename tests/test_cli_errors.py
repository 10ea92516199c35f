"""One error base: every error the distribution raises derives from
:class:`variants.errors.TdleafError`, and the ``tdleaf`` command catches it once (its
message on one line, no traceback, exit status 2) instead of each command wrapping its
own tuple of errors in ``CliError``."""

from __future__ import annotations

import ast
import builtins
import importlib
from pathlib import Path

import pytest

from tdleaf.cli import main
from variants.errors import TdleafError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("variants", "search", "tdleaf", "plots")
CLI = ROOT / "tdleaf" / "cli"
WRAPPER = "raise CliError(str(exc)) from None"
#: The wrappers kept on purpose, each around code that raises builtin errors as well
#: as tdleaf's (so ``except ValueError`` or ``except (ValueError, OSError)``): learn.py,
#: LearnConfig's dataclass refusing a value; match.py, ``stats.Sprt.parse``'s
#: ValueError; net.py, eval, export and compare (unreadable files and data);
#: tournament.py, a player spec the plan cannot use; bench.py, margins the weights cannot
#: take, batch settings, ``Sprt.parse`` and an unreadable suite folder.
KEPT = {"bench.py": 4, "learn.py": 1, "match.py": 1, "net.py": 3, "tournament.py": 1}


def _is_builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def _base_names(node: ast.ClassDef) -> list[str]:
    return [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
            for b in node.bases]


def _error_classes() -> list[tuple[str, str]]:
    """(module, class) of every public class of the four packages named ``*Error`` or
    derived directly from a builtin exception, found in the source with ``ast``."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            for node in tree.body:
                if not isinstance(node, ast.ClassDef) or node.name.startswith("_") \
                        or node.name.endswith("Warning"):
                    continue
                if node.name.endswith("Error") or any(
                        _is_builtin_exception(b) for b in _base_names(node)):
                    found.append((module, node.name))
    return found


def test_every_error_derives_from_tdleaf_error():
    classes = _error_classes()
    assert len(classes) >= 30, classes          # the walk found them
    wrong = []
    for module, name in classes:
        cls = getattr(importlib.import_module(module), name)
        if issubclass(cls, Warning):
            continue
        if not issubclass(cls, TdleafError):
            wrong.append(f"{module}.{name}")
    assert wrong == []


def test_errors_keep_their_builtin_base():
    from search.evaluation.errors import WeightsError
    from tdleaf.backend import BackendError
    from tdleaf.cli.tools import CliError
    from variants import TdleafError as exported
    from variants.errors import UnknownVariantError

    assert exported is TdleafError
    assert issubclass(WeightsError, ValueError)
    assert issubclass(UnknownVariantError, ValueError)
    assert issubclass(BackendError, RuntimeError)
    assert CliError.__mro__[1] is TdleafError


def _bad_inputs(tmp: Path) -> dict[str, tuple[list[str], str]]:
    (tmp / "w.json").write_text("garbage{")
    (tmp / "bad.epd").write_text("not an epd line at all\n")
    (tmp / "run").mkdir()
    return {
        "variant": (["perft", "--variant", "nosuchvariant", "--depth", "1"],
                    "unknown variant 'nosuchvariant'"),
        "weights": (["prior", "--weights", str(tmp / "w.json")], "corrupt weights file"),
        "epd": (["perft", "--variant", "chess", "--epd", str(tmp / "bad.epd")],
                "malformed EPD line"),
        "plot": (["plot", str(tmp / "run")], "config.json"),
    }


@pytest.mark.parametrize("case", ["variant", "weights", "epd", "plot"])
def test_bad_input_is_one_line_without_traceback(case, tmp_path, capsys):
    argv, message = _bad_inputs(tmp_path)[case]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tdleaf: error:"), err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    assert message in err


def test_any_tdleaf_error_is_caught_once(monkeypatch, capsys):
    """An error of the package no command wraps (here a RuntimeError) is reported the
    same way; an error that is not tdleaf's (a bug) keeps its traceback."""
    from tdleaf.backend import BackendError
    from tdleaf.cli import perft

    def fails(args):
        raise BackendError("no Ray\non this machine")

    monkeypatch.setattr(perft, "run", fails)
    assert main(["perft"]) == 2
    assert capsys.readouterr().err == "tdleaf: error: no Ray on this machine\n"

    def bug(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(perft, "run", bug)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["perft"])


def _wrappers(path: Path) -> list[list[str]]:
    """The names each ``except ...: raise CliError(str(exc)) from None`` of ``path``
    catches."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.ExceptHandler) and len(node.body) == 1
                and ast.unparse(node.body[0]) == WRAPPER):
            continue
        caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        out.append([ast.unparse(t) for t in caught])
    return out


def test_commands_do_not_wrap_tdleaf_errors():
    """``main`` reports every TdleafError: a command wraps only the builtin errors it
    must turn into a message, and no more wrappers than those kept (:data:`KEPT`)."""
    counts = {}
    for path in sorted(CLI.glob("*.py")):
        wrappers = _wrappers(path)
        for names in wrappers:
            assert all(_is_builtin_exception(n) for n in names), (path.name, names)
        text_count = path.read_text(encoding="utf-8").count(WRAPPER)
        assert text_count == len(wrappers), path.name   # each right after its except
        if wrappers:
            counts[path.name] = len(wrappers)
    for name, count in counts.items():
        assert count <= KEPT.get(name, 0), (name, count)
