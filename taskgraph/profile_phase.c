/* profile_phase.c: a profile's phases (MPI_Pcontrol levels) and
 * Cartesian grids: one phase as a profile of its own, for `taskgraph
 * build --phase`, the phase-1 records of ranks that never changed phase,
 * and the grid that covers the whole job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

/* What tg_profile_phase makes: the profile first, so that a tg_profile *
 * is a view *, and the zeros of ranks without the phase. */
typedef struct view {
    tg_profile p;
    uint64_t *zeros; /* 2 x ntypes */
} view;

void tg_profile_view_free(tg_profile *p)
{
    view *v = (view *)p;
    for (int c = 0; c < p->ncomms; c++)
        free(p->comms[c].colls); /* the records' peers are borrowed */
    free(p->comms);
    free(p->ranks);
    free(v->zeros);
    free(v);
}

static const tg_prof_phase *phase_of(const tg_prof_rank *rk, int phase)
{
    for (int i = 0; i < rk->nphases; i++)
        if (rk->phases[i].phase == phase)
            return &rk->phases[i];
    return NULL;
}

int tg_profile_phase(const tg_profile *p, int phase, tg_profile **out,
                     tg_error *err)
{
    int known = 0;
    for (int i = 0; i < p->nphases && !known; i++)
        known = p->phases[i] == phase;
    if (!known) {
        char list[256] = "";
        size_t len = 0;
        for (int i = 0; i < p->nphases && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d",
                                    i ? ", " : "", p->phases[i]);
        return p->nphases
                   ? tg_error_set(err, TG_EINVAL, "", 0,
                                  "no phase %d in the profile (its phases: "
                                  "%s)",
                                  phase, list)
                   : tg_error_set(err, TG_EINVAL, "", 0,
                                  "no phase %d: the profile has no phases "
                                  "(the application never called "
                                  "MPI_Pcontrol with a level of 3 or more)",
                                  phase);
    }
    view *v = calloc(1, sizeof *v);
    if (!v)
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    tg_profile *q = &v->p;
    *q = *p;
    q->view = 1;
    q->nphases = 0;
    q->phases = NULL;
    q->ranks = calloc((size_t)p->world_size, sizeof *q->ranks);
    q->comms = calloc((size_t)p->ncomms + 1, sizeof *q->comms);
    v->zeros = calloc(2 * (size_t)p->ntypes + 1, sizeof *v->zeros);
    int rc = q->ranks && q->comms && v->zeros ? 0 : TG_ENOMEM;
    for (int r = 0; r < p->world_size && !rc; r++) {
        const tg_prof_rank *rk = &p->ranks[r];
        if (!rk->present)
            continue;
        tg_prof_rank *to = &q->ranks[r];
        *to = *rk;
        to->nphases = 0;
        to->phases = NULL;
        const tg_prof_phase *ph = phase_of(rk, phase);
        to->ns = ph ? ph->ns : v->zeros;
        to->calls = ph ? ph->calls : v->zeros + p->ntypes;
        to->nsent = ph ? ph->nsent : 0;
        to->sent = ph ? ph->sent : NULL;
        to->nreceived = ph ? ph->nreceived : 0;
        to->received = ph ? ph->received : NULL;
        to->nrma = ph ? ph->nrma : 0;
        to->rma = ph ? ph->rma : NULL;
        to->mpi_ns = 0;
        for (int t = 0; t < p->ntypes; t++)
            to->mpi_ns += to->ns[t];
    }
    for (int c = 0; c < p->ncomms && !rc; c++) {
        const tg_prof_comm *from = &p->comms[c];
        tg_prof_comm *to = &q->comms[c];
        *to = *from;
        to->nphase_colls = 0;
        to->phase_colls = NULL;
        to->ncolls = 0;
        to->colls = malloc(((size_t)from->nphase_colls + 1) *
                           sizeof *to->colls);
        if (!to->colls) {
            rc = TG_ENOMEM;
            break;
        }
        for (int i = 0; i < from->nphase_colls; i++)
            if (from->phase_colls[i].phase == phase) {
                to->colls[to->ncolls] = from->phase_colls[i];
                to->colls[to->ncolls++].phase = 0;
            }
    }
    if (rc) {
        tg_profile_view_free(q);
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    *out = q;
    return 0;
}

static int dup_rows(tg_prof_row **to, const tg_prof_row *from, int n)
{
    *to = malloc(((size_t)n + 1) * sizeof **to);
    if (!*to)
        return TG_ENOMEM;
    if (n) /* from may be NULL when there is nothing */
        memcpy(*to, from, (size_t)n * sizeof **to);
    return 0;
}

/* A rank with no phases in a profile with phases: one phase 1 with
 * everything it recorded. */
static int fill_rank(const tg_profile *p, tg_prof_rank *rk)
{
    tg_prof_phase *ph = calloc(1, sizeof *ph);
    if (!ph)
        return TG_ENOMEM;
    rk->phases = ph;
    rk->nphases = 1;
    ph->phase = 1;
    ph->ns = malloc((2 * (size_t)p->ntypes + 1) * sizeof *ph->ns);
    if (!ph->ns)
        return TG_ENOMEM;
    ph->calls = ph->ns + p->ntypes;
    if (p->ntypes) {
        memcpy(ph->ns, rk->ns, (size_t)p->ntypes * sizeof *ph->ns);
        memcpy(ph->calls, rk->calls, (size_t)p->ntypes * sizeof *ph->calls);
    }
    ph->nsent = rk->nsent;
    ph->nreceived = rk->nreceived;
    ph->nrma = rk->nrma;
    if (dup_rows(&ph->sent, rk->sent, rk->nsent) ||
        dup_rows(&ph->received, rk->received, rk->nreceived) ||
        dup_rows(&ph->rma, rk->rma, rk->nrma))
        return TG_ENOMEM;
    return 0;
}

static int cmp_by_rank(const void *a, const void *b)
{
    const tg_prof_coll *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    if (x->phase != y->phase)
        return (x->phase > y->phase) - (x->phase < y->phase);
    return (x->type > y->type) - (x->type < y->type);
}

/* The phase-1 copies of c's records by ranks marked in `filled`, and the
 * records by rank, then phase, then type, as libcommprof writes them. */
static int fill_comm(tg_prof_comm *c, const char *filled)
{
    int add = 0;
    for (int i = 0; i < c->ncolls; i++)
        add += filled[c->colls[i].rank];
    if (!add)
        return 0;
    tg_prof_coll *k = realloc(c->phase_colls, ((size_t)c->nphase_colls +
                                               (size_t)add) * sizeof *k);
    if (!k)
        return TG_ENOMEM;
    c->phase_colls = k;
    for (int i = 0; i < c->ncolls; i++) {
        const tg_prof_coll *from = &c->colls[i];
        if (!filled[from->rank])
            continue;
        tg_prof_coll *to = &c->phase_colls[c->nphase_colls];
        *to = *from;
        to->phase = 1;
        to->peers = NULL;
        if (from->npeers) {
            to->peers = malloc((size_t)from->npeers * sizeof *to->peers);
            if (!to->peers)
                return TG_ENOMEM;
            memcpy(to->peers, from->peers,
                   (size_t)from->npeers * sizeof *to->peers);
        }
        c->nphase_colls++;
    }
    if (c->nphase_colls)
        qsort(c->phase_colls, (size_t)c->nphase_colls,
              sizeof *c->phase_colls, cmp_by_rank);
    return 0;
}

int tg_profile_phases_fill(tg_profile *p)
{
    int has1 = 0;
    for (int i = 0; i < p->nphases; i++)
        has1 |= p->phases[i] == 1;
    if (!has1)
        return 0;
    /* A partial file's profile: only its listed ranks (p->listed). */
    size_t size = (size_t)p->world_size + 1;
    char *filled = p->listed ? tg_prof_lazy_alloc(size) : calloc(size, 1);
    int rc = filled ? 0 : TG_ENOMEM, any = 0;
    int n = p->listed ? p->nranks : p->world_size;
    for (int i = 0; i < n && !rc; i++) {
        int r = p->listed ? p->listed[i] : i;
        if (p->ranks[r].present && !p->ranks[r].nphases) {
            filled[r] = 1;
            any = 1;
            rc = fill_rank(p, &p->ranks[r]);
        }
    }
    for (int c = 0; c < p->ncomms && !rc && any; c++)
        rc = fill_comm(&p->comms[c], filled);
    if (p->listed)
        tg_prof_lazy_free(filled, size);
    else
        free(filled);
    return rc;
}

const tg_prof_cart *tg_profile_grid(const tg_profile *p)
{
    for (int i = 0; i < p->ncarts; i++)
        if (p->carts[i].size == p->world_size && p->carts[i].ndims >= 1 &&
            p->carts[i].ndims <= TG_GRID_MAXDIMS)
            return &p->carts[i];
    return NULL;
}
