/* placement.c: the placement file topomap-exec applies, and turning the
 * search's choices into it (which cores each rank gets).
 *
 *   {
 *     "format": "topomap-placement",
 *     "version": 1,
 *     "predicted": {"makespan_s": 1.25, "sum_s": 4.5},
 *     "ranks": [
 *       {"host": "n0", "local_rank": 0, "rank": 0, "proc": "gpu",
 *        "gpu": {"busid": "0000:34:00.0"},
 *        "cores": "0-1", "memory": {"policy": "bind", "nodes": "0",
 *        "kind": "device"}},
 *       {"host": "n0", "local_rank": 1, "rank": 1, "proc": "cpu",
 *        "cores": "2", "memory": {"policy": "bind", "nodes": "1",
 *        "kind": "hbm"}}
 *     ]
 *   }
 *
 * One rank per line.  "cores" lists the PUs (OS indexes) of the rank's
 * cores, "nodes" NUMA nodes (OS indexes), both in hwloc's list syntax.
 * "gpu" belongs to GPU ranks only; the kinds device, pinned and managed
 * too.  The bus id is what names the GPU: identical nodes have their GPUs
 * at the same bus ids, and ht_place writes no "uuid" (a node description
 * stands for every host, and its UUIDs are one machine's).  "uuid" is
 * still read (files of older versions, hand-written ones), and written
 * when an entry has one; topomap-exec only checks it against this
 * machine's GPUs.  "predicted" is optional. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

#define PLACEMENT_FORMAT "topomap-placement"
#define PLACEMENT_VERSION 1

void ht_placement_free(ht_placement *pl)
{
    if (!pl)
        return;
    for (int i = 0; pl->entries && i < pl->n; i++) {
        free(pl->entries[i].host);
        hwloc_bitmap_free(pl->entries[i].cpus);
        hwloc_bitmap_free(pl->entries[i].nodes);
    }
    free(pl->entries);
    free(pl);
}

ht_placement *ht_placement_new(int n)
{
    ht_placement *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->n = n;
    pl->cost.makespan = pl->cost.sum = -1;
    pl->entries = calloc((size_t)n + 1, sizeof *pl->entries);
    for (int i = 0; pl->entries && i < n; i++) {
        pl->entries[i].cpus = hwloc_bitmap_alloc();
        pl->entries[i].nodes = hwloc_bitmap_alloc();
        if (!pl->entries[i].cpus || !pl->entries[i].nodes) {
            ht_placement_free(pl);
            return NULL;
        }
    }
    if (!pl->entries) {
        free(pl);
        return NULL;
    }
    return pl;
}

/* ------------------------------------------------------------ choices */

typedef struct by_set {
    int size, rank;
} by_set;

static int smaller_set(const void *x, const void *y)
{
    const by_set *a = x, *b = y;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->rank - b->rank;
}

/* Give the ranks of host h their cores: the smallest allowed sets first,
 * each rank the first free cores of its set. */
static int assign_cores(const ht_problem *p, const int *choice, int h,
                        ht_placement *pl, by_set *tmp, char *used,
                        tg_error *err)
{
    const ht_node *node = p->node;
    int k = 0;
    for (int r = 0; r < p->n; r++)
        if (p->host[r] == h)
            tmp[k++] = (by_set){p->coreset_size[p->coreset_of[choice[r]]], r};
    qsort(tmp, (size_t)k, sizeof *tmp, smaller_set);
    memset(used, 0, (size_t)node->ncores);
    for (int i = 0; i < k; i++) {
        int r = tmp[i].rank, need = p->par.cores_per_rank;
        hwloc_const_bitmap_t set = p->coreset[p->coreset_of[choice[r]]];
        for (int c = hwloc_bitmap_first(set); c >= 0 && need;
             c = hwloc_bitmap_next(set, c))
            if (!used[c]) {
                used[c] = 1;
                hwloc_bitmap_or(pl->entries[r].cpus, pl->entries[r].cpus,
                                node->core[c]);
                need--;
            }
        if (need) /* ht_evaluate said they fit: the sets are not nested */
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "%s: no free cores left for rank %d",
                                p->hostname[h], r);
    }
    return 0;
}

