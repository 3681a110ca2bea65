/* config.c: GreedyMap configurations (papers/001, 4.5): their text form
 * and the standard portfolio that parmapper runs. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

static const char *const order_names[] = {"oo",    "bfs", "bfsdfs",
                                          "gpart", "rcm", "gpartrb"};
#define NORDERS ((int)(sizeof order_names / sizeof order_names[0]))
static const char *const centre_names[] = {"last", "nbr"};
static const char *const cost_names[] = {"hopbytes", "maxhopbytes",
                                         "maxlinkload"};

int gm_delta_nodes(int delta, int nodes)
{
    if (delta == GM_DELTA_SQRT) {
        int r = 1;
        while ((int64_t)r * r < nodes)
            r++;
        delta = r;
    }
    return delta == GM_DELTA_ALL || delta > nodes ? nodes : delta;
}

int gm_config_check(const gm_config *c, tg_error *err)
{
    if ((unsigned)c->order > GM_ORDER_FILE)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: unknown order %d", c->order);
    if (c->order == GM_ORDER_FILE && !c->order_file)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: order=file without a file");
    if (c->delta < GM_DELTA_SQRT)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: delta %d (a positive count, "
                            "GM_DELTA_ALL or GM_DELTA_SQRT)",
                            c->delta);
    if ((unsigned)c->cost > GM_COST_MAXLINKLOAD)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: unknown cost %d", c->cost);
    if ((c->pack != 0 && c->pack != 1) || (c->wrap != 0 && c->wrap != 1))
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: pack and wrap are 0 or 1");
    if ((unsigned)c->centre > GM_CENTRE_NBR)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: unknown centre %d", c->centre);
    if (c->refine != 0 && c->refine != 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: refine is 0 or 1");
    if (c->refine && c->cost != GM_COST_HOPBYTES)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: refine=1 needs cost=hopbytes");
    if (c->baseline < 0 || c->baseline > GM_BASE_DRB + 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration: unknown baseline %d",
                            c->baseline);
    return 0;
}

/* ---------------------------------------------------------------- text */

static int name_index(const char *const *names, int n, const char *v,
                      size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && !strncmp(names[i], v, len))
            return i;
    return -1;
}

/* A decimal number of at most `max`, the whole of v[0 .. len). */
static int parse_number(const char *v, size_t len, uint64_t max,
                        uint64_t *out)
{
    uint64_t x = 0;
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        unsigned d = (unsigned)(v[i] - '0');
        if (x > (max - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *out = x;
    return 0;
}

static int bad(tg_error *err, const char *text, const char *fmt,
               const char *item, size_t len, const char *expected)
{
    char what[96];
    snprintf(what, sizeof what, fmt, (int)(len < 64 ? len : 64), item);
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "configuration '%s': %s%s%s", text, what,
                        expected ? " " : "", expected ? expected : "");
}

/* One value, v[0 .. len), of key k (an index into keys[] below). */
static int parse_value(const char *text, int k, const char *v, size_t len,
                       gm_config *c, tg_error *err)
{
    uint64_t x;
    int i;
    switch (k) {
    case 0:
        if (len > 5 && !strncmp(v, "file:", 5)) {
            c->order = GM_ORDER_FILE;
            c->order_file = v + 5;
            return 0;
        }
        i = name_index(order_names, NORDERS, v, len);
        if (i < 0)
            return bad(err, text, "bad order '%.*s'", v, len,
                       "(oo, bfs, bfsdfs, gpart, rcm, gpartrb or "
                       "file:PATH)");
        c->order = (gm_order)i;
        c->order_file = NULL;
        return 0;
    case 1:
        if (len == 3 && !strncmp(v, "all", 3))
            c->delta = GM_DELTA_ALL;
        else if (len == 4 && !strncmp(v, "sqrt", 4))
            c->delta = GM_DELTA_SQRT;
        else if (!parse_number(v, len, INT_MAX, &x) && x > 0)
            c->delta = (int)x;
        else
            return bad(err, text, "bad delta '%.*s'", v, len,
                       "(all, sqrt or a positive integer)");
        return 0;
    case 2:
    case 4:
    case 6:
        if (len != 1 || (v[0] != '0' && v[0] != '1'))
            return bad(err, text, k == 2   ? "bad pack '%.*s'"
                                  : k == 4 ? "bad wrap '%.*s'"
                                           : "bad refine '%.*s'",
                       v, len, "(0 or 1)");
        *(k == 2 ? &c->pack : k == 4 ? &c->wrap : &c->refine) = v[0] - '0';
        return 0;
    case 3:
        i = name_index(cost_names, 3, v, len);
        if (i < 0)
            return bad(err, text, "bad cost '%.*s'", v, len,
                       "(hopbytes, maxhopbytes or maxlinkload)");
        c->cost = (gm_cost)i;
        return 0;
    case 5:
        i = name_index(centre_names, 2, v, len);
        if (i < 0)
            return bad(err, text, "bad centre '%.*s'", v, len,
                       "(last or nbr)");
        c->centre = (gm_centre)i;
        return 0;
    case 8: {
        char name[32];
        gm_baseline b;
        tg_error ignored;
        snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), v);
        if (len > 31 || gm_baseline_parse(name, &b, &ignored))
            return bad(err, text, "bad baseline '%.*s'", v, len,
                       "(block, cyclic, hilbert, rb, random, "
                       "decompose or drb)");
        c->baseline = 1 + (int)b;
        return 0;
    }
    default:
        if (parse_number(v, len, UINT64_MAX, &x))
            return bad(err, text, "bad seed '%.*s'", v, len,
                       "(an integer from 0 to 2^64 - 1)");
        c->seed = x;
        return 0;
    }
}

