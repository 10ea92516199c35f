"""Expert iteration: generations of MCTS self-play and training, each one measured.

A loop's folder holds ``loop.json`` (its :class:`LoopConfig` and one record a
generation) and a folder a generation, ``gen-NNN/``:

1. ``data/``: the games of the best player so far (:mod:`.selfplay`; generation 0's is
   the ``start`` guide: tdleaf's heuristic prior, the traditional values' prior, or
   nothing), a data folder as ``tdleaf net data`` writes one;
2. ``net/``: the network trained on the last ``window`` generations' data, from the
   previous generation's weights (generation 0's from random ones, or a network start's
   own, :mod:`.unfuse`: ``gen-000/start.pt``), its policy target the
   search's improved policy (``beta`` 1), its value target the result mixed with the
   root's value (``q``); ``network.onnx`` and ``weights.pt`` (the weights alone, what the
   next generation starts from; made again from ``network.onnx`` where it is gone, as on
   a fresh clone, which keeps the ONNX files only);
3. ``eval.json``: the raw network's top-1 and log-likelihood on the held-out labelled
   positions (Fairy-Stockfish's moves);
4. ``gate.pgn.gz``: the network's MCTS against the best player's at equal playouts; a
   generation scoring under 50% is not shipped, and the best player stays;
5. ``anchor.pgn.gz``: the network's MCTS against the fixed anchor, tdleaf's alpha-beta at
   ``anchor_nodes`` nodes a move (the start guide is measured so too, once).

Every step is resumable: a finished one is in ``loop.json`` and is not run again; the
data folder, the training and the matches carry on from what they kept, so a killed loop
loses at most the games being played and the epoch being trained. Each step's CPU
seconds are recorded (games: the workers' process time; matches: both players' time a
move), so that curves can be drawn against all the CPU spent.
"""

from __future__ import annotations

import gzip
import json
import math
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from search.files import write_json
from variants import canonical_variant
from variants.errors import TdleafError

from ..backend import Backend
from .data import write_games
from .selfplay import SelfPlayConfig, SelfPlayer, guide_player

LOOP_FILE = "loop.json"
#: Positions that calibrate a network start's batch norms (:mod:`.unfuse`).
CALIBRATION = 1024


class LoopError(TdleafError, ValueError):
    """A loop that cannot run as asked (settings that differ from its folder's)."""


@dataclass
class LoopConfig:
    """What decides a loop's generations (``loop.json`` keeps it)."""

    variant: str
    start: str = "prior:default"        # generation 0's guide (selfplay.guide_player)
    games: int = 200                    # self-play games a generation
    playouts: int = 400                 # a full search's (recorded) playouts
    fast_playouts: int = 100            # a fast search's (played, not recorded)
    full_share: float = 0.25
    target: str = "visits"              # selfplay.TARGETS
    random_plies: int = 8
    temperature_plies: int = 16
    window: int = 4                     # generations of data a network learns from
    epochs: int = 4
    channels: int = 32
    blocks: int = 4
    batch: int = 256
    lr: float = 0.002
    q: float = 0.5                      # the root value's share of the value target
    value_weight: float = 1.0
    eval_playouts: int = 400            # the MCTS's playouts in the gate and anchor matches
    match_plies: int = 8                # random opening plies of the matches' game pairs
    gate_games: int = 100
    anchor_games: int = 100
    anchor_nodes: int = 20_000
    positions: str | None = None        # held-out labelled positions (None: the variant's)
    seed: int = 0

    def validate(self) -> LoopConfig:
        try:
            self.variant = canonical_variant(self.variant)
        except ValueError as exc:
            raise LoopError(str(exc)) from None
        self.selfplay(0, self.start).validate()
        for name in ("window", "epochs", "eval_playouts", "anchor_nodes"):
            if getattr(self, name) < 1:
                raise LoopError(f"--{name.replace('_', '-')} must be >= 1")
        for name in ("gate_games", "anchor_games"):
            if getattr(self, name) < 0:
                raise LoopError(f"--{name.replace('_', '-')} must be >= 0")
        return self

    def selfplay(self, generation: int, guide: str) -> SelfPlayConfig:
        """Generation ``generation``'s self-play settings, led by ``guide``."""
        return SelfPlayConfig(
            self.variant, guide=guide, games=self.games, playouts=self.playouts,
            fast_playouts=self.fast_playouts, full_share=self.full_share, target=self.target,
            random_plies=self.random_plies, temperature_plies=self.temperature_plies,
            seed=self.seed * 1_000 + generation)

    def training(self, generation: int) -> Any:
        from .train import TrainConfig
        return TrainConfig(channels=self.channels, blocks=self.blocks, epochs=self.epochs,
                           batch=self.batch, lr=self.lr, beta=1.0, q=self.q,
                           value_weight=self.value_weight, seed=generation, threads=1)


