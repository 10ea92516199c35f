"""The house plan (../shared/design/architecture.md): imports point one way, cli ->
learn, play, net, bench -> search -> variants; plots imports none of them but the numba-free
description of the evaluation; tdleaf.backend sits below learn and play; no import
circle anywhere; tdleaf/ keeps its code in rooms."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("variants", "search", "tdleaf", "plots")

#: What each package may import from the project (itself included).
ALLOWED = {
    "variants": {"variants"},
    "search": {"variants", "search"},
    # Where units of work run: below learning and play, it knows none of the project but
    # the error base every error derives from (variants.errors.TdleafError).
    "tdleaf.backend": {"tdleaf.backend", "variants.errors"},
    # Learning measures itself by play (its learning curves); play knows nothing of it.
    "tdleaf.learn": {"variants", "search", "tdleaf.backend", "tdleaf.learn", "tdleaf.play"},
    "tdleaf.play": {"variants", "search", "tdleaf.backend", "tdleaf.play"},
    # The network's room: its data from self-play positions, training, measurement.
    "tdleaf.net": {"variants", "search", "tdleaf.backend", "tdleaf.learn", "tdleaf.play",
                   "tdleaf.net"},
    "tdleaf.bench": {"variants", "search", "tdleaf.backend", "tdleaf.bench", "tdleaf.learn",
                     "tdleaf.play", "tdleaf.net"},
    "tdleaf.cli": {"variants", "search", "tdleaf.backend", "tdleaf.learn", "tdleaf.play",
                   "tdleaf.bench", "tdleaf.net", "tdleaf.cli", "plots"},
    # plots reads run folders; of the project only the pure-data variant description, the
    # normalisation of learnt values it shares with learning, and the evaluation's
    # description (none of them loads numba).
    "plots": {"plots", "variants.spec", "variants.errors", "variants.normalise",
              "search.evaluation"},
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
            inside = any(imported == a or imported.startswith(a + ".") for a in allowed)
            if imported == "tdleaf" or not (_package(imported) in allowed or inside):
                wrong.append(f"{module} imports {imported}")
    assert not wrong, "\n".join(wrong)


def _module_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports: every import counts, in a
    function or under TYPE_CHECKING too; importing a package's name imports the
    package (its ``__init__``), not its modules."""
    modules = {module: path for path, module in _modules()}
    graph = {}
    for module, path in modules.items():
        found = set()
        for name in _imports(path, module):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            # A module's own package (its __init__) is imported first by Python: no edge.
            if name and name != module and not module.startswith(name + "."):
                found.add(name)
        graph[module] = found
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    assert _circles(_module_graph()) == []


def test_the_circle_check_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_tdleaf_code_lives_in_rooms():
    top = sorted(p.name for p in (ROOT / "tdleaf").glob("*.py"))
    assert top == ["__init__.py", "__main__.py"]
    rooms = sorted(p.name for p in (ROOT / "tdleaf").iterdir() if (p / "__init__.py").exists())
    assert rooms == ["backend", "bench", "cli", "learn", "net", "play"]


#: Limits of a function of search/ (the house plan: the search's state travels in groups,
#: search.alphabeta.state; each part reads as one idea).
MAX_PARAMETERS = 12
MAX_LINES = 120
#: The rules codes of variants.board: only variants/ may name them.
VARIANT_CODES = {"CHESS", "CRAZYHOUSE", "SUICIDE", "GIVEAWAY", "ANTICHESS", "ATOMIC", "KOTH",
                 "THREECHECK", "RACING", "HORDE"}


def test_search_functions_are_narrow_and_short():
    wide = []
    for path, module in _modules():
        if not module.startswith("search"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            n = (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg)
                 + bool(a.kwarg) - bool(a.args and a.args[0].arg in ("self", "cls")))
            lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            if n > MAX_PARAMETERS or lines > MAX_LINES:
                wide.append(f"{module}.{node.name}: {n} parameters, {lines} lines")
    assert not wide, "\n".join(wide)


def test_no_variant_code_outside_variants():
    """The search asks the rules' flags (variants.rules) or a function of variants, never
    a variant's rules code: no ``core.ATOMIC``, nor ``ATOMIC`` imported under any name."""
    found = []
    for path, module in _modules():
        if module.startswith("variants"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        aliases = {a.asname or a.name for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and not node.level
                   and (node.module or "").startswith("variants")
                   for a in node.names if a.name in VARIANT_CODES}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in VARIANT_CODES
                    or isinstance(node, ast.Name) and node.id in aliases):
                found.append(f"{module}:{node.lineno}")
    assert not found, "\n".join(found)
