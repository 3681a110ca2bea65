/* test_bound.c: bench/bound.c's lower bounds against brute force. */
#include <stdio.h>
#include <stdlib.h>

#include "bound.h"
#include "testutil.h"

/* ------------------------------------------------------- partitions */

/* Least cut over every assignment of n tasks to parts of `size`. */
static int bf_part[16], bf_fill[16];
static uint64_t bf_best;

static void brute(const uint64_t w[16][16], int n, int size, int v)
{
    if (v == n) {
        uint64_t cut = 0;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (bf_part[a] != bf_part[b])
                    cut += w[a][b];
        if (cut < bf_best)
            bf_best = cut;
        return;
    }
    for (int p = 0; p < n / size; p++)
        if (bf_fill[p] < size) {
            bf_part[v] = p, bf_fill[p]++;
            brute(w, n, size, v + 1);
            bf_fill[p]--;
        }
}

START_TEST(partition_brute_force)
{
    srand(12);
    const int shapes[][2] = {{8, 2}, {8, 4}, {9, 3}, {10, 5}, {12, 3},
                             {12, 4}, {12, 6}};
    for (int t = 0; t < 7 * 6; t++) {
        int n = shapes[t % 7][0], size = shapes[t % 7][1];
        uint64_t w[16][16] = {{0}};
        int edges[120][3], m = 0;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (rand() % 3) {
                    int x = 1 + rand() % 100;
                    w[a][b] = w[b][a] = (uint64_t)x;
                    edges[m][0] = a, edges[m][1] = b, edges[m][2] = x;
                    m++;
                }
        tg_graph *g = tu_graph(n, m, (const int(*)[3])edges);
        uint64_t cut = 0;
        int exact = 0;
        tg_error err;
        ck_assert_int_eq(bound_partition(g, size, 100000000L, &cut, &exact,
                                         &err), 0);
        bf_best = UINT64_MAX;
        for (int p = 0; p < 16; p++)
            bf_fill[p] = 0;
        brute((const uint64_t(*)[16])w, n, size, 0);
        ck_assert_int_eq(exact, 1);
        ck_assert_msg(cut == bf_best, "n %d size %d: %llu, brute force %llu",
                      n, size, (unsigned long long)cut,
                      (unsigned long long)bf_best);
        /* stopped at once: the root's bound, below the least cut */
        ck_assert_int_eq(bound_partition(g, size, 1, &cut, &exact, &err), 0);
        ck_assert_int_eq(exact, 0);
        ck_assert(cut <= bf_best);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(partition_by_hand)
{
    /* two triangles joined by one edge of 5: halves cut only it */
    const int e[][3] = {{0, 1, 9}, {1, 2, 9}, {0, 2, 9},
                        {3, 4, 9}, {4, 5, 9}, {3, 5, 9}, {2, 3, 5}};
    tg_graph *g = tu_graph(6, 7, e);
    uint64_t cut;
    int exact;
    tg_error err;
    ck_assert_int_eq(bound_partition(g, 3, 1000, &cut, &exact, &err), 0);
    ck_assert_int_eq(exact, 1);
    ck_assert_uint_eq(cut, 5);
    /* pairs: {0,1} {2,3} {4,5} keep 9 + 5 + 9 of the 59 */
    ck_assert_int_eq(bound_partition(g, 2, 1000, &cut, &exact, &err), 0);
    ck_assert_uint_eq(cut, 59 - 23);
    ck_assert_int_eq(bound_partition(g, 4, 1000, &cut, &exact, &err),
                     TG_EINVAL);
    tg_graph_free(g);
}
END_TEST

/* ------------------------------------------------ the 27-point stencil */

/* Edges among n points (x, y, z) of the 27-point stencil. */
static long stencil_edges(const int (*p)[3], int n)
{
    long e = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            e += abs(p[a][0] - p[b][0]) <= 1 && abs(p[a][1] - p[b][1]) <= 1 &&
                 abs(p[a][2] - p[b][2]) <= 1;
    return e;
}

/* Most edges among k points of a 3x3x3 box, every subset tried. */
static long box_best;

static void subsets(int (*pts)[3], int k, int have, int from)
{
    if (have == k) {
        long e = stencil_edges((const int(*)[3])pts, k);
        if (e > box_best)
            box_best = e;
        return;
    }
    for (int p = from; p < 27; p++) {
        pts[have][0] = p % 3, pts[have][1] = p / 3 % 3, pts[have][2] = p / 9;
        subsets(pts, k, have + 1, p + 1);
    }
}

START_TEST(king_edges_brute_force)
{
    int pts[27][3];
    for (int k = 1; k <= 7; k++) {
        box_best = -1;
        subsets(pts, k, 0, 0);
        ck_assert_int_eq(bound_king_edges(k), box_best);
    }
    /* a 2x2x2 cube is a clique; the 3x3x3 cube has 158 edges, and a set
     * of 3 x 3 x 4 points shaved to 27 has more */
    ck_assert_int_eq(bound_king_edges(8), 28);
    box_best = -1;
    subsets(pts, 27, 0, 0);
    ck_assert_int_eq(box_best, 158);
    ck_assert_int_eq(bound_king_edges(27), 162);
    ck_assert_int_eq(bound_king_edges(0), -1);
    ck_assert_int_eq(bound_king_edges(41), -1);
}
END_TEST

/* No box of up to 20 points, and no set a random climb finds, keeps more
 * edges than bound_king_edges says; the 4x4x4 cube without the points on
 * its edges keeps 208. */
START_TEST(king_edges_never_beaten)
{
    int p[64][3], n;
    long most[21];
    for (int k = 1; k <= 20; k++)
        most[k] = bound_king_edges(k);
    for (int a = 1; a <= 20; a++)
        for (int b = a; a * b <= 20; b++)
            for (int c = b; a * b * c <= 20; c++) {
                n = 0;
                for (int x = 0; x < a; x++)
                    for (int y = 0; y < b; y++)
                        for (int z = 0; z < c; z++)
                            p[n][0] = x, p[n][1] = y, p[n][2] = z, n++;
                ck_assert(stencil_edges((const int(*)[3])p, n) <= most[n]);
            }
    n = 0;
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            for (int z = 0; z < 4; z++)
                if ((x % 3 == 0) + (y % 3 == 0) + (z % 3 == 0) < 2)
                    p[n][0] = x, p[n][1] = y, p[n][2] = z, n++;
    ck_assert_int_eq(n, 32);
    ck_assert_int_eq(stencil_edges((const int(*)[3])p, n), 208);
    /* hill climbs in a 5x5x5 box: move one point to a free place while
     * the edges do not fall */
    srand(3);
    for (int k = 9; k <= 20; k++) {
        for (int run = 0; run < 4; run++) {
            int used[125] = {0};
            for (n = 0; n < k;) {
                int c = rand() % 125;
                if (!used[c]) {
                    used[c] = 1;
                    p[n][0] = c % 5, p[n][1] = c / 5 % 5, p[n][2] = c / 25;
                    n++;
                }
            }
            long e = stencil_edges((const int(*)[3])p, k);
            for (int step = 0; step < 4000; step++) {
                int i = rand() % k, c = rand() % 125;
                if (used[c])
                    continue;
                int old[3] = {p[i][0], p[i][1], p[i][2]};
                p[i][0] = c % 5, p[i][1] = c / 5 % 5, p[i][2] = c / 25;
                long e2 = stencil_edges((const int(*)[3])p, k);
                if (e2 >= e) {
                    used[old[0] + 5 * old[1] + 25 * old[2]] = 0;
                    used[c] = 1;
                    e = e2;
                } else {
                    p[i][0] = old[0], p[i][1] = old[1], p[i][2] = old[2];
                }
            }
            ck_assert_msg(e <= most[k], "k %d: a climb found %ld > %ld", k,
                          e, most[k]);
        }
    }
}
END_TEST

/* 32 points: the node of bench/mapper's stencil-fattree (a 2x4x4 box has
 * 184 edges; 208 is a 4x4x4 cube without the points on its edges). */
START_TEST(king_edges_32)
{
    ck_assert_int_eq(bound_king_edges(32), 208);
}
END_TEST

/* ------------------------------------------------------------- cliques */

/* Least sum of hops over the pairs of c tasks at most cap to a node of a
 * 4x4 torus (bipartite: even sides), every spread tried. */
static int spread[16];
static long spread_best;

static void spreads(int node, int left, int cap)
{
    if (node == 16) {
        if (left)
            return;
        long cost = 0;
        for (int a = 0; a < 16; a++)
            for (int b = a + 1; b < 16; b++) {
                int dx = abs(a % 4 - b % 4), dy = abs(a / 4 - b / 4);
                cost += (long)spread[a] * spread[b] *
                        ((dx > 2 ? 4 - dx : dx) + (dy > 2 ? 4 - dy : dy));
            }
        if (cost < spread_best)
            spread_best = cost;
        return;
    }
    for (int t = 0; t <= cap && t <= left; t++) {
        spread[node] = t;
        spreads(node + 1, left - t, cap);
    }
}

START_TEST(clique_hops_brute_force)
{
    for (int cap = 1; cap <= 3; cap++)
        for (int c = 1; c <= 7; c++) {
            spread_best = 1L << 40;
            spreads(0, c, cap);
            long b = bound_clique_hops(c, cap);
            ck_assert_msg(b <= spread_best, "c %d cap %d: %ld > %ld", c, cap,
                          b, spread_best);
            /* tight where full nodes sit side by side or on a square */
            if ((cap == 1 && c <= 4) || (cap == 2 && c == 4) ||
                (cap == 3 && c == 6))
                ck_assert_int_eq(b, spread_best);
        }
    /* a Qbox column of 64 on 4 nodes of 16: a square, 4 x 256 pairs 1 hop
     * apart and 2 x 256 two hops */
    ck_assert_int_eq(bound_clique_hops(64, 16), 4 * 256 + 2 * 2 * 256);
    ck_assert_int_eq(bound_clique_hops(16, 16), 0);
    ck_assert_int_eq(bound_clique_hops(0, 16), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bound");
    TCase *tc = tcase_create("bound");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, partition_brute_force);
    tcase_add_test(tc, partition_by_hand);
    tcase_add_test(tc, king_edges_brute_force);
    tcase_add_test(tc, king_edges_never_beaten);
    tcase_add_test(tc, king_edges_32);
    tcase_add_test(tc, clique_hops_brute_force);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(suite);
}
