#!/usr/bin/env bash
# Start-up cost: conn --version and conn config show against curl --version, whole process.
# Goal (issue 2): conn --version within 1.2x of curl --version.
#
# CONN_BASELINE=/path/to/an/older/conn adds that binary's runs to the same hyperfine run, so a
# change can be compared with the code before it (issue 15: "not slower"), ratios side by side.
set -euo pipefail
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data
mkdir -p "$XDG_CONFIG_HOME/conn"
printf 'server: http://127.0.0.1:8080\ntimeout: 5s\n' > "$XDG_CONFIG_HOME/conn/config.yaml"

commands=(-n 'curl --version' 'curl --version')
add() {  # add NAME ARGS: the current binary, and the baseline's beside it
    commands+=(-n "conn $1" "$CONN $1")
    if [ -n "${CONN_BASELINE:-}" ]; then commands+=(-n "baseline conn $1" "$CONN_BASELINE $1"); fi
}
add '--version'
add 'config show'
add 'config show --json'
add 'outbox list'
# Create the database first (and migrate the baseline's copy too), so no run pays for that.
"$CONN" outbox list >/dev/null
if [ -n "${CONN_BASELINE:-}" ]; then "$CONN_BASELINE" outbox list >/dev/null; fi

hyperfine -N --warmup 20 --runs 300 --export-markdown "$RESULTS/startup.md" "${commands[@]}"

echo "peak RSS: curl --version $(peak_rss_mb curl --version) MB," \
     "conn --version $(peak_rss_mb "$CONN" --version) MB," \
     "conn config show $(peak_rss_mb "$CONN" config show) MB" | tee "$RESULTS/startup-rss.txt"
