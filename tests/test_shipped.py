"""The shipped data (search/data, search.shipped): the copies match runs/reference, the
manifest names files that exist and load, the wheel's package-data patterns cover every
file, and the per-user data folder (TDLEAF_DATA) is where saves go and what is read
first, the package folder never changing. (.ci/run builds the wheel itself and runs
.ci/smoke.py against it in a fresh environment.)"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from search import shipped
from search.layout import (
    REFERENCE_SETS,
    default_weights,
    default_weights_name,
    load_weights,
    value_set,
    weights_digest,
    weights_file,
)
from search.mcts.prior import HeuristicPrior, fitted_temperature, save_temperature
from search.solve.book import relpath
from tdleaf.cli import main
from variants.spec import SPECS

from helpers_search import few_labelled

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "search" / "data"


def _make_shipped():
    spec = importlib.util.spec_from_file_location("make_shipped", ROOT / "tests" / "data" / "make_shipped.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def user_data(tmp_path, monkeypatch):
    """An empty per-user data folder of this test alone; the package folder is checked
    unchanged afterwards."""
    before = _snapshot(DATA)
    folder = tmp_path / "user-data"
    monkeypatch.setenv("TDLEAF_DATA", str(folder))
    yield folder
    assert _snapshot(DATA) == before, "something wrote into the package's search/data"


# --------------------------------------------------------------------------------------
# The shipped copies and the manifest
# --------------------------------------------------------------------------------------

def test_the_package_data_is_this_checkouts():
    assert shipped.package_data_dir().resolve() == DATA


def test_shipped_copies_are_byte_identical_to_runs_reference():
    copies = _make_shipped().planned_copies(shipped.manifest())
    assert len(copies) >= 16                      # 4 variants x (psq, material) x 2 files
    for source, copy in copies:
        assert copy.read_bytes() == source.read_bytes(), \
            f"{copy.relative_to(ROOT)} differs from {source.relative_to(ROOT)}: " \
            f"run python tests/data/make_shipped.py"


def test_every_reference_set_of_the_manifest_exists_and_loads():
    man = shipped.manifest()
    assert man["format"] == shipped.MANIFEST_FORMAT
    assert {"chess", "crazyhouse", "suicide", "atomic"} <= set(man["variants"])
    for variant, entry in man["variants"].items():
        made_of = "psq" if entry["default"] == "avg-psq" else entry["default"]
        assert made_of in entry["sets"], variant
        for kind, s in entry["sets"].items():
            for key in ("weights", "summary"):
                assert (DATA / s[key]).is_file(), f"{variant}/{kind}: {s[key]}"
            assert (ROOT / s["source"] / "weights.json").is_file()
            w = load_weights(f"learnt-{kind}", variant)
            assert w.variant == variant and w.source == \
                f"learnt-{kind} (package data: {DATA / s['weights']})"
            assert weights_file(w) == DATA / s["weights"]
        if "psq" in entry["sets"]:
            avg = load_weights("avg-psq", variant)
            # material only: no table entries (horde: Black's own averages too)
            values = {"material", "hand", "material_black"}
            tables = [n for n in avg.layout.block_names if n not in values]
            assert avg.meta["value_set"] == "avg-psq" and not avg.w[avg.layout.mask(tables)].any()
            assert avg.w[avg.layout.span("material")][:5].all()
        w = default_weights(variant)
        name = entry["default"] if made_of != entry["default"] else f"learnt-{made_of}"
        assert default_weights_name(variant) == name
        assert w.source is not None and w.source.startswith(f"{name} (package data: ")
        assert np.array_equal(load_weights("learnt", variant).w, w.w)
        # the prior's temperatures are fitted for what plays (tdleaf bench prior --save)
        assert all(fitted_temperature(variant, w, d) is not None for d in (0, 1)), variant
        assert "traditional" not in json.dumps(w.meta)
    # every shipped kind has its name (atomic's default set with feature blocks too)
    assert REFERENCE_SETS == ("learnt",) + tuple(f"learnt-{k}" for k in shipped.reference_kinds()) \
        + ("avg-psq",)
    assert {"learnt-material", "learnt-psq"} <= set(REFERENCE_SETS)


def test_a_variant_without_reference_sets_plays_the_traditional_values():
    w = default_weights("giveaway")
    assert w.meta == {"value_set": "traditional"} and w.source == "value set traditional"
    assert default_weights_name("giveaway") == "traditional"
    with pytest.raises(ValueError, match="no learnt reference weights ship for giveaway"):
        load_weights("learnt", "giveaway")


def test_every_data_file_is_in_the_wheels_package_data():
    """pyproject's package-data patterns (setuptools globs, relative to search/) cover
    every file of search/data, and search/data holds nothing else than what is read."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["search"]
    search = ROOT / "search"
    covered = {p for pat in patterns for p in search.glob(pat) if p.is_file()}
    files = {p for p in DATA.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert files and files <= covered, sorted(str(p) for p in files - covered)
    man = shipped.manifest()
    read = {"manifest.json", "ladder.json", "prior.json"} | \
        {p.name for p in DATA.glob("prior_*.epd")} | \
        {s[k] for e in man["variants"].values() for s in e["sets"].values()
         for k in ("weights", "summary")} | \
        {e["network"]["file"] for e in man["variants"].values() if "network" in e} | \
        {relpath(name) for name, v in SPECS.items() if v.book}
    assert {p.relative_to(DATA).as_posix() for p in files} == read
    assert not list((ROOT / "search").glob("*.json")), "data belongs in search/data"
    assert not list((ROOT / "tests" / "data").glob("prior_*.epd")), "one copy: search/data"


def test_every_shipped_network_matches_its_digest_and_opens():
    """Each network of the manifest: its bytes' sha256 is the manifest's, it opens for
    its variant (metadata: the variant, this encoding version), and its training folder
    holds the evidence its model card is written from."""
    import hashlib
    entries = {v: e["network"] for v, e in shipped.manifest()["variants"].items() if "network" in e}
    for variant, entry in entries.items():
        path = DATA / entry["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], variant
        for name in ("config.json", "history.csv", "eval.json", "commands.sh"):
            assert (ROOT / entry["source"] / name).is_file(), (variant, name)
        pytest.importorskip("onnxruntime")
        from search.mcts.network import open_network
        assert open_network("shipped", variant).metadata["variant"] == variant


def test_make_shipped_check_finds_nothing_stale():
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "data" / "make_shipped.py"),
                           "--check"], check=False, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "differs" not in proc.stdout


