#!/usr/bin/env bash
# conn top's cost at one refresh a second (issue 39: CPU ≤ 1 %, RSS ≤ 40 MB): top runs for 60 s
# in a tmux terminal of 80x24 with a monitor of its own looking every second at conn-server;
# its CPU time (utime + stime from /proc/PID/stat) over those 60 s, and its resident memory.
set -euo pipefail
command -v tmux >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }
SERVER=$CONN_SERVER_BIN
source scripts/lib/server.sh
trap 'tmux -L conn-bench kill-server 2>/dev/null || true; stop_conn_server' EXIT
start_conn_server "$SERVER"
work=$(mktemp -d)
tmux -L conn-bench -f /dev/null new-session -d -s top -x 80 -y 24 \
    "env HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state TERM=xterm-256color LANG=C.UTF-8 \
     CONN_SERVER=$CONN_SERVER_URL $CONN top --no-agent --no-internet --interval 1s"
sleep 5  # start-up and the first looks are not the steady state
pid=$(pgrep -n -f "$CONN top --no-agent")
# Everything top writes to the terminal over the 60 s (flicker shows as whole screens redrawn).
tmux -L conn-bench pipe-pane -o -t top "cat >> $work/output"
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(cpu)
sleep 60
after=$(cpu)
rss=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
hwm=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
tmux -L conn-bench pipe-pane -t top
bytes=$(wc -c < "$work/output")
percent=$(awk -v a="$after" -v b="$before" -v t="$ticks" 'BEGIN {printf "%.2f", (a - b) / t / 60 * 100}')
echo "conn top (own monitor, 1 look/s, 80x24), 60 s: CPU $percent % of one core, RSS $rss MB (peak $hwm MB)," \
     "$((bytes / 60)) bytes/s to the terminal (a full 80x24 screen is about 2,000)" | tee "$RESULTS/top.txt"
tmux -L conn-bench send-keys -t top q
rm -rf "$work"
