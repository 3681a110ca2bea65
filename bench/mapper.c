/*
 * mapper.c: the mapping panel of issue 5.  For each case (a synthetic task
 * graph on a machine) it runs every GreedyMap configuration of
 * gm_configurations (seed 0), every baseline of gm_baseline_map and
 * Scotch's static mapper on the same problem, evaluates every mapping with
 * gm_evaluate (the function `greedymap eval` runs), and prints one table
 * per case: seconds of the mapper alone (wall and CPU, the process pinned
 * to one core), average and maximum hop-bytes, the largest link load with
 * least-loaded routes, and each row's average over the default (block)
 * mapping's.
 *
 * Scotch gets the problem topomap's model poses: tasks onto nodes, every
 * node holding as many tasks as it has slots, distances between nodes
 * (processors of one node are at distance 0, which no Scotch target can
 * say of two processors).  The target is a torusXD of the nodes on tori (a
 * Scotch terminal is then a node's position, dimensions given last first),
 * else a decomposition-defined ("deco") target written here: the node
 * range halved recursively (leaf switches and dragonfly groups and routers
 * are contiguous ranges, so the halves follow the hierarchy) with
 * gm_distance as the distance matrix.  The strategy is that of
 * `scotch_gmap -cb` (SCOTCH_STRATBALANCE, imbalance 0.05), run in a
 * context of one thread, deterministic with a fixed seed (as `-Cd`); only
 * SCOTCH_graphMap is timed.  If Scotch puts more tasks on a node than it
 * has slots, the node keeps its lowest task ids and every excess task, in
 * id order, moves to the nearest node with a free slot (gm_shells order);
 * the table says how many moved.
 *
 * A benchmark never passes or fails on time: the program exits 1 only when
 * something cannot be done (a mapper or a file fails, a mapping is invalid,
 * a configuration gives two different mappings in two runs), 2 on a bad
 * command line.  bench/README.md explains the cases and the columns.
 */
#include "config.h"

/* sched_setaffinity and CPU_SET (GNU), getloadavg, mkdtemp. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_SCOTCH_LIB
/* scotch.h uses FILE and the int types without including their headers. */
#include <scotch.h>
#endif

#include "bound.h"
#include "greedymap.h"
#include "taskgraph.h"

#define BYTES 1000          /* weight of every generated edge */
#define REPEAT_BELOW 1.0    /* rows faster than this (s) run --repeat times */
#define QBOX_ROWS 64        /* the Qbox-like grid: rows x columns */
#define QBOX_COLS 128
#define PARTITION_LIMIT 500000000L /* bound_partition's search nodes */
#define FT_LEAVES 32        /* the fat-tree (default): leaf switches, */
#define FT_PER_LEAF 32      /* nodes under each leaf, */
#define FT_SPINES 32        /* spine switches, each above every leaf */
#ifndef BENCH_DATA          /* the recorded graphs (bench/data) */
#define BENCH_DATA "bench/data"
#endif

typedef enum graph_kind {
    G_LATTICE,   /* MILC-like 4-D periodic lattice */
    G_STENCIL27, /* 3-D 27-point stencil */
    G_QBOX,      /* Qbox-like grid, Sum of its layers */
    G_QBOX_W,    /* the same, Weighted-sum */
    G_RGG,       /* random geometric graph */
    G_GRID,      /* a face stencil of the case's dims (issue 12) */
    G_FILE       /* a graph recorded by libcommprof, BENCH_DATA/file */
} graph_kind;

typedef struct mcase {
    const char *name;
    graph_kind kind;
    const char *network; /* NULL: the generated fat-tree */
    int slots;
    int ndims, dims[4];  /* G_GRID: the grid, not periodic */
    const char *file;    /* G_FILE: the graph, in BENCH_DATA */
    int leaves, per_leaf; /* network NULL: the fat-tree (0: FT_ defaults) */
} mcase;

/* Every case has exactly as many slots as tasks. */
static const mcase cases[] = {
    {"milc", G_LATTICE, "torus:16x16x16", 16, 0, {0}, NULL, 0, 0},
    {"stencil-fattree", G_STENCIL27, NULL, 32, 0, {0}, NULL, 0, 0},
    {"qbox-sum", G_QBOX, "torus:8x8x8", 16, 0, {0}, NULL, 0, 0},
    {"qbox-wsum", G_QBOX_W, "torus:8x8x8", 16, 0, {0}, NULL, 0, 0},
    {"rgg-dragonfly", G_RGG, "dragonfly:16,8,4", 64, 0, {0}, NULL, 0, 0},
    {"rgg-torus", G_RGG, "torus:8x8x8", 64, 0, {0}, NULL, 0, 0},
    /* Grids at scale (issue 12): the 64^3 case, unequal
     * dimensions, an aspect of 1:32, a 2-D grid on the fat-tree. */
    {"grid64-torus", G_GRID, "torus:16x16x16", 64, 3, {64, 64, 64},
     NULL, 0, 0},
    {"grid96x64x40", G_GRID, "torus:16x16x15", 64, 3, {96, 64, 40},
     NULL, 0, 0},
    {"aspect1x32", G_GRID, "torus:16x16x8", 64, 2, {64, 2048},
     NULL, 0, 0},
    {"grid2d-fattree", G_GRID, NULL, 32, 2, {256, 128},
     NULL, 0, 0},
    /* Applications' graphs recorded by libcommprof (issue 12): LAMMPS
     * peptide and HPCC at 32 ranks (bench/data/README.md), on a torus of
     * 8 nodes and a fat-tree of 4 leaves x 2 nodes, 4 slots each. */
    {"lammps32-torus", G_FILE, "torus:2x2x2", 4, 0, {0},
     "lammps-peptide-32.tg.json", 0, 0},
    {"lammps32-fattree", G_FILE, NULL, 4, 0, {0},
     "lammps-peptide-32.tg.json", 4, 2},
    {"hpcc32-torus", G_FILE, "torus:2x2x2", 4, 0, {0}, "hpcc-32.tg.json", 0,
     0},
    {"hpcc32-fattree", G_FILE, NULL, 4, 0, {0}, "hpcc-32.tg.json", 4, 2},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

typedef struct options {
    int want[NCASES];   /* cases to run (all when none named) */
    int quick;          /* skip the delta=all configurations */
    int no_portfolio;   /* the default, the baselines and Scotch only */
    int repeat;
    int cpu;            /* -1: the first CPU allowed */
    const char *keep;   /* NULL: a temporary folder, removed at the end */
    const char *python; /* --references: a Python with kahip, chszlablib */
} options;

/* One mapper's result. */
typedef struct row {
    char label[96];
    int ok;             /* 0: not applicable (hilbert off tori) */
    double wall, cpu;   /* best of the runs */
    gm_metrics met;
    int moved;          /* Scotch: tasks the repair moved, */
    double raw_avg;     /* and its avg hop-bytes before the repair */
} row;

/* --------------------------------------------------------------- helpers */

static int fail(const tg_error *err)
{
    char buf[1100];
    fprintf(stderr, "mapper: %s\n", tg_error_format(err, buf, sizeof buf));
    return 1;
}

typedef struct stamp {
    double wall, cpu;
} stamp;

static stamp stamp_now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return (stamp){(double)w.tv_sec + 1e-9 * (double)w.tv_nsec,
                   (double)c.tv_sec + 1e-9 * (double)c.tv_nsec};
}