int ht_place(const ht_problem *p, const int *choice, ht_placement **out,
             tg_error *err)
{
    ht_cost cost;
    int rc = ht_evaluate(p, choice, &cost, err);
    if (rc)
        return rc;
    ht_placement *pl = ht_placement_new(p->n);
    by_set *tmp = malloc(((size_t)p->n + 1) * sizeof *tmp);
    char *used = malloc((size_t)p->node->ncores + 1);
    if (!pl || !tmp || !used)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int r = 0; !rc && r < p->n; r++) {
        const ht_choice *ch = &p->choice[choice[r]];
        ht_entry *e = &pl->entries[r];
        if (!(e->host = strdup(p->in->ranks[r].host))) {
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
            break;
        }
        e->local_rank = p->in->ranks[r].local_rank;
        e->rank = r;
        e->proc = ch->proc;
        e->mem = ch->mem;
        if (ch->proc == HT_PROC_GPU) {
            const ht_gpu *g = &p->node->gpus[ch->gpu];
            /* The bus id only: every host of the input is taken to be a
             * node like p->node, and identical nodes have their GPUs at
             * the same bus ids but each GPU its own UUID, so the UUID of
             * p->node's GPU would name another machine's GPU on every
             * other host.  topomap-exec finds the local GPU's UUID. */
            snprintf(e->gpu_busid, sizeof e->gpu_busid, "%s", g->busid);
        }
        e->policy = ch->numa >= 0 ? HT_POLICY_BIND : HT_POLICY_NONE;
        if (ch->numa >= 0)
            hwloc_bitmap_only(e->nodes, p->node->numa[ch->numa].os_index);
    }
    for (int h = 0; !rc && h < p->nhosts; h++)
        rc = assign_cores(p, choice, h, pl, tmp, used, err);
    free(tmp);
    free(used);
    if (rc) {
        ht_placement_free(pl);
        return rc;
    }
    pl->cost = cost;
    *out = pl;
    return 0;
}

/* -------------------------------------------------------------- write */

static json_t *entry_record(const ht_entry *e)
{
    char cores[4096], nodes[1024];
    hwloc_bitmap_list_snprintf(cores, sizeof cores, e->cpus);
    hwloc_bitmap_list_snprintf(nodes, sizeof nodes, e->nodes);
    json_t *o = json_object(), *m = json_object();
    json_object_set_new(o, "host", json_string(e->host));
    json_object_set_new(o, "local_rank", json_integer(e->local_rank));
    json_object_set_new(o, "rank", json_integer(e->rank));
    json_object_set_new(o, "proc", json_string(ht_proc_name(e->proc)));
    if (e->proc == HT_PROC_GPU) {
        json_t *g = json_object();
        json_object_set_new(g, "busid", json_string(e->gpu_busid));
        if (e->gpu_uuid[0])
            json_object_set_new(g, "uuid", json_string(e->gpu_uuid));
        json_object_set_new(o, "gpu", g);
    }
    json_object_set_new(o, "cores", json_string(cores));
    json_object_set_new(m, "policy", json_string(ht_policy_name(e->policy)));
    json_object_set_new(m, "nodes", json_string(nodes));
    json_object_set_new(m, "kind", json_string(ht_memkind_name(e->mem)));
    json_object_set_new(o, "memory", m);
    return o;
}

int ht_placement_fwrite(FILE *fp, const char *name, const ht_placement *pl,
                        tg_error *err)
{
    /* JSON has no inf or nan, and the reader would refuse them. */
    if (pl->cost.makespan >= 0 &&
        !(isfinite(pl->cost.makespan) && isfinite(pl->cost.sum)))
        return tg_error_set(err, TG_EINVAL, name, 0,
                            "the predicted makespan or sum is not finite "
                            "(%g, %g s): the input's figures are out of "
                            "range",
                            pl->cost.makespan, pl->cost.sum);
    fprintf(fp, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n",
            PLACEMENT_FORMAT, PLACEMENT_VERSION);
    if (pl->cost.makespan >= 0)
        fprintf(fp,
                "  \"predicted\": {\"makespan_s\": %.9g, \"sum_s\": %.9g},\n",
                pl->cost.makespan, pl->cost.sum);
    fprintf(fp, "  \"ranks\": [");
    for (int i = 0; i < pl->n; i++) {
        json_t *e = entry_record(&pl->entries[i]);
        int rc = ht_json_put_line(fp, i ? ",\n    " : "\n    ", e);
        json_decref(e);
        if (rc)
            return tg_error_set(err, TG_EINVAL, name, 0,
                                "rank %d: host name is not valid UTF-8",
                                pl->entries[i].rank);
    }
    fprintf(fp, "%s]\n}\n", pl->n ? "\n  " : "");
    return 0;
}

int ht_placement_write(const char *path, const ht_placement *pl, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (!rc && (rc = ht_placement_fwrite(o.fp, path, pl, err)))
        tg_out_abort(&o);
    return rc ? rc : tg_out_commit(&o, err);
}

