"""The backend (tdleaf.backend) on this machine: this process and local worker processes.
The same scheduler drives Ray's actors (tests/test_backend_ray.py)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from tdleaf.backend import Backend, BackendError, Pool, run_units
from tdleaf.cli import main


@dataclass
class Squares:
    """Units are integers; a unit yields ``unit`` items: its square, ``unit`` times.
    With ``die_once``, the first worker to take unit 3 kills its own process before its
    first item (a marker file in that folder says it has), as a worker killed from
    outside would die; with ``die_after``, after its last item (before saying it is done)."""

    die_once: str | None = None
    fail_on: int | None = None
    die_after: str | None = None

    def start(self) -> dict:
        return {"pid": os.getpid()}

    def run(self, state: dict, unit: int):
        if unit == self.fail_on:
            raise ValueError(f"unit {unit} is bad")
        if unit == 3 and self.die_once:
            marker = Path(self.die_once) / "died"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                os._exit(9)
        for k in range(unit):
            yield (unit * unit, k)
        if unit == 3 and self.die_after:
            marker = Path(self.die_after) / "died"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                os._exit(9)

    def close(self, state: dict) -> None:
        pass


class Tokens:
    """Each unit yields its worker's token, made once by ``start``."""

    def start(self) -> str:
        return uuid.uuid4().hex

    def run(self, state: str, unit: int):
        yield state

    def close(self, state: str) -> None:
        pass


def _collect(backend: Backend, job, units, again=None) -> dict[int, list]:
    got: dict[int, list] = {}
    run_units(backend, job, units, lambda u, item: got.setdefault(u, []).append(item),
              again=again)
    return got


def test_every_unit_streams_its_items_in_order_wherever_it_runs():
    expected = {u: [(u * u, k) for k in range(u)] for u in range(1, 6)}
    assert _collect(Backend(), Squares(), range(1, 6)) == expected
    assert _collect(Backend(workers=2), Squares(), range(1, 6)) == expected


def test_a_dead_worker_loses_only_its_unit_which_is_played_again(tmp_path, capsys):
    """Unit 3's worker dies: the unit is played again on a fresh worker, from what
    ``again`` makes of it, and every other unit once."""
    agains: list[int] = []

    def again(u: int) -> int:
        agains.append(u)
        return u

    got = _collect(Backend(workers=2), Squares(die_once=str(tmp_path)), range(1, 6), again)
    assert (tmp_path / "died").exists() and agains == [3]
    assert got == {u: [(u * u, k) for k in range(u)] for u in range(1, 6)}
    assert "a worker was lost (worker process exited with code 9)" in capsys.readouterr().err


def test_a_worker_lost_after_its_last_item_plays_nothing_again_when_again_says_so(tmp_path,
                                                                                 capsys):
    """The race of a worker killed between its unit's last item and its end: ``again``
    returning None (the caller has every item) plays the unit nowhere again."""
    got = _collect(Backend(workers=2), Squares(die_after=str(tmp_path)), range(1, 6),
                   lambda u: None)
    assert (tmp_path / "died").exists()
    assert got == {u: [(u * u, k) for k in range(u)] for u in range(1, 6)}
    assert "its unit had finished" in capsys.readouterr().err


def test_a_jobs_error_stops_the_job_with_its_message():
    with pytest.raises(BackendError, match="ValueError: unit 2 is bad"):
        _collect(Backend(workers=2), Squares(fail_on=2), range(1, 6))
    with pytest.raises(ValueError, match="unit 2 is bad"):      # in this process: as raised
        _collect(Backend(), Squares(fail_on=2), range(1, 6))


def test_take_returning_true_starts_no_new_unit():
    seen: list[int] = []

    def take(u: int, item) -> bool:
        seen.append(u)
        return u == 1
    run_units(Backend(), Squares(), [1, 2, 3], take)
    assert seen == [1]


def test_ctrl_c_stops_the_workers_and_is_raised():
    """SIGINT while the workers play (here sent from ``take``, between two polls, where a
    terminal's Ctrl-C lands) stops the job with KeyboardInterrupt, no worker left, and
    gives back the SIGINT handler it found."""
    before = signal.getsignal(signal.SIGINT)
    taken: list[int] = []

    def take(u: int, item) -> None:
        taken.append(u)
        if len(taken) == 1:
            os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        run_units(Backend(workers=2), Squares(), range(1, 400), take)
    assert signal.getsignal(signal.SIGINT) is before
    assert len(taken) < sum(range(1, 400))
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("backend", [Backend(), Backend(workers=2)], ids=["here", "2 workers"])
def test_a_pool_keeps_its_workers_from_one_run_to_the_next(backend):
    """Three rounds of units on one pool run on the workers its first round started."""
    rounds: list[set[str]] = []
    with Pool(backend, Tokens()) as pool:
        for _ in range(3):
            rounds.append(set())
            pool.run(range(4), lambda u, token: rounds[-1].add(token))
    assert len(rounds[0]) == (backend.workers or 1)
    assert rounds[1] == rounds[2] == rounds[0]
    with pytest.raises(BackendError, match="closed"):
        pool.run([1], lambda u, token: None)


def test_a_pool_whose_run_fails_is_closed():
    pool = Pool(Backend(workers=2), Squares(fail_on=2))
    with pytest.raises(BackendError, match="unit 2 is bad"):
        pool.run(range(1, 6), lambda u, item: None)
    assert multiprocessing.active_children() == []
    with pytest.raises(BackendError, match="closed"):
        pool.run([1], lambda u, item: None)


@pytest.mark.parametrize("backend, message", [
    (Backend("cloud"), "unknown backend 'cloud'"),
    (Backend(workers=0), "--workers must be >= 1"),
    (Backend("local", 2, "auto"), "--address is for --backend ray"),
])
def test_bad_backends(backend, message):
    with pytest.raises(BackendError, match=message):
        backend.validate()


@pytest.mark.parametrize("command", ["match", "tournament", "ladder", "curve", "learn",
                                     "net data"])
def test_every_many_games_command_takes_the_backend_options(command, capsys):
    with pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--workers", "--backend {local,ray}", "--address ADDR"):
        assert option in text, (command, option)


def test_an_address_without_ray_is_a_usage_error(capsys):
    assert main(["match", "traditional", "ones", "--games", "2", "--address", "auto"]) == 2
    assert "--address is for --backend ray" in capsys.readouterr().err


@dataclass
class SlowAndDying:
    """Unit 0 streams items slowly; the first worker to take unit 1 dies at once, so
    a fresh worker starts while unit 0's items keep coming."""

    marker: str

    def start(self) -> None:
        return None

    def run(self, state: None, unit: int):
        if unit == 1 and not Path(self.marker).exists():
            Path(self.marker).write_text("died")
            os._exit(9)
        for k in range(60 if unit == 0 else 1):
            time.sleep(0.05)
            yield k

    def close(self, state: None) -> None:
        pass


@pytest.mark.slow
def test_items_sent_while_a_worker_restarts_are_not_lost(tmp_path):
    got = _collect(Backend(workers=2), SlowAndDying(str(tmp_path / "died")), [0, 1, 2])
    assert got == {0: list(range(60)), 1: [0], 2: [0]}
