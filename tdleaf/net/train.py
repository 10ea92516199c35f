"""A policy-value network trained on ``tdleaf net data`` (PyTorch, on the CPU by default).

The network (:class:`PolicyValueNet`): a 3x3 convolution of the input planes
(:mod:`search.mcts.encoding`) into ``channels`` channels, ``blocks`` residual blocks (two 3x3
convolutions with batch norm, CrazyAra's and AlphaZero's plain block), a convolutional
policy head (one 8 x 8 plane per move plane: 5,376 logits from a few thousand weights,
where a dense head would take millions) and a tanh value head.

Training (:func:`train`) reads every shard of a data folder, rebuilds each batch's
planes from the stored positions, and minimises

    cross-entropy(policy target, softmax over the legal moves)
        + value_weight * (value target - v)^2

with the policy target ``(1 - beta) onehot(search's move) + beta prior`` and the value
target ``(1 - q) z + q tanh(omega s / 2)`` (z the result for the side to move, s the
search's score in pawns, omega 0.5 as in learning). With ``mirror``, each position
without castling rights is mirrored left to right with probability 1/2 in training (a
symmetry of every variant's rules then: :data:`search.mcts.encoding.MIRROR_INDEX`). Every
tenth game is held out
(:func:`.netdata.is_validation`). After each epoch the folder gets ``checkpoint.pt``
(model, optimiser, schedule, epoch; loaded with ``weights_only=True``), a line of
``history.csv`` and ``config.json``; ``resume`` carries on from the checkpoint. With
``threads=1`` a seed makes a run reproducible.
"""

from __future__ import annotations

import csv
import json
import pickle
import time
import warnings
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from search.files import write_json
from search.mcts.encoding import (
    ENCODING_VERSION,
    MIRROR_INDEX,
    MOVE_PLANES,
    N_PLANES,
    POLICY_SIZE,
    mirrorable,
    planes_batch,
)
from search.mcts.network import sha256_of
from variants.errors import TdleafError

from .data import DataError, concat, head, is_validation, position_keys, read_data, select

#: The learning's omega: how a search score becomes an expected result.
OMEGA = 0.5
_COUNTS = ("epoch", "positions_seen", "val_positions")
HISTORY = ("epoch", "positions_seen", "cpu_seconds", "train_loss", "val_policy_loss",
           "val_top1", "val_value_mse", "val_positions")


class NetError(TdleafError, ValueError):
    """A training that cannot run as asked (no torch, a checkpoint of another network)."""


def torch_module() -> Any:
    try:
        import torch
    except ImportError:
        raise NetError("the network needs PyTorch: pip install 'tdleaf[net]'") from None
    return torch


@dataclass
class TrainConfig:
    """What decides a training run (``config.json`` of its folder)."""

    channels: int = 32
    blocks: int = 4
    epochs: int = 10
    batch: int = 256
    lr: float = 0.002
    weight_decay: float = 1e-4
    beta: float = 0.0           # the prior's share of the policy target
    q: float = 0.0              # the search score's share of the value target
    value_weight: float = 0.5
    seed: int = 0
    threads: int = 1
    positions: int = 0          # the data's first N positions, in game order (0: all)
    mirror: bool = False        # mirror half the positions without castling rights

    def validate(self) -> TrainConfig:
        for name in ("channels", "blocks", "epochs", "batch", "threads"):
            if getattr(self, name) < 1:
                raise NetError(f"--{name} must be >= 1, got {getattr(self, name)}")
        if self.positions < 0:
            raise NetError(f"--positions must be >= 0, got {self.positions}")
        for name in ("beta", "q"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise NetError(f"--{name} must be in [0, 1], got {getattr(self, name)}")
        if not self.lr > 0 or self.value_weight < 0:
            raise NetError("--lr must be > 0 and --value-weight >= 0")
        return self


def make_net(channels: int, blocks: int) -> Any:
    """The :class:`PolicyValueNet` (built here: torch is imported only when needed)."""
    torch = torch_module()
    nn = torch.nn

    class Block(nn.Module):  # type: ignore[name-defined]  # torch is imported here only
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.an = nn.BatchNorm2d(channels)
            self.b = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(channels)

        def forward(self, x: Any) -> Any:
            y = torch.relu(self.an(self.a(x)))
            return torch.relu(x + self.bn(self.b(y)))

    class PolicyValueNet(nn.Module):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(N_PLANES, channels, 3, padding=1, bias=False),
                                      nn.BatchNorm2d(channels), nn.ReLU())
            self.tower = nn.Sequential(*(Block() for _ in range(blocks)))
            self.policy = nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1, bias=False),
                                        nn.BatchNorm2d(channels), nn.ReLU(),
                                        nn.Conv2d(channels, MOVE_PLANES, 1))
            self.value = nn.Sequential(nn.Conv2d(channels, 1, 1, bias=False), nn.BatchNorm2d(1),
                                       nn.ReLU(), nn.Flatten(), nn.Linear(64, 64), nn.ReLU(),
                                       nn.Linear(64, 1), nn.Tanh())

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = self.tower(self.stem(x))
            # (B, 84, 8, 8) -> (B, 5376): entry plane * 64 + rank * 8 + file, as the map's.
            return self.policy(h).flatten(1), self.value(h).squeeze(1)

    return PolicyValueNet()