static char *path_in(const char *dir, const char *name, const char *ext)
{
    size_t len = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s%s", dir, name, ext);
    return p;
}

/* Open path.tmp for writing; finish_file renames it into place. */
static FILE *start_file(const char *path, char *tmp, size_t size,
                        tg_error *err)
{
    snprintf(tmp, size, "%s.tmp", path);
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        tg_error_set(err, TG_EIO, tmp, 0, "cannot create: %s",
                     strerror(errno));
    return fp;
}

static int finish_file(FILE *fp, const char *tmp, const char *path,
                       tg_error *err)
{
    int bad = ferror(fp);
    if (fclose(fp) || bad || rename(tmp, path)) {
        remove(tmp);
        return tg_error_set(err, TG_EIO, path, 0, "cannot write: %s",
                            strerror(errno));
    }
    return 0;
}

/* Run on one CPU only, so that every mapper (Scotch's threads included)
 * gets one core.  Returns the CPU or -1. */
static int pin_cpu(int want)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set))
        return -1;
    int cpu = want;
    if (cpu < 0)
        for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
            ;
    if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
        return -1;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) ? -1 : cpu;
}

static void print_load(const char *when)
{
    double l[3];
    if (getloadavg(l, 3) == 3)
        printf("load average %s: %.2f %.2f %.2f (%ld CPUs online)\n", when,
               l[0], l[1], l[2], sysconf(_SC_NPROCESSORS_ONLN));
}

/* ------------------------------------------------------ graphs, machines */

/* The case's task graph and a one-line description of it. */
static int make_graph(const mcase *c, tg_graph **out, char *what, size_t size,
                      tg_error *err)
{
    tg_stencil_options st = {.bytes = BYTES};
    tg_qbox_options qb = {.rows = QBOX_ROWS, .cols = QBOX_COLS,
                          .p2p_bytes = BYTES, .alltoall_bytes = BYTES};
    tg_rgg_options rg = {.n = 32768, .radius = 0.01, .seed = 1,
                         .bytes = BYTES};
    switch (c->kind) {
    case G_LATTICE:
        st.ndims = 4;
        st.dims[0] = st.dims[1] = st.dims[2] = st.dims[3] = 16;
        st.periodic = 1;
        snprintf(what, size, "MILC-like 4-D lattice 16x16x16x16, periodic, "
                             "8 neighbours");
        return tg_gen_stencil(&st, out, err);
    case G_STENCIL27:
        st.ndims = 3;
        st.dims[0] = st.dims[1] = st.dims[2] = 32;
        st.diagonals = 1;
        snprintf(what, size, "3-D 27-point stencil 32x32x32, not periodic");
        return tg_gen_stencil(&st, out, err);
    case G_QBOX:
    case G_QBOX_W:
        break;
    case G_FILE: {
        char *path = path_in(BENCH_DATA, c->file, "");
        if (!path)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        snprintf(what, size, "recorded by libcommprof: %s", path);
        int rc = tg_read(path, NULL, out, err);
        free(path);
        return rc;
    }
    case G_RGG:
        snprintf(what, size, "random geometric graph, %d points, radius "
                 "%g, seed %" PRIu64, rg.n, rg.radius, rg.seed);
        return tg_gen_rgg(&rg, out, err);
    case G_GRID: {
        st.ndims = c->ndims;
        int k = snprintf(what, size, "%d-D face stencil ", c->ndims);
        for (int i = 0; i < c->ndims; i++) {
            st.dims[i] = c->dims[i];
            k += snprintf(what + k, size > (size_t)k ? size - (size_t)k : 0,
                          "%s%d", i ? "x" : "", c->dims[i]);
        }
        snprintf(what + k, size > (size_t)k ? size - (size_t)k : 0,
                 ", not periodic (its grid in the graph)");
        return tg_gen_stencil(&st, out, err);
    }
    }
    tg_graph *q = NULL;
    int rc = tg_gen_qbox(&qb, &q, err);
    if (rc)
        return rc;
    /* Weighted-sum with the factors of the example in papers/001, 4.1.1:
     * p2p 60% of the communication time, Alltoall 40%. */
    double f[2] = {0.6, 0.4};
    for (int i = 0; i < q->nlayers && i < 2; i++)
        f[i] = strcmp(q->layers[i].name, "p2p") ? 0.4 : 0.6;
    if (c->kind == G_QBOX)
        snprintf(what, size, "Qbox-like %dx%d grid, Sum of p2p (rows) and "
                 "alltoall (columns)", qb.rows, qb.cols);
    else
        snprintf(what, size, "Qbox-like %dx%d grid, Weighted-sum 0.6 p2p "
                 "(rows) + 0.4 alltoall (columns)", qb.rows, qb.cols);
    rc = q->nlayers == 2
             ? tg_combine_layers(q, c->kind == G_QBOX ? NULL : f, out, err)
             : tg_error_set(err, TG_EINVAL, NULL, 0,
                            "qbox: expected 2 layers, got %d", q->nlayers);
    tg_graph_free(q);
    return rc;
}

/* The case's fat-tree: leaves, nodes per leaf, spines (as many as the
 * leaves when the case sets its own shape). */
static void fattree_of(const mcase *c, int *leaves, int *per_leaf,
                       int *spines)
{
    *leaves = c->leaves ? c->leaves : FT_LEAVES;
    *per_leaf = c->per_leaf ? c->per_leaf : FT_PER_LEAF;
    *spines = c->leaves ? c->leaves : FT_SPINES;
}

/* A two-level fat-tree in Slurm's topology.conf syntax: the case's leaf
 * switches of per_leaf nodes each (node0 .. node{N-1}, the names
 * gm_machine_uniform gives), its spines above every leaf. */
static int write_fattree(const mcase *c, const char *path, tg_error *err)
{
    int nleaves, per_leaf, nspines;
    fattree_of(c, &nleaves, &per_leaf, &nspines);
    char tmp[4200];
    FILE *fp = start_file(path, tmp, sizeof tmp, err);
    if (!fp)
        return TG_EIO;
    fprintf(fp, "# 2-level fat-tree: %d leaves x %d nodes, %d spines\n",
            nleaves, per_leaf, nspines);
    for (int l = 0; l < nleaves; l++)
        fprintf(fp, "SwitchName=leaf%d Nodes=node[%d-%d]\n", l,
                l * per_leaf, (l + 1) * per_leaf - 1);
    for (int s = 0; s < nspines; s++)
        fprintf(fp, "SwitchName=spine%d Switches=leaf[0-%d]\n", s,
                nleaves - 1);
    return finish_file(fp, tmp, path, err);
}

/* The case's machine: every position of the network, c->slots each.
 * *spec receives the network spec (malloc'd). */
