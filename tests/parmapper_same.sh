#!/usr/bin/env bash
# parmapper under mpirun: with --first, or a time budget with --rounds
# that ends first, and one seed the front, the chosen point and the
# mapping are the same run after run and for 1, 2 or 4 ranks; every report's chosen point is on a true front and is the one
# the selection rule gives (tests/parmapper_check.py), for several alphas
# and every criterion; a time-limited run obeys the same rules.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"

# 256 tasks whose front has several points on a 4x4 torus of 16-core nodes
# (3 with --seed 0, 2 with --seed 7; the refined members of the portfolio
# leave only one or two on most other random geometric graphs of this
# size: graph seeds 2 to 9 at radius 0.12 and 0.1 were tried).
expect_ok "$TASKGRAPH" gen random-geometric --tasks 256 --radius 0.12 --seed 5 -o "$work/g.tg.json"
machine=(--nodes 16 --slots 16 --network torus:4x4)

for seed in 0 7; do
  for np in 1 2 4; do
    expect_ok pm $np "$work/g.tg.json" "${machine[@]}" --first --seed $seed \
      --report "$work/r$seed-$np.json" --mapping "$work/m$seed-$np.txt"
    expect_ok $check report "$work/r$seed-$np.json"
    expect_ok $check rounds "$work/r$seed-$np.json" 1
  done
  expect_ok pm 2 "$work/g.tg.json" "${machine[@]}" --first --seed $seed \
    --report "$work/again.json" --mapping "$work/again.txt"
  for other in "$work/r$seed-2.json" "$work/r$seed-4.json" "$work/again.json"; do
    expect_ok $check same "$work/r$seed-1.json" "$other"
  done
  for other in "$work/m$seed-2.txt" "$work/m$seed-4.txt" "$work/again.txt"; do
    expect_ok cmp "$work/m$seed-1.txt" "$other"
  done
done

# The front has more than one point, so the alphas choose differently.
checks=$((checks + 1))
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['front']))" "$work/r0-1.json")
[ "$n" -ge 3 ] || fail "expected a front of 3 or more points, got $n"
for alpha in 1 1.3 1.4 10; do
  expect_ok pm 2 "$work/g.tg.json" "${machine[@]}" --first --alpha $alpha --report "$work/a.json"
  expect_ok $check report "$work/a.json"
done
for sel in avg max maxload; do
  expect_ok pm 3 "$work/g.tg.json" "${machine[@]}" --first --select $sel --report "$work/s.json"
  expect_ok $check report "$work/s.json"
done

# A time budget with a number of rounds that ends first: the same result
# for 1, 2 and 4 ranks, run after run.
for np in 1 2 4 2; do
  expect_ok pm $np "$work/g.tg.json" "${machine[@]}" --time 120 --rounds 3 --seed 11 \
    --report "$work/rounds-$np.json" --mapping "$work/rounds-$np.txt"
  expect_ok $check report "$work/rounds-$np.json"
  expect_ok $check rounds "$work/rounds-$np.json" 3
  expect_ok $check same "$work/rounds-1.json" "$work/rounds-$np.json"
  expect_ok cmp "$work/rounds-1.txt" "$work/rounds-$np.txt"
done

# Seeds past 2^63 are written as exact JSON integers (they were doubles:
# 18446744073709551615 came back as 1.8446744073709552e19), and the
# report's strings around them are unchanged.
expect_ok pm 1 "$work/g.tg.json" "${machine[@]}" --first --seed 18446744073709551615 \
  --report "$work/big.json"
checks=$((checks + 1))
seeds=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["graph"]["path"] == sys.argv[2], r["graph"]["path"]
print(r["search"]["seed"], r["chosen"]["seed"], r["front"][0]["seed"])' \
  "$work/big.json" "$work/g.tg.json") || fail "cannot read $work/big.json"
[ "$seeds" = "18446744073709551615 18446744073709551615 18446744073709551615" ] ||
  fail "seeds read back as '$seeds'"
checks=$((checks + 1))
grep -q '^    "seed": 18446744073709551615,$' "$work/big.json" ||
  fail "the search's seed is not a bare integer in $work/big.json"

# Against the time: runs go on past the first round (a round of this
# graph takes milliseconds), until the limit.
expect_ok pm 2 "$work/g.tg.json" "${machine[@]}" --time 2 --seed 5 --report "$work/t.json"
expect_ok $check report "$work/t.json"
expect_ok $check timed "$work/t.json"
finish
