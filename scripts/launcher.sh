# launcher.sh: what commprof-run, topomap-run and topomap-select-graph
# know of MPI launchers, in one place: make copies this file into each of
# them (the line @LAUNCHER_SH@ of their .in).  It sets nothing at once.
#
# launcher_detect L      the kind of launcher L, in launcher_kind, by what
#                        `L --version` says, since every MPI names its
#                        launcher mpirun or mpiexec:
#   ompi4  Open MPI 4.1 (ORTE): "mpirun (Open MPI) 4.1.4"
#   ompi5  Open MPI 5 and PRRTE: "mpirun (Open MPI) 5.0.11",
#          "prterun (PRRTE) 3.0.14"
#   hydra  MPICH's Hydra (mpiexec, mpiexec.hydra, mpiexec.mpich, and the
#          MPICH derivatives'): "HYDRA build details"
#   srun   Slurm's srun: "slurm 22.05.8", or by its name (its --version
#          needs Slurm's configuration)
# launcher_split L ARGS  splits ARGS into the launcher's options and the
#                        application, reading how many values each option
#                        takes from the kind's table (Open MPI 4.1's and
#                        srun's own help, which lists every option of the
#                        installed version; Open MPI 5's and Hydra's below,
#                        their --help having no such list), and sorts the
#                        options by what topomap does with them (arrays):
#   launcher_opts     every option, for parmapper and the profiling run
#   launcher_app_opts the same without the options that place ranks (the
#                     `map` ones below), which the mapping replaces
#   launcher_left_out those options, each as one string
#   launcher_np_opts  launcher_app_opts without the number of ranks (for a
#                     run with one rank per node)
#   launcher_app      the application and its arguments
# On a bad command line it prints a message and exits 2 (`usage`).
#
# The per-kind tables: the option that sets a variable for every rank
# (launcher_env), how a mapping runs (launcher_mapped_argv), the file
# parmapper writes for it (launcher_map_output) and the run with one rank
# per node (launcher_per_node).

# Options of Open MPI 5's mpirun and PRRTE's prterun (PRRTE 3, prterun
# --help; mpirun takes one or two dashes): NAME:VALUES[:ROLE].  ROLE
# map: places ranks, left out beside the rankfile (a second --map-by or
# --bind-to is refused; --bind-to none would undo the rankfile's binding,
# and --oversubscribe is a --map-by modifier); np: the number of ranks;
# one: a second application or rankfile, which topomap-run refuses.
launcher_table_ompi5='
np:1:np n:1:np c:1:np
N:1:map npernode:1:map pernode:0:map npersocket:1:map map-by:1:map
rank-by:1:map bind-to:1:map oversubscribe:0:map
rankfile:1:one app:1:one
H:1 host:1 hostfile:1 machinefile:1 default-hostfile:1 add-host:1
add-hostfile:1 x:1 mca:2 gmca:2 prtemca:2 pmixmca:2 gpmixmca:2 am:1 tune:1
set-env:1 unset-env:1 append-env:2 prepend-env:2 display:1 output:1
xterm:1 stdin:1 timeout:1 spawn-timeout:1 runtime-options:1 personality:1
path:1 preload-files:1 app-pmix-prefix:1 pset:1 wd:1 wdir:1 gpu-support:1
forward-signals:1 keepalive:1 launch-agent:1 max-vm-size:1 prefix:1
pmix-prefix:1 report-pid:1 report-uri:1 singleton:1 tmpdir:1 dvm:1
v:0 verbose:0 debug-daemons:0 debug-daemons-file:0 get-stack-traces:0
leave-session-attached:0 report-state-on-timeout:0 stop-on-exec:0
stop-in-init:0 stop-in-app:0 do-not-launch:0 report-child-jobs-separately:0
s:0 preload-binary:0 no-app-prefix:0 set-cwd-to-session-dir:0
show-progress:0 allow-run-as-root:0 no-ready-msg:0 system-server:0
noprefix:0 set-sid:0 hetero-nodes:0 display-map:0 display-allocation:0
report-bindings:0 tag-output:0 timestamp-output:0 merge-stderr-to-stdout:0
xml:0 q:0 quiet:0 enable-recovery:0 disable-recovery:0 continuous:0'

