#!/usr/bin/env bash
# scale.sh: the measurements of issue 12, items 4 and 3 (bench/README.md,
# "Scale and the portfolio's budget").
#
# scale: `greedymap map` with no --config (the default: the best of
#   GreedyMap, block, rb, drb and decompose) against `scotch_gmap -cb -b0.05`
#   (bench/mapper's strategy) on face stencils N^3 on torus (N/4)^3 x 64
#   slots and a random geometric graph on torus 25^3 x 64 slots, both
#   from the same .grf; each under /usr/bin/time (user + sys, wall, max
#   RSS), the runs of a case alternating, median and range.  Scotch maps
#   onto the nodes (torusXD); its overfilled nodes are repaired as
#   bench/mapper does (bench/scale_repair.py); both mappings evaluated
#   by `greedymap eval`.
# portfolio: `mpirun -np 2 parmapper GRAPH --time T` offline for every
#   budget on bench/mapper's cases: the chosen point's average
#   hop-bytes, and each over the longest budget's.
# Figures only: never a pass or fail on time.  Progress on stderr.
#
# usage: bench/scale.sh [--part scale|portfolio|all] [--greedymap PATH]
#          [--taskgraph PATH] [--parmapper PATH] [--mpirun CMD]
#          [--scotch-gmap PATH] [--sizes "32 64 128"] [--rgg-tasks N]
#          [--scotch all|"grid32 grid64 grid128 rgg"] [--repeat R]
#          [--cases "milc ..."] [--budgets "10 60"] [--keep DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
gm=greedymap/greedymap
tg=taskgraph/taskgraph
pm=parmapper/parmapper
mpirun=mpirun
gmap=scotch_gmap
part=all
sizes="32 64 128"
rgg_tasks=1000000
scotch=all
repeat=1
cases="grid64-torus rgg-torus milc stencil-fattree qbox-wsum"
budgets="10 60"
keep=
while [ $# -gt 0 ]; do
    case $1 in
    --part) part=$2; shift 2 ;;
    --greedymap) gm=$2; shift 2 ;;
    --taskgraph) tg=$2; shift 2 ;;
    --parmapper) pm=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --scotch-gmap) gmap=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --rgg-tasks) rgg_tasks=$2; shift 2 ;;
    --scotch) scotch=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --budgets) budgets=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scale.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
case $part in scale|portfolio|all) ;; *)
    echo "scale.sh: --part: '$part' is not scale, portfolio or all" >&2; exit 2 ;;
esac
if [ -n "$keep" ]; then
    dir=$keep; mkdir -p "$dir" || exit 1
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/scale-sh.XXXXXX") || exit 1
    trap 'rm -rf "$dir"' EXIT
fi
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
status=0
say() { echo "scale.sh: $*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# run LOG CMD...: run, stderr and stdout to LOG; complain on failure.
run() {
    local log=$1; shift
    "$@" > "$log" 2>&1 && return 0
    say "failed: $* (see $log)"; tail -n 3 "$log" >&2; status=1; return 1
}
# json OUT CMD...: as run, stdout (a JSON object) to OUT, stderr (progress
# lines on large graphs) to OUT.log.
json() {
    local out=$1; shift
    "$@" > "$out" 2> "$out.log" && return 0
    say "failed: $* (see $out.log)"; tail -n 3 "$out.log" >&2; status=1; return 1
}
# timed TIMES LOG CMD...: as run, /usr/bin/time's "user sys wall KB" to TIMES.
timed() {
    local times=$1 log=$2; shift 2
    run "$log" /usr/bin/time -f '%U %S %e %M' -o "$times.one" "$@" || return 1
    cat "$times.one" >> "$times"
}
# median and range of column C of a TIMES file: "cpu" is user + sys.
stat() {
    python3 - "$@" <<'PY'
import statistics, sys
path, what = sys.argv[1], sys.argv[2]
v = []
for line in open(path):
    u, s, e, kb = line.split()
    v.append({"cpu": float(u) + float(s), "wall": float(e),
              "rss": int(kb) / 1024.0}[what])
fmt = "%.0f" if what == "rss" else "%.2f"
m = statistics.median(v)
print(fmt % m if len(v) == 1 else (fmt + " [" + fmt + "-" + fmt + "]")
      % (m, min(v), max(v)))
PY
}
avg_of() {
    python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["hop_bytes_avg"])' "$1"
}

