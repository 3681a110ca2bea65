/* writer.c: at MPI_Finalize every rank packs what it recorded into one
 * array of 64-bit words (sparse: only peers it talked to), rank 0 gathers
 * them and writes the profile, commprof.json (see topomap-formats(5)),
 * to a temporary file renamed into place. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_internal.h"

#define HOST_LEN 256
#define CPUS_LEN 256

/* A growable array of words. */
typedef struct words {
    uint64_t *w;
    size_t n, cap;
    int failed;
} words;

static void put(words *b, uint64_t v)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        uint64_t *w = realloc(b->w, cap * sizeof *w);
        if (!w) {
            b->failed = 1;
            return;
        }
        b->w = w;
        b->cap = cap;
    }
    b->w[b->n++] = v;
}

/* Sparse rows of one dense per-world-rank pair of counters. */
static void put_row(words *b, const uint64_t *bytes, const uint64_t *msgs)
{
    uint64_t nnz = 0;
    for (int i = 0; i < cp.world_size; i++)
        nnz += bytes[i] || msgs[i];
    put(b, nnz);
    for (int i = 0; i < cp.world_size; i++)
        if (bytes[i] || msgs[i]) {
            put(b, (uint64_t)i);
            put(b, bytes[i]);
            put(b, msgs[i]);
        }
}

static void put_comm(words *b, const cp_comm *c)
{
    put(b, (uint64_t)c->size);
    for (int i = 0; i < c->size; i++)
        put(b, (uint64_t)c->members[i]);
    put(b, (uint64_t)c->remote_size);
    for (int i = 0; i < c->remote_size; i++)
        put(b, (uint64_t)c->remote[i]);
    int npeers = cp_comm_peers(c);
    uint64_t used = 0;
    for (int t = 0; t < CP_NTYPES; t++)
        used += c->coll[t].calls > 0;
    put(b, used);
    for (int t = 0; t < CP_NTYPES; t++) {
        const cp_coll *k = &c->coll[t];
        if (!k->calls)
            continue;
        put(b, (uint64_t)t);
        put(b, k->calls);
        put(b, k->bytes);
        put(b, k->ns);
        uint64_t nnz = 0;
        for (int i = 0; k->peers && i < npeers; i++)
            nnz += k->peers[i] != 0;
        put(b, nnz);
        for (int i = 0; k->peers && i < npeers; i++)
            if (k->peers[i]) {
                put(b, (uint64_t)i);
                put(b, k->peers[i]);
            }
    }
}

static void pack(words *b)
{
    put(b, (uint64_t)(cp.t_finalize - cp.t_init));
    for (int t = 0; t < CP_NTYPES; t++) {
        put(b, cp.type_ns[t]);
        put(b, cp.type_calls[t]);
    }
    put_row(b, cp.sent_bytes, cp.sent_msgs);
    put_row(b, cp.recv_bytes, cp.recv_msgs);
    put_row(b, cp.rma_bytes, cp.rma_ops);
    uint64_t ncomms = 0;
    for (cp_comm *c = cp.comms; c; c = c->next)
        ncomms++;
    put(b, ncomms);
    for (cp_comm *c = cp.comms; c; c = c->next)
        put_comm(b, c);
}

/* "0-3,8" from the process's affinity mask. */
static void cpu_list(char *out, size_t size)
{
    cpu_set_t set;
    out[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    size_t len = 0;
    for (int i = 0; i < CPU_SETSIZE && len + 24 < size; i++) {
        if (!CPU_ISSET(i, &set))
            continue;
        int j = i;
        while (j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, &set))
            j++;
        len += (size_t)snprintf(out + len, size - len, "%s%d", len ? "," : "",
                                i);
        if (j > i)
            len += (size_t)snprintf(out + len, size - len, "-%d", j);
        i = j;
    }
}

/* ------------------------------------------------------------ rank 0 */

/* A reader over one rank's words. */
typedef struct cursor {
    const uint64_t *w, *end;
} cursor;

static uint64_t get(cursor *c)
{
    return c->w < c->end ? *c->w++ : 0;
}

/* JSON string (hostnames, library version): escape what must be. */
static void json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

static void write_row(FILE *fp, cursor *c)
{
    uint64_t nnz = get(c);
    fputc('[', fp);
    for (uint64_t i = 0; i < nnz; i++) {
        uint64_t dst = get(c), bytes = get(c), msgs = get(c);
        fprintf(fp, "%s[%llu, %llu, %llu]", i ? ", " : "",
                (unsigned long long)dst, (unsigned long long)bytes,
                (unsigned long long)msgs);
    }
    fputc(']', fp);
}

/* Per-rank facts and the three sparse rows; leaves each cursor at the
 * rank's communicators. */
