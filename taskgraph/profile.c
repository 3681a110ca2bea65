/* profile.c: the in-memory profile: freeing it, finding a type, the
 * communication matrix of a type and per-type totals. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profile_internal.h"

const char *const tg_mem_kind_names[TG_MEM_KINDS] = {"host", "pinned",
                                                     "device", "managed"};

void *tg_prof_lazy_alloc(size_t n)
{
#ifdef MAP_ANONYMOUS
    if (!n)
        n = 1;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    /* A huge page would clear 2 MiB where a rank takes a few bytes. */
    madvise(p, n, MADV_NOHUGEPAGE);
#endif
    return p;
#else
    return calloc(n ? n : 1, 1);
#endif
}

void tg_prof_lazy_free(void *p, size_t n)
{
    if (!p)
        return;
#ifdef MAP_ANONYMOUS
    munmap(p, n ? n : 1);
#else
    (void)n;
    free(p);
#endif
}

void tg_prof_rank_clear(tg_prof_rank *r)
{
    free(r->host);
    free(r->cpus);
    free(r->proc_kind);
    free(r->cuda_bus_id);
    free(r->ns); /* calls lives in the same block */
    free(r->sent);
    free(r->received);
    free(r->rma);
    for (int i = 0; i < r->nphases; i++)
        tg_prof_phase_clear(&r->phases[i]);
    free(r->phases);
    memset(r, 0, sizeof *r);
}

void tg_prof_phase_clear(tg_prof_phase *ph)
{
    free(ph->ns); /* calls lives in the same block */
    free(ph->sent);
    free(ph->received);
    free(ph->rma);
    memset(ph, 0, sizeof *ph);
}

void tg_prof_cart_clear(tg_prof_cart *c)
{
    free(c->dims); /* periods lives in the same block */
    free(c->members);
    memset(c, 0, sizeof *c);
}

void tg_prof_comm_clear(tg_prof_comm *c)
{
    free(c->members);
    free(c->remote);
    for (int i = 0; i < c->ncolls; i++)
        free(c->colls[i].peers);
    free(c->colls);
    for (int i = 0; i < c->nphase_colls; i++)
        free(c->phase_colls[i].peers);
    free(c->phase_colls);
    memset(c, 0, sizeof *c);
}

void tg_profile_free(tg_profile *p)
{
    if (!p)
        return;
    if (p->view) {
        tg_profile_view_free(p);
        return;
    }
    if (p->listed) { /* only the ranks listed hold anything */
        for (int i = 0; p->ranks && i < p->nranks; i++)
            tg_prof_rank_clear(&p->ranks[p->listed[i]]);
        tg_prof_lazy_free(p->ranks,
                          (size_t)p->world_size * sizeof *p->ranks);
        p->ranks = NULL;
        free(p->listed);
    }
    for (int r = 0; p->ranks && r < p->world_size; r++)
        tg_prof_rank_clear(&p->ranks[r]);
    for (int c = 0; c < p->ncomms; c++)
        tg_prof_comm_clear(&p->comms[c]);
    for (int t = 0; t < p->ntypes; t++)
        free(p->types[t]);
    free(p->types);
    free(p->ranks);
    free(p->comms);
    free(p->phases);
    for (int c = 0; c < p->ncarts; c++)
        tg_prof_cart_clear(&p->carts[c]);
    free(p->carts);
    free(p->mpi_library);
    free(p->job_host);
    free(p);
}

int tg_profile_type(const tg_profile *p, const char *name)
{
    for (int t = 0; t < p->ntypes; t++)
        if (!strcmp(p->types[t], name))
            return t;
    return -1;
}

/* a += b; 1 when it overflows. */
static int add(uint64_t *a, uint64_t b)
{
    return __builtin_add_overflow(*a, b, a);
}

/* ------------------------------------------------------------- matrix */

