/* test_profile.c: the profile reader, matrix, per-type totals, writer and
 * merge on hand-written profiles whose every number is known
 * (tests/data/profile_4.json and its per-rank partial files
 * profile_4.json.rankR), and bad input with exact lines and messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static const char *data(const char *name)
{
    static char path[4][1024];
    static int next;
    const char *dir = getenv("TOPOMAP_DATA");
    ck_assert_msg(dir != NULL, "TOPOMAP_DATA is not set");
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static tg_profile *read_ok(const char *path)
{
    tg_profile *p = NULL;
    tg_error err;
    int rc = tg_profile_read(path, &p, &err);
    ck_assert_msg(rc == 0, "%s: %s", path, err.text);
    return p;
}

/* 1 when the two files hold the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    ck_assert_msg(fa && fb, "cannot open %s or %s", a, b);
    int ca, cb;
    do {
        ca = getc(fa);
        cb = getc(fb);
    } while (ca == cb && ca != EOF);
    fclose(fa);
    fclose(fb);
    return ca == cb;
}

static const char *const types19[] = {
    "p2p", "barrier", "bcast", "reduce", "allreduce", "alltoall",
    "alltoallv", "alltoallw", "allgather", "allgatherv", "gather",
    "gatherv", "scatter", "scatterv", "reduce_scatter",
    "reduce_scatter_block", "scan", "exscan", "rma"};

static int type(const tg_profile *p, const char *name)
{
    int t = tg_profile_type(p, name);
    ck_assert_msg(t >= 0, "no type %s", name);
    return t;
}

/* ------------------------------------------------------ profile_4.json */

/* Per rank of the fixture: the time and calls of the types it used. */
static const struct {
    const char *host, *cpus;
    int local;
    uint64_t wall, mpi;
    struct {
        const char *type;
        uint64_t ns, calls;
    } t[6];
} ranks4[4] = {
    {"n0", "0", 0, 1000000000, 405000000,
     {{"p2p", 200000000, 10}, {"bcast", 10000000, 1},
      {"allreduce", 100000000, 1}, {"alltoall", 50000000, 2},
      {"scatter", 40000000, 1}, {"rma", 5000000, 3}}},
    {"n0", "1", 1, 1100000000, 420000000,
     {{"p2p", 300000000, 8}, {"bcast", 20000000, 1},
      {"allreduce", 100000000, 1}}},
    {"n1", "0", 0, 900000000, 260000000,
     {{"p2p", 100000000, 5}, {"bcast", 10000000, 1},
      {"allreduce", 100000000, 1}, {"alltoall", 50000000, 2}}},
    {"n1", "1", 1, 950000000, 262000000,
     {{"p2p", 150000000, 4}, {"bcast", 10000000, 1},
      {"allreduce", 100000000, 1}, {"rma", 2000000, 1}}},
};

static void assert_rows(const tg_prof_row *row, int n, int want_n,
                        const int want[][3])
{
    ck_assert_int_eq(n, want_n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(row[i].peer, want[i][0]);
        ck_assert_uint_eq(row[i].bytes, (uint64_t)want[i][1]);
        ck_assert_uint_eq(row[i].count, (uint64_t)want[i][2]);
    }
}

static void assert_coll(const tg_profile *p, const tg_prof_coll *k, int rank,
                        const char *t, uint64_t calls, uint64_t bytes,
                        uint64_t ns, int npeers, const int peers[][2])
{
    ck_assert_int_eq(k->rank, rank);
    ck_assert_str_eq(p->types[k->type], t);
    ck_assert_uint_eq(k->calls, calls);
    ck_assert_uint_eq(k->bytes, bytes);
    ck_assert_uint_eq(k->ns, ns);
    ck_assert_int_eq(k->npeers, npeers);
    for (int i = 0; i < npeers; i++) {
        ck_assert_int_eq(k->peers[i].index, peers[i][0]);
        ck_assert_uint_eq(k->peers[i].bytes, (uint64_t)peers[i][1]);
    }
}

