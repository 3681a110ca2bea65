#!/usr/bin/env bash
# lib.sh: helpers for topomap's shell tests (sourced).
# Each test: `expect_ok CMD...`, `expect_fail CODE "MESSAGE" CMD...`.
set -u
failures=0
checks=0
work=$(mktemp -d "${TMPDIR:-/tmp}/topomap-sh-XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Run a command that must succeed; its stdout goes to $work/out.
expect_ok() {
  checks=$((checks + 1))
  if ! "$@" > "$work/out" 2> "$work/err"; then
    fail "expected success: $*"; sed 's/^/  stderr: /' "$work/err"
    return 1
  fi
}

# expect_fail CODE MESSAGE CMD...: exit code CODE and MESSAGE (a fixed
# string) in stderr.
expect_fail() {
  local code=$1 msg=$2; shift 2
  checks=$((checks + 1))
  "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ "$rc" -ne "$code" ]; then
    fail "expected exit $code, got $rc: $*"; sed 's/^/  stderr: /' "$work/err"
  elif ! grep -qF -- "$msg" "$work/err"; then
    fail "expected '$msg' in stderr of: $*"; sed 's/^/  stderr: /' "$work/err"
  fi
}

# expect_output TEXT: the last command's stdout contains TEXT (a line).
expect_output() {
  checks=$((checks + 1))
  grep -qxF -- "$1" "$work/out" || { fail "expected line '$1' in output:"; sed 's/^/  out: /' "$work/out"; }
}

# expect_grep TEXT FILE: FILE contains TEXT (a fixed string).
expect_grep() {
  checks=$((checks + 1))
  grep -qF -- "$1" "$2" || { fail "no '$1' in $2:"; sed 's/^/  /' "$2"; }
}

expect_no_file() {
  checks=$((checks + 1))
  [ ! -e "$1" ] || fail "file should not exist: $1"
}

# Files in a folder, hidden temporaries included.
count_files() { find "$1" -mindepth 1 -maxdepth 1 | wc -l; }

# The end of a test whose main part needed a fixture that is absent (the
# topologies of ../shared/hwloc-xml): the failures of what did run, else
# skipped (77), so that a missing fixture shows as SKIP, not PASS.
finish_skipped() {
  echo "skipped: $1"
  [ "$failures" -eq 0 ] || finish
  exit 77
}

finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
  exit $?
}
