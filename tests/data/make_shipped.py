"""Refresh the shipped reference weights (search/data/reference/) from runs/reference/.

For every set of search/data/manifest.json, copies the files the engine reads
(``weights.json``, ``summary.json``) from its ``source`` folder, byte for byte; run
folders and figures stay in runs/. ``--add VARIANT/KIND`` first adds a set to the
manifest (``--default`` makes it the variant's default), for a new variant or feature
set learnt into runs/reference/VARIANT/KIND; ``--set-default VARIANT/NAME`` makes a
shipped set, or ``avg-psq`` (its tables' averages), the default. ``--network
VARIANT=RUNDIR`` ships the ONNX file of a training folder (``tdleaf net export RUNDIR``
wrote ``RUNDIR/network.onnx``) as ``networks/VARIANT.onnx`` with its sha256 (the file is
the shipped copy: training folders keep no network in git). tests/test_shipped.py
checks the copies.

    python tests/data/make_shipped.py [--add crazyhouse/psq [--default]] [--check]
    python tests/data/make_shipped.py --set-default horde/avg-psq
    python tests/data/make_shipped.py --network atomic=runs/net/atomic
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from search.mcts.encoding import ENCODING_VERSION
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


def add_network(manifest: dict, spec: str) -> None:
    """Ship ``RUNDIR/network.onnx`` for ``VARIANT`` (``spec`` is ``VARIANT=RUNDIR``)."""
    import hashlib
    variant, sep, rundir = spec.partition("=")
    source = ROOT / rundir / "network.onnx"
    if not sep or not source.is_file():
        raise SystemExit(f"--network expects VARIANT=RUNDIR with RUNDIR/network.onnx "
                         f"('tdleaf net export RUNDIR'); got {spec!r}")
    data = source.read_bytes()
    target = DATA / "networks" / f"{variant}.onnx"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    entry = manifest["variants"].setdefault(variant, {"sets": {}})
    entry["network"] = {"file": f"networks/{variant}.onnx",
                        "sha256": hashlib.sha256(data).hexdigest(),
                        "encoding_version": ENCODING_VERSION, "source": rundir,
                        "card": f"docs/models.md#{variant}"}
    print(f"shipped {rundir}/network.onnx -> {target.relative_to(ROOT)}")


CARDS = ROOT / "docs" / "models.md"
CARDS_HEAD = """\
# The shipped networks

[index](index.md) · [network](network.md)

A model card for each network in the package (`search/data/networks/`, named in
`search/data/manifest.json` with its sha256), written from its training folder by
`python tests/data/make_shipped.py` (tests/test_shipped.py checks that this page is
current). How the data, the training and the measurement work: [network](network.md);
the experiments behind the choices (teacher depth, sweep, ablation): RESULTS.md, "A
network taught by tdleaf".

