tdleaf net data --variant atomic --games 11200 --depth 6 --seed 0 --out scratch/net/atomic-default --workers 2
tdleaf net train scratch/net/atomic-default --out runs/net/atomic --epochs 10 --positions 400000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 0
tdleaf net eval runs/net/atomic --variant atomic --json > runs/net/atomic/eval.json
tdleaf net export runs/net/atomic
python tests/data/make_shipped.py --network atomic=runs/net/atomic
