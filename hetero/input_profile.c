/* input_profile.c: the per-rank input from libcommprof profiles
 * (topomap-formats(5)), one per variant that was run, combined:
 *
 *   - compute: each rank's compute_ns (wall minus MPI time), as the
 *     seconds of the variant it ran: its proc_kind (TOPOMAP_PROC_KIND when
 *     it was profiled), or the variant the user gives for the whole file
 *     ("cpu:run1.json");
 *   - footprint: the largest of the rank's peak resident memory
 *     (maxrss_kb) in every profile, and, for a rank with a CUDA context,
 *     the device memory in use divided by the ranks of its host whose
 *     context is on the same device (libcommprof records the device's
 *     use by all processes);
 *   - sends: per peer, the point-to-point rows, the one-sided rows and
 *     every collective record as taskgraph build models it
 *     (tg_build_sends, collectives on communicators of any size: they
 *     cost time even when no mapping can shorten them), added up per
 *     profile; where profiles differ, the larger count;
 *   - host and local rank: from the first profile (in the order given)
 *     that has the rank.
 * memory_bound is 1 (no profile measures it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

/* One profile and the variant the user gave for it. */
typedef struct source {
    const char *path;
    int kind; /* ht_proc, or -1: each rank's proc_kind */
    tg_profile *p;
} source;

/* A send of one profile. */
typedef struct flow {
    int src, dst, file;
    uint64_t bytes, count;
} flow;

typedef struct flows {
    flow *f;
    size_t n, cap;
    int file;
} flows;

static int nomem(tg_error *err)
{
    return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
}

/* "cpu:PATH" / "gpu:PATH" / "PATH". */
static void parse_spec(const char *spec, source *s)
{
    s->kind = -1;
    s->path = spec;
    for (int k = HT_PROC_CPU; k <= HT_PROC_GPU; k++) {
        size_t len = strlen(ht_proc_name((ht_proc)k));
        if (!strncmp(spec, ht_proc_name((ht_proc)k), len) && spec[len] == ':') {
            s->kind = k;
            s->path = spec + len + 1;
        }
    }
}

/* The line where rank w's entry starts in s's file, 0 when not found: for
 * messages only, so the file is read again. */
static long rank_line(const source *s, int w)
{
    ht_json j;
    tg_error ignored;
    if (ht_json_load(&j, s->path, TG_PROFILE_FORMAT, TG_PROFILE_VERSION,
                     &ignored))
        return 0;
    json_t *ranks = json_object_get(j.root, "ranks");
    long line = 0;
    for (size_t i = 0; i < json_array_size(ranks); i++) {
        json_t *r = json_object_get(json_array_get(ranks, i), "rank");
        if (json_is_integer(r) && json_integer_value(r) == w) {
            line = ht_json_line(&j, "ranks", i);
            break;
        }
    }
    ht_json_free(&j);
    return line;
}

static int add_flow(void *arg, int src, int dst, uint64_t bytes,
                    uint64_t count, tg_error *err)
{
    flows *fl = arg;
    if (fl->n == fl->cap) {
        size_t cap = fl->cap ? 2 * fl->cap : 256;
        flow *f = realloc(fl->f, cap * sizeof *f);
        if (!f)
            return nomem(err);
        fl->f = f;
        fl->cap = cap;
    }
    fl->f[fl->n++] = (flow){src, dst, fl->file, bytes, count};
    return 0;
}

static int by_pair_file(const void *x, const void *y)
{
    const flow *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    return (a->file > b->file) - (a->file < b->file);
}

/* The sends of every rank from fl: added up per profile, the larger
 * count where profiles differ. */
static int make_sends(flows *fl, ht_input *in, tg_error *err)
{
    qsort(fl->f, fl->n, sizeof *fl->f, by_pair_file);
    size_t m = 0; /* merged in place: one flow per pair */
    for (size_t i = 0; i < fl->n;) {
        flow best = fl->f[i];
        best.bytes = best.count = 0;
        while (i < fl->n && fl->f[i].src == best.src &&
               fl->f[i].dst == best.dst) {
            flow sum = fl->f[i];
            for (i++; i < fl->n && fl->f[i].src == sum.src &&
                      fl->f[i].dst == sum.dst && fl->f[i].file == sum.file;
                 i++) {
                if (fl->f[i].bytes > UINT64_MAX - sum.bytes)
                    return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                        "bytes from rank %d to rank %d "
                                        "exceed 2^64 - 1",
                                        sum.src, sum.dst);
                sum.bytes += fl->f[i].bytes;
                sum.count += fl->f[i].count;
            }
            best.bytes = sum.bytes > best.bytes ? sum.bytes : best.bytes;
            best.count = sum.count > best.count ? sum.count : best.count;
        }
        fl->f[m++] = best;
        in->ranks[best.src].nsends++;
    }
    for (int r = 0; r < in->n; r++) {
        in->ranks[r].sends =
            calloc((size_t)in->ranks[r].nsends + 1, sizeof(ht_send));
        if (!in->ranks[r].sends)
            return nomem(err);
        in->ranks[r].nsends = 0;
    }
    for (size_t i = 0; i < m; i++) {
        ht_rank *r = &in->ranks[fl->f[i].src];
        r->sends[r->nsends++] =
            (ht_send){fl->f[i].dst, fl->f[i].bytes, fl->f[i].count};
    }
    return 0;
}

