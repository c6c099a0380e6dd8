#!/usr/bin/env bash
# Issue 33 acceptance 1, 3 and 4 on --quick sizes, from the committed calibrations:
#   - two `reproduce all --simulate` runs into fresh databases give identical tables, the
#     measured rows (this machine's real threads, noisy by design) and run ids aside: every
#     figure, change, cause and note the text tables print is in the JSON compared;
#   - `--scorecard --json` validates against schemas/reproduce.schema.json and has >= 20 figures;
#   - every scorecard figure is the one in tests/cli/data/reproduce_scorecard_quick.json (to four
#     significant digits), so a change that moves a figure shows in review. UPDATE=1 rewrites it.
set -euo pipefail
collect=$1 schema=$2 golden=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 1 2; do
    "$collect" reproduce all --simulate --quick --scorecard --json --progress none \
        --db "$dir/$n.db" >"$dir/$n.json"
done
python3 - "$dir/1.json" "$dir/2.json" "$schema" "$golden" <<'PY'
import json, os, re, sys, jsonschema

def simulated_part(v):
    """The document without this machine's runs and without run ids."""
    if isinstance(v, dict):
        return {k: simulated_part(x) for k, x in v.items()
                if k not in ("measured", "run_id") and v.get("source") != "measured"}
    if isinstance(v, list):
        return [simulated_part(x) for x in v if not (isinstance(x, dict) and x.get("source") == "measured")]
    if isinstance(v, str):
        return re.sub(r"[\[(]run \d+[\])]", "[run]", v)
    return v

doc = json.load(open(sys.argv[1]))
a, b = simulated_part(doc), simulated_part(json.load(open(sys.argv[2])))
assert any(r["simulated"] for i in a["investigations"] for t in i["tables"] for r in t["rows"])
assert a == b, "two runs' simulated tables differ"

jsonschema.validate(doc, json.load(open(sys.argv[3])))
figures = doc["scorecard"]["figures"]
assert len(figures) >= 20, f"only {len(figures)} scorecard figures"
for f in figures:
    assert (f["kind"] == "anchored") == (f["parameter"] is not None), f

def key(f):
    return [f["investigation"], f["row"], f["figure"], float(f"{f['seed']:.4g}"),
            float(f"{f['ours']:.4g}"), f["within_2x"], f["direction_right"], f["kind"]]
got = [key(f) for f in figures]
if os.environ.get("UPDATE") == "1":
    json.dump(got, open(sys.argv[4], "w"), indent=1, ensure_ascii=False)
    print("rewrote", sys.argv[4])
else:
    want = json.load(open(sys.argv[4]))
    moved = [f"{w} -> {g}" for w, g in zip(want, got) if w != g]
    assert len(want) == len(got), f"{len(got)} figures, the golden file has {len(want)}"
    assert not moved, "scorecard figures moved:\n" + "\n".join(moved)
print("repeatable;", len(figures), "scorecard figures as committed")
PY
