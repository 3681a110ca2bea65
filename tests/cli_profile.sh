#!/usr/bin/env bash
# taskgraph info, matrix and merge on profiles: exact output on the
# hand-written tests/data/profile_4.json and its per-rank partial files;
# bad input (a clear message, a non-zero exit, nothing written); and a
# profile of tests/mpi/pattern made under mpirun with libcommprof, which
# tests/commprof_check.py checks against the known pattern and whose
# matrices and merge must agree with it; and the real partial files of
# tests/mpi/abort.c merged.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH
d=$TOPOMAP_DATA
p4=$d/profile_4.json

# The last command's stdout is exactly the text on stdin.
same_output() {
  checks=$((checks + 1))
  diff -u - "$work/out" > "$work/diff" || { fail "output differs:"; cat "$work/diff"; }
}

same_file() { # same_file A B
  checks=$((checks + 1))
  cmp -s "$1" "$2" || { fail "$1 differs from $2"; diff "$1" "$2" | head; }
}

# ------------------------------------------------------------------ info
expect_ok $tg info "$p4"
same_output <<EOF
file         $p4 (profile, format version 1)
mpi library  Open MPI v4.1.4, fixture
world size   4
ranks        4 of 4
hosts        2: n0 (2 ranks), n1 (2 ranks)
wall time    1.100000 s (longest rank)
mpi time     1.347000 s (all ranks together)

type                    share     time (s)        calls            bytes  communicator sizes
p2p                    55.68%     0.750000           27             8157  -
allreduce              29.70%     0.400000            4              320  4
alltoall                7.42%     0.100000            4              128  2
bcast                   3.71%     0.050000            4               30  4
scatter                 2.97%     0.040000            1               24  4
rma                     0.52%     0.007000            4               72  -
EOF
# A partial file is a profile too.
expect_ok $tg info "$p4.rank1"
expect_output "ranks        1 of 4, a partial profile"
expect_output "hosts        1: n0 (1 rank)"

# Phases: profile_4.json split into phases 1, 3 and 7 (ranks 2 and 3
# never changed phase: everything they recorded is phase 1's).  A phase's
# line adds up every rank's time and calls of the phase, and its bytes:
# p2p sent, rma, and its collective records.
phased() { # phased WORLD_SIZE PHASES OUT
  python3 - "$p4" "$@" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["world_size"] = int(sys.argv[2])
p["phases"] = json.loads(sys.argv[3])
t = lambda **kw: {k: {"ns": ns, "calls": c} for k, (ns, c) in kw.items()}
p["ranks"][0]["phases"] = [
    {"phase": 1, "types": t(p2p=(150000000, 6)), "sent": [[1, 3000, 3]],
     "received": [], "rma": [[3, 64, 2]]},
    {"phase": 3, "types": t(p2p=(50000000, 4), alltoall=(50000000, 2), rma=(5000000, 3)),
     "sent": [[1, 1000, 1], [2, 100, 1]], "received": [[1, 4000, 4]], "rma": []}]
p["ranks"][1]["phases"] = [
    {"phase": 7, "types": t(p2p=(300000000, 8), bcast=(20000000, 1)),
     "sent": [[0, 4000, 4]], "received": [], "rma": []}]
c = p["communicators"]
c[0]["phase_collectives"] = [dict(k, phase=3) for k in c[0]["collectives"] if k["rank"] == 0]
c[1]["phase_collectives"] = [dict(k, phase=7) for k in c[1]["collectives"]
                             if k["rank"] == 1 and k["type"] == "bcast"]
json.dump(p, open(sys.argv[4], "w"), indent=1)
PY
}
phase_line() { printf '%-20d %12.6f %12d %16d\n' "$@"; }
# Phase 1: rank 0's, and all of ranks 2 and 3 with their records on
# communicators 0 and 1 (64 + 80 + 80 bytes).
{ phase_line 1 0.672 22 3353; phase_line 3 0.105 9 1164; phase_line 7 0.32 9 4030; } > "$work/want"
phased 4 '[1, 3, 7]' "$work/phased.json"
expect_ok $tg info "$work/phased.json"
checks=$((checks + 1))
sed -n '/^phase /,$p' "$work/out" | tail -n +2 | diff -u "$work/want" - ||
  fail "info's phases of $work/phased.json"
