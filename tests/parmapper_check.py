#!/usr/bin/env python3
"""parmapper_check.py: checks of parmapper's outputs for the shell tests,
written apart from the C code they check.

  report REPORT            the report is well formed, its front is a front
                           (no point dominates another), and the chosen
                           point is the one the selection rule gives; with
                           --hetero, the chosen placement predicts no worse
                           than GPU-first and all-CPU
  same REPORT REPORT       the two fronts, chosen points and focuses are
                           identical
  rounds REPORT R          the search ran R rounds of the portfolio to the
                           end: every configuration once, then R - 1 x
                           the focus's, none stopped
  timed REPORT             a search with a time limit and no --rounds ran
                           past the first round and was not complete
  beats-block REPORT       the chosen average is <= the block mapping's
  bound RANKFILE WHEREAMI  every rank of tests/mpi/whereami's output is
                           bound to the core its rankfile line names
  slurm HOSTFILE MAPPING   line t of the Slurm hostfile is task t's host
  placement PLACEMENT MAPPING [XML GPU_RANKS]
                           --hetero's placement has an entry per task, at
                           the host of its node and its local rank there
                           (its position among the node's tasks in rank
                           order); with an hwloc XML, exactly the ranks of
                           GPU_RANKS ("0,1,4" or "-") are on GPUs of the
                           XML, each with cores in its GPU's package
  same-node PLACEMENT PLACEMENT
                           the two placements are the same but for hosts
  exec PLACEMENT BINDCHECK every line of tests/test_hetero_bindcheck's output
                           (through topomap-exec) shows the cores, NUMA
                           nodes, processor and memory kind of its rank
Exits 1 with a message on the first failure."""
import json
import sys
import xml.etree.ElementTree as ET


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


def load_json(path, fmt, what):
    with open(path) as f:
        r = json.load(f)
    if r.get("format") != fmt or r.get("version") != 1:
        fail("%s: not %s, version 1" % (path, what))
    return r


def load(path):
    return load_json(path, "topomap-parmapper-report", "a parmapper report")


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
            c["metrics"]["hop_bytes_max"] != p["hop_bytes_max"] or \
            c["metrics"]["comm_cost"] != p["comm_cost"]:
        fail(path + ": the chosen mapping's metrics are not its point's")
    if s["select"] == "alpha":
        h0 = min(totals)
        if p["hop_bytes_total"] > s["alpha"] * h0:
            fail(path + ": chosen average above alpha x the smallest")
    if sum(s["runs_per_rank"]) != s["runs"] or len(s["runs_per_rank"]) != s["ranks"]:
        fail(path + ": runs per rank do not add up")
    # Rounds after the first run only the focus's configurations.
    later = [q for q in r["front"] if q["round"] > 0]
    if later and (s["focus"] is None or
                  any(q["config_index"] not in s["focus"] for q in later)):
        fail("%s: a point of round > 0 from outside the focus %s" % (path, s["focus"]))
    if r["default"]["mapping"] != "block" or r["default"]["metrics"]["tasks"] != tasks:
        fail(path + ": no default mapping")
    h = r["hetero"]
    if h is not None:
        if h["ranks"] != tasks or not 0 <= h["gpu_ranks"] <= tasks:
            fail(path + ": hetero: ranks or GPU ranks out of range")
        for base in ("gpu_first", "all_cpu"):
            # The search compares to a relative 1e-12 (hetero/cost.c).
            if h[base] and h["chosen"]["makespan_s"] > h[base]["makespan_s"] * (1 + 1e-9):
                fail("%s: hetero: the chosen makespan is above %s's" % (path, base))


def same(a, b):
    ra, rb = load(a), load(b)
    fa = [(p["config"], p["round"], p["hop_bytes_total"], p["hop_bytes_max"]) for p in ra["front"]]
    fb = [(p["config"], p["round"], p["hop_bytes_total"], p["hop_bytes_max"]) for p in rb["front"]]
    if fa != fb:
        fail("fronts differ:\n  %s\n  %s" % (fa, fb))
    if ra["chosen"]["index"] != rb["chosen"]["index"]:
        fail("chosen points differ")
    if ra["search"]["focus"] != rb["search"]["focus"]:
        fail("focuses differ: %s and %s" % (ra["search"]["focus"], rb["search"]["focus"]))


def rounds(path, want):
    s = load(path)["search"]
    # Round 0 runs every configuration, the later rounds the focus.
    focus = s["focus"] or []
    if (int(want) > 1) != (s["focus"] is not None) or (s["focus"] is not None and not focus):
        fail("%s: %s rounds with the focus %s" % (path, want, s["focus"]))
    if len(set(focus)) != len(focus) or any(not 0 <= c < s["configurations"] for c in focus):
        fail("%s: focus %s is not a set of the %d configurations"
             % (path, focus, s["configurations"]))
    runs = s["configurations"] + (int(want) - 1) * len(focus)
    if s["rounds"] != int(want) or not s["rounds_complete"] or s["runs"] != runs \
            or any(s["stopped_per_rank"]):
        fail("%s: expected %s complete rounds, %d runs, none stopped: got rounds %s, "
             "complete %s, %d runs, stopped %s" % (path, want, runs, s["rounds"],
                                                   s["rounds_complete"], s["runs"],
                                                   s["stopped_per_rank"]))


