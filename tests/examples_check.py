#!/usr/bin/env python3
"""Check a run of an example application against its definition, worked out
here independently of the C code: the point-to-point pairs, bytes and
messages of its libcommprof profile, and the checksum it printed.

  examples_check.py halo3d PROFILE STDOUT BYTES ITERS [AxBxC]
  examples_check.py spmv PROFILE STDOUT POINTS RADIUS ITERS SEED
  examples_check.py heat STDOUT ROWS COLS ITERS KIND...

KIND is PROC:MEM (cpu:dram) for each rank in turn, or one for every rank.

The definitions are in the header comments of examples/halo3d.c,
examples/spmv.c and examples/heat.c; heat has no profile to check, only
its output (the checksum of a serial Jacobi run here, the ranks' rows and
kinds).  halo3d's grid is read from its output (MPI_Dims_create
chooses it) and only checked for shape, or must be AxBxC when given (its
--dx/--dy/--dz); spmv's points are drawn here with
xoshiro256** seeded by splitmix64 (as libtaskgraph's tg_rgg_points), its
graph found by comparing every pair.
"""
import json
import re
import struct
import sys
from collections import Counter

M64 = (1 << 64) - 1
failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, expected {want!r}")


def check_p2p(prof, sent):
    """sent: {(src, dst): (bytes, messages)}; checks both directions."""
    n = prof["world_size"]
    for rk in prof["ranks"]:
        r = rk["rank"]
        want = {d: v for (s, d), v in sent.items() if s == r}
        expect(f"rank {r} sent", {d: (b, m) for d, b, m in rk["sent"]}, want)
        want = {s: v for (s, d), v in sent.items() if d == r}
        expect(f"rank {r} received", {s: (b, m) for s, b, m in rk["received"]},
               want)
    expect("ranks in the profile", sorted(rk["rank"] for rk in prof["ranks"]),
           list(range(n)))


def summary(stdout, pattern):
    m = re.search(pattern, open(stdout).read())
    if not m:
        sys.exit(f"examples_check: {stdout}: no line matching {pattern!r}")
    return m


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & M64
    return h


