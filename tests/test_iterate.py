"""Expert iteration (``tdleaf net iterate``): the improved policy, self-play games that
record it, and a loop of generations that resumes after a kill. The loop's tests train
(torch) and are in the full tier."""

from __future__ import annotations

import json
import math
import os

import chess.variant
import numpy as np
import pytest

from tdleaf.backend import Backend
from tdleaf.cli import main
from tdleaf.net.data import read_data, write_games
from tdleaf.net.selfplay import (
    OMEGA,
    GuideError,
    SelfPlayConfig,
    SelfPlayer,
    guide_player,
    improved_policy,
    play_game,
    value_to_score,
)
from variants import Position, core


def test_the_improved_policy():
    moves = ["a", "b", "c", "d"]
    visits = {"a": 6, "b": 2, "c": 0, "d": 0}
    q = {"a": 0.2, "b": 0.8, "c": -1.0, "d": -1.0}
    prior = {"a": 0.4, "b": 0.1, "c": 0.3, "d": 0.2}
    pi = improved_policy(moves, visits, q, prior, "a", None, "visits")
    assert np.allclose(pi, [0.75, 0.25, 0, 0])
    # A proved win: its move is the whole target.
    assert np.allclose(improved_policy(moves, visits, q, prior, "b", "win"), [0, 1, 0, 0])
    # Completed Q: the better-valued visited move gains on its prior, the unvisited keep
    # their prior's ratio (their q is the same mixed value), and it is a distribution.
    g = improved_policy(moves, visits, q, prior, "a", None, "completed-q")
    assert math.isclose(g.sum(), 1.0) and (g >= 0).all()
    assert g[1] / g[0] > prior["b"] / prior["a"]
    assert math.isclose(g[2] / g[3], prior["c"] / prior["d"])
    # Nothing visited (a root proved at once): the chosen move.
    assert np.allclose(improved_policy(moves, {}, q, prior, "c", "loss"), [0, 0, 1, 0])


def test_a_value_kept_as_a_score_squashes_back():
    for v in (-0.9, -0.3, 0.0, 0.5, 0.95):
        assert math.isclose(math.tanh(OMEGA * value_to_score(v) / 2), v, abs_tol=1e-9)
    assert math.isfinite(value_to_score(1.0)) and value_to_score(1.0) > 10


def test_guides_and_their_errors():
    assert guide_player("prior:traditional", "atomic", playouts=8) == (
        "traditional", {"search": "mcts", "win_check": True, "playouts": 8})
    assert guide_player("none", "atomic")[1]["prior"] == "none"
    assert guide_player("net:x.onnx", "atomic")[1]["net"] == "x.onnx"
    for bad in ("prior", "net:", "alphazero"):
        with pytest.raises(GuideError, match="unknown guide"):
            guide_player(bad, "atomic")
    with pytest.raises(GuideError, match="--target"):
        SelfPlayConfig("atomic", target="best").validate()
    with pytest.raises(GuideError, match="--full-share"):
        SelfPlayConfig("atomic", full_share=1.5).validate()


SMALL = SelfPlayConfig("atomic", guide="prior:default", games=4, playouts=32, fast_playouts=8,
                       full_share=0.5, random_plies=4, temperature_plies=4, seed=5)


@pytest.fixture(scope="module")
def player():
    p = SelfPlayer(SMALL).start()
    yield p
    p.close()


def test_a_self_play_game_records_its_searches_targets(player):
    """Recorded positions are the game's (python-chess agrees on their legal moves), each
    target a distribution over its legal moves in which the search's move has a share, and a
    game is the same when played again from its index."""
    found = 0
    for game in range(3):
        a = play_game(SMALL, player, game)
        b = play_game(SMALL, player, game)
        assert all(np.array_equal(a[k], b[k]) for k in a if k != "cpu_seconds")
        assert a["cpu_seconds"][0] > 0
        starts = np.concatenate([[0], np.cumsum(a["n_legal"].astype(np.int64))])
        for i in range(len(a["bb"])):
            found += 1
            pos = Position(SMALL.variant, a["bb"][i], a["st"][i].astype(np.int64), "")
            board = chess.variant.AtomicBoard(pos.fen())
            assert a["n_legal"][i] == board.legal_moves.count() > 1
            legal = a["legal"][starts[i]:starts[i + 1]]
            pi = a["prior"][starts[i]:starts[i + 1]]
            assert math.isclose(float(pi.sum()), 1.0, rel_tol=1e-5) and (pi >= 0).all()
            # The search's move (visits and Q mixed) is a visited one.
            assert a["best"][i] in legal and pi[list(legal).index(a["best"][i])] > 0
            assert a["z"][i] in (-1, 0, 1) and a["game"][i] == game
    assert found > 0