/* Ranks with a CUDA context, by host and device, for sharing out the
 * device memory in use. */
typedef struct ctx_rank {
    const char *host, *bus;
    int rank;
} ctx_rank;

static int by_host_bus(const void *x, const void *y)
{
    const ctx_rank *a = x, *b = y;
    int c = strcmp(a->host, b->host);
    return c ? c : strcmp(a->bus, b->bus);
}

/* share[w]: rank w's part of the device memory in use in profile p, 0
 * without a context. */
static int device_shares(const tg_profile *p, uint64_t *share, tg_error *err)
{
    ctx_rank *c = malloc(((size_t)p->world_size + 1) * sizeof *c);
    if (!c)
        return nomem(err);
    size_t n = 0;
    for (int w = 0; w < p->world_size; w++) {
        const tg_prof_rank *r = &p->ranks[w];
        share[w] = 0;
        if (r->present && r->cuda_bus_id && r->host)
            c[n++] = (ctx_rank){r->host, r->cuda_bus_id, w};
    }
    qsort(c, n, sizeof *c, by_host_bus);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && !by_host_bus(&c[i], &c[j]); j++)
            ;
        for (size_t k = i; k < j; k++)
            share[c[k].rank] = p->ranks[c[k].rank].cuda_mem_used / (j - i);
    }
    free(c);
    return 0;
}

/* What file f says about its ranks into in; from[w][kind] is the file
 * that gave rank w that variant (-1: none yet). */
static int take_ranks(const source *s, int f, ht_input *in, int (*from)[2],
                      uint64_t *share, tg_error *err)
{
    const tg_profile *p = s[f].p;
    int rc = device_shares(p, share, err);
    for (int w = 0; w < p->world_size && !rc; w++) {
        const tg_prof_rank *pr = &p->ranks[w];
        ht_rank *r = &in->ranks[w];
        if (!pr->present)
            continue;
        int kind = pr->proc_kind ? ht_proc_parse(pr->proc_kind) : -1;
        if (!pr->has_facts)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d has no compute_ns and maxrss_kb (a "
                                "profile from a libcommprof that did not "
                                "record them)",
                                w);
        if (s[f].kind >= 0 && kind >= 0 && kind != s[f].kind)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d ran the %s variant (proc_kind), but "
                                "the file is given as %s",
                                w, pr->proc_kind,
                                ht_proc_name((ht_proc)s[f].kind));
        if (s[f].kind >= 0)
            kind = s[f].kind;
        if (kind < 0)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d has no proc_kind (TOPOMAP_PROC_KIND "
                                "was not set): give the variant of the whole "
                                "file as cpu:%s or gpu:%s",
                                w, s[f].path, s[f].path);
        if (from[w][kind] >= 0)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d: a second %s variant (the first is "
                                "in %s)",
                                w, ht_proc_name((ht_proc)kind),
                                s[from[w][kind]].path);
        if (!pr->host || !*pr->host)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d has an empty \"host\": its host "
                                "name is needed to place it",
                                w);
        double t = (double)pr->compute_ns / 1e9;
        if (t > HT_COMPUTE_MAX)
            return tg_error_set(err, TG_EPARSE, s[f].path, rank_line(&s[f], w),
                                "rank %d: compute_ns %llu is more than %g s",
                                w, (unsigned long long)pr->compute_ns,
                                HT_COMPUTE_MAX);
        from[w][kind] = f;
        if (kind == HT_PROC_CPU)
            r->t_cpu = t;
        else
            r->t_gpu = t;
        uint64_t rss = pr->maxrss_kb > UINT64_MAX / 1024 ? UINT64_MAX
                                                         : pr->maxrss_kb * 1024;
        r->footprint = rss > r->footprint ? rss : r->footprint;
        r->footprint = share[w] > r->footprint ? share[w] : r->footprint;
        if (!r->host) {
            if (!(r->host = strdup(pr->host)))
                return nomem(err);
            r->local_rank = pr->local_rank;
        }
    }
    return rc;
}