```pycon
>>> from search.mcts.network import open_network
>>> net = open_network("shipped", "atomic")      # checked against the manifest's sha256
>>> net.metadata["variant"], net.metadata["encoding_version"]
('atomic', '1')
```
"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_card(variant: str, entry: dict) -> str:
    """The model card of ``variant``'s shipped network, from its training folder and its
    data's evidence (runs/net/data/<data set>/)."""
    import csv
    run = ROOT / entry["source"]
    info = json.loads((run / "config.json").read_text())
    data = json.loads((ROOT / "runs/net/data" / Path(info["data"]).name / "manifest.json").read_text())
    ev = json.loads((run / "eval.json").read_text())
    with open(run / "history.csv") as fh:
        history = list(csv.DictReader(fh))
    last = history[-1]
    t, d = info["train"], data["config"]
    size = (DATA / entry["file"]).stat().st_size
    items = [
        (f"**File**: `search/data/{entry['file']}`, {size:,} bytes, sha256 "
         f"`{entry['sha256']}`; encoding version {entry['encoding_version']}."),
        (f"**Network**: {t['channels']} channels x {t['blocks']} residual blocks, a "
         f"convolutional policy head over the 84 x 64 move map, a tanh value head "
         f"({info['parameters']:,} parameters); ONNX, run by onnxruntime."),
        (f"**Teacher**: tdleaf's {d['teacher']} evaluation for {variant} playing itself with "
         f"the selective search at depth {d['depth']}; {d['random_plies']} random opening "
         f"plies, a prior-sampled move with probability {d['sample']}, games to "
         f"{d['max_plies']} plies, seed {d['seed']}."),
        (f"**Data**: {data['games']:,} games, {data['positions']:,} positions "
         f"({data['duplicates']:,} repeated ones left out); trained on the first "
         f"{info['positions']:,}: {info['train_positions']:,} for training, "
         f"{info['val_positions']:,} (every tenth game) held out."),
        (f"**Training**: {len(history)} epochs, batch {t['batch']}, AdamW with a one-cycle "
         f"schedule peaking at {t['lr']}, weight decay {t['weight_decay']}; policy target "
         f"beta {t['beta']}, value target q {t['q']}, value weight {t['value_weight']}; "
         f"seed {t['seed']}, {t['threads']} thread; "
         f"{float(last['cpu_seconds']) / 3600:.2f} CPU hours."),
        (f"**Held out** (self-play games): top-1 against the teacher's move "
         f"{_pct(float(last['val_top1']))}, value squared error "
         f"{float(last['val_value_mse']):.3f}."),
        (f"**Fairy-Stockfish's moves** ({ev['net']['positions']:,} positions of "
         f"`{Path(ev['positions_file']).name}`, {ev['label']}; no network trains on them):"),
    ]
    lines = [f"## {variant}", "", *(f"- {x}" for x in items), "",
             "| policy | top-1 | log-likelihood | value Brier |", "|---|---|---|---|"]
    names = [("net", "this network"), ("prior_depth_0", "prior, depth 0"),
             ("prior_depth_1", "prior, depth 1"), ("uniform", "uniform"),
             ("teacher", f"teacher (search, depth {d['depth']})")]
    for key, name in names:
        if key in ev:
            x = ev[key]
            ll = "-" if x.get("loglik") is None else f"{x['loglik']:.3f}"
            br = "-" if x.get("brier") is None else f"{x['brier']:.3f}"
            lines.append(f"| {name} | {_pct(x['top1'])} | {ll} | {br} |")
    commands = (run / "commands.sh").read_text().strip().splitlines()
    lines += ["", (f"Evidence: `{entry['source']}/` (config, history, evaluation) and "
                   f"`runs/net/data/{Path(info['data']).name}/` (the data's manifest and "
                   f"time). Made with:"), "", "```sh", *commands, "```", ""]
    return "\n".join(lines)


def render_cards(manifest: dict) -> str:
    cards = [render_card(v, e["network"]) for v, e in sorted(manifest["variants"].items())
             if "network" in e]
    return CARDS_HEAD + "".join("\n" + c for c in cards)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--add", action="append", default=[], metavar="VARIANT/KIND",
                   help="add a reference set to the manifest first (repeatable)")
    p.add_argument("--default", action="store_true", help="make the added set(s) the default")
    p.add_argument("--set-default", action="append", default=[], metavar="VARIANT/NAME",
                   help=f"make a shipped set, or {AVERAGE} (its tables' averages), the "
                        f"variant's default (repeatable)")
    p.add_argument("--network", action="append", default=[], metavar="VARIANT=RUNDIR",
                   help="ship RUNDIR/network.onnx as the variant's network (repeatable)")
    p.add_argument("--check", action="store_true",
                   help="only report copies that differ from their source (exit 1 if any)")
    args = p.parse_args(argv)
    manifest = json.loads(MANIFEST.read_text())
    if args.add or args.set_default or args.network:
        if args.check:
            raise SystemExit("--check does not change the manifest: drop --add/--set-default/"
                             "--network")
        for spec in args.network:
            add_network(manifest, spec)
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
    if any("network" in e for e in manifest["variants"].values()):
        cards = render_cards(manifest)
        if not CARDS.exists() or CARDS.read_text() != cards:
            stale += 1
            if args.check:
                print(f"differs: {CARDS.relative_to(ROOT)} (the model cards)")
            else:
                CARDS.write_text(cards)
                print(f"wrote {CARDS.relative_to(ROOT)}")
    listed = {(v, k) for v, e in manifest["variants"].items() for k in e["sets"]}
    for found in sorted((ROOT / "runs" / "reference").glob("*/*/weights.json")):
        v, k = found.parent.parent.name, found.parent.name
        if (v, k) not in listed:
            print(f"note: runs/reference/{v}/{k} is not shipped (add it with --add {v}/{k})",
                  file=sys.stderr)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
