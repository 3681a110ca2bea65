#!/usr/bin/env python3
"""Check a libcommprof profile of tests/mpi/pattern.c exactly.

  commprof_check.py pattern PROFILE          the full pattern (4 ranks)
  commprof_check.py late PROFILE             COMMPROF_START=off: only what
      follows the program's MPI_Pcontrol(1) (no p2p; the Put) is recorded
  commprof_check.py fortran PROFILE          tests/mpi/pattern_f.F90, built
      with `use mpi` or `use mpi_f08` (4 ranks)
  commprof_check.py fortran_calls PROFILE STDOUT   tests/mpi/calls_f.F90,
      every Fortran wrapper (4 ranks); STDOUT: its polls
  commprof_check.py monitoring PROFILE DIR   point-to-point and one-sided
      bytes and messages equal Open MPI's pml monitoring files DIR/prof.R.prof
      (E lines: src dst bytes msgs; S lines: one-sided); prints what was
      compared and the collectives, which are not
  commprof_check.py p2p PROFILE STDOUT       tests/mpi/p2p_all.c (4 ranks);
      STDOUT: its output, the polls of each rank
  commprof_check.py coll PROFILE             tests/mpi/coll_all.c (8 ranks)
  commprof_check.py intercomm PROFILE        tests/mpi/intercomm.c (4 ranks)
  commprof_check.py rma PROFILE STDOUT       tests/mpi/rma_all.c (4 ranks)
  commprof_check.py threads PROFILE          tests/mpi/threads.c (4 ranks)
  commprof_check.py partial FOLDER VARIANT   the partial files
      tests/mpi/abort.c VARIANT (abort, exit, signal, segv, null, stack,
      fpe, abrt, own, late) left in FOLDER
  commprof_check.py checkpoint FOLDER        the same for the kill variant
      run with COMMPROF_CHECKPOINT: rank 1's file is a checkpoint
  commprof_check.py timing PROFILE STDOUT CLOCK   tests/mpi/timing.c (4
      ranks) timed with CLOCK (tsc or monotonic); STDOUT: what each rank
      measured itself
  commprof_check.py requests PROFILE STDOUT  tests/mpi/requests.c (4
      ranks); STDOUT: its completion calls
  commprof_check.py mpi4 PROFILE STDOUT      tests/mpi/mpi4.c (4 ranks);
      STDOUT: its output, whose "blocks" line says which MPI-4 calls ran
  commprof_check.py mpi4_f PROFILE          tests/mpi/mpi4_f.F90 (4 ranks)
  commprof_check.py large PROFILE            tests/mpi/mpi4.c large (2
      ranks): 2^31 + 3 bytes from rank 0 to rank 1 with MPI_Send_c
  commprof_check.py counted PROFILE PREFIX   the profile's calls per type
      and bytes and messages sent per pair equal bench/mpicount.c's count of
      the same run (PREFIX.rankR), and each pair's received equals its sent
  commprof_check.py same PROFILE OTHER       two profiles of one
      deterministic program (two runs, two MPIs) record the same traffic:
      everything but times, hosts and point-to-point call counts (polls)
  commprof_check.py split PROFILE PREFIX    write the partial files
      PREFIX.rankR that every rank of PROFILE would leave
  commprof_check.py memkinds PROFILE STDOUT MODE   tests/mpi/memkinds.c
      (4 ranks) run with the stand-in CUDA driver loaded early, late or
      not at all (MODE none); STDOUT: what the stand-in was asked
"""
import glob
import json
import time
import os
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
    # Alltoall on each half: 4 INTEGERs to each of its 2 members = 32 B.
    # Allreduce in place: 8 DOUBLE PRECISION = 64 B.  Bcast from rank 1:
    # 25 INTEGERs = 100 B to each other member.
    world = {(m, "allreduce"): (1, 64, {}) for m in range(n)}
    world.update({(m, "bcast"): (1, 0, {}) for m in range(n)})
    world[(1, "bcast")] = (1, 100, {0: 100, 2: 100, 3: 100})
    expect_records(prof, {
        (tuple(range(n)), ()): world,
        **{(half, ()): {(m, "alltoall"): (1, 32, {}) for m in half} for half in [(0, 2), (1, 3)]}})


