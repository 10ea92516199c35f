"""The strength ladder: the rating fit against hand-computed values, Fairy-Stockfish's
UCI_Elo scale, the adaptive choice of settings, the shipped ladder's lookup
(search.protocol.strength), the command's errors, and tiny ladders end to end against the real
Fairy-Stockfish and Sjeng.

External engines are skipped only where they are not installed and
TDLEAF_REQUIRE_ENGINES is not set (.ci/run sets it, so CI fails instead of skipping).
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import chess.engine
import chess.pgn
import pytest

from search.protocol import strength
from tdleaf.cli import main
from tdleaf.play import ladder as lad
from tdleaf.play import stats
from tdleaf.play.gamefiles import read_members
from tdleaf.play.match import GameOutcome

from helpers_engines import engine_path

ROOT = Path(__file__).resolve().parent.parent

DATA = Path(__file__).resolve().parent.parent / "search" / "data"
CHI2_95 = 3.841458820694124          # the 95% quantile of chi-square with 1 degree of freedom


def elo_of(p: float) -> float:
    return -400.0 * math.log10(1.0 / p - 1.0)


# --------------------------------------------------------------------------------------
# The fit: P(score) = 1 / (1 + 10^((E - R) / 400)), by hand
# --------------------------------------------------------------------------------------

def test_fit_against_one_opponent_is_the_score_elo():
    fit = stats.fit_rating([0.0] * 4, [1, 1, 1, 0])
    assert fit.elo == pytest.approx(400 * math.log10(3), abs=1e-6)       # 190.85
    # Fisher information: (ln 10 / 400)^2 n p (1 - p), p = 3/4
    assert fit.stderr == pytest.approx(400 / math.log(10) / math.sqrt(4 * 0.75 * 0.25), rel=1e-6)
    # the same fit around any anchor
    shifted = stats.fit_rating([1500.0] * 4, [1, 1, 1, 0])
    assert shifted.elo == pytest.approx(1500 + fit.elo, abs=1e-6)
    assert shifted.low == pytest.approx(1500 + fit.low, abs=1e-6)


def test_fit_profile_interval_half_score():
    """5 of 10 against E = 0: l(R) = 5 log p + 5 log(1 - p); the bounds solve
    p (1 - p) = exp(-chi2 / 10) / 4."""
    fit = stats.fit_rating([0.0] * 10, [1] * 5 + [0] * 5)
    q = math.exp(-CHI2_95 / 10) / 4
    p = (1 - math.sqrt(1 - 4 * q)) / 2
    assert fit.elo == pytest.approx(0.0, abs=1e-6)
    assert fit.low == pytest.approx(elo_of(p), abs=1e-4)            # -222.3
    assert fit.high == pytest.approx(-elo_of(p), abs=1e-4)
    assert fit.low == pytest.approx(-222.3, abs=0.1)
    # draws are half points: ten draws have the same likelihood as five wins, five losses
    drawn = stats.fit_rating([0.0] * 10, [0.5] * 10)
    assert (drawn.elo, drawn.low, drawn.high) == pytest.approx((fit.elo, fit.low, fit.high), abs=1e-6)


def test_fit_two_opponents_by_symmetry():
    """A win against 0 and a loss against 400: p(R) + p(R - 400) = 1 gives R = 200."""
    fit = stats.fit_rating([0.0, 400.0], [1, 0])
    assert fit.elo == pytest.approx(200.0, abs=1e-6)
    p = 1 / (1 + 10 ** (-0.5))
    assert fit.stderr == pytest.approx(400 / math.log(10) / math.sqrt(2 * p * (1 - p)), rel=1e-6)
    assert fit.low < 0 and 400 < fit.high


def test_fit_all_lost_or_won_is_one_sided():
    """Ten losses against E = 0: R = -inf; the upper bound solves 10 log(1 - p) = -chi2 / 2."""
    fit = stats.fit_rating([0.0] * 10, [0] * 10)
    p = 1 - math.exp(-CHI2_95 / 2 / 10)
    assert fit.elo == -math.inf and fit.low == -math.inf and fit.stderr == math.inf
    assert fit.high == pytest.approx(elo_of(p), abs=1e-4)            # -269.7
    won = stats.fit_rating([1500.0] * 10, [1] * 10)
    assert won.elo == math.inf and won.high == math.inf
    assert won.low == pytest.approx(1500 - elo_of(p), abs=1e-4)


def test_fit_many_opponents_solves_the_score_equation():
    opp = [1350, 1350, 1500, 1500, 1700, 1700, 2000, 2000]
    s = [1, 0.5, 1, 0, 0.5, 0, 0, 0]
    fit = stats.fit_rating(opp, s)
    expected = sum(1 / (1 + 10 ** ((e - fit.elo) / 400)) for e in opp)
    assert expected == pytest.approx(sum(s), abs=1e-9)

    def loglik(r):
        return sum(x * math.log(1 / (1 + 10 ** ((e - r) / 400)))
                   + (1 - x) * math.log(1 - 1 / (1 + 10 ** ((e - r) / 400))) for e, x in zip(opp, s))

    for bound in (fit.low, fit.high):
        assert 2 * (loglik(fit.elo) - loglik(bound)) == pytest.approx(CHI2_95, abs=1e-6)


def test_fit_rejects_bad_input():
    with pytest.raises(ValueError):
        stats.fit_rating([0, 1], [1])
    with pytest.raises(ValueError):
        stats.fit_rating([0], [2])
    empty = stats.fit_rating([], [])
    assert math.isnan(empty.elo) and empty.games == 0


# --------------------------------------------------------------------------------------
# Fairy-Stockfish's scale and the adaptive choice
# --------------------------------------------------------------------------------------

def test_uci_elo_levels_as_fairy_stockfish_computes_them():
    assert lad.uci_elo_level(2000) == pytest.approx(6.56, abs=0.01)   # FSF's own comment
    assert lad.uci_elo_level(1350) == pytest.approx(0.0, abs=0.01)
    assert lad.uci_elo_level(2850) == pytest.approx(18.46, abs=0.01)
    assert lad.uci_elo_level(500) == pytest.approx(-19.82, abs=0.01)
    for k in range(-20, 0):
        assert lad.uci_elo_level(lad.skill_level_elo(k)) == pytest.approx(k, abs=1e-6)
    assert lad.skill_level_elo(-1) == pytest.approx(1203, abs=1)
    assert lad.skill_level_elo(-20) == pytest.approx(498, abs=1)
    elos = [lad.skill_level_elo(k) for k in range(-20, 1)]
    assert elos == sorted(elos)


def _options(lo: int, hi: int, skill: bool = True) -> dict:
    o = {"UCI_LimitStrength": chess.engine.Option("UCI_LimitStrength", "check", False, None, None, []),
         "UCI_Elo": chess.engine.Option("UCI_Elo", "spin", 1350, lo, hi, [])}
    if skill:
        o["Skill Level"] = chess.engine.Option("Skill Level", "spin", 20, -20, 20, [])
    return o


def _setting(scale: lad.Scale, label: str) -> lad.Setting:
    found = scale.by_label(label)
    assert found is not None, label
    return found


def test_scales_of_the_engines():
    debian = lad.build_scale(_options(1350, 2850), elo_step=50)
    assert debian.kind == "uci_elo"
    labels = [s.label for s in debian.settings]
    assert labels[0] == "Skill Level -20" and labels[-1] == "UCI_Elo 2850"
    assert "UCI_Elo 1350" in labels and "Skill Level -1" in labels
    assert [s.elo for s in debian.settings] == sorted(s.elo for s in debian.settings)
    assert _setting(debian, "UCI_Elo 1500").settings == {"UCI_LimitStrength": "true", "UCI_Elo": 1500}
    assert debian.anchored_low == 1350
    assert lad.build_scale(_options(1350, 2850), skill_levels=False).settings[0].label == "UCI_Elo 1350"
    wasm = lad.build_scale(_options(500, 2850), elo_step=100)     # no Skill Levels: its UCI_Elo goes lower
    assert wasm.settings[0].label == "UCI_Elo 500" and all(s.kind == "uci_elo" for s in wasm.settings)
    assert _setting(wasm, "UCI_Elo 1300").extrapolated and not _setting(wasm, "UCI_Elo 1400").extrapolated
    assert wasm.anchored_low == 1400 and _setting(debian, "Skill Level -1").extrapolated
    fixed = lad.build_scale({}, limit_text="depth 6")
    assert fixed.kind == "fixed" and [s.elo for s in fixed.settings] == [0.0]


def _played(setting: lad.Setting, score: float) -> lad.Played:
    result = "1-0" if score == 1 else "0-1" if score == 0 else "1/2-1/2"
    return lad.Played(setting.label, setting.elo, GameOutcome(0, True, result))


def test_adaptive_choice_moves_towards_the_rating():
    scale = lad.build_scale(_options(1350, 2850), elo_step=50)
    first = lad.choose_setting(scale, [], 1350, 400)
    assert first.label == "UCI_Elo 1350"
    up = lad.choose_setting(scale, [_played(first, 1), _played(first, 1)], 1350, 400)
    assert up.label == "UCI_Elo 1750"                              # +inf, one step at most
    down = lad.choose_setting(scale, [_played(first, 0), _played(first, 0)], 1350, 400)
    assert down.kind == "skill" and abs(down.elo - 950) < 60        # below 1350: Skill Levels
    even = lad.choose_setting(scale, [_played(first, 1), _played(first, 0)], 1350, 400)
    assert even.label == "UCI_Elo 1350"
    fixed = lad.build_scale({}, limit_text="depth 6")
    assert lad.choose_setting(fixed, [_played(fixed.settings[0], 1)] * 4, 0, 400) is fixed.settings[0]


def test_a_rung_measured_mostly_at_an_end_of_the_scale_beyond_it_is_a_bound():
    top = [{"elo": 2800.0, "games": 6}, {"elo": 2850.0, "games": 26}]
    assert lad.rung_bound(top, 2963.0, 498.0, 2850.0) == "lower"      # atomic's depth 6
    assert lad.rung_bound(top, 2840.0, 498.0, 2850.0) is None          # rated inside the scale
    half = [{"elo": 2800.0, "games": 16}, {"elo": 2850.0, "games": 16}]
    assert lad.rung_bound(half, 2900.0, 498.0, 2850.0) is None         # not "mostly"
    bottom = [{"elo": 498.0, "games": 30}, {"elo": 550.0, "games": 2}]
    assert lad.rung_bound(bottom, 400.0, 498.0, 2850.0) == "upper"
    assert lad.rung_bound([], float("nan"), 498.0, 2850.0) is None


def test_a_rung_above_the_top_of_the_scale_is_saved_and_shown_as_a_bound(tmp_path):
    scale = lad.build_scale(_options(1350, 2850))
    top, below = _setting(scale, "UCI_Elo 2850"), _setting(scale, "UCI_Elo 2800")
    games = [_played(top, 1)] * 18 + [_played(top, 0)] * 6 + [_played(below, 0.5)] * 8
    rung = lad.RungResult(lad.Rung("depth", 6), scale, games).to_json()
    assert rung["bound"] == "lower" and rung["elo"] > 2850
    inside = lad.RungResult(lad.Rung("depth", 5), scale, [_played(below, 1), _played(below, 0)])
    assert inside.to_json()["bound"] is None
    ladder = lad.Ladder("atomic", "fairy-stockfish", "uci:fairy-stockfish", "FSF",
                        {"movetime": 0.1}, scale=scale)
    ladder.rungs = [lad.RungResult(lad.Rung("depth", 6), scale, games)]
    data = lad.results_json([ladder], lad.LadderConfig())
    assert data["ladders"][0]["scale_range"] == [scale.lowest, 2850.0]
    assert "(lower bound)" in lad.markdown(data)
    saved = lad.save_ladder(data, tmp_path / "ladder.json")
    assert saved["variants"]["atomic"][0]["bound"] == "lower"
    assert not strength.has_ladder("atomic", tmp_path / "ladder.json"), "a bound serves nothing"


def test_the_shipped_ladder_marks_the_bounds_its_records_show():
    """search/data/ladder.json carries every bound its measurements in runs/ladders/
    show (tdleaf.play.ladder.mark_bounds finds nothing to change), atomic's two dearest
    node rungs among them, racing kings' dearest node rung, and the rungs of those two
    and of antichess rated above their bend; the marks follow from the records and the
    bend, not from hand edits. Atomic's node rungs serve nearest-rung."""
    shipped = json.loads((ROOT / "search" / "data" / "ladder.json").read_text())
    records = sorted((ROOT / "runs" / "ladders").glob("*/ladder.json"))
    assert records
    for record in records:
        assert lad.mark_bounds(json.loads(json.dumps(shipped)), json.loads(record.read_text())) == []
    bounds = {(v, json.dumps(e["level"])): e["bound"] for v, entries in shipped["variants"].items()
              for e in entries if e.get("bound")}
    above_bend = ['{"depth": 6}', '{"nodes": 8192}', '{"nodes": 32768}', '{"movetime": 0.1}',
                  '{"movetime": 1.0}']          # plan.py's bend step (RESULTS.md)
    assert bounds == {("atomic", '{"nodes": 8192}'): "lower",
                      ("atomic", '{"nodes": 32768}'): "lower",
                      ("atomic", '{"nodes": 131072}'): "lower",
                      ("antichess", '{"nodes": 32768}'): "lower",
                      ("antichess", '{"nodes": 131072}'): "lower",
                      ("racingkings", '{"nodes": 131072}'): "lower",
                      **{("racingkings", level): "lower" for level in above_bend}}
    assert shipped["sources"]["racingkings"]["bend"]["uci_elo"] == 2149
    assert shipped["sources"]["atomic"]["bend"]["uci_elo"] == 2101
    assert shipped["sources"]["antichess"]["bend"]["uci_elo"] == 2228
    assert strength.levels("atomic")[-1]["level"] == {"nodes": 4096}
    assert strength.serves_nearest("atomic") and not strength.serves_nearest("chess")


