/* writer.c: the profile, commprof.json (see topomap-formats(5)).
 *
 * At MPI_Finalize every rank packs what it recorded into one array of
 * 64-bit words (sparse: only peers it talked to), rank 0 gathers them and
 * writes the profile.  When the application ends without MPI_Finalize,
 * each rank writes its own partial profile in the same format from its
 * own state instead.  Both are written with nothing but write(2) into a
 * fixed buffer, so that the partial one can be written from a signal
 * handler, and both go to a hidden temporary file renamed into place. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "commprof.h"
#include "cp_internal.h"

/* ------------------------------------------------ async-signal-safe text */

typedef struct out {
    int fd;
    int failed;
    size_t len;
    char buf[8192];
} out;

static void flush(out *o)
{
    size_t done = 0;
    while (done < o->len && !o->failed) {
        ssize_t n = write(o->fd, o->buf + done, o->len - done);
        if (n > 0)
            done += (size_t)n;
        else if (n < 0 && errno != EINTR)
            o->failed = 1;
    }
    o->len = 0;
}

static void put_n(out *o, const char *s, size_t n)
{
    while (n) {
        if (o->len == sizeof o->buf)
            flush(o);
        size_t k = sizeof o->buf - o->len;
        k = k < n ? k : n;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

static void put(out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

static void put_u(out *o, uint64_t v)
{
    char d[24];
    int i = sizeof d;
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_n(o, d + i, sizeof d - (size_t)i);
}

/* A JSON string (host names, the library version): escape what must be. */
static void put_str(out *o, const char *s)
{
    put(o, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            char e[2] = {'\\', (char)ch};
            put_n(o, e, 2);
        } else if (ch < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', "0123456789abcdef"[ch >> 4],
                         "0123456789abcdef"[ch & 15]};
            put_n(o, e, 6);
        } else {
            put_n(o, (const char *)&ch, 1);
        }
    }
    put(o, "\"");
}

/* `tmp` for `path`: a hidden name beside it, so rename() stays in one file
 * system and an interrupted write leaves no file a user mistakes for a
 * profile. */
void cp_tmp_name(char *tmp, size_t size, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(tmp, size, "%.*s.%s.%ld", (int)dir, path, path + dir,
             (long)getpid());
}

/* Write a document with `body` through o to tmp and rename it to path; on
 * failure nothing is left behind.  sync: fsync before the rename (not for
 * checkpoints, which a process's death does not lose from the page cache
 * and whose writing window SIGKILL should rarely meet).  Async-signal-safe.  The final and the
 * partial profile have a buffer each: a signal may come while rank 0
 * writes the final one. */
static out final_out, partial_out, checkpoint_out;

static int write_atomically(out *o, const char *tmp, const char *path,
                            void (*body)(out *, const void *), const void *arg,
                            int sync)
{
    unlink(tmp);
    o->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (o->fd < 0)
        return -1;
    o->failed = 0;
    o->len = 0;
    body(o, arg);
    flush(o);
    int rc = o->failed || (sync && fsync(o->fd) != 0 && errno != EINVAL)
                 ? -1
                 : 0;
    if (close(o->fd) != 0)
        rc = -1;
    if (!rc && rename(tmp, path) != 0)
        rc = -1;
    if (rc)
        unlink(tmp);
    return rc;
}

/* ------------------------------------------------- the document's pieces */

/* put_header's list of phase levels (ascending; written when more than
 * one). */
typedef struct levels {
    int n;
    int level[CP_MAX_PHASES];
} levels;

static void put_header(out *o, int partial, const levels *lv)
{
    put(o, "{\n  \"format\": \"" COMMPROF_FORMAT "\",\n  \"version\": ");
    put_u(o, COMMPROF_VERSION);
    if (partial)
        put(o, ",\n  \"partial\": true");
    if (partial == 2)
        put(o, ",\n  \"checkpoint\": true");
    char id[17];
    for (int i = 0; i < 16; i++)
        id[i] = "0123456789abcdef"[(cp.job_id >> (60 - 4 * i)) & 15];
    id[16] = '\0';
    put(o, ",\n  \"job\": {\"id\": \"");
    put(o, id);
    put(o, "\", \"start\": ");
    put_u(o, cp.job_start > 0 ? (uint64_t)cp.job_start : 0);
    put(o, ", \"host\": ");
    put_str(o, cp.job_host);
    put(o, "}");
    put(o, ",\n  \"mpi_library\": ");
    put_str(o, cp.library);
    put(o, ",\n  \"world_size\": ");
    put_u(o, (uint64_t)cp.world_size);
    put(o, ",\n  \"types\": [");
    for (int t = 0; t < CP_NTYPES; t++) {
        put(o, t ? ", \"" : "\"");
        put(o, cp_type_names[t]);
        put(o, "\"");
    }
    if (lv->n > 1) {
        put(o, "],\n  \"phases\": [");
        for (int i = 0; i < lv->n; i++) {
            put(o, i ? ", " : "");
            put_u(o, (uint64_t)lv->level[i]);
        }
    }
    put(o, "],\n  \"ranks\": [\n");
}

/* What is written of a rank besides its host, cores and counters: the
 * members issue 7's placement reads (compute time is wall minus MPI). */
typedef struct facts {
    uint64_t wall, maxrss_kb;
    uint64_t proc_kind; /* CP_PROC_* */
    uint64_t gpu_known, gpu_mem_used;
    char gpu_bus_id[CP_BUS_ID_LEN];
    uint64_t kinds[CP_MEM_KINDS]; /* bytes sent from each kind */
} facts;

static const char *const proc_kind_names[] = {"null", "\"cpu\"",
                                              "\"gpu\""};

static void put_facts(out *o, const facts *f, uint64_t mpi)
{
    put(o, ",\n     \"compute_ns\": ");
    put_u(o, f->wall > mpi ? f->wall - mpi : 0);
    put(o, ", \"maxrss_kb\": ");
    put_u(o, f->maxrss_kb);
    put(o, ", \"proc_kind\": ");
    put(o, proc_kind_names[f->proc_kind <= CP_PROC_GPU ? f->proc_kind : 0]);
    if (f->gpu_known) {
        put(o, ", \"cuda\": {\"pci_bus_id\": ");
        put_str(o, f->gpu_bus_id);
        put(o, ", \"mem_used\": ");
        put_u(o, f->gpu_mem_used);
        put(o, "}");
    } else {
        put(o, ", \"cuda\": null");
    }
    put(o, ",\n     \"sent_by_kind\": {");
    for (int k = 0; k < CP_MEM_KINDS; k++) {
        put(o, k ? ", \"" : "\"");
        put(o, cp_mem_kind_names[k]);
        put(o, "\": ");
        put_u(o, f->kinds[k]);
    }
    put(o, "}");
}

/* "types": {...}: time and calls of the types called. */
static void put_types(out *o, const uint64_t *ns, const uint64_t *calls)
{
    put(o, "\"types\": {");
    int first = 1;
    for (int t = 0; t < CP_NTYPES; t++)
        if (calls[t]) {
            put(o, first ? "\"" : ", \"");
            put(o, cp_type_names[t]);
            put(o, "\": {\"ns\": ");
            put_u(o, ns[t]);
            put(o, ", \"calls\": ");
            put_u(o, calls[t]);
            put(o, "}");
            first = 0;
        }
    put(o, "}");
}

/* A rank's facts and types, up to its "sent" row. */
static void put_rank_head(out *o, int rank, const char *host, int local,
                          const char *cpus, const facts *f,
                          const uint64_t *ns, const uint64_t *calls)
{
    uint64_t mpi = 0;
    for (int t = 0; t < CP_NTYPES; t++)
        mpi += ns[t];
    put(o, "    {\"rank\": ");
    put_u(o, (uint64_t)rank);
    put(o, ", \"host\": ");
    put_str(o, host);
    put(o, ", \"local_rank\": ");
    put_u(o, (uint64_t)local);
    put(o, ", \"cpus\": ");
    put_str(o, cpus);
    put(o, ", \"wall_ns\": ");
    put_u(o, f->wall);
    put(o, ", \"mpi_ns\": ");
    put_u(o, mpi);
    put_facts(o, f, mpi);
    put(o, ",\n     ");
    put_types(o, ns, calls);
    put(o, ",\n     \"sent\": ");
}

/* What comes before row i (1: received, 2: rma) and after the last. */
static const char *const row_label[] = {"", ",\n     \"received\": ",
                                        ",\n     \"rma\": "};

static void put_triple(out *o, int first, uint64_t a, uint64_t b, uint64_t c)
{
    put(o, first ? "[" : ", [");
    put_u(o, a);
    put(o, ", ");
    put_u(o, b);
    put(o, ", ");
    put_u(o, c);
    put(o, "]");
}

/* World ranks, from words or from ints. */
static void put_ranks(out *o, const uint64_t *w, const int *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            put(o, ", ");
        put_u(o, w ? w[i] : (uint64_t)v[i]);
    }
}

