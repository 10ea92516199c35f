#!/usr/bin/env bash
# The test suite's time, test by test (runs/bench/suite/DATE-*.txt): the README's test
# command with --durations, on a quiet machine, after `tdleaf warmup`, with the reference
# engines, Ray and PyTorch installed (as .ci/run has them).
set -euo pipefail
cd "$(dirname "$0")/../../.."
tdleaf warmup > /dev/null
# Before 2026-12-05 (one at a time: DATE-before.txt):
#   TDLEAF_REQUIRE_ENGINES=1 RAY_AUTH_MODE=token python -m pytest -q --durations=120 -p no:randomly
# Since (the README's command, on every core: DATE-xdist*.txt):
TDLEAF_REQUIRE_ENGINES=1 RAY_AUTH_MODE=token python -m pytest -q -n auto --dist loadgroup --durations=150 -p no:randomly
