"""RESULTS.md's table of learnt piece values (tests/data/make_values_table.py): one row per
lichess variant and suicide (two for horde's colours), each from its material reference
experiment's summary.json, beside the multi-variant Stockfish's values."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from search.layout import value_set

ROOT = Path(__file__).resolve().parent.parent


def _module(name: str = "make_values_table"):
    """A script of tests/data, imported."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "data" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_row_per_variant_from_its_summary():
    rows = _module().rows()
    labels = [r.split(" | ")[0].lstrip("| ").split(" (")[0] for r in rows[2:]]
    assert labels == ["chess", "crazyhouse", "antichess", "atomic", "kingofthehill", "3check",
                      "racingkings", "horde", "horde", "suicide"]
    chess = rows[2]
    summary = json.loads((ROOT / "runs/reference/chess/material/summary.json").read_text())
    view = summary["normalised"]["B=3"]
    assert chess.startswith(f"| chess ({summary['runs']} runs, depth 4) | B = 3 | "
                            f"{view['P']:.2f} \u00b1")
    # The Stockfish column: its values normalised as the learnt ones are.
    sf = value_set("stockfish", "chess").w
    assert chess.endswith(" ".join(f"{x:.2f}" for x in sf[:5]) + " |")
    suicide = rows[-1]
    assert suicide.count("\u00b1") == 6          # the king is learnt in suicide


def test_the_curves_table_has_a_row_per_folder_and_a_column_per_snapshot(tmp_path):
    module = _module("make_curves_table")

    def point(games, elo, cpu):
        return {"games": games, "elo": elo, "elo_ci": [elo - 40, elo + 45], "cpu_hours": cpu,
                "score": 0.5, "games_played": 1000}

    a, b = tmp_path / "a", tmp_path / "b"
    for folder, method, points in ((a, "tdleaf", [point(0, -135.2, 0), point(60, 117.4, 0.01)]),
                                   (b, "treestrap-ab", [point(0, -120, 0)])):
        folder.mkdir()
        (folder / "curve.json").write_text(json.dumps(
            {"method": method, "init": "ones", "points": points}))
    table = module.rows([a, b, tmp_path / "none"])
    assert table[0] == "| learner, start | 0 games | 60 games | CPU h to the last |"
    assert table[2] == "| TDLeaf, ones | -135 [-175, -90] | +117 [+77, +162] | 0.01 |"
    assert table[3] == "| TreeStrap(ab), ones | -120 [-160, -75] |  | 0.00 |"