# --------------------------------------------------------------------------------------
# search.protocol.strength: the shipped ladder's lookup
# --------------------------------------------------------------------------------------

def _ladder_file(tmp_path: Path, entries: dict) -> Path:
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps({"variants": entries}))
    return path


def _rung(nodes: int, elo: float, half: float = 40) -> dict:
    """A 256-game node rung as a ladder file holds it, its interval +-``half``."""
    return {"level": {"nodes": nodes}, "elo": elo, "elo_ci": [elo - half, elo + half],
            "games": 256, "wins": 128, "losses": 128, "draws": 0, "extrapolated": False}


def test_the_scale_bends_where_the_opponents_search_stops_deepening():
    """Fairy-Stockfish picks its move at depth 1 + level: the bend is the UCI_Elo whose
    level is the depth its search reaches, less one."""
    assert lad.bend_elo(1.0) == lad.bend_elo(0.5) == 1346.6
    assert round(lad.bend_elo(8.84)) == 2101           # atomic's opponent at 17,000 nodes
    for depth in (3.0, 8.84, 10.51):
        assert lad.uci_elo_level(lad.bend_elo(depth)) == pytest.approx(depth - 1)


def test_a_rung_rated_above_the_bend_is_a_lower_bound(tmp_path):
    """mark_bend marks the rungs rated above the bend; the curve, the range and the
    clamp note end below it; a later save against the same opponent keeps the bend and
    marks a new rung above it."""
    shipped = {"variants": {"chess": [_rung(32, 1500.0), _rung(128, 1700.0), _rung(512, 1900.0),
                                      _rung(2048, 2150.0), _rung(8192, 2400.0)]},
               "sources": {"chess": {"engine": "FSF", "engine_limits": {"nodes": 20000}}}}
    bend = lad.bend_elo(9.0)
    assert 2100 < bend < 2150
    assert lad.mark_bend(shipped, "chess", 9.0, "runs/strength/scale-chess/") == [
        "chess nodes 2048: lower (above the bend)", "chess nodes 8192: lower (above the bend)"]
    assert lad.mark_bend(shipped, "chess", 9.0, "runs/strength/scale-chess/") == []
    assert shipped["sources"]["chess"]["bend"] == {
        "uci_elo": round(bend), "opponent_depth": 9.0, "evidence": "runs/strength/scale-chess/"}
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(shipped))
    assert strength.elo_range("chess", path) == (1500, 1900)
    assert strength.limits_for_elo("chess", 2500, path) == {"nodes": 512}
    note = strength.clamp_note("chess", 2500, path)
    assert note is not None and f"above UCI_Elo {round(bend)} the opponent's settings play " \
        "alike" in note and "nodes 8192 is only a lower bound (2400)" in note
    assert strength.clamp_note("chess", 1800, path) is None
    data = {"player": "default", "date": "2026-12-05", "games_per_rung": 256, "command": "c",
            "ladders": [{"scale": "uci_elo", "variant": "chess", "engine": "FSF",
                         "engine_limits": {"nodes": 20000}, "evaluation": None,
                         "rungs": [_rung(32768, 2600.0)]}]}
    shipped["sources"]["chess"].update(player="default", search="selective", evaluation={})
    path.write_text(json.dumps(shipped))
    saved = lad.save_ladder(data, path)
    assert saved["sources"]["chess"]["bend"]["uci_elo"] == round(bend)
    assert [e.get("bound") for e in saved["variants"]["chess"]] == [None] * 3 + ["lower"] * 3