def check_fortran_calls(prof, stdout):
    n = prof["world_size"]
    expect("world_size", n, 4)
    loops = polls(stdout)
    rma_loops = {int(m.group(1)): int(m.group(2)) for m in
                 re.finditer(r"^rank (\d+) rma_polls (\d+)$", open(stdout).read(), re.M)}
    expect("ranks reporting polls", (sorted(loops), sorted(rma_loops)), (list(range(n)),) * 2)
    colls = ["bcast", "reduce", "allreduce", "alltoall", "alltoallv", "alltoallw", "allgather",
             "allgatherv", "gather", "gatherv", "scatter", "scatterv", "reduce_scatter",
             "reduce_scatter_block", "scan", "exscan", "neighbor_allgather",
             "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv",
             "neighbor_alltoallw"]
    world = {}
    for rk in prof["ranks"]:
        r = rk["rank"]
        nb, odd, left, right = r ^ 1, r % 2, (r - 1) % n, (r + 1) % n
        # One INTEGER (4 B) per message, 25 each way with the partner: 4
        # send modes, 4 nonblocking ones, Sendrecv, Sendrecv_replace,
        # Send/Recv, 4 persistent sends, Probe, Iprobe, Mprobe, Improbe, and
        # one for each of Test, Testall, Waitany, Testany, Waitsome, Testsome.
        expect(f"rank {r} sent", rows(rk["sent"]), {nb: (100, 25)})
        expect(f"rank {r} received", rows(rk["received"]), {nb: (100, 25)})
        # One INTEGER per operation: to r+1 Put, Get, Accumulate; to r+2
        # Get_accumulate, Fetch_and_op, Compare_and_swap; to r+3 Rput,
        # Rget, Raccumulate, Rget_accumulate, and the Put to the partner
        # under post/start: an odd rank's to r-1 = r+3, then an even
        # rank's to r+1.
        even = 1 - odd
        expect(f"rank {r} rma", rows(rk["rma"]),
               {right: (12 + 4 * even, 3 + even), (r + 2) % n: (12, 3),
                (r + 3) % n: (16 + 4 * odd, 4 + odd)})
        # Each call once.  p2p: send modes 4 x (Irecv, send, Wait) 12;
        # nonblocking 4 Irecv + 4 sends + Waitall 9; Sendrecv,
        # Sendrecv_replace, Send, Recv 4; persistent 8 inits, Startall,
        # Start, Startall, Waitall 12 (Request_free is not timed); Isend
        # Probe Recv Wait 4; Isend Recv Wait 3 and the Iprobe polls; Isend
        # Mprobe Mrecv Wait 4; Isend Imrecv Wait Wait 4 and the Improbe
        # polls; Irecv Send 2 and the Test polls; for each of Testall,
        # Waitany, Testany, Waitsome, Testsome an Irecv and an Isend 10, and
        # 2 Waitany; the other completion calls are polls.  12 + 9 + 4 + 12
        # + 4 + 3 + 4 + 4 + 2 + 10 + 2 = 66.  rma: fence, 3 ops, fence 5;
        # lock, 3 ops, flush, flush_local, unlock 7; lock_all, 4 ops,
        # Waitall (its requests are one-sided), flush_all, flush_local_all,
        # unlock_all 9; then an odd rank start, Put, complete 3, an even
        # rank post and its Win_test polls; then the other way, an odd
        # rank post and Win_wait 2, an even rank start, Put, complete 3.  barrier: 7 in the
        # point-to-point part, Barrier and Ibarrier, 3 in the one-sided
        # part, and the Ibarrier's Wait.  Each collective: blocking,
        # nonblocking and its Wait.
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {
            "p2p": 66 + loops.get(r, 0), "rma": 21 + (3 + 2 if odd else 1 + rma_loops.get(r, 0) + 3),
            "barrier": 13, **{t: 3 for t in colls}})
        # Collective records (calls, bytes, {peer: bytes}), all on
        # communicators with the world's members.  Roots: Bcast 0, Ibcast 1;
        # Reduce 2, Ireduce 3 in place; Gather 0, Igather 1 in place;
        # Gatherv 2, Igatherv 3 in place; Scatter 0, Iscatter 1 in place;
        # Scatterv 2, Iscatterv 3 in place.  A root's Bcast is one block; a
        # root's scatter buffer is 4 blocks, in place or not; an in-place
        # gather root's is its own block (the receive count), as not in
        # place, sent to no one.  Alltoall(v,w) and Reduce_scatter: 4 B
        # to each member per call.  Neighbourhoods: the ring's left and
        # right neighbours; Neighbor_allgather(v) counts one block, the
        # alltoalls a block per neighbour; Neighbor_alltoallw goes to
        # r+1 and from rank 0 to 2 as well.
        def others(root):
            return {i: 4 for i in range(n) if i != root} if r == root else {}
        def to(root):
            return {} if r == root else {root: 4}
        out = [right] + ([2] if r == 0 else [])
        rec = {
            "barrier": (12, 0, {}),
            "bcast": (2, 4 if r in (0, 1) else 0, add_peers(others(0), others(1))),
            "reduce": (2, 8, add_peers(to(2), to(3))),
            "allreduce": (2, 8, {}),
            "alltoall": (2, 32, {}),
            "alltoallv": (2, 32, {i: 8 for i in range(n)}),
            "alltoallw": (2, 32, {i: 8 for i in range(n)}),
            "allgather": (2, 8, {}),
            "allgatherv": (2, 8, {}),
            "gather": (2, 8, add_peers(to(0), to(1))),
            "gatherv": (2, 8, add_peers(to(2), to(3))),
            "scatter": (2, 16 if r in (0, 1) else 0, add_peers(others(0), others(1))),
            "scatterv": (2, 16 if r in (2, 3) else 0, add_peers(others(2), others(3))),
            "reduce_scatter": (2, 32, {i: 8 for i in range(n)}),
            "reduce_scatter_block": (2, 32, {}),
            "scan": (2, 8, {}),
            "exscan": (2, 8, {}),
            "neighbor_allgather": (2, 8, {left: 8, right: 8}),
            "neighbor_allgatherv": (2, 8, {left: 8, right: 8}),
            "neighbor_alltoall": (2, 16, {left: 8, right: 8}),
            "neighbor_alltoallv": (2, 16, {left: 8, right: 8}),
            "neighbor_alltoallw": (2, 8 * len(out), {o: 8 for o in out}),
        }
        world.update({(r, t): v for t, v in rec.items()})
    expect_records(prof, {(tuple(range(n)), ()): world})


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
    # Open MPI 4.1 counts the messages inside a blocking MPI_Alltoallv as
    # user point-to-point (E lines) and those of every other collective,
    # MPI_Ialltoallv included, apart (I lines): only a program without
    # Alltoallv can agree exactly.
    calls = {}
    for comm in prof["communicators"]:
        for rec in comm["collectives"]:
            calls[rec["type"]] = calls.get(rec["type"], 0) + rec["calls"]
    print(f"compared: {len(ours_p2p)} point-to-point pairs, "
          f"{sum(b for b, _ in ours_p2p.values())} bytes, "
          f"{sum(m for _, m in ours_p2p.values())} messages; "
          f"{len(ours_osc)} one-sided pairs")
    print("collectives, not compared (calls summed over ranks): " +
          (", ".join(f"{t} {n}" for t, n in sorted(calls.items())) or "none"))
    if "alltoallv" in calls and ours_p2p != mon_p2p:
        failures.append("the program calls MPI_Alltoallv, whose messages Open MPI's "
                        "monitoring counts as user point-to-point")


# bench/mpicount.c's functions that libcommprof charges to p2p; the others
# are collectives of the type of their lower-case name.
MPICOUNT_P2P = {"MPI_Send", "MPI_Rsend", "MPI_Isend", "MPI_Sendrecv", "MPI_Recv",
                "MPI_Irecv", "MPI_Testall", "MPI_Waitall"}


def check_counted(prof, prefix):
    sent_total = {}
    for rk in prof["ranks"]:
        r = rk["rank"]
        calls, sent = {}, {}
        for line in open(f"{prefix}.rank{r}"):
            f = line.split()
            if f[0] == "call":
                t = "p2p" if f[1] in MPICOUNT_P2P else f[1][4:].lower()
                calls[t] = calls.get(t, 0) + int(f[2])
            else:
                sent[int(f[1])] = (int(f[2]), int(f[3]))
        expect(f"rank {r} calls per type vs mpicount",
               {t: v["calls"] for t, v in rk["types"].items() if v["calls"]}, calls)
        expect(f"rank {r} sent vs mpicount", rows(rk["sent"]), sent)
        for dst, b, m in rk["sent"]:
            sent_total[(r, dst)] = (b, m)
    received = {(src, rk["rank"]): (b, m) for rk in prof["ranks"]
                for src, b, m in rk["received"]}
    expect("received per pair vs sent per pair", received, sent_total)
    print(f"compared with mpicount: {len(sent_total)} pairs, "
          f"{sum(b for b, _ in sent_total.values())} bytes, "
          f"{sum(m for _, m in sent_total.values())} messages; calls per type (all ranks): " +
          ", ".join(f"{t} {n}" for t, n in sorted(type_calls(prof).items())))


def type_calls(prof):
    out = {}
    for rk in prof["ranks"]:
        for t, v in rk["types"].items():
            out[t] = out.get(t, 0) + v["calls"]
    return out


