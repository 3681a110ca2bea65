/* topomap-place.c: decide, for each rank, GPU or CPU cores, which GPU and
 * which kind of memory, on one kind of node; write placement.json.  Also
 * describes a node as hwloc and a calibration see it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "hetero.h"

static const char help[] =
    "usage: topomap-place INPUT [-o PLACEMENT] [options]\n"
    "       topomap-place --describe [--topology T] [--calibration FILE]\n"
    "\n"
    "Place each rank of INPUT (format topomap-hetero-input) on CPU cores or\n"
    "a GPU, with its data in device, pinned or managed memory or on a NUMA\n"
    "node (DRAM, HBM, CXL), minimising the slowest rank's time, then the\n"
    "sum, within the node's capacities.  Every host of INPUT is taken to be\n"
    "a node like --topology.  Prints the GPU-first default, the all-CPU\n"
    "placement and the chosen one with their predicted times.\n"
    "\n"
    "  -o, --output FILE        write the placement (topomap-placement)\n"
    "  -t, --topology T         hwloc XML file or synthetic description\n"
    "                           (default: this host)\n"
    "  -c, --calibration FILE   memprobe's file, for figures hwloc lacks\n"
    "  -m, --method M           ccd (default: constrained coordinate-wise\n"
    "                           descent), gpu-first, all-cpu, exhaustive\n"
    "                           (at most 8 ranks)\n"
    "      --ranks-per-gpu N    default 1\n"
    "      --cores-per-rank N   default 1\n"
    "      --gpu-speedup X      derive the variant a rank lacks: GPU time =\n"
    "                           CPU time / X (and the converse)\n"
    "      --cuda-aware         MPI reads and writes device buffers\n"
    "      --net-bandwidth MIBS, --net-latency NS   between nodes\n"
    "                           (default 10000 MiB/s, 2000 ns)\n"
    "      --shm-bandwidth MIBS, --shm-latency NS   within a node\n"
    "                           (default 8000 MiB/s, 500 ns)\n"
    "      --rotations N        CCD rotations (default 5)\n"
    "      --restarts N         random kicks after the descent (default 8)\n"
    "      --seed S             of the kicks (default 0)\n"
    "      --describe           print the node: cores, GPUs, NUMA nodes\n"
    "  -h, --help, --version\n"
    "man topomap-place.\n";

enum {
    OPT_RPG = 256,
    OPT_CPR,
    OPT_SPEEDUP,
    OPT_AWARE,
    OPT_NETBW,
    OPT_NETLAT,
    OPT_SHMBW,
    OPT_SHMLAT,
    OPT_ROT,
    OPT_RESTARTS,
    OPT_SEED,
    OPT_DESCRIBE,
    OPT_VERSION
};

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"output", required_argument, NULL, 'o'},
    {"topology", required_argument, NULL, 't'},
    {"calibration", required_argument, NULL, 'c'},
    {"method", required_argument, NULL, 'm'},
    {"ranks-per-gpu", required_argument, NULL, OPT_RPG},
    {"cores-per-rank", required_argument, NULL, OPT_CPR},
    {"gpu-speedup", required_argument, NULL, OPT_SPEEDUP},
    {"cuda-aware", no_argument, NULL, OPT_AWARE},
    {"net-bandwidth", required_argument, NULL, OPT_NETBW},
    {"net-latency", required_argument, NULL, OPT_NETLAT},
    {"shm-bandwidth", required_argument, NULL, OPT_SHMBW},
    {"shm-latency", required_argument, NULL, OPT_SHMLAT},
    {"rotations", required_argument, NULL, OPT_ROT},
    {"restarts", required_argument, NULL, OPT_RESTARTS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"describe", no_argument, NULL, OPT_DESCRIBE},
    {NULL, 0, NULL, 0}};

typedef enum method { M_CCD, M_GPU_FIRST, M_ALL_CPU, M_EXHAUSTIVE } method;
static const char *const method_names[] = {"ccd", "gpu-first", "all-cpu",
                                           "exhaustive"};

typedef struct args {
    const char *input, *output, *topology, *calibration;
    method method;
    int describe;
    ht_params par;
} args;

static int parse(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    ht_params_default(&a->par);
    ht_params *p = &a->par;
    int c;
    while ((c = getopt_long(argc, argv, "ho:t:c:m:", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'h':
            fputs(help, stdout);
            exit(0);
        case OPT_VERSION:
            printf("topomap-place (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            exit(0);
        case 'o':
            a->output = optarg;
            break;
        case 't':
            a->topology = optarg;
            break;
        case 'c':
            a->calibration = optarg;
            break;
        case 'm': {
            int k = 0;
            while (k < 4 && strcmp(method_names[k], optarg))
                k++;
            if (k == 4)
                return cli_usage_error("unknown method '%s' (ccd, gpu-first, "
                                       "all-cpu, exhaustive)",
                                       optarg);
            a->method = (method)k;
            break;
        }
        case OPT_RPG:
            bad = cli_int("--ranks-per-gpu", optarg, 1, 1 << 20,
                          &p->ranks_per_gpu);
            break;
        case OPT_CPR:
            bad = cli_int("--cores-per-rank", optarg, 1, 1 << 20,
                          &p->cores_per_rank);
            break;
        case OPT_SPEEDUP:
            bad =
                cli_double("--gpu-speedup", optarg, 1e-6, 1e6, &p->gpu_speedup);
            break;
        case OPT_AWARE:
            p->cuda_aware = 1;
            break;
        case OPT_NETBW:
            bad = cli_double("--net-bandwidth", optarg, 1e-3, 1e12,
                             &p->net_bandwidth);
            break;
        case OPT_NETLAT:
            bad = cli_double("--net-latency", optarg, 0, 1e12, &p->net_latency);
            break;
        case OPT_SHMBW:
            bad = cli_double("--shm-bandwidth", optarg, 1e-3, 1e12,
                             &p->shm_bandwidth);
            break;
        case OPT_SHMLAT:
            bad = cli_double("--shm-latency", optarg, 0, 1e12, &p->shm_latency);
            break;
        case OPT_ROT:
            bad = cli_int("--rotations", optarg, 1, 1000, &p->rotations);
            break;
        case OPT_RESTARTS:
            bad = cli_int("--restarts", optarg, 0, 100000, &p->restarts);
            break;
        case OPT_SEED:
            bad = cli_u64("--seed", optarg, 0, UINT64_MAX, &p->seed);
            break;
        case OPT_DESCRIBE:
            a->describe = 1;
            break;
        default:
            return cli_usage_error("unknown option");
        }
        if (bad)
            return CLI_EXIT_USAGE;
    }
    if (a->describe) {
        if (optind < argc)
            return cli_usage_error("--describe takes no INPUT");
        return 0;
    }
    if (optind + 1 != argc)
        return cli_usage_error("one INPUT file is needed");
    a->input = argv[optind];
    return 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024 * 1024);
}

static void describe(const ht_node *n)
{
    char cpus[1024];
    printf("host: %s\npackages: %d\ncores: %d\npus: %d\n",
           n->host[0] ? n->host : "-", n->npackages, n->ncores, n->npus);
    for (int i = 0; i < n->nnuma; i++) {
        const ht_numa *m = &n->numa[i];
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, m->cpuset);
        printf("numa %u: %s, %.3f GiB, package %d, cpus %s, bandwidth %g "
               "MiB/s (%s), latency %g ns (%s)\n",
               m->os_index, ht_memkind_name(m->kind), gib(m->capacity),
               m->package, cpus, m->bandwidth, ht_source_name(m->bandwidth_src),
               m->latency, ht_source_name(m->latency_src));
    }
    for (int i = 0; i < n->ngpus; i++) {
        const ht_gpu *g = &n->gpus[i];
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, g->cpuset);
        printf("gpu %d: %s %s, \"%s\", uuid %s, %.3f GiB (%s), package %d, "
               "cpus %s, numa %d\n",
               i, g->busid[0] ? g->busid : "-", g->name, g->model,
               g->uuid[0] ? g->uuid : "-", gib(g->memory),
               ht_source_name(g->memory_src), g->package, cpus,
               g->numa >= 0 ? (int)n->numa[g->numa].os_index : -1);
    }
    if (n->ncxl_devices)
        printf("cxl devices (not NUMA nodes): %d, %.3f GiB\n", n->ncxl_devices,
               gib(n->cxl_device_bytes));
}

/* Run one method into choice; 0 or a library error code. */
static int run(const ht_problem *p, method m, int *choice, ht_cost *cost,
               tg_error *err)
{
    int rc;
    switch (m) {
    case M_CCD:
        return ht_search(p, choice, cost, NULL, err);
    case M_EXHAUSTIVE:
        return ht_exhaustive(p, choice, cost, err);
    case M_GPU_FIRST:
        rc = ht_gpu_first(p, choice, err);
        break;
    default:
        rc = ht_all_cpu(p, choice, err);
    }
    return rc ? rc : ht_evaluate(p, choice, cost, err);
}

