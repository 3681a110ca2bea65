/* report.c: parmapper's report, "topomap-parmapper-report" version 1
 * (described in parmapper(1)).  Seeds and byte counts are JSON integers,
 * exact over the whole uint64_t range.
 *
 * jansson's integers stop at 2^63 - 1 and seeds are drawn over all 64
 * bits, so a larger value goes into the tree as a marked string,
 * "\x1fu64:DIGITS", and write_json turns each marked string back into the
 * bare DIGITS as the text is written.  Only a whole string of that form
 * is replaced, so a host name or path would have to be exactly a control
 * character, "u64:" and digits to be taken for one. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parmapper.h"

#define U64_MARK "\x1fu64:"
/* How jansson writes the marker's start; its hex digits' case varies. */
#define U64_MARK_DUMPED "\"\\u001fu64:"

static json_t *ju64(uint64_t v)
{
    if (v <= INT64_MAX)
        return json_integer((json_int_t)v);
    char text[32];
    snprintf(text, sizeof text, U64_MARK "%" PRIu64, v);
    return json_string(text);
}

/* The next marked string in text (its opening quote), or NULL. */
static const char *next_mark(const char *text)
{
    size_t lead = strlen(U64_MARK_DUMPED) - strlen("u64:");
    for (const char *u = strstr(text, "u64:"); u; u = strstr(u + 1, "u64:"))
        if ((size_t)(u - text) >= lead &&
            strncasecmp(u - lead, U64_MARK_DUMPED, lead) == 0)
            return u - lead;
    return NULL;
}

/* Write the report's text with every marked string made a bare number. */
static int write_json(FILE *fp, const json_t *root)
{
    char *text = json_dumps(root, JSON_INDENT(2));
    if (!text)
        return -1;
    const char *at = text, *mark;
    while ((mark = next_mark(at)) != NULL) {
        fwrite(at, 1, (size_t)(mark - at), fp);
        const char *digits = mark + strlen(U64_MARK_DUMPED);
        size_t n = strspn(digits, "0123456789");
        if (n == 0 || digits[n] != '"') { /* not a whole marked string */
            fwrite(mark, 1, (size_t)(digits - mark), fp);
            at = digits;
            continue;
        }
        fwrite(digits, 1, n, fp);
        at = digits + n + 1; /* past the closing quote */
    }
    fputs(at, fp);
    free(text);
    return ferror(fp) ? -1 : 0;
}

static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* Bytes per level and J, named as in `greedymap eval --json`. */
static json_t *levels(const gm_level_metrics *lm)
{
    json_t *a = json_array();
    for (int i = 0; a && i < lm->nlevels; i++)
        json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "name",
                                           lm->name[i], "cost",
                                           ju64(lm->cost[i]), "bytes",
                                           ju64(lm->bytes[i])));
    return a ? a : json_null();
}

/* The metrics of a mapping, named as in `greedymap eval --json`. */
static json_t *metrics(const gm_metrics *r, const gm_level_metrics *lm)
{
    json_t *o = json_pack(
        "{s:i, s:I, s:o, s:o, s:f, s:o, s:f, s:f, s:i, s:o, s:f, s:o, s:o, "
        "s:o, s:b}",
        "tasks", r->tasks, "edges", (json_int_t)r->edges, "bytes",
        ju64(r->bytes), "hop_bytes_total", ju64(r->hop_bytes_total),
        "hop_bytes_avg", r->hop_bytes_avg, "hop_bytes_max",
        ju64(r->hop_bytes_max), "dilation_avg", r->dilation_avg,
        "dilation_wavg", r->dilation_wavg, "dilation_max", r->dilation_max,
        "offnode_bytes", ju64(r->offnode_bytes), "offnode_share",
        r->offnode_share, "cross_socket_bytes",
        r->has_node_topology ? ju64(r->cross_socket_bytes) : json_null(),
        "load_max_fixed", ju64(r->load_max_fixed), "load_max_heuristic",
        ju64(r->load_max_heuristic), "saturated", r->saturated);
    if (o) {
        json_object_set_new(o, "comm_cost", ju64(lm->comm_cost));
        json_object_set_new(o, "numa_latency",
                            json_boolean(lm->latency_level >= 0));
        json_object_set_new(o, "levels", levels(lm));
        if (lm->saturated)
            json_object_set_new(o, "saturated", json_true());
    }
    return o;
}

