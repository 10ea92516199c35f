"""Regenerate search/data/prior_<variant>.epd (the positions `tdleaf bench prior` ships
with): positions from seeded engine games, each labelled with Fairy-Stockfish's move at a
fixed depth and the game's result (see tdleaf/play/labels.py). Needs
/usr/games/fairy-stockfish and, for atomic, the npm package fairy-stockfish-nnue.wasm
(e.g. `npm install fairy-stockfish-nnue.wasm@1.1.12` in scratch/fsfwasm, or
TDLEAF_FSF_WASM=/path/to/uci.js) with Node.js.

    python tests/data/make_prior_epd.py [--variant V ...] [--positions 400] [--seed 1]
"""

import sys
from pathlib import Path

from tdleaf.play.labels import main

#: The checkout's shipped data folder (not the per-user one prior_data writes by default).
DATA = Path(__file__).resolve().parents[2] / "search" / "data"

if __name__ == "__main__":
    sys.exit(main(["--dir", str(DATA), *sys.argv[1:]]))
