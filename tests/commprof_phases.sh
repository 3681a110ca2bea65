#!/usr/bin/env bash
# libcommprof's phases on tests/mpi/phases.c and phases_f.F90 (4 ranks,
# C and Fortran, one expected profile): MPI_Pcontrol(k),
# k >= 3, starts phase k; the profile keeps the totals as before and, per
# rank and per collective record, each phase's share, exactly; taskgraph
# info lists the phases, build --phase N builds from one phase alone; the
# partial files of an aborted run carry the phases and merge into the
# profile a finished run writes; more than 16 phases are refused with a
# warning; the reader refuses phases that do not add up to a list.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
prof=$work/prof.json
# The expected profile, rank r of 4: sends to r+1, r+2, r+3 per phase.
check_profile() {
expect_ok python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
n = 4
def rows(d):  # {offset: (bytes, msgs)} -> rows of rank r, sent or received
    return lambda r, sign: sorted([[(r + sign * k) % n, b, m] for k, (b, m) in d.items()])
phase = {1: {1: (100, 1)}, 3: {2: (600, 2), 1: (7, 1)}, 4: {3: (400, 1)}}
calls = {1: {"p2p": 1}, 3: {"p2p": 3, "bcast": 1}, 4: {"p2p": 1, "allreduce": 1}}
total = {1: (107, 2), 2: (600, 2), 3: (400, 1)}
bad = []
def check(what, got, want):
    if got != want:
        bad.append("%s: %r, expected %r" % (what, got, want))
check("phases", p.get("phases"), [1, 3, 4])
for r in range(n):
    rk = p["ranks"][r]
    check("rank %d sent" % r, rk["sent"], rows(total)(r, 1))
    check("rank %d received" % r, rk["received"], rows(total)(r, -1))
    check("rank %d calls" % r, {t: v["calls"] for t, v in rk["types"].items()},
          {"p2p": 5, "bcast": 1, "allreduce": 1})
    check("rank %d phase levels" % r, [ph["phase"] for ph in rk["phases"]], [1, 3, 4])
    for ph in rk["phases"]:
        k = ph["phase"]
        check("rank %d phase %d sent" % (r, k), ph["sent"], rows(phase[k])(r, 1))
        check("rank %d phase %d received" % (r, k), ph["received"], rows(phase[k])(r, -1))
        check("rank %d phase %d rma" % (r, k), ph["rma"], [])
        check("rank %d phase %d calls" % (r, k),
              {t: v["calls"] for t, v in ph["types"].items()}, calls[k])
    for t, v in rk["types"].items():
        parts = sum(ph["types"].get(t, {"ns": 0})["ns"] for ph in rk["phases"])
        if not (v["ns"] - 3 <= parts <= v["ns"]):  # each phase rounds down
            bad.append("rank %d %s: phases' ns %d, total %d" % (r, t, parts, v["ns"]))
check("communicators", len(p["communicators"]), 1)
c = p["communicators"][0]
def rec(r, t, b, phase=None):
    x = {"rank": r, "type": t, "calls": 1, "bytes": b}
    if t == "bcast" and r == 0:
        x["peers"] = [[1, 40], [2, 40], [3, 40]]
    if phase:
        x = dict(phase=phase, **x)
    return x
strip = lambda recs: [{k: v for k, v in x.items() if k != "ns"} for x in recs]
check("collectives", strip(c["collectives"]),
      [rec(r, t, b) for r in range(n) for t, b in (("bcast", 40 if r == 0 else 0), ("allreduce", 8))])
check("phase_collectives", strip(c["phase_collectives"]),
      [rec(r, t, b, k) for r in range(n)
       for k, t, b in ((3, "bcast", 40 if r == 0 else 0), (4, "allreduce", 8))])
for x in bad:
    print(x)
sys.exit(1 if bad else 0)
PY
[ -s "$work/out" ] && sed 's/^/  /' "$work/out"
}
expect_ok run 4 -x COMMPROF_OUT="$prof" "$MPI_TESTS/phases"
check_profile "$prof"
# The same program in Fortran, through libcommprof's Fortran wrappers.
if [ -x "$MPI_TESTS/phases_f" ]; then
  expect_ok run 4 -x COMMPROF_OUT="$work/fortran.json" "$MPI_TESTS/phases_f"
  check_profile "$work/fortran.json"