/* Every number of profile_4.json (or of the merge of its partial files). */
static void assert_profile4(const tg_profile *p)
{
    ck_assert_int_eq(p->partial, 0);
    ck_assert_str_eq(p->mpi_library, "Open MPI v4.1.4, fixture");
    ck_assert_int_eq(p->world_size, 4);
    ck_assert_int_eq(p->nranks, 4);
    ck_assert_int_eq(p->ntypes, 19);
    for (int t = 0; t < 19; t++)
        ck_assert_str_eq(p->types[t], types19[t]);
    for (int r = 0; r < 4; r++) {
        const tg_prof_rank *rk = &p->ranks[r];
        ck_assert_int_eq(rk->present, 1);
        ck_assert_str_eq(rk->host, ranks4[r].host);
        ck_assert_str_eq(rk->cpus, ranks4[r].cpus);
        ck_assert_int_eq(rk->local_rank, ranks4[r].local);
        ck_assert_uint_eq(rk->wall_ns, ranks4[r].wall);
        ck_assert_uint_eq(rk->mpi_ns, ranks4[r].mpi);
        uint64_t ns[19] = {0}, calls[19] = {0};
        for (int i = 0; i < 6 && ranks4[r].t[i].type; i++) {
            int t = type(p, ranks4[r].t[i].type);
            ns[t] = ranks4[r].t[i].ns;
            calls[t] = ranks4[r].t[i].calls;
        }
        for (int t = 0; t < 19; t++) {
            ck_assert_uint_eq(rk->ns[t], ns[t]);
            ck_assert_uint_eq(rk->calls[t], calls[t]);
        }
    }
    const tg_prof_rank *rk = p->ranks;
    assert_rows(rk[0].sent, rk[0].nsent, 2, (const int[][3]){{1, 4000, 4}, {2, 100, 1}});
    assert_rows(rk[0].received, rk[0].nreceived, 2, (const int[][3]){{1, 4000, 4}, {3, 50, 2}});
    assert_rows(rk[0].rma, rk[0].nrma, 1, (const int[][3]){{3, 64, 2}});
    assert_rows(rk[1].sent, rk[1].nsent, 1, (const int[][3]){{0, 4000, 4}});
    assert_rows(rk[1].received, rk[1].nreceived, 2, (const int[][3]){{0, 4000, 4}, {2, 0, 3}});
    assert_rows(rk[1].rma, rk[1].nrma, 0, NULL);
    assert_rows(rk[2].sent, rk[2].nsent, 1, (const int[][3]){{1, 0, 3}});
    assert_rows(rk[2].received, rk[2].nreceived, 1, (const int[][3]){{0, 100, 1}});
    assert_rows(rk[2].rma, rk[2].nrma, 0, NULL);
    assert_rows(rk[3].sent, rk[3].nsent, 2, (const int[][3]){{0, 50, 2}, {2, 7, 1}});
    assert_rows(rk[3].received, rk[3].nreceived, 0, NULL);
    assert_rows(rk[3].rma, rk[3].nrma, 1, (const int[][3]){{0, 8, 1}});

    ck_assert_int_eq(p->ncomms, 3);
    const tg_prof_comm *c = &p->comms[0];
    ck_assert_int_eq(c->size, 2);
    ck_assert_int_eq(c->members[0], 0);
    ck_assert_int_eq(c->members[1], 2);
    ck_assert_int_eq(c->remote_size, 0);
    ck_assert_ptr_null(c->remote);
    ck_assert_int_eq(c->ncolls, 2);
    assert_coll(p, &c->colls[0], 0, "alltoall", 2, 64, 50000000, 0, NULL);
    assert_coll(p, &c->colls[1], 2, "alltoall", 2, 64, 50000000, 0, NULL);

    c = &p->comms[1];
    ck_assert_int_eq(c->size, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(c->members[i], i);
    ck_assert_int_eq(c->remote_size, 0);
    ck_assert_int_eq(c->ncolls, 8);
    for (int r = 0; r < 4; r++) {
        if (r == 1)
            assert_coll(p, &c->colls[2], 1, "bcast", 1, 30, 20000000, 3,
                        (const int[][2]){{0, 30}, {2, 30}, {3, 30}});
        else
            assert_coll(p, &c->colls[2 * r], r, "bcast", 1, 0, 10000000, 0,
                        NULL);
        assert_coll(p, &c->colls[2 * r + 1], r, "allreduce", 1, 80,
                    100000000, 0, NULL);
    }

    c = &p->comms[2]; /* an intercommunicator */
    ck_assert_int_eq(c->size, 2);
    ck_assert_int_eq(c->members[0], 0);
    ck_assert_int_eq(c->members[1], 1);
    ck_assert_int_eq(c->remote_size, 2);
    ck_assert_int_eq(c->remote[0], 2);
    ck_assert_int_eq(c->remote[1], 3);
    ck_assert_int_eq(tg_prof_comm_world(c, 0), 2);
    ck_assert_int_eq(tg_prof_comm_world(c, 1), 3);
    ck_assert_int_eq(c->ncolls, 1);
    assert_coll(p, &c->colls[0], 0, "scatter", 1, 24, 40000000, 2,
                (const int[][2]){{0, 12}, {1, 12}});
}

START_TEST(read_every_number)
{
    tg_profile *p = read_ok(data("profile_4.json"));
    assert_profile4(p);
    ck_assert_int_eq(tg_profile_type(p, "p2p"), 0);
    ck_assert_int_eq(tg_profile_type(p, "rma"), 18);
    ck_assert_int_eq(tg_profile_type(p, "neighbor_alltoall"), -1);
    tg_profile_free(p);
    tg_profile_free(NULL);
}
END_TEST

/* ---------------------------------------------------------------- matrix */

static void assert_matrix(const tg_profile *p, const char *t, int received,
                          int want_n, const int want[][4])
{
    tg_prof_entry *e = NULL;
    size_t n = 99;
    tg_error err;
    ck_assert_int_eq(tg_profile_matrix(p, type(p, t), received, &e, &n, &err),
                     0);
    ck_assert_msg(n == (size_t)want_n, "%s: %zu entries, expected %d", t, n,
                  want_n);
    for (int i = 0; i < want_n; i++) {
        ck_assert_int_eq(e[i].src, want[i][0]);
        ck_assert_int_eq(e[i].dst, want[i][1]);
        ck_assert_uint_eq(e[i].bytes, (uint64_t)want[i][2]);
        ck_assert_uint_eq(e[i].count, (uint64_t)want[i][3]);
    }
    free(e);
}

START_TEST(matrix_of_each_type)
{
    tg_profile *p = read_ok(data("profile_4.json"));
    assert_matrix(p, "p2p", 0, 6,
                  (const int[][4]){{0, 1, 4000, 4}, {0, 2, 100, 1},
                                   {1, 0, 4000, 4}, {2, 1, 0, 3},
                                   {3, 0, 50, 2}, {3, 2, 7, 1}});
    /* The receivers' view: rank 2 did not record rank 3's 7 bytes. */
    assert_matrix(p, "p2p", 1, 5,
                  (const int[][4]){{0, 1, 4000, 4}, {0, 2, 100, 1},
                                   {1, 0, 4000, 4}, {2, 1, 0, 3},
                                   {3, 0, 50, 2}});
    assert_matrix(p, "rma", 0, 2,
                  (const int[][4]){{0, 3, 64, 2}, {3, 0, 8, 1}});
    /* No per-peer bytes: each member's bytes on the diagonal. */
    assert_matrix(p, "alltoall", 0, 2,
                  (const int[][4]){{0, 0, 64, 2}, {2, 2, 64, 2}});
    assert_matrix(p, "allreduce", 0, 4,
                  (const int[][4]){{0, 0, 80, 1}, {1, 1, 80, 1},
                                   {2, 2, 80, 1}, {3, 3, 80, 1}});
    /* The root's sends; the other members' 0 bytes are left out. */
    assert_matrix(p, "bcast", 0, 3,
                  (const int[][4]){{1, 0, 30, 1}, {1, 2, 30, 1},
                                   {1, 3, 30, 1}});
    /* Intercommunicator: peers index the remote group [2, 3]. */
    assert_matrix(p, "scatter", 0, 2,
                  (const int[][4]){{0, 2, 12, 1}, {0, 3, 12, 1}});
    assert_matrix(p, "gather", 0, 0, NULL);

    tg_prof_entry *e = NULL;
    size_t n = 0;
    tg_error err;
    ck_assert_int_eq(tg_profile_matrix(p, type(p, "rma"), 1, &e, &n, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "only p2p has received rows, not rma");
    ck_assert_int_eq(tg_profile_matrix(p, 19, 0, &e, &n, &err), TG_EINVAL);
    ck_assert_int_eq(tg_profile_matrix(p, -1, 0, &e, &n, &err), TG_EINVAL);
    tg_profile_free(p);
}
END_TEST

/* Pairs recorded on several communicators add up; unsorted rows and peers
 * in a file are sorted by the reader. */
START_TEST(matrix_adds_communicators)
{
    const char *path = tu_write(
        "sum.json",
        "{\"format\": \"topomap-commprof\", \"version\": 1, \"world_size\": 3,\n"
        " \"types\": [\"p2p\", \"alltoallv\", \"rma\"],\n"
        " \"ranks\": [\n"
        "  {\"rank\": 2, \"host\": \"h\", \"local_rank\": 0, \"cpus\": \"\",\n"
        "   \"wall_ns\": 0, \"mpi_ns\": 0, \"types\": {},\n"
        "   \"sent\": [[1, 5, 1], [0, 6, 2]], \"received\": [], \"rma\": []}],\n"
        " \"communicators\": [\n"
        "  {\"id\": 0, \"size\": 3, \"members\": [2, 0, 1], \"collectives\": [\n"
        "   {\"rank\": 2, \"type\": \"alltoallv\", \"calls\": 1, \"bytes\": 9,"
        " \"ns\": 1, \"peers\": [[2, 4], [1, 5]]}]},\n"
        "  {\"id\": 1, \"size\": 2, \"members\": [1, 2], \"collectives\": [\n"
        "   {\"rank\": 2, \"type\": \"alltoallv\", \"calls\": 3, \"bytes\": 7,"
        " \"ns\": 1, \"peers\": [[0, 7], [1, 0]]}]}]}\n");
    tg_profile *p = read_ok(path);
    ck_assert_int_eq(p->nranks, 1);
    ck_assert_int_eq(p->ranks[0].present, 0);
    ck_assert_int_eq(p->ranks[0].nsent, 0);
    assert_rows(p->ranks[2].sent, p->ranks[2].nsent, 2,
                (const int[][3]){{0, 6, 2}, {1, 5, 1}});
    ck_assert_int_eq(p->comms[0].colls[0].peers[0].index, 1);
    /* Peer 1 of [2, 0, 1] is rank 0, peer 2 rank 1; peer 0 of [1, 2] is
     * rank 1 again: 4 + 7 bytes in 1 + 3 calls.  A 0-byte peer is left
     * out. */
    assert_matrix(p, "alltoallv", 0, 2,
                  (const int[][4]){{2, 0, 5, 1}, {2, 1, 11, 4}});
    assert_matrix(p, "p2p", 0, 2, (const int[][4]){{2, 0, 6, 2}, {2, 1, 5, 1}});
    tg_profile_free(p);
}
END_TEST

/* ----------------------------------------------------------------- stats */

START_TEST(stats_per_type)
{
    tg_profile *p = read_ok(data("profile_4.json"));
    tg_prof_type_stats *s = NULL;
    tg_error err;
    ck_assert_int_eq(tg_profile_stats(p, &s, &err), 0);
    static const struct {
        const char *type;
        uint64_t ms, calls, bytes;
        int size;   /* the one communicator size, or 0 for none */
    } want[] = {
        {"p2p", 750, 27, 8157, 0},      {"allreduce", 400, 4, 320, 4},
        {"alltoall", 100, 4, 128, 2},   {"bcast", 50, 4, 30, 4},
        {"scatter", 40, 1, 24, 4},      {"rma", 7, 4, 72, 0},
    };
    int seen[19] = {0};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int t = type(p, want[i].type);
        seen[t] = 1;
        ck_assert_uint_eq(s[t].ns, want[i].ms * 1000000);
        ck_assert_uint_eq(s[t].calls, want[i].calls);
        ck_assert_uint_eq(s[t].bytes, want[i].bytes);
        /* Of 1347 ms in all. */
        ck_assert_double_eq_tol(s[t].share, (double)want[i].ms / 1347.0,
                                1e-12);
        ck_assert_int_eq(s[t].nsizes, want[i].size ? 1 : 0);
        if (want[i].size)
            ck_assert_int_eq(s[t].sizes[0], want[i].size);
    }
    for (int t = 0; t < 19; t++)
        if (!seen[t]) {
            ck_assert_uint_eq(s[t].ns, 0);
            ck_assert_uint_eq(s[t].calls, 0);
            ck_assert_uint_eq(s[t].bytes, 0);
            ck_assert_int_eq(s[t].nsizes, 0);
            ck_assert(s[t].share == 0);
        }
    tg_profile_stats_free(s, p->ntypes);
    tg_profile_free(p);
}
END_TEST

/* Communicator sizes: distinct, ascending; an intercommunicator counts
 * both groups. */
START_TEST(stats_sizes)
{
    const char *path = tu_write(
        "sizes.json",
        "{\"format\": \"topomap-commprof\", \"version\": 1, \"world_size\": 5,\n"
        " \"types\": [\"p2p\", \"bcast\", \"rma\"],\n"
        " \"ranks\": [{\"rank\": 0, \"host\": \"h\", \"local_rank\": 0,"
        " \"cpus\": \"\", \"wall_ns\": 0, \"mpi_ns\": 0, \"types\": {},"
        " \"sent\": [], \"received\": [], \"rma\": []}],\n"
        " \"communicators\": [\n"
        "  {\"id\": 0, \"size\": 5, \"members\": [0, 1, 2, 3, 4],"
        " \"collectives\": [{\"rank\": 0, \"type\": \"bcast\", \"calls\": 1,"
        " \"bytes\": 1, \"ns\": 1}, {\"rank\": 0, \"type\": \"bcast\","
        " \"calls\": 1, \"bytes\": 1, \"ns\": 1}]},\n"
        "  {\"id\": 1, \"size\": 2, \"members\": [0, 1],"
        " \"collectives\": [{\"rank\": 0, \"type\": \"bcast\", \"calls\": 1,"
        " \"bytes\": 1, \"ns\": 1}]},\n"
        "  {\"id\": 2, \"size\": 1, \"members\": [0], \"remote\": [3, 4],"
        " \"collectives\": [{\"rank\": 0, \"type\": \"bcast\", \"calls\": 1,"
        " \"bytes\": 1, \"ns\": 1}]},\n"
        "  {\"id\": 3, \"size\": 2, \"members\": [0, 4],"
        " \"collectives\": [{\"rank\": 0, \"type\": \"bcast\", \"calls\": 1,"
        " \"bytes\": 1, \"ns\": 1}]}]}\n");
    tg_profile *p = read_ok(path);
    tg_prof_type_stats *s = NULL;
    tg_error err;
    ck_assert_int_eq(tg_profile_stats(p, &s, &err), 0);
    ck_assert_uint_eq(s[1].bytes, 5);
    ck_assert_int_eq(s[1].nsizes, 3);
    ck_assert_int_eq(s[1].sizes[0], 2);
    ck_assert_int_eq(s[1].sizes[1], 3);
    ck_assert_int_eq(s[1].sizes[2], 5);
    ck_assert(s[0].share == 0); /* no time at all */
    tg_profile_stats_free(s, p->ntypes);
    tg_profile_free(p);
}
END_TEST

/* ----------------------------------------------------- write and merge */

START_TEST(write_is_libcommprof_layout)
{
    tg_profile *p = read_ok(data("profile_4.json"));
    const char *out = tu_path("out.json");
    tg_error err;
    ck_assert_int_eq(tg_profile_write(out, p, &err), 0);
    ck_assert_msg(same_file(out, data("profile_4.json")),
                  "written profile differs from the fixture");
    /* A partial profile keeps its mark. */
    tg_profile *part = read_ok(data("profile_4.json.rank1"));
    ck_assert_int_eq(part->partial, 1);
    ck_assert_int_eq(tg_profile_write(out, part, &err), 0);
    tg_profile *back = read_ok(out);
    ck_assert_int_eq(back->partial, 1);
    ck_assert_int_eq(back->nranks, 1);
    ck_assert_int_eq(back->ranks[1].present, 1);
    tg_profile_free(back);
    tg_profile_free(part);
    /* A folder that does not exist: an error, and nothing left. */
    int files = tu_count_files();
    ck_assert_int_eq(tg_profile_write(tu_path("none/out.json"), p, &err),
                     TG_EIO);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot create"));
    ck_assert_int_eq(tu_count_files(), files);
    tg_profile_free(p);
}
END_TEST

static void add_ok(tg_profile_merge *m, const char *name)
{
    tg_error err;
    const char *path = data(name);
    int rc = tg_profile_merge_add(m, read_ok(path), path, &err);
    ck_assert_msg(rc == 0, "%s: %s", path, err.text);
}

/* Whatever order the partial files come in, their merge is the profile
 * libcommprof writes at MPI_Finalize, to the byte. */
START_TEST(merge_equals_full_profile)
{
    static const int orders[][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}};
    tg_profile_merge *m = tg_profile_merge_new();
    for (int o = 0; o < 3; o++) {
        for (int i = 0; i < 4; i++) {
            char name[64];
            snprintf(name, sizeof name, "profile_4.json.rank%d",
                     orders[o][i]);
            add_ok(m, name);
        }
        tg_profile *p = NULL;
        tg_error err;
        ck_assert_int_eq(tg_profile_merge_finish(m, &p, &err), 0);
        assert_profile4(p);
        const char *out = tu_path("merged.json");
        ck_assert_int_eq(tg_profile_write(out, p, &err), 0);
        ck_assert_msg(same_file(out, data("profile_4.json")),
                      "merge in order %d differs from profile_4.json", o);
        tg_profile_free(p);
    }
    tg_profile_merge_free(m);
}
END_TEST