int gm_config_parse(const char *text, gm_config *out, tg_error *err)
{
    static const char *const keys[] = {"order",  "delta", "pack",
                                       "cost",   "wrap",  "centre",
                                       "refine", "seed",  "baseline"};
    gm_config c = {GM_ORDER_OO, GM_DELTA_ALL, 1, GM_COST_HOPBYTES, 1, 0,
                   NULL, GM_CENTRE_LAST, 0, 0};
    int seen[9] = {0};
    for (const char *p = text; *text; p++) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (len == 0)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "configuration '%s': an empty item (items "
                                "are key=value, separated by commas)",
                                text);
        if (!eq)
            return bad(err, text, "'%.*s' is not key=value", p, len, NULL);
        size_t klen = (size_t)(eq - p);
        int k = name_index(keys, 9, p, klen);
        if (k < 0)
            return bad(err, text, "unknown key '%.*s'", p, klen,
                       "(order, delta, pack, cost, wrap, centre, refine, "
                       "seed, baseline)");
        if (seen[k]++)
            return bad(err, text, "'%.*s' is given twice", p, klen, NULL);
        if (k == 0 && !strncmp(eq + 1, "file:", 5))
            len = strlen(p); /* the path runs to the end */
        int rc = parse_value(text, k, eq + 1, len - klen - 1, &c, err);
        if (rc)
            return rc;
        p += len;
        if (*p == '\0')
            break;
    }
    if (c.refine && c.cost != GM_COST_HOPBYTES)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "configuration '%s': refine=1 needs "
                            "cost=hopbytes",
                            text);
    for (int k = 0; seen[8] && k < 6; k++)
        if (seen[k])
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "configuration '%s': baseline= takes no "
                                "GreedyMap key (only refine= and seed=)",
                                text);
    *out = c;
    return 0;
}

int gm_config_seeded(const gm_config *c)
{
    if (!c->baseline)
        return 1;
    switch ((gm_baseline)(c->baseline - 1)) {
    case GM_BASE_RB:
    case GM_BASE_DRB:
    case GM_BASE_RANDOM:
        return 1;
    default:
        return 0;
    }
}

const char *gm_config_format(const gm_config *c, char *buf, size_t size)
{
    if (c->baseline) {
        snprintf(buf, size, "baseline=%s,%sseed=%llu",
                 gm_baseline_name((gm_baseline)(c->baseline - 1)),
                 c->refine ? "refine=1," : "", (unsigned long long)c->seed);
        return buf;
    }
    char delta[16];
    if (c->delta == GM_DELTA_ALL)
        strcpy(delta, "all");
    else if (c->delta == GM_DELTA_SQRT)
        strcpy(delta, "sqrt");
    else
        snprintf(delta, sizeof delta, "%d", c->delta);
    const char *cost = (unsigned)c->cost <= GM_COST_MAXLINKLOAD
                           ? cost_names[c->cost]
                           : "?";
    const char *centre = (unsigned)c->centre <= GM_CENTRE_NBR
                             ? centre_names[c->centre]
                             : "?";
    char rest[160];
    snprintf(rest, sizeof rest,
             "delta=%s,pack=%d,cost=%s,wrap=%d,centre=%s,refine=%d,"
             "seed=%llu",
             delta, c->pack, cost, c->wrap, centre, c->refine,
             (unsigned long long)c->seed);
    if (c->order == GM_ORDER_FILE)
        snprintf(buf, size, "%s,order=file:%s", rest,
                 c->order_file ? c->order_file : "");
    else
        snprintf(buf, size, "order=%s,%s",
                 (unsigned)c->order < GM_ORDER_FILE ? order_names[c->order]
                                                    : "?",
                 rest);
    return buf;
}

