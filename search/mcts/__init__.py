"""MCTS: the heuristic prior (policy and value from the evaluation: :mod:`.prior`), the
network's encoding (planes, move map: :mod:`.encoding`) and evaluator
(:mod:`.network`), the tree in flat arrays with its compiled playouts (:mod:`.tree`)
and the :class:`MCTS` that drives them (:mod:`.driver`).

``from search.mcts import MCTS`` loads the driver on first use (PEP 562), as it did when
the MCTS was one module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .driver import MCTS, PUCT, MCTSResult

_LAZY = {"MCTS": "driver", "PUCT": "driver", "MCTSResult": "driver"}

__all__ = ["MCTS", "PUCT", "MCTSResult"]


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
