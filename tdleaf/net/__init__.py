"""The network's room: its training data from the teacher's searches (:mod:`.data`),
training and export to ONNX (:mod:`.train`), its measurement against labelled positions
(:mod:`.measure`, beside the heuristic prior's: :mod:`.prior_quality`) and the prior's
records (:mod:`.prior_lines`). Torch is imported lazily: the rest of tdleaf runs without
it."""