/* ----------------------------------------------------------- portfolio */

/* The small constant Delta of the portfolio. */
#define DELTA_SMALL 4
/* Orders in each group of the portfolio, and groups at most. */
#define ORDERS_PER_GROUP 6
#define MAX_GROUPS 13
/* Members with refine=1. */
#define REFINED 3

typedef struct portfolio {
    gm_config *c;
    int n;
} portfolio;

/* One configuration per order; GPARTRB looks for candidates around its
 * task's neighbours (centre=nbr), the others around n_l. */
static void add_orders(portfolio *p, int delta, int pack, gm_cost cost,
                       int wrap)
{
    static const gm_order orders[] = {GM_ORDER_OO,    GM_ORDER_BFS,
                                      GM_ORDER_BFSDFS, GM_ORDER_RCM,
                                      GM_ORDER_GPART,  GM_ORDER_GPARTRB};
    for (int i = 0; i < ORDERS_PER_GROUP; i++)
        p->c[p->n++] = (gm_config){
            orders[i], delta, pack, cost, wrap, 0, NULL,
            orders[i] == GM_ORDER_GPARTRB ? GM_CENTRE_NBR : GM_CENTRE_LAST,
            0, 0};
}

/* The members with refine=1, all with cost=hopbytes and the smallest
 * Delta of the portfolio (see below for why these). */
static void add_refined(portfolio *p, int delta, int torus)
{
    p->c[p->n++] = (gm_config){GM_ORDER_BFS, delta, 0, GM_COST_HOPBYTES, 1,
                               0, NULL, GM_CENTRE_LAST, 1, 0};
    p->c[p->n++] = (gm_config){GM_ORDER_GPART, delta, 1, GM_COST_HOPBYTES,
                               1, 0, NULL, GM_CENTRE_LAST, 1, 0};
    p->c[p->n++] = (gm_config){GM_ORDER_GPARTRB, delta, 1, GM_COST_HOPBYTES,
                               !torus, 0, NULL, GM_CENTRE_NBR, 1, 0};
}

/* Why these.  Every order is in every group: the paper finds the task
 * list the strongest lever and no list best everywhere (5.4).  Hop-bytes,
 * the paper's main cost, gets every Delta (all; sqrt(N); a small constant
 * that keeps the partial solution close to the current node) with and
 * without packNodeFirst, and the wrap = 0 exploration on tori (with
 * Delta = all, wrap changes nothing: every free node is a candidate).
 * Max hop-bytes gets Delta = sqrt(N) with and without packing; max link
 * load, the costliest to evaluate, with packing only.  Deltas that stand
 * for the same number of nodes on this machine appear once.  Pack = 1
 * comes first: those are the fastest (4.4.1), so a time-limited run
 * finishes them first.  GPARTRB runs with centre=nbr: its parts follow
 * each other by bytes, not by place, and on the Qbox cases of
 * bench/mapper centre=last leaves it 6.6% behind (qbox-sum: best 71,863
 * against 67,438).  Last, three members with the local refinement
 * (refine=1; it costs more than Algorithm 1: 0.2 to 2.3 s more on the
 * 8,192 to 32,768 tasks of bench/mapper's Qbox and RGG cases, up to 4.2 s
 * on the stencil's 32,768 with 32 per node, 2.8 to 7.5 s on milc's
 * 65,536): the three whose refined mapping was the best of the panel on
 * a case, with Delta = 4 there: BFS without packing (qbox-sum: 71,116 to
 * 66,760, below Scotch's 66,867), GPART with packing (rgg-dragonfly: 2,812
 * to 2,661) and GPARTRB with packing and, on tori, wrap = 0 (qbox-wsum:
 * 27,538 to 27,483; rgg-torus: 2,173 to 1,848).  Refining every member
 * would double the portfolio for little: of the refined variants of
 * every hop-bytes member with Delta = 4 or sqrt(N) (bench/mapper
 * --quick), none was better on any case than the best of these three.
 * At most 6 x (3 + 2 + 1 +
 * 1 + 3 + 2 + 1) + 3 = 81 configurations, 57 off tori. */