static int cmp_entry(const void *a, const void *b)
{
    const tg_prof_entry *x = a, *y = b;
    if (x->src != y->src)
        return (x->src > y->src) - (x->src < y->src);
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Sort e and add up the entries of one pair; the count left in *n. */
static int sum_pairs(tg_prof_entry *e, size_t *n, tg_error *err)
{
    qsort(e, *n, sizeof *e, cmp_entry);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        tg_prof_entry *last = k ? &e[k - 1] : NULL;
        if (!last || last->src != e[i].src || last->dst != e[i].dst)
            e[k++] = e[i];
        else if (add(&last->bytes, e[i].bytes) ||
                 add(&last->count, e[i].count))
            return tg_error_set(err, TG_EOVERFLOW, "", 0,
                                "bytes from rank %d to rank %d exceed "
                                "2^64 - 1", e[i].src, e[i].dst);
    }
    *n = k;
    return 0;
}

/* Entries of the rows of every rank: sent/received (which != 2) or rma. */
static size_t row_entries(const tg_profile *p, int which, tg_prof_entry *e)
{
    size_t n = 0;
    for (int r = 0; r < p->world_size; r++) {
        const tg_prof_rank *rk = &p->ranks[r];
        const tg_prof_row *row = which == 0 ? rk->sent
                               : which == 1 ? rk->received : rk->rma;
        int k = which == 0 ? rk->nsent : which == 1 ? rk->nreceived : rk->nrma;
        for (int i = 0; i < k; i++, n++)
            if (e)
                e[n] = which == 1
                           ? (tg_prof_entry){row[i].peer, r, row[i].bytes,
                                             row[i].count}
                           : (tg_prof_entry){r, row[i].peer, row[i].bytes,
                                             row[i].count};
    }
    return n;
}

/* Entries of the collective records of type t. */
static size_t coll_entries(const tg_profile *p, int t, tg_prof_entry *e)
{
    size_t n = 0;
    for (int c = 0; c < p->ncomms; c++) {
        const tg_prof_comm *cm = &p->comms[c];
        for (int i = 0; i < cm->ncolls; i++) {
            const tg_prof_coll *k = &cm->colls[i];
            if (k->type != t)
                continue;
            if (!k->npeers && k->bytes) {
                if (e)
                    e[n] = (tg_prof_entry){k->rank, k->rank, k->bytes,
                                           k->calls};
                n++;
            }
            for (int j = 0; j < k->npeers; j++)
                if (k->peers[j].bytes) {
                    if (e)
                        e[n] = (tg_prof_entry){
                            k->rank, tg_prof_comm_world(cm, k->peers[j].index),
                            k->peers[j].bytes, k->calls};
                    n++;
                }
        }
    }
    return n;
}

int tg_profile_matrix(const tg_profile *p, int type, int received,
                      tg_prof_entry **out, size_t *n, tg_error *err)
{
    if (type < 0 || type >= p->ntypes)
        return tg_error_set(err, TG_EINVAL, "", 0, "no type %d in the profile",
                            type);
    int p2p = !strcmp(p->types[type], "p2p");
    int rma = !strcmp(p->types[type], "rma");
    if (received && !p2p)
        return tg_error_set(err, TG_EINVAL, "", 0,
                            "only p2p has received rows, not %s",
                            p->types[type]);
    int which = received ? 1 : rma ? 2 : 0;
    size_t count = p2p || rma ? row_entries(p, which, NULL)
                              : coll_entries(p, type, NULL);
    tg_prof_entry *e = NULL;
    if (count && !(e = malloc(count * sizeof *e)))
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    if (p2p || rma)
        row_entries(p, which, e);
    else
        coll_entries(p, type, e);
    int rc = count ? sum_pairs(e, &count, err) : 0;
    if (rc) {
        free(e);
        return rc;
    }
    *out = e;
    *n = count;
    return 0;
}

/* -------------------------------------------------------------- stats */

/* A collective type and the size of a communicator it has records on. */
typedef struct type_size {
    int type, size;
} type_size;