/* A communicator up to its records; its members from words or ints. */
static void put_comm_head(out *o, int id, int size, const uint64_t *mw,
                          const int *mv, int remote, const uint64_t *rw,
                          const int *rv)
{
    put(o, id ? ",\n    {\"id\": " : "\n    {\"id\": ");
    put_u(o, (uint64_t)id);
    put(o, ", \"size\": ");
    put_u(o, (uint64_t)size);
    put(o, ", \"members\": [");
    put_ranks(o, mw, mv, size);
    put(o, "]");
    if (remote) {
        put(o, ", \"remote\": [");
        put_ranks(o, rw, rv, remote);
        put(o, "]");
    }
    put(o, ",\n     \"collectives\": [");
}

/* One rank's record of one type, up to its peers; in "phase_collectives"
 * (level > 0) with its phase. */
static void put_record(out *o, int first, int level, int rank, uint64_t type,
                       uint64_t calls, uint64_t bytes, uint64_t ns)
{
    put(o, first ? "\n       {" : ",\n       {");
    if (level > 0) {
        put(o, "\"phase\": ");
        put_u(o, (uint64_t)level);
        put(o, ", ");
    }
    put(o, "\"rank\": ");
    put_u(o, (uint64_t)rank);
    put(o, ", \"type\": \"");
    put(o, type < CP_NTYPES ? cp_type_names[type] : "?");
    put(o, "\", \"calls\": ");
    put_u(o, calls);
    put(o, ", \"bytes\": ");
    put_u(o, bytes);
    put(o, ", \"ns\": ");
    put_u(o, ns);
}

static void put_peer(out *o, int first, uint64_t peer, uint64_t bytes)
{
    put(o, first ? ", \"peers\": [[" : ", [");
    put_u(o, peer);
    put(o, ", ");
    put_u(o, bytes);
    put(o, "]");
}

/* ------------------------------------------------------ facts at MPI_Init */

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

