/* memprobe.c: measure what hwloc does not know about this machine's memory
 * and write it as a calibration file (format "topomap-memcal") for the
 * cost model: per NUMA node, the STREAM copy and triad bandwidth of
 * threads bound to the cores of one package (the node's own, else the
 * first) with the arrays bound to the node, and the latency of a
 * dependent-load chase; with CUDA, the GPU figures (memprobe_cuda.cu). */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "config.h"
#include "hetero.h"
#include "memprobe.h"

#define MIB 1048576.0

static const char help[] =
    "usage: memprobe [-o FILE] [--size MIB] [--repeats N] [--threads N]\n"
    "                [--no-gpu] [-q]\n"
    "\n"
    "Measure this machine's memory and write a calibration file (format\n"
    "topomap-memcal) that topomap-place reads with --calibration:\n"
    "  per NUMA node: STREAM copy and triad bandwidth (MiB/s) of threads\n"
    "  bound to the cores of the node's package, the arrays bound to the\n"
    "  node with hwloc; latency (ns) of a chain of dependent loads;\n"
    "  per GPU (when built with CUDA): kernel bandwidth to device, pinned\n"
    "  (zero-copy) and managed memory; host-device copy bandwidth and\n"
    "  latency, pageable and pinned.\n"
    "\n"
    "  -o, --output FILE    default memcal.json\n"
    "      --size MIB       bytes per array (default 4 times the largest\n"
    "                       cache, at least 32 MiB)\n"
    "      --repeats N      best of N runs (default 5)\n"
    "      --threads N      at most N threads per node (default one per\n"
    "                       core of the package)\n"
    "      --no-gpu         skip the GPUs\n"
    "  -q, --quiet          no progress on stderr\n"
    "  -h, --help, --version\n"
    "man memprobe.\n";

enum { OPT_SIZE = 256, OPT_REPEATS, OPT_THREADS, OPT_NOGPU, OPT_VERSION };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"output", required_argument, NULL, 'o'},
    {"size", required_argument, NULL, OPT_SIZE},
    {"repeats", required_argument, NULL, OPT_REPEATS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"no-gpu", no_argument, NULL, OPT_NOGPU},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0}};

typedef struct opts {
    const char *output;
    uint64_t bytes;
    int repeats, threads, gpu, quiet;
} opts;

double mp_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------------------ bandwidth */

/* One STREAM run over a node: the threads share the arrays, each its
 * slice, and meet at a barrier around every timed kernel. */
typedef struct stream {
    hwloc_topology_t topo;
    double *a, *b, *c;
    size_t n;
    int nthreads, repeats;
    hwloc_bitmap_t *cores; /* one per thread */
    pthread_barrier_t barrier;
    double copy, triad; /* best seconds */
    int bind_failed;
} stream;

typedef struct worker {
    stream *s;
    int id;
} worker;

static void timed(stream *s, int id, double *best, int kernel, size_t lo,
                  size_t hi)
{
    for (int k = 0; k < s->repeats; k++) {
        pthread_barrier_wait(&s->barrier);
        double t0 = mp_now();
        if (kernel == 0)
            for (size_t i = lo; i < hi; i++)
                s->c[i] = s->a[i];
        else
            for (size_t i = lo; i < hi; i++)
                s->a[i] = s->b[i] + 3.0 * s->c[i];
        pthread_barrier_wait(&s->barrier);
        double t = mp_now() - t0;
        if (id == 0 && (*best == 0 || t < *best))
            *best = t;
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    stream *s = w->s;
    if (hwloc_set_cpubind(s->topo, s->cores[w->id], HWLOC_CPUBIND_THREAD))
        s->bind_failed = 1;
    size_t lo = s->n * (size_t)w->id / (size_t)s->nthreads;
    size_t hi = s->n * (size_t)(w->id + 1) / (size_t)s->nthreads;
    for (size_t i = lo; i < hi; i++) { /* first touch by the owner */
        s->a[i] = 1.0;
        s->b[i] = 2.0;
        s->c[i] = 0.0;
    }
    timed(s, w->id, &s->copy, 0, lo, hi);
    timed(s, w->id, &s->triad, 1, lo, hi);
    return NULL;
}

/* The cores the threads for NUMA node m run on: its package's, or the
 * first package's for a node that belongs to none (CXL, GPU memory). */
static int initiator(const ht_node *n, const ht_numa *m, int max,
                     hwloc_bitmap_t *out, hwloc_bitmap_t pus)
{
    int pkg = m->package >= 0 ? m->package
              : n->ncores     ? n->core_package[0]
                              : -1;
    int k = 0;
    hwloc_bitmap_zero(pus);
    for (int c = 0; c < n->ncores && k < max; c++)
        if (n->core_package[c] == pkg) {
            out[k++] = n->core[c];
            hwloc_bitmap_or(pus, pus, n->core[c]);
        }
    return k;
}

static void *alloc_on(hwloc_topology_t t, uint64_t bytes, unsigned node)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, node);
    void *p =
        hwloc_alloc_membind(t, bytes, set, HWLOC_MEMBIND_BIND,
                            HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
    hwloc_bitmap_free(set);
    return p;
}

