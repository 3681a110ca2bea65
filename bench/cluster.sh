#!/usr/bin/env bash
# bench/cluster.sh: does topomap's mapping make applications faster?  On an
# emulated cluster (scripts/topomap-cluster: N network namespaces with shaped
# links), every case (application x network x link rate x placement) runs
# four mappings, alternating, R times each:
#   default  what mpirun does for the placement;
#   bad      heavy partners scattered across nodes: from the block mapping,
#            the task swaps that raise the hop-bytes of all the traffic
#            most, until none does;
#   topomap  the application profiled once (commprof-run), taskgraph build,
#            parmapper in the job (--time T), the run with its rankfile;
#   decompose  the rankfile of `greedymap baseline decompose` (Mapple's
#            geometric boxes) on the same graph, where it has a grid
#            (the profile's Cartesian communicator): n/a otherwise.
# It prints a markdown table (medians, min..max, topomap's speed-up over the
# default and whether it is beyond the spread, hop-bytes) on stdout, progress
# on stderr, and keeps the raw per-run CSV, the cases' CSV (load averages,
# profiling and mapping cost), logs, profiles, graphs and rankfiles in DIR.
#
# Usage: bench/cluster.sh [--build DIR] [--out DIR] [--repeat R]
#          [--apps LIST] [--networks LIST] [--rates LIST] [--placements LIST]
#          [--full] [--nodes N] [--slots S] [--map-time T]
#          [--scatter-order LIST] [--oversub F] [--name NAME]
#          [--subnet A.B.C] [--dry-run]
#   --apps        qboxlike,halo3d,halo2xn,spmv,lammps,hpcc,gromacs
#                 (halo2xn: halo3d on a 2 x P/2 x 1 grid, which by-slot
#                 and by-node placements both cut badly)
#   --networks    flat,twolevel (two leaf switches, trunks oversubscribed
#                 F:1, --oversub F, default 2)
#   --rates       link rates, e.g. 100mbit,1gbit
#   --placements  slot (mpirun's default), node (--map-by node), scatter
#                 (by slot on a hostfile listing the nodes in the order
#                 --scatter-order, default the two halves interleaved,
#                 2,0,3,1 for 4 nodes, as a busy scheduler hands out
#                 free nodes)
#   Without --apps/--networks/--rates/--placements/--full: the default
#   matrix (19 cases, 18 run, about 30-35 min on a 2-core machine); with any of
#   them, the product of the lists given (the others: every value); --full:
#   the whole product.  --repeat R (default 3), --map-time T (parmapper's
#   --time, default 2), --nodes N x --slots S
#   (default 4 x 4), --out DIR (default bench-cluster-DATE), --name NAME
#   (the cluster's name, default bench), --subnet A.B.C (its addresses,
#   default topomap-cluster's), --dry-run (list the cases).
#   Problem sizes: environment BENCH_ARGS_<APP> (see bench/README.md).
# Needs root (network namespaces; exit 77 without).  Exit status: 0, 1 when
# a run or a step failed (the table marks it), 2 on a bad command line.
set -u
me=bench/cluster.sh
src=$(cd "$(dirname "$0")/.." && pwd)
# fd 3: the script's own stderr, which a trap running inside a redirected
# child's call still reaches.
exec 3>&2
say() { echo "$me: $*" >&3; }
die() { say "$*"; exit 1; }
usage() { say "$1 (see --help)"; exit 2; }

build=$src/build
out=''
repeat=3
apps='' networks='' rates='' placements='' full=0
nodes=4 slots=4 map_time=2 scatter_order= oversub=2
cname=bench subnet='' dry=0
all_apps=qboxlike,halo3d,halo2xn,spmv,lammps,hpcc,gromacs
all_networks=flat,twolevel
all_rates=100mbit,1gbit
all_placements=slot,node,scatter
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    --build | --out | --repeat | --apps | --networks | --rates | --placements | \
      --nodes | --slots | --map-time | --scatter-order | --oversub | --name | --subnet)
      [ $# -ge 2 ] || usage "$1 needs a value"
      v=$2
      case $1 in
        --build) build=$v ;; --out) out=$v ;; --repeat) repeat=$v ;;
        --apps) apps=$v ;; --networks) networks=$v ;; --rates) rates=$v ;;
        --placements) placements=$v ;; --nodes) nodes=$v ;; --slots) slots=$v ;;
        --map-time) map_time=$v ;;
        --scatter-order) scatter_order=$v ;; --oversub) oversub=$v ;; --name) cname=$v ;;
        --subnet) subnet=$v ;;
      esac
      shift 2 ;;
    --full) full=1; shift ;;
    --dry-run) dry=1; shift ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[[ $repeat =~ ^[1-9][0-9]*$ ]] || usage "--repeat wants a positive count, not '$repeat'"
