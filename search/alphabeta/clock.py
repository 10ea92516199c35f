"""The move's clock: the time plan a move's limits give, and the timer that stops the
search when it runs out, with pondering (no clock until the move pondered on is
played). Python only: the compiled search reads a stop flag that the timer sets."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from variants import Position, core

if TYPE_CHECKING:
    from .results import Limits

#: Never let a clock fall below this (seconds): what a move costs to send and read.
TIME_MARGIN = 0.1


def time_plan(lim: Limits, pos: Position) -> tuple[float, float] | None:
    """``(soft, hard)`` seconds for this move, or None without a time limit. The hard
    limit stops the search; after the soft one no new iteration starts (scaled by how
    stable the best move has been). A clock keeps TIME_MARGIN in reserve."""
    if lim.infinite:
        return None
    if lim.movetime is not None:
        t = max(0.0, lim.movetime)
        return t, t
    white = pos.turn
    left = lim.wtime if white else lim.btime
    if left is None:
        return None
    inc = lim.winc if white else lim.binc
    usable = max(0.0, left - TIME_MARGIN)
    # Moves still to play: as asked, else fewer as the game goes on (its phase).
    togo = lim.movestogo or max(15, 45 - int(pos.st[core.FULLMOVE]) // 2)
    soft = usable / togo + 0.75 * inc
    hard = min(usable * 0.4 + inc * 0.5, soft * 4.0)
    hard = max(0.001, min(hard, usable))
    return min(soft, hard), hard


class MoveClock:
    """The timer of one move at a time (thread-safe: a front end's ``ponderhit`` comes
    from another thread than the search's). ``on_time_up`` is called from the timer's
    thread when the budget runs out."""

    def __init__(self, on_time_up: Callable[[], None]) -> None:
        self._lock = threading.Lock()        # guards the timer and the ponder state
        self._on_time_up = on_time_up
        self._timer: threading.Timer | None = None
        self._pondering = False
        self._pending_budget: float | None = None
        self._move_budget: float | None = None
        self._budget_start = 0.0

    def arm(self, ponder: bool, budget: float | None) -> None:
        """A move starts: its budget runs from now, or from :meth:`ponderhit` when
        pondering (None: no budget)."""
        with self._lock:
            self._pondering = ponder
            self._pending_budget = budget
            self._move_budget = None
            if not ponder:
                self._start(budget)

    def ponderhit(self) -> None:
        """The move pondered on was played: its budget starts now (a no-op when no
        search is pondering)."""
        with self._lock:
            if self._pondering:
                self._pondering = False
                self._start(self._pending_budget)

    def restart(self, budget: float) -> None:
        """A new budget from now (the re-search after a refuted move)."""
        with self._lock:
            self._start(budget)

    def cancel(self) -> None:
        """Stop the timer (the search it guarded is done)."""
        with self._lock:
            self._cancel()

    def disarm(self) -> None:
        """The move is over: no timer, no pondering."""
        with self._lock:
            self._cancel()
            self._pondering = False

    def running_for(self) -> float | None:
        """Seconds since the move's budget started, or None while none has (no budget,
        or still pondering)."""
        with self._lock:
            if self._move_budget is None:
                return None
            return time.perf_counter() - self._budget_start

    def _start(self, budget: float | None) -> None:
        """Start a budget (with the lock held)."""
        self._move_budget = budget
        self._budget_start = time.perf_counter()
        if budget is not None:
            self._timer = threading.Timer(budget, self._on_time_up)
            self._timer.daemon = True
            self._timer.start()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
