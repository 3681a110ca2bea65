/* problem.c: an instance of the placement decision: the choices every rank
 * has on its node, their compute times, the core sets they may use, and
 * the communication between ranks; defaults for figures nobody measured. */
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

/* Figures used when neither hwloc nor a calibration knows them: typical
 * of current hardware (MiB/s).  memprobe measures the real ones. */
static const double default_numa_bw[HT_MEM_COUNT] = {[HT_MEM_DRAM] = 20000,
                                                     [HT_MEM_HBM] = 80000,
                                                     [HT_MEM_CXL] = 10000,
                                                     [HT_MEM_NVM] = 5000,
                                                     [HT_MEM_GPUNUMA] = 20000};
static const ht_gpu_rates default_gpu = {
    .device = 800000,  /* HBM2 of a V100 */
    .pinned = 12000,   /* zero-copy over PCIe 3 x16 */
    .managed = 400000, /* migrated pages, with fault overhead */
    .copy_pageable = 6000,
    .copy_pinned = 12000,
    .lat_pageable = 10000,
    .lat_pinned = 8000};

void ht_params_default(ht_params *p)
{
    p->ranks_per_gpu = 1;
    p->cores_per_rank = 1;
    p->gpu_speedup = 0;
    p->cuda_aware = 0;
    p->net_bandwidth = 10000; /* 100 Gb/s InfiniBand, roughly */
    p->net_latency = 2000;
    p->shm_bandwidth = 8000; /* one copy through shared memory */
    p->shm_latency = 500;
    p->rotations = 5; /* papers/000, section 5 */
    p->restarts = 8;
    p->seed = 0;
}

void ht_problem_free(ht_problem *p)
{
    if (!p)
        return;
    for (int s = 0; s < p->ncoresets; s++) {
        hwloc_bitmap_free(p->coreset[s]);
        free(p->sub[s]);
        free(p->super[s]);
    }
    free(p->coreset);
    free(p->coreset_size);
    free(p->sub);
    free(p->nsub);
    free(p->super);
    free(p->nsuper);
    free(p->host);
    free(p->hostname);
    free(p->choice);
    free(p->coreset_of);
    free(p->on_device);
    free(p->comp);
    free(p->rates);
    free(p->xadj);
    free(p->adj);
    free(p->bytes);
    free(p->msgs);
    free(p);
}

int ht_problem_nchoices(const ht_problem *p)
{
    return p->nchoices;
}

const ht_choice *ht_problem_choice(const ht_problem *p, int c)
{
    return &p->choice[c];
}

int ht_problem_allows(const ht_problem *p, int r, int c)
{
    return p->comp[(size_t)r * (size_t)p->nchoices + (size_t)c] >= 0;
}

static int nomem(tg_error *err)
{
    return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
}

static double pick(double measured, double fallback)
{
    return measured > 0 ? measured : fallback;
}

static int check_params(const ht_params *q, tg_error *err)
{
    if (q->ranks_per_gpu < 1 || q->cores_per_rank < 1 || q->rotations < 1 ||
        q->restarts < 0 || !(q->gpu_speedup >= 0) || !(q->net_bandwidth > 0) ||
        !(q->shm_bandwidth > 0) || !(q->net_latency >= 0) ||
        !(q->shm_latency >= 0))
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "parameters out of range: ranks per GPU, cores "
                            "per rank and rotations >= 1, bandwidths > 0, "
                            "latencies and speedup >= 0");
    return 0;
}