[[ $nodes =~ ^[1-9][0-9]*$ ]] && [ "$nodes" -ge 2 ] || usage "--nodes wants 2 or more, not '$nodes'"
[[ $slots =~ ^[1-9][0-9]*$ ]] || usage "--slots wants a positive count, not '$slots'"
[[ $oversub =~ ^[1-9][0-9]*$ ]] || usage "--oversub wants a positive integer"
[[ $map_time =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage "--map-time wants seconds"
check_list() { # NAME VALUE ALLOWED
  local v
  for v in ${2//,/ }; do
    [[ ,$3, == *,$v,* ]] || usage "$1: '$v' is not one of $3"
  done
}
[ -z "$apps" ] || check_list --apps "$apps" "$all_apps"
[ -z "$networks" ] || check_list --networks "$networks" "$all_networks"
[ -z "$placements" ] || check_list --placements "$placements" "$all_placements"
for r in ${rates//,/ }; do
  [[ $r =~ ^[0-9]+(\.[0-9]+)?[kmg]bit$ ]] || usage "--rates: '$r' is not a tc rate such as 100mbit"
done
np=$((nodes * slots))
# The scattered node order: a permutation of 0..N-1; by default the two
# halves of the nodes interleaved, the second first (2,0,3,1 for 4 nodes).
if [ -z "$scatter_order" ]; then
  scatter_order=$(awk -v n="$nodes" 'BEGIN { h = int(n / 2); s = ""
    for (i = 0; i < n - h; i++) { if (i < h) s = s "," (h + i + (n % 2)); s = s "," i }
    print substr(s, 2) }')
fi
if [ "$(tr ',' '\n' <<< "$scatter_order" | sort -n | tr '\n' ' ')" != "$(seq 0 $((nodes - 1)) | tr '\n' ' ')" ]; then
  usage "--scatter-order wants a permutation of 0..$((nodes - 1)), not '$scatter_order'"
fi

# ------------------------------------------------------------ the matrix
# A case is "app network rate placement".  The default matrix (17 cases,
# HPCC's skipped): qboxlike (communication-bound) and LAMMPS (a real
# application) on both networks and rates, by slot and under the other
# placements where they change something (scatter only on the two-level
# network: on one switch a permuted node order is the by-slot mapping with
# the nodes renamed); GROMACS and halo3d by slot and by node at 100mbit;
# spmv (little traffic: a control) and HPCC by node at 100mbit; halo2xn
# (a grid whose default placements are not optimal, for decompose) by slot
# and by node at 100mbit.
default_matrix() {
  cat <<'EOF'
qboxlike flat 100mbit slot
qboxlike flat 100mbit node
qboxlike flat 1gbit slot
qboxlike twolevel 100mbit slot
qboxlike twolevel 100mbit scatter
qboxlike twolevel 1gbit slot
lammps flat 100mbit slot
lammps flat 100mbit node
lammps flat 1gbit node
lammps twolevel 100mbit slot
lammps twolevel 100mbit scatter
gromacs flat 100mbit slot
gromacs flat 100mbit node
halo3d flat 100mbit slot
halo3d flat 100mbit node
halo2xn flat 100mbit slot
halo2xn flat 100mbit node
spmv flat 100mbit node
hpcc flat 100mbit node
EOF
}
explicit=0
if [ $full = 1 ] || [ -n "$apps$networks$rates$placements" ]; then
  [ -z "$apps" ] || explicit=1
  matrix=$(for a in $(tr ',' ' ' <<< "${apps:-$all_apps}"); do
      for n in $(tr ',' ' ' <<< "${networks:-$all_networks}"); do
        for r in $(tr ',' ' ' <<< "${rates:-$all_rates}"); do
          for p in $(tr ',' ' ' <<< "${placements:-$all_placements}"); do
            echo "$a $n $r $p"
          done
        done
      done
    done)
else
  matrix=$(default_matrix)
fi
# Group the cases by network, then rate, so that the cluster is brought up
# once per network and reshaped once per rate; keep the given order within.
matrix=$(awk '{ print (($2 == "flat") ? 0 : 1), $3, NR, $0 }' <<< "$matrix" |
  sort -k1,1n -k2,2 -k3,3n | cut -d' ' -f4-)
ncases=$(grep -c . <<< "$matrix")
if [ $dry = 1 ]; then
  echo "$ncases cases, $repeat runs of each of default, bad, topomap, decompose:"
  echo "$matrix"
  exit 0
fi

# ------------------------------------------------------------ tools
[ "$(id -u)" -eq 0 ] || { say "needs root (network namespaces for topomap-cluster); skipping"; exit 77; }
build=$(cd "$build" 2> /dev/null && pwd) || die "no build folder '$build' (--build)"
tc=$src/scripts/topomap-cluster
mpitime=$build/bench/.libs/libmpitime.so
commprof_run=$build/scripts/commprof-run
taskgraph=$build/taskgraph/taskgraph
parmapper=$build/parmapper/parmapper
greedymap=$build/greedymap/greedymap
for f in "$tc" "$mpitime" "$commprof_run" "$taskgraph" "$parmapper" "$greedymap"; do
  [ -e "$f" ] || die "missing $f (build first: scripts/build.sh, then make -C build bench/libmpitime.la)"
done
command -v python3 > /dev/null || die "needs python3"
cores=$(nproc)
tasks_per_slot=$(((slots + cores - 1) / cores))

[ -n "$out" ] || out=bench-cluster-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
mkdir -p "$out/apps" "$out/cases"
runs_csv=$out/runs.csv
cases_csv=$out/cases.csv
echo "app,network,rate,placement,variant,repeat,position,rc,mpirun_s,app_s,hop_bytes_avg,hop_bytes_max,all_hop_bytes_avg,all_hop_bytes_max,hosts_as_first" > "$runs_csv"
echo "case,app,network,rate,placement,load_start,load_end,profile_s,build_s,parmapper_s,parmapper_search_s,status,decompose" > "$cases_csv"
failed=0

# A child in the background and waited for, so that a signal reaches the
# script's trap at once (which brings the cluster down, killing the job).
bg_pid=''
bg_wait() {
  local rc
  "$@" &
  bg_pid=$!
  wait "$bg_pid"
  rc=$?
  bg_pid=''
  return $rc
}
# Stop the job in flight (mpirun on node0; its daemons on the other nodes
# exit with it), TERM then KILL after 5 s.
stop_job() {
  local i
  [ -n "$bg_pid" ] || return 0
  kill -TERM "$bg_pid" 2> /dev/null
  for ((i = 0; i < 50; i++)); do
    kill -0 "$bg_pid" 2> /dev/null || break
    sleep 0.1
  done
  kill -KILL "$bg_pid" 2> /dev/null
  wait "$bg_pid" 2> /dev/null
  bg_pid=''
}
progress() { echo "[$(date -u +%H:%M:%S)] $*" >&3; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# ------------------------------------------------------------ the cluster
cluster_net='' cluster_rate=''
cdir=''
# topomap-cluster's state folder (its TOPOMAP_CLUSTER_STATE, or the default)
cluster_state=${TOPOMAP_CLUSTER_STATE:-/run/topomap-cluster}
subnet_opt=()
[ -z "$subnet" ] || subnet_opt=(--subnet "$subnet")
cluster_down() {
  stop_job
  if [ -n "$cluster_net" ]; then
    "$tc" --name "$cname" down > /dev/null 2>&1 ||
      say "topomap-cluster --name $cname down failed: see topomap-cluster --name $cname status"
    cluster_net=''
  fi
}
on_signal() {
  trap - INT TERM HUP
  say "interrupted: stopping the job and bringing cluster '$cname' down"
  cluster_down
  exit 130
}
on_exit() {
  local rc=$?
  cluster_down
  exit $rc
}
trap on_exit EXIT
trap on_signal INT TERM HUP
# Trunk rate: F:1 oversubscribed, i.e. nodes-per-leaf x rate / F.
trunk_of() { # RATE
  [[ $1 =~ ^([0-9.]+)([kmg])bit$ ]]
  awk -v n="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[2]}" -v per=$((nodes / 2)) -v f="$oversub" 'BEGIN {
    m = u == "k" ? 1e3 : u == "m" ? 1e6 : 1e9
    b = n * m * per / f
    if (b >= 1e9 && b % 1e9 == 0) printf "%dgbit\n", b / 1e9
    else if (b % 1e6 == 0) printf "%dmbit\n", b / 1e6
    else printf "%dkbit\n", b / 1e3 }'
}
cluster_for() { # NETWORK RATE
  local net=$1 rate=$2 trunk
  if [ "$net" != "$cluster_net" ]; then
    cluster_down
    if [ -d "$cluster_state/$cname" ]; then
      say "a cluster '$cname' is left from an earlier run: bringing it down"
      "$tc" --name "$cname" down >&2 || die "cannot remove cluster '$cname'"
    fi
    # Set before up: a signal while up runs (up removes what it made
    # itself) or once it is up must find a cluster to bring down.
    cluster_net=$net cluster_rate=$rate
    cdir=$cluster_state/$cname
    if [ "$net" = flat ]; then
      "$tc" --name "$cname" up "$nodes" --slots "$slots" --rate "$rate" "${subnet_opt[@]}" >&2 || die "topomap-cluster up failed"
    else
      trunk=$(trunk_of "$rate")
      "$tc" --name "$cname" up "$nodes" --slots "$slots" --rate "$rate" --leaves 2 --trunk-rate "$trunk" \
        "${subnet_opt[@]}" >&2 ||
        die "topomap-cluster up failed"
    fi
  elif [ "$rate" != "$cluster_rate" ]; then
    if [ "$net" = flat ]; then
      "$tc" --name "$cname" rate "$rate" >&2 || die "topomap-cluster rate failed"
    else
      "$tc" --name "$cname" rate "$rate" --trunk-rate "$(trunk_of "$rate")" >&2 || die "topomap-cluster rate failed"
    fi
    cluster_rate=$rate
  fi
}

# ------------------------------------------------------------ applications
# Sizes for 16 ranks on 4 x 4 slots of a 2-core machine: a run of roughly
# 3-15 s at 100mbit under the default mapping.
: "${BENCH_ARGS_QBOXLIKE:=--bytes 524288 --iters 12}"
: "${BENCH_ARGS_QBOXLIKE_1GBIT:=--bytes 524288 --iters 60}"
: "${BENCH_ARGS_HALO3D:=--bytes 131072 --iters 40}"
: "${BENCH_ARGS_HALO3D_1GBIT:=--bytes 131072 --iters 200}"
: "${BENCH_ARGS_HALO2XN:=--bytes 131072 --iters 40}"
: "${BENCH_ARGS_HALO2XN_1GBIT:=--bytes 131072 --iters 200}"
: "${BENCH_ARGS_SPMV:=--points 200000 --radius 0.004 --iters 40}"
: "${BENCH_ARGS_LAMMPS:=-var n 20 -var steps 300}"
: "${BENCH_ARGS_HPCC:=N=2000}"
: "${BENCH_ARGS_GROMACS:=box=4.0 nsteps=200}"
declare -A app_skip=() app_ready=()
# app_prepare APP: inputs in $out/apps/APP; sets app_skip[APP] to the
# reason when it cannot run here.
app_prepare() {
  local app=$1 d=$out/apps/$1
  [ -z "${app_ready[$app]:-}" ] || return 0
  app_ready[$app]=1
  mkdir -p "$d/work"
  case $app in
    qboxlike | halo3d | spmv)
      [ -x "$build/examples/$app" ] || app_skip[$app]="$build/examples/$app is not built" ;;
    halo2xn)
      [ -x "$build/examples/halo3d" ] || app_skip[$app]="$build/examples/halo3d is not built"
      [ $((np % 2)) -eq 0 ] || app_skip[$app]="a 2 x P/2 grid needs an even rank count, not $np" ;;
    lammps)
      local melt=/usr/share/lammps/examples/melt/in.melt
      if ! command -v lmp > /dev/null || [ ! -f "$melt" ]; then
        app_skip[$app]="LAMMPS is not installed (scripts/install-bench-deps.sh)"
        return 0
      fi
      # melt with the lattice and the steps as variables, thermo every 100.
      sed -e 's/block 0 10 0 10 0 10/block 0 ${n} 0 ${n} 0 ${n}/' \
        -e 's/^run.*/run ${steps}/' -e 's/^thermo.*/thermo 100/' "$melt" > "$d/in.melt" ;;
    hpcc)
      command -v hpcc > /dev/null || { app_skip[$app]="hpcc is not installed (scripts/install-bench-deps.sh)"; return 0; }
      # HPCC 1.5.0 runs every test, none can be left out: at 16 ranks on
      # 2 cores one run took 330 s, 285 of them in its latency/bandwidth
      # section (ping-pongs and random rings), whatever N.
      if [ $explicit = 0 ]; then
        app_skip[$app]="one HPCC run takes about 330 s here (its latency/bandwidth section alone 285 s, and no test can be left out); run it with --apps hpcc"
        return 0
      fi
      hpcc_input "$d/work/hpccinf.txt" ;;
    gromacs)
      command -v gmx_mpi > /dev/null && command -v gmx > /dev/null ||
        { app_skip[$app]="GROMACS is not installed (scripts/install-bench-deps.sh)"; return 0; }
      gromacs_input "$d/work" || app_skip[$app]="could not prepare the GROMACS input (see $d/work/prepare.log)" ;;
  esac
}
# app_cmd APP RATE: the command line of APP, one word per line, with
# BENCH_ARGS_<APP>_<RATE> (BENCH_ARGS_QBOXLIKE_1GBIT) when set.
app_cmd() {
  local v=BENCH_ARGS_${1^^}_${2^^}
  [ -n "${!v:-}" ] || v=BENCH_ARGS_${1^^}
  case $1 in
    qboxlike | halo3d | spmv)
      echo "$build/examples/$1"; tr ' ' '\n' <<< "${!v}" ;;
    # halo3d with its grid read from the command line, as an application
    # reading its process grid from its input: 2 x P/2 x 1, whose long last
    # dimension the by-slot placement cuts into half-rows.
    halo2xn)
      echo "$build/examples/halo3d"; tr ' ' '\n' <<< "${!v}"
      printf '%s\n' --dx 2 --dy $((np / 2)) --dz 1 ;;
    lammps) echo lmp; echo -in; echo "$out/apps/lammps/in.melt"; echo -log; echo none
      tr ' ' '\n' <<< "${!v}" ;;
    hpcc) echo hpcc ;;
    gromacs)
      local nsteps
      nsteps=$(tr ' ' '\n' <<< "${!v}" | sed -n 's/^nsteps=//p')
      printf '%s\n' gmx_mpi mdrun -s topol.tpr -ntomp 1 -nsteps "${nsteps:-200}" -noconfout \
        -npme 0 -g md.log -nb cpu ;;
  esac
}
# HPCC's input: HPL on a P x Q grid of the ranks with N from
# BENCH_ARGS_HPCC, the other problem sizes derived by hpcc itself.
hpcc_input() {
  local n p q
  n=$(tr ' ' '\n' <<< "$BENCH_ARGS_HPCC" | sed -n 's/^N=//p')
  p=$(awk -v n=$np 'BEGIN { p = int(sqrt(n)); while (n % p) p--; print p }')
  q=$((np / p))
  cat > "$1" <<EOF
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
${n:-2000}   Ns
1            # of NBs
80           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$p           Ps
$q           Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
EOF
}
# GROMACS's input: a cubic box of SPC water (box=L nm), PME, made with
# gmx solvate and gmx grompp from Debian's force fields.
gromacs_input() {
  local d=$1 box
  box=$(tr ' ' '\n' <<< "$BENCH_ARGS_GROMACS" | sed -n 's/^box=//p')
  (
    cd "$d" || exit 1
    gmx -quiet solvate -cs spc216.gro -box "${box:-4.0}" "${box:-4.0}" "${box:-4.0}" -o water.gro || exit 1
    nw=$(awk 'NR == 2 { print $1 / 3 }' water.gro)
    cat > topol.top <<EOF
#include "oplsaa.ff/forcefield.itp"
#include "oplsaa.ff/spc.itp"
[ system ]
water
[ molecules ]
SOL $nw
EOF
    cat > md.mdp <<EOF
integrator = md
dt = 0.002
nsteps = 1000
cutoff-scheme = Verlet
nstlist = 10
coulombtype = PME
rcoulomb = 0.9
rvdw = 0.9
constraints = h-bonds
tcoupl = v-rescale
tc-grps = System
tau_t = 0.1
ref_t = 300
gen_vel = yes
gen_temp = 300
nstxout = 0
nstvout = 0
nstenergy = 0
nstlog = 0
nstcalcenergy = 100
EOF
    gmx -quiet grompp -f md.mdp -c water.gro -p topol.top -o topol.tpr -maxwarn 2 || exit 1
  ) > "$d/prepare.log" 2>&1
}