def test_the_uniform_guide_plays_as_nothing_learnt():
    cfg = SelfPlayConfig("atomic", guide="none", games=1, playouts=16, fast_playouts=4, seed=2)
    p = SelfPlayer(cfg).start()
    try:
        a = play_game(cfg, p, 0)
    finally:
        p.close()
    assert len(a["bb"]) == len(a["z"]) and a["bb"].shape[1:] == (core.NBB,)


def test_two_workers_write_the_same_self_play_data(tmp_path):
    one = write_games(tmp_path / "one", SMALL, SelfPlayer(SMALL), Backend())
    two = write_games(tmp_path / "two", SMALL, SelfPlayer(SMALL), Backend("local", 2))
    assert [s["sha256"] for s in one["shards"]] == [s["sha256"] for s in two["shards"]]
    assert one["config"]["kind"] == "selfplay" and one["cpu_seconds"] > 0
    _, arrays = read_data(tmp_path / "one", "atomic")
    assert len(arrays["bb"]) == one["positions"] > 0


# -- the loop (torch) -------------------------------------------------------------------------

TINY_LOOP = ["--variant", "atomic", "--start", "prior:default", "--games", "4",
             "--playouts", "16", "--fast-playouts", "4", "--full-share", "1",
             "--random-plies", "4", "--epochs", "1", "--channels", "8", "--blocks", "1",
             "--batch", "64", "--eval-playouts", "8", "--gate-games", "2",
             "--anchor-games", "2", "--anchor-nodes", "500", "--no-progress"]


class Killed(Exception):
    """Stands for a kill in the middle of a step."""


def _strip(state):
    """A loop's records without what a rerun measures anew (CPU seconds, times) or what
    names the folder (settings, a network file's digest: its metadata holds its path)."""
    if isinstance(state, dict):
        return {k: _strip(v) for k, v in state.items()
                if k not in ("cpu_seconds", "time_per_move", "settings", "sha256")}
    if isinstance(state, list):
        return [_strip(v) for v in state]
    return state


@pytest.mark.net
def test_a_loop_of_generations_resumes_after_a_kill(tmp_path, capsys):
    if os.environ.get("CI") != "true":
        pytest.importorskip("torch")
        pytest.importorskip("onnxruntime")
    from tdleaf.net.iterate import LoopConfig, LoopError, run_loop
    from tdleaf.play.labels import data_path
    forty = tmp_path / "forty.epd"
    forty.write_text("".join(data_path("atomic").read_text().splitlines(True)[-40:]))
    tiny = [*TINY_LOOP, "--positions", str(forty)]
    whole = tmp_path / "whole"
    assert main(["net", "iterate", "--out", str(whole), "--generations", "2", *tiny]) == 0
    state = json.loads((whole / "loop.json").read_text())
    assert [g["generation"] for g in state["generations"]] == [0, 1]
    g0, g1 = state["generations"]
    assert g0["guide"] == "prior:default" and g0["selfplay"]["games"] == 4
    assert g1["guide"] == ("gen:0" if g0["shipped"] else "prior:default")
    assert json.loads((whole / "gen-001" / "net" / "config.json").read_text())["init"].endswith(
        "gen-000/net/weights.pt")
    for g in (0, 1):
        assert (whole / f"gen-{g:03d}" / "gate.pgn.gz").exists()
        assert (whole / f"gen-{g:03d}" / "anchor.pgn.gz").exists()
        assert 0 <= state["generations"][g]["eval"]["top1"] <= 1
    assert state["start_anchor"]["games"] == 2
    assert "CPU-hours" in capsys.readouterr().out

    # Killed in generation 1's training: resumed, the loop is the uninterrupted one.
    cfg = LoopConfig("atomic", start="prior:default", games=4, playouts=16, fast_playouts=4,
                     full_share=1.0, random_plies=4, epochs=1, channels=8, blocks=1, batch=64,
                     eval_playouts=8, gate_games=2, anchor_games=2, anchor_nodes=500,
                     positions=str(forty))
    halves = tmp_path / "halves"

    def kill_in_training(step: str, done: int, total: int) -> None:
        if step == "training" and (halves / "gen-001").exists():
            raise Killed
    with pytest.raises(Killed):
        run_loop(halves, cfg, Backend(), 2, say=lambda _: None, progress=kill_in_training)
    assert "train" not in json.loads((halves / "loop.json").read_text())["generations"][1]
    assert main(["net", "iterate", "--out", str(halves), "--generations", "2", "--resume",
                 *tiny]) == 0
    again = json.loads((halves / "loop.json").read_text())
    assert _strip(again["generations"]) == _strip(state["generations"])
    import torch
    a = torch.load(whole / "gen-001" / "net" / "weights.pt", weights_only=True)["model"]
    b = torch.load(halves / "gen-001" / "net" / "weights.pt", weights_only=True)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    # A loop carries on with its own settings only.
    with pytest.raises(LoopError, match="other settings"):
        run_loop(halves, LoopConfig(**{**cfg.__dict__, "games": 5}), Backend(), 3, resume=True)
    assert main(["net", "iterate", "--out", str(halves), "--generations", "2", *tiny]) == 2
    assert "--resume" in capsys.readouterr().err


