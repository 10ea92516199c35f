"""The evaluation, described: what each weight means, free of numba.

An evaluation is one weight vector and the :class:`~search.evaluation.layout.FeatureLayout`
that names its entries. This room says what the entries are and where they come from;
learning, the commands and the plots read it without loading the compiled engine:

- :mod:`.block`: :class:`~.block.Block`, a named group of weights;
- :mod:`.classic`: the classic blocks (material, hand, piece-square tables, and Black's
  own where the colours differ) at their fixed offsets;
- :mod:`.blocks`: one module per leaf block (its keys, documentation and Python
  reference, the definition its compiled kernel in :mod:`search.kernels` is held to);
- :mod:`.registry`: the one registry of blocks, in order;
- :mod:`.layout`: layouts and the named feature sets;
- :mod:`.weights`: weight vectors and ``weights.json`` files;
- :mod:`.value_sets`, :mod:`.reference_sets`: the built-in and the shipped learnt sets;
- :mod:`.load`: weights by name (a file, a run folder, a value set or a reference set).

Nothing here imports numba; python-chess and the rules load only when a block's
reference runs.
"""
