"""Learning, experiments, matches and the `tdleaf` command line."""
