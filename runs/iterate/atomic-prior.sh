# Expert iteration in atomic from tdleaf's heuristic prior (the pilot of the starts'
# comparison). The same command with --resume carries on; --generations sets the total.
tdleaf net iterate --variant atomic --out runs/iterate/atomic-prior --generations 8 \
  --start prior:default --games 300 --playouts 200 --fast-playouts 50 --full-share 0.5 \
  --random-plies 4 --eval-playouts 200 --anchor-nodes 10000 --gate-games 100 \
  --anchor-games 100 --epochs 4 --window 20 --positions runs/net/test-atomic.epd \
  --workers 1 --no-progress "$@"