START_TEST(merge_missing_ranks)
{
    tg_profile_merge *m = tg_profile_merge_new();
    add_ok(m, "profile_4.json.rank2");
    add_ok(m, "profile_4.json.rank1");
    tg_profile *p = NULL;
    tg_error err;
    ck_assert_int_eq(tg_profile_merge_finish(m, &p, &err), 0);
    ck_assert_int_eq(p->partial, 0);
    ck_assert_int_eq(p->nranks, 2);
    ck_assert_int_eq(p->ranks[0].present, 0);
    ck_assert_int_eq(p->ranks[1].present, 1);
    ck_assert_int_eq(p->ranks[2].present, 1);
    ck_assert_int_eq(p->ranks[3].present, 0);
    /* Rank 1's world communicator comes first, then rank 2's [0, 2]. */
    ck_assert_int_eq(p->ncomms, 2);
    ck_assert_int_eq(p->comms[0].size, 4);
    ck_assert_int_eq(p->comms[0].ncolls, 4);
    assert_coll(p, &p->comms[0].colls[0], 1, "bcast", 1, 30, 20000000, 3,
                (const int[][2]){{0, 30}, {2, 30}, {3, 30}});
    assert_coll(p, &p->comms[0].colls[3], 2, "allreduce", 1, 80, 100000000,
                0, NULL);
    ck_assert_int_eq(p->comms[1].size, 2);
    ck_assert_int_eq(p->comms[1].ncolls, 1);
    /* Written and read back: the missing ranks stay missing. */
    const char *out = tu_path("two.json");
    ck_assert_int_eq(tg_profile_write(out, p, &err), 0);
    tg_profile *back = read_ok(out);
    ck_assert_int_eq(back->nranks, 2);
    ck_assert_int_eq(back->ranks[3].present, 0);
    tg_profile_free(back);
    tg_profile_free(p);
    tg_profile_merge_free(m);
}
END_TEST

