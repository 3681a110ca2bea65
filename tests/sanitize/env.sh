# shellcheck shell=sh
# env.sh: the sanitizers' settings for `make check` in a build configured
# with --enable-sanitize, sourced by the test harness (sh) in the build
# folder after TOPOMAP_SRCDIR and PARMAPPER are set (tests/local.mk).
#   ASan: stop at the first report; leaks are reported at exit, except in
#   MPI programs (tests/sanitize/mpi-program says why); hwloc's pci
#   plugin is left out (below).  UBSan: stop at the first report, with
#   the stack.
# A report makes the program exit non-zero, so the test that ran it fails.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# hwloc's pci component (libpciaccess) leaks what pci_system_init
# allocates, from a plugin hwloc has unloaded by exit, so LeakSanitizer
# cannot tell it by name either.  The tests' topologies with PCI devices
# are XML files; this host's own devices are not needed.
export HWLOC_COMPONENTS=-pci
# The MPI launchers that exist here, and parmapper (an MPI program even
# without mpirun; tests/parmapper_lib.sh runs it from here), through
# mpi-program: links in tests/sanitize-bin of the build folder, which
# comes first in PATH.
if [ -z "${TOPOMAP_SANITIZE_BIN:-}" ]; then
  TOPOMAP_SANITIZE_BIN=$PWD/tests/sanitize-bin
  mkdir -p "$TOPOMAP_SANITIZE_BIN"
  for l in mpirun mpiexec srun parmapper; do
    [ $l = parmapper ] || command -v $l > /dev/null || continue
    [ -e "$TOPOMAP_SANITIZE_BIN/$l" ] ||
      ln -s "$TOPOMAP_SRCDIR/tests/sanitize/mpi-program" "$TOPOMAP_SANITIZE_BIN/$l" 2> /dev/null || :
  done
  TOPOMAP_REAL_PARMAPPER=$PARMAPPER
  PATH=$TOPOMAP_SANITIZE_BIN:$PATH
  export TOPOMAP_SANITIZE_BIN TOPOMAP_REAL_PARMAPPER PATH
  # The tests' launcher (tests/mpi_lib.sh) is configure's MPIEXEC, a full
  # path, which PATH does not reach: through the same wrapper.
  case ${MPIEXEC:-} in
    /*)
      l=$(basename "$MPIEXEC")
      [ -e "$TOPOMAP_SANITIZE_BIN/$l" ] ||
        ln -s "$TOPOMAP_SRCDIR/tests/sanitize/mpi-program" "$TOPOMAP_SANITIZE_BIN/$l" 2> /dev/null || :
      MPIEXEC=$TOPOMAP_SANITIZE_BIN/$l
      export MPIEXEC ;;
  esac
fi
