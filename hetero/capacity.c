/* capacity.c: what a node holds.  Per host: ranks per GPU, device memory
 * per GPU, memory per NUMA node (a CPU rank's data; a GPU rank's pinned or
 * managed data on the GPU's host node), and cores: each rank needs
 * cores_per_rank cores of its allowed set.  The allowed sets are nested or
 * disjoint (problem.c), so the ranks fit the cores exactly when, for every
 * set, the ranks whose set lies inside it need no more cores than it has
 * (Hall's condition on a laminar family); ht_place then assigns them
 * innermost set first. */
#include <stdio.h>
#include <stdlib.h>

#include "ht_internal.h"

int ht_load_init(ht_load *l, const ht_problem *p, tg_error *err)
{
    size_t h = (size_t)p->nhosts;
    l->gpu_ranks = calloc(h * (size_t)p->node->ngpus + 1, sizeof *l->gpu_ranks);
    l->gpu_mem = calloc(h * (size_t)p->node->ngpus + 1, sizeof *l->gpu_mem);
    l->numa_mem = calloc(h * (size_t)p->node->nnuma + 1, sizeof *l->numa_mem);
    l->set_ranks = calloc(h * (size_t)p->ncoresets + 1, sizeof *l->set_ranks);
    if (!l->gpu_ranks || !l->gpu_mem || !l->numa_mem || !l->set_ranks) {
        ht_load_free(l);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    return 0;
}

void ht_load_free(ht_load *l)
{
    free(l->gpu_ranks);
    free(l->gpu_mem);
    free(l->numa_mem);
    free(l->set_ranks);
    l->gpu_ranks = NULL;
    l->gpu_mem = l->numa_mem = NULL;
    l->set_ranks = NULL;
}

/* The NUMA node whose memory choice c fills: a CPU rank's own, a GPU
 * rank's host node for pinned and managed data; -1 for device data. */
static int numa_used(const ht_choice *ch)
{
    return ch->mem == HT_MEM_DEVICE ? -1 : ch->numa;
}

void ht_load_add(ht_load *l, const ht_problem *p, int r, int c, int sign)
{
    const ht_choice *ch = &p->choice[c];
    size_t h = (size_t)p->host[r];
    uint64_t bytes = p->in->ranks[r].footprint;
    if (ch->proc == HT_PROC_GPU) {
        size_t g = h * (size_t)p->node->ngpus + (size_t)ch->gpu;
        l->gpu_ranks[g] += sign;
        if (ch->mem == HT_MEM_DEVICE)
            l->gpu_mem[g] += sign > 0 ? bytes : -bytes;
    }
    int m = numa_used(ch);
    if (m >= 0)
        l->numa_mem[h * (size_t)p->node->nnuma + (size_t)m] +=
            sign > 0 ? bytes : -bytes;
    l->set_ranks[h * (size_t)p->ncoresets + (size_t)p->coreset_of[c]] += sign;
}

/* Ranks the core sets around set s need beyond what they have: the first
 * superset that is over, or -1; its demand in *need. */
static int cores_over(const ht_load *l, const ht_problem *p, size_t h, int s,
                      long *need)
{
    const int *cnt = &l->set_ranks[h * (size_t)p->ncoresets];
    for (int i = 0; i < p->nsuper[s]; i++) {
        int t = p->super[s][i];
        *need = 0;
        for (int k = 0; k < p->nsub[t]; k++)
            *need += (long)cnt[p->sub[t][k]] * p->par.cores_per_rank;
        if (*need > p->coreset_size[t])
            return t;
    }
    return -1;
}

ht_over ht_load_over(const ht_load *l, const ht_problem *p, int r, int c)
{
    const ht_choice *ch = &p->choice[c];
    const ht_node *n = p->node;
    size_t h = (size_t)p->host[r];
    ht_over o = {-1, -1, -1};
    if (ch->proc == HT_PROC_GPU) {
        size_t g = h * (size_t)n->ngpus + (size_t)ch->gpu;
        uint64_t cap = n->gpus[ch->gpu].memory;
        if (l->gpu_ranks[g] > p->par.ranks_per_gpu ||
            (cap && l->gpu_mem[g] > cap))
            o.gpu = ch->gpu;
    }
    int m = numa_used(ch);
    if (m >= 0 &&
        l->numa_mem[h * (size_t)n->nnuma + (size_t)m] > n->numa[m].capacity)
        o.numa = m;
    long need;
    o.coreset = cores_over(l, p, h, p->coreset_of[c], &need);
    return o;
}

int ht_over_uses(const ht_problem *p, const ht_over *o, int c)
{
    const ht_choice *ch = &p->choice[c];
    if (o->gpu >= 0 && ch->proc == HT_PROC_GPU && ch->gpu == o->gpu)
        return 1;
    if (o->numa >= 0 && numa_used(ch) == o->numa)
        return 1;
    if (o->coreset >= 0)
        for (int k = 0; k < p->nsub[o->coreset]; k++)
            if (p->sub[o->coreset][k] == p->coreset_of[c])
                return 1;
    return 0;
}

int ht_load_check(const ht_load *l, const ht_problem *p, int r, int c,
                  tg_error *err)
{
    ht_over o = ht_load_over(l, p, r, c);
    const ht_node *n = p->node;
    size_t h = (size_t)p->host[r];
    const char *host = p->hostname[h];
    if (o.gpu >= 0) {
        size_t g = h * (size_t)n->ngpus + (size_t)o.gpu;
        const ht_gpu *d = &n->gpus[o.gpu];
        if (l->gpu_ranks[g] > p->par.ranks_per_gpu)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "%s: GPU %s would have %d ranks (at most %d)",
                                host, d->busid, l->gpu_ranks[g],
                                p->par.ranks_per_gpu);
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%s: GPU %s would hold %llu bytes of %llu", host,
                            d->busid, (unsigned long long)l->gpu_mem[g],
                            (unsigned long long)d->memory);
    }
    if (o.numa >= 0) {
        const ht_numa *m = &n->numa[o.numa];
        return tg_error_set(
            err, TG_EINVAL, NULL, 0,
            "%s: NUMA node %u (%s) would hold %llu bytes of %llu", host,
            m->os_index, ht_memkind_name(m->kind),
            (unsigned long long)
                l->numa_mem[h * (size_t)n->nnuma + (size_t)o.numa],
            (unsigned long long)m->capacity);
    }
    long need;
    int t = cores_over(l, p, h, p->coreset_of[c], &need);
    if (t >= 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%s: ranks would need %ld cores of a set of %d",
                            host, need, p->coreset_size[t]);
    return 0;
}

int ht_load_try(ht_load *l, const ht_problem *p, int r, int c)
{
    ht_load_add(l, p, r, c, 1);
    if (ht_load_check(l, p, r, c, NULL) == 0)
        return 1;
    ht_load_add(l, p, r, c, -1);
    return 0;
}
