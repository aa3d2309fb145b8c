#!/usr/bin/env bash
# conn get served from its copy vs `cat` of the same bytes (the floor: reading a file), and
# network-first against a live server vs curl (conn-server sends no ETag: each is a full 200,
# which conn also stores).
#  1. `conn get --offline URL > /dev/null` vs `cat copy > /dev/null`, for a 1 KiB and a 1 MiB body.
#  2. `conn get URL` (network-first, stored) vs `curl -s URL`, conn-server's /inbox (60 e-mails).
set -euo pipefail
out="$RESULTS/get.txt"
: > "$out"
source scripts/lib/server.sh
home=$(mktemp -d)
static_pid=""
trap 'stop_conn_server; [ -z "$static_pid" ] || kill "$static_pid" 2>/dev/null || true; rm -rf "$home"' EXIT
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache

# 1. Two files served once by python's http.server, then read from the copy.
mkdir -p "$home/www"
python3 -c 'import base64, os, sys; sys.stdout.write(base64.b64encode(os.urandom(int(sys.argv[1]))).decode()[:int(sys.argv[1])])' 1024 > "$home/www/small.txt"
python3 -c 'import base64, os, sys; sys.stdout.write(base64.b64encode(os.urandom(int(sys.argv[1]))).decode()[:int(sys.argv[1])])' $((1 << 20)) > "$home/www/large.txt"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$home/www" >/dev/null 2>&1 &
static_pid=$!
sleep 0.5
for name in small large; do
    "$CONN" get "http://127.0.0.1:$port/$name.txt" > /dev/null
done
kill "$static_pid"
for name in small large; do
    hyperfine -N --warmup 5 --runs 100 --export-markdown "$RESULTS/get-$name.md" \
        -n "cat ($name)" "cat $home/www/$name.txt" \
        -n "conn get --offline ($name)" "$CONN get --offline http://127.0.0.1:$port/$name.txt" | tee -a "$out"
done

# 2. The network: conn-server's inbox.
start_conn_server "$CONN_SERVER_BIN" --generate 60
hyperfine -N --warmup 5 --runs 100 --export-markdown "$RESULTS/get-network.md" \
    -n "curl -s" "curl -s $CONN_SERVER_URL/inbox" \
    -n "conn get" "$CONN get $CONN_SERVER_URL/inbox" | tee -a "$out"
