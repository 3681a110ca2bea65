/* test_hetero_node.c: libhetero's node description (a machine written
 * here as hwloc XML with every memory kind and two GPUs, synthetic
 * descriptions, this host), calibration files and calibrating a node, the
 * input and placement files with their errors (file, line, element), and
 * the small parsers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_hetero_fixture.h"
#include "testutil.h"

#define GIB 1073741824ULL

static void assert_list(hwloc_const_bitmap_t b, const char *want)
{
    char buf[256];
    hwloc_bitmap_list_snprintf(buf, sizeof buf, b);
    ck_assert_str_eq(buf, want);
}

/* err's text (and line, when > 0) after a failing call. */
#define ASSERT_ERROR(call, err, want_line, want_text)                          \
    do {                                                                       \
        int rc_ = (call);                                                      \
        ck_assert_msg(rc_ != 0, "no error from %s", #call);                    \
        ck_assert_msg(strstr((err).text, (want_text)) != NULL,                 \
                      "'%s' is not in '%s'", (want_text), (err).text);         \
        if ((want_line) >= 0)                                                  \
            ck_assert_int_eq((err).line, (want_line));                         \
    } while (0)

/* `text` with its first `from` replaced by `to`, written to bad.json;
 * the file's path. */
static const char *edited(const char *text, const char *from, const char *to)
{
    static char t[4096];
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' is not in the text", from);
    snprintf(t, sizeof t, "%.*s%s%s", (int)(at - text), text, to,
             at + strlen(from));
    return tu_write("bad.json", t);
}

START_TEST(test_kinds_and_gpus)
{
    ht_node *n = htf_node();
    ck_assert_str_eq(n->host, "testnode");
    ck_assert_int_eq(n->npackages, 2);
    ck_assert_int_eq(n->ncores, 8);
    ck_assert_int_eq(n->npus, 8);
    ck_assert_int_eq(n->nnuma, 5);
    static const ht_memkind kind[5] = {HT_MEM_DRAM, HT_MEM_HBM, HT_MEM_DRAM,
                                       HT_MEM_CXL, HT_MEM_GPUNUMA};
    static const uint64_t cap[5] = {4 * GIB, GIB, 4 * GIB, 8 * GIB, 2 * GIB};
    static const int pkg[5] = {0, 0, 1, -1, -1};
    static const double bw[5] = {20000, 80000, 20000, 0, 0};
    static const char *const cpus[5] = {"0-3", "0-3", "4-7", "0-7", "0-7"};
    for (int i = 0; i < 5; i++) {
        const ht_numa *m = &n->numa[i];
        ck_assert_uint_eq(m->os_index, (unsigned)i);
        ck_assert_int_eq(m->kind, kind[i]);
        ck_assert_uint_eq(m->capacity, cap[i]);
        ck_assert_int_eq(m->package, pkg[i]);
        ck_assert(m->bandwidth == bw[i]);
        ck_assert_int_eq(m->bandwidth_src, bw[i] ? HT_SRC_HWLOC : HT_SRC_NONE);
        ck_assert(m->latency == (i == 0 ? 90 : 0));
        assert_list(m->cpuset, cpus[i]);
    }
    ck_assert_str_eq(n->numa[3].subtype, "CXL-DRAM");
    ck_assert_int_eq(n->ngpus, 2);
    const ht_gpu *g = &n->gpus[0];
    ck_assert_str_eq(g->name, "cuda0");
    ck_assert_str_eq(g->busid, "0000:17:00.0");
    ck_assert_str_eq(g->uuid, "GPU-00000000-0000-0000-0000-000000000017");
    ck_assert_str_eq(g->model, "Test GPU");
    ck_assert_uint_eq(g->memory, 2 * GIB);
    ck_assert_int_eq(g->package, 0);
    ck_assert_int_eq(g->numa, 0);
    assert_list(g->cpuset, "0-3");
    g = &n->gpus[1];
    ck_assert_str_eq(g->busid, "0000:b3:00.0");
    ck_assert_str_eq(g->uuid, "");
    ck_assert_int_eq(g->package, 1);
    ck_assert_int_eq(g->numa, 2);
    ck_assert_int_eq(ht_node_find_gpu(n, "0000:B3:00.0"), 1);
    ck_assert_int_eq(ht_node_find_gpu(n, "0000:b4:00.0"), -1);
    ck_assert_int_eq(ht_node_find_numa(n, 3), 3);
    ck_assert_int_eq(ht_node_find_numa(n, 9), -1);
    ht_node_free(n);
}
END_TEST

START_TEST(test_synthetic_and_host)
{
    ht_node *n;
    tg_error err;
    ck_assert_int_eq(ht_node_load("pack:2 numa:1 core:2 pu:2", &n, &err), 0);
    ck_assert_int_eq(n->npackages, 2);
    ck_assert_int_eq(n->ncores, 4);
    ck_assert_int_eq(n->npus, 8);
    ck_assert_int_eq(n->nnuma, 2);
    ck_assert_int_eq(n->ngpus, 0);
    ck_assert_int_eq(n->core_package[3], 1);
    assert_list(n->core[3], "6-7");
    ht_node_free(n);
    /* Without Core objects every PU is a core. */
    ck_assert_int_eq(ht_node_load("numa:2 pu:3", &n, &err), 0);
    ck_assert_int_eq(n->ncores, 6);
    ck_assert_int_eq(n->npackages, 0);
    ck_assert_int_eq(n->core_package[0], -1);
    ht_node_free(n);
    ck_assert_int_eq(ht_node_load(NULL, &n, &err), 0);
    ck_assert_int_ge(n->ncores, 1);
    ck_assert_int_ge(n->nnuma, 1);
    ht_node_free(n);
    ASSERT_ERROR(ht_node_load("pack:x", &n, &err), err, -1,
                 "'pack:x' is neither a file nor an hwloc synthetic "
                 "description");
    const char *bad = tu_write("bad.xml", "<topology>\n");
    ASSERT_ERROR(ht_node_load(bad, &n, &err), err, -1,
                 "not an hwloc XML topology");
    ck_assert_str_eq(err.source, bad);
}
END_TEST

START_TEST(test_memcal_roundtrip)
{
    ht_memcal cal;
    memset(&cal, 0, sizeof cal);
    strcpy(cal.host, "n\"0");
    cal.array_bytes = 1 << 20;
    cal.repeats = 3;
    ht_memcal_numa numa[2] = {
        {0, "dram", "0-3", 4, 1000.5, 1200.25, 1200.25, 95.5},
        {1, "hbm", "0-3", 4, 4000, 4500, 4500, 0}};
    ht_memcal_gpu gpu = {"0000:17:00.0", "GPU-1", "M",  3 * GIB, 900000,
                         12000,          450000,  6000, 6500,    12500,
                         12000,          9000,    7000};
    cal.nnuma = 2;
    cal.numa = numa;
    cal.ngpus = 1;
    cal.gpus = &gpu;
    tg_error err;
    const char *path = tu_path("cal.json");
    ck_assert_int_eq(ht_memcal_write(path, &cal, &err), 0);
    ht_memcal *r;
    ck_assert_int_eq(ht_memcal_read(path, &r, &err), 0);
    ck_assert_str_eq(r->host, "n\"0");
    ck_assert_uint_eq(r->array_bytes, 1 << 20);
    ck_assert_int_eq(r->repeats, 3);
    ck_assert_int_eq(r->nnuma, 2);
    ck_assert_mem_eq(&r->numa[0], &numa[0], sizeof numa[0]);
    ck_assert(r->numa[1].latency == 0);
    ck_assert_int_eq(r->ngpus, 1);
    ck_assert_mem_eq(&r->gpus[0], &gpu, sizeof gpu);

    /* Calibrate the test machine: hwloc's figures stay, the rest fill. */
    ht_node *n = htf_node();
    n->gpus[0].memory = 0;
    ck_assert_int_eq(ht_node_calibrate(n, r, path, &err), 0);
    ck_assert(n->numa[0].bandwidth == 20000);
    ck_assert_int_eq(n->numa[0].bandwidth_src, HT_SRC_HWLOC);
    ck_assert(n->numa[0].latency == 90);
    ck_assert(n->numa[1].bandwidth == 80000);
    ck_assert(n->numa[1].latency == 0);
    ck_assert_int_eq(n->numa[1].latency_src, HT_SRC_NONE);
    ck_assert_uint_eq(n->gpus[0].memory, 3 * GIB);
    ck_assert_int_eq(n->gpus[0].memory_src, HT_SRC_CALIBRATION);
    ck_assert(n->gpus[0].bw_device == 900000);
    ck_assert(n->gpus[0].bw_copy_pageable == 6000); /* the slower way */
    ck_assert(n->gpus[0].bw_copy_pinned == 12000);
    ck_assert(n->gpus[0].lat_copy_pinned == 7000);
    ht_node_free(n);
    /* Node 0 without memory attributes takes the calibration. */
    ck_assert_int_eq(ht_node_load("pack:1 numa:1 core:2 pu:1", &n, &err), 0);
    r->ngpus = 0;
    r->nnuma = 1;
    ck_assert_int_eq(ht_node_calibrate(n, r, path, &err), 0);
    ck_assert(n->numa[0].bandwidth == 1200.25);
    ck_assert_int_eq(n->numa[0].bandwidth_src, HT_SRC_CALIBRATION);
    ck_assert(n->numa[0].latency == 95.5);
    r->nnuma = 2;
    ASSERT_ERROR(ht_node_calibrate(n, r, path, &err), err, -1,
                 "calibrated NUMA node 1 is not on this node");
    r->nnuma = 0;
    r->ngpus = 1;
    ASSERT_ERROR(ht_node_calibrate(n, r, path, &err), err, -1,
                 "calibrated GPU 0000:17:00.0 is not on this node");
    ht_node_free(n);
    ht_memcal_free(r);
}
END_TEST

START_TEST(test_memcal_errors)
{
    ht_memcal *c;
    tg_error err;
    const char *p = tu_write("c1.json", "{\"format\": \"topomap-memcal\",\n"
                                        " \"version\": 2, \"numa\": []}\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 0,
                 "unsupported topomap-memcal version (this topomap reads "
                 "version 1)");
    p = tu_write("c2.json", "{\"format\": \"topomap-memcal\", \"version\": 1,\n"
                            " \"numa\": [\n"
                            "  {\"os_index\": 0, \"bandwidth_mib_s\": 1},\n"
                            "  {\"os_index\": 1,\n"
                            "   \"latency_ns\": 9}]}\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 4,
                 "numa[1]: needs \"bandwidth_mib_s\"");
    p = tu_write("c3.json", "{\"format\": \"topomap-memcal\", \"version\": 1,\n"
                            " \"numa\": [{\"os_index\": 0, \"bandwidth_mib_s\""
                            ": 1}, {\"os_index\": 0, \"bandwidth_mib_s\": 1}]"
                            "}\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 2,
                 "numa[1]: NUMA node 0 is listed twice");
    p = tu_write("c4.json", "{\"format\": \"topomap-memcal\", \"version\": 1,\n"
                            " \"numa\": [],\n \"gpus\": [\n"
                            "  {\"busid\": \"0000:01:00.0\", \"pinned_mib_s\":"
                            " -3}]}\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 4,
                 "gpus[0]: \"pinned_mib_s\" must be a positive number");
    p = tu_write("c5.json", "{\"format\": \"topomap-memcal\", \"version\": 1,\n"
                            " \"numa\": [\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 3, "");
    p = tu_write("c6.json", "{\"format\": \"topomap-placement\"}\n");
    ASSERT_ERROR(ht_memcal_read(p, &c, &err), err, 0,
                 "not a topomap-memcal file: \"format\" must be "
                 "\"topomap-memcal\"");
}
END_TEST

static const char input_text[] =
    "{\"format\": \"topomap-hetero-input\", \"version\": 1,\n"
    " \"ranks\": [\n"
    "  {\"rank\": 1, \"host\": \"n0\", \"local_rank\": 1,\n"
    "   \"compute\": {\"gpu\": 0.5}, \"sends\": [[0, 100, 2]]},\n"
    "  {\"rank\": 0, \"host\": \"n0\", \"local_rank\": 0,\n"
    "   \"compute\": {\"cpu\": 2, \"gpu\": 0.25}, \"memory_bytes\": 1024,\n"
    "   \"memory_bound\": 0.5, \"sends\": [[1, 7]]}\n"
    " ]}\n";

START_TEST(test_input)
{
    ht_input *in;
    tg_error err;
    const char *p = tu_write("in.json", input_text);
    int rc = ht_input_read(p, &in, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    ck_assert_int_eq(in->n, 2);
    const ht_rank *r = &in->ranks[0];
    ck_assert_str_eq(r->host, "n0");
    ck_assert_int_eq(r->local_rank, 0);
    ck_assert(r->t_cpu == 2 && r->t_gpu == 0.25);
    ck_assert_uint_eq(r->footprint, 1024);
    ck_assert(r->memory_bound == 0.5);
    ck_assert_int_eq(r->nsends, 1);
    ck_assert_int_eq(r->sends[0].peer, 1);
    ck_assert_uint_eq(r->sends[0].bytes, 7);
    ck_assert_uint_eq(r->sends[0].messages, 0);
    r = &in->ranks[1];
    ck_assert(r->t_cpu < 0 && r->t_gpu == 0.5);
    ck_assert(r->memory_bound == 1);
    ck_assert_uint_eq(r->footprint, 0);
    ck_assert_uint_eq(r->sends[0].messages, 2);
    ht_input_free(in);

    /* Each error names the line where the rank's entry starts. */
    static const struct {
        const char *from, *to, *text;
        long line;
    } bad[] = {
        {"\"rank\": 0,", "\"rank\": 1,", "ranks[1]: rank 1 is listed twice", 5},
        {"\"rank\": 0,", "\"rank\": 2,", "ranks[1]: needs \"rank\" in 0..1", 5},
        {"\"local_rank\": 0", "\"local_rank\": 1",
         "ranks[1]: host n0 local rank 1 is also rank 1", 5},
        {"{\"cpu\": 2, \"gpu\": 0.25}", "{}",
         "ranks[1]: \"compute\" must hold seconds in 0..1e+09 for \"cpu\", "
         "\"gpu\" or both",
         5},
        /* Absurd times are refused: 1e308 + 1e308 is inf in the sums, and
         * a placement predicting inf is no JSON. */
        {"{\"cpu\": 2, \"gpu\": 0.25}", "{\"cpu\": 1e308, \"gpu\": 0.25}",
         "ranks[1]: \"compute\" must hold seconds in 0..1e+09", 5},
        {"{\"cpu\": 2, \"gpu\": 0.25}", "{\"cpu\": 2, \"gpu\": 1000000001}",
         "ranks[1]: \"compute\" must hold seconds in 0..1e+09", 5},
        {"[[1, 7]]", "[[0, 7]]",
         "ranks[1]: sends[0]: peer 0 is not another rank of 0..1", 5},
        {"[[1, 7]]", "[[1, 7], [1, 8]]",
         "ranks[1]: sends[1]: peer 1 is listed twice", 5},
        {"[[0, 100, 2]]", "[[0, -100]]", "ranks[0]: sends[0] must be", 3},
        {"0.5}, \"sends\"", "-1}, \"sends\"", "ranks[0]: \"compute\" must hold",
         3},
        {"\"memory_bound\": 0.5", "\"memory_bound\": 2",
         "ranks[1]: \"memory_bound\" must be in 0..1", 5},
        {"\"memory_bytes\": 1024", "\"memory_bytes\": 1.5",
         "ranks[1]: \"memory_bytes\" must be a count", 5},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ASSERT_ERROR(ht_input_read(edited(input_text, bad[i].from, bad[i].to),
                                   &in, &err),
                     err, bad[i].line, bad[i].text);
    /* The bound itself is a time. */
    rc = ht_input_read(edited(input_text, "{\"cpu\": 2, \"gpu\": 0.25}",
                              "{\"cpu\": 1e9, \"gpu\": 0.25}"),
                       &in, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    ck_assert(in->ranks[0].t_cpu == 1e9);
    ht_input_free(in);
}
END_TEST

static int keep_none(const ht_entry *e, void *arg)
{
    (void)e;
    (void)arg;
    return 0;
}

START_TEST(test_placement_files)
{
    ht_placement pl = {0};
    ht_entry e[2];
    memset(e, 0, sizeof e);
    e[0] = (ht_entry){strdup("n0"),
                      0,
                      0,
                      HT_PROC_GPU,
                      "0000:17:00.0",
                      "GPU-1",
                      hwloc_bitmap_alloc(),
                      HT_POLICY_BIND,
                      hwloc_bitmap_alloc(),
                      HT_MEM_DEVICE};
    e[1] = (ht_entry){strdup("n0"),
                      1,
                      1,
                      HT_PROC_CPU,
                      "",
                      "",
                      hwloc_bitmap_alloc(),
                      HT_POLICY_INTERLEAVE,
                      hwloc_bitmap_alloc(),
                      HT_MEM_HBM};
    ht_list_parse(e[0].cpus, "0-1");
    ht_list_parse(e[0].nodes, "0");
    ht_list_parse(e[1].cpus, "2,5");
    ht_list_parse(e[1].nodes, "1,3");
    pl.n = 2;
    pl.entries = e;
    pl.cost = (ht_cost){1.5, 2.25};
    tg_error err;
    const char *path = tu_path("pl.json");
    ck_assert_int_eq(ht_placement_write(path, &pl, &err), 0);
    ht_placement *r;
    ck_assert_int_eq(ht_placement_read(path, &r, &err), 0);
    ck_assert_int_eq(r->n, 2);
    ck_assert(r->cost.makespan == 1.5 && r->cost.sum == 2.25);
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(r->entries[i].host, "n0");
        ck_assert_int_eq(r->entries[i].local_rank, i);
        ck_assert_int_eq(r->entries[i].rank, i);
        ck_assert_int_eq(r->entries[i].proc, e[i].proc);
        ck_assert_str_eq(r->entries[i].gpu_busid, e[i].gpu_busid);
        ck_assert_str_eq(r->entries[i].gpu_uuid, e[i].gpu_uuid);
        ck_assert(hwloc_bitmap_isequal(r->entries[i].cpus, e[i].cpus));
        ck_assert(hwloc_bitmap_isequal(r->entries[i].nodes, e[i].nodes));
        ck_assert_int_eq(r->entries[i].policy, e[i].policy);
        ck_assert_int_eq(r->entries[i].mem, e[i].mem);
    }
    ck_assert_ptr_eq(ht_placement_find(r, "n0.cluster", 1), &r->entries[1]);
    ck_assert_ptr_null(ht_placement_find(r, "n1", 1));
    ck_assert_ptr_null(ht_placement_find(r, "n0", 2));
    ht_placement_free(r);
    for (int i = 0; i < 2; i++) {
        free(e[i].host);
        hwloc_bitmap_free(e[i].cpus);
        hwloc_bitmap_free(e[i].nodes);
    }

    /* Rank 1's entry is line 7 of the file written above. */
    FILE *fp = fopen(path, "r");
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = '\0';
    static const struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"\"rank\": 1", "\"rank\": 0", "ranks[1]: rank 0 is also ranks[0]"},
        {"\"local_rank\": 1", "\"local_rank\": 0",
         "ranks[1]: host n0 local rank 0 is also ranks[0]"},
        {"\"proc\": \"cpu\"", "\"proc\": \"gpu\"",
         "ranks[1]: a GPU rank needs \"gpu\""},
        {"\"proc\": \"cpu\"", "\"proc\": \"cpu\", \"gpu\": {}",
         "ranks[1]: a CPU rank has no \"gpu\""},
        {"\"cores\": \"2,5\"", "\"cores\": \"\"",
         "ranks[1]: \"cores\" must be a non-empty list"},
        {"\"interleave\"", "\"spread\"", "ranks[1]: \"memory\" needs"},
        {"\"nodes\": \"1,3\"", "\"nodes\": \"\"",
         "ranks[1]: policy interleave needs NUMA nodes"},
        {"\"nodes\": \"1,3\"", "\"nodes\": \"3-1\"",
         "ranks[1]: memory nodes \"3-1\" is not a list"},
        {"\"kind\": \"hbm\"", "\"kind\": \"pinned\"",
         "ranks[1]: memory kind pinned is for GPU ranks"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_ERROR(
            ht_placement_read(edited(text, bad[i].from, bad[i].to), &r, &err),
            err, 7, bad[i].msg);
        /* The same where rank 1's lists are only checked. */
        ASSERT_ERROR(
            ht_placement_read_some(edited(text, bad[i].from, bad[i].to),
                                   keep_none, NULL, &r, &err),
            err, 7, bad[i].msg);
    }
}
END_TEST

/* ht_placement_read_some: only what keep wants becomes bitmaps; it is
 * asked about every entry in file order, host and ranks read.  The
 * others name index 1048575, the largest: 128 KB a bitmap where built. */
typedef struct asked {
    int n, rank[4];
    char host[4][8];
} asked;

static int keep_rank1(const ht_entry *e, void *arg)
{
    asked *a = arg;
    ck_assert_int_lt(a->n, 4);
    snprintf(a->host[a->n], sizeof a->host[0], "%s", e->host);
    a->rank[a->n++] = e->rank;
    return e->rank == 1;
}

START_TEST(test_placement_keep)
{
    static const char text[] =
        "{\"format\": \"topomap-placement\", \"version\": 1, \"ranks\": [\n"
        "{\"host\": \"n1\", \"local_rank\": 0, \"rank\": 0, \"proc\": "
        "\"cpu\", \"cores\": \"1048575\", \"memory\": {\"policy\": \"bind\", "
        "\"nodes\": \"0-1048575\", \"kind\": \"dram\"}},\n"
        "{\"host\": \"n0\", \"local_rank\": 0, \"rank\": 1, \"proc\": "
        "\"cpu\", \"cores\": \"0-1\", \"memory\": {\"policy\": \"bind\", "
        "\"nodes\": \"0\", \"kind\": \"dram\"}},\n"
        "{\"host\": \"n0.b\", \"local_rank\": 0, \"rank\": 2, \"proc\": "
        "\"cpu\", \"cores\": \"3,1048575\", \"memory\": {\"policy\": "
        "\"none\", \"nodes\": \"1048575\", \"kind\": \"dram\"}}]}\n";
    const char *path = tu_write("keep.json", text);
    ht_placement *r;
    tg_error err;
    asked a = {0};
    int rc = ht_placement_read_some(path, keep_rank1, &a, &r, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    ck_assert_int_eq(a.n, 3);
    static const char *const hosts[] = {"n1", "n0", "n0.b"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(a.rank[i], i);
        ck_assert_str_eq(a.host[i], hosts[i]);
    }
    ck_assert_int_eq(r->n, 3);
    ck_assert(hwloc_bitmap_iszero(r->entries[0].cpus));
    ck_assert(hwloc_bitmap_iszero(r->entries[0].nodes));
    assert_list(r->entries[1].cpus, "0-1");
    assert_list(r->entries[1].nodes, "0");
    ck_assert(hwloc_bitmap_iszero(r->entries[2].cpus));
    ck_assert(hwloc_bitmap_iszero(r->entries[2].nodes));
    /* The rest of each entry is read all the same. */
    ck_assert_int_eq(r->entries[0].policy, HT_POLICY_BIND);
    ck_assert_int_eq(r->entries[2].policy, HT_POLICY_NONE);
    ck_assert_int_eq(r->entries[2].mem, HT_MEM_DRAM);
    ck_assert_ptr_eq(ht_placement_find(r, "n0", 0), &r->entries[1]);
    ht_placement_free(r);
    /* Every list where keep is NULL. */
    ck_assert_int_eq(ht_placement_read(path, &r, &err), 0);
    assert_list(r->entries[0].cpus, "1048575");
    assert_list(r->entries[0].nodes, "0-1048575");
    assert_list(r->entries[2].cpus, "3,1048575");
    ht_placement_free(r);
    /* Past the largest index, refused as a list either way. */
    const char *big = edited(text, "\"3,1048575\"", "\"3,1048576\"");
    ASSERT_ERROR(ht_placement_read(big, &r, &err), err, 4,
                 "ranks[2]: \"cores\" must be a non-empty list");
    a.n = 0;
    ASSERT_ERROR(ht_placement_read_some(big, keep_rank1, &a, &r, &err), err, 4,
                 "ranks[2]: \"cores\" must be a non-empty list");
    big = edited(text, "\"0-1048575\"", "\"0-1048576\"");
    a.n = 0;
    ASSERT_ERROR(ht_placement_read_some(big, keep_rank1, &a, &r, &err), err, 2,
                 "ranks[0]: memory nodes \"0-1048576\" is not a list");
    big = edited(text, "\"0-1048575\"", "\"\"");
    a.n = 0;
    ASSERT_ERROR(ht_placement_read_some(big, keep_rank1, &a, &r, &err), err, 2,
                 "ranks[0]: policy bind needs NUMA nodes");
}
END_TEST

START_TEST(test_parsers)
{
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    ck_assert_int_eq(ht_list_parse(b, "0-3,8,10-11"), 0);
    assert_list(b, "0-3,8,10-11");
    ck_assert_int_eq(ht_list_parse(b, ""), 0);
    ck_assert(hwloc_bitmap_iszero(b));
    static const char *const bad[] = {"-1", "3-1", "1,",   ",1",      "1x",
                                      "a",  "1 2", "1--2", "99999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(ht_list_parse(b, bad[i]) == -1, "'%s'", bad[i]);
        ck_assert_msg(ht_list_parse(NULL, bad[i]) == -1, "'%s'", bad[i]);
    }
    /* The syntax alone: nothing built, the same answer. */
    static const char *const good[] = {"", "0", "0-3,8,10-11", "1048575",
                                       "7,0-1048575"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        ck_assert_msg(ht_list_parse(NULL, good[i]) == 0, "'%s'", good[i]);
    ck_assert_int_eq(ht_list_parse(b, "1048575"), 0);
    ck_assert_int_eq(hwloc_bitmap_first(b), 1048575);
    ck_assert_int_eq(ht_list_parse(NULL, "1048576"), -1);
    ck_assert_int_eq(ht_list_parse(b, "0-1048576"), -1);
    hwloc_bitmap_free(b);
    ck_assert(ht_host_match("n0", "n0"));
    ck_assert(ht_host_match("n0", "N0.cluster"));
    ck_assert(ht_host_match("n0.cluster", "n0"));
    ck_assert(!ht_host_match("n0.a", "n0.b"));
    ck_assert(!ht_host_match("n0", "n01"));
    ck_assert_int_eq(ht_memkind_parse("hbm"), HT_MEM_HBM);
    ck_assert_int_eq(ht_memkind_parse("HBM"), -1);
    ck_assert_str_eq(ht_memkind_name(HT_MEM_MANAGED), "managed");
    ck_assert_int_eq(ht_proc_parse("gpu"), HT_PROC_GPU);
    ck_assert_int_eq(ht_policy_parse("preferred"), HT_POLICY_PREFERRED);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hetero node and files");
    TCase *tc = tcase_create("node");
    tcase_add_test(tc, test_kinds_and_gpus);
    tcase_add_test(tc, test_synthetic_and_host);
    tcase_add_test(tc, test_memcal_roundtrip);
    tcase_add_test(tc, test_memcal_errors);
    tcase_add_test(tc, test_input);
    tcase_add_test(tc, test_placement_files);
    tcase_add_test(tc, test_placement_keep);
    tcase_add_test(tc, test_parsers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(suite);
}
