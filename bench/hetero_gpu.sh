#!/usr/bin/env bash
# hetero_gpu.sh: on a machine with an NVIDIA GPU, run examples/heat in
# three placements that topomap-place makes from heat's own measured
# per-rank times (all-cpu, gpu-first, ccd: topomap's choice), each through
# topomap-exec, and print the measured times side by side with the
# predicted ones.  Builds nothing: give it a build folder configured with
# CUDA.  Exits 1 when a step fails or a run's checksum differs from the
# all-CPU measurement's, 2 on a bad command line; never on time.
#
# usage: bench/hetero_gpu.sh [--build DIR] [--np N] [--rows N] [--cols M]
#          [--iters K] [--runs R] [--ranks-per-gpu N] [--calibration FILE]
#          [--keep DIR]
#   --build DIR           the build folder (default: .)
#   --np N                ranks (default 4)
#   --rows, --cols, --iters   heat's problem (default 4096 4096 200)
#   --runs R              runs of each placement, interleaved; medians
#                         shown (default 3)
#   --ranks-per-gpu N     topomap-place's limit (default 1)
#   --calibration FILE    memprobe's file, for topomap-place
#   --keep DIR            keep the inputs, placements and outputs in DIR
set -u

build=.
np=4
rows=4096
cols=4096
iters=200
runs=3
rpg=1
calib=
keep=
bad() { echo "hetero_gpu.sh: $*" >&2; exit 2; }
value() { [ $# -ge 2 ] || bad "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case $1 in
    --build) value "$@"; build=$2 ;;
    --np) value "$@"; np=$2 ;;
    --rows) value "$@"; rows=$2 ;;
    --cols) value "$@"; cols=$2 ;;
    --iters) value "$@"; iters=$2 ;;
    --runs) value "$@"; runs=$2 ;;
    --ranks-per-gpu) value "$@"; rpg=$2 ;;
    --calibration) value "$@"; calib=$2 ;;
    --keep) value "$@"; keep=$2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) bad "unknown option $1 (see --help)" ;;
    esac
    shift 2
done
for v in "$np" "$rows" "$cols" "$iters" "$runs" "$rpg"; do
    case $v in
    ''|*[!0-9]*|0) bad "'$v' is not a positive integer" ;;
    esac
done

die() { echo "hetero_gpu.sh: $*" >&2; exit 1; }
heat=$build/examples/heat
place=$build/hetero/topomap-place
texec=$build/hetero/topomap-exec
for f in "$heat" "$place" "$texec"; do
    [ -x "$f" ] || die "$f: not found (is $build a built build folder?)"
done
grep -q '^#define HAVE_CUDA 1' "$build/config.h" ||
    die "$build was configured without CUDA: heat has no GPU variant"
nvidia-smi -L > /dev/null 2>&1 || [ -e /dev/nvidia0 ] ||
    die "no NVIDIA GPU on this machine"

dir=$keep
if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/hetero-gpu.XXXXXX") || exit 1
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir" || exit 1

mpi=(mpirun)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
# The measurements bind a rank to a core, as the placements will.
bind=(--bind-to core)
if [ "$np" -gt "$(nproc)" ]; then
    mpi+=(--oversubscribe)
    bind=(--bind-to none)
    echo "hetero_gpu.sh: $np ranks on $(nproc) cores: oversubscribed" >&2
fi
app=("$heat" --rows "$rows" --cols "$cols" --iters "$iters")
gpu=(env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=device)
host=$(hostname)

