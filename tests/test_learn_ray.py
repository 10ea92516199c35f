"""`tdleaf learn --backend ray` on a real local Ray instance.

CI installs ``tdleaf[test,ray]`` and sets CI=true: there a missing Ray is a failure. On a
machine without Ray the test is skipped (only when CI is not "true").

The job runs as the `tdleaf` command in a subprocess, so the Ray instance it starts with
``ray.init()`` belongs to that process and ends with it. Ray's files go to a fresh short
temporary folder (RAY_TMPDIR), which also identifies any Ray process the job left behind:
the test fails if there is one (after ending it by its process id).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from search.layout import PIECES
from tdleaf.cli import main

from helpers_ray import kill_session

if os.environ.get("CI") != "true":
    pytest.importorskip("ray")

#: They start Ray heads and count the machine's Ray workers: in turn (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("machine")

REPO = Path(__file__).resolve().parent.parent
#: Two runs of six suicide games at depth 1: seconds of play, the rest is Ray's start-up.
JOB = ["--variant", "suicide", "--depth", "1", "--games", "6", "--runs", "2", "--seed", "5"]


def _processes_mentioning(text: str) -> list[int]:
    """Ids of the processes whose command line or environment contains ``text`` (Ray's
    workers rename themselves, but inherit RAY_TMPDIR)."""
    pids = []
    needle = text.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for name in ("cmdline", "environ"):
            try:
                if needle in (entry / name).read_bytes():
                    pids.append(int(entry.name))
                    break
            except OSError:
                continue
    return pids


@pytest.fixture
def ray_tmpdir():
    # Short: Ray puts unix sockets below it, and their paths are limited to 107 bytes.
    path = tempfile.mkdtemp(prefix="tdray-", dir="/tmp")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("learner", [
    [],                                                         # TDLeaf, material
    ["--method", "treestrap-ab", "--features", "psq+mobility"],  # bootstrapping, a leaf block
], ids=["tdleaf", "treestrap-ab"])
@pytest.mark.ray
def test_learn_on_a_local_ray_instance(tmp_path, ray_tmpdir, learner):
    try:
        import ray  # noqa: F401
    except ImportError as exc:      # only reached in CI, where it is a failure
        pytest.fail(f"CI must have Ray (pip install -e '.[test,ray]'): {exc}")
    out = tmp_path / "ray-job"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["RAY_TMPDIR"] = ray_tmpdir
    env.pop("RAY_ADDRESS", None)
    cmd = [sys.executable, "-m", "tdleaf", "learn", "--no-progress", "--no-plot",
           "--backend", "ray", *JOB, *learner, "--out", str(out)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=400)
    except subprocess.TimeoutExpired:
        stderr = kill_session(proc)
        pytest.fail(f"tdleaf learn --backend ray did not finish in 400 s:\n{stderr[-3000:]}")
    finally:
        # Whatever Ray left running (it names our temp folder on its command lines).
        leftovers = []
        for _ in range(50):            # Ray's daemons take a moment to exit after the driver
            leftovers = _processes_mentioning(ray_tmpdir)
            if not leftovers:
                break
            time.sleep(0.2)
        for pid in leftovers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert proc.returncode == 0, stderr[-3000:]
    assert "Ray at" in stdout
    assert not leftovers, f"Ray processes left running: {leftovers}"

    # The run folders and the averaged weights.
    W = []
    for r in ("run-00", "run-01"):
        ck = json.loads((out / r / "checkpoint.json").read_text())
        assert ck["games"] == 6
        assert len((out / r / "history.csv").read_text().splitlines()) == 1 + 6
        assert (out / r / "games.pgn").read_text().count('[Variant "Suicide"]') == 6
        assert (out / r / "weights.json").exists()
        W.append(ck["w"])
    W = np.array(W)
    mean = json.loads((out / "weights.json").read_text())
    std = json.loads((out / "weights_std.json").read_text())
    for i, p in enumerate(PIECES):
        assert np.isfinite(mean["material"][p])
        assert mean["material"][p] == pytest.approx(W[:, i].mean(), rel=1e-12, abs=1e-15)
        assert std["material"][p] == pytest.approx(W[:, i].std(), rel=1e-12, abs=1e-15)
    assert mean["meta"]["runs"] == 2 and not np.array_equal(W[0], W[1])
    assert json.loads((out / "summary.json").read_text())["material"] == mean["material"]

    # Ray workers play exactly the games of local ones: same seed, same results.
    local = tmp_path / "local-job"
    assert main(["learn", "--no-progress", "--no-plot", *JOB, *learner, "--workers", "1",
                 "--out", str(local)]) == 0
    for r in ("run-00", "run-01"):
        assert (out / r / "games.pgn").read_bytes() == (local / r / "games.pgn").read_bytes()
        assert json.loads((out / r / "checkpoint.json").read_text()) == \
            json.loads((local / r / "checkpoint.json").read_text())
    assert json.loads((out / "weights.json").read_text()) == \
        json.loads((local / "weights.json").read_text())


def test_learn_on_ray_without_ray_says_how_to_install_it(tmp_path):
    """Where Ray is not installed, ``--backend ray`` fails at once with the install
    command, no traceback, and nothing learnt (Ray hidden from a fresh process)."""
    code = ("import sys; sys.modules['ray'] = None\n"
            "from tdleaf.cli import main\n"
            f"sys.exit(main(['learn', *{JOB!r}, '--backend', 'ray', '--no-progress', "
            f"'--out', {str(tmp_path / 'job')!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True, cwd=REPO, timeout=300)
    assert proc.returncode != 0
    assert "pip install 'tdleaf[ray]'" in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert not list(tmp_path.rglob("weights.json"))