def test_bad_loop_settings_are_refused(tmp_path, capsys):
    for bad, says in ((["--start", "alphazero"], "unknown guide"),
                      (["--target", "best"], "--target"),
                      (["--window", "0"], "--window"),
                      (["--variant", "chesss"], "chesss")):
        args = ["net", "iterate", "--variant", "atomic", "--out", str(tmp_path / "x"),
                "--generations", "1", *bad]
        assert main(args) == 2
        assert says in capsys.readouterr().err


def _fake_loop(folder, start, elos):
    """A loop.json of generations with the given anchor Elos (None: not measured)."""
    gens = []
    for g, elo in enumerate(elos):
        gens.append({"generation": g, "guide": start, "selfplay": {"cpu_seconds": 1800.0},
                     "train": {"cpu_seconds": 60.0}, "gate": {"cpu_seconds": 300.0},
                     "eval": {"top1": 0.2 + 0.02 * g, "prior_depth_1_top1": 0.38},
                     "anchor": {"elo": elo, "elo_ci": None if elo is None else [elo - 50, elo + 50]},
                     "shipped": g % 2 == 0})
    folder.mkdir(parents=True)
    (folder / "loop.json").write_text(json.dumps({
        "config": {"start": start}, "start_anchor": {"elo": -100.0, "elo_ci": [-150.0, -60.0]},
        "generations": gens}))


