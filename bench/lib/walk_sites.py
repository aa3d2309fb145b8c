#!/usr/bin/env python3
"""Which code made each conformance walk, from `perf script` of bench/walks' uprobe on stdin.

A walk visits every record with the same stack above the runtime's callback, so consecutive
samples with one stack are one walk. Each walk is named by its first frames outside the Swift
runtime and the standard library's casting and reflection machinery; the names are counted.
"""
import collections
import re
import sys

RUNTIME = re.compile(
    r"swift_|_gather|Demangl|TypeDecoder|^_Z|std::|__swift|llvm|swift::|getTypeBy|conformsTo|Metadata"
    r"|SubstGeneric|decodeMangled|tryCast|dynamic_cast|_dynamicCast|getFieldAt|ReflectionMirror"
    r"|type metadata|outlined|\[unknown\]|^\?|operator\(\)|anonymous namespace"
)


def frames_of(sample):
    lines = [line.strip() for line in sample.strip().split("\n")[1:] if line.strip()]
    frames = [re.sub(r"^[0-9a-f]+ ", "", line) for line in lines]
    frames = [re.sub(r"\s*\(/.*\)$", "", frame) for frame in frames]
    return [re.sub(r"\+0x[0-9a-f]+", "", frame) for frame in frames]


def main():
    walks, previous = [], None
    for sample in sys.stdin.read().split("\n\n"):
        frames = frames_of(sample)
        key = tuple(frames[1:12])
        if frames and key != previous:
            walks.append(frames)
        previous = key
    sites = collections.Counter()
    for frames in walks:
        own = [frame[:90] for frame in frames if not RUNTIME.search(frame)][:3]
        sites[" <- ".join(own) or "(runtime only)"] += 1
    for site, count in sites.most_common():
        print(f"    {count:3d}  {site}")


if __name__ == "__main__":
    main()