static int build_choices(ht_problem *p, tg_error *err)
{
    const ht_node *n = p->node;
    p->rates = calloc((size_t)n->ngpus + 1, sizeof *p->rates);
    p->choice = calloc((size_t)(3 * n->ngpus + n->nnuma), sizeof *p->choice);
    if (!p->rates || !p->choice)
        return nomem(err);
    for (int g = 0; g < n->ngpus; g++) {
        const ht_gpu *d = &n->gpus[g];
        ht_gpu_rates *r = &p->rates[g];
        r->device = pick(d->bw_device, default_gpu.device);
        r->pinned = pick(d->bw_pinned, default_gpu.pinned);
        r->managed = pick(d->bw_managed, default_gpu.managed);
        r->copy_pageable = pick(d->bw_copy_pageable, default_gpu.copy_pageable);
        r->copy_pinned = pick(d->bw_copy_pinned, default_gpu.copy_pinned);
        r->lat_pageable = pick(d->lat_copy_pageable, default_gpu.lat_pageable);
        r->lat_pinned = pick(d->lat_copy_pinned, default_gpu.lat_pinned);
        const double bw[3] = {r->device, r->pinned, r->managed};
        for (int k = 0; k < 3; k++)
            p->choice[p->nchoices++] =
                (ht_choice){HT_PROC_GPU, g, (ht_memkind)(HT_MEM_DEVICE + k),
                            d->numa, bw[k]};
    }
    for (int i = 0; i < n->nnuma; i++) {
        const ht_numa *m = &n->numa[i];
        if (m->kind == HT_MEM_GPUNUMA)
            continue; /* the GPU's own memory, not for CPU ranks */
        p->choice[p->nchoices++] =
            (ht_choice){HT_PROC_CPU, -1, m->kind, i,
                        pick(m->bandwidth, default_numa_bw[m->kind])};
    }
    p->on_device = calloc((size_t)p->nchoices, 1);
    if (!p->on_device)
        return nomem(err);
    for (int c = 0; c < p->nchoices; c++)
        p->on_device[c] = p->choice[c].mem == HT_MEM_DEVICE ||
                          p->choice[c].mem == HT_MEM_MANAGED;
    return 0;
}

/* Which cores a choice may use: those near its GPU, or local to its
 * memory.  Each distinct set once. */
static int build_coresets(ht_problem *p, tg_error *err)
{
    const ht_node *n = p->node;
    int nc = p->nchoices;
    p->coreset_of = calloc((size_t)nc, sizeof *p->coreset_of);
    p->coreset = calloc((size_t)nc, sizeof *p->coreset);
    p->coreset_size = calloc((size_t)nc, sizeof *p->coreset_size);
    p->sub = calloc((size_t)nc, sizeof *p->sub);
    p->nsub = calloc((size_t)nc, sizeof *p->nsub);
    p->super = calloc((size_t)nc, sizeof *p->super);
    p->nsuper = calloc((size_t)nc, sizeof *p->nsuper);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!p->coreset_of || !p->coreset || !p->coreset_size || !p->sub ||
        !p->nsub || !p->super || !p->nsuper || !set) {
        hwloc_bitmap_free(set);
        return nomem(err);
    }
    for (int c = 0; c < nc; c++) {
        const ht_choice *ch = &p->choice[c];
        hwloc_const_bitmap_t pus = ch->proc == HT_PROC_GPU
                                       ? n->gpus[ch->gpu].cpuset
                                       : n->numa[ch->numa].cpuset;
        hwloc_bitmap_zero(set);
        for (int k = 0; k < n->ncores; k++)
            if (hwloc_bitmap_isincluded(n->core[k], pus))
                hwloc_bitmap_set(set, (unsigned)k);
        int s = 0;
        while (s < p->ncoresets && !hwloc_bitmap_isequal(p->coreset[s], set))
            s++;
        if (s == p->ncoresets) {
            if (!(p->coreset[s] = hwloc_bitmap_dup(set))) {
                hwloc_bitmap_free(set);
                return nomem(err);
            }
            p->coreset_size[s] = hwloc_bitmap_weight(set);
            p->ncoresets++;
        }
        p->coreset_of[c] = s;
    }
    hwloc_bitmap_free(set);
    int m = p->ncoresets;
    for (int s = 0; s < m; s++) {
        p->sub[s] = calloc((size_t)m, sizeof **p->sub);
        p->super[s] = calloc((size_t)m, sizeof **p->super);
        if (!p->sub[s] || !p->super[s])
            return nomem(err);
    }
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            if (hwloc_bitmap_isincluded(p->coreset[b], p->coreset[a])) {
                p->sub[a][p->nsub[a]++] = b;
                p->super[b][p->nsuper[b]++] = a;
            } else if (hwloc_bitmap_intersects(p->coreset[a], p->coreset[b]) &&
                       !hwloc_bitmap_isincluded(p->coreset[a], p->coreset[b]))
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "two core sets of this node overlap "
                                    "without one holding the other; the "
                                    "capacity check needs nested sets");
        }
    return 0;
}

