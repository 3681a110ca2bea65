#!/usr/bin/env bash
# libcommprof records the Cartesian communicators of tests/mpi/cart.c and
# cart_f.F90 (6 ranks, C and Fortran): dims, periods and the world rank at each Cartesian rank, for
# MPI_Cart_create and MPI_Cart_sub, each once; taskgraph build gives the
# graphs the grid of the first that covers every rank (with the world
# rank at each position when the communicator's order is not the
# world's); partial files carry them and merge keeps them; the reader
# refuses a grid that does not match its members.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
carts() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("cartesian"))' "$1"; }
grid() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("grid"))' "$1"; }
# Over MPI_COMM_WORLD: the 3x2 torus, then the three rows of Cart_sub.
expect_ok run 6 -x COMMPROF_OUT="$work/world.json" "$MPI_TESTS/cart" world
checks=$((checks + 1))
want="[{'dims': [3, 2], 'periods': [1, 1], 'members': [0, 1, 2, 3, 4, 5]}, {'dims': [2], 'periods': [1], 'members': [0, 1]}, {'dims': [2], 'periods': [1], 'members': [2, 3]}, {'dims': [2], 'periods': [1], 'members': [4, 5]}]"
got=$(carts "$work/world.json")
[ "$got" = "$want" ] || fail "world: cartesian $got, expected $want"
checks=$((checks + 1))
grep -q '"phases"' "$work/world.json" && fail "a run without MPI_Pcontrol phases has \"phases\""
expect_ok "$TASKGRAPH" build "$work/world.json" -o "$work/gw" --large 2 --min-share 0
expect_grep "grid 3x2 (periodic: yes yes) from the profile's Cartesian communicator" "$work/out"
for f in p2p sum wsum; do
  checks=$((checks + 1))
  got=$(grid "$work/gw/$f.tg.json")
  [ "$got" = "{'dims': [3, 2], 'periods': [1, 1]}" ] || fail "world: $f.tg.json grid $got"
done
# Cartesian rank p is world rank p: p sends 100 B to p+2 (dimension 0,
# period 3 x 2) and 10 B to its row neighbour (p xor 1; both ways, as the
# row has 2 ranks).
checks=$((checks + 1))
got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["edges"])' "$work/gw/p2p.tg.json")
want='[[0, 1, 20], [0, 2, 100], [0, 4, 100], [1, 3, 100], [1, 5, 100], [2, 3, 20], [2, 4, 100], [3, 5, 100], [4, 5, 20]]'
[ "$got" = "$want" ] || fail "world: p2p edges $got, expected $want"
# The same in Fortran (use mpi, use mpi_f08): the same Cartesian
# communicators and graph, through libcommprof's Fortran wrappers.
for prog in cart_f cart_f08; do
  if [ ! -x "$MPI_TESTS/$prog" ]; then
    echo "note: no tests/mpi/$prog (no working mpifort): left out"
    continue
  fi
  expect_ok run 6 -x COMMPROF_OUT="$work/$prog.json" "$MPI_TESTS/$prog"
  checks=$((checks + 1))
  [ "$(carts "$work/$prog.json")" = "$(carts "$work/world.json")" ] ||
    fail "$prog: cartesian $(carts "$work/$prog.json")"
  expect_ok "$TASKGRAPH" build "$work/$prog.json" -o "$work/g$prog" --large 2 --min-share 0
  checks=$((checks + 1))
  cmp -s "$work/g$prog/p2p.tg.json" "$work/gw/p2p.tg.json" || fail "$prog: p2p.tg.json differs from the C program's"
done
expect_ok "$TASKGRAPH" info "$work/world.json"
expect_grep "cartesian    3x2 (periodic: yes yes) over 6 ranks" "$work/out"
expect_grep "grid         3x2 (cartesian 1): taskgraph build gives it to the graphs" "$work/out"
# Over the halves first (3 ranks each, not a grid of the job), then over
# the world in reverse order: the grid is the second, with its tasks.
expect_ok run 6 -x COMMPROF_OUT="$work/rev.json" "$MPI_TESTS/cart" reversed
checks=$((checks + 1))
want="[{'dims': [3], 'periods': [1], 'members': [0, 2, 4]}, {'dims': [3, 2], 'periods': [1, 0], 'members': [5, 4, 3, 2, 1, 0]}, {'dims': [3], 'periods': [1], 'members': [1, 3, 5]}]"
got=$(carts "$work/rev.json")
[ "$got" = "$want" ] || fail "reversed: cartesian $got, expected $want"
expect_ok "$TASKGRAPH" build "$work/rev.json" -o "$work/gr" --large 2 --min-share 0
expect_grep "grid 3x2 (periodic: yes no; ranks reordered)" "$work/out"
for f in p2p sum wsum; do
  checks=$((checks + 1))
  got=$(grid "$work/gr/$f.tg.json")
  [ "$got" = "{'dims': [3, 2], 'periods': [1, 0], 'tasks': [5, 4, 3, 2, 1, 0]}" ] ||
    fail "reversed: $f.tg.json grid $got"
done
# The same run aborted: the partial files merge into the same list.
mkdir "$work/abort"
checks=$((checks + 1))
run 6 -x COMMPROF_OUT="$work/abort/p.json" "$MPI_TESTS/cart" reversed abort > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 3 ] || fail "abort: mpirun exited with $rc, expected 3"
checks=$((checks + 1))
got=$(carts "$work/abort/p.json.rank3")
[ "$got" = "[{'dims': [3], 'periods': [1], 'members': [1, 3, 5]}, {'dims': [3, 2], 'periods': [1, 0], 'members': [5, 4, 3, 2, 1, 0]}]" ] ||
  fail "rank 3's partial file: cartesian $got"
expect_ok "$TASKGRAPH" merge "$work"/abort/p.json.rank* -o "$work/merged.json"
checks=$((checks + 1))
got=$(carts "$work/merged.json")
want="[{'dims': [3], 'periods': [1], 'members': [0, 2, 4]}, {'dims': [3, 2], 'periods': [1, 0], 'members': [5, 4, 3, 2, 1, 0]}, {'dims': [3], 'periods': [1], 'members': [1, 3, 5]}]"
[ "$got" = "$want" ] || fail "merged: cartesian $got, expected $want"
# The reader.
for bad in 'dims|[2, 2]|cartesian[1].members: lists 6 ranks, but dims make 4 positions' \
           'dims|[4, 2]|cartesian[1].dims: 8 positions, more than the 6 ranks of the world' \
           'dims|[7, 2]|cartesian[1].dims[0]: 7 is outside 1..6' \
           'periods|[1]|cartesian[1].periods: must have 2 elements, not 1' \
           'periods|[1, 2]|cartesian[1].periods[1]: 2 is outside 0..1' \
           'members|[5, 4, 3, 2, 1, 1]|cartesian[1].members[5]: rank 1 is listed twice'; do
  IFS='|' read -r what value msg <<< "$bad"
  python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); p["cartesian"][1][sys.argv[2]] = json.loads(sys.argv[3])
json.dump(p, open(sys.argv[4], "w"), indent=1)' "$work/rev.json" "$what" "$value" "$work/bad.json"
  expect_fail 1 "$msg" "$TASKGRAPH" info "$work/bad.json"
done
finish