/* TOPOMAP_PROC_KIND: cpu, gpu, or unset. */
static int proc_kind(void)
{
    const char *v = getenv("TOPOMAP_PROC_KIND");
    if (!v || !*v)
        return CP_PROC_UNSET;
    if (strcmp(v, "cpu") == 0)
        return CP_PROC_CPU;
    if (strcmp(v, "gpu") == 0)
        return CP_PROC_GPU;
    cp_warn("TOPOMAP_PROC_KIND=%s: not cpu or gpu, not recorded", v);
    return CP_PROC_UNSET;
}

/* Rank 0 draws the job's id (getrandom; the clock, pid and address
 * space layout mixed when that fails) and every rank takes it, with rank
 * 0's start time and host (collective). */
static void take_job(void)
{
    struct {
        uint64_t id;
        int64_t start;
    } job = {0, 0};
    if (cp.world_rank == 0) {
        if (getrandom(&job.id, sizeof job.id, GRND_NONBLOCK) !=
            (ssize_t)sizeof job.id) {
            uint64_t h = (uint64_t)cp_monotonic_ns() ^
                         ((uint64_t)getpid() << 32) ^
                         (uint64_t)(uintptr_t)&job ^ (uint64_t)time(NULL);
            h ^= h >> 33;
            h *= 0xff51afd7ed558ccdULL;
            h ^= h >> 33;
            job.id = h;
        }
        job.start = (int64_t)time(NULL);
        memcpy(cp.job_host, cp.host, CP_HOST_LEN);
    }
    PMPI_Bcast(&job, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    PMPI_Bcast(cp.job_host, CP_HOST_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    cp.job_host[CP_HOST_LEN - 1] = '\0';
    cp.job_id = job.id;
    cp.job_start = job.start;
}

void cp_take_facts(void)
{
    cp.proc_kind = proc_kind();
    int len = 0;
    PMPI_Get_processor_name(cp.host, &len);
    cpu_list(cp.cpus, sizeof cp.cpus);
    PMPI_Get_library_version(cp.library, &len);
    char *nl = strchr(cp.library, '\n');
    if (nl)
        *nl = '\0';
    MPI_Comm node;
    cp.local_rank = 0;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                             MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        PMPI_Comm_rank(node, &cp.local_rank);
        PMPI_Comm_free(&node);
    }
    take_job();
}

/* ------------------------------------------------------ the final profile */

/* A growable array of words. */
typedef struct words {
    uint64_t *w;
    size_t n, cap;
    int failed;
} words;

static void word(words *b, uint64_t v)
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

/* What a piece of the document is written from: every phase summed
 * (ph < 0), or phase ph alone (an index into cp.phases).  Everything
 * here is async-signal-safe: a partial profile reads the counters where
 * they are, while other threads may still add to them. */
static int phase_count(void)
{
    return __atomic_load_n(&cp.nphases, __ATOMIC_ACQUIRE);
}

/* Word i of row `row` (0 sent bytes .. 5 rma operations, CP_ROWS). */
static uint64_t row_at(int ph, int row, int i)
{
    size_t at = (size_t)row * (size_t)cp.world_size + (size_t)i;
    if (ph >= 0)
        return cp_load(&cp.phases[ph].rows[at]);
    uint64_t sum = 0;
    for (int p = 0, n = phase_count(); p < n; p++)
        sum += cp_load(&cp.phases[p].rows[at]);
    return sum;
}

static void type_words(int ph, uint64_t *ticks, uint64_t *calls)
{
    for (int t = 0; t < CP_NTYPES; t++) {
        ticks[t] = calls[t] = 0;
        for (int p = ph < 0 ? 0 : ph, n = ph < 0 ? phase_count() : ph + 1;
             p < n; p++) {
            ticks[t] += cp_load(&cp.phases[p].type_ticks[t]);
            calls[t] += cp_load(&cp.phases[p].type_calls[t]);
        }
    }
}

/* A collective record of c summed as ph says: calls, bytes, ticks, and
 * the bytes to member i (peer >= 0) instead when asked. */
typedef struct coll_sum {
    uint64_t calls, bytes, ticks;
} coll_sum;

static coll_sum coll_at(const cp_comm *c, int ph, int t)
{
    coll_sum s = {0, 0, 0};
    for (int p = ph < 0 ? 0 : ph, n = ph < 0 ? phase_count() : ph + 1; p < n;
         p++) {
        const cp_coll *k = __atomic_load_n(&c->phase[p], __ATOMIC_ACQUIRE);
        if (!k)
            continue;
        s.calls += cp_load(&k[t].calls);
        s.bytes += cp_load(&k[t].bytes);
        s.ticks += cp_load(&k[t].ticks);
    }
    return s;
}

static uint64_t peer_at(const cp_comm *c, int ph, int t, int i)
{
    uint64_t sum = 0;
    for (int p = ph < 0 ? 0 : ph, n = ph < 0 ? phase_count() : ph + 1; p < n;
         p++) {
        const cp_coll *k = __atomic_load_n(&c->phase[p], __ATOMIC_ACQUIRE);
        const uint64_t *peers =
            k ? __atomic_load_n(&k[t].peers, __ATOMIC_ACQUIRE) : NULL;
        if (peers)
            sum += cp_load(&peers[i]);
    }
    return sum;
}

/* The indices of this rank's phases in ascending level. */
static int phase_order(int *ord)
{
    int n = phase_count();
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && cp.phases[ord[j - 1]].level > cp.phases[i].level; j--)
            ord[j] = ord[j - 1];
        ord[j] = i;
    }
    return n;
}

