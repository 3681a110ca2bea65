#!/usr/bin/env bash
# Install dependencies, build topomap and run every test.
#   scripts/test.sh             build in ./build and run make check, then the
#                               MPI-dependent tests under the other MPIs
#   scripts/test.sh --sanitize  build in ./build-sanitize with ASan and UBSan
#                               (configure --enable-sanitize), run make check
#   scripts/test.sh --ci        what CI runs: the first, then each fuzz
#                               harness for FUZZ_SECONDS (15), then the
#                               sanitized make check
# Environment: TOPOMAP_BUILD_DIR (default: build), TOPOMAP_SANITIZE_DIR
# (default: build-sanitize), TOPOMAP_CONFIGURE_FLAGS (extra configure
# flags), JOBS (default 2), FUZZ_SECONDS (--ci: seconds per harness),
# TOPOMAP_CI_MPIS (the other MPIs, scripts/check-mpis.sh --ci; default
# "mpich4 ompi5 mpich5 abi5", empty for none), TOPOMAP_TEST_TIMEOUT (each
# test's time limit in seconds, tests/time-limit.sh: 900, 300 for the
# other MPIs' tests).  Each part, and the whole, says how long it took;
# the MPI shared-memory segments the run leaves in /dev/shm are removed.
set -euo pipefail

mode=plain
case "${1:-}" in
  -h|--help)
    sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  --sanitize) mode=sanitize ;;
  --ci) mode=ci ;;
  *) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "test.sh: one argument at most (see --help)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TOPOMAP_BUILD_DIR:-$root/build}
sanitize_build=${TOPOMAP_SANITIZE_DIR:-$root/build-sanitize}
jobs=${JOBS:-2}

# check BUILD: make check there and print one line per test program, then
# the totals; 0 when every test passed.  With install=1 the staged install
# is checked too.
check() {
  local dir=$1 install=${2:-0} status=0 install_status=0
  cd "$dir"
  make -j"$jobs" check || status=$?
  if [ "$install" -eq 1 ]; then
    echo
    echo "== make install (staged) =="
    "$root/tests/install-check.sh" "$dir" || install_status=1
  fi
  echo
  echo "== test summary ($dir) =="
  local results line trs log checks secs pass skip fail
  # (The other MPIs' folders, mpis/, have their own table.)
  results=$(find . -path ./mpis -prune -o -name '*.trs' -exec grep -H '^:test-result:' {} + | sort || true)
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    trs=${line%%:*}
    log=${trs%.trs}.log
    checks=$(grep -m1 -o '[0-9]*%: Checks: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$log" || true)
    secs=$(sed -n 's/^time-limit: \([0-9]*\) s$/\1 s/p' "$log" | tail -n 1)
    printf '  %-5s %-32s %6s  %s\n' "${line##*: }" "${log#./}" "$secs" "$checks"
  done <<< "$results"
  pass=$(grep -c ': PASS$' <<< "$results" || true)
  skip=$(grep -c ': SKIP$' <<< "$results" || true)
  fail=$(grep -c -E ': (FAIL|ERROR|XPASS)$' <<< "$results" || true)
  if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
  if [ "$install" -eq 1 ]; then
    if [ "$install_status" -ne 0 ]; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
  fi
  echo "tests: $pass passed, $fail failed, $skip skipped"
  if [ "$fail" -ne 0 ]; then
    grep -E ': (FAIL|ERROR|XPASS)$' <<< "$results" | while IFS= read -r line; do
      log=${line%%:*}; "$root/tests/failed-log.sh" "${log%.trs}.log"
    done
    return 1
  fi
}

# other_mpis: MPICH 4 from Debian, Open MPI 5 and MPICH 5 from PyPI, MPICH
# 5's MPI 5 ABI, each built in BUILD/mpis/NAME, with the exact pattern
# tests in C and Fortran, commprof-run and parmapper's launch
# (check-mpis.sh --ci; the whole set is `make check-mpis`).
other_mpis() {
  local mpis=${TOPOMAP_CI_MPIS-mpich4 ompi5 mpich5 abi5}
  [ -n "$mpis" ] || return 0
  local start=$SECONDS rc=0
  echo
  echo "== other MPIs: $mpis =="
  "$root/scripts/install-mpis.sh"
  # Each of these tests takes under a minute: a hang fails in 5.
  # shellcheck disable=SC2086
  TOPOMAP_TEST_TIMEOUT=${TOPOMAP_TEST_TIMEOUT:-300} TOPOMAP_MPIS_BUILD=$build/mpis \
    JOBS=$jobs "$root/scripts/check-mpis.sh" --ci $mpis || rc=1
  echo "other MPIs: $((SECONDS - start)) s"
  return $rc
}

# sanitized: configure --enable-sanitize in its own folder, make check.
sanitized() {
  local start=$SECONDS
  # shellcheck disable=SC2086
  TOPOMAP_BUILD_DIR=$sanitize_build "$root/scripts/build.sh" --enable-werror \
    --enable-sanitize ${TOPOMAP_CONFIGURE_FLAGS:-}
  local rc=0
  check "$sanitize_build" || rc=$?
  echo "sanitized build and make check: $((SECONDS - start)) s"
  return $rc
}

# The shared-memory segments of MPI jobs whose ranks died or that ran as
# singletons (Open MPI 5's sm_segment.*, MPICH's mpich_shm_*, Open MPI
# 4.1's vader_segment.*) outlive them in /dev/shm: those this run made
# and no live process maps are removed when it ends, however it ends.
shm_before=$(ls /dev/shm 2> /dev/null || true)
# shellcheck disable=SC2317  # (called by the trap)
remove_stale_shm() {
  local f
  for f in /dev/shm/sm_segment.* /dev/shm/mpich_shm_* /dev/shm/vader_segment.*; do
    [ -e "$f" ] || continue
    grep -qxF "${f#/dev/shm/}" <<< "$shm_before" && continue
    grep -qsF "$f" /proc/[0-9]*/maps || rm -f -- "$f"
  done
}
trap remove_stale_shm EXIT

"$root/scripts/install-deps.sh"
status=0
if [ "$mode" != sanitize ]; then
  # shellcheck disable=SC2086
  "$root/scripts/build.sh" --enable-werror ${TOPOMAP_CONFIGURE_FLAGS:-}
  check "$build" 1 || status=1
  echo "build and make check: $SECONDS s since the start"
  other_mpis || status=1
fi
if [ "$mode" = ci ]; then
  echo
  echo "== fuzz (${FUZZ_SECONDS:-15} s per harness) =="
  make -C "$build" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-15}" || status=1
fi
if [ "$mode" != plain ]; then
  echo
  echo "== sanitized build (ASan, UBSan) =="
  sanitized || status=1
fi
echo
echo "test.sh: $SECONDS s in all, exit status $status"
exit $status
