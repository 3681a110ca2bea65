#!/usr/bin/env bash
# commprof-run: tests/mpi/pattern through it on 4 ranks gives the exact
# profile (pattern and --start off, whose COMMPROF_START the profiler
# takes without a warning), where -o says or in the working folder; the
# launcher's exit status comes through, and after a job that aborted, the
# merge command it prints works; the options it adds after
# Open MPI 4.1's and 5's mpirun, PRRTE's prterun and Hydra's mpiexec (told
# apart by their --version), and the environment it gives srun, are
# exactly the expected ones (seen by stand-in launchers), the caller's own
# LD_PRELOAD option merged only when it is the launcher's, not the
# application's; after a job that died it lists only the
# partial files that job left and the merge command; -o to a place that
# cannot be written and bad usage fail before anything runs.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/commprof_check.py"
unset LD_PRELOAD
cr=$COMMPROF_RUN
lib=$(cd "$(dirname "$COMMPROF_LIB")" && pwd -P)/libcommprof.so
# In a sanitized build commprof-run puts the ASan runtime first.
first=${COMMPROF_PRELOAD%"$COMMPROF_LIB"}

expect_grep() { checks=$((checks + 1)); grep -qF -- "$1" "$2" || { fail "no '$1' in $2:"; cat "$2"; }; }

# The real thing, on 4 ranks, with the configured launcher (-n: Open MPI's
# mpirun and MPICH's Hydra both take it).
expect_ok "$cr" -o "$work/p.json" -- "$MPIEXEC" -n 4 "$PATTERN"
expect_grep "commprof-run: profile written to $work/p.json" "$work/err"
expect_ok $check pattern "$work/p.json"
expect_ok "$cr" --start off -o "$work/late.json" "$MPIEXEC" -n 4 "$PATTERN"
# The COMMPROF_START value it passes is one the profiler takes unwarned.
checks=$((checks + 1))
grep -q "commprof (rank" "$work/err" && fail "--start off: a warning: $(cat "$work/err")"
expect_ok $check late "$work/late.json"
mkdir "$work/here"
expect_ok bash -c "cd '$work/here' && '$cr' '$MPIEXEC' -n 4 '$PATTERN'"
expect_ok $check pattern "$work/here/commprof.json"

# The job's exit status comes through.
expect_fail 3 "no profile was written to $work/x.json" \
  "$cr" -o "$work/x.json" "$MPIEXEC" -n 4 sh -c 'exit 3'

# A job that dies (tests/mpi/abort.c: MPI_Abort(3) on rank 1): its exit
# status, the partial files it left, listed, and a merge command that
# makes a whole profile of them.
mkdir "$work/ab"
expect_fail 3 "ranks left a partial profile:" \
  "$cr" -o "$work/ab/p.json" "$MPIEXEC" -n 4 "$MPI_TESTS/abort" abort
ls "$work/ab"/p.json.rank* | sed 's/^/  /' > "$work/want"
checks=$((checks + 1))
grep -a '^  /' "$work/err" | diff "$work/want" - || fail "partial files listed"
merge=$(sed -n '/combine them with:/{n;p}' "$work/err")
expect_ok env PATH="$(dirname "$TASKGRAPH"):$PATH" bash -c "$merge"
expect_ok python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
assert p["world_size"] == 4 and "partial" not in p' "$work/ab/p.json"

