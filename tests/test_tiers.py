"""The two test tiers hold their shape (tests/conftest.py, docs/index.md): every test
module keeps a test in the fast tier, and at least 80% of the test functions are in it
(unmarked: a function marked ``slow``, ``ray`` or ``net`` runs in the full tier only)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import HEAVY

TESTS = Path(__file__).resolve().parent


def _mark_name(node: ast.expr) -> str | None:
    """``slow`` of ``@pytest.mark.slow`` (or of ``pytest.mark.slow(...)``), else None."""
    if isinstance(node, ast.Call):
        node = node.func
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark"):
        return node.attr
    return None


def _functions() -> dict[str, list[bool]]:
    """Per test module, whether each test function is in the full tier only."""
    out: dict[str, list[bool]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_marks: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
                module_marks |= {m for v in values if (m := _mark_name(v))}
        out[path.name] = [
            bool(module_marks & set(HEAVY)) or any(_mark_name(d) in HEAVY for d in node.decorator_list)
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
    return out


def test_every_module_keeps_a_fast_test():
    functions = _functions()
    assert len(functions) > 50
    assert [name for name, heavy in functions.items() if all(heavy)] == []


def test_most_test_functions_are_in_the_fast_tier():
    heavy = [h for hs in _functions().values() for h in hs]
    assert len(heavy) > 500
    assert sum(heavy) <= 0.2 * len(heavy), f"{sum(heavy)} of {len(heavy)} marked"