/* Seconds of compute of rank r with choice c, or -1 without the variant:
 * the variant's time, slowed by the memory's bandwidth relative to the
 * best one the processor has (the measured time is taken as the time with
 * the best memory). */
static double compute_time(const ht_problem *p, const ht_rank *r, int c,
                           double best_cpu)
{
    const ht_choice *ch = &p->choice[c];
    double s = p->par.gpu_speedup, t;
    if (ch->proc == HT_PROC_CPU)
        t = r->t_cpu >= 0            ? r->t_cpu
            : s > 0 && r->t_gpu >= 0 ? r->t_gpu * s
                                     : -1;
    else
        t = r->t_gpu >= 0            ? r->t_gpu
            : s > 0 && r->t_cpu >= 0 ? r->t_cpu / s
                                     : -1;
    if (t < 0)
        return -1;
    double b = best_cpu;
    if (ch->proc == HT_PROC_GPU) {
        const ht_gpu_rates *g = &p->rates[ch->gpu];
        b = g->device > g->pinned ? g->device : g->pinned;
        b = g->managed > b ? g->managed : b;
    }
    return t * ((1 - r->memory_bound) + r->memory_bound * b / ch->bandwidth);
}

static int build_compute(ht_problem *p, tg_error *err)
{
    double best_cpu = 0;
    for (int c = 0; c < p->nchoices; c++)
        if (p->choice[c].proc == HT_PROC_CPU &&
            p->choice[c].bandwidth > best_cpu)
            best_cpu = p->choice[c].bandwidth;
    p->comp = malloc((size_t)p->n * (size_t)p->nchoices * sizeof *p->comp);
    if (!p->comp)
        return nomem(err);
    for (int r = 0; r < p->n; r++) {
        int any = 0;
        for (int c = 0; c < p->nchoices; c++) {
            double t = compute_time(p, &p->in->ranks[r], c, best_cpu);
            p->comp[(size_t)r * (size_t)p->nchoices + (size_t)c] = t;
            any |= t >= 0;
        }
        if (!any)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "rank %d has no variant this node can run "
                                "(only a %s time; a GPU speedup derives the "
                                "other)",
                                r, p->in->ranks[r].t_gpu >= 0 ? "GPU" : "CPU");
    }
    return 0;
}

typedef struct arc {
    int a, b;
    double bytes, msgs;
} arc;

static int by_pair(const void *x, const void *y)
{
    const arc *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    return u->b < v->b ? -1 : u->b > v->b;
}