static int make_machine(const mcase *c, const char *dir, char **spec,
                        gm_machine **out, tg_error *err)
{
    if (c->network) {
        *spec = strdup(c->network);
    } else {
        char *conf = path_in(dir, c->name, ".fattree.conf");
        int rc = conf ? write_fattree(c, conf, err) : TG_ENOMEM;
        *spec = NULL;
        if (!rc) {
            size_t len = strlen(conf) + 9;
            if ((*spec = malloc(len)))
                snprintf(*spec, len, "fattree:%s", conf);
        }
        free(conf);
        if (rc)
            return rc;
    }
    if (!*spec)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    gm_network *net = NULL;
    int rc = gm_network_parse(*spec, &net, err);
    if (rc)
        return rc;
    int nodes = gm_network_positions(net);
    if ((rc = gm_machine_uniform(nodes, c->slots, out, err))) {
        gm_network_free(net);
        return rc;
    }
    if ((rc = gm_machine_set_network(*out, net, NULL, err))) {
        gm_machine_free(*out);
        *out = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------- mappers */

/* A GreedyMap configuration, or a baseline when cfg is NULL, or the
 * default of greedymap map (best: gm_map_best with cfg). */
typedef struct job {
    const gm_config *cfg;
    gm_baseline base;
    int best;
} job;

static int run_job(const job *j, const tg_graph *g, const gm_machine *m,
                   gm_place *map, tg_error *err)
{
    if (j->best)
        return gm_map_best(g, m, j->cfg, map, NULL, NULL, err);
    if (j->cfg)
        return gm_greedymap(g, m, j->cfg, map, err);
    return gm_baseline_map(g, m, j->base, 0, map, err);
}

/* Time job j: once, and `repeat` times in all when the first run took less
 * than REPEAT_BELOW seconds (best times kept); every run must give the same
 * mapping.  Then evaluate it into r. */
static int time_job(const job *j, const tg_graph *g, const gm_machine *m,
                    int repeat, gm_place *map, gm_place *again, row *r,
                    tg_error *err)
{
    stamp t0 = stamp_now();
    int rc = run_job(j, g, m, map, err);
    stamp t1 = stamp_now();
    if (rc)
        return rc;
    r->wall = t1.wall - t0.wall;
    r->cpu = t1.cpu - t0.cpu;
    for (int k = 1; k < repeat && r->wall < REPEAT_BELOW; k++) {
        t0 = stamp_now();
        rc = run_job(j, g, m, again, err);
        t1 = stamp_now();
        if (rc)
            return rc;
        if (memcmp(map, again, (size_t)g->n * sizeof *map))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "%s: two runs gave two mappings", r->label);
        if (t1.wall - t0.wall < r->wall)
            r->wall = t1.wall - t0.wall;
        if (t1.cpu - t0.cpu < r->cpu)
            r->cpu = t1.cpu - t0.cpu;
    }
    r->ok = 1;
    return gm_evaluate(g, m, map, 0, NULL, &r->met, err);
}

/* ------------------------------------------------------------------ Scotch */

#ifdef HAVE_SCOTCH_LIB

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Scotch's integers are 32 bits: edge weights are divided by their gcd,
 * which changes nothing, and, if their total times the network's diameter
 * could still overflow, scaled down further (rounded, at least 1).
 * *scale receives the overall divisor. */
static int scotch_weights(const tg_graph *g, const gm_machine *m,
                          SCOTCH_Num *w, double *scale, tg_error *err)
{
    int64_t nadj = g->xadj[g->n];
    uint64_t d = 0;
    for (int64_t i = 0; i < nadj; i++)
        d = gcd64(g->adjwgt[i], d);
    double total = 0;
    for (int64_t i = 0; i < nadj; i++)
        total += (double)(g->adjwgt[i] / d);
    double more = total * gm_max_distance(m) / (double)(1u << 30);
    more = more > 1 ? more : 1;
    for (int64_t i = 0; i < nadj; i++) {
        double v = (double)(g->adjwgt[i] / d) / more + (more > 1 ? 0.5 : 0);
        if (v > (double)INT32_MAX)
            return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                "edge weight too large for Scotch");
        w[i] = v < 1 ? 1 : (SCOTCH_Num)v;
    }
    *scale = (double)d * more;
    return 0;
}

/* Domain numbers of a deco target: the node range [lo, hi) is domain dom,
 * its first half (the larger) 2 dom, its second 2 dom + 1. */
static void deco_number(int lo, int hi, long dom, long *num, long *max)
{
    if (hi - lo == 1) {
        num[lo] = dom;
        if (dom > *max)
            *max = dom;
        return;
    }
    int mid = lo + (hi - lo + 1) / 2;
    deco_number(lo, mid, 2 * dom, num, max);
    deco_number(mid, hi, 2 * dom + 1, num, max);
}

/* Write a "deco 0" target: node i is the terminal labelled i, of weight
 * its slots, and the distance matrix is gm_distance. */
static int write_deco(const char *path, const gm_machine *m, tg_error *err)
{
    int n = gm_machine_nodes(m);
    long *num = malloc((size_t)n * sizeof *num), max = 0;
    if (!num)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    deco_number(0, n, 1, num, &max);
    char tmp[4200];
    FILE *fp = start_file(path, tmp, sizeof tmp, err);
    if (!fp) {
        free(num);
        return TG_EIO;
    }
    fprintf(fp, "deco\n0\n%d %ld\n", n, max);
    for (int i = 0; i < n; i++)
        fprintf(fp, "%d %d %ld\n", i, gm_machine_slots(m, i), num[i]);
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            fprintf(fp, "%d%c", gm_distance(m, i, j), j + 1 < i ? ' ' : '\n');
    free(num);
    return finish_file(fp, tmp, path, err);
}

/* The target: nodes of a torus or mesh as Scotch's torusXD / meshXD
 * (dimensions last first, so that a terminal number is the position),
 * anything else as a deco target written to tgt.  The target is saved to
 * tgt in both cases, for scotch_gmap.  *what describes it. */
static int scotch_target(const gm_machine *m, const char *tgt,
                         SCOTCH_Arch *arch, char *what, size_t size,
                         tg_error *err)
{
    int sizes[GM_MAX_DIMS], wrap[GM_MAX_DIMS];
    int nd = gm_network_shape(gm_machine_network(m), sizes, wrap);
    int wraps = 0;
    for (int i = 0; i < nd; i++)
        wraps += wrap[i];
    if (nd > 0 && (wraps == 0 || wraps == nd)) {
        SCOTCH_Num dims[GM_MAX_DIMS];
        for (int i = 0; i < nd; i++)
            dims[i] = sizes[nd - 1 - i];
        int bad = wraps ? SCOTCH_archTorusX(arch, nd, dims)
                        : SCOTCH_archMeshX(arch, nd, dims);
        if (bad)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "Scotch refused the %s target",
                                wraps ? "torusXD" : "meshXD");
        char tmp[4200];
        FILE *fp = start_file(tgt, tmp, sizeof tmp, err);
        if (!fp)
            return TG_EIO;
        SCOTCH_archSave(arch, fp);
        fputc('\n', fp);
        int rc = finish_file(fp, tmp, tgt, err);
        if (rc)
            return rc;
        snprintf(what, size, "%s of the nodes", wraps ? "torusXD" : "meshXD");
        return 0;
    }
    int rc = write_deco(tgt, m, err);
    if (rc)
        return rc;
    FILE *fp = fopen(tgt, "r");
    if (!fp)
        return tg_error_set(err, TG_EIO, tgt, 0, "cannot open: %s",
                            strerror(errno));
    int bad = SCOTCH_archLoad(arch, fp);
    fclose(fp);
    if (bad)
        return tg_error_set(err, TG_EPARSE, tgt, 0,
                            "Scotch cannot load this target");
    snprintf(what, size, "deco of the nodes, distances of the model");
    return 0;
}

