"""The evaluation's kernels, in numba: the classic blocks' full and incremental evaluation
(:mod:`.classic`), one module per leaf block, the attack maps several of them share
(:mod:`.attacks`, which imports no block) and the one dispatch over a layout's leaf
blocks (:mod:`.dispatch`). What each block computes is described, free of numba, in
:mod:`search.evaluation`; the kernels read their offsets from there.

Every leaf kernel has the same shape: ``kernel(bb, st, w, out, at[, ctx])`` adds the
block's features to ``out`` at offset ``at``, or, with an empty ``out`` (scoring),
returns ``w . x`` over them (:func:`.base.put`); ``ctx`` (the node's attack maps) is
passed to the blocks that read them alone. No kernel allocates.
"""
