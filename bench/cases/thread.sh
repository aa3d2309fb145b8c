#!/usr/bin/env bash
# conn inbox thread (issue 14, item 5): drawing a conversation as a tree must stay linear in its
# size. A chain of 100,000 replies (each answers the one before, the worst case for the tree's
# connecting lines) and a wide conversation (100,000 replies to one message), each drawn as text
# vs listed with --flat in the same hyperfine run (goal: text ≤ 2x --flat). Issue 36, item 2: the
# whole chain drawn (--max-depth 100000) in under a second and ≤ 60 MB peak RSS, its output linear
# in the depth.
set -euo pipefail
source scripts/lib/server.sh
trap stop_conn_server EXIT
work=$(mktemp -d)
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config

for shape in chain wide; do
    python3 - "$shape" > "$work/$shape.json" <<'PY'
import json, sys
shape, count = sys.argv[1], 100000
inbox = []
for i in range(count):
    parent = "" if i == 0 else (str(i - 1) if shape == "chain" else "0")
    inbox.append({"uid": str(i), "from": "a%d@example.com" % (i % 7), "to": "b@example.com", "subject": "long thread",
                  "text": "reply %d\nsecond line" % i, "responseToUid": parent, "dateTime": "2026-11-23T10:%02d:%02dZ" % (i // 60 % 60, i % 60)})
json.dump({"inbox": inbox}, sys.stdout)
PY
    rm -rf "$work/data"
    start_conn_server "$CONN_SERVER_BIN" --seed "$work/$shape.json"
    CONN_SERVER=$CONN_SERVER_URL "$CONN" inbox fetch >/dev/null
    stop_conn_server
    hyperfine --warmup 1 --runs 5 --export-markdown "$RESULTS/thread-$shape.md" \
        -n "conn inbox thread 0 --flat ($shape of 100,000)" "$CONN inbox thread 0 --flat > /dev/null" \
        -n "conn inbox thread 0 ($shape of 100,000, tree)" "$CONN inbox thread 0 > /dev/null" \
        -n "conn inbox thread 0 --max-depth 100000 ($shape of 100,000, tree)" "$CONN inbox thread 0 --max-depth 100000 > /dev/null"
    {
        echo "peak RSS ($shape of 100,000):"
        for args in "--flat" "" "--max-depth 100000" "--max-depth 100000 --json"; do
            echo "  conn inbox thread 0 $args: $(peak_rss_mb "$CONN" inbox thread 0 $args) MB"
        done
        if [ "$shape" = chain ]; then
            # Linear: about 200 bytes a message at any depth (the test checks 3,000 against 100,000).
            echo "  output bytes, whole chain: $("$CONN" inbox thread 0 --max-depth 100000 | wc -c)"
        fi
    } | tee "$RESULTS/thread-$shape-rss.txt"
done
rm -rf "$work"
