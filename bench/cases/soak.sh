#!/usr/bin/env bash
# The agent over hours (issue 55, item 5): bench/lib/soak.py — a producer's 10,000 messages and
# requests delivered while the link flaps (nftables drops everything for 5–60 s spells) and
# conn-server restarts; lost, duplicated, and the agent's RSS and descriptors with their slope.
# Default 30 min: SOAK_S=7200 for two hours, SOAK_COUNT to change the number queued. Needs root
# (network namespaces) and nft. SOAK_FLAPS=0 and SOAK_RESTARTS=0 leave those out. Never part of
# the CI suite.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "soak: needs root (network namespaces)" >&2; exit 1; }
command -v nft >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables; }
python3 bench/lib/soak.py
