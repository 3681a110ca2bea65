/* state.c: the current placement of a search, kept costed: compute and
 * communication time per rank, the load on every resource, the objective;
 * moves applied and undone with only the touched ranks recomputed. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

static double comp_of(const ht_state *s, int r, int c)
{
    return s->p->comp[(size_t)r * (size_t)s->p->nchoices + (size_t)c];
}

/* The slowest rank is kept in a max tree over the ranks' times (leaves
 * at tree[leaves + r]), so that a move costs O(touched ranks x log n)
 * rather than a pass over all ranks. */
static void set_time(ht_state *s, int r)
{
    size_t i = (size_t)s->leaves + (size_t)r;
    s->tree[i] = s->comp[r] + s->comm[r];
    for (i >>= 1; i; i >>= 1)
        s->tree[i] = fmax(s->tree[2 * i], s->tree[2 * i + 1]);
}

/* Rank r's tree of arc times (a rank with HT_COMM_TREE_MIN peers or
 * more) built afresh; its root, the communication time. */
static double tree_build(ht_state *s, int r)
{
    const ht_problem *p = s->p;
    int64_t deg = p->xadj[r + 1] - p->xadj[r], leaves = ht_comm_leaves(deg);
    double *t = &s->ctree[s->ctstart[r]];
    for (int64_t i = 0; i < leaves; i++)
        t[leaves + i] = i < deg ? ht_arc_time(p, s->choice, r, p->xadj[r] + i)
                                : 0;
    for (int64_t i = leaves - 1; i >= 1; i--)
        t[i] = t[2 * i] + t[2 * i + 1];
    return t[1];
}

/* Leaf i of rank r's tree set to v, its ancestors recomputed. */
static void tree_set(ht_state *s, int r, int64_t i, double v)
{
    const ht_problem *p = s->p;
    int64_t leaves = ht_comm_leaves(p->xadj[r + 1] - p->xadj[r]);
    double *t = &s->ctree[s->ctstart[r]];
    int64_t j = leaves + i;
    t[j] = v;
    for (j >>= 1; j >= 1; j >>= 1)
        t[j] = t[2 * j] + t[2 * j + 1];
}

/* Communication time of rank r computed afresh (its tree rebuilt). */
static double comm_of(ht_state *s, int r)
{
    return s->ctstart[r] >= 0 ? tree_build(s, r)
                              : ht_comm_time(s->p, s->choice, r);
}

/* Recompute the compute time of the moved ranks and the communication
 * time of them and their peers (so the figures equal ht_evaluate's for
 * the same placement): a rank with few peers sums them all again; one
 * with many (a tree, HT_COMM_TREE_MIN) changes only the leaves of its
 * peers that moved, or rebuilds the tree when it moved itself.  The
 * touched ranks and their times before go to aff[] and was[]. */
static void refresh(ht_state *s, int k)
{
    const ht_problem *p = s->p;
    s->stamp++;
    if (s->mstamp == INT_MAX) {
        memset(s->moved, 0, (size_t)p->n * sizeof *s->moved);
        s->mstamp = 0;
    }
    s->mstamp++;
    s->naff = 0;
    for (int i = 0; i < k; i++)
        s->moved[s->moves[i].rank] = s->mstamp;
    for (int i = 0; i < k; i++) {
        int r = s->moves[i].rank;
        for (int64_t e = p->xadj[r] - 1; e < p->xadj[r + 1]; e++) {
            int q = e < p->xadj[r] ? r : p->adj[e];
            if (e >= p->xadj[r] && s->ctstart[q] >= 0 &&
                s->moved[q] != s->mstamp)
                tree_set(s, q, s->rev[e] - p->xadj[q],
                         ht_arc_time(p, s->choice, q, s->rev[e]));
            if (s->mark[q] == s->stamp)
                continue;
            s->mark[q] = s->stamp;
            s->aff[s->naff] = q;
            s->was[s->naff++] = s->tree[(size_t)s->leaves + (size_t)q];
        }
    }
    for (int i = 0; i < k; i++) {
        int r = s->moves[i].rank;
        s->comp[r] = comp_of(s, r, s->choice[r]);
    }
    for (int i = 0; i < s->naff; i++) {
        int q = s->aff[i];
        if (s->ctstart[q] < 0)
            s->comm[q] = ht_comm_time(p, s->choice, q);
        else if (s->moved[q] == s->mstamp)
            s->comm[q] = tree_build(s, q);
        else
            s->comm[q] = s->ctree[s->ctstart[q] + 1];
        set_time(s, q);
    }
}

/* The objective, exactly as ht_evaluate sums it (rank order). */
static ht_cost total(const ht_state *s)
{
    ht_cost c = {s->tree[1], 0};
    for (int r = 0; r < s->p->n; r++)
        c.sum += s->comp[r] + s->comm[r];
    return c;
}

/* Whether candidate a comes before b when picking like `like`: like
 * itself first, then GPUs by the ranks on them (stable otherwise). */