/* Sparse rows of a pair of counter rows (bytes, then messages). */
static void pack_row(words *b, int ph, int row)
{
    uint64_t nnz = 0;
    for (int i = 0; i < cp.world_size; i++)
        nnz += row_at(ph, row, i) || row_at(ph, row + 1, i);
    word(b, nnz);
    for (int i = 0; i < cp.world_size; i++) {
        uint64_t bytes = row_at(ph, row, i), msgs = row_at(ph, row + 1, i);
        if (bytes || msgs) {
            word(b, (uint64_t)i);
            word(b, bytes);
            word(b, msgs);
        }
    }
}

/* Types in ns and the three rows, as ph says. */
static void pack_counters(words *b, int ph, cp_rate r)
{
    uint64_t ticks[CP_NTYPES], calls[CP_NTYPES];
    type_words(ph, ticks, calls);
    for (int t = 0; t < CP_NTYPES; t++) {
        word(b, cp_ns(ticks[t], r));
        word(b, calls[t]);
    }
    for (int row = 0; row < CP_ROWS; row += 2)
        pack_row(b, ph, row);
}

/* c's records as ph says: their number, then each. */
static void pack_recs(words *b, const cp_comm *c, int ph, cp_rate r)
{
    int npeers = cp_comm_peers(c);
    uint64_t used = 0;
    for (int t = 0; t < CP_NTYPES; t++)
        used += coll_at(c, ph, t).calls > 0;
    word(b, used);
    for (int t = 0; t < CP_NTYPES; t++) {
        coll_sum k = coll_at(c, ph, t);
        if (!k.calls)
            continue;
        word(b, (uint64_t)t);
        word(b, k.calls);
        word(b, k.bytes);
        word(b, cp_ns(k.ticks, r));
        uint64_t nnz = 0;
        for (int i = 0; i < npeers; i++)
            nnz += peer_at(c, ph, t, i) != 0;
        word(b, nnz);
        for (int i = 0; i < npeers; i++)
            if (peer_at(c, ph, t, i)) {
                word(b, (uint64_t)i);
                word(b, peer_at(c, ph, t, i));
            }
    }
}

/* A communicator: its groups, its records over all phases, and, when this
 * rank has several phases, each phase's (level, records) in ascending
 * level. */
static void pack_comm(words *b, const cp_comm *c, const int *ord, int nph,
                      cp_rate r)
{
    word(b, (uint64_t)c->size);
    for (int i = 0; i < c->size; i++)
        word(b, (uint64_t)c->members[i]);
    word(b, (uint64_t)c->remote_size);
    for (int i = 0; i < c->remote_size; i++)
        word(b, (uint64_t)c->remote[i]);
    pack_recs(b, c, -1, r);
    word(b, nph > 1 ? (uint64_t)nph : 0);
    for (int p = 0; nph > 1 && p < nph; p++) {
        word(b, (uint64_t)cp.phases[ord[p]].level);
        pack_recs(b, c, ord[p], r);
    }
}

/* This rank's facts, with `wall` ns from MPI_Init.  Async-signal-safe
 * (getrusage is a plain system call on Linux).  Host memory is whatever
 * was counted (sent, collective send buffers, one-sided) that no other
 * kind has. */
static void own_facts(facts *f, uint64_t wall)
{
    memset(f, 0, sizeof *f);
    f->wall = wall;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0)
        f->maxrss_kb = (uint64_t)ru.ru_maxrss; /* KiB on Linux */
    f->proc_kind = (uint64_t)cp.proc_kind;
    f->gpu_known = (uint64_t)cp.gpu_known;
    f->gpu_mem_used = cp.gpu_mem_used;
    memcpy(f->gpu_bus_id, cp.gpu_bus_id, sizeof f->gpu_bus_id);
    f->gpu_bus_id[CP_BUS_ID_LEN - 1] = '\0';
    uint64_t total = 0, others = 0;
    for (int i = 0; i < cp.world_size; i++)
        total += row_at(-1, 0, i) + row_at(-1, 4, i);
    for (const cp_comm *c = __atomic_load_n(&cp.comms, __ATOMIC_ACQUIRE); c;
         c = c->next)
        for (int t = 0; t < CP_NTYPES; t++)
            total += coll_at(c, -1, t).bytes;
    for (int k = CP_MEM_HOST + 1; k < CP_MEM_KINDS; k++) {
        f->kinds[k] = cp_load(&cp.kind_bytes[k]);
        others += f->kinds[k];
    }
    f->kinds[CP_MEM_HOST] = total > others ? total - others : 0;
}

/* The facts but wall time, as words for the gather. */
static void pack_facts(words *b, const facts *f)
{
    word(b, f->maxrss_kb);
    word(b, f->proc_kind);
    word(b, f->gpu_known);
    word(b, f->gpu_mem_used);
    for (size_t i = 0; i < CP_BUS_ID_LEN; i += 8) {
        uint64_t w;
        memcpy(&w, f->gpu_bus_id + i, 8);
        word(b, w);
    }
    for (int k = 0; k < CP_MEM_KINDS; k++)
        word(b, f->kinds[k]);
}

/* Times go in ns, converted at this rank's rate. */

/* Times go in ns, converted at this rank's rate.  The words: wall time,
 * the counters over all phases, the facts, then (with several phases)
 * their number and each one's level and counters, then the
 * communicators. */