def test_a_bound_never_serves_a_requested_elo(tmp_path):
    path = _ladder_file(tmp_path, {"atomic": [
        {"level": {"depth": 1}, "elo": 1600.0}, {"level": {"depth": 5}, "elo": 2300.0},
        {"level": {"depth": 6}, "elo": 2960.0, "bound": "lower"},
        {"level": {"movetime": 1.0}, "elo": 3160.0, "bound": "lower"}]})
    assert [e["level"] for e in strength.levels("atomic", path)] == [{"depth": 1}, {"depth": 5}]
    assert strength.elo_range("atomic", path) == (1600, 2300)
    assert strength.limits_for_elo("atomic", 3000, path) == {"depth": 5}      # clamped
    assert strength.clamp_note("atomic", 2300, path) is None
    note = strength.clamp_note("atomic", 3000, path)
    assert note == ("UCI_Elo 3000 is above the highest measured level of the atomic ladder: "
                    "playing depth 5 (rated 2300); depth 6 is only a lower bound (2960), "
                    "not a rating")


def test_limits_for_elo_monotone_and_in_range(tmp_path):
    path = _ladder_file(tmp_path, {"chess": [
        {"level": {"depth": 1}, "elo": 900.0}, {"level": {"depth": 2}, "elo": 1250.0},
        {"level": {"depth": 3}, "elo": 1600.0}, {"level": {"depth": 4}, "elo": 1550.0},  # noise
        {"level": {"depth": 5}, "elo": 1900.0}, {"level": {"depth": 6}, "elo": None},
        {"level": {"movetime": 0.1}, "elo": 1700.0}]})
    assert strength.elo_range("chess", path) == (900, 1900)
    assert strength.limits_for_elo("chess", 500, path) == {"depth": 1}
    assert strength.limits_for_elo("chess", 1074, path) == {"depth": 1}   # the nearest rating
    assert strength.limits_for_elo("chess", 1076, path) == {"depth": 2}
    assert strength.limits_for_elo("chess", 1700, path) == {"depth": 3}   # 4 is left out, 0.1 s too
    assert strength.limits_for_elo("chess", 1750, path) == {"depth": 3}   # a tie: the weaker
    assert strength.limits_for_elo("chess", 1751, path) == {"depth": 5}
    assert strength.limits_for_elo("chess", 3000, path) == {"depth": 5}
    depths = [strength.limits_for_elo("chess", e, path)["depth"] for e in range(0, 3001, 10)]
    assert depths == sorted(depths) and set(depths) == {1, 2, 3, 5}
    assert strength.has_ladder("chess", path) and not strength.has_ladder("atomic", path)
    with pytest.raises(strength.StrengthError):
        strength.limits_for_elo("atomic", 1500, path)
    with pytest.raises(strength.StrengthError):
        strength.elo_range("crazyhouse", path)


def test_elo_note_names_the_rung_with_its_rating_and_interval_or_the_clamp(tmp_path):
    path = _ladder_file(tmp_path, {"crazyhouse": [
        {"level": {"depth": 1}, "elo": 1406.7, "elo_ci": [1277.9, 1530.6], "games": 32},
        {"level": {"nodes": 3000}, "elo": 1610.2, "elo_ci": [1490.0, 1733.1], "games": 64},
        {"level": {"depth": 3}, "elo": 1641.6, "elo_ci": [1514.8, 1772.5], "games": 32}]})
    assert strength.elo_note("crazyhouse", 1600, path) == (
        "UCI_Elo 1600: playing nodes 3000, rated 1610 [1490, 1733], 64 games, the nearest "
        "measured level of the crazyhouse ladder")
    assert strength.elo_note("crazyhouse", 1640, path).startswith(
        "UCI_Elo 1640: playing depth 3, rated 1642 [1515, 1772]")
    assert strength.elo_note("crazyhouse", 1000, path) == (
        "UCI_Elo 1000 is below the lowest measured level of the crazyhouse ladder: "
        "playing depth 1 (rated 1407)")
    assert strength.limits_for_elo("crazyhouse", 1000, path) == {"depth": 1}
    assert strength.elo_note("crazyhouse", 1700, path).startswith("UCI_Elo 1700 is above")
    assert strength.clamp_note("crazyhouse", 1406.7, path) is None


def test_node_rungs_are_read_through_a_monotone_curve(tmp_path):
    """Node rungs serve UCI_Elo through the curve that joins their ratings by straight
    lines in log2(nodes), between the cheapest and dearest rung, and alone: outside it a
    request is clamped to its ends (the depth rungs beside it serve no request); with
    fewer than three node rungs, the nearest rung plays."""
    noise = [30, -40, 10, 25, -20, -5]
    rungs = [{"level": {"nodes": 100 * 2 ** i}, "elo": 1000 + 100 * i + noise[i], "games": 32}
             for i in range(6)]
    path = _ladder_file(tmp_path, {"chess": [{"level": {"depth": 1}, "elo": 800.0}, *rungs,
                                             {"level": {"depth": 6}, "elo": 1900.0}]})
    fit = strength.node_fit("chess", path)
    assert fit is not None and fit.rungs == 6 and (fit.lo, fit.hi) == (100, 3200)
    assert fit.ratings == (1030, 1060, 1210, 1325, 1380, 1495) and fit.residual_sd == 0
    nodes = strength.limits_for_elo("chess", 1250, path)["nodes"]
    # 40 of the 115 Elo from 400 nodes (1210) to 800 (1325): 400 * 2 ** (40 / 115)
    assert abs(fit.elo(nodes) - 1250) < 1 and nodes == round(400 * 2 ** (40 / 115))
    assert fit.between(nodes) == (400, 800)
    budgets = [strength.limits_for_elo("chess", e, path).get("nodes", 0)
               for e in range(1031, 1495, 10)]
    assert budgets == sorted(budgets) and len(set(budgets)) > 40           # a fine ladder
    assert strength.limits_for_elo("chess", 1850, path) == {"nodes": 3200}  # beyond: clamped
    assert strength.limits_for_elo("chess", 700, path) == {"nodes": 100}
    assert strength.elo_range("chess", path) == (1030, 1495)
    assert strength.elo_note("chess", 1850, path) == (
        "UCI_Elo 1850 is above the dearest node rung of the chess ladder's curve: playing "
        "nodes 3200 (the curve rates it 1495)")
    assert strength.clamp_note("chess", 1250, path) is None
    assert strength.elo_note("chess", 1250, path) == (
        f"UCI_Elo 1250: playing nodes {nodes}, rated 1250 by the curve through the chess "
        "ladder's 6 node rungs (between nodes 400, rated 1210, and nodes 800, 1325)")
    assert fit.interval(nodes) is None          # these rungs have no intervals
    (tmp_path / "two").mkdir()
    two = _ladder_file(tmp_path / "two", {"chess": rungs[:2]})
    assert strength.node_fit("chess", two) is None
    assert strength.limits_for_elo("chess", 1080, two) == {"nodes": 200}


def test_node_rungs_served_nearest_have_no_curve(tmp_path):
    """A ladder whose source says ``"serve": "nearest"`` plays the node rung rated nearest
    the request, with its own rating and interval, and leaves out a rung rated below a
    cheaper one; a later save against the same opponent keeps it so."""
    ladder = {"variants": {"atomic": [_rung(64, 1545.0, 43), _rung(128, 1509.0, 43),
                                      _rung(512, 1707.0, 43), _rung(724, 1760.0, 43),
                                      _rung(1024, 1861.0, 43)]},
              "sources": {"atomic": {"engine": "FSF", "engine_limits": {"nodes": 17000},
                                     "player": "default", "search": "selective",
                                     "evaluation": {}, "serve": "nearest"}}}
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(ladder))
    assert strength.serves_nearest("atomic", path) and strength.node_fit("atomic", path) is None
    assert strength.elo_range("atomic", path) == (1545, 1861)
    assert strength.limits_for_elo("atomic", 1740, path) == {"nodes": 724}
    assert strength.limits_for_elo("atomic", 1520, path) == {"nodes": 64}   # not 128's 1509
    assert strength.elo_note("atomic", 1830, path) == (
        "UCI_Elo 1830: playing nodes 1024, rated 1861 [1818, 1904], 256 games, the nearest "
        "measured level of the atomic ladder")
    del ladder["sources"]["atomic"]["serve"]
    path.write_text(json.dumps(ladder))
    assert strength.node_fit("atomic", path) is not None
    ladder["sources"]["atomic"]["serve"] = "nearest"
    path.write_text(json.dumps(ladder))
    data = {"player": "default", "date": "2026-12-06", "games_per_rung": 256, "command": "c",
            "ladders": [{"scale": "uci_elo", "variant": "atomic", "engine": "FSF",
                         "engine_limits": {"nodes": 17000}, "evaluation": None,
                         "rungs": [_rung(362, 1600.0, 43)]}]}
    saved = lad.save_ladder(data, path)
    assert saved["sources"]["atomic"]["serve"] == "nearest"
    assert strength.limits_for_elo("atomic", 1610, path) == {"nodes": 362}


