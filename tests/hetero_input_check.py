#!/usr/bin/env python3
"""hetero_input_check.py: checks of what topomap-place makes from a
profile, for tests/hetero_profile_mpi.sh, written apart from the C code.

  input PROFILE INPUT     INPUT (topomap-place --write-input PROFILE) holds,
                          per rank, the profile's compute_ns / 1e9 as its
                          only variant (its proc_kind), maxrss_kb x 1024,
                          its host and local rank, and per peer its sent
                          rows plus the per-peer bytes of its collective
                          records (one message per call), itself left out
  placed PROFILE OUT KIND SPEEDUP
                          every rank line of topomap-place's output runs
                          KIND with compute = compute_ns / 1e9 (/ SPEEDUP
                          on a GPU), as C prints it (%.6g)
  best OUT                the chosen makespan is no worse than GPU-first's
                          and all-CPU's
Exits 1 with a message on the first failure."""
import json
import sys


def fail(msg):
    print("hetero_input_check: " + msg, file=sys.stderr)
    sys.exit(1)


def expected_sends(prof):
    """{src: {dst: [bytes, messages]}} from the rows and the records."""
    want = {}

    def add(src, dst, b, m):
        if src != dst and b:
            e = want.setdefault(src, {}).setdefault(dst, [0, 0])
            e[0] += b
            e[1] += m

    for r in prof["ranks"]:
        for dst, b, m in r["sent"] + r["rma"]:
            add(r["rank"], dst, b, m)
    for c in prof["communicators"]:
        group = c.get("remote") or c["members"]
        for k in c["collectives"]:
            if k["type"] not in ("reduce", "bcast", "gather", "gatherv", "scatter", "scatterv"):
                fail("a %s record: this checker knows only recorded peers" % k["type"])
            for i, b in k.get("peers", []):
                add(k["rank"], group[i], b, k["calls"])
    return want


def check_input(profile, path):
    prof = json.load(open(profile))
    got = json.load(open(path))
    if got["format"] != "topomap-hetero-input" or len(got["ranks"]) != prof["world_size"]:
        fail(path + ": not an input of the profile's ranks")
    want = expected_sends(prof)
    by_rank = {r["rank"]: r for r in got["ranks"]}
    for p in prof["ranks"]:
        r = by_rank[p["rank"]]
        exp = {p["proc_kind"]: p["compute_ns"] / 1e9}
        if r["compute"] != exp:
            fail("rank %d: compute %s, expected %s" % (p["rank"], r["compute"], exp))
        if r["memory_bytes"] != p["maxrss_kb"] * 1024:
            fail("rank %d: memory_bytes %d, expected %d" % (p["rank"], r["memory_bytes"],
                                                          p["maxrss_kb"] * 1024))
        if (r["host"], r["local_rank"]) != (p["host"], p["local_rank"]):
            fail("rank %d: host and local rank differ" % p["rank"])
        sends = {d: [b, m] for d, b, m in r["sends"]}
        if sends != want.get(p["rank"], {}):
            fail("rank %d: sends %s, expected %s" % (p["rank"], sends, want.get(p["rank"])))
        if not sends:
            fail("rank %d sends nothing" % p["rank"])


def rank_lines(out):
    lines = open(out).read().split("\n")
    start = lines.index("rank host local proc gpu mem numa cores compute_s comm_s")
    return [l.split() for l in lines[start + 1:] if l]


def check_placed(profile, out, kind, speedup):
    prof = json.load(open(profile))
    rows = rank_lines(out)
    if len(rows) != prof["world_size"]:
        fail(out + ": %d rank lines" % len(rows))
    for row, p in zip(rows, sorted(prof["ranks"], key=lambda r: r["rank"])):
        t = p["compute_ns"] / 1e9
        if kind == "gpu":
            t = t / float(speedup)
        want = [str(p["rank"]), p["host"], str(p["local_rank"]), kind, "%.6g" % t]
        got = row[0:4] + [row[8]]
        if got != want:
            fail("%s: %s, expected %s" % (out, got, want))


def check_best(out):
    cost = {}
    for l in open(out):
        w = l.split()
        if len(w) >= 3 and w[0] in ("gpu-first", "all-cpu", "ccd"):
            cost[w[0] + (" chosen" if w[-1] == "chosen" else "")] = float(w[1])
    chosen = cost.get("ccd chosen")
    # Printed to 6 digits, compared by the search to a relative 1e-12.
    if chosen is None or chosen > min(cost["gpu-first"], cost["all-cpu"]) * (1 + 1e-5):
        fail("%s: chosen %s, GPU-first %s, all-CPU %s" % (out, chosen, cost.get("gpu-first"),
                                                          cost.get("all-cpu")))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"input": check_input, "placed": check_placed, "best": check_best}[cmd](*args)


main()
