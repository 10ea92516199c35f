"""Learning curves: weight snapshots and process time while learning
(tdleaf/learn/runs.py), ``tdleaf curve`` (tdleaf/learn/curve.py) and its figure
(``tdleaf plot --curves``, plots/curves.py).

The jobs are tiny (depth 1, a few games, a short snapshot schedule set in config.json)
and the matches too (2-4 games at depth 1): these tests check files, resumption and
errors, not strength.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import numpy as np
import pytest
from PIL import Image

import plots
from plots.curves import _labels
from search.layout import load_weights
from tdleaf.cli import main
from tdleaf.learn.config import LearnConfig, LearnError
from tdleaf.learn.curve import CURVE_DIR
from tdleaf.learn.runs import SNAPSHOT_GAMES, run_learning, snapshot_schedule
from tdleaf.learn.summary import summarise

REPO = Path(__file__).resolve().parent.parent
#: The tiny job: 2 runs of 6 atomic games at depth 1, snapshots after 2 and 4 (and 6).
TINY = {"variant": "atomic", "games": 6, "runs": 2, "depth": 1, "max_plies": 60,
        "snapshots": [2, 4]}
CURVE = ["--games", "2", "--depth", "1", "--no-progress"]


def _new_job(out: Path, **settings) -> Path:
    """A result folder holding only config.json: `tdleaf learn --resume` plays it."""
    cfg = LearnConfig(**settings).validate()
    out.mkdir(parents=True)
    (out / "config.json").write_text(json.dumps({"learn": cfg.to_json()}))
    return out


def _learn(out: Path) -> None:
    assert main(["learn", "--resume", "--out", str(out), "--workers", "1", "--no-progress",
                 "--no-plot"]) == 0


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _error(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    err = captured.err.split("\r")[-1]          # after any progress bar
    assert err.startswith("tdleaf: error: ") and err.count("\n") == 1, captured.err
    return err


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> Path:
    out = _new_job(tmp_path_factory.mktemp("curve") / "job", **TINY)
    _learn(out)
    return out


# -- snapshots and process time while learning -----------------------------------------------

def test_the_default_schedule_is_geometric():
    assert SNAPSHOT_GAMES == (60, 125, 250, 500, 1000)
    assert snapshot_schedule(2000) == [60, 125, 250, 500, 1000, 2000]
    assert snapshot_schedule(5000) == [60, 125, 250, 500, 1000, 2000, 4000, 5000]
    assert snapshot_schedule(100) == [60, 100]
    assert snapshot_schedule(30) == [30]
    assert snapshot_schedule(6, [4, 2, 9]) == [2, 4, 6]
    # a folder written before snapshots were a setting takes the default schedule
    old = {k: v for k, v in LearnConfig("atomic").to_json().items() if k != "snapshots"}
    assert LearnConfig.from_json(old).snapshots is None
    with pytest.raises(LearnError, match="snapshots"):
        LearnConfig("atomic", snapshots=[0, 5]).validate()


def test_snapshots_hold_the_weights_after_their_game(job):
    for r in range(2):
        rdir = job / f"run-{r:02d}"
        names = sorted(p.name for p in (rdir / "snapshots").iterdir())
        assert names == ["weights-2.json", "weights-4.json", "weights-6.json"]
        ck = json.loads((rdir / "checkpoint.json").read_text())
        assert load_weights(rdir / "snapshots" / "weights-6.json", "atomic").w.tolist() == ck["w"]
        rows = _rows(rdir / "history.csv")
        for n in (2, 4):
            w = load_weights(rdir / "snapshots" / f"weights-{n}.json", "atomic").w
            assert w[:6] == pytest.approx([float(rows[n - 1][f"material.{p}"]) for p in "PNBRQK"],
                                          rel=1e-6, abs=1e-9)
        assert not np.array_equal(
            load_weights(rdir / "snapshots" / "weights-2.json", "atomic").w, ck["w"])


def test_history_records_process_time_as_its_last_column(job):
    text = (job / "run-00" / "history.csv").read_text()
    assert text.splitlines()[0].endswith(",hand.Q,cpu_seconds")
    rows = _rows(job / "run-00" / "history.csv")
    assert len(rows) == 6 and all(float(r["cpu_seconds"]) >= 0 for r in rows)
    assert sum(float(r["cpu_seconds"]) for r in rows) > 0


def _kill_after(out: Path, games: int) -> None:
    """Start `tdleaf learn --resume --out OUT` and kill -9 it once run-00 has checkpointed
    ``games`` games."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.Popen([sys.executable, "-m", "tdleaf", "learn", "--resume", "--out",
                             str(out), "--no-progress", "--no-plot"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ck_path = out / "run-00" / "checkpoint.json"
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if ck_path.exists() and json.loads(ck_path.read_text())["games"] >= games:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the job ended before it could be killed: " + \
            proc.stderr.read().decode()   # type: ignore[union-attr]
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        proc.stderr.close()     # type: ignore[union-attr]
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_a_run_resumed_after_kill_writes_the_same_snapshots(tmp_path):
    """Suicide at depth 1 (short, decisive games): killed after 6 of 30 games, resumed,
    its snapshots are byte for byte those of an uninterrupted run, the one written but
    not checkpointed before a kill included."""
    settings = {"variant": "suicide", "games": 30, "runs": 1, "depth": 1, "seed": 3,
                "snapshots": [2, 5, 12, 20]}
    whole = _new_job(tmp_path / "whole", **settings)
    _learn(whole)
    killed = _new_job(tmp_path / "killed", **settings)
    _kill_after(killed, 6)
    games = json.loads((killed / "run-00" / "checkpoint.json").read_text())["games"]
    assert 6 <= games < 30
    snaps = killed / "run-00" / "snapshots"
    later = min(n for n in (12, 20, 30) if n > games)
    # As if killed between a snapshot and its game's checkpoint: the game is replayed.
    (snaps / f"weights-{later}.json").write_text('{"variant": "suicide", "meta": {}}')
    _learn(killed)
    ours, theirs = _files(snaps), _files(whole / "run-00" / "snapshots")
    assert sorted(ours) == ["weights-12.json", "weights-2.json", "weights-20.json",
                            "weights-30.json", "weights-5.json"]
    assert ours == theirs


