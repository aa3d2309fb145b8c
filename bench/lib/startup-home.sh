# What issue 40's start-up benchmarks share (bench/cases/startup-goals.sh, bench/walks): source
# this file, then
#   startup_home DIR CONN   HOME and XDG_* in DIR, a two-key config whose server is a closed
#                           loopback port (send finds it down), CONN's outbox database made once
#   startup_commands        the everyday command lines, each one word-split when run; URL stands
#                           for conn-server's /health
startup_commands=(
    '--version'
    'config show'
    'outbox list'
    'inbox list'
    'send --to ann@example.com --subject s --text t'
    'agent status'
    'clock-offset --convert 2026-11-23T10:00:00.432Z'
    'probe URL'
)

startup_home() {
    local dir=$1 conn=$2 closed
    export HOME=$dir XDG_CONFIG_HOME=$dir/config XDG_DATA_HOME=$dir/data XDG_STATE_HOME=$dir/state XDG_CACHE_HOME=$dir/cache
    export XDG_RUNTIME_DIR=$dir/run
    mkdir -p "$XDG_CONFIG_HOME/conn" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
    closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    printf 'server: http://127.0.0.1:%s\ntimeout: 5s\n' "$closed" > "$XDG_CONFIG_HOME/conn/config.yaml"
    "$conn" outbox list >/dev/null   # the database made once, not in a measured run
}
