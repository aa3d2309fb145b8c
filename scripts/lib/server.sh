# Shell helpers to run conn-server for a script: source this file, then
#   start_conn_server BINARY [ARGS…]   starts it on a free loopback port; sets CONN_SERVER_URL and CONN_SERVER_PID
#   stop_conn_server                   stops it (SIGTERM) and waits for it
# The server prints `listening on URL` on stdout once it accepts connections; we wait up to 60 s.
start_conn_server() {
    local binary=$1; shift
    CONN_SERVER_LOG=$(mktemp)
    "$binary" --port 0 "$@" >"$CONN_SERVER_LOG" 2>/dev/null &
    CONN_SERVER_PID=$!
    CONN_SERVER_URL=""
    for _ in $(seq 1 600); do
        CONN_SERVER_URL=$(sed -n 's/^listening on //p' "$CONN_SERVER_LOG" | head -n 1)
        [ -n "$CONN_SERVER_URL" ] && return 0
        kill -0 "$CONN_SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "conn-server $* did not start" >&2
    return 1
}

stop_conn_server() {
    [ -n "${CONN_SERVER_PID:-}" ] || return 0
    kill "$CONN_SERVER_PID" 2>/dev/null || true
    wait "$CONN_SERVER_PID" 2>/dev/null || true
    rm -f "$CONN_SERVER_LOG"
    CONN_SERVER_PID=""
}