def _old_copy(job: Path, out: Path) -> Path:
    """The job as tdleaf wrote it before process time and snapshots: run-00's
    history.csv without cpu_seconds (its checkpoint's byte count to match), no snapshots."""
    shutil.copytree(job, out)
    rdir = out / "run-00"
    rows = list(csv.reader(io.StringIO((rdir / "history.csv").read_text())))
    assert rows[0][-1] == "cpu_seconds"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(r[:-1] for r in rows)
    (rdir / "history.csv").write_text(buf.getvalue())
    ck = json.loads((rdir / "checkpoint.json").read_text())
    ck["history_bytes"] = len(buf.getvalue().encode())
    (rdir / "checkpoint.json").write_text(json.dumps(ck))
    shutil.rmtree(rdir / "snapshots")
    return out


def test_an_old_history_summarises_plots_and_resumes_without_the_column(job, tmp_path, capsys):
    out = _old_copy(job, tmp_path / "old")
    cfg = LearnConfig.from_json(json.loads((out / "config.json").read_text())["learn"])
    assert summarise(out, cfg)["games"] == 6
    data = plots.load_run(out)
    assert [len(h.seconds) for h in data.histories] == [6, 6]
    assert plots.plot_run(out, out=tmp_path / "fig")
    # A finished old run resumed: its last weights become its (only) snapshot.
    run_learning(out, cfg.to_json(), 0)
    assert sorted(p.name for p in (out / "run-00" / "snapshots").iterdir()) == ["weights-6.json"]
    assert (out / "run-00/snapshots/weights-6.json").read_bytes() == \
        (job / "run-00/snapshots/weights-6.json").read_bytes()
    # Carried on, the old file keeps its columns: every row as long as its header.
    run_learning(out, {**cfg.to_json(), "games": 8}, 0)
    rows = list(csv.reader(io.StringIO((out / "run-00" / "history.csv").read_text())))
    assert "cpu_seconds" not in rows[0] and len(rows) == 9
    assert {len(r) for r in rows} == {len(rows[0])}
    assert [len(h.games) for h in plots.load_run(out).histories] == [8, 6]


