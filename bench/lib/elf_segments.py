#!/usr/bin/env python3
"""Where a binary's bytes sit: its LOAD segments, as `readelf -lW` lists them. lld places a
segment at an address other than its file offset (gold did not), so a uprobe's offset and a
PIE's load address have to be worked out from them (bench/walks, bench/lib/walk_pairs.py).

usage: elf_segments.py BINARY HEX-ADDRESS   prints the address's file offset, in hex
"""
import subprocess
import sys


def segments(binary):
    """(file offset, address, size in the file) of each LOAD segment."""
    found = []
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if fields[:1] == ["LOAD"]:
            found.append((int(fields[1], 16), int(fields[2], 16), int(fields[4], 16)))
    return found


def file_offset(binary, address):
    """The file offset of the byte at `address`, or None outside every segment."""
    for offset, start, size in segments(binary):
        if start <= address < start + size:
            return address - start + offset
    return None


def load_address(binary, mapped_at, page_offset):
    """A PIE's load address, from where the kernel mapped the page at `page_offset`."""
    for offset, address, _ in segments(binary):
        if offset & ~0xFFF == page_offset:
            return mapped_at - (address & ~0xFFF)
    return None


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    offset = file_offset(sys.argv[1], int(sys.argv[2], 16))
    if offset is None:
        sys.exit("%s: no LOAD segment holds 0x%s" % (sys.argv[1], sys.argv[2]))
    print(hex(offset))
