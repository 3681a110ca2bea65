/* memcal.c: the calibration file memprobe writes and the cost model reads.
 *
 *   {
 *     "format": "topomap-memcal",
 *     "version": 1,
 *     "host": "n0",
 *     "method": {"array_bytes": 67108864, "repeats": 5},
 *     "numa": [
 *       {"os_index": 0, "kind": "dram", "initiator": "0-15", "threads": 16,
 *        "copy_mib_s": 41000, "triad_mib_s": 43000,
 *        "bandwidth_mib_s": 43000, "latency_ns": 92.5}
 *     ],
 *     "gpus": [
 *       {"busid": "0000:34:00.0", "uuid": "GPU-...", "model": "...",
 *        "memory_bytes": 34359738368, "device_mib_s": 820000,
 *        "pinned_mib_s": 11800, "managed_mib_s": 790000,
 *        "h2d_pageable_mib_s": 6000, "d2h_pageable_mib_s": 6500,
 *        "h2d_pinned_mib_s": 12000, "d2h_pinned_mib_s": 12500,
 *        "copy_pageable_latency_ns": 9000, "copy_pinned_latency_ns": 7000}
 *     ]
 *   }
 *
 * One record per line.  A figure that was not measured is left out; every
 * figure present is a positive number.  "bandwidth_mib_s" is required: it
 * is the figure the cost model uses (the triad bandwidth). */
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

#define MEMCAL_FORMAT "topomap-memcal"
#define MEMCAL_VERSION 1

void ht_memcal_free(ht_memcal *cal)
{
    if (!cal)
        return;
    free(cal->numa);
    free(cal->gpus);
    free(cal);
}

/* ------------------------------------------------------------------ write */

static void put_figure(json_t *o, const char *key, double v)
{
    if (v > 0)
        json_object_set_new(o, key, json_real(v));
}

static json_t *numa_record(const void *rec)
{
    const ht_memcal_numa *m = rec;
    json_t *o = json_object();
    json_object_set_new(o, "os_index", json_integer(m->os_index));
    json_object_set_new(o, "kind", json_string(m->kind));
    json_object_set_new(o, "initiator", json_string(m->initiator));
    json_object_set_new(o, "threads", json_integer(m->threads));
    put_figure(o, "copy_mib_s", m->copy);
    put_figure(o, "triad_mib_s", m->triad);
    put_figure(o, "bandwidth_mib_s", m->bandwidth);
    put_figure(o, "latency_ns", m->latency);
    return o;
}

static json_t *gpu_record(const void *rec)
{
    const ht_memcal_gpu *g = rec;
    json_t *o = json_object();
    json_object_set_new(o, "busid", json_string(g->busid));
    if (g->uuid[0])
        json_object_set_new(o, "uuid", json_string(g->uuid));
    if (g->model[0])
        json_object_set_new(o, "model", json_string(g->model));
    if (g->memory)
        json_object_set_new(o, "memory_bytes",
                            json_integer((json_int_t)g->memory));
    put_figure(o, "device_mib_s", g->device);
    put_figure(o, "pinned_mib_s", g->pinned);
    put_figure(o, "managed_mib_s", g->managed);
    put_figure(o, "h2d_pageable_mib_s", g->h2d_pageable);
    put_figure(o, "d2h_pageable_mib_s", g->d2h_pageable);
    put_figure(o, "h2d_pinned_mib_s", g->h2d_pinned);
    put_figure(o, "d2h_pinned_mib_s", g->d2h_pinned);
    put_figure(o, "copy_pageable_latency_ns", g->lat_pageable);
    put_figure(o, "copy_pinned_latency_ns", g->lat_pinned);
    return o;
}

/* Write records one per line; -1 when jansson fails (invalid UTF-8). */
static int put_records(FILE *fp, const void *base, size_t size, int count,
                       json_t *(*record)(const void *))
{
    for (int i = 0; i < count; i++) {
        json_t *o = record((const char *)base + (size_t)i * size);
        int rc = o ? ht_json_put_line(fp, i ? ",\n    " : "\n    ", o) : -1;
        json_decref(o);
        if (rc)
            return -1;
    }
    fprintf(fp, count ? "\n  ]" : "]");
    return 0;
}

