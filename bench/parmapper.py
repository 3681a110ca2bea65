#!/usr/bin/env python3
"""parmapper.py: the quality parmapper reaches against its time budget and
its rank count, on bench/mapper's milc and qbox-wsum cases, beside two
references measured in the same run:

  best single  the best average hop-bytes of one run at seed 0 of every
               member of parmapper's portfolio (the GreedyMap
               configurations of gm_configurations and the baselines of
               gm_portfolio: block, rb, drb, decompose when the graph has
               a grid, rb and drb refined): `parmapper --first` on 1 rank;
  Scotch       bench/mapper's Scotch row (its --keep .tsv, exact integers).

The best single is checked against the same members run outside
parmapper: bench/mapper's configuration rows (order=...) and its block,
rb, drb and decompose rows, and `greedymap map --config
baseline=rb,refine=1` (and drb) + `greedymap eval` for the two refined
baselines bench/mapper does not run (its cyclic, hilbert and random rows,
its default and Scotch are not members and are left out).  The set must
have as many members as parmapper's portfolio, its least total must be
--first's, and every point of --first's front must be its member's run.

The graphs are made with `taskgraph gen` (+ `taskgraph combine`) and must
be byte for byte the graphs bench/mapper keeps; the machine is given
offline (--nodes, --slots, --network).  Every budget runs on every rank
count under mpirun (oversubscribed when there are more ranks than CPUs,
which the output says).  One table per case; progress goes to stderr.

Columns: ranks; budget s (--time); search s (the search as parmapper
timed it); total s (parmapper from MPI_Init to its report); runs (finished
runs, all ranks); round 0 (members that ran at seed 0, of the
portfolio); front (Pareto points); avg and max hop-bytes of the chosen
mapping; its average over the best single member's, Scotch's and the
default (block) mapping's.

Checks (exit 1 when one fails, or when a run fails; never on time):
the best single as above; every report passes `tests/parmapper_check.py
report` (the front is a front, the chosen point is on it and is the one
the alpha rule gives); ranks, budget and default mapping are the run's;
every front point found in round 0 is its member's run outside parmapper;
and when round 0 is complete the front's smallest average is <= the best
single member's, since round 0 repeats exactly the runs of --first.  That
is all that is guaranteed: the alpha rule may choose a point up to alpha
(1.05) x that smallest average for a smaller maximum, so avg/best-single
may exceed 1 by up to 5%.  Exit 2 on a bad command line.
"""
import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ME = "bench/parmapper.py"
CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                     "tests", "parmapper_check.py")

# bench/mapper's cases: every edge weighs 1000 bytes (its BYTES); the
# weighted-sum factors are those of its G_QBOX_W.
CASES = {
    "milc": {
        "what": "MILC-like 4-D lattice 16^4, periodic (65,536 tasks), "
                "torus 16x16x16 x 16 slots",
        "gen": [["gen", "stencil", "--dims", "16x16x16x16", "--periodic",
                 "--bytes", "1000", "-o", "{graph}"]],
        "machine": ["--nodes", "4096", "--slots", "16",
                    "--network", "torus:16x16x16"],
    },
    "qbox-wsum": {
        "what": "Qbox-like 64x128 grid, Weighted-sum 0.6 p2p + 0.4 "
                "alltoall (8,192 tasks), torus 8x8x8 x 16 slots",
        "gen": [["gen", "qbox", "--rows", "64", "--cols", "128",
                 "--p2p-bytes", "1000", "--alltoall-bytes", "1000",
                 "-o", "{dir}/qbox-layers.tg.json"],
                ["combine", "{dir}/qbox-layers.tg.json",
                 "--weights", "p2p=0.6,alltoall=0.4", "-o", "{graph}"]],
        "machine": ["--nodes", "512", "--slots", "16",
                    "--network", "torus:8x8x8"],
    },
}

# The programs the script runs: option and default (the build folder's).
PROGRAMS = {"parmapper": "parmapper/parmapper", "mapper": "bench/mapper",
            "taskgraph": "taskgraph/taskgraph",
            "greedymap": "greedymap/greedymap", "mpirun": "mpirun"}

# The baselines of parmapper's portfolio (gm_portfolio), as the "config"
# text of its report gives them less ",seed=0": those bench/mapper prints
# (its row label's first word), and the refined two it does not, which
# `greedymap map --config` runs here.
MAPPER_BASELINES = ("block", "rb", "drb", "decompose")
REFINED_BASELINES = ("baseline=rb,refine=1", "baseline=drb,refine=1")


def progress(msg):
    print(ME + ": " + msg, file=sys.stderr, flush=True)


