/* cmd_eval.c: greedymap eval GRAPH --mapping FILE: every metric of a
 * mapping, whoever made it, as a table or as JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const char eval_help[] =
    "usage: greedymap eval GRAPH [machine options] [graph options]\n"
    "                      --mapping FILE\n"
    "                      [--mapping-format topomap|rankfile|scotch]\n"
    "                      [--scotch-by-node] [--json]\n"
    "\n"
    "Print every metric of a mapping of GRAPH's tasks onto the machine:\n"
    "hop-bytes (total, average, maximum and its task), dilation (average,\n"
    "byte-weighted average, maximum), bytes that leave a node, bytes that\n"
    "cross sockets inside a node (with --node-topology), the largest\n"
    "link load with fixed and with least-loaded routes, the bytes that stop\n"
    "at each level (inside a node: pu, core, l3, numa, package with\n"
    "--node-topology; the levels of --hierarchy; node) and the\n"
    "communication cost J = sum over tasks and their edges of bytes x level\n"
    "distance, as KaHIP and SharedMap count it (see greedymap(1)).\n"
    "\n"
    "  --mapping FILE       the mapping\n"
    "  --mapping-format F   topomap (\"task host slot\"), rankfile (Open MPI\n"
    "                       \"rank N=host slot=S\") or scotch (a .map file);\n"
    "                       default: from the content (a line starting\n"
    "                       \"rank \" is a rankfile, a first line with one\n"
    "                       number a Scotch map, else topomap)\n"
    "  --scotch-by-node     Scotch targets are nodes, not processors: each\n"
    "                       node's slots are filled in task order\n"
    "  --json               one JSON object instead of the table\n"
    "\n" CMD_MACHINE_HELP "\n" CMD_GRAPH_HELP;

static const char *const format_names[] = {"topomap", "rankfile", "scotch"};

/* J and the bytes of every level, after the metrics table. */
static void print_levels(FILE *fp, const gm_level_metrics *lm)
{
    char label[48];
    for (int i = 0; i < lm->nlevels; i++) {
        if (lm->latency_level >= 0 && i >= lm->latency_level &&
            i < lm->nlevels - 1)
            snprintf(label, sizeof label, "bytes at %s (lat)",
                     lm->name[i]);
        else
            snprintf(label, sizeof label, "bytes at %s (x%" PRIu64 ")",
                     lm->name[i], lm->cost[i]);
        fprintf(fp, "%-25s%" PRIu64 "\n", label, lm->bytes[i]);
    }
    fprintf(fp, "%-25s%" PRIu64 "\n", "comm cost J", lm->comm_cost);
    if (lm->saturated)
        fprintf(fp, "(J or a level's bytes stopped at 2^64-1)\n");
}

void cmd_print_metrics(FILE *fp, const gm_machine *m, const gm_metrics *r,
                       const gm_level_metrics *lm)
{
    const int w = -25;
    char link[256];
    fprintf(fp, "%*s%d\n", w, "tasks", r->tasks);
    fprintf(fp, "%*s%" PRId64 "\n", w, "edges", r->edges);
    fprintf(fp, "%*s%" PRIu64 "\n", w, "bytes", r->bytes);
    fprintf(fp, "%*s%" PRIu64 "\n", w, "hop-bytes total", r->hop_bytes_total);
    fprintf(fp, "%*s%.2f\n", w, "hop-bytes avg", r->hop_bytes_avg);
    fprintf(fp, "%*s%" PRIu64 " (task %d)\n", w, "hop-bytes max",
            r->hop_bytes_max, r->hop_bytes_max_task);
    fprintf(fp, "%*s%.2f\n", w, "dilation avg", r->dilation_avg);
    fprintf(fp, "%*s%.2f\n", w, "dilation wavg", r->dilation_wavg);
    fprintf(fp, "%*s%d\n", w, "dilation max", r->dilation_max);
    fprintf(fp, "%*s%" PRIu64 " (%.2f%%)\n", w, "offnode bytes",
            r->offnode_bytes, 100 * r->offnode_share);
    if (r->has_node_topology)
        fprintf(fp, "%*s%" PRIu64 "\n", w, "cross-socket bytes",
                r->cross_socket_bytes);
    else
        fprintf(fp, "%*s- (no node topology)\n", w, "cross-socket bytes");
    fprintf(fp, "%*s%" PRIu64 " (%s)\n", w, "max link load fixed",
            r->load_max_fixed,
            r->load_max_fixed_link < 0
                ? "no link"
                : gm_link_name(m, r->load_max_fixed_link, link, sizeof link));
    fprintf(fp, "%*s%" PRIu64 " (%s)\n", w, "max link load heuristic",
            r->load_max_heuristic,
            r->load_max_heuristic_link < 0
                ? "no link"
                : gm_link_name(m, r->load_max_heuristic_link, link,
                               sizeof link));
    if (r->saturated)
        fprintf(fp, "(some values stopped at 2^64-1: they do not fit in 64 "
                    "bits)\n");
    print_levels(fp, lm);
}

