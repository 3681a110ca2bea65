/* ht_cli.c: the placement options topomap-place and parmapper share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ht_cli.h"

static const struct option opts[] = {HT_CLI_LONGOPTS};

/* SIZE: bytes, or a number with K, M, G, T (or KiB .. TiB: powers of
 * 1024) or KB, MB, GB, TB (powers of 1000); at least 1 MiB, since a GPU
 * with less is a typo. */
static int parse_size(const char *opt, const char *s, uint64_t *v)
{
    static const struct {
        const char *suffix;
        double scale;
    } units[] = {{"", 1},
                 {"K", 1024.0},           {"KiB", 1024.0},
                 {"M", 1048576.0},        {"MiB", 1048576.0},
                 {"G", 1073741824.0},     {"GiB", 1073741824.0},
                 {"T", 1099511627776.0},  {"TiB", 1099511627776.0},
                 {"KB", 1e3},             {"MB", 1e6},
                 {"GB", 1e9},             {"TB", 1e12}};
    char *end;
    double x = strtod(s, &end);
    for (size_t i = 0; end != s && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            double bytes = x * units[i].scale;
            if (bytes >= 1048576.0 && bytes < 1.8e19) {
                *v = (uint64_t)bytes;
                return 0;
            }
            break;
        }
    cli_usage_error("%s '%s': expected a size of at least 1 MiB, in bytes "
                    "or with K, M, G, T (1024s) or KB, MB, GB, TB (1000s)",
                    opt, s);
    return 1;
}

void ht_cli_init(ht_cli *h)
{
    memset(h, 0, sizeof *h);
    ht_params_default(&h->par);
}

int ht_cli_option(ht_cli *h, int c, const char *v)
{
    ht_params *p = &h->par;
    int bad = 0;
    switch (c) {
    case HT_OPT_CALIBRATION:
        h->calibration = v;
        break;
    case HT_OPT_RANKS_PER_GPU:
        bad = cli_int("--ranks-per-gpu", v, 1, 1 << 20, &p->ranks_per_gpu);
        break;
    case HT_OPT_CORES_PER_RANK:
        bad = cli_int("--cores-per-rank", v, 1, 1 << 20, &p->cores_per_rank);
        break;
    case HT_OPT_GPU_SPEEDUP:
        bad = cli_double("--gpu-speedup", v, 1e-6, 1e6, &p->gpu_speedup);
        break;
    case HT_OPT_CUDA_AWARE:
        p->cuda_aware = 1;
        break;
    case HT_OPT_NET_BANDWIDTH:
        bad = cli_double("--net-bandwidth", v, 1e-3, 1e12, &p->net_bandwidth);
        break;
    case HT_OPT_NET_LATENCY:
        bad = cli_double("--net-latency", v, 0, 1e12, &p->net_latency);
        break;
    case HT_OPT_SHM_BANDWIDTH:
        bad = cli_double("--shm-bandwidth", v, 1e-3, 1e12, &p->shm_bandwidth);
        break;
    case HT_OPT_SHM_LATENCY:
        bad = cli_double("--shm-latency", v, 0, 1e12, &p->shm_latency);
        break;
    case HT_OPT_ROTATIONS:
        bad = cli_int("--rotations", v, 1, 1000, &p->rotations);
        break;
    case HT_OPT_RESTARTS:
        bad = cli_int("--restarts", v, 0, 100000, &p->restarts);
        break;
    case HT_OPT_GPU_MEMORY:
        bad = parse_size("--gpu-memory", v, &h->gpu_memory);
        break;
    default:
        return 1;
    }
    for (size_t i = 0; !h->given[0] && i < sizeof opts / sizeof opts[0]; i++)
        if (opts[i].val == c)
            snprintf(h->given, sizeof h->given, "--%s", opts[i].name);
    return bad ? -1 : 0;
}

int ht_cli_node(const ht_cli *h, const char *spec, ht_node **out,
                tg_error *err)
{
    ht_node *node;
    int rc = ht_node_load(spec, &node, err);
    if (rc)
        return rc;
    if (h->calibration) {
        ht_memcal *cal;
        rc = ht_memcal_read(h->calibration, &cal, err);
        if (!rc) {
            rc = ht_node_calibrate(node, cal, h->calibration, err);
            ht_memcal_free(cal);
        }
        if (rc) {
            ht_node_free(node);
            return rc;
        }
    }
    /* --gpu-memory fills only what hwloc and the calibration left open. */
    for (int g = 0; h->gpu_memory && g < node->ngpus; g++)
        if (!node->gpus[g].memory) {
            node->gpus[g].memory = h->gpu_memory;
            node->gpus[g].memory_src = HT_SRC_OPTION;
        }
    *out = node;
    return 0;
}
