"""`tdleaf net train` (PyTorch): a tiny data set trains in seconds, a resumed run is the
uninterrupted one, and bad input is refused. CI installs the net extra; elsewhere the
module is skipped without torch."""

from __future__ import annotations

import csv
import os

import pytest

from tdleaf.backend import Backend
from tdleaf.cli import main
from tdleaf.learn.netdata import DataConfig, write_data

if os.environ.get("CI") != "true":
    pytest.importorskip("torch")


def _onnxruntime() -> None:
    """The ONNX tests need onnx and onnxruntime (the net extra has them; torch alone, the
    older torch extra, has not): skipped without, but in CI."""
    if os.environ.get("CI") != "true":
        pytest.importorskip("onnx")
        pytest.importorskip("onnxruntime")

from tdleaf.learn.net import NetError, TrainConfig, make_net, train

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


def test_the_network_is_small_and_its_policy_is_the_move_map():
    net = make_net(32, 4)
    params = sum(p.numel() for p in net.parameters())
    assert params < 300_000
    import torch
    logits, v = net(torch.zeros(2, 47, 8, 8))
    assert logits.shape == (2, 5376) and v.shape == (2,)


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


def test_eval_a_network_beside_the_prior(data, tmp_path, capsys):
    """On forty of atomic's labelled positions: the network (its folder, and the same
    exported to ONNX) beside the prior and the uniform policy."""
    _onnxruntime()
    import json

    import torch

    from search.shipped import package_data_dir
    from tdleaf.learn.net import export_onnx, make_net
    lines = [x for x in (package_data_dir() / "prior_atomic.epd").read_text().splitlines()
             if x and not x.startswith("#")][:40]
    epd = tmp_path / "forty.epd"
    epd.write_text("\n".join(lines) + "\n")
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 1}))
    assert main(["net", "eval", str(tmp_path / "run"), "--variant", "atomic",
                 "--positions", str(epd), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["net"]["positions"] == 40 and 0 <= r["net"]["top1"] <= 1
    assert r["net"]["loglik"] < 0 and r["uniform"]["positions"] == 40
    assert r["prior_depth_1"]["top1"] > r["uniform"]["top1"]
    # The same network as an ONNX file answers the same.
    cfg = json.loads((tmp_path / "run" / "config.json").read_text())["train"]
    net = make_net(cfg["channels"], cfg["blocks"])
    net.load_state_dict(torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=True)["model"])
    export_onnx(net, tmp_path / "net.onnx")
    assert main(["net", "eval", str(tmp_path / "net.onnx"), "--variant", "atomic",
                 "--positions", str(epd), "--json"]) == 0
    o = json.loads(capsys.readouterr().out)
    assert o["net"]["top1"] == r["net"]["top1"]
    assert o["net"]["loglik"] == pytest.approx(r["net"]["loglik"], abs=1e-5)
    # A network of another variant, and no network at all.
    assert main(["net", "eval", str(tmp_path / "run"), "--variant", "crazyhouse"]) == 2
    assert "a network of atomic, not of crazyhouse" in capsys.readouterr().err
    assert main(["net", "eval", str(tmp_path), "--variant", "atomic"]) == 2
    assert "neither an ONNX file" in capsys.readouterr().err


def test_the_learning_curves_are_drawn(data, tmp_path, capsys):
    train(data, tmp_path / "run", TrainConfig(**{**TINY.__dict__, "epochs": 2}))
    assert main(["plot", str(tmp_path / "run")]) == 0
    assert "net-curves.png" in capsys.readouterr().out
    assert (tmp_path / "run" / "figures" / "net-curves.png").stat().st_size > 10_000
