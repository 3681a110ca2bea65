/* test_hetero_search.c: libhetero's cost model (figures computed by hand),
 * capacities, the GPU-first and all-CPU defaults, constrained
 * coordinate-wise descent against exhaustive enumeration, the search
 * state's figures against the cost model's, and turning choices into
 * cores. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"
#include "test_hetero_fixture.h"
#include "testutil.h"

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)

static void assert_close(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 1e-12 * fmax(1, fabs(want)),
                  "got %.17g, want %.17g", got, want);
}

/* The test machine with GPU 0000:17:00.0 and CXL node 3 calibrated. */
static ht_node *calibrated_node(void)
{
    ht_node *n = htf_node();
    const char *cal = tu_write(
        "cal.json",
        "{\"format\": \"topomap-memcal\", \"version\": 1, \"host\": \"x\",\n"
        " \"numa\": [{\"os_index\": 0, \"bandwidth_mib_s\": 30000},\n"
        "            {\"os_index\": 3, \"bandwidth_mib_s\": 10000}],\n"
        " \"gpus\": [{\"busid\": \"0000:17:00.0\", \"device_mib_s\": 100000,\n"
        "   \"pinned_mib_s\": 10000, \"managed_mib_s\": 50000,\n"
        "   \"h2d_pageable_mib_s\": 5000, \"d2h_pageable_mib_s\": 4000,\n"
        "   \"h2d_pinned_mib_s\": 10000, \"d2h_pinned_mib_s\": 10000,\n"
        "   \"copy_pageable_latency_ns\": 10000,\n"
        "   \"copy_pinned_latency_ns\": 5000}]}\n");
    ht_memcal *c;
    tg_error err;
    ck_assert_int_eq(ht_memcal_read(cal, &c, &err), 0);
    ck_assert_int_eq(ht_node_calibrate(n, c, cal, &err), 0);
    ht_memcal_free(c);
    return n;
}

