"""`tdleaf net data`: self-play labelled by the search, written in shards with a
manifest; the same data on every backend and after a kill and --resume; clear errors on
a corrupt shard, another encoding, other settings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from search.mcts import encoding as enc
from tdleaf.backend import Backend
from tdleaf.cli import main
from tdleaf.net.data import DataConfig, DataError, is_validation, read_data, write_data
from variants import Position, core

REPO = Path(__file__).resolve().parent.parent
#: A tiny data set: atomic games at depth 1, in shards of three games.
CFG = {"variant": "atomic", "games": 7, "depth": 1, "games_per_shard": 3, "seed": 2}


@pytest.fixture(scope="module")
def here(tmp_path_factory):
    out = tmp_path_factory.mktemp("netdata") / "here"
    write_data(out, DataConfig(**CFG), Backend())
    return out


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k, value in a.items():
        np.testing.assert_array_equal(value, b[k], err_msg=k)


def test_every_position_is_labelled_as_its_search_and_prior_say(here):
    manifest, data = read_data(here, "atomic")
    assert manifest["games"] == 7 and [s["games"] for s in manifest["shards"]] == \
        [[0, 3], [3, 6], [6, 7]]
    assert manifest["encoding_version"] == enc.ENCODING_VERSION
    n = len(data["best"])
    assert n == manifest["positions"] > 50
    keys = data["bb"][:, core.HASH]
    assert len(set(keys.tolist())) == n                  # no position twice
    starts = np.concatenate([[0], np.cumsum(data["n_legal"].astype(np.int64))])
    for i in range(0, n, 7):
        pos = Position("atomic", data["bb"][i].copy(), data["st"][i].astype(np.int64), "")
        _, legal = enc.legal_indices(pos)
        mine = data["legal"][starts[i]:starts[i + 1]]
        assert sorted(legal.tolist()) == sorted(mine.tolist())
        assert data["best"][i] in mine
        assert data["prior"][starts[i]:starts[i + 1]].sum() == pytest.approx(1.0, abs=1e-5)
    assert set(np.unique(data["z"]).tolist()) <= {-1, 0, 1}
    # The result for the side to move alternates with the side to move within a game.
    for g in np.unique(data["game"]):
        rows = np.flatnonzero(data["game"] == g)
        turns = data["st"][rows, core.TURN]
        white = data["z"][rows] * np.where(turns == 0, 1, -1)
        assert len(set(white.tolist())) == 1
    assert [is_validation(g) for g in range(10)].count(True) == 1


@pytest.mark.slow
def test_two_workers_write_the_same_data(here, tmp_path):
    write_data(tmp_path / "two", DataConfig(**CFG), Backend(workers=2))
    _same(read_data(here)[1], read_data(tmp_path / "two")[1])


def test_a_killed_job_resumes_to_the_same_data(here, tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "tdleaf", "net", "data", "--variant", "atomic", "--games", "7",
           "--depth", "1", "--games-per-shard", "3", "--seed", "2", "--no-progress",
           "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300       # a liveness bound, not a timing
    while not list(out.glob("pending/game-*.npz")):    # a game journalled: kill it there
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert main(["net", "data", "--variant", "atomic", "--games", "7", "--depth", "1",
                 "--games-per-shard", "3", "--seed", "2", "--no-progress", "--resume",
                 "--out", str(out)]) == 0
    _same(read_data(here)[1], read_data(out)[1])
    assert not list((out / "pending").iterdir())


def test_bad_data_is_refused_with_a_clear_error(here, tmp_path, capsys):
    with pytest.raises(DataError, match="not crazyhouse|holds atomic positions, not crazyhouse"):
        read_data(here, "crazyhouse")
    # Other settings on --resume.
    with pytest.raises(DataError, match="other settings"):
        write_data(here, DataConfig(**{**CFG, "depth": 2}), Backend(), resume=True)
    # Without --resume, a folder with data.
    assert main(["net", "data", "--variant", "atomic", "--games", "7", "--out", str(here)]) == 2
    assert "--resume" in capsys.readouterr().err
    # A shard changed on disk: its digest; a shard that is not one: unreadable.
    bad = tmp_path / "bad"
    bad.mkdir()
    for p in here.iterdir():
        if p.is_file():
            (bad / p.name).write_bytes(p.read_bytes())
    shard = bad / "shard-00000.npz"
    shard.write_bytes(shard.read_bytes()[:-10] + b"0123456789")
    with pytest.raises(DataError, match="sha256"):
        read_data(bad)
    manifest = json.loads((bad / "manifest.json").read_text())
    manifest["shards"][0]["sha256"] = __import__("hashlib").sha256(shard.read_bytes()).hexdigest()
    (bad / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="not a readable data shard"):
        read_data(bad)
    # Another encoding version.
    manifest["encoding_version"] = 0
    (bad / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="encoding version 0"):
        read_data(bad)
    with zipfile.ZipFile(here / "shard-00001.npz") as z:
        assert "encoding_version.npy" in z.namelist()
    assert main(["net", "data", "--variant", "nosuchchess", "--games", "1",
                 "--out", str(tmp_path / "x")]) == 2
    assert "unknown variant" in capsys.readouterr().err


@pytest.mark.slow
def test_the_teacher_benchmark(capsys):
    """The depth-D search's top-1 against the labels, with its interval."""
    assert main(["bench", "teacher", "--variant", "atomic", "--depth", "1", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    (d,) = row["depths"]
    assert row["positions"] == 2000 and d["depth"] == 1
    assert 0.0 < d["top1"] < 1.0 and d["top1_ci"][0] < d["top1"] < d["top1_ci"][1]
