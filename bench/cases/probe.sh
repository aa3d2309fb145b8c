#!/usr/bin/env bash
# conn probe against curl (issue 4), whole process, release builds, conn-server on loopback:
#  1. one health URL: `conn probe URL` vs `curl -fsS -o /dev/null URL`         (goal ≤ 1.2x curl)
#     and vs bench/tools/nio-floor asking the same URL once
#  2. 1,000 targets, half listening, half closed ports: `conn probe --file` vs
#     `curl --parallel --parallel-max 100` over the same URLs                   (goal: faster than curl)
#     and bench/tools/nio-floor, the least a SwiftNIO program built as conn's probe is pays for
#     the same connections and requests (no DNS, routes or report): the floor conn is held to.
set -euo pipefail
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
trap stop_conn_server EXIT
start_conn_server "$SERVER"
url=$CONN_SERVER_URL
work=$(mktemp -d)
export HOME=$work XDG_CONFIG_HOME=$work/config

# Built as conn is (scripts/build-release: the same compiler flags), so the floor stays comparable.
scripts/build-release --package-path bench/tools/nio-floor >/dev/null
mkdir -p "$RESULTS/bin"
strip -o "$RESULTS/bin/nio-floor" bench/tools/nio-floor/.build/release/nio-floor

echo "$url/health" > "$work/one-target"
hyperfine -N --warmup 10 --runs 200 --export-markdown "$RESULTS/probe-one.md" \
    -n 'curl -fsS -o /dev/null URL' "curl -fsS -o /dev/null $url/health" \
    -n 'nio-floor (the same URL)' "$RESULTS/bin/nio-floor $work/one-target 1" \
    -n 'conn probe URL' "$CONN probe $url/health"

# 500 URLs on the listening server, 500 on ports where nothing listens.
listening=$(ss -Hltn 2>/dev/null | awk '{print $4}' | sed 's/.*://' | sort -u)
: > "$work/targets"
for i in $(seq 1 500); do echo "$url/health?n=$i" >> "$work/targets"; done
port=41000
count=0
while [ $count -lt 500 ]; do
    port=$((port + 1))
    grep -qx "$port" <<<"$listening" && continue
    echo "http://127.0.0.1:$port/health" >> "$work/targets"
    count=$((count + 1))
done
curl_args=""
while read -r target; do curl_args+=" -o /dev/null $target"; done < "$work/targets"
echo "$curl_args" > "$work/curl-args"

hyperfine -N -i --warmup 2 --runs 15 --export-markdown "$RESULTS/probe-1000.md" \
    -n 'curl --parallel --parallel-max 100 (1,000 URLs)' "curl -s --parallel --parallel-max 100 $curl_args" \
    -n 'nio-floor (1,000 URLs, 100 at once)' "$RESULTS/bin/nio-floor $work/targets 100" \
    -n 'conn probe --file (1,000 targets, --concurrency 100)' "$CONN probe --file $work/targets --concurrency 100"

echo "peak RSS: conn probe --file (1,000) $(peak_rss_mb "$CONN" probe --file "$work/targets" --concurrency 100) MB" | tee "$RESULTS/probe-rss.txt"
rm -rf "$work"
