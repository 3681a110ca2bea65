#!/usr/bin/env python3
"""Check a libcommprof profile of tests/mpi/pattern.c exactly.

  commprof_check.py pattern PROFILE          the full pattern (4 ranks)
  commprof_check.py late PROFILE             COMMPROF_START=off: only what
      follows the program's MPI_Pcontrol(1) (no p2p; the Put) is recorded
  commprof_check.py fortran PROFILE          tests/mpi/pattern_f.F90, built
      with `use mpi` or `use mpi_f08` (4 ranks)
  commprof_check.py monitoring PROFILE DIR   point-to-point and one-sided
      bytes and messages equal Open MPI's pml monitoring files DIR/prof.R.prof
      (E lines: src dst bytes msgs; S lines: one-sided)
"""
import glob
import json
import re
import sys

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, expected {want!r}")


def rows(row):
    return {dst: (b, m) for dst, b, m in row}


def check_pattern(prof):
    n = prof["world_size"]
    expect("format", (prof["format"], prof["version"]), ("topomap-commprof", 1))
    expect("world_size", n, 4)
    for rk in prof["ranks"]:
        r = rk["rank"]
        # 3 x 1000 B Sendrecv + one 24 B derived-type Send to r+1; 80 B Isend
        # to r+2; 5 persistent starts of 64 B to r+3; the 1 MiB message sent
        # with recording off must not appear.
        expect(f"rank {r} sent", rows(rk["sent"]),
               {(r + 1) % n: (3024, 4), (r + 2) % n: (80, 1), (r + 3) % n: (320, 5)})
        expect(f"rank {r} received", rows(rk["received"]),
               {(r - 1) % n: (3024, 4), (r - 2) % n: (80, 1), (r - 3) % n: (320, 5)})
        expect(f"rank {r} rma", rows(rk["rma"]), {(r + 1) % n: (20, 1)})
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        # p2p: 3 Sendrecv, Isend, Irecv, Waitall, Send_init, Recv_init,
        # 5 Startall, 5 Waitall, Send, Recv; rma: fence, Put, fence.
        expect(f"rank {r} calls", calls,
               {"p2p": 20, "alltoall": 1, "alltoallv": 1, "allreduce": 1, "bcast": 1,
                "rma": 3})
    comms = {tuple(c["members"]): c for c in prof["communicators"]}
    expect("communicators", sorted(comms), [(0, 1, 2, 3), (0, 2), (1, 3)])
    for half in [(0, 2), (1, 3)]:
        got = sorted((c["rank"], c["type"], c["calls"], c["bytes"])
                     for c in comms[half]["collectives"])
        expect(f"alltoall on {half}", got, [(m, "alltoall", 1, 32) for m in half])
    world = comms[(0, 1, 2, 3)]["collectives"]
    got = sorted((c["rank"], c["type"], c["calls"], c["bytes"], tuple(map(tuple, c.get("peers", []))))
                 for c in world)
    want = []
    for m in range(4):
        want.append((m, "allreduce", 1, 64, ()))
        # Alltoallv: i+1 ints to member i, 4 x (1+2+3+4) = 40 bytes in all.
        want.append((m, "alltoallv", 1, 40, ((0, 4), (1, 8), (2, 12), (3, 16))))
        want.append((m, "bcast", 1, 100 if m == 1 else 0,
                     ((0, 100), (2, 100), (3, 100)) if m == 1 else ()))
    expect("world collectives", got, sorted(want))


def check_late(prof):
    n = prof["world_size"]
    for rk in prof["ranks"]:
        r = rk["rank"]
        expect(f"rank {r} sent", rk["sent"], [])
        expect(f"rank {r} rma", rows(rk["rma"]), {(r + 1) % n: (20, 1)})
        expect(f"rank {r} types", sorted(rk["types"]),
               ["allreduce", "alltoall", "alltoallv", "bcast", "rma"])