# -- tdleaf curve ----------------------------------------------------------------------------

def _curve(folder: Path) -> dict:
    return json.loads((folder / "curve.json").read_text())


def _pgn_games(path: Path) -> int:
    return path.read_text().count("[Event ")


def test_curve_plays_every_point_and_resumes(job, capsys):
    assert main(["curve", str(job), *CURVE]) == 0
    out = capsys.readouterr().out
    assert f"{job / 'curve.json'}" in out
    data = _curve(job)
    assert [p["games"] for p in data["points"]] == [0, 2, 4, 6] and data["complete"]
    assert (data["method"], data["features"], data["opponent"], data["depth"]) == \
        ("tdleaf", "material", "traditional", 1)
    folder = job / CURVE_DIR
    for p in data["points"]:
        n = p["games"]
        assert p["games_played"] == 2 and p["wins"] + p["losses"] + p["draws"] == 2
        assert 0 <= p["score"] <= 1 and p["interval"] in ("pentanomial", "trinomial", None)
        assert p["time_per_move"]["learnt"] > 0 and p["time_per_move"]["opponent"] > 0
        assert _pgn_games(folder / f"games-{n}.pgn") == 2
        assert json.loads((folder / f"summary-{n}.json").read_text())["games"] == 2
        # the player: the mean of the runs' snapshots (game 0: the initial weights, ones)
        mean = load_weights(folder / f"weights-{n}.json", "atomic").w
        if n == 0:
            assert mean[:5].tolist() == [1.0] * 5
        else:
            snaps = [load_weights(job / f"run-{r:02d}/snapshots/weights-{n}.json", "atomic").w
                     for r in range(2)]
            assert mean.tolist() == np.mean(snaps, axis=0).tolist()
        # learning's process time up to the point, summed over both runs
        cpu = sum(float(row["cpu_seconds"]) for r in range(2)
                  for row in _rows(job / f"run-{r:02d}/history.csv")[:n])
        assert p["cpu_hours"] * 3600 == pytest.approx(cpu)
        assert p["cpu_source"] == {"cpu_seconds": 2 if n else 0, "seconds": 0}
    assert data["points"][0]["cpu_hours"] == 0 < data["points"][1]["cpu_hours"] \
        < data["points"][3]["cpu_hours"]

    # Rerun as it was: nothing is played again.
    before = {name: b for name, b in _files(folder).items() if name.endswith(".pgn")}
    assert main(["curve", str(job), *CURVE]) == 0
    assert {name: b for name, b in _files(folder).items() if name.endswith(".pgn")} == before
    # A kill in the middle of a game left half of it: carried on to 4 games a point, the
    # finished games stay as they were and the torn one is played again.
    pgn = folder / "games-4.pgn"
    kept = pgn.read_bytes()
    with open(pgn, "a") as fh:
        fh.write('[Event "a game in progress"]\n[Round "3"]\n\n1. e4')
    assert main(["curve", str(job), *CURVE[:-1], "--games", "4"]) == 0
    for p in _curve(job)["points"]:
        path = folder / f"games-{p['games']}.pgn"
        assert p["games_played"] == 4 and _pgn_games(path) == 4
        assert path.read_bytes().startswith(before[path.name])
    assert pgn.read_bytes().startswith(kept) and b"in progress" not in pgn.read_bytes()
    capsys.readouterr()

    # Other settings are refused before a game is played, and change nothing.
    before = _files(folder)
    err = _error(capsys, "curve", str(job), *CURVE[:2], "--depth", "2")
    assert "depth 1" in err and str(folder) in err
    assert _files(folder) == before


def test_curves_of_two_learners_from_one_start_play_the_same_first_point(job, tmp_path):
    """One player name for every learner: the same tie-breaks, so the point of the
    initial weights is the same games whatever the method (a paired comparison)."""
    same, other = tmp_path / "same", tmp_path / "other"
    for folder in (same, other):
        shutil.copytree(job, folder, ignore=shutil.ignore_patterns(CURVE_DIR, "curve.json"))
    config = json.loads((other / "config.json").read_text())
    config["learn"]["method"] = "rootstrap"
    (other / "config.json").write_text(json.dumps(config))
    for folder in (same, other):
        assert main(["curve", str(folder), *CURVE]) == 0

    def moves(folder: Path) -> list[tuple[str, list[str]]]:
        games = []
        with open(folder / CURVE_DIR / "games-0.pgn") as fh:
            while (game := chess.pgn.read_game(fh)) is not None:
                games.append((game.headers["Result"], [m.uci() for m in game.mainline_moves()]))
        return games

    assert _curve(other)["method"] == "rootstrap"
    assert moves(other) == moves(same) and moves(same)


