"""Regenerate prior_<variant>.epd: positions from seeded engine games, each labelled with
Fairy-Stockfish's move at a fixed depth and the game's result (see
tdleaf/bench/prior_data.py). Needs /usr/games/fairy-stockfish and, for atomic, the npm
package fairy-stockfish-nnue.wasm (e.g. `npm install fairy-stockfish-nnue.wasm@1.1.12`
in scratch/fsfwasm, or TDLEAF_FSF_WASM=/path/to/uci.js) with Node.js.

    python tests/data/make_prior_epd.py [--variant V ...] [--positions 400] [--seed 1]
"""

import sys

from tdleaf.bench.prior_data import main

if __name__ == "__main__":
    sys.exit(main())