/* Add `text` (written to `name`) after profile_4.json.rank0; the error. */
static void merge_fails(const char *name, const char *text, const char *msg)
{
    tg_profile_merge *m = tg_profile_merge_new();
    add_ok(m, "profile_4.json.rank0");
    const char *path = text ? tu_write(name, text) : data(name);
    tg_error err;
    ck_assert_int_eq(tg_profile_merge_add(m, read_ok(path), path, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.source, path);
    ck_assert_msg(!strcmp(err.text, msg), "'%s', expected '%s'", err.text,
                  msg);
    tg_profile_merge_free(m);
}

/* A partial profile of rank `rank` of `world` ranks, with `types`. */
static const char *partial_text(int rank, int world, const char *types)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"format\": \"topomap-commprof\", \"version\": 1,"
             " \"partial\": true, \"world_size\": %d, \"types\": [%s],\n"
             " \"ranks\": [{\"rank\": %d, \"host\": \"h\", \"local_rank\": 0,"
             " \"cpus\": \"\", \"wall_ns\": 0, \"mpi_ns\": 0, \"types\": {},"
             " \"sent\": [], \"received\": [], \"rma\": []}],"
             " \"communicators\": []}\n",
             world, types, rank);
    return buf;
}

START_TEST(merge_refuses)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "rank 0 is also in %s",
             data("profile_4.json.rank0"));
    merge_fails("profile_4.json.rank0", NULL, msg);
    char t19[512] = "";
    for (int t = 0; t < 19; t++)
        snprintf(t19 + strlen(t19), sizeof t19 - strlen(t19), "%s\"%s\"",
                 t ? ", " : "", types19[t]);
    snprintf(msg, sizeof msg, "world_size 8, but %s has world_size 4",
             data("profile_4.json.rank0"));
    merge_fails("w8.json", partial_text(1, 8, t19), msg);
    snprintf(msg, sizeof msg, "its \"types\" differ from those of %s",
             data("profile_4.json.rank0"));
    merge_fails("types.json", partial_text(1, 4, "\"p2p\", \"rma\""), msg);
    merge_fails("profile_4.json", NULL,
                "not a partial profile (no \"partial\": true)");

    tg_profile_merge *m = tg_profile_merge_new();
    tg_profile *p = NULL;
    tg_error err;
    ck_assert_int_eq(tg_profile_merge_finish(m, &p, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "no partial profile to merge");
    ck_assert_ptr_null(p);
    tg_profile_merge_free(m);
    tg_profile_merge_free(NULL);
}
END_TEST