/* Overfilled nodes keep their lowest task ids; each excess task, in id
 * order, moves to the nearest node with a free slot.  Then every node's
 * slots are filled in task order.  Returns the tasks moved (>= 0) or a
 * negative code. */
static int repair(const gm_machine *m, int n, int *node, gm_place *map,
                  tg_error *err)
{
    int nn = gm_machine_nodes(m), moved = 0;
    int *count = calloc((size_t)nn, sizeof *count);
    int *used = calloc((size_t)nn, sizeof *used);
    gm_shells *sh = NULL;
    int rc = count && used ? gm_shells_new(m, &sh, err)
                           : tg_error_set(err, TG_ENOMEM, NULL, 0,
                                          "out of memory");
    for (int t = 0; !rc && t < n; t++)
        count[node[t]]++;
    for (int k = 0; !rc && k < nn; k++)
        used[k] = count[k] < gm_machine_slots(m, k) ? count[k]
                                                    : gm_machine_slots(m, k);
    /* count now counts each node's tasks seen so far. */
    for (int k = 0; !rc && k < nn; k++)
        count[k] = 0;
    for (int t = 0; !rc && t < n; t++) {
        if (++count[node[t]] <= gm_machine_slots(m, node[t]))
            continue;
        gm_shells_start(sh, node[t], 1);
        int k;
        while ((k = gm_shells_next(sh, NULL)) >= 0 &&
               used[k] >= gm_machine_slots(m, k))
            ;
        if (k < 0)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "more tasks than slots");
        else {
            node[t] = k;
            used[k]++;
            moved++;
        }
    }
    for (int k = 0; !rc && k < nn; k++)
        count[k] = 0;
    for (int t = 0; !rc && t < n; t++)
        map[t] = (gm_place){node[t], count[node[t]]++};
    gm_shells_free(sh);
    free(count);
    free(used);
    return rc ? rc : moved;
}

/* Scotch's mapping of g onto m's nodes into map (see the top of the file);
 * the target goes to tgt, and node[] keeps the node of every task. */
static int scotch_map(const tg_graph *g, const gm_machine *m, const char *tgt,
                      int *node, gm_place *map, row *r, char *what,
                      size_t size, tg_error *err)
{
    int n = g->n, nn = gm_machine_nodes(m);
    int64_t nadj = g->xadj[n];
    for (int k = 0; k < nn; k++)
        if (gm_machine_position(m, k) != k)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "Scotch: node %d is not at position %d", k, k);
    if (nadj > INT32_MAX)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "too many edges for Scotch's 32-bit integers");
    SCOTCH_Num *vert = malloc(((size_t)n + 1) * sizeof *vert);
    SCOTCH_Num *edge = malloc(((size_t)nadj + 1) * sizeof *edge);
    SCOTCH_Num *wgt = malloc(((size_t)nadj + 1) * sizeof *wgt);
    SCOTCH_Num *part = malloc(((size_t)n + 1) * sizeof *part);
    if (!vert || !edge || !wgt || !part) {
        free(vert), free(edge), free(wgt), free(part);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int t = 0; t <= n; t++)
        vert[t] = (SCOTCH_Num)g->xadj[t];
    for (int64_t i = 0; i < nadj; i++)
        edge[i] = g->adjncy[i];
    double scale = 1;
    int rc = scotch_weights(g, m, wgt, &scale, err);
    SCOTCH_Graph sg;
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    SCOTCH_graphInit(&sg);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
    char target[128] = "";
    if (!rc && SCOTCH_graphBuild(&sg, 0, n, vert, NULL, NULL, NULL,
                                 (SCOTCH_Num)nadj, edge, wgt))
        rc = tg_error_set(err, TG_EINVAL, NULL, 0, "SCOTCH_graphBuild failed");
    if (!rc)
        rc = scotch_target(m, tgt, &arch, target, sizeof target, err);
    if (!rc && SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATBALANCE,
                                         SCOTCH_archSize(&arch), 0.05))
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "SCOTCH_stratGraphMapBuild failed");
    /* One thread, deterministic, fixed seed: the same mapping every run. */
    SCOTCH_Context ctx;
    SCOTCH_Graph cg;
    SCOTCH_contextInit(&ctx);
    SCOTCH_graphInit(&cg);
    if (!rc &&
        (SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ||
         SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED,
                                    1) ||
         SCOTCH_contextRandomClone(&ctx) ||
         SCOTCH_contextThreadSpawn(&ctx, 1, NULL) ||
         SCOTCH_contextBindGraph(&ctx, &sg, &cg)))
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "cannot set up a Scotch context");
    if (!rc) {
        stamp t0 = stamp_now();
        int bad = SCOTCH_graphMap(&cg, &arch, &strat, part);
        stamp t1 = stamp_now();
        r->wall = t1.wall - t0.wall;
        r->cpu = t1.cpu - t0.cpu;
        if (bad)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "SCOTCH_graphMap failed");
    }
    for (int t = 0; !rc && t < n; t++) {
        if (part[t] < 0 || part[t] >= nn)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "Scotch mapped task %d to terminal %d", t,
                              (int)part[t]);
        else
            node[t] = (int)part[t];
    }
    SCOTCH_graphExit(&cg); /* before its context */
    SCOTCH_contextExit(&ctx);
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_graphExit(&sg);
    free(vert), free(edge), free(wgt), free(part);
    /* Scotch's own average hop-bytes, before any repair. */
    double hb = 0;
    for (int t = 0; !rc && t < n; t++)
        for (int64_t i = g->xadj[t]; i < g->xadj[t + 1]; i++)
            hb += (double)g->adjwgt[i] *
                  gm_distance(m, node[t], node[g->adjncy[i]]);
    r->raw_avg = n ? hb / n : 0;
    if (!rc) {
        rc = repair(m, n, node, map, err);
        r->moved = rc > 0 ? rc : 0;
        rc = rc < 0 ? rc : 0;
    }
    if (rc)
        return rc;
    if (scale != 1)
        snprintf(what, size, "%s; edge weights / %.6g", target, scale);
    else
        snprintf(what, size, "%s", target);
    r->ok = 1;
    return gm_evaluate(g, m, map, 0, NULL, &r->met, err);
}

/* Scotch's .map, by node ("task node" lines, nodes numbered as topomap
 * numbers them), as `greedymap eval --scotch-by-node` reads it. */
static int write_scotch_map(const char *path, int n, const int *node,
                            tg_error *err)
{
    char tmp[4200];
    FILE *fp = start_file(path, tmp, sizeof tmp, err);
    if (!fp)
        return TG_EIO;
    fprintf(fp, "%d\n", n);
    for (int t = 0; t < n; t++)
        fprintf(fp, "%d %d\n", t, node[t]);
    return finish_file(fp, tmp, path, err);
}

#endif /* HAVE_SCOTCH_LIB */

/* ------------------------------------------------------------------ output */

static void print_row(const row *r, double base_avg)
{
    printf("  %-76s", r->label);
    if (!r->ok) {
        printf(" %9s %9s %14s %14s %14s %8s\n", "-", "-", "n/a", "-", "-",
               "-");
        return;
    }
    printf(" %9.4f %9.4f %14.2f %14" PRIu64 " %14" PRIu64 " %8.3f\n", r->wall,
           r->cpu, r->met.hop_bytes_avg, r->met.hop_bytes_max,
           r->met.load_max_heuristic,
           base_avg > 0 ? r->met.hop_bytes_avg / base_avg : 0.0);
}

