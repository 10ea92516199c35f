"""Refresh the shipped reference weights (search/data/reference/) from runs/reference/.

For every set of search/data/manifest.json, copies the files the engine reads
(``weights.json``, ``summary.json``) from its ``source`` folder, byte for byte; run
folders and figures stay in runs/. ``--add VARIANT/KIND`` first adds a set to the
manifest (``--default`` makes it the variant's default), for a new variant or feature
set learnt into runs/reference/VARIANT/KIND; ``--set-default VARIANT/NAME`` makes a
shipped set, or ``avg-psq`` (its tables' averages), the default. tests/test_shipped.py
checks the copies.

    python tests/data/make_shipped.py [--add crazyhouse/psq [--default]] [--check]
    python tests/data/make_shipped.py --set-default horde/avg-psq
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from search.shipped import AVERAGE, AVERAGED_KIND

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "search" / "data"
MANIFEST = DATA / "manifest.json"
#: What the engine reads of a result folder (the manifest's keys and file names).
FILES = {"weights": "weights.json", "summary": "summary.json"}


def planned_copies(manifest: dict) -> list[tuple[Path, Path]]:
    """(source, shipped copy) of every file a manifest names."""
    out = []
    for sets in manifest["variants"].values():
        for entry in sets["sets"].values():
            for key, name in FILES.items():
                out.append((ROOT / entry["source"] / name, DATA / entry[key]))
    return out


def add_set(manifest: dict, spec: str, default: bool) -> None:
    variant, sep, kind = spec.partition("/")
    if not sep or not variant or not kind or "/" in kind:
        raise SystemExit(f"--add expects VARIANT/KIND, e.g. crazyhouse/psq; got {spec!r}")
    source = f"runs/reference/{variant}/{kind}"
    if not (ROOT / source / "weights.json").exists():
        raise SystemExit(f"--add {spec}: {source}/weights.json does not exist")
    entry = manifest["variants"].setdefault(variant, {"default": kind, "sets": {}})
    entry["sets"][kind] = {key: f"reference/{variant}/{kind}/{name}" for key, name in FILES.items()}
    entry["sets"][kind]["source"] = source
    if default:
        entry["default"] = kind


def set_default(manifest: dict, spec: str) -> None:
    variant, _, name = spec.partition("/")
    sets = manifest["variants"].get(variant, {}).get("sets", {})
    needed = AVERAGED_KIND if name == AVERAGE else name
    if needed not in sets:
        raise SystemExit(f"--set-default {spec}: {variant} ships no {needed!r} set "
                         f"(shipped: {', '.join(sets) or 'none'})")
    manifest["variants"][variant]["default"] = name


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--add", action="append", default=[], metavar="VARIANT/KIND",
                   help="add a reference set to the manifest first (repeatable)")
    p.add_argument("--default", action="store_true", help="make the added set(s) the default")
    p.add_argument("--set-default", action="append", default=[], metavar="VARIANT/NAME",
                   help=f"make a shipped set, or {AVERAGE} (its tables' averages), the "
                        f"variant's default (repeatable)")
    p.add_argument("--check", action="store_true",
                   help="only report copies that differ from their source (exit 1 if any)")
    args = p.parse_args(argv)
    manifest = json.loads(MANIFEST.read_text())
    if args.add or args.set_default:
        if args.check:
            raise SystemExit("--check does not change the manifest: drop --add/--set-default")
        for spec in args.add:
            add_set(manifest, spec, args.default)
        for spec in args.set_default:
            set_default(manifest, spec)
        manifest["variants"] = dict(sorted(manifest["variants"].items()))
        MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    stale = 0
    for source, copy in planned_copies(manifest):
        if not source.exists():
            raise SystemExit(f"{source.relative_to(ROOT)}: missing (named by the manifest)")
        if copy.exists() and copy.read_bytes() == source.read_bytes():
            continue
        stale += 1
        if args.check:
            print(f"differs: {copy.relative_to(ROOT)} (from {source.relative_to(ROOT)})")
        else:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
            print(f"copied {source.relative_to(ROOT)} -> {copy.relative_to(ROOT)}")
    listed = {(v, k) for v, e in manifest["variants"].items() for k in e["sets"]}
    for found in sorted((ROOT / "runs" / "reference").glob("*/*/weights.json")):
        v, k = found.parent.parent.name, found.parent.name
        if (v, k) not in listed:
            print(f"note: runs/reference/{v}/{k} is not shipped (add it with --add {v}/{k})",
                  file=sys.stderr)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