# -- batches ----------------------------------------------------------------------------------

class Batches:
    """The data's positions as training batches: planes rebuilt from the stored arrays,
    the legal-move mask and the targets."""

    def __init__(self, data: dict[str, np.ndarray], rows: np.ndarray, cfg: TrainConfig) -> None:
        self.data, self.rows, self.cfg = data, rows, cfg
        self.starts = np.concatenate([[0], np.cumsum(data["n_legal"].astype(np.int64))])

    def __len__(self) -> int:
        return len(self.rows)

    def batch(self, rows: np.ndarray, rng: np.random.Generator | None = None,
              ) -> tuple[np.ndarray, ...]:
        """Planes, legal-move mask, policy target, value target and the search's move
        of ``rows``; with ``rng`` and ``mirror``, each position without castling rights
        is mirrored left to right with probability 1/2 (a symmetry of the rules)."""
        d, cfg = self.data, self.cfg
        n = len(rows)
        x = np.zeros((n, N_PLANES, 8, 8), dtype=np.float32)
        planes_batch(d["bb"][rows], d["st"][rows].astype(np.int64),
                     d["reps"][rows].astype(np.int64), x)
        flip = np.zeros(n, dtype=bool)
        if rng is not None and cfg.mirror:
            flip = mirrorable(x) & (rng.random(n) < 0.5)
            x[flip] = x[flip][..., ::-1]
        mask = np.zeros((n, POLICY_SIZE), dtype=bool)
        target = np.zeros((n, POLICY_SIZE), dtype=np.float32)
        best = d["best"][rows].astype(np.int64)
        best[flip] = MIRROR_INDEX[best[flip]]
        for i, r in enumerate(rows):
            a, b = self.starts[r], self.starts[r + 1]
            legal = d["legal"][a:b].astype(np.int64)
            if flip[i]:
                legal = MIRROR_INDEX[legal]
            mask[i, legal] = True
            target[i, legal] = cfg.beta * d["prior"][a:b]
            target[i, best[i]] += 1.0 - cfg.beta
        z = d["z"][rows].astype(np.float32)
        value = (1 - cfg.q) * z + cfg.q * np.tanh(OMEGA * d["score"][rows] / 2).astype(np.float32)
        return x, mask, target, value.astype(np.float32), best


def _losses(torch: Any, net: Any, batch: tuple[np.ndarray, ...], cfg: TrainConfig,
            ) -> tuple[Any, Any, Any, Any]:
    device = next(net.parameters()).device
    x, mask, target, value, best = (torch.from_numpy(a).to(device) for a in batch)
    logits, v = net(x)
    logits = logits.masked_fill(~mask, -1e9)
    logp = torch.log_softmax(logits, dim=1)
    policy = -(target * logp).sum(dim=1).mean()
    mse = ((v - value) ** 2).mean()
    top1 = (logits.argmax(dim=1) == best).float().mean()
    return policy + cfg.value_weight * mse, policy, mse, top1


