#!/usr/bin/env bash
# conn probe through a proxy against curl through the same one, whole process, release builds,
# conn-server on loopback, each proxy on loopback, and both without a proxy for the hop's cost:
#   tinyproxy and squid, an http:// URL: the request in absolute form, as both send it
#     `conn probe --proxy P URL` vs `curl -x P -fsS -o /dev/null URL`
#   squid as an https:// proxy (TLS to it), the same request inside that TLS
#   tinyproxy, a CONNECT tunnel (conn probe of an https:// target is a tunnel; curl -p forces one)
#   dante (SOCKS5): `conn probe --proxy socks5://P URL` vs `curl --socks5 P …`
# The hop's cost is each tool's time through the proxy less its time without it.
set -euo pipefail
for tool in tinyproxy squid danted; do
    command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tinyproxy squid dante-server; break; }
done
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
work=$(mktemp -d)
trap 'kill "$proxy_pid" "$squid_pid" "$dante_pid" 2>/dev/null || true; stop_conn_server; rm -rf "$work"' EXIT
squid_pid="" dante_pid=""
start_conn_server "$SERVER"
url=$CONN_SERVER_URL
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'Port %s\nListen 127.0.0.1\nAllow 127.0.0.1\nMaxClients 100\nLogLevel Critical\n' "$port" > "$work/tinyproxy.conf"
tinyproxy -d -c "$work/tinyproxy.conf" >/dev/null 2>&1 &
proxy_pid=$!
# squid without a cache or authentication; dante without authentication, loopback only.
chmod 777 "$work"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
squid_port=$(free_port)
squid_tls_port=$(free_port)
# squid's https_port: an https:// proxy (TLS to the proxy), its certificate self-signed for 127.0.0.1.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/proxy-key.pem" -out "$work/proxy-cert.pem" -days 1 \
    -subj /CN=conn-bench-proxy -addext subjectAltName=IP:127.0.0.1 2>/dev/null
chmod 644 "$work/proxy-key.pem" "$work/proxy-cert.pem"
cat > "$work/squid.conf" <<CONF
http_port 127.0.0.1:$squid_port
https_port 127.0.0.1:$squid_tls_port tls-cert=$work/proxy-cert.pem tls-key=$work/proxy-key.pem
pid_filename $work/squid.pid
access_log none
cache_log $work/cache.log
cache_store_log none
cache deny all
http_access allow localhost
http_access deny all
shutdown_lifetime 0 seconds
CONF
squid -N -f "$work/squid.conf" >/dev/null 2>&1 &
squid_pid=$!
dante_port=$(free_port)
cat > "$work/danted.conf" <<CONF
logoutput: $work/danted.log
internal: 127.0.0.1 port = $dante_port
external: 127.0.0.1
clientmethod: none
socksmethod: none
user.unprivileged: nobody
client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }
socks pass { from: 127.0.0.0/8 to: 127.0.0.0/8 }
CONF
danted -f "$work/danted.conf" >/dev/null 2>&1 &
dante_pid=$!
sleep 1
export HOME=$work XDG_CONFIG_HOME=$work/config
proxy="http://127.0.0.1:$port"
squid="http://127.0.0.1:$squid_port"
squid_tls="https://127.0.0.1:$squid_tls_port"
ca="$work/proxy-cert.pem"
socks="127.0.0.1:$dante_port"

hyperfine -N --warmup 10 --runs 100 --export-markdown "$RESULTS/proxy.md" \
    -n 'curl -fsS -o /dev/null URL (no proxy)' "curl -fsS -o /dev/null $url/health" \
    -n 'conn probe URL (no proxy)' "$CONN probe $url/health" \
    -n 'curl -x PROXY -fsS -o /dev/null URL' "curl -x $proxy -fsS -o /dev/null $url/health" \
    -n 'conn probe --proxy PROXY URL' "$CONN probe --proxy $proxy $url/health" \
    -n 'curl -x SQUID -fsS -o /dev/null URL' "curl -x $squid -fsS -o /dev/null $url/health" \
    -n 'conn probe --proxy SQUID URL' "$CONN probe --proxy $squid $url/health" \
    -n 'curl -x https://SQUID --proxy-cacert CA -fsS -o /dev/null URL' "curl -x $squid_tls --proxy-cacert $ca -fsS -o /dev/null $url/health" \
    -n 'conn probe --proxy https://SQUID --proxy-cacert CA URL' "$CONN probe --proxy $squid_tls --proxy-cacert $ca $url/health" \
    -n 'curl -p -x PROXY -fsS -o /dev/null URL (CONNECT)' "curl -p -x $proxy -fsS -o /dev/null $url/health" \
    -n 'conn inbox fetch --proxy PROXY (absolute form, HTTP client)' "$CONN inbox fetch --proxy $proxy --server $url" \
    -n 'conn inbox fetch (no proxy)' "$CONN inbox fetch --server $url" \
    -n 'curl --socks5 DANTE -fsS -o /dev/null URL' "curl --socks5 $socks -fsS -o /dev/null $url/health" \
    -n 'conn probe --proxy socks5://DANTE URL' "$CONN probe --proxy socks5://$socks $url/health"