/* s as a JSON string (NULL as null). */
static void json_string(FILE *fp, const char *s)
{
    if (!s) {
        fputs("null", fp);
        return;
    }
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static void json_link(FILE *fp, const gm_machine *m, int link)
{
    char name[256];
    json_string(fp, link < 0 ? NULL : gm_link_name(m, link, name, sizeof name));
}

/* Doubles with 17 digits read back exactly. */
static void print_json(const cmd_args *a, const gm_machine *m,
                       gm_map_format f, const gm_metrics *r,
                       const gm_level_metrics *lm)
{
    printf("{\n  \"graph\": ");
    json_string(stdout, a->pos[0]);
    printf(",\n  \"layer\": ");
    json_string(stdout, a->layer);
    printf(",\n  \"mapping\": ");
    json_string(stdout, a->mapping);
    printf(",\n  \"mapping_format\": \"%s\",\n  \"network\": ",
           format_names[f]);
    json_string(stdout, a->network ? a->network : "flat");
    printf(",\n  \"nodes\": %d,\n  \"slots\": %" PRId64 ",\n",
           gm_machine_nodes(m), gm_machine_total_slots(m));
    printf("  \"tasks\": %d,\n  \"edges\": %" PRId64 ",\n", r->tasks, r->edges);
    printf("  \"bytes\": %" PRIu64 ",\n", r->bytes);
    printf("  \"hop_bytes_total\": %" PRIu64 ",\n", r->hop_bytes_total);
    printf("  \"hop_bytes_avg\": %.17g,\n", r->hop_bytes_avg);
    printf("  \"hop_bytes_max\": %" PRIu64 ",\n", r->hop_bytes_max);
    printf("  \"hop_bytes_max_task\": %d,\n", r->hop_bytes_max_task);
    printf("  \"dilation_avg\": %.17g,\n", r->dilation_avg);
    printf("  \"dilation_wavg\": %.17g,\n", r->dilation_wavg);
    printf("  \"dilation_max\": %d,\n", r->dilation_max);
    printf("  \"offnode_bytes\": %" PRIu64 ",\n", r->offnode_bytes);
    printf("  \"offnode_share\": %.17g,\n", r->offnode_share);
    if (r->has_node_topology)
        printf("  \"cross_socket_bytes\": %" PRIu64 ",\n",
               r->cross_socket_bytes);
    else
        printf("  \"cross_socket_bytes\": null,\n");
    printf("  \"load_max_fixed\": %" PRIu64 ",\n  \"load_max_fixed_link\": ",
           r->load_max_fixed);
    json_link(stdout, m, r->load_max_fixed_link);
    printf(",\n  \"load_max_heuristic\": %" PRIu64
           ",\n  \"load_max_heuristic_link\": ",
           r->load_max_heuristic);
    json_link(stdout, m, r->load_max_heuristic_link);
    printf(",\n  \"comm_cost\": %" PRIu64 ",\n  \"numa_latency\": %s,"
           "\n  \"levels\": [",
           lm->comm_cost, lm->latency_level >= 0 ? "true" : "false");
    for (int i = 0; i < lm->nlevels; i++) {
        printf("%s\n    {\"name\": ", i ? "," : "");
        json_string(stdout, lm->name[i]);
        printf(", \"cost\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
               lm->cost[i], lm->bytes[i]);
    }
    printf("\n  ],\n  \"saturated\": %s\n}\n",
           r->saturated || lm->saturated ? "true" : "false");
}

/* The mapping format --mapping-format names (*f untouched without it). */
static int named_format(const cmd_args *a, gm_map_format *f)
{
    if (!a->mapping_format)
        return 0;
    size_t i = 0;
    while (i < 3 && strcmp(a->mapping_format, format_names[i]))
        i++;
    if (i == 3)
        return cli_usage_error("--mapping-format: topomap, rankfile or "
                               "scotch, not '%s'",
                               a->mapping_format);
    *f = (gm_map_format)i;
    return 0;
}

int cmd_eval(int argc, char **argv)
{
    cmd_args a;
    int rc = cmd_parse(argc, argv, eval_help,
                       CMD_OPT_MACHINE | CMD_OPT_GRAPH | CMD_OPT_EVAL, 1, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.mapping)
        return cli_usage_error("no mapping: give --mapping FILE");
    /* The file is read once, its format told from the text the reader
     * then parses: a pipe cannot be read twice. */
    gm_map_format f = GM_MAP_TOPOMAP;
    if ((rc = named_format(&a, &f)))
        return rc;
    gm_map_text *text = NULL;
    gm_machine *m = NULL;
    tg_graph *g = NULL;
    gm_place *map = NULL;
    tg_error err;
    if (gm_map_text_load(a.mapping, &text, a.mapping_format ? NULL : &f,
                         &err))
        return cli_fail(&err);
    if (a.by_node && f != GM_MAP_SCOTCH) {
        rc = cli_usage_error("--scotch-by-node: %s is not a Scotch map",
                             a.mapping);
        goto out;
    }
    if ((rc = cmd_machine(&a, &m)) || (rc = cmd_graph(&a, a.pos[0], m, &g)))
        goto out;
    if (gm_map_text_read(text, f, a.by_node, m, g->n, &map, NULL, &err)) {
        rc = cli_fail(&err);
        goto out;
    }
    gm_metrics r;
    cli_step("evaluating");
    gm_level_metrics lm;
    rc = gm_evaluate(g, m, map, 0, NULL, &r, &err);
    if (!rc)
        rc = gm_evaluate_levels(g, m, map, &lm, &err);
    cli_done();
    if (rc) {
        rc = cli_fail(&err);
        goto out;
    }
    if (a.json) {
        print_json(&a, m, f, &r, &lm);
    } else {
        printf("%-25s%s (%s)\n", "mapping", a.mapping, format_names[f]);
        cmd_print_metrics(stdout, m, &r, &lm);
    }
out:
    gm_map_text_free(text);
    free(map);
    tg_graph_free(g);
    gm_machine_free(m);
    return rc;
}
