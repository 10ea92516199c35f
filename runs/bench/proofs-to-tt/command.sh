# proofs-to-tt off: the fixed-depth pins of runs/bench/keep-offers, before and after
# (README.md here); run from the repository root.
git archive d9c530b8 | (mkdir -p /tmp/base && tar -x -C /tmp/base)
(cd /tmp/base && PYTHONPATH=$PWD python "$OLDPWD/runs/bench/keep-offers/pins.py" /tmp/head.json)
PYTHONPATH=$PWD python runs/bench/keep-offers/pins.py /tmp/after.json
gunzip -c runs/bench/keep-offers/after.json.gz > /tmp/keep-offers.json
cmp /tmp/head.json /tmp/after.json && cmp /tmp/keep-offers.json /tmp/after.json
