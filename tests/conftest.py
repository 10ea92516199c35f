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

#: Test modules that share a machine-wide resource, and the group each runs in: with
#: pytest-xdist (``-n auto --dist loadgroup``) a group's tests run in turn on one worker.
#: Ray's tests start heads and count the machine's Ray workers.
SERIAL_GROUPS = {"test_backend_ray.py": "ray", "test_learn_ray.py": "ray"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        group = SERIAL_GROUPS.get(item.path.name)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_report_header(config):
    return f"rules oracle: python-chess {chess.__version__}; variants: {', '.join(variants.VARIANTS)}"


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