Say = Callable[[str], None]


class Loop:
    """A loop's folder: its config and its generations' records (``loop.json``)."""

    def __init__(self, out: Path, cfg: LoopConfig, resume: bool) -> None:
        self.out, self.cfg = Path(out), cfg.validate()
        if cfg.start.startswith("net:"):
            _check_start(cfg)
        path = self.out / LOOP_FILE
        if path.exists() and not resume:
            raise LoopError(f"{out} already holds a loop: use --resume to carry on, or "
                            f"another --out folder")
        if path.exists():
            try:
                self.state = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise LoopError(f"{path}: unreadable ({exc})") from None
            # A setting added since the loop began stands at its default there.
            if {**asdict(LoopConfig(cfg.variant)), **self.state["config"]} != asdict(cfg):
                raise LoopError(f"{path}: made with other settings; give the same ones "
                                f"({self.state['config']})")
        else:
            self.state = {"config": asdict(cfg), "best": cfg.start, "best_generation": None,
                          "start_anchor": None, "generations": []}
        self.out.mkdir(parents=True, exist_ok=True)
        self.save()

    def save(self) -> None:
        write_json(self.out / LOOP_FILE, self.state, indent=2)

    def gen_dir(self, g: int) -> Path:
        return self.out / f"gen-{g:03d}"

    def record(self, g: int) -> dict[str, Any]:
        """Generation ``g``'s record (made when it starts)."""
        gens = self.state["generations"]
        while len(gens) <= g:
            gens.append({"generation": len(gens), "guide": self.state["best"]})
        return gens[g]


def _check_start(cfg: LoopConfig) -> None:
    """A network start must be the loop's network: its generations train on from it."""
    from search.mcts.network import open_network
    meta = open_network(cfg.start[4:], cfg.variant).metadata
    shape = (int(meta.get("channels", 0)), int(meta.get("blocks", 0)))
    if shape != (cfg.channels, cfg.blocks):
        raise LoopError(f"{cfg.start[4:]} is a {shape[0]}x{shape[1]} network: give --channels "
                        f"{shape[0]} --blocks {shape[1]} to train on from it")


def run_loop(out: Path, cfg: LoopConfig, backend: Backend, generations: int, *,
             resume: bool = False, say: Say = print,
             progress: Callable[[str, int, int], None] | None = None,
             device: str = "auto") -> dict[str, Any]:
    """Run the loop in ``out`` until it has ``generations`` generations; returns
    ``loop.json``'s contents. ``say`` gets a line a step; ``progress(step, done,
    total)`` follows the games and epochs; ``device`` is where torch trains (self-play
    and matches run on onnxruntime, on the CPU)."""
    loop = Loop(out, cfg, resume)
    if loop.state.get("start_search") is None:
        say(f"the start ({cfg.start}) on the labelled positions")
        loop.state["start_search"] = search_top1(loop, cfg.start)
        loop.save()
    if cfg.anchor_games and loop.state["start_anchor"] is None:
        say(f"the start ({cfg.start}) against the anchor")
        loop.state["start_anchor"] = anchor_match(loop, cfg.start, loop.out / "start-anchor",
                                                  backend, progress)
        loop.save()
    for g in range(generations):
        rec = loop.record(g)
        for name in STEPS:
            if name not in rec:
                say(f"generation {g}: {name}")
                rec[name] = run_step(loop, g, name, backend, progress, device)
                loop.save()
        if "shipped" not in rec:
            rec["shipped"] = ship(loop, g)
            loop.save()
        say(summary_line(rec))
    return loop.state


