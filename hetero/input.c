/* input.c: what the placement decision needs per rank (format
 * "topomap-hetero-input"), written by hand or by topomap-place
 * --write-input from profiles (input_profile.c):
 *
 *   {
 *     "format": "topomap-hetero-input",
 *     "version": 1,
 *     "ranks": [
 *       {"rank": 0, "host": "n0", "local_rank": 0,
 *        "compute": {"cpu": 2.0, "gpu": 0.25},
 *        "memory_bytes": 1073741824, "memory_bound": 0.8,
 *        "sends": [[1, 1048576, 16], [3, 4096]]}
 *     ]
 *   }
 *
 * Each rank 0..n-1 appears once, in any order, with its host and its
 * local rank there (unique per host).  "compute" holds the seconds of
 * compute (wall time minus MPI time) of the variants that were measured,
 * at least one, each at most HT_COMPUTE_MAX (1e9 s, some 32 years: more is
 * a broken file, and would overflow the sums of the cost model).  "memory_bytes" (default 0) is the data the rank keeps;
 * "memory_bound" (0..1, default 1) the share of its compute that scales
 * with memory bandwidth.  "sends" lists [peer, bytes] or [peer, bytes,
 * messages], one entry per peer. */
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

#define INPUT_FORMAT "topomap-hetero-input"
#define INPUT_VERSION 1

void ht_input_free(ht_input *in)
{
    if (!in)
        return;
    for (int i = 0; in->ranks && i < in->n; i++) {
        free(in->ranks[i].host);
        free(in->ranks[i].sends);
    }
    free(in->ranks);
    free(in);
}

static int read_compute(const ht_json *j, size_t i, json_t *c, ht_rank *r,
                        tg_error *err)
{
    r->t_cpu = r->t_gpu = -1;
    int a = json_is_object(c) ? ht_json_number(c, "cpu", &r->t_cpu) : -1;
    int b = json_is_object(c) ? ht_json_number(c, "gpu", &r->t_gpu) : -1;
    if (a < 0 || b < 0 || (!a && !b) ||
        (a && !(r->t_cpu >= 0 && r->t_cpu <= HT_COMPUTE_MAX)) ||
        (b && !(r->t_gpu >= 0 && r->t_gpu <= HT_COMPUTE_MAX)))
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"compute\" must hold seconds in 0..%g "
                                  "for \"cpu\", \"gpu\" or both",
                                  HT_COMPUTE_MAX);
    return 0;
}

/* mark[peer] == self + 1 once rank self listed peer: a repeated peer shows
 * in O(1), so a rank with many peers costs no quadratic time. */
static int read_sends(const ht_json *j, size_t i, json_t *s, int self, int n,
                      int *mark, ht_rank *r, tg_error *err)
{
    if (!s)
        return 0;
    if (!json_is_array(s))
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"sends\" must be an array");
    r->nsends = (int)json_array_size(s);
    r->sends = calloc((size_t)r->nsends + 1, sizeof *r->sends);
    if (!r->sends)
        return tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    for (int k = 0; k < r->nsends; k++) {
        json_t *e = json_array_get(s, (size_t)k);
        size_t len = json_array_size(e);
        json_t *p = json_array_get(e, 0), *b = json_array_get(e, 1),
               *m = json_array_get(e, 2);
        if (!json_is_array(e) || len < 2 || len > 3 || !json_is_integer(p) ||
            !json_is_integer(b) || (m && !json_is_integer(m)) ||
            json_integer_value(b) < 0 || (m && json_integer_value(m) < 0))
            return ht_json_elem_error(j, err, "ranks", i,
                                      "sends[%d] must be [peer, bytes] or "
                                      "[peer, bytes, messages] with counts "
                                      ">= 0",
                                      k);
        json_int_t peer = json_integer_value(p);
        if (peer < 0 || peer >= n || peer == self)
            return ht_json_elem_error(j, err, "ranks", i,
                                      "sends[%d]: peer %lld is not another "
                                      "rank of 0..%d",
                                      k, (long long)peer, n - 1);
        if (mark[peer] == self + 1)
            return ht_json_elem_error(j, err, "ranks", i,
                                      "sends[%d]: peer %lld is listed twice",
                                      k, (long long)peer);
        mark[peer] = self + 1;
        r->sends[k].peer = (int)peer;
        r->sends[k].bytes = (uint64_t)json_integer_value(b);
        r->sends[k].messages = m ? (uint64_t)json_integer_value(m) : 0;
    }
    return 0;
}

/* Entry i of the array, stored at the rank it names.  hosts maps
 * "local_rank\nhost" to the rank that has it, mark is read_sends'. */
