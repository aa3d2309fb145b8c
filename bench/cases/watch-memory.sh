#!/usr/bin/env bash
# conn watch memory over time: 100 targets on a loopback conn-server, probed every 2 s (15× the
# default rate, so 10 minutes here is over 2 hours of default probing), the WebSocket link held,
# the server killed and restarted every minute (reconnects, state changes). VmRSS sampled every
# 10 s. Goal: <= 40 MB after DURATION and not growing.
#
#   DURATION=600 bench/run watch-memory
set -euo pipefail
DURATION=${DURATION:-600}
out="$RESULTS/watch-memory.txt"
: > "$out"
home=$(mktemp -d)
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start_server() {
    "$CONN_SERVER_BIN" --port "$port" >/dev/null 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && return 0; sleep 0.1; done
}
start_server
targets=()
for i in $(seq 100); do targets+=("http://127.0.0.1:$port/health?target=$i"); done
"$CONN" watch --json --no-internet --interval 2s --server "http://127.0.0.1:$port" "${targets[@]}" > "$home/watch.jsonl" 2>"$home/watch.err" &
watch_pid=$!
trap 'kill $watch_pid $server_pid 2>/dev/null || true' EXIT
rss() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$watch_pid/status"; }
samples=()
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$DURATION" ]; do
    sleep 10
    elapsed=$(( $(date +%s) - start ))
    mb=$(rss)
    samples+=("$elapsed $mb")
    echo "t=${elapsed}s rss=${mb} MB" >> "$out"
    if [ $(( elapsed % 60 )) -lt 10 ] && [ "$elapsed" -ge 60 ]; then
        kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; sleep 2; start_server
    fi
done
changes=$(grep -c '"type":"change"' "$home/watch.jsonl" || true)
first_minute=$(printf '%s\n' "${samples[@]}" | awk '$1 >= 60 {print $2; exit}')
last=$(printf '%s\n' "${samples[@]}" | tail -1 | awk '{print $2}')
peak=$(printf '%s\n' "${samples[@]}" | awk '$2 > m {m = $2} END {print m}')
# Least-squares slope of RSS over the samples after the first minute, in MB per hour.
slope=$(printf '%s\n' "${samples[@]}" | awk '$1 >= 60 {n++; sx += $1; sy += $2; sxy += $1 * $2; sxx += $1 * $1} END {d = n * sxx - sx * sx; printf "%.2f", d ? (n * sxy - sx * sy) / d * 3600 : 0}')
echo "100 targets, --interval 2s, ${DURATION}s, $changes state changes: RSS at 1 min $first_minute MB, at end $last MB, peak $peak MB, slope after 1 min $slope MB/h" | tee -a "$out"
