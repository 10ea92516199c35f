# Issue 64 item 4: the opening books built by the proof search (search.solve.book), every
# position within 2 plies of the start, trees of 1,000,000 nodes; the book is then copied
# to search/data/book/<variant>.json, and its records gzipped here. The same command
# resumes a killed build (gunzip the records first).
tdleaf book --variant suicide --plies 2 --nodes 1000000 --workers 2 --out runs/pns/book/suicide.json --no-progress
tdleaf book --variant antichess --plies 2 --nodes 1000000 --workers 2 --out runs/pns/book/antichess.json --no-progress
