/* baseline.c: the default placements the search starts from and is
 * measured against.  GPU-first follows the default mapper of papers/002:
 * a rank with a GPU variant goes to a GPU (the least loaded one of its
 * node that can hold it), its data to the memory with the best bandwidth
 * that fits; a rank without one, or with no GPU left, goes to the NUMA
 * node with the best bandwidth that fits, the least used first. */
#include <stdlib.h>
#include <string.h>

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

/* Why rank r does not fit with the load l (where nothing fits it): the
 * first CPU candidate's excess, or that it has no CPU variant. */
static void nowhere(const ht_problem *p, ht_load *l, int r, int *cand,
                    tg_error *why)
{
    int k = candidates(p, l, r, HT_PROC_CPU, cand);
    if (!k) {
        tg_error_set(why, TG_EINVAL, NULL, 0,
                     "%s: it has no CPU variant and no GPU holds it",
                     p->hostname[p->host[r]]);
        return;
    }
    ht_load_add(l, p, r, cand[0], 1);
    ht_load_check(l, p, r, cand[0], why);
    ht_load_add(l, p, r, cand[0], -1);
}

/* An empty load and room for a rank's candidates; 0, or the error with
 * nothing held. */
static int load_init(const ht_problem *p, ht_load *l, int **cand,
                     tg_error *err)
{
    *cand = malloc(((size_t)p->nchoices + 1) * sizeof **cand);
    int rc = *cand ? ht_load_init(l, p, err)
                   : tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (rc) {
        free(*cand);
        *cand = NULL;
    }
    return rc;
}

int ht_fits_alone(const ht_problem *p, int r, tg_error *err)
{
    ht_load l;
    int *cand;
    int rc = load_init(p, &l, &cand, err);
    if (rc)
        return rc;
    int fits = 0;
    for (int c = 0; c < p->nchoices && !fits; c++)
        if (ht_problem_allows(p, r, c) && ht_load_try(&l, p, r, c)) {
            fits = 1;
            ht_load_add(&l, p, r, c, -1);
        }
    if (!fits) {
        tg_error why;
        nowhere(p, &l, r, cand, &why);
        rc = tg_error_set(err, TG_EINVAL, NULL, 0, "rank %d fits nowhere: %s",
                          r, why.text);
    }
    ht_load_free(&l);
    free(cand);
    return rc;
}

/* Ranks in order, those with only a GPU variant first: they have nowhere
 * else to go.  With use_gpu 0, only they get GPUs. */
static int place_default(const ht_problem *p, int *choice, int use_gpu,
                         tg_error *err)
{
    ht_load l;
    int *cand;
    int rc = load_init(p, &l, &cand, err);
    if (rc)
        return rc;
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
        /* Nothing fits: "fits nowhere" only when the rank does not fit
         * alone either; else what the ranks before it left. */
        rc = ht_fits_alone(p, r, err);
        if (rc)
            break;
        tg_error why;
        nowhere(p, &l, r, cand, &why);
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "rank %d: no room left by the ranks placed "
                          "before it (first fit): %s",
                          r, why.text);
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

/* ------------------------------------------------------- feasibility */

/* A start for the search when both defaults fail (first fit in rank order
 * can fail where a placement exists: small ranks fill the HBM that only
 * the large ones need).  Per host, whose resources are its own: first
 * what must hold for any placement (each rank fits alone; enough cores;
 * no more GPU-only ranks than GPU slots; data no more than all memory),
 * then a depth-first search over the ranks, largest data first, each
 * trying the choices that fit, best fit first (least memory left in the
 * memory it fills), undoing the last choice when a rank finds no room.
 * Choices that use the same resources alike (pinned and managed data on
 * one GPU) are tried once, and ranks alike in data and choices take
 * choices in nondecreasing order, so no placement is tried twice up to
 * swapping them: a search that runs out proves that nothing fits.  It
 * gives up after HT_FEASIBLE_BACKTRACKS undone choices on one host. */

typedef struct feas {
    const ht_problem *p;
    ht_load load;
    int *rep;          /* [nchoices] the first choice used alike */
    int *ord, m;       /* the host's ranks, in search order */
    char *alike;       /* [m] ord[i] is alike ord[i - 1] */
    int *cand, *ncand; /* [m][nreps], [m]: choices that fit, best first */
    int *next;         /* [m] the next candidate to try */
    int *chosen;       /* [m] the choice taken at each position */
    double *key;       /* [nchoices] */
    int nreps;
    /* The furthest the search got: ranks placed, then the rank that
     * found no room, and why. */
    int deepest, stuck;
    tg_error why;
} feas;

static const feas *sort_ctx; /* qsort has no context argument */

static int by_key(const void *x, const void *y)
{
    const feas *f = sort_ctx;
    int a = *(const int *)x, b = *(const int *)y;
    if (f->key[a] != f->key[b])
        return f->key[a] < f->key[b] ? -1 : 1;
    return a - b;
}

