/* build.c: `taskgraph build` in memory (papers/001, 4.1.1): the time of
 * each type, large collectives left out, the task graph of each type by
 * its model, the critical types C*, and their Sum and Weighted-sum. */
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "tg_internal.h"

static const char *const model_names[] = {
    "auto", "ring", "recursive-doubling", "rabenseifner", "clique"};

const char *tg_coll_model_name(tg_coll_model m)
{
    return (unsigned)m < 5 ? model_names[m] : "?";
}

int tg_coll_model_from_name(const char *name)
{
    for (int m = 0; m < 5; m++)
        if (!strcmp(name, model_names[m]))
            return m;
    return -1;
}

const char *tg_build_filter_name(tg_build_filter f)
{
    return f == TG_BUILD_PARTLY ? "partly"
         : f == TG_BUILD_LARGE ? "large"
         : f == TG_BUILD_NO_DATA ? "no bytes" : "no";
}

void tg_build_options_init(tg_build_options *o)
{
    *o = (tg_build_options){0.5, 0.85, 0.05, TG_MODEL_AUTO, 0};
}

/* ---------------------------------------------------------- type graphs */

/* How a type becomes edges. */
typedef enum family {
    F_P2P,            /* the sent rows */
    F_RMA,            /* the rma rows */
    F_NONE,           /* no bytes (barrier) */
    F_RECORDED,       /* its per-peer bytes: every other collective */
    F_ALLTOALL,
    F_ALLGATHER,
    F_ALLREDUCE,
    F_REDUCE_SCATTER, /* blocks from the peers, else bytes / n each */
    F_SCAN
} family;

static family family_of(const char *type)
{
    static const struct {
        const char *name;
        family f;
    } known[] = {
        {"p2p", F_P2P},
        {"rma", F_RMA},
        {"barrier", F_NONE},
        {"alltoall", F_ALLTOALL},
        {"allgather", F_ALLGATHER},
        {"allgatherv", F_ALLGATHER},
        {"allreduce", F_ALLREDUCE},
        {"reduce_scatter", F_REDUCE_SCATTER},
        {"reduce_scatter_block", F_REDUCE_SCATTER},
        {"scan", F_SCAN},
        {"exscan", F_SCAN},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(type, known[i].name))
            return known[i].f;
    return F_RECORDED;
}

/* What modelling the sends of one type needs; every send goes to fn. */
typedef struct ctx {
    const tg_profile *p;
    const tg_build_options *o;
    tg_send_fn fn;
    void *arg;
    int *where;      /* world rank -> index in the current communicator */
    tg_send *sends;  /* room for the largest peer group */
    double *blocks;  /* reduce_scatter blocks, as many */
    tg_error *err;
} ctx;

/* Hand `bytes` in `count` operations from world rank src to world rank
 * dst to the sink; sends to oneself and of 0 bytes are left out. */
static int put(ctx *c, int src, int dst, uint64_t bytes, uint64_t count)
{
    return src == dst || !bytes ? 0
                                : c->fn(c->arg, src, dst, bytes, count, c->err);
}

/* A modelled amount, rounded to whole bytes (a positive amount never to
 * 0). */
static int add(ctx *c, int src, int dst, double bytes, uint64_t count)
{
    if (bytes >= (double)TG_WEIGHT_MAX)
        return tg_error_set(c->err, TG_EOVERFLOW, "", 0,
                            "bytes from rank %d to rank %d exceed 2^63 - 1",
                            src, dst);
    uint64_t w = (uint64_t)(bytes + 0.5);
    return put(c, src, dst, w ? w : 1, count);
}