static int pick_before(const ht_problem *p, const int *gpu_ranks, int like,
                       int a, int b)
{
    if (a == like || b == like)
        return a == like;
    const ht_choice *x = &p->choice[a], *y = &p->choice[b];
    return x->proc == HT_PROC_GPU && gpu_ranks[x->gpu] < gpu_ranks[y->gpu];
}

/* Add rank m->rank with a choice of the processor and memory kind of
 * m->like: like itself when it fits, else the least loaded GPU, or the
 * first NUMA node of that kind, that holds it.  1 when one fits. */
static int pick_like(ht_state *s, ht_move *m)
{
    const ht_problem *p = s->p;
    const ht_choice *want = &p->choice[m->like];
    const int *gr =
        &s->load.gpu_ranks[(size_t)p->host[m->rank] * (size_t)p->node->ngpus];
    int k = 0;
    for (int c = 0; c < p->nchoices; c++) {
        const ht_choice *ch = &p->choice[c];
        if (ch->proc != want->proc || ch->mem != want->mem ||
            !ht_problem_allows(p, m->rank, c))
            continue;
        int i = k++;
        while (i > 0 && pick_before(p, gr, m->like, c, s->cand[i - 1])) {
            s->cand[i] = s->cand[i - 1];
            i--;
        }
        s->cand[i] = c;
    }
    for (int i = 0; i < k; i++)
        if (ht_load_try(&s->load, p, m->rank, s->cand[i])) {
            m->now = s->cand[i];
            return 1;
        }
    return 0;
}

int ht_state_apply(ht_state *s, int k)
{
    const ht_problem *p = s->p;
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, s->moves[i].rank, s->moves[i].old, -1);
    for (int i = 0; i < k; i++) {
        ht_move *m = &s->moves[i];
        int ok;
        if (m->target >= 0) {
            ok = ht_problem_allows(p, m->rank, m->target) &&
                 ht_load_try(&s->load, p, m->rank, m->target);
            m->now = m->target;
        } else {
            m->now = -1;
            ok = pick_like(s, m);
        }
        if (!ok) {
            for (int j = 0; j < i; j++)
                ht_load_add(&s->load, p, s->moves[j].rank, s->moves[j].now, -1);
            for (int j = 0; j < k; j++)
                ht_load_add(&s->load, p, s->moves[j].rank, s->moves[j].old, 1);
            return 0;
        }
    }
    for (int i = 0; i < k; i++)
        s->choice[s->moves[i].rank] = s->moves[i].now;
    return 1;
}

int ht_state_test(ht_state *s, int k)
{
    if (!ht_state_apply(s, k))
        return 0;
    refresh(s, k);
    s->evals++;
    /* The sum moves by the touched ranks' change; exact only once kept. */
    ht_cost c = {s->tree[1], s->cost.sum};
    for (int i = 0; i < s->naff; i++)
        c.sum += s->tree[(size_t)s->leaves + (size_t)s->aff[i]] - s->was[i];
    if (ht_cost_compare(&c, &s->cost) < 0) {
        s->cost = total(s);
        return 1;
    }
    const ht_problem *p = s->p;
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, s->moves[i].rank, s->moves[i].now, -1);
    for (int i = 0; i < k; i++) {
        ht_load_add(&s->load, p, s->moves[i].rank, s->moves[i].old, 1);
        s->choice[s->moves[i].rank] = s->moves[i].old;
    }
    refresh(s, k);
    return 0;
}

void ht_state_reset(ht_state *s, const int *choice)
{
    const ht_problem *p = s->p;
    for (int r = 0; r < p->n; r++)
        ht_load_add(&s->load, p, r, s->choice[r], -1);
    if (choice != s->choice)
        memcpy(s->choice, choice, (size_t)p->n * sizeof *choice);
    for (int r = 0; r < p->n; r++) {
        ht_load_add(&s->load, p, r, s->choice[r], 1);
        s->comp[r] = comp_of(s, r, s->choice[r]);
        s->comm[r] = comm_of(s, r);
        set_time(s, r);
    }
    s->cost = total(s);
}

void ht_state_free(ht_state *s)
{
    free(s->comp);
    free(s->comm);
    free(s->order);
    free(s->pos);
    free(s->hstart);
    free(s->hrank);
    free(s->uf);
    free(s->mstart);
    free(s->member);
    free(s->mark);
    free(s->moves);
    free(s->cand);
    free(s->edge_a);
    free(s->edge_b);
    free(s->tree);
    free(s->aff);
    free(s->was);
    free(s->moved);
    free(s->rev);
    free(s->ctstart);
    free(s->ctree);
    ht_load_free(&s->load);
}

/* Sort records: a key, then ids (qsort has no context argument). */
typedef struct keyed {
    double key;
    int a, b;
} keyed;

static int by_key(const void *x, const void *y)
{
    const keyed *u = x, *v = y;
    if (u->key != v->key)
        return u->key < v->key ? -1 : 1;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    return u->b < v->b ? -1 : u->b > v->b;
}

/* The constraint graph: pairs of one host that communicate, lightest
 * first; and the ranks by compute time, longest first. */
