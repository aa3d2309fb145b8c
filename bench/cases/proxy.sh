#!/usr/bin/env bash
# conn probe through an HTTP proxy against curl through the same one (issue 38), whole process,
# release builds, conn-server on loopback, tinyproxy on loopback (CONNECT for both):
#   `conn probe --proxy P URL` vs `curl -p -x P -fsS -o /dev/null URL`   (goal ≤ 1.2x curl)
# (-p: curl tunnels through CONNECT as conn does; without it curl sends the request to the proxy
# in absolute form, a different exchange.)
set -euo pipefail
command -v tinyproxy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tinyproxy; }
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
work=$(mktemp -d)
trap 'kill "$proxy_pid" 2>/dev/null || true; stop_conn_server; rm -rf "$work"' EXIT
start_conn_server "$SERVER"
url=$CONN_SERVER_URL
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'Port %s\nListen 127.0.0.1\nAllow 127.0.0.1\nMaxClients 100\nLogLevel Critical\n' "$port" > "$work/tinyproxy.conf"
tinyproxy -d -c "$work/tinyproxy.conf" >/dev/null 2>&1 &
proxy_pid=$!
sleep 0.5
export HOME=$work XDG_CONFIG_HOME=$work/config
proxy="http://127.0.0.1:$port"

hyperfine -N --warmup 10 --runs 100 --export-markdown "$RESULTS/proxy.md" \
    -n 'curl -p -x PROXY -fsS -o /dev/null URL' "curl -p -x $proxy -fsS -o /dev/null $url/health" \
    -n 'conn probe --proxy PROXY URL' "$CONN probe --proxy $proxy $url/health"