def traffic(prof):
    """What a deterministic program's profile must repeat: per rank the
    bytes and messages of each pair and memory kind and the calls of each
    collective type; per communicator the collective records, times left
    out.  Point-to-point calls are left out: they include the polls
    (MPI_Testall until a request completes), as many as the timing makes."""
    ranks = {rk["rank"]: {"sent": rk["sent"], "received": rk["received"], "rma": rk["rma"],
                          "sent_by_kind": rk["sent_by_kind"],
                          "calls": {t: v["calls"] for t, v in rk["types"].items() if t != "p2p"}}
             for rk in prof["ranks"]}
    comms = {(tuple(c["members"]), tuple(c.get("remote", ()))):
             sorted(tuple(sorted((k, json.dumps(v)) for k, v in rec.items() if k != "ns"))
                    for rec in c["collectives"])
             for c in prof["communicators"]}
    return prof["world_size"], ranks, comms


def check_same(prof, other):
    a, b = traffic(prof), traffic(other)
    expect("world_size", a[0], b[0])
    for r in sorted(set(a[1]) | set(b[1])):
        for k in ("sent", "received", "rma", "sent_by_kind", "calls"):
            expect(f"rank {r} {k}", a[1].get(r, {}).get(k), b[1].get(r, {}).get(k))
    expect("communicators (members)", sorted(a[2]), sorted(b[2]))
    for c in sorted(set(a[2]) & set(b[2])):
        expect(f"collective records on {list(c[0])}", a[2][c], b[2][c])
    print(f"same traffic: {len(a[1])} ranks, {len(a[2])} communicators, "
          f"{sum(x[1] for rk in a[1].values() for x in rk['sent'])} bytes sent point-to-point")


def records(prof):
    """{(members, remote): {(rank, type): (calls, bytes, {peer: bytes})}}"""
    out = {}
    for c in prof["communicators"]:
        key = (tuple(c["members"]), tuple(c.get("remote", ())))
        recs = out.setdefault(key, {})
        for rec in c["collectives"]:
            recs[(rec["rank"], rec["type"])] = (rec["calls"], rec["bytes"],
                                               dict(map(tuple, rec.get("peers", []))))
    return out


def expect_records(prof, want):
    """The profile's collective records equal want (as records() gives
    them); a difference is reported per record."""
    got = records(prof)
    for comm in sorted(set(got) | set(want)):
        g, w = got.get(comm, {}), want.get(comm, {})
        name = f"communicator {list(comm[0])}" + (f" remote {list(comm[1])}" if comm[1] else "")
        for key in sorted(set(g) | set(w)):
            expect(f"{name} rank {key[0]} {key[1]} (calls, bytes, peers)",
                   g.get(key), w.get(key))


def polls(stdout):
    """The "rank R polls P" lines a test program printed."""
    got = {}
    for line in open(stdout):
        m = re.match(r"rank (\d+) polls (\d+)$", line.strip())
        if m:
            got[int(m.group(1))] = int(m.group(2))
    return got


def add_peers(*parts):
    total = {}
    for part in parts:
        for peer, b in part.items():
            total[peer] = total.get(peer, 0) + b
    return total