# Stand-in launchers: say they are Open MPI's, print what they were given,
# leave partial files for ranks 0 and 2 of 4 (rank 1's is from an earlier
# run) and exit 5.
mkdir "$work/bin"
# Open MPI 4.1's options are read from its --help all.
cat > "$work/bin/mpirun" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "mpirun (Open MPI) 4.1.4"; exit 0; }
[ "$2" = --help ] && { printf '   -c|-np|--np <arg0>  Number of processes to run\n   -x <arg0>  Export\n'; exit 0; }
printf '%s\n' "$@"
for a in "$@"; do
  case $a in COMMPROF_OUT=*) out=${a#COMMPROF_OUT=} ;; esac
done
for r in 0 2; do echo '{"format": "topomap-commprof", "world_size": 4}' > "$out.rank$r"; done
exit 5
EOF
# MPICH's Hydra: it prints what it was given.
cat > "$work/bin/mpiexec" <<'EOF'
#!/usr/bin/env bash
[ "$1" = --version ] && { printf 'HYDRA build details:\n    Version: 4.0.2\n'; exit 0; }
printf '%s\n' "$@"
EOF
# Open MPI 5's mpiexec and PRRTE's prterun, by their --version.
for v in "mpiexec (Open MPI) 5.0.11" "prterun (PRRTE) 3.0.14"; do
  cat > "$work/bin/${v%% *}5" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && { echo "$v"; exit 0; }
printf '%s\n' "\$@"
EOF
  chmod +x "$work/bin/${v%% *}5"
done
cat > "$work/bin/srun" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" "LD_PRELOAD=$LD_PRELOAD" "COMMPROF_OUT=$COMMPROF_OUT" "COMMPROF_START=${COMMPROF_START:-}"
EOF
chmod +x "$work/bin/mpirun" "$work/bin/mpiexec" "$work/bin/srun"
out=$work/d.json
touch -d '1 hour ago' "$out.rank1"
expect_fail 5 "2 of 4 ranks left a partial profile:" \
  env LD_PRELOAD=libfirst.so "$cr" -o "$out" "$work/bin/mpirun" -np 4 \
  -x LD_PRELOAD=libsecond.so -x OTHER=1 ./app --flag
printf '%s\n' -x "LD_PRELOAD=${first}libsecond.so:$lib" -x "COMMPROF_OUT=$out" \
  -np 4 -x OTHER=1 ./app --flag > "$work/want"
checks=$((checks + 1)); diff "$work/want" "$work/out" || fail "options given to mpirun"
expect_grep "  $out.rank0" "$work/err"
expect_grep "  $out.rank2" "$work/err"
checks=$((checks + 1)); grep -q "rank1" "$work/err" && fail "an older partial file was listed"
expect_grep "  taskgraph merge $out.rank0 $out.rank2 -o $out --allow-missing" "$work/err"

ln -s mpirun "$work/bin/mpiexec.openmpi"
expect_fail 5 "" env LD_PRELOAD=libfirst.so "$cr" --start=off -o "$out" \
  "$work/bin/mpiexec.openmpi" ./app
printf '%s\n' -x "LD_PRELOAD=${first}libfirst.so:$lib" -x "COMMPROF_OUT=$out" \
  -x COMMPROF_START=off ./app > "$work/want"
checks=$((checks + 1)); diff "$work/want" "$work/out" || fail "options with --start off"

# Hydra: -genv NAME VALUE; the caller's own -genv LD_PRELOAD goes first;
# the values of -f, -env (two) and -bind-to are not the application,
# whose own -genv LD_PRELOAD stays its argument.
expect_ok env LD_PRELOAD=libfirst.so "$cr" --start off -o "$out" "$work/bin/mpiexec" -n 4 \
  -f hosts -env A 1 -genv LD_PRELOAD libsecond.so -bind-to core ./app -genv LD_PRELOAD x
printf '%s\n' -genv LD_PRELOAD "${first}libsecond.so:$lib" -genv COMMPROF_OUT "$out" \
  -genv COMMPROF_START off -n 4 -f hosts -env A 1 -bind-to core ./app -genv LD_PRELOAD x > "$work/want"
checks=$((checks + 1)); diff "$work/want" "$work/out" || fail "options given to Hydra's mpiexec"

# Open MPI 5 and PRRTE: -x NAME=VALUE, with one or two dashes; --mca takes
# two values, --map-by one.
for l in mpiexec5 prterun5; do
  expect_ok "$cr" -o "$out" "$work/bin/$l" --np 4 --mca btl self --map-by core \
    --x LD_PRELOAD=libsecond.so ./app -x LD_PRELOAD=x
  printf '%s\n' -x "LD_PRELOAD=${first}libsecond.so:$lib" -x "COMMPROF_OUT=$out" \
    --np 4 --mca btl self --map-by core ./app -x LD_PRELOAD=x > "$work/want"
  checks=$((checks + 1)); diff "$work/want" "$work/out" || fail "options given to $l"
done
expect_fail 2 "$work/bin/mpiexec5 (Open MPI 5 (PRRTE) mpirun) has no option '--bogus' that topomap knows" \
  "$cr" -o "$out" "$work/bin/mpiexec5" --bogus ./app

expect_ok bash -c "cd '$work' && '$cr' -o rel.json --start off '$work/bin/srun' -n 2 ./app"
printf '%s\n' -n 2 ./app "LD_PRELOAD=$first$lib" "COMMPROF_OUT=$work/rel.json" \
  COMMPROF_START=off > "$work/want"
checks=$((checks + 1)); diff "$work/want" "$work/out" || fail "srun environment"
expect_grep "srun: passing LD_PRELOAD and COMMPROF_OUT in the environment" "$work/err"

# -o where nothing can be written: an error before the job runs.
touch "$work/afile"
expect_fail 1 "$work/missing: no such folder" "$cr" -o "$work/missing/p.json" "$work/bin/mpirun"
expect_fail 1 "$work/afile: not a folder" "$cr" -o "$work/afile/p.json" "$work/bin/mpirun"
expect_fail 1 "$work/here: is a folder" "$cr" -o "$work/here" "$work/bin/mpirun"
expect_fail 1 "/proc: cannot write the profile there" "$cr" -o /proc/p.json "$work/bin/mpirun"
checks=$((checks + 1)); [ -s "$work/out" ] && fail "the job ran although -o could not be written"

# Bad usage.
expect_fail 2 "no command to run" "$cr"
expect_fail 2 "no command to run" "$cr" -o "$work/p.json" --
expect_fail 2 "-o needs a file name" "$cr" -o
expect_fail 2 "unknown option '--bogus'" "$cr" --bogus mpirun ./app
expect_fail 2 "--start takes on or off, not 'later'" "$cr" --start later mpirun ./app
expect_fail 2 "'./app' is not the mpirun or mpiexec of Open MPI (4.1, or 5 and PRRTE's prterun) or MPICH (Hydra), nor srun (by what its --version says)" "$cr" ./app
expect_ok "$cr" --help
expect_output "Usage: commprof-run [-o FILE] [--start on|off] [--] LAUNCHER ARGS..."
finish