# ------------------------------------------------------------ one run
# The mpirun options of a placement, one a line; every variant runs with
# --bind-to none (every node's daemon would bind to the same two physical
# cores) and mpi_yield_when_idle (16 polling ranks on 2 cores otherwise);
# GMX_MAXBACKUP=-1: GROMACS overwrites its md.log instead of keeping
# backups, of which it refuses to make more than 99.
base_opts() { # PLACEMENT
  printf '%s\n' -np "$np" --bind-to none --mca mpi_yield_when_idle 1 -x GMX_MAXBACKUP=-1
  case $1 in
    node) printf '%s\n' --map-by node ;;
    scatter) printf '%s\n' --hostfile "$out/hostfile.scatter" ;;
  esac
}
# run_app CASEDIR TAG PLACEMENT RANKFILE(or -) : sets run_rc, run_mpirun_s,
# run_app_s; the mapping the ranks ran on is CASEDIR/TAG.mpitime.
run_app() {
  local cd=$1 tag=$2 place=$3 rf=$4 app=$5 t0 t1
  local -a opts cmd
  mapfile -t cmd < <(app_cmd "$app" "$rate")
  if [ "$rf" = - ]; then
    mapfile -t opts < <(base_opts "$place")
  else
    mapfile -t opts < <(base_opts "$place" | grep -v -x -e --map-by -e node)
    opts+=(--rankfile "$rf")
  fi
  rm -f "$cd/$tag.mpitime"
  t0=$(now)
  bg_wait "$tc" --name "$cname" run < /dev/null -- mpirun "${opts[@]}" -wdir "$out/apps/$app/work" \
    -x LD_PRELOAD="$mpitime" -x MPITIME_OUT="$cd/$tag.mpitime" "${cmd[@]}" \
    > "$cd/$tag.log" 2>&1
  run_rc=$?
  t1=$(now)
  run_mpirun_s=$(elapsed "$t0" "$t1")
  run_app_s=$(sed -n '1s/.*max_seconds=\([0-9.]*\).*/\1/p' "$cd/$tag.mpitime" 2> /dev/null)
  [ -n "$run_app_s" ] || { run_app_s=NA; [ $run_rc -ne 0 ] || run_rc=99; }
  return 0
}
# hop-bytes of a mapping (topomap mapping file or rankfile): "avg max".
hop_bytes() { # GRAPH MAPPING NETWORK-OPTS...
  local g=$1 m=$2
  shift 2
  "$greedymap" eval "$g" --hostfile "$cdir/hostfile" "$@" --mapping "$m" --json 2> /dev/null |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["hop_bytes_avg"], d["hop_bytes_max"])' ||
    echo "NA NA"
}
hosts_of() { grep -v '^#' "$1" 2> /dev/null | awk '{ print $2 }' | tr '\n' ' '; }