else
  echo "note: no tests/mpi/phases_f (no working mpifort): the Fortran run is left out"
fi
# info: each phase's calls and bytes (all ranks, every type).
expect_ok "$TASKGRAPH" info "$prof"
awk '$1 == "phase" { on = 1; next } on && NF == 4 { print $1, $3, $4 }' "$work/out" > "$work/phases"
printf '1 4 400\n3 16 2468\n4 8 1632\n' > "$work/want"
checks=$((checks + 1))
cmp -s "$work/phases" "$work/want" || { fail "info's phases:"; diff "$work/want" "$work/phases"; }
# build: the p2p graph of each phase, and of all of them together.
edges() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["edges"])' "$1"; }
for want in '3|[[0, 1, 7], [0, 2, 1200], [0, 3, 7], [1, 2, 7], [1, 3, 1200], [2, 3, 7]]' \
            '4|[[0, 1, 400], [0, 3, 400], [1, 2, 400], [2, 3, 400]]' \
            '1|[[0, 1, 100], [0, 3, 100], [1, 2, 100], [2, 3, 100]]' \
            'all|[[0, 1, 507], [0, 2, 1200], [0, 3, 507], [1, 2, 507], [1, 3, 1200], [2, 3, 507]]'; do
  ph=${want%%|*}
  expect_ok "$TASKGRAPH" build "$prof" -o "$work/g$ph" --phase "$ph" --large 2 --min-share 0 --coverage 1
  [ "$ph" = 3 ] && expect_grep "phase 3 alone" "$work/out"
  checks=$((checks + 1))
  got=$(edges "$work/g$ph/p2p.tg.json")
  [ "$got" = "${want#*|}" ] || fail "build --phase $ph: p2p edges $got, expected ${want#*|}"
done
checks=$((checks + 1))
[ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["options"].get("phase"))' "$work/g3/summary.json")" = 3 ] ||
  fail "summary.json of --phase 3 does not say phase 3"
checks=$((checks + 1))
[ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["options"].get("phase"))' "$work/gall/summary.json")" = None ] ||
  fail "summary.json of --phase all names a phase"
expect_fail 1 "$prof: no phase 2 in the profile (its phases: 1, 3, 4)" \
  "$TASKGRAPH" build "$prof" -o "$work/g2" --phase 2
expect_no_file "$work/g2"
expect_fail 2 "--phase" "$TASKGRAPH" build "$prof" -o "$work/g2" --phase 0
expect_fail 2 "--phase" "$TASKGRAPH" build "$prof" -o "$work/g2" --phase three
# An aborted run: every rank's partial file has its phases; merged, they
# are the profile above but for times.
mkdir "$work/abort"
checks=$((checks + 1))
run 4 -x COMMPROF_OUT="$work/abort/prof.json" "$MPI_TESTS/phases" abort > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 3 ] || fail "abort: mpirun exited with $rc, expected 3"
expect_ok "$TASKGRAPH" merge "$work"/abort/prof.json.rank* -o "$work/merged.json"
expect_ok python3 - "$prof" "$work/merged.json" "$work/abort/prof.json.rank2" <<'PY'
import json, sys
times = {"ns", "wall_ns", "mpi_ns", "compute_ns", "maxrss_kb", "job"}
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in times}
    return [strip(v) for v in x] if isinstance(x, list) else x
a, b, part = (json.load(open(f)) for f in sys.argv[1:])
if strip(a) != strip(b):
    print("the merged partial files differ from the profile")
    sys.exit(1)
if part.get("phases") != [1, 3, 4] or [x["phase"] for x in part["ranks"][0]["phases"]] != [1, 3, 4]:
    print("rank 2's partial file lacks its phases")
    sys.exit(1)