# heat's figures: the checksum, the slowest rank's loop, rank R's fields.
checksum() { grep -o 'checksum [0-9a-f]*' "$1"; }
loop_s() { sed -n 's/^heat: .* iterations, .*, wall \([0-9.]*\) s$/\1/p' "$1"; }
rank_field() { # FILE RANK FIELD (rows, compute)
    sed -n "s/^heat: rank $2: .*, rows \([0-9]*\), compute \([0-9.]*\) s, .*/\1 \2/p" "$1" |
        awk -v f="$3" '{ print (f == "rows" ? $1 : $2) }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
now() { date +%s.%N; }

echo "heat ${rows}x${cols}, $iters iterations, $np ranks on $host"
nvidia-smi -L 2>/dev/null | head -1
echo "measuring: all ranks on CPU cores, then each rank alone on the GPU" >&2
"${mpi[@]}" "${bind[@]}" -np "$np" "${app[@]}" > "$dir/cpu.out" || die "the all-CPU run failed"
want=$(checksum "$dir/cpu.out")
for ((r = 0; r < np; r++)); do
    cmd=("${mpi[@]}" "${bind[@]}")
    [ $r -gt 0 ] && cmd+=(-np "$r" "${app[@]}" :)
    cmd+=(-np 1 "${gpu[@]}" "${app[@]}")
    [ $r -lt $((np - 1)) ] && cmd+=(: -np $((np - 1 - r)) "${app[@]}")
    "${cmd[@]}" > "$dir/gpu$r.out" || die "the run with rank $r on the GPU failed"
    [ "$(checksum "$dir/gpu$r.out")" = "$want" ] ||
        die "rank $r on the GPU: $(checksum "$dir/gpu$r.out"), all-CPU: $want"
done

# The hetero input: compute seconds per variant, the data heat keeps (u
# and v), one halo row each way per iteration.
{
    echo '{"format": "topomap-hetero-input", "version": 1, "ranks": ['
    for ((r = 0; r < np; r++)); do
        n=$(rank_field "$dir/cpu.out" $r rows)
        sends=
        for p in $((r - 1)) $((r + 1)); do
            [ $p -ge 0 ] && [ $p -lt "$np" ] &&
                sends+="${sends:+, }[$p, $((cols * 8 * iters)), $iters]"
        done
        printf ' {"rank": %d, "host": "%s", "local_rank": %d, "compute": {"cpu": %s, "gpu": %s}, "memory_bytes": %d, "sends": [%s]}%s\n' \
            $r "$host" $r "$(rank_field "$dir/cpu.out" $r compute)" \
            "$(rank_field "$dir/gpu$r.out" $r compute)" \
            $((2 * (n + 2) * (cols + 2) * 8)) "$sends" "$([ $r -lt $((np - 1)) ] && echo ,)"
    done
    echo ']}'
} > "$dir/input.json"

methods=(all-cpu gpu-first ccd)
for m in "${methods[@]}"; do
    "$place" "$dir/input.json" --method "$m" --ranks-per-gpu "$rpg" \
        ${calib:+--calibration "$calib"} -o "$dir/$m.json" > "$dir/$m.place" 2>&1 ||
        die "topomap-place --method $m failed: $(tail -1 "$dir/$m.place")"
done

echo "running each placement $runs times under topomap-exec" >&2
for ((k = 1; k <= runs; k++)); do
    for m in "${methods[@]}"; do
        t0=$(now)
        "${mpi[@]}" -np "$np" --bind-to none "$texec" "$dir/$m.json" -- "${app[@]}" \
            > "$dir/$m.$k.out" || die "$m, run $k failed"
        awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }' >> "$dir/$m.mpirun"
        loop_s "$dir/$m.$k.out" >> "$dir/$m.loop"
        [ "$(checksum "$dir/$m.$k.out")" = "$want" ] ||
            die "$m, run $k: $(checksum "$dir/$m.$k.out"), all-CPU: $want"
    done
done

echo
echo "per rank, measured alone: compute seconds on a core and on the GPU (device memory)"
for ((r = 0; r < np; r++)); do
    printf '  rank %-3d %10s %10s\n' $r "$(rank_field "$dir/cpu.out" $r compute)" \
        "$(rank_field "$dir/gpu$r.out" $r compute)"
done
echo
echo "placement   ranks (proc:memory)           predicted s   heat loop s   mpirun s   (medians of $runs runs)"
for m in "${methods[@]}"; do
    kinds=$(sed -n 's/^heat: rank [0-9]*: \([a-z]*\), \([a-z]*\),.*/\1:\2/p' "$dir/$m.1.out" |
        sort | uniq -c | awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }')
    predicted=$(sed -n 's/.*"makespan_s": \([^,}]*\).*/\1/p' "$dir/$m.json")
    printf '%-11s %-29s %11.4f %13.4f %10.3f\n' "$m" "$kinds" "$predicted" \
        "$(median < "$dir/$m.loop")" "$(median < "$dir/$m.mpirun")"
done
echo "checksums: all runs $want"
