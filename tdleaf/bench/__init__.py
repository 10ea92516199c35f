"""Benchmarks, each measured beside a reference in the same run: perft against
python-chess and Fairy-Stockfish (:mod:`.perft`), search speed against Sjeng,
Fairy-Stockfish and a python-chess alpha-beta (:mod:`.search`, positions in
:mod:`.positions`), self-play cost (:mod:`.selfplay`); :mod:`.common` holds what they
share."""
