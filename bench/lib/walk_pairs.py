#!/usr/bin/env python3
"""Which (type, protocol) look-up made each full walk of the conformance records (bench/walks,
PAIRS=1). Reads `perf script --show-mmap-events -F event,trace` of a run recorded with two
uprobes: uprobes:conn_lookup at the entry of the runtime's look-up (type and protocol as
arguments) and uprobes:conn_walk on its per-record callback. A look-up followed by more than
RECORDS / 2 record visits walked them all; its two addresses are named from BINARY's symbol
table (less the load address of the PIE, found from perf's record of the text mapping). Type
metadata the runtime made at run time (a generic type's) has no symbol: it prints as such.

usage: walk_pairs.py BINARY RECORDS < perf-script-output   (prints mangled names; pipe
through `swift demangle --simplified`)
"""
import bisect
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the module below
from elf_segments import load_address  # noqa: E402

binary, records = sys.argv[1], int(sys.argv[2])
symbols = []
for line in subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3:
        symbols.append((int(parts[0], 16), parts[2]))
starts = [address for address, _ in symbols]
base = None


def name(runtime_address):
    if base is None:
        return hex(runtime_address)
    address = runtime_address - base
    index = bisect.bisect_right(starts, address) - 1
    if address < 0 or index < 0 or address - starts[index] > 1 << 16:
        return "(made at run time)"
    start, symbol = symbols[index]
    if "AllocationPool" in symbol:  # the runtime's own arena for metadata it makes
        return "(made at run time)"
    return symbol if address == start else "%s+0x%x" % (symbol, address - start)


walks = []
current, visits = None, 0
for line in sys.stdin:
    if "PERF_RECORD_MMAP" in line:
        found = re.search(r"\[(0x[0-9a-f]+)\(0x[0-9a-f]+\) @ (0x[0-9a-f]+|0) ", line)
        if base is None and found and line.rstrip().endswith(binary):
            # perf records the executable mapping only: the load address follows from it.
            base = load_address(binary, int(found.group(1), 16), int(found.group(2), 16))
        continue
    if "conn_lookup" in line:
        if current and visits > records // 2:
            walks.append(current)
        arguments = dict(re.findall(r"(\w+)=(0x[0-9a-f]+)", line))
        current, visits = (name(int(arguments["type"], 16)), name(int(arguments["protocol"], 16))), 0
    elif "conn_walk" in line:
        visits += 1
if current and visits > records // 2:
    walks.append(current)
for type_name, protocol in walks:
    print("      %s : %s" % (type_name, protocol))