/* A partial profile of `world` ranks (type p2p) listing ranks[0..n) in
 * that order, with "cartesian": [carts] when carts is not NULL, written
 * to `name`; its path. */
static const char *partial_file(const char *name, int world,
                                const int *ranks, int n, const char *carts)
{
    size_t size = 512 + 200 * (size_t)n + (carts ? strlen(carts) : 0);
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    size_t len = (size_t)snprintf(
        text, size,
        "{\"format\": \"topomap-commprof\", \"version\": 1,"
        " \"partial\": true, \"job\": {\"id\": \"00000000000000ab\"},"
        " \"world_size\": %d, \"types\": [\"p2p\"],\n \"ranks\": [",
        world);
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(
            text + len, size - len,
            "%s{\"rank\": %d, \"host\": \"h\", \"local_rank\": 0,"
            " \"cpus\": \"\", \"wall_ns\": %d, \"mpi_ns\": 0, \"types\": {},"
            " \"sent\": [], \"received\": [], \"rma\": []}",
            i ? ",\n  " : "", ranks[i], ranks[i]);
    snprintf(text + len, size - len,
             "],\n \"communicators\": []%s%s%s}\n",
             carts ? ",\n \"cartesian\": [" : "", carts ? carts : "",
             carts ? "]" : "");
    const char *path = tu_write(name, text);
    free(text);
    return path;
}

/* A partial file of a large world lists a few ranks: the reader keeps
 * their list, in the file's order, and merging goes by it: a merge of
 * such files holds exactly their ranks, and a rank that comes twice is
 * named, the lowest of those that do. */
START_TEST(merge_large_world)
{
    enum { W = 1 << 20 };
    static const int a[] = {W - 1, 7, 300000}, b[] = {0}, d[] = {524288, 1},
                     e[] = {5, W - 1, 7};
    char pa[1024], pb[1024], pc[1024], pd[1024];
    snprintf(pa, sizeof pa, "%s", partial_file("big.rank_a", W, a, 3, NULL));
    snprintf(pb, sizeof pb, "%s", partial_file("big.rank_b", W, b, 1, NULL));
    snprintf(pc, sizeof pc, "%s",
             partial_file("big.rank_c", W, NULL, 0, NULL));
    snprintf(pd, sizeof pd, "%s", partial_file("big.rank_d", W, d, 2, NULL));

    tg_profile *p = read_ok(pa);
    ck_assert_int_eq(p->world_size, W);
    ck_assert_int_eq(p->nranks, 3);
    ck_assert_ptr_nonnull(p->listed);
    ck_assert_int_eq(p->listed[0], W - 1);
    ck_assert_int_eq(p->listed[1], 7);
    ck_assert_int_eq(p->listed[2], 300000);
    ck_assert_int_eq(p->ranks[7].present, 1);
    ck_assert_uint_eq(p->ranks[7].wall_ns, 7);
    ck_assert_int_eq(p->ranks[8].present, 0);
    ck_assert_int_eq(p->ranks[W - 1].present, 1);
    tg_profile_free(p);
    /* A profile that is not partial has no list. */
    p = read_ok(data("profile_4.json"));
    ck_assert_ptr_null(p->listed);
    tg_profile_free(p);

    tg_profile_merge *m = tg_profile_merge_new();
    const char *paths[] = {pa, pb, pc, pd};
    tg_error err;
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(
            tg_profile_merge_add(m, read_ok(paths[i]), paths[i], &err), 0);
    ck_assert_int_eq(tg_profile_merge_finish(m, &p, &err), 0);
    ck_assert_int_eq(p->partial, 0);
    ck_assert_ptr_null(p->listed);
    ck_assert_int_eq(p->world_size, W);
    ck_assert_int_eq(p->nranks, 6);
    static const int in[] = {0, 1, 7, 300000, 524288, W - 1};
    static const int out[] = {2, 6, 8, 299999, 524289, W - 2};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(p->ranks[in[i]].present, 1);
        ck_assert_uint_eq(p->ranks[in[i]].wall_ns, (uint64_t)in[i]);
        ck_assert_int_eq(p->ranks[out[i]].present, 0);
    }
    int present = 0;
    for (int r = 0; r < W; r++)
        present += p->ranks[r].present;
    ck_assert_int_eq(present, 6);
    tg_profile_free(p);

    /* Ranks 7 and W - 1 of e are in a: rank 7 is named. */
    ck_assert_int_eq(tg_profile_merge_add(m, read_ok(pa), pa, &err), 0);
    const char *pe = partial_file("big.rank_e", W, e, 3, NULL);
    ck_assert_int_eq(tg_profile_merge_add(m, read_ok(pe), pe, &err),
                     TG_EINVAL);
    char msg[1100];
    snprintf(msg, sizeof msg, "rank 7 is also in %s", pa);
    ck_assert_str_eq(err.text, msg);
    tg_profile_merge_free(m);
}
END_TEST

/* Append {"dims": [1], "periods": [periodic], "members": [member]}. */
static void add_cart_text(char *buf, size_t size, int member, int periodic)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len,
             "%s{\"dims\": [1], \"periods\": [%d], \"members\": [%d]}",
             len ? ", " : "", periodic, member);
}

/* Cartesian communicators listed by several files, and twice by one,
 * are kept once, ordered by the lowest rank that lists them, then by
 * their place in its file; many of them (the table that finds them
 * grows), in either order of the files. */