def number_list(kind, text):
    try:
        values = [kind(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) <= 0:
        raise argparse.ArgumentTypeError("a list of positive numbers, "
                                         "not '%s'" % text)
    return values


def parse_args():
    p = argparse.ArgumentParser(
        prog=ME, description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", action="append", choices=sorted(CASES),
                   help="run this case only (repeatable; default: both)")
    p.add_argument("--ranks", type=lambda t: number_list(int, t),
                   default=[1, 2, 4], metavar="LIST",
                   help="rank counts (default 1,2,4)")
    p.add_argument("--budgets", type=lambda t: number_list(float, t),
                   metavar="LIST",
                   help="--time budgets in seconds (default 1,5,30)")
    p.add_argument("--quick", action="store_true",
                   help="budgets 1 and 5 only")
    p.add_argument("--keep", metavar="DIR",
                   help="keep graphs, reports and logs in DIR")
    for option, default in PROGRAMS.items():
        p.add_argument("--" + option, default=default, metavar="PATH",
                       help="the %s program (default %s)" % (option, default))
    a = p.parse_args()
    if a.budgets and a.quick:
        p.error("give --budgets or --quick, not both")
    a.budgets = a.budgets or ([1, 5] if a.quick else [1, 5, 30])
    for option in PROGRAMS:
        if not shutil.which(getattr(a, option)):
            p.error("%s: no such program (run from the build folder, or "
                    "give --%s)" % (getattr(a, option), option))
    a.case = a.case or list(CASES)
    return a


def run(cmd, log):
    """Run cmd with its output in the file log; True when it succeeded."""
    with open(log, "w") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
    if rc:
        with open(log) as f:
            tail = f.readlines()[-10:]
        progress("%s failed (exit %d); the end of %s:\n%s"
                 % (" ".join(cmd), rc, log, "".join(tail)))
    return rc == 0


def load_line(when):
    l1, l5, l15 = os.getloadavg()
    print("load average %s: %.2f %.2f %.2f (%d CPUs online)"
          % (when, l1, l5, l15, os.cpu_count()))


class Case:
    """One case: its graph, bench/mapper's rows and the --first report."""

    def __init__(self, name, a, work):
        self.name, self.a, self.work = name, a, work
        self.spec = CASES[name]
        self.graph = os.path.join(work, name + ".tg.json")
        self.problems = []

    def problem(self, msg):
        self.problems.append(msg)
        progress("%s: %s" % (self.name, msg))

    def make_graph(self):
        for step in self.spec["gen"]:
            cmd = [s.format(graph=self.graph, dir=self.work) for s in step]
            if not run([self.a.taskgraph] + cmd,
                       os.path.join(self.work, self.name + ".gen.log")):
                return False
        grf = os.path.join(self.work, self.name + ".grf")
        kept = os.path.join(self.work, "mapper", self.name + ".grf")
        if not run([self.a.taskgraph, "convert", self.graph, grf],
                   os.path.join(self.work, self.name + ".convert.log")):
            return False
        if not filecmp.cmp(grf, kept, shallow=False):
            self.problem("the generated graph is not bench/mapper's (%s)"
                         % kept)
            return False
        return True

    def read_mapper_rows(self):
        """bench/mapper's rows of the members of parmapper's portfolio
        (self.members: key -> total, max, wall, where) and its Scotch row
        (or None)."""
        tsv = os.path.join(self.work, "mapper", self.name + ".tsv")
        rows = []
        with open(tsv) as f:
            for line in f:
                if not line.startswith("#"):
                    w = line.rstrip("\n").split("\t")
                    rows.append({"label": w[0], "wall": float(w[1]),
                                 "total": int(w[3]), "max": int(w[5])})
        self.members = {}
        self.n_configs = self.n_baselines = 0
        for r in rows:
            name = r["label"].split(" (")[0]
            if r["label"].startswith("order="):
                key = r["label"]  # bench/mapper leaves ",seed=0" out
                self.n_configs += 1
            elif name in MAPPER_BASELINES:
                key = "baseline=" + name
                self.n_baselines += 1
            else:
                continue  # cyclic, hilbert, random, default, Scotch...
            self.members[key] = {"total": r["total"], "max": r["max"],
                                 "wall": r["wall"], "where": "bench/mapper"}
        scotch = [r for r in rows if r["label"].startswith("scotch")]
        self.scotch = scotch[0] if scotch else None

    def run_refined(self):
        """The refined baselines of the portfolio, which bench/mapper does
        not run: greedymap map --config (seed 0) and greedymap eval."""
        for config in REFINED_BASELINES:
            progress("%s: greedymap map --config %s" % (self.name, config))
            stem = os.path.join(self.work, "%s.%s" % (
                self.name, config.replace("=", "-").replace(",", ".")))
            start = time.monotonic()
            if not run([self.a.greedymap, "map", self.graph] +
                       self.spec["machine"] + ["--config", config,
                                               "-o", stem + ".map"],
                       stem + ".log"):
                self.problem("greedymap map --config %s failed" % config)
                return False
            wall = time.monotonic() - start
            ev = subprocess.run([self.a.greedymap, "eval", self.graph] +
                                self.spec["machine"] +
                                ["--mapping", stem + ".map", "--json"],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
            if ev.returncode:
                self.problem("greedymap eval of %s failed (exit %d): %s"
                             % (config, ev.returncode, ev.stderr.strip()))
                return False
            e = json.loads(ev.stdout)
            self.members[config] = {"total": e["hop_bytes_total"],
                                    "max": e["hop_bytes_max"], "wall": wall,
                                    "where": "greedymap map"}
        return True

    def member_of(self, point):
        """The run outside parmapper of a front point's member, when the
        point is a seed-0 run (None otherwise, or when there is none)."""
        config = point["config"]
        if not config.endswith(",seed=0"):
            return None
        return self.members.get(config[:-len(",seed=0")])

    def check_point(self, what, point):
        """A seed-0 point must be its member's run outside parmapper."""
        m = self.member_of(point)
        if m is None:
            self.problem("%s: front point %s is no member run outside "
                         "parmapper" % (what, point["config"]))
        elif (m["total"], m["max"]) != (point["hop_bytes_total"],
                                        point["hop_bytes_max"]):
            self.problem("%s: front point %s has total %d, max %d; its run "
                         "in %s %d, %d" % (what, point["config"],
                                           point["hop_bytes_total"],
                                           point["hop_bytes_max"],
                                           m["where"], m["total"], m["max"]))

    def parmapper(self, ranks, options, report):
        cmd = [self.a.mpirun, "-np", str(ranks), self.a.parmapper,
               self.graph] + self.spec["machine"] + options + \
              ["--report", report]
        if not run(cmd, report + ".log"):
            return None
        if subprocess.call([sys.executable, CHECK, "report", report]):
            self.problem(report + ": tests/parmapper_check.py report "
                         "failed (above)")
        with open(report) as f:
            return json.load(f)

    def reference(self):
        """The best single member: --first on 1 rank, checked against the
        same members run outside parmapper."""
        progress("%s: parmapper --first on 1 rank" % self.name)
        path = os.path.join(self.work, self.name + ".first.json")
        r = self.parmapper(1, ["--first"], path)
        if r is None:
            return False
        self.first = r
        self.best = r["front"][0]  # the smallest average
        before = len(self.problems)
        s = r["search"]
        if s["runs"] != s["configurations"]:
            self.problem("--first ran %d of %d members"
                         % (s["runs"], s["configurations"]))
        if len(self.members) != s["configurations"]:
            self.problem("parmapper's portfolio has %d members, the runs "
                         "outside it %d (bench/mapper's %d configurations "
                         "and %d baselines, %d refined baselines)"
                         % (s["configurations"], len(self.members),
                            self.n_configs, self.n_baselines,
                            len(REFINED_BASELINES)))
        key, out = min(self.members.items(), key=lambda kv: kv[1]["total"])
        if self.best["hop_bytes_total"] != out["total"]:
            self.problem("--first's best total %d (%s); the least of the %d "
                         "members run outside parmapper %d (%s, %s)"
                         % (self.best["hop_bytes_total"], self.best["config"],
                            len(self.members), out["total"], key,
                            out["where"]))
        for point in r["front"]:
            self.check_point("--first", point)
        self.agrees = len(self.problems) == before
        return True

    def describe(self):
        tasks = self.first["graph"]["tasks"]
        s = self.first["search"]
        d = self.first["default"]["metrics"]
        b = self.best
        print("\n== %s: %s" % (self.name, self.spec["what"]))
        print("   best single:     avg %.2f, max %d, %s"
              % (b["hop_bytes_avg"], b["hop_bytes_max"], b["config"]))
        print("                    (parmapper --first on 1 rank: all %d "
              "members of the portfolio once in %.2f s)"
              % (s["configurations"], s["seconds"]))
        print("                    checked: the same %d members run outside "
              "parmapper (bench/mapper's\n"
              "                    %d configuration and %d baseline rows; "
              "greedymap map for rb and drb\n"
              "                    refined) give the same least total and "
              "the front's %d point%s: %s"
              % (len(self.members), self.n_configs, self.n_baselines,
                 len(self.first["front"]), "s"[len(self.first["front"]) == 1:],
                 "agree" if self.agrees
                 else "they DISAGREE (INCONSISTENT below)"))
        m = self.member_of(b)
        if m and m["where"] == "bench/mapper":
            print("                    that member alone: %.4f s in "
                  "bench/mapper" % m["wall"])
        elif m:
            print("                    that member alone: %.2f s, the whole "
                  "greedymap map (reading the graph included)" % m["wall"])
        if self.scotch:
            print("   Scotch:          avg %.2f, max %d (%s in bench/mapper, "
                  "%.2f s)" % (self.scotch["total"] / tasks, self.scotch["max"],
                               self.scotch["label"].split(" (")[0],
                               self.scotch["wall"]))
        else:
            print("   Scotch:          none (bench/mapper built without "
                  "libscotch)")
        print("   default (block): avg %.2f, max %d"
              % (d["hop_bytes_avg"], d["hop_bytes_max"]))


HEADER = ("ranks", "budget s", "search s", "total s", "runs", "round 0",
          "front", "avg hop-bytes", "max hop-bytes", "avg/best-single",
          "avg/Scotch", "avg/default")
WIDTHS = (6, 9, 9, 8, 7, 8, 6, 14, 14, 16, 11, 12)


def print_cells(cells):
    print("  " + "".join(str(c).rjust(w) for c, w in zip(cells, WIDTHS)))


def round0_done(search):
    """Members that finished their seed-0 run: rank r of K runs jobs
    r, r + K, ... in order (parmapper/search.c) and its first runs[r]
    finished, so it finished min(runs[r], its jobs below C) of round 0."""
    c, k = search["configurations"], search["ranks"]
    return sum(min(n, len(range(r, c, k)))
               for r, n in enumerate(search["runs_per_rank"]))


def measure(case, ranks, budget):
    """One row: parmapper on `ranks` ranks for `budget` seconds."""
    progress("%s: %d rank%s, --time %g" % (case.name, ranks,
                                             "s"[ranks == 1:], budget))
    path = os.path.join(case.work, "%s.%dr.%gs.json"
                        % (case.name, ranks, budget))
    r = case.parmapper(ranks, ["--time", "%g" % budget], path)
    if r is None:
        case.problems.append(path + ": the run failed")
        print_cells([ranks, budget] + ["failed"] + [""] * 9)
        return
    s, c = r["search"], r["chosen"]
    if s["ranks"] != ranks or s["time_limit"] != budget:
        case.problem(path + ": not the run asked for (ranks, --time)")
    deflt = r["default"]["metrics"]["hop_bytes_total"]
    if deflt != case.first["default"]["metrics"]["hop_bytes_total"]:
        case.problem(path + ": another default mapping than --first's")
    for point in r["front"]:
        if point["round"] == 0:
            case.check_point(path, point)
    done = round0_done(s)
    smallest = r["front"][0]["hop_bytes_total"]
    best = case.best["hop_bytes_total"]
    if done == s["configurations"] and smallest > best:
        case.problem("%s: round 0 is complete, yet the front's smallest "
                     "total %d is above the best single's %d"
                     % (path, smallest, best))
    total = c["hop_bytes_total"]
    scotch = "%.3f" % (total / case.scotch["total"]) if case.scotch else "-"
    oversubscribed = "*" if ranks > os.cpu_count() else ""
    print_cells(["%d%s" % (ranks, oversubscribed), "%g" % budget,
                 "%.2f" % s["seconds"], "%.2f" % r["seconds"], s["runs"],
                 "%d/%d" % (done, s["configurations"]), len(r["front"]),
                 "%.2f" % c["hop_bytes_avg"], c["hop_bytes_max"],
                 "%.3f" % (total / best), scotch, "%.3f" % (total / deflt)])


def main():
    a = parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # in step with stderr
    work = a.keep or tempfile.mkdtemp(prefix="parmapper-bench.")
    os.makedirs(work, exist_ok=True)
    if os.geteuid() == 0:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    os.environ.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    cpus = os.cpu_count()
    print("bench/parmapper: parmapper's quality against --time and ranks")
    load_line("at start")
    over = [r for r in a.ranks if r > cpus]
    if over:
        print("* %s ranks on %d CPUs: oversubscribed (mpirun with "
              "rmaps_base_oversubscribe), the ranks share the CPUs"
              % (",".join(map(str, over)), cpus))
    progress("bench/mapper (GreedyMap configurations, baselines and "
             "Scotch), about a minute")
    mapper_cmd = [a.mapper, "--repeat", "1", "--keep",
                  os.path.join(work, "mapper")]
    for name in a.case:
        mapper_cmd += ["--case", name]
    failed = not run(mapper_cmd, os.path.join(work, "mapper.log"))
    for name in [] if failed else a.case:
        case = Case(name, a, work)
        if not case.make_graph():
            failed = True
            continue
        case.read_mapper_rows()
        if not case.run_refined() or not case.reference():
            failed = True
            continue
        case.describe()
        print()
        print_cells(HEADER)
        for ranks in a.ranks:
            for budget in a.budgets:
                measure(case, ranks, budget)
        for msg in case.problems:
            print("   INCONSISTENT: " + msg)
        failed |= bool(case.problems)
    print()
    load_line("at end")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
