tdleaf net data --variant crazyhouse --games 560 --depth 5 --teacher traditional --seed 0 --out scratch/net/crazyhouse-traditional --workers 2
tdleaf net train scratch/net/crazyhouse-traditional --out runs/net/ablation/crazyhouse-traditional-s1 --epochs 10 --positions 25000 --beta 0.25 --q 0.5 --value-weight 1.0 --seed 1
tdleaf net eval runs/net/ablation/crazyhouse-traditional-s1 --variant crazyhouse --json --no-teacher > runs/net/ablation/crazyhouse-traditional-s1/eval.json