START_TEST(merge_carts_once)
{
    static char c0[64 * 1024], c1[64 * 1024];
    c0[0] = c1[0] = '\0';
    /* Rank 1: [0] .. [299], then [5] periodic (another communicator). */
    for (int i = 0; i < 300; i++)
        add_cart_text(c1, sizeof c1, i, 0);
    add_cart_text(c1, sizeof c1, 5, 1);
    /* Rank 0: [299] down to [150], [350], and [299] again. */
    for (int i = 299; i >= 150; i--)
        add_cart_text(c0, sizeof c0, i, 0);
    add_cart_text(c0, sizeof c0, 350, 0);
    add_cart_text(c0, sizeof c0, 299, 0);
    static const int r0[] = {0}, r1[] = {1};
    char p0[1024], p1[1024];
    snprintf(p0, sizeof p0, "%s", partial_file("cart.rank0", 400, r0, 1, c0));
    snprintf(p1, sizeof p1, "%s", partial_file("cart.rank1", 400, r1, 1, c1));
    for (int order = 0; order < 2; order++) {
        tg_profile_merge *m = tg_profile_merge_new();
        tg_error err;
        const char *first = order ? p0 : p1, *second = order ? p1 : p0;
        ck_assert_int_eq(
            tg_profile_merge_add(m, read_ok(first), first, &err), 0);
        ck_assert_int_eq(
            tg_profile_merge_add(m, read_ok(second), second, &err), 0);
        tg_profile *p = NULL;
        ck_assert_int_eq(tg_profile_merge_finish(m, &p, &err), 0);
        /* Rank 0's 151, then rank 1's other 151. */
        ck_assert_int_eq(p->ncarts, 302);
        for (int i = 0; i < 302; i++) {
            int want = i < 150 ? 299 - i : i == 150 ? 350 : i - 151;
            int periodic = i == 301;
            if (periodic)
                want = 5;
            ck_assert_int_eq(p->carts[i].ndims, 1);
            ck_assert_int_eq(p->carts[i].dims[0], 1);
            ck_assert_int_eq(p->carts[i].periods[0], periodic);
            ck_assert_int_eq(p->carts[i].size, 1);
            ck_assert_msg(p->carts[i].members[0] == want,
                          "order %d: cartesian %d is [%d], not [%d]", order,
                          i, p->carts[i].members[0], want);
        }
        tg_profile_free(p);
        tg_profile_merge_free(m);
    }
}
END_TEST

/* ----------------------------------------------------------------- sniff */

START_TEST(sniff)
{
    ck_assert_int_eq(tg_profile_sniff(data("profile_4.json")), 1);
    ck_assert_int_eq(tg_profile_sniff(data("profile_4.json.rank2")), 1);
    ck_assert_int_eq(tg_profile_sniff(data("profile_truncated.json")), 1);
    ck_assert_int_eq(tg_profile_sniff(tu_write(
                         "late.json", "{\"version\": 1, \"ranks\": [[1, 2]],\n"
                                      " \"format\": \"topomap-commprof\"}")),
                     1);
    ck_assert_int_eq(tg_profile_sniff(tu_write(
                         "g.tg.json", "{\"format\": \"topomap-taskgraph\", "
                                      "\"version\": 1, \"tasks\": 0}")),
                     0);
    ck_assert_int_eq(tg_profile_sniff(tu_write("x.json", "[\"format\"]")), 0);
    ck_assert_int_eq(tg_profile_sniff(tu_write("y.graph", "3 2\n2\n1 3\n2\n")),
                     0);
    ck_assert_int_eq(tg_profile_sniff(tu_path("none.json")), 0);
    ck_assert_int_eq(tg_profile_sniff(tu_tmpdir()), 0);
    /* "format" past the first 64 KiB (members sorted, `jq -S`): the
     * whole file decides.  A long "communicators" comes first, then the
     * format, of a profile or of a task graph (a key may be escaped). */
    size_t pad = 100000;
    char *text = malloc(pad + 200);
    ck_assert_ptr_nonnull(text);
    for (int graph = 0; graph < 2; graph++) {
        size_t n = (size_t)sprintf(text, "{\"communicators\": [");
        while (n < pad)
            n += (size_t)sprintf(text + n, "%s{}", n > 20 ? ", " : "");
        sprintf(text + n, "],\n \"\\u0066ormat\": \"%s\", \"version\": 1}",
                graph ? "topomap-taskgraph" : "topomap-commprof");
        ck_assert_int_eq(tg_profile_sniff(tu_write("sorted.json", text)),
                         !graph);
    }
    /* Cut short past 64 KiB: no format, no profile. */
    text[pad - 10] = '\0';
    ck_assert_int_eq(tg_profile_sniff(tu_write("cut.json", text)), 0);
    free(text);
}
END_TEST

/* ------------------------------------------------------------- bad input */

/* A valid 2-rank profile; each bad case replaces one or two pieces. */
static const char base[] =
    "{\"format\": \"topomap-commprof\", \"version\": 1, \"world_size\": 2,\n"
    " \"types\": [\"p2p\", \"bcast\", \"rma\"],\n"
    " \"ranks\": [\n"
    "  {\"rank\": 0, \"host\": \"a\", \"local_rank\": 0, \"cpus\": \"0\",\n"
    "   \"wall_ns\": 5, \"mpi_ns\": 3, \"types\": {\"p2p\": {\"ns\": 3, \"calls\": 1}},\n"
    "   \"sent\": [[1, 8, 1]], \"received\": [], \"rma\": []},\n"
    "  {\"rank\": 1, \"host\": \"a\", \"local_rank\": 1, \"cpus\": \"1\",\n"
    "   \"wall_ns\": 5, \"mpi_ns\": 2, \"types\": {\"bcast\": {\"ns\": 2, \"calls\": 1}},\n"
    "   \"sent\": [], \"received\": [[0, 8, 1]], \"rma\": []}],\n"
    " \"communicators\": [\n"
    "  {\"id\": 0, \"size\": 2, \"members\": [0, 1],\n"
    "   \"collectives\": [\n"
    "    {\"rank\": 1, \"type\": \"bcast\", \"calls\": 1, \"bytes\": 8, \"ns\": 2,\n"
    "     \"peers\": [[0, 8]]}]}]}\n";

typedef struct bad_case {
    const char *from, *to;   /* replace the first `from` by `to` */
    const char *from2, *to2; /* and then this (optional) */
    long line;
    const char *msg;         /* the whole message */
} bad_case;

