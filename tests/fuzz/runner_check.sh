#!/usr/bin/env bash
# make fuzz's runner (tests/fuzz/run.sh) on two small harnesses: one that
# overflows a heap block on the input "BUG", which its corpus holds, must
# make it fail with the sanitizer's report and name the reproducer, which
# holds that input; one that never fails must pass with its figures.
# SKIP where configure found no clang for libFuzzer (FUZZ_CC).
. "$TOPOMAP_SRCDIR/tests/lib.sh"
[ -n "${FUZZ_CC:-}" ] || finish_skipped "no clang that links -fsanitize=fuzzer (configure's FUZZ_CC)"

# run.sh takes FUZZDIR as BUILD/tests/fuzz and writes the seeds from the
# tools there: a build folder of links to this one's tools.
build=$(cd "$(dirname "$TASKGRAPH")/.." && pwd)
b=$work/b
fz=$b/tests/fuzz
mkdir -p "$fz/corpus/fuzz_bug" "$fz/corpus/fuzz_ok"
for d in taskgraph greedymap hetero; do ln -s "$build/$d" "$b/$d"; done
cat > "$work/bug.c" <<'C'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 3 && !memcmp(data, "BUG", 3)) {
        volatile char *p = malloc(4);
        p[4] = 1;
        free((char *)p);
    }
    return 0;
}
C
cat > "$work/ok.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return data && size > 1000000 ? 0 : 0;
}
C
expect_ok "$FUZZ_CC" -g -fsanitize=fuzzer,address,undefined -o "$fz/fuzz_bug" "$work/bug.c"
expect_ok "$FUZZ_CC" -g -fsanitize=fuzzer,address,undefined -o "$fz/fuzz_ok" "$work/ok.c"
printf 'BUG' > "$fz/corpus/fuzz_bug/bug"
printf 'fine' > "$fz/corpus/fuzz_ok/fine"

checks=$((checks + 1))
bash "$TOPOMAP_SRCDIR/tests/fuzz/run.sh" "$fz" 2 fuzz_bug > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 1 ] || { fail "run.sh exited $rc on a crash, not 1"; cat "$work/out" "$work/err"; }
checks=$((checks + 1))
grep -qE '^fuzz_bug +[0-9]+ +[0-9]+ +1 ' "$work/out" || { fail "no row of fuzz_bug with 1 crash:"; cat "$work/out"; }
expect_grep "== fuzz_bug failed (exit 1)" "$work/out"
expect_grep "ERROR: AddressSanitizer: heap-buffer-overflow" "$work/out"
repro=$(sed -n 's/^== reproducer: //p' "$work/out")
checks=$((checks + 1))
[ -f "$repro" ] && [ "$(cat "$repro")" = BUG ] ||
  fail "the reproducer '$repro' is not a file holding BUG"
expect_grep "   run it again: $fz/fuzz_bug $repro" "$work/out"

expect_ok bash "$TOPOMAP_SRCDIR/tests/fuzz/run.sh" "$fz" 2 fuzz_ok
checks=$((checks + 1))
grep -qE '^fuzz_ok +[1-9][0-9]* +[0-9]+ +0 +[0-9]+ [1-9][0-9]* files, [0-9]+ KiB$' "$work/out" ||
  { fail "no row of fuzz_ok with executions, 0 crashes and its corpus:"; cat "$work/out"; }
expect_fail 2 "SECONDS must be a positive integer, not 'x'" \
  bash "$TOPOMAP_SRCDIR/tests/fuzz/run.sh" "$fz" x fuzz_ok
finish
