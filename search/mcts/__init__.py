"""MCTS: the heuristic prior (policy and value from the evaluation: :mod:`.prior`), the
network's encoding (planes, move map: :mod:`.encoding`) and evaluator
(:mod:`.network`), the tree in flat arrays with its compiled playouts (:mod:`.tree`)
and the :class:`MCTS` that drives them (:mod:`.driver`).

``from search.mcts import MCTS`` loads the driver on first use (PEP 562), as it did when
the MCTS was one module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .driver import MCTS, PUCT, MCTSResult

_LAZY = {"MCTS": "driver", "PUCT": "driver", "MCTSResult": "driver"}

__all__ = ["MCTS", "PUCT", "MCTSResult"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
