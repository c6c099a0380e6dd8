#!/usr/bin/env bash
# `export --format json` validates against schemas/report.schema.json (python3-jsonschema): a
# comparison of simulated v6.0 and v6.1 runs, and a whole database holding a run with lock
# classes, a traced run and a measured run without cacheline data; where the shared fixtures
# are (HITMAP_SHARED_DIR, else the fourth argument), a perf c2c import, whose counts perf does
# not give are null.
set -euo pipefail
collect=$1 schema=$2 calibrations=$3
shared=${HITMAP_SHARED_DIR:-${4:-}}
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
fixture=$shared/fixtures/c2c/joemario-c2c-blog-example-2016.txt
if [[ -z $shared || ! -f $fixture ]]; then
    echo "no $fixture: the perf c2c import is not checked"
    exit 0
fi
"$collect" import perf-c2c "$fixture" --db "$dir/i.db" >/dev/null
"$collect" export --db "$dir/i.db" --format json -o "$dir/imported.json"
python3 - "$schema" "$dir/imported.json" <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:])
jsonschema.validate(doc, schema)
run = doc["runs"][0]
assert run["provenance"]["traced_ops"] is None, run["provenance"]
line = run["lines"][0]
assert line["hitm"] == 12103 and line["transfers"] is None, line
print("import valid")
PY
