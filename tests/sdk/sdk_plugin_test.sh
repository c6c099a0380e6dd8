#!/usr/bin/env bash
# Issue 37 acceptance 4: a plugin built out of the tree against `cmake --install`'s prefix runs
# end to end. This build's collect and sdk components are installed into SCRATCH/prefix, the
# installed example project (share/hitmap/examples/plugin) is built there with
# find_package(hitmap) and this tree's compiler, and the INSTALLED hitmap-collect runs it:
# `list` names its workload and layouts, `run` stores one complete run of 200 operations per
# variant. SCRATCH is emptied first and kept afterwards, to look at when this fails.
set -euo pipefail
cmake=$1 build=$2 scratch=$3 generator=$4 cxx=$5 build_type=$6 launcher=${7:-}
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
for component in collect sdk; do
    "$cmake" --install "$build" --prefix "$prefix" --component "$component" >/dev/null
done
if ! "$cmake" -S "$prefix/share/hitmap/examples/plugin" -B "$scratch/plugin" -G "$generator" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" >"$scratch/configure.log" 2>&1 ||
    grep -q "CMake Warning" "$scratch/configure.log"; then
    # A warning too: the package config warns when the compiler is not the one hitmap used.
    cat "$scratch/configure.log"
    exit 1
fi
"$cmake" --build "$scratch/plugin"

collect=$prefix/bin/hitmap-collect
plugin=$scratch/plugin/example_plugin.so
"$collect" --plugin "$plugin" list >"$scratch/list.txt"
grep -q '^example-hot-counter ' "$scratch/list.txt"
grep -Eq '^ +request_stats +padded +128 bytes' "$scratch/list.txt"
"$collect" --plugin "$plugin" run example-hot-counter --variant packed,padded --threads 1 \
    --iterations 200 --c2c off --progress none --db "$scratch/runs.db" >"$scratch/run.txt"
"$collect" show --json --db "$scratch/runs.db" >"$scratch/runs.json"
python3 - "$scratch/runs.json" <<'PY'
import json, sys
runs = [(r["workload"], r["variant"], r["status"], r["ops"]) for r in json.load(open(sys.argv[1]))]
expected = [("example-hot-counter", v, "complete", 200) for v in ("packed", "padded")]
assert sorted(runs) == expected, runs
print("the installed hitmap-collect ran the plugin built against the installed SDK:", runs)
PY
