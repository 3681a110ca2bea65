/* test_hetero_xml.c: libhetero on the real machines of
 * ../shared/hwloc-xml: exact counts of cores, packages, GPUs and NUMA nodes
 * with their kinds, capacities and memory attributes; on the DGX-2 every
 * GPU rank gets cores of its GPU's own package; on the KNL no NUMA node is
 * given more data than it holds.  Skipped (77) without the folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_hetero_fixture.h"
#include "testutil.h"

#define GIB 1073741824ULL

static ht_node *load(const char *file)
{
    const char *path = htf_shared(file);
    ck_assert_msg(path != NULL, "%s is missing", file);
    ht_node *n;
    tg_error err;
    int rc = ht_node_load(path, &n, &err);
    ck_assert_msg(rc == 0, "%s: %s", file, err.text);
    return n;
}

static void assert_list(hwloc_const_bitmap_t b, const char *want)
{
    char buf[256];
    hwloc_bitmap_list_snprintf(buf, sizeof buf, b);
    ck_assert_str_eq(buf, want);
}

START_TEST(test_dgx2)
{
    ht_node *n = load("nvidiaDGX2.xml");
    ck_assert_int_eq(n->npackages, 2);
    ck_assert_int_eq(n->ncores, 4);
    ck_assert_int_eq(n->ngpus, 16);
    ck_assert_int_eq(n->nnuma, 2);
    ck_assert_uint_eq(n->numa[0].capacity, 810234351616ULL);
    ck_assert_uint_eq(n->numa[1].capacity, 811737923584ULL);
    static const char *const bus[16] = {
        "0000:34:00.0", "0000:36:00.0", "0000:39:00.0", "0000:3b:00.0",
        "0000:57:00.0", "0000:59:00.0", "0000:5c:00.0", "0000:5e:00.0",
        "0000:b7:00.0", "0000:b9:00.0", "0000:bc:00.0", "0000:be:00.0",
        "0000:e0:00.0", "0000:e2:00.0", "0000:e5:00.0", "0000:e7:00.0"};
    for (int g = 0; g < 16; g++) {
        const ht_gpu *d = &n->gpus[g];
        ck_assert_str_eq(d->busid, bus[g]);
        ck_assert_int_eq(d->package, g < 8 ? 0 : 1);
        ck_assert_int_eq(d->numa, g < 8 ? 0 : 1);
        assert_list(d->cpuset, g < 8 ? "0-1" : "24-25");
        ck_assert_str_eq(d->model, "Tesla V100-SXM3-32GB-H");
        ck_assert_uint_eq(d->memory, 0); /* NVML says nothing of it */
        ck_assert_int_eq(strncmp(d->uuid, "GPU-", 4), 0);
    }
    ck_assert_str_eq(n->gpus[0].name, "nvml0");
    ck_assert_str_eq(n->gpus[0].uuid,
                     "GPU-d3977428-7a30-086b-2e20-5c1eeed647c6");
    ck_assert_str_eq(n->gpus[15].uuid,
                     "GPU-bb4648d3-e72b-4bac-a32f-4c9f3e4eb547");
    ht_node_free(n);
}
END_TEST

START_TEST(test_knl)
{
    ht_node *n = load("64intel64-fakeKNL-SNC4-hybrid.xml");
    ck_assert_int_eq(n->npackages, 1);
    ck_assert_int_eq(n->ncores, 16);
    ck_assert_int_eq(n->npus, 64);
    ck_assert_int_eq(n->ngpus, 0);
    ck_assert_int_eq(n->nnuma, 8);
    /* Logical order pairs each cluster's DRAM with its MCDRAM. */
    static const unsigned os[8] = {0, 7, 1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 8; i++) {
        const ht_numa *m = &n->numa[i];
        int hbm = i % 2;
        ck_assert_uint_eq(m->os_index, os[i]);
        ck_assert_int_eq(m->kind, hbm ? HT_MEM_HBM : HT_MEM_DRAM);
        ck_assert_str_eq(m->subtype, hbm ? "MCDRAM" : "");
        ck_assert_uint_eq(m->capacity, hbm ? 2 * GIB : GIB);
        ck_assert_int_eq(m->bandwidth_src, HT_SRC_HWLOC);
        ck_assert(m->bandwidth == (hbm ? 90000 : 22500));
        ck_assert_int_eq(m->latency_src, HT_SRC_NONE);
        ck_assert_int_eq(m->package, 0);
        ck_assert_int_eq(hwloc_bitmap_weight(m->cpuset), 16);
    }
    assert_list(n->numa[0].cpuset, "0-3,16-19,32-35,48-51");
    ht_node_free(n);
}
END_TEST

