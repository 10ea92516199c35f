tdleaf net data --variant atomic --games 11200 --depth 6 --seed 0 --out scratch/net/atomic-default --workers 2
tdleaf net train scratch/net/atomic-default --out runs/net/ablation/atomic-default-s1 --epochs 10 --positions 200000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 1
tdleaf net eval runs/net/ablation/atomic-default-s1 --variant atomic --json > runs/net/ablation/atomic-default-s1/eval.json