static int read_rank(const ht_json *j, size_t i, json_t *o, int n, ht_input *in,
                     json_t *hosts, int *mark, tg_error *err)
{
    if (!json_is_object(o))
        return ht_json_elem_error(j, err, "ranks", i, "must be an object");
    json_t *jr = json_object_get(o, "rank");
    json_t *host = json_object_get(o, "host");
    json_t *local = json_object_get(o, "local_rank");
    if (!json_is_integer(jr) || json_integer_value(jr) < 0 ||
        json_integer_value(jr) >= n)
        return ht_json_elem_error(j, err, "ranks", i, "needs \"rank\" in 0..%d",
                                  n - 1);
    int self = (int)json_integer_value(jr);
    ht_rank *r = &in->ranks[self];
    if (r->host)
        return ht_json_elem_error(j, err, "ranks", i, "rank %d is listed twice",
                                  self);
    if (!json_is_string(host) || !*json_string_value(host) ||
        !json_is_integer(local) || json_integer_value(local) < 0 ||
        json_integer_value(local) > INT32_MAX)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "needs \"host\" (a name) and "
                                  "\"local_rank\" (>= 0)");
    if (!(r->host = strdup(json_string_value(host))))
        return tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    r->local_rank = (int)json_integer_value(local);
    size_t kl = strlen(r->host) + 24;
    char *key = malloc(kl);
    if (!key)
        return tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    snprintf(key, kl, "%d\n%s", r->local_rank, r->host);
    json_t *q = json_object_get(hosts, key);
    int rc = q ? ht_json_elem_error(j, err, "ranks", i,
                                    "host %s local rank %d is also rank %d",
                                    r->host, r->local_rank,
                                    (int)json_integer_value(q))
               : json_object_set_new(hosts, key, json_integer(self))
                     ? tg_error_set(err, TG_ENOMEM, j->path, 0,
                                    "out of memory")
                     : 0;
    free(key);
    if (rc)
        return rc;
    rc = read_compute(j, i, json_object_get(o, "compute"), r, err);
    if (rc)
        return rc;
    r->memory_bound = 1;
    if (ht_json_u64(o, "memory_bytes", &r->footprint) < 0)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"memory_bytes\" must be a count of "
                                  "bytes");
    if (ht_json_number(o, "memory_bound", &r->memory_bound) < 0 ||
        !(r->memory_bound >= 0 && r->memory_bound <= 1))
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"memory_bound\" must be in 0..1");
    return read_sends(j, i, json_object_get(o, "sends"), self, n, mark, r,
                      err);
}

int ht_input_read(const char *path, ht_input **out, tg_error *err)
{
    ht_json j;
    int rc = ht_json_load(&j, path, INPUT_FORMAT, INPUT_VERSION, err);
    if (rc)
        return rc;
    json_t *ranks = json_object_get(j.root, "ranks");
    ht_input *in = calloc(1, sizeof *in);
    if (!in)
        rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    else if (!json_is_array(ranks) || json_array_size(ranks) == 0 ||
             json_array_size(ranks) > INT32_MAX)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"ranks\" must be a non-empty array");
    json_t *hosts = json_object();
    int *mark = NULL;
    if (!rc) {
        in->n = (int)json_array_size(ranks);
        mark = calloc((size_t)in->n, sizeof *mark);
        if (!(in->ranks = calloc((size_t)in->n, sizeof *in->ranks)) ||
            !mark || !hosts)
            rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    for (int i = 0; !rc && i < in->n; i++)
        rc = read_rank(&j, (size_t)i, json_array_get(ranks, (size_t)i), in->n,
                       in, hosts, mark, err);
    json_decref(hosts);
    free(mark);
    ht_json_free(&j);
    if (rc) {
        ht_input_free(in);
        return rc;
    }
    *out = in;
    return 0;
}

/* A count as a JSON integer (which stops at 2^63 - 1). */
static json_t *count(uint64_t v)
{
    return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v));
}

/* Rank r as one line of the file. */
static json_t *rank_record(const ht_input *in, int r)
{
    const ht_rank *k = &in->ranks[r];
    json_t *o = json_object(), *c = json_object(), *s = json_array();
    json_object_set_new(o, "rank", json_integer(r));
    json_object_set_new(o, "host", json_string(k->host));
    json_object_set_new(o, "local_rank", json_integer(k->local_rank));
    if (k->t_cpu >= 0)
        json_object_set_new(c, "cpu", json_real(k->t_cpu));
    if (k->t_gpu >= 0)
        json_object_set_new(c, "gpu", json_real(k->t_gpu));
    json_object_set_new(o, "compute", c);
    json_object_set_new(o, "memory_bytes", count(k->footprint));
    json_object_set_new(o, "memory_bound", json_real(k->memory_bound));
    for (int i = 0; i < k->nsends; i++) {
        const ht_send *e = &k->sends[i];
        json_array_append_new(s, json_pack("[i, o, o]", e->peer,
                                           count(e->bytes),
                                           count(e->messages)));
    }
    json_object_set_new(o, "sends", s);
    return o;
}

int ht_input_write(const char *path, const ht_input *in, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    fprintf(o.fp, "{\"format\": \"%s\", \"version\": %d, \"ranks\": [",
            INPUT_FORMAT, INPUT_VERSION);
    for (int r = 0; r < in->n && !rc; r++) {
        json_t *e = rank_record(in, r);
        if (!e || ht_json_put_line(o.fp, r ? ",\n " : "\n ", e))
            rc = tg_error_set(err, TG_EINVAL, path, 0,
                              "rank %d: host name is not valid UTF-8", r);
        json_decref(e);
    }
    if (rc) {
        tg_out_abort(&o);
        return rc;
    }
    fprintf(o.fp, "]}\n");
    return tg_out_commit(&o, err);
}
