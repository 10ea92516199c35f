"""`tdleaf net train` (PyTorch): a tiny data set trains in seconds, a resumed run is the
uninterrupted one, and bad input is refused. CI installs the net extra; elsewhere the
module is skipped without torch."""

from __future__ import annotations

import csv
import os

import pytest

from tdleaf.backend import Backend
from tdleaf.cli import main
from tdleaf.net.data import DataConfig, write_data

if os.environ.get("CI") != "true":
    pytest.importorskip("torch")


def _onnxruntime() -> None:
    """The ONNX tests need onnx and onnxruntime (the net extra has them; torch alone, the
    older torch extra, has not): skipped without, but in CI."""
    if os.environ.get("CI") != "true":
        pytest.importorskip("onnx")
        pytest.importorskip("onnxruntime")

from tdleaf.net.train import NetError, TrainConfig, make_net, train

TINY = TrainConfig(channels=8, blocks=1, epochs=2, batch=64, seed=3)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("net") / "data"
    write_data(out, DataConfig("atomic", games=20, depth=1, seed=1), Backend())
    return out


def _rows(path):
    with open(path) as fh:
        return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in csv.DictReader(fh)]


class Killed(Exception):
    """Stands for a kill after an epoch's checkpoint."""


@pytest.mark.net
def test_a_tiny_data_set_trains_and_a_killed_run_resumes_to_the_same_network(data, tmp_path):
    import torch
    history = train(data, tmp_path / "whole", TINY)
    assert [int(h["epoch"]) for h in history] == [1, 2]
    assert history[-1]["val_positions"] > 0 and 0 <= history[-1]["val_top1"] <= 1

    def kill_in_epoch_two(epoch: int, done: int, total: int) -> None:
        if epoch == 1:
            raise Killed
    with pytest.raises(Killed):
        train(data, tmp_path / "halves", TINY, progress=kill_in_epoch_two)
    assert len(_rows(tmp_path / "halves" / "history.csv")) == 1
    assert main(["net", "train", str(data), "--out", str(tmp_path / "halves"), "--epochs", "2",
                 "--channels", "8", "--blocks", "1", "--batch", "64", "--seed", "3",
                 "--resume", "--no-progress"]) == 0
    a = torch.load(tmp_path / "whole" / "checkpoint.pt", weights_only=True)["model"]
    b = torch.load(tmp_path / "halves" / "checkpoint.pt", weights_only=True)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert _rows(tmp_path / "whole" / "history.csv") == _rows(tmp_path / "halves" / "history.csv")
    # A run is resumed with its own settings.
    with pytest.raises(NetError, match="other settings"):
        train(data, tmp_path / "whole", TrainConfig(**{**TINY.__dict__, "epochs": 3}),
              resume=True)


def test_bad_input(data, tmp_path, capsys):
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    assert main(["net", "train", str(data), "--out", str(tmp_path / "run"), "--epochs", "1",
                 "--no-progress"]) == 2
    assert "--resume" in capsys.readouterr().err
    (tmp_path / "run" / "checkpoint.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(NetError, match="not a checkpoint"):
        train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}), resume=True)
    assert main(["net", "train", str(tmp_path / "nothing"), "--out", str(tmp_path / "x"),
                 "--no-progress"]) == 2
    assert "unreadable manifest" in capsys.readouterr().err
    assert main(["net", "train", str(data), "--out", str(tmp_path / "y"), "--beta", "2",
                 "--no-progress"]) == 2
    assert "--beta must be in [0, 1]" in capsys.readouterr().err


