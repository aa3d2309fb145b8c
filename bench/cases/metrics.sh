#!/usr/bin/env bash
# conn's Prometheus endpoints (#18), against conn-server on loopback, side by side in one run:
#  1. GET /probe (http_2xx on the live server's /health): conn versus the blackbox exporter,
#     wrk -c 10 -d 10s each; probes per second, latency, and each process's peak RSS (VmHWM).
#     Goal: conn >= the exporter's probes per second, at <= its peak RSS.
#  2. GET /metrics of an agent watching 100 targets: wrk -c 1 -d 10s --latency (median per scrape).
#     Goal: <= 5 ms.
#  3. The agent's RSS while scraped every second for SCRAPE_SECONDS (600). Goal: unchanged.
set -euo pipefail
for tool in wrk prometheus-blackbox-exporter; do
    command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool"; }
done
out="$RESULTS/metrics.txt"
source bench/lib/exporter-home.sh
peak_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

start_conn_server "$CONN_SERVER_BIN"
target="$CONN_SERVER_URL/health"

# 100 targets: the live server's health resource under 100 query strings.
targets=()
for i in $(seq 1 100); do targets+=("$target?n=$i"); done
metrics_port=$(free_port)
CONN_SERVER=$CONN_SERVER_URL "$CONN" agent --no-internet --interval 2s --metrics-listen "$metrics_port" "${targets[@]}" >/dev/null 2>&1 &
agent=$!; pids+=("$agent")
blackbox_port=$(free_port)
printf 'modules:\n  http_2xx:\n    prober: http\n' > "$home/blackbox.yml"
prometheus-blackbox-exporter --config.file="$home/blackbox.yml" --web.listen-address="127.0.0.1:$blackbox_port" >/dev/null 2>&1 &
blackbox=$!; pids+=("$blackbox")
sleep 5   # the agent's first looks at 100 targets; the exporter up

query="module=http_2xx&target=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$target")"
for who in conn blackbox; do
    port=$metrics_port; pid=$agent
    [ "$who" = blackbox ] && { port=$blackbox_port; pid=$blackbox; }
    log "## /probe, $who: wrk -t2 -c10 -d10s --latency"
    wrk -t2 -c10 -d10s --latency "http://127.0.0.1:$port/probe?$query" | tee -a "$out" | grep -E "Requests/sec|50%|99%|Non-2xx" || true
    log "$who peak RSS after the /probe run: $(( $(peak_kb "$pid") / 1024 )) MB"
done

log "## /metrics of the agent with 100 targets: wrk -t1 -c1 -d10s --latency"
wrk -t1 -c1 -d10s --latency "http://127.0.0.1:$metrics_port/metrics" | tee -a "$out" | grep -E "Requests/sec|50%|99%" || true

seconds=${SCRAPE_SECONDS:-600}
first=$(rss_kb "$agent")
samples=()
for i in $(seq 1 "$seconds"); do
    curl -s -o /dev/null "http://127.0.0.1:$metrics_port/metrics"
    [ $((i % 10)) -eq 0 ] && samples+=("$(rss_kb "$agent")")
    sleep 1
done
last=$(rss_kb "$agent")
max=$(printf '%s\n' "${samples[@]}" "$first" | sort -n | tail -1)
log "agent RSS while scraped every second for $seconds s: first $((first / 1024)) MB, last $((last / 1024)) MB, max $((max / 1024)) MB (${#samples[@]} samples)"
