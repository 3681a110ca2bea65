#!/usr/bin/env bash
# topomap-run on 4 ranks under the configured launcher (MPIEXEC: Open MPI
# 4.1's or 5's mpiexec, MPICH Hydra's): the whole pipeline on
# examples/halo3d (profile, build, map, run) leaves its files where --keep
# says, maps the one critical type's graph and runs the application in the
# launcher's form (Open MPI 4.1: --rankfile F; Open MPI 5: --map-by
# rankfile:file=F --bind-to core:overload-allowed; Hydra: -f F -bind-to
# user:LIST); with --graph, tests/mpi/whereami's ranks are bound where the
# mapping says; the application's exit status comes through; the launcher
# (a stand-in that logs and runs the real one) gets exactly the expected
# arguments, the options that place ranks (--map-by, -ppn) only for
# parmapper; under Open MPI --rankfile checks the rankfile in the job
# first (one rank per node, -np left out) and refuses a host or core this
# host does not have, naming the line, without running the application
# (--no-check skips it), under Hydra --hydra-hostfile F --map-cpu LIST
# runs a kept mapping; a failing step stops before the application; bad
# usage fails before anything runs, parmapper's command line (--time,
# --alpha, --seed, --parmapper) too, checked by parmapper --check-options
# (an exponent, hexadecimal, a sign; its limits exact; a typo in a
# --parmapper option), and passed on as written.
. "$TOPOMAP_SRCDIR/tests/pipeline_lib.sh"
run=$TOPOMAP_RUN
pm=$(realpath "$PARMAPPER")

# The whole pipeline.
k=$work/k
expect_ok "$run" --time 0.3 --keep "$k" -- \
  "$M" -n 4 "$EXAMPLES/halo3d" --bytes 64 --iters 2
expect_grep "halo3d: 4 ranks, grid 2x2x1, 64 bytes per message, 2 iterations" "$work/out"
mapfile=
[ "$mpi_kind" != hydra ] || mapfile=hydra-hostfile
for f in commprof.json graphs/summary.json graphs/p2p.tg.json rankfile $mapfile report.json; do
  checks=$((checks + 1)); [ -s "$k/$f" ] || fail "no $k/$f"
done
expect_grep "topomap-run: mapping: $M -n 4 $pm $k/graphs/p2p.tg.json --time 0.3 $(map_out "$k") --report $k/report.json" "$work/err"
expect_grep "topomap-run: running: $(run_head "$k") -n 4 $EXAMPLES/halo3d" "$work/err"
expect_grep "  default (block)" "$work/err"

# The ranks run where the mapping says.
expect_ok "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 --keep "$work/w" \
  -- "$M" -n 4 "$MPI_TESTS/whereami" --cpus
whereami_want "$work/w" > "$work/want"
checks=$((checks + 1))
[ "$(wc -l < "$work/want")" = 4 ] && diff "$work/want" "$work/out" ||
  fail "bindings differ from the mapping"

# The application's exit status, after a mapping and with a kept one.
expect_fail 3 "" "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 -- \
  "$M" -n 4 sh -c 'exit 3'
if [ "$mpi_kind" = hydra ]; then
  expect_fail 5 "topomap-run: running: $(run_head "$k") -n 4 sh -c" \
    "$run" --hydra-hostfile "$k/hydra-hostfile" --map-cpu "$(cpus_of "$k")" -- "$M" -n 4 sh -c 'exit 5'
  expect_fail 2 "--rankfile is not for $M (MPICH Hydra mpiexec): with it, --hydra-hostfile F" \
    "$run" --rankfile "$k/hydra-hostfile" -- "$M" -n 4 ./app