static void print_header(void)
{
    printf("  %-76s %9s %9s %14s %14s %14s %8s\n", "mapper", "wall s",
           "cpu s", "avg hop-bytes", "max hop-bytes", "max link load",
           "avg/def");
}

/* The rows as tab-separated values (exact integers), for scripts. */
static int write_tsv(const char *path, const row *rows, int nrows,
                     tg_error *err)
{
    char tmp[4200];
    FILE *fp = start_file(path, tmp, sizeof tmp, err);
    if (!fp)
        return TG_EIO;
    fprintf(fp, "#mapper\twall_s\tcpu_s\thop_bytes_total\thop_bytes_avg\t"
                "hop_bytes_max\tload_max_heuristic\tload_max_fixed\n");
    for (int i = 0; i < nrows; i++)
        if (rows[i].ok)
            fprintf(fp, "%s\t%.6f\t%.6f\t%" PRIu64 "\t%.17g\t%" PRIu64
                        "\t%" PRIu64 "\t%" PRIu64 "\n",
                    rows[i].label, rows[i].wall, rows[i].cpu,
                    rows[i].met.hop_bytes_total, rows[i].met.hop_bytes_avg,
                    rows[i].met.hop_bytes_max,
                    rows[i].met.load_max_heuristic,
                    rows[i].met.load_max_fixed);
    return finish_file(fp, tmp, path, err);
}

/* What the issue asks of each case, measured. */
static void print_summary(const row *rows, const gm_config *cfg, int ncfg,
                          int block, const row *scotch)
{
    int best = 0;
    for (int i = 1; i < ncfg; i++)
        if (rows[i].ok &&
            rows[i].met.hop_bytes_avg < rows[best].met.hop_bytes_avg)
            best = i;
    double b = rows[best].met.hop_bytes_avg;
    double d = rows[block].met.hop_bytes_avg;
    printf("  best GreedyMap (lowest avg hop-bytes, first of ties): %s\n",
           rows[best].label);
    printf("    avg %.2f = %.3f x default (%s)", b, d > 0 ? b / d : 0.0,
           b < d ? "lower" : b == d ? "tie" : "HIGHER");
    if (scotch && scotch->ok) {
        double s = scotch->met.hop_bytes_avg;
        printf(", %.3f x Scotch (%s)", s > 0 ? b / s : 0.0,
               b < s ? "lower" : b == s ? "tie" : "HIGHER");
    }
    printf("\n");
    for (int i = 0; i < ncfg; i++)
        if (rows[i].ok && cfg[i].order == GM_ORDER_OO && cfg[i].pack &&
            cfg[i].cost == GM_COST_HOPBYTES && cfg[i].wrap)
            printf("  OO, packNodeFirst: %s %.4f s wall, %.4f s cpu, avg "
                   "%.2f\n", rows[i].label, rows[i].wall, rows[i].cpu,
                   rows[i].met.hop_bytes_avg);
}

/* A lower bound on the case's average hop-bytes (bench/bound.h), written
 * with how it was found into `how`; 0 when none is known.  Hops on the
 * generated fat-tree: 2 between two nodes under one leaf, 4 across leaves;
 * a hop-bytes total counts every edge from both ends. */
static double case_bound(const mcase *c, const tg_graph *g,
                         const gm_machine *m, char *how, size_t size)
{
    tg_error err;
    int sizes[GM_MAX_DIMS], wrap[GM_MAX_DIMS];
    /* every bound below assumes every node full */
    if ((int64_t)gm_machine_nodes(m) * c->slots != g->n)
        return 0;
    int nd = gm_network_shape(gm_machine_network(m), sizes, wrap);
    int even = nd > 0, cube = nd > 0;
    for (int d = 0; d < nd; d++) {
        even &= sizes[d] % 2 == 0;
        cube &= sizes[d] == 2;
    }
    if (c->kind == G_STENCIL27 && !c->network) {
        /* nodes alone: a node of `slots` tasks keeps at most M edges,
         * every edge weighing the same */
        long most = bound_king_edges(c->slots);
        double cut = (double)g->nedges - (double)g->n / c->slots * most;
        for (int64_t e = 0; e < g->xadj[g->n]; e++)
            if (g->adjwgt[e] != g->adjwgt[0])
                return 0;
        snprintf(how, size, "nodes alone: %d points of the stencil have at "
                 "most %ld edges among them (all plane partitions of %d); "
                 "leaves not counted", c->slots, most, c->slots);
        return most < 0 || cut < 0 || !g->nedges
                   ? 0
                   : 2.0 * (double)g->adjwgt[0] * 2 * cut / g->n;
    }
    if ((c->kind == G_QBOX || c->kind == G_QBOX_W) && even) {
        /* the columns' Alltoall cliques alone, on a bipartite torus */
        uint64_t w = tg_graph_weight(g, 0, QBOX_COLS); /* rows 0 and 1 */
        long hops = bound_clique_hops(QBOX_ROWS, c->slots);
        snprintf(how, size, "the column cliques alone: %d tasks at most %d "
                 "to a node are at least %ld hops apart in all, the torus "
                 "being bipartite", QBOX_ROWS, c->slots, hops);
        return 2.0 * (double)w * hops * QBOX_COLS / g->n;
    }
    if (c->kind != G_FILE || g->n > BOUND_PARTITION_MAX)
        return 0;
    uint64_t node_cut, leaf_cut;
    int exact_node, exact_leaf;
    int per_leaf, leaves, spines;
    fattree_of(c, &leaves, &per_leaf, &spines);
    if (!c->network) {
        /* each level's least cut, found by itself */
        if (bound_partition(g, c->slots, PARTITION_LIMIT, &node_cut,
                            &exact_node, &err) ||
            bound_partition(g, c->slots * per_leaf, PARTITION_LIMIT,
                            &leaf_cut, &exact_leaf, &err)) {
            fprintf(stderr, "mapper: %s: no lower bound: %s\n", c->name,
                    err.text);
            return 0;
        }
        snprintf(how, size, "2 hops x the least cut into nodes of %d (%s) + "
                 "2 x the least into leaves of %d (%s)", c->slots,
                 exact_node ? "exact" : "search stopped",
                 c->slots * per_leaf, exact_leaf ? "exact" : "search stopped");
        return 2.0 * (2.0 * (double)node_cut + 2.0 * (double)leaf_cut) / g->n;
    }
    if (cube && g->n % 2 == 0) {
        /* a hypercube's hops are the dimensions crossed; each dimension
         * halves the tasks */
        if (bound_partition(g, g->n / 2, PARTITION_LIMIT, &node_cut,
                            &exact_node, &err)) {
            fprintf(stderr, "mapper: %s: no lower bound: %s\n", c->name,
                    err.text);
            return 0;
        }
        snprintf(how, size, "%d dimensions x the least bisection (%s)", nd,
                 exact_node ? "exact" : "search stopped");
        return 2.0 * nd * (double)node_cut / g->n;
    }
    return 0;
}

