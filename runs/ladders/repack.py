"""Pack the ladders' games: one ``games.pgn.gz`` a rung instead of one PGN a batch.

    python runs/ladders/repack.py [FOLDER ...] [--no-git]

Ladders measured before the games were packed keep a rung's batches as ``b001.pgn``,
``b002.pgn``, ... beside ``batches.json`` (entries with ``"file": "b001.pgn"``): some
twenty thousand files in all, one a batch of two games. This script, run once, packs
every rung folder under the FOLDERs (default: runs/ladders) into the layout
:mod:`tdleaf.play.ladder` writes now: ``games.pgn.gz``, whose member k is the exact bytes
of batch k's file, and ``batches.json`` with ``"pgn": "games.pgn.gz", "member": k``
instead of ``"file"``.

Nothing is deleted before it is checked: each member, read back through
:mod:`tdleaf.play.pgn` (the one reader of match files), must be byte for byte its batch's
file and give the same games (rounds, players, results, plies, times, settings); only
then are the batch files removed, with ``git rm`` (and the new files ``git add``-ed)
unless ``--no-git``; ``batches.json`` is rewritten after the check, so a run stopped
anywhere can be run again (a folder already packed is left as it is).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from search.files import write_bytes, write_json
from tdleaf.play.gamefiles import gzip_member, read_members
from tdleaf.play.ladder.measure import RUNG_GAMES
from tdleaf.play.pgn import parse_games, read_games

ROOT = Path(__file__).resolve().parents[2]


class RepackError(RuntimeError):
    """A rung folder that cannot be packed as it is, or whose packed games differ."""


def unpacked_rungs(roots: list[Path]) -> list[Path]:
    """The rung folders under ``roots`` still in the old layout (a ``"file"`` entry)."""
    found = []
    for root in roots:
        for manifest in sorted(root.rglob("batches.json")):
            entries = json.loads(manifest.read_text())
            if any("file" in e for e in entries):
                found.append(manifest.parent)
    return found


def batch_files(folder: Path, manifest: list[dict[str, Any]]) -> list[Path]:
    """The batch files in manifest order; every ``b*.pgn`` of the folder must be one."""
    files = [folder / e["file"] for e in manifest]
    if [e["batch"] for e in manifest] != list(range(1, len(manifest) + 1)):
        raise RepackError(f"{folder}: batches.json's batches are not 1, 2, ... in order")
    missing = [f.name for f in files if not f.exists()]
    if missing:
        raise RepackError(f"{folder}: batches.json names missing files {missing}")
    strays = sorted(set(folder.glob("b*.pgn")) - set(files))
    if strays:
        raise RepackError(f"{folder}: {[s.name for s in strays]} are not in batches.json")
    return files


def packed_manifest(manifest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The manifest's entries with ``"pgn"`` and ``"member"`` where ``"file"`` was."""
    out = []
    for entry in manifest:
        new = {"batch": entry["batch"], "pgn": RUNG_GAMES, "member": entry["batch"]}
        new.update((k, v) for k, v in entry.items() if k not in ("batch", "file"))
        out.append(new)
    return out


def verify(packed: Path, files: list[Path]) -> None:
    """Each member of ``packed`` is its batch file's bytes and gives its games; the
    whole file gives them all, in order."""
    members = read_members(packed)
    if len(members) != len(files):
        raise RepackError(f"{packed}: {len(members)} members for {len(files)} batches")
    every = []
    for member, file in zip(members, files):
        if member.encode("utf-8") != file.read_bytes():
            raise RepackError(f"{packed}: the member of {file.name} is not its bytes")
        games = read_games(file)
        if parse_games(member) != games:
            raise RepackError(f"{packed}: the member of {file.name} gives other games")
        every += games
    if read_games(packed) != every:
        raise RepackError(f"{packed}: its games are not the batches' games")


def repack(folder: Path, use_git: bool) -> int:
    """Pack one rung folder; the number of batch files it replaced."""
    manifest_path = folder / "batches.json"
    manifest = json.loads(manifest_path.read_text())
    files = batch_files(folder, manifest)
    packed = folder / RUNG_GAMES
    if not packed.exists():      # else left by a run stopped before the manifest: checked
        write_bytes(packed, b"".join(gzip_member(f.read_bytes()) for f in files))
    verify(packed, files)
    write_json(manifest_path, packed_manifest(manifest), indent=2)
    if use_git:
        _git("rm", "--quiet", "--", *[str(f) for f in files])
        _git("add", "--", str(packed), str(manifest_path))
    else:
        for f in files:
            f.unlink()
    return len(files)


def _git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[ROOT / "runs" / "ladders"],
                        help="where to look for rung folders (default runs/ladders)")
    parser.add_argument("--no-git", action="store_true",
                        help="delete the batch files without `git rm`, add nothing to git")
    args = parser.parse_args(argv)
    rungs = unpacked_rungs([f.resolve() for f in args.folders])
    replaced = 0
    for k, folder in enumerate(rungs, 1):
        try:
            replaced += repack(folder, not args.no_git)
        except RepackError as exc:
            print(f"repack: {exc}", file=sys.stderr)
            return 1
        print(f"{k}/{len(rungs)} {folder}", file=sys.stderr)
    print(f"packed {len(rungs)} rungs: {replaced} batch files replaced by {len(rungs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
