tdleaf net data --variant atomic --games 6000 --depth 6 --teacher traditional --seed 0 --out scratch/net/atomic-traditional --workers 2
tdleaf net train scratch/net/atomic-traditional --out runs/net/ablation/atomic-traditional-s0 --epochs 10 --positions 200000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 0
tdleaf net eval runs/net/ablation/atomic-traditional-s0 --variant atomic --json > runs/net/ablation/atomic-traditional-s0/eval.json
