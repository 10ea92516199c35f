# keep-offers pinned off and counted on (README.md here); run from the repository root.
git archive 2a9271c0 | (mkdir -p /tmp/base && tar -x -C /tmp/base)
(cd /tmp/base && PYTHONPATH=$PWD python "$OLDPWD/runs/bench/keep-offers/pins.py" /tmp/before.json)
PYTHONPATH=$PWD python runs/bench/keep-offers/pins.py /tmp/after.json
PYTHONPATH=$PWD python runs/bench/keep-offers/pins.py /tmp/on.json 4096
cmp /tmp/before.json /tmp/after.json
for f in before after on; do gzip -c /tmp/$f.json > runs/bench/keep-offers/$f.json.gz; done
python runs/bench/keep-offers/summary.py runs/bench/keep-offers/after.json.gz \
    runs/bench/keep-offers/on.json.gz