else
  expect_fail 5 "topomap-run: running: $(run_head "$k") -n 4 sh -c" \
    "$run" --rankfile "$k/rankfile" -- "$M" -n 4 sh -c 'exit 5'
  expect_grep "topomap-run: checking the rankfile: $M --map-by ppr:1:node $pm --check-rankfile $k/rankfile" "$work/err"
  expect_grep "topomap-run: $k/rankfile: 4 ranks on 1 of the job's 1 hosts, every host and core there" "$work/err"

  # A rankfile that names another host, or a core this host lacks, is
  # refused before the application runs, with the line; -np and -x are
  # the application's, --map-by left out of the check as of the run.
  host=$(hostname)
  cores=$(hwloc-calc --number-of core all)
  printf 'rank 0=%s slot=0\nrank 1=elsewhere slot=0\n' "$host" > "$work/other.rf"
  expect_fail 1 "parmapper: $work/other.rf:2: rank 1: host elsewhere is not a host of this job (its hosts: $host)" \
    "$run" --rankfile "$work/other.rf" -- "$M" -np 2 --map-by core -x FOO=1 touch "$work/ran"
  expect_grep "topomap-run: checking the rankfile: $M -x FOO=1 --map-by ppr:1:node" "$work/err"
  expect_grep "topomap-run: $work/other.rf does not fit this job (exit status 1); the application was not run" "$work/err"
  expect_no_file "$work/ran"
  printf 'rank 0=%s slot=0\nrank 1=%s slot=%d\n' "$host" "$host" "$cores" > "$work/core.rf"
  expect_fail 1 "parmapper: $work/core.rf:2: slot=$cores: host $host has $cores cores (hwloc, logical 0-$((cores - 1))), so core $cores does not exist there" \
    "$run" --rankfile "$work/core.rf" -- "$M" -np 2 touch "$work/ran"
  expect_no_file "$work/ran"
  # --no-check: the launcher alone, which fails without naming the core
  # (Open MPI 4.1 with status 1, 5 with 213).
  rc=1
  [ "$mpi_kind" = ompi4 ] || rc=213
  expect_fail $rc "" "$run" --rankfile "$work/core.rf" --no-check -- "$M" -np 2 touch "$work/ran"
  checks=$((checks + 1))
  ! grep -q "checking the rankfile" "$work/err" || fail "--no-check checked the rankfile"
  expect_no_file "$work/ran"
fi

# What the launcher is given: its --version (which launcher it is), Open
# MPI 4.1's --help all (its options), the mapping, the run.
mkdir "$work/bin"
stand=$work/bin/$(basename "$M")
printf '#!/bin/sh\necho "$*" >> %s/calls\nexec %s "$@"\n' "$work" "$M" > "$stand"
chmod +x "$stand"
case $mpi_kind in
  ompi4) opts=(-np 4 --map-by slot -x FOO=1) app_opts="-np 4 -x FOO=1" placing="--map-by slot" ;;
  ompi5) opts=(-np 4 --map-by slot -x FOO=1 --mca btl_base_verbose 0)
         app_opts="-np 4 -x FOO=1 --mca btl_base_verbose 0" placing="--map-by slot" ;;
  hydra) opts=(-n 4 -ppn 4 -genv FOO 1 -env BAR 2) app_opts="-n 4 -genv FOO 1 -env BAR 2" placing="-ppn 4" ;;
esac
f=$work/f
expect_ok "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 --seed 7 --keep "$f" \
  --parmapper --select=avg -- "$stand" "${opts[@]}" "$EXAMPLES/halo3d" --iters 1
{
  echo --version
  [ "$mpi_kind" != ompi4 ] || echo "--allow-run-as-root --help all"
  echo "${opts[*]} $pm $k/graphs/p2p.tg.json --time 0.3 $(map_out "$f") --report $f/report.json --seed 7 --select=avg"
  M=$stand
  echo "$(run_head "$f" ,) $app_opts $EXAMPLES/halo3d --iters 1" | sed "s|^$stand ||"
} > "$work/want"
checks=$((checks + 1)); diff "$work/want" "$work/calls" || fail "the launcher's arguments"
expect_grep "topomap-run: leaving '$placing' out of the application's run" "$work/err"

# A step that fails stops the run before the application.
echo '{"format": "topomap-taskgraph", "version": 1, "tasks": 4' > "$work/bad.tg.json"
expect_fail 1 "topomap-run: mapping failed (exit status 1); the application was not run" \
  "$run" --graph "$work/bad.tg.json" --time 0.3 -- "$M" -n 4 touch "$work/ran"
expect_no_file "$work/ran"

