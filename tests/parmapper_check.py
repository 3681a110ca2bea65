#!/usr/bin/env python3
"""parmapper_check.py: checks of parmapper's outputs for the shell tests,
written apart from the C code they check.

  report REPORT            the report is well formed, its front is a front
                           (no point dominates another), and the chosen
                           point is the one the selection rule gives
  same REPORT REPORT       the two fronts and chosen points are identical
  rounds REPORT R          the search ran R rounds of the portfolio to the
                           end: R x configurations runs, none stopped
  beats-block REPORT       the chosen average is <= the block mapping's
  bound RANKFILE WHEREAMI  every rank of tests/mpi/whereami's output is
                           bound to the core its rankfile line names
  slurm HOSTFILE MAPPING   line t of the Slurm hostfile is task t's host
Exits 1 with a message on the first failure."""
import json
import sys


def fail(msg):
    print("parmapper_check: " + msg, file=sys.stderr)
    sys.exit(1)


def key(p):
    return (p["config_index"], p["seed"], p["round"])


def dominates(a, b):
    """The strict order of parmapper/pareto.h."""
    if a["hop_bytes_total"] > b["hop_bytes_total"] or a["hop_bytes_max"] > b["hop_bytes_max"]:
        return False
    if a["hop_bytes_total"] < b["hop_bytes_total"] or a["hop_bytes_max"] < b["hop_bytes_max"]:
        return True
    return key(a) < key(b)


def expected_choice(front, select, alpha):
    """The index the rules of parmapper(1) choose."""
    h0 = min(p["hop_bytes_total"] for p in front)
    cand = [i for i, p in enumerate(front)
            if select != "alpha" or p["hop_bytes_total"] <= alpha * h0]
    primary = {"alpha": "hop_bytes_max", "max": "hop_bytes_max",
               "avg": "hop_bytes_total", "maxload": "load_max_heuristic"}[select]
    return min(cand, key=lambda i: (front[i][primary], front[i]["hop_bytes_total"],
                                    front[i]["hop_bytes_max"], key(front[i])))


def load(path):
    with open(path) as f:
        r = json.load(f)
    if r.get("format") != "topomap-parmapper-report" or r.get("version") != 1:
        fail(path + ": not a parmapper report, version 1")
    return r


def check_report(path):
    r = load(path)
    front, tasks = r["front"], r["graph"]["tasks"]
    if not front:
        fail(path + ": empty front")
    for i, a in enumerate(front):
        if abs(a["hop_bytes_avg"] - a["hop_bytes_total"] / tasks) > 1e-9 * max(1, a["hop_bytes_avg"]):
            fail("%s: point %d: average is not total / tasks" % (path, i))
        for j, b in enumerate(front):
            if i != j and dominates(a, b):
                fail("%s: point %d dominates point %d" % (path, i, j))
    totals = [p["hop_bytes_total"] for p in front]
    if totals != sorted(totals):
        fail(path + ": front not sorted by average")
    s = r["search"]
    c = r["chosen"]
    want = expected_choice(front, s["select"], s["alpha"])
    if c["index"] != want:
        fail("%s: chose point %d, the rule gives %d" % (path, c["index"], want))
    p = front[c["index"]]
    for k in ("config", "seed", "hop_bytes_total", "hop_bytes_max"):
        if c[k] != p[k]:
            fail("%s: chosen %s differs from its front point" % (path, k))
    if c["metrics"]["hop_bytes_total"] != p["hop_bytes_total"] or \
            c["metrics"]["hop_bytes_max"] != p["hop_bytes_max"]:
        fail(path + ": the chosen mapping's metrics are not its point's")
    if s["select"] == "alpha":
        h0 = min(totals)
        if p["hop_bytes_total"] > s["alpha"] * h0:
            fail(path + ": chosen average above alpha x the smallest")
    if sum(s["runs_per_rank"]) != s["runs"] or len(s["runs_per_rank"]) != s["ranks"]:
        fail(path + ": runs per rank do not add up")
    if r["default"]["mapping"] != "block" or r["default"]["metrics"]["tasks"] != tasks:
        fail(path + ": no default mapping")


def same(a, b):
    ra, rb = load(a), load(b)
    fa = [(p["config"], p["round"], p["hop_bytes_total"], p["hop_bytes_max"]) for p in ra["front"]]
    fb = [(p["config"], p["round"], p["hop_bytes_total"], p["hop_bytes_max"]) for p in rb["front"]]
    if fa != fb:
        fail("fronts differ:\n  %s\n  %s" % (fa, fb))
    if ra["chosen"]["index"] != rb["chosen"]["index"]:
        fail("chosen points differ")


def rounds(path, want):
    s = load(path)["search"]
    runs = int(want) * s["configurations"]
    if s["rounds"] != int(want) or not s["rounds_complete"] or s["runs"] != runs \
            or any(s["stopped_per_rank"]):
        fail("%s: expected %s complete rounds, %d runs, none stopped: got rounds %s, "
             "complete %s, %d runs, stopped %s" % (path, want, runs, s["rounds"],
                                                   s["rounds_complete"], s["runs"],
                                                   s["stopped_per_rank"]))


def beats_block(path):
    r = load(path)
    got, block = r["chosen"]["metrics"]["hop_bytes_avg"], r["default"]["metrics"]["hop_bytes_avg"]
    if got > block:
        fail("%s: chosen average %g above the block mapping's %g" % (path, got, block))


def bound(rankfile, whereami):
    want = {}
    with open(rankfile) as f:
        for line in f:
            left, slot = line.split()[1], line.split()[2]
            rank, host = left.split("=")
            want[int(rank)] = (host, slot.split("=")[1])
    seen = {}
    with open(whereami) as f:
        for line in f:
            w = line.split()
            if len(w) == 6 and w[0] == "rank":
                seen[int(w[1])] = (w[3], w[5])
    if seen != want:
        fail("bindings differ from the rankfile:\n  want %s\n  got  %s" % (want, seen))


def slurm(hostfile, mapping):
    with open(hostfile) as f:
        hosts = f.read().split()
    with open(mapping) as f:
        tasks = [l.split() for l in f if not l.startswith("#")]
    if hosts != [t[1] for t in sorted(tasks, key=lambda t: int(t[0]))]:
        fail("the Slurm hostfile does not follow the mapping")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"report": check_report, "same": same, "rounds": rounds, "beats-block": beats_block,
     "bound": bound, "slurm": slurm}[cmd](*args)


main()
