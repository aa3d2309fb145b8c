#!/usr/bin/env bash
# conn inbox at scale (issue 55, item 2): `inbox fetch` of 100,000, 400,000 and 1,000,000
# generated e-mails into an empty cache — peak RSS (goal ≤ 64 MB at 400,000 and 1,000,000) and
# time against the SQLite floor on the same data (bench/tools/sqlite-floor.py; goal ≤ 1.0×),
# each with its growth from the smallest size; a re-fetch where nothing changed; and `inbox
# list` and `inbox thread` from the largest cache (they must stay flat).
#   SIZES="100000 400000 1000000" (the default) picks the sizes.
set -euo pipefail
source scripts/lib/server.sh
trap stop_conn_server EXIT
work=$(mktemp -d)
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
out="$RESULTS/inbox-scale.txt"
: > "$out"
read -r -a sizes <<< "${SIZES:-100000 400000 1000000}"
first_size="" first_time="" first_rss=""
for size in "${sizes[@]}"; do
    start_conn_server "$CONN_SERVER_BIN" --generate "$size"
    export CONN_SERVER=$CONN_SERVER_URL
    curl -s -o "$work/inbox.json" "$CONN_SERVER_URL/inbox"  # the floor's data; the server encodes it once
    bytes=$(stat -c %s "$work/inbox.json")
    rm -rf "$work/data"
    /usr/bin/time -f '%e %M' -o "$work/full" "$CONN" inbox fetch -q
    read -r seconds kb < "$work/full"
    /usr/bin/time -f '%e %M' -o "$work/again" "$CONN" inbox fetch --force -q
    read -r again_seconds again_kb < "$work/again"
    stop_conn_server
    floor=$(python3 bench/tools/sqlite-floor.py "$work/data/conn/conn.sqlite" "$work/inbox.json" | sed -n 's/.*total \([0-9.]*\) s.*/\1/p')
    rss=$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')
    [ -n "$first_size" ] || { first_size=$size; first_time=$seconds; first_rss=$rss; }
    awk -v size="$size" -v bytes="$bytes" -v s="$seconds" -v rss="$rss" -v floor="$floor" -v again="$again_seconds" -v again_kb="$again_kb" \
        -v fs="$first_size" -v ft="$first_time" -v fr="$first_rss" 'BEGIN {
        printf "inbox fetch of %d e-mails (%.0f MB of JSON), empty cache: %.2f s, peak RSS %.1f MB; SQLite floor %.2f s: %.2fx the floor", size, bytes / 1048576, s, rss, floor, s / floor
        if (size != fs) printf "; growth from %d: work x%.1f, time x%.1f, RSS x%.2f", fs, size / fs, s / ft, rss / fr
        printf "; nothing changed (--force): %.2f s (%.2fx the full fetch), peak RSS %.1f MB\n", again, again / s, again_kb / 1024
    }' | tee -a "$out"
done
# Reading the largest cache stays flat.
hyperfine -N --warmup 3 --runs 30 --export-markdown "$RESULTS/inbox-scale-read.md" \
    -n "conn --version" "$CONN --version" \
    -n "conn inbox list --limit 50 (${sizes[-1]} cached)" "$CONN inbox list --limit 50 -q" \
    -n "conn inbox thread 1 (${sizes[-1]} cached)" "$CONN inbox thread 1 -q"
echo "peak RSS: conn inbox list --limit 50 (${sizes[-1]} cached) $(peak_rss_mb "$CONN" inbox list --limit 50 -q) MB" | tee -a "$out"
rm -rf "$work"