def check_halo3d(prof, stdout, nbytes, iters, grid=None):
    m = summary(stdout, r"halo3d: (\d+) ranks, grid (\d+)x(\d+)x(\d+), "
                r"(\d+) bytes per message, (\d+) iterations, checksum ([0-9a-f]{16})")
    p, dims = int(m[1]), [int(m[2]), int(m[3]), int(m[4])]
    expect("ranks", p, prof["world_size"])
    if grid:
        expect("grid", dims, [int(x) for x in grid.split("x")])
    else:
        expect("grid", (dims[0] * dims[1] * dims[2], sorted(dims, reverse=True)),
               (p, dims))
    expect("sizes", (int(m[5]), int(m[6])), (nbytes, iters))

    def coords(r):
        return [r // (dims[1] * dims[2]), r // dims[2] % dims[1], r % dims[2]]

    def rank(c):
        return (c[0] * dims[1] + c[1]) * dims[2] + c[2]

    # nbr[r][d]: direction d is dimension d // 2, -1 for even d, +1 for odd.
    nbr = []
    for r in range(p):
        row = []
        for d in range(6):
            c = coords(r)
            k = d // 2
            c[k] = (c[k] + (1 if d % 2 else -1)) % dims[k]
            row.append(rank(c))
        nbr.append(row)
    sent = Counter()
    for r in range(p):
        for d in range(6):
            sent[(r, nbr[r][d])] += 1
    check_p2p(prof, {k: (c * nbytes * iters, c * iters) for k, c in sent.items()})

    face = [[[(r * 131 + d * 31 + i * 7) % 256 for i in range(nbytes)]
             for d in range(6)] for r in range(p)]
    for _ in range(iters):
        # halo[d] of rank r: what the neighbour on side d sent in direction
        # d ^ 1, i.e. its face d ^ 1.
        halo = [[face[nbr[r][d]][d ^ 1] for d in range(6)] for r in range(p)]
        face = [[[(5 * face[r][d][i] + 3 * halo[r][d][i] + halo[r][(d + 1) % 6][i]
                   + d + 1) % 256 for i in range(nbytes)] for d in range(6)]
                for r in range(p)]
    total = 0
    for r in range(p):
        total += (2 * r + 1) * fnv1a(b for f in face[r] for b in f)
    expect("checksum", m[7], f"{total & M64:016x}")


class Rng:
    """xoshiro256**, seeded by splitmix64 (taskgraph/fileio.c)."""

    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed = (seed + 0x9e3779b97f4a7c15) & M64
            self.s.append(mix(seed))

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def mix(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def term(x, k):
    """A value's term in the checksums of spmv and heat (example_mix.h)."""
    bits = int.from_bytes(struct.pack("<d", x), "little")
    return mix((bits + k * 0x9e3779b97f4a7c15) & M64)


def morton(x, y):
    qx, qy = int(x * 65536.0), int(y * 65536.0)
    return sum(((qx >> b) & 1) << (2 * b) | ((qy >> b) & 1) << (2 * b + 1)
               for b in range(16))


def check_spmv(prof, stdout, n, radius, iters, seed):
    p = prof["world_size"]
    rng = Rng(seed)
    pts = []
    for _ in range(n):
        x = rng.uniform()
        pts.append((x, rng.uniform()))
    r2 = radius * radius
    adj = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]
            if dx * dx + dy * dy < r2:
                adj[i].append(j)
                adj[j].append(i)
    order = sorted(range(n), key=lambda i: (morton(*pts[i]), i))
    owner = [0] * n
    for r in range(p):
        for pos in range(r * n // p, (r + 1) * n // p):
            owner[order[pos]] = r

    # Rank owner[i] sends x_i to every other rank owning a neighbour of i.
    entries = Counter()
    for i in range(n):
        for s in {owner[j] for j in adj[i]} - {owner[i]}:
            entries[(owner[i], s)] += 1
    check_p2p(prof, {k: (8 * c * iters, iters) for k, c in entries.items()})

    m = summary(stdout, r"spmv: (\d+) ranks, (\d+) points, radius (\S+), seed (\d+), "
                r"(\d+) nonzeros, (\d+) iterations, checksum ([0-9a-f]{16})")
    expect("sizes", (int(m[1]), int(m[2]), float(m[3]), int(m[4]), int(m[5]), int(m[6])),
           (p, n, radius, seed, n + sum(len(a) for a in adj), iters))
    x = [float(7919 * i % 1000) for i in range(n)]
    for _ in range(iters):
        y = []
        for i in range(n):
            s = x[i]
            for j in adj[i]:
                s += x[j]
            y.append(s / (len(adj[i]) + 1))
        x = y
    total = sum(term(x[i], i + 1) for i in range(n))
    expect("checksum", m[7], f"{total & M64:016x}")


def check_heat(stdout, n, m, iters, kinds):
    """kinds: 'proc:mem' for each rank, or one for all."""
    s = summary(stdout, r"heat: (\d+) ranks, grid (\d+)x(\d+), (\d+) iterations, "
                r"checksum ([0-9a-f]{16}), wall \S+ s")
    p = int(s[1])
    expect("sizes", (int(s[2]), int(s[3]), int(s[4])), (n, m, iters))
    if len(kinds) == 1:
        kinds = kinds * p
    expect("kinds given", len(kinds), p)
    got = re.findall(r"^heat: rank (\d+): (\w+), (\w+), rows (\d+), "
                     r"compute \S+ s, communication \S+ s$", open(stdout).read(), re.M)
    expect("ranks", [(int(r), pk, mk, int(rows)) for r, pk, mk, rows in got],
           [(r, *kinds[r].split(":"), (r + 1) * n // p - r * n // p)
            for r in range(min(p, len(kinds)))])

    def initial(i, j):
        if i == 0:
            return 1.0
        if j == 0:
            return 0.5
        if i == n + 1 or j == m + 1:
            return 0.0
        return ((37 * i + 11 * j) % 64) / 64.0

    u = [[initial(i, j) for j in range(m + 2)] for i in range(n + 2)]
    for _ in range(iters):
        v = [row[:] for row in u]
        for i in range(1, n + 1):
            for j in range(1, m + 1):
                v[i][j] = 0.25 * ((u[i - 1][j] + u[i + 1][j]) + (u[i][j - 1] + u[i][j + 1]))
        u = v
    total = sum(term(u[i][j], (i - 1) * m + j)
                for i in range(1, n + 1) for j in range(1, m + 1))
    expect("checksum", s[5], f"{total & M64:016x}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kind = sys.argv[1]
    if kind == "heat" and len(sys.argv) >= 7:
        a = sys.argv[3:]
        check_heat(sys.argv[2], int(a[0]), int(a[1]), int(a[2]), a[3:])
        return report(kind, "checksum")
    profile, stdout = sys.argv[2:4]
    prof = json.load(open(profile))
    a = sys.argv[4:]
    if kind == "halo3d" and len(a) in (2, 3):
        check_halo3d(prof, stdout, int(a[0]), int(a[1]), a[2] if len(a) == 3 else None)
    elif kind == "spmv" and len(a) == 4:
        check_spmv(prof, stdout, int(a[0]), float(a[1]), int(a[2]), int(a[3]))
    else:
        sys.exit(__doc__)
    report(kind, "profile and checksum")


def report(kind, what):
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"{kind}: {what} as expected")


if __name__ == "__main__":
    main()
