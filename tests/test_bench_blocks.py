"""``tdleaf bench blocks``: each leaf block's cost, measured on the same tree (zero block
weights). Behaviour only: times are never asserted."""

from __future__ import annotations

import json

import pytest

from search.layout import extra_blocks
from tdleaf.cli import main


def test_the_blocks_that_fit_each_variant():
    assert extra_blocks("atomic") == ["mobility", "atomic", "kingrel", "safety"]
    assert extra_blocks("crazyhouse") == ["mobility", "handcount", "kingrel", "safety", "drops"]
    assert "chains" in extra_blocks("giveaway") and "atomic" not in extra_blocks("chess")
    assert "hill" not in extra_blocks("kingofthehill")        # already in its psq set


def test_a_run_searches_the_same_tree_with_and_without_each_block(capsys):
    assert main(["bench", "blocks", "--variant", "atomic", "--block", "atomic", "mobility",
                 "--depth", "2", "--positions", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["block"] for r in report["rows"]] == ["mobility", "atomic"]
    for r in report["rows"]:
        assert r["same_tree"] and r["nodes"] > 0 and r["positions"] == 2
        assert r["ratio"] == pytest.approx(r["nps"][1] / r["nps"][0])


def test_a_set_of_blocks_is_measured_together_where_all_of_them_fit(capsys):
    assert main(["bench", "blocks", "--variant", "atomic", "crazyhouse", "--block",
                 "mobility+atomic+safety", "safety+drops", "--depth", "2", "--positions", "2",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["variant"], r["block"]) for r in rows] == [
        ("atomic", "mobility+atomic+safety"), ("crazyhouse", "safety+drops")]
    assert all(r["same_tree"] and r["nodes"] > 0 for r in rows)


def test_an_unknown_block_is_refused(capsys):
    assert main(["bench", "blocks", "--block", "nosuch"]) == 2
    assert "unknown leaf block 'nosuch'" in capsys.readouterr().err
    assert main(["bench", "blocks", "--block", "safety+nosuch"]) == 2
    err = capsys.readouterr().err
    assert "unknown leaf block 'nosuch'" in err and "kingrel" in err