static void write_ranks(FILE *fp, cursor *cur, const char *hosts,
                        const char *cpus, const int *local)
{
    int n = cp.world_size;
    fprintf(fp, "  \"ranks\": [\n");
    for (int r = 0; r < n; r++) {
        cursor *c = &cur[r];
        uint64_t wall = get(c), mpi = 0;
        uint64_t ns[CP_NTYPES], calls[CP_NTYPES];
        for (int t = 0; t < CP_NTYPES; t++) {
            ns[t] = get(c);
            calls[t] = get(c);
            mpi += ns[t];
        }
        fprintf(fp, "    {\"rank\": %d, \"host\": ", r);
        json_str(fp, hosts + (size_t)r * HOST_LEN);
        fprintf(fp, ", \"local_rank\": %d, \"cpus\": ", local[r]);
        json_str(fp, cpus + (size_t)r * CPUS_LEN);
        fprintf(fp, ", \"wall_ns\": %llu, \"mpi_ns\": %llu,\n     \"types\": {",
                (unsigned long long)wall, (unsigned long long)mpi);
        int first = 1;
        for (int t = 0; t < CP_NTYPES; t++)
            if (calls[t]) {
                fprintf(fp, "%s\"%s\": {\"ns\": %llu, \"calls\": %llu}",
                        first ? "" : ", ", cp_type_names[t],
                        (unsigned long long)ns[t],
                        (unsigned long long)calls[t]);
                first = 0;
            }
        fprintf(fp, "},\n     \"sent\": ");
        write_row(fp, c);
        fprintf(fp, ",\n     \"received\": ");
        write_row(fp, c);
        fprintf(fp, ",\n     \"rma\": ");
        write_row(fp, c);
        fprintf(fp, "}%s\n", r + 1 < n ? "," : "");
    }
    fprintf(fp, "  ],\n");
}

/* One distinct communicator across ranks. */
typedef struct comm_out {
    const uint64_t *desc; /* size, members..., remote_size, remote... */
    size_t desc_len;
    int size, remote_size;
    struct contrib {
        int rank;
        const uint64_t *recs; /* this rank's records */
        uint64_t nrecs;
    } *who;
    int nwho;
} comm_out;

/* Skip a rank's records for one communicator; returns their start. */
static const uint64_t *skip_recs(cursor *c, uint64_t nrecs)
{
    const uint64_t *start = c->w;
    for (uint64_t i = 0; i < nrecs; i++) {
        c->w += 4;
        uint64_t npeers = get(c);
        c->w += 2 * npeers;
    }
    return start;
}

static void write_comm(FILE *fp, const comm_out *o, int id)
{
    fprintf(fp, "    {\"id\": %d, \"size\": %d, \"members\": [", id, o->size);
    for (int i = 0; i < o->size; i++)
        fprintf(fp, "%s%llu", i ? ", " : "", (unsigned long long)o->desc[1 + i]);
    fprintf(fp, "]");
    if (o->remote_size) {
        fprintf(fp, ", \"remote\": [");
        for (int i = 0; i < o->remote_size; i++)
            fprintf(fp, "%s%llu", i ? ", " : "",
                    (unsigned long long)o->desc[2 + o->size + i]);
        fprintf(fp, "]");
    }
    fprintf(fp, ",\n     \"collectives\": [");
    int first = 1;
    for (int k = 0; k < o->nwho; k++) {
        cursor c = {o->who[k].recs, o->who[k].recs + 1000000000};
        for (uint64_t i = 0; i < o->who[k].nrecs; i++) {
            uint64_t t = get(&c), calls = get(&c), bytes = get(&c),
                     ns = get(&c), npeers = get(&c);
            fprintf(fp, "%s\n       {\"rank\": %d, \"type\": \"%s\", "
                        "\"calls\": %llu, \"bytes\": %llu, \"ns\": %llu",
                    first ? "" : ",", o->who[k].rank,
                    t < CP_NTYPES ? cp_type_names[t] : "?",
                    (unsigned long long)calls, (unsigned long long)bytes,
                    (unsigned long long)ns);
            first = 0;
            if (npeers) {
                fprintf(fp, ", \"peers\": [");
                for (uint64_t p = 0; p < npeers; p++) {
                    uint64_t peer = get(&c), b = get(&c);
                    fprintf(fp, "%s[%llu, %llu]", p ? ", " : "",
                            (unsigned long long)peer, (unsigned long long)b);
                }
                fprintf(fp, "]");
            }
            fprintf(fp, "}");
        }
    }
    fprintf(fp, "\n     ]}");
}