static void print_bound(const mcase *c, const tg_graph *g,
                        const gm_machine *m, const row *rows, int ntopomap,
                        const row *scotch)
{
    char how[512] = "";
    stamp t0 = stamp_now();
    double bound = case_bound(c, g, m, how, sizeof how);
    if (bound <= 0)
        return;
    stamp t1 = stamp_now();
    fprintf(stderr, "mapper: %s: lower bound %.3f s\n", c->name,
            t1.wall - t0.wall);
    double best = 0;
    for (int i = 0; i < ntopomap; i++)
        if (rows[i].ok && (best == 0 || rows[i].met.hop_bytes_avg < best))
            best = rows[i].met.hop_bytes_avg;
    printf("  lower bound on avg hop-bytes: %.2f, found in %.1f s of CPU\n"
           "    (%s)\n", bound, t1.cpu - t0.cpu, how);
    if (best > 0)
        printf("    best of topomap %.4f x the bound", best / bound);
    if (scotch->ok) {
        double s = scotch->met.hop_bytes_avg;
        printf(", Scotch %.4f x; 0.9 x Scotch = %.2f, %s", s / bound,
               0.9 * s, 0.9 * s < bound ? "below the bound: no mapping "
                                          "reaches it"
                                        : "not below the bound");
    }
    printf("\n");
}

/* ------------------------------------------------------------------- cases */

typedef struct bench {
    options opt;
    char *dir;
    FILE *index;        /* DIR/cases.tsv (with --keep) */
} bench;

/* ------------------------------------------- KaHIP and SharedMap rows */

/* The published process mappers (issue 12) take a machine as a hierarchy
 * with a distance per level, KaHIP's strings: the generated fat-tree is
 * slots:nodes per leaf:leaves, its distances those of topomap's model (0
 * inside a node, 2 under one leaf, 4 across leaves) times 10, with 1 for
 * two processors of a node, since the tools take no 0.  Tori and
 * dragonflies are not hierarchies: no rows there. */
static const char *const ref_tools[] = {"kaffpa", "multisection",
                                        "sharedmap"};
static const char *const ref_labels[] = {
    "KaHIP kaffpa --enable_mapping (eco)",
    "KaHIP global_multisection (eco)",
    "SharedMap process_map (eco, 1 thread)"};
#define NREF 3

/* The METIS file the tools read: weights divided by their gcd and, when
 * the largest is still above 10^6 (SharedMap's cost is 32-bit), scaled
 * down to at most 10^6 (each at least 1).  *scale: the factor applied. */
static int write_ref_graph(const tg_graph *g, const char *path,
                           double *scale, tg_error *err)
{
    tg_graph *c;
    int rc = tg_graph_copy(g, &c, err);
    if (rc)
        return rc;
    uint64_t d = 0, max = 0;
    for (int64_t i = 0; i < c->xadj[c->n]; i++)
        d = gcd64(d, c->adjwgt[i]);
    for (int64_t i = 0; d && i < c->xadj[c->n]; i++) {
        c->adjwgt[i] /= d;
        if (c->adjwgt[i] > max)
            max = c->adjwgt[i];
    }
    double f = max > 1000000 ? 1e6 / (double)max : 1.0;
    for (int64_t i = 0; f < 1 && i < c->xadj[c->n]; i++) {
        uint64_t w = (uint64_t)((double)c->adjwgt[i] * f + 0.5);
        c->adjwgt[i] = w ? w : 1;
    }
    *scale = d ? (double)d / f : 1;
    rc = tg_write_metis(path, c, err);
    tg_graph_free(c);
    return rc;
}

/* Run reference tool k through bench/refmap.py and evaluate its mapping
 * (PE p on node p / slots, overfilled nodes repaired as Scotch's). */
static int ref_map(const bench *b, const mcase *c, const tg_graph *g,
                   const gm_machine *m, const char *graph, int k, int *node,
                   gm_place *map, row *r, tg_error *err)
{
    char hier[64], *out = path_in(b->dir, c->name, ref_tools[k]), cmd[8192];
    if (!out)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int nleaves, per_leaf, nspines;
    fattree_of(c, &nleaves, &per_leaf, &nspines);
    snprintf(hier, sizeof hier, "%d:%d:%d", c->slots, per_leaf, nleaves);
    snprintf(cmd, sizeof cmd, "'%s' '%s' %s '%s' %s 1:20:40 '%s'",
             b->opt.python, REFMAP_SCRIPT, ref_tools[k], graph, hier, out);
    FILE *p = popen(cmd, "r");
    double wall = -1, cpu = -1;
    int got = p ? fscanf(p, "%lf %lf", &wall, &cpu) : 0;
    int status = p ? pclose(p) : -1;
    int rc = 0;
    if (got != 2 || status != 0)
        rc = tg_error_set(err, TG_EIO, NULL, 0, "%s failed: %s", ref_tools[k],
                          cmd);
    FILE *fp = rc ? NULL : fopen(out, "r");
    if (!rc && !fp)
        rc = tg_error_set(err, TG_EIO, out, 0, "cannot open");
    int slots = c->slots, nn = gm_machine_nodes(m);
    for (int t = 0; !rc && t < g->n; t++) {
        long pe;
        if (fscanf(fp, "%ld", &pe) != 1 || pe < 0 ||
            pe >= (long)nn * slots)
            rc = tg_error_set(err, TG_EPARSE, out, t + 1,
                              "not a processor of %d x %d", nn, slots);
        else
            node[t] = (int)(pe / slots);
    }
    if (fp)
        fclose(fp);
    free(out);
    if (rc)
        return rc;
    r->wall = wall;
    r->cpu = cpu;
    double hb = 0; /* the tool's own average, before any repair */
    for (int t = 0; t < g->n; t++)
        for (int64_t i = g->xadj[t]; i < g->xadj[t + 1]; i++)
            hb += (double)g->adjwgt[i] *
                  gm_distance(m, node[t], node[g->adjncy[i]]);
    r->raw_avg = g->n ? hb / g->n : 0;
    rc = repair(m, g->n, node, map, err);
    r->moved = rc > 0 ? rc : 0;
    if (rc < 0)
        return rc;
    r->ok = 1;
    return gm_evaluate(g, m, map, 0, NULL, &r->met, err);
}

/* Write the graph, the rows and (with Scotch) its mapping to the folder,
 * and a line of cases.tsv saying how to evaluate them again. */
static int keep_case(bench *b, const mcase *c, const char *spec,
                     const tg_graph *g, const row *rows, int nrows,
                     const int *scotch_node, tg_error *err)
{
    char *grf = path_in(b->dir, c->name, ".grf");
    char *tsv = path_in(b->dir, c->name, ".tsv");
    char *map = path_in(b->dir, c->name, ".scotch.map");
    int rc = grf && tsv && map ? 0
                               : tg_error_set(err, TG_ENOMEM, NULL, 0,
                                              "out of memory");
    if (!rc)
        rc = tg_write(grf, TG_FORMAT_SCOTCH, g, err);
    if (!rc)
        rc = write_tsv(tsv, rows, nrows, err);
#ifdef HAVE_SCOTCH_LIB
    if (!rc && scotch_node)
        rc = write_scotch_map(map, g->n, scotch_node, err);
#endif
    if (!rc)
        fprintf(b->index, "%s\t%s\t--network %s --slots %d\t%s\t%s\n",
                c->name, grf, spec, c->slots, tsv,
                scotch_node ? map : "-");
    free(grf), free(tsv), free(map);
    return rc;
}