# -- the steps ------------------------------------------------------------------------------

#: A generation's steps, in order.
STEPS = ("selfplay", "train", "eval", "gate", "anchor")


def run_step(loop: Loop, g: int, name: str, backend: Backend,
             progress: Callable[[str, int, int], None] | None, device: str = "auto",
             ) -> dict[str, Any]:
    """Step ``name`` of generation ``g``; returns its record."""
    rec = loop.record(g)
    if name == "selfplay":
        return selfplay_step(loop, g, rec["guide"], backend, progress)
    if name == "train":
        return train_step(loop, g, progress, device)
    if name == "eval":
        return eval_step(loop, g)
    if name == "gate":
        return gate_step(loop, g, backend, progress)
    return anchor_match(loop, network_guide(rec), loop.gen_dir(g) / "anchor", backend, progress)

def selfplay_step(loop: Loop, g: int, guide: str, backend: Backend,
                  progress: Callable[[str, int, int], None] | None) -> dict[str, Any]:
    sp = loop.cfg.selfplay(g, resolve(loop, guide))
    sp.validate()
    folder = loop.gen_dir(g) / "data"
    manifest = write_games(folder, sp, SelfPlayer(sp), backend, resume=True,
                           progress=(lambda games, _: progress("self-play", games, sp.games))
                           if progress else None)
    return {"games": manifest["games"], "positions": manifest["positions"],
            "cpu_seconds": manifest.get("cpu_seconds", 0.0)}


def train_step(loop: Loop, g: int, progress: Callable[[str, int, int], None] | None,
               device: str = "auto") -> dict[str, Any]:
    from .measure import measured_keys
    from .train import export_network, train, write_weights
    folders = [loop.gen_dir(k) / "data" for k in range(max(0, g - loop.cfg.window + 1), g + 1)]
    init = previous_weights(loop, g - 1) if g else start_weights(loop)
    net = loop.gen_dir(g) / "net"
    tc = loop.cfg.training(g)
    history = train(folders, net, tc, resume=True, init=init,
                    exclude=measured_keys(loop.cfg.variant, loop.cfg.positions),
                    progress=(lambda e, done, total: progress("training", e, tc.epochs))
                    if progress else None, device=device)
    write_weights(net)
    path, digest = export_network(net)
    last = history[-1]
    info = json.loads((net / "config.json").read_text())
    return {"positions": info["train_positions"], "epochs": int(last["epoch"]),
            "val_top1": _finite(last["val_top1"]), "val_value_mse": _finite(last["val_value_mse"]),
            "cpu_seconds": last["cpu_seconds"], "device": info["device"],
            "network": {"file": _relative(loop, path), "sha256": digest}}


def start_weights(loop: Loop) -> Path | None:
    """Generation 0's first weights: a network start's own (``gen-000/start.pt``, its
    batch norms calibrated on generation 0's first positions), else none (random)."""
    start = loop.cfg.start
    if not start.startswith("net:"):
        return None
    return _unfused(loop, network_file(start[4:], loop.cfg.variant), 0,
                    loop.gen_dir(0) / "start.pt")


def previous_weights(loop: Loop, g: int) -> Path:
    """Generation ``g``'s weights (``weights.pt``), the next one's start; made again from
    its network file where they are gone (git keeps the ONNX file, not the torch one)."""
    path = loop.gen_dir(g) / "net" / "weights.pt"
    if path.exists():
        return path
    return _unfused(loop, loop.gen_dir(g) / "net" / "network.onnx", g, path)


