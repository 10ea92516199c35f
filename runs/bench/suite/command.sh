#!/usr/bin/env bash
# The test suite's time, test by test (runs/bench/suite/DATE-*.txt), on a quiet machine,
# with the reference engines, Ray and PyTorch installed (as .ci/run has them).
# Since 2026-12-07, two tiers (pyproject.toml's addopts run both on every core):
#   cold: DATE-fast-cold.txt, the fast tier after the numba cache was made stale;
#   warm: DATE-fast-warm-K.txt, the fast tier again, K = 1, 2, 3 (median of three);
#   full: DATE-full.txt, after `tdleaf warmup`.
# Before (one tier): DATE-before.txt one at a time, DATE-xdist*.txt on every core.
set -euo pipefail   # a failing test is recorded in its file, not an abort
cd "$(dirname "$0")/../../.."
export TDLEAF_REQUIRE_ENGINES=1 RAY_AUTH_MODE=token
out=runs/bench/suite/$(date -u +%F)
tier=${1:-warm}
case "$tier" in
  cold) find variants search -name '*.nbi' -delete
        ( time python -m pytest -q --durations=60 -p no:randomly ) > "$out-fast-cold.txt" 2>&1 || true ;;
  warm) for k in 1 2 3; do
          ( time python -m pytest -q --durations=60 -p no:randomly ) > "$out-fast-warm-$k.txt" 2>&1 || true
        done ;;
  full) tdleaf warmup > /dev/null
        ( time python -m pytest -q --full --durations=150 -p no:randomly ) > "$out-full.txt" 2>&1 || true ;;
esac
