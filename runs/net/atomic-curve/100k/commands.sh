tdleaf net data --variant atomic --games 11200 --depth 6 --seed 0 --out scratch/net/atomic-default --workers 2
tdleaf net train scratch/net/atomic-default --out runs/net/atomic-curve/100k --epochs 10 --positions 100000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 0
tdleaf net eval runs/net/atomic-curve/100k --variant atomic --json > runs/net/atomic-curve/100k/eval.json