# Options of MPICH's Hydra (mpiexec -help of MPICH 4.0 and 5.0; one or two
# dashes).  map: the hosts, ranks per host and binding, which the
# machinefile (-f) and -bind-to user: replace (Hydra refuses a second
# -bind-to); one: an MPMD config file.
launcher_table_hydra='
n:1:np np:1:np
f:1:map hostfile:1:map machinefile:1:map hosts:1:map host:1:map ppn:1:map
rr:0:map rankmap:1:map order-nodes:1:map bind-to:1:map binding:1:map
map-by:1:map
configfile:1:one
genv:2 genvlist:1 genvnone:0 genvall:0 env:2 envlist:1 envnone:0 envall:0
wdir:1 launcher:1 launcher-exec:1 bootstrap:1 bootstrap-exec:1 enable-x:0
disable-x:0 rmk:1 topolib:1 membind:1 demux:1 verbose:0 v:0 info:0
print-all-exitcodes:0 iface:1 profile:0 prepend-rank:0 l:0
prepend-pattern:1 outfile-pattern:1 errfile-pattern:1 nameserver:1
disable-auto-cleanup:0 auto-cleanup:0 disable-hostname-propagation:0
enable-hostname-propagation:0 localhost:1 usize:1 pmi-port:0
skip-launch-node:0 gpus-per-proc:1 hybrid-hosts:0 memory-alloc-kinds:1'

launcher_detect() {
  local v
  v=$("$1" --version 2>&1 < /dev/null | head -n 5)
  case $v in
    *"(Open MPI) "[1-4].* | *OpenRTE*) launcher_kind=ompi4 ;;
    # prterun without PRTE_PREFIX cannot find its help files but says so
    # naming them (help-prterun.txt).
    *"(Open MPI) "* | *PRRTE* | *prterun*) launcher_kind=ompi5 ;;
    *HYDRA*) launcher_kind=hydra ;;
    slurm\ *) launcher_kind=srun ;;
    *) [ "$(basename -- "$1")" = srun ] || return 1
       launcher_kind=srun ;;
  esac
}

# What launcher_detect names the kind, for messages.
launcher_name() {
  case $launcher_kind in
    ompi4) echo "Open MPI 4 mpirun" ;;
    ompi5) echo "Open MPI 5 (PRRTE) mpirun" ;;
    hydra) echo "MPICH Hydra mpiexec" ;;
    srun) echo "Slurm srun" ;;
  esac
}

