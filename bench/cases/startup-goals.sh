#!/usr/bin/env bash
# Issue 40's goals in one hyperfine run: every everyday command against `conn --version`
# (goal ≤ 1.3x each), `conn --version` against `curl --version` (goal ≤ 0.75x), and `conn probe
# URL` against `curl -o /dev/null URL` on loopback (goal ≤ 1.0x); then the peak RSS of
# `config show` (goal ≤ 22 MB). A two-key config, the server down for `send` (a port nothing
# listens on), empty caches, no agent.
#
# CONN_BASELINE=/path/to/an/older/conn adds that binary's runs beside each (the code before a change).
set -euo pipefail
home=$(mktemp -d)
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
trap 'stop_conn_server; rm -rf "$home"' EXIT
export HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache
export XDG_RUNTIME_DIR=$home/run
mkdir -p "$XDG_CONFIG_HOME/conn" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'server: http://127.0.0.1:%s\ntimeout: 5s\n' "$closed" > "$XDG_CONFIG_HOME/conn/config.yaml"
start_conn_server "$SERVER"
url=$CONN_SERVER_URL

"$CONN" outbox list >/dev/null   # the database made once, not in a run
[ -z "${CONN_BASELINE:-}" ] || "$CONN_BASELINE" outbox list >/dev/null

commands=(-n 'curl --version' 'curl --version' -n 'curl -o /dev/null URL' "curl -fsS -o /dev/null $url/health")
add() {  # add NAME ARGS: the current binary, and the baseline's beside it
    commands+=(-n "conn $1" "$CONN $1")
    [ -z "${CONN_BASELINE:-}" ] || commands+=(-n "baseline conn $1" "$CONN_BASELINE $1")
}
add '--version'
add 'config show'
add 'outbox list'
add 'inbox list'
add 'send --to ann@example.com --subject s --text t'
add 'agent status'
add 'clock-offset --convert 2026-11-23T10:00:00.432Z'
add "probe $url/health"

# -i: send (server down) and inbox list (nothing cached) exit non-zero by design.
hyperfine -N -i --warmup 20 --runs "${RUNS:-200}" --export-markdown "$RESULTS/startup-goals.md" "${commands[@]}"
echo "peak RSS of conn config show: $(peak_rss_mb "$CONN" config show) MB (goal ≤ 22)" | tee "$RESULTS/startup-goals-rss.txt"
