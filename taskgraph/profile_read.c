/* profile_read.c: reading a profile, commprof.json (topomap-formats(5)),
 * or a per-rank partial profile, into a tg_profile, checking every member
 * on the way.  jansson parses; the checks walk its tree once, with two
 * per-world-rank stamp arrays to find repeated and foreign ranks in time
 * linear in the file.  Those arrays, and the ranks of a partial profile,
 * are lazily zeroed memory (tg_prof_lazy_alloc): a partial file lists a
 * few ranks of a world that may be large, and reading it costs the
 * file's size, not the world's.  A message about a value names its JSON
 * path and the line where it starts (profile_scan.c finds the line). */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "tg_internal.h"

#define MAX_DEPTH 8
/* As many dimensions as libcommprof records (MPI allows any number;
 * a grid for the graphs has at most TG_GRID_MAXDIMS). */
#define PROFILE_CART_MAX_DIMS 64

typedef struct reader {
    const char *path;
    const tg_text *text;
    tg_error *err;
    tg_json_step at[MAX_DEPTH]; /* where the value being checked is */
    int depth;
    tg_profile *p;
    /* Per world rank: the stamp of the last set it was seen in, so that a
     * repeated rank in a row, group or list shows in O(1). */
    unsigned *seen, *seen2, stamp;
    size_t *entry; /* index in "ranks" of each rank present */
    void *scratch; /* the block of entry, seen and seen2 */
    size_t scratch_size;
    uint64_t phase_entries; /* ranks' phases read so far */
    json_t *type_index; /* type name -> its index: lookups in O(1), so
                         * that many types cost no quadratic time */
} reader;

/* Index of type `name`, or -1. */
static int type_lookup(const reader *r, const char *name)
{
    json_t *i = r->type_index ? json_object_get(r->type_index, name) : NULL;
    return i ? (int)json_integer_value(i) : -1;
}

static void push_key(reader *r, const char *key)
{
    r->at[r->depth++] = (tg_json_step){key, 0};
}

static void push_index(reader *r, size_t i)
{
    r->at[r->depth++] = (tg_json_step){NULL, i};
}

static void pop(reader *r)
{
    r->depth--;
}

/* "ranks[2].sent[0]" for the current path. */
static void path_text(const reader *r, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->depth && len < size; i++)
        len += (size_t)(r->at[i].key
                            ? snprintf(buf + len, size - len, "%s%s",
                                       i ? "." : "", r->at[i].key)
                            : snprintf(buf + len, size - len, "[%zu]",
                                       r->at[i].index));
}