def test_a_labelled_curve_is_a_curve_of_its_own(job, tmp_path, capsys):
    """--label: another opponent's curve beside the first, in curve-LABEL/ and its .json;
    the figure takes the file."""
    run = tmp_path / "run"
    shutil.copytree(job, run, ignore=shutil.ignore_patterns(CURVE_DIR, "curve.json"))
    assert main(["curve", str(run), *CURVE]) == 0
    first = _files(run)
    assert main(["curve", str(run), *CURVE, "--opponent", "stockfish", "--label", "vs-sf"]) == 0
    assert str(run / "curve-vs-sf.json") in capsys.readouterr().out
    assert {k: v for k, v in _files(run).items() if k in first} == first   # untouched
    data = json.loads((run / "curve-vs-sf.json").read_text())
    assert (data["opponent"], data["label"], data["complete"]) == ("stockfish", "vs-sf", True)
    for p in data["points"]:
        assert p["pgn"] == f"curve-vs-sf/games-{p['games']}.pgn" and (run / p["pgn"]).exists()
    assert json.loads((run / "curve-vs-sf/settings.json").read_text())["opponent"] == "stockfish"
    # its settings bind it, not the unlabelled curve
    err = _error(capsys, "curve", str(run), *CURVE, "--label", "vs-sf")
    assert "stockfish" in err and "curve-vs-sf" in err
    assert main(["curve", str(run), *CURVE]) == 0
    capsys.readouterr()
    assert "--label" in _error(capsys, "curve", str(run), *CURVE, "--label", "../x")
    out = tmp_path / "fig"
    assert main(["plot", "--curves", str(run), str(run / "curve-vs-sf.json"),
                 "--out", str(out)]) == 0
    assert (out / "learning-curves.png").exists()


def test_curve_of_an_old_folder_counts_its_wall_time(job, tmp_path, capsys):
    """A run whose history.csv predates cpu_seconds counts its wall seconds, and says so."""
    out = _old_copy(job, tmp_path / "old")
    shutil.rmtree(out / CURVE_DIR, ignore_errors=True)
    (out / "curve.json").unlink(missing_ok=True)
    # run-00 has no snapshots: no point but the start, until its job is resumed
    err = _error(capsys, "curve", str(out), *CURVE)
    assert "no weight snapshots" in err and "run-00" in err and "--resume" in err
    shutil.copytree(job / "run-00" / "snapshots", out / "run-00" / "snapshots")
    assert main(["curve", str(out), *CURVE]) == 0
    points = _curve(out)["points"]
    assert [p["games"] for p in points] == [0, 2, 4, 6]
    wall = sum(float(r["seconds"]) for r in _rows(out / "run-00/history.csv")[:4])
    cpu = sum(float(r["cpu_seconds"]) for r in _rows(out / "run-01/history.csv")[:4])
    assert points[2]["cpu_source"] == {"cpu_seconds": 1, "seconds": 1}
    assert points[2]["cpu_hours"] * 3600 == pytest.approx(wall + cpu)


