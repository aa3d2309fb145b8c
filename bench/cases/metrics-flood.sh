#!/usr/bin/env bash
# The metrics listener under a flood (#52): 500 half-sent connections held open (a request head
# never finished), then 20 scrapes of /metrics one after another, each timed by curl; beside it the
# blackbox exporter's listener under the same flood. Also the agent's open descriptors after the
# flood and once the first request's deadline (10 s) has passed.
# Goal: every scrape answered, the slowest within 1 s; the agent's descriptors back near their
# count before the flood.
set -euo pipefail
command -v prometheus-blackbox-exporter >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus-blackbox-exporter; }
out="$RESULTS/metrics-flood.txt"
source bench/lib/exporter-home.sh
fds() { ls "/proc/$1/fd" | wc -l; }

start_conn_server "$CONN_SERVER_BIN"
metrics_port=$(free_port)
CONN_SERVER=$CONN_SERVER_URL "$CONN" agent --no-internet --interval 2s --metrics-listen "$metrics_port" >/dev/null 2>"$home/agent.log" &
agent=$!; pids+=("$agent")
blackbox_port=$(free_port)
printf 'modules:\n  http_2xx:\n    prober: http\n' > "$home/blackbox.yml"
prometheus-blackbox-exporter --config.file="$home/blackbox.yml" --web.listen-address="127.0.0.1:$blackbox_port" >/dev/null 2>&1 &
blackbox=$!; pids+=("$blackbox")
sleep 3

for who in conn blackbox; do
    port=$metrics_port; pid=$agent
    [ "$who" = blackbox ] && { port=$blackbox_port; pid=$blackbox; }
    before=$(fds "$pid")
    # 500 connections that send half a request head and hold on, until killed.
    python3 - "$port" <<'PY' &
import socket, sys, time
held = []
for _ in range(500):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
time.sleep(60)
PY
    flood=$!
    sleep 2
    times=()
    for i in $(seq 1 20); do
        times+=("$(curl -s -o /dev/null --max-time 10 -w '%{http_code} %{time_total}' "http://127.0.0.1:$port/metrics")")
    done
    answered=$(printf '%s\n' "${times[@]}" | grep -c '^200 ' || true)
    slowest=$(printf '%s\n' "${times[@]}" | awk '{print $2}' | sort -n | tail -1)
    median=$(printf '%s\n' "${times[@]}" | awk '{print $2}' | sort -n | sed -n 10p)
    during=$(fds "$pid")
    sleep 12
    after=$(fds "$pid")
    log "$who: 20 scrapes under 500 half-sent connections: $answered answered, median ${median}s, slowest ${slowest}s; descriptors $before before, $during during, $after 12 s later"
    kill "$flood" 2>/dev/null || true
    wait "$flood" 2>/dev/null || true
done
grep -m1 "connections open" "$home/agent.log" | tee -a "$out" || log "(no limit line in the agent's log)"