def check_fortran(prof):
    n = prof["world_size"]
    expect("world_size", n, 4)
    for rk in prof["ranks"]:
        r = rk["rank"]
        # To r+1: 100 INTEGERs = 400 B (step 1) and 2 x contiguous(3
        # INTEGERs) = 24 B (step 5); to r+2: 7 DOUBLE PRECISION = 56 B
        # (step 2); to r+3: 3 INTEGERs sent from MPI_BOTTOM = 12 B (step 3)
        # and 5 starts of 16 INTEGERs = 5 x 64 B (step 4).  The 4096 B of
        # step 6 (recording off) and the Send to rank 4 (step 7, fails) add
        # nothing.
        expect(f"rank {r} sent", rows(rk["sent"]),
               {(r + 1) % n: (424, 2), (r + 2) % n: (56, 1), (r + 3) % n: (332, 6)})
        expect(f"rank {r} received", rows(rk["received"]),
               {(r - 1) % n: (424, 2), (r - 2) % n: (56, 1), (r - 3) % n: (332, 6)})
        expect(f"rank {r} rma", rows(rk["rma"]), {(r + 1) % n: (20, 1)})
        # Exactly the calls the program makes, none counted twice: p2p:
        # Send, Recv (1); Isend, Irecv, Waitall (2); Isend, Recv, Wait (3);
        # Send_init, Recv_init, 5 x (Startall, Waitall) (4; Request_free is
        # not timed); Irecv, Send, Waitany (5); the failed Send (7):
        # 2 + 3 + 3 + 12 + 3 + 1 = 24.  rma: fence, Put, fence.
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls,
               {"p2p": 24, "alltoall": 1, "allreduce": 1, "bcast": 1, "rma": 3})
    comms = {tuple(c["members"]): c for c in prof["communicators"]}
    expect("communicators", sorted(comms), [(0, 1, 2, 3), (0, 2), (1, 3)])
    # Alltoall on each half: 4 INTEGERs to each of its 2 members = 32 B.
    # Allreduce in place: 8 DOUBLE PRECISION = 64 B.  Bcast from rank 1:
    # 25 INTEGERs = 100 B to each other member.
    want = [(m, "alltoall", 1, 32, ()) for m in range(4)]
    for m in range(4):
        want.append((m, "allreduce", 1, 64, ()))
        want.append((m, "bcast", 1, 100 if m == 1 else 0,
                     ((0, 100), (2, 100), (3, 100)) if m == 1 else ()))
    got = sorted((c["rank"], c["type"], c["calls"], c["bytes"],
                  tuple(map(tuple, c.get("peers", []))))
                 for comm in comms.values() for c in comm["collectives"])
    expect("collectives", got, sorted(want))


def check_monitoring(prof, folder):
    files = sorted(glob.glob(f"{folder}/*.prof"))
    expect("monitoring files", len(files), prof["world_size"])
    mon_p2p, mon_osc = {}, {}
    section = None
    for path in files:
        for line in open(path):
            if line.startswith("# "):
                section = line[2:].strip()
                continue
            m = re.match(r"([ES])\t(\d+)\t(\d+)\t(\d+) bytes\t(\d+) msgs", line)
            if m and (m.group(1) == "E" and section == "POINT TO POINT" or
                      m.group(1) == "S" and section == "OSC"):
                table = mon_p2p if m.group(1) == "E" else mon_osc
                key = (int(m.group(2)), int(m.group(3)))
                table[key] = (int(m.group(4)), int(m.group(5)))
    ours_p2p, ours_osc = {}, {}
    for rk in prof["ranks"]:
        for dst, b, msgs in rk["sent"]:
            ours_p2p[(rk["rank"], dst)] = (b, msgs)
        for dst, b, msgs in rk["rma"]:
            ours_osc[(rk["rank"], dst)] = (b, msgs)
    mon_p2p = {k: v for k, v in mon_p2p.items() if v != (0, 0)}
    expect("point-to-point: libcommprof vs pml monitoring", ours_p2p, mon_p2p)
    expect("one-sided: libcommprof vs osc monitoring", ours_osc, mon_osc)
    if not ours_p2p:
        failures.append("no point-to-point traffic recorded at all")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in (
            "pattern", "late", "fortran", "monitoring", "p2p", "coll", "intercomm", "rma",
            "threads", "partial"):
        print(__doc__)
        return 2
    prof = json.load(open(sys.argv[2]))
    if sys.argv[1] == "pattern":
        check_pattern(prof)
    elif sys.argv[1] == "late":
        check_late(prof)
    elif sys.argv[1] == "fortran":
        check_fortran(prof)
    else:
        check_monitoring(prof, sys.argv[3])
    for f in failures:
        print("FAIL:", f)
    print(f"{sys.argv[1]}: {'ok' if not failures else 'FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
