#!/usr/bin/env bash
# README: every subcommand takes --json. Every subcommand `hitmap-collect --help` lists (and every
# subcommand of a group, import and layout) offers --json, and each is run with it here on a
# copy of tests/data/small.db (new runs go to a scratch database) and its output parsed as JSON;
# where schemas/ holds the output's schema it is validated against it. A command added without
# --json, or one added without a line here, fails the test.
set -euo pipefail
collect=$1 data=$2 schemas=$3 shared=${HITMAP_SHARED_DIR:-${4:-}}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$data/small.db" "$dir/small.db"
cp -r "$data/small.db.traces" "$dir/small.db.traces"
db=$dir/small.db scratch=$dir/scratch.db

# The subcommands CLI11's help lists under "Subcommands:".
subcommands() { # [group]
    "$collect" "$@" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'
}

# Runs `hitmap-collect ARGS` and keeps its standard output as NAME.json.
json() { # name args...
    local name=$1
    shift
    if ! "$collect" "$@" >"$dir/$name.json" 2>"$dir/$name.err"; then
        echo "hitmap-collect $* failed:" >&2
        cat "$dir/$name.err" >&2
        exit 1
    fi
    echo "$name" >>"$dir/ran"
}

json list list --json
json run run page-counter-charge --variant v6.0 --threads 1 --iterations 200 --c2c off \
    --progress none --db "$scratch" --json
json suite suite quick --progress none --db "$scratch" --json
json show show --db "$db" --json
json report report 1 --db "$db" --json
json predict predict 1 --layout page_counter=v6.1 --db "$db" --json
json import-lockstat import lockstat "$data/../cli/data/small-lockstat.txt" --db "$scratch" --json
json import-perf-lock import perf-lock "$data/../cli/data/small-perf.txt" --db "$scratch" --json
c2c_report=$shared/fixtures/c2c/joemario-c2c-blog-example-2016.txt
if [ -n "$shared" ] && [ -f "$c2c_report" ]; then
    json import-perf-c2c import perf-c2c "$c2c_report" --db "$scratch" --json
else
    echo "skipped import perf-c2c --json: no shared fixtures at '$shared'"
    echo import-perf-c2c >>"$dir/ran"
fi
if perf c2c record -o "$dir/c2c.data" -- true >/dev/null 2>&1 &&
    perf lock record -o "$dir/lock.data" -- true >/dev/null 2>&1; then
    json record record --db "$scratch" --json -- true
else
    # cli_record_tests parses record --json from a stand-in perf.
    echo "skipped record --json: perf cannot record memory events or lock contention here"
    echo record >>"$dir/ran"
fi
json reproduce reproduce yosry-2023 --quick --simulate --progress none --db "$scratch" --json
json compare compare 1 2 --db "$db" --json
json export export --runs 1,2 --db "$db" --json
json merge merge "$scratch" -o "$dir/merged.db" --json
json doctor doctor --json
if [ -r /sys/kernel/btf/vmlinux ]; then
    json layout-show layout show page_counter --json
else
    echo "skipped layout show --json: this kernel publishes no BTF (/sys/kernel/btf/vmlinux)"
    echo layout-show >>"$dir/ran"
fi
json layout-diff layout diff page_counter=v6.0 page_counter=v6.1 --json
json story story --db "$db" --json

{
    for c in $(subcommands); do
        case $c in
        import | layout) for s in $(subcommands "$c"); do echo "$c-$s"; done ;;
        *) echo "$c" ;;
        esac
    done
} | sort >"$dir/listed"
sort "$dir/ran" >"$dir/ran.sorted"
if ! diff "$dir/listed" "$dir/ran.sorted"; then
    echo "the subcommands listed by --help (<) and those run with --json here (>) differ" >&2
    exit 1
fi
for c in $(cat "$dir/listed"); do
    if ! "$collect" ${c/-/ } --help | grep -q -- '--json'; then
        echo "hitmap-collect ${c/-/ } offers no --json" >&2
        exit 1
    fi
done

python3 - "$dir" "$schemas" <<'PY'
import json, os, sys, jsonschema
out, schemas = sys.argv[1], sys.argv[2]
# report --json is its own shape; export --json is the report schema
schema_of = {"export": "report", "doctor": "doctor", "reproduce": "reproduce"}
for name in open(os.path.join(out, "ran")).read().split():
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        continue  # skipped
    doc = json.load(open(path))  # raises on anything but one JSON document
    if name in schema_of:
        jsonschema.validate(doc, json.load(open(os.path.join(schemas, schema_of[name] + ".schema.json"))))
story = json.load(open(os.path.join(out, "story.json")))
assert story["before"] == 1 and story["after"] == 2, story
print("every data command printed JSON")
PY