# 500 phases of a world of 200000 ranks, 4 of them present: the same
# lines, and zeros for the phases no rank entered.  (A pass over the world
# per phase took 3.5 s here; one pass over the ranks and records for
# every phase takes 0.06 s.)
phased 200000 "$(seq -s, 1 500 | sed 's/.*/[&]/')" "$work/phased500.json"
expect_ok $tg info "$work/phased500.json"
expect_output "ranks        4 of 200000, missing 4-199999"
checks=$((checks + 1))
sed -n '/^phase /,$p' "$work/out" | tail -n +2 > "$work/lines"
[ "$(wc -l < "$work/lines")" -eq 500 ] || fail "info: $(wc -l < "$work/lines") phase lines, expected 500"
checks=$((checks + 1))
grep -E '^(1|3|7) ' "$work/lines" | diff -u "$work/want" - || fail "info's phases of $work/phased500.json"
checks=$((checks + 1))
[ "$(grep -cxE '[0-9]+ +0\.000000 +0 +0' "$work/lines")" -eq 497 ] || fail "info: phases no rank entered are not all 0"
# A phase a rank or a record names is one of "phases", found in a long list.
phased 4 "[$(seq -s, 3 2 4001)]" "$work/phased_bad.json"
expect_fail 1 "ranks[0].phases[0].phase: phase 1 is not in the profile's \"phases\"" \
  $tg info "$work/phased_bad.json"
# "format" past the first 64 KiB (members sorted, as `jq -S` sorts them;
# a long "comment" first): still a profile, for info as for matrix.
python3 - "$p4" "$work/sorted.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["comment"] = "x" * 70000
json.dump(p, open(sys.argv[2], "w"), sort_keys=True)
PY
expect_ok $tg info "$work/sorted.json"
expect_output "ranks        4 of 4"
expect_output "world size   4"

# ---------------------------------------------------------------- matrix
expect_ok $tg matrix "$p4" --type p2p
same_output <<EOF
0 1 4000 4
0 2 100 1
1 0 4000 4
2 1 0 3
3 0 50 2
3 2 7 1
EOF
# Rank 2 did not record rank 3's 7 bytes.
expect_ok $tg matrix --received --type p2p "$p4"
same_output <<EOF
0 1 4000 4
0 2 100 1
1 0 4000 4
2 1 0 3
3 0 50 2
EOF
expect_ok $tg matrix "$p4" --type rma
printf '0 3 64 2\n3 0 8 1\n' | same_output
expect_ok $tg matrix "$p4" --type alltoall
printf '0 0 64 2\n2 2 64 2\n' | same_output
expect_ok $tg matrix "$p4" --type bcast
printf '1 0 30 1\n1 2 30 1\n1 3 30 1\n' | same_output
expect_ok $tg matrix "$p4" --type scatter
printf '0 2 12 1\n0 3 12 1\n' | same_output
expect_ok $tg matrix "$p4" --type gather
same_output < /dev/null
expect_ok $tg matrix --help
expect_output "usage: taskgraph matrix PROFILE --type T [--received]"

expect_fail 2 "which type? give --type" $tg matrix "$p4"
expect_fail 2 "no profile given" $tg matrix --type p2p
expect_fail 2 "$p4 lists no type 'neighbor_alltoall' (it has: p2p, barrier," \
  $tg matrix "$p4" --type neighbor_alltoall
expect_fail 2 "--received is for --type p2p only" $tg matrix "$p4" --type rma --received
expect_fail 2 "unknown option '--bogus'" $tg matrix "$p4" --type p2p --bogus

# ------------------------------------------------------------- bad input
for cmd in "matrix --type p2p" info; do
  expect_fail 1 "taskgraph: $d/profile_bad_version.json: profile format version 2, this taskgraph reads version 1" \
    $tg $cmd "$d/profile_bad_version.json"
  expect_fail 1 "taskgraph: $d/profile_truncated.json:21: ']' expected near end of file" \
    $tg $cmd "$d/profile_truncated.json"
  expect_fail 1 "taskgraph: $d/profile_rank_range.json:25: ranks[3].sent[1][0]: rank 4 is outside 0..3" \
    $tg $cmd "$d/profile_rank_range.json"
  expect_fail 1 "taskgraph: $d/profile_member_type.json:13: ranks[1].wall_ns: must be a non-negative integer" \
    $tg $cmd "$d/profile_member_type.json"
done
expect_fail 1 "taskgraph: $work/none.json: cannot open" $tg matrix "$work/none.json" --type p2p

# ----------------------------------------------------------------- merge
out=$work/merge
mkdir -p "$out"
# In any order: the profile written at MPI_Finalize, to the byte.
expect_ok $tg merge "$p4.rank2" "$p4.rank0" "$p4.rank3" "$p4.rank1" -o "$out/all.json"
expect_output "wrote $out/all.json: 4 of 4 ranks, 3 communicators"
same_file "$out/all.json" "$p4"
rm "$out/all.json"

# A rank without a partial file: named, exit 1, nothing written.
expect_fail 1 "taskgraph merge: no partial file for rank 3 (of 4); --allow-missing merges without them" \
  $tg merge "$p4.rank0" "$p4.rank1" "$p4.rank2" -o "$out/m.json"
