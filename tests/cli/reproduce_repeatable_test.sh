#!/usr/bin/env bash
# Issue 33 acceptance 1, 3 and 4 on --quick sizes, from the committed calibrations:
#   - two `reproduce all --simulate` runs into fresh databases print identical tables, the
#     measured blocks (this machine's real threads, noisy by design) and run ids aside;
#   - `--scorecard --json` validates against schemas/reproduce.schema.json and has >= 20 figures;
#   - every scorecard figure is the one in tests/cli/data/reproduce_scorecard_quick.json (to four
#     significant digits), so a change that moves a figure shows in review. UPDATE=1 rewrites it.
set -euo pipefail
collect=$1 schema=$2 golden=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 1 2; do
    "$collect" reproduce all --simulate --quick --progress none --db "$dir/$n.db" >"$dir/$n.txt"
done
"$collect" reproduce all --simulate --quick --scorecard --json --progress none \
    --db "$dir/3.db" >"$dir/score.json"
python3 - "$dir/1.txt" "$dir/2.txt" "$schema" "$dir/score.json" "$golden" <<'PY'
import json, os, re, sys, jsonschema

def simulated_part(path):
    out, skip = [], False
    for line in open(path):
        if line.startswith("measured on this machine, not the seed's"):
            skip = True
        elif line.startswith(("-- ", "== ")):
            skip = False
        if not skip:
            out.append(re.sub(r"[\[(]run \d+[\])]", "[run]", line))
    return out

a, b = simulated_part(sys.argv[1]), simulated_part(sys.argv[2])
assert any("simulated" in l for l in a), "no simulated table printed"
assert a == b, "".join(l for l in a if l not in b) or "the tables differ"

doc = json.load(open(sys.argv[4]))
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
    json.dump(got, open(sys.argv[5], "w"), indent=1, ensure_ascii=False)
    print("rewrote", sys.argv[5])
else:
    want = json.load(open(sys.argv[5]))
    moved = [f"{w} -> {g}" for w, g in zip(want, got) if w != g]
    assert len(want) == len(got), f"{len(got)} figures, the golden file has {len(want)}"
    assert not moved, "scorecard figures moved:\n" + "\n".join(moved)
print("repeatable;", len(figures), "scorecard figures as committed")
PY
