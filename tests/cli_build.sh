#!/usr/bin/env bash
# taskgraph build on hand-written profiles (tests/data/build_*.json): the
# exact table and files, the METIS and Scotch copies checked by graphchk
# and gtst where installed, a previous build replaced; bad input (another
# format version, a truncated or partial profile, folders that cannot be
# written, bad options): a clear message, a non-zero exit, nothing
# written; and topomap-plot's matrix of a profile and of a graph.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH
d=$TOPOMAP_DATA
plot=$TOPOMAP_SRCDIR/scripts/topomap-plot

# ------------------------------------------------- the Qbox-like fixture
out=$work/qbox
expect_ok $tg build "$d/build_qbox.json" -o "$out"
checks=$((checks + 1))
diff -u - "$work/out" > "$work/diff" <<EOF || { fail "output differs:"; cat "$work/diff"; }
type                    share     kept          bytes      calls  sizes       filtered  C*   factor    model
p2p                    60.00%   66.67%          16000        160  -           no        yes  0.666667
alltoall               30.00%   33.33%           9600         16  2           no        yes  0.333333
allreduce              10.00%        -           5120         80  8           large     no   -

critical types: p2p, alltoall (100.00% of the time left after filtering; coverage 0.85, min-share 0.05)
wrote $out/p2p.tg.json: 8 tasks, 8 edges
wrote $out/alltoall.tg.json: 8 tasks, 4 edges
wrote $out/sum.tg.json: 8 tasks, 12 edges
wrote $out/wsum.tg.json: 8 tasks, 12 edges
wrote $out/summary.json
EOF
checks=$((checks + 1))
[ "$(ls -A "$out" | tr '\n' ' ')" = "alltoall.tg.json p2p.tg.json sum.tg.json summary.json wsum.tg.json " ] ||
  { fail "unexpected files:"; ls -A "$out"; }
expect_ok $tg info "$out/wsum.tg.json"
expect_output "types        p2p (factor 0.666667), alltoall (factor 0.333333)"
# The layers re-weighted by hand give the Weighted-sum again.
expect_ok $tg combine "$out/sum.tg.json" --weights p2p=0.6666666666666666,alltoall=0.3333333333333333 -o "$work/again.tg.json"
expect_ok $tg convert "$work/again.tg.json" "$work/again.graph"
expect_ok $tg convert "$out/wsum.tg.json" "$work/wsum.graph"
checks=$((checks + 1)); cmp -s "$work/again.graph" "$work/wsum.graph" || fail "combine of the layers differs from wsum"

# --coverage 0 is the smallest coverage, not none: C* still holds the
# heaviest type, as with any coverage that type reaches alone; only a
# min-share above every type's share leaves it empty.
for cov in 0 0.0001 0.6666; do
  expect_ok $tg build "$d/build_qbox.json" -o "$work/cov" --coverage $cov
  expect_output "critical types: p2p (66.67% of the time left after filtering; coverage $cov, min-share 0.05)"
done
expect_ok $tg build "$d/build_qbox.json" -o "$work/cov" --coverage 0.6667
expect_output "critical types: p2p, alltoall (100.00% of the time left after filtering; coverage 0.6667, min-share 0.05)"
expect_fail 1 "taskgraph: $d/build_qbox.json: no critical type: no type has min-share 0.7 of the time left after filtering" \
  $tg build "$d/build_qbox.json" -o "$work/cov" --coverage 0 --min-share 0.7

# Filtering off, the ring model named in the table.
expect_ok $tg build "$d/build_qbox.json" -o "$out" --large 2 --allreduce-model ring
expect_output "allreduce              10.00%   10.00%           5120         80  8           no        no   -         ring"

# METIS and Scotch copies; the previous build is replaced.
expect_ok $tg build "$d/build_qbox.json" -o "$out" --format metis,scotch
checks=$((checks + 1))
[ "$(ls -A "$out" | wc -l)" -eq 13 ] || { fail "expected 13 files:"; ls -A "$out"; }
for g in p2p alltoall sum wsum; do
  if [ -n "$GRAPHCHK" ]; then expect_ok "$GRAPHCHK" "$out/$g.graph"; fi
  if [ -n "$SCOTCH_GTST" ]; then expect_ok "$SCOTCH_GTST" "$out/$g.grf"; fi
done

# One critical type: Sum and Weighted-sum are its graph, and it says so.
expect_ok $tg build "$d/build_p2p.json" -o "$out"
expect_output "one critical type: sum.tg.json and wsum.tg.json equal p2p.tg.json"
checks=$((checks + 1))
[ "$(ls -A "$out" | tr '\n' ' ')" = "p2p.tg.json sum.tg.json summary.json wsum.tg.json " ] ||
  { fail "stale files of the previous build:"; ls -A "$out"; }
checks=$((checks + 1))
grep -q '"single": true' "$out/summary.json" || fail "summary.json does not say single"

# -------------------------------------------------------------- bad input
bad=$work/bad
expect_fail 1 "taskgraph: $d/profile_bad_version.json: profile format version 2, this taskgraph reads version 1" \
  $tg build "$d/profile_bad_version.json" -o "$bad"
