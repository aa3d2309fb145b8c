#!/usr/bin/env bash
# Clock-offset accuracy and cost (issue 8): htpdate (Debian) against conn's http-date and json
# methods on the same conn-server with a known --skew-ms. Error = |measured − skew|; requests as
# counted by each tool (htpdate: its debug lines; conn: the JSON report). Wall time per run.
# Goals: json error ≤ 1 ms on loopback; http-date more accurate than htpdate with no more requests.
set -euo pipefail
command -v htpdate >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq htpdate; }
source scripts/lib/server.sh
trap stop_conn_server EXIT
work=$(mktemp -d)
export HOME=$work XDG_DATA_HOME=$work/data
out="$RESULTS/clock.md"
ms() { date +%s%3N; }
{
    echo "| skew (ms) | tool | measured (ms) | error (ms) | reported bound (ms) | requests | wall (ms) |"
    echo "|---:|:---|---:|---:|---:|---:|---:|"
} > "$out"
# Skews that are not multiples of 62.5 ms: htpdate reports in steps of 2^-precision s (62.5 ms at
# its default precision 4), which would flatter it on aligned values.
for skew in 1234 -999 317 86400037; do
    for round in 1 2; do
        start_conn_server "$CONN_SERVER_BIN" --skew-ms="$skew"
        hostport=${CONN_SERVER_URL#http://}

        t0=$(ms); debug=$(htpdate -q -d -t "$hostport" 2>&1); t1=$(ms)
        seconds=$(sed -n 's/^offset: //p' <<<"$debug" | tail -n 1)
        measured=$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }')
        requests=$(grep -c '=>' <<<"$debug" || true)
        awk -v m="$measured" -v k="$skew" -v r="$requests" -v w=$((t1 - t0)) \
            'BEGIN { e = m - k; if (e < 0) e = -e; printf "| %d | htpdate -q -t (precision 4) | %.1f | %.1f | — | %d | %d |\n", k, m, e, r, w }' >> "$out"

        for method in "http-date --samples 4" http-date json; do
            t0=$(ms); report=$("$CONN" clock-offset --json --method $method --server "$CONN_SERVER_URL"); t1=$(ms)
            jq -r --argjson k "$skew" --arg w $((t1 - t0)) --arg m "$method" \
                '"| \($k) | conn clock-offset --method \($m) | \(.offsetMs * 10 | round / 10) | \((.offsetMs - $k) | fabs * 100 | round / 100) | \(.uncertaintyMs * 100 | round / 100) | \(.requests) | \($w) |"' \
                <<<"$report" >> "$out"
        done
        stop_conn_server
    done
done
cat "$out"
rm -rf "$work"