/* Latency of dependent loads, one per 64-byte line, in a random cycle
 * over `bytes`, from the first core of `core`. */
static double chase(hwloc_topology_t t, void *buf, uint64_t bytes,
                    hwloc_const_bitmap_t core)
{
    size_t lines = bytes / 64, *next = buf;
    size_t stride = 64 / sizeof(size_t);
    size_t *perm = malloc(lines * sizeof *perm);
    if (!perm || lines < 2) {
        free(perm);
        return 0;
    }
    hwloc_set_cpubind(t, core, HWLOC_CPUBIND_THREAD);
    unsigned seed = 1;
    for (size_t i = 0; i < lines; i++)
        perm[i] = i;
    for (size_t i = lines - 1; i > 0; i--) { /* Fisher-Yates */
        uint64_t r = (uint64_t)rand_r(&seed) << 31 | (uint64_t)rand_r(&seed);
        size_t j = (size_t)(r % (i + 1)), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (size_t i = 0; i < lines; i++)
        next[perm[i] * stride] = perm[(i + 1) % lines] * stride;
    free(perm);
    size_t at = 0, steps = 4 * lines;
    for (size_t i = 0; i < lines; i++) /* warm the TLB and the cycle */
        at = next[at];
    double t0 = mp_now();
    for (size_t i = 0; i < steps; i++)
        at = next[at];
    double dt = mp_now() - t0;
    volatile size_t sink = at; /* the chain's result is used */
    (void)sink;
    return 1e9 * dt / (double)steps;
}

static int probe_numa(const ht_node *n, int i, const opts *o,
                      ht_memcal_numa *out)
{
    const ht_numa *m = &n->numa[i];
    hwloc_bitmap_t cores[1024], pus = hwloc_bitmap_alloc();
    int max = o->threads > 0 && o->threads < 1024 ? o->threads : 1024;
    stream s;
    memset(&s, 0, sizeof s);
    s.topo = n->topo;
    s.nthreads = initiator(n, m, max, cores, pus);
    s.cores = cores;
    s.repeats = o->repeats;
    s.n = o->bytes / sizeof(double);
    out->os_index = m->os_index;
    snprintf(out->kind, sizeof out->kind, "%s", ht_memkind_name(m->kind));
    hwloc_bitmap_list_snprintf(out->initiator, sizeof out->initiator, pus);
    hwloc_bitmap_free(pus);
    out->threads = s.nthreads;
    s.a = alloc_on(n->topo, o->bytes, m->os_index);
    s.b = alloc_on(n->topo, o->bytes, m->os_index);
    s.c = alloc_on(n->topo, o->bytes, m->os_index);
    int rc = 0;
    if (!s.a || !s.b || !s.c || !s.nthreads) {
        fprintf(stderr,
                "memprobe: cannot bind %llu MiB arrays to NUMA node "
                "%u%s\n",
                (unsigned long long)(o->bytes >> 20), m->os_index,
                s.nthreads ? "" : " (no cores to run on)");
        rc = -1;
    }
    pthread_t tid[1024];
    worker w[1024];
    if (!rc && pthread_barrier_init(&s.barrier, NULL, (unsigned)s.nthreads))
        rc = -1;
    for (int k = 0; !rc && k < s.nthreads; k++) {
        w[k] = (worker){&s, k};
        if (pthread_create(&tid[k], NULL, work, &w[k])) {
            fprintf(stderr, "memprobe: cannot start thread %d\n", k);
            exit(CLI_EXIT_FAIL); /* the others wait at the barrier */
        }
    }
    for (int k = 0; !rc && k < s.nthreads; k++)
        pthread_join(tid[k], NULL);
    if (!rc) {
        pthread_barrier_destroy(&s.barrier);
        out->copy = 2.0 * (double)o->bytes / s.copy / MIB;
        out->triad = 3.0 * (double)o->bytes / s.triad / MIB;
        out->bandwidth = out->triad;
        out->latency = chase(n->topo, s.a, o->bytes, cores[0]);
        if (s.bind_failed)
            fprintf(stderr, "memprobe: warning: threads could not be bound "
                            "to cores\n");
    }
    if (s.a)
        hwloc_free(n->topo, s.a, o->bytes);
    if (s.b)
        hwloc_free(n->topo, s.b, o->bytes);
    if (s.c)
        hwloc_free(n->topo, s.c, o->bytes);
    return rc;
}

/* 4 times the largest cache, at least 32 MiB: STREAM's rule. */
static uint64_t default_bytes(hwloc_topology_t t)
{
    uint64_t big = 0;
    for (int d = 0; d < hwloc_topology_get_depth(t); d++) {
        hwloc_obj_t o = hwloc_get_obj_by_depth(t, d, 0);
        if (hwloc_obj_type_is_cache(o->type) && o->attr->cache.size > big)
            big = o->attr->cache.size;
    }
    uint64_t b = 4 * big;
    return b < (32u << 20) ? 32u << 20 : b;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->output = "memcal.json";
    o->repeats = 5;
    o->gpu = 1;
    int c, mib = 0;
    while ((c = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'h':
            fputs(help, stdout);
            exit(0);
        case OPT_VERSION:
            printf("memprobe (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            exit(0);
        case 'o':
            o->output = optarg;
            break;
        case OPT_SIZE:
            bad = cli_int("--size", optarg, 1, 1 << 20, &mib);
            break;
        case OPT_REPEATS:
            bad = cli_int("--repeats", optarg, 1, 1000, &o->repeats);
            break;
        case OPT_THREADS:
            bad = cli_int("--threads", optarg, 1, 1024, &o->threads);
            break;
        case OPT_NOGPU:
            o->gpu = 0;
            break;
        case 'q':
            o->quiet = 1;
            break;
        default:
            return cli_usage_error("unknown option");
        }
        if (bad)
            return CLI_EXIT_USAGE;
    }
    if (optind < argc)
        return cli_usage_error("unexpected argument '%s'", argv[optind]);
    o->bytes = (uint64_t)mib << 20;
    return 0;
}

int main(int argc, char **argv)
{
    cli_name = "memprobe";
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    ht_node *n;
    tg_error err;
    if (ht_node_load(NULL, &n, &err))
        return cli_fail(&err);
    if (!o.bytes)
        o.bytes = default_bytes(n->topo);
    ht_memcal cal;
    memset(&cal, 0, sizeof cal);
    snprintf(cal.host, sizeof cal.host, "%s", n->host);
    cal.array_bytes = o.bytes;
    cal.repeats = o.repeats;
    cal.numa = calloc((size_t)n->nnuma + 1, sizeof *cal.numa);
    cal.gpus = calloc(64, sizeof *cal.gpus);
    if (!cal.numa || !cal.gpus) {
        tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        return cli_fail(&err);
    }
    FILE *progress = o.quiet ? NULL : stderr;
    for (int i = 0; i < n->nnuma && !rc; i++) {
        const ht_numa *m = &n->numa[i];
        if (m->capacity < 3 * o.bytes) {
            if (progress)
                fprintf(progress,
                        "memprobe: NUMA node %u (%s) holds less "
                        "than 3 arrays of %llu MiB: skipped\n",
                        m->os_index, ht_memkind_name(m->kind),
                        (unsigned long long)(o.bytes >> 20));
            continue;
        }
        ht_memcal_numa *c = &cal.numa[cal.nnuma];
        if (probe_numa(n, i, &o, c)) {
            rc = CLI_EXIT_FAIL;
            break;
        }
        cal.nnuma++;
        if (progress)
            fprintf(progress,
                    "memprobe: NUMA node %u (%s) from cores %s, %d "
                    "threads: copy %.0f MiB/s, triad %.0f MiB/s, "
                    "latency %.1f ns\n",
                    c->os_index, c->kind, c->initiator, c->threads, c->copy,
                    c->triad, c->latency);
    }
#ifdef HAVE_CUDA
    if (!rc && o.gpu) {
        char why[256] = "";
        if (mp_cuda_probe(o.bytes, o.repeats, cal.gpus, 64, &cal.ngpus,
                          progress, why, sizeof why)) {
            fprintf(stderr, "memprobe: %s\n", why);
            rc = CLI_EXIT_FAIL;
        } else if (!cal.ngpus && progress)
            fprintf(progress, "memprobe: %s: GPU part skipped\n", why);
    }
#endif
    if (!rc && ht_memcal_write(o.output, &cal, &err))
        rc = cli_fail(&err);
    else if (!rc && progress)
        fprintf(progress, "memprobe: wrote %s\n", o.output);
    free(cal.numa);
    free(cal.gpus);
    ht_node_free(n);
    return rc;
}
