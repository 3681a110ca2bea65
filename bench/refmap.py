#!/usr/bin/env python3
"""refmap.py: run one published process mapper for bench/mapper.

usage: refmap.py TOOL GRAPH HIERARCHY DISTANCE OUT

TOOL is kaffpa (KaHIP's kaffpa --enable_mapping, eco), multisection
(KaHIP's global_multisection, eco) or sharedmap (SharedMap through
chszlablib's Decomposition.process_map, eco).  GRAPH is a METIS file,
HIERARCHY and DISTANCE are KaHIP's strings (4:8:8, 1:10:100: the first
level innermost).  OUT receives one line per vertex, its PE (0 .. product
of HIERARCHY - 1; PE p is core p % h0 of group p / h0, and so on up).
Every tool keeps its default imbalance of 3 %, so a node may get a few
tasks more than it has slots (bench/mapper moves them, as it does
Scotch's, and prints the average before the move too): asked for 0,
kaffpa and global_multisection ran past 5 and 14 minutes on the 27-point
32^3 stencil (kaffpa: 78 s at 3 %).

Prints one line "wall CPU" (seconds): for KaHIP's programs the whole
process (start-up, reading the file, mapping, writing), for SharedMap the
process_map call alone.  Run it with a Python that has the PyPI packages
kahip and chszlablib (scripts/install-bench-deps.sh makes one).
"""
import os
import resource
import subprocess
import sys
import time


def kahip_program(name):
    """KaHIP's programs come with the kahip wheel, beside site-packages."""
    import kahip
    base = os.path.dirname(os.path.dirname(kahip.__file__))
    path = os.path.join(base, "bin", name)
    if not os.access(path, os.X_OK):
        sys.exit("refmap.py: %s not found beside the kahip package (%s)"
                 % (name, path))
    return path


def run_kahip(tool, graph, hierarchy, distance, out):
    k = 1
    for h in hierarchy.split(":"):
        k *= int(h)
    if tool == "kaffpa":
        cmd = [kahip_program("kaffpa"), graph, "--k=%d" % k,
               "--preconfiguration=eco", "--enable_mapping",
               "--hierarchy_parameter_string=" + hierarchy,
               "--distance_parameter_string=" + distance,
               "--seed=0", "--output_filename=" + out]
    else:
        cmd = [kahip_program("global_multisection"), graph,
               "--preconfiguration=eco",
               "--hierarchy_parameter_string=" + hierarchy,
               "--distance_parameter_string=" + distance,
               "--seed=0", "--output_filename=" + out]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit("refmap.py: %s failed (exit %d): %s"
                 % (os.path.basename(cmd[0]), done.returncode,
                    done.stderr.strip()[-500:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)
    return wall, cpu


def run_sharedmap(graph, hierarchy, distance, out):
    import chszlablib
    g = chszlablib.read_metis(graph)
    hier = [int(h) for h in hierarchy.split(":")]
    dist = [int(d) for d in distance.split(":")]
    c0, t0 = time.process_time(), time.monotonic()
    result = chszlablib.Decomposition.process_map(g, hier, dist, mode="eco",
                                                 threads=1, seed=0)
    wall, cpu = time.monotonic() - t0, time.process_time() - c0
    mapping = getattr(result, "assignment", None)
    if mapping is None:
        mapping = getattr(result, "mapping", None)
    if mapping is None:
        sys.exit("refmap.py: SharedMap's result has no assignment: %s"
                 % sorted(a for a in dir(result) if not a.startswith("_")))
    with open(out, "w") as f:
        for pe in mapping:
            f.write("%d\n" % int(pe))
    return wall, cpu


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if len(sys.argv) != 6 or sys.argv[1] not in ("kaffpa", "multisection",
                                                  "sharedmap"):
        sys.exit(__doc__.strip().splitlines()[2])
    tool, graph, hierarchy, distance, out = sys.argv[1:]
    if tool == "sharedmap":
        wall, cpu = run_sharedmap(graph, hierarchy, distance, out)
    else:
        wall, cpu = run_kahip(tool, graph, hierarchy, distance, out)
    print("%.6f %.6f" % (wall, cpu))


if __name__ == "__main__":
    main()
