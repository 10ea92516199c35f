"""Where independent units of work run: in this process, on local worker processes, or as
Ray actors on a cluster, through one interface.

A *job* is a picklable object with three methods, called in a worker:

- ``start()``: once per worker, before its first unit (start the players, load the
  compiled code, so that no timed game pays for either); returns the worker's state;
- ``run(state, unit)``: play one unit (a game, a learning run, a data shard); a generator
  whose items stream back, in order, to the calling process;
- ``close(state)``: once, when the worker stops (close the engines).

:func:`run_units` hands the units out and calls ``take(unit, item)`` in the calling
process for every item, so that the one process that writes the results (PGN, JSON,
checkpoints) is the same on every backend. ``take`` returning True starts no new unit
(the units being played finish). A worker that dies in the middle of a unit (its process
killed, its node lost) loses that unit only: it is played again on a fresh worker, from
``again(unit)`` (default: the unit as it was), so a unit whose items the caller has
already recorded carries on from them and nothing is recorded twice; ``again`` returning
None says the unit needs nothing more (its worker died after its last item, before
saying that it had finished).

Results never depend on the backend when a unit's items depend only on the job and the
unit (its seed comes from its index): a worker's state must not carry anything from one
unit into the next that changes play.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

#: The backends: this process or local worker processes ("local"), or Ray ("ray").
KINDS = ("local", "ray")
#: How often a unit may lose its worker before the job gives up on it.
RETRIES = 3


class BackendError(RuntimeError):
    """A job that cannot run where it was asked to: Ray missing, a worker that could not
    start (an engine missing on a node), a worker's error, a unit lost too often."""


class Job(Protocol):
    """What runs in a worker (see the module's docstring)."""

    def start(self) -> Any: ...

    def run(self, state: Any, unit: Any) -> Iterator[Any]: ...

    def close(self, state: Any) -> None: ...


@dataclass(frozen=True)
class Backend:
    """Where a job's units run: ``kind`` "local" (``workers`` processes; 1: this process)
    or "ray" (``workers`` actors, default one per CPU of the cluster, on the cluster at
    ``address``: "auto" joins the running local cluster; None starts a private one
    unless RAY_ADDRESS names one)."""

    kind: str = "local"
    workers: int | None = None
    address: str | None = None

    def validate(self) -> Backend:
        if self.kind not in KINDS:
            raise BackendError(f"unknown backend {self.kind!r}; expected one of {', '.join(KINDS)}")
        if self.workers is not None and self.workers < 1:
            raise BackendError(f"--workers must be >= 1, got {self.workers}")
        if self.address is not None and self.kind != "ray":
            raise BackendError("--address is for --backend ray")
        return self

    def describe(self) -> str:
        """``2 local workers``, ``this process``, ``Ray at auto``: for the start line."""
        if self.kind == "ray":
            many = "one worker per CPU" if self.workers is None else f"{self.workers} worker(s)"
            return f"Ray at {self.address or 'a local instance'}, {many}"
        n = self.workers or 1
        return "this process" if n == 1 else f"{n} local worker processes"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.workers, "address": self.address}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Backend:
        return cls(**(data or {}))


#: ``take(unit, item)``, in the calling process; True: start no new unit.
Take = Callable[[Any, Any], Any]


def run_units(backend: Backend, job: Job, units: Iterable[Any], take: Take, *,
              again: Callable[[Any], Any] | None = None) -> None:
    """Run ``job`` on every unit of ``units`` where ``backend`` says, calling ``take``
    with each item as it comes (see the module's docstring). Raises
    :class:`BackendError` when a worker cannot start or fails; KeyboardInterrupt stops
    every worker (and its engines) before it propagates."""
    backend.validate()
    todo = list(units)
    if not todo:
        return
    if backend.kind == "local" and (backend.workers or 1) <= 1:
        _run_here(job, todo, take)
        return
    lanes: Lanes
    if backend.kind == "ray":
        from .cluster import RayLanes
        lanes = RayLanes(job, backend.address)
    else:
        from .local import LocalLanes
        lanes = LocalLanes(job)
    _schedule(lanes, backend.workers, todo, take, again or (lambda u: u))