def test_make_shipped_sets_a_default_only_from_what_ships():
    ms = _make_shipped()
    man = {"variants": {"horde": {"default": "material", "sets": {"material": {}}}}}
    with pytest.raises(SystemExit, match="horde ships no 'psq' set"):
        ms.set_default(man, "horde/avg-psq")
    man["variants"]["horde"]["sets"]["psq"] = {}
    ms.set_default(man, "horde/avg-psq")
    assert man["variants"]["horde"]["default"] == "avg-psq"
    with pytest.raises(SystemExit, match="ships no 'tables' set"):
        ms.set_default(man, "horde/tables")


def test_shipped_imports_only_the_standard_library():
    """And the error base, variants.errors (with the variants package's names, which
    are standard library only too)."""
    code = ("import sys, search.shipped as s; s.manifest(); s.find('ladder.json'); "
            "light = ('variants', 'variants.errors', 'variants.spec'); "
            "heavy = [m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'numba', 'chess', 'variants', 'tdleaf') and m not in light]; "
            "assert not heavy, heavy")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120, cwd=ROOT)


def test_weights_digest():
    a = value_set("traditional", "chess")
    b = value_set("traditional", "chess")
    assert weights_digest(a.w) == weights_digest(b.w)
    assert len(weights_digest(a.w)) == 12 and int(weights_digest(a.w), 16) >= 0
    assert weights_digest(a.w) == hashlib.sha256(a.w.astype("<f8").tobytes()).hexdigest()[:12]
    b.w[0] += 1e-12
    assert weights_digest(a.w) != weights_digest(b.w)
    assert weights_digest(a.w) != weights_digest(value_set("traditional", "crazyhouse").w)


def test_files_write_atomically_readable_and_clean_up_on_failure(tmp_path):
    from search import files

    path = files.write_json(tmp_path / "a.json", {"x": 1}, indent=1)
    assert path == tmp_path / "a.json" and json.loads(path.read_text()) == {"x": 1}
    assert path.read_text().endswith("}\n")
    assert path.stat().st_mode & 0o777 == 0o644, "results are for reading"
    files.write_text(path, "new")
    assert path.read_text() == "new"
    with pytest.raises(UnicodeEncodeError):
        files.write_text(path, "\ud800")                 # fails while writing
    assert path.read_text() == "new", "a failed write leaves the old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"], "temp file left"


# --------------------------------------------------------------------------------------
# The per-user data folder
# --------------------------------------------------------------------------------------

