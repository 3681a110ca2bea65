#!/usr/bin/env bash
# parmapper's progress under mpirun, where standard error is never a
# terminal: rank 0 prints a line every 3 s of the search (time, runs, best
# so far, time left), nothing else comes on standard error, and --quiet
# silences them.  A 7 s search has a line at 3 s or later and at most one
# more (lines are 3 s apart and the search stops at 7 s); two ranks
# printing would show more.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
expect_ok "$TASKGRAPH" gen stencil --dims 8x8 -o "$work/g.tg.json"
line='^parmapper: [0-9]+ s, [0-9]+ runs, (best avg [0-9]+\.[0-9], best max [0-9]+|none finished yet), [0-9]+ s left$'

expect_ok pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --time 7 --report "$work/r.json"
cp "$work/err" "$work/progress"
checks=$((checks + 1))
n=$(grep -cE "$line" "$work/progress")
[ "$n" -ge 1 ] && [ "$n" -le 2 ] || { fail "expected 1 or 2 progress lines, got $n:"; sed 's/^/  /' "$work/progress"; }
checks=$((checks + 1))
[ "$(grep -cvE "$line" "$work/progress")" -eq 0 ] || { fail "other lines on stderr:"; sed 's/^/  /' "$work/progress"; }
checks=$((checks + 1))
grep -q '^chosen: ' "$work/out" || fail "no 'chosen:' line on stdout"
# The first line comes once runs have finished: best so far is shown.
checks=$((checks + 1))
grep -qE '^parmapper: [0-9]+ s, [1-9][0-9]* runs, best avg' "$work/progress" ||
  { fail "no best so far in:"; sed 's/^/  /' "$work/progress"; }

expect_ok pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --time 7 --quiet --report "$work/r.json"
checks=$((checks + 1))
[ ! -s "$work/err" ] || { fail "--quiet printed on stderr:"; sed 's/^/  /' "$work/err"; }
checks=$((checks + 1))
grep -q '^chosen: ' "$work/out" || fail "--quiet: no 'chosen:' line on stdout"
expect_fail 2 "--check-rankfile FILE takes no task graph and no other option" \
  "$PARMAPPER" --check-rankfile "$work/r.json" --quiet
finish