def check_p2p(prof, stdout):
    """tests/mpi/p2p_all.c on 4 ranks."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    loops = polls(stdout)
    expect("ranks reporting polls", sorted(loops), list(range(n)))
    # Rank r to next = r+1 on MPI_COMM_WORLD, [bytes, messages] per step:
    to_next = [
        (10, 1), (20, 1), (30, 1), (40, 1),  # 1-4: Send, Isend, Bsend, Ibsend
        (50, 1), (60, 1), (70, 1), (80, 1),  # 5-8: Ssend, Issend, Rsend, Irsend
        (90, 1), (100, 1),                   # 9-10: Sendrecv, Sendrecv_replace
        # 11: Send_init, Bsend_init, Ssend_init, Rsend_init, two starts each
        (2 * 110, 2), (2 * 120, 2), (2 * 130, 2), (2 * 140, 2),
        (150, 1), (160, 1), (170, 1), (180, 1),  # 12-14: the Isends
    ]  # 2210 B in 22 messages; step 15 (MPI_PROC_NULL) adds nothing
    nb = sum(b for b, _ in to_next)
    nm = sum(m for _, m in to_next)
    # Step 16 sends 2 x vector(3 blocks of 2 ints) = 2 x 24 B (the type's
    # size, not its 40 B extent) to comm rank +1 of the reversed
    # communicator, which is world rank r-1.
    for rk in prof["ranks"]:
        r = rk["rank"]
        nxt, prv = (r + 1) % n, (r - 1) % n
        expect(f"rank {r} sent", rows(rk["sent"]), {nxt: (nb, nm), prv: (48, 1)})
        # Every receive counted from its status, ignored or not, ANY_SOURCE,
        # persistent, matched (Mrecv, Imrecv) or completed by any Wait/Test;
        # the cancelled one of step 17 not at all.
        expect(f"rank {r} received", rows(rk["received"]),
               {prv: (nb, nm), nxt: (48, 1)})
        expect(f"rank {r} rma", rk["rma"], [])
        # p2p calls per step: 1: Irecv Send Wait (3); 2: Isend Recv Wait (3);
        # 3: Bsend Recv (2); 4: Irecv Ibsend Waitall (3); 5-8: Irecv and the
        # send (2 each, 8) + the polls; 9, 10: 1 each; 11: Startall, 4 Start,
        # 8 Waitany, 2 Startall (15; the 8 inits are not recorded, made
        # between MPI_Pcontrol(0) and (1)) + the Waitsome polls (the
        # Request_free are not timed); 12: Isend Mprobe Mrecv Wait (4);
        # 13: Isend Imrecv Waitall (3) + the Improbe polls; 14: Isend Probe
        # Recv Isend Recv Waitall (6) + the Iprobe polls; 15: Send, Isend,
        # Wait, Recv, Mprobe, Mrecv (6); 16: Irecv Send Wait (3); 17: Irecv
        # Wait (2; MPI_Cancel is not timed); 18: the failed Send (1, timed,
        # no bytes).
        # 3+3+2+3+8+1+1+15+4+3+6+6+3+2+1 = 61.  Barrier: steps 7, 8 and the
        # two rounds of 11.
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {"p2p": 61 + loops.get(r, 0), "barrier": 4})
    expect_records(prof, {(tuple(range(n)), ()): {(m, "barrier"): (4, 0, {}) for m in range(n)}})


def coll_world(r, n):
    """What rank r records on MPI_COMM_WORLD in tests/mpi/coll_all.c:
    {type: (calls, bytes, peers)}; ints 4 B, doubles 8 B."""
    others = [i for i in range(n)]
    def to_all_but(me, b):
        return {i: b for i in others if i != me}
    rec = {}
    rec["barrier"] = (2, 0, {})
    # Bcast 100 B from 0, Ibcast 5 ints = 20 B from 1: the root's buffer,
    # sent to every other member.
    rec["bcast"] = (2, {0: 100, 1: 20}.get(r, 0),
                    to_all_but(0, 100) if r == 0 else to_all_but(1, 20) if r == 1 else {})
    # Reduce 4 doubles (32 B) to 2, Ireduce 4 ints (16 B) to 3: every
    # member's count, in place at the root too; sent to the root by others.
    rec["reduce"] = (2, 48, add_peers({2: 32} if r != 2 else {}, {3: 16} if r != 3 else {}))
    rec["allreduce"] = (2, 64 + 8, {})  # 8 doubles; 2 ints in place
    rec["alltoall"] = (3, 16 * n + 8 * n + 4 * n, {})  # 4 ints, 2 in place, 1
    # Alltoallv i+1 ints, in place 1+(r+i)%2 ints, Ialltoallv (r+i)%3 ints.
    av = {i: 4 * (i + 1) + 4 * (1 + (r + i) % 2) + 4 * ((r + i) % 3) for i in range(n)}
    rec["alltoallv"] = (3, sum(av.values()), {i: b for i, b in av.items() if b})
    # Alltoallw: 1 then 2 elements to i, an int (4 B) to even i, a double
    # (8 B) to odd i: 12 or 24 B.
    aw = {i: 3 * (4 if i % 2 == 0 else 8) for i in range(n)}
    rec["alltoallw"] = (2, sum(aw.values()), aw)
    rec["allgather"] = (2, 12 + 8, {})  # 3 ints; 2 ints in place
    rec["allgatherv"] = (2, 4 * (r + 1) + 8, {})  # r+1 ints; 2 in place
    # Gather 5 ints to 0; Igather 1 double to 1, in place at the root (its
    # own block, the receive count: 8 B, as not in place).
    rec["gather"] = (2, 20 + 8,
                     add_peers({0: 20} if r != 0 else {}, {1: 8} if r != 1 else {}))
    # Gatherv r+1 ints to 2; Igatherv 2 ints to 3.
    rec["gatherv"] = (2, 4 * (r + 1) + 8,
                      add_peers({2: 4 * (r + 1)} if r != 2 else {}, {3: 8} if r != 3 else {}))
    # Scatter 3 ints each from 0 (its buffer: n blocks); Iscatter 1 int each
    # from 1, in place there (its buffer is still n blocks).
    rec["scatter"] = (2, {0: 12 * n, 1: 4 * n}.get(r, 0),
                      to_all_but(0, 12) if r == 0 else to_all_but(1, 4) if r == 1 else {})
    # Scatterv i+1 ints to i from 2; Iscatterv 1 double each from 3.
    sv = {i: 4 * (i + 1) for i in range(n) if i != 2}
    rec["scatterv"] = (2, {2: 4 * n * (n + 1) // 2, 3: 8 * n}.get(r, 0),
                       sv if r == 2 else to_all_but(3, 8) if r == 3 else {})
    # Reduce_scatter i+1 ints to i; Ireduce_scatter in place, 1 double each.
    rs = {i: 4 * (i + 1) + 8 for i in range(n)}
    rec["reduce_scatter"] = (2, sum(rs.values()), rs)
    rec["reduce_scatter_block"] = (2, 8 * n + 4 * n, {})  # 2 ints; 1 in place
    rec["scan"] = (2, 12 + 4, {})  # 3 ints; 1 in place
    rec["exscan"] = (2, 16 + 4, {})  # 2 doubles; 1 int in place
    # Neighbourhoods on the dims_create grid (4 x 2 at 8 ranks, rank =
    # 2x + y): -x, +x and the y neighbour, which is both -y and +y.
    nx, ny = dims2(n)
    x, y = divmod(r, ny)
    mx, px = ((x - 1) % nx) * ny + y, ((x + 1) % nx) * ny + y
    yn = x * ny + (1 - y)
    # The y-open grid has no -x neighbour at x = 0, no +x at x = nx-1.
    omx = {mx: 1} if x > 0 else {}
    opx = {px: 1} if x < nx - 1 else {}
    def scaled(part, b):
        return {k: v * b for k, v in part.items()}
    graph = [(r - 1) % n, (r + 1) % n, (r + n // 2) % n]
    dist = [(r + 1) % n, (r + 3) % n]
    # Periodic grid Neighbor_allgather 3 ints: 12 B to each of the four
    # blocks (the y neighbour twice); the buffer is one block.  Open grid
    # Ineighbor_allgather 1 double: 8 B to each existing neighbour.
    rec["neighbor_allgather"] = (2, 12 + 8, add_peers(
        {mx: 12}, {px: 12}, {yn: 24}, scaled(omx, 8), scaled(opx, 8), {yn: 16}))
    # Open grid Neighbor_allgatherv 1 int; graph Ineighbor_allgatherv 2 ints.
    rec["neighbor_allgatherv"] = (2, 4 + 8, add_peers(
        scaled(omx, 4), scaled(opx, 4), {yn: 8}, *({g: 8} for g in graph)))
    # Periodic grid Neighbor_alltoall 1 int per block (4 blocks, 16 B);
    # graph 1 double to each of 3 (24 B); dist-graph Ineighbor_alltoall
    # 1 int to each of 2 (8 B).
    rec["neighbor_alltoall"] = (3, 16 + 24 + 8, add_peers(
        {mx: 4}, {px: 4}, {yn: 8}, *({g: 8} for g in graph), *({d: 4} for d in dist)))
    # Periodic grid Neighbor_alltoallv 1, 2, 3, 3 ints (36 B); dist-graph
    # Ineighbor_alltoallv 2, 1 ints (12 B).
    rec["neighbor_alltoallv"] = (2, 36 + 12, add_peers(
        {mx: 4}, {px: 8}, {yn: 24}, {dist[0]: 8}, {dist[1]: 4}))
    # Periodic grid Ineighbor_alltoallw 1 int, 2 ints, 1 double, 1 double
    # (28 B); dist-graph Neighbor_alltoallw 1 int, 2 ints (12 B).
    rec["neighbor_alltoallw"] = (2, 28 + 12, add_peers(
        {mx: 4}, {px: 8}, {yn: 16}, {dist[0]: 4}, {dist[1]: 8}))
    return rec


def dims2(n):
    """MPI_Dims_create(n, 2): the most square split, larger first."""
    d = max(i for i in range(1, int(n ** 0.5) + 1) if n % i == 0)
    return n // d, d


def check_coll(prof):
    """tests/mpi/coll_all.c on 8 ranks."""
    n = prof["world_size"]
    expect("world_size", n, 8)
    want = {}
    world = want.setdefault((tuple(range(n)), ()), {})
    for r in range(n):
        for t, v in coll_world(r, n).items():
            world[(r, t)] = v
    # The halves from Comm_split(r % 2, key -r): members in decreasing
    # world rank.  Bcast 10 B from comm rank 0; Alltoallv i+1 bytes to comm
    # rank i (1+2+3+4 = 10 B at 4 members); Allreduce 1 int.
    for color in (0, 1):
        members = tuple(sorted(range(color, n, 2), reverse=True))
        recs = want.setdefault((members, ()), {})
        for hr, m in enumerate(members):
            k = len(members)
            recs[(m, "bcast")] = (1, 10 if hr == 0 else 0,
                                  {i: 10 for i in range(1, k)} if hr == 0 else {})
            recs[(m, "alltoallv")] = (1, k * (k + 1) // 2, {i: i + 1 for i in range(k)})
            recs[(m, "allreduce")] = (1, 4, {})
    expect_records(prof, want)
    for rk in prof["ranks"]:
        r = rk["rank"]
        # Type calls: the record's calls, plus one MPI_Wait per nonblocking
        # call (all on the world but three blocking calls on the halves).
        nonblocking = {"barrier": 1, "bcast": 1, "reduce": 1, "allreduce": 1,
                       "alltoall": 1, "alltoallv": 1, "alltoallw": 1, "allgather": 1,
                       "allgatherv": 1, "gather": 1, "gatherv": 1, "scatter": 1,
                       "scatterv": 1, "reduce_scatter": 1, "reduce_scatter_block": 1,
                       "scan": 1, "exscan": 1, "neighbor_allgather": 1,
                       "neighbor_allgatherv": 1, "neighbor_alltoall": 1,
                       "neighbor_alltoallv": 1, "neighbor_alltoallw": 1}
        halves = {"bcast": 1, "alltoallv": 1, "allreduce": 1}
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls,
               {t: c + nonblocking[t] + halves.get(t, 0)
                for t, (c, _, _) in coll_world(r, n).items()})
        expect(f"rank {r} point-to-point", (rk["sent"], rk["received"], rk["rma"]),
               ([], [], []))


def check_intercomm(prof):
    """tests/mpi/intercomm.c on 4 ranks: evens {0, 2} and odds {1, 3}."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    for rk in prof["ranks"]:
        r = rk["rank"]
        # 40 B to remote rank r/2, world rank r^1; from ANY_SOURCE, which
        # the status resolves in the remote group.
        expect(f"rank {r} sent", rows(rk["sent"]), {r ^ 1: (40, 1)})
        expect(f"rank {r} received", rows(rk["received"]), {r ^ 1: (40, 1)})
        # p2p: Isend Recv Wait; bcast: Bcast, Ibcast and its Wait.
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {"p2p": 3, "bcast": 3, "gather": 1, "allgather": 1,
                                         "reduce_scatter": 1, "reduce_scatter_block": 1})
    # Peers of an intercommunicator's records are remote-group ranks.
    # Bcast 24 B from world 0 (MPI_ROOT) to both odd ranks; Ibcast 12 B
    # from world 3 to both even ranks; the others (MPI_PROC_NULL or the
    # receiving group) send nothing.  Gather: the even ranks send 4 ints
    # (16 B) to remote rank 0 (world 1); world 1 (MPI_ROOT, send count 7
    # not significant) and world 3 (MPI_PROC_NULL) send nothing.
    # Allgather: everyone's 2 ints (8 B).
    want = {
        ((0, 2), (1, 3)): {
            (0, "bcast"): (2, 24, {0: 24, 1: 24}), (2, "bcast"): (2, 0, {}),
            (0, "gather"): (1, 16, {0: 16}), (2, "gather"): (1, 16, {0: 16}),
            (0, "allgather"): (1, 8, {}), (2, "allgather"): (1, 8, {})},
        ((1, 3), (0, 2)): {
            (1, "bcast"): (2, 0, {}), (3, "bcast"): (2, 12, {0: 12, 1: 12}),
            (1, "gather"): (1, 0, {}), (3, "gather"): (1, 0, {}),
            (1, "allgather"): (1, 8, {}), (3, "allgather"): (1, 8, {})},
        # Reduce_scatter(_block) between {0} and {1, 2, 3}: 6 ints (24 B)
        # each, counted from the local group's counts; no peers.
        ((0,), (1, 2, 3)): {
            (0, "reduce_scatter"): (1, 24, {}),
            (0, "reduce_scatter_block"): (1, 24, {})},
        ((1, 2, 3), (0,)): {
            (m, t): (1, 24, {}) for m in (1, 2, 3)
            for t in ("reduce_scatter", "reduce_scatter_block")},
    }
    expect_records(prof, want)


