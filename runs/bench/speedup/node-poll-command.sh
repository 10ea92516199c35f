# What checking the node limit at every node (not every 1024th) costs a search
# without a node limit: this commit's search against a32cc20's (same variants/), depth 7
# on 12 labelled positions, the machine otherwise idle, 2026-12-03.
tdleaf bench speedup --base a32cc20 --variant chess crazyhouse --rounds 10 --json > node-poll.json
