#!/usr/bin/env bash
# launcher_argv.sh: scripts/launcher.sh's launcher_mapped_argv, the
# application's command line for each launcher kind from parmapper's file,
# its CPU list, and (Hydra, srun) topomap-exec with its placement where no
# one list binds every rank: exact argument vectors.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/scripts/launcher.sh"

launcher_app_opts=(-n 4 --mpi=pmix)
launcher_app=(./app 'a b')
# expect_argv WANT KIND ARGS...: launcher_mapped_argv ARGS under KIND
# makes WANT, each argument followed by |.
expect_argv() {
  local want=$1
  launcher_kind=$2 launcher=/bin/$2
  shift 2
  launcher_mapped_argv "$@"
  checks=$((checks + 1))
  local got
  printf -v got '%s|' "${launcher_run[@]}"
  [ "$got" = "$want" ] || fail "$launcher_kind $*:"$'\n'"  got:  $got"$'\n'"  want: $want"
}
B=(/x/topomap-exec /k/sh.placement.json --)
expect_argv '/bin/ompi4|--rankfile|/k/rf|-n|4|--mpi=pmix|./app|a b|' ompi4 /k/rf
expect_argv '/bin/ompi5|--map-by|rankfile:file=/k/rf|--bind-to|core:overload-allowed|-n|4|--mpi=pmix|./app|a b|' ompi5 /k/rf
expect_argv '/bin/hydra|-f|/k/hh|-bind-to|user:1,0|-n|4|--mpi=pmix|./app|a b|' hydra /k/hh 1,0
expect_argv '/bin/hydra|-f|/k/hh|-bind-to|none|-n|4|--mpi=pmix|/x/topomap-exec|/k/sh.placement.json|--|./app|a b|' hydra /k/hh '' "${B[@]}"
expect_argv 'env|SLURM_HOSTFILE=/k/sh|/bin/srun|--distribution=arbitrary|--cpu-bind=map_cpu:1,0|-n|4|--mpi=pmix|./app|a b|' srun /k/sh 1,0
expect_argv 'env|SLURM_HOSTFILE=/k/sh|/bin/srun|--distribution=arbitrary|--cpu-bind=none|-n|4|--mpi=pmix|/x/topomap-exec|/k/sh.placement.json|--|./app|a b|' srun /k/sh '' "${B[@]}"
# An earlier mapping given without its list: srun leaves the binding to
# its own defaults, Hydra binds nothing.
expect_argv 'env|SLURM_HOSTFILE=/k/sh|/bin/srun|--distribution=arbitrary|-n|4|--mpi=pmix|./app|a b|' srun /k/sh
expect_argv '/bin/hydra|-f|/k/hh|-bind-to|none|-n|4|--mpi=pmix|./app|a b|' hydra /k/hh ''
finish