START_TEST(test_choices)
{
    ht_node *n = htf_node();
    ht_input *in = htf_input(1, 1);
    in->ranks[0].t_cpu = 1;
    ht_params par;
    ht_params_default(&par);
    ht_problem *p = htf_problem(in, n, &par);
    /* 2 GPUs x (device, pinned, managed), then NUMA 0..3; node 4 is the
     * GPU's memory and not a CPU rank's. */
    ck_assert_int_eq(ht_problem_nchoices(p), 10);
    const ht_choice *c = ht_problem_choice(p, 4);
    ck_assert_int_eq(c->proc, HT_PROC_GPU);
    ck_assert_int_eq(c->gpu, 1);
    ck_assert_int_eq(c->mem, HT_MEM_PINNED);
    ck_assert_int_eq(c->numa, 2);      /* the DRAM of package 1 */
    assert_close(c->bandwidth, 12000); /* the default */
    c = ht_problem_choice(p, 9);
    ck_assert_int_eq(c->proc, HT_PROC_CPU);
    ck_assert_int_eq(c->mem, HT_MEM_CXL);
    assert_close(c->bandwidth, 10000); /* the default for CXL */
    /* Only a CPU time and no speedup: no GPU choice. */
    ck_assert(!ht_problem_allows(p, 0, 0));
    ck_assert(ht_problem_allows(p, 0, 6));
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* Two ranks: 0 on GPU 0, 1 on CPU; 1000 MiB in 10 messages from 0 to 1. */
START_TEST(test_cost_by_hand)
{
    ht_node *n = calibrated_node();
    ht_input *in = htf_input(2, 1);
    in->ranks[0].t_cpu = 4;
    in->ranks[0].t_gpu = 1;
    in->ranks[0].memory_bound = 0.5;
    in->ranks[1].t_cpu = 2;
    htf_send(in, 0, 1, (uint64_t)(1000 * MIB), 10);
    ht_params par;
    ht_params_default(&par);
    ht_problem *p = htf_problem(in, n, &par);
    int ch[2] = {htf_find(p, HT_PROC_GPU, 0, HT_MEM_DEVICE, -1),
                 htf_find(p, HT_PROC_CPU, -1, HT_MEM_DRAM, 0)};
    /* Node 0 keeps hwloc's 20000 MiB/s (hwloc first); the best CPU memory
     * is HBM at 80000, so rank 1's all-memory-bound 2 s become 8 s.  Rank
     * 0: 1 s at device speed, the best of GPU 0.  The transfer: shared
     * memory 1000/8000 s + 10 x 500 ns, and rank 0 stages through the host
     * at the slower pageable direction, 1000/4000 s + 10 x 10000 ns. */
    double comp, comm, pair = 0.125 + 10 * 500e-9 + 0.25 + 10 * 10000e-9;
    ht_rank_time(p, ch, 0, &comp, &comm);
    assert_close(comp, 1);
    assert_close(comm, pair);
    ht_rank_time(p, ch, 1, &comp, &comm);
    assert_close(comp, 8);
    assert_close(comm, pair);
    ht_cost c;
    tg_error err;
    ck_assert_int_eq(ht_evaluate(p, ch, &c, &err), 0);
    assert_close(c.makespan, 8 + pair);
    assert_close(c.sum, 9 + 2 * pair);
    ht_problem_free(p);

    /* CUDA-aware: a pinned copy instead, 1000/10000 s + 10 x 5000 ns. */
    par.cuda_aware = 1;
    p = htf_problem(in, n, &par);
    ht_rank_time(p, ch, 0, &comp, &comm);
    assert_close(comm, 0.1 + 10 * 5000e-9);
    /* Pinned (zero-copy) data: 0.5 + 0.5 x 100000/10000 = 5.5 s. */
    ch[0] = htf_find(p, HT_PROC_GPU, 0, HT_MEM_PINNED, -1);
    ht_rank_time(p, ch, 0, &comp, &comm);
    assert_close(comp, 5.5);
    assert_close(comm, 0.125 + 10 * 500e-9);
    /* The CPU variant on CXL: 4 x (0.5 + 0.5 x 80000/10000) = 18 s. */
    ch[0] = htf_find(p, HT_PROC_CPU, -1, HT_MEM_CXL, 3);
    ht_rank_time(p, ch, 0, &comp, &comm);
    assert_close(comp, 18);
    ht_problem_free(p);

    /* Two hosts: the network, 1000/10000 s + 10 x 2000 ns. */
    free(in->ranks[1].host);
    in->ranks[1].host = strdup("other");
    in->ranks[1].local_rank = 0;
    p = htf_problem(in, n, &par);
    ch[0] = htf_find(p, HT_PROC_GPU, 0, HT_MEM_DEVICE, -1);
    ht_rank_time(p, ch, 1, &comp, &comm);
    assert_close(comm, 0.1 + 10 * 2000e-9);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

START_TEST(test_gpu_speedup)
{
    ht_node *n = htf_node();
    ht_input *in = htf_input(2, 1);
    in->ranks[0].t_cpu = 6;
    in->ranks[1].t_gpu = 0.5;
    ht_params par;
    ht_params_default(&par);
    ht_problem *p;
    tg_error err;
    /* Rank 1 has only a GPU time: fine, the node has GPUs. */
    p = htf_problem(in, n, &par);
    int gpu = htf_find(p, HT_PROC_GPU, 0, HT_MEM_DEVICE, -1);
    int cpu = htf_find(p, HT_PROC_CPU, -1, HT_MEM_HBM, 1);
    ck_assert(!ht_problem_allows(p, 0, gpu));
    ck_assert(!ht_problem_allows(p, 1, cpu));
    ht_problem_free(p);
    par.gpu_speedup = 3;
    p = htf_problem(in, n, &par);
    int ch[2] = {gpu, cpu};
    double comp, comm;
    ht_rank_time(p, ch, 0, &comp, &comm);
    assert_close(comp, 2); /* 6 / 3 */
    ht_rank_time(p, ch, 1, &comp, &comm);
    assert_close(comp, 1.5); /* 0.5 x 3 on the best memory */
    ht_problem_free(p);
    /* On a node without GPUs a GPU-only rank has nothing. */
    ht_node_free(n);
    ck_assert_int_eq(ht_node_load("pack:1 core:2 pu:1", &n, &err), 0);
    par.gpu_speedup = 0;
    ck_assert_int_eq(ht_problem_new(in, n, &par, &p, &err), TG_EINVAL);
    ck_assert_msg(strstr(err.text, "rank 1 has no variant"), "%s", err.text);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

START_TEST(test_capacities)
{
    ht_node *n = htf_node();
    ht_input *in = htf_input(3, 1);
    for (int r = 0; r < 3; r++) {
        in->ranks[r].t_cpu = 1;
        in->ranks[r].t_gpu = 1;
        in->ranks[r].footprint = (uint64_t)(0.75 * GIB);
    }
    ht_params par;
    ht_params_default(&par);
    ht_problem *p = htf_problem(in, n, &par);
    int d0 = htf_find(p, HT_PROC_GPU, 0, HT_MEM_DEVICE, -1);
    int m0 = htf_find(p, HT_PROC_GPU, 0, HT_MEM_MANAGED, -1);
    int hbm = htf_find(p, HT_PROC_CPU, -1, HT_MEM_HBM, 1);
    int cxl = htf_find(p, HT_PROC_CPU, -1, HT_MEM_CXL, 3);
    ht_cost c;
    tg_error err;
    int two_on_gpu[3] = {d0, m0, cxl};
    ck_assert_int_eq(ht_evaluate(p, two_on_gpu, &c, &err), TG_EINVAL);
    ck_assert_msg(strstr(err.text, "GPU 0000:17:00.0 would have 2 ranks"), "%s",
                  err.text);
    int two_in_hbm[3] = {hbm, hbm, cxl};
    ck_assert_int_eq(ht_evaluate(p, two_in_hbm, &c, &err), TG_EINVAL);
    ck_assert_msg(strstr(err.text, "NUMA node 1 (hbm) would hold 1610612736 "
                                   "bytes of 1073741824"),
                  "%s", err.text);
    ht_problem_free(p);

    /* Two ranks per GPU: device memory (2 GiB) is the limit. */
    par.ranks_per_gpu = 3;
    p = htf_problem(in, n, &par);
    int three_on_gpu[3] = {d0, d0, d0};
    ck_assert_int_eq(ht_evaluate(p, three_on_gpu, &c, &err), TG_EINVAL);
    ck_assert_msg(strstr(err.text, "would hold 2415919104 bytes of "
                                   "2147483648"),
                  "%s", err.text);
    int managed[3] = {d0, d0, m0}; /* managed data lives on the host */
    ck_assert_int_eq(ht_evaluate(p, managed, &c, &err), 0);
    ht_problem_free(p);

    /* Cores: 3 ranks of 2 cores near GPU 0 need 6 of package 0's 4. */
    par.cores_per_rank = 2;
    p = htf_problem(in, n, &par);
    int packed[3] = {d0, hbm, d0};
    packed[1] = htf_find(p, HT_PROC_CPU, -1, HT_MEM_DRAM, 0);
    ck_assert_int_eq(ht_evaluate(p, packed, &c, &err), TG_EINVAL);
    ck_assert_msg(strstr(err.text, "need 6 cores of a set of 4"), "%s",
                  err.text);
    /* CXL is near every core: 2 + 2 on package 0, 2 more from package 1. */
    int spread[3] = {d0, packed[1], cxl};
    ck_assert_int_eq(ht_evaluate(p, spread, &c, &err), 0);
    ht_placement *pl;
    ck_assert_int_eq(ht_place(p, spread, &pl, &err), 0);
    char buf[64];
    const char *want[3] = {"0-1", "2-3", "4-5"};
    for (int r = 0; r < 3; r++) {
        hwloc_bitmap_list_snprintf(buf, sizeof buf, pl->entries[r].cpus);
        ck_assert_str_eq(buf, want[r]);
    }
    ck_assert_str_eq(pl->entries[0].gpu_busid, "0000:17:00.0");
    /* The bus id names the GPU: the node's UUID is one machine's, and
     * the placement is for every host like it. */
    ck_assert_str_eq(pl->entries[0].gpu_uuid, "");
    ck_assert_int_eq(pl->entries[2].mem, HT_MEM_CXL);
    hwloc_bitmap_list_snprintf(buf, sizeof buf, pl->entries[2].nodes);
    ck_assert_str_eq(buf, "3");
    ht_placement_free(pl);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* Search and enumeration both find (makespan, sum), and GPU-first and
 * all-CPU are more than 20% slower. */
static void check_beats(const ht_problem *p, double makespan, double sum)
{
    int best[8], found[8], gf[8], cpu[8];
    ht_cost cb, cf, cg, cc;
    tg_error err;
    ck_assert_int_eq(ht_exhaustive(p, best, &cb, &err), 0);
    ck_assert_int_eq(ht_search(p, found, &cf, NULL, &err), 0);
    assert_close(cb.makespan, makespan);
    assert_close(cb.sum, sum);
    assert_close(cf.makespan, makespan);
    assert_close(cf.sum, sum);
    ck_assert_int_eq(ht_gpu_first(p, gf, &err), 0);
    ck_assert_int_eq(ht_evaluate(p, gf, &cg, &err), 0);
    ck_assert_int_eq(ht_all_cpu(p, cpu, &err), 0);
    ck_assert_int_eq(ht_evaluate(p, cpu, &cc, &err), 0);
    ck_assert_msg(cg.makespan > 1.2 * makespan, "GPU-first %g", cg.makespan);
    ck_assert_msg(cc.makespan > 1.2 * makespan, "all-CPU %g", cc.makespan);
}

START_TEST(test_defaults_lose)
{
    ht_node *n = htf_node();
    ht_params par;
    ht_params_default(&par);
    /* Rank 0's GPU variant is slower, yet GPU-first gives it a GPU and
     * leaves rank 2 without one; all-CPU leaves ranks 1 and 2 at 10 s.
     * Best: 1 and 2 on the GPUs, 0 and 3 on cores: 1, 1, 1, 2 s. */
    ht_input *in = htf_input(4, 1);
    const double cpu[4] = {1, 10, 10, 2}, gpu[4] = {3, 1, 1, -1};
    for (int r = 0; r < 4; r++) {
        in->ranks[r].t_cpu = cpu[r];
        in->ranks[r].t_gpu = gpu[r];
        in->ranks[r].memory_bound = 0;
    }
    ht_problem *p = htf_problem(in, n, &par);
    check_beats(p, 2, 5);
    ht_problem_free(p);
    ht_input_free(in);

    /* Two ranks, twice as fast on a GPU, exchanging 8000 MiB each way with
     * an MPI that is not CUDA-aware.  GPU-first puts their data in device
     * memory and pays the staging, 16000 MiB / 6000 MiB/s on each side, on
     * top of 16000 / 8000 s through shared memory: 1 + 2 + 2 x 8/3 s.  On
     * cores: 2 + 2 s.  Best: GPUs with pinned (zero-copy) data, which
     * these compute-bound ranks do not mind: 1 + 2 s. */
    in = htf_input(2, 1);
    for (int r = 0; r < 2; r++) {
        in->ranks[r].t_cpu = 2;
        in->ranks[r].t_gpu = 1;
        in->ranks[r].memory_bound = 0;
        htf_send(in, r, 1 - r, (uint64_t)(8000 * MIB), 0);
    }
    p = htf_problem(in, n, &par);
    check_beats(p, 3, 6);
    int found[2];
    ht_cost c;
    tg_error err;
    ck_assert_int_eq(ht_search(p, found, &c, NULL, &err), 0);
    for (int r = 0; r < 2; r++)
        ck_assert_int_eq(ht_problem_choice(p, found[r])->mem, HT_MEM_PINNED);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* ------------------------------------------------- search against oracle */

static uint64_t lcg;

static double uniform(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

/* n ranks on one host of the test machine, from a seed: compute times,
 * some ranks with one variant only, footprints up to 1.5 GiB, about half
 * the pairs talking (up to 40 GiB, so that transfers weigh as much as
 * compute). */
static ht_input *random_instance(uint64_t seed, int n, ht_params *par)
{
    lcg = seed;
    ht_input *in = htf_input(n, 1);
    for (int r = 0; r < n; r++) {
        ht_rank *k = &in->ranks[r];
        double u = uniform();
        k->t_cpu = u < 0.15 ? -1 : 1 + 9 * uniform();
        k->t_gpu = u > 0.85 ? -1 : 0.2 + 6 * uniform();
        k->footprint = (uint64_t)(1.5 * GIB * uniform());
        k->memory_bound = uniform();
        for (int q = 0; q < n; q++)
            if (q != r && uniform() < 0.3)
                htf_send(in, r, q, (uint64_t)(40 * GIB * uniform() * uniform()),
                         (uint64_t)(1000 * uniform()));
    }
    ht_params_default(par);
    par->ranks_per_gpu = uniform() < 0.5 ? 1 : 2;
    par->cuda_aware = uniform() < 0.5;
    return in;
}

START_TEST(test_search_finds_optimum)
{
    ht_node *n = calibrated_node();
    int agree = 0, total = 0;
    for (uint64_t seed = 2; seed <= 17; seed++) {
        int size = 5 + (int)(seed % 4);
        ht_params par;
        ht_input *in = random_instance(seed, size, &par);
        ht_problem *p = htf_problem(in, n, &par);
        int best[8], found[8];
        ht_cost cb, cf;
        tg_error err;
        ck_assert_int_eq(ht_exhaustive(p, best, &cb, &err), 0);
        ht_search_stats st;
        ck_assert_int_eq(ht_search(p, found, &cf, &st, &err), 0);
        total++;
        if (ht_cost_compare(&cf, &cb) == 0)
            agree++;
        else
            fprintf(stderr, "seed %d: search %.6g/%.6g, optimum %.6g/%.6g\n",
                    (int)seed, cf.makespan, cf.sum, cb.makespan, cb.sum);
        ck_assert_int_ge(ht_cost_compare(&cf, &cb), 0);
        ht_problem_free(p);
        ht_input_free(in);
    }
    ck_assert_int_eq(agree, total);
    ht_node_free(n);
}
END_TEST

/* A hub talking to 79 ranks (4 ranks a host on 20 hosts): its
 * communication time is a tree over its arcs (HT_COMM_TREE_MIN) that the
 * search state updates leaf by leaf.  After every move tried, kept or
 * undone, of one rank or of two (the hub among them), each rank's figures
 * and the objective are exactly what ht_comm_time and ht_evaluate compute
 * afresh. */
START_TEST(test_state_hub)
{
    ht_node *n = calibrated_node();
    enum { N = 80 };
    lcg = 99;
    ht_input *in = htf_input(N, 20);
    for (int r = 0; r < N; r++) {
        in->ranks[r].t_cpu = 1 + 9 * uniform();
        in->ranks[r].t_gpu = uniform() < 0.3 ? -1 : 0.2 + 6 * uniform();
        in->ranks[r].memory_bound = uniform();
        if (r)
            htf_send(in, 0, r, (uint64_t)(GIB * uniform()),
                     (uint64_t)(1000 * uniform()));
        htf_send(in, r, (r + 1) % N, (uint64_t)(GIB * uniform()), 3);
    }
    ht_params par;
    ht_params_default(&par);
    par.ranks_per_gpu = 2;
    ht_problem *p = htf_problem(in, n, &par);
    ck_assert_int_ge(p->xadj[1] - p->xadj[0], HT_COMM_TREE_MIN);
    int choice[N];
    tg_error err;
    ck_assert_int_eq(ht_all_cpu(p, choice, &err), 0);
    ht_state s;
    ck_assert_int_eq(ht_state_init(&s, p, choice, &err), 0);
    int kept = 0;
    for (int i = 0; i < 3000; i++) {
        int k = 0, r = i % 3 ? (int)(N * uniform()) : 0;
        int c = (int)(p->nchoices * uniform());
        if (!ht_problem_allows(p, r, c) || c == s.choice[r])
            continue;
        s.moves[k++] = (ht_move){r, s.choice[r], c, c, -1};
        int q = 1 + (int)((N - 1) * uniform()), d = s.choice[0];
        if (i % 2 && q != r && ht_problem_allows(p, q, d))
            s.moves[k++] = (ht_move){q, s.choice[q], d, d, -1};
        kept += ht_state_test(&s, k);
        for (int x = 0; x < N; x++) {
            double comp, comm;
            ht_rank_time(p, s.choice, x, &comp, &comm);
            ck_assert_msg(s.comm[x] == comm && s.comp[x] == comp,
                          "move %d: rank %d: %.17g + %.17g, afresh %.17g + "
                          "%.17g",
                          i, x, s.comp[x], s.comm[x], comp, comm);
        }
        ht_cost c0;
        ck_assert_int_eq(ht_evaluate(p, s.choice, &c0, &err), 0);
        ck_assert(c0.makespan == s.cost.makespan && c0.sum == s.cost.sum);
    }
    ck_assert_int_gt(kept, 10);
    ht_state_free(&s);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* The assignments -m exhaustive would enumerate: the product of the
 * choices each rank may take, saturating.  On the test machine (10
 * choices: 2 GPUs x 3 kinds, 4 NUMA nodes) a CPU-only rank has 4, a
 * GPU-only one 6, one with both 10; on 256 NUMA nodes, 7 ranks have 2^56
 * and 8 would have 2^64, which does not fit. */
START_TEST(test_exhaustive_count)
{
    ht_node *n = htf_node();
    ht_input *in = htf_input(3, 1);
    in->ranks[0].t_cpu = 1;
    in->ranks[1].t_cpu = in->ranks[1].t_gpu = 1;
    in->ranks[2].t_gpu = 1;
    ht_params par;
    ht_params_default(&par);
    ht_problem *p = htf_problem(in, n, &par);
    ck_assert_uint_eq(ht_exhaustive_count(p), 240);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);

    tg_error err;
    int rc = ht_node_load("pack:1 numa:256 core:1 pu:1", &n, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    for (int k = 7; k <= 8; k++) {
        in = htf_input(k, 1);
        for (int r = 0; r < k; r++)
            in->ranks[r].t_cpu = 1;
        p = htf_problem(in, n, &par);
        ck_assert_int_eq(ht_problem_nchoices(p), 256);
        ck_assert_uint_eq(ht_exhaustive_count(p),
                          k == 7 ? 72057594037927936ULL : UINT64_MAX);
        ck_assert_uint_gt(ht_exhaustive_count(p), HT_EXHAUSTIVE_BUDGET);
        ht_problem_free(p);
        ht_input_free(in);
    }
    ht_node_free(n);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hetero search");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_choices);
    tcase_add_test(tc, test_cost_by_hand);
    tcase_add_test(tc, test_gpu_speedup);
    tcase_add_test(tc, test_capacities);
    tcase_add_test(tc, test_defaults_lose);
    tcase_add_test(tc, test_search_finds_optimum);
    tcase_add_test(tc, test_state_hub);
    tcase_add_test(tc, test_exhaustive_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(suite);
}