static json_t *point(const pm_report_input *in, const pm_point *p)
{
    gm_config c = in->configs[p->config];
    c.seed = p->seed;
    char text[256];
    gm_config_format(&c, text, sizeof text);
    int n = in->g->n ? in->g->n : 1;
    int loads = in->o->select == PM_SELECT_MAXLOAD;
    return json_pack("{s:s, s:i, s:i, s:o, s:i, s:o, s:f, s:o, s:o, s:o}",
                     "config", text, "config_index", p->config, "round",
                     p->round, "seed", ju64(p->seed), "rank", p->rank,
                     "hop_bytes_total", ju64(p->total), "hop_bytes_avg",
                     (double)p->total / n, "hop_bytes_max", ju64(p->max),
                     "load_max_heuristic",
                     loads ? ju64(p->load) : json_null(), "comm_cost",
                     ju64(p->cost));
}

static json_t *hosts(const pm_hosts *h)
{
    json_t *a = json_array();
    for (int i = 0; a && i < h->n; i++) {
        json_t *cores = json_array();
        for (int k = 0; cores && k < h->h[i].nusable; k++)
            json_array_append_new(cores, json_integer(h->h[i].core[k]));
        json_array_append_new(
            a, json_pack("{s:s, s:i, s:i, s:i, s:o, s:i}", "name",
                         h->h[i].name, "cores", h->h[i].cores, "packages",
                         h->h[i].packages, "ranks", h->h[i].ranks,
                         "cores_used", cores ? cores : json_null(),
                         "tasks_per_slot", h->h[i].tasks_per_slot));
    }
    return a ? a : json_null();
}

/* Where the levels inside the nodes come from (share.c). */
static const char *levels_source(const pm_options *o)
{
    if (o->a.node_topology)
        return "node-topology";
    return o->offline || o->no_levels ? "none" : "job";
}

static json_t *machine(const pm_report_input *in)
{
    const pm_options *o = in->o;
    const char *source = !o->offline ? "job" : o->a.hostfile ? "hostfile"
                                                              : "nodes";
    return json_pack(
        "{s:s, s:s, s:i, s:I, s:o, s:s, s:o, s:o, s:o}", "source", source,
        "levels", levels_source(o), "nodes",
        gm_machine_nodes(in->m), "slots",
        (json_int_t)gm_machine_total_slots(in->m), "tasks_per_slot",
        o->tasks_per_slot ? json_integer(o->tasks_per_slot) : json_null(),
        "network", o->a.network ? o->a.network : "flat",
        "positions", jstr(o->a.positions), "node_topology",
        jstr(o->a.node_topology), "hosts",
        o->offline ? json_array() : hosts(in->hosts));
}

static json_t *search(const pm_report_input *in)
{
    const pm_options *o = in->o;
    const pm_result *r = in->r;
    json_t *runs = json_array(), *stopped = json_array();
    json_t *focus = r->nfocus ? json_array() : json_null();
    json_int_t total = 0;
    for (int i = 0; runs && stopped && i < r->nranks; i++) {
        json_array_append_new(runs, json_integer(r->runs[i]));
        json_array_append_new(stopped, json_integer(r->stopped[i]));
        total += r->runs[i];
    }
    for (int i = 0; focus && i < r->nfocus; i++)
        json_array_append_new(focus, json_integer(r->focus[i]));
    return json_pack(
        "{s:i, s:o, s:o, s:b, s:o, s:s, s:f, s:i, s:o, s:f, s:I, s:o, s:o}", "ranks",
        in->nranks, "time_limit", o->time > 0 ? json_real(o->time) : json_null(),
        "rounds", o->rounds ? json_integer(o->rounds) : json_null(),
        "rounds_complete", r->rounds_complete, "seed", ju64(o->a.seed), "select",
        pm_criterion_name(o->select), "alpha", o->alpha, "configurations",
        in->nconfigs, "focus", focus ? focus : json_null(), "seconds",
        r->seconds, "runs", total, "runs_per_rank", runs ? runs : json_null(),
        "stopped_per_rank",
        stopped ? stopped : json_null());
}

