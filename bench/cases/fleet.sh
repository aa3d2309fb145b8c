#!/usr/bin/env bash
# The exporter at fleet size (issue 55, item 4), against conn-server on loopback, in one run:
#  1. Real Prometheus scrapes /probe for TARGETS (1,000) targets every 15 s for FLEET_SECONDS
#     (300), from conn's agent and from the blackbox exporter at once, one job each: 90 % of the
#     targets the live server's /health (under distinct query strings), 10 % a closed port.
#     Reported per process: CPU per probe (utime+stime over the run / probes answered), peak RSS,
#     and from Prometheus itself the scrapes that failed (up == 0) and the slowest scrape.
#     Goal: conn's CPU per probe <= the exporter's, RSS <= the exporter's, no scrape failing
#     that the exporter answers.
#  2. An agent watching the same 1,000 targets itself (default interval), not scraped, for
#     IDLE_SECONDS (120): its CPU and RSS. Goal: RSS <= 40 MB, CPU <= 0.5 % of a core.
set -euo pipefail
for tool in prometheus prometheus-blackbox-exporter; do
    command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool"; }
done
TARGETS=${TARGETS:-1000}
FLEET_SECONDS=${FLEET_SECONDS:-300}
IDLE_SECONDS=${IDLE_SECONDS:-120}
out="$RESULTS/fleet.txt"
source bench/lib/exporter-home.sh
peak_mb() { awk '/^VmHWM:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
rss_mb() { awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ticks=$(getconf CLK_TCK)

start_conn_server "$CONN_SERVER_BIN"
closed=$(free_port)   # nothing listens there: a refused connection per probe
python3 - "$CONN_SERVER_URL" "$closed" "$TARGETS" > "$home/targets.json" <<'EOF'
import json, sys
server, closed, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
targets = [f"{server}/health?n={i}" if i % 10 else f"http://127.0.0.1:{closed}/health?n={i}" for i in range(count)]
print(json.dumps([{"targets": targets}]))
EOF

conn_port=$(free_port)
CONN_SERVER=$CONN_SERVER_URL "$CONN" agent --no-internet --metrics-listen "127.0.0.1:$conn_port" --probe-allow 127.0.0.1 >/dev/null 2>"$home/agent.log" &
agent=$!; pids+=("$agent")
blackbox_port=$(free_port)
printf 'modules:\n  http_2xx:\n    prober: http\n    timeout: 10s\n' > "$home/blackbox.yml"
prometheus-blackbox-exporter --config.file="$home/blackbox.yml" --web.listen-address="127.0.0.1:$blackbox_port" >/dev/null 2>&1 &
blackbox=$!; pids+=("$blackbox")
prometheus_port=$(free_port)
job() {  # NAME PORT: a /probe job for the targets file, sent to 127.0.0.1:PORT
    cat <<EOF
  - job_name: $1
    metrics_path: /probe
    params: {module: [http_2xx]}
    file_sd_configs: [{files: ["$home/targets.json"]}]
    relabel_configs:
      - {source_labels: [__address__], target_label: __param_target}
      - {source_labels: [__param_target], target_label: instance}
      - {target_label: __address__, replacement: "127.0.0.1:$2"}
EOF
}
{ printf 'global: {scrape_interval: 15s, scrape_timeout: 10s}\nscrape_configs:\n'; job conn "$conn_port"; job blackbox "$blackbox_port"; } > "$home/prometheus.yml"
sleep 3   # the agent and the exporter listening
conn_start=$(cpu_ticks "$agent"); blackbox_start=$(cpu_ticks "$blackbox")
prometheus --config.file="$home/prometheus.yml" --storage.tsdb.path="$home/tsdb" --web.listen-address="127.0.0.1:$prometheus_port" \
    >/dev/null 2>"$home/prometheus.log" &
pids+=("$!")
log "## $TARGETS targets scraped every 15 s for ${FLEET_SECONDS} s (conn: agent /probe; blackbox exporter 0.23)"
sleep "$FLEET_SECONDS"
conn_cpu=$(( $(cpu_ticks "$agent") - conn_start )); blackbox_cpu=$(( $(cpu_ticks "$blackbox") - blackbox_start ))
query() {  # PromQL: the first value
    curl -s --get "http://127.0.0.1:$prometheus_port/api/v1/query" --data-urlencode "query=$1" |
        python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "0")'
}
window="${FLEET_SECONDS}s"
for who in conn blackbox; do
    pid=$agent cpu=$conn_cpu
    [ "$who" = blackbox ] && { pid=$blackbox; cpu=$blackbox_cpu; }
    scrapes=$(query "sum(count_over_time(up{job=\"$who\"}[$window]))")
    failed=$(query "sum(count_over_time((up{job=\"$who\"} == 0)[$window:15s]))")
    succeeded=$(query "sum(count_over_time((probe_success{job=\"$who\"} == 1)[$window:15s]))")
    slowest=$(query "max(max_over_time(scrape_duration_seconds{job=\"$who\"}[$window]))")
    per_probe=$(python3 -c "print(f'{$cpu / $ticks / max(1, $scrapes) * 1000:.3f}')")
    log "$who: $scrapes scrapes, $failed failed (up == 0), probe_success 1 in about $succeeded; slowest scrape $(printf %.3f "$slowest") s;" \
        "CPU $(python3 -c "print(f'{$cpu / $ticks:.2f}')") s = $per_probe ms a probe; peak RSS $(peak_mb "$pid") MB, now $(rss_mb "$pid") MB"
done
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
pids=()

# 2. The agent watching the targets itself, not scraped.
mapfile -t targets < <(python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))[0]["targets"]))' "$home/targets.json")
CONN_SERVER=$CONN_SERVER_URL "$CONN" agent --no-internet "${targets[@]}" >/dev/null 2>"$home/agent-watch.log" &
watcher=$!; pids+=("$watcher")
sleep 35   # start-up and the first look at every target
start=$(cpu_ticks "$watcher")
sleep "$IDLE_SECONDS"
used=$(( $(cpu_ticks "$watcher") - start ))
log "## the agent watching $TARGETS targets (default interval), ${IDLE_SECONDS} s after its first minute:" \
    "CPU $(python3 -c "print(f'{$used / $ticks / $IDLE_SECONDS * 100:.2f}')") % of a core (goal <= 0.5), RSS $(rss_mb "$watcher") MB, peak $(peak_mb "$watcher") MB (goal <= 40)"