def test_the_training_device():
    """auto trains where torch sees a GPU, else on the CPU; cuda without one is refused."""
    import torch

    from tdleaf.net.train import torch_device
    assert torch_device(torch, "cpu").type == "cpu"
    assert torch_device(torch, "auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(NetError, match="sees no GPU"):
            torch_device(torch, "cuda")
    with pytest.raises(NetError, match="--device"):
        torch_device(torch, "tpu")


def test_mirrored_batches_mirror_planes_and_moves_together(data):
    """With mirror, about half the positions without castling rights come mirrored: their
    planes reversed left to right, their legal moves and target through MIRROR_INDEX."""
    import numpy as np

    from search.mcts.encoding import MIRROR_INDEX, P_CASTLING
    from tdleaf.net.data import read_data
    from tdleaf.net.train import Batches
    _, arrays = read_data(data)
    rows = np.arange(len(arrays["game"]))
    plain = Batches(arrays, rows, TINY).batch(rows)
    cfg = TrainConfig(**{**TINY.__dict__, "mirror": True, "beta": 0.5})
    x, mask, target, _, best = Batches(arrays, rows, cfg).batch(rows, np.random.default_rng(1))
    flipped = ~np.array([np.array_equal(a, b) for a, b in zip(x, plain[0])])
    castles = plain[0][:, P_CASTLING:P_CASTLING + 4, 0, 0].any(axis=1)
    assert flipped.any() and not (flipped & castles).any()
    assert 0.3 < flipped[~castles].mean() < 0.7
    for i in np.flatnonzero(flipped)[:20]:
        assert np.array_equal(x[i], plain[0][i][..., ::-1])
        assert set(np.flatnonzero(mask[i])) == set(MIRROR_INDEX[np.flatnonzero(plain[1][i])])
        assert best[i] == MIRROR_INDEX[plain[4][i]] and mask[i, best[i]]
        assert target[i].sum() == pytest.approx(1.0, abs=1e-5)


def test_the_network_is_small_and_its_policy_is_the_move_map():
    net = make_net(32, 4)
    params = sum(p.numel() for p in net.parameters())
    assert params < 300_000
    import torch
    logits, v = net(torch.zeros(2, 47, 8, 8))
    assert logits.shape == (2, 5376) and v.shape == (2,)


@pytest.mark.net
def test_the_network_benchmark(capsys):
    _onnxruntime()
    assert main(["bench", "net", "--channels", "8", "--blocks", "1", "--rounds", "1",
                 "--json"]) == 0
    import json
    r = json.loads(capsys.readouterr().out)
    assert set(r["inference_positions_per_s"]) == {"1", "8", "16"}
    assert r["training_positions_per_s"] > 0 and r["parameters"] > 0
    # onnxruntime (the net extra has it) answers what torch does.
    assert r["onnxruntime"]["max_abs_diff"] < 1e-4
    assert set(r["onnxruntime"]["inference_positions_per_s"]) == {"1", "8", "16"}


@pytest.fixture
def forty(tmp_path):
    """Forty of atomic's labelled positions."""
    from search.shipped import package_data_dir
    lines = [x for x in (package_data_dir() / "prior_atomic.epd").read_text().splitlines()
             if x and not x.startswith("#")][:40]
    epd = tmp_path / "forty.epd"
    epd.write_text("\n".join(lines) + "\n")
    return epd


@pytest.mark.net
def test_eval_a_network_beside_the_prior_and_its_teacher(data, tmp_path, forty, capsys):
    """The network (its folder, and the same exported to ONNX) beside the prior, the
    uniform policy and its teacher (here the depth-1 search that labelled the data)."""
    _onnxruntime()
    import json
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    assert main(["net", "eval", str(tmp_path / "run"), "--variant", "atomic",
                 "--positions", str(forty), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["net"]["positions"] == 40 and 0 <= r["net"]["top1"] <= 1
    assert r["net"]["loglik"] < 0 and r["uniform"]["positions"] == 40
    assert r["prior_depth_1"]["top1"] > r["uniform"]["top1"]
    assert r["teacher"]["depth"] == 1 and r["teacher"]["positions"] == 40
    assert r["teacher"]["top1"] > r["uniform"]["top1"]
    # The same network as an ONNX file answers the same.
    assert main(["net", "export", str(tmp_path / "run")]) == 0
    assert "sha256" in capsys.readouterr().out
    assert main(["net", "eval", str(tmp_path / "run" / "network.onnx"), "--variant", "atomic",
                 "--positions", str(forty), "--json", "--no-teacher"]) == 0
    o = json.loads(capsys.readouterr().out)
    assert o["net"]["top1"] == r["net"]["top1"] and "teacher" not in o
    assert o["net"]["loglik"] == pytest.approx(r["net"]["loglik"], abs=1e-5)
    # A network of another variant, and no network at all.
    for net in (tmp_path / "run", tmp_path / "run" / "network.onnx"):
        assert main(["net", "eval", str(net), "--variant", "crazyhouse"]) == 2
        assert "a network of atomic, not of crazyhouse" in capsys.readouterr().err
    assert main(["net", "eval", str(tmp_path), "--variant", "atomic"]) == 2
    assert "not a 'tdleaf net train' folder" in capsys.readouterr().err


def test_a_network_file_is_checked_before_it_is_used(data, tmp_path):
    """Refused with a clear error: a digest that does not match, another encoding
    version, an ONNX file that is not a tdleaf network, a corrupt file; the metadata
    names the network's provenance."""
    _onnxruntime()
    import onnx

    from search.mcts.network import NetworkError, load_network, open_network, sha256_of
    from tdleaf.net.train import export_network, export_onnx
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, digest = export_network(tmp_path / "run", tmp_path / "a.onnx")
    assert digest == sha256_of(path)
    net = load_network(path, "atomic", sha256=digest)
    assert net.metadata["teacher"] == "default" and net.metadata["depth"] == "1"
    assert "8x1 residual" in net.provenance() and digest[:12] in net.provenance()
    with pytest.raises(NetworkError, match="not the manifest's"):
        load_network(path, "atomic", sha256="0" * 64)
    model = onnx.load(str(path))
    for prop in model.metadata_props:
        if prop.key == "encoding_version":
            prop.value = "0"
    onnx.save(model, str(tmp_path / "old.onnx"))
    with pytest.raises(NetworkError, match="encoding version 0"):
        open_network(str(tmp_path / "old.onnx"), "atomic")
    export_onnx(make_net(8, 1), tmp_path / "bare.onnx")
    with pytest.raises(NetworkError, match="not a tdleaf network"):
        open_network(str(tmp_path / "bare.onnx"), "atomic")
    (tmp_path / "cut.onnx").write_bytes(path.read_bytes()[:1000])
    with pytest.raises(NetworkError, match="not an ONNX network"):
        open_network(str(tmp_path / "cut.onnx"), "atomic")
    with pytest.raises(NetworkError, match="ships no network"):
        open_network("shipped", "horde")


def test_a_network_guides_the_mcts(data, tmp_path):
    """An exported network as the MCTS's evaluator: its policy over the move map becomes
    the root's priors (softmax over the legal moves), and the search plays legal moves."""
    _onnxruntime()
    import numpy as np

    from search.mcts import encoding as enc
    from search.mcts.driver import MCTS
    from search.mcts.network import load_network
    from tdleaf.net.train import export_network
    from variants import Position
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, _ = export_network(tmp_path / "run")
    net = load_network(path, "atomic")
    pos = Position.start("atomic")
    r = MCTS("atomic", net, batch_size=8).search(pos, playouts=64)
    assert r.move in pos.legal_moves() and r.playouts == 64
    logits, _ = net(enc.planes(pos)[None])
    moves, idx = enc.legal_indices(pos)
    z = logits[0, idx] - logits[0, idx].max()
    want = np.exp(z) / np.exp(z).sum()
    assert np.allclose([r.prior[m] for m in moves], want, atol=1e-6)


def test_the_uci_engine_plays_a_network_and_says_which(data, tmp_path):
    """Net (set before UCI_Variant) guides Search=mcts, named with its digest in an info
    string; a network that cannot be used is said why, and the heuristic prior plays."""
    _onnxruntime()
    import io

    import chess.variant

    from search.protocol.uci import UciEngine
    from tdleaf.net.train import export_network
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, digest = export_network(tmp_path / "run")
    named = f"info string network for atomic: file: network.onnx (sha256 {digest[:12]}"
    ignored = "info string Net ignored, the MCTS uses the heuristic prior"
    for net, said in ((str(path), named), (str(tmp_path / "none.onnx"), ignored)):
        out = io.StringIO()
        eng = UciEngine(io.StringIO(""), out)
        for line in (f"setoption name Net value {net}", "setoption name UCI_Variant value atomic",
                     "setoption name Search value mcts", "isready", "position startpos",
                     "go nodes 40"):
            eng.handle(line)
        eng.search.wait(eng._engine)
        lines = out.getvalue().splitlines()
        assert any(x.startswith(said) for x in lines), lines
        best = [x for x in lines if x.startswith("bestmove")][-1].split()[1]
        assert chess.Move.from_uci(best) in chess.variant.AtomicBoard().legal_moves


def test_the_xboard_engine_plays_a_network_and_says_which(data, tmp_path):
    _onnxruntime()
    import io

    import chess.variant

    from search.protocol.xboard import XBoardEngine
    from tdleaf.net.train import export_network
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, digest = export_network(tmp_path / "run")
    out = io.StringIO()
    eng = XBoardEngine(io.StringIO(""), out, search="mcts", net=str(path))
    for line in ("xboard", "protover 2", "variant atomic", "st 1", "go"):
        eng.handle(line)
    eng.search.wait(eng._engine)
    lines = out.getvalue().splitlines()
    assert any(x.startswith(f"# network for atomic: file: network.onnx (sha256 {digest[:12]}")
               for x in lines), lines
    move = [x for x in lines if x.startswith("move ")][-1].split()[1]
    assert chess.Move.from_uci(move) in chess.variant.AtomicBoard().legal_moves


def test_a_match_plays_a_network_and_refuses_a_bad_one(data, tmp_path, capsys):
    """`-o A.net=FILE` with search=mcts: the match plays it; a network that cannot be used
    fails the match before its first game, with the reason."""
    _onnxruntime()
    from tdleaf.net.train import export_network
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, _ = export_network(tmp_path / "run")
    pgn = tmp_path / "games.pgn"
    assert main(["match", "default", "default", "--variant", "atomic", "--games", "2",
                 "-o", "A.search=mcts", "-o", f"A.net={path}", "-o", "A.playouts=16",
                 "-o", "B.depth=1", "--pgn", str(pgn), "--max-plies", "20"]) == 0
    assert pgn.read_text().count("[Result ") == 2
    capsys.readouterr()
    assert main(["match", "default", "default", "--variant", "crazyhouse", "--games", "2",
                 "-o", "A.search=mcts", "-o", f"A.net={path}", "-o", "B.depth=1",
                 "--pgn", str(tmp_path / "no.pgn")]) == 2
    assert "a network of atomic, not of crazyhouse" in capsys.readouterr().err


def test_a_ladder_of_the_mcts_records_its_network_and_is_not_saved(data, tmp_path, capsys):
    """A ladder of the network-guided MCTS names the network it measured (file, digest),
    not the weights; UCI_Elo plays alpha-beta, so such a ladder is never saved."""
    _onnxruntime()
    from tdleaf.net.train import export_network
    from tdleaf.play.ladder.measure import LadderError, player_evaluation
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    path, sha = export_network(tmp_path / "run")
    ev = player_evaluation("default", "atomic", str(path))
    assert ev["digest"] == f"net:{sha[:12]}" and "weights" not in ev
    assert ev["network"].startswith(f"file: {path.name} (sha256 {sha[:12]}")
    assert player_evaluation("default", "atomic")["weights"]           # without: the weights
    with pytest.raises(LadderError, match="a network of atomic, not of crazyhouse"):
        player_evaluation("default", "crazyhouse", str(path))
    assert main(["ladder", "--variant", "atomic", "--search", "mcts", "--net", str(path),
                 "--depths", "", "--nodes", "100", "--movetimes", "", "--save",
                 "--out", str(tmp_path / "lad")]) == 2
    assert "an MCTS ladder is measured, not saved" in capsys.readouterr().err


def test_train_on_the_first_positions_of_the_data(data, tmp_path, capsys):
    import json
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1, "positions": 100}))
    info = json.loads((tmp_path / "run" / "config.json").read_text())
    assert info["positions"] == 100 and info["train"]["positions"] == 100
    assert info["train_positions"] + info["val_positions"] == 100 and info["left_out"] == 0
    # The positions a network is measured on are left out of its training.
    from tdleaf.net.data import position_keys, read_data
    keys = position_keys(read_data(data, positions=100)[1])
    train(data, tmp_path / "less", TrainConfig(**{**TINY.__dict__, "epochs": 1, "positions": 100}),
          exclude={int(k) for k in keys[:10]})
    info = json.loads((tmp_path / "less" / "config.json").read_text())
    assert info["left_out"] >= 10 and info["positions"] == 100 - info["left_out"]
    assert main(["net", "train", str(data), "--out", str(tmp_path / "big"), "--positions",
                 "10000000", "--no-progress"]) == 2
    assert "fewer than the 10000000 asked for" in capsys.readouterr().err