static const bad_case bad_cases[] = {
    {"\"version\": 1", "\"version\": 2", NULL, NULL, 0,
     "profile format version 2, this taskgraph reads version 1"},
    {"\"version\": 1", "\"version\": \"1\"", NULL, NULL, 0,
     "\"version\" must be an integer"},
    {"topomap-commprof", "topomap-taskgraph", NULL, NULL, 0,
     "not a profile: \"format\" must be \"topomap-commprof\""},
    {"\"format\": \"topomap-commprof\", ", "", NULL, NULL, 0,
     "not a profile: \"format\" must be \"topomap-commprof\""},
    {"\"version\": 1,", "\"version\": 1, \"partial\": 1,", NULL, NULL, 1,
     "partial: must be true or false"},
    {"\"world_size\": 2", "\"world_size\": 0", NULL, NULL, 1,
     "world_size: 0 is outside 1..2147483647"},
    {"\"world_size\": 2", "\"worldsize\": 2", NULL, NULL, 1,
     "missing \"world_size\""},
    {"\"world_size\": 2", "\"world_size\": 2, \"mpi_library\": []", NULL,
     NULL, 1,
     "mpi_library: must be a string"},
    {"\"types\": [\"p2p\", \"bcast\", \"rma\"]", "\"types\": \"p2p\"", NULL,
     NULL, 2, "types: must be an array of type names"},
    {"\"rma\"]", "\"p2p\"]", NULL, NULL, 2,
     "types[2]: \"p2p\" is listed twice"},
    {"\"rma\"]", "\"\"]", NULL, NULL, 2,
     "types[2]: must be a type name (a non-empty string)"},
    {"\"ranks\": [", "\"ranks\": 7, \"x\": [", NULL, NULL, 3,
     "ranks: must be an array of rank objects"},
    {"\"host\": \"a\", \"local_rank\": 0", "\"local_rank\": 0", NULL, NULL,
     4, "ranks[0]: missing \"host\""},
    {"\"host\": \"a\", \"local_rank\": 0", "\"host\": 7, \"local_rank\": 0",
     NULL, NULL, 4, "ranks[0].host: must be a string"},
    {"\"local_rank\": 0", "\"local_rank\": -1", NULL, NULL, 4,
     "ranks[0].local_rank: -1 is outside 0..2147483647"},
    {"{\"rank\": 1, ", "{\"rank\": 2, ", NULL, NULL, 7,
     "ranks[1].rank: rank 2 is outside 0..1"},
    {"{\"rank\": 1, ", "{\"rank\": \"1\", ", NULL, NULL, 7,
     "ranks[1].rank: must be an integer"},
    {"{\"rank\": 1, ", "{\"rank\": 0, ", NULL, NULL, 7,
     "ranks[1]: rank 0 is listed twice (also ranks[0])"},
    {"  {\"rank\": 1, ", "  7, {\"rank\": 1, ", NULL, NULL, 7,
     "ranks[1]: must be an object"},
    {"{\"ns\": 3,", "{\"ns\": -3,", NULL, NULL, 5,
     "ranks[0].types.p2p.ns: must be a non-negative integer"},
    {"{\"ns\": 3, \"calls\": 1}", "{\"ns\": 3}", NULL, NULL, 5,
     "ranks[0].types.p2p: missing \"calls\""},
    {"{\"bcast\": {", "{\"allreduce\": {", NULL, NULL, 8,
     "ranks[1].types.allreduce: \"allreduce\" is not in the profile's "
     "\"types\""},
    {"{\"p2p\": {\"ns\": 3, \"calls\": 1}}", "[]", NULL, NULL, 5,
     "ranks[0].types: must be an object"},
    {"{\"p2p\": {\"ns\": 3, \"calls\": 1}}", "{\"p2p\": 3}", NULL, NULL, 5,
     "ranks[0].types.p2p: must be {\"ns\": N, \"calls\": C}"},
    {"\"sent\": [[1, 8, 1]]", "\"sent\": [[1, 8]]", NULL, NULL, 6,
     "ranks[0].sent[0]: must be [rank, bytes, count]"},
    {"\"sent\": [[1, 8, 1]]", "\"sent\": [[1, 8, 1],\n [1, 2, 1]]", NULL,
     NULL, 7, "ranks[0].sent[1]: rank 1 is listed twice"},
    {"\"sent\": [[1, 8, 1]]", "\"sent\": [[-1, 8, 1]]", NULL, NULL, 6,
     "ranks[0].sent[0][0]: rank -1 is outside 0..1"},
    {"[[0, 8, 1]]", "[[0, 8.5, 1]]", NULL, NULL, 9,
     "ranks[1].received[0][1]: must be a non-negative integer"},
    {"[[0, 8, 1]]", "[[0, 8, true]]", NULL, NULL, 9,
     "ranks[1].received[0][2]: must be a non-negative integer"},
    {"\"sent\": [], ", "\"sent\": {}, ", NULL, NULL, 9,
     "ranks[1].sent: must be an array of [rank, bytes, count]"},
    {"\"rma\": []}]", "\"rmb\": []}]", NULL, NULL, 7,
     "ranks[1]: missing \"rma\""},
    {" \"communicators\": [\n", " \"comms\": [\n", NULL, NULL, 1,
     "missing \"communicators\""},
    {"\"id\": 0, ", "", NULL, NULL, 11, "communicators[0]: missing \"id\""},
    {"\"id\": 0, ", "\"id\": null, ", NULL, NULL, 11,
     "communicators[0].id: must be an integer"},
    {"\"size\": 2, ", "\"size\": 1, ", NULL, NULL, 11,
     "communicators[0].size: is 1, but \"members\" lists 2 ranks"},
    {"\"members\": [0, 1]", "\"members\": [0, 5]", NULL, NULL, 11,
     "communicators[0].members[1]: rank 5 is outside 0..1"},
    {"\"members\": [0, 1]", "\"members\": [0, 0]", NULL, NULL, 11,
     "communicators[0].members[1]: rank 0 is listed twice"},
    {"\"size\": 2, \"members\": [0, 1]", "\"size\": 0, \"members\": []",
     NULL, NULL, 11, "communicators[0].size: 0 is outside 1..2"},
    {"\"members\": [0, 1]", "\"members\": []", NULL, NULL, 11,
     "communicators[0].members: must not be empty"},
    {"\"size\": 2, \"members\": [0, 1]",
     "\"size\": 2, \"members\": [0, 1], \"remote\": [1]", NULL, NULL, 11,
     "communicators[0].members[1]: rank 1 is in both \"members\" and "
     "\"remote\""},
    {"\"size\": 2, \"members\": [0, 1]",
     "\"size\": 1, \"members\": [0], \"remote\": [1]", NULL, NULL, 13,
     "communicators[0].collectives[0].rank: rank 1 is not in \"members\""},
    {"\"world_size\": 2", "\"world_size\": 3", "\"rank\": 1, \"type\"",
     "\"rank\": 2, \"type\"", 13,
     "communicators[0].collectives[0].rank: rank 2 is not in \"members\""},
    {"\"world_size\": 2", "\"world_size\": 3",
     "\"size\": 2, \"members\": [0, 1],\n   \"collectives\": [\n    {\"rank\": 1,",
     "\"size\": 3, \"members\": [0, 1, 2],\n   \"collectives\": [\n    {\"rank\": 2,",
     13, "communicators[0].collectives[0].rank: rank 2 has no entry in "
     "\"ranks\""},
    {"\"type\": \"bcast\"", "\"type\": \"gather\"", NULL, NULL, 13,
     "communicators[0].collectives[0].type: \"gather\" is not in the "
     "profile's \"types\""},
    {"\"type\": \"bcast\"", "\"type\": \"p2p\"", NULL, NULL, 13,
     "communicators[0].collectives[0].type: \"p2p\" is not a collective"},
    {"\"type\": \"bcast\"", "\"type\": 1", NULL, NULL, 13,
     "communicators[0].collectives[0].type: must be a type name (a "
     "string)"},
    {"\"bytes\": 8, \"ns\": 2", "\"bytes\": 8", NULL, NULL, 13,
     "communicators[0].collectives[0]: missing \"ns\""},
    {"[[0, 8]]", "[[2, 8]]", NULL, NULL, 14,
     "communicators[0].collectives[0].peers[0][0]: 2 is outside 0..1"},
    {"[[0, 8]]", "[[0, 8], [1, 1], [0, 1]]", NULL, NULL, 14,
     "communicators[0].collectives[0].peers[2]: index 0 is listed twice"},
    {"[[0, 8]]", "[[0, 8, 1]]", NULL, NULL, 14,
     "communicators[0].collectives[0].peers[0]: must be [index, bytes]"},
    {"[[0, 8]]", "{}", NULL, NULL, 14,
     "communicators[0].collectives[0].peers: must be an array of [index, "
     "bytes]"},
    {"\"collectives\": [\n", "\"collectives\": [\n 3, ", NULL, NULL, 13,
     "communicators[0].collectives[0]: must be an object"},
    {"  {\"id\": 0", "  [], {\"id\": 0", NULL, NULL, 11,
     "communicators[0]: must be an object"},
    /* Syntax, found by jansson, with its line. */
    {"\"calls\": 1, \"bytes\": 8", "\"calls\": 1 \"bytes\": 8", NULL, NULL,
     13, "'}' expected near '\"bytes\"'"},
    {"\"wall_ns\": 5, \"mpi_ns\": 3", "\"wall_ns\": 99999999999999999999, "
     "\"mpi_ns\": 3", NULL, NULL, 5, "too big integer near "
     "'99999999999999999999'"},
    {"\"local_rank\": 1, ", "\"local_rank\": 1, \"host\": \"b\", ", NULL,
     NULL, 7, "duplicate object key near '\"host\"'"},
};
#define NBAD ((int)(sizeof bad_cases / sizeof bad_cases[0]))