int gm_configurations(const gm_machine *m, gm_config **out, int *n,
                      tg_error *err)
{
    int sizes[GM_MAX_DIMS], wraps[GM_MAX_DIMS];
    int nd = gm_network_shape(gm_machine_network(m), sizes, wraps);
    int torus = 0;
    for (int k = 0; k < nd; k++)
        torus |= wraps[k];
    int nodes = gm_machine_nodes(m), sq = gm_delta_nodes(GM_DELTA_SQRT, nodes);
    /* The Deltas below all nodes, and the one for the cheaper costs. */
    int near[2], nnear = 0;
    if (DELTA_SMALL < nodes)
        near[nnear++] = DELTA_SMALL;
    if (sq < nodes && sq != DELTA_SMALL)
        near[nnear++] = GM_DELTA_SQRT;
    int mid = sq < nodes ? GM_DELTA_SQRT : GM_DELTA_ALL;
    portfolio p = {
        malloc((ORDERS_PER_GROUP * MAX_GROUPS + REFINED) * sizeof *p.c), 0};
    if (!p.c)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int pack = 1; pack >= 0; pack--) {
        for (int i = 0; i < nnear; i++)
            add_orders(&p, near[i], pack, GM_COST_HOPBYTES, 1);
        add_orders(&p, GM_DELTA_ALL, pack, GM_COST_HOPBYTES, 1);
        for (int i = 0; torus && i < nnear; i++)
            add_orders(&p, near[i], pack, GM_COST_HOPBYTES, 0);
        add_orders(&p, mid, pack, GM_COST_MAXHOPBYTES, 1);
        if (pack)
            add_orders(&p, mid, pack, GM_COST_MAXLINKLOAD, 1);
    }
    add_refined(&p, nnear ? near[0] : GM_DELTA_ALL, torus);
    *out = p.c;
    *n = p.n;
    return 0;
}

/* The reference mappers the default must never lose to (issue 12), and
 * drb: they cost little beside the portfolio (block nothing, decompose
 * about a GreedyMap run, rb one METIS bisection of the graph, drb about
 * 1.3 to 2 times rb) and each wins somewhere (block and decompose on grids in
 * planar order, rb and drb where task ids are not in spatial order, drb
 * on tori and rb, by a hair, on the 27-point stencil on a fat-tree). */
int gm_portfolio(const tg_graph *g, const gm_machine *m, gm_config **out,
                 int *n, tg_error *err)
{
    gm_config *c;
    int nc;
    int rc = gm_configurations(m, &c, &nc, err);
    if (rc)
        return rc;
    gm_config *all = realloc(c, ((size_t)nc + 6) * sizeof *all);
    if (!all) {
        free(c);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    tg_grid grid;
    /* rb and drb refined too, as greedymap map's default refines them:
     * on the random geometric graph of bench/mapper on the torus, drb's
     * mapping refined is 0.957 of drb's alone, and parmapper's first
     * round would otherwise end above the default. */
    static const struct {
        gm_baseline base;
        int refine;
    } extra[] = {{GM_BASE_BLOCK, 0}, {GM_BASE_RB, 0}, {GM_BASE_DRB, 0},
                 {GM_BASE_DECOMPOSE, 0}, {GM_BASE_RB, 1}, {GM_BASE_DRB, 1}};
    for (int i = 0; i < 6; i++) {
        if (extra[i].base == GM_BASE_DECOMPOSE && !gm_grid_of(g, &grid))
            continue;
        gm_config b = {GM_ORDER_OO, GM_DELTA_ALL, 1, GM_COST_HOPBYTES, 1, 0,
                       NULL, GM_CENTRE_LAST, extra[i].refine,
                       1 + (int)extra[i].base};
        all[nc++] = b;
    }
    *out = all;
    *n = nc;
    return 0;
}