def _run_here(job: Job, units: list[Any], take: Take) -> None:
    """One worker: this process."""
    state = job.start()
    try:
        for unit in units:
            stop = False
            for item in job.run(state, unit):
                stop = bool(take(unit, item)) or stop
            if stop:
                return
    finally:
        job.close(state)


# -- many workers ----------------------------------------------------------------------------

@dataclass
class Event:
    """What a worker lane reports: ``kind`` "item" (with ``item``), "done" (its unit
    finished) or "lost" (its worker died; ``why`` says how)."""

    lane: int
    kind: str
    item: Any = None
    why: str = ""


class Lanes(Protocol):
    """Workers that run one unit at a time each (local processes or Ray actors)."""

    def open(self, workers: int | None, units: int) -> int:
        """Start the workers (at most ``units``), each running ``job.start()``; returns
        how many. Raises :class:`BackendError` naming the worker that could not start."""
        ...

    def submit(self, lane: int, unit: Any) -> None: ...

    def poll(self, timeout: float) -> list[Event]: ...

    def replace(self, lane: int) -> None:
        """Start a fresh worker in place of a lost one."""
        ...

    def close(self, graceful: bool) -> None:
        """Stop every worker (``graceful``: let it close its state first)."""
        ...


def _schedule(lanes: Lanes, workers: int | None, units: list[Any], take: Take,
              again: Callable[[Any], Any]) -> None:
    """Hand the units out one at a time per lane; replay a lost lane's unit."""
    queue: deque[tuple[int, Any]] = deque(enumerate(units))
    running: dict[int, tuple[int, Any]] = {}      # lane -> (unit's position, unit)
    lost: dict[int, int] = {}                     # unit's position -> times lost
    stopping = False
    graceful = False
    try:
        n = lanes.open(workers, len(units))
        for lane in range(n):
            if queue:
                running[lane] = queue.popleft()
                lanes.submit(lane, running[lane][1])
        # Not around open: a worker that waits for a CPU of the cluster may hold it up
        # for long, and Ctrl-C must still end that wait.
        with _sigint_noted() as interrupted:
            while running:
                events = lanes.poll(0.5)
                if interrupted():
                    raise KeyboardInterrupt
                for ev in events:
                    if ev.lane not in running:
                        continue
                    pos, unit = running[ev.lane]
                    if ev.kind == "item":
                        if take(unit, ev.item) and not stopping:
                            stopping = True
                            queue.clear()
                        continue
                    del running[ev.lane]
                    if ev.kind == "lost":
                        lost[pos] = lost.get(pos, 0) + 1
                        if lost[pos] > RETRIES:
                            raise BackendError(f"unit {pos} lost its worker {lost[pos]} times "
                                               f"(last: {ev.why}); giving up")
                        rest = again(unit)
                        print(f"tdleaf: a worker was lost ({ev.why}); "
                              + ("its unit is played again on a fresh one" if rest is not None
                                 else "its unit had finished"), file=sys.stderr, flush=True)
                        if rest is not None:
                            queue.appendleft((pos, rest))
                        lanes.replace(ev.lane)
                    if queue:
                        running[ev.lane] = queue.popleft()
                        lanes.submit(ev.lane, running[ev.lane][1])
        graceful = True
    finally:
        lanes.close(graceful)


@contextlib.contextmanager
def _sigint_noted() -> Iterator[Callable[[], bool]]:
    """SIGINT noted by a flag while the lanes play, for the caller to raise as
    KeyboardInterrupt between polls: raised inside Ray's wait (whose C++ side checks for
    signals and runs the handler there) a KeyboardInterrupt can be swallowed ("Exception
    ignored"), and the job would play on. Yields the flag's reader; outside the main
    thread, where no handler can be set, one that is never True."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield lambda: bool(noted)
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_count(workers: int | None, available: int, units: int) -> int:
    """Workers to start: as asked (or one per available CPU), at most one per unit."""
    return max(1, min(workers or available, units))


def node_name() -> str:
    """This machine, as an error names it: its host name (and Ray's node address)."""
    import socket
    host = socket.gethostname()
    ray = sys.modules.get("ray")     # only where Ray is running: never imported for a name
    if ray is not None and ray.is_initialized():
        return f"{host} ({ray.util.get_node_ip_address()})"
    return host


def parent_gone(parent: int) -> bool:
    """Whether the process that started this worker has gone (a killed job)."""
    return os.getppid() != parent