PY
[ -s "$work/out" ] && sed 's/^/  /' "$work/out"
# A partial file of a rank that never changed phase, merged with phased
# ones: that rank recorded everything in phase 1.
python3 - "$work/abort/prof.json.rank1" "$work/one.rank1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["phases"]
rk = p["ranks"][0]
del rk["phases"]
for c in p["communicators"]:
    del c["phase_collectives"]
json.dump(p, open(sys.argv[2], "w"))
PY
expect_ok "$TASKGRAPH" merge "$work"/abort/prof.json.rank[023] "$work/one.rank1" -o "$work/mixed.json"
expect_ok python3 - "$work/mixed.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
rk = p["ranks"][1]
ph = rk["phases"]
ok = p["phases"] == [1, 3, 4] and [x["phase"] for x in ph] == [1] and \
    ph[0]["sent"] == rk["sent"] and ph[0]["types"] == rk["types"]
recs = [x for x in p["communicators"][0]["phase_collectives"] if x["rank"] == 1]
ok = ok and [(x["phase"], x["type"]) for x in recs] == [(1, "bcast"), (1, "allreduce")]
sys.exit(0 if ok else 1)
PY
# More than 16 phases: a warning per rank, later levels recorded in the
# 16th (level 17): its Barrier calls, 1 + 3 refused levels.
expect_ok run 4 -x COMMPROF_OUT="$work/many.json" "$MPI_TESTS/phases" many
expect_grep "commprof (rank 0): MPI_Pcontrol(18): more than 16 phases; recording goes on in phase 17 (levels of later phases are not recorded)" "$work/err"
checks=$((checks + 1))
[ "$(grep -c 'more than 16 phases' "$work/err")" = 4 ] || fail "expected one warning per rank"
expect_ok python3 - "$work/many.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
ph = {x["phase"]: x["types"].get("barrier", {}).get("calls", 0) for x in p["ranks"][3]["phases"]}
want = {1: 0, **{k: 1 for k in range(3, 17)}, 17: 4}
sys.exit(0 if p["phases"] == [1] + list(range(3, 18)) and ph == want else 1)
PY
# The reader: phases must be listed, ascending, each once.
for bad in 'top|[3, 1]|phases[1]: 1 after 3: phases must be in ascending order, each once' \
           'top|[0, 3]|phases[0]: phase 0: levels are 1 or more' \
           'rank|7|ranks[0].phases[1].phase: phase 7 is not in the profile'"'"'s "phases"' \
           'order|3|ranks[0].phases[2].phase: phase 3 after phase 3: a rank'"'"'s phases must be in ascending order, each once' \
           'coll|9|communicators[0].phase_collectives[0].phase: phase 9 is not in the profile'"'"'s "phases"' \
           'nolist||ranks[0].phases: the profile has no top-level "phases"'; do
  IFS='|' read -r what value msg <<< "$bad"
  python3 - "$prof" "$what" "$value" "$work/bad.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); what, v = sys.argv[2], sys.argv[3]
if what == "top": p["phases"] = json.loads(v)
elif what == "rank": p["ranks"][0]["phases"][1]["phase"] = int(v)
elif what == "order": p["ranks"][0]["phases"][2]["phase"] = int(v)
elif what == "coll": p["communicators"][0]["phase_collectives"][0]["phase"] = int(v)
elif what == "nolist": del p["phases"]
json.dump(p, open(sys.argv[4], "w"), indent=1)
PY
  expect_fail 1 "$msg" "$TASKGRAPH" info "$work/bad.json"
done
# A small file may not declare much: 3024 types x 3000 phases of a rank
# in 250 KB is refused before anything that size is allocated.
python3 - "$prof" "$work/big.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["types"] += ["t%d" % i for i in range(3000)]
p["phases"] = list(range(1, 3001))
p["ranks"][0]["phases"] = [{"phase": k, "types": {}, "sent": [], "received": [], "rma": []}
                           for k in range(1, 3001)]
json.dump(p, open(sys.argv[2], "w"))
PY
expect_fail 1 "3024 types for each of 3000 phases of ranks, 9072000 is more than a file of" \
  "$TASKGRAPH" info "$work/big.json"
finish