# Signals.  wait_for FILE TEXT PID: until FILE has a line matching TEXT
# (a regex), false when PID ends first or after 300 s (an MPI job starts
# slowly on a loaded machine).
wait_for() {
  local i
  for ((i = 0; i < 600; i++)); do
    grep -q -- "$2" "$1" 2> /dev/null && return 0
    kill -0 "$3" 2> /dev/null || return 1
    sleep 0.5
  done
  return 1
}
# expect_gone PATTERN WHAT: no process left whose command line matches
# PATTERN (a path under $work), given 20 s to end; any left is named,
# killed, and fails the test.
expect_gone() {
  local i left
  checks=$((checks + 1))
  for ((i = 0; i < 40; i++)); do
    left=$(pgrep -f -- "$1") || return 0
    sleep 0.5
  done
  fail "$2 still running:"
  ps -o pid=,args= -p "${left//$'\n'/,}" | sed 's/^/  /'
  # shellcheck disable=SC2086 # a PID a word
  kill -KILL $left 2> /dev/null
}
# expect_status CODE PID: the exit status of background job PID.
expect_status() {
  wait "$2"
  local rc=$?
  checks=$((checks + 1))
  [ "$rc" = "$1" ] || fail "exit status $rc, not $1"
}

# TERM to topomap-run alone (kill PID, not its process group) during the
# mapping, once parmapper's search runs (its first progress line): passed
# on to the launcher, which ends parmapper's ranks; topomap-run waits for
# them, removes its temporary folder and exits 128 + 15, the application
# not run.  (It used to exit at once, leaving the launcher and its ranks
# searching for --time seconds in a folder it had removed.)
cp "$k/graphs/p2p.tg.json" "$work/sig.tg.json"
"$run" --graph "$work/sig.tg.json" --time 600 \
  -- "$M" -n 4 touch "$work/ran" > "$work/sig.out" 2> "$work/sig.err" &
pid=$!
wait_for "$work/sig.err" '^parmapper: [0-9]* s, ' $pid ||
  fail "no progress line from parmapper: $(cat "$work/sig.err")"
kill -TERM $pid
expect_status 143 $pid
expect_grep "topomap-run: mapping stopped by SIGTERM; the application was not run" "$work/sig.err"
expect_gone "$work/sig.tg.json" "the mapping's launcher or ranks"
tmp=$(sed -n 's|^topomap-run: mapping: .* --rankfile \([^ ]*\)/rankfile .*|\1|p' "$work/sig.err")
checks=$((checks + 1))
[ -n "$tmp" ] && [ ! -e "$tmp" ] || fail "the temporary folder '$tmp' is left"
expect_no_file "$work/ran"

# Ctrl-C: INT to the whole process group (a session of its own, SIGINT
# not ignored as the shell leaves it in a background job) during the
# profiling run, whose ranks (a script that waits) are not MPI programs:
# each process has the signal once, topomap-run passing it on to none
# (Open MPI's mpirun would take a second one as "ctrl-c again" and exit at
# once, its ranks left running); exit status 130, nothing left.
mkfifo "$work/fifo"
printf '#!%s\nread -t 600 <> %q\n' "$BASH" "$work/fifo" > "$work/spin"
chmod +x "$work/spin"
env --default-signal=INT setsid "$run" --time 0.3 -- "$M" -n 2 "$work/spin" \
  < /dev/null > "$work/int.out" 2> "$work/int.err" &
pid=$!
for ((i = 0; i < 600; i++)); do
  [ "$(pgrep -c -f -- "^$BASH $work/spin")" = 2 ] || ! kill -0 $pid 2> /dev/null && break
  sleep 0.5
done
checks=$((checks + 1))
[ "$(pgrep -c -f -- "^$BASH $work/spin")" = 2 ] || fail "the profiling run's 2 ranks did not start: $(cat "$work/int.err")"
kill -INT -- -$pid
expect_status 130 $pid
expect_grep "topomap-run: profiling stopped by SIGINT; the application was not run" "$work/int.err"
expect_gone "$work/spin" "the profiling run's launcher or ranks"

# Bad usage.
g=$k/graphs/p2p.tg.json
expect_fail 2 "no job to run" "$run" --graph "$g"
expect_fail 2 "unknown option '--bogus'" "$run" --bogus -- "$M" -n 4 ./app
expect_fail 2 "'aprun' is not Open MPI's mpirun or mpiexec (4.1, or 5 and PRRTE's prterun), MPICH Hydra's mpiexec, nor Slurm's srun (by what its --version says)" \
  "$run" --graph "$g" -- aprun -n 4 ./app
