#!/usr/bin/env bash
# conn outbox flush and conn send against conn-server on loopback:
#  1. flush of 10,000 queued messages vs wrk posting to the same server (its ceiling), same
#     concurrency (8 connections); messages per second. Goal: flush >= 50% of wrk.
#  2. msmtpq-style delivery, one `conn send` process per message, for contrast.
#  3. `conn send` while the server is down (durable enqueue) vs `conn --version`. Goal: <= 1.3x.
#  4. the kill -9 soak: 200 random SIGKILLs of `conn outbox flush`, then a final flush; counts
#     lost and duplicated messages on the server (must both be 0).
set -euo pipefail
out="$RESULTS/outbox.txt"
COUNT=${COUNT:-10000}
KILLS=${KILLS:-200}
source bench/lib/outbox-home.sh

# 1. flush vs wrk. A fresh server per flush run, so every message is a first store (not a replay).
start_conn_server "$CONN_SERVER_BIN"
log "## wrk, POST /messages, 2 threads, 8 connections, 10s (the server's ceiling)"
wrk -t2 -c8 -d10s -s bench/post-message.lua "$CONN_SERVER_URL" | tee -a "$out"
wrk_rate=$(grep -o 'Requests/sec: *[0-9.]*' "$out" | tail -1 | awk '{print $2}')
stop_conn_server
best=""
for run in 1 2 3; do
    start_conn_server "$CONN_SERVER_BIN"
    python3 bench/lib/fill-outbox.py "$db" "$COUNT" "flush$run"
    start=$(date +%s.%N)
    CONN_SERVER=$CONN_SERVER_URL "$CONN" outbox flush --concurrency 8 >/dev/null
    end=$(date +%s.%N)
    stored=$(curl -s "$CONN_SERVER_URL/inbox" | jq '.inbox | length')
    seconds=$(echo "$end - $start" | bc -l)
    rate=$(echo "$COUNT / $seconds" | bc -l)
    log "flush run $run: $COUNT messages in $(printf %.2f "$seconds") s = $(printf %.0f "$rate") msg/s (server stored $stored)"
    stop_conn_server
    if [ -z "$best" ] || [ "$(echo "$rate > $best" | bc -l)" = 1 ]; then best=$rate; fi
done
log "best flush: $(printf %.0f "$best") msg/s; wrk: $wrk_rate req/s; flush/wrk = $(printf %.2f "$(echo "$best / $wrk_rate" | bc -l)")"

# 2. one process per message (what msmtpq does for each queued mail).
start_conn_server "$CONN_SERVER_BIN"
start=$(date +%s.%N)
for i in $(seq 1 300); do CONN_SERVER=$CONN_SERVER_URL "$CONN" send --to jhon@gmail.com --subject "one-$i" --text t >/dev/null; done
end=$(date +%s.%N)
log "one conn send process per message: 300 in $(printf %.2f "$(echo "$end - $start" | bc -l)") s = $(printf %.0f "$(echo "300 / ($end - $start)" | bc -l)") msg/s"
stop_conn_server

# 3. durable enqueue while the server is down (connection refused) vs conn --version.
down="http://127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
hyperfine -N --warmup 5 --runs 100 --export-markdown "$RESULTS/outbox-send-down.md" \
    -n "conn --version" "$CONN --version" \
    -n "conn send (server down)" "env CONN_SERVER=$down $CONN send --to jhon@gmail.com --subject queued --text t" | tee -a "$out"

# 4. the kill -9 soak.
start_conn_server "$CONN_SERVER_BIN" --latency-ms 2
python3 bench/lib/fill-outbox.py "$db" "$COUNT" soak
killed=0
for i in $(seq 1 "$KILLS"); do
    CONN_SERVER=$CONN_SERVER_URL "$CONN" outbox flush --concurrency 8 >/dev/null 2>&1 &
    pid=$!
    sleep "0.0$(( RANDOM % 9 + 1 ))$(( RANDOM % 10 ))"
    if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
    wait "$pid" 2>/dev/null || true
done
CONN_SERVER=$CONN_SERVER_URL "$CONN" outbox flush --wait 60s >/dev/null
inbox=$(curl -s "$CONN_SERVER_URL/inbox")
stored=$(echo "$inbox" | jq '[.inbox[] | select(.subject | startswith("soak-"))] | length')
unique=$(echo "$inbox" | jq '[.inbox[] | select(.subject | startswith("soak-")) | .subject] | unique | length')
interrupted=$(python3 -c "import sqlite3; print(sqlite3.connect('$db').execute(\"SELECT COUNT(*) FROM outboxAttempt WHERE outcome='started'\").fetchone()[0])")
log "kill -9 soak: $KILLS flushes started, $killed killed mid-run ($interrupted attempts interrupted); queued $COUNT, stored $stored, distinct $unique: lost $((COUNT - unique)), duplicates $((stored - unique))"
stop_conn_server
