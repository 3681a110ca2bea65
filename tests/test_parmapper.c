/* test_parmapper.c: what parmapper is built on, without MPI: the Pareto
 * front and the choice of a point (parmapper/pareto.c) on hand-written
 * points with the expected choice for several alphas and criteria, and
 * gm_greedymap_run (the task list given, a way to stop) against
 * gm_greedymap. */
#include <stdlib.h>
#include <string.h>

#include "greedymap.h"
#include "pareto.h"
#include "testutil.h"

static pm_point pt(uint64_t total, uint64_t max, uint64_t load, int config,
                   uint64_t seed, int round)
{
    pm_point p = {total, max, load, config, round, seed, 0, config, 0};
    return p;
}

/* A..D stay on the front; E equals A with a larger key, F is dominated by
 * C, G equals B with a larger seed. */
static pm_point pts[7];

static void make_points(void)
{
    pts[0] = pt(100, 50, 7, 3, 0, 0); /* A */
    pts[1] = pt(104, 40, 5, 1, 0, 0); /* B */
    pts[2] = pt(110, 30, 5, 2, 0, 0); /* C */
    pts[3] = pt(130, 10, 9, 0, 0, 0); /* D */
    pts[4] = pt(100, 50, 1, 5, 0, 0); /* E */
    pts[5] = pt(120, 35, 1, 4, 0, 0); /* F */
    pts[6] = pt(104, 40, 1, 1, 7, 1); /* G */
}

