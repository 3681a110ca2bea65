#!/usr/bin/env bash
# failed-log.sh LOG...: what CI prints of each failed test's log (called
# by scripts/test.sh and scripts/check-mpis.sh): its last 40 lines, or,
# where tests/time-limit.sh ended a hang, everything from its TIMEOUT
# line on (the session's processes and their stacks, up to 250 lines).
for log in "$@"; do
  echo "== $log =="
  if grep -q '^TIMEOUT: ' "$log" 2> /dev/null; then
    sed -n '/^TIMEOUT: /,$p' "$log" | head -n 250
  else
    tail -n 40 "$log"
  fi
done