static void pack(words *b)
{
    cp_rate r = cp_clock_rate();
    facts f;
    own_facts(&f, cp_ns((uint64_t)(cp.t_finalize - cp.t_init), r));
    int ord[CP_MAX_PHASES], nph = phase_order(ord);
    word(b, f.wall);
    uint64_t ticks[CP_NTYPES], calls[CP_NTYPES];
    type_words(-1, ticks, calls);
    for (int t = 0; t < CP_NTYPES; t++) {
        word(b, cp_ns(ticks[t], r));
        word(b, calls[t]);
    }
    pack_facts(b, &f);
    for (int row = 0; row < CP_ROWS; row += 2)
        pack_row(b, -1, row);
    word(b, nph > 1 ? (uint64_t)nph : 0);
    for (int p = 0; nph > 1 && p < nph; p++) {
        word(b, (uint64_t)cp.phases[ord[p]].level);
        pack_counters(b, ord[p], r);
    }
    uint64_t ncomms = 0;
    for (cp_comm *c = cp.comms; c; c = c->next)
        ncomms += !c->outside;
    word(b, ncomms);
    for (cp_comm *c = cp.comms; c; c = c->next)
        if (!c->outside)
            pack_comm(b, c, ord, nph, r);
    uint64_t ncarts = 0;
    for (const cp_cart *c = cp.carts; c; c = c->next)
        ncarts++;
    word(b, ncarts);
    for (const cp_cart *c = cp.carts; c; c = c->next) {
        word(b, (uint64_t)c->ndims);
        for (int d = 0; d < c->ndims; d++)
            word(b, (uint64_t)c->dims[d]);
        for (int d = 0; d < c->ndims; d++)
            word(b, (uint64_t)c->periods[d]);
        word(b, (uint64_t)c->size);
        for (int i = 0; i < c->size; i++)
            word(b, (uint64_t)c->members[i]);
    }
}

/* One element of "cartesian", from words or from a record. */
static void put_cart(out *o, int first, int ndims, const uint64_t *w,
                     const cp_cart *c)
{
    put(o, first ? "\n    {\"dims\": [" : ",\n    {\"dims\": [");
    put_ranks(o, w, c ? c->dims : NULL, ndims);
    put(o, "], \"periods\": [");
    put_ranks(o, w ? w + ndims : NULL, c ? c->periods : NULL, ndims);
    put(o, "], \"members\": [");
    int size = w ? (int)w[2 * ndims] : c->size;
    put_ranks(o, w ? w + 2 * ndims + 1 : NULL, c ? c->members : NULL, size);
    put(o, "]}");
}

/* A reader over one rank's words. */
typedef struct cursor {
    const uint64_t *w, *end;
} cursor;

static uint64_t get(cursor *c)
{
    return c->w < c->end ? *c->w++ : 0;
}

static void unpack_facts(cursor *c, facts *f)
{
    f->maxrss_kb = get(c);
    f->proc_kind = get(c);
    f->gpu_known = get(c);
    f->gpu_mem_used = get(c);
    for (size_t i = 0; i < CP_BUS_ID_LEN; i += 8) {
        uint64_t w = get(c);
        memcpy(f->gpu_bus_id + i, &w, 8);
    }
    f->gpu_bus_id[CP_BUS_ID_LEN - 1] = '\0';
    for (int k = 0; k < CP_MEM_KINDS; k++)
        f->kinds[k] = get(c);
}


/* One distinct communicator across ranks. */
typedef struct comm_out {
    const uint64_t *desc; /* size, members..., remote_size, remote... */
    size_t desc_len;
    int size, remote_size;
    struct contrib {
        int rank;
        const uint64_t *recs; /* this rank's records over all phases */
        uint64_t nrecs;
        const uint64_t *blocks; /* its phases' records: level, nrecs, ... */
        uint64_t nblocks;       /* 0: the rank had one phase */
    } *who;
    int nwho;
} comm_out;

/* What rank 0 writes from: every rank's words and facts, and the phase
 * levels of the run (every rank's, ascending). */
typedef struct gathered {
    cursor *cur;
    const char *hosts, *cpus;
    const int *local;
    levels lv;
    comm_out *comms;
    int ncomms;
} gathered;

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

/* Group every rank's communicator records by identical membership; leaves
 * each cursor at its end. */
static int group_comms(gathered *g)
{
    int n = cp.world_size, cap = 0;
    g->comms = NULL;
    g->ncomms = 0;
    for (int r = 0; r < n; r++) {
        cursor *c = &g->cur[r];
        uint64_t ncomms = get(c);
        for (uint64_t k = 0; k < ncomms; k++) {
            const uint64_t *desc = c->w;
            int size = (int)get(c);
            c->w += size;
            int remote = (int)get(c);
            c->w += remote;
            size_t len = (size_t)(c->w - desc);
            uint64_t nrecs = get(c);
            const uint64_t *recs = skip_recs(c, nrecs);
            uint64_t nblocks = get(c);
            const uint64_t *blocks = c->w;
            for (uint64_t b = 0; b < nblocks; b++) {
                get(c);
                skip_recs(c, get(c));
            }
            if (!nrecs)
                continue;
            int j = 0;
            while (j < g->ncomms &&
                   !(g->comms[j].desc_len == len &&
                     !memcmp(g->comms[j].desc, desc, len * 8)))
                j++;
            if (j == g->ncomms) {
                if (g->ncomms == cap) {
                    cap = cap ? 2 * cap : 16;
                    comm_out *no = realloc(g->comms, (size_t)cap * sizeof *no);
                    if (!no)
                        return -1;
                    g->comms = no;
                }
                g->comms[g->ncomms++] =
                    (comm_out){desc, len, size, remote, NULL, 0};
            }
            comm_out *co = &g->comms[j];
            struct contrib *w =
                realloc(co->who, (size_t)(co->nwho + 1) * sizeof *w);
            if (!w)
                return -1;
            co->who = w;
            w[co->nwho++] = (struct contrib){r, recs, nrecs, blocks, nblocks};
        }
    }
    return 0;
}

