# Sourced by the outbox cases (outbox, outbox-scale, request) after they set $out: wrk and jq,
# conn-server's helpers, a private XDG home removed on exit (the server stopped first), the
# outbox database created ($db), and log() writing to stdout and $out.
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
command -v jq >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq; }
: > "$out"
source scripts/lib/server.sh
home=$(mktemp -d)
trap 'stop_conn_server; rm -rf "$home"' EXIT
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache
db=$XDG_DATA_HOME/conn/conn.sqlite
"$CONN" outbox list >/dev/null   # creates the database and its tables
log() { echo "$*" | tee -a "$out"; }