static void print_ranks(const ht_problem *p, const ht_input *in,
                        const ht_node *n, const int *choice,
                        const ht_placement *pl)
{
    char cpus[1024];
    printf("rank host local proc gpu mem numa cores compute_s comm_s\n");
    for (int r = 0; r < in->n; r++) {
        const ht_choice *ch = ht_problem_choice(p, choice[r]);
        double comp, comm;
        ht_rank_time(p, choice, r, &comp, &comm);
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, pl->entries[r].cpus);
        printf("%d %s %d %s %s %s %d %s %.6g %.6g\n", r, in->ranks[r].host,
               in->ranks[r].local_rank, ht_proc_name(ch->proc),
               ch->gpu >= 0 ? n->gpus[ch->gpu].busid : "-",
               ht_memkind_name(ch->mem),
               ch->numa >= 0 ? (int)n->numa[ch->numa].os_index : -1, cpus, comp,
               comm);
    }
}

static int place(const args *a, ht_node *node)
{
    ht_input *in = NULL;
    ht_problem *p = NULL;
    ht_placement *pl = NULL;
    tg_error err;
    int rc = ht_input_read(a->input, &in, &err);
    if (!rc)
        rc = ht_problem_new(in, node, &a->par, &p, &err);
    int *choice = rc ? NULL : malloc((size_t)in->n * sizeof *choice);
    if (!rc && !choice)
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    if (!rc) {
        printf("search: rotations %d, restarts %d, seed %llu\n",
               a->par.rotations, a->par.restarts,
               (unsigned long long)a->par.seed);
        printf("method makespan_s sum_s\n");
        for (int m = M_GPU_FIRST; m <= M_ALL_CPU; m++) {
            ht_cost c;
            tg_error e;
            if (run(p, (method)m, choice, &c, &e) == 0)
                printf("%s %.6g %.6g\n", method_names[m], c.makespan, c.sum);
            else
                printf("%s - - (%s)\n", method_names[m], e.text);
        }
        ht_cost c;
        cli_step("%s over %d ranks", method_names[a->method], in->n);
        rc = run(p, a->method, choice, &c, &err);
        cli_done();
        if (!rc)
            printf("%s %.6g %.6g chosen\n", method_names[a->method], c.makespan,
                   c.sum);
    }
    if (!rc)
        rc = ht_place(p, choice, &pl, &err);
    if (!rc) {
        print_ranks(p, in, node, choice, pl);
        if (a->output)
            rc = ht_placement_write(a->output, pl, &err);
    }
    ht_placement_free(pl);
    free(choice);
    ht_problem_free(p);
    ht_input_free(in);
    return rc ? cli_fail(&err) : 0;
}

int main(int argc, char **argv)
{
    cli_name = "topomap-place";
    args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc;
    ht_node *node;
    tg_error err;
    if (ht_node_load(a.topology, &node, &err))
        return cli_fail(&err);
    if (a.calibration) {
        ht_memcal *cal;
        rc = ht_memcal_read(a.calibration, &cal, &err);
        if (!rc) {
            rc = ht_node_calibrate(node, cal, a.calibration, &err);
            ht_memcal_free(cal);
        }
        if (rc) {
            ht_node_free(node);
            return cli_fail(&err);
        }
    }
    if (a.describe)
        describe(node);
    else
        rc = place(&a, node);
    ht_node_free(node);
    return rc;
}