expect_fail 1 "no partial file for ranks 0, 2-3 (of 4)" $tg merge "$p4.rank1" -o "$out/m.json"
# Duplicate rank, another world size, a full profile: refused.
expect_fail 1 "taskgraph: $p4.rank1: rank 1 is also in $p4.rank1" \
  $tg merge "$p4.rank0" "$p4.rank1" "$p4.rank1" "$p4.rank2" "$p4.rank3" -o "$out/m.json"
sed 's/"world_size": 4/"world_size": 8/' "$p4.rank3" > "$work/w8.rank3"
expect_fail 1 "taskgraph: $work/w8.rank3: world_size 8, but $p4.rank0 has world_size 4" \
  $tg merge "$p4.rank0" "$p4.rank1" "$p4.rank2" "$work/w8.rank3" -o "$out/m.json"
expect_fail 1 "taskgraph: $p4: not a partial profile (no \"partial\": true)" \
  $tg merge "$p4.rank0" "$p4" -o "$out/m.json"
expect_fail 1 "taskgraph: $d/profile_truncated.json:21:" \
  $tg merge "$p4.rank0" "$d/profile_truncated.json" -o "$out/m.json"
# An output that cannot be written.
expect_fail 1 "taskgraph: $work/nodir/m.json: cannot create" \
  $tg merge "$p4.rank0" "$p4.rank1" "$p4.rank2" "$p4.rank3" -o "$work/nodir/m.json"
expect_no_file "$work/nodir"
checks=$((checks + 1)); [ "$(count_files "$out")" -eq 0 ] || { fail "files left by failed merges:"; ls -a "$out"; }
# A failed merge leaves an existing output alone.
echo keep > "$out/keep.json"
expect_fail 1 "no partial file for rank 3" $tg merge "$p4.rank0" "$p4.rank1" "$p4.rank2" -o "$out/keep.json"
checks=$((checks + 1)); [ "$(cat "$out/keep.json")" = keep ] || fail "a failed merge changed its output"
rm "$out/keep.json"
expect_fail 2 "no output file: give -o FILE" $tg merge "$p4.rank0"
expect_fail 2 "no partial profiles given" $tg merge -o "$out/m.json"

# --allow-missing: the ranks present, the missing ones still named.
expect_fail 0 "no partial file for rank 2 (of 4); merged without them" \
  $tg merge --allow-missing "$p4.rank3" "$p4.rank1" "$p4.rank0" -o "$out/three.json"
expect_ok $tg info "$out/three.json"
expect_output "ranks        3 of 4, missing 2"
expect_ok $tg matrix "$out/three.json" --type alltoall
printf '0 0 64 2\n' | same_output

# Partial files of a world of 2^20 ranks, each listing a few (merged by
# the ranks they list, not by a pass over the world for each), and many
# Cartesian communicators, some in several files or twice in one: the
# merge holds exactly those ranks and each communicator once, ordered by
# the lowest rank listing it, then by its place in that rank's file.
expect_ok python3 - "$work/big" <<'PY'
import json, sys
def part(name, ranks, carts):
    doc = {"format": "topomap-commprof", "version": 1, "partial": True,
           "job": {"id": "00000000000000ab"}, "mpi_library": "x",
           "world_size": 1 << 20, "types": ["p2p"],
           "ranks": [{"rank": r, "host": "h", "local_rank": 0, "cpus": "",
                      "wall_ns": r, "mpi_ns": 0, "types": {}, "sent": [],
                      "received": [], "rma": []} for r in ranks],
           "communicators": [],
           "cartesian": [{"dims": [1], "periods": [0], "members": [m]} for m in carts]}
    json.dump(doc, open(sys.argv[1] + "." + name, "w"))
part("rank1", [1048575, 1], list(range(1000)))
part("rank0", [0], list(range(999, 499, -1)) + [999])
part("rank524288", [524288], [])
part("dup", [5, 1048575, 1], [])
PY
expect_fail 0 "no partial file for ranks 2-524287, 524289-1048574 (of 1048576); merged without them" \
  $tg merge --allow-missing "$work/big.rank1" "$work/big.rank0" "$work/big.rank524288" -o "$work/big.json"
expect_output "wrote $work/big.json: 4 of 1048576 ranks, 0 communicators"
expect_ok python3 - "$work/big.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
assert [rk["rank"] for rk in p["ranks"]] == [0, 1, 524288, 1048575], "ranks"
assert [rk["wall_ns"] for rk in p["ranks"]] == [0, 1, 524288, 1048575], "wall_ns"
want = list(range(999, 499, -1)) + list(range(500))
assert [c["members"] for c in p["cartesian"]] == [[m] for m in want], "cartesian"
PY
expect_ok $tg merge --allow-missing "$work/big.rank524288" "$work/big.rank0" "$work/big.rank1" -o "$work/big2.json"
same_file "$work/big2.json" "$work/big.json"
# Ranks 1 and 1048575 come twice: the lowest is named.
expect_fail 1 "taskgraph: $work/big.dup: rank 1 is also in $work/big.rank1" \
  $tg merge --allow-missing "$work/big.rank1" "$work/big.dup" -o "$work/big3.json"