# launcher_read_table TEXT: the static table into nvalues and role.
launcher_read_table() {
  local e name rest
  for e in $1; do
    name=${e%%:*} rest=${e#*:}
    nvalues[$name]=${rest%%:*}
    [ "$rest" = "${rest#*:}" ] || role[$name]=${rest#*:}
  done
}

# Open MPI 4.1's options from its own help: "-np|-n|... <arg0>".
launcher_read_ompi4() {
  local line values names n option_line='^ {0,3}(-[^ ]+)(( <arg[0-9]+>)*)'
  while IFS= read -r line; do
    [[ $line =~ $option_line ]] || continue
    values=${BASH_REMATCH[2]//[^<]/}
    IFS='|' read -ra names <<< "${BASH_REMATCH[1]}"
    for n in "${names[@]}"; do nvalues[$n]=${#values}; done
    # -np and -n and their other names (-c, --np, --n)
    [[ "|${BASH_REMATCH[1]}|" != *"|-np|"* && "|${BASH_REMATCH[1]}|" != *"|-n|"* ]] ||
      for n in "${names[@]}"; do role[$n]=np; done
  done < <("$1" --allow-run-as-root --help all 2>/dev/null)
  [ ${#nvalues[@]} -gt 0 ] ||
    { say "$1 --help all: no options listed (is it Open MPI's?)"; exit 1; }
  local m
  for m in map-by npernode npersocket pernode ppr bycore bynode byslot bysocket byboard; do
    for n in "-$m" "--$m"; do [ -z "${nvalues[$n]+set}" ] || role[$n]=map; done
  done
  for n in -rankfile --rankfile -app --app; do [ -z "${nvalues[$n]+set}" ] || role[$n]=one; done
}

# srun's options from srun --help (which needs Slurm's configuration):
# whether each takes a value (=ARG: 1), may take one ([=ARG], only after
# '=': 2), or none (0); --cpu_bind is the old spelling of --cpu-bind.
launcher_read_srun() {
  local line v listed=0 srun_line='^ {2,6}(-([A-Za-z0-9]),? +)?--([A-Za-z0-9_-]+)(\[=|=)?'
  while IFS= read -r line; do
    [[ $line =~ $srun_line ]] || continue
    case ${BASH_REMATCH[4]} in '=') v=1 ;; '[=') v=2 ;; *) v=0 ;; esac
    nvalues[--${BASH_REMATCH[3]}]=$v
    listed=$((listed + 1))
    [ -z "${BASH_REMATCH[2]}" ] || nvalues[-${BASH_REMATCH[2]}]=$v
  done < <("$1" --help 2>/dev/null)
  [ "$listed" -gt 0 ] ||
    { say "$1 --help: no options listed (is Slurm's configuration there? SLURM_CONF)"; exit 1; }
  nvalues[--cpu_bind]=1
  local n
  for n in -m --distribution --cpu-bind --cpu_bind; do role[$n]=map; done
  for n in --multi-prog --het-group; do role[$n]=one; done
}

# launcher_option ARGS: the option at the head of ARGS, as the table's
# name (opt_name) and the words it takes (opt_k).
launcher_option() {
  local l=$launcher c
  case $launcher_kind in
    ompi4)
      opt_name=${1%%=*}
      [ -n "${nvalues[$opt_name]+set}" ] || usage "$l has no option '$1'"
      opt_k=1
      [ "$opt_name" != "$1" ] || opt_k=$((1 + nvalues[$opt_name])) ;;
    ompi5 | hydra)
      # One or two dashes; Open MPI 5 also takes --name=value.
      opt_name=${1#-}; opt_name=${opt_name#-}
      [ "$launcher_kind" = hydra ] || opt_name=${opt_name%%=*}
      [ -n "${nvalues[$opt_name]+set}" ] ||
        usage "$l ($(launcher_name)) has no option '$1' that topomap knows"
      opt_k=1
      [ "$opt_name" != "${1#-}" ] && [ "$opt_name" != "${1#--}" ] ||
        opt_k=$((1 + nvalues[$opt_name])) ;;
    srun)
      if [ "${1:0:2}" = -- ]; then
        opt_name=${1%%=*}
        [ -n "${nvalues[$opt_name]+set}" ] || usage "$l has no option '$1'"
        opt_k=1
        if [ "$opt_name" != "$1" ]; then
          [ "${nvalues[$opt_name]}" != 0 ] || usage "$l option '$opt_name' takes no value"
        elif [ "${nvalues[$opt_name]}" = 1 ]; then
          opt_k=2
        fi
      else
        opt_name=${1:0:2}
        [ -n "${nvalues[$opt_name]+set}" ] || usage "$l has no option '$1'"
        opt_k=1
        if [ "${nvalues[$opt_name]}" = 1 ]; then
          [ ${#1} -gt 2 ] || opt_k=2
        elif [ ${#1} -gt 2 ]; then
          # Flags together (-lK): each one a flag.
          for ((c = 1; c < ${#1}; c++)); do
            [ "${nvalues[-${1:c:1}]-}" = 0 ] || usage "$l: '$1' is not a set of flags"
          done
        fi
      fi ;;
  esac
  [ $# -ge "$opt_k" ] || usage "$l option '$1' needs $((opt_k - 1)) value(s)"
}

launcher_split() {
  launcher=$1
  shift
  declare -gA nvalues=() role=()
  case $launcher_kind in
    ompi4) launcher_read_ompi4 "$launcher" ;;
    ompi5) launcher_read_table "$launcher_table_ompi5" ;;
    hydra) launcher_read_table "$launcher_table_hydra" ;;
    srun) launcher_read_srun "$launcher" ;;
  esac
  launcher_opts=() launcher_app_opts=() launcher_np_opts=() launcher_left_out=()
  while [ $# -gt 0 ] && [ "${1:0:1}" = - ]; do
    launcher_option "$@"
    case ${role[$opt_name]-} in
      one) usage "$launcher ${*:1:opt_k}: topomap maps one application with the mapping it makes" ;;
    esac
    launcher_opts+=("${@:1:opt_k}")
    case ${role[$opt_name]-} in
      map) launcher_left_out+=("${*:1:opt_k}") ;;
      np) launcher_app_opts+=("${@:1:opt_k}") ;;
      *) launcher_app_opts+=("${@:1:opt_k}")
         launcher_np_opts+=("${@:1:opt_k}") ;;
    esac
    shift "$opt_k"
  done
  launcher_app=("$@")
}

# What places the ranks in the mapped run, for the messages.
launcher_placed_by() {
  case $launcher_kind in
    ompi4) echo "the rankfile places its ranks" ;;
    ompi5) echo "the rankfile places its ranks (--map-by rankfile:file=F --bind-to core:overload-allowed)" ;;
    hydra) echo "the machinefile (-f) and -bind-to user: place its ranks" ;;
    srun) echo "the Slurm hostfile and --cpu-bind=map_cpu place its tasks" ;;
  esac
}

