#!/usr/bin/env bash
# memprobe's CPU part on this machine: it writes a calibration file that
# topomap-place reads (bandwidth and latency of every NUMA node that holds
# the arrays), shows progress on stderr, and refuses bad arguments.  The
# figures depend on the machine: only their presence is checked.
. "$TOPOMAP_SRCDIR/tests/lib.sh"

expect_ok "$MEMPROBE" --size 8 --repeats 2 --no-gpu -o "$work/cal.json"
checks=$((checks + 1))
grep -q '^memprobe: NUMA node [0-9]* (.*) from cores .*, [0-9]* threads: copy [0-9]* MiB/s, triad [0-9]* MiB/s, latency [0-9.]* ns$' "$work/err" ||
  { fail "no progress line on stderr"; sed 's/^/  /' "$work/err"; }
cp "$work/cal.json" "$work/out"
expect_output '  "format": "topomap-memcal",'
expect_output '  "method": {"array_bytes": 8388608, "repeats": 2},'
expect_ok "$TOPOMAP_PLACE" --describe -c "$work/cal.json"
checks=$((checks + 1))
grep -q '^numa [0-9]*: .*, bandwidth [1-9][0-9.e+]* MiB/s (\(calibration\|hwloc\)), latency [1-9][0-9.e+]* ns' "$work/out" ||
  { fail "the calibration did not reach topomap-place"; sed 's/^/  /' "$work/out"; }

expect_ok "$MEMPROBE" --size 8 --repeats 1 --no-gpu -q -o "$work/quiet.json"
checks=$((checks + 1))
[ ! -s "$work/err" ] || fail "--quiet printed on stderr"

expect_fail 2 "--size wants an integer" "$MEMPROBE" --size 0
expect_fail 2 "unexpected argument 'x'" "$MEMPROBE" x
expect_fail 1 "cannot create" "$MEMPROBE" --size 8 --repeats 1 -q -o "$work/no/dir/cal.json"
expect_no_file "$work/no"
expect_ok "$MEMPROBE" --help
expect_output "usage: memprobe [-o FILE] [--size MIB] [--repeats N] [--threads N]"
finish