static int build_orders(ht_state *s)
{
    const ht_problem *p = s->p;
    size_t arcs = (size_t)p->xadj[p->n];
    keyed *k = malloc((arcs + (size_t)p->n + 1) * sizeof *k);
    s->edge_a = malloc((arcs + 1) * sizeof *s->edge_a);
    s->edge_b = malloc((arcs + 1) * sizeof *s->edge_b);
    if (!k || !s->edge_a || !s->edge_b) {
        free(k);
        return -1;
    }
    int m = 0;
    for (int r = 0; r < p->n; r++)
        for (int64_t e = p->xadj[r]; e < p->xadj[r + 1]; e++)
            if (p->adj[e] > r && p->host[p->adj[e]] == p->host[r] &&
                p->bytes[e] > 0)
                k[m++] = (keyed){p->bytes[e], r, p->adj[e]};
    qsort(k, (size_t)m, sizeof *k, by_key);
    for (int i = 0; i < m; i++) {
        s->edge_a[i] = k[i].a;
        s->edge_b[i] = k[i].b;
    }
    s->nedges = m;
    for (int r = 0; r < p->n; r++)
        k[r] = (keyed){-s->comp[r], r, 0};
    qsort(k, (size_t)p->n, sizeof *k, by_key);
    for (int i = 0; i < p->n; i++) {
        s->order[i] = k[i].a;
        s->pos[k[i].a] = i;
    }
    free(k);
    return 0;
}

/* The arcs back, and room for the trees of the ranks with many peers. */
static int comm_trees(ht_state *s)
{
    const ht_problem *p = s->p;
    int64_t size = 0;
    for (int r = 0; r < p->n; r++) {
        for (int64_t e = p->xadj[r]; e < p->xadj[r + 1]; e++) {
            int q = p->adj[e];
            int64_t lo = p->xadj[q], hi = p->xadj[q + 1];
            while (lo < hi) { /* each rank's peers are in increasing order */
                int64_t mid = lo + (hi - lo) / 2;
                if (p->adj[mid] < r)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            s->rev[e] = lo;
        }
        int64_t deg = p->xadj[r + 1] - p->xadj[r];
        s->ctstart[r] = deg >= HT_COMM_TREE_MIN ? size : -1;
        if (deg >= HT_COMM_TREE_MIN)
            size += 2 * ht_comm_leaves(deg);
    }
    s->ctree = malloc(((size_t)size + 1) * sizeof *s->ctree);
    return s->ctree ? 0 : -1;
}

int ht_state_init(ht_state *s, const ht_problem *p, int *choice, tg_error *err)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->choice = choice;
    size_t n = (size_t)p->n;
    s->comp = malloc(n * sizeof *s->comp);
    s->comm = malloc(n * sizeof *s->comm);
    s->order = malloc(n * sizeof *s->order);
    s->pos = malloc(n * sizeof *s->pos);
    s->hstart = calloc((size_t)p->nhosts + 2, sizeof *s->hstart);
    s->hrank = malloc(n * sizeof *s->hrank);
    s->uf = malloc(n * sizeof *s->uf);
    s->mstart = malloc((n + 1) * sizeof *s->mstart);
    s->member = malloc(n * sizeof *s->member);
    s->mark = calloc(n, sizeof *s->mark);
    s->moves = malloc(n * sizeof *s->moves);
    s->cand = malloc(((size_t)p->nchoices + 1) * sizeof *s->cand);
    for (s->leaves = 1; s->leaves < p->n; s->leaves *= 2)
        ;
    s->tree = calloc(2 * (size_t)s->leaves, sizeof *s->tree);
    s->aff = malloc(n * sizeof *s->aff);
    s->was = malloc(n * sizeof *s->was);
    s->moved = calloc(n + 1, sizeof *s->moved);
    s->rev = malloc(((size_t)p->xadj[p->n] + 1) * sizeof *s->rev);
    s->ctstart = malloc((n + 1) * sizeof *s->ctstart);
    int rc = ht_load_init(&s->load, p, err);
    if (rc)
        return rc;
    if (!s->comp || !s->comm || !s->order || !s->pos || !s->hstart ||
        !s->hrank || !s->uf || !s->mstart || !s->member || !s->mark ||
        !s->moves || !s->cand || !s->tree || !s->aff || !s->was ||
        !s->moved || !s->rev || !s->ctstart)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (comm_trees(s))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int r = 0; r < p->n; r++) {
        ht_load_add(&s->load, p, r, choice[r], 1);
        s->comp[r] = comp_of(s, r, choice[r]);
        s->comm[r] = comm_of(s, r);
        set_time(s, r);
        s->hstart[p->host[r] + 2]++;
    }
    if (build_orders(s))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int h = 0; h < p->nhosts; h++)
        s->hstart[h + 2] += s->hstart[h + 1];
    for (int r = 0; r < p->n; r++)
        s->hrank[s->hstart[p->host[r] + 1]++] = r;
    s->cost = total(s);
    return 0;
}