def check_rma(prof, stdout):
    """tests/mpi/rma_all.c on 4 ranks."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    loops = polls(stdout)
    expect("ranks reporting polls", sorted(loops), list(range(n)))
    for rk in prof["ranks"]:
        r = rk["rank"]
        odd = r % 2
        # [target, bytes, operations], origin count x 4 B:
        # r+1 under fence: Put 5 + Get 3 + Accumulate 2 ints = 40 B, 3;
        # r+2 under lock: Get_accumulate 4 + Fetch_and_op 1 +
        #   Compare_and_swap 1 = 24 B, 3;
        # r+3 under lock_all: Rput 6 + Rget 7 + Raccumulate 1 +
        #   Rget_accumulate 2 = 64 B, 4;
        # PSCW: an odd rank puts 10 ints (40 B) at r-1 = r+3, an even rank
        #   3 ints (12 B) at r+1.
        want = {(r + 1) % n: (40 + (0 if odd else 12), 3 + (0 if odd else 1)),
                (r + 2) % n: (24, 3),
                (r + 3) % n: (64 + (40 if odd else 0), 4 + (1 if odd else 0))}
        expect(f"rank {r} rma", rows(rk["rma"]), want)
        expect(f"rank {r} p2p", (rk["sent"], rk["received"]), ([], []))
        # Calls: 2 fences + 3 ops; lock + 3 ops + unlock; lock_all + 4 ops +
        # Waitall (charged to rma: its requests are one-sided) + 4 flushes +
        # unlock_all: 5 + 5 + 11 = 21.  PSCW: accessing (start, Put,
        # complete) 3, exposing with wait (post, wait) 2, with test (post and
        # the Win_test polls).
        pscw = 3 + (1 + loops.get(r, 0) if odd else 2)
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {"rma": 21 + pscw})
    expect("communicators", prof["communicators"], [])


def check_threads(prof):
    """tests/mpi/threads.c on 4 ranks, 4 threads each."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    for rk in prof["ranks"]:
        r = rk["rank"]
        # 100 messages of 8(t+1) B from each thread t: 100 x (8+16+24+32)
        # = 8000 B in 400 messages; calls: 400 x (Irecv, Send, Wait).
        expect(f"rank {r} sent", rows(rk["sent"]), {(r + 1) % n: (8000, 400)})
        expect(f"rank {r} received", rows(rk["received"]), {(r - 1) % n: (8000, 400)})
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {"p2p": 1200, "allreduce": 20, "alltoallv": 4})
    # Each thread's 5 Allreduce of 1 double and one Alltoallv of i+1 B to
    # member i, on four communicators with the same members: one record.
    expect_records(prof, {(tuple(range(n)), ()): {
        **{(m, "allreduce"): (20, 160, {}) for m in range(n)},
        **{(m, "alltoallv"): (4, 40, {i: 4 * (i + 1) for i in range(n)}) for m in range(n)}}})


