# Sourced by the Prometheus cases (metrics, metrics-flood, fleet) after they set $out: conn-server's
# helpers, a private XDG home with a runtime directory (the agent's control socket), the pids to
# stop on exit ($pids, then the server, then the home removed), log() writing to stdout and $out,
# and free_port.
: > "$out"
log() { echo "$*" | tee -a "$out"; }
source scripts/lib/server.sh
home=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; stop_conn_server; rm -rf "$home"' EXIT
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state XDG_RUNTIME_DIR=$home/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
