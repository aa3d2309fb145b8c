#!/usr/bin/env bash
# conn watch and the way out, in network namespaces (needs root), each beside `ip -ts monitor`
# in the same run (the kernel's own notification, the floor). Goal: within ip monitor + 3 ms.
#  1. carrier loss: the veth's other end goes down (the interface stays up with its address and
#     routes, NO-CARRIER): from ip monitor's NO-CARRIER line to conn watch's offline (noCarrier).
#  2. route move: the default route replaced by one over a second interface, the server still
#     reachable: from ip monitor's new default route to conn watch's path event.
# Each measured ROUNDS times; prints every round and the medians of conn - ip monitor.
set -euo pipefail
ROUNDS=${ROUNDS:-10}
out="$RESULTS/watch-path.txt"
: > "$out"
source bench/lib/namespaces.sh
# Two ways from the client to the server's address (10.80.0.9, on the server side's loopback).
ip link add pa netns "$ns_c" type veth peer name qa netns "$ns_s"
ip link add pb netns "$ns_c" type veth peer name qb netns "$ns_s"
ip -n "$ns_c" addr add 10.78.0.1/24 dev pa; ip -n "$ns_s" addr add 10.78.0.2/24 dev qa
ip -n "$ns_c" addr add 10.79.0.1/24 dev pb; ip -n "$ns_s" addr add 10.79.0.2/24 dev qb
for link in pa pb; do ip -n "$ns_c" link set "$link" up; done
for link in qa qb; do ip -n "$ns_s" link set "$link" up; done
ip -n "$ns_s" addr add 10.80.0.9/32 dev lo
ip -n "$ns_c" route add default via 10.78.0.2 dev pa

count() { grep -c "$1" "$2" || true; }
# Watch events of a type (and a state): keys are sorted, so each is its own grep.
events() { grep "\"type\":\"$1\"" "$watch_log" | grep "\"state\":\"${2:-}" || true; }
# The `at` of the last watch event of a type (and a state).
last_at() { events "$@" | tail -1 | sed 's/.*"at":"\([^"]*\)".*/\1/'; }
wait_events() { for _ in $(seq 500); do [ "$(events "$1" "${2:-}" | wc -l)" -gt "$3" ] && return 0; sleep 0.01; done; return 1; }
# The timestamp of the last ip monitor line matching a pattern.
last_monitor() { grep "$1" "$monitor_log" | tail -1 | sed 's/^\[\([^]]*\)\].*/\1/'; }
wait_for() { for _ in $(seq 500); do [ "$(count "$1" "$2")" -gt "$3" ] && return 0; sleep 0.01; done; return 1; }

ip netns exec "$ns_s" "$CONN_SERVER_BIN" --host 10.80.0.9 --port 8080 >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do ip netns exec "$ns_c" bash -c 'exec 3<>/dev/tcp/10.80.0.9/8080' 2>/dev/null && break; sleep 0.1; done

watch_log=$home/watch.jsonl monitor_log=$home/monitor.txt
# A 60 s interval and a 5 s timeout: only the kernel's notification makes either quick, and a
# look that waited for TCP would show as 5 s.
ip netns exec "$ns_c" "$CONN" watch --json --no-internet --no-link --interval 60s --timeout 5s --server http://10.80.0.9:8080 > "$watch_log" 2>/dev/null &
watch_pid=$!
ip netns exec "$ns_c" ip -ts monitor link route > "$monitor_log" &
monitor_pid=$!
for _ in $(seq 300); do grep -q '"type":"baseline"' "$watch_log" && break; sleep 0.01; done
sleep 0.5

# 1. carrier loss, then back (the way out is pa).
carrier=()
for round in $(seq "$ROUNDS"); do
    offline=$(events change offline | wc -l) online=$(events change online | wc -l) lost=$(count 'pa.*NO-CARRIER' "$monitor_log")
    ip -n "$ns_s" link set qa down
    wait_events change offline "$offline"; wait_for 'pa.*NO-CARRIER' "$monitor_log" "$lost"
    delta=$(echo "($(to_epoch "$(last_at change offline)") - $(to_epoch "$(last_monitor 'pa.*NO-CARRIER')")) * 1000" | bc -l)
    reason=$(events change offline | tail -1 | sed 's/.*"reason":"\([^"]*\)".*/\1/')
    printf 'round %d: carrier lost → conn watch offline (%s) %+.1f ms after ip monitor\n' "$round" "$reason" "$delta" | tee -a "$out"
    carrier+=("$delta")
    ip -n "$ns_s" link set qa up
    wait_events change online "$online"
    sleep 0.3
done
echo "carrier lost, median of $ROUNDS: conn watch $(printf '%s\n' "${carrier[@]}" | median) ms after ip -ts monitor" | tee -a "$out"

# 2. the default route moves between pa and pb, the server reachable over both.
moves=()
for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) -eq 1 ]; then via=10.79.0.2 dev=pb; else via=10.78.0.2 dev=pa; fi
    paths=$(events path | wc -l) routes=$(count "default via $via dev $dev" "$monitor_log")
    ip -n "$ns_c" route replace default via "$via" dev "$dev"
    wait_events path "" "$paths"; wait_for "default via $via dev $dev" "$monitor_log" "$routes"
    delta=$(echo "($(to_epoch "$(last_at path)") - $(to_epoch "$(last_monitor "default via $via dev $dev")")) * 1000" | bc -l)
    printf 'round %d: default route → %s, conn watch path event %+.1f ms after ip monitor\n' "$round" "$dev" "$delta" | tee -a "$out"
    moves+=("$delta")
    sleep 0.3
done
echo "route moved, median of $ROUNDS: conn watch $(printf '%s\n' "${moves[@]}" | median) ms after ip -ts monitor" | tee -a "$out"
