#!/usr/bin/env bash
# conn probe --each-interface over three interfaces against one probe (issue 38), whole process,
# release build, in network namespaces: a client with three veths to a server namespace, whose
# conn-server listens on 10.79.0.9 (its loopback), a default route by each veth (metrics 0, 100,
# 200), as a machine with Ethernet, Wi-Fi and a cellular modem has:
#   `conn probe --each-interface URL` vs `conn probe URL`   (goal ≤ 1.2x one probe)
# Both run through `ip netns exec`, which costs them the same. Needs root.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "each-interface: needs root (network namespaces)" >&2; exit 1; }
client=conn-bench-c$$ server=conn-bench-s$$
cleanup() {
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true
    ip netns del "$client" 2>/dev/null || true
    ip netns del "$server" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$client"
ip netns add "$server"
ip -n "$client" link set lo up
ip -n "$server" link set lo up
ip -n "$server" addr add 10.79.0.9/32 dev lo
metric=0
for way in a b c; do
    case $way in a) subnet=10.75.0 ;; b) subnet=10.76.0 ;; c) subnet=10.77.0 ;; esac
    ip link add "v$way" netns "$client" type veth peer name "w$way" netns "$server"
    ip -n "$client" addr add "$subnet.1/24" dev "v$way"
    ip -n "$server" addr add "$subnet.2/24" dev "w$way"
    ip -n "$client" link set "v$way" up
    ip -n "$server" link set "w$way" up
    ip -n "$client" route add default via "$subnet.2" dev "v$way" metric "$metric"
    metric=$((metric + 100))
done
ip netns exec "$server" "$CONN_SERVER_BIN" --host 10.79.0.9 --port 8080 >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do ip netns exec "$client" curl -fsS -o /dev/null http://10.79.0.9:8080/health 2>/dev/null && break; sleep 0.1; done
work=$(mktemp -d)
export HOME=$work XDG_CONFIG_HOME=$work/config
url=http://10.79.0.9:8080/health
ip netns exec "$client" "$CONN" probe --each-interface "$url"

hyperfine -N --warmup 10 --runs 100 --export-markdown "$RESULTS/each-interface.md" \
    -n 'conn probe URL' "ip netns exec $client $CONN probe $url" \
    -n 'conn probe --each-interface URL (3 interfaces)' "ip netns exec $client $CONN probe --each-interface $url"
rm -rf "$work"