def timed(path):
    s = load(path)["search"]
    if s["rounds"] is not None or s["rounds_complete"] or s["time_limit"] is None \
            or s["runs"] <= s["configurations"]:
        fail("%s: expected a timed search past round 0: rounds %s, complete %s, "
             "time limit %s, %d runs of %d configurations"
             % (path, s["rounds"], s["rounds_complete"], s["time_limit"], s["runs"],
                s["configurations"]))


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


def load_placement(path):
    return load_json(path, "topomap-placement", "a placement")


def pu_list(text):
    """The set of "0-3,8"."""
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def cpuset(mask):
    """hwloc's "0x00000003,0x..." (most significant word first)."""
    bits, out = 0, set()
    for word in mask.split(","):
        bits = (bits << 32) | int(word, 16)
    i = 0
    while bits:
        if bits & 1:
            out.add(i)
        bits >>= 1
        i += 1
    return out


def gpu_packages(path):
    """{bus id: PUs of its package} for the GPUs (cuda*/nvml* OS devices)."""
    gpus = {}

    def walk(obj, package, busid):
        t = obj.get("type")
        if t == "Package":
            package = cpuset(obj.get("cpuset"))
        if t == "PCIDev":
            busid = obj.get("pci_busid")
        name = obj.get("name") or ""
        if t == "OSDev" and (name.startswith("cuda") or name.startswith("nvml")):
            gpus[busid] = package
        for child in obj.findall("object"):
            walk(child, package, busid)

    walk(ET.parse(path).getroot().find("object"), set(), None)
    return gpus


def placement(path, mapping, xml=None, gpu_ranks=None):
    entries = load_placement(path)["ranks"]
    with open(mapping) as f:
        tasks = sorted(([int(w[0]), w[1]] for w in (l.split() for l in f if not l.startswith("#"))))
    if len(entries) != len(tasks):
        fail("%s: %d entries for %d tasks" % (path, len(entries), len(tasks)))
    local = {}
    for t, host in tasks:
        e = [e for e in entries if e["rank"] == t]
        want = (host, local.setdefault(host, 0))
        local[host] += 1
        if len(e) != 1 or (e[0]["host"], e[0]["local_rank"]) != want:
            fail("%s: rank %d should be host %s local rank %d: %s" % (path, t, want[0], want[1], e))
    if xml is None:
        return
    gpus = gpu_packages(xml)
    on_gpu = sorted(e["rank"] for e in entries if e["proc"] == "gpu")
    want = [] if gpu_ranks == "-" else [int(r) for r in gpu_ranks.split(",")]
    if on_gpu != want:
        fail("%s: ranks %s on GPUs, expected %s" % (path, on_gpu, want))
    for e in entries:
        if e["proc"] != "gpu":
            continue
        package = gpus.get(e["gpu"]["busid"])
        if package is None:
            fail("%s: rank %d: GPU %s is not in %s" % (path, e["rank"], e["gpu"]["busid"], xml))
        if not pu_list(e["cores"]) <= package:
            fail("%s: rank %d: cores %s are not in the package of GPU %s" %
                 (path, e["rank"], e["cores"], e["gpu"]["busid"]))


def same_node(a, b):
    pa, pb = load_placement(a), load_placement(b)
    for p in (pa, pb):
        for e in p["ranks"]:
            del e["host"]
    if pa != pb:
        fail("the placements differ:\n  %s\n  %s" % (pa, pb))


def exec_check(path, out):
    entries = {e["rank"]: e for e in load_placement(path)["ranks"]}
    seen = set()
    with open(out) as f:
        for line in f:
            kv = dict(w.split("=", 1) for w in line.split())
            r = int(kv["rank"])
            e = entries[r]
            want = (pu_list(e["cores"]), pu_list(e["memory"]["nodes"]), e["memory"]["policy"],
                    e["proc"], e["memory"]["kind"])
            got = (pu_list(kv["cpus"]), pu_list(kv["nodes"]), kv["policy"], kv["proc"], kv["mem"])
            if got != want:
                fail("rank %d runs with %s, the placement says %s" % (r, got, want))
            seen.add(r)
    if seen != set(entries):
        fail("ranks %s reported, the placement has %s" % (sorted(seen), sorted(entries)))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"report": check_report, "same": same, "rounds": rounds, "timed": timed, "beats-block": beats_block,
     "bound": bound, "slurm": slurm, "placement": placement, "same-node": same_node,
     "exec": exec_check}[cmd](*args)


main()
