tdleaf net data --variant crazyhouse --games 920 --depth 5 --seed 0 --out scratch/net/crazyhouse-default --workers 2
tdleaf net train scratch/net/crazyhouse-default --out runs/net/crazyhouse --epochs 10 --positions 50000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 0
tdleaf net eval runs/net/crazyhouse --variant crazyhouse --json > runs/net/crazyhouse/eval.json
tdleaf net export runs/net/crazyhouse
python tests/data/make_shipped.py --network crazyhouse=runs/net/crazyhouse