static void assert_front(const pm_front *f)
{
    static const int want[] = {3, 1, 2, 0}; /* A, B, C, D by config */
    ck_assert_int_eq(f->n, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(f->p[i].config, want[i]);
    for (int i = 1; i < 4; i++)
        ck_assert(f->p[i - 1].total < f->p[i].total);
}

START_TEST(front_in_any_order)
{
    make_points();
    static const int orders[3][7] = {{0, 1, 2, 3, 4, 5, 6},
                                     {6, 5, 4, 3, 2, 1, 0},
                                     {5, 3, 6, 0, 4, 2, 1}};
    for (int o = 0; o < 3; o++) {
        pm_front f;
        pm_front_init(&f);
        for (int i = 0; i < 7; i++)
            ck_assert_int_ge(pm_front_add(&f, &pts[orders[o][i]]), 0);
        assert_front(&f);
        pm_front_free(&f);
    }
}
END_TEST

/* Equal hop-bytes: the smaller J (bytes x level distance inside nodes)
 * dominates whatever the keys, and pm_select takes it. */
START_TEST(levels_break_ties)
{
    pm_point a = pt(100, 50, 0, 0, 0, 0), b = pt(100, 50, 0, 1, 0, 0);
    a.cost = 1602;
    b.cost = 408;
    ck_assert(pm_dominates(&b, &a));
    ck_assert(!pm_dominates(&a, &b));
    pm_front f;
    pm_front_init(&f);
    ck_assert_int_eq(pm_front_add(&f, &a), 1);
    ck_assert_int_eq(pm_front_add(&f, &b), 1);
    ck_assert_int_eq(f.n, 1);
    ck_assert_int_eq(f.p[0].config, 1);
    pm_front_free(&f);
    pm_point both[2] = {a, b};
    for (int c = PM_SELECT_ALPHA; c <= PM_SELECT_MAXLOAD; c++)
        ck_assert_int_eq(pm_select(both, 2, (pm_criterion)c, 1.05), 1);
    /* A better average still wins over a smaller J. */
    pm_point c = pt(99, 50, 0, 2, 0, 0);
    c.cost = 5000;
    ck_assert(pm_dominates(&c, &b));
}
END_TEST

START_TEST(added_and_removed)
{
    make_points();
    pm_front f;
    pm_front_init(&f);
    ck_assert_int_eq(pm_front_add(&f, &pts[6]), 1); /* G */
    ck_assert_int_eq(pm_front_add(&f, &pts[5]), 1); /* F */
    ck_assert_int_eq(f.nremoved, 0);
    /* B pushes out G (same metrics, smaller seed) and nothing else. */
    ck_assert_int_eq(pm_front_add(&f, &pts[1]), 1);
    ck_assert_int_eq(f.nremoved, 1);
    ck_assert_uint_eq(f.removed[0].seed, 7);
    /* C pushes out F. */
    ck_assert_int_eq(pm_front_add(&f, &pts[2]), 1);
    ck_assert_int_eq(f.nremoved, 1);
    ck_assert_int_eq(f.removed[0].config, 4);
    /* G again: dominated by B. */
    ck_assert_int_eq(pm_front_add(&f, &pts[6]), 0);
    ck_assert_int_eq(f.nremoved, 0);
    /* A point better in both pushes out everything. */
    pm_point best = pt(90, 5, 0, 9, 0, 0);
    ck_assert_int_eq(pm_front_add(&f, &best), 1);
    ck_assert_int_eq(f.nremoved, 2);
    ck_assert_int_eq(f.n, 1);
    pm_front_free(&f);
}
END_TEST

START_TEST(dominates)
{
    make_points();
    ck_assert(pm_dominates(&pts[0], &pts[4]));  /* A, E: equal, key */
    ck_assert(!pm_dominates(&pts[4], &pts[0]));
    ck_assert(!pm_dominates(&pts[0], &pts[0])); /* strict */
    ck_assert(pm_dominates(&pts[2], &pts[5]));  /* C, F */
    ck_assert(!pm_dominates(&pts[0], &pts[1])); /* A, B: neither */
    ck_assert(!pm_dominates(&pts[1], &pts[0]));
}
END_TEST

/* The front A (100, 50), B (104, 40), C (110, 30), D (130, 10): h0 = 100. */
START_TEST(alpha_rule)
{
    make_points();
    static const struct {
        double alpha;
        int config; /* A 3, B 1, C 2, D 0 */
    } cases[] = {{1.0, 3},  {1.03, 3}, {1.04, 1}, {1.05, 1}, {1.0999, 1},
                 {1.1, 2},  {1.2999, 2}, {1.3, 0}, {2.0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = pm_select(pts, 4, PM_SELECT_ALPHA, cases[i].alpha);
        ck_assert_msg(k >= 0 && pts[k].config == cases[i].config,
                      "alpha %g: chose %d", cases[i].alpha, k);
    }
}
END_TEST

/* A point at exactly A x h0 is within, for an A that binary cannot hold
 * (1.15 is stored a little below). */
START_TEST(alpha_exact)
{
    pm_point two[2] = {pt(100, 50, 0, 0, 0, 0), pt(115, 40, 0, 1, 0, 0)};
    ck_assert_int_eq(pm_select(two, 2, PM_SELECT_ALPHA, 1.15), 1);
    ck_assert_int_eq(pm_select(two, 2, PM_SELECT_ALPHA, 1.1499), 0);
}
END_TEST

/* The focus: config 0 (1000, 100) is the least; 1 (1049, 80) is within
 * 5 % in total; 2 (1100, 50) has the least max; 3 (1051, 106) is beaten
 * by 0 by more than 5 % in both (1050 < 1051, 105 < 106); 4 (1051, 105)
 * is not (105 < 105 fails); 5 did not finish; 6 (2000, 200) is beaten by
 * all of 0 to 4.  Listed in `order`'s order. */
START_TEST(focus_rule)
{
    const uint64_t total[] = {1000, 1049, 1100, 1051, 1051, UINT64_MAX, 2000};
    const uint64_t max[] = {100, 80, 50, 106, 105, UINT64_MAX, 200};
    const int order[] = {6, 5, 4, 3, 2, 1, 0};
    int out[7];
    int n = pm_focus(total, max, order, 7, 0.05, out);
    const int want[] = {4, 2, 1, 0};
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(out[i], want[i]);
    /* margin 0: plain domination; 4 (1051, 105) falls to 0 then, and
     * 1 (1049, 80) stays, as does 2 */
    n = pm_focus(total, max, order, 7, 0.0, out);
    const int want0[] = {2, 1, 0};
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(out[i], want0[i]);
    /* none finished: an empty focus */
    const uint64_t none[] = {UINT64_MAX, UINT64_MAX};
    ck_assert_int_eq(pm_focus(none, none, order + 5, 2, 0.05, out), 0);
}
END_TEST

START_TEST(other_criteria)
{
    make_points();
    ck_assert_int_eq(pts[pm_select(pts, 4, PM_SELECT_AVG, 1)].config, 3);
    ck_assert_int_eq(pts[pm_select(pts, 4, PM_SELECT_MAX, 1)].config, 0);
    /* B and C share the smallest load, 5: B has the smaller average. */
    ck_assert_int_eq(pts[pm_select(pts, 4, PM_SELECT_MAXLOAD, 1)].config, 1);
    ck_assert_int_eq(pm_select(pts, 0, PM_SELECT_ALPHA, 1.05), -1);
}
END_TEST

START_TEST(ties)
{
    /* Not a front: equal maxima, then averages, then keys decide. */
    pm_point q[4] = {pt(102, 20, 0, 0, 0, 0), pt(100, 20, 0, 2, 0, 0),
                     pt(100, 20, 0, 1, 9, 0), pt(100, 20, 0, 1, 3, 2)};
    int k = pm_select(q, 4, PM_SELECT_ALPHA, 1.05);
    ck_assert_int_eq(q[k].config, 1);
    ck_assert_uint_eq(q[k].seed, 3);
    ck_assert_int_eq(pm_select(q, 4, PM_SELECT_MAX, 1), k);
    ck_assert_int_eq(pm_select(q, 4, PM_SELECT_AVG, 1), k);
    ck_assert_int_eq(pm_criterion_parse("maxload"), PM_SELECT_MAXLOAD);
    ck_assert_int_eq(pm_criterion_parse("mean"), -1);
    ck_assert_str_eq(pm_criterion_name(PM_SELECT_ALPHA), "alpha");
}
END_TEST

/* ------------------------------------------------------ gm_greedymap_run */

static int calls;

static int stop_at_ten(void *arg)
{
    (void)arg;
    return ++calls >= 10;
}

static tg_graph *lattice(void)
{
    tg_stencil_options o;
    memset(&o, 0, sizeof o);
    o.ndims = 3;
    o.dims[0] = o.dims[1] = o.dims[2] = 4;
    o.periodic = 1;
    o.bytes = 10;
    tg_graph *g;
    tg_error err;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), 0);
    return g;
}