/* Choices c and d use the same resources in the same way. */
static int used_alike(const ht_problem *p, int c, int d)
{
    const ht_choice *x = &p->choice[c], *y = &p->choice[d];
    int dx = x->mem == HT_MEM_DEVICE, dy = y->mem == HT_MEM_DEVICE;
    return x->proc == y->proc && x->gpu == y->gpu && dx == dy &&
           (dx || x->numa == y->numa) &&
           p->coreset_of[c] == p->coreset_of[d];
}

static int same_choices(const ht_problem *p, int a, int b)
{
    for (int c = 0; c < p->nchoices; c++)
        if (ht_problem_allows(p, a, c) != ht_problem_allows(p, b, c))
            return 0;
    return 1;
}

/* Memory left, after adding rank r with c, in the memory c fills. */
static double room_left(const feas *f, int r, int c)
{
    const ht_problem *p = f->p;
    const ht_choice *ch = &p->choice[c];
    size_t h = (size_t)p->host[r];
    if (ch->mem == HT_MEM_DEVICE) {
        uint64_t cap = p->node->gpus[ch->gpu].memory;
        size_t g = h * (size_t)p->node->ngpus + (size_t)ch->gpu;
        return cap ? (double)cap - (double)f->load.gpu_mem[g] : 1e300;
    }
    size_t m = h * (size_t)p->node->nnuma + (size_t)ch->numa;
    return (double)p->node->numa[ch->numa].capacity -
           (double)f->load.numa_mem[m];
}

/* The candidates of position i, best fit first; where nothing fits and
 * the search got no further before, why. */
static void fill(feas *f, int i)
{
    const ht_problem *p = f->p;
    int r = f->ord[i], k = 0, *out = &f->cand[(size_t)i * (size_t)f->nreps];
    int floor = i && f->alike[i] ? f->chosen[i - 1] : -1, below = 0;
    for (int c = 0; c < p->nchoices; c++) {
        if (f->rep[c] != c || !ht_problem_allows(p, r, c))
            continue;
        if (ht_load_try(&f->load, p, r, c)) {
            if (c >= floor) {
                f->key[c] = room_left(f, r, c);
                out[k++] = c;
            } else /* left to the rank alike before it */
                below = 1;
            ht_load_add(&f->load, p, r, c, -1);
        }
    }
    if (!k && !below && i > f->deepest) {
        f->deepest = i;
        f->stuck = r;
        f->why.text[0] = '\0';
        for (int c = 0; c < p->nchoices; c++) {
            if (f->rep[c] != c || !ht_problem_allows(p, r, c))
                continue;
            ht_load_add(&f->load, p, r, c, 1);
            int bad = ht_load_check(&f->load, p, r, c, &f->why);
            ht_load_add(&f->load, p, r, c, -1);
            if (bad)
                break;
        }
    }
    sort_ctx = f;
    qsort(out, (size_t)k, sizeof *out, by_key);
    f->ncand[i] = k;
    f->next[i] = 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Conditions every placement of host h's ranks meets; TG_EINVAL saying
 * which one fails. */
static int host_bounds(feas *f, int h, tg_error *err)
{
    const ht_problem *p = f->p;
    const ht_node *n = p->node;
    const char *host = p->hostname[h];
    hwloc_bitmap_t usable = hwloc_bitmap_alloc();
    if (!usable)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int gpu_only = 0;
    uint64_t data = 0, room = 0;
    for (int i = 0; i < f->m; i++) {
        int r = f->ord[i], cpu = 0;
        for (int c = 0; c < p->nchoices; c++)
            if (ht_problem_allows(p, r, c)) {
                hwloc_bitmap_or(usable, usable, p->coreset[p->coreset_of[c]]);
                cpu |= p->choice[c].proc == HT_PROC_CPU;
            }
        gpu_only += !cpu;
        uint64_t d = p->in->ranks[r].footprint;
        data = sat_add(data, d);
    }
    int cores = hwloc_bitmap_weight(usable);
    hwloc_bitmap_free(usable);
    long need = (long)f->m * p->par.cores_per_rank;
    if (need > cores)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "no placement fits on %s: its %d ranks need %ld "
                            "cores (%d each), and they may use %d",
                            host, f->m, need, p->par.cores_per_rank, cores);
    if (gpu_only > n->ngpus * p->par.ranks_per_gpu)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "no placement fits on %s: %d of its ranks have "
                            "only a GPU variant, and its %d GPUs take %d "
                            "each",
                            host, gpu_only, n->ngpus, p->par.ranks_per_gpu);
    /* A GPU of unknown size holds no rank's data (problem.c refuses it
     * otherwise): it adds nothing. */
    for (int g = 0; g < n->ngpus; g++)
        room = sat_add(room, n->gpus[g].memory);
    for (int k = 0; k < n->nnuma; k++)
        if (n->numa[k].kind != HT_MEM_GPUNUMA)
            room = sat_add(room, n->numa[k].capacity);
    if (data > room)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "no placement fits on %s: its ranks' data, %llu "
                            "bytes, is more than the %llu bytes of all its "
                            "memory",
                            host, (unsigned long long)data,
                            (unsigned long long)room);
    return 0;
}