# ------------------------------------------------------------------ scale
scale_case() { # NAME DIMS(network) TASKS GEN...
    local name=$1 net=$2 tasks=$3; shift 3
    local g=$dir/$name nodes
    nodes=$(echo "$net" | tr x '*' | bc)
    local machine=(--nodes "$nodes" --slots 64 --network "torus:$net")
    say "$name: generating the graph"
    run "$g.gen.log" "$tg" gen "$@" -o "$g.tg.json" || return
    run "$g.conv.log" "$tg" convert "$g.tg.json" "$g.grf" || return
    rm -f "$g.tg.json" "$g.gm.t" "$g.sc.t"
    echo "torusXD $(echo "$net" | tr x ' ' | awk '{printf "%d", NF; for (i = NF; i >= 1; i--) printf " %s", $i}')" > "$g.tgt"
    local with_scotch=0 r moved=-
    case " $scotch " in *" all "*|*" $name "*) with_scotch=1 ;; esac
    for r in $(seq "$repeat"); do
        say "$name: greedymap map, run $r of $repeat (load $(load))"
        timed "$g.gm.t" "$g.gm.log" "$gm" map "$g.grf" "${machine[@]}" -o "$g.map" || return
        [ $with_scotch = 1 ] || continue
        say "$name: scotch_gmap, run $r of $repeat (load $(load))"
        timed "$g.sc.t" "$g.sc.log" "$gmap" -cb -b0.05 "$g.grf" "$g.tgt" "$g.smap" || return
    done
    json "$g.gm.eval" "$gm" eval "$g.grf" "${machine[@]}" --mapping "$g.map" --json || return
    printf '| %s (%s tasks, torus %s x 64) | topomap default | %s | %s | %s | %s | - |\n' \
        "$name" "$tasks" "$net" "$(avg_of "$g.gm.eval")" "$(stat "$g.gm.t" cpu)" \
        "$(stat "$g.gm.t" wall)" "$(stat "$g.gm.t" rss)"
    if [ $with_scotch = 1 ]; then
        moved=$(python3 "$here/scale_repair.py" "$g.smap" "$net" 64 "$g.fixed.map") || { status=1; return; }
        json "$g.sc.eval" "$gm" eval "$g.grf" "${machine[@]}" --mapping "$g.fixed.map" \
            --scotch-by-node --json || return
        printf '| | Scotch | %s | %s | %s | %s | %s |\n' "$(avg_of "$g.sc.eval")" \
            "$(stat "$g.sc.t" cpu)" "$(stat "$g.sc.t" wall)" "$(stat "$g.sc.t" rss)" "$moved"
        python3 -c 'import json, sys
a, b = (json.load(open(p))["hop_bytes_avg"] for p in sys.argv[1:3])
print("| | default / Scotch | %.3f | | | | |" % (a / b))' "$g.gm.eval" "$g.sc.eval"
    else
        echo "| | Scotch | not run | | | | |"
    fi
}

if [ "$part" != portfolio ]; then
    echo "scale: greedymap map (default) against scotch_gmap -cb -b0.05, $repeat run(s) each"
    echo "load average at start: $(load)"
    echo
    echo "| case | mapper | avg hop-bytes | cpu s (user+sys) | wall s | max RSS MB | tasks moved |"
    echo "|------|--------|--------------:|-----------------:|-------:|-----------:|------------:|"
    for n in $sizes; do
        scale_case "grid$n" "$((n / 4))x$((n / 4))x$((n / 4))" "$((n * n * n))" \
            stencil --dims "${n}x${n}x${n}" --bytes 1000
    done
    if [ "$rgg_tasks" -gt 0 ]; then
        # Radius for about 10 neighbours a point, as bench/mapper's 32,768
        # points at radius 0.01; torus side: the cube root of the nodes.
        side=$(python3 -c "print(round(($rgg_tasks / 64) ** (1 / 3)))")
        radius=$(python3 -c "print('%.5f' % (0.01 * (32768 / $rgg_tasks) ** 0.5))")
        if [ $((side * side * side * 64)) -lt "$rgg_tasks" ]; then side=$((side + 1)); fi
        scale_case rgg "${side}x${side}x${side}" "$rgg_tasks" \
            random-geometric --tasks "$rgg_tasks" --radius "$radius" --seed 1 --bytes 1000
    fi
    echo
    echo "load average at end: $(load)"
fi