@pytest.mark.net
def test_compare_two_groups_of_networks(data, tmp_path, forty, capsys):
    """The ablation's measurement: a group against itself differs by nothing, with an
    interval around 0; against another group, the difference is the means'."""
    _onnxruntime()
    import json
    for seed in (1, 2):
        train(data, tmp_path / f"s{seed}", TrainConfig(**{**TINY.__dict__, "epochs": 1,
                                                          "seed": seed}))
    a = [str(tmp_path / "s1"), str(tmp_path / "s2")]
    assert main(["net", "compare", "--variant", "atomic", "--positions", str(forty),
                 "--a", *a, "--b", *a, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["difference"]["top1"]["b_minus_a"] == 0 and r["positions"] == 40
    lo, hi = r["difference"]["loglik"]["ci95"]
    assert lo <= 0 <= hi
    assert main(["net", "compare", "--variant", "atomic", "--positions", str(forty),
                 "--a", a[0], "--b", a[1], "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    d = r["difference"]["loglik"]
    assert d["b_minus_a"] == pytest.approx(r["b"]["loglik"] - r["a"]["loglik"])
    assert d["ci95"][0] <= d["b_minus_a"] <= d["ci95"][1]


def test_the_learning_curves_are_drawn(data, tmp_path, capsys):
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 2}))
    assert main(["plot", str(tmp_path / "run")]) == 0
    assert "net-curves.png" in capsys.readouterr().out
    assert (tmp_path / "run" / "figures" / "net-curves.png").stat().st_size > 10_000
