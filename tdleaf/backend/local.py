"""Local worker processes: fresh interpreters (spawn: no forked numba or engine threads),
each with its own queue of units and its own pipe of results back to the calling process.

One pipe per worker, not one queue for all: a queue's writers share a lock that a
feeder thread holds while it writes, and a worker that dies then (killed, or
``os._exit`` while its last result is on the way) leaves the lock held and every other
worker's results stuck behind it. A pipe is written by its worker's own thread, whole
messages at a time; a worker that dies mid-message spoils only its own pipe."""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import pickle
import queue
import time
from typing import Any

from . import BackendError, Event, Job, node_name, parent_gone, worker_count

#: Seconds a worker told to stop may take to close its engines before it is terminated.
CLOSE_GRACE = 20.0


def _worker(job: Job, lane: int, gen: int, tasks: Any, pipe: Any, parent: int) -> None:
    """A worker process: ``job.start()``, then units from ``tasks`` until None; what it
    sends goes down ``pipe`` (the sending end of its own pipe)."""

    def send(message: tuple[Any, ...]) -> None:
        try:
            pipe.send(message)
        except OSError:                 # the caller is gone (parent_gone stops the work)
            pass

    try:
        state = job.start()
    except BaseException as exc:       # noqa: BLE001 - reported to the caller, who raises
        send((lane, gen, "failed", f"{node_name()}: {type(exc).__name__}: {exc}"))
        return
    send((lane, gen, "ready", None))
    try:
        while True:
            try:
                unit = tasks.get(timeout=1.0)
            except queue.Empty:
                if parent_gone(parent):        # the job was killed: stop too
                    return
                continue
            if unit is None:
                return
            for item in job.run(state, unit):
                send((lane, gen, "item", item))
                if parent_gone(parent):        # left playing, it would write for nobody
                    return
            send((lane, gen, "done", None))
    except KeyboardInterrupt:
        return
    except BaseException as exc:       # noqa: BLE001
        send((lane, gen, "error", f"{type(exc).__name__}: {exc}"))
    finally:
        job.close(state)


class LocalLanes:
    """One process per lane; a dead process is a lost lane (its unit is played again)."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.ctx = mp.get_context("spawn")
        self.procs: list[Any] = []
        self.tasks: list[Any] = []
        self.pipes: list[Any] = []       # each lane's receiving end (None once spoilt)
        self.gens: list[int] = []
        #: What the other workers sent while one was starting: poll's first events.
        self.early: list[Event] = []

    def _start(self, lane: int) -> None:
        gen = self.gens[lane] + 1 if lane < len(self.gens) else 0
        tasks = self.ctx.Queue()
        receive, send = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_worker, daemon=True,
                                args=(self.job, lane, gen, tasks, send, os.getpid()))
        proc.start()
        send.close()                    # the worker's end only: its death reads as EOF here
        if lane < len(self.procs):
            if self.pipes[lane] is not None:
                self.pipes[lane].close()
            self.procs[lane], self.tasks[lane], self.gens[lane] = proc, tasks, gen
            self.pipes[lane] = receive
        else:
            self.procs.append(proc)
            self.tasks.append(tasks)
            self.pipes.append(receive)
            self.gens.append(gen)

    def _messages(self, timeout: float) -> list[tuple[int, int, str, Any]]:
        """What the workers have sent, waiting up to ``timeout`` seconds for the first; a
        pipe that ends (its worker exited) or is spoilt (it died mid-message) is closed."""
        live = [c for c in self.pipes if c is not None]
        out: list[tuple[int, int, str, Any]] = []
        ready: list[Any] = mpc.wait(live, timeout) if live else []
        for conn in ready:
            lane = self.pipes.index(conn)
            try:
                while conn.poll():
                    out.append(conn.recv())
            except (EOFError, OSError, pickle.UnpicklingError):
                conn.close()
                self.pipes[lane] = None
        if not live and timeout > 0:
            time.sleep(timeout)
        return out

    def _await_ready(self, lanes: list[int]) -> None:
        waiting = set(lanes)
        while waiting:
            messages = self._messages(0.5)
            if not messages:
                dead = [k for k in waiting if not self.procs[k].is_alive()]
                if dead:
                    raise BackendError(f"worker {dead[0]} died while starting (exit code "
                                       f"{self.procs[dead[0]].exitcode})") from None
            for lane, gen, kind, payload in messages:
                if gen != self.gens[lane]:
                    continue
                if kind == "failed":
                    raise BackendError(f"a worker could not start on {payload}")
                if kind == "ready":
                    waiting.discard(lane)
                else:                   # another worker's item or end, kept for poll
                    self.early += self._event(lane, kind, payload)

    def open(self, workers: int | None, units: int) -> int:
        n = worker_count(workers, 1, units)
        for lane in range(n):
            self._start(lane)
        self._await_ready(list(range(n)))
        return n

    def submit(self, lane: int, unit: Any) -> None:
        self.tasks[lane].put(unit)

    def poll(self, timeout: float) -> list[Event]:
        events = self._drain(timeout)
        dead = [lane for lane, proc in enumerate(self.procs) if not proc.is_alive()]
        if dead:
            # What they sent before they died comes first: then their units are lost.
            events += self._drain(0.0)
            events += [Event(lane, "lost", why=f"worker process exited with code "
                                               f"{self.procs[lane].exitcode}") for lane in dead]
        return events

    def _drain(self, timeout: float) -> list[Event]:
        events, self.early = self.early, []
        for lane, gen, kind, payload in self._messages(0.0 if events else timeout):
            if gen == self.gens[lane]:     # else from a worker since replaced
                events += self._event(lane, kind, payload)
        return events

    @staticmethod
    def _event(lane: int, kind: str, payload: Any) -> list[Event]:
        if kind == "error":
            raise BackendError(f"a worker failed: {payload}")
        return [Event(lane, kind, item=payload)]

    def replace(self, lane: int) -> None:
        self._start(lane)
        self._await_ready([lane])

    def close(self, graceful: bool) -> None:
        for tasks in self.tasks:
            _drain_queue(tasks)
            tasks.put(None)
        # A worker told to stop closes its engines on the way out: give it the time to, and
        # terminate only one that hangs (its engines die with it: players.engine_command).
        deadline = time.monotonic() + (CLOSE_GRACE if graceful else 2.0)
        for p in self.procs:
            p.join(timeout=max(0.0, deadline - time.monotonic()))
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            p.join(timeout=10)


def _drain_queue(q: Any) -> None:
    try:
        while True:
            q.get_nowait()
    except queue.Empty:
        pass
