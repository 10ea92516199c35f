"""Proof: proof-number search (:mod:`.pns`), the endgame tables (:mod:`.endgame`) and
the proved opening book (:mod:`.book`)."""
