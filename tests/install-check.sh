#!/usr/bin/env bash
# Install into a staging folder and check the result: commands in bin/, the
# library and its pkg-config file in lib/, the header, the man pages; then
# compile and run a program against the staged library through pkg-config.
#   tests/install-check.sh BUILD-DIR
set -euo pipefail
build=$(cd "$1" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/topomap-stage-XXXXXX")
trap 'rm -rf "$stage"' EXIT
# The configured prefix, staged under DESTDIR: the .pc file names it.
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")

make -C "$build" -s install DESTDIR="$stage" >/dev/null 2>"$stage/install.log" \
  || { cat "$stage/install.log"; exit 1; }
root=$stage$prefix
status=0
# The profiler: lib/libcommprof.so and its pkg-config file, or, configured
# with --with-commprof-suffix=S, lib/libcommprof-S.so (its link) alone.
cp_name=$(sed -n 's/^COMMPROF_NAME = //p' "$build/Makefile")
cp_files="lib/$cp_name.so"
[ "$cp_name" = libcommprof ] && cp_files="$cp_files lib/pkgconfig/commprof.pc"
# shellcheck disable=SC2086
for f in bin/taskgraph lib/libtaskgraph.so lib/pkgconfig/taskgraph.pc \
         $cp_files include/topomap/commprof.h \
         lib/libgreedymap.so lib/pkgconfig/greedymap.pc include/topomap/greedymap.h \
         include/topomap/taskgraph.h share/man/man1/taskgraph.1 \
         share/man/man5/topomap-formats.5 bin/topomap-cluster share/man/man1/topomap-cluster.1 \
         lib/libtopomap-reorder.so share/man/man7/libtopomap-reorder.7; do
  if [ -e "$root/$f" ]; then echo "  installed $f"; else echo "FAIL: missing $f"; status=1; fi
done

cat > "$stage/use.c" <<'C'
#include <stdio.h>
#include <taskgraph.h>
int main(void)
{
    tg_stencil_options o = {.ndims = 2, .dims = {4, 4}, .periodic = 1, .bytes = 3};
    tg_graph *g;
    tg_error err;
    if (tg_gen_stencil(&o, &g, &err))
        return 1;
    printf("%d %lld\n", g->n, (long long)g->nedges);
    tg_graph_free(g);
    return 0;
}
C
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
# shellcheck disable=SC2046
cc -o "$stage/use" "$stage/use.c" $(pkg-config --cflags --libs taskgraph)
out=$(LD_LIBRARY_PATH=$root/lib "$stage/use")
if [ "$out" = "16 32" ]; then
  echo "  a program built with 'pkg-config taskgraph' runs: $out"
else
  echo "FAIL: program against the installed library printed '$out', expected '16 32'"; status=1
fi
exit $status
