#!/usr/bin/env python3
"""Sums a link map's input sections by where they came from: a Swift package's module
(.build/.../NAME.build/*.o), or a static archive of the toolchain (libFoundation.a, ...).
Reads lld's map (the release link, Package.swift) and GNU ld's (gold's, which linked it before lld).

usage: link_map_sizes.py MAP [TOP]
"""
import collections
import re
import sys

KEPT = (".text", ".rodata", ".data", ".eh_frame")


def origin(path):
    if "/release/" in path and ".build/" in path.split("/release/", 1)[1]:
        return path.split("/release/", 1)[1].split(".build/", 1)[0]
    return path.split("/")[-1].split("(")[0]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    sizes = collections.Counter()
    section = None
    for line in open(sys.argv[1], errors="replace"):
        # lld: VMA, LMA, size (hex), alignment, then `path:(section)` for an input section.
        lld = re.match(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+(\S.*):\((\.\S+|swift5_\S+)\)\s*$", line)
        if lld:
            # `<internal>`: what lld made (merged strings, .eh_frame_hdr), counted already in
            # the inputs it came from.
            if lld.group(3).startswith(KEPT) and lld.group(2) != "<internal>":
                sizes[origin(lld.group(2))] += int(lld.group(1), 16)
            continue
        whole = re.match(r"^ (\.\S+|swift5_\S+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)", line)
        if whole:
            name, size, path = whole.group(1), int(whole.group(2), 16), whole.group(3)
        else:
            alone = re.match(r"^ (\.\S+|swift5_\S+)\s*$", line)
            if alone:
                section = alone.group(1)
                continue
            rest = re.match(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)", line)
            if not (rest and section):
                section = None
                continue
            name, size, path = section, int(rest.group(1), 16), rest.group(2)
        section = None
        if name.startswith(KEPT):
            sizes[origin(path)] += size
    total = sum(sizes.values())
    print("%8.2f MB  all" % (total / 1e6))
    for name, size in sizes.most_common(top):
        print("%8.2f MB  %s" % (size / 1e6, name))


if __name__ == "__main__":
    main()