def test_a_node_curve_may_start_flat(tmp_path):
    """Rungs that rate alike up to a budget and climb above it (crazyhouse's, against
    Fairy-Stockfish) are pooled where they fall: the range starts at the cheapest pool's
    rating, a request below it plays that pool's dearest budget, and the budgets stay
    monotone in the request."""
    rungs = [{"level": {"nodes": 32 * 4 ** i}, "elo": elo, "games": 128}
             for i, elo in enumerate([1460, 1450, 1445, 1480, 1640, 1820, 2000])]
    path = _ladder_file(tmp_path, {"crazyhouse": rungs})
    fit = strength.node_fit("crazyhouse", path)
    assert fit is not None and fit.ratings[:4] == pytest.approx([1451.67] * 3 + [1480],
                                                                 abs=0.01)
    assert fit.knee_nodes == 512 and fit.residual_sd == pytest.approx(4.08, abs=0.01)
    assert strength.elo_range("crazyhouse", path) == (1451, 2000)
    assert strength.limits_for_elo("crazyhouse", 1300, path) == {"nodes": 512}
    assert strength.limits_for_elo("crazyhouse", 1451.67, path) == {"nodes": 512}
    assert strength.limits_for_elo("crazyhouse", 1820, path) == {"nodes": 32768}
    budgets = [strength.limits_for_elo("crazyhouse", e, path)["nodes"]
               for e in range(1400, 2050, 5)]
    assert budgets == sorted(budgets)
    assert strength.elo_note("crazyhouse", 1300, path) == (
        "UCI_Elo 1300 is below the weakest the crazyhouse ladder's node rungs offer: "
        "playing nodes 512 (the curve rates it and every smaller budget 1452)")


def test_a_node_curve_has_an_interval_from_its_rungs(tmp_path):
    """Four rungs each +-60 pooled on one flat stretch rate it to +-30 (their mean); a
    rung of its own rates its budget to its own +-60, and halfway between two such rungs
    the curve, their mean, is rated to +-60 / sqrt(2)."""
    def ladder(folder, elos):
        folder.mkdir()
        return _ladder_file(folder, {"crazyhouse": [
            {"level": {"nodes": 32 * 4 ** i}, "elo": elo, "games": 128,
             "elo_ci": [elo - 60, elo + 60]} for i, elo in enumerate(elos)]})
    path = ladder(tmp_path / "a", [1450, 1450, 1450, 1450, 1630, 1810, 1990])
    fit = strength.node_fit("crazyhouse", path)
    assert fit is not None and fit.residual_sd == 0

    def half(nodes):
        lo, hi = fit.interval(nodes)
        return (hi - lo) / 2
    assert half(64) == pytest.approx(30) and half(8192) == pytest.approx(60)
    assert half(16384) == pytest.approx(60 / math.sqrt(2))
    note = strength.elo_note("crazyhouse", 1700, path)
    assert re.search(r"playing nodes \d+, rated 1700 \[16\d\d, 17\d\d\] by the curve", note)


def test_fallback_and_node_levels(tmp_path):
    path = _ladder_file(tmp_path, {"giveaway": [
        {"level": {"depth": 2}, "elo": 1000.0}, {"level": {"nodes": 5000}, "elo": 1200.0},
        {"level": {"depth": 3}, "elo": 1400.0}]})
    assert strength.ladder_variant("suicide", path) == "giveaway"
    assert strength.ladder_variant("antichess", path) == "giveaway"
    assert strength.ladder_variant("chess", path) is None
    assert strength.limits_for_elo("suicide", 1300, path) == {"nodes": 5000}
    assert strength.elo_range("antichess", path) == (1000, 1400)


def test_the_node_curve_pools_every_node_rung(tmp_path):
    """The curve through the node rungs uses all of them, a rung rated below a cheaper
    one too (what a lookup leaves out): it is pooled with that one, games-weighted."""
    path = _ladder_file(tmp_path, {"crazyhouse": [
        {"level": {"nodes": 100}, "elo": 1500.0, "games": 32},
        {"level": {"nodes": 400}, "elo": 1450.0, "games": 32},
        {"level": {"nodes": 1600}, "elo": 1700.0, "games": 32},
        {"level": {"nodes": 6400}, "elo": 1750.0, "games": 32}]})
    fit = strength.node_fit("crazyhouse", path)
    assert fit is not None and fit.rungs == 4 and (fit.lo, fit.hi) == (100, 6400)
    assert fit.ratings == (1475, 1475, 1700, 1750) and fit.knee_nodes == 400
    assert [e["level"]["nodes"] for e in strength.levels("crazyhouse", path)] == [100, 1600, 6400]


def test_shipped_ladder_serves_every_elo_in_its_range():
    assert strength.ladder_path() == DATA / "ladder.json"     # the tests' user folder is empty
    data = strength.load_ladder()
    assert data["variants"], "search/data/ladder.json lists no variant"
    for variant in data["variants"]:
        if not strength.has_ladder(variant):
            continue
        lo, hi = strength.elo_range(variant)
        assert lo <= hi
        depths, nodes = [], []
        for elo in range(lo - 100, hi + 101, 25):
            limits = strength.limits_for_elo(variant, elo)
            assert len(limits) == 1 and next(iter(limits)) in ("depth", "nodes")
            assert next(iter(limits.values())) >= 1
            depths.append(limits.get("depth", 0))
            nodes.append(limits.get("nodes", 0))
        assert depths == sorted(depths) and nodes == sorted(nodes)


def test_the_shipped_ladder_names_the_evaluation_it_measured():
    """Every variant's source says which weights its games were played with, by name and
    digest (no path of the machine that measured it): each variant's default."""
    sources = strength.load_ladder()["sources"]
    assert set(sources) == set(strength.load_ladder()["variants"])
    for variant, source in sources.items():
        ev = source["evaluation"]
        played = lad.player_evaluation("default", variant)
        assert ev == {"weights": played["weights"], "digest": played["digest"]}, variant
        assert strength.ladder_evaluation(variant) == ev


def _warning_ladder(tmp_path: Path, evaluation: dict | None) -> Path:
    path = tmp_path / "ladder.json"
    source: dict[str, Any] = {"engine": "Fairy-Stockfish", "player": "default"}
    if evaluation is not None:
        source["evaluation"] = evaluation
    path.write_text(json.dumps({
        "variants": {v: [{"level": {"depth": 1}, "elo": 1000.0}] for v in ("crazyhouse", "giveaway")},
        "sources": {"crazyhouse": source, "giveaway": source}}))
    return path


def test_ladder_warning_when_the_engine_plays_other_weights(tmp_path):
    path = _warning_ladder(tmp_path, {"weights": "traditional", "digest": "aaaaaaaaaaaa"})
    played = "learnt-psq (package data: /x/weights.json)"
    assert strength.ladder_warning("crazyhouse", played, "aaaaaaaaaaaa", path) is None
    assert strength.ladder_warning("crazyhouse", played, "bbbbbbbbbbbb", path) == (
        "UCI_Elo: the crazyhouse ladder was measured with the traditional values; this "
        "engine plays learnt-psq (package data: /x/weights.json): its strength may differ")
    # suicide is rated on giveaway's ladder, and says so
    text = strength.ladder_warning("suicide", played, "bbbbbbbbbbbb", path)
    assert text is not None and text.startswith(
        "UCI_Elo: the giveaway ladder (which suicide uses) was measured with the traditional")
    # without a digest, names are compared (a value set's source is "value set NAME")
    assert strength.ladder_warning("crazyhouse", "value set traditional", None, path) is None
    assert strength.ladder_warning("crazyhouse", played, None, path) is not None
    # no ladder for the variant: UCI_Elo maps nothing, nothing to warn about
    assert strength.ladder_warning("chess", played, "bbbbbbbbbbbb", path) is None
    # a ladder that does not say what it measured
    path = _warning_ladder(tmp_path, None)
    text = strength.ladder_warning("crazyhouse", played, "aaaaaaaaaaaa", path)
    assert text is not None and "does not name the evaluation it measured" in text
    path = _warning_ladder(tmp_path, {"weights": "learnt-psq", "digest": "aaaaaaaaaaaa"})
    assert strength.ladder_warning("crazyhouse", "value set traditional", "cccccccccccc", path) == (
        "UCI_Elo: the crazyhouse ladder was measured with learnt-psq; this engine plays "
        "value set traditional: its strength may differ")


