/* ht_cli.h: the options of the placement decision that topomap-place and
 * parmapper --hetero share (their getopt table entries, help and parsing)
 * and the node they describe; compiled into both commands, like
 * taskgraph/cli.c.  Not installed. */
#ifndef TOPOMAP_HT_CLI_H
#define TOPOMAP_HT_CLI_H

#include <getopt.h>

#include "hetero.h"

/* getopt_long values of the shared options (above any command's own). */
enum {
    HT_OPT_CALIBRATION = 1024,
    HT_OPT_RANKS_PER_GPU,
    HT_OPT_CORES_PER_RANK,
    HT_OPT_GPU_SPEEDUP,
    HT_OPT_CUDA_AWARE,
    HT_OPT_NET_BANDWIDTH,
    HT_OPT_NET_LATENCY,
    HT_OPT_SHM_BANDWIDTH,
    HT_OPT_SHM_LATENCY,
    HT_OPT_ROTATIONS,
    HT_OPT_RESTARTS,
    HT_OPT_GPU_MEMORY
};

/* Entries for a command's struct option table. */
#define HT_CLI_LONGOPTS                                                      \
    {"calibration", required_argument, NULL, HT_OPT_CALIBRATION},           \
    {"ranks-per-gpu", required_argument, NULL, HT_OPT_RANKS_PER_GPU},       \
    {"cores-per-rank", required_argument, NULL, HT_OPT_CORES_PER_RANK},     \
    {"gpu-speedup", required_argument, NULL, HT_OPT_GPU_SPEEDUP},           \
    {"cuda-aware", no_argument, NULL, HT_OPT_CUDA_AWARE},                   \
    {"net-bandwidth", required_argument, NULL, HT_OPT_NET_BANDWIDTH},       \
    {"net-latency", required_argument, NULL, HT_OPT_NET_LATENCY},           \
    {"shm-bandwidth", required_argument, NULL, HT_OPT_SHM_BANDWIDTH},       \
    {"shm-latency", required_argument, NULL, HT_OPT_SHM_LATENCY},           \
    {"rotations", required_argument, NULL, HT_OPT_ROTATIONS},               \
    {"restarts", required_argument, NULL, HT_OPT_RESTARTS},                 \
    {"gpu-memory", required_argument, NULL, HT_OPT_GPU_MEMORY}

/* Their help (--calibration is the command's own line: topomap-place
 * has -c). */
#define HT_CLI_HELP                                                          \
    "  --ranks-per-gpu N    at most N ranks share a GPU (default 1)\n"       \
    "  --cores-per-rank N   cores each rank is given (default 1)\n"          \
    "  --gpu-speedup X      derive the variant a rank lacks: GPU time =\n"   \
    "                       CPU time / X (and the converse)\n"               \
    "  --cuda-aware         MPI reads and writes device buffers\n"           \
    "  --gpu-memory SIZE    device memory of each GPU whose size neither\n"   \
    "                       hwloc nor the calibration gives (32GiB, 16G,\n" \
    "                       40GB, bytes); without it such a GPU is refused\n"\
    "                       when a rank's data could go there\n"             \
    "  --net-bandwidth MIBS, --net-latency NS\n"                             \
    "                       between nodes (default 10000 MiB/s, 2000 ns)\n"  \
    "  --shm-bandwidth MIBS, --shm-latency NS\n"                             \
    "                       within a node (default 8000 MiB/s, 500 ns)\n"    \
    "  --rotations N        CCD rotations (default 5)\n"                     \
    "  --restarts N         random kicks after the descent (default 8)\n"

typedef struct ht_cli {
    const char *calibration; /* --calibration, NULL: none */
    uint64_t gpu_memory;     /* --gpu-memory, 0: not given */
    ht_params par;           /* the others; seed left to the command */
    char given[32];          /* the first of these options given
                              * ("--cuda-aware"), "" when none */
} ht_cli;

/* Defaults. */
void ht_cli_init(ht_cli *h);

/* Option value c (from getopt_long) with its argument: 0 when taken, -1
 * after printing a usage error, 1 when c is not one of these. */
int ht_cli_option(ht_cli *h, int c, const char *arg);

/* The node of `spec` (an hwloc XML file or synthetic string; NULL: this
 * host), with h's calibration applied. */
int ht_cli_node(const ht_cli *h, const char *spec, ht_node **out,
                tg_error *err);

#endif
