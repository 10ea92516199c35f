# The ladder batch benchmark (issue 63): 2026-12-06 01:43-01:49 UTC, nothing else running.
tdleaf bench batches --rounds 3 --json > runs/bench/batches/atomic-2026-12-06.json