# srun's options come from srun --help, which needs Slurm's configuration
# (an empty one fails at once; tests/cluster_slurm.sh runs srun on a Slurm
# cluster).
if command -v srun > /dev/null; then
  expect_fail 1 "srun --help: no options listed (is Slurm's configuration there? SLURM_CONF)" \
    env SLURM_CONF=/dev/null "$run" --graph "$g" -- srun -n 4 ./app
fi
expect_fail 2 "--rankfile is not for srun (Slurm srun): with it, --slurm-hostfile F" \
  "$run" --rankfile "$g" -- srun -n 4 ./app
expect_fail 2 "--hydra-hostfile is not for srun (Slurm srun): with it, --slurm-hostfile F" \
  "$run" --hydra-hostfile "$g" -- srun -n 4 ./app
expect_fail 2 "--slurm-hostfile is not for $M (" \
  "$run" --slurm-hostfile "$g" -- "$M" -n 4 ./app
expect_fail 2 "--rankfile and --slurm-hostfile exclude each other" \
  "$run" --rankfile "$g" --slurm-hostfile "$g" -- srun -n 4 ./app
expect_fail 2 "--map-cpu goes with --slurm-hostfile or --hydra-hostfile" "$run" --map-cpu 0,1 -- srun -n 4 ./app
expect_fail 2 "--map-cpu wants CPU numbers separated by commas (0,1,2), not '0;1'" \
  "$run" --slurm-hostfile "$g" --map-cpu '0;1' -- srun -n 4 ./app
expect_fail 2 "--slurm-hostfile runs a mapping made earlier" \
  "$run" --slurm-hostfile "$g" --graph "$g" -- srun -n 4 ./app
expect_fail 2 "--hydra-hostfile runs a mapping made earlier" \
  "$run" --hydra-hostfile "$g" --map-only -- "$M" -n 4 ./app
expect_fail 2 "no option '--bogus'" "$run" --graph "$g" -- "$M" --bogus 4 ./app
expect_fail 2 "no application after the $M options" "$run" --graph "$g" -- "$M" -n 4
expect_fail 2 "an MPMD command line (':')" "$run" --graph "$g" -- "$M" -n 2 ./a : -n 2 ./b
one=(--rankfile r)
[ "$mpi_kind" != hydra ] || one=(-configfile r)
expect_fail 2 "$M ${one[*]}: topomap maps one application with the mapping it makes" \
  "$run" --graph "$g" -- "$M" "${one[@]}" -n 4 ./app
# parmapper's command line is checked by parmapper itself (parmapper
# --check-options) before anything runs: its message, then topomap-run's
# line, exit 2.
refused() {
  local msg=$1
  shift
  expect_fail 2 "parmapper: $msg (see 'parmapper --help')" "$run" "$@"
  expect_grep "topomap-run: parmapper would refuse its options from --time, --network, --alpha, --seed or --parmapper (see --help)" "$work/err"
}
refused "--time wants a number of seconds > 0, not '0'" --time 0 -- "$M" ./app
refused "--alpha wants a number in 1..1e+09, not '0.5'" --alpha 0.5 -- "$M" ./app
# Beyond parmapper's limits: refused before anything runs (the profiling
# run would touch the file), not by parmapper after the profiling run.
refused "--time wants a number in 0..1e+09, not '2000000000'" \
  --time 2000000000 -- "$M" -n 2 touch "$work/ran"
refused "--alpha wants a number in 1..1e+09, not '1000000001'" \
  --alpha 1000000001 -- "$M" -n 2 touch "$work/ran"
for s in 18446744073709551616 99999999999999999999 100000000000000000000 -1 1x; do
  refused "--seed wants an integer in 0..18446744073709551615, not '$s'" \
    --seed "$s" -- "$M" -n 2 touch "$work/ran"
done
# And the --parmapper options, with the outputs that topomap-run gives
# (--keep's folder need not exist yet).
refused "unknown option '--bogus'" --parmapper --bogus -- "$M" -n 2 touch "$work/ran"
refused "--select: alpha, avg, max or maxload, not 'best'" --parmapper=--select=best \
  -- "$M" -n 2 touch "$work/ran"