typedef struct placed {
    const char *host;
    int local_rank, rank;
} placed;

static int by_place(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    int c = strcmp(a->host, b->host);
    if (c)
        return c;
    if (a->local_rank != b->local_rank)
        return a->local_rank < b->local_rank ? -1 : 1;
    return a->rank - b->rank;
}

/* Every rank has a variant; no two share a host and local rank. */
static int check_ranks(const source *s, int n, const ht_input *in,
                       tg_error *err)
{
    for (int w = 0; w < in->n; w++)
        if (!in->ranks[w].host)
            return tg_error_set(err, TG_EINVAL, n == 1 ? s[0].path : NULL, 0,
                                n == 1 ? "rank %d is not in the profile"
                                       : "rank %d is in none of the profiles",
                                w);
    placed *pl = malloc(((size_t)in->n + 1) * sizeof *pl);
    if (!pl)
        return nomem(err);
    for (int w = 0; w < in->n; w++)
        pl[w] = (placed){in->ranks[w].host, in->ranks[w].local_rank, w};
    qsort(pl, (size_t)in->n, sizeof *pl, by_place);
    int rc = 0;
    for (int i = 1; i < in->n && !rc; i++)
        if (!strcmp(pl[i - 1].host, pl[i].host) &&
            pl[i - 1].local_rank == pl[i].local_rank)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "ranks %d and %d are both host %s local rank "
                              "%d (the profiles come from different runs)",
                              pl[i - 1].rank, pl[i].rank, pl[i].host,
                              pl[i].local_rank);
    free(pl);
    return rc;
}

/* The input from the n profiles in s (read). */
static int combine(source *s, int n, ht_input **out, tg_error *err)
{
    int size = s[0].p->world_size;
    for (int f = 1; f < n; f++)
        if (s[f].p->world_size != size)
            return tg_error_set(err, TG_EINVAL, s[f].path, 0,
                                "world size %d, but %s has world size %d",
                                s[f].p->world_size, s[0].path, size);
    ht_input *in = calloc(1, sizeof *in);
    int(*from)[2] = malloc(((size_t)size + 1) * sizeof *from);
    uint64_t *share = malloc(((size_t)size + 1) * sizeof *share);
    flows fl = {NULL, 0, 0, 0};
    int rc = 0;
    if (!in || !from || !share ||
        !(in->ranks = calloc((size_t)size, sizeof *in->ranks)))
        rc = nomem(err);
    else
        in->n = size;
    for (int w = 0; !rc && w < size; w++) {
        from[w][0] = from[w][1] = -1;
        in->ranks[w].t_cpu = in->ranks[w].t_gpu = -1;
        in->ranks[w].memory_bound = 1;
    }
    tg_build_options o;
    tg_build_options_init(&o);
    o.large = HUGE_VAL; /* every communicator */
    for (int f = 0; f < n && !rc; f++) {
        rc = take_ranks(s, f, in, from, share, err);
        fl.file = f;
        if (!rc)
            rc = tg_build_sends(s[f].p, &o, add_flow, &fl, err);
        if (rc && !err->source[0]) /* a model's error names no file */
            snprintf(err->source, sizeof err->source, "%s", s[f].path);
    }
    if (!rc)
        rc = check_ranks(s, n, in, err);
    if (!rc)
        rc = make_sends(&fl, in, err);
    free(fl.f);
    free(from);
    free(share);
    if (rc) {
        ht_input_free(in);
        return rc;
    }
    *out = in;
    return 0;
}

int ht_input_load(const char *const *inputs, int n, ht_input **out,
                  tg_error *err)
{
    if (n < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0, "no input given");
    source *s = calloc((size_t)n, sizeof *s);
    if (!s)
        return nomem(err);
    for (int f = 0; f < n; f++)
        parse_spec(inputs[f], &s[f]);
    int rc = 0;
    if (n == 1 && s[0].kind < 0 && !tg_profile_sniff(s[0].path))
        rc = ht_input_read(s[0].path, out, err);
    else {
        for (int f = 0; f < n && !rc; f++) {
            if (!*s[f].path)
                rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                                  "'%s' names no file", inputs[f]);
            else if (!(rc = tg_profile_read(s[f].path, &s[f].p, err)) &&
                     s[f].p->partial)
                rc = tg_error_set(err, TG_EINVAL, s[f].path, 0,
                                  "a partial profile (one rank's file): "
                                  "merge the ranks' files with taskgraph "
                                  "merge first");
        }
        if (!rc)
            rc = combine(s, n, out, err);
    }
    for (int f = 0; f < n; f++)
        tg_profile_free(s[f].p);
    free(s);
    return rc;
}