def test_user_data_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path / "a"))
    assert shipped.user_data_dir() == tmp_path / "a"
    monkeypatch.delenv("TDLEAF_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert shipped.user_data_dir() == tmp_path / "xdg" / "tdleaf"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert shipped.user_data_dir() == tmp_path / "home" / ".local" / "share" / "tdleaf"


def test_the_tests_never_use_the_real_user_data_folder():
    assert "tdleaf-test-data-" in shipped.user_data_dir().name


def test_a_saved_file_goes_to_the_user_folder_and_is_read_first(user_data):
    assert shipped.find("prior.json") == DATA / "prior.json"
    shipped_t = fitted_temperature("giveaway", None, 0)
    written = save_temperature("giveaway", "traditional", 0, 7.25, {"note": "test"})
    assert written == user_data / "prior.json"
    assert shipped.find("prior.json") == written
    assert shipped.describe(written) == f"user data: {written}"
    assert fitted_temperature("giveaway", None, 0) == 7.25 != shipped_t
    # the user's copy keeps every other temperature of the table it was made from
    assert fitted_temperature("chess", value_set("traditional", "chess"), 1) == \
        json.loads((DATA / "prior.json").read_text())["temperature"]["chess"]["traditional"]["1"]
    # an explicit path: that file, and the user folder's copy unchanged
    other = save_temperature("giveaway", "traditional", 0, 1.5, path=user_data.parent / "p.json")
    assert other == user_data.parent / "p.json" and fitted_temperature("giveaway", None, 0) == 7.25
    assert json.loads(other.read_text())["temperature"]["giveaway"]["traditional"]["0"] == 1.5
    assert sorted(p.name for p in user_data.iterdir()) == ["prior.json"], "temp file left"


@pytest.mark.slow
def test_bench_prior_save_of_shipped_weights_goes_to_a_user_copy(user_data, capsys):
    """`tdleaf bench prior --save` for the default (shipped, learnt) weights: a copy of
    their weights.json with the fitted temperature in the user folder, read from then on
    (fitted on 300 of the labelled positions, for time)."""
    few_labelled(user_data, "atomic", 300)
    assert main(["bench", "prior", "--variant", "atomic", "--depth", "0", "--save",
                 "--no-mcts"]) == 0
    kind = shipped.default_name("atomic")
    copy = user_data / "reference" / "atomic" / kind / "weights.json"
    assert f"saved the fitted temperatures to {copy}" in capsys.readouterr().err
    w = default_weights("atomic")
    assert w.source == f"learnt-{kind} (user data: {copy})"
    shipped_w = load_weights(DATA / "reference" / "atomic" / kind / "weights.json", "atomic")
    assert (w.w == shipped_w.w).all()
    t = w.meta["prior_temperature"]["0"]
    assert 0.1 < t < 20 and fitted_temperature("atomic", None, 0) == t
    assert w.meta["prior_temperature"]["1"] == shipped_w.meta["prior_temperature"]["1"]
    win = w.meta["prior_win_logit"]["0"]         # fitted with it, and read with it
    assert 2 <= win <= 100 and HeuristicPrior("atomic").win_logit == win
    # a value set's temperature goes to the FILE given
    target = user_data.parent / "mine.json"
    assert main(["bench", "prior", "--variant", "atomic", "--depth", "0", "--weights",
                 "traditional", "--save", str(target), "--no-mcts"]) == 0
    assert f"to {target}" in capsys.readouterr().err
    saved = json.loads(target.read_text())
    assert saved["temperature"]["atomic"]["traditional"]["0"] > 0
    assert 2 <= saved["win_logit"]["atomic"]["traditional"]["0"] <= 100
    assert not (user_data / "prior.json").exists()


def test_a_default_set_missing_from_the_install_is_an_error(user_data):
    """Never a silent fall back to the traditional values (the defect of a wheel without
    its data): a manifest (here the user's, read first) naming a file that is not there."""
    man = shipped.manifest()
    man["variants"]["giveaway"] = {"default": "psq", "sets": {"psq": {
        "weights": "reference/giveaway/psq/weights.json",
        "summary": "reference/giveaway/psq/summary.json", "source": "runs/reference/giveaway/psq"}}}
    shipped.save_json("manifest.json", man)
    assert shipped.find("manifest.json") == user_data / "manifest.json"
    with pytest.raises(ValueError, match="names reference/giveaway/psq/weights.json for "
                                         "giveaway, missing from .*a broken install"):
        default_weights("giveaway")
    assert default_weights_name("giveaway") == "learnt-psq"
    # the user's copy of the file makes it whole, and is what plays
    value_set("ones", "giveaway").save(user_data / "reference" / "giveaway" / "psq" / "weights.json")
    w = default_weights("giveaway")
    assert w.source == f"learnt-psq (user data: {user_data}/reference/giveaway/psq/weights.json)"
    assert w.w[0] == 1.0
