# What the compulsory-capture techniques cost the searches that do not play
# them. The base is 0130d58's search with today's variants/ (a throwaway branch,
# bench-base-shim: its search/engine.py also names the two new technique bits, which its
# search ignores; `tdleaf bench speedup` needs both commits to share variants/).
# 2026-12-02 22:32-22:49 UTC, the machine otherwise idle. To make the branch again: a
# checkout of 0130d58 with variants/ copied from this commit and the two names added.
tdleaf bench speedup --base bench-base-shim --variant chess crazyhouse atomic giveaway --rounds 10 --json > capture-techniques-final.json
tdleaf bench speedup --base bench-base-shim --variant atomic chess --rounds 20 --json > capture-techniques-chess-atomic-20.json
# The method's noise: the base against itself (run from a checkout of bench-base-shim).
tdleaf bench speedup --base bench-base-shim --variant atomic chess --rounds 20 --json > capture-techniques-base-self-20.json