expect_no_file "$work/big3.json"
rm -f "$work"/big*

# ------------------------------------------- a profiled run of pattern.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
prof=$work/pattern.json
expect_ok mpirun -np 4 -x LD_PRELOAD="$COMMPROF_PRELOAD" -x COMMPROF_OUT="$prof" "$PATTERN"
# The profile is the pattern (commprof_check.py holds the expected values)...
expect_ok python3 "$TOPOMAP_SRCDIR/tests/commprof_check.py" pattern "$prof"
# ... and the matrices are its rows, as Python's own JSON reader sees them.
rows() { # rows PROFILE sent|received|rma|alltoallv: "src dst bytes count"
  python3 - "$@" <<'PY'
import json, sys
prof, kind = json.load(open(sys.argv[1])), sys.argv[2]
out = []
if kind == "alltoallv":
    for c in prof["communicators"]:
        for k in c["collectives"]:
            if k["type"] == kind:
                out += [(k["rank"], c["members"][i], b, k["calls"]) for i, b in k["peers"]]
else:
    for rk in prof["ranks"]:
        for peer, b, n in rk[kind]:
            out.append((peer, rk["rank"], b, n) if kind == "received" else (rk["rank"], peer, b, n))
for e in sorted(out):
    print(*e)
PY
}
for kind in sent received rma alltoallv; do
  opt="--type $kind"
  [ $kind = sent ] && opt="--type p2p"
  [ $kind = received ] && opt="--type p2p --received"
  expect_ok $tg matrix "$prof" $opt
  checks=$((checks + 1))
  [ -s "$work/out" ] || fail "empty $kind matrix"
  rows "$prof" $kind | same_output
done
# Every message of the pattern was received: both views agree.
expect_ok $tg matrix "$prof" --type p2p
cp "$work/out" "$work/sent.txt"
expect_ok $tg matrix "$prof" --type p2p --received
same_output < "$work/sent.txt"

# The partial files of every rank (made per the partial-file rules: one
# rank, its communicators with its own records) merge into the profile.
expect_ok python3 "$TOPOMAP_SRCDIR/tests/commprof_check.py" split "$prof" "$work/split.json"
expect_ok $tg merge "$work"/split.json.rank* -o "$work/merged.json"
same_file "$work/merged.json" "$prof"

# Real partial files: tests/mpi/abort.c calls MPI_Abort on rank 1 and
# mpirun ends the others; commprof_check.py (mode partial) holds what each
# file must hold, and rank 3 recorded nothing, so it left none.
mkdir "$work/abort"
checks=$((checks + 1))
mpirun -np 4 -x LD_PRELOAD="$COMMPROF_PRELOAD" -x COMMPROF_OUT="$work/abort/prof.json" \
  "$MPI_TESTS/abort" abort > "$work/out" 2> "$work/err"
[ $? -eq 3 ] || fail "abort.c: mpirun did not exit with MPI_Abort's 3"
expect_ok python3 "$TOPOMAP_SRCDIR/tests/commprof_check.py" partial "$work/abort" abort
expect_fail 1 "no partial file for rank 3 (of 4); --allow-missing merges without them" \
  $tg merge "$work"/abort/prof.json.rank* -o "$work/aborted.json"
expect_no_file "$work/aborted.json"
expect_fail 0 "no partial file for rank 3 (of 4); merged without them" \
  $tg merge --allow-missing "$work"/abort/prof.json.rank* -o "$work/aborted.json"
# The merge holds what the files hold, as Python's JSON reader sees them:
# the ranks as they are, each communicator's records joined.
expect_ok python3 - "$work/aborted.json" "$work"/abort/prof.json.rank* <<'PY'
import json, sys
merged = json.load(open(sys.argv[1]))
parts = [json.load(open(p)) for p in sys.argv[2:]]
def comms(docs):
    out = {}
    for doc in docs:
        for c in doc["communicators"]:
            key = (tuple(c["members"]), tuple(c.get("remote", [])))
            out.setdefault(key, []).extend(c["collectives"])
    return {k: sorted(v, key=lambda k: (k["rank"], k["type"])) for k, v in out.items()}
for key in ("format", "version", "mpi_library", "world_size", "types"):
    assert merged[key] == parts[0][key], key
assert "partial" not in merged
assert merged["ranks"] == sorted((rk for p in parts for rk in p["ranks"]),
                                 key=lambda rk: rk["rank"]), "ranks"
assert [c["id"] for c in merged["communicators"]] == list(range(len(merged["communicators"])))
assert comms([merged]) == comms(parts), "communicators"
PY
finish