/* Both directions of every send, merged per pair, in CSR form. */
static int build_adjacency(ht_problem *p, tg_error *err)
{
    size_t count = 0;
    for (int r = 0; r < p->n; r++)
        count += 2 * (size_t)p->in->ranks[r].nsends;
    arc *arcs = malloc((count + 1) * sizeof *arcs);
    p->xadj = calloc((size_t)p->n + 1, sizeof *p->xadj);
    p->adj = malloc((count + 1) * sizeof *p->adj);
    p->bytes = malloc((count + 1) * sizeof *p->bytes);
    p->msgs = malloc((count + 1) * sizeof *p->msgs);
    if (!arcs || !p->xadj || !p->adj || !p->bytes || !p->msgs) {
        free(arcs);
        return nomem(err);
    }
    size_t k = 0;
    for (int r = 0; r < p->n; r++)
        for (int i = 0; i < p->in->ranks[r].nsends; i++) {
            const ht_send *s = &p->in->ranks[r].sends[i];
            arcs[k++] =
                (arc){r, s->peer, (double)s->bytes, (double)s->messages};
            arcs[k++] =
                (arc){s->peer, r, (double)s->bytes, (double)s->messages};
        }
    qsort(arcs, count, sizeof *arcs, by_pair);
    size_t m = 0;
    for (size_t i = 0; i < count; i++) {
        if (i && arcs[i - 1].a == arcs[i].a && arcs[i - 1].b == arcs[i].b) {
            p->bytes[m - 1] += arcs[i].bytes;
            p->msgs[m - 1] += arcs[i].msgs;
            continue;
        }
        p->adj[m] = arcs[i].b;
        p->bytes[m] = arcs[i].bytes;
        p->msgs[m] = arcs[i].msgs;
        p->xadj[arcs[i].a + 1]++;
        m++;
    }
    for (int r = 0; r < p->n; r++)
        p->xadj[r + 1] += p->xadj[r];
    free(arcs);
    return 0;
}

static int index_hosts(ht_problem *p, tg_error *err)
{
    p->host = calloc((size_t)p->n, sizeof *p->host);
    p->hostname = calloc((size_t)p->n, sizeof *p->hostname);
    if (!p->host || !p->hostname)
        return nomem(err);
    for (int r = 0; r < p->n; r++) {
        const char *h = p->in->ranks[r].host;
        int k = p->nhosts - 1; /* ranks usually come host by host */
        while (k >= 0 && strcmp(p->hostname[k], h))
            k--;
        if (k < 0) {
            k = p->nhosts++;
            p->hostname[k] = h;
        }
        p->host[r] = k;
    }
    return 0;
}

/* A GPU whose memory size nobody gave is no limit at all, so a rank's data
 * could be put in it whatever its size (a 60 GiB rank in a 32 GB V100):
 * refuse, unless no rank with data may run there. */
static int check_gpu_memory(const ht_problem *p, tg_error *err)
{
    const ht_node *n = p->node;
    for (int c = 0; c < p->nchoices; c++) {
        const ht_choice *ch = &p->choice[c];
        if (ch->mem != HT_MEM_DEVICE || n->gpus[ch->gpu].memory)
            continue; /* managed data counts on the host (capacity.c) */
        for (int r = 0; r < p->n; r++)
            if (p->in->ranks[r].footprint && ht_problem_allows(p, r, c))
                return tg_error_set(
                    err, TG_EINVAL, NULL, 0,
                    "GPU %s: its memory size is unknown (hwloc does not "
                    "give it and no calibration has it), so rank %d's %llu "
                    "bytes could not be checked against it: give the size "
                    "with --gpu-memory SIZE or a memprobe calibration",
                    n->gpus[ch->gpu].busid, r,
                    (unsigned long long)p->in->ranks[r].footprint);
    }
    return 0;
}

int ht_problem_new(const ht_input *in, const ht_node *node,
                   const ht_params *par, ht_problem **out, tg_error *err)
{
    int rc = check_params(par, err);
    if (rc)
        return rc;
    ht_problem *p = calloc(1, sizeof *p);
    if (!p)
        return nomem(err);
    p->in = in;
    p->node = node;
    p->par = *par;
    p->n = in->n;
    rc = index_hosts(p, err);
    if (!rc)
        rc = build_choices(p, err);
    if (!rc)
        rc = build_coresets(p, err);
    if (!rc)
        rc = build_compute(p, err);
    if (!rc)
        rc = build_adjacency(p, err);
    if (!rc)
        rc = check_gpu_memory(p, err);
    if (rc) {
        ht_problem_free(p);
        return rc;
    }
    *out = p;
    return 0;
}