/* Group every rank's communicator records by identical membership. */
static int write_comms(FILE *fp, cursor *cur)
{
    int n = cp.world_size, nout = 0, cap = 0, rc = 0;
    comm_out *out = NULL;
    for (int r = 0; r < n && !rc; r++) {
        uint64_t ncomms = get(&cur[r]);
        for (uint64_t k = 0; k < ncomms && !rc; k++) {
            cursor *c = &cur[r];
            const uint64_t *desc = c->w;
            int size = (int)get(c);
            c->w += size;
            int remote = (int)get(c);
            c->w += remote;
            size_t len = (size_t)(c->w - desc);
            uint64_t nrecs = get(c);
            const uint64_t *recs = skip_recs(c, nrecs);
            if (!nrecs)
                continue;
            int j = 0;
            while (j < nout && !(out[j].desc_len == len &&
                                 !memcmp(out[j].desc, desc, len * 8)))
                j++;
            if (j == nout) {
                if (nout == cap) {
                    cap = cap ? 2 * cap : 16;
                    comm_out *no = realloc(out, (size_t)cap * sizeof *no);
                    if (!no) {
                        rc = -1;
                        break;
                    }
                    out = no;
                }
                out[nout++] = (comm_out){desc, len, size, remote, NULL, 0};
            }
            struct contrib *w = realloc(out[j].who, (size_t)(out[j].nwho + 1) *
                                                        sizeof *w);
            if (!w) {
                rc = -1;
                break;
            }
            out[j].who = w;
            w[out[j].nwho++] = (struct contrib){r, recs, nrecs};
        }
    }
    fprintf(fp, "  \"communicators\": [");
    for (int j = 0; j < nout && !rc; j++) {
        fprintf(fp, "%s\n", j ? "," : "");
        write_comm(fp, &out[j], j);
    }
    fprintf(fp, "\n  ]\n");
    for (int j = 0; j < nout; j++)
        free(out[j].who);
    free(out);
    return rc;
}

static int write_file(const char *path, const uint64_t *all, const int *counts,
                      const int *displs, const char *hosts, const char *cpus,
                      const int *local)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp)
        return -1;
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        cp_warn("cannot create %s", path);
        if (fd >= 0)
            close(fd);
        free(tmp);
        return -1;
    }
    int n = cp.world_size;
    cursor *cur = malloc((size_t)n * sizeof *cur);
    int rc = cur ? 0 : -1;
    if (!rc) {
        for (int r = 0; r < n; r++)
            cur[r] = (cursor){all + displs[r], all + displs[r] + counts[r]};
        char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
        int vlen = 0;
        PMPI_Get_library_version(version, &vlen);
        char *nl = strchr(version, '\n');
        if (nl)
            *nl = '\0';
        fprintf(fp, "{\n  \"format\": \"topomap-commprof\",\n  \"version\": 1,\n"
                    "  \"mpi_library\": ");
        json_str(fp, version);
        fprintf(fp, ",\n  \"world_size\": %d,\n  \"types\": [", n);
        for (int t = 0; t < CP_NTYPES; t++)
            fprintf(fp, "%s\"%s\"", t ? ", " : "", cp_type_names[t]);
        fprintf(fp, "],\n");
        write_ranks(fp, cur, hosts, cpus, local);
        rc = write_comms(fp, cur);
        fprintf(fp, "}\n");
    }
    free(cur);
    if (fflush(fp) != 0 || ferror(fp))
        rc = -1;
    if (fclose(fp) != 0)
        rc = -1;
    if (!rc && rename(tmp, path) != 0)
        rc = -1;
    if (rc) {
        unlink(tmp);
        cp_warn("could not write the profile %s", path);
    }
    free(tmp);
    return rc;
}

int cp_write_profile(void)
{
    words b = {0};
    pack(&b);
    int n = cp.world_size, me = cp.world_rank;
    int count = b.failed ? 0 : (int)b.n; /* a rank out of memory sends none */
    char host[HOST_LEN] = "", cpus[CPUS_LEN];
    int hlen = 0, local = 0;
    PMPI_Get_processor_name(host, &hlen);
    cpu_list(cpus, sizeof cpus);
    MPI_Comm node;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                             MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        PMPI_Comm_rank(node, &local);
        PMPI_Comm_free(&node);
    }
    int *counts = NULL, *displs = NULL, *locals = NULL;
    char *hosts = NULL, *allcpus = NULL;
    uint64_t *all = NULL;
    size_t total = 0;
    if (me == 0) {
        counts = calloc((size_t)n, sizeof *counts);
        displs = calloc((size_t)n, sizeof *displs);
        locals = calloc((size_t)n, sizeof *locals);
        hosts = calloc((size_t)n, HOST_LEN);
        allcpus = calloc((size_t)n, CPUS_LEN);
    }
    PMPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(&local, 1, MPI_INT, locals, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(host, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR, 0,
                MPI_COMM_WORLD);
    PMPI_Gather(cpus, CPUS_LEN, MPI_CHAR, allcpus, CPUS_LEN, MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (me == 0) {
        for (int r = 0; r < n; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = malloc((total ? total : 1) * sizeof *all);
    }
    PMPI_Gatherv(b.w, count, MPI_UINT64_T, all, counts, displs, MPI_UINT64_T,
                 0, MPI_COMM_WORLD);
    int rc = 0;
    if (me == 0) {
        const char *path = getenv("COMMPROF_OUT");
        if (!path || !*path)
            path = "commprof.json";
        rc = all ? write_file(path, all, counts, displs, hosts, allcpus, locals)
                 : -1;
    }
    free(b.w);
    free(all);
    free(counts);
    free(displs);
    free(locals);
    free(hosts);
    free(allcpus);
    return rc;
}
