# Issue 64, item 3: the cost of a 4-piece endgame table with today's builder, measured on
# one material (knight and bishop against rook and king, suicide's rules) and scaled to the
# 1,113 materials of 4 pieces. Needs the 3-piece tables (tdleaf warmup --tables). Fixed work.
python runs/pns/tables-4piece/measure.py > runs/pns/tables-4piece/measure.txt