# -- the run ----------------------------------------------------------------------------------

def _split(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    val = np.array([is_validation(int(g)) for g in data["game"]], dtype=bool)
    return np.flatnonzero(~val), np.flatnonzero(val)


def read_many(folders: Sequence[Path], positions: int | None = None,
              ) -> tuple[list[dict[str, Any]], dict[str, np.ndarray]]:
    """The manifests of data folders and their positions together, in order (the first
    ``positions`` of them, if given). Games keep their folder's index, so each folder's
    tenth games stay held out."""
    manifests, parts = [], []
    for folder in folders:
        manifest, arrays = read_data(folder)
        manifests.append(manifest)
        parts.append(arrays)
    data = concat(parts)
    return manifests, data if positions is None else head(data, positions)


def train(data_dir: Path | Sequence[Path], out: Path, cfg: TrainConfig, *, resume: bool = False,
          progress: Any = None, exclude: Collection[int] = (),
          init: Path | None = None, device: str = "auto") -> list[dict[str, float]]:
    """Train on the data in ``data_dir`` (a folder, or several read as one) into ``out``
    to ``cfg.epochs`` epochs, leaving out the positions whose repetition key is in
    ``exclude`` (the positions a network is measured on); returns the history (one row
    per epoch). ``init`` (a training folder's ``checkpoint.pt``) starts the network from
    its weights instead of at random (expert iteration's next generation), with a fresh
    optimiser and schedule. ``device``: "cpu", "cuda" or "auto" (a GPU when torch sees
    one); the files are the same on either, and a run may resume on the other."""
    torch = torch_module()
    cfg.validate()
    folders = [Path(data_dir)] if isinstance(data_dir, (str, Path)) else [Path(d) for d in data_dir]
    if len(folders) == 1:
        manifest, data = read_data(folders[0], positions=cfg.positions or None)
        manifests = [manifest]
    else:
        manifests, data = read_many(folders, cfg.positions or None)
    variants = {m["config"]["variant"] for m in manifests}
    if len(variants) > 1:
        raise DataError(f"the data folders hold positions of {', '.join(sorted(variants))}")
    manifest = manifests[0]
    taken = len(data["game"])
    if len(exclude):
        data = select(data, ~np.isin(position_keys(data), np.array(list(exclude), dtype=np.uint64)))
    train_rows, val_rows = _split(data)
    if not len(train_rows):
        raise DataError(f"{data_dir}: no training positions (every game is held out)")
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    net = make_net(cfg.channels, cfg.blocks)
    if init is not None:
        _load_model(torch, net, Path(init))
    where = torch_device(torch, device)
    net.to(where)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps_per_epoch = (len(train_rows) + cfg.batch - 1) // cfg.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=max(
        2, cfg.epochs * steps_per_epoch))
    info = {"train": asdict(cfg),
            "data": str(folders[0]) if len(folders) == 1 else [str(f) for f in folders],
            "variant": manifest["config"]["variant"],
            "encoding_version": ENCODING_VERSION, "teacher": manifest["config"]["teacher"],
            "depth": manifest["config"]["depth"], "positions": len(data["game"]),
            **({"init": str(init)} if init is not None else {}), "device": str(where),
            "left_out": taken - len(data["game"]),
            "train_positions": len(train_rows), "val_positions": len(val_rows),
            "parameters": sum(p.numel() for p in net.parameters())}
    out.mkdir(parents=True, exist_ok=True)
    ck_path, hist_path = out / "checkpoint.pt", out / "history.csv"
    history: list[dict[str, float]] = []
    start, seen, cpu = 0, 0, 0.0
    if resume and ck_path.exists():
        saved = json.loads((out / "config.json").read_text())
        # A setting added since the run began stands at its default there.
        if {**asdict(TrainConfig()), **saved["train"]} != info["train"] or saved["data"] != info["data"]:
            raise NetError(f"{out}: trained with other settings or data; give the same ones")
        if saved.get("init") != info.get("init"):
            raise NetError(f"{out}: started from other weights; give the same --init")
        try:
            ck = torch.load(ck_path, weights_only=True, map_location=where)
            net.load_state_dict(ck["model"])
            opt.load_state_dict(ck["optimizer"])
            sched.load_state_dict(ck["schedule"])
        except (RuntimeError, KeyError, OSError, EOFError, pickle.UnpicklingError) as exc:
            raise NetError(f"{ck_path}: not a checkpoint of this network "
                           f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
        start, seen, cpu = int(ck["epoch"]), int(ck["positions_seen"]), float(ck["cpu_seconds"])
        with open(hist_path) as fh:
            history = [{k: (int(v) if k in _COUNTS else float(v)) for k, v in row.items()}
                       for row in csv.DictReader(fh)][:start]
    elif ck_path.exists() and not resume:
        raise NetError(f"{out} already holds a training run: use --resume, or another --out")
    write_json(out / "config.json", info, indent=2)
    batches = Batches(data, train_rows, cfg)
    held = Batches(data, val_rows, cfg)
    for epoch in range(start, cfg.epochs):
        t0 = time.process_time()
        order = np.random.default_rng([cfg.seed, epoch]).permutation(train_rows)
        net.train()
        total = 0.0
        for k in range(0, len(order), cfg.batch):
            rng = np.random.default_rng([cfg.seed, epoch, k])
            loss, _, _, _ = _losses(torch, net, batches.batch(order[k:k + cfg.batch], rng), cfg)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(order[k:k + cfg.batch])
            seen += len(order[k:k + cfg.batch])
            if progress:
                progress(epoch, k + cfg.batch, len(order))
        row = {"epoch": epoch + 1, "positions_seen": seen,
               "train_loss": total / len(order), **evaluate(torch, net, held, cfg)}
        cpu += time.process_time() - t0
        row["cpu_seconds"] = cpu
        history.append(row)
        torch.save({"model": net.state_dict(), "optimizer": opt.state_dict(),
                    "schedule": sched.state_dict(), "epoch": epoch + 1, "positions_seen": seen,
                    "cpu_seconds": cpu}, out / ".checkpoint.pt.tmp")
        (out / ".checkpoint.pt.tmp").replace(ck_path)     # atomic: the old or the new one
        _write_history(hist_path, history)
    return history


def torch_device(torch: Any, name: str) -> Any:
    """The torch device ``name`` says: "cpu", "cuda" (refused where torch sees no GPU) or
    "auto" (a GPU when torch sees one)."""
    if name not in ("cpu", "cuda", "auto"):
        raise NetError(f"--device must be cpu, cuda or auto, got {name!r}")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise NetError("--device cuda: torch sees no GPU (the pinned build is the CPU one)")
    return torch.device(name)


def _load_model(torch: Any, net: Any, path: Path) -> None:
    """``net``'s weights from a training folder's checkpoint (``weights_only=True``)."""
    try:
        net.load_state_dict(torch.load(path, weights_only=True, map_location="cpu")["model"])
    except (OSError, RuntimeError, KeyError, EOFError, pickle.UnpicklingError) as exc:
        raise NetError(f"{path}: not a checkpoint of this network "
                       f"({type(exc).__name__})") from None


def write_weights(netdir: Path) -> Path:
    """``NETDIR/weights.pt``: the checkpoint's model alone (no optimiser), a third of its
    size: what a run that starts from this network (``init``) needs, kept in git."""
    torch = torch_module()
    path = Path(netdir) / "weights.pt"
    ck = torch.load(Path(netdir) / "checkpoint.pt", weights_only=True, map_location="cpu")
    tmp = path.with_name(".weights.pt.tmp")
    torch.save({"model": ck["model"]}, tmp)
    tmp.replace(path)
    return path


def export_onnx(net: Any, path: Path, metadata: dict[str, Any] | None = None) -> str:
    """Write ``net`` as an ONNX file with a variable batch and ``metadata`` (strings) in
    the model's metadata (:mod:`search.mcts.network` reads it); returns its sha256."""
    import onnx
    torch = torch_module()
    net.eval()
    x = torch.zeros(1, N_PLANES, 8, 8)
    tmp = Path(path).with_name(f".{Path(path).name}.tmp")
    with warnings.catch_warnings():      # the exporter's notes on its own future
        warnings.simplefilter("ignore")
        torch.onnx.export(net, (x,), str(tmp), input_names=["planes"],
                          output_names=["policy", "value"], dynamo=False,
                          dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"},
                                        "value": {0: "batch"}})
    model = onnx.load(str(tmp))
    for key, value in (metadata or {}).items():
        model.metadata_props.add(key=key, value=str(value))
    tmp.write_bytes(model.SerializeToString())
    tmp.replace(path)
    return sha256_of(path)