START_TEST(test_memattrs)
{
    ht_node *n = load("8intel64-4n2t-memattrs.xml");
    ck_assert_int_eq(n->npackages, 0);
    ck_assert_int_eq(n->ncores, 8); /* no Core objects: PUs */
    ck_assert_int_eq(n->nnuma, 4);
    for (int i = 0; i < 4; i++) {
        const ht_numa *m = &n->numa[i];
        ck_assert_uint_eq(m->os_index, (unsigned)i);
        ck_assert_uint_eq(m->capacity, GIB);
        /* Only node 1 has a Bandwidth, 20, for initiator 0xff (it holds
         * the node's own CPUs); the "foobar" values are no bandwidth. */
        ck_assert(m->bandwidth == (i == 1 ? 20 : 0));
        ck_assert_int_eq(m->bandwidth_src, i == 1 ? HT_SRC_HWLOC : HT_SRC_NONE);
        ck_assert_int_eq(m->latency_src, HT_SRC_NONE);
        ck_assert_int_eq(m->package, -1);
    }
    ht_node_free(n);
}
END_TEST

START_TEST(test_cxl)
{
    ht_node *n = load("cxlmem+dax.v2.xml");
    ck_assert_int_eq(n->nnuma, 1);
    ck_assert_int_eq(n->numa[0].kind, HT_MEM_DRAM);
    ck_assert_uint_eq(n->numa[0].capacity, 3061719040ULL);
    /* Four CXL memory devices (five 256 MiB regions), not online as NUMA
     * nodes, so no rank's data can be placed there. */
    ck_assert_int_eq(n->ncxl_devices, 4);
    ck_assert_uint_eq(n->cxl_device_bytes, 5 * 268435456ULL);
    ck_assert_int_eq(n->ngpus, 0);
    ht_node_free(n);
}
END_TEST

START_TEST(test_cuda_machines)
{
    const char *io[2] = {"32em64t-2n8c2t-pci-normalio.xml",
                         "32em64t-2n8c2t-pci-wholeio.xml"};
    for (int k = 0; k < 2; k++) {
        ht_node *n = load(io[k]);
        ck_assert_int_eq(n->npackages, 2);
        ck_assert_int_eq(n->ncores, 16);
        ck_assert_int_eq(n->npus, 32);
        ck_assert_int_eq(n->ngpus, 1); /* opencl0d1 is on 84:00.1 */
        const ht_gpu *g = &n->gpus[0];
        ck_assert_str_eq(g->busid, "0000:84:00.0");
        ck_assert_str_eq(g->name, "cuda0");
        ck_assert_str_eq(g->model, "Tesla K40m");
        ck_assert_str_eq(g->uuid, "");
        ck_assert_uint_eq(g->memory, 11796032ULL * 1024);
        ck_assert_int_eq(g->memory_src, HT_SRC_HWLOC);
        ck_assert_int_eq(g->package, 1);
        ck_assert_int_eq(g->numa, 1);
        assert_list(g->cpuset, "8-15,24-31");
        ht_node_free(n);
    }
    /* POWER8: cuda, opencl and nvml devices of one board are one GPU. */
    ht_node *n = load("power8gpudistances.xml");
    ck_assert_int_eq(n->ngpus, 4);
    static const char *const bus[4] = {"0002:01:00.0", "0003:01:00.0",
                                       "000a:01:00.0", "000b:01:00.0"};
    for (int g = 0; g < 4; g++) {
        ck_assert_str_eq(n->gpus[g].busid, bus[g]);
        ck_assert_uint_eq(n->gpus[g].memory, 16671616ULL * 1024);
        ck_assert_int_eq(n->gpus[g].package, g / 2);
        ck_assert_int_eq(strncmp(n->gpus[g].uuid, "GPU-", 4), 0);
    }
    ck_assert_str_eq(n->gpus[0].uuid,
                     "GPU-77bf6b9a-6906-5a93-d28b-b77d2c23d1d2");
    ht_node_free(n);
    n = load("16amd64-4distances.xml");
    ck_assert_int_eq(n->npackages, 8);
    ck_assert_int_eq(n->ncores, 16);
    ck_assert_int_eq(n->nnuma, 8);
    ck_assert_int_eq(n->ngpus, 0);
    ht_node_free(n);
}
END_TEST

