#!/usr/bin/env bash
# conn agent (#17), against conn-server on loopback:
#  1. idle cost: the agent with the server up and default intervals for IDLE_SECONDS (600):
#     CPU share of one core and resident memory (goal: <= 0.1 %, <= 30 MB: issue 34);
#  2. the server back after an outage of OUTAGE_SECONDS (10) with 1,000 queued: until all are
#     stored, the agent versus `conn outbox flush --concurrency 8` started when the server
#     listens (goal: <= 1.1x);
#  3. queue-to-delivered latency with the agent running, `conn send`'s own attempt refused
#     (goal: median <= 100 ms).
set -euo pipefail
out="$RESULTS/agent.txt"
: > "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache
export XDG_RUNTIME_DIR=$home/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
"$CONN" outbox list >/dev/null   # creates the database and its tables
python3 bench/lib/agent_bench.py latency "${SAMPLES:-50}" | tee -a "$out"
python3 bench/lib/agent_bench.py outage "${COUNT:-1000}" "${OUTAGE_SECONDS:-10}" "${RUNS:-5}" | tee -a "$out"
python3 bench/lib/agent_bench.py idle "${IDLE_SECONDS:-600}" | tee -a "$out"