static int cmp_type_size(const void *a, const void *b)
{
    const type_size *x = a, *y = b;
    if (x->type != y->type)
        return (x->type > y->type) - (x->type < y->type);
    return (x->size > y->size) - (x->size < y->size);
}

/* The distinct communicator sizes of each collective type into s. */
static int comm_sizes(const tg_profile *p, tg_prof_type_stats *s,
                      tg_error *err)
{
    size_t n = 0, cap = 0;
    for (int c = 0; c < p->ncomms; c++)
        cap += (size_t)p->comms[c].ncolls;
    type_size *ts = malloc((cap ? cap : 1) * sizeof *ts);
    int *last = calloc((size_t)p->ntypes + 1, sizeof *last);
    int rc = 0;
    if (!ts || !last)
        rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int c = 0; c < p->ncomms && !rc; c++) {
        const tg_prof_comm *cm = &p->comms[c];
        for (int i = 0; i < cm->ncolls; i++) {
            int t = cm->colls[i].type;
            if (last[t] != c + 1) /* once per communicator */
                ts[n++] = (type_size){t, cm->size + cm->remote_size};
            last[t] = c + 1;
        }
    }
    if (!rc)
        qsort(ts, n, sizeof *ts, cmp_type_size);
    for (size_t i = 0; i < n && !rc; i++) {
        tg_prof_type_stats *st = &s[ts[i].type];
        if (st->nsizes && st->sizes[st->nsizes - 1] == ts[i].size)
            continue;
        int *sz = realloc(st->sizes, (size_t)(st->nsizes + 1) * sizeof *sz);
        if (!sz)
            rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
        else {
            st->sizes = sz;
            sz[st->nsizes++] = ts[i].size;
        }
    }
    free(ts);
    free(last);
    return rc;
}

/* Bytes of rows into *sum; 1 on overflow. */
static int add_rows(uint64_t *sum, const tg_prof_row *row, int n)
{
    int over = 0;
    for (int i = 0; i < n; i++)
        over |= add(sum, row[i].bytes);
    return over;
}

int tg_profile_stats(const tg_profile *p, tg_prof_type_stats **out,
                     tg_error *err)
{
    tg_prof_type_stats *s = calloc((size_t)p->ntypes + 1, sizeof *s);
    if (!s)
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    int p2p = tg_profile_type(p, "p2p"), rma = tg_profile_type(p, "rma");
    uint64_t total = 0;
    int over = 0;
    for (int r = 0; r < p->world_size; r++) {
        const tg_prof_rank *rk = &p->ranks[r];
        if (!rk->present)
            continue;
        for (int t = 0; t < p->ntypes; t++) {
            over |= add(&s[t].ns, rk->ns[t]);
            over |= add(&s[t].calls, rk->calls[t]);
            over |= add(&total, rk->ns[t]);
        }
        if (p2p >= 0)
            over |= add_rows(&s[p2p].bytes, rk->sent, rk->nsent);
        if (rma >= 0)
            over |= add_rows(&s[rma].bytes, rk->rma, rk->nrma);
    }
    for (int c = 0; c < p->ncomms; c++)
        for (int i = 0; i < p->comms[c].ncolls; i++)
            over |= add(&s[p->comms[c].colls[i].type].bytes,
                        p->comms[c].colls[i].bytes);
    for (int t = 0; t < p->ntypes; t++)
        s[t].share = total ? (double)s[t].ns / (double)total : 0;
    int rc = over ? tg_error_set(err, TG_EOVERFLOW, "", 0,
                                 "a total exceeds 2^64 - 1")
                  : comm_sizes(p, s, err);
    if (rc) {
        tg_profile_stats_free(s, p->ntypes);
        return rc;
    }
    *out = s;
    return 0;
}

void tg_profile_stats_free(tg_prof_type_stats *s, int ntypes)
{
    for (int t = 0; s && t < ntypes; t++)
        free(s[t].sizes);
    free(s);
}
