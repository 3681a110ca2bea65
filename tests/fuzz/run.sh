#!/usr/bin/env bash
# Run the libFuzzer harnesses that tests/fuzz/fuzz.mk built, each for a
# while, one after the other, and print per harness the executions, the
# executions per second, the crashes, the peak resident memory and the
# size of its corpus.
#   tests/fuzz/run.sh FUZZDIR SECONDS [HARNESS...]
# FUZZDIR is tests/fuzz of the build folder: the harnesses are there, the
# corpora grow in FUZZDIR/corpus/HARNESS (kept between runs), the seeds
# (tests/fuzz/seeds.sh) are written to FUZZDIR/seeds, each run's log is
# FUZZDIR/HARNESS.log and what fails is kept in FUZZDIR/crashes/.  A crash,
# a leak, a sanitizer report, a run past 30 s or past 2 GB on one input
# fails the harness; the exit status is 1 when any harness failed.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "usage: run.sh FUZZDIR SECONDS [HARNESS...]" >&2; exit 2; }
dir=$(cd "$1" && pwd)
seconds=$2
shift 2
case "$seconds" in
  ''|*[!0-9]*|0) echo "run.sh: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2 ;;
esac
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_graph fuzz_profile fuzz_machine fuzz_mapping fuzz_hetero)

"$(dirname "$0")/seeds.sh" "$dir/../.." "$dir/seeds" >/dev/null
mkdir -p "$dir/crashes"

# What a stat line of -print_final_stats says ("stat::NAME: VALUE").
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

failed=0
printf '%-14s %12s %9s %8s %8s %s\n' harness executions exec/s crashes "rss MB" corpus
for h in "${harnesses[@]}"; do
  exe=$dir/$h
  [ -x "$exe" ] || { echo "run.sh: no harness $exe (make fuzz builds them)" >&2; exit 2; }
  corpus=$dir/corpus/$h
  mkdir -p "$corpus"
  marker=$dir/crashes/.start-$h
  touch "$marker"
  dirs=("$corpus")
  [ ! -d "$dir/seeds/$h" ] || dirs+=("$dir/seeds/$h")
  rc=0
  start=$SECONDS
  # -close_fd_mask=3: the readers' error messages are not the fuzzer's
  # output (libFuzzer still prints its own and the sanitizers' reports).
  # ASan's leak check is on: a reader that leaks on its error path fails.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$exe" -max_total_time="$seconds" -print_final_stats=1 -close_fd_mask=3 \
      -timeout=30 -rss_limit_mb=2048 -artifact_prefix="$dir/crashes/$h-" \
      "${dirs[@]}" > "$dir/$h.log" 2>&1 || rc=$?
  # libFuzzer also keeps its slowest input ("slow-unit"): not a failure
  # (an input past -timeout is one, "timeout-"), and on a loaded machine
  # any input can be slow once.
  find "$dir/crashes" -maxdepth 1 -name "$h-slow-unit-*" -delete
  crashes=$(find "$dir/crashes" -maxdepth 1 -name "$h-*" -newer "$marker" | sort)
  rm -f "$marker"
  ncrash=$(grep -c . <<< "$crashes" || true)
  if [ "$rc" -ne 0 ] && [ "$ncrash" -eq 0 ]; then ncrash=1; fi
  files=$(find "$corpus" -type f | wc -l)
  kib=$(du -sk "$corpus" | cut -f1)
  execs=$(stat number_of_executed_units "$dir/$h.log")
  elapsed=$((SECONDS - start))
  printf '%-14s %12s %9s %8s %8s %s\n' "$h" "${execs:-?}" \
    "$(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))" "$ncrash" \
    "$(stat peak_rss_mb "$dir/$h.log")" "$files files, $kib KiB"
  if [ "$rc" -ne 0 ]; then
    failed=1
    echo "== $h failed (exit $rc); from $dir/$h.log:"
    # the report (its first line and stack), then where the input went
    awk '/ERROR: |runtime error:|ALARM: |out-of-memory|^== FUZZ/ && !n { n = 1 }
         n && n <= 30 { print; n++ }' "$dir/$h.log" | sed 's/^/   /'
    grep -E 'Test unit written' "$dir/$h.log" | sed 's/^/   /' || true
    while IFS= read -r f; do
      [ -n "$f" ] || continue
      echo "== reproducer: $f"
      echo "   run it again: $exe $f"
    done <<< "$crashes"
  fi
done
exit $failed
