"""The ladders' evidence is whole and counts as recorded: every rung folder committed
under ``runs/`` keeps its games packed (``batches.json`` and ``games.pgn.gz``, a gzip
member a batch: :mod:`tdleaf.play.ladder`), and what its ``ladder.json`` records of the
rung (games, wins, losses, draws; each opponent setting's games and points; the
failures) is what its games give, recounted here through the one reader of match files
(:mod:`tdleaf.play.pgn`, tdleaf's score as a match counts it: disputed games left out),
each batch's games against the setting ``batches.json`` names. The games are no longer a
file a batch, and the checkout stays under :data:`MAX_FILES` files.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tdleaf.play.gamefiles import read_members
from tdleaf.play.ladder import RUNG_GAMES, Rung, resolve_engine, rung_batches
from tdleaf.play.match import stored_outcome
from tdleaf.play.pgn import parse_games, read_games

ROOT = Path(__file__).resolve().parent.parent
#: The most files the repository may track: evidence is packed, not a file a game.
MAX_FILES = 5000
#: A batch's own PGN, the layout before ``games.pgn.gz``.
BATCH_FILE = re.compile(r"(^|/)b[0-9]{3}\.pgn$")


@cache
def tracked() -> list[str] | None:
    """The files git tracks, or None outside a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    return done.stdout.splitlines() if done.returncode == 0 else None


def rung_folders() -> list[Path]:
    """Every rung folder under ``runs/`` (one with a ``batches.json``): the tracked ones in
    a git checkout, else those on disk."""
    files = tracked()
    if files is None:
        return sorted(p.parent for p in (ROOT / "runs").rglob("batches.json"))
    return sorted(ROOT / Path(f).parent for f in files
                  if f.startswith("runs/") and f.endswith("/batches.json"))


def recorded_rungs() -> dict[Path, dict[str, Any]]:
    """Each rung that a ``ladder.json`` under ``runs/`` records, by its folder: the
    ladder's ``<variant>-<engine label>`` folder, the rung's slug below it."""
    out = {}
    for record in sorted((ROOT / "runs").glob("*/*/ladder.json")):
        for ladder in json.loads(record.read_text()).get("ladders", []):
            slug = f"{ladder['variant']}-{resolve_engine(ladder['engine_spec'])[0]}"
            for rung in ladder["rungs"]:
                ((kind, value),) = rung["level"].items()
                out[record.parent / slug / Rung(kind, value).slug] = rung
    return out


def recount(folder: Path) -> dict[str, Any]:
    """What a ladder records of a rung, counted from its games: tdleaf's wins, losses
    and draws, each opponent setting's games and points, the failures (resignations
    aside, as :meth:`RungResult.to_json` counts them)."""
    points: list[float] = []
    opponents: dict[str, dict[str, Any]] = {}
    failures: dict[str, int] = {}
    for entry, text in rung_batches(folder):
        for outcome in map(stored_outcome, parse_games(text)):
            if outcome.disputed:
                continue
            points.append(outcome.a_score)
            opponent = opponents.setdefault(entry["setting"], {"games": 0, "points": 0.0})
            opponent["games"] += 1
            opponent["points"] += outcome.a_score
            if outcome.failure and outcome.failure != "resign":
                key = f"{outcome.failure} ({'tdleaf' if outcome.failed_a else 'engine'})"
                failures[key] = failures.get(key, 0) + 1
    return {"games": len(points), "wins": points.count(1.0), "losses": points.count(0.0),
            "draws": points.count(0.5), "opponents": opponents, "failures": failures}


def recorded(rung: dict[str, Any]) -> dict[str, Any]:
    """The same of a rung as its ladder.json records it."""
    return {**{k: rung[k] for k in ("games", "wins", "losses", "draws", "failures")},
            "opponents": {o["setting"]: {"games": o["games"], "points": o["points"]}
                          for o in rung["opponents"]}}


def test_every_rung_folder_is_packed_and_whole():
    folders = rung_folders()
    assert len(folders) > 200, "the committed ladders' rungs are found"
    for folder in folders:
        manifest = json.loads((folder / "batches.json").read_text())
        assert [(e["batch"], e["pgn"], e["member"]) for e in manifest] == [
            (k, RUNG_GAMES, k) for k in range(1, len(manifest) + 1)], folder
        assert len(read_members(folder / RUNG_GAMES)) == len(manifest), folder
        assert not list(folder.glob("b[0-9][0-9][0-9].pgn")), folder


@pytest.mark.slow
def test_every_rung_recounts_as_its_ladder_records():
    rungs = recorded_rungs()
    folders = rung_folders()
    assert set(folders) <= set(rungs), "a rung folder that no ladder.json records"
    for folder in folders:
        assert recount(folder) == recorded(rungs[folder]), folder.relative_to(ROOT)


def test_the_rung_file_reads_as_its_batches_do():
    """The whole file read at once gives the batches' games in order (a torn member
    would end it early)."""
    for folder in rung_folders()[::25]:
        assert read_games(folder / RUNG_GAMES) == [
            g for _, text in rung_batches(folder) for g in parse_games(text)], folder


def test_no_batch_is_a_file_of_its_own():
    files = tracked()
    if files is None:
        pytest.skip("not a git checkout")
    assert [f for f in files if f.startswith("runs/") and BATCH_FILE.search(f)] == []


def test_the_checkout_stays_small():
    files = tracked()
    if files is None:
        pytest.skip("not a git checkout")
    assert len(files) <= MAX_FILES, f"{len(files)} tracked files"