int ht_memcal_write(const char *path, const ht_memcal *cal, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    json_t *host = json_string(cal->host);
    char *hs = host ? json_dumps(host, JSON_ENCODE_ANY) : NULL;
    json_decref(host);
    if (!hs) {
        tg_out_abort(&o);
        return tg_error_set(err, TG_EINVAL, path, 0,
                            "host name is not valid UTF-8");
    }
    fprintf(o.fp,
            "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"host\": %s,\n"
            "  \"method\": {\"array_bytes\": %llu, \"repeats\": %d},\n"
            "  \"numa\": [",
            MEMCAL_FORMAT, MEMCAL_VERSION, hs,
            (unsigned long long)cal->array_bytes, cal->repeats);
    free(hs);
    rc = put_records(o.fp, cal->numa, sizeof *cal->numa, cal->nnuma,
                     numa_record);
    if (!rc) {
        fprintf(o.fp, ",\n  \"gpus\": [");
        rc = put_records(o.fp, cal->gpus, sizeof *cal->gpus, cal->ngpus,
                         gpu_record);
    }
    if (rc) {
        tg_out_abort(&o);
        return tg_error_set(err, TG_EINVAL, path, 0,
                            "a name is not valid UTF-8");
    }
    fprintf(o.fp, "\n}\n");
    return tg_out_commit(&o, err);
}

/* ------------------------------------------------------------------- read */

/* Optional positive figure; 0 when absent. */
static int figure(const ht_json *j, tg_error *err, const char *member, size_t i,
                  json_t *o, const char *key, double *v)
{
    *v = 0;
    int rc = ht_json_number(o, key, v);
    if (rc < 0 || (rc > 0 && !(*v > 0)))
        return ht_json_elem_error(j, err, member, i,
                                  "\"%s\" must be a positive number", key);
    return 0;
}

static int read_numa(const ht_json *j, json_t *o, size_t i, ht_memcal_numa *m,
                     tg_error *err)
{
    uint64_t os;
    uint64_t threads = 0;
    if (!json_is_object(o))
        return ht_json_elem_error(j, err, "numa", i, "must be an object");
    if (ht_json_u64(o, "os_index", &os) != 1 || os > UINT32_MAX)
        return ht_json_elem_error(j, err, "numa", i,
                                  "needs \"os_index\", a NUMA node's OS "
                                  "index");
    m->os_index = (unsigned)os;
    if (ht_json_string(o, "kind", m->kind, sizeof m->kind) < 0 ||
        ht_json_string(o, "initiator", m->initiator, sizeof m->initiator) < 0 ||
        ht_json_u64(o, "threads", &threads) < 0 || threads > INT32_MAX)
        return ht_json_elem_error(j, err, "numa", i,
                                  "\"kind\" and \"initiator\" are short "
                                  "strings, \"threads\" a count");
    m->threads = (int)threads;
    int rc = figure(j, err, "numa", i, o, "copy_mib_s", &m->copy);
    if (!rc)
        rc = figure(j, err, "numa", i, o, "triad_mib_s", &m->triad);
    if (!rc)
        rc = figure(j, err, "numa", i, o, "bandwidth_mib_s", &m->bandwidth);
    if (!rc)
        rc = figure(j, err, "numa", i, o, "latency_ns", &m->latency);
    if (!rc && !(m->bandwidth > 0))
        rc = ht_json_elem_error(j, err, "numa", i, "needs \"bandwidth_mib_s\"");
    return rc;
}

