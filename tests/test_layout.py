"""The house plan (README, Layout): imports point one way, cli -> learn, play, bench ->
search -> variants; plots imports none of them; tdleaf/ keeps its code in rooms."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("variants", "search", "tdleaf", "plots")

#: What each package may import from the project (itself included).
ALLOWED = {
    "variants": {"variants"},
    "search": {"variants", "search"},
    "tdleaf.learn": {"variants", "search", "tdleaf.learn"},
    "tdleaf.play": {"variants", "search", "tdleaf.play"},
    "tdleaf.bench": {"variants", "search", "tdleaf.bench", "tdleaf.learn", "tdleaf.play"},
    "tdleaf.cli": {"variants", "search", "tdleaf.learn", "tdleaf.play", "tdleaf.bench",
                   "tdleaf.cli", "plots"},
    # plots reads run folders; of the project only the pure-data variant description and
    # the normalisation of learnt values it shares with learning (neither loads numba).
    "plots": {"plots", "variants.spec", "variants.errors", "variants.normalise"},
}


def _package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "tdleaf" and len(parts) > 1 else parts[0]


def _imports(path: Path, module: str) -> set[str]:
    """Project modules imported anywhere in a file (function-level imports included)."""
    found = set()
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                prefix = ".".join(base)
                names = [f"{prefix}.{node.module}" if node.module else
                         f"{prefix}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        found |= {n for n in names if n.split(".")[0] in PROJECT}
    return found


def _modules():
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            yield path, ".".join(parts)


def test_imports_point_one_way():
    wrong = []
    for path, module in _modules():
        if module in ("tdleaf", "tdleaf.__main__"):
            continue
        allowed = ALLOWED[_package(module)]
        for imported in _imports(path, module):
            if imported == "tdleaf" or not (_package(imported) in allowed or imported in allowed):
                wrong.append(f"{module} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_tdleaf_code_lives_in_rooms():
    top = sorted(p.name for p in (ROOT / "tdleaf").glob("*.py"))
    assert top == ["__init__.py", "__main__.py"]
    rooms = sorted(p.name for p in (ROOT / "tdleaf").iterdir() if (p / "__init__.py").exists())
    assert rooms == ["bench", "cli", "learn", "play"]
