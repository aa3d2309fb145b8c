#!/usr/bin/env bash
# Issue 40's goals in one hyperfine run: every everyday command against `conn --version`
# (goal ≤ 1.3x each), `conn --version` against `curl --version` (goal ≤ 0.75x), and `conn probe
# URL` against `curl -o /dev/null URL` on loopback (goal ≤ 1.0x); then the peak RSS of every
# one (goal for `config show` ≤ 22 MB). A two-key config, the server down for `send` (a port
# nothing listens on), empty caches, no agent.
#
# CONN_BASELINE=/path/to/an/older/conn adds that binary's runs beside each (the code before a change).
set -euo pipefail
home=$(mktemp -d)
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
source bench/lib/startup-home.sh
trap 'stop_conn_server; rm -rf "$home"' EXIT
startup_home "$home" "$CONN"
[ -z "${CONN_BASELINE:-}" ] || "$CONN_BASELINE" outbox list >/dev/null
start_conn_server "$SERVER"
url=$CONN_SERVER_URL

commands=(-n 'curl --version' 'curl --version' -n 'curl -o /dev/null URL' "curl -fsS -o /dev/null $url/health")
add() {  # add NAME ARGS: the current binary, and the baseline's beside it
    commands+=(-n "conn $1" "$CONN $1")
    [ -z "${CONN_BASELINE:-}" ] || commands+=(-n "baseline conn $1" "$CONN_BASELINE $1")
}
for line in "${startup_commands[@]}"; do add "${line//URL/$url/health}"; done

# -i: send (server down) and inbox list (nothing cached) exit non-zero by design.
hyperfine -N -i --warmup 20 --runs "${RUNS:-200}" --export-markdown "$RESULTS/startup-goals.md" "${commands[@]}"
# Peak RSS, the median of five runs (one run now and then maps a few MB more).
median_rss_mb() { for _ in 1 2 3 4 5; do peak_rss_mb "$@"; echo; done | sort -n | sed -n 3p; }
{
    echo "peak RSS [MB], median of 5 (goal for config show ≤ 22)"
    for line in "${startup_commands[@]}"; do
        # shellcheck disable=SC2086 # each line is a command line, split into its words
        printf '%-50s %6s %s\n' "conn $line" "$(median_rss_mb "$CONN" ${line//URL/$url/health})" \
            "${CONN_BASELINE:+$(median_rss_mb "$CONN_BASELINE" ${line//URL/$url/health}) (baseline)}"
    done
} | tee "$RESULTS/startup-goals-rss.txt"