static int read_gpu(const ht_json *j, json_t *o, size_t i, ht_memcal_gpu *g,
                    tg_error *err)
{
    static const char *const keys[] = {
        "device_mib_s",          "pinned_mib_s",
        "managed_mib_s",         "h2d_pageable_mib_s",
        "d2h_pageable_mib_s",    "h2d_pinned_mib_s",
        "d2h_pinned_mib_s",      "copy_pageable_latency_ns",
        "copy_pinned_latency_ns"};
    double *vals[] = {&g->device,       &g->pinned,       &g->managed,
                      &g->h2d_pageable, &g->d2h_pageable, &g->h2d_pinned,
                      &g->d2h_pinned,   &g->lat_pageable, &g->lat_pinned};
    if (!json_is_object(o))
        return ht_json_elem_error(j, err, "gpus", i, "must be an object");
    if (ht_json_string(o, "busid", g->busid, sizeof g->busid) != 1 ||
        !g->busid[0])
        return ht_json_elem_error(j, err, "gpus", i,
                                  "needs \"busid\", the GPU's PCI bus id");
    if (ht_json_string(o, "uuid", g->uuid, sizeof g->uuid) < 0 ||
        ht_json_string(o, "model", g->model, sizeof g->model) < 0 ||
        ht_json_u64(o, "memory_bytes", &g->memory) < 0)
        return ht_json_elem_error(j, err, "gpus", i,
                                  "\"uuid\" and \"model\" are short strings, "
                                  "\"memory_bytes\" a count");
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        int rc = figure(j, err, "gpus", i, o, keys[k], vals[k]);
        if (rc)
            return rc;
    }
    return 0;
}

int ht_memcal_read(const char *path, ht_memcal **out, tg_error *err)
{
    ht_json j;
    int rc = ht_json_load(&j, path, MEMCAL_FORMAT, MEMCAL_VERSION, err);
    if (rc)
        return rc;
    json_t *numa = json_object_get(j.root, "numa");
    json_t *gpus = json_object_get(j.root, "gpus");
    json_t *method = json_object_get(j.root, "method");
    ht_memcal *cal = calloc(1, sizeof *cal);
    if (!cal) {
        ht_json_free(&j);
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    uint64_t repeats = 0;
    if (ht_json_string(j.root, "host", cal->host, sizeof cal->host) < 0)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"host\" must be a host name");
    else if (method &&
             (!json_is_object(method) ||
              ht_json_u64(method, "array_bytes", &cal->array_bytes) < 0 ||
              ht_json_u64(method, "repeats", &repeats) < 0 ||
              repeats > INT32_MAX))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"method\" must hold counts \"array_bytes\" and "
                          "\"repeats\"");
    else if (!json_is_array(numa) || (gpus && !json_is_array(gpus)))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"numa\" (and \"gpus\" when present) must be "
                          "arrays");
    cal->repeats = (int)repeats;
    if (!rc) {
        cal->nnuma = (int)json_array_size(numa);
        cal->ngpus = (int)json_array_size(gpus);
        cal->numa = calloc((size_t)cal->nnuma + 1, sizeof *cal->numa);
        cal->gpus = calloc((size_t)cal->ngpus + 1, sizeof *cal->gpus);
        if (!cal->numa || !cal->gpus)
            rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    for (int i = 0; !rc && i < cal->nnuma; i++) {
        rc = read_numa(&j, json_array_get(numa, (size_t)i), (size_t)i,
                       &cal->numa[i], err);
        for (int k = 0; !rc && k < i; k++)
            if (cal->numa[k].os_index == cal->numa[i].os_index)
                rc = ht_json_elem_error(&j, err, "numa", (size_t)i,
                                        "NUMA node %u is listed twice",
                                        cal->numa[i].os_index);
    }
    for (int i = 0; !rc && i < cal->ngpus; i++) {
        rc = read_gpu(&j, json_array_get(gpus, (size_t)i), (size_t)i,
                      &cal->gpus[i], err);
        for (int k = 0; !rc && k < i; k++)
            if (!strcmp(cal->gpus[k].busid, cal->gpus[i].busid))
                rc = ht_json_elem_error(&j, err, "gpus", (size_t)i,
                                        "GPU %s is listed twice",
                                        cal->gpus[i].busid);
    }
    ht_json_free(&j);
    if (rc) {
        ht_memcal_free(cal);
        return rc;
    }
    *out = cal;
    return 0;
}
