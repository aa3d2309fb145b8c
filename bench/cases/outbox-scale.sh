#!/usr/bin/env bash
# A big outbox (issue 55, item 3): COUNT (default 100,000) queued items, half messages and half
# `conn request` POSTs, against conn-server on loopback:
#  1. `outbox list --limit 1000` on COUNT items vs `outbox list` on 1,000      (goal ≤ 1.3x)
#     and the whole list of COUNT items, for contrast (time and peak RSS)
#  2. `outbox flush --concurrency 8` of the COUNT items vs wrk's POST ceiling    (goal ≥ 0.8x)
#     with the flush's peak RSS                                                 (goal ≤ 40 MB)
#     and lost / duplicated on the server (must be 0 / 0)
# The kill -9 soak over a full queue is bench/run outbox's part 4 (COUNT=100000 KILLS=200 there).
# PIN_SERVER=1: conn-server on the last core, conn and wrk on the others (taskset), so that the
# ratio is the client's own cost rather than two processes sharing every core.
set -euo pipefail
COUNT=${COUNT:-100000}
client=()
pin_server() { :; }
if [ "${PIN_SERVER:-0}" = 1 ] && [ "$(nproc)" -ge 2 ]; then
    last=$(($(nproc) - 1))
    client=(taskset -c "0-$((last - 1))")
    pin_server() { taskset -apc "$last" "$CONN_SERVER_PID" >/dev/null; }
fi
half=$((COUNT / 2))
out="$RESULTS/outbox-scale.txt"
source bench/lib/outbox-home.sh
mean_s() {  # RUNS COMMAND: hyperfine's mean, in seconds
    local runs=$1; shift
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$home/mean.json" "$*" >/dev/null 2>&1
    jq '.results[0].mean' "$home/mean.json"
}
fill() {  # N URL: N/2 messages, N/2 requests to URL
    python3 bench/lib/fill-outbox.py "$db" $(($1 / 2)) message
    python3 bench/lib/fill-outbox.py "$db" $(($1 / 2)) request --requests "$2/messages" --append
}

# 1. list: a page of a big outbox against the whole of a small one.
fill 1000 http://127.0.0.1:1
small=$(mean_s 20 "$CONN outbox list")
fill "$COUNT" http://127.0.0.1:1
page=$(mean_s 20 "$CONN outbox list --limit 1000")
whole=$(mean_s 3 "$CONN outbox list")
log "outbox list: 1,000 items $(printf %.1f "$(echo "$small * 1000" | bc -l)") ms; --limit 1000 of $COUNT $(printf %.1f "$(echo "$page * 1000" | bc -l)") ms" \
    "= $(printf %.2f "$(echo "$page / $small" | bc -l)")x (goal <= 1.3x); the whole $COUNT $(printf %.2f "$whole") s," \
    "peak RSS $(peak_rss_mb "$CONN" outbox list) MB (a page: $(peak_rss_mb "$CONN" outbox list --limit 1000) MB)"

# 2. flush of COUNT vs wrk, on a fresh server each (every item a first store).
start_conn_server "$CONN_SERVER_BIN"
pin_server
wrk_rate=$(${client[@]+"${client[@]}"} wrk -t2 -c8 -d10s -s bench/post-message.lua "$CONN_SERVER_URL" | grep -o 'Requests/sec: *[0-9.]*' | awk '{print $2}')
stop_conn_server
start_conn_server "$CONN_SERVER_BIN"
pin_server
fill "$COUNT" "$CONN_SERVER_URL"
start=$(date +%s.%N)
rss=$(CONN_SERVER=$CONN_SERVER_URL peak_rss_mb ${client[@]+"${client[@]}"} "$CONN" outbox flush --concurrency 8)
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc -l)
rate=$(echo "$COUNT / $seconds" | bc -l)
inbox=$(curl -s "$CONN_SERVER_URL/inbox")
stored=$(echo "$inbox" | jq '.inbox | length')
unique=$(echo "$inbox" | jq '[.inbox[] | .subject] | unique | length')
waiting=$("$CONN" outbox list --json | jq '.messages | length')
log "flush of $COUNT ($half messages, $half requests)${client[@]+ (server pinned to core $last)}: $(printf %.1f "$seconds") s = $(printf %.0f "$rate")/s; wrk $wrk_rate/s;" \
    "flush/wrk = $(printf %.2f "$(echo "$rate / $wrk_rate" | bc -l)")x (goal >= 0.8x); peak RSS $rss MB (goal <= 40);" \
    "stored $stored, distinct $unique, left waiting $waiting: lost $((COUNT - unique)), duplicated $((stored - unique))"
stop_conn_server