/* Report a problem with the value at the current path. */
__attribute__((format(printf, 2, 3))) static int bad(reader *r,
                                                     const char *fmt, ...)
{
    char where[128], text[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    path_text(r, where, sizeof where);
    long line = tg_json_line(r->text->buf, r->text->len, r->at, r->depth);
    return tg_error_set(r->err, TG_EPARSE, r->path, line, "%s%s%s", where,
                        where[0] ? ": " : "", text);
}

/* ------------------------------------------------------------ scalars */

/* Member `key` of object o, or NULL after reporting it missing. */
static json_t *need(reader *r, json_t *o, const char *key)
{
    json_t *j = json_object_get(o, key);
    if (!j)
        bad(r, "missing \"%s\"", key);
    return j;
}

/* An integer in [min, max]: the value at the current path. */
static int as_int(reader *r, json_t *j, long long min, long long max,
                  long long *v)
{
    if (!json_is_integer(j))
        return bad(r, "must be an integer");
    *v = json_integer_value(j);
    if (*v < min || *v > max)
        return bad(r, "%lld is outside %lld..%lld", *v, min, max);
    return 0;
}

static int as_u64(reader *r, json_t *j, uint64_t *v)
{
    if (!json_is_integer(j) || json_integer_value(j) < 0)
        return bad(r, "must be a non-negative integer");
    *v = (uint64_t)json_integer_value(j);
    return 0;
}

static int as_rank(reader *r, json_t *j, int *v)
{
    if (!json_is_integer(j))
        return bad(r, "must be an integer");
    long long x = json_integer_value(j);
    if (x < 0 || x >= r->p->world_size)
        return bad(r, "rank %lld is outside 0..%d", x, r->p->world_size - 1);
    *v = (int)x;
    return 0;
}

/* Element i of array a (on the path for messages) as a rank, an index in
 * 0..max, or a count. */
static int elem_rank(reader *r, json_t *a, size_t i, int *v)
{
    push_index(r, i);
    int rc = as_rank(r, json_array_get(a, i), v);
    pop(r);
    return rc;
}

static int elem_index(reader *r, json_t *a, size_t i, int max, int *v)
{
    long long x = 0;
    push_index(r, i);
    int rc = as_int(r, json_array_get(a, i), 0, max, &x);
    pop(r);
    *v = (int)x;
    return rc;
}

static int elem_u64(reader *r, json_t *a, size_t i, uint64_t *v)
{
    push_index(r, i);
    int rc = as_u64(r, json_array_get(a, i), v);
    pop(r);
    return rc;
}

/* Integer member `key` of o in [min, max]. */
static int int_member(reader *r, json_t *o, const char *key, long long min,
                      long long max, int *v)
{
    json_t *j = need(r, o, key);
    if (!j)
        return TG_EPARSE;
    push_key(r, key);
    long long x = 0;
    int rc = as_int(r, j, min, max, &x);
    pop(r);
    *v = (int)x;
    return rc;
}

static int u64_member(reader *r, json_t *o, const char *key, uint64_t *v)
{
    json_t *j = need(r, o, key);
    if (!j)
        return TG_EPARSE;
    push_key(r, key);
    int rc = as_u64(r, j, v);
    pop(r);
    return rc;
}

/* A copy of string member `key` of o (optional: "" when absent). */
static int str_member(reader *r, json_t *o, const char *key, int optional,
                      char **v)
{
    json_t *j = json_object_get(o, key);
    if (!j && !optional)
        return need(r, o, key), TG_EPARSE;
    if (j && !json_is_string(j)) {
        push_key(r, key);
        int rc = bad(r, "must be a string");
        pop(r);
        return rc;
    }
    *v = strdup(j ? json_string_value(j) : "");
    return *v ? 0 : tg_error_set(r->err, TG_ENOMEM, r->path, 0,
                                 "out of memory");
}

/* Array member `key` of o, pushed onto the path (the caller pops it);
 * NULL after reporting.  `what` says what its elements are. */
static json_t *array_member(reader *r, json_t *o, const char *key,
                            const char *what)
{
    json_t *a = need(r, o, key);
    if (!a)
        return NULL;
    push_key(r, key);
    if (!json_is_array(a) || json_array_size(a) > INT32_MAX) {
        bad(r, "must be an array of %s", what);
        pop(r);
        return NULL;
    }
    return a;
}

static int type_of(reader *r, json_t *j, int *t)
{
    if (!json_is_string(j))
        return bad(r, "must be a type name (a string)");
    *t = type_lookup(r, json_string_value(j));
    if (*t < 0)
        return bad(r, "\"%s\" is not in the profile's \"types\"",
                   json_string_value(j));
    return 0;
}

/* -------------------------------------------------------------- ranks */

static int cmp_row(const void *a, const void *b)
{
    const tg_prof_row *x = a, *y = b;
    return (x->peer > y->peer) - (x->peer < y->peer);
}

/* Sparse row `key` of a rank: [[peer, bytes, count], ...]. */
static int read_row(reader *r, json_t *o, const char *key, tg_prof_row **out,
                    int *n)
{
    json_t *a = array_member(r, o, key, "[rank, bytes, count]");
    if (!a)
        return TG_EPARSE;
    size_t k = json_array_size(a);
    tg_prof_row *row = malloc((k ? k : 1) * sizeof *row);
    if (!row)
        return tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    unsigned stamp = ++r->stamp;
    int rc = 0, sorted = 1;
    for (size_t i = 0; i < k && !rc; i++) {
        json_t *e = json_array_get(a, i);
        push_index(r, i);
        if (!json_is_array(e) || json_array_size(e) != 3)
            rc = bad(r, "must be [rank, bytes, count]");
        if (!rc)
            rc = elem_rank(r, e, 0, &row[i].peer);
        if (!rc)
            rc = elem_u64(r, e, 1, &row[i].bytes);
        if (!rc)
            rc = elem_u64(r, e, 2, &row[i].count);
        if (!rc && r->seen[row[i].peer] == stamp)
            rc = bad(r, "rank %d is listed twice", row[i].peer);
        if (!rc) {
            r->seen[row[i].peer] = stamp;
            sorted &= i == 0 || row[i - 1].peer < row[i].peer;
        }
        pop(r);
    }
    pop(r);
    if (rc) {
        free(row);
        return rc;
    }
    if (!sorted)
        qsort(row, k, sizeof *row, cmp_row);
    *out = row;
    *n = (int)k;
    return 0;
}

/* "types": {"p2p": {"ns": N, "calls": C}, ...} of a rank or a rank's
 * phase, into *ns and *calls (one block). */
static int read_rank_types(reader *r, json_t *o, uint64_t **ns_out,
                           uint64_t **calls_out)
{
    int nt = r->p->ntypes;
    uint64_t *ns = calloc(2 * (size_t)nt + 1, sizeof *ns);
    *ns_out = ns;
    if (!ns)
        return tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    uint64_t *calls = ns + nt;
    *calls_out = calls;
    json_t *types = need(r, o, "types");
    if (!types)
        return TG_EPARSE;
    push_key(r, "types");
    int rc = json_is_object(types) ? 0 : bad(r, "must be an object");
    const char *name;
    json_t *v;
    json_object_foreach(types, name, v) {
        if (rc)
            break;
        int t = type_lookup(r, name);
        push_key(r, name);
        if (t < 0)
            rc = bad(r, "\"%s\" is not in the profile's \"types\"", name);
        else if (!json_is_object(v))
            rc = bad(r, "must be {\"ns\": N, \"calls\": C}");
        if (!rc)
            rc = u64_member(r, v, "ns", &ns[t]);
        if (!rc)
            rc = u64_member(r, v, "calls", &calls[t]);
        pop(r);
    }
    pop(r);
    return rc;
}

/* The members placement needs, which come together: a rank has them
 * when it has "compute_ns" (profiles before issue 7 have none). */
static int read_facts(reader *r, json_t *o, tg_prof_rank *rk)
{
    if (!json_object_get(o, "compute_ns"))
        return 0;
    rk->has_facts = 1;
    int rc;
    if ((rc = u64_member(r, o, "compute_ns", &rk->compute_ns)) ||
        (rc = u64_member(r, o, "maxrss_kb", &rk->maxrss_kb)))
        return rc;
    uint64_t want = rk->wall_ns > rk->mpi_ns ? rk->wall_ns - rk->mpi_ns : 0;
    json_t *kind = need(r, o, "proc_kind"), *cuda = need(r, o, "cuda"),
           *sent = need(r, o, "sent_by_kind");
    if (!kind || !cuda || !sent)
        return TG_EPARSE;
    push_key(r, "compute_ns");
    if (rk->compute_ns != want)
        rc = bad(r, "%llu is not wall_ns - mpi_ns (%llu)",
                 (unsigned long long)rk->compute_ns, (unsigned long long)want);
    pop(r);
    push_key(r, "proc_kind");
    if (!rc && !json_is_null(kind) &&
        !(json_is_string(kind) &&
          (!strcmp(json_string_value(kind), "cpu") ||
           !strcmp(json_string_value(kind), "gpu"))))
        rc = bad(r, "must be \"cpu\", \"gpu\" or null");
    pop(r);
    if (!rc && json_is_string(kind) &&
        !(rk->proc_kind = strdup(json_string_value(kind))))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    push_key(r, "cuda");
    if (!rc && !json_is_null(cuda) && !json_is_object(cuda))
        rc = bad(r, "must be {\"pci_bus_id\": ID, \"mem_used\": BYTES} or "
                    "null");
    if (!rc && json_is_object(cuda) &&
        !(rc = str_member(r, cuda, "pci_bus_id", 0, &rk->cuda_bus_id)))
        rc = u64_member(r, cuda, "mem_used", &rk->cuda_mem_used);
    pop(r);
    push_key(r, "sent_by_kind");
    if (!rc && !json_is_object(sent))
        rc = bad(r, "must be an object of bytes per memory kind");
    for (int k = 0; k < TG_MEM_KINDS && !rc; k++)
        rc = u64_member(r, sent, tg_mem_kind_names[k], &rk->sent_by_kind[k]);
    pop(r);
    return rc;
}

/* Member "phase" of o (at the current path) as one of the profile's
 * phases: a binary search, read_phases having checked that they ascend,
 * so that many phases and many records cost no quadratic time. */
static int phase_member(reader *r, json_t *o, int *phase)
{
    int rc = int_member(r, o, "phase", 1, INT32_MAX, phase);
    int known = 0;
    for (int lo = 0, hi = r->p->nphases; lo < hi && !known && !rc;) {
        int mid = lo + (hi - lo) / 2;
        if (r->p->phases[mid] < *phase)
            lo = mid + 1;
        else if (r->p->phases[mid] > *phase)
            hi = mid;
        else
            known = 1;
    }
    if (!rc && !known) {
        push_key(r, "phase");
        rc = bad(r, "phase %d is not in the profile's \"phases\"", *phase);
        pop(r);
    }
    return rc;
}

/* A rank's optional "phases": [{"phase": K, "types", "sent", "received",
 * "rma"}, ...], ascending; only in a profile with "phases". */
static int read_rank_phases(reader *r, json_t *o, tg_prof_rank *rk)
{
    if (!json_object_get(o, "phases"))
        return 0;
    json_t *a = array_member(r, o, "phases", "phase objects");
    if (!a)
        return TG_EPARSE;
    size_t k = json_array_size(a);
    int rc = r->p->nphases ? 0
                           : bad(r, "the profile has no top-level "
                                    "\"phases\"");
    /* Like a rank, each phase holds a time and a count per type. */
    r->phase_entries += k;
    uint64_t cells = (uint64_t)r->p->ntypes * r->phase_entries;
    if (!rc && cells > (uint64_t)TG_UNLISTED_MAX + r->text->len) {
        char what[96];
        snprintf(what, sizeof what, "%d types for each of %llu phases of "
                                    "ranks,",
                 r->p->ntypes, (unsigned long long)r->phase_entries);
        rc = tg_declared_check(
            r->path, tg_json_line(r->text->buf, r->text->len, r->at, r->depth),
            what, cells, r->text->len, r->err);
    }
    if (!rc && !(rk->phases = calloc(k + 1, sizeof *rk->phases)))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (size_t i = 0; i < k && !rc; i++) {
        json_t *e = json_array_get(a, i);
        tg_prof_phase *ph = &rk->phases[i];
        push_index(r, i);
        rk->nphases++;
        if (!json_is_object(e))
            rc = bad(r, "must be an object");
        if (!rc)
            rc = phase_member(r, e, &ph->phase);
        if (!rc && i && ph->phase <= ph[-1].phase) {
            push_key(r, "phase");
            rc = bad(r, "phase %d after phase %d: a rank's phases must be "
                        "in ascending order, each once",
                     ph->phase, ph[-1].phase);
            pop(r);
        }
        if (!rc)
            rc = read_rank_types(r, e, &ph->ns, &ph->calls);
        if (!rc)
            rc = read_row(r, e, "sent", &ph->sent, &ph->nsent);
        if (!rc)
            rc = read_row(r, e, "received", &ph->received, &ph->nreceived);
        if (!rc)
            rc = read_row(r, e, "rma", &ph->rma, &ph->nrma);
        pop(r);
    }
    pop(r);
    return rc;
}

/* Element i of "ranks" (the path is at it). */
static int read_rank(reader *r, json_t *o, size_t i)
{
    if (!json_is_object(o))
        return bad(r, "must be an object");
    json_t *rank = need(r, o, "rank");
    if (!rank)
        return TG_EPARSE;
    int w;
    push_key(r, "rank");
    int rc = as_rank(r, rank, &w);
    pop(r);
    if (rc)
        return rc;
    tg_prof_rank *rk = &r->p->ranks[w];
    if (rk->present)
        return bad(r, "rank %d is listed twice (also ranks[%zu])", w,
                   r->entry[w]);
    rk->present = 1;
    r->entry[w] = i;
    if (r->p->listed)
        r->p->listed[r->p->nranks] = w;
    r->p->nranks++;
    if ((rc = str_member(r, o, "host", 0, &rk->host)) ||
        (rc = int_member(r, o, "local_rank", 0, INT32_MAX, &rk->local_rank)) ||
        (rc = str_member(r, o, "cpus", 0, &rk->cpus)) ||
        (rc = u64_member(r, o, "wall_ns", &rk->wall_ns)) ||
        (rc = u64_member(r, o, "mpi_ns", &rk->mpi_ns)) ||
        (rc = read_facts(r, o, rk)) ||
        (rc = read_rank_types(r, o, &rk->ns, &rk->calls)) ||
        (rc = read_row(r, o, "sent", &rk->sent, &rk->nsent)) ||
        (rc = read_row(r, o, "received", &rk->received, &rk->nreceived)) ||
        (rc = read_row(r, o, "rma", &rk->rma, &rk->nrma)))
        return rc;
    return read_rank_phases(r, o, rk);
}

/* ------------------------------------------------------ communicators */

/* A group of world ranks (`key` of communicator o), none twice, marked
 * with `stamp` in r->seen; none may carry `other` (the other group). */
static int read_group(reader *r, json_t *o, const char *key, unsigned stamp,
                      unsigned other, int **out, int *n)
{
    json_t *a = array_member(r, o, key, "world ranks");
    if (!a)
        return TG_EPARSE;
    size_t k = json_array_size(a);
    int rc = k ? 0 : bad(r, "must not be empty");
    int *g = malloc((k ? k : 1) * sizeof *g);
    if (!g && !rc)
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (size_t i = 0; i < k && !rc; i++) {
        rc = elem_rank(r, a, i, &g[i]);
        push_index(r, i);
        if (!rc && r->seen[g[i]] == stamp)
            rc = bad(r, "rank %d is listed twice", g[i]);
        else if (!rc && other && r->seen[g[i]] == other)
            rc = bad(r, "rank %d is in both \"members\" and \"remote\"",
                     g[i]);
        if (!rc)
            r->seen[g[i]] = stamp;
        pop(r);
    }
    pop(r);
    if (rc) {
        free(g);
        return rc;
    }
    *out = g;
    *n = (int)k;
    return 0;
}

static int cmp_peer(const void *a, const void *b)
{
    const tg_prof_peer *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* "peers": [[index, bytes], ...] of a collective record. */
static int read_peers(reader *r, json_t *a, int npeers, tg_prof_coll *c)
{
    if (!json_is_array(a))
        return bad(r, "must be an array of [index, bytes]");
    size_t k = json_array_size(a);
    c->peers = malloc((k ? k : 1) * sizeof *c->peers);
    if (!c->peers)
        return tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    unsigned stamp = ++r->stamp;
    int rc = 0, sorted = 1;
    for (size_t i = 0; i < k && !rc; i++) {
        json_t *e = json_array_get(a, i);
        tg_prof_peer *pe = &c->peers[i];
        push_index(r, i);
        if (!json_is_array(e) || json_array_size(e) != 2)
            rc = bad(r, "must be [index, bytes]");
        if (!rc)
            rc = elem_index(r, e, 0, npeers - 1, &pe->index);
        if (!rc)
            rc = elem_u64(r, e, 1, &pe->bytes);
        if (!rc && r->seen2[pe->index] == stamp)
            rc = bad(r, "index %d is listed twice", pe->index);
        if (!rc) {
            r->seen2[pe->index] = stamp;
            sorted &= i == 0 || pe[-1].index < pe->index;
        }
        pop(r);
    }
    c->npeers = (int)k;
    if (!rc && !sorted)
        qsort(c->peers, k, sizeof *c->peers, cmp_peer);
    return rc;
}

/* Element of "collectives" (the path is at it) of communicator c, whose
 * members carry `members` in r->seen. */
static int read_coll(reader *r, json_t *o, const tg_prof_comm *c,
                     unsigned members, tg_prof_coll *k)
{
    if (!json_is_object(o))
        return bad(r, "must be an object");
    json_t *rank = need(r, o, "rank"), *type;
    if (!rank)
        return TG_EPARSE;
    push_key(r, "rank");
    int rc = as_rank(r, rank, &k->rank);
    if (!rc && r->seen[k->rank] != members)
        rc = bad(r, "rank %d is not in \"members\"", k->rank);
    else if (!rc && !r->p->ranks[k->rank].present)
        rc = bad(r, "rank %d has no entry in \"ranks\"", k->rank);
    pop(r);
    if (rc || !(type = need(r, o, "type")))
        return rc ? rc : TG_EPARSE;
    push_key(r, "type");
    rc = type_of(r, type, &k->type);
    if (!rc && (!strcmp(json_string_value(type), "p2p") ||
                !strcmp(json_string_value(type), "rma")))
        rc = bad(r, "\"%s\" is not a collective", json_string_value(type));
    pop(r);
    if (rc || (rc = u64_member(r, o, "calls", &k->calls)) ||
        (rc = u64_member(r, o, "bytes", &k->bytes)) ||
        (rc = u64_member(r, o, "ns", &k->ns)))
        return rc;
    json_t *peers = json_object_get(o, "peers");
    if (!peers)
        return 0;
    push_key(r, "peers");
    rc = read_peers(r, peers, c->remote_size ? c->remote_size : c->size, k);
    pop(r);
    return rc;
}

/* Element of "communicators" (the path is at it). */
static int read_comm(reader *r, json_t *o, tg_prof_comm *c)
{
    if (!json_is_object(o))
        return bad(r, "must be an object");
    int id, size;
    int rc = int_member(r, o, "id", 0, INT32_MAX, &id);
    if (!rc)
        rc = int_member(r, o, "size", 1, r->p->world_size, &size);
    unsigned remote = 0, members = 0;
    if (!rc && json_object_get(o, "remote")) {
        remote = ++r->stamp;
        rc = read_group(r, o, "remote", remote, 0, &c->remote,
                        &c->remote_size);
    }
    if (!rc) {
        members = ++r->stamp;
        rc = read_group(r, o, "members", members, remote, &c->members,
                        &c->size);
    }
    if (!rc && size != c->size) {
        push_key(r, "size");
        rc = bad(r, "is %d, but \"members\" lists %d ranks", size, c->size);
        pop(r);
    }
    json_t *a = rc ? NULL
                   : array_member(r, o, "collectives", "collective records");
    if (!a)
        return rc ? rc : TG_EPARSE;
    c->ncolls = (int)json_array_size(a);
    c->colls = calloc((size_t)c->ncolls + 1, sizeof *c->colls);
    if (!c->colls)
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (int i = 0; i < c->ncolls && !rc; i++) {
        push_index(r, (size_t)i);
        rc = read_coll(r, json_array_get(a, (size_t)i), c, members,
                       &c->colls[i]);
        pop(r);
    }
    pop(r);
    if (rc || !json_object_get(o, "phase_collectives"))
        return rc;
    if (!(a = array_member(r, o, "phase_collectives",
                           "collective records with their phase")))
        return TG_EPARSE;
    if (!r->p->nphases)
        rc = bad(r, "the profile has no top-level \"phases\"");
    c->nphase_colls = rc ? 0 : (int)json_array_size(a);
    c->phase_colls = calloc((size_t)c->nphase_colls + 1,
                            sizeof *c->phase_colls);
    if (!rc && !c->phase_colls)
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (int i = 0; i < c->nphase_colls && !rc; i++) {
        json_t *e = json_array_get(a, (size_t)i);
        push_index(r, (size_t)i);
        rc = read_coll(r, e, c, members, &c->phase_colls[i]);
        if (!rc)
            rc = phase_member(r, e, &c->phase_colls[i].phase);
        pop(r);
    }
    pop(r);
    return rc;
}

/* ------------------------------------------------------------ the file */

static int read_types(reader *r, json_t *root)
{
    json_t *a = array_member(r, root, "types", "type names");
    if (!a)
        return TG_EPARSE;
    tg_profile *p = r->p;
    p->types = calloc(json_array_size(a) + 1, sizeof *p->types);
    r->type_index = json_object();
    if (!p->types || !r->type_index)
        return tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < json_array_size(a) && !rc; i++) {
        json_t *t = json_array_get(a, i);
        push_index(r, i);
        if (!json_is_string(t) || !json_string_value(t)[0])
            rc = bad(r, "must be a type name (a non-empty string)");
        else if (type_lookup(r, json_string_value(t)) >= 0)
            rc = bad(r, "\"%s\" is listed twice", json_string_value(t));
        else if (json_object_set_new(r->type_index, json_string_value(t),
                                     json_integer(p->ntypes)) ||
                 !(p->types[p->ntypes++] = strdup(json_string_value(t))))
            rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
        pop(r);
    }
    pop(r);
    return rc;
}

/* The optional "job": {"id": 16 hex digits, "start": s, "host": name}. */
static int read_job(reader *r, json_t *root)
{
    tg_profile *p = r->p;
    json_t *job = json_object_get(root, "job");
    if (!job)
        return 0;
    push_key(r, "job");
    int rc = 0;
    json_t *id = json_is_object(job) ? json_object_get(job, "id") : NULL;
    if (!json_is_object(job))
        rc = bad(r, "must be an object with the job's id, start and host");
    else if (!id)
        rc = need(r, job, "id") ? 0 : TG_EPARSE;
    if (!rc) {
        const char *s = json_is_string(id) ? json_string_value(id) : "";
        size_t n = strspn(s, "0123456789abcdef");
        push_key(r, "id");
        if (n != 16 || s[n])
            rc = bad(r, "must be 16 lowercase hexadecimal digits");
        else
            memcpy(p->job_id, s, 17);
        pop(r);
    }
    json_t *start = rc ? NULL : json_object_get(job, "start");
    if (start) {
        push_key(r, "start");
        if (!json_is_integer(start) || json_integer_value(start) < 0)
            rc = bad(r, "must be a time in seconds since 1970 (an integer "
                        "of 0 or more)");
        else
            p->job_start = json_integer_value(start);
        pop(r);
    }
    if (!rc)
        rc = str_member(r, job, "host", 1, &p->job_host);
    pop(r);
    return rc;
}

/* The optional "phases": the levels of the run's phases, ascending. */
static int read_phases(reader *r, json_t *root)
{
    if (!json_object_get(root, "phases"))
        return 0;
    json_t *a = array_member(r, root, "phases", "phase levels");
    if (!a)
        return TG_EPARSE;
    tg_profile *p = r->p;
    size_t k = json_array_size(a);
    int rc = k ? 0 : bad(r, "must not be empty");
    if (!rc && !(p->phases = calloc(k, sizeof *p->phases)))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (size_t i = 0; i < k && !rc; i++) {
        int v = 0;
        rc = elem_index(r, a, i, INT32_MAX, &v);
        push_index(r, i);
        if (!rc && v < 1)
            rc = bad(r, "phase %d: levels are 1 or more", v);
        else if (!rc && i && v <= p->phases[i - 1])
            rc = bad(r, "%d after %d: phases must be in ascending order, "
                        "each once",
                     v, p->phases[i - 1]);
        pop(r);
        if (!rc)
            p->phases[p->nphases++] = v;
    }
    pop(r);
    return rc;
}

/* Array member `key` of a Cartesian entry: `n` integers in [min, max]
 * (n < 0: any number, which *n then holds), into a new array. */
static int cart_ints(reader *r, json_t *o, const char *key, int *n, int min,
                     int max, int **out)
{
    json_t *a = array_member(r, o, key, "integers");
    if (!a)
        return TG_EPARSE;
    size_t k = json_array_size(a);
    int rc = 0;
    if (*n < 0 && k > PROFILE_CART_MAX_DIMS)
        rc = bad(r, "must have at most %d dimensions", PROFILE_CART_MAX_DIMS);
    else if (*n >= 0 && k != (size_t)*n)
        rc = bad(r, "must have %d elements, not %zu", *n, k);
    if (!rc && !(*out = calloc(k + 1, sizeof **out)))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (size_t i = 0; i < k && !rc; i++) {
        long long v = 0;
        push_index(r, i);
        rc = as_int(r, json_array_get(a, i), min, max, &v);
        pop(r);
        if (!rc)
            (*out)[i] = (int)v;
    }
    pop(r);
    if (!rc)
        *n = (int)k;
    return rc;
}

/* Element of "cartesian" (the path is at it): {"dims", "periods",
 * "members"}, members the world rank at each Cartesian rank. */
static int read_cart(reader *r, json_t *o, tg_prof_cart *c)
{
    if (!json_is_object(o))
        return bad(r, "must be an object");
    int n = -1, *periods = NULL;
    int rc = cart_ints(r, o, "dims", &n, 1, r->p->world_size, &c->dims);
    if (!rc)
        rc = cart_ints(r, o, "periods", &n, 0, 1, &periods);
    c->ndims = rc ? 0 : n;
    if (!rc) {
        /* dims and periods in one block, as tg_prof_cart_clear frees */
        int *both = realloc(c->dims, 2 * (size_t)n * sizeof *both);
        if (!both)
            rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
        else {
            memcpy(both + n, periods, (size_t)n * sizeof *both);
            c->dims = both;
            c->periods = both + n;
        }
    }
    free(periods);
    long long size = 1;
    for (int d = 0; d < c->ndims && !rc && size <= r->p->world_size; d++)
        size *= c->dims[d]; /* each at most world_size: no overflow */
    if (!rc && size > r->p->world_size) {
        push_key(r, "dims");
        rc = bad(r, "%lld positions, more than the %d ranks of the world",
                 size, r->p->world_size);
        pop(r);
    }
    unsigned stamp = ++r->stamp;
    int *g = NULL, k = 0;
    if (!rc)
        rc = read_group(r, o, "members", stamp, 0, &g, &k);
    c->members = g;
    c->size = k;
    if (!rc && k != size) {
        push_key(r, "members");
        rc = bad(r, "lists %d ranks, but dims make %lld positions", k, size);
        pop(r);
    }
    return rc;
}

static int read_carts(reader *r, json_t *root)
{
    if (!json_object_get(root, "cartesian"))
        return 0;
    json_t *a = array_member(r, root, "cartesian",
                             "Cartesian communicator objects");
    if (!a)
        return TG_EPARSE;
    tg_profile *p = r->p;
    size_t k = json_array_size(a);
    int rc = 0;
    if (!(p->carts = calloc(k + 1, sizeof *p->carts)))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (size_t i = 0; i < k && !rc; i++) {
        push_index(r, i);
        p->ncarts++;
        rc = read_cart(r, json_array_get(a, i), &p->carts[i]);
        pop(r);
    }
    pop(r);
    return rc;
}

/* Everything but format and version. */
static int read_body(reader *r, json_t *root)
{
    tg_profile *p = r->p;
    int jrc = read_job(r, root);
    if (jrc)
        return jrc;
    json_t *partial = json_object_get(root, "partial");
    if (partial && !json_is_boolean(partial)) {
        push_key(r, "partial");
        int rc = bad(r, "must be true or false");
        pop(r);
        return rc;
    }
    p->partial = json_is_true(partial);
    int rc = str_member(r, root, "mpi_library", 1, &p->mpi_library);
    if (!rc)
        rc = int_member(r, root, "world_size", 1, TG_TASKS_MAX,
                        &p->world_size);
    if (!rc && (uint64_t)p->world_size >
                   (uint64_t)TG_UNLISTED_MAX + r->text->len) {
        /* ranks absent from the file take no byte of it */
        push_key(r, "world_size");
        rc = tg_declared_check(
            r->path, tg_json_line(r->text->buf, r->text->len, r->at, r->depth),
            "world_size", (uint64_t)p->world_size, r->text->len, r->err);
        pop(r);
    }
    json_t *ta = json_object_get(root, "types");
    json_t *ra = json_object_get(root, "ranks");
    size_t nt = json_is_array(ta) ? json_array_size(ta) : 0;
    size_t nr = json_is_array(ra) ? json_array_size(ra) : 0;
    if (!rc && (uint64_t)nt * nr > (uint64_t)TG_UNLISTED_MAX + r->text->len) {
        /* each rank present holds a time and a count per type */
        char what[96];
        snprintf(what, sizeof what, "%zu types for each of %zu ranks,", nt,
                 nr);
        push_key(r, "types");
        rc = tg_declared_check(
            r->path, tg_json_line(r->text->buf, r->text->len, r->at, r->depth),
            what, (uint64_t)nt * nr, r->text->len, r->err);
        pop(r);
    }
    if (!rc)
        rc = read_types(r, root);
    if (!rc)
        rc = read_phases(r, root);
    if (rc)
        return rc;
    size_t n = (size_t)p->world_size;
    if (!p->partial)
        p->ranks = calloc(n, sizeof *p->ranks);
    else if ((p->listed = malloc((nr + 1) * sizeof *p->listed)))
        p->ranks = tg_prof_lazy_alloc(n * sizeof *p->ranks);
    r->scratch_size = n * (sizeof *r->entry + 2 * sizeof *r->seen);
    r->scratch = tg_prof_lazy_alloc(r->scratch_size);
    if (!p->ranks || !r->scratch)
        return tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    r->entry = r->scratch;
    r->seen = (unsigned *)(r->entry + n);
    r->seen2 = r->seen + n;
    json_t *a = array_member(r, root, "ranks", "rank objects");
    if (!a)
        return TG_EPARSE;
    for (size_t i = 0; i < json_array_size(a) && !rc; i++) {
        push_index(r, i);
        rc = read_rank(r, json_array_get(a, i), i);
        pop(r);
    }
    pop(r);
    if (rc || !(a = array_member(r, root, "communicators",
                                 "communicator objects")))
        return rc ? rc : TG_EPARSE;
    p->ncomms = (int)json_array_size(a);
    p->comms = calloc((size_t)p->ncomms + 1, sizeof *p->comms);
    if (!p->comms)
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    for (int i = 0; i < p->ncomms && !rc; i++) {
        push_index(r, (size_t)i);
        rc = read_comm(r, json_array_get(a, (size_t)i), &p->comms[i]);
        pop(r);
    }
    pop(r);
    if (!rc)
        rc = read_carts(r, root);
    if (!rc && p->nphases && tg_profile_phases_fill(p))
        rc = tg_error_set(r->err, TG_ENOMEM, r->path, 0, "out of memory");
    return rc;
}

static int read_root(reader *r, json_t *root)
{
    const char *path = r->path;
    if (!json_is_object(root))
        return tg_error_set(r->err, TG_EPARSE, path, 0,
                            "not a profile: the top level is not an object");
    json_t *format = json_object_get(root, "format");
    json_t *version = json_object_get(root, "version");
    if (!json_is_string(format) ||
        strcmp(json_string_value(format), TG_PROFILE_FORMAT) != 0)
        return tg_error_set(r->err, TG_EPARSE, path, 0,
                            "not a profile: \"format\" must be \"%s\"",
                            TG_PROFILE_FORMAT);
    if (!json_is_integer(version))
        return tg_error_set(r->err, TG_EPARSE, path, 0,
                            "\"version\" must be an integer");
    if (json_integer_value(version) != TG_PROFILE_VERSION)
        return tg_error_set(r->err, TG_EPARSE, path, 0,
                            "profile format version %lld, this taskgraph "
                            "reads version %d",
                            (long long)json_integer_value(version),
                            TG_PROFILE_VERSION);
    return read_body(r, root);
}

int tg_profile_read(const char *path, tg_profile **out, tg_error *err)
{
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    json_error_t jerr;
    json_t *root = json_loadb(t.buf, t.len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        tg_text_free(&t);
        return tg_error_set(err, TG_EPARSE, path, jerr.line > 0 ? jerr.line : 0,
                            "%s", jerr.text);
    }
    reader r = {.path = path, .text = &t, .err = err};
    r.p = calloc(1, sizeof *r.p);
    rc = r.p ? read_root(&r, root)
             : tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    json_decref(root);
    tg_text_free(&t);
    tg_prof_lazy_free(r.scratch, r.scratch_size);
    json_decref(r.type_index);
    if (rc) {
        tg_profile_free(r.p);
        return rc;
    }
    *out = r.p;
    return 0;
}
