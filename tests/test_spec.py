"""variants/spec.py: each variant described once, agreeing with python-chess, and package
code outside variants/ that decides by flags, never by a variant's name (the AST rule)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import chess
import chess.variant
import pytest

from variants import spec
from variants.errors import UnknownVariantError

ROOT = Path(__file__).resolve().parent.parent
#: Package code outside variants/ that the AST rule walks.
CHECKED = ("search", "tdleaf", "plots")
#: Every name a variant goes by (lower case).
NAMES = frozenset(n for v in spec.SPECS.values() for n in v.names)
#: Files allowed to decide by name for now, with the reason.
ALLOWED: dict[str, str] = {}
#: Single expressions the rule flags that name no variant, with the reason.
NOT_VARIANTS: dict[str, str] = {
    "('tdleaf', 'numba', 'numpy', 'chess')": "distributions: python-chess is 'chess'",
}


def board_class(v: spec.Variant) -> type[chess.Board]:
    module, _, name = v.board_class.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("name", spec.VARIANTS)
def test_spec_agrees_with_python_chess(name):
    v = spec.get(name)
    cls = board_class(v)
    assert issubclass(cls, chess.Board)
    assert cls.uci_variant == v.uci_variant
    assert cls.xboard_variant == v.xboard
    for alias in v.names:
        assert chess.variant.find_variant(alias) is cls, alias
    assert cls.captures_compulsory == v.losing
    assert cls.connected_kings == (v.explosions or v.king_capture)
    assert cls.one_king == (not v.king_capture)
    assert issubclass(cls, chess.variant.CrazyhouseBoard) == v.pockets
    assert issubclass(cls, chess.variant.AtomicBoard) == v.explosions
    assert v.mirror in spec.MIRRORS
    assert set(v.selective_off) <= set(spec.TECHNIQUES)
    piece, value = v.normalise
    assert piece in "PNBRQK" and (value < 0) == v.losing
    assert v.ladder_fallback is None or v.ladder_fallback in spec.SPECS


def test_codes_are_one_per_rule_family():
    by_code: dict[int, set[type]] = {}
    for v in spec.SPECS.values():
        by_code.setdefault(v.code, set()).add(board_class(v))
    # one code per rule set: only antichess shares giveaway's (same rules, other start)
    shared = {c: s for c, s in by_code.items() if len(s) > 1}
    pair: set[type] = {chess.variant.GiveawayBoard, chess.variant.AntichessBoard}
    assert shared == {spec.get("giveaway").code: pair}
    assert spec.RULE_FAMILIES == tuple(spec.by_code(c).name for c in dict.fromkeys(by_code))


def test_numba_codes_come_from_the_spec():
    from variants import board
    assert (board.CHESS, board.CRAZYHOUSE, board.SUICIDE, board.GIVEAWAY, board.ATOMIC) == tuple(
        spec.get(n).code for n in ("chess", "crazyhouse", "suicide", "giveaway", "atomic"))
    from variants.jitcache import NOT_COMPILED
    assert "variants/spec.py" not in NOT_COMPILED     # compiled code reads its codes


@pytest.mark.parametrize("name", spec.VARIANTS)
def test_round_trips(name):
    v = spec.get(name)
    assert spec.get(name.upper()) is v and spec.canonical_variant(f" {name} ") == name
    for alias in v.aliases:
        assert spec.get(alias) is v
    assert spec.by_uci(v.uci_variant) is v
    assert spec.by_code(v.code).same_rules(v)
    assert spec.by_xboard(v.xboard).same_rules(v)
    assert spec.by_xboard(name) is v          # antichess by its own name too
    assert v.xboard in spec.xboard_names()


def test_bad_names_are_refused_clearly():
    for bad in ("bughouse", "", "shogi"):
        with pytest.raises(UnknownVariantError, match="unknown variant"):
            spec.get(bad)
    with pytest.raises(UnknownVariantError, match="unsupported XBoard variant 'nosuch'"):
        spec.by_xboard("nosuch")
    with pytest.raises(UnknownVariantError, match="unknown variant code"):
        spec.by_code(99)
    assert not spec.same_rules("nosuch", "nosuch")
    assert spec.same_rules("anti", "giveaway") and not spec.same_rules("suicide", "giveaway")


def test_spec_imports_without_numba_numpy_or_chess():
    code = ("import sys, variants.spec; "
            "print(sorted(m for m in ('numba', 'numpy', 'chess') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]"


# -- the AST rule -----------------------------------------------------------------------

def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _is_name(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.lower() in NAMES)


def violations(source: str, filename: str) -> list[str]:
    """``file:line: expression`` of each decision by a variant's name in ``source``: a
    comparison with a name, or a tuple/list/set literal holding one (dict keys and
    strings elsewhere, docstrings and help texts, are fine)."""
    tree = ast.parse(source, filename)
    docs = _docstrings(tree)
    operands_of = {id(o) for n in ast.walk(tree) if isinstance(n, ast.Compare)
                   for o in (n.left, *n.comparators)}     # reported with their comparison
    keys = {id(k) for n in ast.walk(tree) if isinstance(n, ast.Dict) for k in n.keys if k}
    out = []
    for node in ast.walk(tree):
        if id(node) in operands_of or id(node) in keys:    # dict keys are data
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            hit = any(_is_name(o) for o in operands) or any(
                isinstance(o, (ast.Tuple, ast.List, ast.Set)) and any(_is_name(e) for e in o.elts)
                for o in operands)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            hit = any(_is_name(e) and id(e) not in docs for e in node.elts)
        else:
            continue
        if hit and ast.unparse(node) not in NOT_VARIANTS:
            out.append(f"{filename}:{node.lineno}: {ast.unparse(node)[:100]}")
    return out


def test_the_rule_catches_what_it_should():
    bad = ('if v == "crazyhouse": pass\n'
           'x = v in ("suicide", "giveaway")\n'
           'y = ["atomic"]\n'
           'z = {"zh"}\n'
           'w = "Anti" != v\n')
    assert len(violations(bad, "bad.py")) == 5
    good = ('"""Plays chess."""\n'
            'D = {"chess": 1, "atomic": 2, ("crazyhouse", "psq"): 3}\n'
            'def f(variant="chess"):\n'
            '    """Also "crazyhouse"."""\n'
            '    print("atomic", help="suicide")\n'
            '    return spec.get(variant).losing\n')
    assert violations(good, "good.py") == []


def test_package_code_decides_by_flags_not_names():
    found = []
    for pkg in CHECKED:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            found += violations(path.read_text(encoding="utf-8"), rel)
    assert not found, ("decisions by a variant's name (ask variants.spec: its flags, "
                       "same_rules, rules_family...):\n" + "\n".join(found))


def test_the_rules_text_changes_with_the_rules_alone(monkeypatch):
    """The endgame tables' file name digests :func:`spec.rules_text`: tuning a variant's
    search keeps the tables, changing one of its rules does not."""
    import dataclasses

    before = spec.rules_text()
    tuned = [dataclasses.replace(v, proof_check=0.9, aspiration=2.0) for v in spec._ALL]
    monkeypatch.setattr(spec, "_ALL", tuple(tuned))
    assert spec.rules_text() == before
    changed = [dataclasses.replace(v, must_capture=not v.must_capture) if v.name == "suicide"
               else v for v in tuned]
    monkeypatch.setattr(spec, "_ALL", tuple(changed))
    assert spec.rules_text() != before