/* 8 nodes of 8 slots on the torus 2x2x2. */
static gm_machine *torus8(void)
{
    tg_error err;
    gm_machine *m;
    ck_assert_int_eq(gm_machine_uniform(8, 8, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:2x2x2", NULL,
                                                 &err), 0);
    return m;
}

/* Round 0's order: the unrefined baselines first, block (and decompose,
 * with a grid) before rb and drb, then GreedyMap's with the refined ones
 * last, each configuration once. */
START_TEST(cost_order)
{
    tg_error err;
    gm_machine *m = torus8();
    tg_graph *g = lattice();
    gm_config *cs;
    int nc;
    ck_assert_int_eq(gm_portfolio(g, m, &cs, &nc, &err), 0);
    int *order = malloc((size_t)nc * sizeof *order);
    int *count = calloc((size_t)nc, sizeof *count);
    pm_cost_order(cs, nc, order);
    /* Kinds along the order: 0 block/decompose, 1 rb/drb, 2 GreedyMap's
     * unrefined, 3 refined; never decreasing. */
    int last = 0, nbase = 0;
    for (int k = 0; k < nc; k++) {
        const gm_config *c = &cs[order[k]];
        int b = c->baseline - 1;
        int kind = c->refine                            ? 3
                   : !c->baseline                       ? 2
                   : b == GM_BASE_RB || b == GM_BASE_DRB ? 1
                                                        : 0;
        ck_assert_msg(kind >= last, "kind %d after %d at %d", kind, last, k);
        last = kind;
        nbase += kind < 2;
        count[order[k]]++;
    }
    ck_assert_int_ge(nbase, 3); /* block, rb, drb (decompose: a grid) */
    for (int i = 0; i < nc; i++)
        ck_assert_int_eq(count[i], 1);
    free(count);
    free(order);
    free(cs);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(run_equals_greedymap)
{
    tg_error err;
    gm_machine *m = torus8();
    tg_graph *g = lattice();
    gm_config *cs;
    int nc;
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    gm_place *a = malloc((size_t)g->n * sizeof *a);
    gm_place *b = malloc((size_t)g->n * sizeof *b);
    int *order = malloc((size_t)g->n * sizeof *order);
    for (int i = 0; i < nc; i++)
        for (uint64_t seed = 0; seed < 4; seed += 3) {
            gm_config c = cs[i];
            c.seed = seed;
            ck_assert_int_eq(gm_greedymap(g, m, &c, a, &err), 0);
            ck_assert_int_eq(gm_task_order(g, m, &c, order, &err), 0);
            ck_assert_int_eq(gm_greedymap_run(g, m, &c, order, NULL, NULL,
                                              b, &err), 0);
            ck_assert(!memcmp(a, b, (size_t)g->n * sizeof *a));
        }
    /* Stopped before the tenth task. */
    calls = 0;
    ck_assert_int_eq(gm_greedymap_run(g, m, &cs[0], order, stop_at_ten,
                                      NULL, b, &err), 1);
    ck_assert_int_eq(calls, 10);
    /* A list with a task twice. */
    order[5] = order[6];
    ck_assert_int_eq(gm_greedymap_run(g, m, &cs[0], order, NULL, NULL, b,
                                      &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "entry 6"));
    free(a);
    free(b);
    free(order);
    free(cs);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

static Suite *parmapper_suite(void)
{
    Suite *s = suite_create("parmapper");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, front_in_any_order);
    tcase_add_test(tc, added_and_removed);
    tcase_add_test(tc, levels_break_ties);
    tcase_add_test(tc, dominates);
    tcase_add_test(tc, alpha_rule);
    tcase_add_test(tc, alpha_exact);
    tcase_add_test(tc, cost_order);
    tcase_add_test(tc, other_criteria);
    tcase_add_test(tc, focus_rule);
    tcase_add_test(tc, ties);
    tcase_add_test(tc, run_equals_greedymap);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(parmapper_suite);
}