static int run_case(bench *b, const mcase *c)
{
    tg_error err;
    tg_graph *g = NULL;
    gm_machine *m = NULL;
    gm_config *cfg = NULL;
    gm_place *map = NULL, *again = NULL;
    row *rows = NULL;
    int *scotch_node = NULL;
    char *spec = NULL, what[256], swhat[256] = "";
    int ncfg = 0, nrows = 0, rc;
    if ((rc = make_graph(c, &g, what, sizeof what, &err)) ||
        (rc = make_machine(c, b->dir, &spec, &m, &err)) ||
        (rc = gm_configurations(m, &cfg, &ncfg, &err)))
        goto out;
    if (b->opt.no_portfolio)
        ncfg = 0;
    map = malloc((size_t)g->n * sizeof *map);
    again = malloc((size_t)g->n * sizeof *again);
    rows = calloc((size_t)ncfg + GM_BASE_DRB + 3 + NREF, sizeof *rows);
    scotch_node = malloc((size_t)g->n * sizeof *scotch_node);
    if (!map || !again || !rows || !scotch_node) {
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        goto out;
    }
    printf("\n== %s: %s\n   %d tasks, %" PRId64 " edges; network %s, %d nodes"
           " x %d slots\n",
           c->name, what, g->n, g->nedges, c->network ? c->network
                                                      : "fattree (below)",
           gm_machine_nodes(m), c->slots);
    int nleaves, per_leaf, nspines;
    fattree_of(c, &nleaves, &per_leaf, &nspines);
    if (!c->network)
        printf("   fat-tree: %d leaf switches x %d nodes, %d spine switches "
               "above every leaf (topology.conf written by the bench)\n",
               nleaves, per_leaf, nspines);

    for (int i = 0; i < ncfg; i++) {
        row *r = &rows[nrows++];
        gm_config_format(&cfg[i], r->label, sizeof r->label);
        /* Every seed is 0: leave it out of the label. */
        char *seed = strstr(r->label, ",seed=");
        if (seed)
            *seed = '\0';
        if (b->opt.quick && cfg[i].delta == GM_DELTA_ALL) {
            fprintf(stderr, "mapper: %s: %d/%d %s skipped (--quick)\n",
                    c->name, i + 1, ncfg, r->label);
            continue;
        }
        job j = {.cfg = &cfg[i]};
        if ((rc = time_job(&j, g, m, b->opt.repeat, map, again, r, &err)))
            goto out;
        fprintf(stderr, "mapper: %s: %d/%d %s %.3f s\n", c->name, i + 1,
                ncfg, r->label, r->wall);
    }
    int block = nrows;
    tg_grid grid;
    int has_grid = gm_grid_of(g, &grid);
    for (int k = GM_BASE_BLOCK; k <= GM_BASE_DRB; k++) {
        row *r = &rows[nrows++];
        gm_baseline base = (gm_baseline)k;
        snprintf(r->label, sizeof r->label, "%s%s", gm_baseline_name(base),
                 base == GM_BASE_BLOCK ? " (default)"
                 : base == GM_BASE_RANDOM ? " (seed 0)"
                 : base == GM_BASE_DECOMPOSE ? " (geometric boxes)"
                 : base == GM_BASE_DRB ? " (rb weighing outside edges)"
                                       : "");
        if (base == GM_BASE_HILBERT &&
            gm_network_kind(gm_machine_network(m)) != GM_NET_TORUS)
            continue; /* defined on tori and meshes only */
        if (base == GM_BASE_DECOMPOSE && !has_grid)
            continue; /* needs a grid */
        job j = {.base = base};
        if ((rc = time_job(&j, g, m, b->opt.repeat, map, again, r, &err)))
            goto out;
        fprintf(stderr, "mapper: %s: baseline %s %.3f s\n", c->name,
                r->label, r->wall);
    }
    row *def = &rows[nrows++];
    snprintf(def->label, sizeof def->label,
             "greedymap map default (best of GreedyMap, block, rb, drb, "
             "decompose, refined)");
    gm_config dc;
    if ((rc = gm_config_parse("", &dc, &err)))
        goto out;
    job dj = {.cfg = &dc, .best = 1};
    if ((rc = time_job(&dj, g, m, b->opt.repeat, map, again, def, &err)))
        goto out;
    fprintf(stderr, "mapper: %s: default %.3f s\n", c->name, def->wall);
    row *scotch = &rows[nrows++];
#ifdef HAVE_SCOTCH_LIB
    snprintf(scotch->label, sizeof scotch->label, "scotch %d.%d.%d "
             "(gmap -cb -Cd, onto nodes)", SCOTCH_VERSION, SCOTCH_RELEASE,
             SCOTCH_PATCHLEVEL);
    char *tgt = path_in(b->dir, c->name, ".tgt");
    rc = tgt ? scotch_map(g, m, tgt, scotch_node, map, scotch, swhat,
                          sizeof swhat, &err)
             : tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    free(tgt);
    if (rc)
        goto out;
    fprintf(stderr, "mapper: %s: scotch %.3f s\n", c->name, scotch->wall);
#else
    snprintf(scotch->label, sizeof scotch->label,
             "scotch (libscotch not built in)");
#endif
    row *refs = &rows[nrows];
    int nref = b->opt.python && !c->network ? NREF : 0;
    double ref_scale = 1;
    if (nref) {
        char *metis = path_in(b->dir, c->name, ".graph");
        int *ref_node = malloc((size_t)g->n * sizeof *ref_node);
        rc = metis && ref_node
                 ? write_ref_graph(g, metis, &ref_scale, &err)
                 : tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        for (int k = 0; !rc && k < nref; k++) {
            row *r = &rows[nrows++];
            snprintf(r->label, sizeof r->label, "%s", ref_labels[k]);
            rc = ref_map(b, c, g, m, metis, k, ref_node, map, r, &err);
            if (!rc)
                fprintf(stderr, "mapper: %s: %s %.3f s\n", c->name,
                        ref_tools[k], r->wall);
        }
        free(metis);
        free(ref_node);
        if (rc)
            goto out;
    }

    double base_avg = rows[block].met.hop_bytes_avg;
    printf("   times: the mapper alone, one core, best of %d runs for rows "
           "under %.0f s\n\n", b->opt.repeat, REPEAT_BELOW);
    print_header();
    printf("  GreedyMap configurations (gm_configurations, seed 0)\n");
    for (int i = 0; i < ncfg; i++)
        if (rows[i].ok)
            print_row(&rows[i], base_avg);
        else
            printf("  %-76s skipped (--quick)\n", rows[i].label);
    printf("  baselines (gm_baseline_map) and greedymap map's default\n");
    for (int i = block; i < nrows - 1 - nref; i++)
        print_row(&rows[i], base_avg);
    printf("  Scotch\n");
    print_row(scotch, base_avg);
    if (scotch->ok)
        printf("    target: %s\n", swhat);
    if (scotch->moved)
        printf("    Scotch overfilled some nodes: %d task%s moved to the "
               "nearest free slots\n    (avg hop-bytes %.2f before the "
               "move)\n",
               scotch->moved, scotch->moved == 1 ? "" : "s",
               scotch->raw_avg);
    else if (scotch->ok)
        printf("    every node got exactly its slots (nothing moved)\n");
    if (nref) {
        printf("  KaHIP and SharedMap (hierarchy %d:%d:%d, distance "
               "1:20:40, imbalance 3 %%; edge weights / %.6g; times: "
               "bench/refmap.py)\n",
               c->slots, per_leaf, nleaves, ref_scale);
        for (int k = 0; k < nref; k++) {
            print_row(&refs[k], base_avg);
            if (refs[k].moved)
                printf("    %d task%s moved off overfilled nodes (avg "
                       "hop-bytes %.2f before the move)\n", refs[k].moved,
                       refs[k].moved == 1 ? "" : "s", refs[k].raw_avg);
        }
    } else if (b->opt.python)
        printf("  KaHIP and SharedMap: n/a (they take hierarchies; this "
               "network is not one)\n");
    printf("\n");
    if (ncfg)
        print_summary(rows, cfg, ncfg, block, scotch);
    print_bound(c, g, m, rows, (int)(scotch - rows), scotch);
    fflush(stdout);
    if (b->index)
        rc = keep_case(b, c, spec, g, rows, nrows,
                       scotch->ok ? scotch_node : NULL, &err);
out:
    if (rc)
        fail(&err);
    free(cfg), free(map), free(again), free(rows), free(scotch_node);
    free(spec);
    gm_machine_free(m);
    tg_graph_free(g);
    return rc ? 1 : 0;
}