expect_fail 1 "taskgraph: $d/profile_truncated.json:21:" $tg build "$d/profile_truncated.json" -o "$bad"
expect_fail 1 "a partial profile: merge the per-rank files first" $tg build "$d/profile_4.json.rank0" -o "$bad"
expect_fail 1 "taskgraph: $work/none.json: cannot open" $tg build "$work/none.json" -o "$bad"
expect_no_file "$bad"
# Folders that cannot be written (root writes anywhere chmod allows, so
# places no one can create in).
expect_fail 1 "taskgraph: /proc/topomap-build: cannot create" $tg build "$d/build_p2p.json" -o /proc/topomap-build
touch "$work/file"
expect_fail 1 "taskgraph: $work/file/sub: cannot use: Not a directory" $tg build "$d/build_p2p.json" -o "$work/file/sub"
expect_fail 1 "taskgraph: $work/file: exists and is not a folder" $tg build "$d/build_p2p.json" -o "$work/file"
mkdir "$work/mine" && echo keep > "$work/mine/notes.txt"
expect_fail 1 "taskgraph: $work/mine: holds 'notes.txt', which a build does not write" \
  $tg build "$d/build_p2p.json" -o "$work/mine"
checks=$((checks + 1))
[ "$(ls -A "$work/mine")" = notes.txt ] || fail "a refused build touched the folder"
# A graph of the user's own in a previous build: a name a build might
# write, but summary.json does not list it, so the build is refused and
# the folder left alone.
mine=$work/mine2
expect_ok $tg build "$d/build_qbox.json" -o "$mine"
expect_ok $tg gen stencil --dims 3x3 -o "$mine/my_precious.tg.json"
cp "$mine/summary.json" "$work/summary.before"
expect_fail 1 "taskgraph: $mine: holds 'my_precious.tg.json', which the build there did not write (its summary.json does not list it): remove it or choose another folder" \
  $tg build "$d/build_qbox.json" -o "$mine" --allreduce-model ring
checks=$((checks + 1))
[ "$(ls -A "$mine" | tr '\n' ' ')" = "alltoall.tg.json my_precious.tg.json p2p.tg.json sum.tg.json summary.json wsum.tg.json " ] &&
  cmp -s "$mine/summary.json" "$work/summary.before" || { fail "a refused build touched the folder:"; ls -A "$mine"; }
# Nor is anything but a plain file taken for part of a build.
rm -f "$mine/my_precious.tg.json"; mkdir -p "$mine/sum.grf"
expect_fail 1 "taskgraph: $mine: holds 'sum.grf', which the build there did not write (not a plain file)" \
  $tg build "$d/build_qbox.json" -o "$mine"
rmdir "$mine/sum.grf"
# Without the user's file, the previous build is replaced; a build whose
# file the user removed is one too.
rm "$mine/alltoall.tg.json"
expect_ok $tg build "$d/build_p2p.json" -o "$mine"
checks=$((checks + 1))
[ "$(ls -A "$mine" | tr '\n' ' ')" = "p2p.tg.json sum.tg.json summary.json wsum.tg.json " ] ||
  { fail "the previous build was not replaced:"; ls -A "$mine"; }
# No type left: an error, nothing written, the previous build kept.
expect_fail 1 "taskgraph: $d/build_coll8.json: no critical type: no time left" $tg build "$d/build_coll8.json" -o "$out"
checks=$((checks + 1))
grep -q '"single": true' "$out/summary.json" || fail "a failed build changed the previous one"
checks=$((checks + 1))
[ "$(ls -A "$work" | grep -c '^\.')" -eq 0 ] || { fail "temporary folders left:"; ls -A "$work"; }

# Usage.
expect_fail 2 "no output folder: give -o DIR" $tg build "$d/build_p2p.json"
expect_fail 2 "no profile given" $tg build -o "$bad"
expect_fail 2 "unexpected argument 'x'" $tg build "$d/build_p2p.json" x -o "$bad"
expect_fail 2 "--allreduce-model: auto, ring, recursive-doubling, rabenseifner or clique, not 'tree'" \
  $tg build "$d/build_p2p.json" -o "$bad" --allreduce-model tree
expect_fail 2 "--format: metis or scotch, not 'json'" $tg build "$d/build_p2p.json" -o "$bad" --format json
expect_fail 2 "--coverage wants a number in 0..1, not '2'" $tg build "$d/build_p2p.json" -o "$bad" --coverage 2
expect_fail 2 "--min-share wants a number in 0..1, not '-1'" $tg build "$d/build_p2p.json" -o "$bad" --min-share -1
expect_fail 2 "unknown option '--bogus'" $tg build "$d/build_p2p.json" -o "$bad" --bogus
expect_no_file "$bad"
expect_ok $tg build --help
expect_output "usage: taskgraph build PROFILE -o DIR [--large F] [--coverage F]"

# ----------------------------------------------------------- topomap-plot
expect_ok $plot --help
expect_fail 2 "no output file: give -o FILE.png" $plot matrix "$d/build_qbox.json"
expect_fail 1 "topomap-plot: $work/none.json: cannot open" $plot matrix "$work/none.json" -o "$work/m.png"
# Debian's python3 (the script's), which python3-matplotlib is for.
if /usr/bin/python3 -c 'import matplotlib' 2> /dev/null; then
  expect_ok $plot matrix "$d/build_qbox.json" -o "$work/profile.png"
  expect_output "wrote $work/profile.png: 3 panels (p2p, alltoall, allreduce), 8 ranks"
  expect_ok $plot matrix "$out/sum.tg.json" -o "$work/graph.png"
  expect_output "wrote $work/graph.png: 1 panel (p2p), 4 tasks"
  checks=$((checks + 1))
  [ "$(head -c 8 "$work/graph.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
else
  echo "topomap-plot: python3-matplotlib not installed (scripts/install-deps.sh); no picture drawn"
fi
finish
