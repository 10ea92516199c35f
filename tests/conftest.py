"""Shared setup of the rules test suite (tests/test_rules_*.py).

python-chess 1.11.2 is the oracle; the seeded generators live in helpers_rules.py.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import chess
import pytest

sys.path.insert(0, os.path.dirname(__file__))

# The per-user data folder (search.shipped, TDLEAF_DATA): a fresh temporary one, set at
# import, before any test module imports search, so that no test reads the machine's
# (a refit prior.json there would change the results) or writes into it. Subprocesses
# inherit it.
_USER_DATA = tempfile.mkdtemp(prefix="tdleaf-test-data-")
os.environ["TDLEAF_DATA"] = _USER_DATA

import variants


@pytest.fixture(autouse=True)
def _in_turn(request):
    """Tests that use the whole machine (Ray's heads and workers, a saturated machine)
    are marked ``xdist_group("machine")`` in their modules, so that with pytest-xdist
    (``-n auto --dist loadgroup``) they run in turn on one worker. The worker groups a
    test by a suffix on its node id; where that is lost (pytest 9.2, pytest-xdist#1386:
    the Ray tests ran side by side and hung for the whole run) such a test fails at once."""
    node = request.node
    if (getattr(request.config.option, "loadgroup", False)
            and node.get_closest_marker("xdist_group") and "@" not in node.nodeid):
        pytest.fail(f"pytest-xdist's --dist loadgroup does not group this test with pytest "
                    f"{pytest.__version__}: the tests that use the whole machine would run "
                    "side by side")


#: The markers of the full tier: ``python -m pytest`` (the fast tier) leaves these tests
#: out; ``python -m pytest --full`` (what CI runs) runs them too.
HEAVY = ("slow", "ray", "net")


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="the full tier: also the tests marked " + ", ".join(HEAVY) +
                          " (long learning runs and matches, Ray, network training), as CI "
                          "runs them; without it the fast tier leaves them out")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full"):
        return
    heavy = [item for item in items if any(item.get_closest_marker(m) for m in HEAVY)]
    if heavy:
        config.hook.pytest_deselected(items=heavy)
        left_out = set(heavy)
        items[:] = [item for item in items if item not in left_out]


def pytest_report_header(config):
    tier = ("the full tier" if config.getoption("--full") else
            f"the fast tier (tests marked {', '.join(HEAVY)} deselected; --full runs them)")
    return [f"rules oracle: python-chess {chess.__version__}; variants: {', '.join(variants.VARIANTS)}",
            f"tdleaf tests: {tier}"]


@pytest.fixture(scope="session", autouse=True)
def _oracle_version():
    """Every expected value comes from python-chess; the rules claim to be exact to 1.11.2."""
    assert chess.__version__ == "1.11.2", f"tests are written against python-chess 1.11.2, found {chess.__version__}"


@pytest.fixture(scope="session", autouse=True)
def _warm_numba():
    """Load (or compile, the first time ~30 s) the numba functions once, up front."""
    for v in variants.VARIANTS:
        variants.perft(v, None, 1)
        variants.Position.start(v).outcome(claim_draw=True)


@pytest.fixture(scope="session", autouse=True)
def _user_data_folder():
    """The tests' per-user data folder (TDLEAF_DATA, set above), removed at the end."""
    assert os.environ["TDLEAF_DATA"] == _USER_DATA
    yield Path(_USER_DATA)
    shutil.rmtree(_USER_DATA, ignore_errors=True)


@pytest.fixture
def scratch_blocks():
    """The block registry, restored after the test (blocks it registers are gone)."""
    from search.evaluation.registry import BLOCKS

    saved = dict(BLOCKS)
    yield BLOCKS
    BLOCKS.clear()
    BLOCKS.update(saved)
