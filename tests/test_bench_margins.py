"""``tdleaf bench margins``: the pruning margins refitted to an evaluation's swings."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tdleaf.cli import main
from tdleaf.learn.margins import MARGINS, failure_rate, margin_at, refit, swings
from variants.spec import get as spec


def _stats(seed: int, n: int = 300) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"gain": np.abs(rng.normal(0.0, 0.5, (n, 1))), "gap": rng.normal(0.3, 1.0, (n, 3)),
            "change": rng.normal(0.0, 0.4, (n, 3))}


def test_a_failure_rate_counts_the_bets_that_pass_margin_times_depth():
    _, bets = MARGINS["razor_margin"]            # the gap above R at depth 1, 2R at depth 2
    stats = {"gap": np.array([[0.5, 1.5, 0.0], [2.5, 2.5, 0.0], [np.nan, np.nan, np.nan]])}
    # R = 1: 0.5 < 1, 2.5 > 1 at depth 1; 1.5 < 2, 2.5 > 2 at depth 2: 2 of 4 bets fail.
    assert failure_rate(stats, bets, 1.0) == 0.5
    assert failure_rate(stats, bets, 3.0) == 0.0
    assert margin_at(stats, bets, 0.0) == pytest.approx(2.5, abs=1e-3)


@pytest.mark.parametrize("field", list(MARGINS))
def test_a_refit_is_the_spec_for_the_same_evaluation_and_scales_with_its_swings(field):
    _, bets = MARGINS[field]
    ref = _stats(1)
    same = refit(ref, ref, bets, 0.8, resamples=20)
    assert same["refit"] == pytest.approx(0.8) and same["ratio"] == pytest.approx(1.0)
    doubled = refit(ref, {k: 2 * x for k, x in ref.items()}, bets, 0.8, resamples=20)
    assert doubled["refit"] == pytest.approx(1.6, abs=0.051)
    assert doubled["interval"][0] <= doubled["refit"] <= doubled["interval"][1]
    assert doubled["rate_measured"] > same["rate_measured"]


def test_swings_leave_out_checks_and_agree_with_the_search():
    from search import Engine

    fens = ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",   # no queen: quiet
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]     # mated
    s = swings("crazyhouse", "learnt-psq", fens)
    assert np.isnan(s["gap"][2]).all() and np.isfinite(s["gap"][:2]).all()
    engine = Engine("crazyhouse", "learnt-psq", search="plain")
    for i in range(2):
        v = [engine.search(fens[i], depth=d).score for d in (2, 3)]
        assert s["change"][i, 1] == pytest.approx(v[1] - v[0])
        assert s["gain"][i, 0] > -5           # some quiet move exists and is scored


def test_the_command_refits_every_margin_and_keeps_the_spec_for_the_reference(capsys):
    assert main(["bench", "margins", "--variant", "crazyhouse", "--weights", "learnt-psq",
                 "--positions", "12", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert row["used"] > 0 and row["positions"] == 12
    v = spec("crazyhouse")
    for field, m in row["margins"].items():
        assert m["spec"] == getattr(v, field) and m["refit"] == pytest.approx(m["spec"])


def test_a_variant_without_the_reference_tables_is_refused(capsys):
    assert main(["bench", "margins", "--variant", "giveaway"]) == 2
    assert "learnt-psq" in capsys.readouterr().err


@pytest.mark.slow
def test_saved_margins_are_played_and_a_second_fit_starts_from_the_spec(tmp_path, capsys):
    import shutil

    from search import Engine
    from search.layout import reference_weights, weights_file

    path = weights_file(reference_weights("learnt-psq", "crazyhouse"))
    assert path is not None
    shutil.copy(path, tmp_path / "weights.json")
    args = ["bench", "margins", "--variant", "crazyhouse", "--weights", str(tmp_path),
            "--positions", "12", "--json"]
    assert main([*args, "--save"]) == 0
    first = json.loads(capsys.readouterr().out)["rows"][0]
    assert first["saved"] == str(tmp_path / "weights.json")
    played = Engine("crazyhouse", str(tmp_path)).margins
    assert played == {f: m["refit"] for f, m in first["margins"].items()}
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)["rows"][0]
    for f, m in second["margins"].items():
        assert m["plays"] == played[f] and m["spec"] == getattr(spec("crazyhouse"), f)
        assert m["refit"] == first["margins"][f]["refit"]
