#!/usr/bin/env bash
# Two conn binaries side by side on the inbox fetch paths of bench/cases/inbox.sh (100,000
# e-mails from a static python3 http.server, so the bytes stay the same; each re-fetch starts
# from the cache a full fetch of the same binary left): peak RSS of a full fetch (three runs each),
# then one hyperfine run of the full fetch, the no-change re-fetch and the 1 % re-fetch.
#
#   bench/tools/inbox-compare.sh NEW_CONN BASE_CONN   (RUNS=5; CONN_SERVER_BIN: a conn-server to generate the inbox)
set -euo pipefail
NEW=$1; BASE=$2
work=$(mktemp -d); export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
cd "$(dirname "$0")/../.."
${CONN_SERVER_BIN:-bench/results/bin/conn-server} --port 0 --generate 100000 > $work/server.log 2>&1 &
spid=$!
for _ in $(seq 100); do grep -q "listening on" $work/server.log && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' $work/server.log | head -1)
curl -s -o $work/inbox.json $url/inbox; kill $spid
mkdir -p $work/static
python3 bench/tools/edit-one-percent.py "$work/inbox.json" "$work/changed.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 $port --directory $work/static >/dev/null 2>&1 &
hpid=$!; trap "kill $hpid; rm -rf $work" EXIT
sleep 0.5
export CONN_RESOURCES_INBOX="http://127.0.0.1:$port/inbox.json" CONN_SERVER="http://127.0.0.1:$port"
cp $work/inbox.json $work/static/inbox.json
for b in NEW BASE; do
  bin=${!b}; rm -rf $work/data
  for i in 1 2 3; do rm -rf $work/data; echo "$b full fetch peak RSS: $(/usr/bin/time -f '%M' $bin inbox fetch -q 2>&1 | tail -1) KB"; done
  rm -rf $work/data; $bin inbox fetch -q; cp -r $work/data $work/full-$b
done
hyperfine --warmup 1 --runs ${RUNS:-5} \
  --prepare "rm -rf $work/data; cp $work/inbox.json $work/static/inbox.json" -n "new full" "$NEW inbox fetch -q" \
  --prepare "rm -rf $work/data; cp $work/inbox.json $work/static/inbox.json" -n "base full" "$BASE inbox fetch -q" \
  --prepare "rm -rf $work/data; cp -r $work/full-NEW $work/data; cp $work/inbox.json $work/static/inbox.json" -n "new nothing changed" "$NEW inbox fetch --force -q" \
  --prepare "rm -rf $work/data; cp -r $work/full-BASE $work/data; cp $work/inbox.json $work/static/inbox.json" -n "base nothing changed" "$BASE inbox fetch --force -q" \
  --prepare "rm -rf $work/data; cp -r $work/full-NEW $work/data; cp $work/changed.json $work/static/inbox.json" -n "new 1% changed" "$NEW inbox fetch -q" \
  --prepare "rm -rf $work/data; cp -r $work/full-BASE $work/data; cp $work/changed.json $work/static/inbox.json" -n "base 1% changed" "$BASE inbox fetch -q" 2>&1 | grep -E "Time|±|^Benchmark"
