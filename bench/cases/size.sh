#!/usr/bin/env bash
# What an install weighs (#21): the stripped binaries, the .deb and the tarball of
# scripts/package, the installed size, and where the conn binary's bytes come from (by the
# archive or package each input section came from, read from a GNU ld link map).
# Goal: the conn binary <= 60 MB stripped.
set -euo pipefail
out="$RESULTS/size.txt"
: > "$out"
log() { echo "$*" | tee -a "$out"; }
bin=$(scripts/build-release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for binary in conn conn-server; do
    log "$binary stripped: $(stat -c %s "$RESULTS/bin/$binary") bytes"
done
DEBFULLNAME=${DEBFULLNAME:-bench} DEBEMAIL=${DEBEMAIL:-bench@conn.example} \
    scripts/package --bin "$bin" --output "$work/dist" >/dev/null 2>"$work/package.log" || { cat "$work/package.log" >&2; exit 1; }
for file in "$work"/dist/*.deb "$work"/dist/*.tar.gz; do
    log "$(basename "$file"): $(stat -c %s "$file") bytes"
done
log "Installed-Size of the .deb: $(dpkg-deb -f "$work"/dist/*.deb Installed-Size) KiB"

# The link again, with a map (only the link step runs: the objects are up to date).
scripts/build-release --product conn -Xlinker -Map="$work/conn.map" >/dev/null
log "## bytes of .text, .rodata, .data and .eh_frame in conn, by origin (top 15)"
python3 bench/lib/link_map_sizes.py "$work/conn.map" 15 | tee -a "$out"
