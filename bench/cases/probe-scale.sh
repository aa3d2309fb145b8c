#!/usr/bin/env bash
# conn probe --file at 1,000, 5,000 and 10,000 targets against curl --parallel (issue 55, item 1),
# whole process, release builds, conn-server on loopback; half the targets on the server, half on
# closed ports. Per size, best of RUNS (default 3) for each tool, and peak RSS:
#   `conn probe --file T --concurrency 100` vs `curl -s --parallel --parallel-max 100 -o /dev/null URL…`
# Goals: 10k ≤ 1.0x curl; time(10k) ≤ 11x time(1k); RSS at 10k ≤ 40 MB.
# Sockets in TIME-WAIT are counted before each run: thousands of them slow a run down, so the
# count is reported beside the figure.
set -euo pipefail
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1000 5000 10000"}
source scripts/lib/server.sh
work=$(mktemp -d)
trap 'stop_conn_server; rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/config
start_conn_server "$CONN_SERVER_BIN"
url=$CONN_SERVER_URL
out="$RESULTS/probe-scale.txt"
: > "$out"
log() { echo "$*" | tee -a "$out"; }

listening=$(ss -Hltn 2>/dev/null | awk '{print $4}' | sed 's/.*://' | sort -u)
targets() {  # N FILE: N/2 URLs on the server, N/2 on closed ports
    local half=$(($1 / 2)) port=41000 count=0
    : > "$2"
    for i in $(seq 1 "$half"); do echo "$url/health?n=$i" >> "$2"; done
    while [ $count -lt "$half" ]; do
        port=$((port + 1))
        grep -qx "$port" <<<"$listening" && continue
        echo "http://127.0.0.1:$port/health" >> "$2"
        count=$((count + 1))
    done
}
seconds_of() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
best_of() { local best="" s; for _ in $(seq 1 "$RUNS"); do s=$(seconds_of "$@"); if [ -z "$best" ] || [ "$(echo "$s < $best" | bc -l)" = 1 ]; then best=$s; fi; done; echo "$best"; }
time_wait() { ss -Htan state time-wait 2>/dev/null | wc -l; }

declare -A conn_s curl_s
log "| targets | conn probe --file | curl --parallel | conn/curl | conn peak RSS | curl peak RSS | TIME-WAIT before |"
log "|---|---|---|---|---|---|---|"
for n in $SIZES; do
    targets "$n" "$work/t$n"
    curl_args=()
    while read -r target; do curl_args+=(-o /dev/null "$target"); done < "$work/t$n"
    tw=$(time_wait)
    conn_s[$n]=$(best_of "$CONN" probe --file "$work/t$n" --concurrency 100)
    curl_s[$n]=$(best_of curl -s --parallel --parallel-max 100 "${curl_args[@]}")
    conn_rss=$(peak_rss_mb "$CONN" probe --file "$work/t$n" --concurrency 100 || true)  # exits 69: half the targets fail
    curl_rss=$(peak_rss_mb curl -s --parallel --parallel-max 100 "${curl_args[@]}" || true)
    log "| $n | $(printf %.3f "${conn_s[$n]}") s | $(printf %.3f "${curl_s[$n]}") s | $(printf %.2f "$(echo "${conn_s[$n]} / ${curl_s[$n]}" | bc -l)")x | $conn_rss MB | $curl_rss MB | $tw |"
done
set -- $SIZES
first=$1; last=${!#}
log "growth from $first to $last targets: conn x$(printf %.1f "$(echo "${conn_s[$last]} / ${conn_s[$first]}" | bc -l)"), curl x$(printf %.1f "$(echo "${curl_s[$last]} / ${curl_s[$first]}" | bc -l)") (the work x$((last / first)))"
