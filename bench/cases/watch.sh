#!/usr/bin/env bash
# conn watch detection latency, in network namespaces (needs root):
#  1. from `ip link set … down` to conn watch's change line, side by side with `ip -ts monitor
#     link` (the kernel's own notification, the floor). Goal: <= 20 ms.
#  2. from SIGKILL of conn-server to the serverUnreachable line (the WebSocket closing). Goal: <= 100 ms.
# Each measured ROUNDS times; prints every round and the medians.
set -euo pipefail
ROUNDS=${ROUNDS:-10}
out="$RESULTS/watch.txt"
: > "$out"
source bench/lib/namespaces.sh
ip link add vbc netns "$ns_c" type veth peer name vbs netns "$ns_s"
ip -n "$ns_c" addr add 10.78.0.1/24 dev vbc; ip -n "$ns_s" addr add 10.78.0.2/24 dev vbs
ip -n "$ns_c" link set vbc up; ip -n "$ns_s" link set vbs up
now() { date +%s.%N; }
# How many change events to STATE the log holds (events are JSON objects, one per line).
changes() { grep '"type":"change"' "$watch_log" | grep -c "\"state\":\"$1\"" || true; }
last_change_at() { grep '"type":"change"' "$watch_log" | grep "\"state\":\"$1\"" | tail -1 | sed 's/.*"at":"\([^"]*\)".*/\1/'; }

start_server() {
    ip netns exec "$ns_s" "$CONN_SERVER_BIN" --host 10.78.0.2 --port 8080 >/dev/null 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do ip netns exec "$ns_c" bash -c 'exec 3<>/dev/tcp/10.78.0.2/8080' 2>/dev/null && return 0; sleep 0.1; done
}
start_server

# 1. link down
watch_log=$home/watch.jsonl monitor_log=$home/monitor.txt
ip netns exec "$ns_c" "$CONN" watch --json --no-internet --interval 60s --server http://10.78.0.2:8080 > "$watch_log" 2>/dev/null &
watch_pid=$!
ip netns exec "$ns_c" ip -ts monitor link > "$monitor_log" &
monitor_pid=$!
sleep 2
conn_ms=() ip_ms=()
for round in $(seq "$ROUNDS"); do
    before_changes=$(changes offline)
    before_monitor=$(grep -c 'state DOWN\|NO-CARRIER' "$monitor_log" || true)
    t0=$(now)
    ip -n "$ns_c" link set vbc down
    for _ in $(seq 200); do [ "$(changes offline)" -gt "$before_changes" ] && break; sleep 0.01; done
    at=$(last_change_at offline)
    conn=$(echo "($(to_epoch "$at") - $t0) * 1000" | bc -l)
    line=$(grep 'vbc' "$monitor_log" | tail -1)
    mts=$(echo "$line" | sed 's/^\[\([^]]*\)\].*/\1/')
    ipm=$(echo "($(to_epoch "$mts") - $t0) * 1000" | bc -l)
    printf 'round %d: link down → conn watch %.1f ms, ip monitor %.1f ms\n' "$round" "$conn" "$ipm" | tee -a "$out"
    conn_ms+=("$conn"); ip_ms+=("$ipm")
    ip -n "$ns_c" link set vbc up
    for _ in $(seq 300); do [ "$(changes online)" -gt "$round" ] && break; sleep 0.01; done
    sleep 0.5
done
echo "link down, median of $ROUNDS: conn watch $(printf '%s\n' "${conn_ms[@]}" | median) ms; ip -ts monitor link $(printf '%s\n' "${ip_ms[@]}" | median) ms" | tee -a "$out"
kill "$monitor_pid" 2>/dev/null || true

# 2. server killed: the WebSocket closes.
kill_ms=()
for round in $(seq "$ROUNDS"); do
    for _ in $(seq 300); do tail -1 "$watch_log" | grep -q '"status":"connected"' && break; sleep 0.01; done
    sleep 0.3
    before=$(changes serverUnreachable)
    t0=$(now)
    kill -9 "$server_pid"
    for _ in $(seq 300); do [ "$(changes serverUnreachable)" -gt "$before" ] && break; sleep 0.01; done
    at=$(last_change_at serverUnreachable)
    ms=$(echo "($(to_epoch "$at") - $t0) * 1000" | bc -l)
    printf 'round %d: server killed → conn watch %.1f ms\n' "$round" "$ms" | tee -a "$out"
    kill_ms+=("$ms")
    wait "$server_pid" 2>/dev/null || true
    start_server
done
echo "server killed, median of $ROUNDS: $(printf '%s\n' "${kill_ms[@]}" | median) ms" | tee -a "$out"
kill "$watch_pid" 2>/dev/null || true
kill "$server_pid" 2>/dev/null || true
