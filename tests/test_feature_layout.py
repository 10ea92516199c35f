"""The feature layout: per variant, from named blocks, versioned in weights.json, and
compatible with every weights file and run folder written before it was versioned."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate, evaluate_layout, feature_vector, leaf_features
from search.layout import (
    BASE_SIZE,
    BLOCKS,
    FEATURE_SETS,
    HAND,
    LAYOUT,
    LAYOUT_VERSION,
    PSQ,
    Block,
    FeatureLayout,
    Weights,
    WeightsError,
    feature_layout,
    has_pockets,
    incremental_size,
    learnt_blocks,
    load_weights,
    register_block,
    value_set,
    weights_from_json,
)
from tests.helpers_search import random_positions, random_weight_vector
from variants import VARIANTS, Position, spec

from helpers_tiers import report_variants_in_fast_tier

ROOT = Path(__file__).resolve().parent.parent
#: SHA-256 of the float64 vector (little-endian) of every reference weights file, as
#: the code before layouts were versioned (git 134f226) loaded them.
DIGESTS = json.loads((ROOT / "tests" / "data" / "weights_v1_digests.json").read_text())


def _digest(w: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(w, dtype="<f8").tobytes()).hexdigest()


def _reference_files() -> list[Path]:
    return sorted(p for top in ("runs/reference", "search/data/reference")
                  for p in (ROOT / top).rglob("weights*.json"))


def test_every_reference_weights_file_loads_to_the_same_vector():
    found = {str(p.relative_to(ROOT)) for p in _reference_files()}
    missing = set(DIGESTS) - found
    assert not missing, f"pinned files gone: {sorted(missing)[:3]}"
    for path in _reference_files():
        data = json.loads(path.read_text())
        w = load_weights(path, data["variant"])
        assert w.w.shape == (w.layout.size,)
        rel = str(path.relative_to(ROOT))
        if rel in DIGESTS:
            assert "layout" not in data and w.layout == LAYOUT and w.layout.version == 1
            assert _digest(w.w) == DIGESTS[rel], rel
            # Saved again, a classic file keeps its classic form (no "layout" field).
            again = w.to_json()
            assert "layout" not in again
            assert weights_from_json(again, w.variant).w.tobytes() == w.w.tobytes()


def test_the_pinned_digests_cover_every_shipped_default():
    """Every shipped file written before layouts is pinned; the ones learnt since carry
    their layout (version 2) and are checked against their sources by test_shipped."""
    shipped = [p for p in _reference_files() if "search/data" in str(p)]
    classic = [p for p in shipped if "layout" not in json.loads(p.read_text())]
    assert classic and all(str(p.relative_to(ROOT)) in DIGESTS for p in classic)
    assert all(json.loads(p.read_text())["layout"]["version"] == LAYOUT_VERSION
               for p in shipped if p not in classic)


def test_a_classic_file_plays_as_before():
    """Same vector, same evaluation, same search as the weights built without a layout."""
    path = ROOT / "search/data/reference/crazyhouse/psq/weights.json"
    w = load_weights(path, "crazyhouse")
    e1 = Engine("crazyhouse", w, hash_mb=1)
    e2 = Engine("crazyhouse", Weights("crazyhouse", w.w.copy(), {}), hash_mb=1)
    pos = Position.start("crazyhouse")
    r1, r2 = e1.search(pos, depth=3), e2.search(pos, depth=3)
    assert (r1.move, r1.score, r1.nodes, r1.pv) == (r2.move, r2.score, r2.nodes, r2.pv)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
@pytest.mark.parametrize("features", list(FEATURE_SETS))
def test_round_trip_of_each_layout(tmp_path, variant, features):
    layout = feature_layout(variant, features)
    assert layout.version == LAYOUT_VERSION and layout.name == features
    assert layout.size == len(layout.names)
    # The classic blocks (and Black's own where the colours differ), then any leaf block.
    assert layout.leaf_start == incremental_size(variant)
    assert layout.size == layout.leaf_start + sum(b.size for b in layout.blocks
                                                  if b.evaluation == "leaf")
    assert layout.has("hand") == has_pockets(variant)
    assert layout.offsets["material"] == 0 and layout.offsets["psq"] == PSQ
    if not layout.has("hand"):
        assert layout.names[HAND:HAND + 6] == [f"-.{i}" for i in range(HAND, HAND + 6)]
    rng = np.random.default_rng(VARIANTS.index(variant))
    x = np.concatenate([random_weight_vector(rng), rng.normal(0.0, 0.3, layout.size - BASE_SIZE)])
    w = np.where(layout.mask(layout.block_names), x, 0.0)
    weights = Weights(variant, w, {"test": features}, layout=layout)
    path = tmp_path / "weights.json"
    weights.save(path)
    data = json.loads(path.read_text())
    assert data["layout"] == {"name": features, "version": LAYOUT_VERSION,
                              "blocks": layout.block_names}
    assert ("hand" in data) == has_pockets(variant)
    back = load_weights(path, variant)
    assert back.layout == layout and back.w.tobytes() == w.tobytes() and back.meta == weights.meta
    assert Engine(variant, str(path), hash_mb=1).w.tobytes() == w.tobytes()


def test_learnt_blocks_follow_the_variant():
    assert learnt_blocks("chess", "material") == ("material",)
    assert learnt_blocks("crazyhouse", "material") == ("material", "hand")
    assert learnt_blocks("atomic", "psq") == ("material", "psq")
    with pytest.raises(WeightsError, match="unknown feature set 'tables'"):
        feature_layout("chess", "tables")
    with pytest.raises(WeightsError, match="unknown feature block 'nosuch'.*added blocks: mobility"):
        feature_layout("chess", "psq+nosuch")


def test_a_layout_lacking_a_non_zero_weight_refuses_to_save_or_convert():
    w = Weights("chess", np.zeros(BASE_SIZE), {})          # classic: a hand block in chess
    w.w[HAND] = 0.5
    with pytest.raises(WeightsError, match="hand.P is not zero"):
        w.in_layout(feature_layout("chess", "psq"))
    with pytest.raises(WeightsError, match="not be saved"):
        Weights("chess", w.w, {}, layout=feature_layout("chess", "psq")).to_json()
    with pytest.raises(WeightsError, match="396 weights"):
        Weights("chess", np.zeros(10), {})
    w.w[HAND] = 0.0
    w.w[PSQ + 5] = 1.5
    moved = w.in_layout(feature_layout("chess", "psq"))
    assert moved.w.tobytes() == w.w.tobytes() and moved.layout.name == "psq"


def _v2(variant: str = "chess", **changes) -> dict:
    w = Weights(variant, np.zeros(BASE_SIZE), {}, layout=feature_layout(variant, "psq"))
    w.w[1] = 3.0
    data = w.to_json()
    data.update(changes)
    return data


BAD_LAYOUTS = [
    ("newer version", _v2(layout={"name": "psq", "version": LAYOUT_VERSION + 1,
                                  "blocks": ["material", "psq"]}),
     f"layout version {LAYOUT_VERSION + 1} is newer than this tdleaf reads"),
    ("unknown block", _v2(layout={"name": "psq+kingtropism", "version": LAYOUT_VERSION,
                                  "blocks": ["material", "psq", "kingtropism"]}),
     "block(s) this tdleaf does not know: kingtropism"),
    ("block of another layout", _v2(layout={"name": "m", "version": 2, "blocks": ["material"]}),
     "block 'psq' is not in the file's layout 'm'"),
    ("hand in chess", _v2(layout={"name": "psq", "version": 2,
                                  "blocks": ["material", "hand", "psq"]}),
     "needs pieces in hand, which chess has not"),
    ("version not a number", _v2(layout={"name": "psq", "version": "2", "blocks": []}),
     "layout version must be a positive integer"),
    ("v1 with other blocks", _v2(layout={"name": "x", "version": 1, "blocks": ["material"]}),
     "layout version 1 has the blocks material, hand, psq"),
    ("unknown layout field", _v2(layout={"name": "psq", "version": 2, "blocks": [], "x": 1}),
     "unknown field 'x' in 'layout'"),
    ("layout not an object", _v2(layout=["material"]), "'layout' must be an object"),
    ("unknown top-level field", _v2(bias=1.0), "unknown field 'bias'"),
    ("other variant", _v2("atomic"), "weights are for atomic, not chess"),
]


@pytest.mark.parametrize("label,data,message", BAD_LAYOUTS, ids=[b[0] for b in BAD_LAYOUTS])
def test_a_layout_this_version_cannot_read_is_refused_clearly(tmp_path, label, data, message):
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WeightsError) as info:
        load_weights(path, "chess")
    text = str(info.value)
    assert message in text and str(path) in text and "\n" not in text, text
    with pytest.raises(WeightsError):
        Engine("chess", str(path), hash_mb=1)


def test_a_classic_file_of_one_variant_is_refused_for_another():
    path = ROOT / "search/data/reference/atomic/psq/weights.json"
    with pytest.raises(WeightsError, match="weights are for atomic, not crazyhouse"):
        load_weights(path, "crazyhouse")
    # Suicide's rules are not giveaway's: refused too.
    with pytest.raises(WeightsError, match="weights are for suicide, not giveaway"):
        load_weights(ROOT / "search/data/reference/suicide/material/weights.json", "giveaway")


def test_weights_of_a_variant_with_the_same_rules_load_and_play(tmp_path):
    """Antichess is giveaway's rules (its start has no castling rights): a file learnt
    in one loads for the other, as the engine accepts it."""
    w = value_set("traditional", "antichess")
    path = tmp_path / "weights.json"
    w.save(path)
    loaded = load_weights(path, "giveaway")
    assert loaded.variant == "antichess" and np.array_equal(loaded.w, w.w)
    engine = Engine("giveaway", str(path), hash_mb=1)
    assert engine.search("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                         depth=2).move is not None


def _light_squares(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """Toy features: White's minus Black's pieces on light squares, on dark squares."""
    from variants import core
    light = np.uint64(0x55AA55AA55AA55AA)
    out = np.zeros(2)
    for c, sign in ((0, 1.0), (1, -1.0)):
        occ = bb[core.OCC + c]
        out[0] += sign * int(occ & light).bit_count()
        out[1] += sign * int(occ & ~light).bit_count()
    return out


@pytest.fixture
def toy(scratch_blocks):
    return register_block(Block("toy", ("light", "dark"), reference=_light_squares,
                                doc="a test block"))


def test_an_added_block_goes_after_the_tables_and_is_named_in_the_file(toy, tmp_path):
    with pytest.raises(ValueError, match="already registered"):
        register_block(toy)
    layout = feature_layout("crazyhouse", "psq+toy")
    assert layout.offsets["toy"] == BASE_SIZE and layout.size == BASE_SIZE + 2
    assert layout.names[BASE_SIZE:] == ["toy.light", "toy.dark"]
    assert layout.block_names == ["material", "hand", "psq", "toy"]
    assert layout.table.tolist() == [[0, BASE_SIZE, 2, 0]]
    assert learnt_blocks("crazyhouse", "psq+toy")[-1] == "toy"
    assert layout.mask(["toy"]).sum() == 2 and layout.mask(["toy"])[BASE_SIZE:].all()
    rng = np.random.default_rng(7)
    w = random_weight_vector(rng)
    w[HAND + 5] = 0.0                   # the unused slot is not saved
    full = np.concatenate([w, [0.25, -0.5]])
    weights = Weights("crazyhouse", full, {}, layout=layout)
    path = tmp_path / "weights.json"
    weights.save(path)
    data = json.loads(path.read_text())
    assert data["toy"] == {"light": 0.25, "dark": -0.5} and data["layout"]["blocks"][-1] == "toy"
    back = load_weights(path, "crazyhouse")
    assert back.layout == layout and back.w.tobytes() == full.tobytes()
    for fen in random_positions("crazyhouse", "toy", 5):
        pos = Position.from_fen(fen, "crazyhouse")
        x = feature_vector(pos.bb, pos.st, layout)
        assert x[:BASE_SIZE].tobytes() == feature_vector(pos.bb, pos.st).tobytes()
        assert x[BASE_SIZE:].tolist() == _light_squares(pos.bb, pos.st).tolist()
        # The compiled evaluation of the classic blocks is unchanged by the longer vector,
        # and a block without a compiled kernel adds nothing inside the search.
        assert evaluate(pos.bb, pos.st, full) == evaluate(pos.bb, pos.st, w)
        assert evaluate_layout(pos.bb, pos.st, full, layout.table) == evaluate(pos.bb, pos.st, w)
        out = np.ones(layout.size)
        leaf_features(pos.bb, pos.st, layout.table, out)
        assert (out[BASE_SIZE:] == 0).all() and (out[:BASE_SIZE] == 1).all()
        # The evaluation stays linear: w . x.
        assert float(full @ x) == pytest.approx(evaluate(pos.bb, pos.st, w)
                                                + 0.25 * x[BASE_SIZE] - 0.5 * x[BASE_SIZE + 1])


def test_a_file_with_an_added_block_is_refused_where_the_block_is_unknown(toy, tmp_path):
    layout = feature_layout("chess", "psq+toy")
    data = Weights("chess", np.zeros(layout.size), {}, layout=layout).to_json()
    del BLOCKS["toy"]
    with pytest.raises(WeightsError, match="does not know: toy"):
        weights_from_json(data, "chess")


def test_registering_a_bad_block_is_refused(scratch_blocks):
    for block, words in ((Block("meta", ("a",)), "bad block name"),
                         (Block("x", ()), "no entries"),
                         (Block("z", ("a",), code=99), "compiled kernel needs its place"),
                         (Block("y", ("a",), evaluation="incremental", offset=3), "only leaf")):
        with pytest.raises(ValueError, match=words):
            register_block(block)
    assert FeatureLayout().size == BASE_SIZE


# -- run folders -----------------------------------------------------------------------

def test_an_old_run_folder_resumes_in_the_classic_layout(tmp_path):
    """A reference folder (written before layouts were versioned) resumes in layout 1:
    its finished run rewrites the very same weights.json."""
    from tdleaf.learn.config import LearnConfig, learn_mask, run_layout
    from tdleaf.learn.runs import run_learning
    src = ROOT / "runs/reference/crazyhouse/psq"
    out = tmp_path / "job"
    (out / "run-00").mkdir(parents=True)
    shutil.copy(src / "config.json", out / "config.json")
    for name in ("checkpoint.json", "history.csv", "games.pgn"):
        shutil.copy(src / "run-00" / name, out / "run-00" / name)
    saved = json.loads((out / "config.json").read_text())["learn"]
    cfg = LearnConfig.from_json(saved).validate()
    assert cfg.layout == 1 and run_layout(cfg) == LAYOUT
    mask = learn_mask(cfg)
    assert mask[:5].all() and not mask[5] and mask[HAND:HAND + 5].all() and not mask[HAND + 5]
    assert mask[PSQ:].all()
    run_learning(out, cfg.to_json(), 0)
    assert (out / "run-00/weights.json").read_bytes() == (src / "run-00/weights.json").read_bytes()
    for name in ("checkpoint.json", "history.csv"):
        assert (out / "run-00" / name).read_bytes() == (src / "run-00" / name).read_bytes()


def test_a_new_job_writes_the_versioned_layout():
    from tdleaf.learn.config import LearnConfig, LearnError, initial_weights, learn_mask, run_layout
    cfg = LearnConfig("chess", features="psq").validate()
    assert cfg.layout == LAYOUT_VERSION and run_layout(cfg) == feature_layout("chess", "psq")
    assert not learn_mask(cfg)[HAND:HAND + 6].any()
    # --init from a classic file moves into the new layout unchanged.
    cfg = LearnConfig("atomic", features="psq", init=str(
        ROOT / "search/data/reference/atomic/psq/weights.json")).validate()
    init = load_weights(cfg.init, "atomic")
    assert initial_weights(cfg).tobytes() == init.w.tobytes()
    with pytest.raises(LearnError, match="unknown feature block 'nope'"):
        LearnConfig("chess", features="psq+nope").validate()


def test_a_block_with_a_rule_fits_only_the_variants_with_that_rule(scratch_blocks):
    from search.layout import Block, register_block
    register_block(Block("boom", ("a",), rule="explosions"))
    assert feature_layout("atomic", "psq+boom").has("boom")
    with pytest.raises(WeightsError, match="'boom' is for atomic only .rule 'explosions'., not chess"):
        feature_layout("chess", "psq+boom")


def test_all_is_psq_and_every_block_that_fits():
    """``all`` holds the psq set and every registered kernel block that fits, each once, in
    the registry's order (crazyhouse's pocket blocks in, the goal block of king of the
    hill in its psq set already, no rule block where the rule is absent)."""
    from search.evaluation.registry import LEAF
    from search.layout import ALL, expand_features
    assert expand_features("psq+safety", "chess") == "psq+safety"
    for variant in VARIANTS:
        every = feature_layout(variant, ALL)
        assert every.blocks == feature_layout(variant, expand_features(ALL, variant)).blocks
        assert all(b.misfit(variant) is None for b in every.blocks)
        names = every.block_names
        goal = spec.get(variant).goal_block          # in the psq set, before the others
        fits = [b.name for b in LEAF if b.misfit(variant) is None and b.name != goal]
        assert [n for n in names if n in fits] == fits, variant
        assert len(set(names)) == len(names), variant
    assert {"handcount", "drops"} <= set(feature_layout("crazyhouse", ALL).block_names)
    assert "atomic" not in feature_layout("chess", ALL).block_names
    goal = feature_layout("kingofthehill", "psq").block_names
    assert expand_features(ALL, "kingofthehill").split("+").count("hill") == 0 and "hill" in goal
    with pytest.raises(WeightsError, match="or all"):
        feature_layout("chess", "everything")
