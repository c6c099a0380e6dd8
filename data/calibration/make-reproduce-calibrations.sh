#!/usr/bin/env bash
# Measures the calibrations every `hitmap-collect reproduce --simulate` table needs into
# data/calibration/reproduce/ (one file per workload, one calibration per variant and parameter
# set), on this machine, with the build in BUILD (default: build). Run it on a quiet machine:
# it waits until the 1-minute load average has stayed below 0.5 for a minute, unless
# HITMAP_CALIBRATE_NOW=1. It prints the load before and after.
#
# With INVESTIGATION WORKLOAD (e.g. kamezawa-2009 res-counter-charge) it measures that workload's
# file again and leaves the others as they are: after a change to one workload's parameters.
set -euo pipefail
cd "$(dirname "$0")/../.."
collect=${BUILD:-build}/bin/hitmap-collect
out=data/calibration/reproduce
quiet_for=0
while [ "${HITMAP_CALIBRATE_NOW:-0}" != 1 ] && [ $quiet_for -lt 60 ]; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    if awk -v l="$load" 'BEGIN { exit !(l < 0.5) }'; then quiet_for=$((quiet_for + 10)); else quiet_for=0; fi
    sleep 10
done
echo "start $(date -u '+%F %T') UTC, load $(cat /proc/loadavg)"
investigation=all
if [ $# -eq 2 ]; then
    investigation=$1
    rm -f "$out/$2.json"
elif [ "${HITMAP_CALIBRATE_ADD:-0}" != 1 ]; then
    rm -rf "$out"
fi
mkdir -p "$out"
db=$(mktemp -d)/calibrate.db
trap 'rm -rf "$(dirname "$db")"' EXIT
"$collect" reproduce "$investigation" --simulate --quick --calibration "$out" --calibrate-missing \
    --progress none --db "$db" >/dev/null
echo "end   $(date -u '+%F %T') UTC, load $(cat /proc/loadavg)"