static json_t *cost(int have, const ht_cost *c)
{
    return have ? json_pack("{s:f, s:f}", "makespan_s", c->makespan, "sum_s",
                            c->sum)
                : json_null();
}

/* --hetero: the inputs, the node, the predicted times of GPU-first,
 * all-CPU and the chosen placement; null without --hetero. */
static json_t *hetero(const pm_report_input *in)
{
    const pm_hetero *h = in->hetero;
    const pm_options *o = in->o;
    if (!h)
        return json_null();
    json_t *inputs = json_array();
    for (int i = 0; inputs && i < o->nhetero; i++)
        json_array_append_new(inputs, json_string(o->hetero[i]));
    return json_pack(
        "{s:o, s:o, s:o, s:s, s:i, s:i, s:o, s:o, s:o, s:I, s:f}", "inputs",
        inputs ? inputs : json_null(), "node_topology",
        jstr(o->a.node_topology), "calibration", jstr(o->het.calibration),
        "placement", o->placement, "ranks", h->in->n, "gpu_ranks",
        h->gpu_ranks, "gpu_first", cost(h->have_gpu_first, &h->gpu_first),
        "all_cpu", cost(h->have_all_cpu, &h->all_cpu), "chosen",
        cost(1, &h->chosen), "evaluations", (json_int_t)h->evaluations,
        "seconds", h->seconds);
}

int pm_report_write(FILE *fp, const char *path, const pm_report_input *in,
                    tg_error *err)
{
    json_error_t jerr;
    const pm_result *r = in->r;
    json_t *front = json_array();
    for (int i = 0; front && i < r->front.n; i++)
        json_array_append_new(front, point(in, &r->front.p[i]));
    /* srun's --cpu-bind=map_cpu: list, which is also Hydra's -bind-to
     * user: list (outputs.c); null where no one list binds every rank
     * (binding.c). */
    const pm_binding *b = in->bind;
    json_t *cpus = (in->o->slurm_hostfile || in->o->hydra_hostfile) && b->cpus
                       ? json_array()
                       : json_null();
    for (int k = 0; json_is_array(cpus) && k < b->ncpus; k++)
        json_array_append_new(cpus, json_integer(b->cpus[k]));
    json_t *binding = json_null();
    if (in->o->slurm_hostfile || in->o->hydra_hostfile)
        binding = json_pack("{s:s, s:o}", "kind",
                            b->placement ? "topomap-exec" : "map_cpu",
                            "placement", jstr(b->placement ? b->path : NULL));
    json_t *chosen = point(in, &r->front.p[r->chosen]);
    if (chosen) {
        json_object_set_new(chosen, "index", json_integer(r->chosen));
        json_object_set_new(chosen, "metrics",
                            metrics(in->chosen, in->chosen_levels));
    }
    json_t *root = json_pack_ex(
        &jerr, 0, "{s:s, s:i, s:{s:s, s:o, s:i, s:I}, s:o, s:o, s:o, s:o, "
        "s:{s:s, s:o}, s:o, s:o, s:o, s:f}",
        "format", "topomap-parmapper-report", "version", 1, "graph", "path",
        in->o->a.pos[0], "layer", jstr(in->o->a.layer), "tasks", in->g->n,
        "edges", (json_int_t)in->g->nedges, "machine", machine(in), "search",
        search(in), "front", front ? front : json_null(), "chosen",
        chosen ? chosen : json_null(), "default", "mapping", "block",
        "metrics", metrics(in->deflt, in->deflt_levels), "slurm_map_cpu",
        cpus ? cpus : json_null(), "binding", binding ? binding : json_null(),
        "hetero", hetero(in), "seconds",
        in->total_seconds);
    /* A member that could not be made (out of memory, or a host name or
     * path that is not UTF-8) shows as a NULL object here. */
    if (!root)
        return tg_error_set(err, TG_ENOMEM, path, 0,
                            "cannot make the report: %s", jerr.text);
    int rc = write_json(fp, root) ? TG_EIO : 0;
    fputc('\n', fp);
    json_decref(root);
    return rc ? tg_error_set(err, rc, path, 0, "cannot write") : 0;
}