# ------------------------------------------------------------ the cases
# The scattered hostfile: the cluster's nodes in --scatter-order.
for i in ${scatter_order//,/ }; do echo "node$i slots=$slots"; done > "$out/hostfile.scatter"
{
  echo "# bench/cluster.sh $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "cluster: $nodes nodes x $slots slots ($np ranks, $tasks_per_slot per core), repeat $repeat, parmapper --time $map_time"
  echo "sizes: qboxlike '$BENCH_ARGS_QBOXLIKE' (1gbit '$BENCH_ARGS_QBOXLIKE_1GBIT'), halo3d '$BENCH_ARGS_HALO3D' (1gbit '$BENCH_ARGS_HALO3D_1GBIT'), halo2xn '$BENCH_ARGS_HALO2XN --dx 2 --dy $((np / 2)) --dz 1' (1gbit '$BENCH_ARGS_HALO2XN_1GBIT'), spmv '$BENCH_ARGS_SPMV', lammps '$BENCH_ARGS_LAMMPS', hpcc '$BENCH_ARGS_HPCC', gromacs '$BENCH_ARGS_GROMACS'"
  echo "scatter order: $scatter_order; two-level trunks oversubscribed $oversub:1"
  echo "load average at start: $(loadavg)"
  if awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v c="$cores" 'BEGIN { exit !(l >= c) }'; then
    echo "warning: the load average is at or above the $cores cores before the first run: other processes compete with the ranks, and the times are not to be trusted"
  fi
} > "$out/info.txt"
grep '^warning' "$out/info.txt" >&2
progress "$ncases cases x 4 variants x $repeat runs; output in $out; load average $(loadavg)"

k=0
while read -r app net rate place; do
  k=$((k + 1))
  cname_case=$app-$net-$rate-$place
  cd_=$out/cases/$cname_case
  mkdir -p "$cd_"
  app_prepare "$app"
  if [ -n "${app_skip[$app]:-}" ]; then
    progress "[$k/$ncases] $cname_case: skipped: ${app_skip[$app]}"
    echo "$k,$app,$net,$rate,$place,,,,,,,skipped: ${app_skip[$app]//,/;}," >> "$cases_csv"
    continue
  fi
  cluster_for "$net" "$rate"
  load_start=$(loadavg)
  progress "[$k/$ncases] $cname_case: load $load_start"
  netopt=()
  [ "$net" = flat ] || netopt=(--network "fattree:$cdir/topology.conf")
  adir=$out/apps/$app
  status=ok

  # Profile and graphs, once per application (the pattern depends on the
  # ranks, not on where they run).
  if [ ! -f "$adir/graphs/wsum.tg.json" ]; then
    mapfile -t cmd < <(app_cmd "$app" "$rate")
    mapfile -t opts < <(base_opts slot)
    t0=$(now)
    bg_wait "$tc" --name "$cname" run < /dev/null -- "$commprof_run" -o "$adir/profile.json" -- \
      mpirun "${opts[@]}" -wdir "$adir/work" "${cmd[@]}" > "$adir/profile.log" 2>&1
    rc=$?
    t1=$(now)
    echo "$(elapsed "$t0" "$t1")" > "$adir/profile.seconds"
    t0=$(now)
    if [ $rc -eq 0 ] && "$taskgraph" build "$adir/profile.json" -o "$adir/graphs" > "$adir/build.log" 2>&1 &&
      t1=$(now) && echo "$(elapsed "$t0" "$t1")" > "$adir/build.seconds" &&
      "$taskgraph" build "$adir/profile.json" --coverage 1 --min-share 0 -o "$adir/graphs-all" \
        > "$adir/build-all.log" 2>&1; then
      progress "  profiled $app in $(cat "$adir/profile.seconds") s, graphs in $(cat "$adir/build.seconds") s"
    else
      app_skip[$app]="profiling or taskgraph build failed (see $adir/profile.log, $adir/build.log)"
      progress "  $app: ${app_skip[$app]}"
      echo "$k,$app,$net,$rate,$place,$load_start,$(loadavg),,,,,failed: profile," >> "$cases_csv"
      failed=1
      continue
    fi
  fi
  graph=$adir/graphs/wsum.tg.json

  # topomap: parmapper inside a job of the placement, as the production job.
  mapfile -t opts < <(base_opts "$place")
  t0=$(now)
  bg_wait "$tc" --name "$cname" run < /dev/null -- mpirun "${opts[@]}" "$parmapper" "$graph" --time "$map_time" \
    "${netopt[@]}" --rankfile "$cd_/topomap.rankfile" \
    --report "$cd_/parmapper.json" > "$cd_/parmapper.log" 2>&1
  rc=$?
  t1=$(now)
  parmapper_s=$(elapsed "$t0" "$t1")
  search_s=$(python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["search"]["seconds"])' \
    "$cd_/parmapper.json" 2> /dev/null || echo NA)
  if [ $rc -ne 0 ] || [ ! -s "$cd_/topomap.rankfile" ]; then
    progress "  parmapper failed (see $cd_/parmapper.log)"
    status="failed: parmapper"
    failed=1
  fi
  # A rankfile's slot=N binds the rank to core N even with --bind-to none
  # (Open MPI 4.1), and the default variant is not bound: the runs use the
  # rankfile with every rank given all the node's cores, slot=0-(C-1), so
  # that only the hosts differ between the variants.
  sed "s/slot=[0-9:]*\$/slot=0-$((cores - 1))/" "$cd_/topomap.rankfile" > "$cd_/topomap.run.rankfile" 2> /dev/null

  # decompose: Mapple's geometric boxes (greedymap baseline decompose) on
  # the same graph and machine, offline; n/a when the graph has no grid.
  # Its rankfile gets all the node's cores, as topomap's.
  decomp=ok
  if "$greedymap" baseline decompose "$graph" --hostfile "$cdir/hostfile" "${netopt[@]}" \
    -o "$cd_/decompose.map" --rankfile "$cd_/decompose.rankfile" > "$cd_/decompose.log" 2>&1; then
    sed "s/slot=[0-9:]*\$/slot=0-$((cores - 1))/" "$cd_/decompose.rankfile" > "$cd_/decompose.run.rankfile"
  else
    decomp="n/a: $(tail -n 1 "$cd_/decompose.log" | tr ',' ';')"
    progress "  decompose: $decomp"
  fi

  # bad: heavy partners scattered across nodes (and leaves): from the
  # block mapping, swaps of two tasks on different nodes that raise the
  # hop-bytes of all the traffic (graphs-all/sum.tg.json) most, until none
  # does; its rankfile gives every rank all the node's cores (below).
  python3 - "$adir/graphs-all/sum.tg.json" "$cdir/nodes" "$slots" "$cores" "$net" \
    "$cd_/bad.map" "$cd_/bad.rankfile" <<'PY' || { status="failed: bad mapping"; failed=1; }
import json, sys
graph, nodes_file, slots, cores, net, map_out, rf_out = sys.argv[1:]
slots, cores = int(slots), int(cores)
g = json.load(open(graph))
n = g["tasks"]
w = {}
for a, b, x in g["edges"]:
    if a != b:
        k = (min(a, b), max(a, b))
        w[k] = w.get(k, 0) + x
adj = [[] for _ in range(n)]
for (a, b), x in w.items():
    adj[a].append((b, x)); adj[b].append((a, x))
hosts, leaf = [], {}
for line in open(nodes_file):
    h, _ip, l = line.split()
    hosts.append(h); leaf[h] = l
def dist(p, q):
    if p == q: return 0
    if net == "flat" or leaf[hosts[p]] == leaf[hosts[q]]: return 2
    return 4
node = [t // slots for t in range(n)]          # block: by slot
def gain(t, u):                                 # hop-bytes change of swapping t and u
    nt, nu = node[t], node[u]
    d = 0
    for v, x in adj[t]:
        if v != u: d += x * (dist(nu, node[v]) - dist(nt, node[v]))
    for v, x in adj[u]:
        if v != t: d += x * (dist(nt, node[v]) - dist(nu, node[v]))
    return d
for _ in range(100):
    best, bt = 0, None
    for t in range(n):
        for u in range(t + 1, n):
            if node[t] != node[u]:
                gn = gain(t, u)
                if gn > best: best, bt = gn, (t, u)
    if not bt: break
    t, u = bt
    node[t], node[u] = node[u], node[t]
used = {}
with open(map_out, "w") as m, open(rf_out, "w") as r:
    m.write("# bad mapping of bench/cluster.sh: hop-bytes of all traffic raised by swaps from block\n")
    for t in range(n):
        s = used.get(node[t], 0); used[node[t]] = s + 1
        m.write("%d %s %d\n" % (t, hosts[node[t]], s))
        r.write("rank %d=%s slot=0-%d\n" % (t, hosts[node[t]], cores - 1))
PY

  # The runs, alternating: run r starts with variant (r - 1) mod 4.
  variants=(default bad topomap decompose)
  declare -A first_hosts=() hb=()
  for ((r = 1; r <= repeat; r++)); do
    for ((j = 0; j < 4; j++)); do
      v=${variants[$(((r - 1 + j) % 4))]}
      case $v in
        default) rf=- ;;
        bad) rf=$cd_/bad.rankfile ;;
        topomap) rf=$cd_/topomap.run.rankfile ;;
        decompose) rf=$cd_/decompose.run.rankfile ;;
      esac
      if [ "$v" = topomap ] && [ "$status" != ok ]; then continue; fi
      if [ "$v" = decompose ] && [ "$decomp" != ok ]; then continue; fi
      run_app "$cd_" "$v.$r" "$place" "$rf" "$app"
      same=NA
      if [ "$run_rc" -eq 0 ]; then
        h=$(hosts_of "$cd_/$v.$r.mpitime")
        if [ -z "${first_hosts[$v]:-}" ]; then
          first_hosts[$v]=$h
          hb[$v]="$(hop_bytes "$graph" "$cd_/$v.$r.mpitime" "${netopt[@]}") $(hop_bytes "$adir/graphs-all/sum.tg.json" "$cd_/$v.$r.mpitime" "${netopt[@]}")"
          cp "$cd_/$v.$r.mpitime" "$cd_/$v.mapping"
        fi
        if [ "$h" = "${first_hosts[$v]}" ]; then same=yes; else same=no; fi
      else
        failed=1
        status="failed: a run"
      fi
      read -r hba hbm hbaa hbam <<< "${hb[$v]:-NA NA NA NA}"
      echo "$app,$net,$rate,$place,$v,$r,$((j + 1)),$run_rc,$run_mpirun_s,$run_app_s,$hba,$hbm,$hbaa,$hbam,$same" >> "$runs_csv"
      progress "  run $r/$repeat $v: app $run_app_s s, mpirun $run_mpirun_s s$([ "$run_rc" -eq 0 ] || echo ", FAILED rc $run_rc: $cd_/$v.$r.log")"
    done
  done
  unset first_hosts hb
  load_end=$(loadavg)
  echo "$k,$app,$net,$rate,$place,$load_start,$load_end,$(cat "$adir/profile.seconds"),$(cat "$adir/build.seconds"),$parmapper_s,$search_s,$status,$decomp" >> "$cases_csv"
