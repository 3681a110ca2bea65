/* topomap-place.c: decide, for each rank, GPU or CPU cores, which GPU and
 * which kind of memory, on one kind of node; write placement.json.  Also
 * describes a node as hwloc and a calibration see it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "ht_cli.h"

static const char help[] =
    "usage: topomap-place INPUT... [-o PLACEMENT] [options]\n"
    "       topomap-place --write-input FILE INPUT...\n"
    "       topomap-place --describe [--topology T] [--calibration FILE]\n"
    "\n"
    "Place each rank of INPUT on CPU cores or a GPU, with its data in\n"
    "device, pinned or managed memory or on a NUMA node (DRAM, HBM, CXL),\n"
    "minimising the slowest rank's time, then the sum, within the node's\n"
    "capacities.  INPUT is one topomap-hetero-input file, or one or more\n"
    "libcommprof profiles (one per variant run), each PROFILE or, when\n"
    "TOPOMAP_PROC_KIND was not set, cpu:PROFILE or gpu:PROFILE.  Every\n"
    "host of INPUT is taken to be a node like --topology.  Prints the\n"
    "GPU-first default, the all-CPU placement and the chosen one with\n"
    "their predicted times.\n"
    "\n"
    "  -o, --output FILE    write the placement (topomap-placement)\n"
    "  -t, --topology T     hwloc XML file or synthetic description\n"
    "                       (default: this host)\n"
    "  -c, --calibration FILE\n"
    "                       memprobe's file, for figures hwloc lacks\n"
    "  -m, --method M       ccd (default: constrained coordinate-wise\n"
    "                       descent), gpu-first, all-cpu, exhaustive (at\n"
    "                       most 8 ranks and 2^24 assignments)\n" HT_CLI_HELP
    "  --seed S             of the kicks (default 0)\n"
    "  --write-input FILE   only combine INPUT into FILE\n"
    "                       (topomap-hetero-input) and stop\n"
    "  --describe           print the node: cores, GPUs, NUMA nodes\n"
    "  -h, --help, --version\n"
    "man topomap-place.\n";

enum { OPT_SEED = 256, OPT_WRITE_INPUT, OPT_DESCRIBE, OPT_VERSION };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"output", required_argument, NULL, 'o'},
    {"topology", required_argument, NULL, 't'},
    {"method", required_argument, NULL, 'm'},
    {"seed", required_argument, NULL, OPT_SEED},
    {"write-input", required_argument, NULL, OPT_WRITE_INPUT},
    {"describe", no_argument, NULL, OPT_DESCRIBE},
    HT_CLI_LONGOPTS,
    {NULL, 0, NULL, 0}};

typedef enum method { M_CCD, M_GPU_FIRST, M_ALL_CPU, M_EXHAUSTIVE } method;
static const char *const method_names[] = {"ccd", "gpu-first", "all-cpu",
                                           "exhaustive"};

typedef struct args {
    const char *const *inputs;
    int ninputs;
    const char *output, *topology, *write_input;
    method method;
    int describe;
    ht_cli het;
} args;

static int parse(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    ht_cli_init(&a->het);
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
        case OPT_SEED:
            bad = cli_u64("--seed", optarg, 0, UINT64_MAX, &a->het.par.seed);
            break;
        case OPT_WRITE_INPUT:
            a->write_input = optarg;
            break;
        case OPT_DESCRIBE:
            a->describe = 1;
            break;
        default:
            bad = ht_cli_option(&a->het, c == 'c' ? HT_OPT_CALIBRATION : c,
                                optarg);
            if (bad > 0)
                return cli_usage_error("unknown option");
        }
        if (bad)
            return CLI_EXIT_USAGE;
    }
    if (a->describe) {
        if (optind < argc || a->write_input)
            return cli_usage_error("--describe takes no INPUT");
        return 0;
    }
    if (optind == argc)
        return cli_usage_error("an INPUT file is needed");
    if (a->write_input && a->output)
        return cli_usage_error("--write-input writes the input only: drop "
                               "--output");
    a->inputs = (const char *const *)argv + optind;
    a->ninputs = argc - optind;
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

static int place(const args *a, ht_input *in, ht_node *node)
{
    ht_problem *p = NULL;
    ht_placement *pl = NULL;
    tg_error err;
    int rc = ht_problem_new(in, node, &a->het.par, &p, &err);
    int *choice = rc ? NULL : malloc((size_t)in->n * sizeof *choice);
    if (!rc && !choice)
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    /* Like the ranks, the assignments -m exhaustive would enumerate (the
     * product of the choices each rank has on this node) are bounded:
     * too many is an error of the input, found before any method runs. */
    uint64_t count;
    if (!rc && a->method == M_EXHAUSTIVE &&
        (count = ht_exhaustive_count(p)) > HT_EXHAUSTIVE_BUDGET)
        rc = tg_error_set(&err, TG_EINVAL, a->inputs[0], 0,
                          "%s%llu assignments of %d ranks to this node's "
                          "choices, more than the %llu that -m exhaustive "
                          "enumerates (use -m ccd, the default)",
                          count == UINT64_MAX ? "over " : "",
                          (unsigned long long)count, in->n,
                          (unsigned long long)HT_EXHAUSTIVE_BUDGET);
    if (!rc) {
        printf("search: rotations %d, restarts %d, seed %llu\n",
               a->het.par.rotations, a->het.par.restarts,
               (unsigned long long)a->het.par.seed);
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
    return rc ? cli_fail(&err) : 0;
}

int main(int argc, char **argv)
{
    cli_name = "topomap-place";
    args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc;
    tg_error err;
    ht_input *in = NULL;
    if (!a.describe && ht_input_load(a.inputs, a.ninputs, &in, &err))
        return cli_fail(&err);
    /* -m exhaustive is a valid method; whether it can run depends on the
     * ranks INPUT holds, so too many is an error of the input (exit 1,
     * naming it), found before any method runs. */
    if (!a.describe && !a.write_input && a.method == M_EXHAUSTIVE &&
        in->n > HT_EXHAUSTIVE_MAX) {
        tg_error_set(&err, TG_EINVAL, a.inputs[0], 0,
                     "%d ranks, more than the %d that -m exhaustive "
                     "enumerates (use -m ccd, the default)",
                     in->n, HT_EXHAUSTIVE_MAX);
        ht_input_free(in);
        return cli_fail(&err);
    }
    if (a.write_input) {
        rc = ht_input_write(a.write_input, in, &err) ? cli_fail(&err) : 0;
        if (!rc)
            printf("wrote %s: %d ranks\n", a.write_input, in->n);
        ht_input_free(in);
        return rc;
    }
    ht_node *node;
    if (ht_cli_node(&a.het, a.topology, &node, &err)) {
        ht_input_free(in);
        return cli_fail(&err);
    }
    if (a.describe)
        describe(node);
    else
        rc = place(&a, in, node);
    ht_node_free(node);
    ht_input_free(in);
    return rc;
}
