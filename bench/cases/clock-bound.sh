#!/usr/bin/env bash
# The clock's error and reported bound on loopback (issue 20: error ≤ 0.1 ms, bound ≤ 0.3 ms), for
# the json and ws methods: 20 measurements each against conn-server with a known --skew-ms;
# median and worst of |measured − skew| and of the bound, and whether the truth was always inside.
#
# CONN_BASELINE=/path/to/conn and CONN_SERVER_BASELINE=/path/to/conn-server add the same for an
# older pair (whole-millisecond /time) in the same run, so the change is seen side by side.
set -euo pipefail
source scripts/lib/server.sh
trap stop_conn_server EXIT
work=$(mktemp -d)
export HOME=$work XDG_DATA_HOME=$work/data
skew=1234
out="$RESULTS/clock-bound.md"
{
    echo "| pair | method | median error (ms) | worst error (ms) | median bound (ms) | worst bound (ms) | truth inside |"
    echo "|:---|:---|---:|---:|---:|---:|:---|"
} > "$out"
measure() {  # NAME CONN CONN_SERVER
    local name=$1 conn=$2 server=$3
    start_conn_server "$server" --skew-ms="$skew"
    for method in json ws; do
        for _ in $(seq 20); do
            "$conn" clock-offset --json --method "$method" --server "$CONN_SERVER_URL" | jq -c --argjson k "$skew" \
                '{e: ((.offsetMs - $k) | fabs), b: .uncertaintyMs}'
        done | jq -rs --arg n "$name" --arg m "$method" '
            def median: sort | .[length / 2 | floor];
            def r: . * 1000 | round / 1000;
            "| \($n) | \($m) | \(map(.e) | median | r) | \(map(.e) | max | r) | \(map(.b) | median | r) | \(map(.b) | max | r) | \(if all(.e <= .b) then "yes" else "NO" end) |"' >> "$out"
    done
    stop_conn_server
}
if [ -n "${CONN_BASELINE:-}" ] && [ -n "${CONN_SERVER_BASELINE:-}" ]; then
    measure "baseline" "$CONN_BASELINE" "$CONN_SERVER_BASELINE"
fi
measure "this build" "$CONN" "$CONN_SERVER_BIN"
cat "$out"
rm -rf "$work"