/* --------------------------------------------------------------- read */

/* A list of entry i of the file into b, or, b NULL, its syntax only;
 * what, "cores" or "memory nodes", for the message of a failed
 * allocation.  0; 1 when malformed (the caller says so); TG_ENOMEM when
 * the bitmap could not grow: "out of memory", never a message about the
 * list, which is well formed. */
static int read_list(const ht_json *j, size_t i, hwloc_bitmap_t b,
                     const char *text, const char *what, tg_error *err)
{
    int rc = ht_list_parse(b, text);
    if (rc == -2)
        return tg_error_set(err, TG_ENOMEM, j->path,
                            ht_json_line(j, "ranks", i),
                            "ranks[%zu]: out of memory for %s \"%.40s%s\"", i,
                            what, text, strlen(text) > 40 ? "..." : "");
    return rc ? 1 : 0;
}

static int read_gpu(const ht_json *j, size_t i, json_t *g, ht_entry *e,
                    tg_error *err)
{
    if (e->proc == HT_PROC_CPU) {
        if (g && !json_is_null(g))
            return ht_json_elem_error(j, err, "ranks", i,
                                      "a CPU rank has no \"gpu\"");
        return 0;
    }
    if (!json_is_object(g) ||
        ht_json_string(g, "busid", e->gpu_busid, sizeof e->gpu_busid) != 1 ||
        !e->gpu_busid[0] ||
        ht_json_string(g, "uuid", e->gpu_uuid, sizeof e->gpu_uuid) < 0)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "a GPU rank needs \"gpu\": {\"busid\": "
                                  "PCI bus id, \"uuid\": optional}");
    return 0;
}

static int read_memory(const ht_json *j, size_t i, json_t *m, ht_entry *e,
                       int keep, tg_error *err)
{
    json_t *policy = json_object_get(m, "policy");
    json_t *nodes = json_object_get(m, "nodes");
    json_t *kind = json_object_get(m, "kind");
    int pol = json_is_string(policy)
                  ? ht_policy_parse(json_string_value(policy))
                  : -1;
    int k =
        json_is_string(kind) ? ht_memkind_parse(json_string_value(kind)) : -1;
    if (!json_is_object(m) || pol < 0 || k < 0 || !json_is_string(nodes))
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"memory\" needs \"policy\" (none, bind, "
                                  "preferred, interleave), \"nodes\" (a "
                                  "list) and \"kind\" (device, pinned, "
                                  "managed, dram, hbm, cxl, nvm, gpu)");
    e->policy = (ht_policy)pol;
    e->mem = (ht_memkind)k;
    const char *text = json_string_value(nodes);
    int rc = read_list(j, i, keep ? e->nodes : NULL, text, "memory nodes", err);
    if (rc < 0)
        return rc;
    if (rc)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "memory nodes \"%s\" is not a list like "
                                  "\"0,2-3\"",
                                  text);
    /* A well-formed list is empty only when it is "". */
    if (e->policy != HT_POLICY_NONE && !*text)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "policy %s needs NUMA nodes",
                                  ht_policy_name(e->policy));
    if (!ht_memkind_is_numa(e->mem) && e->proc != HT_PROC_GPU)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "memory kind %s is for GPU ranks",
                                  ht_memkind_name(e->mem));
    return 0;
}

/* The earlier entry with rank `rank` or with host and local rank of e, as
 * seen[0] (rank -> index) and seen[1] ("local\nhost" -> index) hold them:
 * a hash lookup per entry, so that a file of n ranks takes no n^2 time.
 * Returns the message's code, or 0 after recording e. */
static int check_repeat(const ht_json *j, size_t i, const ht_entry *e,
                        json_t *seen[2], tg_error *err)
{
    char kr[24];
    snprintf(kr, sizeof kr, "%d", e->rank);
    size_t hl = strlen(e->host) + 24;
    char *kh = malloc(hl);
    if (!kh)
        return tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    snprintf(kh, hl, "%d\n%s", e->local_rank, e->host);
    json_t *a = json_object_get(seen[0], kr), *b = json_object_get(seen[1], kh);
    json_int_t ka = a ? json_integer_value(a) : -1;
    json_int_t kb = b ? json_integer_value(b) : -1;
    int rc = 0;
    /* The first earlier entry that repeats either, the rank first. */
    if (ka >= 0 && (kb < 0 || ka <= kb))
        rc = ht_json_elem_error(j, err, "ranks", i, "rank %d is also ranks[%zu]",
                                e->rank, (size_t)ka);
    else if (kb >= 0)
        rc = ht_json_elem_error(j, err, "ranks", i,
                                "host %s local rank %d is also ranks[%zu]",
                                e->host, e->local_rank, (size_t)kb);
    else if (json_object_set_new(seen[0], kr, json_integer((json_int_t)i)) ||
             json_object_set_new(seen[1], kh, json_integer((json_int_t)i)))
        rc = tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    free(kh);
    return rc;
}