def check_partial(folder, variant):
    """The files tests/mpi/abort.c leaves in FOLDER (4 ranks)."""
    n = 4
    # Rank 3 recorded nothing (MPI_Pcontrol(2)); in the signal variant rank
    # 2's own SIGTERM handler wrote a mark instead of a partial file; in the
    # late variant rank 1's own SIGSEGV handler, installed after MPI_Init,
    # replaced libcommprof's (and wrote a mark); in the own variant the
    # application's handler, installed before, ran after libcommprof's.
    ranks = {"signal": [0, 1], "late": [0, 2]}.get(variant, [0, 1, 2])
    marks = ("signal", "own", "late")
    if os.environ.get("COMMPROF_SURVIVORS") == "killed" and variant != "kill":
        # The launcher (MPICH's Hydra) ends the other ranks with SIGKILL,
        # which no handler sees: only rank 1, which ended, leaves its file
        # (and, in the own and late variants, its handler's mark).  In the
        # kill variant every rank leaves its checkpoint.
        ranks = [r for r in ranks if r == 1]
        marks = ("own", "late")
    names = [f"prof.json.rank{r}" for r in ranks]
    if variant in marks:
        names.append("prof.json.own")
    files = sorted(os.listdir(folder))
    if variant == "kill":
        # SIGKILL may come in the middle of a checkpoint: the hidden
        # temporary it was writing stays (the file before it is whole).
        files = [f for f in files if not re.fullmatch(r"\.prof\.json\.rank[0-2]\.[0-9]+\.ckpt", f)]
    expect("files (none hidden, no final profile)", files, sorted(names))
    # One job: every rank's partial file carries the id rank 0 drew at
    # MPI_Init (16 hex digits), its start time and host.
    jobs = set()
    for r in ranks:
        path = f"{folder}/prof.json.rank{r}"
        if os.path.exists(path):
            job = json.load(open(path)).get("job")
            expect(f"rank {r} job members", sorted(job or {}), ["host", "id", "start"])
            if job:
                expect(f"rank {r} job id", bool(re.fullmatch("[0-9a-f]{16}", job["id"])), True)
                expect(f"rank {r} job start", isinstance(job["start"], int) and
                       abs(job["start"] - time.time()) < 600, True)
                jobs.add((job["id"], job["start"], job["host"]))
    expect("one job across the ranks", len(jobs), 1 if ranks else 0)
    for r in ranks:
        path = f"{folder}/prof.json.rank{r}"
        if not os.path.exists(path):
            continue
        prof = json.load(open(path))
        expect(f"rank {r} members", list(prof)[:3], ["format", "version", "partial"])
        expect(f"rank {r} header", (prof["format"], prof["version"], prof["partial"],
                                    prof["world_size"]), ("topomap-commprof", 1, True, n))
        expect(f"rank {r} ranks", [rk["rank"] for rk in prof["ranks"]], [r])
        rk = prof["ranks"][0]
        # 3 Sendrecv of 100(r+1) B to r+1; from r-1, 100 x its rank+1.
        prev = (r - 1) % n
        expect(f"rank {r} sent", rows(rk["sent"]), {(r + 1) % n: (300 * (r + 1), 3)})
        expect(f"rank {r} received", rows(rk["received"]), {prev: (300 * (prev + 1), 3)})
        calls = {t: v["calls"] for t, v in rk["types"].items()}
        expect(f"rank {r} calls", calls, {"p2p": 3, "allreduce": 1, "bcast": 1})
        # Allreduce of 2 ints on the world; Bcast of 16 B on the half from
        # its comm rank 0 (world 0 or 1) to the other member.
        half = (r % 2, r % 2 + 2)
        root = r in (0, 1)
        expect_records(prof, {
            (tuple(range(n)), ()): {(r, "allreduce"): (1, 8, {})},
            (half, ()): {(r, "bcast"): (1, 16 if root else 0, {1: 16} if root else {})}})


def printed(stdout):
    """The "rank R NAME VALUE NAME VALUE ..." lines a test program printed:
    {R: {NAME: VALUE}}."""
    got = {}
    for line in open(stdout):
        words = line.split()
        if len(words) > 2 and words[0] == "rank" and len(words) % 2 == 0:
            got[int(words[1])] = {k: int(v) for k, v in zip(words[2::2], words[3::2])}
    return got


def check_timing(prof, stdout, clock):
    """tests/mpi/timing.c on 4 ranks: only intervals that contain one
    another are compared, so no figure depends on the machine's speed.
    With CLOCK_MONOTONIC the program's and the profile's intervals nest
    exactly; TSC ticks are converted at a rate measured over the run, and
    NTP may slew CLOCK_MONOTONIC (at most 500 ppm) at another rate during
    one interval than over the whole run, so those comparisons allow 0.2%.
    """
    tol = 0 if clock == "monotonic" else 2e-3
    n = prof["world_size"]
    expect("world_size", n, 4)
    seen = printed(stdout)
    expect("ranks that printed", sorted(seen), list(range(n)))
    # The operation sleeps inside the calls: some rank applies it in the
    # allreduces and in the reduce (else the test proves nothing).
    for t in ("allreduce", "reduce"):
        expect(f"operation applied in the {t}", sum(v[f"{t}_ops"] for v in seen.values()) > 0,
               True)
    world = {(c["rank"], c["type"]): c for comm in prof["communicators"]
             if comm["members"] == list(range(n)) for c in comm["collectives"]}

    def within(what, low, got, high):
        expect(f"{what}: {low} <= {got} <= {high}",
               low * (1 - tol) <= got <= high * (1 + tol), True)

    for rk in prof["ranks"]:
        r = rk["rank"]
        if r not in seen:
            continue
        me, types = seen[r], rk["types"]
        wall, mpi = rk["wall_ns"], rk["mpi_ns"]
        # Barrier; 3 Allreduce, Iallreduce and its Wait; Reduce.
        expect(f"rank {r} calls", {t: v["calls"] for t, v in types.items()},
               {"barrier": 1, "allreduce": 5, "reduce": 1})
        expect(f"rank {r} types' ns add up to mpi_ns", sum(v["ns"] for v in types.values()), mpi)
        expect(f"rank {r} mpi_ns {mpi} <= wall_ns {wall}", mpi <= wall, True)
        # Init to Finalize in the profile lies between the program's times
        # from after MPI_Init to before MPI_Finalize and from before MPI_Init
        # to after MPI_Finalize.
        within(f"rank {r} wall_ns", me["inner"], wall, me["outer"])
        expect(f"rank {r} wall - mpi {wall - mpi} covers the {me['compute']} ns slept "
               "outside MPI", wall - mpi >= me["compute"] * (1 - tol), True)
        for t in ("barrier", "allreduce", "reduce"):
            # The sleeps inside the calls <= their time <= the time around.
            within(f"rank {r} {t} ns", me.get(f"{t}_inside", 0), types[t]["ns"],
                   me[f"{t}_around"])
            # All on MPI_COMM_WORLD: the communicator's record has the same
            # time as the type, the Wait of the Iallreduce included.
            expect(f"rank {r} {t} ns on MPI_COMM_WORLD", world[(r, t)]["ns"], types[t]["ns"])


