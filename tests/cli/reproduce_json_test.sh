#!/usr/bin/env bash
# `reproduce --json` validates against schemas/reproduce.schema.json (python3-jsonschema), for an
# investigation with measured and simulated columns and one in lock_stat shape; an unknown
# investigation is one line on stderr, exit 1, and no database.
set -euo pipefail
collect=$1 schema=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$collect" reproduce yosry-2023 --quick --simulate --json --progress none --db "$dir/r.db" >"$dir/yosry.json"
"$collect" reproduce kamezawa-2009 --quick --json --progress none --db "$dir/r.db" >"$dir/kamezawa.json"
python3 - "$schema" "$dir/yosry.json" "$dir/kamezawa.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
for path in sys.argv[2:]:
    doc = json.load(open(path))
    jsonschema.validate(doc, schema)
    for inv in doc["investigations"]:
        for t in inv["tables"]:
            assert t["causes"], f"{inv['id']}: a table without a cause"
            for row in t["rows"]:
                m = row["measured"]
                assert m is not None, f"{inv['id']}: {row['label']} has no measured run"
                # --quick repeats each real-thread run twice: the spread is printed.
                assert m["runs"] == 2 and m["ranges"][0] is not None, m
yosry = json.load(open(sys.argv[2]))["investigations"][0]["tables"][0]["rows"]
assert yosry[1]["simulated"]["change"] > 1, "v6.6 must read faster than v6.5"
print("valid")
PY
if "$collect" reproduce no-such-seed --db "$dir/bad.db" 2>"$dir/err"; then
    echo "an unknown investigation must fail" >&2; exit 1
fi
grep -q "unknown investigation 'no-such-seed'" "$dir/err"
[ "$(wc -l <"$dir/err")" -eq 1 ]
[ ! -e "$dir/bad.db" ]