def _unfused(loop: Loop, onnx_file: Path, g: int, out: Path) -> Path:
    """``onnx_file``'s weights as ``out``, its batch norms calibrated on generation
    ``g``'s first positions (:mod:`.unfuse`)."""
    from search.mcts.encoding import N_PLANES, planes_batch

    from .data import read_data
    from .unfuse import write_start
    _, d = read_data(loop.gen_dir(g) / "data")
    n = min(CALIBRATION, len(d["bb"]))
    x = np.zeros((n, N_PLANES, 8, 8), dtype=np.float32)
    planes_batch(d["bb"][:n], d["st"][:n].astype(np.int64), d["reps"][:n].astype(np.int64), x)
    return write_start(onnx_file, loop.cfg.variant, out, x)


def eval_step(loop: Loop, g: int) -> dict[str, Any]:
    """The raw network on the labelled positions (``eval.json``, beside the prior), and
    the MCTS it guides at ``eval_playouts`` (its move's top-1)."""
    from .measure import evaluate_net
    guide = network_guide(loop.record(g))
    report = evaluate_net(resolve(loop, guide)[4:], loop.cfg.variant, loop.cfg.positions,
                          teacher=False)
    report["search"] = search_top1(loop, guide)
    write_json(loop.gen_dir(g) / "eval.json", report, indent=2)
    return {"top1": report["net"]["top1"], "loglik": report["net"]["loglik"],
            "brier": report["net"]["brier"], "positions": report["net"]["positions"],
            "prior_depth_1_top1": report["prior_depth_1"]["top1"],
            "search_top1": report["search"]["top1"]}


def search_top1(loop: Loop, guide: str) -> dict[str, Any]:
    """The top-1 of ``guide``'s MCTS at ``eval_playouts`` on the labelled positions."""
    from ..play.labels import data_path, read_labelled
    from .measure import search_hits
    cfg = loop.cfg
    rows = read_labelled(Path(cfg.positions) if cfg.positions else data_path(cfg.variant))
    hits, seconds = search_hits(resolve(loop, guide), cfg.variant, cfg.eval_playouts, rows)
    return {"guide": guide, "playouts": cfg.eval_playouts, "top1": float(hits.mean()),
            "positions": len(rows), "seconds_per_search": seconds}


def gate_step(loop: Loop, g: int, backend: Backend,
              progress: Callable[[str, int, int], None] | None) -> dict[str, Any]:
    cfg = loop.cfg
    if not cfg.gate_games:
        return {"games": 0, "score": None}
    return play(loop, network_guide(loop.record(g)), loop.state["best"],
                loop.gen_dir(g) / "gate", cfg.gate_games, backend, progress,
                names=(f"gen-{g}", "best"), b_playouts=cfg.eval_playouts)


def anchor_match(loop: Loop, guide: str, stem: Path, backend: Backend,
                 progress: Callable[[str, int, int], None] | None) -> dict[str, Any]:
    cfg = loop.cfg
    if not cfg.anchor_games:
        return {"games": 0, "score": None}
    return play(loop, guide, None, stem, cfg.anchor_games, backend, progress,
                names=("mcts", "anchor"), b_playouts=None)


def ship(loop: Loop, g: int) -> bool:
    """Whether generation ``g`` becomes the best player: it did not lose the gate."""
    rec = loop.record(g)
    score = rec["gate"]["score"]
    shipped = score is None or score >= 0.5
    if shipped:
        loop.state["best"] = network_guide(rec)
        loop.state["best_generation"] = g
    return shipped


# -- matches --------------------------------------------------------------------------------

