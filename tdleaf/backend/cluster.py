"""Ray actors as workers: one CPU each, on whichever node Ray places them.

The calling process (Ray's driver) pulls a unit's items one call at a time
(:meth:`_Worker.step`), so every item it receives is complete, and a worker that dies
loses only the item it was making. A dead actor (its process killed, its node gone) is a
lost lane; an error raised by the job is the job's error, not retried. Actors belong to
the driver: when the driver dies, Ray ends them, and their engines die with them
(:func:`tdleaf.play.engines.dies_with_parent`).

Ray has no authentication: its ports must never be reachable from outside the
cluster's own network (docs/cluster.md).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from . import BackendError, Event, Job, node_name, worker_count

#: Seconds a worker told to stop may take to close its engines before it is killed.
CLOSE_GRACE = 20.0


class _Worker:
    """A Ray actor's body: the job's state, and the unit it is playing."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.state: Any = None
        self.items: Any = None

    def start(self, version: str) -> tuple[str, str | None]:
        """Start the job here: ``(node, None)``, or ``(node, why it could not)``.
        ``version``: the driver's tdleaf, which this node's must be."""
        node = node_name()
        if tdleaf_version() != version:
            return node, (f"tdleaf {tdleaf_version()} is installed here and {version} on the "
                          f"driver: install the same on every node")
        try:
            self.state = self.job.start()
        except Exception as exc:       # noqa: BLE001 - the driver names the node and raises
            return node, f"{type(exc).__name__}: {exc}"
        return node, None

    def step(self, unit: Any = None) -> tuple[bool, Any]:
        """Begin ``unit`` (if given) and return its next item: ``(True, item)``, or
        ``(False, None)`` when the unit is finished."""
        if unit is not None:
            self.items = iter(self.job.run(self.state, unit))
        try:
            return True, next(self.items)
        except StopIteration:
            self.items = None
            return False, None

    def close(self) -> None:
        if self.state is not None:
            self.job.close(self.state)
            self.state = None


def tdleaf_version() -> str:
    from importlib import metadata
    try:
        return metadata.version("tdleaf")
    except metadata.PackageNotFoundError:
        return "unknown"


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("--backend ray needs Ray: pip install 'tdleaf[ray]'") from None
    return ray


def connect(address: str | None) -> Any:
    """Ray, joined to the cluster at ``address`` (see :class:`~tdleaf.backend.Backend`)."""
    ray = _ray()
    if not ray.is_initialized():
        refused = (ConnectionError, getattr(ray.exceptions, "AuthenticationError", ConnectionError))
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                     configure_logging=False)
        except refused as exc:
            raise BackendError(f"cannot join a Ray cluster at {address or 'this machine'}: "
                               f"{_first_line(exc)} (a cluster with token authentication "
                               f"needs RAY_AUTH_MODE=token and its token here too; "
                               f"docs/cluster.md)") from None
    return ray


class RayLanes:
    """One actor per lane."""

    def __init__(self, job: Job, address: str | None) -> None:
        self.job = job
        self.ray = connect(address)
        self.actor_class = self.ray.remote(num_cpus=1, max_restarts=0)(_Worker)
        self.version = tdleaf_version()
        self.actors: list[Any] = []
        self.calls: dict[Any, int] = {}       # call in flight -> lane

    def _new(self) -> Any:
        return self.actor_class.remote(self.job)

    def _started(self, actors: list[Any]) -> None:
        """Wait for ``actors`` to start the job; raise naming the node of one that could not."""
        ray = self.ray
        try:
            answers = ray.get([a.start.remote(self.version) for a in actors])
        except ray.exceptions.RayActorError as exc:
            raise BackendError(f"a Ray worker died while starting: {exc}") from None
        for node, problem in answers:
            if problem:
                raise BackendError(f"a Ray worker could not start on node {node}: {problem}")

    def open(self, workers: int | None, units: int) -> int:
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        n = worker_count(workers, cpus, units)
        if n > cpus:
            print(f"tdleaf: the Ray cluster has {cpus} CPU(s): {n - cpus} of {n} workers wait "
                  f"for one", file=sys.stderr, flush=True)
        self.actors = [self._new() for _ in range(n)]
        self._started(self.actors)
        return n

    def submit(self, lane: int, unit: Any) -> None:
        self.calls[self.actors[lane].step.remote(unit)] = lane

    def poll(self, timeout: float) -> list[Event]:
        ray = self.ray
        if not self.calls:
            return []
        ready, rest = ray.wait(list(self.calls), num_returns=1, timeout=timeout)
        if ready and rest:          # and whatever else is ready by now
            ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        events = []
        for ref in ready:
            lane = self.calls.pop(ref)
            try:
                more, item = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                events.append(Event(lane, "lost", why=_first_line(exc)))
                continue
            except ray.exceptions.RayTaskError as exc:
                raise BackendError(f"a Ray worker failed: {_cause(exc)}") from None
            if more:
                events.append(Event(lane, "item", item=item))
                self.calls[self.actors[lane].step.remote()] = lane
            else:
                events.append(Event(lane, "done"))
        return events

    def replace(self, lane: int) -> None:
        self.actors[lane] = self._new()
        self._started([self.actors[lane]])

    def close(self, graceful: bool) -> None:
        ray = self.ray
        if graceful:
            closing = [a.close.remote() for a in self.actors]
            ray.wait(closing, num_returns=len(closing), timeout=CLOSE_GRACE)
        for a in self.actors:
            with contextlib.suppress(Exception):     # an actor already gone
                ray.kill(a)
        self.calls.clear()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _cause(exc: Any) -> str:
    cause = getattr(exc, "cause", None)
    return f"{type(cause).__name__}: {cause}" if cause is not None else _first_line(exc)
