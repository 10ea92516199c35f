"""One module per leaf block: its keys, its documentation, the offsets its kernel reads
and its Python reference (the definition the compiled kernel in :mod:`search.kernels`
is held to). The blocks are listed, in order, by :mod:`search.evaluation.registry`."""