static void put_row_words(out *o, cursor *c)
{
    uint64_t nnz = get(c);
    put(o, "[");
    for (uint64_t i = 0; i < nnz; i++) {
        uint64_t dst = get(c), bytes = get(c), msgs = get(c);
        put_triple(o, i == 0, dst, bytes, msgs);
    }
    put(o, "]");
}

/* One element of a rank's "phases": its level, types and the three rows
 * (read from c). */
static void put_phase_words(out *o, int first, uint64_t level,
                            const uint64_t *ns, const uint64_t *calls,
                            cursor *c)
{
    put(o, first ? "\n      {\"phase\": " : ",\n      {\"phase\": ");
    put_u(o, level);
    put(o, ", ");
    put_types(o, ns, calls);
    put(o, ",\n       \"sent\": ");
    put_row_words(o, c);
    put(o, ", \"received\": ");
    put_row_words(o, c);
    put(o, ", \"rma\": ");
    put_row_words(o, c);
    put(o, "}");
}

/* Records from words, in "collectives" (level 0) or with their phase. */
static void put_recs_words(out *o, int *first, int level, int rank,
                           cursor *c, uint64_t nrecs)
{
    for (uint64_t i = 0; i < nrecs; i++) {
        uint64_t t = get(c), calls = get(c), bytes = get(c), ns = get(c),
                 npeers = get(c);
        put_record(o, *first, level, rank, t, calls, bytes, ns);
        *first = 0;
        for (uint64_t p = 0; p < npeers; p++) {
            uint64_t peer = get(c), b = get(c);
            put_peer(o, p == 0, peer, b);
        }
        put(o, npeers ? "]}" : "}");
    }
}

/* The Cartesian communicators of every rank, each once: those of rank 0
 * in its order, then those of rank 1 that rank 0 lacks, and so on (each
 * cursor is at its rank's list). */
static void put_final_carts(out *o, gathered *g)
{
    const uint64_t **seen = NULL;
    size_t *len = NULL;
    int nseen = 0, cap = 0;
    for (int r = 0; r < cp.world_size; r++) {
        cursor *c = &g->cur[r];
        uint64_t ncarts = get(c);
        for (uint64_t k = 0; k < ncarts && c->w < c->end; k++) {
            const uint64_t *start = c->w;
            int ndims = (int)get(c);
            c->w += 2 * ndims;
            int size = (int)get(c);
            c->w += size;
            if (c->w > c->end)
                break;
            size_t n = (size_t)(c->w - start);
            int j = 0;
            while (j < nseen &&
                   !(len[j] == n && !memcmp(seen[j], start, n * 8)))
                j++;
            if (j < nseen)
                continue;
            if (nseen == cap) {
                cap = cap ? 2 * cap : 8;
                const uint64_t **s2 = realloc(seen, (size_t)cap * sizeof *s2);
                size_t *l2 = s2 ? realloc(len, (size_t)cap * sizeof *l2)
                                : NULL;
                if (s2)
                    seen = s2;
                if (!l2) {
                    o->failed = 1; /* no profile rather than half one */
                    free(seen);
                    free(len);
                    return;
                }
                len = l2;
            }
            seen[nseen] = start;
            len[nseen++] = n;
        }
    }
    if (nseen)
        put(o, ",\n  \"cartesian\": [");
    for (int j = 0; j < nseen; j++)
        put_cart(o, j == 0, (int)seen[j][0], seen[j] + 1, NULL);
    if (nseen)
        put(o, "\n  ]");
    free(seen);
    free(len);
}

/* A run with several phases gives every rank and every record a phase:
 * a rank that never changed phase recorded everything in phase 1. */
