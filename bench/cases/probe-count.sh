#!/usr/bin/env bash
# conn probe --count against httping (issue 39), whole process, release builds, conn-server on
# loopback: 100 rounds back to back, each a new connection and one GET, summed up at the end.
#   `conn probe --count 100 --interval 0 URL` vs `httping -c 100 -i 0 -q URL`   (goal ≤ 1.0x httping)
set -euo pipefail
command -v httping >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq httping; }
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
trap stop_conn_server EXIT
start_conn_server "$SERVER"
url=$CONN_SERVER_URL
work=$(mktemp -d)
export HOME=$work XDG_CONFIG_HOME=$work/config

hyperfine -N --warmup 3 --runs 30 --export-markdown "$RESULTS/probe-count.md" \
    -n 'httping -c 100 -i 0 -q URL' "httping -c 100 -i 0 -q $url/health" \
    -n 'conn probe --count 100 --interval 0 URL' "$CONN probe --count 100 --interval 0 $url/health"
echo "peak RSS: conn probe --count 10000 --interval 0 $(peak_rss_mb "$CONN" probe --count 10000 --interval 0 "$url/health") MB," \
     "--count 100 $(peak_rss_mb "$CONN" probe --count 100 --interval 0 "$url/health") MB" | tee "$RESULTS/probe-count-rss.txt"
rm -rf "$work"
