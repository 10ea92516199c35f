"""A real Ray cluster for the tests: the one CI starts (``ray start --head`` with 2 CPUs,
named by TDLEAF_RAY_ADDRESS), or one started here, and the processes of this machine
that belong to it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: Ray's token authentication (Ray >= 2.52): the heads and drivers of the tests use it.
AUTH = {"RAY_AUTH_MODE": "token"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def processes(needle: str, where: tuple[str, ...] = ("cmdline",)) -> list[int]:
    """Ids of this machine's processes whose command line (or environment, with
    ``where``) contains ``needle``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for name in where:
            try:
                if needle.encode() in (entry / name).read_bytes():
                    found.append(int(entry.name))
                    break
            except OSError:
                continue
    return found


def actor_processes() -> list[int]:
    """The processes of tdleaf's Ray workers (Ray titles an actor's process
    ``ray::<class>``: tdleaf.backend.cluster's is ``_Worker``)."""
    pids = []
    for pid in processes("ray::_Worker"):
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::_Worker"):
                pids.append(pid)
        except OSError:
            continue
    return pids


class Head:
    """A Ray head started here with ``cpus`` CPUs and the environment ``env`` (its workers
    inherit it: a PATH without an engine, say); :meth:`stop` ends every process it
    started, found by a marker in their environment."""

    def __init__(self, cpus: int = 2, env: dict[str, str] | None = None) -> None:
        # Short: Ray puts unix sockets below it, and their paths are limited to 107 bytes.
        self.tmp = tempfile.mkdtemp(prefix="tdh-", dir="/tmp")
        port = _free_port()
        self.address = f"127.0.0.1:{port}"
        self.env = dict(env if env is not None else os.environ)
        self.env.update(AUTH, TDLEAF_TEST_HEAD=self.tmp, RAY_TMPDIR=self.tmp)
        ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or "ray"
        # The token the head and its drivers share (~/.ray/auth_token), made if missing.
        subprocess.run([ray, "get-auth-token", "--generate"], env=self.env, check=False,
                       capture_output=True, timeout=120)
        cmd = [ray, "start", "--head", f"--port={port}", f"--num-cpus={cpus}",
               f"--temp-dir={self.tmp}", "--include-dashboard=false",
               f"--ray-client-server-port={_free_port()}",
               f"--dashboard-agent-listen-port={_free_port()}", "--disable-usage-stats"]
        out = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=120,
                             check=False)
        if out.returncode != 0:
            self.stop()
            raise RuntimeError(f"ray start failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")

    def stop(self) -> None:
        for _ in range(3):
            pids = processes(self.tmp, ("cmdline", "environ"))
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if not pids:
                break
            time.sleep(0.5)
        shutil.rmtree(self.tmp, ignore_errors=True)


def driver_env(path: str | None = None) -> dict[str, str]:
    """The environment of a `tdleaf` driver in a subprocess: this checkout first on the
    path, Ray's authentication as the heads have it."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(AUTH)
    env.pop("RAY_ADDRESS", None)
    if path is not None:
        env["PATH"] = path
    return env


def tdleaf(*args: str, env: dict[str, str] | None = None, timeout: float = 600,
           ) -> subprocess.CompletedProcess:
    """Run ``tdleaf ARGS`` (this interpreter) to its end."""
    return subprocess.run([sys.executable, "-m", "tdleaf", *args], env=env or driver_env(), check=False,
                          capture_output=True, text=True, timeout=timeout)


def start_tdleaf(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``tdleaf ARGS`` (this interpreter) in a session of its own."""
    return subprocess.Popen([sys.executable, "-m", "tdleaf", *args], env=env or driver_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def kill_session(proc: subprocess.Popen) -> str:
    """SIGKILL the session ``proc`` leads (``start_new_session``) and return what it wrote
    to stderr: a hung job's last words for a test's failure message."""
    os.killpg(proc.pid, signal.SIGKILL)
    return proc.communicate()[1]