static void put_final(out *o, const void *arg)
{
    gathered *g = (gathered *)arg;
    int n = cp.world_size, phased = g->lv.n > 1;
    put_header(o, 0, &g->lv);
    for (int r = 0; r < n; r++) {
        cursor *c = &g->cur[r];
        facts f;
        uint64_t ns[CP_NTYPES], calls[CP_NTYPES];
        f.wall = get(c);
        for (int t = 0; t < CP_NTYPES; t++) {
            ns[t] = get(c);
            calls[t] = get(c);
        }
        unpack_facts(c, &f);
        put_rank_head(o, r, g->hosts + (size_t)r * CP_HOST_LEN, g->local[r],
                      g->cpus + (size_t)r * CP_CPUS_LEN, &f, ns, calls);
        cursor rows = *c;
        for (int i = 0; i < 3; i++) {
            put(o, row_label[i]);
            put_row_words(o, c);
        }
        uint64_t nph = get(c);
        if (phased) {
            put(o, ",\n     \"phases\": [");
            if (!nph)
                put_phase_words(o, 1, 1, ns, calls, &rows);
            for (uint64_t p = 0; p < nph; p++) {
                uint64_t level = get(c), pns[CP_NTYPES], pcalls[CP_NTYPES];
                for (int t = 0; t < CP_NTYPES; t++) {
                    pns[t] = get(c);
                    pcalls[t] = get(c);
                }
                put_phase_words(o, p == 0, level, pns, pcalls, c);
            }
            put(o, "]");
        }
        put(o, r + 1 < n ? "},\n" : "}\n");
    }
    if (group_comms(g) != 0) {
        o->failed = 1; /* out of memory: no profile rather than half one */
        return;
    }
    put(o, "  ],\n  \"communicators\": [");
    for (int j = 0; j < g->ncomms; j++) {
        const comm_out *co = &g->comms[j];
        put_comm_head(o, j, co->size, co->desc + 1, NULL, co->remote_size,
                      co->desc + 2 + co->size, NULL);
        int first = 1;
        for (int k = 0; k < co->nwho; k++) {
            const struct contrib *w = &co->who[k];
            cursor c = {w->recs, g->cur[w->rank].end};
            put_recs_words(o, &first, 0, w->rank, &c, w->nrecs);
        }
        put(o, "\n     ]");
        if (phased) {
            put(o, ",\n     \"phase_collectives\": [");
            first = 1;
            for (int k = 0; k < co->nwho; k++) {
                const struct contrib *w = &co->who[k];
                cursor c = {w->recs, g->cur[w->rank].end};
                if (!w->nblocks)
                    put_recs_words(o, &first, 1, w->rank, &c, w->nrecs);
                c.w = w->blocks;
                for (uint64_t b = 0; b < w->nblocks; b++) {
                    int level = (int)get(&c);
                    put_recs_words(o, &first, level, w->rank, &c, get(&c));
                }
            }
            put(o, "\n     ]");
        }
        put(o, "}");
    }
    put(o, "\n  ]");
    put_final_carts(o, g);
    put(o, "\n}\n");
}

static int write_final(const uint64_t *all, const int *counts,
                       const int *displs, const char *hosts, const char *cpus,
                       const int *local, const int *levels_all)
{
    const char *path = cp.out;
    if (!path)
        return -1;
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len);
    int n = cp.world_size;
    gathered g = {malloc((size_t)n * sizeof *g.cur), hosts, cpus, local,
                  {0, {0}}, NULL, 0};
    /* The run's levels: every rank's, ascending, each once (at most
     * CP_MAX_PHASES are kept: more is possible only when ranks entered
     * different phases, and then the first are written). */
    for (int i = 0; i < n * CP_MAX_PHASES; i++) {
        int level = levels_all[i], j = 0;
        if (level <= 0)
            continue;
        while (j < g.lv.n && g.lv.level[j] < level)
            j++;
        if ((j < g.lv.n && g.lv.level[j] == level) || g.lv.n == CP_MAX_PHASES)
            continue;
        memmove(g.lv.level + j + 1, g.lv.level + j,
                (size_t)(g.lv.n - j) * sizeof *g.lv.level);
        g.lv.level[j] = level;
        g.lv.n++;
    }
    int rc = -1;
    if (tmp && g.cur) {
        for (int r = 0; r < n; r++)
            g.cur[r] = (cursor){all + displs[r], all + displs[r] + counts[r]};
        cp_tmp_name(tmp, len, path);
        rc = write_atomically(&final_out, tmp, path, put_final, &g, 1);
    }
    if (rc)
        cp_warn("could not write the profile %s", path);
    for (int j = 0; j < g.ncomms; j++)
        free(g.comms[j].who);
    free(g.comms);
    free(g.cur);
    free(tmp);
    return rc;
}