def test_bad_curve_input_is_one_line_errors(job, tmp_path, capsys):
    assert "not a folder" in _error(capsys, "curve", str(tmp_path / "nope"))
    assert "no config.json" in _error(capsys, "curve", str(tmp_path))
    assert "one run of a job" in _error(capsys, "curve", str(job / "run-00"))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "config.json").write_text('{"something": "else"}')
    assert "not a tdleaf learn configuration" in _error(capsys, "curve", str(tmp_path / "bad"))
    fresh = _new_job(tmp_path / "fresh", **TINY)
    assert "no weight snapshots" in _error(capsys, "curve", str(fresh))
    assert "--games" in _error(capsys, "curve", str(job), "--games", "0")
    # a bad opponent stops before any game and binds the folder to nothing
    copy = tmp_path / "copy"
    shutil.copytree(job, copy, ignore=shutil.ignore_patterns(CURVE_DIR, "curve.json"))
    err = _error(capsys, "curve", str(copy), "--opponent", "no-such-player")
    assert "--opponent" in err and "no-such-player" in err
    assert not (copy / CURVE_DIR).exists()
    # and every folder is checked before any is played
    assert "not a folder" in _error(capsys, "curve", str(copy), str(tmp_path / "nope"))
    assert not (copy / CURVE_DIR).exists()


# -- the figure ---------------------------------------------------------------------------------

def test_the_figure_of_several_curves(job, tmp_path, capsys):
    if not (job / "curve.json").exists():
        assert main(["curve", str(job), *CURVE]) == 0
    other = tmp_path / "treestrap"
    other.mkdir()
    data = _curve(job)
    # another learner's curve.json, as tdleaf curve writes it; one point won every game
    data["method"] = "treestrap-ab"
    data["points"][1].update(elo=None, elo_ci=None, score=1.0)
    (other / "curve.json").write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["plot", "--curves", str(job), str(other), "--out", str(tmp_path / "fig")]) == 0
    png = tmp_path / "fig" / "learning-curves.png"
    assert str(png) in capsys.readouterr().out
    with Image.open(png) as im:
        assert im.format == "PNG" and im.width > 800
    assert main(["plot", "--curves", str(job), "--format", "svg"]) == 0
    assert (job / "figures" / "learning-curves.svg").stat().st_size > 0
    curves = [{**data, "_file": "a/curve.json"}, {**data, "_file": "b/curve.json"}]
    assert _labels(curves) == ["treestrap-ab, material (a)", "treestrap-ab, material (b)"]
    curves[1]["init"] = "random"
    assert _labels(curves) == ["treestrap-ab, material, init ones",
                               "treestrap-ab, material, init random"]


def test_bad_figure_input_is_one_line_errors(job, tmp_path, capsys):
    if not (job / "curve.json").exists():     # measured by whichever test came first
        assert main(["curve", str(job), *CURVE]) == 0
        capsys.readouterr()
    assert "missing curve.json" in _error(capsys, "plot", "--curves", str(tmp_path))
    assert "no such folder" in _error(capsys, "plot", "--curves", str(tmp_path / "nope"))
    assert "--out" in _error(capsys, "plot", "--curves", str(job), str(job))
    assert "RUN_DIR" in _error(capsys, "plot")
    (tmp_path / "curve.json").write_text('{"points": []}')
    assert "no points" in _error(capsys, "plot", "--curves", str(tmp_path))
    (tmp_path / "curve.json").write_text('{"points": [{"games": 0}]}')
    assert "elo" in _error(capsys, "plot", "--curves", str(tmp_path))


def test_a_finished_job_resumed_keeps_the_temperatures_fitted_to_its_weights(job, tmp_path):
    out = tmp_path / "job"
    shutil.copytree(job, out)
    path = out / "weights.json"
    data = json.loads(path.read_text())
    data["meta"]["prior_temperature"] = {"0": 0.9}          # as `tdleaf bench prior --save`
    data["meta"]["prior_win_logit"] = {"0": 7.5}
    path.write_text(json.dumps(data))
    _learn(out)                                             # summarised again
    assert json.loads(path.read_text())["meta"]["prior_temperature"] == {"0": 0.9}
    assert json.loads(path.read_text())["meta"]["prior_win_logit"] == {"0": 7.5}
    # Only there: the normalised weights have another scale.
    for other in ("weights_std.json", "weights_normalised.json"):
        if (out / other).exists():
            assert "prior_temperature" not in json.loads((out / other).read_text())["meta"]
    # Fitted to other weights, they would not hold: dropped.
    data["material"]["P"] = data["material"]["P"] + 1.0
    path.write_text(json.dumps(data))
    _learn(out)
    assert not {"prior_temperature", "prior_win_logit"} & set(json.loads(path.read_text())["meta"])
    assert load_weights(str(path), "atomic").meta["games"] == 6
