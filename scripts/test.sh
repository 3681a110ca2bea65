#!/usr/bin/env bash
# Install dependencies, build topomap and run every test.
#   scripts/test.sh            build in ./build and run make check, then the
#                              MPI-dependent tests under the other MPIs
# Environment: TOPOMAP_BUILD_DIR (default: build), TOPOMAP_CONFIGURE_FLAGS
# (extra configure flags), JOBS (default 2), TOPOMAP_CI_MPIS (the other
# MPIs, scripts/check-mpis.sh --ci; default "mpich4 ompi5 mpich5 abi5",
# empty for none).
set -euo pipefail

case "${1:-}" in
  -h|--help)
    sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TOPOMAP_BUILD_DIR:-$root/build}
jobs=${JOBS:-2}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --enable-werror ${TOPOMAP_CONFIGURE_FLAGS:-}

cd "$build"
status=0
make -j"$jobs" check || status=$?
echo
echo "== make install (staged) =="
install_status=0
"$root/tests/install-check.sh" "$build" || install_status=1

# The other MPIs (MPICH 4 from Debian, Open MPI 5 and MPICH 5 from PyPI,
# MPICH 5's MPI 5 ABI): each built in build/mpis/NAME, with the exact
# pattern tests in C and Fortran, commprof-run and parmapper's launch
# (check-mpis.sh --ci; the whole set is `make check-mpis`).
mpis=${TOPOMAP_CI_MPIS-mpich4 ompi5 mpich5 abi5}
mpis_status=0
if [ -n "$mpis" ]; then
  echo
  echo "== other MPIs: $mpis =="
  "$root/scripts/install-mpis.sh"
  # shellcheck disable=SC2086
  TOPOMAP_MPIS_BUILD=$build/mpis JOBS=$jobs "$root/scripts/check-mpis.sh" --ci $mpis || mpis_status=1
fi

# One line per test program, then the totals.
echo
echo "== test summary =="
# (The other MPIs' folders, mpis/, have their own table above.)
results=$(find . -path ./mpis -prune -o -name '*.trs' -exec grep -H '^:test-result:' {} + | sort || true)
while IFS= read -r line; do
  [ -n "$line" ] || continue
  trs=${line%%:*}
  log=${trs%.trs}.log
  checks=$(grep -m1 -o '[0-9]*%: Checks: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$log" || true)
  printf '  %-5s %-32s %s\n' "${line##*: }" "${log#./}" "$checks"
done <<< "$results"
pass=$(grep -c ': PASS$' <<< "$results" || true)
skip=$(grep -c ': SKIP$' <<< "$results" || true)
fail=$(grep -c -E ': (FAIL|ERROR|XPASS)$' <<< "$results" || true)
if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
if [ "$install_status" -ne 0 ]; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
if [ -n "$mpis" ]; then
  if [ "$mpis_status" -ne 0 ]; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
if [ "$fail" -ne 0 ]; then
  grep -E ': (FAIL|ERROR|XPASS)$' <<< "$results" | while IFS= read -r line; do
    log=${line%%:*}; log=${log%.trs}.log
    echo "== $log =="; tail -n 40 "$log"
  done
  exit 1
fi
