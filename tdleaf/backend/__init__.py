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
saying that it had finished). A :class:`Pool` keeps its workers, and what their
``start()`` started, from one round of units to the next.

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
from typing import Any, Protocol, Self

from variants.errors import TdleafError

#: The backends: this process or local worker processes ("local"), or Ray ("ray").
KINDS = ("local", "ray")
#: How often a unit may lose its worker before the job gives up on it.
RETRIES = 3


class BackendError(TdleafError, RuntimeError):
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

    @property
    def in_process(self) -> bool:
        """Whether the units run in this process (local, one worker)."""
        return self.kind == "local" and (self.workers or 1) <= 1

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
    with Pool(backend, job) as pool:
        pool.run(units, take, again=again)


class Pool:
    """Workers kept from one :meth:`run` to the next, for a caller whose units come in
    rounds that depend on what came back before (a ladder's batches, each against a
    setting chosen from the games so far): each worker runs ``job.start()`` once, at the
    first run that has units, not once a round. The first such run's units bound the
    number of workers (one per unit at most). A run that fails closes the pool; leaving
    the ``with`` block closes it too, letting the workers close their state when no
    error is on its way."""

    def __init__(self, backend: Backend, job: Job) -> None:
        self.backend = backend.validate()
        self.job = job
        self._here = backend.in_process
        self._state: Any = None            # this process's worker state, once started
        self._lanes: Lanes | None = None
        self._open = 0                     # workers started in lanes
        self._closed = False

    def run(self, units: Iterable[Any], take: Take, *,
            again: Callable[[Any], Any] | None = None) -> None:
        """As :func:`run_units`, on this pool's workers."""
        if self._closed:
            raise BackendError("the pool of workers is closed")
        todo = list(units)
        if not todo:
            return
        try:
            if self._here:
                if self._state is None:
                    self._state = self.job.start()
                _run_here(self.job, self._state, todo, take)
                return
            if self._lanes is None:
                self._lanes = self._new_lanes()
                self._open = self._lanes.open(self.backend.workers, len(todo))
            _schedule(self._lanes, self._open, todo, take, again or (lambda u: u))
        except BaseException:
            self.close(graceful=False)
            raise

    def _new_lanes(self) -> Lanes:
        if self.backend.kind == "ray":
            from .cluster import RayLanes
            return RayLanes(self.job, self.backend.address)
        from .local import LocalLanes
        return LocalLanes(self.job)

    def close(self, graceful: bool = True) -> None:
        """Stop the workers (``graceful``: let each close its state first)."""
        if self._closed:
            return
        self._closed = True
        if self._state is not None:
            state, self._state = self._state, None
            self.job.close(state)
        if self._lanes is not None:
            lanes, self._lanes = self._lanes, None
            lanes.close(graceful)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.close(graceful=kind is None)


def _run_here(job: Job, state: Any, units: list[Any], take: Take) -> None:
    """One worker: this process, its state started already."""
    for unit in units:
        stop = False
        for item in job.run(state, unit):
            stop = bool(take(unit, item)) or stop
        if stop:
            return


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


def _schedule(lanes: Lanes, n: int, units: list[Any], take: Take,
              again: Callable[[Any], Any]) -> None:
    """Hand the units out one at a time to the ``n`` open lanes; replay a lost lane's
    unit. The lanes stay open (their owner closes them)."""
    queue: deque[tuple[int, Any]] = deque(enumerate(units))
    running: dict[int, tuple[int, Any]] = {}      # lane -> (unit's position, unit)
    lost: dict[int, int] = {}                     # unit's position -> times lost
    stopping = False
    for lane in range(n):
        if queue:
            running[lane] = queue.popleft()
            lanes.submit(lane, running[lane][1])
    # Not around open: a worker that waits for a CPU of the cluster may hold it up for
    # long, and Ctrl-C must still end that wait.
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