def test_ladder_warning_for_the_shipped_ladder_and_defaults():
    """The shipped ladder measured each variant's default evaluation: the default engines
    play without a warning; suicide's learnt tables on giveaway's ladder (the traditional
    values) and chess with the traditional values get one."""
    from search.layout import default_weights, value_set, weights_digest

    for variant in strength.load_ladder()["variants"]:    # every shipped ladder
        w = default_weights(variant)
        assert strength.ladder_warning(variant, w.source, weights_digest(w.w)) is None, variant
    w = default_weights("suicide")
    text = strength.ladder_warning("suicide", w.source, weights_digest(w.w))
    assert text is not None and "the giveaway ladder (which suicide uses)" in text
    assert "measured with the traditional values" in text
    assert w.source is not None and w.source in text
    w = value_set("traditional", "chess")
    text = strength.ladder_warning("chess", w.source, weights_digest(w.w))
    assert text is not None and "measured with learnt-psq" in text


def test_save_ladder_goes_to_the_user_folder_and_is_read_first(tmp_path, monkeypatch):
    before = (DATA / "ladder.json").read_bytes()
    user = tmp_path / "user"
    monkeypatch.setenv("TDLEAF_DATA", str(user))
    shipped_variants = set(strength.load_ladder()["variants"])
    results = _results("chess", {"depth 1": 1111, "depth 2": 2222})
    results["ladders"][0]["evaluation"] = {"weights": "learnt-psq", "digest": "abcdefabcdef"}
    lad.save_ladder(results)
    assert strength.ladder_path() == user / "ladder.json"
    assert (DATA / "ladder.json").read_bytes() == before
    data = strength.load_ladder()
    assert set(data["variants"]) == shipped_variants                    # the others kept
    assert [e["elo"] for e in data["variants"]["chess"]] == [1111, 2222]  # another evaluation: replaced
    assert strength.limits_for_elo("chess", 2300) == {"depth": 2}
    assert strength.ladder_evaluation("chess") == {"weights": "learnt-psq", "digest": "abcdefabcdef"}
    assert strength.ladder_warning("chess", "x", "abcdefabcdef") is None
    # the same evaluation again: levels merge
    results = _results("chess", {"depth 3": 2500})
    results["ladders"][0]["evaluation"] = {"weights": "learnt-psq", "source": "elsewhere",
                                           "digest": "abcdefabcdef"}
    lad.save_ladder(results)
    assert [e["level"] for e in strength.load_ladder()["variants"]["chess"]] == \
        [{"depth": 1}, {"depth": 2}, {"depth": 3}]


def test_strength_does_not_import_tdleaf():
    import subprocess
    import sys
    code = ("import sys, search.protocol.strength as s; s.load_ladder(); "
            "assert not any(m == 'tdleaf' or m.startswith('tdleaf.') for m in sys.modules), "
            "[m for m in sys.modules if m.startswith('tdleaf')]")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120,
                   cwd=Path(__file__).resolve().parent.parent)


# --------------------------------------------------------------------------------------
# The command: errors, and tiny ladders against the real engines
def _results(variant: str, rungs: dict[str, float], engine: str = "Fairy-Stockfish 11.1",
             search: str = "selective", command: str = "tdleaf ladder") -> dict:
    """A results_json of one ladder with the given ``{"depth 3": elo}`` rungs."""
    out = []
    for label, elo in rungs.items():
        kind, value = label.split()
        level = {"depth": int(value)} if kind == "depth" else {"movetime": float(value)}
        out.append({"label": label, "level": level, "elo": elo, "elo_ci": [elo - 100, elo + 100],
                    "games": 32, "wins": 16, "losses": 16, "draws": 0, "extrapolated": False})
    return {"player": "default", "player_settings": {"search": search}, "date": "2026-11-24",
            "games_per_rung": 32, "command": command,
            "ladders": [{"variant": variant, "engine": engine, "engine_limits": {"movetime": 0.1},
                         "scale": "uci_elo", "rungs": out}]}


def test_save_ladder_merges_new_levels_into_the_same_ladder(tmp_path):
    path = tmp_path / "ladder.json"
    lad.save_ladder(_results("chess", {"depth 1": 900, "depth 2": 1100, "movetime 0.1": 1800},
                         command="first"), path)
    shipped = lad.save_ladder(_results("chess", {"depth 2": 1150, "depth 6": 1700, "movetime 1": 2000},
                                   command="second"), path)
    levels = [(e["level"], e["elo"]) for e in shipped["variants"]["chess"]]
    assert levels == [({"depth": 1}, 900), ({"depth": 2}, 1150), ({"depth": 6}, 1700),
                      ({"movetime": 0.1}, 1800), ({"movetime": 1.0}, 2000)]
    runs = shipped["sources"]["chess"]["runs"]
    assert [r["command"] for r in runs] == ["first", "second"]
    assert runs[0]["levels"] == [{"depth": 1}, {"movetime": 0.1}]     # depth 2 was remeasured
    assert strength.limits_for_elo("chess", 1700, path) == {"depth": 6}
    # another search mode is another ladder: replaced whole
    shipped = lad.save_ladder(_results("chess", {"depth 3": 1200}, search="plain"), path)
    assert [e["level"] for e in shipped["variants"]["chess"]] == [{"depth": 3}]
    assert len(shipped["sources"]["chess"]["runs"]) == 1
    assert strength.ladder_search("chess", path) == "plain"


def test_save_ladder_reads_a_source_saved_before_runs_were_listed(tmp_path):
    path = tmp_path / "ladder.json"
    entry = {"level": {"depth": 1}, "elo": 900.0, "elo_ci": [800, 1000], "games": 32,
             "wins": 16, "losses": 16, "draws": 0, "extrapolated": False}
    path.write_text(json.dumps({"variants": {"chess": [entry]}, "sources": {"chess": {
        "engine": "Fairy-Stockfish 11.1", "engine_limits": {"movetime": 0.1}, "player": "default",
        "search": "selective", "date": "2026-11-23", "games_per_rung": 32, "command": "old",
        "note": "n"}}}))
    shipped = lad.save_ladder(_results("chess", {"depth 6": 1700}, command="new"), path)
    assert [e["level"] for e in shipped["variants"]["chess"]] == [{"depth": 1}, {"depth": 6}]
    assert [(r["command"], r["levels"]) for r in shipped["sources"]["chess"]["runs"]] == \
        [("old", [{"depth": 1}]), ("new", [{"depth": 6}])]


# --------------------------------------------------------------------------------------

def test_the_command_line_of_a_config_reproduces_it():
    """The command recorded with a ladder leaves out what is at LadderConfig's defaults
    (which the command line reads), but for the rungs and the games."""
    cfg = lad.LadderConfig(games=32)
    assert "tdleaf ladder " + " ".join(lad.command_line(cfg, remeasure=True)) == \
        "tdleaf ladder --remeasure --depths 1,2,3,4,5,6 --movetimes 0.1,1 --games 32"
    cfg = lad.LadderConfig(player="traditional", rungs=lad.make_rungs([2], [1000], []),
                           engine_limits={"depth": 6}, seed=3, skill_levels=False,
                           engine_options={"*": {"Hash": "8"}, "sjeng": {"x": "1"}})
    cfg.adjudication.draw_moves = 5
    assert lad.command_line(cfg, variants=["crazyhouse"], engine="sjeng") == [
        "--variant", "crazyhouse", "--engine", "sjeng", "--player", "traditional",
        "--depths", "2", "--movetimes", "", "--games", "16", "--nodes", "1000",
        "--engine-depth", "6", "--seed", "3", "--draw-moves", "5",
        "--engine-option", "Hash=8", "--engine-option", "sjeng.x=1", "--no-skill-levels"]
    # The MCTS, guided by a network: its rungs are playouts (nodes) or move times.
    cfg = lad.LadderConfig(player_settings={"search": "mcts", "net": "shipped"},
                           rungs=lad.make_rungs([], [200, 800], []))
    assert lad.command_line(cfg)[:6] == ["--search", "mcts", "--net", "shipped", "--depths", ""]
    with pytest.raises(lad.LadderError, match="the MCTS has no depth"):
        lad.LadderConfig(player_settings={"search": "mcts"}).validate()
    with pytest.raises(lad.LadderError, match="random plies"):
        lad.LadderConfig(random_plies=-1).validate()
    with pytest.raises(lad.LadderError, match="must be > 0"):
        lad.LadderConfig(engine_limits={"movetime": 0.0}).validate()
    # A node limit: the opponent's search the same on any machine.
    cfg = lad.LadderConfig(rungs=lad.make_rungs([], [512], []), engine_limits={"nodes": 42000})
    assert lad.command_line(cfg)[-2:] == ["--engine-nodes", "42000"]
    with pytest.raises(lad.LadderError, match="--engine-nodes"):
        lad.LadderConfig(engine_limits={"Hash": 8}).validate()