refused "option '--rounds' needs a value" --parmapper --rounds -- "$M" -n 2 touch "$work/ran"
refused "unexpected argument 'extra'" --parmapper extra -- "$M" -n 2 touch "$work/ran"
refused "--hetero needs --placement FILE" --parmapper --hetero=x.json \
  -- "$M" -n 2 touch "$work/ran"
refused "--mapping and --report name the same file" --keep "$work/kept" \
  --parmapper --mapping="$work/kept/report.json" -- "$M" -n 2 touch "$work/ran"
expect_no_file "$work/ran"
expect_no_file "$work/kept"
# Their largest values are parmapper's too (leading zeros taken, as
# parmapper takes them).
expect_ok "$run" --graph "$g" --time 0.3 --seed 000018446744073709551615 --alpha 1000000000 \
  --map-only -- "$M" -n 4 true
expect_grep "--alpha 1000000000 --seed 000018446744073709551615" "$work/err"
# Numbers as parmapper reads them (strtod and strtoull in C, through
# parmapper/options.c), parmapper being the judge: an exponent,
# hexadecimal, a sign, white space before; what parmapper refuses is
# refused, down to a value's rounding at the limits (up to 1e9 + 2^-24
# rounds to 1e9, from 1 - 2^-54 up to 1) and strtod's underflow (1e-310 is
# ERANGE, 0x1p-1074 exact).  A value taken here lets the command line go
# on to the launcher, which is then refused.
taken() { expect_fail 2 "'aprun' is not Open MPI's mpirun or mpiexec" "$run" "$@" -- aprun -n 4 ./app; }
for v in 1e9 1E9 5e-1 .5 1. +1e9 ' 5' $'\t5' 0x10 0x1p-2 0X3B9ACA00 \
  1000000000.0000000596 0x1p-1074 000060; do
  taken --time "$v"
done
for v in 1000000000.0000000597 0x3b9aca01 1e-310 1e-400 inf nan '5 ' '' \
  1e 0x 1_0 -1; do
  refused "--time wants a number in 0..1e+09, not '$v'" --time "$v" -- aprun -n 4 ./app
done
for v in 0 -0 0x0; do
  refused "--time wants a number of seconds > 0, not '$v'" --time "$v" -- aprun -n 4 ./app
done
for v in 1e0 0x1p0 0.99999999999999995 1e9 ''; do
  taken --alpha "$v"
done
for v in 0.99999999999999994 5e-1 1000000000.0000000597 inf; do
  refused "--alpha wants a number in 1..1e+09, not '$v'" --alpha "$v" -- aprun -n 4 ./app
done
for v in ' +7' +0 007 ''; do
  taken --seed "$v"
done
# (' -1': strtoull would take it as 2^64 - 1; parmapper refuses it)
for v in ' -1' + '7 ' 0x10 1e3; do
  refused "--seed wants an integer in 0..18446744073709551615, not '$v'" \
    --seed "$v" -- aprun -n 4 ./app
done
# Passed on to parmapper as written, which takes them (--first: one round
# of the search, within the time limit).
expect_ok "$run" --graph "$g" --time 1e9 --alpha 1e0 --seed ' +7' --parmapper --first \
  --map-only -- "$M" -n 4 true
expect_grep "$g --time 1e9 --rankfile" "$work/err"
expect_grep "--alpha 1e0 --seed \ +7 --first" "$work/err"
expect_fail 2 "--rankfile runs a mapping made earlier" \
  "$run" --rankfile "$g" --graph "$g" -- "$M" ./app
expect_fail 2 "--no-check goes with --rankfile" "$run" --graph "$g" --no-check -- "$M" ./app
expect_fail 1 "$work/none.tg.json: no such file" "$run" --graph "$work/none.tg.json" -- "$M" ./app
expect_ok "$run" --help
expect_grep "Usage: topomap-run [OPTIONS] [--] LAUNCHER LAUNCHER-ARGS APP APP-ARGS" "$work/out"
# The whole comment at the top of the script, to its last sentence, and
# nothing after it.
checks=$((checks + 1))
[ "$(tail -n 1 "$work/out")" = "bad command line.  See topomap-run(1)." ] ||
  fail "--help ends with: $(tail -n 1 "$work/out")"
finish
