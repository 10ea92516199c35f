"""Package faces whose names load their modules on first use (PEP 562), so that
importing the face costs nothing until a name is asked for."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, names: dict[str, str],
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the face of ``package``: each of ``names`` comes
    from the module (relative to the package) it maps to, once asked for, and is a plain
    attribute of the package from then on."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