def test_cli_errors(tmp_path, capsys, monkeypatch):
    assert main(["ladder", "--variant", "nosuchchess", "--out", str(tmp_path / "a")]) == 2
    assert "nosuchchess" in capsys.readouterr().err
    # Every variant has a reference engine now: one without (antichess until issue 64).
    monkeypatch.setattr(lad.registry, "DEFAULT_PLAN",
                        [(v, e) for v, e in lad.registry.DEFAULT_PLAN if v != "antichess"])
    assert main(["ladder", "--variant", "antichess", "--out", str(tmp_path / "b")]) == 2
    assert "no reference engine for antichess" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["ladder", "--variant", "chess", "--engine", "nosuch",
                 "--out", str(tmp_path / "c")]) == 2
    assert "unknown engine" in capsys.readouterr().err
    assert main(["ladder", "--variant", "chess", "--engine", "uci:/nonexistent/engine-xyz",
                 "--depths", "1", "--movetimes", "", "--out", str(tmp_path / "d")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["ladder", "--variant", "chess", "--resume"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err
    assert main(["ladder", "--variant", "chess", "--depths", "", "--movetimes", ""]) == 2
    assert "no rungs" in capsys.readouterr().err
    assert main(["ladder", "--variant", "chess", "--depths", "x"]) == 2
    capsys.readouterr()


def test_cli_engine_that_cannot_play_the_variant(tmp_path, capsys):
    engine_path("sjeng")
    assert main(["ladder", "--variant", "atomic", "--engine", "sjeng", "--depths", "1",
                 "--movetimes", "", "--out", str(tmp_path / "x")]) == 2
    assert "does not play atomic" in capsys.readouterr().err


FAST = ["--movetimes", "", "--games", "2", "--max-plies", "40", "--random-plies", "4",
        "--no-progress"]


def test_tiny_ladder_against_fairy_stockfish(tmp_path, capsys):
    engine_path("fairy-stockfish")
    out = tmp_path / "ladder"
    saved = tmp_path / "shipped.json"
    args = ["ladder", "--variant", "chess", "--engine", "fairy-stockfish", "--depths", "1-2",
            "--engine-movetime", "0.02", "--engine-option", "Hash=8", "--out", str(out), *FAST]
    assert main([*args, "--save", str(saved)]) == 0
    text = capsys.readouterr().out
    assert "## chess against Fairy-Stockfish" in text and "| depth 2 | 2 |" in text
    data = json.loads((out / "ladder.json").read_text())
    (ladder,) = data["ladders"]
    assert ladder["scale"] == "uci_elo" and ladder["engine_limits"] == {"movetime": 0.02}
    assert ladder["engine_options"] == {"Hash": "8"}
    assert [r["label"] for r in ladder["rungs"]] == ["depth 1", "depth 2"]
    for r in ladder["rungs"]:
        assert r["games"] == 2 and r["wins"] + r["losses"] + r["draws"] == 2
        assert len(r["elo_ci"]) == 2
        assert r["opponents"] and all(o["setting"] for o in r["opponents"])
    assert not list(out.rglob("*.pgn"))              # each batch's working file packed
    pgns = sorted(out.rglob("*.pgn.gz"))
    assert [p.relative_to(out).as_posix() for p in pgns] == [
        "chess-fairy-stockfish/depth-1/games.pgn.gz", "chess-fairy-stockfish/depth-2/games.pgn.gz"]
    assert [m.count("[Event ") for m in read_members(pgns[0])] == [2]     # a member a batch
    assert (out / "ladder.md").exists()
    shipped = json.loads(saved.read_text())
    assert [e["level"] for e in shipped["variants"]["chess"]] == [{"depth": 1}, {"depth": 2}]
    assert shipped["sources"]["chess"]["runs"][0]["games_per_rung"] == 2
    # a second run without --resume refuses; with it, nothing is replayed
    assert main(args) == 2
    assert "--resume" in capsys.readouterr().err
    before = {p: p.read_bytes() for p in pgns}
    assert main([*args, "--resume"]) == 0
    capsys.readouterr()
    assert {p: p.read_bytes() for p in pgns} == before
    assert json.loads((out / "ladder.json").read_text())["ladders"][0]["rungs"] == ladder["rungs"]


def test_a_ladder_against_fairy_stockfish_at_a_node_limit(tmp_path, capsys):
    """--engine-nodes: the opponent gets a node limit, not a move time, in every game,
    and the ladder records it (the command that measured it, its limits)."""
    engine_path("fairy-stockfish")
    out = tmp_path / "ladder"
    assert main(["ladder", "--variant", "chess", "--engine", "fairy-stockfish", "--depths", "1",
                 "--engine-nodes", "3000", "--engine-option", "Hash=8", "--out", str(out),
                 *FAST]) == 0
    assert "3000 nodes" in capsys.readouterr().out
    (ladder,) = json.loads((out / "ladder.json").read_text())["ladders"]
    assert ladder["engine_limits"] == {"nodes": 3000}
    assert "--engine-nodes 3000" in json.loads((out / "ladder.json").read_text())["command"]
    text = "".join(read_members(out / "chess-fairy-stockfish/depth-1/games.pgn.gz"))
    settings = re.findall(r'\[(?:White|Black)Settings "([^"]*)"\]', text)
    engine = [s for s in settings if "UCI_LimitStrength" in s or "Skill" in s]
    assert len(engine) == 2 and all("nodes=3000" in s and "movetime" not in s for s in engine)


@pytest.mark.slow
def test_remeasure_killed_and_resumed_against_fairy_stockfish(tmp_path, monkeypatch, capsys):
    """`tdleaf ladder --remeasure` (one command for every variant; here chess only, one
    rung): killed after its first batch, the same command carries on without replaying
    a game, and saves the ladder with the evaluation it measured (the default weights)
    into the user folder, read from then on."""
    engine_path("fairy-stockfish")
    user = tmp_path / "user"
    monkeypatch.setenv("TDLEAF_DATA", str(user))
    out = tmp_path / "remeasure"
    args = ["ladder", "--remeasure", "--variant", "chess", "--depths", "1", *FAST,
            "--games", "6", "--engine-movetime", "0.02", "--engine-option", "Hash=8",
            "--out", str(out)]
    packed = out / "chess-fairy-stockfish" / "depth-1" / "games.pgn.gz"
    proc = subprocess.Popen([sys.executable, "-m", "tdleaf", *args], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while not read_members(packed):
            assert proc.poll() is None, "the ladder ended before its first batch was seen"
            assert time.monotonic() < deadline, "no first batch"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)          # the ladder and its engines
        proc.wait(timeout=60)
    assert not (user / "ladder.json").exists(), "killed before the end: nothing saved yet"
    played = read_members(packed)[0]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"saved the UCI_Elo ladders to {user / 'ladder.json'}" in err
    members = read_members(packed)
    assert len(members) == 3 and members[0] == played         # not replayed
    assert not list(packed.parent.glob("b*.pgn"))
    (ladder,) = json.loads((out / "ladder.json").read_text())["ladders"]
    assert [r["games"] for r in ladder["rungs"]] == [6]
    evaluation = lad.player_evaluation("default", "chess")
    assert ladder["evaluation"] == evaluation and evaluation["weights"] == "learnt-psq"
    from search.layout import default_weights, weights_digest
    w = default_weights("chess")
    assert evaluation["digest"] == weights_digest(w.w) and evaluation["source"] == w.source
    assert strength.ladder_path() == user / "ladder.json"
    saved = strength.load_ladder()
    # the saved ladder names the evaluation, not where this machine loaded it from
    assert saved["sources"]["chess"]["evaluation"] == {"weights": "learnt-psq",
                                                       "digest": evaluation["digest"]}
    assert [e["level"] for e in saved["variants"]["chess"]] == [{"depth": 1}]
    assert "--remeasure" in saved["sources"]["chess"]["runs"][0]["command"]
    assert strength.ladder_warning("chess", w.source, weights_digest(w.w)) is None
    # the other variants' shipped ladders are kept
    shipped = strength.ladder_evaluation("crazyhouse", DATA / "ladder.json")
    assert shipped is not None and strength.ladder_evaluation("crazyhouse") == shipped


def test_a_rung_resumes_from_its_packed_batches(tmp_path, capsys):
    """A rung's batches are members of its games.pgn.gz, a batch played into a working
    file first: resumed, a working file of a batch already packed (killed between the two
    steps) is deleted, a partial one is carried on and packed, a torn last member is cut
    off and its batch played again; a rung of one PGN a batch is refused."""
    engine_path("fairy-stockfish")
    out = tmp_path / "ladder"
    args = ["ladder", "--variant", "chess", "--engine", "fairy-stockfish", "--depths", "1",
            "--engine-movetime", "0.02", "--engine-option", "Hash=8", "--out", str(out),
            *FAST, "--games", "4"]
    assert main(args) == 0
    rung = out / "chess-fairy-stockfish" / "depth-1"
    packed, work = rung / "games.pgn.gz", rung / "b002.pgn"
    members = read_members(packed)
    assert [m.count("[Event ") for m in members] == [2, 2]
    assert [(e["batch"], e["pgn"], e["member"]) for e in
            json.loads((rung / "batches.json").read_text())] == [(1, "games.pgn.gz", 1),
                                                                  (2, "games.pgn.gz", 2)]
    rungs = json.loads((out / "ladder.json").read_text())["ladders"][0]["rungs"]
    whole = packed.read_bytes()
    capsys.readouterr()

    work.write_text(members[1])                    # killed after packing batch 2
    assert main([*args, "--resume"]) == 0
    assert not work.exists() and packed.read_bytes() == whole
    assert json.loads((out / "ladder.json").read_text())["ladders"][0]["rungs"] == rungs

    unzip = zlib.decompressobj(wbits=31)
    assert unzip.decompress(whole) == members[0].encode()
    first_member = len(whole) - len(unzip.unused_data)          # where member 1 ends
    packed.write_bytes(whole[:first_member])       # batch 2 half played, not packed
    second_first_game = members[1][:members[1].index("[Event ", 1)]
    work.write_text(second_first_game)
    assert main([*args, "--resume"]) == 0
    again = read_members(packed)
    assert not work.exists() and len(again) == 2 and again[0] == members[0]
    assert again[1].startswith(second_first_game) and again[1].count("[Event ") == 2

    packed.write_bytes(whole[:first_member] + whole[first_member:][:40])    # a torn member
    assert main([*args, "--resume"]) == 0
    assert [m.count("[Event ") for m in read_members(packed)] == [2, 2]
    assert read_members(packed)[0] == members[0]

    manifest = json.loads((rung / "batches.json").read_text())
    old = [{"batch": e["batch"], "file": f"b{e['batch']:03d}.pgn", "setting": e["setting"],
            "elo": e["elo"], "options": e["options"]} for e in manifest]
    (rung / "batches.json").write_text(json.dumps(old))
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    assert "runs/ladders/repack.py" in capsys.readouterr().err


def test_remeasure_errors(tmp_path, capsys):
    assert main(["ladder", "--remeasure"]) == 2
    assert "--remeasure needs --out" in capsys.readouterr().err
    assert main(["ladder", "--remeasure", "--player", "traditional", "--out", str(tmp_path)]) == 2
    assert "drop --engine and --player" in capsys.readouterr().err
    assert main(["ladder", "--remeasure", "--variant", "suicide", "--out", str(tmp_path)]) == 2
    assert "its UCI_Elo uses the giveaway ladder" in capsys.readouterr().err
    assert lad.remeasure_plan() == [("chess", "fairy-stockfish"), ("crazyhouse", "fairy-stockfish"),
                                    ("giveaway", "fairy-stockfish"),
                                    ("antichess", "fairy-stockfish"),     # since issue 64
                                    ("atomic", "fairy-stockfish-wasm"),
                                    # lichess's other four, against Debian's build
                                    ("kingofthehill", "fairy-stockfish"),
                                    ("3check", "fairy-stockfish"),
                                    ("racingkings", "fairy-stockfish"),
                                    ("horde", "fairy-stockfish")]


def test_resume_refuses_another_evaluation(tmp_path):
    out = tmp_path / "l"
    out.mkdir()
    lad.write_results(out, [], lad.LadderConfig())
    data = json.loads((out / "ladder.json").read_text())
    data["ladders"] = [{"variant": "chess", "engine_spec": "uci:fairy-stockfish",
                        "evaluation": {"weights": "traditional", "digest": "000000000000"}}]
    (out / "ladder.json").write_text(json.dumps(data))
    with pytest.raises(lad.LadderError, match="measured with traditional .*now plays learnt-psq"):
        lad.run_ladders([("chess", "fairy-stockfish")], lad.LadderConfig(), out, resume=True)


def test_tiny_ladder_against_sjeng(tmp_path, capsys):
    engine_path("sjeng")
    out = tmp_path / "ladder"
    assert main(["ladder", "--variant", "crazyhouse", "--engine", "sjeng", "--depths", "1",
                 "--engine-depth", "2", "--out", str(out), *FAST]) == 0
    text = capsys.readouterr().out
    assert "Elo vs Sjeng" in text
    (ladder,) = json.loads((out / "ladder.json").read_text())["ladders"]
    assert ladder["scale"] == "fixed" and ladder["engine_limits"] == {"depth": 2}
    (rung,) = ladder["rungs"]
    assert rung["games"] == 2
    if rung["wins"] == 2 or rung["losses"] == 2:          # all one way: +-inf, one-sided
        assert rung["elo"] == ("+inf" if rung["wins"] else "-inf")
        assert (rung["elo_ci"][0] == "-inf") != (rung["elo_ci"][1] == "+inf")
    else:
        assert isinstance(rung["elo"], float)
        assert rung["elo"] == pytest.approx(stats.score_to_elo(rung["score"]), abs=0.1)
    # Sjeng's figures are differences, not UCI_Elo: --save has nothing to write
    assert main(["ladder", "--variant", "crazyhouse", "--engine", "sjeng", "--depths", "1",
                 "--engine-depth", "2", "--out", str(out), "--resume", "--save",
                 str(tmp_path / "s.json"), *FAST]) == 2
    assert "no ladder on the UCI_Elo scale" in capsys.readouterr().err


def test_the_docs_quote_the_uci_elo_check_as_its_matches_score(monkeypatch):
    """docs/matches.md and BENCHMARKS.md hold runs/strength/report.py's table of the
    check matches (runs/strength/check/*/summary.json) as it reads today, and every
    other report of it they quote (the checks played again) as it reads today."""
    report = _strength_script("report")
    table = report.table()
    assert table.count("\n") >= 5                  # the header, its rule, crazyhouse's three
    for path in report.QUOTED:
        assert report.quoted(path) == table, f"{path}: python runs/strength/report.py --write"
        for options in report.quoted_options(path):
            assert report.quoted(path, options) == report.report(options), \
                f"{path}: python runs/strength/report.py {options} --write"
    # A check's chance to meet the target, were the ladder right, counts the curve's error
    # beside the check's own: below what an exact curve would leave it, and none where
    # depth rungs, not a curve, chose the limit.
    from statistics import NormalDist
    exact = 2 * NormalDist().cdf(45 / (55 / 1.96)) - 1
    assert report.chance(55, 0.0) == pytest.approx(exact)
    assert 0.5 < report.chance(55, 15.0) < exact
    assert report.chance(55, None) is None
    # All checks together: a variant's checks share their curve's error, so three
    # checks of one variant tell its lean no better than that error allows; a check
    # without a curve leaves no figure.
    folder = ROOT / "runs/strength/check"
    found = [c for c in report.checks(folder) if c[1]["variant"] == "crazyhouse"]
    assert len(found) == 3
    mean, half = report.lean(found)
    assert mean == pytest.approx(sum(s["elo_pentanomial"] for _, s, _ in found) / 3)
    curve = sum(report.fit_sd("crazyhouse", f, elo) for f, _, elo in found) / 3
    assert half > 1.96 * curve
    monkeypatch.setattr(report, "fit_sd", lambda *args: None)
    assert report.lean(found) is None


def test_a_check_played_again_pools_with_the_earlier_one_at_the_node_limit(tmp_path):
    """A check played again adds its games and game pairs to the earlier check of the
    same setting against the opponent at its node limit (check-nodes/, else check/
    where its command gave that limit), tdleaf at the same limit, and the Elo comes
    from the pairs together."""
    report = _strength_script("report")
    chess = report.earlier("chess", 1450)
    assert chess is not None and chess.parent.name == "check-nodes"
    racing = report.earlier("racingkings", 2050)
    assert racing is not None and racing.parent.name == "check"     # played at the limit
    assert report.earlier("racingkings", 1950) is None              # at 0.1 s a move only
    # Played again at another limit (a ladder measured again): nothing to pool with.
    (tmp_path / "limit.json").write_text(json.dumps({"limit": {"nodes": 720}}))
    assert report.earlier("chess", 1450, tmp_path) is None
    first = json.loads((chess / "summary.json").read_text())
    again = json.loads((report.HERE / "check/chess-1450/summary.json").read_text())
    both = report.pooled(first, again)
    assert both["games"] == first["games"] + again["games"] == 200
    assert sum(both["pentanomial"]) == 100
    lo, hi = both["elo_pentanomial_ci"]
    assert lo < both["elo_pentanomial"] < hi
    # Twice the pairs: the interval narrows by about the square root of two.
    narrower = (hi - lo) / (again["elo_pentanomial_ci"][1] - again["elo_pentanomial_ci"][0])
    assert 0.6 < narrower < 0.85
    assert min(first["elo_pentanomial"], again["elo_pentanomial"]) <= both["elo_pentanomial"] \
        <= max(first["elo_pentanomial"], again["elo_pentanomial"])


def test_the_node_curve_pools_by_games():
    """A rung rated below a cheaper one is pooled with it, games-weighted, and the pooled
    ratings are joined by straight lines in log2 nodes, flat beyond the ends."""
    assert strength.isotonic([1300, 1100, 1400], [100, 300, 100]) == ([1150, 1150, 1400],
                                                                      [0, 0, 1])
    fit = strength.fit_rungs(((32, 1300.0, 100.0, None), (128, 1100.0, 300.0, None),
                              (512, 1400.0, 100.0, None)))
    assert fit is not None and fit.elo(256) == pytest.approx(1275.0)
    assert fit.elo(16) == 1150.0 and fit.elo(1024) == 1400.0
    assert strength.fit_rungs(((32, 1300.0, 1.0, None), (128, 1200.0, 1.0, None),
                               (512, 1250.0, 1.0, None))) is None       # does not rise


def _strength_script(name: str):
    """A script of runs/strength/ imported by its path (the folder on sys.path, as when
    run, for the scripts it imports in turn)."""
    import importlib.util
    if str(ROOT / "runs/strength") not in sys.path:
        sys.path.insert(0, str(ROOT / "runs/strength"))
    spec = importlib.util.spec_from_file_location(name, ROOT / f"runs/strength/{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_check_records_the_limit_it_plays_and_refuses_another(tmp_path):
    """runs/strength/plan.py's checks: each folder records the limit the ladder plays at
    its UCI_Elo (report.py shows that one), and a check whose ladder now plays another
    is not carried on as if it were the same."""
    plan = _strength_script("plan")
    folder = tmp_path / "crazyhouse-1750"
    plan.played_at(folder, "crazyhouse", 1750, plan.SHIPPED)
    recorded = json.loads((folder / "limit.json").read_text())
    assert recorded["limit"] == strength.limits_for_elo("crazyhouse", 1750)
    plan.played_at(folder, "crazyhouse", 1750, plan.SHIPPED)          # the same: carries on
    (folder / "limit.json").write_text(json.dumps({**recorded, "limit": {"nodes": 1}}))
    with pytest.raises(SystemExit, match="now plays"):
        plan.played_at(folder, "crazyhouse", 1750, plan.SHIPPED)


def test_the_opponents_depth_in_antichess_rungs_is_what_results_cites():
    """runs/strength/opponent_depth.py reads the committed rung's games: Fairy-Stockfish
    searched deeper in the batches played on the second machine (RESULTS.md,
    "Antichess")."""
    depth = _strength_script("opponent_depth")
    rung = ROOT / "runs/ladders/antichess-nodes/antichess-fairy-stockfish/nodes-32"
    first = depth.batch_range(rung, 1, 64)
    second = depth.batch_range(rung, 65, None)
    assert (first["games"], second["games"], second["last"]) == (128, 128, 128)
    assert round(first["opponent_depth"], 2) == 9.83 and round(second["opponent_depth"], 2) == 12.41
    assert round(first["tdleaf_score"], 3) == 0.492 and round(second["tdleaf_score"], 3) == 0.379


def test_a_replayed_games_settings_become_the_opponents_options():
    replay = _strength_script("opponent_replay")
    assert replay.options("movetime=0.1 UCI_LimitStrength=true UCI_Elo=1500") == {
        "UCI_LimitStrength": "true", "UCI_Elo": "1500"}
    assert replay.options("movetime=0.1 Skill Level=-4") == {"Skill Level": "-4"}
    # Games saved before the Settings headers name the setting in the opponent's name.
    game = chess.pgn.Game()
    game.headers.update({"White": "tdleaf depth 3", "Black": "Fairy-Stockfish LB (UCI_Elo 1900)"})
    assert replay.settings_of(game) == {"UCI_LimitStrength": "true", "UCI_Elo": "1900"}
    game.headers.update({"White": "Fairy-Stockfish 11.1 LB 64 (Skill Level -3)",
                         "Black": "tdleaf nodes 32"})
    assert replay.settings_of(game) == {"Skill Level": "-3"}
    game.headers["WhiteSettings"] = "nodes=22000 UCI_LimitStrength=true UCI_Elo=1850"
    assert replay.settings_of(game) == {"UCI_LimitStrength": "true", "UCI_Elo": "1850"}


def test_each_variants_bend_is_where_its_opponents_recorded_depth_puts_it():
    """runs/strength/bends.json (bends.py's output) holds the depth opponent-nodes.md
    recorded for each variant and the bend it gives; plan.py finds atomic's pair above
    its bend flat (the rule in its docstring)."""
    plan = _strength_script("plan")
    bends = json.loads((ROOT / "runs/strength/bends.json").read_text())
    table = (ROOT / "runs/strength/opponent-nodes.md").read_text()
    found = re.findall(r"^\| (\w+) \| \*\*[\d,]+\*\* \| \d+ \| ([\d.]+) \|", table, re.MULTILINE)
    assert {v: float(d) for v, d in found} == {v: b["depth"] for v, b in bends.items()}
    assert all(b["bend"] == round(lad.bend_elo(b["depth"])) for b in bends.values())
    assert plan.flat_above_bend("atomic") == ROOT / "runs/strength/scale-atomic/2150-2600"
    assert plan.flat_above_bend("chess") is None


def test_the_opponents_node_limits_are_one_set_of_numbers():
    """runs/strength/opponent-nodes.json (opponent_nodes.py's output) is what its table,
    the checks at those limits, plan.py and docs/engine.md use."""
    plan = _strength_script("plan")
    limits = json.loads((ROOT / "runs/strength/opponent-nodes.json").read_text())
    table = (ROOT / "runs/strength/opponent-nodes.md").read_text()
    found = dict(re.findall(r"^\| (\w+) \| \*\*([\d,]+)\*\* \|", table, re.MULTILINE))
    assert {v: int(n.replace(",", "")) for v, n in found.items()} == limits
    checks = sorted((ROOT / "runs/strength/check-nodes").iterdir())
    assert len(checks) == 19            # the seven middle checks, six high, six low
    for folder in checks:
        variant = folder.name.rsplit("-", 1)[0]
        assert f"B.nodes={limits[variant]} " in (folder / "command.sh").read_text()
        assert json.loads((folder / "summary.json").read_text())["games"] == 100
    for variant in plan.NODE_LIMITED:
        assert plan.opponent_limit(variant) == ["--engine-nodes", str(limits[variant])]
    assert plan.opponent_limit("chess") == [] and plan.stem("chess") == "chess-nodes"
    assert plan.check_limits("chess") == ["--movetime", "0.1"]
    assert plan.check_limits("racingkings", at_limit=True) == [
        "-o", "A.movetime=0.1", "-o", f"B.nodes={limits['racingkings']}"]
    assert plan.check_limits("atomic") == ["-o", "A.movetime=0.1", "-o",
                                           f"B.nodes={limits['atomic']}"]
    doc = (ROOT / "docs/engine.md").read_text()
    for variant in ("chess", "crazyhouse", "giveaway"):
        assert re.search(rf"{variant}\s+{limits[variant]:,}\b", doc), variant


@pytest.mark.slow
def test_the_batches_benchmark_plays_the_same_series_both_ways(capsys):
    """``tdleaf bench batches``: the series of a ladder's batches, with the players
    started every batch and kept by a pool: the same games each way."""
    engine_path("fairy-stockfish")
    assert main(["bench", "batches", "--variant", "chess", "--batches", "2", "--rounds", "1",
                 "--workers", "1", "--nodes", "100", "--engine-nodes", "1000", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engine"] == "fairy-stockfish"
    assert [[r["games"] for r in report["runs"][w]] for w in ("started", "kept")] == [[4], [4]]
    assert report["ratio"] > 0