static int add_rows(ctx *c, int rma)
{
    for (int r = 0; r < c->p->world_size; r++) {
        const tg_prof_rank *rk = &c->p->ranks[r];
        const tg_prof_row *row = rma ? rk->rma : rk->sent;
        for (int i = 0, n = rma ? rk->nrma : rk->nsent; i < n; i++) {
            int rc = put(c, r, row[i].peer, row[i].bytes, row[i].count);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The allreduce-family model of a record, AUTO resolved. */
static tg_coll_model family_model(const ctx *c, family f, const char *type,
                                  int n, const tg_prof_coll *k)
{
    tg_coll_model m = c->o->allreduce_model;
    if (m != TG_MODEL_AUTO)
        return m;
    uint64_t per_call = k->calls ? k->bytes / k->calls : k->bytes;
    if (f == F_ALLREDUCE)
        return tg_ompi_allreduce(n, per_call);
    if (f == F_SCAN) /* Open MPI 4.1 runs coll/basic's linear chain */
        return TG_MODEL_RING;
    if (!strcmp(type, "reduce_scatter"))
        return tg_ompi_reduce_scatter(n, per_call);
    return TG_MODEL_RECURSIVE_DOUBLING; /* reduce_scatter_block: every
                                         * algorithm Open MPI picks halves */
}

/* The sends of one record on communicator cm; *used gets the bit of the
 * allreduce-family model that made them. */
static int model(ctx *c, family f, const char *type, const tg_prof_comm *cm,
                 const tg_prof_coll *k, unsigned *used)
{
    int n = cm->remote_size ? cm->remote_size : cm->size;
    tg_coll_in in = {n, cm->remote_size ? -1 : c->where[k->rank],
                     (double)k->bytes, k->peers, k->npeers};
    if (f == F_RECORDED)
        return tg_model_recorded(&in, c->sends);
    if (f == F_ALLGATHER)
        return tg_model_allgather(&in, c->sends);
    /* Alltoall, and on an intercommunicator the allreduce family (whose
     * algorithms are for one group): evenly over the peer group. */
    if (f == F_ALLTOALL || in.me < 0)
        return tg_model_alltoall(&in, c->sends);
    tg_coll_model m = family_model(c, f, type, n, k);
    if (f == F_REDUCE_SCATTER && m == TG_MODEL_RABENSEIFNER)
        m = TG_MODEL_RECURSIVE_DOUBLING; /* its reduce-scatter half */
    if (f == F_SCAN && m == TG_MODEL_RABENSEIFNER)
        m = TG_MODEL_RECURSIVE_DOUBLING;
    *used |= 1u << m;
    if (f == F_ALLREDUCE)
        return m == TG_MODEL_RING ? tg_model_allreduce_ring(&in, c->sends)
             : m == TG_MODEL_RECURSIVE_DOUBLING
                 ? tg_model_allreduce_recdoubling(&in, c->sends)
             : m == TG_MODEL_RABENSEIFNER
                 ? tg_model_allreduce_rabenseifner(&in, c->sends)
                 : tg_model_allreduce_clique(&in, c->sends);
    if (f == F_SCAN)
        return m == TG_MODEL_RING ? tg_model_scan_chain(&in, c->sends)
             : m == TG_MODEL_RECURSIVE_DOUBLING
                 ? tg_model_scan_recdoubling(&in, c->sends)
                 : tg_model_scan_clique(&in, c->sends);
    for (int j = 0; j < n; j++) /* reduce_scatter: the blocks */
        c->blocks[j] = k->npeers ? 0 : in.bytes / n;
    for (int i = 0; i < k->npeers; i++)
        c->blocks[k->peers[i].index] = (double)k->peers[i].bytes;
    return m == TG_MODEL_RING
               ? tg_model_reduce_scatter_ring(&in, c->blocks, c->sends)
           : m == TG_MODEL_RECURSIVE_DOUBLING
               ? tg_model_reduce_scatter_halving(&in, c->blocks, c->sends)
               : tg_model_reduce_scatter_clique(&in, c->blocks, c->sends);
}

/* The collective records of type t: the kept ones into the builder, the
 * time of those on large communicators into *large_ns; *nkept and
 * *nlarge count the records. */
static int add_collectives(ctx *c, int t, tg_build_type *bt,
                           uint64_t *large_ns, int *nkept, int *nlarge)
{
    const tg_profile *p = c->p;
    family f = family_of(p->types[t]);
    double large = c->o->large * p->world_size;
    for (int ci = 0; ci < p->ncomms; ci++) {
        const tg_prof_comm *cm = &p->comms[ci];
        int is_large = (double)(cm->size + cm->remote_size) >= large;
        for (int i = 0; i < cm->size; i++)
            c->where[cm->members[i]] = i;
        int rc = 0;
        for (int i = 0; i < cm->ncolls && !rc; i++) {
            const tg_prof_coll *k = &cm->colls[i];
            if (k->type != t)
                continue;
            if (is_large) {
                *large_ns += k->ns;
                (*nlarge)++;
                continue;
            }
            (*nkept)++;
            if (!cm->remote_size && c->where[k->rank] < 0) {
                rc = tg_error_set(c->err, TG_EPARSE, "", 0,
                                  "communicator %d: a %s record of rank %d, "
                                  "which is not a member", ci, p->types[t],
                                  k->rank);
                break;
            }
            int ns = f == F_NONE ? 0 : model(c, f, p->types[t], cm, k,
                                             &bt->models);
            for (int s = 0; s < ns && !rc; s++)
                rc = add(c, k->rank, tg_prof_comm_world(cm, c->sends[s].peer),
                         c->sends[s].bytes, k->calls);
        }
        for (int i = 0; i < cm->size; i++)
            c->where[cm->members[i]] = -1;
        if (rc)
            return rc;
    }
    return 0;
}

/* The sends of type t into the sink; what add_collectives counts. */
static int type_sends(ctx *c, int t, tg_build_type *bt, uint64_t *large_ns,
                      int *nkept, int *nlarge)
{
    family f = family_of(c->p->types[t]);
    if (f == F_P2P || f == F_RMA)
        return add_rows(c, f == F_RMA);
    return add_collectives(c, t, bt, large_ns, nkept, nlarge);
}

/* The sink of the type graphs. */
static int to_builder(void *b, int src, int dst, uint64_t bytes,
                      uint64_t count, tg_error *err)
{
    (void)count;
    return tg_builder_add(b, src, dst, bytes, err);
}

/* Type t's graph, filter and kept time into bt. */
static int type_graph(ctx *c, tg_builder *b, int t, tg_build_type *bt)
{
    uint64_t large_ns = 0;
    int nkept = 0, nlarge = 0;
    c->fn = to_builder;
    c->arg = b;
    int rc = type_sends(c, t, bt, &large_ns, &nkept, &nlarge);
    tg_graph *g = NULL;
    if (!rc)
        rc = tg_builder_finish_typed(b, c->p->types[t], &g, c->err);
    if (rc)
        return rc;
    if (nlarge && !nkept)
        bt->filter = TG_BUILD_LARGE;
    else if (!g->nedges)
        bt->filter = TG_BUILD_NO_DATA;
    else
        bt->filter = nlarge ? TG_BUILD_PARTLY : TG_BUILD_KEPT;
    if (bt->filter == TG_BUILD_LARGE || bt->filter == TG_BUILD_NO_DATA) {
        tg_graph_free(g);
        g = NULL;
    } else {
        bt->kept_ns = bt->ns - (large_ns < bt->ns ? large_ns : bt->ns);
    }
    bt->graph = g;
    return 0;
}

/* ------------------------------------------------------------ selection */

/* C*: the heaviest kept types until `coverage` of the kept time is
 * covered, none under min_share of it (papers/001, 4.1.1).  The heaviest
 * type is taken whatever the coverage: a build needs one type, and a
 * coverage of 0 (which nothing falls short of) would otherwise leave C*
 * empty, where any coverage above 0 gives that type. */
static int select_critical(tg_build *b, tg_error *err)
{
    const tg_build_options *o = &b->options;
    b->critical = malloc(((size_t)b->ntypes + 1) * sizeof *b->critical);
    if (!b->critical)
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    double kept = (double)b->kept_ns;
    uint64_t covered = 0;
    for (;;) {
        int best = -1; /* the heaviest kept type not chosen yet */
        for (int i = 0; i < b->ntypes; i++)
            if (b->types[i].graph && !b->types[i].critical &&
                (best < 0 || b->types[i].kept_ns > b->types[best].kept_ns))
                best = i;
        if (best < 0 || !b->types[best].kept_ns ||
            (b->ncritical && (double)covered >= o->coverage * kept) ||
            b->types[best].kept_share < o->min_share)
            break;
        b->types[best].critical = 1;
        b->critical[b->ncritical++] = best;
        covered += b->types[best].kept_ns;
    }
    if (!b->ncritical)
        return tg_error_set(err, TG_EINVAL, "", 0,
                            b->kept_ns ? "no critical type: no type has "
                                         "min-share %g of the time left "
                                         "after filtering"
                                       : "no critical type: no time left "
                                         "after leaving out large "
                                         "collectives and types that move "
                                         "no bytes", o->min_share);
    b->covered = kept ? (double)covered / kept : 0;
    for (int i = 0; i < b->ncritical; i++) {
        tg_build_type *bt = &b->types[b->critical[i]];
        bt->factor = (double)bt->kept_ns / (double)covered;
    }
    return 0;
}

/* Sum and Weighted-sum of C*, each with the cg_t graphs as layers. */
static int combine(tg_build *b, tg_error *err)
{
    int k = b->ncritical, rc = 0;
    const tg_graph **g = calloc((size_t)b->ntypes + 1, sizeof *g);
    double *f = calloc((size_t)b->ntypes + 1, sizeof *f);
    if (!g || !f)
        rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int i = 0; i < k && !rc; i++) {
        g[i] = b->types[b->critical[i]].graph;
        f[i] = b->types[b->critical[i]].factor;
    }
    if (!rc)
        rc = tg_sum(g, k, &b->sum, err);
    if (!rc)
        rc = tg_weighted_sum(g, f, k, &b->wsum, err);
    for (int i = 0; i < k && !rc; i++) {
        tg_graph *l1 = NULL, *l2 = NULL;
        const char *name = b->types[b->critical[i]].name;
        rc = tg_graph_copy(g[i], &l1, err);
        if (!rc)
            rc = tg_graph_add_layer(b->sum, name, l1, err);
        if (!rc)
            rc = tg_graph_copy(g[i], &l2, err);
        if (!rc)
            rc = tg_graph_add_layer(b->wsum, name, l2, err);
    }
    free(g);
    free(f);
    return rc;
}

/* ----------------------------------------------------------------- run */

/* The used types of p with their totals, longest first. */
static int collect_types(const tg_profile *p, tg_build *b, tg_error *err)
{
    tg_prof_type_stats *s;
    int rc = tg_profile_stats(p, &s, err);
    if (rc)
        return rc;
    b->types = calloc((size_t)p->ntypes + 1, sizeof *b->types);
    if (!b->types)
        rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int t = 0; t < p->ntypes && !rc; t++) {
        b->total_ns += s[t].ns;
        if (!s[t].ns && !s[t].calls && !s[t].bytes)
            continue;
        tg_build_type *bt = &b->types[b->ntypes++];
        bt->name = strdup(p->types[t]);
        bt->ns = s[t].ns;
        bt->calls = s[t].calls;
        bt->bytes = s[t].bytes;
        bt->share = s[t].share;
        bt->nsizes = s[t].nsizes;
        bt->sizes = s[t].sizes; /* taken over */
        s[t].sizes = NULL;
        s[t].nsizes = 0;
        if (!bt->name)
            rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    tg_profile_stats_free(s, p->ntypes);
    /* Longest first; an insertion sort, so that equal times keep the
     * profile's order (there are a few dozen types at most). */
    for (int i = 1; i < b->ntypes && !rc; i++)
        for (int j = i; j > 0 && b->types[j - 1].ns < b->types[j].ns; j--) {
            tg_build_type tmp = b->types[j];
            b->types[j] = b->types[j - 1];
            b->types[j - 1] = tmp;
        }
    return rc;
}

/* The buffers of a ctx for p: 0 or TG_ENOMEM. */
static int ctx_init(ctx *c, const tg_profile *p, const tg_build_options *o,
                    tg_error *err)
{
    size_t most = 1; /* the largest peer group */
    for (int k = 0; k < p->ncomms; k++) {
        const tg_prof_comm *cm = &p->comms[k];
        size_t n = (size_t)(cm->remote_size ? cm->remote_size : cm->size);
        most = n > most ? n : most;
    }
    *c = (ctx){p, o, NULL, NULL,
               malloc(((size_t)p->world_size + 1) * sizeof(int)),
               malloc(most * sizeof(tg_send)), malloc(most * sizeof(double)),
               err};
    if (!c->where || !c->sends || !c->blocks)
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int r = 0; r < p->world_size; r++)
        c->where[r] = -1;
    return 0;
}

static void ctx_free(ctx *c)
{
    free(c->where);
    free(c->sends);
    free(c->blocks);
}

/* The type graphs, in the order of b->types. */
static int type_graphs(const tg_profile *p, tg_build *b, tg_error *err)
{
    ctx c;
    tg_builder *bld = tg_builder_new(p->world_size);
    int rc = ctx_init(&c, p, &b->options, err);
    if (!rc && !bld)
        rc = tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    for (int i = 0; i < b->ntypes && !rc; i++) {
        rc = type_graph(&c, bld, tg_profile_type(p, b->types[i].name),
                        &b->types[i]);
        b->kept_ns += b->types[i].kept_ns;
    }
    for (int i = 0; i < b->ntypes && !rc; i++)
        b->types[i].kept_share =
            b->kept_ns ? (double)b->types[i].kept_ns / (double)b->kept_ns : 0;
    tg_builder_free(bld);
    ctx_free(&c);
    return rc;
}

/* Build options in range (or TG_EINVAL). */
static int check_options(const tg_build_options *o, tg_error *err)
{
    if (!(o->large >= 0) || !(o->coverage >= 0 && o->coverage <= 1) ||
        !(o->min_share >= 0 && o->min_share <= 1) ||
        (unsigned)o->allreduce_model > TG_MODEL_CLIQUE)
        return tg_error_set(err, TG_EINVAL, "", 0,
                            "build options out of range: large %g, coverage "
                            "%g, min-share %g", o->large, o->coverage,
                            o->min_share);
    return 0;
}

int tg_build_sends(const tg_profile *p, const tg_build_options *o,
                   tg_send_fn fn, void *arg, tg_error *err)
{
    int rc = check_options(o, err);
    if (rc)
        return rc;
    tg_profile *phase = NULL;
    if (o->phase && (rc = tg_profile_phase(p, o->phase, &phase, err)))
        return rc;
    if (phase)
        p = phase;
    ctx c;
    rc = ctx_init(&c, p, o, err);
    c.fn = fn;
    c.arg = arg;
    for (int t = 0; t < p->ntypes && !rc; t++) {
        tg_build_type bt = {0}; /* what the build would record: unused */
        uint64_t large_ns = 0;
        int nkept = 0, nlarge = 0;
        rc = type_sends(&c, t, &bt, &large_ns, &nkept, &nlarge);
    }
    ctx_free(&c);
    tg_profile_free(phase);
    return rc;
}

/* The grid of the profile's Cartesian communicator on every graph built
 * (the type graphs, Sum and Weighted-sum; not their layers). */
static int set_grids(const tg_profile *p, tg_build *b, tg_error *err)
{
    const tg_prof_cart *c = tg_profile_grid(p);
    if (!c)
        return 0;
    int identity = 1;
    for (int i = 0; i < c->size && identity; i++)
        identity = c->members[i] == i;
    const int *task = identity ? NULL : c->members;
    int rc = 0;
    for (int i = 0; i < b->ntypes && !rc; i++)
        if (b->types[i].graph)
            rc = tg_graph_set_grid(b->types[i].graph, c->ndims, c->dims,
                                   c->periods, task, err);
    if (!rc)
        rc = tg_graph_set_grid(b->sum, c->ndims, c->dims, c->periods, task,
                               err);
    if (!rc)
        rc = tg_graph_set_grid(b->wsum, c->ndims, c->dims, c->periods, task,
                               err);
    return rc;
}

int tg_build_run(const tg_profile *p, const tg_build_options *o,
                 tg_build **out, tg_error *err)
{
    int rc = check_options(o, err);
    if (rc)
        return rc;
    tg_profile *phase = NULL;
    if (o->phase && (rc = tg_profile_phase(p, o->phase, &phase, err)))
        return rc;
    if (phase)
        p = phase;
    tg_build *b = calloc(1, sizeof *b);
    if (!b) {
        tg_profile_free(phase);
        return tg_error_set(err, TG_ENOMEM, "", 0, "out of memory");
    }
    b->world_size = p->world_size;
    b->options = *o;
    rc = collect_types(p, b, err);
    if (!rc)
        rc = type_graphs(p, b, err);
    if (!rc)
        rc = select_critical(b, err);
    if (!rc)
        rc = combine(b, err);
    if (!rc)
        rc = set_grids(p, b, err);
    tg_profile_free(phase);
    if (rc) {
        tg_build_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

void tg_build_free(tg_build *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->ntypes; i++) {
        free(b->types[i].name);
        free(b->types[i].sizes);
        tg_graph_free(b->types[i].graph);
    }
    free(b->types);
    free(b->critical);
    tg_graph_free(b->sum);
    tg_graph_free(b->wsum);
    free(b);
}