def load_checkpoint(netdir: Path, variant: str | None = None) -> tuple[Any, dict[str, Any]]:
    """The network of a training folder (its ``checkpoint.pt``, loaded with
    ``weights_only=True``) in eval mode, and the folder's ``config.json``."""
    from search.mcts.encoding import EncodingError, check_version
    torch = torch_module()
    config = Path(netdir) / "config.json"
    if not config.is_file():
        raise NetError(f"{netdir}: not a 'tdleaf net train' folder (no config.json)")
    info = json.loads(config.read_text())
    try:
        check_version(info.get("encoding_version"), str(config))
    except EncodingError as exc:
        raise NetError(str(exc)) from None
    if variant is not None and info["variant"] != variant:
        raise NetError(f"{netdir}: a network of {info['variant']}, not of {variant}")
    net = make_net(info["train"]["channels"], info["train"]["blocks"])
    _load_model(torch, net, Path(netdir) / "checkpoint.pt")
    net.eval()
    return net, info


def export_network(netdir: Path, out: Path | None = None) -> tuple[Path, str]:
    """Export a training folder's network as the ONNX file ``out`` (default
    ``NETDIR/network.onnx``) with its provenance in the metadata; returns the file and
    its sha256."""
    net, info = load_checkpoint(netdir)
    with open(Path(netdir) / "history.csv") as fh:
        epochs = sum(1 for _ in csv.DictReader(fh))
    out = Path(out) if out is not None else Path(netdir) / "network.onnx"
    meta = {"tdleaf_network": "1", "variant": info["variant"],
            "encoding_version": info["encoding_version"], "channels": info["train"]["channels"],
            "blocks": info["train"]["blocks"], "teacher": info["teacher"],
            "depth": info["depth"], "positions": info["positions"], "epochs": epochs,
            "source": Path(netdir).as_posix()}
    return out, export_onnx(net, out, meta)


def evaluate(torch: Any, net: Any, held: Batches, cfg: TrainConfig) -> dict[str, float]:
    """Policy loss, top-1 (against the search's move) and value MSE on held-out rows."""
    if not len(held):
        return {"val_policy_loss": float("nan"), "val_top1": float("nan"),
                "val_value_mse": float("nan"), "val_positions": 0}
    net.eval()
    sums = np.zeros(3)
    with torch.no_grad():
        for k in range(0, len(held.rows), 1024):
            rows = held.rows[k:k + 1024]
            _, policy, mse, top1 = _losses(torch, net, held.batch(rows), cfg)
            sums += np.array([float(policy), float(top1), float(mse)]) * len(rows)
    p, t, m = sums / len(held.rows)
    return {"val_policy_loss": p, "val_top1": t, "val_value_mse": m,
            "val_positions": len(held.rows)}


def _write_history(path: Path, history: list[dict[str, float]]) -> None:
    import io
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=HISTORY, lineterminator="\n")
    w.writeheader()
    for row in history:
        w.writerow({k: row[k] for k in HISTORY})
    from search.files import write_text
    write_text(path, buf.getvalue())