/* ------------------------------------------------------------------- main */

static const char usage[] =
    "usage: bench/mapper [--case NAME]... [--quick] [--repeat R] [--cpu N]\n"
    "                    [--keep DIR]\n"
    "\n"
    "Map synthetic and recorded task graphs with every GreedyMap\n"
    "configuration, every baseline and Scotch, evaluate each mapping with\n"
    "gm_evaluate and print one table per case, with a lower bound on the\n"
    "average hop-bytes where one is known (bench/bound.c: the stencil and\n"
    "Qbox cases, and the recorded graphs by an exact search of a minute).\n"
    "\n"
    "  --case NAME   run this case only (repeatable); cases: milc,\n"
    "                stencil-fattree, qbox-sum, qbox-wsum, rgg-dragonfly,\n"
    "                rgg-torus, grid64-torus, grid96x64x40, aspect1x32,\n"
    "                grid2d-fattree, lammps32-torus, lammps32-fattree,\n"
    "                hpcc32-torus, hpcc32-fattree (default: all)\n"
    "  --quick       skip the configurations with delta=all\n"
    "  --no-portfolio  only greedymap map's default (which runs GreedyMap's\n"
    "                default configuration, block, rb, drb and decompose),\n"
    "                the baselines and Scotch: for the large grid cases\n"
    "  --repeat R    runs of every mapper faster than 1 s, best time kept\n"
    "                (default 3)\n"
    "  --cpu N       the CPU to run on (default: the first allowed)\n"
    "  --keep DIR    write each case's graph (.grf), rows (.tsv), Scotch\n"
    "                target (.tgt) and mapping (.scotch.map) and an index\n"
    "                cases.tsv to DIR, and keep them\n"
    "  --references PYTHON  also run KaHIP (kaffpa --enable_mapping,\n"
    "                global_multisection) and SharedMap on the fat-tree\n"
    "                cases through bench/refmap.py with this Python, which\n"
    "                must have the PyPI packages kahip and chszlablib\n"
    "                (scripts/install-bench-deps.sh makes one)\n"
    "  -h, --help    this help\n";

static int parse(int argc, char **argv, options *o)
{
    static const struct option longs[] = {
        {"case", required_argument, NULL, 'c'},
        {"quick", no_argument, NULL, 'q'},
        {"no-portfolio", no_argument, NULL, 'n'},
        {"repeat", required_argument, NULL, 'r'},
        {"cpu", required_argument, NULL, 'p'},
        {"keep", required_argument, NULL, 'k'},
        {"references", required_argument, NULL, 'R'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (options){.repeat = 3, .cpu = -1};
    int opt, any = 0;
    while ((opt = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
        char *end;
        int i = 0;
        switch (opt) {
        case 'c':
            while (i < NCASES && strcmp(cases[i].name, optarg))
                i++;
            if (i == NCASES) {
                fprintf(stderr, "mapper: no case '%s' (see --help)\n",
                        optarg);
                return 2;
            }
            o->want[i] = any = 1;
            break;
        case 'q':
            o->quick = 1;
            break;
        case 'n':
            o->no_portfolio = 1;
            break;
        case 'r':
        case 'p': {
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < (opt == 'r') || v > 1000) {
                fprintf(stderr, "mapper: bad --%s '%s'\n",
                        opt == 'r' ? "repeat" : "cpu", optarg);
                return 2;
            }
            *(opt == 'r' ? &o->repeat : &o->cpu) = (int)v;
            break;
        }
        case 'k':
            o->keep = optarg;
            break;
        case 'R':
            o->python = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            fputs(usage, stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "mapper: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    for (int i = 0; i < NCASES && !any; i++)
        o->want[i] = 1;
    return 0;
}

int main(int argc, char **argv)
{
    bench b = {0};
    int rc = parse(argc, argv, &b.opt);
    if (rc)
        return rc < 0 ? 0 : rc;
    char tmpl[4096];
    if (b.opt.keep) {
        if (mkdir(b.opt.keep, 0777) && errno != EEXIST) {
            fprintf(stderr, "mapper: cannot make %s: %s\n", b.opt.keep,
                    strerror(errno));
            return 1;
        }
        b.dir = strdup(b.opt.keep);
    } else {
        const char *t = getenv("TMPDIR");
        snprintf(tmpl, sizeof tmpl, "%s/mapper.XXXXXX", t && *t ? t : "/tmp");
        b.dir = mkdtemp(tmpl) ? strdup(tmpl) : NULL;
    }
    if (!b.dir) {
        fprintf(stderr, "mapper: cannot make a folder: %s\n",
                strerror(errno));
        return 1;
    }
    char *index = path_in(b.dir, "cases", ".tsv");
    if (b.opt.keep && (!index || !(b.index = fopen(index, "w")))) {
        fprintf(stderr, "mapper: cannot create %s/cases.tsv: %s\n", b.dir,
                strerror(errno));
        return 1;
    }
    int cpu = pin_cpu(b.opt.cpu);
    if (cpu < 0) {
        fprintf(stderr, "mapper: cannot run on CPU %d alone\n", b.opt.cpu);
        return 1;
    }
    printf("bench/mapper: GreedyMap, baselines and Scotch on the panel of "
           "issue 5\n");
    printf("pinned to CPU %d; every generated edge weighs %d bytes (the "
           "recorded graphs keep theirs)\n", cpu, BYTES);
    print_load("at start");
    int bad = 0;
    for (int i = 0; i < NCASES; i++)
        if (b.opt.want[i])
            bad |= run_case(&b, &cases[i]);
    printf("\n");
    print_load("at end");
    if (b.index && fclose(b.index)) {
        fprintf(stderr, "mapper: cannot write %s\n", index);
        bad = 1;
    }
    if (!b.opt.keep) {
        /* Only the files this program writes live in its folder: each
         * case's Scotch target and fat-tree (make_machine). */
        static const char *const left[] = {".tgt", ".fattree.conf"};
        for (int i = 0; i < NCASES; i++)
            for (int k = 0; k < 2; k++) {
                char *p = path_in(b.dir, cases[i].name, left[k]);
                if (p)
                    remove(p);
                free(p);
            }
        rmdir(b.dir);
    }
    free(index);
    free(b.dir);
    return bad;
}
