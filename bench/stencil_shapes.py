#!/usr/bin/env python3
"""Node shapes for bench/mapper's stencil-fattree (bench/README.md, "Lower
bounds"): the 27-point stencil on a 32x32x32 grid, not periodic, on a
fat-tree of 32 leaves x 32 nodes x 32 slots.

Prints, with exact counts:
  - the edges the 32-point node of bench/bound.c's optimum keeps (a 4x4x4
    cube without the points on its edges) and that its translates by
    (2,2,2), (0,4,0), (0,0,4) tile space;
  - that tiling as a mapping of the grid (leaves: the tiles whose anchor
    falls in one 8x8x16 box; tiles at the grid's faces wrapped round):
    edges cut by nodes and by leaves, average hop-bytes;
  - inside one 8x8x16 leaf: the edges kept by 2x4x4 boxes, by the tiles
    wrapped at the leaf's faces, and how many 0.9x Scotch would need.

usage: bench/stencil_shapes.py [-h]
"""
import itertools
import math
import sys

N = 32                 # the grid's side
SLOTS = 32             # tasks per node
BYTES = 1000           # every edge's weight, each way
SCOTCH = 33278.32      # Scotch's average on this case (bench/README.md)
STEPS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d > (0, 0, 0)]
LATTICE = ((2, 2, 2), (0, 4, 0), (0, 0, 4))


def node_shape():
    """The 4x4x4 cube without the points on its 12 edges, centred."""
    return [(x - 1, y - 1, z - 1)
            for x, y, z in itertools.product(range(4), repeat=3)
            if (x % 3 == 0) + (y % 3 == 0) + (z % 3 == 0) < 2]


def edges_inside(points):
    """Each edge once: STEPS holds one of every two opposite steps."""
    s = set(points)
    return sum((p[0] + d[0], p[1] + d[1], p[2] + d[2]) in s
               for p in points for d in STEPS)


def cut(label, size):
    """Edges of the stencil on a box of `size` whose ends differ in label,
    and the box's edges in all."""
    cut = total = 0
    for p in itertools.product(*(range(n) for n in size)):
        for d in STEPS:
            q = (p[0] + d[0], p[1] + d[1], p[2] + d[2])
            if all(0 <= q[i] < size[i] for i in range(3)):
                total += 1
                cut += label[p] != label[q]
    return cut, total


def tiled(shape, period, anchors):
    """Label every point of a box of side `period` by the tile (shape +
    anchor, wrapped round the box) holding it."""
    label = {}
    for t, a in enumerate(anchors):
        for s in shape:
            p = tuple((s[i] + a[i]) % period[i] for i in range(3))
            if p in label:
                sys.exit("stencil_shapes: tiles overlap at %s" % (p,))
            label[p] = t
    return label


def anchors_in(period):
    """The lattice's points in a box of side `period`, one per coset."""
    seen = set()
    for a, b, c in itertools.product(range(2 * max(period)), repeat=3):
        p = tuple((a * LATTICE[0][i] + b * LATTICE[1][i] + c * LATTICE[2][i])
                  % period[i] for i in range(3))
        seen.add(p)
    return sorted(seen)


def main():
    if len(sys.argv) > 1:
        print(__doc__.strip())
        return 0 if sys.argv[1] in ("-h", "--help") else 2
    shape = node_shape()
    kept = edges_inside(shape)
    print("node shape: %d points, %d edges inside (bound_king_edges(32) "
          "= 208)" % (len(shape), kept))

    grid = (N, N, N)
    anchors = anchors_in(grid)
    label = tiled(shape, grid, anchors)
    print("tiling: %d translates, none overlapping, cover the %d points "
          "of the grid wrapped round" % (len(anchors), len(label)))
    leaf_of_tile = [(a[0] // 8) * 16 + (a[1] // 8) * 4 + a[2] // 16
                    for a in anchors]
    leaf = {p: leaf_of_tile[t] for p, t in label.items()}
    node_cut, edges = cut(label, grid)
    leaf_cut, _ = cut(leaf, grid)
    avg = 2 * BYTES * 2 * (node_cut + leaf_cut) / N ** 3
    print("tiled grid: %d edges, nodes cut %d, leaves cut %d, average "
          "hop-bytes %.2f (%.3fx Scotch)" %
          (edges, node_cut, leaf_cut, avg, avg / SCOTCH))

    box = (8, 8, 16)
    boxes = {p: (p[0] // 2) * 8 + (p[1] // 4) * 4 + p[2] // 4
             for p in itertools.product(*(range(n) for n in box))}
    box_cut, leaf_edges = cut(boxes, box)
    wrapped = tiled(shape, box, anchors_in(box))
    wrap_cut, _ = cut(wrapped, box)
    leaves_cut = edges - 32 * leaf_edges
    # hop-bytes = 2 x 2 x BYTES x (leaves' cut, counted at both levels,
    # + the cut inside the leaves) / tasks; 0.9x Scotch bounds the sum
    inside = 0.9 * SCOTCH * N ** 3 / (4 * BYTES) - 2 * leaves_cut
    need = math.ceil(leaf_edges - inside / 32)
    print("8x8x16 leaf: %d edges; 2x4x4 boxes keep %d (%.1f a node), the "
          "wrapped tiles %d (%.1f); with such leaves (%d edges cut) 0.9x "
          "Scotch needs %d (%.1f a node)" %
          (leaf_edges, leaf_edges - box_cut, (leaf_edges - box_cut) / 32,
           leaf_edges - wrap_cut, (leaf_edges - wrap_cut) / 32, leaves_cut,
           need, need / 32))
    return 0


if __name__ == "__main__":
    sys.exit(main())