def check_requests(prof, stdout):
    """tests/mpi/requests.c on 4 ranks: 2 rounds of 600 messages, tag t of
    t % 17 + 1 bytes: 2 x (35 x (1 + ... + 17) + (1 + ... + 5)) = 10740 B."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    completions = {r: v["completions"] for r, v in printed(stdout).items()}
    expect("ranks that printed", sorted(completions), list(range(n)))
    for rk in prof["ranks"]:
        r = rk["rank"]
        expect(f"rank {r} sent", rows(rk["sent"]), {(r + 1) % n: (10740, 1200)})
        expect(f"rank {r} received", rows(rk["received"]), {(r - 1) % n: (10740, 1200)})
        # 1200 Irecv, 1200 Send and the completion calls.
        expect(f"rank {r} calls", {t: v["calls"] for t, v in rk["types"].items()},
               {"p2p": 2400 + completions.get(r, 0)})


def blocks(stdout):
    """The MPI-4 blocks tests/mpi/mpi4.c ran, from its "blocks" line."""
    for line in open(stdout):
        if line.split()[:1] == ["blocks"]:
            return set(line.split()[1:])
    failures.append("no blocks line in the program's output")
    return set()


def check_mpi4(prof, stdout):
    """tests/mpi/mpi4.c on 4 ranks, with the blocks it ran."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    have = blocks(stdout)
    expect("ranks whose data arrived", sorted(printed_ok(stdout)), list(range(n)))
    isr, part = "isendrecv" in have, "partitioned" in have
    cinit = "coll-init" in have or "mpix-coll-init" in have
    large = "large-count" in have
    world = (tuple(range(n)), ())
    want_recs = {world: {}}
    for rk in prof["ranks"]:
        r = rk["rank"]
        sent = {}

        def add(d, b, m):
            old = sent.get((r + d) % n, (0, 0))
            sent[(r + d) % n] = (old[0] + b, old[1] + m)
        calls = {}

        def call(t, k):
            if k:
                calls[t] = calls.get(t, 0) + k
        recs = want_recs[world]

        def rec(t, c, b, peers):
            old = recs.get((r, t), (0, 0, {}))
            recs[(r, t)] = (old[0] + c, old[1] + b, add_peers(old[2], peers))
        if isr:  # Isendrecv 10 ints to r+1, Isendrecv_replace 6 doubles to
            # r+2; 2 ints to r+1 from MPI_PROC_NULL, received by a Recv; 3
            # ints to r+1 from MPI_ANY_SOURCE
            add(1, 40 + 8 + 12, 3)
            add(2, 48, 1)
            call("p2p", 4 + 3 + 2)
        if part:  # 3 starts of 4 x 5 ints to r-1
            add(-1, 240, 3)
            call("p2p", 11)
        if cinit:
            others = {i: 300 for i in range(n) if i != 0}
            rec("bcast", 3, 300 if r == 0 else 0, others if r == 0 else {})
            rec("allreduce", 2, 128, {})
            rec("alltoallv", 2, 80, {i: 8 * (i + 1) for i in range(n)})
            rec("barrier", 2, 0, {})
            rec("gather", 1, 12, {1: 12} if r != 1 else {})
            for t, k in (("bcast", 7), ("allreduce", 5), ("alltoallv", 1),
                         ("barrier", 5), ("gather", 3)):
                call(t, k)
        if large:
            # Send_c 7 ints, 2 starts of Send_init_c 2 ints, Isend_c 1 int
            # to r+1; Isend_c 3 doubles (and Isendrecv_c 5 ints) to r+2.
            add(1, 28 + 16 + 4, 4)
            add(2, 24, 1)
            call("p2p", 15)
            if isr:
                add(2, 20, 1)
                call("p2p", 2)
            rec("allreduce", 1, 20, {})
            rec("alltoallv", 1, 32, {i: 8 for i in range(n)})
            rec("scatterv", 1, 56 if r == 3 else 0,
                {i: 4 * (i + 2) for i in range(n) if i != 3} if r == 3 else {})
            rec("reduce", 1, 16, {0: 16} if r != 0 else {})
            rec("neighbor_alltoall", 1, 8, {(r - 1) % n: 4, (r + 1) % n: 4})
            for t in ("allreduce", "alltoallv", "scatterv", "reduce", "neighbor_alltoall"):
                call(t, 1)
            if cinit:
                rec("bcast", 1, 16 if r == 2 else 0,
                    {i: 16 for i in range(n) if i != 2} if r == 2 else {})
                call("bcast", 3)
            call("rma", 3)
        recv = {(r - ((d - r) % n)) % n: v for d, v in sent.items()}
        if isr and not prof["mpi_library"].startswith("Open MPI"):
            # The MPI_ANY_SOURCE receive: MPICH leaves its status unset.
            b, m = recv[(r - 1) % n]
            recv[(r - 1) % n] = (b - 12, m - 1)
        expect(f"rank {r} sent", rows(rk["sent"]), sent)
        expect(f"rank {r} received", rows(rk["received"]), recv)
        expect(f"rank {r} rma", rows(rk["rma"]), {(r + 1) % n: (16, 1)} if large else {})
        expect(f"rank {r} calls", {t: v["calls"] for t, v in rk["types"].items()}, calls)
    expect_records(prof, want_recs)


def printed_ok(stdout):
    return [int(m.group(1)) for m in
            (re.match(r"rank (\d+) ok$", line.strip()) for line in open(stdout)) if m]