# -------------------------------------------------------------- portfolio
# bench/mapper's cases (every edge 1000 bytes): generator and machine.
case_gen() {
    local g=$1
    case $2 in
    milc) run "$g.gen.log" "$tg" gen stencil --dims 16x16x16x16 --periodic --bytes 1000 -o "$g" ;;
    grid64-torus) run "$g.gen.log" "$tg" gen stencil --dims 64x64x64 --bytes 1000 -o "$g" ;;
    stencil-fattree) run "$g.gen.log" "$tg" gen stencil --dims 32x32x32 --diagonals --bytes 1000 -o "$g" ;;
    rgg-torus) run "$g.gen.log" "$tg" gen random-geometric --tasks 32768 --radius 0.01 --seed 1 \
                   --bytes 1000 -o "$g" ;;
    qbox-wsum) run "$g.gen.log" "$tg" gen qbox --rows 64 --cols 128 --p2p-bytes 1000 \
                   --alltoall-bytes 1000 -o "$dir/qbox-layers.tg.json" &&
               run "$g.gen.log" "$tg" combine "$dir/qbox-layers.tg.json" \
                   --weights p2p=0.6,alltoall=0.4 -o "$g" ;;
    *) say "unknown case '$2'"; return 1 ;;
    esac
}
case_machine() {
    case $1 in
    milc) echo --nodes 4096 --slots 16 --network torus:16x16x16 ;;
    grid64-torus) echo --nodes 4096 --slots 64 --network torus:16x16x16 ;;
    rgg-torus) echo --nodes 512 --slots 64 --network torus:8x8x8 ;;
    qbox-wsum) echo --nodes 512 --slots 16 --network torus:8x8x8 ;;
    stencil-fattree) # 32 leaves of 32 nodes, 32 spines (bench/mapper's)
        { for l in $(seq 0 31); do
              echo "SwitchName=leaf$l Nodes=node[$((l * 32))-$((l * 32 + 31))]"
          done
          for s in $(seq 0 31); do echo "SwitchName=spine$s Switches=leaf[0-31]"; done
        } > "$dir/fattree.conf"
        echo --nodes 1024 --slots 32 --network "fattree:$dir/fattree.conf" ;;
    esac
}

if [ "$part" != scale ]; then
    last=${budgets##* }
    echo "portfolio: mpirun -np 2 parmapper --time T: average hop-bytes of the chosen"
    echo "point and the least on the front; the runs parmapper finished"
    echo "load average at start: $(load)"
    echo
    cols() { # the columns of one figure: each budget, each over the last
        local t
        for t in $budgets; do printf ' %s %s s |' "$1" "$t"; done
        for t in $budgets; do [ "$t" = "$last" ] || printf ' %s s / %s s |' "$t" "$last"; done
    }
    rule() {
        local t
        for t in $budgets; do printf -- '-----:|'; done
        for t in $budgets; do [ "$t" = "$last" ] || printf -- '-----:|'; done
    }
    echo "| case |$(cols chosen)$(cols least) runs | chosen at each budget |"
    echo "|------|$(rule)$(rule)-----:|------|"
    for c in $cases; do
        g=$dir/$c.tg.json
        say "$c: generating the graph"
        case_gen "$g" "$c" || continue
        read -r -a machine <<< "$(case_machine "$c")"
        ok=1
        for t in $budgets; do
            say "$c: parmapper --time $t on 2 ranks (load $(load))"
            run "$dir/$c.$t.log" $mpirun -np 2 "$pm" "$g" "${machine[@]}" --time "$t" \
                --report "$dir/$c.$t.json" --mapping "$dir/$c.$t.map" || { ok=0; break; }
        done
        [ $ok = 1 ] || continue
        python3 - "$c" "$dir/$c" $budgets <<'PY'
import json, sys
name, base, budgets = sys.argv[1], sys.argv[2], sys.argv[3:]
rep = [json.load(open("%s.%s.json" % (base, t))) for t in budgets]
chosen = [r["chosen"]["hop_bytes_avg"] for r in rep]
least = [min(p["hop_bytes_avg"] for p in r["front"]) for r in rep]
cells = []
for v in (chosen, least):
    cells += ["%.2f" % a for a in v]
    cells += ["%.4f" % (a / v[-1]) for a in v[:-1]]
cells.append(" / ".join(str(r["search"]["runs"]) for r in rep))
cells.append("; ".join(r["chosen"]["config"] for r in rep))
print("| %s | %s |" % (name, " | ".join(cells)))
PY
    done
    echo
    echo "load average at end: $(load)"
fi
exit $status