def test_loops_are_drawn_against_the_cpu_they_learnt_with(tmp_path, capsys):
    from plots.iterate import loop_points, read_loop
    from plots.runfolder import PlotError
    _fake_loop(tmp_path / "a", "prior:default", [-80.0, None, -20.0])
    _fake_loop(tmp_path / "b", "none", [-400.0])
    points = loop_points(read_loop(tmp_path / "a"))
    assert [round(p["cpu_hours"], 3) for p in points] == [0.6, 1.2, 1.8]
    assert points[1]["elo"] is None and points[2]["top1"] == pytest.approx(0.24)
    assert main(["plot", "--loops", str(tmp_path / "a"), str(tmp_path / "b"),
                 "--out", str(tmp_path / "fig")]) == 0
    assert (tmp_path / "fig" / "expert-iteration.png").stat().st_size > 1000
    capsys.readouterr()
    assert main(["plot", "--loops", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["plot", "--loops", str(tmp_path / "nothing")]) == 2
    assert "loop.json" in capsys.readouterr().err
    with pytest.raises(PlotError, match="not a loop"):
        (tmp_path / "c").mkdir()
        (tmp_path / "c" / "loop.json").write_text("{}")
        read_loop(tmp_path / "c")


@pytest.mark.net
def test_a_network_file_comes_back_to_torch_as_it_answers(tmp_path):
    """A network file's weights, batch norms unfolded and calibrated, answer as the file
    does; in train mode, on batches like the calibration's, nearly so. A corrupt file or
    another variant's is refused."""
    if os.environ.get("CI") != "true":
        pytest.importorskip("torch")
        pytest.importorskip("onnxruntime")
    import torch

    from search.mcts.encoding import N_PLANES, planes_batch
    from search.mcts.network import NetworkError, load_network
    from tdleaf.net.train import TrainConfig, export_network, train
    from tdleaf.net.unfuse import net_from_onnx, write_start
    write_games(tmp_path / "data", SMALL, SelfPlayer(SMALL), Backend())
    train(tmp_path / "data", tmp_path / "run",
          TrainConfig(channels=8, blocks=1, epochs=2, batch=16, seed=1))
    path, _ = export_network(tmp_path / "run")
    _, d = read_data(tmp_path / "data")
    x = np.zeros((len(d["bb"]), N_PLANES, 8, 8), dtype=np.float32)
    planes_batch(d["bb"], d["st"].astype(np.int64), d["reps"].astype(np.int64), x)
    net = net_from_onnx(path, "atomic", x)
    logits, values = load_network(path, "atomic")(x)
    with torch.no_grad():
        lt, vt = net(torch.from_numpy(x))
    assert np.allclose(lt.numpy(), logits, atol=1e-4) and np.allclose(vt.numpy(), values, atol=1e-5)
    net.train()
    with torch.no_grad():
        lt, _ = net(torch.from_numpy(x))
    assert np.allclose(lt.numpy(), logits, atol=1e-3)     # the calibration's own batch
    start = write_start(path, "atomic", tmp_path / "start.pt", x)
    again = train(tmp_path / "data", tmp_path / "again",
                  TrainConfig(channels=8, blocks=1, epochs=1, batch=16, seed=1), init=start)
    assert again[0]["epoch"] == 1
    with pytest.raises(NetworkError, match="crazyhouse"):
        net_from_onnx(path, "crazyhouse")
    # A loop that starts from the network trains its generation 0 on from it.
    from tdleaf.net.iterate import LoopConfig, LoopError, run_loop
    cfg = LoopConfig("atomic", start=f"net:{path}", games=2, playouts=16, fast_playouts=4,
                     full_share=1.0, epochs=1, channels=8, blocks=1, batch=16,
                     eval_playouts=8, gate_games=0, anchor_games=0,
                     positions=str(tmp_path / "forty.epd"))
    from tdleaf.play.labels import data_path
    (tmp_path / "forty.epd").write_text(
        "".join(data_path("atomic").read_text().splitlines(True)[-40:]))
    state = run_loop(tmp_path / "loop", cfg, Backend(), 1, say=lambda _: None)
    assert (tmp_path / "loop" / "gen-000" / "start.pt").exists()
    assert state["generations"][0]["shipped"] and state["best"] == "gen:0"
    # A fresh clone has the generation's network file, not its torch weights: they are
    # made again from it, and answer as it does.
    from tdleaf.net.iterate import Loop, previous_weights
    from tdleaf.net.train import make_net
    gen0 = tmp_path / "loop" / "gen-000" / "net"
    (gen0 / "weights.pt").unlink()
    remade = previous_weights(Loop(tmp_path / "loop", cfg, resume=True), 0)
    net = make_net(8, 1)
    net.load_state_dict(torch.load(remade, weights_only=True)["model"])
    net.eval()
    with torch.no_grad():
        lt, _ = net(torch.from_numpy(x[:8]))
    assert np.allclose(lt.numpy(), load_network(gen0 / "network.onnx", "atomic")(x[:8])[0],
                       atol=1e-4)
    with pytest.raises(LoopError, match="--channels 8 --blocks 1"):
        run_loop(tmp_path / "other", LoopConfig(**{**cfg.__dict__, "channels": 16}), Backend(), 1)
    (tmp_path / "cut.onnx").write_bytes(path.read_bytes()[:500])
    with pytest.raises(NetworkError):
        net_from_onnx(tmp_path / "cut.onnx", "atomic")