static uint64_t choices_hash(const ht_problem *p, int r)
{
    uint64_t h = 1469598103934665603ull;
    for (int c = 0; c < p->nchoices; c++)
        h = (h ^ (uint64_t)ht_problem_allows(p, r, c)) * 1099511628211ull;
    return h;
}

typedef struct ranked {
    uint64_t data, hash;
    int nallowed, rank;
} ranked;

/* Largest data first, then fewest choices; ranks alike end up next to
 * each other (equal hashes). */
static int search_order(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->data != b->data)
        return a->data > b->data ? -1 : 1;
    if (a->nallowed != b->nallowed)
        return a->nallowed < b->nallowed ? -1 : 1;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->rank - b->rank;
}

/* The search over host h's ranks (f->ord, f->m), into choice. */
static int search_host(feas *f, int h, int *choice, tg_error *err)
{
    const ht_problem *p = f->p;
    long backtracks = 0;
    f->deepest = -1;
    f->stuck = -1;
    int i = 0;
    if (f->m)
        fill(f, 0);
    while (i >= 0 && i < f->m) {
        if (f->next[i] < f->ncand[i]) {
            int c = f->cand[(size_t)i * (size_t)f->nreps + (size_t)f->next[i]++];
            ht_load_add(&f->load, p, f->ord[i], c, 1);
            f->chosen[i] = c;
            if (++i < f->m)
                fill(f, i);
            continue;
        }
        /* No room at position i: undo the choice before it. */
        if (--i < 0)
            break;
        ht_load_add(&f->load, p, f->ord[i], f->chosen[i], -1);
        if (++backtracks > HT_FEASIBLE_BACKTRACKS)
            break;
    }
    if (i == f->m) {
        for (int k = 0; k < f->m; k++)
            choice[f->ord[k]] = f->chosen[k];
        return 0;
    }
    char got[1024];
    snprintf(got, sizeof got,
             "the furthest it got placed %d of them, then rank %d found no "
             "room%s%s",
             f->deepest, f->stuck, f->why.text[0] ? ": " : "", f->why.text);
    if (i < 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "no placement fits on %s: a complete search of "
                            "its %d ranks (largest data first, best fit, "
                            "backtracking) found none; %s",
                            p->hostname[h], f->m, got);
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "no placement found that fits on %s: the search of "
                        "its %d ranks (largest data first, best fit, "
                        "backtracking) gave up after %d backtracks; %s",
                        p->hostname[h], f->m, HT_FEASIBLE_BACKTRACKS, got);
}

int ht_feasible(const ht_problem *p, int *choice, tg_error *err)
{
    for (int r = 0; r < p->n; r++) {
        int rc = ht_fits_alone(p, r, err);
        if (rc)
            return rc;
    }
    feas f;
    memset(&f, 0, sizeof f);
    f.p = p;
    size_t n = (size_t)p->n + 1, nc = (size_t)p->nchoices + 1;
    f.rep = malloc(nc * sizeof *f.rep);
    f.key = malloc(nc * sizeof *f.key);
    f.ord = malloc(n * sizeof *f.ord);
    f.alike = malloc(n);
    f.ncand = malloc(n * sizeof *f.ncand);
    f.next = malloc(n * sizeof *f.next);
    f.chosen = malloc(n * sizeof *f.chosen);
    ranked *rk = malloc(n * sizeof *rk);
    int rc = ht_load_init(&f.load, p, err);
    if (!rc && (!f.rep || !f.key || !f.ord || !f.alike || !f.ncand ||
                !f.next || !f.chosen || !rk))
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int c = 0; !rc && c < p->nchoices; c++) {
        f.rep[c] = c;
        for (int d = 0; d < c && f.rep[c] == c; d++)
            if (used_alike(p, c, d))
                f.rep[c] = d;
        f.nreps += f.rep[c] == c;
    }
    if (!rc &&
        !(f.cand = malloc(n * (size_t)(f.nreps + 1) * sizeof *f.cand)))
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int h = 0; !rc && h < p->nhosts; h++) {
        f.m = 0;
        for (int r = 0; r < p->n; r++) {
            if (p->host[r] != h)
                continue;
            int k = 0;
            for (int c = 0; c < p->nchoices; c++)
                k += f.rep[c] == c && ht_problem_allows(p, r, c);
            rk[f.m++] = (ranked){p->in->ranks[r].footprint, choices_hash(p, r),
                                 k, r};
        }
        qsort(rk, (size_t)f.m, sizeof *rk, search_order);
        for (int i = 0; i < f.m; i++) {
            f.ord[i] = rk[i].rank;
            f.alike[i] = i && rk[i].data == rk[i - 1].data &&
                         rk[i].hash == rk[i - 1].hash &&
                         same_choices(p, rk[i].rank, rk[i - 1].rank);
        }
        rc = host_bounds(&f, h, err);
        if (!rc)
            rc = search_host(&f, h, choice, err);
    }
    ht_load_free(&f.load);
    free(f.rep);
    free(f.key);
    free(f.ord);
    free(f.alike);
    free(f.cand);
    free(f.ncand);
    free(f.next);
    free(f.chosen);
    free(rk);
    return rc;
}
