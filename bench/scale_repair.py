#!/usr/bin/env python3
"""scale_repair.py MAP DIMS SLOTS OUT: make a scotch_gmap map onto the nodes
of a torus (target torusXD, terminal = topomap's node number, row-major,
last dimension fastest) fit the slots, as bench/mapper does with Scotch's
mappings: each node keeps its lowest task ids up to SLOTS, and every excess
task, in id order, moves to the nearest node (torus hops) with a free slot,
the lowest node number among the nearest.  Writes the repaired map to OUT
(Scotch's format, for `greedymap eval --scotch-by-node`) and prints the
number of tasks moved.  DIMS is AxBxC."""
import itertools
import os
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, dims, slots, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    dims = [int(d) for d in dims.split("x")]
    slots = int(slots)
    nodes = 1
    for d in dims:
        nodes *= d
    with open(path) as f:
        lines = f.read().split("\n")
    count = int(lines[0])
    target = {}
    for no, line in enumerate(lines[1:count + 1], 2):
        w = line.split()
        if len(w) != 2:
            sys.exit("%s:%d: expected 'label target'" % (path, no))
        label, node = int(w[0]), int(w[1])
        if not 0 <= node < nodes or label in target:
            sys.exit("%s:%d: bad or repeated entry" % (path, no))
        target[label] = node
    if len(target) != count or count > nodes * slots:
        sys.exit("%s: %d entries for %d slots" % (path, len(target),
                                                   nodes * slots))
    used = [0] * nodes
    excess = []
    for label in sorted(target):
        node = target[label]
        if used[node] < slots:
            used[node] += 1
        else:
            excess.append(label)
    # Offsets grouped by torus distance, nearest first.
    reach = [range(-(d // 2), d - d // 2) for d in dims]
    shells = {}
    for off in itertools.product(*reach):
        shells.setdefault(sum(abs(o) for o in off), []).append(off)
    order = [shells[k] for k in sorted(shells) if k > 0]
    strides = [1] * len(dims)
    for i in range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    for label in excess:
        node = target[label]
        coord = [(node // strides[i]) % dims[i] for i in range(len(dims))]
        best = None
        for shell in order:
            for off in shell:
                n = sum(((coord[i] + off[i]) % dims[i]) * strides[i]
                        for i in range(len(dims)))
                if used[n] < slots and (best is None or n < best):
                    best = n
            if best is not None:
                break
        used[best] += 1
        target[label] = best
    with open(out + ".tmp", "w") as f:
        f.write("%d\n" % count)
        for label in sorted(target):
            f.write("%d\t%d\n" % (label, target[label]))
    os.replace(out + ".tmp", out)
    print(len(excess))


main()