static int read_entry(const ht_json *j, size_t i, json_t *o, ht_placement *pl,
                      json_t *seen[2], ht_entry_keep keep, void *arg,
                      tg_error *err)
{
    ht_entry *e = &pl->entries[i];
    json_t *host = json_object_get(o, "host");
    json_t *local = json_object_get(o, "local_rank");
    json_t *rank = json_object_get(o, "rank");
    json_t *proc = json_object_get(o, "proc");
    json_t *cores = json_object_get(o, "cores");
    if (!json_is_object(o) || !json_is_string(host) ||
        !*json_string_value(host) || !json_is_integer(local) ||
        json_integer_value(local) < 0 ||
        json_integer_value(local) > INT32_MAX || !json_is_integer(rank) ||
        json_integer_value(rank) < 0 || json_integer_value(rank) > INT32_MAX)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "needs \"host\", \"local_rank\" and "
                                  "\"rank\" (integers >= 0)");
    int pk = json_is_string(proc) ? ht_proc_parse(json_string_value(proc)) : -1;
    if (pk < 0)
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"proc\" must be \"cpu\" or \"gpu\"");
    if (!(e->host = strdup(json_string_value(host))))
        return tg_error_set(err, TG_ENOMEM, j->path, 0, "out of memory");
    e->local_rank = (int)json_integer_value(local);
    e->rank = (int)json_integer_value(rank);
    e->proc = (ht_proc)pk;
    int rc = check_repeat(j, i, e, seen, err);
    if (rc)
        return rc;
    rc = read_gpu(j, i, json_object_get(o, "gpu"), e, err);
    if (rc)
        return rc;
    int k = !keep || keep(e, arg);
    if (json_is_string(cores) &&
        (rc = read_list(j, i, k ? e->cpus : NULL, json_string_value(cores),
                        "cores", err)) < 0)
        return rc;
    if (!json_is_string(cores) || rc || !*json_string_value(cores))
        return ht_json_elem_error(j, err, "ranks", i,
                                  "\"cores\" must be a non-empty list like "
                                  "\"0-3,8\"");
    return read_memory(j, i, json_object_get(o, "memory"), e, k, err);
}

int ht_placement_read(const char *path, ht_placement **out, tg_error *err)
{
    return ht_placement_read_some(path, NULL, NULL, out, err);
}

int ht_placement_read_some(const char *path, ht_entry_keep keep, void *arg,
                           ht_placement **out, tg_error *err)
{
    ht_json j;
    int rc = ht_json_load(&j, path, PLACEMENT_FORMAT, PLACEMENT_VERSION, err);
    if (rc)
        return rc;
    json_t *ranks = json_object_get(j.root, "ranks");
    json_t *pred = json_object_get(j.root, "predicted");
    ht_placement *pl = NULL;
    if (!json_is_array(ranks) || json_array_size(ranks) > INT32_MAX)
        rc =
            tg_error_set(err, TG_EPARSE, path, 0, "\"ranks\" must be an array");
    else if (!(pl = ht_placement_new((int)json_array_size(ranks))))
        rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    if (!rc && pred &&
        (!json_is_object(pred) ||
         ht_json_number(pred, "makespan_s", &pl->cost.makespan) < 0 ||
         ht_json_number(pred, "sum_s", &pl->cost.sum) < 0))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"predicted\" holds numbers \"makespan_s\" and "
                          "\"sum_s\"");
    json_t *seen[2] = {json_object(), json_object()};
    if (!rc && (!seen[0] || !seen[1]))
        rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    for (int i = 0; !rc && i < pl->n; i++)
        rc = read_entry(&j, (size_t)i, json_array_get(ranks, (size_t)i), pl,
                        seen, keep, arg, err);
    json_decref(seen[0]);
    json_decref(seen[1]);
    ht_json_free(&j);
    if (rc) {
        ht_placement_free(pl);
        return rc;
    }
    *out = pl;
    return 0;
}

const ht_entry *ht_placement_find(const ht_placement *pl, const char *host,
                                  int local_rank)
{
    for (int i = 0; i < pl->n; i++)
        if (pl->entries[i].local_rank == local_rank &&
            ht_host_match(pl->entries[i].host, host))
            return &pl->entries[i];
    return NULL;
}
