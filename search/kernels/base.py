"""What every kernel shares: writing one feature (:func:`put`) and where Black's pieces
read their weights in each rules code (:data:`BLACK_VIEW`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import jitcache, spec  # noqa: F401 (jitcache: the cache stamps, before any @njit)

from ..evaluation.classic import black_view

#: Per rules code (``st[VARIANT]``): where Black's pieces read their weights,
#: (material offset, table offset, square xor) of
#: :func:`search.evaluation.classic.black_view`, from the variant's spec (its
#: ``mirror``). Frozen into the compiled code as constants.
BLACK_VIEW = np.array([black_view(spec.by_code(c).name)
                       for c in range(1 + max(v.code for v in spec.SPECS.values()))],
                      dtype=np.int64)


@njit(cache=True)
def put(w, out, i, x):
    """Feature ``i`` of a leaf block has value ``x``: added to ``out[i]`` when ``out`` is
    the feature vector; with an empty ``out`` (scoring), returns ``w[i] * x`` instead, so
    one kernel serves the features and the search's score without allocating."""
    if out.shape[0]:
        out[i] += x
        return 0.0
    return w[i] * x
