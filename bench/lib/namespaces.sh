# Sourced by the watch cases: two network namespaces, client ($ns_c) and server side ($ns_s),
# each with loopback up, deleted on exit with the helpers started in them. `ip netns exec` execs
# the program, so every helper is ended by its pid (server_pid, watch_pid, monitor_pid), never
# by name: other people's processes on a shared machine are left alone.
ns_c="connbench-c-$$" ns_s="connbench-s-$$"
server_pid="" watch_pid="" monitor_pid=""
cleanup() {
    for pid in $server_pid $watch_pid $monitor_pid; do kill "$pid" 2>/dev/null || true; done
    ip netns delete "$ns_c" 2>/dev/null || true; ip netns delete "$ns_s" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$ns_c"; ip netns add "$ns_s"
ip -n "$ns_c" link set lo up; ip -n "$ns_s" link set lo up
home=$(mktemp -d)
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config

# Seconds since the epoch of an ISO 8601 time (conn's `at`, with Z; ip -ts monitor's, local).
to_epoch() { python3 -c "import sys,datetime; print(datetime.datetime.fromisoformat(sys.argv[1].replace('Z','+00:00')).timestamp())" "$1"; }
# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