# launcher_sets NAME WORDS: whether the option WORDS (after
# launcher_option) sets variable NAME for the ranks: its value is then in
# launcher_value.
launcher_sets() {
  case $launcher_kind:$opt_name in
    ompi4:-x | ompi5:x)
      [ "${3%%=*}" = "$1" ] && [ "$3" != "$1" ] || return 1
      launcher_value=${3#*=} ;;
    hydra:genv | hydra:env)
      [ "$3" = "$1" ] || return 1
      launcher_value=$4 ;;
    *) return 1 ;;
  esac
}

# launcher_env NAME VALUE: the options that set NAME=VALUE for every rank
# (launcher_env_argv); empty for srun, which passes its environment.
launcher_env() {
  case $launcher_kind in
    ompi4 | ompi5) launcher_env_argv+=(-x "$1=$2") ;;
    hydra) launcher_env_argv+=(-genv "$1" "$2") ;;
  esac
}

# launcher_map_output DIR: parmapper's option and the file it writes in
# DIR for this launcher (launcher_map_file).
launcher_map_output() {
  case $launcher_kind in
    ompi4 | ompi5) launcher_map_file=$1/rankfile; launcher_map_opt=--rankfile ;;
    hydra) launcher_map_file=$1/hydra-hostfile; launcher_map_opt=--hydra-hostfile ;;
    srun) launcher_map_file=$1/slurm-hostfile; launcher_map_opt=--slurm-hostfile ;;
  esac
}

# launcher_mapped_argv FILE CPUS [BINDER...]: the command that runs the
# application (launcher_app_opts, launcher_app) placed by FILE, parmapper's
# output for this launcher, with CPUS its CPU list (Hydra, srun), in
# launcher_run.  A BINDER goes with CPUS empty, for Hydra and srun only
# (topomap-exec PLACEMENT --, when no one list binds every rank,
# parmapper(1)): the launcher's binding is off and BINDER runs before the
# application.
launcher_mapped_argv() {
  local file=$1 cpus=${2-}
  shift $(($# < 2 ? $# : 2))
  case $launcher_kind in
    ompi4) launcher_run=("$launcher" --rankfile "$file") ;;
    # PRRTE binds a rankfile's ranks only with a core policy, and refuses
    # two ranks on one core without overload-allowed (PRRTE 3.0).
    ompi5) launcher_run=("$launcher" --map-by "rankfile:file=$file" --bind-to core:overload-allowed) ;;
    hydra) launcher_run=("$launcher" -f "$file" -bind-to)
           if [ -n "$cpus" ]; then launcher_run+=("user:$cpus"); else launcher_run+=(none); fi ;;
    srun) launcher_run=(env SLURM_HOSTFILE="$file" "$launcher" --distribution=arbitrary)
          if [ -n "$cpus" ]; then
            launcher_run+=(--cpu-bind=map_cpu:"$cpus")
          elif [ $# -gt 0 ]; then
            launcher_run+=(--cpu-bind=none)
          fi ;;
  esac
  launcher_run+=("${launcher_app_opts[@]}" "$@" "${launcher_app[@]}")
}

# launcher_per_node: the options of a run with one rank per node
# (launcher_np_opts and these), for Open MPI's rankfile check.
launcher_per_node() {
  launcher_run=("$launcher" "${launcher_np_opts[@]}" --map-by ppr:1:node)
}
