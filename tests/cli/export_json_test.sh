#!/usr/bin/env bash
# `export --format json` validates against schemas/report.schema.json (python3-jsonschema): a
# comparison of simulated v6.0 and v6.1 runs, and a whole database holding a run with lock
# classes, a traced run and a measured run without cacheline data.
set -euo pipefail
collect=$1 schema=$2 calibrations=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for v in v6.0 v6.1; do
    "$collect" run page-counter-charge --variant "$v" --simulate xeon-2s-72 --threads 8 \
        --iterations 300 --calibration "$calibrations/page-counter-charge.json" \
        --progress none --db "$dir/r.db" >/dev/null
done
"$collect" run res-counter-charge --variant per-page --simulate xeon-2s-72 --threads 4 \
    --iterations 300 --calibration "$calibrations/res-counter-charge.json" \
    --progress none --db "$dir/r.db" >/dev/null
"$collect" run page-counter-charge --variant v6.0 --threads 1 --iterations 2000 \
    --progress none --db "$dir/r.db" >/dev/null
"$collect" run page-counter-charge --variant v6.0 --threads 1 --iterations 2000 --c2c off \
    --progress none --db "$dir/r.db" >/dev/null
"$collect" export --db "$dir/r.db" --runs 1,2 --format json -o "$dir/pair.json"
"$collect" export --db "$dir/r.db" --format json -o "$dir/all.json"
python3 - "$schema" "$dir/pair.json" "$dir/all.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
pair, everything = (json.load(open(p)) for p in sys.argv[2:])
for doc in (pair, everything):
    jsonschema.validate(doc, schema)
fields = {f["field"] for f in pair["comparison"]["fields_hitm_per_1k"]}
assert {"memory.usage", "memory.high"} <= fields, fields
assert len(everything["runs"]) == 5 and everything["comparison"] is None
sources = {r["run"]["source"] for r in everything["runs"]}
assert sources == {"simulated", "traced", "measured"}, sources
untraced = everything["runs"][4]
assert untraced["lines"] == [] and untraced["no_lines_reason"], untraced
print("valid")
PY