/* base with `from` replaced by `to` (first occurrence). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' is not in the text", from);
    size_t len = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(len);
    ck_assert_ptr_nonnull(out);
    snprintf(out, len, "%.*s%s%s", (int)(at - text), text, to,
             at + strlen(from));
    return out;
}

START_TEST(bad_input)
{
    const bad_case *c = &bad_cases[_i];
    char *text = replace(base, c->from, c->to);
    if (c->from2) {
        char *t2 = replace(text, c->from2, c->to2);
        free(text);
        text = t2;
    }
    const char *path = tu_write("bad.json", text);
    free(text);
    tg_profile *p = NULL;
    tg_error err;
    memset(&err, 0, sizeof err);
    int rc = tg_profile_read(path, &p, &err);
    ck_assert_msg(rc == TG_EPARSE, "case %d: code %d (%s)", _i, rc, err.text);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(err.source, path);
    ck_assert_msg(!strcmp(err.text, c->msg), "case %d: '%s', expected '%s'",
                  _i, err.text, c->msg);
    ck_assert_msg(err.line == c->line, "case %d: line %ld, expected %ld (%s)",
                  _i, err.line, c->line, err.text);
    ck_assert_int_eq(tg_profile_read(path, &p, NULL), TG_EPARSE);
}
END_TEST

/* The fixtures of bad profiles in tests/data. */
START_TEST(bad_fixtures)
{
    static const struct {
        const char *name;
        long line;
        const char *msg;
    } cases[] = {
        {"profile_bad_version.json", 0,
         "profile format version 2, this taskgraph reads version 1"},
        {"profile_truncated.json", 21, "']' expected near end of file"},
        {"profile_rank_range.json", 25,
         "ranks[3].sent[1][0]: rank 4 is outside 0..3"},
        {"profile_member_type.json", 13,
         "ranks[1].wall_ns: must be a non-negative integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tg_profile *p = NULL;
        tg_error err;
        const char *path = data(cases[i].name);
        ck_assert_int_eq(tg_profile_read(path, &p, &err), TG_EPARSE);
        ck_assert_ptr_null(p);
        ck_assert_str_eq(err.source, path);
        ck_assert_str_eq(err.text, cases[i].msg);
        ck_assert_int_eq(err.line, cases[i].line);
    }
    /* What the bad cases break is a valid profile. */
    tg_profile *p = read_ok(tu_write("base.json", base));
    ck_assert_int_eq(p->nranks, 2);
    tg_profile_free(p);
    p = NULL;
    tg_error err;
    ck_assert_int_eq(tg_profile_read(tu_path("none.json"), &p, &err), TG_EIO);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot open"));
    ck_assert_int_eq(tg_profile_read(tu_write("empty.json", "\n"), &p, &err),
                     TG_EPARSE);
    ck_assert_str_eq(err.text, "empty file");
    ck_assert_int_eq(tg_profile_read(tu_write("arr.json", "[1]"), &p, &err),
                     TG_EPARSE);
    ck_assert_str_eq(err.text, "not a profile: the top level is not an "
                               "object");
}
END_TEST

static Suite *profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *r = tcase_create("read");
    tcase_add_test(r, read_every_number);
    tcase_add_test(r, matrix_of_each_type);
    tcase_add_test(r, matrix_adds_communicators);
    tcase_add_test(r, stats_per_type);
    tcase_add_test(r, stats_sizes);
    tcase_add_test(r, sniff);
    suite_add_tcase(s, r);
    TCase *w = tcase_create("write and merge");
    tcase_add_test(w, write_is_libcommprof_layout);
    tcase_add_test(w, merge_equals_full_profile);
    tcase_add_test(w, merge_missing_ranks);
    tcase_add_test(w, merge_refuses);
    tcase_add_test(w, merge_large_world);
    tcase_add_test(w, merge_carts_once);
    suite_add_tcase(s, w);
    TCase *bad = tcase_create("bad input");
    tcase_add_loop_test(bad, bad_input, 0, NBAD);
    tcase_add_test(bad, bad_fixtures);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    return tu_main(profile_suite);
}
