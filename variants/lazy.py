"""Lazy package attributes (PEP 562), shared by the packages whose heavy modules
(numba, NumPy) should load on first use rather than on import."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(
    package: str, modules: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for *package*: each name in *modules* loads from
    its submodule on first use and is then kept in *namespace* (the package's globals)
    as a plain attribute."""

    def getattr_(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(modules))

    return getattr_, dir_
