/* baseline.c: the default placements the search starts from and is
 * measured against.  GPU-first follows the default mapper of papers/002:
 * a rank with a GPU variant goes to a GPU (the least loaded one of its
 * node that can hold it), its data to the memory with the best bandwidth
 * that fits; a rank without one, or with no GPU left, goes to the NUMA
 * node with the best bandwidth that fits, the least used first. */
#include <stdlib.h>

#include "ht_internal.h"

/* Candidate order for rank r: GPU choices by ranks on the GPU, then GPU
 * index, then bandwidth (best first); CPU choices by bandwidth (best
 * first), then ranks already on that core set, then NUMA index. */
static int before(const ht_problem *p, const ht_load *l, int r, int a, int b)
{
    const ht_choice *x = &p->choice[a], *y = &p->choice[b];
    size_t h = (size_t)p->host[r];
    if (x->proc == HT_PROC_GPU) {
        const int *gr = &l->gpu_ranks[h * (size_t)p->node->ngpus];
        if (gr[x->gpu] != gr[y->gpu])
            return gr[x->gpu] < gr[y->gpu];
        if (x->gpu != y->gpu)
            return x->gpu < y->gpu;
        return x->bandwidth > y->bandwidth;
    }
    if (x->bandwidth != y->bandwidth)
        return x->bandwidth > y->bandwidth;
    const int *sr = &l->set_ranks[h * (size_t)p->ncoresets];
    int u = sr[p->coreset_of[a]], v = sr[p->coreset_of[b]];
    if (u != v)
        return u < v;
    return x->numa < y->numa;
}

/* The allowed choices of rank r of kind `proc`, in candidate order. */
static int candidates(const ht_problem *p, const ht_load *l, int r,
                      ht_proc proc, int *out)
{
    int k = 0;
    for (int c = 0; c < p->nchoices; c++) {
        if (p->choice[c].proc != proc || !ht_problem_allows(p, r, c))
            continue;
        int i = k++;
        while (i > 0 && before(p, l, r, c, out[i - 1])) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = c;
    }
    return k;
}

/* A rank that has only a GPU variant. */
static int gpu_only(const ht_problem *p, int r)
{
    for (int c = 0; c < p->nchoices; c++)
        if (p->choice[c].proc == HT_PROC_CPU && ht_problem_allows(p, r, c))
            return 0;
    return 1;
}

/* Ranks in order, those with only a GPU variant first: they have nowhere
 * else to go.  With use_gpu 0, only they get GPUs. */
static int place_default(const ht_problem *p, int *choice, int use_gpu,
                         tg_error *err)
{
    ht_load l;
    int *cand = malloc(((size_t)p->nchoices + 1) * sizeof *cand);
    int rc = cand ? ht_load_init(&l, p, err)
                  : tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (rc) {
        free(cand);
        return rc;
    }
    for (int i = 0; i < 2 * p->n && !rc; i++) {
        int r = i % p->n;
        if ((i < p->n) != gpu_only(p, r))
            continue;
        choice[r] = -1;
        int first = use_gpu || i < p->n ? 0 : 1;
        for (int pass = first; pass < 2 && choice[r] < 0; pass++) {
            int k =
                candidates(p, &l, r, pass ? HT_PROC_CPU : HT_PROC_GPU, cand);
            for (int i = 0; i < k && choice[r] < 0; i++)
                if (ht_load_try(&l, p, r, cand[i]))
                    choice[r] = cand[i];
        }
        if (choice[r] >= 0)
            continue;
        /* Nothing fits: say why for the first CPU candidate. */
        int k = candidates(p, &l, r, HT_PROC_CPU, cand);
        if (!k)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "rank %d fits nowhere on %s: it has no CPU "
                              "variant and no GPU holds it",
                              r, p->hostname[p->host[r]]);
        else {
            ht_load_add(&l, p, r, cand[0], 1);
            tg_error why;
            ht_load_check(&l, p, r, cand[0], &why);
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "rank %d fits nowhere: %s", r, why.text);
        }
    }
    ht_load_free(&l);
    free(cand);
    return rc;
}

int ht_gpu_first(const ht_problem *p, int *choice, tg_error *err)
{
    return place_default(p, choice, 1, err);
}

int ht_all_cpu(const ht_problem *p, int *choice, tg_error *err)
{
    return place_default(p, choice, 0, err);
}