int cp_write_profile(void)
{
    words b = {0};
    pack(&b);
    int n = cp.world_size, me = cp.world_rank;
    int count = b.failed ? 0 : (int)b.n; /* a rank out of memory sends none */
    int *counts = NULL, *displs = NULL, *locals = NULL, *levels_all = NULL;
    char *hosts = NULL, *allcpus = NULL;
    uint64_t *all = NULL;
    size_t total = 0;
    int mine[CP_MAX_PHASES] = {0};
    for (int i = 0; i < cp.nphases; i++)
        mine[i] = cp.phases[i].level;
    if (me == 0) {
        counts = calloc((size_t)n, sizeof *counts);
        displs = calloc((size_t)n, sizeof *displs);
        locals = calloc((size_t)n, sizeof *locals);
        levels_all = calloc((size_t)n * CP_MAX_PHASES, sizeof *levels_all);
        hosts = calloc((size_t)n, CP_HOST_LEN);
        allcpus = calloc((size_t)n, CP_CPUS_LEN);
    }
    PMPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(&cp.local_rank, 1, MPI_INT, locals, 1, MPI_INT, 0,
                MPI_COMM_WORLD);
    PMPI_Gather(mine, CP_MAX_PHASES, MPI_INT, levels_all, CP_MAX_PHASES,
                MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(cp.host, CP_HOST_LEN, MPI_CHAR, hosts, CP_HOST_LEN, MPI_CHAR, 0,
                MPI_COMM_WORLD);
    PMPI_Gather(cp.cpus, CP_CPUS_LEN, MPI_CHAR, allcpus, CP_CPUS_LEN, MPI_CHAR,
                0, MPI_COMM_WORLD);
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
    if (me == 0)
        rc = all && hosts && allcpus && locals && levels_all
                 ? write_final(all, counts, displs, hosts, allcpus, locals,
                               levels_all)
                 : -1;
    free(b.w);
    free(all);
    free(counts);
    free(displs);
    free(locals);
    free(levels_all);
    free(hosts);
    free(allcpus);
    return rc;
}

/* ---------------------------------------------------- a partial profile */

static void put_row_dense(out *o, int ph, int row)
{
    put(o, "[");
    int first = 1;
    for (int i = 0; i < cp.world_size; i++) {
        uint64_t b = row_at(ph, row, i), m = row_at(ph, row + 1, i);
        if (b || m) {
            put_triple(o, first, (uint64_t)i, b, m);
            first = 0;
        }
    }
    put(o, "]");
}

/* c's records from memory, as ph says ("collectives" when level is 0). */
static void put_recs_dense(out *o, int *first, const cp_comm *c, int ph,
                           int level, cp_rate r)
{
    for (int t = 0; t < CP_NTYPES; t++) {
        coll_sum k = coll_at(c, ph, t);
        if (!k.calls)
            continue;
        put_record(o, *first, level, cp.world_rank, (uint64_t)t, k.calls,
                   k.bytes, cp_ns(k.ticks, r));
        *first = 0;
        int np = 0;
        for (int i = 0; i < cp_comm_peers(c); i++) {
            uint64_t b = peer_at(c, ph, t, i);
            if (b)
                put_peer(o, np++ == 0, (uint64_t)i, b);
        }
        put(o, np ? "]}" : "}");
    }
}

static void put_partial(out *o, const void *arg)
{
    int kind = arg ? 2 : 1; /* a checkpoint, or the end */
    cp_rate r = cp_clock_rate();
    int ord[CP_MAX_PHASES], nph = phase_order(ord);
    levels lv = {nph, {0}};
    for (int p = 0; p < nph; p++)
        lv.level[p] = cp.phases[ord[p]].level;
    uint64_t ticks[CP_NTYPES], ns[CP_NTYPES], calls[CP_NTYPES];
    type_words(-1, ticks, calls);
    for (int t = 0; t < CP_NTYPES; t++)
        ns[t] = cp_ns(ticks[t], r);
    facts f;
    own_facts(&f, cp_ns((uint64_t)(cp_now() - cp.t_init), r));
    put_header(o, kind, &lv);
    put_rank_head(o, cp.world_rank, cp.host, cp.local_rank, cp.cpus, &f, ns,
                  calls);
    for (int i = 0; i < 3; i++) {
        put(o, row_label[i]);
        put_row_dense(o, -1, 2 * i);
    }
    if (nph > 1) {
        put(o, ",\n     \"phases\": [");
        for (int p = 0; p < nph; p++) {
            type_words(ord[p], ticks, calls);
            for (int t = 0; t < CP_NTYPES; t++)
                ns[t] = cp_ns(ticks[t], r);
            put(o, p ? ",\n      {\"phase\": " : "\n      {\"phase\": ");
            put_u(o, (uint64_t)lv.level[p]);
            put(o, ", ");
            put_types(o, ns, calls);
            put(o, ",\n       \"sent\": ");
            put_row_dense(o, ord[p], 0);
            put(o, ", \"received\": ");
            put_row_dense(o, ord[p], 2);
            put(o, ", \"rma\": ");
            put_row_dense(o, ord[p], 4);
            put(o, "}");
        }
        put(o, "]");
    }
    put(o, "}\n  ],\n  \"communicators\": [");
    int id = 0;
    for (const cp_comm *c = __atomic_load_n(&cp.comms, __ATOMIC_ACQUIRE); c;
         c = c->next) {
        int used = 0;
        for (int t = 0; t < CP_NTYPES && !used && !c->outside; t++)
            used = coll_at(c, -1, t).calls != 0;
        if (!used)
            continue;
        put_comm_head(o, id++, c->size, NULL, c->members, c->remote_size, NULL,
                      c->remote);
        int first = 1;
        put_recs_dense(o, &first, c, -1, 0, r);
        put(o, "\n     ]");
        if (nph > 1) {
            put(o, ",\n     \"phase_collectives\": [");
            first = 1;
            for (int p = 0; p < nph; p++)
                put_recs_dense(o, &first, c, ord[p], lv.level[p], r);
            put(o, "\n     ]");
        }
        put(o, "}");
    }
    put(o, "\n  ]");
    const cp_cart *carts = __atomic_load_n(&cp.carts, __ATOMIC_ACQUIRE);
    if (carts)
        put(o, ",\n  \"cartesian\": [");
    for (const cp_cart *c = carts; c;
         c = __atomic_load_n(&c->next, __ATOMIC_ACQUIRE))
        put_cart(o, c == carts, c->ndims, NULL, c);
    if (carts)
        put(o, "\n  ]");
    put(o, "\n}\n");
}

int cp_recorded_anything(void)
{
    uint64_t ticks[CP_NTYPES], calls[CP_NTYPES];
    type_words(-1, ticks, calls);
    for (int t = 0; t < CP_NTYPES; t++)
        if (calls[t])
            return 1;
    for (int row = 0; row < CP_ROWS; row++)
        for (int i = 0; i < cp.world_size; i++)
            if (row_at(-1, row, i))
                return 1;
    return 0;
}

int cp_write_partial(const char *tmp, const char *path)
{
    return write_atomically(&partial_out, tmp, path, put_partial, NULL, 1);
}

int cp_write_checkpoint(const char *tmp, const char *path)
{
    return write_atomically(&checkpoint_out, tmp, path, put_partial, "", 0);
}
