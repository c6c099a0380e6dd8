#!/usr/bin/env bash
# `doctor --json` validates against schemas/doctor.schema.json (python3-jsonschema) and lists
# every capability once; `doctor` prints one line per capability. Both exit 0 whatever this
# machine lacks: the report is the result.
set -euo pipefail
collect=$1 schema=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$collect" doctor --json >"$dir/doctor.json"
"$collect" doctor >"$dir/doctor.txt"
python3 - "$schema" "$dir/doctor.json" "$dir/doctor.txt" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
keys = [c["key"] for c in doc["capabilities"]]
expected = schema["properties"]["capabilities"]["items"]["properties"]["key"]["enum"]
assert sorted(keys) == sorted(expected), keys
text = open(sys.argv[3]).read().splitlines()
assert len(text) == len(keys), text
print("valid")
PY