/* Every GPU rank's cores lie in its GPU's package. */
static void assert_near(const ht_node *n, const ht_placement *pl)
{
    for (int r = 0; r < pl->n; r++) {
        const ht_entry *e = &pl->entries[r];
        ck_assert_int_eq(e->proc, HT_PROC_GPU);
        int g = ht_node_find_gpu(n, e->gpu_busid);
        ck_assert_int_ge(g, 0);
        ck_assert_msg(hwloc_bitmap_isincluded(e->cpus, n->gpus[g].cpuset),
                      "rank %d is not near GPU %s", r, e->gpu_busid);
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(
            n->topo, (unsigned)hwloc_bitmap_first(e->cpus));
        hwloc_obj_t pkg =
            hwloc_get_ancestor_obj_by_type(n->topo, HWLOC_OBJ_PACKAGE, pu);
        ck_assert_int_eq((int)pkg->logical_index, n->gpus[g].package);
    }
}

/* Four ranks ten times faster on a GPU: the DGX-2 file has two cores per
 * package, so two GPU ranks per package, whatever the GPUs' order. */
START_TEST(test_dgx2_cores_near)
{
    ht_node *n = load("nvidiaDGX2.xml");
    ht_input *in = htf_input(4, 1);
    for (int r = 0; r < 4; r++) {
        in->ranks[r].t_cpu = 10;
        in->ranks[r].t_gpu = 1;
    }
    ht_params par;
    ht_params_default(&par);
    par.restarts = 0; /* the point is the cores; keep the test short */
    ht_problem *p = htf_problem(in, n, &par);
    int ch[4];
    ht_cost c;
    tg_error err;
    ht_placement *pl;
    ck_assert_int_eq(ht_search(p, ch, &c, NULL, &err), 0);
    ck_assert(c.makespan == 1);
    ck_assert_int_eq(ht_place(p, ch, &pl, &err), 0);
    assert_near(n, pl);
    ht_placement_free(pl);
    /* GPU-first too: it skips the GPUs whose package has no core left. */
    ck_assert_int_eq(ht_gpu_first(p, ch, &err), 0);
    ck_assert_int_eq(ht_place(p, ch, &pl, &err), 0);
    assert_near(n, pl);
    ck_assert_str_eq(pl->entries[1].gpu_busid, "0000:36:00.0");
    ck_assert_str_eq(pl->entries[2].gpu_busid, "0000:b7:00.0");
    ht_placement_free(pl);
    /* A fifth rank would need a fifth core: each rank fits alone, so it
     * is no rank that "fits nowhere", but the node. */
    ht_problem_free(p);
    ht_input_free(in);
    in = htf_input(5, 1);
    for (int r = 0; r < 5; r++)
        in->ranks[r].t_cpu = in->ranks[r].t_gpu = 1;
    p = htf_problem(in, n, &par);
    ck_assert_int_eq(ht_search(p, ch, &c, NULL, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "no placement fits on h0: its 5 ranks need 5 "
                               "cores (1 each), and they may use 4");
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* Twelve memory-bound ranks of 0.75 GiB on the KNL: two fit in each
 * MCDRAM node (2 GiB), one in each DRAM node (1 GiB): 8 ranks at 90000
 * MiB/s take 1 s, 4 at 22500 take 4 s. */
START_TEST(test_knl_capacity)
{
    ht_node *n = load("64intel64-fakeKNL-SNC4-hybrid.xml");
    ht_input *in = htf_input(12, 1);
    for (int r = 0; r < 12; r++) {
        in->ranks[r].t_cpu = 1;
        in->ranks[r].footprint = 3 * GIB / 4;
    }
    ht_params par;
    ht_params_default(&par);
    par.restarts = 0; /* the point is capacity; keep the test short */
    ht_problem *p = htf_problem(in, n, &par);
    int ch[12];
    ht_cost c;
    tg_error err;
    ck_assert_int_eq(ht_search(p, ch, &c, NULL, &err), 0);
    ck_assert(c.makespan == 4);
    ck_assert(c.sum == 8 * 1 + 4 * 4);
    ht_placement *pl;
    ck_assert_int_eq(ht_place(p, ch, &pl, &err), 0);
    uint64_t bound[8] = {0};
    int on_hbm = 0;
    for (int r = 0; r < 12; r++) {
        const ht_entry *e = &pl->entries[r];
        ck_assert_int_eq(e->policy, HT_POLICY_BIND);
        ck_assert_int_eq(hwloc_bitmap_weight(e->nodes), 1);
        int k = ht_node_find_numa(n, (unsigned)hwloc_bitmap_first(e->nodes));
        ck_assert_int_eq(e->mem, n->numa[k].kind);
        bound[k] += in->ranks[r].footprint;
        on_hbm += e->mem == HT_MEM_HBM;
        /* Its cores are local to its memory. */
        ck_assert(hwloc_bitmap_isincluded(e->cpus, n->numa[k].cpuset));
    }
    for (int k = 0; k < 8; k++)
        ck_assert_uint_le(bound[k], n->numa[k].capacity);
    ck_assert_int_eq(on_hbm, 8);
    ht_placement_free(pl);
    /* Thirteen: each fits alone, but no placement holds them all, which
     * the search proves (twelve is the most these nodes hold). */
    ht_problem_free(p);
    ht_input_free(in);
    in = htf_input(13, 1);
    for (int r = 0; r < 13; r++) {
        in->ranks[r].t_cpu = 1;
        in->ranks[r].footprint = 3 * GIB / 4;
    }
    p = htf_problem(in, n, &par);
    ck_assert_int_eq(ht_search(p, ch, &c, NULL, &err), TG_EINVAL);
    ck_assert_str_eq(err.text,
                     "no placement fits on h0: a complete search of its 13 "
                     "ranks (largest data first, best fit, backtracking) "
                     "found none; the furthest it got placed 12 of them, "
                     "then rank 12 found no room: h0: NUMA node 0 (dram) "
                     "would hold 1610612736 bytes of 1073741824");
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

/* Four ranks of 0.6 GiB and four of 1.5 GiB on the KNL: first fit in rank
 * order puts the small ones in the MCDRAM (2 GiB a node), where the large
 * ones, too large for DRAM (1 GiB a node), then find no room; so both
 * defaults fail, but a placement fits: the large ranks in MCDRAM (1 s),
 * the small ones in DRAM (4 s), the optimum, makespan 4, sum 20. */
START_TEST(test_knl_pack)
{
    ht_node *n = load("64intel64-fakeKNL-SNC4-hybrid.xml");
    ht_input *in = htf_input(8, 1);
    for (int r = 0; r < 8; r++) {
        in->ranks[r].t_cpu = 1;
        in->ranks[r].footprint = r < 4 ? 644245094 : 1610612736;
    }
    ht_params par;
    ht_params_default(&par);
    ht_problem *p = htf_problem(in, n, &par);
    int ch[8];
    ht_cost c;
    tg_error err;
    ck_assert_int_eq(ht_gpu_first(p, ch, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "rank 4: no room left by the ranks placed "
                               "before it (first fit): h0: NUMA node 7 "
                               "(hbm) would hold 2254857830 bytes of "
                               "2147483648");
    ck_assert_int_eq(ht_all_cpu(p, ch, &err), TG_EINVAL);
    int rc = ht_search(p, ch, &c, NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    ck_assert(c.makespan == 4);
    ck_assert(c.sum == 20);
    for (int r = 0; r < 8; r++)
        ck_assert_int_eq(ht_problem_choice(p, ch[r])->mem,
                         r < 4 ? HT_MEM_DRAM : HT_MEM_HBM);
    ck_assert_int_eq(ht_exhaustive(p, ch, &c, &err), 0);
    ck_assert(c.makespan == 4);
    ck_assert(c.sum == 20);
    ht_problem_free(p);
    ht_input_free(in);
    ht_node_free(n);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hetero on real topologies");
    TCase *tc = tcase_create("xml");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_dgx2);
    tcase_add_test(tc, test_knl);
    tcase_add_test(tc, test_memattrs);
    tcase_add_test(tc, test_cxl);
    tcase_add_test(tc, test_cuda_machines);
    tcase_add_test(tc, test_dgx2_cores_near);
    tcase_add_test(tc, test_knl_capacity);
    tcase_add_test(tc, test_knl_pack);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (!htf_shared("nvidiaDGX2.xml")) {
        printf("../shared/hwloc-xml is missing: skipped\n");
        return 77;
    }
    return tu_main(suite);
}
