#!/usr/bin/env bash
# Start-up cost: conn --version and conn config show against curl --version, whole process.
# Goal (issue 2): conn --version within 1.2x of curl --version.
set -euo pipefail
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME=$home XDG_CONFIG_HOME=$home/config
mkdir -p "$XDG_CONFIG_HOME/conn"
printf 'server: http://127.0.0.1:8080\ntimeout: 5s\n' > "$XDG_CONFIG_HOME/conn/config.yaml"

hyperfine -N --warmup 20 --runs 300 --export-markdown "$RESULTS/startup.md" \
    -n 'curl --version' 'curl --version' \
    -n 'conn --version' "$CONN --version" \
    -n 'conn config show' "$CONN config show" \
    -n 'conn config show --json' "$CONN config show --json"

echo "peak RSS: curl --version $(peak_rss_mb curl --version) MB," \
     "conn --version $(peak_rss_mb "$CONN" --version) MB," \
     "conn config show $(peak_rss_mb "$CONN" config show) MB" | tee "$RESULTS/startup-rss.txt"