done <<< "$matrix"
cluster_down
echo "load average at end: $(loadavg)" >> "$out/info.txt"
progress "done; load average $(loadavg)"

# ------------------------------------------------------------ the table
python3 - "$out" <<'EOF' | tee "$out/table.md"
import csv, statistics, sys, os
out = sys.argv[1]
runs = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
cases = list(csv.DictReader(open(os.path.join(out, "cases.csv"))))
print("".join(open(os.path.join(out, "info.txt")).readlines()[1:]).rstrip())
print()
print("Seconds from MPI_Init to MPI_Finalize (slowest rank), median and min..max of the runs; "
      "speed-up = default median / topomap (decompose) median, *beyond* when every topomap (decompose) "
      "run beat every default run (*slower* for the converse); hop-bytes avg/max in MB of the "
      "graph topomap maps (wsum.tg.json: the critical types weighted by their share of the time), "
      "and in brackets the average over all the traffic (every type but the collectives on all ranks, "
      "in bytes: graphs-all/sum.tg.json), from greedymap eval of where the ranks actually ran; "
      "decompose: greedymap baseline decompose's rankfile, n/a where the graph has no grid.")
print()
print("| app | network | rate | placement | default s | bad s | topomap s | decompose s | topomap vs default | "
      "decompose vs default | mpirun s default / topomap / decompose | hop-bytes default | bad | topomap | "
      "decompose | load start / end |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
variants = ("default", "bad", "topomap", "decompose")
def med(xs): return statistics.median(xs) if xs else None
def cell(xs):
    if not xs: return "n/a"
    return "%.2f (%.2f..%.2f)" % (med(xs), min(xs), max(xs))
def mb(r):
    try: return "%.1f / %.1f (%.1f)" % (float(r["hop_bytes_avg"]) / 1e6, float(r["hop_bytes_max"]) / 1e6,
                                       float(r["all_hop_bytes_avg"]) / 1e6)
    except ValueError: return "n/a"
def speedup(d, x):
    if not d or not x: return "n/a"
    s = med(d) / med(x)
    if len(x) < 2 or len(d) < 2: note = "1 run: no spread"
    elif max(x) < min(d): note = "beyond"
    elif min(x) > max(d): note = "slower"
    else: note = "within"
    return "%.2fx (%s)" % (s, note)
for c in cases:
    key = (c["app"], c["network"], c["rate"], c["placement"])
    if c["status"].startswith("skipped"):
        print("| %s | %s | %s | %s | %s |" % (key + (c["status"],)) + " |" * 11)
        continue
    rs = [r for r in runs if (r["app"], r["network"], r["rate"], r["placement"]) == key]
    ok = {v: [r for r in rs if r["variant"] == v and r["rc"] == "0"] for v in variants}
    t = {v: [float(r["app_s"]) for r in ok[v]] for v in variants}
    w = {v: "%.2f" % med([float(r["mpirun_s"]) for r in ok[v]]) if ok[v] else "n/a" for v in variants}
    h = {v: mb(ok[v][0]) if ok[v] else "n/a" for v in variants}
    dec = c.get("decompose") or ""
    if dec.startswith("n/a"):
        h["decompose"] = dec
    st = "" if c["status"] == "ok" else " " + c["status"]
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %s / %s / %s | %s | %s | %s | %s | %s / %s |" % (
        key + (cell(t["default"]), cell(t["bad"]), cell(t["topomap"]), cell(t["decompose"]),
               speedup(t["default"], t["topomap"]), st, speedup(t["default"], t["decompose"]),
               w["default"], w["topomap"], w["decompose"],
               h["default"], h["bad"], h["topomap"], h["decompose"],
               c["load_start"].split()[0] if c["load_start"] else "",
               c["load_end"].split()[0] if c["load_end"] else "")))
print()
print("Cost of topomap, outside the times above: profiling run (commprof-run, once per application), "
      "taskgraph build, and parmapper in the job (whole mpirun / its search):")
print()
print("| app | network | rate | placement | profile s | build s | parmapper s (search s) |")
print("|---|---|---|---|---|---|---|")
for c in cases:
    if c["status"].startswith("skipped"): continue
    print("| %s | %s | %s | %s | %s | %s | %s (%s) |" % (c["app"], c["network"], c["rate"], c["placement"],
          c["profile_s"], c["build_s"], c["parmapper_s"], c["parmapper_search_s"]))
EOF
exit $failed