def play(loop: Loop, a_guide: str, b_guide: str | None, stem: Path, games: int,
         backend: Backend, progress: Callable[[str, int, int], None] | None, *,
         names: tuple[str, str], b_playouts: int | None) -> dict[str, Any]:
    """A match of ``a_guide``'s MCTS against ``b_guide``'s (None: the anchor), its games
    in ``stem.pgn.gz`` and its summary returned, with the players' CPU seconds."""
    from ..play.match import MatchConfig, PlayerConfig, run_match
    cfg = loop.cfg
    a = PlayerConfig(*guide_player(resolve(loop, a_guide), cfg.variant,
                                   playouts=cfg.eval_playouts, name=names[0]))
    if b_guide is None:
        b = PlayerConfig("default", {"nodes": cfg.anchor_nodes, "name": names[1]})
    else:
        b = PlayerConfig(*guide_player(resolve(loop, b_guide), cfg.variant,
                                       playouts=b_playouts, name=names[1]))
    pgn = stem.with_suffix(".pgn")
    packed = stem.with_suffix(".pgn.gz")
    if packed.exists() and not pgn.exists():            # a finished match's games, kept
        with gzip.open(packed, "rb") as src, open(pgn, "wb") as dst:
            shutil.copyfileobj(src, dst)
    stem.parent.mkdir(parents=True, exist_ok=True)
    match = MatchConfig(cfg.variant, a, b, games=games, random_plies=cfg.match_plies,
                        seed=cfg.seed + 7, backend=backend, pgn=str(pgn),
                        event=f"tdleaf net iterate {names[0]} vs {names[1]}")
    what = f"{names[0]} vs {names[1]}"
    summary = run_match(match, resume=pgn.exists(),
                        progress=(lambda s, _: progress(what, s.games, games))
                        if progress else None)
    with open(pgn, "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    pgn.unlink()
    j = summary.to_json()
    moves, per_move = j["moves"], j["time_per_move"]
    cpu = sum(moves[k] * (per_move[k] or 0.0) for k in ("a", "b"))
    return {"games": j["games"], "wins": j["wins"], "losses": j["losses"], "draws": j["draws"],
            "score": j["score"], "elo": j["elo_pentanomial"], "elo_ci": j["elo_pentanomial_ci"],
            "pentanomial": j["pentanomial"], "settings": j["settings"],
            "time_per_move": per_move, "cpu_seconds": cpu,
            "pgn": _relative(loop, packed)}


def network_guide(rec: dict[str, Any]) -> str:
    """The guide of a generation's network: ``gen:N`` (:func:`resolve` finds its file)."""
    return f"gen:{rec['generation']}"


def resolve(loop: Loop, guide: str) -> str:
    """A guide as the players take it: ``gen:N`` is generation N's network file in the
    loop's folder; any other guide is as given (a file relative to where the loop runs)."""
    if guide.startswith("gen:"):
        return f"net:{loop.gen_dir(int(guide[4:])) / 'net' / 'network.onnx'}"
    return guide


def network_file(spec: str, variant: str) -> Path:
    """The file of a network spec: ``shipped`` (the variant's shipped network) or a path."""
    from search.mcts.network import SHIPPED, NetworkError, shipped_network
    if spec != SHIPPED:
        return Path(spec)
    entry = shipped_network(variant)
    if entry is None or entry["path"] is None:
        raise NetworkError(f"{variant} ships no network")
    return Path(entry["path"])


def _finite(x: float) -> float | None:
    """JSON has no NaN (a run too small to hold a game out has no held-out figures)."""
    return float(x) if math.isfinite(x) else None


def _relative(loop: Loop, path: Path) -> str:
    return Path(path).resolve().relative_to(loop.out.resolve()).as_posix()


def cpu_hours(state: dict[str, Any]) -> float:
    """All the CPU a loop has spent so far, in hours (self-play, training, matches)."""
    total = (state.get("start_anchor") or {}).get("cpu_seconds", 0.0)
    for rec in state["generations"]:
        for step in ("selfplay", "train", "gate", "anchor"):
            total += (rec.get(step) or {}).get("cpu_seconds", 0.0)
    return total / 3600.0


def summary_line(rec: dict[str, Any]) -> str:
    """One line for people: a generation's data, top-1, gate and anchor."""
    def score(m: dict[str, Any] | None) -> str:
        if not m or m.get("score") is None:
            return "-"
        return f"{100 * m['score']:.1f}% of {m['games']}"
    return (f"generation {rec['generation']}: {rec['selfplay']['positions']} positions, "
            f"top-1 {100 * rec['eval']['top1']:.1f}% (prior at depth 1 "
            f"{100 * rec['eval']['prior_depth_1_top1']:.1f}%; its MCTS "
            f"{100 * rec['eval']['search_top1']:.1f}%), gate {score(rec.get('gate'))}, "
            f"anchor {score(rec.get('anchor'))}; "
            f"{'shipped' if rec.get('shipped') else 'not shipped'}")