def check_mpi4_f(prof):
    """tests/mpi/mpi4_f.F90 on 4 ranks (`use mpi_f08`)."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    world = (tuple(range(n)), ())
    want = {world: {}}
    for rk in prof["ranks"]:
        r = rk["rank"]
        expect(f"rank {r} sent", rows(rk["sent"]), {(r + 1) % n: (24, 1)})
        expect(f"rank {r} received", rows(rk["received"]), {(r - 1) % n: (24, 1)})
        # p2p: Send, Recv; barrier: Barrier_init, 2 x (Start, Wait);
        # bcast: Bcast_init, Start, Wait.
        expect(f"rank {r} calls", {t: v["calls"] for t, v in rk["types"].items()},
               {"p2p": 2, "barrier": 5, "allreduce": 1, "bcast": 3})
        want[world][(r, "barrier")] = (2, 0, {})
        want[world][(r, "allreduce")] = (1, 12, {})
        want[world][(r, "bcast")] = (1, 20 if r == 1 else 0,
                                     {i: 20 for i in range(n) if i != 1} if r == 1 else {})
    expect_records(prof, want)


def check_large(prof):
    """tests/mpi/mpi4.c large on 2 ranks: one MPI_Send_c of 2^31 + 3
    MPI_BYTEs from rank 0 to rank 1, counted exactly in 64 bits."""
    expect("world_size", prof["world_size"], 2)
    b = (1 << 31) + 3
    for rk in prof["ranks"]:
        r = rk["rank"]
        expect(f"rank {r} sent", rows(rk["sent"]), {1: (b, 1)} if r == 0 else {})
        expect(f"rank {r} received", rows(rk["received"]), {0: (b, 1)} if r == 1 else {})
        expect(f"rank {r} calls", {t: v["calls"] for t, v in rk["types"].items()}, {"p2p": 1})


def check_memkinds(prof, stdout, mode):
    """tests/mpi/memkinds.c on 4 ranks."""
    n = prof["world_size"]
    expect("world_size", n, 4)
    asked = {r: (v["queries"], v["forbidden"]) for r, v in printed(stdout).items()}
    own = {}  # this rank's collective bytes
    for c in prof["communicators"]:
        for k in c["collectives"]:
            own[k["rank"]] = own.get(k["rank"], 0) + k["bytes"]
    for rk in prof["ranks"]:
        r = rk["rank"]
        # Host: 3 x 100; pinned: 2 x 200 and the Bcast's 1000 at the root;
        # device: 4 x 300, 3 starts of 500, the Put's 8; managed: 400 and
        # the Allreduce's 64 doubles.  Without the driver, all host.
        kinds = {"host": 300, "pinned": 400 + (1000 if r == 0 else 0),
                 "device": 2708, "managed": 912}
        if mode == "none":
            kinds = {"host": sum(kinds.values()), "pinned": 0, "device": 0, "managed": 0}
        expect(f"rank {r} sent_by_kind", rk["sent_by_kind"], kinds)
        expect(f"rank {r} sent", rows(rk["sent"]), {(r + 1) % n: (3800, 13)})
        expect(f"rank {r} rma", rows(rk["rma"]), {(r + 1) % n: (8, 1)})
        counted = (sum(b for _, b, _ in rk["sent"]) + sum(b for _, b, _ in rk["rma"])
                   + own.get(r, 0))
        expect(f"rank {r} sent_by_kind adds up to the bytes sent", sum(kinds.values()), counted)
        expect(f"rank {r} compute_ns", rk["compute_ns"], rk["wall_ns"] - rk["mpi_ns"])
        expect(f"rank {r} maxrss_kb {rk['maxrss_kb']} covers the 16 MiB it touched",
               rk["maxrss_kb"] >= 16384, True)
        expect(f"rank {r} proc_kind", rk["proc_kind"], ["cpu", "gpu", None, None][r])
        gpu = None
        if mode != "none" and r % 2 == 0:
            gpu = {"pci_bus_id": f"0000:{0x10 + r:02x}:00.0", "mem_used": (r + 1) << 20}
        expect(f"rank {r} cuda", rk["cuda"], gpu)
        # One driver query per allocation (host page, pinned, device,
        # managed): every other send finds its range cached.  No call that
        # creates or switches a context.
        expect(f"rank {r} (driver queries, context calls)", asked.get(r),
               (-1, -1) if mode == "none" else (4, 0))


def split(prof, prefix):
    """The partial files of every rank of prof, as the partial-file rules
    make them: one rank, the communicators it has records on with its own
    records, numbered in the file."""
    for rk in prof["ranks"]:
        comms = []
        for c in prof["communicators"]:
            recs = [k for k in c["collectives"] if k["rank"] == rk["rank"]]
            if recs:
                comms.append(dict({k: v for k, v in c.items() if k != "collectives"},
                                  id=len(comms), collectives=recs))
        with open(f"{prefix}.rank{rk['rank']}", "w") as f:
            json.dump(dict(prof, partial=True, ranks=[rk], communicators=comms), f)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in (
            "pattern", "late", "fortran", "fortran_calls", "monitoring", "p2p", "coll",
            "intercomm", "rma", "threads", "partial", "timing", "requests",
            "memkinds", "split", "checkpoint", "mpi4", "mpi4_f", "large",
            "counted", "same"):
        print(__doc__)
        return 2
    prof = None if sys.argv[1] in ("partial", "checkpoint") else json.load(open(sys.argv[2]))
    if sys.argv[1] == "partial":
        check_partial(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "checkpoint":
        # tests/mpi/abort.c kill: rank 1's file is a checkpoint (SIGKILL
        # leaves nothing else); ranks 0 and 2 wrote theirs on SIGTERM, or,
        # where the launcher ends them with SIGKILL too, left checkpoints.
        killed = os.environ.get("COMMPROF_SURVIVORS") == "killed"
        check_partial(sys.argv[2], "kill")
        for r in (0, 1, 2):
            path = f"{sys.argv[2]}/prof.json.rank{r}"
            if os.path.exists(path):
                expect(f"rank {r} checkpoint", json.load(open(path)).get("checkpoint"),
                       True if r == 1 or killed else None)
    elif sys.argv[1] in ("p2p", "rma"):
        (check_p2p if sys.argv[1] == "p2p" else check_rma)(prof, sys.argv[3])
    elif sys.argv[1] in ("coll", "intercomm", "threads"):
        {"coll": check_coll, "intercomm": check_intercomm,
         "threads": check_threads}[sys.argv[1]](prof)
    elif sys.argv[1] == "pattern":
        check_pattern(prof)
    elif sys.argv[1] == "late":
        check_late(prof)
    elif sys.argv[1] == "fortran":
        check_fortran(prof)
    elif sys.argv[1] == "fortran_calls":
        check_fortran_calls(prof, sys.argv[3])
    elif sys.argv[1] == "timing":
        check_timing(prof, sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "requests":
        check_requests(prof, sys.argv[3])
    elif sys.argv[1] == "mpi4":
        check_mpi4(prof, sys.argv[3])
    elif sys.argv[1] == "mpi4_f":
        check_mpi4_f(prof)
    elif sys.argv[1] == "large":
        check_large(prof)
    elif sys.argv[1] == "memkinds":
        check_memkinds(prof, sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "counted":
        check_counted(prof, sys.argv[3])
    elif sys.argv[1] == "same":
        check_same(prof, json.load(open(sys.argv[3])))
    elif sys.argv[1] == "split":
        split(prof, sys.argv[3])
        return 0
    else:
        check_monitoring(prof, sys.argv[3])
    for f in failures:
        print("FAIL:", f)
    print(f"{sys.argv[1]}: {'ok' if not failures else 'FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
